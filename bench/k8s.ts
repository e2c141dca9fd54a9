// `scripts/node24 bench/k8s.ts`: the live-cluster client against the local API server. Printed side by side in one
// run: the initial sync of 100,000 BundleDeployments through src/k8s (client-node, TLS, paging, trimming, the
// cache) next to fetching the same pages and JSON.parse-ing them; and the heap the cache holds per 10,000 objects.
// Figures only, never an assertion. The machine may be shared: each figure is the median of a few interleaved runs,
// with their spread. A run that fails (a connection reset on a loaded machine) is reported and run again; the
// benchmark reports failures instead of crashing.
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
const repeats = Math.max(1, Number(process.env.KSL_BENCH_REPEATS ?? 3));
// A failed run is tried again this many times before its figure is reported as failed.
const attemptsPerRun = 3;
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

interface Figure {
	/** Milliseconds of each run that succeeded. */
	readonly runs: number[];
	/** Messages of the runs that failed (each was tried again). */
	readonly failures: string[];
}

function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1
		? (sorted[middle] ?? Number.NaN)
		: ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

function messageOf(error: unknown): string {
	if (!(error instanceof Error)) return String(error);
	const code = (error as NodeJS.ErrnoException).code;
	return code !== undefined && !error.message.includes(code)
		? `${error.message} (${code})`
		: error.message;
}

/** One timed run, tried again when it fails; the failures are kept for the report. */
async function measure(figure: Figure, label: string, run: () => Promise<unknown>): Promise<void> {
	for (let attempt = 1; attempt <= attemptsPerRun; attempt++) {
		try {
			figure.runs.push(await timed(run));
			return;
		} catch (error) {
			const message = messageOf(error);
			figure.failures.push(message);
			console.log(
				`  ! ${label}: run failed (${message})${attempt < attemptsPerRun ? ', again' : ''}`,
			);
		}
	}
}

/**
 * The ratios of the runs made side by side (run i of `figure` against run i of `baseline`): on a machine whose load
 * changes from minute to minute, a pair shares its minute.
 */
function pairedRatios(figure: Figure, baseline: Figure): number[] {
	const ratios: number[] = [];
	for (const [index, ms] of figure.runs.entries()) {
		const baselineMs = baseline.runs[index];
		if (
			baselineMs !== undefined &&
			figure.failures.length === 0 &&
			baseline.failures.length === 0
		) {
			ratios.push(ms / baselineMs);
		}
	}
	return ratios;
}

function line(label: string, figure: Figure, baseline?: Figure): void {
	const failed = figure.failures.length > 0 ? `, ${figure.failures.length} failed` : '';
	if (figure.runs.length === 0) {
		console.log(
			`  ${label.padEnd(56)} no figure: every run failed (${figure.failures.at(-1) ?? ''})`,
		);
		return;
	}
	const ms = median(figure.runs);
	const spread = `${Math.min(...figure.runs).toFixed(0)}-${Math.max(...figure.runs).toFixed(0)}`;
	const rate = Math.round((count / ms) * 1000).toLocaleString('en-US');
	let ratio = '';
	if (baseline && baseline.runs.length > 0) {
		ratio = `  ${(ms / median(baseline.runs)).toFixed(2)}x fetch + JSON.parse`;
		const pairs = pairedRatios(figure, baseline);
		if (pairs.length > 1) {
			ratio += ` (side by side: median ${median(pairs).toFixed(2)}x, ${Math.min(...pairs).toFixed(2)}-${Math.max(...pairs).toFixed(2)}x)`;
		}
	}
	console.log(
		`  ${label.padEnd(56)} ${ms.toFixed(0).padStart(6)} ms (${spread}, ${figure.runs.length} runs${failed}) ${rate.padStart(8)} objects/s${ratio}`,
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

interface ServerProcess {
	readonly server: ServerInfo;
	/** Why the server process ended, once it has: every later failure is explained by it. */
	readonly exited: () => string | undefined;
	stop(): void;
}

async function startServerProcess(): Promise<ServerProcess> {
	const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
		env: { ...process.env, KSL_BENCH_SERVER: '1' },
		stdio: ['pipe', 'pipe', 'inherit'],
	});
	let exited: string | undefined;
	const lines = createInterface({ input: child.stdout });
	const ended = new Promise<never>((_resolve, reject) => {
		child.once('exit', (code, signal) => {
			exited = `the server process exited (${signal ?? String(code)})`;
			reject(new Error(exited));
		});
		child.once('error', (error) => {
			exited = `the server process failed: ${error.message}`;
			reject(new Error(exited));
		});
	});
	// Its end is reported through `exited`, whenever it comes.
	ended.catch(() => undefined);
	// Writing to the stdin of a process that has ended is not a crash of the benchmark.
	child.stdin.on('error', () => undefined);
	const first = await Promise.race([
		new Promise<string>((resolve) => lines.once('line', resolve)),
		ended,
	]);
	return {
		server: JSON.parse(first) as ServerInfo,
		exited: () => exited,
		stop: () => {
			child.stdin.end();
			lines.close();
		},
	};
}

// The answer of a keep-alive connection the server has just closed (its idle timeout passed while this process was
// busy parsing): Node's agent reuses the socket before it sees the close. Node's documentation advises sending an
// idempotent request again then, as client-go does for a GET whose connection was reset.
function isResetOfReusedSocket(error: unknown, reusedSocket: boolean): boolean {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	return reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE');
}

