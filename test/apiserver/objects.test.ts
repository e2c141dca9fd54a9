import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { gitRepo } from '../support/objects.ts';
import { configMap, gitRepos, metaOf, send } from './client.ts';

const fixedNow = new Date('2026-01-02T03:04:05.678Z');

describe('create, get, update and delete', () => {
	let server: ApiServer;
	before(async () => {
		server = await startApiServer({ now: () => fixedNow, namespaces: ['fleet-default'] });
	});
	after(() => server.close());

	it('creates an object with uid, creationTimestamp, generation 1 and a resourceVersion, and drops its status', async () => {
		const body = { ...gitRepo('created'), status: { display: { state: 'Ready' } } };
		const before = server.store.resourceVersion;
		const response = await send(server, 'POST', gitRepos(), { body });
		assert.equal(response.status, 201);
		const meta = metaOf(response.body);
		assert.match(String(meta.uid), /^[0-9a-f-]{36}$/);
		assert.equal(meta.creationTimestamp, '2026-01-02T03:04:05Z');
		assert.equal(meta.generation, 1);
		assert.equal(meta.resourceVersion, String(before + 1));
		assert.equal(response.body.status, undefined);
		const got = await send(server, 'GET', `${gitRepos()}/created`);
		assert.deepEqual(got.body, response.body);
	});

	it('makes a name from generateName', async () => {
		const response = await send(server, 'POST', gitRepos(), {
			body: {
				apiVersion: 'fleet.cattle.io/v1alpha1',
				kind: 'GitRepo',
				metadata: { generateName: 'gen-' },
				spec: {},
			},
		});
		assert.equal(response.status, 201);
		assert.match(String(metaOf(response.body).name), /^gen-[a-z0-9]{5}$/);
	});

	it('answers AlreadyExists, NotFound, BadRequest and Invalid as kube-apiserver does', async () => {
		const again = await send(server, 'POST', gitRepos(), { body: gitRepo('created') });
		assert.deepEqual(
			[again.status, again.body.reason, again.body.message],
			[409, 'AlreadyExists', 'gitrepos.fleet.cattle.io "created" already exists'],
		);
		assert.deepEqual(again.body.details, {
			name: 'created',
			group: 'fleet.cattle.io',
			kind: 'gitrepos',
		});
		const missing = await send(server, 'GET', `${gitRepos()}/missing`);
		assert.deepEqual(
			[missing.status, missing.body.reason, missing.body.message],
			[404, 'NotFound', 'gitrepos.fleet.cattle.io "missing" not found'],
		);
		const noNamespace = await send(server, 'POST', gitRepos('does-not-exist'), {
			body: gitRepo('x', { namespace: 'does-not-exist' }),
		});
		assert.deepEqual(
			[noNamespace.status, noNamespace.body.message],
			[404, 'namespaces "does-not-exist" not found'],
		);
		const mismatch = await send(server, 'POST', gitRepos(), {
			body: gitRepo('x', { namespace: 'default' }),
		});
		assert.equal(mismatch.status, 400);
		assert.equal(mismatch.body.reason, 'BadRequest');
		const badName = await send(server, 'POST', gitRepos(), { body: gitRepo('Not_A_Name') });
		assert.deepEqual([badName.status, badName.body.reason], [422, 'Invalid']);
		const badJson = await send(server, 'POST', gitRepos(), { body: '{"kind":' });
		assert.equal(badJson.status, 400);
		const method = await send(server, 'PUT', gitRepos(), { body: gitRepo('x') });
		assert.deepEqual([method.status, method.body.reason], [405, 'MethodNotAllowed']);
	});

	it('updates with optimistic concurrency: a stale resourceVersion gets 409 Conflict', async () => {
		const current = (await send(server, 'GET', `${gitRepos()}/created`)).body;
		const stale = structuredClone(current);
		const updated = await send(server, 'PUT', `${gitRepos()}/created`, {
			body: { ...current, spec: { repo: 'https://example.com/new' } },
		});
		assert.equal(updated.status, 200);
		assert.equal(metaOf(updated.body).generation, 2);
		const conflict = await send(server, 'PUT', `${gitRepos()}/created`, {
			body: { ...stale, spec: { repo: 'https://example.com/lost' } },
		});
		assert.equal(conflict.status, 409);
		assert.equal(conflict.body.reason, 'Conflict');
		assert.equal(
			conflict.body.message,
			'Operation cannot be fulfilled on gitrepos.fleet.cattle.io "created": the object has been modified; please apply your changes to the latest version and try again',
		);
	});

	it('refuses an update without resourceVersion for a custom resource but allows it for a built-in kind', async () => {
		const custom = await send(server, 'PUT', `${gitRepos()}/created`, { body: gitRepo('created') });
		assert.deepEqual([custom.status, custom.body.reason], [422, 'Invalid']);
		await send(server, 'POST', '/api/v1/namespaces/default/configmaps', {
			body: configMap('settings'),
		});
		const builtIn = await send(server, 'PUT', '/api/v1/namespaces/default/configmaps/settings', {
			body: configMap('settings', 'default', { a: '2' }),
		});
		assert.equal(builtIn.status, 200);
		assert.deepEqual(builtIn.body.data, { a: '2' });
		assert.equal(metaOf(builtIn.body).generation, undefined, 'core kinds have no generation');
	});

	it('keeps resourceVersion and sends no event for an update that changes nothing', async () => {
		const current = (await send(server, 'GET', `${gitRepos()}/created`)).body;
		const before = server.store.resourceVersion;
		const same = await send(server, 'PUT', `${gitRepos()}/created`, { body: current });
		assert.equal(metaOf(same.body).resourceVersion, metaOf(current).resourceVersion);
		assert.equal(server.store.resourceVersion, before);
	});

	it('answers dryRun=All as if written and keeps nothing', async () => {
		const before = server.store.resourceVersion;
		const response = await send(server, 'POST', `${gitRepos()}?dryRun=All`, {
			body: gitRepo('dry'),
		});
		assert.equal(response.status, 201);
		assert.equal((await send(server, 'GET', `${gitRepos()}/dry`)).status, 404);
		assert.equal(server.store.resourceVersion, before);
	});

	it('deletes an object and answers 200 with it', async () => {
		await send(server, 'POST', gitRepos(), { body: gitRepo('short-lived') });
		const response = await send(server, 'DELETE', `${gitRepos()}/short-lived`);
		assert.equal(response.status, 200);
		assert.equal(metaOf(response.body).name, 'short-lived');
		assert.equal((await send(server, 'GET', `${gitRepos()}/short-lived`)).status, 404);
		assert.equal((await send(server, 'DELETE', `${gitRepos()}/short-lived`)).status, 404);
	});

	it('checks delete preconditions', async () => {
		const created = await send(server, 'POST', gitRepos(), { body: gitRepo('guarded') });
		const wrong = await send(server, 'DELETE', `${gitRepos()}/guarded`, {
			body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-it' } },
		});
		assert.deepEqual([wrong.status, wrong.body.reason], [409, 'Conflict']);
		const right = await send(server, 'DELETE', `${gitRepos()}/guarded`, {
			body: { preconditions: { uid: metaOf(created.body).uid } },
		});
		assert.equal(right.status, 200);
	});

	it('deletes a collection by label', async () => {
		for (const [name, team] of [
			['c1', 'a'],
			['c2', 'a'],
			['c3', 'b'],
		] as const) {
			await send(server, 'POST', '/api/v1/namespaces/default/configmaps', {
				body: { ...configMap(name), metadata: { name, labels: { team } } },
			});
		}
		const response = await send(
			server,
			'DELETE',
			'/api/v1/namespaces/default/configmaps?labelSelector=team%3Da',
		);
		assert.equal(response.status, 200);
		assert.deepEqual(
			response.body.items?.map((item) => metaOf(item).name),
			['c1', 'c2'],
		);
		assert.equal(
			(await send(server, 'GET', '/api/v1/namespaces/default/configmaps/c3')).status,
			200,
		);
	});
});

