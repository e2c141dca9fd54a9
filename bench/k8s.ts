// `scripts/node24 bench/k8s.ts`: the live-cluster client against the local API server. Printed side by side in one
// run: the initial sync of 100,000 BundleDeployments through src/k8s (client-node, TLS, paging, trimming, the
// cache) next to fetching the same pages and JSON.parse-ing them; and the heap the cache holds per 10,000 objects.
// Figures only, never an assertion. The machine may be shared: each figure is the best of a few runs.
import { spawn } from 'node:child_process';
import { Agent, get } from 'node:https';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { JsonObject } from '../src/apiserver/patch.ts';
import { startApiServer } from '../src/apiserver/server.ts';
import { mergeKubeconfigs } from '../src/k8s/kubeconfig.ts';
import { createSession, type Session } from '../src/k8s/session.ts';
import { bundleDeployment } from './generate.ts';

const count = Number(process.env.KSL_BENCH_COUNT ?? 100_000);
const repeats = 3;
const bundleDeploymentsPath = '/apis/fleet.cattle.io/v1alpha1/bundledeployments';

interface ServerInfo {
	readonly url: string;
	readonly token: string;
	readonly caPem: string;
}

function bundleDeploymentWithFields(index: number): JsonObject {
	const object = bundleDeployment(index, `bundle-${index % 1000}`, `c${Math.floor(index / 1000)}`);
	const metadata = object.metadata as Record<string, unknown>;
	delete metadata.uid;
	// What a real cluster adds and the cache drops: the agent's field ownership.
	metadata.managedFields = [
		{
			manager: 'fleet-agent',
			operation: 'Update',
			apiVersion: 'fleet.cattle.io/v1alpha1',
			time: '2026-11-22T08:00:00Z',
			fieldsType: 'FieldsV1',
			fieldsV1: { 'f:status': { '.': {}, 'f:conditions': {}, 'f:ready': {} } },
			subresource: 'status',
		},
	];
	// The generator builds plain JSON; its declared type is only wider.
	return object as JsonObject;
}

function milliseconds(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
	const start = process.hrtime.bigint();
	await run();
	return milliseconds(start);
}

function line(label: string, ms: number, baselineMs?: number): void {
	const rate = Math.round((count / ms) * 1000).toLocaleString('en-US');
	const ratio =
		baselineMs === undefined ? '' : `  ${(ms / baselineMs).toFixed(2)}x fetch + JSON.parse`;
	console.log(
		`  ${label.padEnd(52)} ${ms.toFixed(0).padStart(6)} ms ${rate.padStart(8)} objects/s${ratio}`,
	);
}

// The server runs in its own process, as a real API server would: its work does not share the client's thread.
async function serveInThisProcess(): Promise<void> {
	const objects: JsonObject[] = [];
	for (let index = 0; index < count; index++) objects.push(bundleDeploymentWithFields(index));
	const server = await startApiServer({
		groups: ['fleet.cattle.io'],
		objects,
		bookmarkIntervalMs: 0,
	});
	const info: ServerInfo = { url: server.url, token: server.token, caPem: server.caPem };
	process.stdout.write(`${JSON.stringify(info)}\n`);
	process.stdin.resume();
	process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
}

async function startServerProcess(): Promise<{ server: ServerInfo; stop: () => void }> {
	const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
		env: { ...process.env, KSL_BENCH_SERVER: '1' },
		stdio: ['pipe', 'pipe', 'inherit'],
	});
	const lines = createInterface({ input: child.stdout });
	const first = await new Promise<string>((resolve, reject) => {
		lines.once('line', resolve);
		child.once('exit', (code) => reject(new Error(`the server process exited (${String(code)})`)));
	});
	return {
		server: JSON.parse(first) as ServerInfo,
		stop: () => {
			child.stdin.end();
			lines.close();
		},
	};
}

/** One GET over a keep-alive connection, the body as text. */
function getText(server: ServerInfo, agent: Agent, path: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const request = get(
			`${server.url}${path}`,
			{ agent, headers: { authorization: `Bearer ${server.token}`, accept: 'application/json' } },
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
				response.on('error', reject);
			},
		);
		request.on('error', reject);
	});
}