/** One GET over a keep-alive connection, the body as text. */
function getTextOnce(
	server: ServerInfo,
	agent: Agent,
	path: string,
): Promise<{ text: string } | { error: unknown; reusedSocket: boolean }> {
	return new Promise((resolve) => {
		let settled = false;
		const settle = (result: { text: string } | { error: unknown; reusedSocket: boolean }): void => {
			if (settled) return;
			settled = true;
			resolve(result);
		};
		const request = get(
			`${server.url}${path}`,
			{ agent, headers: { authorization: `Bearer ${server.token}`, accept: 'application/json' } },
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => {
					if (response.statusCode === 200) {
						settle({ text: Buffer.concat(chunks).toString('utf8') });
					} else {
						settle({
							error: new Error(`the server answered ${String(response.statusCode)} to GET ${path}`),
							reusedSocket: false,
						});
					}
				});
				response.on('error', (error) => settle({ error, reusedSocket: false }));
				response.on('aborted', () =>
					settle({ error: new Error(`the answer to GET ${path} was cut`), reusedSocket: false }),
				);
			},
		);
		request.on('error', (error) => settle({ error, reusedSocket: request.reusedSocket }));
	});
}

/** Requests of the baseline sent again because the keep-alive connection they reused had been closed. */
let requestsSentAgain = 0;

/** A GET, sent again when the keep-alive connection it reused turns out to be closed. */
async function getText(server: ServerInfo, agent: Agent, path: string): Promise<string> {
	for (let attempt = 0; ; attempt++) {
		const result = await getTextOnce(server, agent, path);
		if ('text' in result) return result.text;
		if (attempt < 3 && isResetOfReusedSocket(result.error, result.reusedSocket)) {
			requestsSentAgain++;
			continue;
		}
		throw result.error instanceof Error ? result.error : new Error(String(result.error));
	}
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
	if (items !== count) throw new Error(`listed ${items} objects, not ${count}`);
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
	try {
		session.start();
		await session.synced();
		const status = session.status();
		const synced = session.store.countOf('fleet.cattle.io/v1alpha1/bundledeployments');
		if (status.state.kind !== 'ready' || synced !== count) {
			throw new Error(`sync incomplete: ${status.state.message}, ${synced} objects`);
		}
		return session;
	} catch (error) {
		session.dispose();
		throw error;
	}
}

async function runBench(): Promise<void> {
	setFlagsFromString('--expose-gc');
	const gc = runInNewContext('gc') as () => void;
	console.log(
		`Live client: ${count.toLocaleString('en-US')} BundleDeployments from the local API server (own process, HTTPS)`,
	);
	const start = process.hrtime.bigint();
	const serverProcess = await startServerProcess();
	const { server } = serverProcess;
	console.log(`  (server loaded in ${milliseconds(start).toFixed(0)} ms)`);
	const agent = new Agent({ keepAlive: true, ca: server.caPem });
	const failedFigures: string[] = [];
	try {
		// Warm-up: the server serializes each object once and reuses the text; every run below reads the same bytes.
		const { bytes } = await fetchAndParse(server, agent, count);
		for (const pageSize of [500, 1000, 5000]) {
			console.log(
				`\nPages of ${pageSize.toLocaleString('en-US')} (${Math.ceil(count / pageSize)} requests, ${(bytes / 1024 / 1024).toFixed(0)} MiB of JSON), median of ${repeats} interleaved runs (spread)`,
			);
			// Interleaved: a shared machine slows all three alike.
			const baseline: Figure = { runs: [], failures: [] };
			const kept: Figure = { runs: [], failures: [] };
			const sync: Figure = { runs: [], failures: [] };
			for (let index = 0; index < repeats; index++) {
				await measure(baseline, 'fetch + JSON.parse', () => fetchAndParse(server, agent, pageSize));
				await measure(kept, 'fetch + JSON.parse, kept', () =>
					fetchAndParse(server, agent, pageSize, true),
				);
				let session: Session | undefined;
				await measure(sync, 'src/k8s initial sync', async () => {
					session = await sessionSync(server, pageSize);
				});
				session?.dispose();
				const exited = serverProcess.exited();
				if (exited !== undefined) throw new Error(exited);
			}
			line('fetch + JSON.parse of the same pages', baseline);
			line('fetch + JSON.parse, items kept in a Map', kept, baseline);
			line('src/k8s initial sync (discovery, lists, cache, watches)', sync, baseline);
			for (const [label, figure] of [
				['fetch + JSON.parse', baseline],
				['src/k8s initial sync', sync],
			] as const) {
				if (figure.runs.length === 0) failedFigures.push(`${label}, pages of ${pageSize}`);
			}
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
	} finally {
		agent.destroy();
		serverProcess.stop();
	}
	if (requestsSentAgain > 0) {
		console.log(
			`\n(${requestsSentAgain} baseline requests sent again: their keep-alive connection had been closed)`,
		);
	}
	if (failedFigures.length > 0) {
		console.log(`\nNo figure for: ${failedFigures.join('; ')}`);
		process.exitCode = 1;
	}
}

/** A failure anywhere is reported, with what was measured before it, instead of a crash with a stack trace. */
function reportFailure(error: unknown): void {
	console.log(`\nThe k8s benchmark stopped: ${messageOf(error)}`);
	process.exitCode = 1;
}

if (process.env.KSL_BENCH_SERVER === '1') {
	await serveInThisProcess();
} else {
	process.on('unhandledRejection', reportFailure);
	await runBench().catch(reportFailure);
}
