// A list page whose connection is lost under it: a keep-alive connection the server closed while the client was busy
// parsing the previous page (what a loaded machine does), or a connection reset mid-answer. The page is sent again on
// a new connection, so the first sync ends with every object and no "cannot reach" in between; a connection lost
// every time still shows as "cannot reach" after a bounded number of tries.
//
// The server is a small raw node:http server written here: the project's local API server does not drop connections
// on purpose. No test sleeps: every wait is for the sync's end or a state; node:test's timeout is the guard.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { loadKubeconfig } from '../../src/k8s/kubeconfig.ts';
import { createSession, type Session } from '../../src/k8s/session.ts';
import { gitRepo } from '../support/objects.ts';
import { reportPendingWaits, until } from '../support/wait.ts';

afterEach(reportPendingWaits);

const gitRepos = 'fleet.cattle.io/v1alpha1/gitrepos';
const objectCount = 12;
const pageSize = 4;

type Fault = 'close-before-answer' | 'cut-mid-answer';

interface PagingServer {
	readonly url: string;
	/** What happens to the request of each page (by its continue token, "" for the first) the next times. */
	readonly faults: Map<string, Fault[]>;
	/** The continue token of each list request, in order. */
	readonly listRequests: string[];
	close(): Promise<void>;
}

async function startPagingServer(): Promise<PagingServer> {
	const objects = Array.from({ length: objectCount }, (_, index) =>
		gitRepo(`repo-${String(index).padStart(2, '0')}`, { namespace: 'a' }),
	);
	const faults = new Map<string, Fault[]>();
	const listRequests: string[] = [];
	const json = (response: ServerResponse, body: unknown): void => {
		response.writeHead(200, { 'Content-Type': 'application/json' });
		response.end(JSON.stringify(body));
	};
	const list = (request: IncomingMessage, response: ServerResponse, url: URL): void => {
		const token = url.searchParams.get('continue') ?? '';
		listRequests.push(token);
		const from = token === '' ? 0 : Number(token.slice(1));
		const limit = Number(url.searchParams.get('limit') ?? objectCount);
		const next = from + limit < objectCount ? `p${from + limit}` : undefined;
		const body = JSON.stringify({
			kind: 'GitRepoList',
			apiVersion: 'fleet.cattle.io/v1alpha1',
			metadata: { resourceVersion: '7', ...(next ? { continue: next } : {}) },
			items: objects.slice(from, from + limit),
		});
		const fault = faults.get(token)?.shift();
		if (fault === 'close-before-answer') {
			request.socket.destroy();
			return;
		}
		response.writeHead(200, { 'Content-Type': 'application/json' });
		if (fault === 'cut-mid-answer') {
			response.write(body.slice(0, body.length / 2), () => request.socket.destroy());
			return;
		}
		response.end(body);
	};
	const server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://localhost');
		if (url.pathname === '/apis') {
			json(response, {
				kind: 'APIGroupList',
				groups: [
					{
						name: 'fleet.cattle.io',
						versions: [{ groupVersion: 'fleet.cattle.io/v1alpha1', version: 'v1alpha1' }],
						preferredVersion: { groupVersion: 'fleet.cattle.io/v1alpha1', version: 'v1alpha1' },
					},
				],
			});
		} else if (url.pathname === '/apis/fleet.cattle.io/v1alpha1') {
			json(response, {
				kind: 'APIResourceList',
				groupVersion: 'fleet.cattle.io/v1alpha1',
				resources: [
					{ name: 'gitrepos', kind: 'GitRepo', namespaced: true, verbs: ['list', 'watch'] },
				],
			});
		} else if (url.pathname === '/apis/fleet.cattle.io/v1alpha1/gitrepos') {
			if (url.searchParams.get('watch') === 'true') {
				// A watch that stays open and quiet.
				response.writeHead(200, { 'Content-Type': 'application/json' });
				response.flushHeaders();
				return;
			}
			list(request, response, url);
		} else {
			response.writeHead(404, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ kind: 'Status', code: 404, message: 'not found' }));
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		faults,
		listRequests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

describe('a list page whose connection is lost', () => {
	let server: PagingServer;
	let dir: string;
	const sessions: Session[] = [];

	before(async () => {
		server = await startPagingServer();
		dir = await mkdtemp(path.join(tmpdir(), 'ksl-lost-connections-'));
	});

	after(async () => {
		await server.close();
		await rm(dir, { recursive: true, force: true });
	});

	afterEach(() => {
		for (const session of sessions.splice(0)) session.dispose();
		server.faults.clear();
		server.listRequests.length = 0;
	});

	async function open(): Promise<Session> {
		const file = path.join(dir, `config-${sessions.length}`);
		await writeFile(
			file,
			`apiVersion: v1
kind: Config
current-context: lost
clusters:
- name: lost
  cluster: { server: '${server.url}', insecure-skip-tls-verify: true }
users:
- name: someone
  user: { token: t }
contexts:
- name: lost
  context: { cluster: lost, user: someone, namespace: a }
`,
		);
		const kubeconfig = await loadKubeconfig({ env: { KUBECONFIG: file }, cwd: dir, home: dir });
		const session = createSession({
			kubeconfig,
			context: 'lost',
			pageSize,
			backoff: { initialMs: 20, maxMs: 100 },
			random: () => 0.5,
		});
		sessions.push(session);
		session.start();
		return session;
	}

	for (const fault of ['close-before-answer', 'cut-mid-answer'] as const) {
		it(`is sent again: the first sync ends with every object and no failure (${fault})`, async () => {
			server.faults.set('p4', [fault]);
			const session = await open();
			await session.synced();
			assert.deepEqual(session.status().state, { kind: 'ready', message: '1 resource watched' });
			assert.equal(session.store.countOf(gitRepos), objectCount);
			assert.equal(server.listRequests.filter((token) => token === 'p4').length, 2);
		});
	}

	it('lost every time: the context shows "cannot reach" after a bounded number of tries', async () => {
		server.faults.set(
			'p4',
			Array.from({ length: 100 }, () => 'close-before-answer' as const),
		);
		const session = await open();
		let triesWhenShown: number | undefined;
		session.onState((status) => {
			if (triesWhenShown === undefined && status.state.kind === 'cannot-reach') {
				triesWhenShown = server.listRequests.filter((token) => token === 'p4').length;
			}
		});
		await until(
			() => triesWhenShown !== undefined,
			() => `the context to show "cannot reach" (it is ${JSON.stringify(session.status().state)})`,
			[(listener) => session.onState(listener)],
		);
		assert.equal(triesWhenShown, 3);
		assert.match(session.status().state.message, /cannot reach/);
	});
});
