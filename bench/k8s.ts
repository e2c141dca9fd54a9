// `scripts/node24 bench/k8s.ts`: the live-cluster client against the local API server. Printed side by side in one
// run: the initial sync of 100,000 BundleDeployments through src/k8s (client-node, TLS, paging, trimming, the
// cache) next to fetching the same pages and JSON.parse-ing them; and the heap the cache holds per 10,000 objects.
// Figures only, never an assertion. The machine may be shared: each figure is the median of a few interleaved runs,
// with their spread, and beside the wall clock this process's CPU time (what the client itself spent, which other
// processes do not stretch). A run that fails (a reset connection, a server that stops answering) is reported as a
// line and run again; the benchmark never crashes, and exits with 1 only when it measured nothing at all.
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
// The baseline's bound on silence from the server, as the client's request timeout bounds the sync.
const silenceMs = 60_000;
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

async function timed(run: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
	const start = process.hrtime.bigint();
	const cpuStart = process.cpuUsage();
	await run();
	const cpu = process.cpuUsage(cpuStart);
	return { ms: milliseconds(start), cpuMs: (cpu.user + cpu.system) / 1000 };
}

interface Figure {
	/** Milliseconds of each run that succeeded. */
	readonly runs: number[];
	/**
	 * Milliseconds of this process's CPU time (user and system, every thread) of each run that succeeded: what the
	 * client itself spent, which other processes on a loaded machine do not stretch as they stretch the wall clock.
	 */
	readonly cpu: number[];
	/** Messages of the runs that failed (each was tried again). */
	readonly failures: string[];
}

function newFigure(): Figure {
	return { runs: [], cpu: [], failures: [] };
}

/** Figures with at least one run, over the whole benchmark: the exit code is 1 only when there is none. */
let measuredFigures = 0;

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
			const { ms, cpuMs } = await timed(run);
			figure.runs.push(ms);
			figure.cpu.push(cpuMs);
			if (figure.runs.length === 1) measuredFigures++;
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

/** A run that is not measured, tried again when it fails: a failure is reported and the benchmark goes on. */
async function warmUp(label: string, run: () => Promise<unknown>): Promise<void> {
	for (let attempt = 1; attempt <= attemptsPerRun; attempt++) {
		try {
			await run();
			return;
		} catch (error) {
			console.log(`  ! warm-up, ${label}: run failed (${messageOf(error)})`);
		}
	}
}

/**
 * The ratios of the runs made side by side (run i of `figure` against run i of `baseline`): on a machine whose load
 * changes from minute to minute, a pair shares its minute.
 */
