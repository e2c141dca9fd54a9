// The cluster client against servers and credential commands that misbehave on purpose: a watch that never ends
// its line, a body that trickles in byte by byte, an answer of megabytes, malformed watch events, a credential
// plugin that prints without end, a gcp auth provider whose command hangs, a password in the server address.
// Each fault must become a visible state within its bound (small limits here, so each test takes a second or two),
// and the context must recover once the server behaves.
//
// The servers are small raw node:http servers written here, as the project's local API server does not misbehave
// this way. No test sleeps: every wait is for a state, an object or a request; node:test's timeout is the guard.
//
// KSL_HOSTILE_LONG=1 also runs each server fault with the default limits and reports how long it took to show.
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it as test } from 'node:test';
import { retryDelayMs } from '../../src/k8s/backoff.ts';
import type { ConnectionState } from '../../src/k8s/connectionState.ts';
import { loadKubeconfig } from '../../src/k8s/kubeconfig.ts';
import { RequestFailure, withUrlPasswordsHidden } from '../../src/k8s/requests.ts';
import { createSession, type Session, type SessionOptions } from '../../src/k8s/session.ts';
import { gitRepo } from '../support/objects.ts';
import { processGone, reportPendingWaits, until } from '../support/wait.ts';

afterEach(reportPendingWaits);

const long = process.env.KSL_HOSTILE_LONG === '1';

// Every test has a hang guard, as its waits have no deadline of their own.
function it(name: string, fn: () => void | Promise<void>): void {
	void test(name, { timeout: 20_000 }, fn);
}

const gitRepos = 'fleet.cattle.io/v1alpha1/gitrepos';

// ---------------------------------------------------------------------------------------------------------------
// A server that misbehaves on request

interface Behaviour {
	/** `/apis`: answered at once, or one byte at a time. */
	discovery: 'good' | 'trickle';
	/** The GitRepo list: at once, one byte at a time, or with a body of `hugeBytes`. */
	list: 'good' | 'trickle' | 'huge';
	/** A GitRepo watch: a bookmark then silence, a line that never ends, or a malformed event. */
	watch: 'good' | 'endless-line' | 'malformed';
}

interface HostileServer {
	readonly port: number;
	readonly behaviour: Behaviour;
	/** The GitRepos the server holds. */
	objects: Record<string, unknown>[];
	/** The size of a 'huge' list body. */
	hugeBytes: number;
	/** The Authorization header a request must carry; any when undefined. */
	authorization: string | undefined;
	/** Ends the watches that are open: the client reconnects, and meets the current behaviour. */
	endWatches(): void;
	close(): Promise<void>;
}

/** Writes `text` one byte every few milliseconds, padded with whitespace so it lasts, until the client goes. */
function trickle(response: ServerResponse, text: string): void {
	const body = text + ' '.repeat(64 * 1024);
	let at = 0;
	const timer = setInterval(() => {
		if (at >= body.length || response.destroyed) {
			clearInterval(timer);
			response.end();
			return;
		}
		response.write(body[at++]);
	}, 5);
	response.on('close', () => clearInterval(timer));
}

/** Writes `head`, then `filler` characters in 1 MiB chunks as fast as the client reads, then `tail`. */
function flood(response: ServerResponse, head: string, fillerBytes: number, tail: string): void {
	const chunk = 'x'.repeat(1024 * 1024);
	let left = fillerBytes;
	response.write(head);
	const more = (): void => {
		while (left > 0 && !response.destroyed) {
			const part = left >= chunk.length ? chunk : chunk.slice(0, left);
			left -= part.length;
			if (!response.write(part)) {
				response.once('drain', more);
				return;
			}
		}
		if (!response.destroyed) response.end(tail);
	};
	more();
}

