import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { generateObjects } from '../../src/apiserver/faults.ts';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { reportPendingWaits, until } from '../support/wait.ts';
import { answerOrder, configMap, metaOf, requestLog, send, watch } from './client.ts';

afterEach(reportPendingWaits);

// The hang guard of the tests that wait on the server.
const guard = { timeout: 30_000 };

const cms = '/api/v1/namespaces/default/configmaps';
const bds = '/apis/fleet.cattle.io/v1alpha1/bundledeployments';

describe('fault injection (in-process)', () => {
	let server: ApiServer;
	const requests = requestLog();
	before(async () => {
		server = await startApiServer({ bookmarkIntervalMs: 20, log: requests.log });
		await send(server, 'POST', cms, { body: configMap('one') });
	});
	afterEach(() => server.faults.clear());
	after(() => server.close());

	it('drops open watches by resetting their connections', async () => {
		const stream = await watch(server, `${cms}?watch=1`);
		await stream.waitFor(1);
		assert.equal(server.faults.dropWatches(), 1);
		assert.equal(await stream.ended, 'error');
	});

	it('drops open watches with a clean end of the stream', async () => {
		const stream = await watch(server, `${cms}?watch=1`);
		await stream.waitFor(1);
		assert.equal(server.faults.dropWatches('end'), 1);
		assert.equal(await stream.ended, 'end');
	});

	for (const [code, reason] of [
		[410, 'Expired'],
		[403, 'Forbidden'],
		[404, 'NotFound'],
		[500, 'InternalError'],
	] as const) {
		it(`answers ${code} ${reason} for matching requests, as often as asked`, async () => {
			const handle = server.faults.respond(code, {
				method: 'GET',
				path: /\/configmaps$/,
				count: 2,
			});
			const first = await send(server, 'GET', cms);
			assert.deepEqual(
				[first.status, first.body.kind, first.body.reason, first.body.code],
				[code, 'Status', reason, code],
			);
			assert.equal(
				(await send(server, 'GET', `${cms}/one`)).status,
				200,
				'the path does not match',
			);
			assert.equal((await send(server, 'GET', cms)).status, code);
			assert.equal((await send(server, 'GET', cms)).status, 200, 'used up after two');
			assert.equal(handle.hits, 2);
		});
	}

	it('sends Retry-After with a 429 and a message of choice', async () => {
		server.faults.respond(
			429,
			{ path: 'configmaps' },
			{ retryAfterSeconds: 1, message: 'slow down' },
		);
		const response = await send(server, 'GET', cms);
		assert.equal(response.status, 429);
		assert.equal(response.headers['retry-after'], '1');
		assert.deepEqual(
			[response.body.reason, response.body.message],
			['TooManyRequests', 'slow down'],
		);
	});

	it('answers a watch with a 410 ERROR event when asked to, as kube-apiserver does', async () => {
		server.faults.respond(410, { watch: true }, { inWatch: true });
		const stream = await watch(server, `${cms}?watch=1&resourceVersion=1`);
		const [event] = await stream.waitFor(1);
		assert.equal(stream.status, 200);
		assert.deepEqual([event?.type, event?.object.code], ['ERROR', 410]);
		assert.equal(await stream.ended, 'end');
	});

	it('answers a watch with an HTTP 410 when not asked for an event', async () => {
		server.faults.respond(410, { watch: true, count: 1 });
		const response = await send(server, 'GET', `${cms}?watch=1`);
		assert.equal(response.status, 410);
	});

	it(
		'delays matching requests: one sent later to another path is answered first',
		guard,
		async () => {
			const delay = server.faults.delay(300, { path: /configmaps$/ });
			const { order, responses } = await answerOrder([
				['delayed', () => send(server, 'GET', cms)],
				['sent later', () => send(server, 'GET', `${cms}/one`)],
			]);
			assert.deepEqual(order, ['sent later', 'delayed']);
			assert.deepEqual(
				responses.map((response) => response.status),
				[200, 200],
			);
			assert.equal(responses[0]?.body.items?.length, 1, 'then answered as usual');
			assert.equal(delay.hits, 1);
		},
	);

	it('hangs a matching request until the client gives up', guard, async () => {
		const handle = server.faults.hang({ path: /configmaps$/ });
		const from = requests.lines.length;
		const giveUp = new AbortController();
		const hung = send(server, 'GET', cms, { signal: giveUp.signal });
		// The server logs a request it holds as "hung"; the client gives up only then.
		await until(
			() => requests.lines.slice(from).some((line) => line.startsWith(`GET ${cms} hung`)),
			'the server to hold the request',
			[requests.logged],
		);
		giveUp.abort();
		await assert.rejects(hung, { name: 'AbortError' });
		assert.equal(handle.hits, 1);
		handle.remove();
		assert.equal((await send(server, 'GET', cms)).status, 200);
	});

	it('answers a list with a huge generated list, paged by limit and continue', async () => {
		server.faults.hugeList(
			2500,
			{ path: /bundledeployments$/ },
			{ status: { display: { state: 'Ready' } } },
		);
		const first = await send(server, 'GET', `${bds}?limit=1000`);
		assert.equal(first.body.items?.length, 1000);
		assert.equal(metaOf(first.body).remainingItemCount, 1500);
		assert.deepEqual(first.body.items?.[0]?.status, { display: { state: 'Ready' } });
		const second = await send(
			server,
			'GET',
			`${bds}?limit=2000&continue=${String(metaOf(first.body).continue)}`,
		);
		assert.equal(second.body.items?.length, 1500);
		assert.equal(metaOf(second.body).continue, undefined);
		assert.equal(metaOf(second.body.items?.[1499]).name, 'bundledeployment-002499');
		const all = await send(server, 'GET', bds);
		assert.equal(all.body.items?.length, 2500);
		const watchStream = await watch(server, `${bds}?watch=1`);
		assert.equal(watchStream.status, 200, 'watches are not lists');
		watchStream.close();
	});

	it('expires the history so that a watch from an old resourceVersion gets 410', async () => {
		const old = server.store.resourceVersion;
		await send(server, 'POST', cms, { body: configMap('two') });
		const current = server.faults.expireHistory();
		const stream = await watch(server, `${cms}?watch=1&resourceVersion=${old}`);
		const [event] = await stream.waitFor(1);
		assert.deepEqual([event?.type, event?.object.reason], ['ERROR', 'Expired']);
		const fresh = await watch(
			server,
			`${cms}?watch=1&resourceVersion=${current}&allowWatchBookmarks=true`,
		);
		const [bookmark] = await fresh.waitFor(1);
		assert.equal(
			bookmark?.type,
			'BOOKMARK',
			'a current resourceVersion still works; bookmarks arrive on their own',
		);
		fresh.close();
	});

	it('generates objects that a store can hold, for scale tests', () => {
		const type = server.store.typeOf('fleet.cattle.io/v1alpha1', 'BundleDeployment');
		assert.ok(type);
		const objects = generateObjects(type, 3, { namespace: 'cluster-x', start: 10 });
		for (const object of objects) server.store.put(object);
		assert.deepEqual(
			server.store.all(type, 'cluster-x').map((object) => metaOf(object).name),
			['bundledeployment-000010', 'bundledeployment-000011', 'bundledeployment-000012'],
		);
	});
});

