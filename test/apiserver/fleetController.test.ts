import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { startFleetController } from '../../src/apiserver/fleetController.ts';
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
