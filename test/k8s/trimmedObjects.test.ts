// What a real cluster sends with every object and the cache drops: managedFields (written last in metadata by
// kube-apiserver) and kubectl's last-applied annotation. Listed or watched, the cached object is trimmed, keeps every
// other field, and keeps its generation exact beyond 2^53 (the note of the exact integer is kept beside the metadata
// object the reader parsed: a trimmed copy of that object lost it, and the rules compared a rounded generation).
//
// List pages the server compressed (kube-apiserver compresses large answers for a client that asks, as fetch and
// client-go ask) are inflated by the client.
//
// The server is a small raw node:http server written here: the project's local API server reads and writes objects
// with JSON.parse, which rounds such integers. No test sleeps: every wait is for the sync's end or a store change.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { getInt64 } from '../../src/core/model/int64.ts';
import { trimObject } from '../../src/k8s/store.ts';
import { loadKubeconfig } from '../../src/k8s/kubeconfig.ts';
import { createSession, type Session } from '../../src/k8s/session.ts';
import { reportPendingWaits, until } from '../support/wait.ts';

afterEach(reportPendingWaits);

const gitRepos = 'fleet.cattle.io/v1alpha1/gitrepos';
const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';

/** A GitRepo as kube-apiserver writes it, with integers beyond 2^53 as digits in the text. */
function gitRepoText(name: string, resourceVersion: string, generation: string): string {
	const managedFields = JSON.stringify([
		{
			manager: 'kubectl-client-side-apply',
			operation: 'Update',
			apiVersion: 'fleet.cattle.io/v1alpha1',
			time: '2026-11-22T08:00:00Z',
			fieldsType: 'FieldsV1',
			fieldsV1: { 'f:spec': { 'f:repo': {} } },
		},
	]);
	const annotations = JSON.stringify({ team: 'platform', [lastApplied]: '{"kind":"GitRepo"}' });
	return `{"apiVersion":"fleet.cattle.io/v1alpha1","kind":"GitRepo","metadata":{"name":"${name}","namespace":"a","resourceVersion":"${resourceVersion}","generation":${generation},"annotations":${annotations},"managedFields":${managedFields}},"spec":{"repo":"https://example.com/${name}"},"status":{"observedGeneration":${generation}}}`;
}

interface RawServer {
	readonly url: string;
	/** Whether list answers are compressed for a client that asks (kube-apiserver compresses large answers). */
	gzip: boolean;
	/** The Content-Encoding of each list answer sent, in order ("" for none). */
	readonly listEncodings: string[];
	/** Sends a watch event line on the open watch. */
	send(line: string): void;
	readonly watching: () => boolean;
	/** Calls `listener` when a watch opens; returns the function that stops it. */
	onWatch(listener: () => void): () => void;
	close(): Promise<void>;
}