describe('fault injection over HTTP (/_faults)', () => {
	let server: ApiServer;
	const requests = requestLog();
	before(async () => {
		server = await startApiServer({
			users: [{ name: 'viewer', token: 'viewer-token' }],
			log: requests.log,
		});
	});
	after(() => server.close());

	it('is for the admin token only', async () => {
		const response = await send(server, 'GET', '/_faults', { token: 'viewer-token' });
		assert.equal(response.status, 403);
		assert.equal((await send(server, 'GET', '/_faults', { token: null })).status, 401);
	});

	it('sets a status fault, lists it, and removes it by id', async () => {
		const created = await send(server, 'POST', '/_faults', {
			body: { kind: 'status', code: 500, path: 'configmaps$', method: 'GET' },
		});
		assert.equal(created.status, 201);
		assert.equal((await send(server, 'GET', cms)).status, 500);
		const listed = await send(server, 'GET', '/_faults');
		assert.deepEqual(
			(listed.body.faults as { id: string; hits: number }[]).map((fault) => [fault.id, fault.hits]),
			[[created.body.id, 1]],
		);
		assert.equal((await send(server, 'DELETE', `/_faults/${String(created.body.id)}`)).status, 200);
		assert.equal((await send(server, 'GET', cms)).status, 200);
	});

	it('sets delay, hang and hugeList faults, and clears them all', guard, async () => {
		await send(server, 'POST', '/_faults', {
			body: { kind: 'delay', ms: 300, path: 'configmaps$' },
		});
		await send(server, 'POST', '/_faults', {
			body: { kind: 'hugeList', items: 5, path: 'bundledeployments$' },
		});
		await send(server, 'POST', '/_faults', { body: { kind: 'hang', path: 'secrets$', count: 1 } });
		const { order, responses } = await answerOrder([
			['delayed', () => send(server, 'GET', cms)],
			['huge list', () => send(server, 'GET', bds)],
		]);
		assert.deepEqual(order, ['huge list', 'delayed']);
		assert.equal(responses[0]?.status, 200);
		assert.equal(responses[1]?.body.items?.length, 5);
		const secrets = '/api/v1/namespaces/default/secrets';
		const from = requests.lines.length;
		const giveUp = new AbortController();
		const hung = send(server, 'GET', secrets, { signal: giveUp.signal });
		await until(
			() => requests.lines.slice(from).some((line) => line.startsWith(`GET ${secrets} hung`)),
			'the server to hold the request',
			[requests.logged],
		);
		giveUp.abort();
		await assert.rejects(hung, { name: 'AbortError' });
		assert.equal((await send(server, 'DELETE', '/_faults')).status, 200);
		assert.equal((await send(server, 'GET', bds)).body.items?.length, 0);
	});

	it('drops watches and expires the history', async () => {
		const stream = await watch(server, `${cms}?watch=1`);
		const dropped = await send(server, 'POST', '/_faults/drop-watches', { body: { mode: 'end' } });
		assert.equal(dropped.body.dropped, 1);
		assert.equal(await stream.ended, 'end');
		const old = server.store.resourceVersion;
		await send(server, 'POST', cms, { body: configMap('http') });
		const expired = await send(server, 'POST', '/_faults/expire-history');
		assert.equal(expired.body.resourceVersion, server.store.resourceVersion);
		const gone = await watch(server, `${cms}?watch=1&resourceVersion=${old}`);
		const [event] = await gone.waitFor(1);
		assert.equal(event?.object.code, 410);
	});

	it('answers 400 for a fault it does not know', async () => {
		const response = await send(server, 'POST', '/_faults', { body: { kind: 'explode' } });
		assert.equal(response.status, 400);
	});
});
