// The CLI on a big dump, as a user runs it: `status --json` on what `kubectl get -o json` writes (JSON Lists, 4-space
// indent, keys sorted), start to exit, against a process that only reads and JSON.parses the same files: 100,000
// BundleDeployments alone, and a whole fleet (GitRepos, Bundles, BundleDeployments, Clusters, ClusterGroups) as one
// List and as one List per kind, on Node 24 and the machine's default Node. Peak RSS comes from /usr/bin/time when the
// machine has it. KSL_BENCH_CLI_CASES=bds|realistic picks one kind of input; KSL_BENCH_REPEATS the runs of each.
import { execFileSync, spawnSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	closeSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleDeployment, realisticFleet } from './generate.ts';

const root = join(import.meta.dirname, '..');
const bdsOnlyCount = 100_000;
const bdsOnlyFiles = 10;
/** 250 x 400: the 100,000 BundleDeployments of the realistic fleet. */
const realisticShape = { gitRepos: 250, clusters: 400, clusterGroups: 8 };

interface Run {
	readonly ms: number;
	readonly peakRssBytes: number | undefined;
	/** User and system CPU time: steadier than wall time when other work shares the machine. */
	readonly cpuMs: number | undefined;
}

const timeCommand = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

function runProcess(
	node: string,
	args: readonly string[],
	stdoutFile: string,
	rssFile: string,
	env: NodeJS.ProcessEnv = process.env,
): Run {
	const output = openSync(stdoutFile, 'w');
	try {
		const command = timeCommand ?? node;
		const commandArgs = timeCommand ? ['-f', '%M %U %S', '-o', rssFile, node, ...args] : [...args];
		const start = process.hrtime.bigint();
		const result = spawnSync(command, commandArgs, {
			stdio: ['ignore', output, 'pipe'],
			maxBuffer: 16 * 1024 * 1024,
			env,
		});
		const ms = Number(process.hrtime.bigint() - start) / 1e6;
		if (result.status !== 0) {
			throw new Error(`${args.join(' ')} exited ${result.status}: ${String(result.stderr)}`);
		}
		let peakRssBytes: number | undefined;
		let cpuMs: number | undefined;
		if (timeCommand) {
			const fields = spawnSync('tail', ['-n', '1', rssFile]).stdout.toString().trim().split(' ');
			const [kib, user, system] = fields.map(Number);
			if (kib !== undefined && kib > 0) peakRssBytes = kib * 1024;
			if (user !== undefined && system !== undefined) cpuMs = (user + system) * 1000;
		}
		return { ms, peakRssBytes, cpuMs };
	} finally {
		closeSync(output);
	}
}

/**
 * The production build as `npm run build:production` makes it (dist/cli.cjs, which loads dist/command.cjs and, on a
 * big input, dist/statusWorker.cjs), made in a folder of its own from links to this clone's sources.
 */
function buildCli(work: string): string {
	const build = join(work, 'build');
	mkdirSync(build);
	for (const part of ['src', 'node_modules', 'docs']) {
		symlinkSync(join(root, part), join(build, part));
	}
	cpSync(join(root, 'package.json'), join(build, 'package.json'));
	execFileSync(process.execPath, [join(root, 'esbuild.mjs'), '--production'], {
		cwd: build,
		stdio: 'ignore',
	});
	return join(build, 'dist/cli.cjs');
}

function best(runs: readonly Run[]): Run {
	return runs.reduce((a, b) => (b.ms < a.ms ? b : a));
}

/** One input to measure: files written into a folder of their own. */
interface DumpCase {
	readonly label: string;
	/** The files' names and their contents. */
	readonly files: readonly { readonly name: string; readonly text: string }[];
}

/** A List as `kubectl get -o json` writes it: 4-space indent, keys as given (sortedKeys sorts them as kubectl does). */
function kubectlList(items: readonly unknown[]): string {
	return `${JSON.stringify({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } }, null, 4)}\n`;
}

function bdsOnlyCase(): DumpCase {
	const perFile = bdsOnlyCount / bdsOnlyFiles;
	const files = [];
	for (let file = 0; file < bdsOnlyFiles; file++) {
		const items = [];
		for (let index = file * perFile; index < (file + 1) * perFile; index++) {
			items.push(bundleDeployment(index, `bundle-${index % 1000}`, `c${Math.floor(index / 1000)}`));
		}
		files.push({ name: `bundledeployments-${file}.json`, text: kubectlList(items) });
	}
	return {
		label: `${bdsOnlyCount.toLocaleString('en-US')} BundleDeployments alone, ${bdsOnlyFiles} files`,
		files,
	};
}

/** The realistic fleet (generate.ts) as one List, and as one List per kind (kubectl get KIND -A -o json each). */
function realisticCases(): DumpCase[] {
	const items = realisticFleet(realisticShape);
	const bds = items.filter((item) => item.kind === 'BundleDeployment').length;
	const what = `${bds.toLocaleString('en-US')} BundleDeployments with their ${realisticShape.gitRepos} GitRepos and Bundles, ${realisticShape.clusters} Clusters`;
	const kinds = ['GitRepo', 'Bundle', 'BundleDeployment', 'Cluster', 'ClusterGroup'];
	return [
		{ label: `${what}, one List`, files: [{ name: 'fleet.json', text: kubectlList(items) }] },
		{
			label: `${what}, one List per kind`,
			files: kinds.map((kind) => ({
				name: `${kind.toLowerCase()}s.json`,
				text: kubectlList(items.filter((item) => item.kind === kind)),
			})),
		},
	];
}