async function startRawServer(): Promise<RawServer> {
	let watch: ServerResponse | undefined;
	const listEncodings: string[] = [];
	let gzip = false;
	const watchListeners = new Set<() => void>();
	const json = (response: ServerResponse, body: string): void => {
		response.writeHead(200, { 'Content-Type': 'application/json' });
		response.end(body);
	};
	const server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://localhost');
		if (url.pathname === '/apis') {
			json(
				response,
				JSON.stringify({
					kind: 'APIGroupList',
					groups: [
						{
							name: 'fleet.cattle.io',
							versions: [{ groupVersion: 'fleet.cattle.io/v1alpha1', version: 'v1alpha1' }],
							preferredVersion: { groupVersion: 'fleet.cattle.io/v1alpha1', version: 'v1alpha1' },
						},
					],
				}),
			);
		} else if (url.pathname === '/apis/fleet.cattle.io/v1alpha1') {
			json(
				response,
				JSON.stringify({
					kind: 'APIResourceList',
					groupVersion: 'fleet.cattle.io/v1alpha1',
					resources: [
						{ name: 'gitrepos', kind: 'GitRepo', namespaced: true, verbs: ['list', 'watch'] },
					],
				}),
			);
		} else if (url.pathname === '/apis/fleet.cattle.io/v1alpha1/gitrepos') {
			if (url.searchParams.get('watch') === 'true') {
				response.writeHead(200, { 'Content-Type': 'application/json' });
				response.flushHeaders();
				watch = response;
				for (const listener of [...watchListeners]) listener();
				return;
			}
			const list = `{"kind":"GitRepoList","apiVersion":"fleet.cattle.io/v1alpha1","metadata":{"resourceVersion":"7"},"items":[${gitRepoText('listed', '6', '9007199254740993')}]}`;
			if (gzip && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
				listEncodings.push('gzip');
				response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
				response.end(gzipSync(list));
				return;
			}
			listEncodings.push('');
			json(response, list);
		} else {
			response.writeHead(404, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ kind: 'Status', code: 404, message: 'not found' }));
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		get gzip() {
			return gzip;
		},
		set gzip(value) {
			gzip = value;
		},
		listEncodings,
		send: (line) => watch?.write(`${line}\n`),
		watching: () => watch !== undefined,
		onWatch(listener) {
			watchListeners.add(listener);
			return () => watchListeners.delete(listener);
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

describe('objects as the cache keeps them', () => {
	let server: RawServer;
	let dir: string;
	let session: Session | undefined;

	before(async () => {
		server = await startRawServer();
		dir = await mkdtemp(path.join(tmpdir(), 'ksl-trimmed-objects-'));
	});

	after(async () => {
		session?.dispose();
		await server.close();
		await rm(dir, { recursive: true, force: true });
	});

	async function open(): Promise<Session> {
		const file = path.join(dir, 'config');
		await writeFile(
			file,
			`apiVersion: v1
kind: Config
current-context: raw
clusters:
- name: raw
  cluster: { server: '${server.url}', insecure-skip-tls-verify: true }
users:
- name: someone
  user: { token: t }
contexts:
- name: raw
  context: { cluster: raw, user: someone, namespace: a }
`,
		);
		const kubeconfig = await loadKubeconfig({ env: { KUBECONFIG: file }, cwd: dir, home: dir });
		session?.dispose();
		const opened = createSession({ kubeconfig, context: 'raw', random: () => 0.5 });
		session = opened;
		opened.start();
		await opened.synced();
		return opened;
	}

	it(
		'are trimmed of managedFields and last-applied, listed or watched, with generations exact beyond 2^53',
		{ timeout: 30_000 },
		async () => {
			const opened = await open();
			const cached = (name: string): Record<string, unknown> | undefined =>
				opened.store.get(`fleet.cattle.io|GitRepo|a|${name}`, gitRepos);

			const listed = cached('listed');
			assert.ok(listed, 'the listed GitRepo is cached');
			assert.deepEqual(listed.metadata, {
				name: 'listed',
				namespace: 'a',
				resourceVersion: '6',
				generation: 9007199254740992,
				annotations: { team: 'platform' },
			});
			assert.equal(getInt64(listed, 'metadata', 'generation'), 9007199254740993n);
			assert.equal(getInt64(listed, 'status', 'observedGeneration'), 9007199254740993n);

			await until(server.watching, 'the session to watch GitRepos', [
				(listener) => server.onWatch(listener),
			]);
			server.send(`{"type":"ADDED","object":${gitRepoText('watched', '8', '9007199254740995')}}`);
			await until(
				() => cached('watched') !== undefined,
				() => 'the watched GitRepo to be cached',
				[(listener) => opened.onObject(listener)],
			);
			const watched = cached('watched');
			assert.deepEqual(watched?.metadata, {
				name: 'watched',
				namespace: 'a',
				resourceVersion: '8',
				generation: 9007199254740996,
				annotations: { team: 'platform' },
			});
			assert.equal(getInt64(watched, 'metadata', 'generation'), 9007199254740995n);
			// What is cached needs no more trimming.
			assert.equal(trimObject(watched), watched);
		},
	);

	it(
		'are read from a list page the server compressed, as kube-apiserver compresses large answers',
		{ timeout: 30_000 },
		async () => {
			server.gzip = true;
			server.listEncodings.length = 0;
			const opened = await open();
			assert.deepEqual(server.listEncodings, ['gzip']);
			const listed = opened.store.get('fleet.cattle.io|GitRepo|a|listed', gitRepos);
			assert.deepEqual(listed?.spec, { repo: 'https://example.com/listed' });
			assert.equal(getInt64(listed, 'metadata', 'generation'), 9007199254740993n);
			assert.deepEqual(opened.status().state, { kind: 'ready', message: '1 resource watched' });
		},
	);
});