function pairedRatios(figure: Figure, baseline: Figure, of: 'runs' | 'cpu' = 'runs'): number[] {
	const ratios: number[] = [];
	for (const [index, ms] of figure[of].entries()) {
		const baselineMs = baseline[of][index];
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
	let cpuRatio = '';
	if (baseline && baseline.cpu.length > 0) {
		cpuRatio = `  ${(median(figure.cpu) / median(baseline.cpu)).toFixed(2)}x the baseline's`;
		const pairs = pairedRatios(figure, baseline, 'cpu');
		if (pairs.length > 1) {
			cpuRatio += ` (side by side: median ${median(pairs).toFixed(2)}x, ${Math.min(...pairs).toFixed(2)}-${Math.max(...pairs).toFixed(2)}x)`;
		}
	}
	console.log(
		`  ${'  client CPU'.padEnd(56)} ${median(figure.cpu).toFixed(0).padStart(6)} ms${cpuRatio}`,
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
): Promise<{ text: string; bytes: number } | { error: unknown; reusedSocket: boolean }> {
	return new Promise((resolve) => {
		let settled = false;
		const settle = (
			result: { text: string; bytes: number } | { error: unknown; reusedSocket: boolean },
		): void => {
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
						const body = Buffer.concat(chunks);
						settle({ text: body.toString('utf8'), bytes: body.length });
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
		// A server that stops answering fails the run instead of stalling the benchmark.
		request.setTimeout(silenceMs, () =>
			request.destroy(new Error(`no answer to GET ${path} within ${silenceMs / 1000} s`)),
		);
	});
}

/** Requests of the baseline sent again because the keep-alive connection they reused had been closed. */
let requestsSentAgain = 0;

/** A GET, sent again when the keep-alive connection it reused turns out to be closed. */
async function getText(
	server: ServerInfo,
	agent: Agent,
	path: string,
): Promise<{ text: string; bytes: number }> {
	for (let attempt = 0; ; attempt++) {
		const result = await getTextOnce(server, agent, path);
		if ('text' in result) return result;
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
		const { text, bytes: pageBytes } = await getText(
			server,
			agent,
			`${bundleDeploymentsPath}?${query}`,
		);
		bytes += pageBytes;
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

/** Pages of this many objects in a figure's runs; the first is the default of client-go and of the extension. */
const pageSizes = [500, 1000, 5000];

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
		// Warm-up: the server serializes each object once and reuses the bytes, so every run below reads the same
		// bytes; and both clients' code is compiled before the first run that counts.
		let bytes = 0;
		await warmUp('fetch + JSON.parse', async () => {
			bytes = (await fetchAndParse(server, agent, pageSizes.at(-1) ?? count)).bytes;
		});
		await warmUp('src/k8s initial sync', async () => {
			(await sessionSync(server, pageSizes[0] ?? 500)).dispose();
		});
		for (const pageSize of pageSizes) {
			const exited = serverProcess.exited();
			if (exited !== undefined) throw new Error(exited);
			console.log(
				`\nPages of ${pageSize.toLocaleString('en-US')} (${Math.ceil(count / pageSize)} requests, ${(bytes / 1024 / 1024).toFixed(0)} MiB of JSON), median of ${repeats} interleaved runs (spread)`,
			);
			// Interleaved: a shared machine slows all three alike.
			const baseline = newFigure();
			const kept = newFigure();
			const sync = newFigure();
			for (let index = 0; index < repeats && serverProcess.exited() === undefined; index++) {
				await measure(baseline, 'fetch + JSON.parse', async () => {
					bytes = (await fetchAndParse(server, agent, pageSize)).bytes;
				});
				await measure(kept, 'fetch + JSON.parse, kept', () =>
					fetchAndParse(server, agent, pageSize, true),
				);
				let session: Session | undefined;
				await measure(sync, 'src/k8s initial sync', async () => {
					session = await sessionSync(server, pageSize);
				});
				session?.dispose();
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
		try {
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
		} catch (error) {
			console.log(`\n  ! memory per object: no figure (${messageOf(error)})`);
			failedFigures.push('memory per object');
		}
	} finally {
		agent.destroy();
		serverProcess.stop();
		if (requestsSentAgain > 0) {
			console.log(
				`\n(${requestsSentAgain} baseline requests sent again: their keep-alive connection had been closed)`,
			);
		}
		if (failedFigures.length > 0) console.log(`\nNo figure for: ${failedFigures.join('; ')}`);
	}
	if (measuredFigures === 0) process.exitCode = 1;
}

/**
 * A failure anywhere is reported, after what was measured before it, instead of a crash with a stack trace; the exit
 * code says a failure only when nothing at all was measured.
 */
function reportFailure(error: unknown): void {
	console.log(`\nThe k8s benchmark stopped: ${messageOf(error)}`);
	if (measuredFigures === 0) process.exitCode = 1;
}

if (process.env.KSL_BENCH_SERVER === '1') {
	await serveInThisProcess();
} else {
	process.on('unhandledRejection', reportFailure);
	// Node's default for an uncaught exception is a stack trace and exit code 7; this one says what it was, and
	// ends the run (its state is unknown) with what was measured so far.
	process.on('uncaughtException', (error) => {
		reportFailure(error);
		process.exit();
	});
	await runBench().catch(reportFailure);
}