async function startHostileServer(): Promise<HostileServer> {
	const watches = new Set<ServerResponse>();
	let resourceVersion = 1;
	const state: HostileServer = {
		port: 0,
		behaviour: { discovery: 'good', list: 'good', watch: 'good' },
		objects: [],
		hugeBytes: 3 * 1024 * 1024,
		authorization: undefined,
		endWatches() {
			for (const response of watches) response.end();
			watches.clear();
		},
		close: () => Promise.resolve(),
	};
	const json = (response: ServerResponse, status: number, body: unknown): void => {
		response.writeHead(status, { 'Content-Type': 'application/json' });
		response.end(JSON.stringify(body));
	};
	const serve = (response: ServerResponse, body: unknown, how: 'good' | 'trickle'): void => {
		if (how === 'good') return json(response, 200, body);
		response.writeHead(200, { 'Content-Type': 'application/json' });
		trickle(response, JSON.stringify(body));
	};
	const listBody = (): unknown => ({
		kind: 'GitRepoList',
		apiVersion: 'fleet.cattle.io/v1alpha1',
		metadata: { resourceVersion: String(resourceVersion) },
		items: state.objects,
	});
	const watch = (response: ServerResponse): void => {
		response.writeHead(200, { 'Content-Type': 'application/json' });
		watches.add(response);
		response.on('close', () => watches.delete(response));
		const how = state.behaviour.watch;
		if (how === 'good') {
			resourceVersion++;
			const bookmark = {
				type: 'BOOKMARK',
				object: {
					apiVersion: 'fleet.cattle.io/v1alpha1',
					kind: 'GitRepo',
					metadata: { resourceVersion: String(resourceVersion) },
				},
			};
			response.write(`${JSON.stringify(bookmark)}\n`);
		} else if (how === 'malformed') {
			response.write('{"type":"ADDED","object":{"metadata":\n');
		} else {
			// Bounded, so that a client without a limit fails its test instead of the machine.
			flood(response, '{"type":"ADDED","object":{"metadata":{"name":"', 256 * 1024 * 1024, '');
		}
	};
	const handle = (request: IncomingMessage, response: ServerResponse): void => {
		const url = new URL(request.url ?? '/', 'http://localhost');
		if (
			state.authorization !== undefined &&
			request.headers.authorization !== state.authorization
		) {
			json(response, 401, { kind: 'Status', code: 401, message: 'Unauthorized' });
			return;
		}
		if (url.pathname === '/apis') {
			serve(
				response,
				{
					kind: 'APIGroupList',
					groups: [
						{
							name: 'fleet.cattle.io',
							versions: [{ groupVersion: 'fleet.cattle.io/v1alpha1', version: 'v1alpha1' }],
							preferredVersion: { groupVersion: 'fleet.cattle.io/v1alpha1', version: 'v1alpha1' },
						},
					],
				},
				state.behaviour.discovery,
			);
			return;
		}
		if (url.pathname === '/apis/fleet.cattle.io/v1alpha1') {
			json(response, 200, {
				kind: 'APIResourceList',
				groupVersion: 'fleet.cattle.io/v1alpha1',
				resources: [
					{ name: 'gitrepos', kind: 'GitRepo', namespaced: true, verbs: ['list', 'watch'] },
				],
			});
			return;
		}
		if (url.pathname === '/apis/fleet.cattle.io/v1alpha1/gitrepos') {
			if (url.searchParams.get('watch') === 'true') {
				watch(response);
				return;
			}
			const how = state.behaviour.list;
			if (how !== 'huge') {
				serve(response, listBody(), how);
				return;
			}
			response.writeHead(200, { 'Content-Type': 'application/json' });
			flood(
				response,
				'{"kind":"GitRepoList","metadata":{"resourceVersion":"1"},"items":[{"metadata":{"namespace":"a","name":"big","annotations":{"filler":"',
				state.hugeBytes,
				'"}}}]}',
			);
			return;
		}
		json(response, 404, { kind: 'Status', code: 404, message: 'not found' });
	};
	const server = createServer(handle);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return Object.assign(state, {
		port: (server.address() as AddressInfo).port,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	});
}

