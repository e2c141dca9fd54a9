import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
	applyJsonPatch,
	applyMergePatch,
	applyStrategicMergePatch,
	type Json,
} from '../../src/apiserver/patch.ts';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { configMap, gitRepo, gitRepos, metaOf, send } from './client.ts';

describe('patch functions', () => {
	it('merge patch: objects merge, null deletes, lists replace', () => {
		const target: Json = { a: { b: 1, c: 2 }, list: [1, 2], keep: true };
		assert.deepEqual(applyMergePatch(target, { a: { b: null, d: 3 }, list: [3] }), {
			a: { c: 2, d: 3 },
			list: [3],
			keep: true,
		});
	});

	it('JSON patch: add, remove, replace, move, copy, test, with escaped pointers', () => {
		const target: Json = { metadata: { annotations: { 'a/b': 'x' } }, list: [1, 2] };
		const result = applyJsonPatch(target, [
			{ op: 'add', path: '/list/-', value: 3 },
			{ op: 'add', path: '/list/0', value: 0 },
			{ op: 'replace', path: '/metadata/annotations/a~1b', value: 'y' },
			{ op: 'copy', from: '/list/1', path: '/first' },
			{ op: 'move', from: '/first', path: '/moved' },
			{ op: 'remove', path: '/list/3' },
			{ op: 'test', path: '/moved', value: 1 },
		]);
		assert.deepEqual(result, {
			metadata: { annotations: { 'a/b': 'y' } },
			list: [0, 1, 2],
			moved: 1,
		});
		assert.deepEqual(
			target,
			{ metadata: { annotations: { 'a/b': 'x' } }, list: [1, 2] },
			'the input is untouched',
		);
		assert.throws(() => applyJsonPatch(target, [{ op: 'test', path: '/list/0', value: 9 }]), {
			code: 422,
		});
		assert.throws(() => applyJsonPatch(target, [{ op: 'remove', path: '/nope' }]), { code: 422 });
		assert.throws(() => applyJsonPatch(target, { op: 'add' }), { code: 400 });
	});

	it('strategic merge patch: lists of objects merge by name and by type, directives apply', () => {
		const deployment: Json = {
			spec: {
				template: {
					spec: {
						containers: [
							{
								name: 'app',
								image: 'app:1',
								env: [
									{ name: 'A', value: '1' },
									{ name: 'B', value: '2' },
								],
							},
							{ name: 'sidecar', image: 'side:1' },
						],
					},
				},
			},
			status: {
				conditions: [
					{ type: 'Available', status: 'False' },
					{ type: 'Progressing', status: 'True' },
				],
			},
			metadata: { finalizers: ['a'] },
		};
		const patched = applyStrategicMergePatch(deployment, {
			spec: {
				template: {
					spec: {
						containers: [
							{
								name: 'app',
								image: 'app:2',
								env: [
									{ name: 'B', $patch: 'delete' },
									{ name: 'C', value: '3' },
								],
							},
							{ name: 'new', image: 'new:1' },
						],
						'$setElementOrder/containers': [{ name: 'new' }, { name: 'app' }, { name: 'sidecar' }],
					},
				},
			},
			status: { conditions: [{ type: 'Available', status: 'True' }] },
			metadata: { finalizers: ['b'], '$deleteFromPrimitiveList/finalizers': ['a'] },
		});
		assert.deepEqual(patched, {
			spec: {
				template: {
					spec: {
						containers: [
							{ name: 'new', image: 'new:1' },
							{
								name: 'app',
								image: 'app:2',
								env: [
									{ name: 'A', value: '1' },
									{ name: 'C', value: '3' },
								],
							},
							{ name: 'sidecar', image: 'side:1' },
						],
					},
				},
			},
			status: {
				conditions: [
					{ type: 'Available', status: 'True' },
					{ type: 'Progressing', status: 'True' },
				],
			},
			metadata: { finalizers: ['b'] },
		});
	});

	it('strategic merge patch: $patch replace and $retainKeys, and untagged lists replace', () => {
		const target: Json = {
			spec: {
				strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
				args: ['a', 'b'],
				selector: { x: '1' },
			},
		};
		const patched = applyStrategicMergePatch(target, {
			spec: {
				strategy: { type: 'Recreate', $retainKeys: ['type'] },
				args: ['c'],
				selector: { $patch: 'replace', y: '2' },
			},
		});
		assert.deepEqual(patched, {
			spec: { strategy: { type: 'Recreate' }, args: ['c'], selector: { y: '2' } },
		});
	});
});

