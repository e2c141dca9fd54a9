import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { startFleetController } from '../../src/apiserver/fleetController.ts';
import { fleetTroubleshootingFindings } from '../../src/core/checks/fleetTroubleshooting.ts';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { gitRepo } from '../support/objects.ts';
import { reportPendingWaits, until } from '../support/wait.ts';
import { send } from './client.ts';

afterEach(reportPendingWaits);

// The hang guard: the test waits on the stand-in's status write.
const guard = { timeout: 30_000 };

const shopPath = '/apis/fleet.cattle.io/v1alpha1/namespaces/fleet-default/gitrepos/shop';

interface GitRepoStatus {
	readonly updateGeneration?: number;
	readonly observedGeneration?: number;
}

describe('the Fleet force-update stand-in', () => {
	let server: ApiServer;
	let stop: () => void;
	before(async () => {
		server = await startApiServer({
			objects: [gitRepo('shop', { status: { observedGeneration: 1 } })],
		});
		stop = startFleetController(server.store, { delayMs: 50 });
	});
	after(async () => {
		stop();
		await server.close();
	});

	it(
		'records a new spec.forceSyncGeneration of a GitRepo as status.updateGeneration, with the generation observed',
		guard,
		async () => {
			const patched = await send(server, 'PATCH', shopPath, {
				contentType: 'application/merge-patch+json',
				body: { spec: { forceSyncGeneration: 1 } },
			});
			assert.equal(patched.status, 200);
			const generation = (patched.body as { metadata: { generation: number } }).metadata.generation;
			assert.ok(generation > 1, 'the spec change is a new generation');
			const type = server.store.typeOf('fleet.cattle.io/v1alpha1', 'GitRepo');
			assert.ok(type);
			const status = (): GitRepoStatus =>
				(server.store.get(type, 'fleet-default', 'shop')?.status ?? {}) as GitRepoStatus;
			await until(
				() => status().updateGeneration === 1,
				() => `status.updateGeneration to be 1: ${JSON.stringify(status())}`,
				[(listener) => server.store.subscribe(listener)],
			);
			assert.equal(status().observedGeneration, generation);
		},
	);
});

describe('the Fleet gitjob poller stand-in', () => {
	let server: ApiServer;
	let stop: () => void;
	before(async () => {
		server = await startApiServer({
			objects: [
				gitRepo('shop', { status: { observedGeneration: 1 } }),
				gitRepo('frozen', { spec: { disablePolling: true }, status: { observedGeneration: 1 } }),
				gitRepo('refused', {
					status: {
						observedGeneration: 1,
						conditions: [
							{
								type: 'Accepted',
								status: 'False',
								reason: 'Error',
								message:
									'disallowed repo https://github.com/example/repo: https://github.com/example/repo not in allowed set [https://github.com/acme/.*]',
							},
						],
					},
				}),
			],
		});
		stop = startFleetController(server.store, { pollEveryMs: 20 });
	});
	after(async () => {
		stop();
		await server.close();
	});

	it(
		'stamps status.lastPollingTriggered on a polling GitRepo, so Fleet analyze finds it polled, and leaves one with polling disabled or refused by a Policy alone',
		guard,
		async () => {
			const type = server.store.typeOf('fleet.cattle.io/v1alpha1', 'GitRepo');
			assert.ok(type);
			const statusOf = (name: string): Record<string, unknown> =>
				(server.store.get(type, 'fleet-default', name)?.status ?? {}) as Record<string, unknown>;
			await until(
				() => typeof statusOf('shop').lastPollingTriggered === 'string',
				() => `status.lastPollingTriggered on shop: ${JSON.stringify(statusOf('shop'))}`,
				[(listener) => server.store.subscribe(listener)],
			);
			const listed = await send(server, 'GET', '/apis/fleet.cattle.io/v1alpha1/gitrepos');
			const items = (listed.body as { items: Record<string, unknown>[] }).items;
			const unpolled = fleetTroubleshootingFindings(
				items.map((object) => ({ object, source: 0 })),
				{ now: Date.now() },
			).findings.filter((finding) => finding.code === 'fleet-git-repos-unpolled');
			assert.deepEqual(
				unpolled.map((finding) => finding.object.name),
				['frozen', 'refused'],
			);
			assert.equal(statusOf('frozen').lastPollingTriggered, undefined);
			assert.equal(statusOf('refused').lastPollingTriggered, undefined);
		},
	);
});