/** A port nothing listens on. */
async function freePort(): Promise<number> {
	const server = createNetServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

// ---------------------------------------------------------------------------------------------------------------
// Sessions

// Quick retries keep the suite quick; a fault still has to wait out its backoff.
const fast: Partial<SessionOptions> = { backoff: { initialMs: 20, maxMs: 100 }, random: () => 0.5 };

interface Opened {
	readonly session: Session;
	/** What the session logged. */
	readonly logs: string[];
}

const sessions: Session[] = [];
let dir: string;

before(async () => {
	dir = await mkdtemp(path.join(tmpdir(), 'ksl-hostile-'));
});

after(async () => {
	for (const session of sessions) session.dispose();
	await rm(dir, { recursive: true, force: true });
});

afterEach(() => {
	for (const session of sessions.splice(0)) session.dispose();
});

/**
 * Writes a kubeconfig whose one context uses `server` and `user`, and opens a session on it. The servers speak
 * plain HTTP, which client-node allows only with TLS verification off.
 */
async function open(
	server: string,
	user: string,
	options: Partial<SessionOptions> = {},
): Promise<Opened> {
	const file = path.join(dir, `config-${sessions.length}-${Date.now()}`);
	await writeFile(
		file,
		`apiVersion: v1
kind: Config
current-context: hostile
clusters:
- name: hostile
  cluster: { server: '${server}', insecure-skip-tls-verify: true }
users:
- name: someone
  user:
${user
	.split('\n')
	.map((line) => `    ${line}`)
	.join('\n')}
contexts:
- name: hostile
  context: { cluster: hostile, user: someone, namespace: a }
`,
	);
	const kubeconfig = await loadKubeconfig({ env: { KUBECONFIG: file }, cwd: dir, home: dir });
	assert.deepEqual(
		kubeconfig.problems.filter((problem) => problem.severity === 'error'),
		[],
	);
	const logs: string[] = [];
	const session = createSession({
		kubeconfig,
		context: 'hostile',
		...fast,
		...options,
		log: (message) => logs.push(message),
	});
	sessions.push(session);
	session.start();
	return { session, logs };
}

/** Waits until the context's state is of `kind` with a message matching `message`. */
function reachesState(
	session: Session,
	kind: ConnectionState['kind'],
	message: RegExp,
): Promise<void> {
	return until(
		() => {
			const state = session.status().state;
			return state.kind === kind && message.test(state.message);
		},
		() =>
			`the context to be ${kind} /${message.source}/ (it is ${JSON.stringify(session.status().state)})`,
		[(listener) => session.onState(listener), (listener) => session.onObject(listener)],
	);
}

/** Waits until every GitRepo is watched again, and the state says so. */
function reachesReady(session: Session): Promise<void> {
	return reachesState(session, 'ready', /^1 resource watched$/);
}

function namesInCache(session: Session): string[] {
	return session.store
		.objectsOf(gitRepos)
		.map((object) => String((object.metadata as { name?: unknown }).name))
		.sort();
}

async function writeScript(name: string, body: string): Promise<string> {
	const file = path.join(dir, name);
	await writeFile(file, `#!/bin/sh\n${body}\n`);
	await chmod(file, 0o755);
	return file;
}

const tokenUser = '{ token: t }';

// ---------------------------------------------------------------------------------------------------------------

describe('hostile servers: every fault bounded, visible, and recovered from', () => {
	let server: HostileServer;

	before(async () => {
		server = await startHostileServer();
	});

	after(() => server.close());

	afterEach(() => {
		Object.assign(server.behaviour, { discovery: 'good', list: 'good', watch: 'good' });
		server.objects = [];
		server.authorization = undefined;
		server.endWatches();
	});

	it('stops a watch whose line never ends at the event limit, says so, and relists until it behaves', async () => {
		server.objects = [gitRepo('one', { namespace: 'a' })];
		const { session, logs } = await open(`http://127.0.0.1:${server.port}`, tokenUser, {
			maxWatchEventBytes: 1024 * 1024,
		});
		await reachesReady(session);
		server.behaviour.watch = 'endless-line';
		server.objects = [gitRepo('one', { namespace: 'a' }), gitRepo('two', { namespace: 'a' })];
		server.endWatches();
		await reachesState(session, 'server-error', /sent an event larger than 1 MiB/);
		assert.ok(logs.some((line) => /larger than 1 MiB/.test(line)));
		// A lost event is not lost for good: the resource is listed again.
		await until(() => namesInCache(session).join() === 'one,two', 'the relist to bring in "two"', [
			(listener) => session.onObject(listener),
		]);
		server.behaviour.watch = 'good';
		await reachesReady(session);
	});

	it('relists when a watch sends a malformed event, counts them, and says so until the watch behaves', async () => {
		server.objects = [gitRepo('one', { namespace: 'a' })];
		const { session, logs } = await open(`http://127.0.0.1:${server.port}`, tokenUser);
		await reachesReady(session);
		// The change to "two" would have come in the malformed event.
		server.behaviour.watch = 'malformed';
		server.objects = [gitRepo('two', { namespace: 'a' })];
		server.endWatches();
		await reachesState(session, 'server-error', /sent a malformed event \(1 so far\)/);
		await until(
			() => namesInCache(session).join() === 'two',
			'the relist to replace "one" by "two"',
			[(listener) => session.onObject(listener)],
		);
		await reachesState(session, 'server-error', /malformed event \(2 so far\)/);
		assert.ok(logs.some((line) => /malformed event \(1 so far\).*not JSON/.test(line)));
		server.behaviour.watch = 'good';
		await reachesReady(session);
		assert.deepEqual(namesInCache(session), ['two']);
	});

	for (const where of ['discovery', 'list'] as const) {
		it(`gives up on a ${where} answer that trickles in byte by byte at the deadline, then retries`, async () => {
			server.objects = [gitRepo('one', { namespace: 'a' })];
			server.behaviour[where] = 'trickle';
			const { session } = await open(`http://127.0.0.1:${server.port}`, tokenUser, {
				requestDeadlineMs: 500,
			});
			await reachesState(
				session,
				'cannot-reach',
				where === 'discovery'
					? /the answer to discover API groups did not arrive in full within 0\.5 s/
					: /the answer to list gitrepos\.fleet\.cattle\.io across namespaces did not arrive in full within 0\.5 s/,
			);
			server.behaviour[where] = 'good';
			await reachesReady(session);
			assert.deepEqual(namesInCache(session), ['one']);
		});
	}

	it('refuses an answer above the size limit, names the limit and its setting, and retries', async () => {
		server.objects = [gitRepo('one', { namespace: 'a' })];
		server.behaviour.list = 'huge';
		const { session } = await open(`http://127.0.0.1:${server.port}`, tokenUser, {
			maxResponseBytes: 1024 * 1024,
		});
		await reachesState(
			session,
			'server-error',
			/list gitrepos\.fleet\.cattle\.io across namespaces is larger than 1 MiB.*kubeStatusLens\.clusters\.maxResponseMB/,
		);
		server.behaviour.list = 'good';
		await reachesReady(session);
		assert.deepEqual(namesInCache(session), ['one']);
	});

	it('retries an answer above the size limit at the slowest pace, and slower each time', () => {
		const tooLarge = new RequestFailure('server-error', 'too large', undefined, true);
		const backoff = { initialMs: 500, maxMs: 30_000 };
		const full = (): number => 1;
		assert.equal(retryDelayMs(0, undefined, backoff, full), 500);
		assert.equal(retryDelayMs(0, tooLarge, backoff, full), 30_000);
		assert.equal(retryDelayMs(1, tooLarge, backoff, full), 60_000);
		assert.equal(retryDelayMs(20, tooLarge, backoff, full), 240_000);
	});

	it('hides the password of a server address in every state and log, and sends it as kubectl does', async () => {
		const closed = await freePort();
		const { session, logs } = await open(`http://admin:s3cret@127.0.0.1:${closed}`, '{}');
		await reachesState(session, 'cannot-reach', /http:\/\/admin:xxxxx@127\.0\.0\.1/);
		assert.doesNotMatch(JSON.stringify(session.status()), /s3cret/);
		assert.doesNotMatch(logs.join('\n'), /s3cret/);
		// Go's HTTP client sends a URL's credentials as basic auth, so kubectl reaches such a server.
		server.objects = [gitRepo('one', { namespace: 'a' })];
		server.authorization = `Basic ${Buffer.from('admin:s3cret').toString('base64')}`;
		const working = await open(`http://admin:s3cret@127.0.0.1:${server.port}`, '{}');
		await reachesReady(working.session);
	});

	it('masks a URL password as Go does, and leaves other text alone', () => {
		assert.equal(
			withUrlPasswordsHidden('cannot reach https://admin:p%40ss@host:6443/api: https://host/x'),
			'cannot reach https://admin:xxxxx@host:6443/api: https://host/x',
		);
		assert.equal(withUrlPasswordsHidden('https://token@host'), 'https://token@host');
	});
});

describe('hostile credential commands', () => {
	let server: HostileServer;

	before(async () => {
		server = await startHostileServer();
		server.objects = [gitRepo('one', { namespace: 'a' })];
	});

	after(() => server.close());

	it('stops a credential plugin that prints without end at 1 MiB and says so', async () => {
		const pidFile = path.join(dir, 'flood.pid');
		const plugin = await writeScript('flood.sh', `echo $$ > "${pidFile}"\nexec yes credential`);
		const { session } = await open(
			`http://127.0.0.1:${server.port}`,
			`exec: { apiVersion: client.authentication.k8s.io/v1, command: ${plugin} }`,
			// Longer than the test's guard: only the output limit can stop it in time.
			{ execTimeoutMs: 60_000 },
		);
		await reachesState(
			session,
			'login-required',
			/credential plugin ".*flood\.sh" printed more than 1 MiB on stdout/,
		);
		await processGone(Number((await readFile(pidFile, 'utf8')).trim()));
	});

	it('runs a gcp auth provider command without freezing the process, and stops it at the timeout', async () => {
		const pidFile = path.join(dir, 'gcp-slow.pid');
		const command = await writeScript('gcp-slow.sh', `echo $$ > "${pidFile}"\nexec sleep 30`);
		const { session } = await open(
			`http://127.0.0.1:${server.port}`,
			`auth-provider: { name: gcp, config: { cmd-path: ${command}, cmd-args: config config-helper } }`,
			// Long enough for a loaded machine to start the script (it writes its pid first), short for a test.
			{ execTimeoutMs: 2_000 },
		);
		await reachesState(session, 'login-required', /gcp-slow\.sh" did not answer within 2 s/);
		await processGone(Number((await readFile(pidFile, 'utf8')).trim()));
	});

	it('reads the token a gcp auth provider command prints, at its token-key', async () => {
		const expiry = new Date(Date.now() + 3_600_000).toISOString();
		const command = await writeScript(
			'gcp-ok.sh',
			`[ "$1 $2" = "config config-helper" ] || exit 3\necho '{"credential":{"access_token":"gcp-token","token_expiry":"${expiry}"}}'`,
		);
		server.authorization = 'Bearer gcp-token';
		const { session } = await open(
			`http://127.0.0.1:${server.port}`,
			`auth-provider:
  name: gcp
  config: { cmd-path: ${command}, cmd-args: config config-helper, token-key: '{.credential.access_token}', expiry-key: '{.credential.token_expiry}' }`,
		);
		await reachesReady(session);
	});

	it('uses a gcp access-token that is still valid without running the command', async () => {
		const command = await writeScript('gcp-fails.sh', 'exit 1');
		const expiry = new Date(Date.now() + 3_600_000).toISOString();
		server.authorization = 'Bearer cached-token';
		const { session } = await open(
			`http://127.0.0.1:${server.port}`,
			`auth-provider: { name: gcp, config: { cmd-path: ${command}, access-token: cached-token, expiry: '${expiry}' } }`,
		);
		await reachesReady(session);
	});

	it('says the azure auth provider is gone and what replaces it', async () => {
		const { session } = await open(
			`http://127.0.0.1:${server.port}`,
			'auth-provider: { name: azure, config: { cmd-path: /bin/sleep, cmd-args: "30" } }',
		);
		await reachesState(session, 'invalid-config', /azure auth provider.*kubelogin/);
	});
});

// ---------------------------------------------------------------------------------------------------------------
// With the default limits: how long each fault takes to show (reported, not asserted).

describe('hostile servers with the default limits (KSL_HOSTILE_LONG=1)', { skip: !long }, () => {
	let server: HostileServer;

	before(async () => {
		server = await startHostileServer();
		server.objects = [gitRepo('one', { namespace: 'a' })];
	});

	after(() => server.close());

	const measure = (
		name: string,
		arrange: () => Promise<Opened> | Opened,
		kind: ConnectionState['kind'],
		message: RegExp,
	): void => {
		void test(name, { timeout: 180_000 }, async (t) => {
			const startedAt = Date.now();
			const { session } = await arrange();
			await reachesState(session, kind, message);
			const seconds = (Date.now() - startedAt) / 1000;
			const line = `${name}: ${seconds.toFixed(1)} s to "${session.status().state.message}", rss ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB`;
			t.diagnostic(line);
			Object.assign(server.behaviour, { discovery: 'good', list: 'good', watch: 'good' });
			server.endWatches();
		});
	};

	const url = (): string => `http://127.0.0.1:${server.port}`;
	measure(
		'a watch line that never ends (16 MiB limit)',
		async () => {
			const opened = await open(url(), tokenUser, { backoff: {} });
			await reachesReady(opened.session);
			server.behaviour.watch = 'endless-line';
			server.endWatches();
			return opened;
		},
		'server-error',
		/larger than 16 MiB/,
	);
	measure(
		'discovery trickling byte by byte (60 s deadline)',
		() => {
			server.behaviour.discovery = 'trickle';
			return open(url(), tokenUser, { backoff: {} });
		},
		'cannot-reach',
		/within 60 s/,
	);
	measure(
		'a 1 GB list (256 MiB limit)',
		() => {
			server.behaviour.list = 'huge';
			server.hugeBytes = 1024 * 1024 * 1024;
			return open(url(), tokenUser, { backoff: {} });
		},
		'server-error',
		/larger than 256 MiB/,
	);
	measure(
		'a malformed watch event',
		async () => {
			const opened = await open(url(), tokenUser, { backoff: {} });
			await reachesReady(opened.session);
			server.behaviour.watch = 'malformed';
			server.endWatches();
			return opened;
		},
		'server-error',
		/malformed event/,
	);
	measure(
		'a credential plugin printing without end (1 MiB limit)',
		async () => {
			const plugin = await writeScript('flood-long.sh', 'exec yes credential');
			return open(
				url(),
				`exec: { apiVersion: client.authentication.k8s.io/v1, command: ${plugin} }`,
			);
		},
		'login-required',
		/printed more than 1 MiB/,
	);
	measure(
		'a gcp command that hangs (10 s timeout)',
		async () => {
			const command = await writeScript('gcp-hang-long.sh', 'exec sleep 60');
			return open(url(), `auth-provider: { name: gcp, config: { cmd-path: ${command} } }`);
		},
		'login-required',
		/did not answer within 10 s/,
	);
});
