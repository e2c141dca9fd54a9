import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { demoExamplesFolder, startDemo, type Demo } from '../../src/apiserver/demo.ts';
import { demoClusters } from '../../src/apiserver/demoScenario.ts';
import { loadObjects, playScenario, readObjects } from '../../src/apiserver/scenario.ts';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { reportPendingWaits, until } from '../support/wait.ts';
import { metaOf, send, watch } from './client.ts';

afterEach(reportPendingWaits);

// The hang guard of the tests that wait for a scenario to play.
const guard = { timeout: 30_000 };

describe('loading objects', () => {
	it('reads every example object of the workspace and the demo cluster, and the server holds them all', async () => {
		const read = await readObjects([
			join(demoExamplesFolder, '..', 'workspace'),
			demoExamplesFolder,
		]);
		assert.deepEqual(read.problems, []);
		assert.ok(read.objects.length > 60);
		const server = await startApiServer();
		try {
			const byKey = new Map(
				read.objects.map((object) => [
					JSON.stringify([object.kind, metaOf(object).namespace, metaOf(object).name]),
					object,
				]),
			);
			const loaded = loadObjects(server.store, [...byKey.values()]);
			assert.deepEqual(loaded.problems, []);
			assert.equal(loaded.loaded, byKey.size);
		} finally {
			await server.close();
		}
	});

	it('reports objects of kinds the server does not hold', async () => {
		const server = await startApiServer({ types: [] });
		try {
			const result = loadObjects(server.store, [
				{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } },
			]);
			assert.equal(result.loaded, 0);
			assert.match(
				result.problems[0] ?? '',
				/Widget w: the server does not know example.com\/v1 Widget/,
			);
		} finally {
			await server.close();
		}
	});
});

describe('playScenario', () => {
	let server: ApiServer;
	before(async () => {
		server = await startApiServer();
	});
	after(() => server.close());

	it('creates, patches and deletes objects at their offsets, seen by a watch', async () => {
		const stream = await watch(
			server,
			`/api/v1/namespaces/demo/configmaps?watch=1&resourceVersion=${server.store.resourceVersion}`,
		);
		const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'demo', name: 'timed' };
		const playback = playScenario(server, [
			{
				at: 0,
				action: {
					kind: 'put',
					object: {
						apiVersion: 'v1',
						kind: 'ConfigMap',
						metadata: { name: 'timed', namespace: 'demo' },
						data: { step: '1' },
					},
				},
			},
			{ at: 20, action: { kind: 'patch', ref, patch: { data: { step: '2' } } } },
			{
				at: 40,
				action: {
					kind: 'patch',
					ref,
					patchType: 'json',
					patch: [{ op: 'replace', path: '/data/step', value: '3' }],
				},
			},
			{ at: 60, action: { kind: 'delete', ref } },
		]);
		await playback.done;
		const events = await stream.waitFor(4);
		stream.close();
		assert.deepEqual(
			events.map((event) => [event.type, (event.object.data as { step: string }).step]),
			[
				['ADDED', '1'],
				['MODIFIED', '2'],
				['MODIFIED', '3'],
				['DELETED', '3'],
			],
		);
	});

	it('loops, restoring the starting objects and removing what a round created', guard, async () => {
		const start = {
			apiVersion: 'v1',
			kind: 'ConfigMap',
			metadata: { name: 'looped', namespace: 'default' },
			data: { round: 'start' },
		};
		server.store.put(start);
		const errors: string[] = [];
		const seen: [boolean, unknown][] = [];
		const looked = new Set<() => void>();
		const extra = {
			apiVersion: 'v1',
			kind: 'ConfigMap',
			metadata: { name: 'extra', namespace: 'default' },
		};
		const playback = playScenario(
			server,
			[
				{
					at: 0,
					description: 'look at the round start',
					action: {
						kind: 'run',
						run: (store) => {
							seen.push([
								store.find(extra) !== undefined,
								(store.find(start)?.data as { round?: string }).round,
							]);
							for (const listener of [...looked]) listener();
						},
					},
				},
				{
					at: 5,
					action: {
						kind: 'patch',
						ref: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'looped' },
						patch: { data: { round: 'changed' } },
					},
				},
				{ at: 10, action: { kind: 'put', object: extra } },
			],
			{
				loop: true,
				roundMs: 40,
				initial: [start],
				onError: (_step, error) => errors.push(error.message),
			},
		);
		await until(() => seen.length >= 3, 'three rounds', [
			(listener) => {
				looked.add(listener);
				return () => looked.delete(listener);
			},
		]);
		playback.stop();
		assert.deepEqual(errors, []);
		assert.deepEqual(seen.slice(0, 3), [
			[false, 'start'],
			[false, 'start'],
			[false, 'start'],
		]);
	});
});