/** The Node binaries to run on: this one (24) and the machine's default `node` when it is another version. */
function nodeBinaries(): { label: string; path: string }[] {
	const binaries = [{ label: `Node ${process.versions.node}`, path: process.execPath }];
	const system = spawnSync('node', ['-p', 'process.execPath + " " + process.versions.node']);
	const [path, version] = String(system.stdout).trim().split(' ');
	if (system.status === 0 && path && version && version !== process.versions.node) {
		binaries.push({ label: `Node ${version}`, path });
	}
	return binaries;
}

function mib(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

function measureCase(
	dumpCase: DumpCase,
	work: string,
	cli: string,
	parseOnly: string,
	node: { label: string; path: string },
	repeats: number,
): void {
	const dump = join(work, 'dump');
	rmSync(dump, { recursive: true, force: true });
	mkdirSync(dump);
	let inputBytes = 0;
	for (const { name, text } of dumpCase.files) {
		writeFileSync(join(dump, name), text);
		inputBytes += statSync(join(dump, name)).size;
	}
	const out = join(work, 'out.json');
	const rss = join(work, 'rss.txt');
	const parseRuns: Run[] = [];
	const cliRuns: Run[] = [];
	const oneThreadRuns: Run[] = [];
	const oneThread = { ...process.env, KUBE_STATUS_LENS_THREADS: '1' };
	const extra = (process.env.KSL_BENCH_CLI_ARGS ?? '').split(' ').filter(Boolean);
	for (let repeat = 0; repeat < repeats; repeat++) {
		parseRuns.push(runProcess(node.path, [parseOnly, dump], out, rss));
		cliRuns.push(runProcess(node.path, [cli, 'status', '--json', ...extra, dump], out, rss));
		oneThreadRuns.push(
			runProcess(node.path, [cli, 'status', '--json', ...extra, dump], out, rss, oneThread),
		);
	}
	const parse = best(parseRuns);
	const status = best(cliRuns);
	const spread = (runs: readonly Run[]): string =>
		runs.map((run) => (run.ms / 1000).toFixed(2)).join(', ');
	console.log(
		`\n${node.label}: ${dumpCase.label} (${mib(inputBytes)}), start to exit, best of ${repeats}`,
	);
	console.log(
		`${'node: read + JSON.parse of the same files'.padEnd(44)} ${parse.ms.toFixed(0).padStart(8)} ms  (runs: ${spread(parseRuns)} s)`,
	);
	console.log(
		`${'kube-status-lens status --json'.padEnd(44)} ${status.ms.toFixed(0).padStart(8)} ms  (runs: ${spread(cliRuns)} s)  (${(status.ms / parse.ms).toFixed(2)}x JSON.parse; goal <= 2x)`,
	);
	const single = best(oneThreadRuns);
	console.log(
		`${'  the same on one thread (THREADS=1)'.padEnd(44)} ${single.ms.toFixed(0).padStart(8)} ms  (runs: ${spread(oneThreadRuns)} s)  (${(single.ms / parse.ms).toFixed(2)}x JSON.parse)`,
	);
	const cpu = (runs: readonly Run[]): number =>
		Math.min(...runs.map((run) => run.cpuMs ?? Number.POSITIVE_INFINITY));
	if (Number.isFinite(cpu(cliRuns))) {
		console.log(
			`${'  CPU time (user + system), best'.padEnd(44)} ${cpu(cliRuns).toFixed(0).padStart(8)} ms  against ${cpu(parseRuns).toFixed(0)} ms  (${(cpu(cliRuns) / cpu(parseRuns)).toFixed(2)}x JSON.parse)`,
		);
	}
	if (status.peakRssBytes !== undefined) {
		const worst = Math.max(...cliRuns.map((run) => run.peakRssBytes ?? 0));
		const worstSingle = Math.max(...oneThreadRuns.map((run) => run.peakRssBytes ?? 0));
		console.log(
			`${'  peak RSS'.padEnd(44)} ${mib(worst).padStart(11)}  (${(worst / inputBytes).toFixed(2)}x the input; goal <= 3x; one thread ${mib(worstSingle)}, ${(worstSingle / inputBytes).toFixed(2)}x; JSON.parse alone ${mib(parse.peakRssBytes ?? 0)})`,
		);
	} else console.log('  peak RSS: /usr/bin/time not found, not measured');
	console.log(`  output ${mib(statSync(out).size)}`);
}

/**
 * \`status --json\` against read + JSON.parse, on the BundleDeployments-only dump and on the realistic fleet (one List,
 * and one List per kind), on Node 24 and on the machine's default Node.
 */
export function benchmarkCliOnDump(
	repeats = Number(process.env.KSL_BENCH_REPEATS ?? 3),
	which = process.env.KSL_BENCH_CLI_CASES ?? 'all',
): void {
	const work = mkdtempSync(join(tmpdir(), 'ksl-bench-cli-'));
	try {
		const cli = buildCli(work);
		const parseOnly = join(work, 'parse.cjs');
		writeFileSync(
			parseOnly,
			`const fs = require('node:fs'); const path = require('node:path'); let n = 0;
for (const name of fs.readdirSync(process.argv[2]).sort()) n += JSON.parse(fs.readFileSync(path.join(process.argv[2], name), 'utf8')).items.length;
if (n === 0) process.exit(1);\n`,
		);
		const cases = [
			...(which === 'all' || which === 'bds' ? [bdsOnlyCase()] : []),
			...(which === 'all' || which === 'realistic' ? realisticCases() : []),
		];
		for (const node of nodeBinaries()) {
			for (const dumpCase of cases) measureCase(dumpCase, work, cli, parseOnly, node, repeats);
		}
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

if (process.argv[1] === import.meta.filename) benchmarkCliOnDump();
