import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
	applyJsonPatch,
	applyMergePatch,
	applyStrategicMergePatch,
	type Json,
	type JsonObject,
} from '../../src/apiserver/patch.ts';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { gitRepo } from '../support/objects.ts';
import { configMap, gitRepos, metaOf, send } from './client.ts';

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
			body: gitRepo('patched', { spec: { repo: 'https://example.com/r', paths: ['a'] } }),
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

interface ManagedFieldsEntry {
	readonly manager?: string;
	readonly operation: string;
	readonly apiVersion: string;
	readonly time?: string;
	readonly fieldsType: string;
	readonly fieldsV1: Record<string, unknown>;
	readonly subresource?: string;
}

function managedFieldsOf(object: unknown): ManagedFieldsEntry[] {
	return (metaOf(object).managedFields as ManagedFieldsEntry[] | undefined) ?? [];
}

function entryOf(object: unknown, manager: string, operation = 'Update'): ManagedFieldsEntry {
	const entry = managedFieldsOf(object).find(
		(candidate) => candidate.manager === manager && candidate.operation === operation,
	);
	assert.ok(
		entry,
		`no ${operation} entry for ${manager}: ${JSON.stringify(managedFieldsOf(object))}`,
	);
	return entry;
}

describe('managedFields', () => {
	let server: ApiServer;
	const kubectlAgent = { 'User-Agent': 'kubectl/v1.32.4 (linux/amd64) kubernetes/59526cd' };
	const apply = (
		name: string,
		manager: string,
		spec: JsonObject,
		force = false,
	): ReturnType<typeof send> =>
		send(
			server,
			'PATCH',
			`${gitRepos()}/${name}?fieldManager=${manager}${force ? '&force=true' : ''}`,
			{
				contentType: 'application/apply-patch+yaml',
				body: JSON.stringify(gitRepo(name, { spec })),
			},
		);
	before(async () => {
		server = await startApiServer({ namespaces: ['fleet-default'] });
	});
	after(() => server.close());

	it('records an Update entry for a create, a patch and an update, named by fieldManager or the User-Agent', async () => {
		const created = await send(server, 'POST', `${gitRepos()}?fieldManager=creator`, {
			body: gitRepo('owned', { spec: { repo: 'r', branch: 'main' } }),
		});
		assert.equal(created.status, 201);
		const creator = entryOf(created.body, 'creator');
		assert.equal(creator.apiVersion, 'fleet.cattle.io/v1alpha1');
		assert.equal(creator.fieldsType, 'FieldsV1');
		assert.match(String(creator.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
		assert.deepEqual(creator.fieldsV1, { 'f:spec': { '.': {}, 'f:branch': {}, 'f:repo': {} } });

		const patched = await send(server, 'PATCH', `${gitRepos()}/owned`, {
			contentType: 'application/merge-patch+json',
			headers: kubectlAgent,
			body: { spec: { paused: true } },
		});
		assert.deepEqual(entryOf(patched.body, 'kubectl').fieldsV1, { 'f:spec': { 'f:paused': {} } });

		const updated = await send(server, 'PUT', `${gitRepos()}/owned?fieldManager=editor`, {
			body: { ...patched.body, spec: { repo: 'r2', paused: true } },
		});
		assert.equal(updated.status, 200);
		assert.deepEqual(
			entryOf(updated.body, 'editor').fieldsV1,
			{ 'f:spec': { 'f:repo': {} } },
			'the editor owns what it changed',
		);
		assert.deepEqual(
			entryOf(updated.body, 'creator').fieldsV1,
			{ 'f:spec': {} },
			'the creator keeps spec itself but lost the field taken and the one removed',
		);
	});

	it('keeps the status subresource entries apart', async () => {
		const response = await send(server, 'PATCH', `${gitRepos()}/owned/status?fieldManager=gitjob`, {
			contentType: 'application/merge-patch+json',
			body: { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
		});
		assert.equal(response.status, 200);
		const status = entryOf(response.body, 'gitjob');
		assert.equal(status.subresource, 'status');
		assert.deepEqual(status.fieldsV1, {
			'f:status': {
				'.': {},
				'f:conditions': {
					'.': {},
					'k:{"type":"Ready"}': { '.': {}, 'f:status': {}, 'f:type': {} },
				},
			},
		});
		assert.equal(entryOf(response.body, 'kubectl').subresource, undefined);
	});

	it('answers 409 when an apply changes a field an Update manager set, and moves it when forced', async () => {
		const conflicting = await apply('owned', 'fleet', { repo: 'r2', paused: false });
		assert.deepEqual([conflicting.status, conflicting.body.reason], [409, 'Conflict']);
		assert.equal(
			conflicting.body.message,
			'Apply failed with 1 conflict: conflict with "kubectl" using fleet.cattle.io/v1alpha1: .spec.paused',
		);
		assert.deepEqual((conflicting.body.details as { causes: unknown }).causes, [
			{
				reason: 'FieldManagerConflict',
				message: 'conflict with "kubectl" using fleet.cattle.io/v1alpha1',
				field: '.spec.paused',
			},
		]);

		const same = await apply('owned', 'fleet', { repo: 'r2', paused: true });
		assert.equal(same.status, 200, 'the same value is no conflict: the field is shared');
		assert.deepEqual(entryOf(same.body, 'fleet', 'Apply').fieldsV1, {
			'f:spec': { '.': {}, 'f:paused': {}, 'f:repo': {} },
		});
		assert.deepEqual(entryOf(same.body, 'kubectl').fieldsV1, { 'f:spec': { 'f:paused': {} } });

		const forced = await apply('owned', 'fleet', { repo: 'r2', paused: false }, true);
		assert.equal(forced.status, 200);
		assert.equal((forced.body.spec as { paused: boolean }).paused, false);
		assert.ok(
			!managedFieldsOf(forced.body).some((entry) => entry.manager === 'kubectl'),
			'kubectl owned nothing else, so its entry is gone',
		);
		assert.deepEqual(entryOf(forced.body, 'fleet', 'Apply').fieldsV1, {
			'f:spec': { '.': {}, 'f:paused': {}, 'f:repo': {} },
		});
	});

	it('lists every conflict by manager, as kube-apiserver does', async () => {
		await send(server, 'POST', `${gitRepos()}?fieldManager=creator`, {
			body: gitRepo('many', { spec: { repo: 'r', branch: 'main' } }),
		});
		const response = await apply('many', 'fleet', { repo: 'x', branch: 'dev' });
		assert.equal(response.status, 409);
		assert.equal(
			response.body.message,
			'Apply failed with 2 conflicts: conflicts with "creator" using fleet.cattle.io/v1alpha1:\n- .spec.branch\n- .spec.repo',
		);
	});

	it('keeps a field a manager stops applying while another manager owns it', async () => {
		assert.equal((await apply('shared', 'first', { repo: 'r', branch: 'main' })).status, 201);
		assert.equal((await apply('shared', 'second', { repo: 'r', branch: 'main' })).status, 200);
		const dropped = await apply('shared', 'first', { repo: 'r' });
		assert.deepEqual(dropped.body.spec, { repo: 'r', branch: 'main' });
		const gone = await apply('shared', 'second', { repo: 'r' });
		assert.deepEqual(gone.body.spec, { repo: 'r' }, 'nobody owns branch any more');
	});

	it('resets managedFields when a request sets them to one empty entry', async () => {
		const response = await send(server, 'PATCH', `${gitRepos()}/shared?fieldManager=resetter`, {
			contentType: 'application/merge-patch+json',
			body: { metadata: { managedFields: [{}] } },
		});
		assert.equal(response.status, 200);
		assert.equal(metaOf(response.body).managedFields, undefined);
	});
});