describe('the status subresource', () => {
	let server: ApiServer;
	const path = `${gitRepos()}/status-test`;
	before(async () => {
		server = await startApiServer({ namespaces: ['fleet-default'] });
		await send(server, 'POST', gitRepos(), { body: gitRepo('status-test') });
	});
	after(() => server.close());

	it('changes only the status through .../status, without a generation bump', async () => {
		const current = (await send(server, 'GET', path)).body;
		const response = await send(server, 'PUT', `${path}/status`, {
			body: { ...current, spec: { repo: 'ignored' }, status: { display: { state: 'Ready' } } },
		});
		assert.equal(response.status, 200);
		assert.deepEqual(response.body.status, { display: { state: 'Ready' } });
		assert.deepEqual(response.body.spec, { repo: 'https://github.com/example/repo' });
		assert.equal(metaOf(response.body).generation, 1);
		assert.notEqual(metaOf(response.body).resourceVersion, metaOf(current).resourceVersion);
	});

	it('ignores status changes sent to the main resource, and bumps generation on spec changes only', async () => {
		const current = (await send(server, 'GET', path)).body;
		const response = await send(server, 'PUT', path, {
			body: {
				...current,
				spec: { repo: 'https://example.com/2' },
				status: { display: { state: 'Hacked' } },
			},
		});
		assert.deepEqual(response.body.status, { display: { state: 'Ready' } });
		assert.equal(metaOf(response.body).generation, 2);
		const labelled = await send(server, 'PATCH', path, {
			contentType: 'application/merge-patch+json',
			body: { metadata: { labels: { a: 'b' } } },
		});
		assert.equal(metaOf(labelled.body).generation, 2, 'metadata changes leave generation alone');
	});

	it('patches the status with a merge patch on .../status', async () => {
		const response = await send(server, 'PATCH', `${path}/status`, {
			contentType: 'application/merge-patch+json',
			body: { status: { display: { message: 'hello' } }, spec: { repo: 'ignored' } },
		});
		assert.deepEqual(response.body.status, { display: { state: 'Ready', message: 'hello' } });
		assert.equal((response.body.spec as { repo: string }).repo, 'https://example.com/2');
		const got = await send(server, 'GET', `${path}/status`);
		assert.equal(got.status, 200);
	});

	it('has no status subresource for kinds without one', async () => {
		await send(server, 'POST', '/api/v1/namespaces/default/configmaps', {
			body: configMap('plain'),
		});
		const response = await send(
			server,
			'GET',
			'/api/v1/namespaces/default/configmaps/plain/status',
		);
		assert.equal(response.status, 404);
	});
});

