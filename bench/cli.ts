// The CLI on a big dump, as a user runs it: `status --json` on 100,000 BundleDeployments written as
// `kubectl get -o json` writes them (JSON Lists, 4-space indent), start to exit, against a process that only reads and
// JSON.parses the same files. Peak RSS comes from /usr/bin/time when the machine has it.
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
import { bundleDeployment } from './generate.ts';

const root = join(import.meta.dirname, '..');
const objectCount = 100_000;
const fileCount = 10;

interface Run {
	readonly ms: number;
	readonly peakRssBytes: number | undefined;
	/** User and system CPU time: steadier than wall time when other work shares the machine. */
	readonly cpuMs: number | undefined;
}

const timeCommand = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

function runProcess(
	args: readonly string[],
	stdoutFile: string,
	rssFile: string,
	env: NodeJS.ProcessEnv = process.env,
): Run {
	const output = openSync(stdoutFile, 'w');
	try {
		const command = timeCommand ?? process.execPath;
		const commandArgs = timeCommand
			? ['-f', '%M %U %S', '-o', rssFile, process.execPath, ...args]
			: [...args];
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

export function benchmarkCliOnDump(repeats = 3): void {
	const work = mkdtempSync(join(tmpdir(), 'ksl-bench-cli-'));
	try {
		const dump = join(work, 'dump');
		spawnSync('mkdir', [dump]);
		const perFile = objectCount / fileCount;
		let inputBytes = 0;
		for (let file = 0; file < fileCount; file++) {
			const items = [];
			for (let index = file * perFile; index < (file + 1) * perFile; index++) {
				items.push(
					bundleDeployment(index, `bundle-${index % 1000}`, `c${Math.floor(index / 1000)}`),
				);
			}
			const path = join(dump, `bundledeployments-${file}.json`);
			writeFileSync(
				path,
				`${JSON.stringify({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } }, null, 4)}\n`,
			);
			inputBytes += statSync(path).size;
		}
		const cli = buildCli(work);
		const parseOnly = join(work, 'parse.cjs');
		writeFileSync(
			parseOnly,
			`const fs = require('node:fs'); const path = require('node:path'); let n = 0;
for (const name of fs.readdirSync(process.argv[2]).sort()) n += JSON.parse(fs.readFileSync(path.join(process.argv[2], name), 'utf8')).items.length;
if (n !== ${objectCount}) process.exit(1);\n`,
		);
		const out = join(work, 'out.json');
		const rss = join(work, 'rss.txt');
		const parseRuns: Run[] = [];
		const cliRuns: Run[] = [];
		const oneThreadRuns: Run[] = [];
		const oneThread = { ...process.env, KUBE_STATUS_LENS_THREADS: '1' };
		for (let repeat = 0; repeat < repeats; repeat++) {
			parseRuns.push(runProcess([parseOnly, dump], out, rss));
			cliRuns.push(runProcess([cli, 'status', '--json', dump], out, rss));
			oneThreadRuns.push(runProcess([cli, 'status', '--json', dump], out, rss, oneThread));
		}
		const parse = best(parseRuns);
		const status = best(cliRuns);
		const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
		const spread = (runs: readonly Run[]): string =>
			runs.map((run) => (run.ms / 1000).toFixed(2)).join(', ');
		console.log(
			`\nCLI on ${objectCount.toLocaleString('en-US')} BundleDeployments as JSON Lists (${fileCount} files, ${mib(inputBytes)}), start to exit, best of ${repeats}`,
		);
		console.log(
			`${'node: read + JSON.parse of the same files'.padEnd(44)} ${parse.ms.toFixed(0).padStart(8)} ms  (runs: ${spread(parseRuns)} s)`,
		);
		console.log(
			`${'kube-status-lens status --json'.padEnd(44)} ${status.ms.toFixed(0).padStart(8)} ms  (runs: ${spread(cliRuns)} s)  (${(status.ms / parse.ms).toFixed(2)}x JSON.parse; goal <= 2x)`,
		);
		const single = best(oneThreadRuns);
		console.log(
			`${'  the same on one thread (THREADS=1)'.padEnd(44)} ${single.ms.toFixed(0).padStart(8)} ms  (runs: ${spread(oneThreadRuns)} s)  (${(single.ms / parse.ms).toFixed(2)}x JSON.parse; the command reads a big input on two threads)`,
		);
		const cpu = (runs: readonly Run[]): number =>
			Math.min(...runs.map((run) => run.cpuMs ?? Number.POSITIVE_INFINITY));
		if (Number.isFinite(cpu(cliRuns))) {
			const cpuSpread = (runs: readonly Run[]): string =>
				runs.map((run) => ((run.cpuMs ?? 0) / 1000).toFixed(2)).join(', ');
			console.log(
				`${'  CPU time (user + system), best'.padEnd(44)} ${cpu(cliRuns).toFixed(0).padStart(8)} ms  against ${cpu(parseRuns).toFixed(0)} ms  (${(cpu(cliRuns) / cpu(parseRuns)).toFixed(2)}x JSON.parse; runs: ${cpuSpread(cliRuns)} s against ${cpuSpread(parseRuns)} s)`,
			);
		}
		if (status.peakRssBytes !== undefined) {
			const peaks = cliRuns.map((run) => run.peakRssBytes ?? 0);
			const worst = Math.max(...peaks);
			console.log(
				`${'  peak RSS'.padEnd(44)} ${mib(worst).padStart(11)}  (${(worst / inputBytes).toFixed(2)}x the input; goal <= 3x; JSON.parse alone ${mib(parse.peakRssBytes ?? 0)})`,
			);
		} else console.log('  peak RSS: /usr/bin/time not found, not measured');
		const outputBytes = statSync(out).size;
		console.log(`  output ${mib(outputBytes)}`);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

if (process.argv[1] === import.meta.filename) benchmarkCliOnDump();
