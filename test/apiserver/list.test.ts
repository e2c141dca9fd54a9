import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import type { KubeObject } from '../../src/apiserver/store.ts';
import { bundleDeployment } from '../support/objects.ts';
import { metaOf, send, type Response } from './client.ts';

function bd(name: string, namespace: string, labels: Record<string, string>): KubeObject {
	return bundleDeployment(name, { namespace, labels });
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

describe('paged lists', () => {
	let server: ApiServer;
	const paging = '/apis/fleet.cattle.io/v1alpha1/namespaces/paging/bundledeployments';
	const page = async (
		query: string,
		continueToken?: string,
	): Promise<{
		names: string[];
		meta: Record<string, unknown>;
		next: string | undefined;
		status: number;
		body: Response['body'];
	}> => {
		const token =
			continueToken === undefined ? '' : `&continue=${encodeURIComponent(continueToken)}`;
		const response = await send(server, 'GET', `${paging}?${query}${token}`);
		const meta = metaOf(response.body);
		return {
			names: names(response.body.items),
			meta,
			next: typeof meta.continue === 'string' ? meta.continue : undefined,
			status: response.status,
			body: response.body,
		};
	};
	const patchBd = (name: string, body: unknown): Promise<unknown> =>
		send(server, 'PATCH', `${paging}/${name}`, {
			contentType: 'application/merge-patch+json',
			body,
		});
	before(async () => {
		server = await startApiServer({
			objects: [
				...['a', 'b', 'c', 'd', 'e', 'f'].map((name) => bd(name, 'paging', { tier: 'front' })),
				bd('x', 'paging2', {}),
			],
		});
	});
	after(() => server.close());

	it('shows on later pages the objects as they were at the first page: no new ones, deleted and modified ones as they were', async () => {
		const first = await page('limit=2');
		assert.deepEqual(first.names, ['paging/a', 'paging/b']);
		assert.equal(first.meta.remainingItemCount, 4);
		await send(server, 'POST', paging, { body: bd('bb', 'paging', { tier: 'front' }) });
		await send(server, 'POST', paging, { body: bd('z', 'paging', { tier: 'front' }) });
		await patchBd('c', { metadata: { labels: { tier: 'back' } }, spec: { paused: true } });
		await send(server, 'DELETE', `${paging}/d`);
		await send(server, 'DELETE', `${paging}/a`);

		const second = await page('limit=2', first.next);
		assert.deepEqual(second.names, ['paging/c', 'paging/d']);
		assert.equal(second.meta.resourceVersion, first.meta.resourceVersion);
		assert.equal(second.meta.remainingItemCount, 2);
		const [c, d] = second.body.items as Record<string, unknown>[];
		assert.deepEqual(c?.spec, {}, 'c as it was, before the patch');
		assert.deepEqual(metaOf(c).labels, { tier: 'front' });
		assert.equal(metaOf(d).name, 'd', 'd is still listed: it was deleted after the first page');

		const third = await page('limit=2', second.next);
		assert.deepEqual(third.names, ['paging/e', 'paging/f']);
		assert.equal(third.meta.continue, undefined);

		const now = await page('');
		assert.deepEqual(now.names, [
			'paging/b',
			'paging/bb',
			'paging/c',
			'paging/e',
			'paging/f',
			'paging/z',
		]);
		assert.deepEqual((now.body.items?.[2]?.spec as Record<string, unknown>).paused, true);
	});

	it('selects later pages by the labels objects had at the first page', async () => {
		const first = await page('limit=1&labelSelector=tier%3Dfront');
		assert.deepEqual(first.names, ['paging/b']);
		await patchBd('e', { metadata: { labels: { tier: 'back' } } });
		await patchBd('c', { metadata: { labels: { tier: 'front' } } });
		const rest = await page('limit=10&labelSelector=tier%3Dfront', first.next);
		assert.deepEqual(rest.names, ['paging/bb', 'paging/e', 'paging/f', 'paging/z']);
	});

	it('answers 410 Expired when the history no longer reaches back to the first page', async () => {
		const small = await startApiServer({
			historyLimit: 2,
			objects: ['a', 'b', 'c'].map((name) => bd(name, 'paging', {})),
		});
		try {
			const first = await send(small, 'GET', `${paging}?limit=1`);
			assert.equal(first.status, 200);
			const token = encodeURIComponent(String(metaOf(first.body).continue));
			await send(small, 'PATCH', `${paging}/b`, {
				contentType: 'application/merge-patch+json',
				body: { spec: { paused: true } },
			});
			const kept = await send(small, 'GET', `${paging}?limit=1&continue=${token}`);
			assert.deepEqual(names(kept.body.items), ['paging/b']);
			assert.deepEqual(kept.body.items?.[0]?.spec, {});
			for (const name of ['d', 'e', 'f', 'g', 'h']) {
				await send(small, 'POST', paging, { body: bd(name, 'paging', {}) });
			}
			const stale = await send(small, 'GET', `${paging}?limit=1&continue=${token}`);
			assert.deepEqual([stale.status, stale.body.reason], [410, 'Expired']);
			assert.match(String(stale.body.message), /^The provided continue parameter is too old/);
		} finally {
			await small.close();
		}
	});
});