/** The baseline: the same requests, each answer's text through JSON.parse; with `keep`, items kept in a Map. */
async function fetchAndParse(
	server: ServerInfo,
	agent: Agent,
	pageSize: number,
	keep = false,
): Promise<{ items: number; bytes: number }> {
	const kept = new Map<string, unknown>();
	let continueToken = '';
	let items = 0;
	let bytes = 0;
	do {
		const query = `limit=${pageSize}${continueToken ? `&continue=${encodeURIComponent(continueToken)}` : ''}`;
		const text = await getText(server, agent, `${bundleDeploymentsPath}?${query}`);
		bytes += Buffer.byteLength(text);
		const list = JSON.parse(text) as {
			items: { metadata: { namespace: string; name: string } }[];
			metadata: { continue?: string };
		};
		items += list.items.length;
		if (keep) {
			for (const item of list.items) {
				kept.set(`${item.metadata.namespace}/${item.metadata.name}`, item);
			}
		}
		continueToken = list.metadata.continue ?? '';
	} while (continueToken !== '');
	return { items, bytes };
}

async function sessionSync(server: ServerInfo, pageSize: number): Promise<Session> {
	const kubeconfig = mergeKubeconfigs([
		{
			path: '/bench/config',
			kind: 'text',
			text: JSON.stringify({
				clusters: [
					{
						name: 'bench',
						cluster: {
							server: server.url,
							'certificate-authority-data': Buffer.from(server.caPem).toString('base64'),
						},
					},
				],
				users: [{ name: 'bench', user: { token: server.token } }],
				contexts: [{ name: 'bench', context: { cluster: 'bench', user: 'bench' } }],
			}),
		},
	]);
	const session = createSession({
		kubeconfig,
		context: 'bench',
		pageSize,
		bundleDeploymentThreshold: count * 2,
		requestTimeoutMs: 60_000,
	});
	session.start();
	await session.synced();
	const status = session.status();
	const synced = session.store.countOf('fleet.cattle.io/v1alpha1/bundledeployments');
	if (status.state.kind !== 'ready' || synced !== count) {
		throw new Error(`sync incomplete: ${status.state.message}, ${synced} objects`);
	}
	return session;
}

async function runBench(): Promise<void> {
	setFlagsFromString('--expose-gc');
	const gc = runInNewContext('gc') as () => void;
	console.log(
		`Live client: ${count.toLocaleString('en-US')} BundleDeployments from the local API server (own process, HTTPS)`,
	);
	const start = process.hrtime.bigint();
	const { server, stop } = await startServerProcess();
	console.log(`  (server loaded in ${milliseconds(start).toFixed(0)} ms)`);
	const agent = new Agent({ keepAlive: true, ca: server.caPem });
	// Warm-up: the server serializes each object once and reuses the text; every run below reads the same bytes.
	const { bytes } = await fetchAndParse(server, agent, count);
	for (const pageSize of [500, 1000, 5000]) {
		console.log(
			`\nPages of ${pageSize.toLocaleString('en-US')} (${Math.ceil(count / pageSize)} requests, ${(bytes / 1024 / 1024).toFixed(0)} MiB of JSON)`,
		);
		// Interleaved, best of each: a shared machine slows all three alike.
		let baselineMs = Number.POSITIVE_INFINITY;
		let keptMs = Number.POSITIVE_INFINITY;
		let syncMs = Number.POSITIVE_INFINITY;
		for (let index = 0; index < repeats; index++) {
			baselineMs = Math.min(baselineMs, await timed(() => fetchAndParse(server, agent, pageSize)));
			keptMs = Math.min(keptMs, await timed(() => fetchAndParse(server, agent, pageSize, true)));
			let session: Session | undefined;
			syncMs = Math.min(
				syncMs,
				await timed(async () => {
					session = await sessionSync(server, pageSize);
				}),
			);
			session?.dispose();
		}
		line('fetch + JSON.parse of the same pages', baselineMs);
		line('fetch + JSON.parse, items kept in a Map', keptMs, baselineMs);
		line('src/k8s initial sync (discovery, lists, cache, watches)', syncMs, baselineMs);
	}
	// Memory: the heap a cache of every object holds (trimmed: managedFields dropped).
	gc();
	const before = process.memoryUsage().heapUsed;
	const session = await sessionSync(server, 500);
	session.pause();
	gc();
	const after = process.memoryUsage().heapUsed;
	const perObject = (after - before) / session.store.size;
	console.log(
		`\nMemory per 10,000 objects in the cache ${((perObject * 10_000) / 1024 / 1024).toFixed(1).padStart(8)} MiB` +
			`  (${Math.round(perObject)} bytes per object; ${Math.round(bytes / count)} bytes of JSON each on the wire)`,
	);
	session.dispose();
	agent.destroy();
	stop();
}

if (process.env.KSL_BENCH_SERVER === '1') await serveInThisProcess();
else await runBench();
