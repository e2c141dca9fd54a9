import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { gitRepo } from '../support/objects.ts';
import { configMap, gitRepos, metaOf, send, watch } from './client.ts';

const cms = '/api/v1/namespaces/default/configmaps';

async function createConfigMap(
	server: ApiServer,
	name: string,
	labels: Record<string, string> = {},
): Promise<string> {
	const response = await send(server, 'POST', cms, {
		body: { ...configMap(name), metadata: { name, labels } },
	});
	return String(metaOf(response.body).resourceVersion);
}

describe('watch', () => {
	let server: ApiServer;
	before(async () => {
		server = await startApiServer({ namespaces: ['fleet-default'], bookmarkIntervalMs: 0 });
	});
	after(() => server.close());

	it('starts with the current objects as ADDED when no resourceVersion is given, then streams changes', async () => {
		await createConfigMap(server, 'w1');
		const stream = await watch(server, `${cms}?watch=1`);
		try {
			assert.equal(stream.status, 200);
			await stream.waitFor(1);
			assert.deepEqual(
				stream.events.map((event) => [event.type, metaOf(event.object).name]),
				[['ADDED', 'w1']],
			);
			await send(server, 'PATCH', `${cms}/w1`, {
				contentType: 'application/merge-patch+json',
				body: { data: { a: '2' } },
			});
			await send(server, 'DELETE', `${cms}/w1`);
			const events = await stream.waitFor(3);
			assert.deepEqual(
				events.map((event) => event.type),
				['ADDED', 'MODIFIED', 'DELETED'],
			);
			const deleted = events[2];
			assert.equal(
				metaOf(deleted?.object).resourceVersion,
				String(server.store.resourceVersion),
				'DELETED carries the deletion revision',
			);
		} finally {
			stream.close();
		}
	});

	it('resumes from a resourceVersion, replaying what happened after it from the history', async () => {
		const start = await createConfigMap(server, 'r1');
		await createConfigMap(server, 'r2');
		await send(server, 'PATCH', `${cms}/r1`, {
			contentType: 'application/merge-patch+json',
			body: { data: { b: '1' } },
		});
		const stream = await watch(server, `${cms}?watch=true&resourceVersion=${start}`);
		try {
			const events = await stream.waitFor(2);
			assert.deepEqual(
				events.map((event) => [event.type, metaOf(event.object).name]),
				[
					['ADDED', 'r2'],
					['MODIFIED', 'r1'],
				],
			);
		} finally {
			stream.close();
		}
	});

	it('watches one object by field selector and one kind only', async () => {
		const start = String(server.store.resourceVersion);
		const stream = await watch(
			server,
			`${gitRepos()}?watch=1&resourceVersion=${start}&fieldSelector=metadata.name%3Done`,
		);
		try {
			await createConfigMap(server, 'one');
			await send(server, 'POST', gitRepos(), { body: gitRepo('two') });
			await send(server, 'POST', gitRepos(), { body: gitRepo('one') });
			// A change that matches, made last: a watch delivers in order, so once it is in, nothing before it is
			// still on its way.
			await send(server, 'PATCH', `${gitRepos()}/one`, {
				contentType: 'application/merge-patch+json',
				body: { metadata: { labels: { marker: 'yes' } } },
			});
			const events = await stream.waitFor(2);
			assert.deepEqual(
				events.map((event) => [event.type, event.object.kind, metaOf(event.object).name]),
				[
					['ADDED', 'GitRepo', 'one'],
					['MODIFIED', 'GitRepo', 'one'],
				],
			);
		} finally {
			stream.close();
		}
	});

	it('sends ADDED and DELETED when an object starts or stops matching the label selector', async () => {
		const start = await createConfigMap(server, 'sel', { team: 'a' });
		const stream = await watch(
			server,
			`${cms}?watch=1&resourceVersion=${start}&labelSelector=team%3Db`,
		);
		try {
			await send(server, 'PATCH', `${cms}/sel`, {
				contentType: 'application/merge-patch+json',
				body: { metadata: { labels: { team: 'b' } } },
			});
			await send(server, 'PATCH', `${cms}/sel`, {
				contentType: 'application/merge-patch+json',
				body: { data: { x: 'y' } },
			});
			await send(server, 'PATCH', `${cms}/sel`, {
				contentType: 'application/merge-patch+json',
				body: { metadata: { labels: { team: 'c' } } },
			});
			const events = await stream.waitFor(3);
			assert.deepEqual(
				events.map((event) => event.type),
				['ADDED', 'MODIFIED', 'DELETED'],
			);
		} finally {
			stream.close();
		}
	});

	it('sends BOOKMARK events with the current resourceVersion when bookmarks are allowed', async () => {
		const plain = await watch(
			server,
			`${cms}?watch=1&resourceVersion=${server.store.resourceVersion}`,
		);
		const stream = await watch(
			server,
			`${cms}?watch=1&resourceVersion=${server.store.resourceVersion}&allowWatchBookmarks=true`,
		);
		try {
			assert.equal(server.sendBookmarks(), 1, 'only the watch that allows bookmarks gets one');
			const [bookmark] = await stream.waitFor(1);
			assert.equal(bookmark?.type, 'BOOKMARK');
			assert.equal(bookmark?.object.kind, 'ConfigMap');
			assert.equal(metaOf(bookmark?.object).resourceVersion, String(server.store.resourceVersion));
			assert.equal(plain.events.length, 0);
		} finally {
			stream.close();
			plain.close();
		}
	});

	it('marks the end of the initial events with a bookmark for sendInitialEvents', async () => {
		await createConfigMap(server, 'initial');
		const stream = await watch(
			server,
			`${cms}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
		);
		try {
			const count = server.store.count(server.store.typeOf('v1', 'ConfigMap')!, 'default');
			const events = await stream.waitFor(count + 1);
			const last = events[count];
			assert.equal(last?.type, 'BOOKMARK');
			assert.deepEqual(
				(metaOf(last?.object).annotations as Record<string, string>)['k8s.io/initial-events-end'],
				'true',
			);
		} finally {
			stream.close();
		}
	});

	it('ends the watch after timeoutSeconds', async () => {
		const stream = await watch(
			server,
			`${cms}?watch=1&resourceVersion=${server.store.resourceVersion}&timeoutSeconds=0.1`,
		);
		assert.equal(await stream.ended, 'end');
		assert.equal(server.openWatchCount(), 0);
	});
});

describe('watch history', () => {
	it('answers an ERROR event with a 410 Expired Status for a resourceVersion older than the kept history', async () => {
		const server = await startApiServer({ historyLimit: 3 });
		try {
			const start = await createConfigMap(server, 'h0');
			for (let i = 1; i <= 8; i++) await createConfigMap(server, `h${i}`);
			const stream = await watch(server, `${cms}?watch=1&resourceVersion=${start}`);
			const [event] = await stream.waitFor(1);
			assert.equal(stream.status, 200);
			assert.equal(event?.type, 'ERROR');
			assert.deepEqual(
				{ kind: event?.object.kind, code: event?.object.code, reason: event?.object.reason },
				{ kind: 'Status', code: 410, reason: 'Expired' },
			);
			assert.match(String(event?.object.message), /^too old resource version: \d+ \(\d+\)$/);
			assert.equal(await stream.ended, 'end');
			const recent = await watch(
				server,
				`${cms}?watch=1&resourceVersion=${server.store.resourceVersion - 1}`,
			);
			const [latest] = await recent.waitFor(1);
			assert.equal(metaOf(latest?.object).name, 'h8');
			recent.close();
		} finally {
			await server.close();
		}
	});
});