describe('PATCH', () => {
	let server: ApiServer;
	const path = `${gitRepos()}/patched`;
	before(async () => {
		server = await startApiServer({ namespaces: ['fleet-default'] });
		await send(server, 'POST', gitRepos(), {
			body: gitRepo('patched', 'fleet-default', { repo: 'https://example.com/r', paths: ['a'] }),
		});
	});
	after(() => server.close());

	it('applies a JSON merge patch', async () => {
		const response = await send(server, 'PATCH', path, {
			contentType: 'application/merge-patch+json',
			body: { spec: { paused: true, paths: ['b', 'c'] } },
		});
		assert.equal(response.status, 200);
		assert.deepEqual(response.body.spec, {
			repo: 'https://example.com/r',
			paths: ['b', 'c'],
			paused: true,
		});
		assert.equal(metaOf(response.body).generation, 2);
	});

	it('applies a JSON patch, and answers 422 when a test operation fails', async () => {
		const response = await send(server, 'PATCH', path, {
			contentType: 'application/json-patch+json',
			body: [
				{ op: 'test', path: '/spec/paused', value: true },
				{ op: 'replace', path: '/spec/paused', value: false },
			],
		});
		assert.equal(response.status, 200);
		assert.equal((response.body.spec as { paused: boolean }).paused, false);
		const failed = await send(server, 'PATCH', path, {
			contentType: 'application/json-patch+json',
			body: [{ op: 'test', path: '/spec/paused', value: true }],
		});
		assert.deepEqual([failed.status, failed.body.reason], [422, 'Invalid']);
	});

	it('treats a resourceVersion in a patch as a precondition', async () => {
		const stale = await send(server, 'PATCH', path, {
			contentType: 'application/merge-patch+json',
			body: { metadata: { resourceVersion: '1' }, spec: { paused: true } },
		});
		assert.deepEqual([stale.status, stale.body.reason], [409, 'Conflict']);
	});

	it('applies a strategic merge patch to a built-in kind and refuses it (415) for a custom resource', async () => {
		const deployment = {
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			metadata: { name: 'web', namespace: 'default' },
			spec: {
				template: {
					spec: {
						containers: [
							{ name: 'web', image: 'nginx:1.27' },
							{ name: 'log', image: 'busybox' },
						],
					},
				},
			},
		};
		await send(server, 'POST', '/apis/apps/v1/namespaces/default/deployments', {
			body: deployment,
		});
		const response = await send(
			server,
			'PATCH',
			'/apis/apps/v1/namespaces/default/deployments/web',
			{
				contentType: 'application/strategic-merge-patch+json',
				body: {
					spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } },
				},
			},
		);
		assert.equal(response.status, 200);
		assert.deepEqual((response.body.spec as { template: { spec: unknown } }).template.spec, {
			containers: [
				{ name: 'web', image: 'nginx:1.28' },
				{ name: 'log', image: 'busybox' },
			],
		});
		const custom = await send(server, 'PATCH', path, {
			contentType: 'application/strategic-merge-patch+json',
			body: { spec: { paused: true } },
		});
		assert.deepEqual([custom.status, custom.body.reason], [415, 'UnsupportedMediaType']);
	});

	it('answers 415 for an unknown patch type and 404 for a missing object', async () => {
		const unknown = await send(server, 'PATCH', path, { contentType: 'text/plain', body: 'x' });
		assert.equal(unknown.status, 415);
		const missing = await send(server, 'PATCH', `${gitRepos()}/missing`, {
			contentType: 'application/merge-patch+json',
			body: {},
		});
		assert.equal(missing.status, 404);
	});
});

describe('server-side apply', () => {
	let server: ApiServer;
	const path = `${gitRepos()}/applied`;
	const applied = (spec: Record<string, unknown>): string =>
		JSON.stringify({
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'GitRepo',
			metadata: { name: 'applied', namespace: 'fleet-default' },
			spec,
		});
	before(async () => {
		server = await startApiServer({ namespaces: ['fleet-default'] });
	});
	after(() => server.close());

	it('creates the object on first apply (201) and requires a field manager', async () => {
		const noManager = await send(server, 'PATCH', path, {
			contentType: 'application/apply-patch+yaml',
			body: applied({ repo: 'r' }),
		});
		assert.equal(noManager.status, 400);
		const created = await send(server, 'PATCH', `${path}?fieldManager=tester`, {
			contentType: 'application/apply-patch+yaml',
			body: applied({ repo: 'r', branch: 'main' }),
		});
		assert.equal(created.status, 201);
		assert.deepEqual(created.body.spec, { repo: 'r', branch: 'main' });
	});

	it('accepts YAML, merges into what others set, and removes what the same manager stopped applying', async () => {
		await send(server, 'PATCH', path, {
			contentType: 'application/merge-patch+json',
			body: { spec: { paused: true } },
		});
		const yaml =
			'apiVersion: fleet.cattle.io/v1alpha1\nkind: GitRepo\nmetadata:\n  name: applied\n  namespace: fleet-default\nspec:\n  repo: r2\n';
		const response = await send(server, 'PATCH', `${path}?fieldManager=tester`, {
			contentType: 'application/apply-patch+yaml',
			body: yaml,
		});
		assert.equal(response.status, 200);
		assert.deepEqual(
			response.body.spec,
			{ repo: 'r2', paused: true },
			'branch was dropped by its manager; paused belongs to someone else',
		);
	});

	it('answers 409 when another apply manager owns a field with another value, unless forced', async () => {
		const other = await send(server, 'PATCH', `${path}?fieldManager=other`, {
			contentType: 'application/apply-patch+yaml',
			body: applied({ repo: 'r3' }),
		});
		assert.deepEqual([other.status, other.body.reason], [409, 'Conflict']);
		assert.match(String(other.body.message), /conflict with "tester": \.spec\.repo/);
		const forced = await send(server, 'PATCH', `${path}?fieldManager=other&force=true`, {
			contentType: 'application/apply-patch+yaml',
			body: applied({ repo: 'r3' }),
		});
		assert.equal(forced.status, 200);
		assert.equal((forced.body.spec as { repo: string }).repo, 'r3');
	});

	it('applies a built-in kind as kubectl apply --server-side does', async () => {
		const body = JSON.stringify({ ...configMap('settings'), data: { a: '1', b: '2' } });
		assert.equal(
			(
				await send(
					server,
					'PATCH',
					'/api/v1/namespaces/default/configmaps/settings?fieldManager=kubectl&force=false',
					{ contentType: 'application/apply-patch+yaml', body },
				)
			).status,
			201,
		);
		const again = JSON.stringify({ ...configMap('settings'), data: { a: '1' } });
		const response = await send(
			server,
			'PATCH',
			'/api/v1/namespaces/default/configmaps/settings?fieldManager=kubectl&force=false',
			{ contentType: 'application/apply-patch+yaml', body: again },
		);
		assert.deepEqual(response.body.data, { a: '1' });
	});
});
