import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import type { KubeObject } from '../../src/apiserver/store.ts';
import { metaOf, send } from './client.ts';

function bd(name: string, namespace: string, labels: Record<string, string>): KubeObject {
	return {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'BundleDeployment',
		metadata: { name, namespace, labels },
		spec: {},
	};
}

const bds = '/apis/fleet.cattle.io/v1alpha1/bundledeployments';

function names(items: readonly Record<string, unknown>[] | undefined): string[] {
	return (items ?? []).map(
		(item) => `${String(metaOf(item).namespace)}/${String(metaOf(item).name)}`,
	);
}

describe('list', () => {
	let server: ApiServer;
	before(async () => {
		server = await startApiServer({
			objects: [
				bd('web', 'cluster-a', { env: 'prod', tier: 'front' }),
				bd('db', 'cluster-a', { env: 'prod', tier: 'back' }),
				bd('web', 'cluster-b', { env: 'staging', tier: 'front' }),
				bd('cache', 'cluster-b', { env: 'dev' }),
				bd('web', 'cluster-c', { env: 'prod', tier: 'front', paused: 'true' }),
			],
		});
	});
	after(() => server.close());

	it('lists across namespaces in namespace/name order, with the list kind and resourceVersion', async () => {
		const response = await send(server, 'GET', bds);
		assert.equal(response.body.kind, 'BundleDeploymentList');
		assert.equal(response.body.apiVersion, 'fleet.cattle.io/v1alpha1');
		assert.equal(metaOf(response.body).resourceVersion, String(server.store.resourceVersion));
		assert.deepEqual(names(response.body.items), [
			'cluster-a/db',
			'cluster-a/web',
			'cluster-b/cache',
			'cluster-b/web',
			'cluster-c/web',
		]);
		assert.equal(response.body.items?.[0]?.kind, 'BundleDeployment');
	});

	it('lists one namespace', async () => {
		const response = await send(
			server,
			'GET',
			'/apis/fleet.cattle.io/v1alpha1/namespaces/cluster-b/bundledeployments',
		);
		assert.deepEqual(names(response.body.items), ['cluster-b/cache', 'cluster-b/web']);
	});

	it('filters by equality, set-based and existence label selectors', async () => {
		const cases: [string, string[]][] = [
			['env=prod', ['cluster-a/db', 'cluster-a/web', 'cluster-c/web']],
			['env==prod,tier!=back', ['cluster-a/web', 'cluster-c/web']],
			['env in (staging,dev)', ['cluster-b/cache', 'cluster-b/web']],
			['env notin (prod),tier', ['cluster-b/web']],
			['!tier', ['cluster-b/cache']],
			['paused', ['cluster-c/web']],
			['tier=front,!paused', ['cluster-a/web', 'cluster-b/web']],
		];
		for (const [selector, expected] of cases) {
			const response = await send(
				server,
				'GET',
				`${bds}?labelSelector=${encodeURIComponent(selector)}`,
			);
			assert.deepEqual(names(response.body.items), expected, selector);
		}
	});

	it('filters by metadata.name and metadata.namespace field selectors', async () => {
		const byName = await send(
			server,
			'GET',
			`${bds}?fieldSelector=${encodeURIComponent('metadata.name=web,metadata.namespace!=cluster-b')}`,
		);
		assert.deepEqual(names(byName.body.items), ['cluster-a/web', 'cluster-c/web']);
	});

	it('answers 400 for a field a custom resource does not index and for a bad label selector', async () => {
		const field = await send(server, 'GET', `${bds}?fieldSelector=spec.paused%3Dtrue`);
		assert.deepEqual([field.status, field.body.reason], [400, 'BadRequest']);
		assert.match(String(field.body.message), /field label not supported: spec\.paused/);
		const label = await send(server, 'GET', `${bds}?labelSelector=${encodeURIComponent('a b c')}`);
		assert.equal(label.status, 400);
	});

	it('pages with limit and continue, counting the remaining items', async () => {
		const first = await send(server, 'GET', `${bds}?limit=2`);
		assert.deepEqual(names(first.body.items), ['cluster-a/db', 'cluster-a/web']);
		const firstMeta = metaOf(first.body);
		assert.equal(firstMeta.remainingItemCount, 3);
		assert.equal(typeof firstMeta.continue, 'string');
		const second = await send(
			server,
			'GET',
			`${bds}?limit=2&continue=${encodeURIComponent(String(firstMeta.continue))}`,
		);
		assert.deepEqual(names(second.body.items), ['cluster-b/cache', 'cluster-b/web']);
		assert.equal(
			metaOf(second.body).resourceVersion,
			firstMeta.resourceVersion,
			'pages share the first page resourceVersion',
		);
		const third = await send(
			server,
			'GET',
			`${bds}?limit=2&continue=${encodeURIComponent(String(metaOf(second.body).continue))}`,
		);
		assert.deepEqual(names(third.body.items), ['cluster-c/web']);
		assert.equal(metaOf(third.body).continue, undefined);
		assert.equal(metaOf(third.body).remainingItemCount, undefined);
	});

	it('pages a selected list without a remaining count', async () => {
		const first = await send(server, 'GET', `${bds}?limit=1&labelSelector=tier%3Dfront`);
		assert.deepEqual(names(first.body.items), ['cluster-a/web']);
		assert.equal(metaOf(first.body).remainingItemCount, undefined);
		const rest = await send(
			server,
			'GET',
			`${bds}?limit=5&labelSelector=tier%3Dfront&continue=${encodeURIComponent(String(metaOf(first.body).continue))}`,
		);
		assert.deepEqual(names(rest.body.items), ['cluster-b/web', 'cluster-c/web']);
	});

	it('answers 410 Expired for a continue token older than the kept history, and 400 for a garbled one', async () => {
		const first = await send(server, 'GET', `${bds}?limit=1`);
		await send(server, 'POST', '/api/v1/namespaces', {
			body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bump' } },
		});
		server.faults.expireHistory();
		const stale = await send(
			server,
			'GET',
			`${bds}?limit=1&continue=${encodeURIComponent(String(metaOf(first.body).continue))}`,
		);
		assert.deepEqual([stale.status, stale.body.reason], [410, 'Expired']);
		const garbled = await send(server, 'GET', `${bds}?limit=1&continue=garbage`);
		assert.equal(garbled.status, 400);
	});
});