describe('finalizers and namespaces', () => {
	let server: ApiServer;
	before(async () => {
		server = await startApiServer({ namespaces: ['fleet-default'] });
	});
	after(() => server.close());

	it('marks an object with finalizers for deletion (202) and removes it when the last finalizer goes', async () => {
		const body = {
			...gitRepo('held'),
			metadata: { name: 'held', finalizers: ['example.com/cleanup'] },
		};
		await send(server, 'POST', gitRepos(), { body });
		const marked = await send(server, 'DELETE', `${gitRepos()}/held`);
		assert.equal(marked.status, 202);
		assert.match(String(metaOf(marked.body).deletionTimestamp), /Z$/);
		assert.equal(metaOf(marked.body).generation, 2);
		const still = await send(server, 'GET', `${gitRepos()}/held`);
		assert.equal(still.status, 200);
		const added = await send(server, 'PATCH', `${gitRepos()}/held`, {
			contentType: 'application/json-patch+json',
			body: [{ op: 'add', path: '/metadata/finalizers/-', value: 'example.com/more' }],
		});
		assert.deepEqual(
			[added.status, added.body.reason],
			[422, 'Invalid'],
			'no new finalizers while deleting',
		);
		const released = await send(server, 'PATCH', `${gitRepos()}/held`, {
			contentType: 'application/merge-patch+json',
			body: { metadata: { finalizers: null } },
		});
		assert.equal(released.status, 200);
		assert.equal((await send(server, 'GET', `${gitRepos()}/held`)).status, 404);
	});

	it('creates namespaces as objects, and deleting one deletes its content', async () => {
		const created = await send(server, 'POST', '/api/v1/namespaces', {
			body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-x' } },
		});
		assert.equal(created.status, 201);
		assert.deepEqual(created.body.status, { phase: 'Active' });
		await send(server, 'POST', gitRepos('team-x'), {
			body: gitRepo('r1', { namespace: 'team-x' }),
		});
		await send(server, 'POST', gitRepos('team-x'), {
			body: {
				...gitRepo('r2', { namespace: 'team-x' }),
				metadata: { name: 'r2', finalizers: ['x/y'] },
			},
		});
		const deleting = await send(server, 'DELETE', '/api/v1/namespaces/team-x');
		assert.equal(deleting.status, 202);
		assert.deepEqual(deleting.body.status, { phase: 'Terminating' });
		assert.equal((await send(server, 'GET', `${gitRepos('team-x')}/r1`)).status, 404);
		const blocked = await send(server, 'POST', gitRepos('team-x'), {
			body: gitRepo('r3', { namespace: 'team-x' }),
		});
		assert.deepEqual([blocked.status, blocked.body.reason], [403, 'Forbidden']);
		await send(server, 'PATCH', `${gitRepos('team-x')}/r2`, {
			contentType: 'application/merge-patch+json',
			body: { metadata: { finalizers: [] } },
		});
		assert.equal((await send(server, 'GET', '/api/v1/namespaces/team-x')).status, 404);
	});
});