describe('the demo cluster', () => {
	let demo: Demo;
	let folder: string;
	before(async () => {
		folder = await mkdtemp(join(tmpdir(), 'ksl-demo-'));
		demo = await startDemo({ basePort: 0, kubeconfigPath: join(folder, 'kubeconfig'), speed: 30 });
	});
	after(async () => {
		await demo.stop();
		await rm(folder, { recursive: true, force: true });
	});

	it('writes a kubeconfig with one context per demo cluster, each with its CA and token', async () => {
		const config = parse(await readFile(demo.kubeconfigPath, 'utf8')) as {
			contexts: { name: string; context: { namespace: string } }[];
			clusters: {
				name: string;
				cluster: { server: string; 'certificate-authority-data': string };
			}[];
			users: { name: string; user: { token: string } }[];
		};
		assert.deepEqual(
			config.contexts.map((context) => context.name),
			demoClusters.map((cluster) => cluster.name),
		);
		for (const cluster of config.clusters) {
			const server = demo.servers.get(cluster.name);
			assert.ok(server);
			assert.equal(cluster.cluster.server, server.url);
			assert.equal(
				Buffer.from(cluster.cluster['certificate-authority-data'], 'base64').toString(),
				server.caPem,
			);
			const response = await send(
				{
					port: server.port,
					caPem: server.caPem,
					token: config.users.find((user) => user.name === cluster.name)?.user.token ?? '',
				},
				'GET',
				'/version',
			);
			assert.equal(response.status, 200);
		}
	});

	it('serves each cluster its own groups', async () => {
		const platform = demo.servers.get('platform');
		assert.ok(platform);
		assert.equal(
			(await send(platform, 'GET', '/apis/fleet.cattle.io/v1alpha1/gitrepos')).status,
			404,
		);
		assert.equal(
			(await send(platform, 'GET', '/apis/goharbor.io/v1beta1/harborclusters')).body.items?.length,
			3,
		);
	});

	it(
		'plays the Fleet rollout: prod-us-1 fails and the GitRepo status follows its BundleDeployments',
		guard,
		async () => {
			const fleet = demo.servers.get('fleet-mgmt');
			assert.ok(fleet);
			const bdType = fleet.store.typeOf('fleet.cattle.io/v1alpha1', 'BundleDeployment');
			const gitRepoType = fleet.store.typeOf('fleet.cattle.io/v1alpha1', 'GitRepo');
			assert.ok(bdType && gitRepoType);
			const stateOf = (): unknown =>
				(
					fleet.store.get(bdType, 'cluster-fleet-default-prod-us-1-04523fc383a2', 'shop-frontend')
						?.status as { display?: { state?: string } } | undefined
				)?.display?.state;
			await until(() => stateOf() === 'ErrApplied', 'prod-us-1 to fail', [
				(listener) => fleet.store.subscribe(listener),
			]);
			const gitRepo = fleet.store.get(gitRepoType, 'fleet-default', 'shop');
			const display = (
				gitRepo?.status as
					{ display?: { state?: string; readyBundleDeployments?: string } } | undefined
			)?.display;
			assert.equal(display?.state, 'ErrApplied');
			assert.match(String(display?.readyBundleDeployments), /^\d\/6$/);
		},
	);

	it(
		'plays the KubeStellar rollout: the ITS WorkStatus objects follow the WDS generation',
		guard,
		async () => {
			const its = demo.servers.get('kubestellar-its');
			const wds = demo.servers.get('kubestellar-wds');
			assert.ok(its && wds);
			const wsType = its.store.typeOf('control.kubestellar.io/v1alpha1', 'WorkStatus');
			assert.ok(wsType);
			await until(
				() =>
					its.store
						.all(wsType, 'cluster3')
						.some((ws) => (ws.status as { observedGeneration?: number }).observedGeneration === 2),
				'a WorkStatus of cluster3 to observe generation 2',
				[(listener) => its.store.subscribe(listener)],
			);
			const deployment = await send(wds, 'GET', '/apis/apps/v1/namespaces/nginx/deployments/nginx');
			assert.equal(metaOf(deployment.body).generation, 2);
		},
	);
});
