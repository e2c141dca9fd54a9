// `npm run bench:vscode`, and the last part of `npm run bench`: activation time against an empty extension in the
// same host, the time from activation to a full tree for the example workspace and for 10,000 generated objects, and
// the bundle size. Figures, not tests.
import { execFileSync } from 'node:child_process';
import {
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
	cpSync,
	symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { mixedObjects } from './generate.ts';

type Figures = Record<string, number> & { codeCache?: string };

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'ksl-bench-vscode-'));

/**
 * The production build, made in a folder of its own so that no other build overwrites it while the host runs (the
 * engine's code cache is keyed by the bundle: a rebuild between two starts would measure a first start twice).
 * esbuild.mjs builds from and into its working directory: here the sources are links to this clone's.
 */
function buildExtension(): string {
	const extension = join(work, 'extension');
	mkdirSync(extension);
	for (const part of ['src', 'node_modules', 'media', 'syntaxes']) {
		symlinkSync(join(root, part), join(extension, part));
	}
	cpSync(join(root, 'package.json'), join(extension, 'package.json'));
	execFileSync(process.execPath, [join(root, 'esbuild.mjs'), '--production'], {
		cwd: extension,
		stdio: 'ignore',
	});
	return extension;
}

/** Later starts measured per workspace: one start's activation swings several-fold with the machine's load. */
const laterStarts = 3;

function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1
		? (sorted[middle] ?? 0)
		: ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Each figure's median over the starts (the activation ratio is taken per start, then its median). */
function medianFigures(starts: readonly Figures[]): Figures {
	const numbers: Record<string, number> = {};
	for (const key of Object.keys(starts[0] ?? {})) {
		if (typeof starts[0]?.[key] !== 'number') continue;
		numbers[key] = median(starts.map((start) => start[key] ?? 0));
	}
	const figures: Figures = Object.assign(numbers, {
		codeCache: starts.map((start) => start.codeCache).join(', '),
	});
	figures.activationRatio = median(
		starts.map((start) => (start.activationMs ?? 0) / (start.emptyActivationMs ?? 1)),
	);
	return figures;
}

function range(starts: readonly Figures[], of: (start: Figures) => number, digits: number): string {
	const values = starts.map(of);
	return `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;
}

/**
 * A first start (no code cache yet) and later starts of the same profile, as a user meets them: the later figures are
 * medians over `laterStarts`, with the range of the main ones beside them.
 */
function measure(workspace: string): { first: Figures; later: Figures; laterRuns: Figures[] } {
	const result = join(work, `result-${Date.now()}.jsonl`);
	execFileSync(
		process.execPath,
		[
			join(root, 'scripts/vscode.mjs'),
			'test',
			'--workspace',
			workspace,
			'--extension',
			extension,
			'--tests',
			join(root, 'bench/vscode/measure.cjs'),
			'--also-extension',
			join(root, 'bench/vscode/emptyExtension'),
			'--runs',
			String(1 + laterStarts),
			'--env',
			`KSL_BENCH_RESULT=${result}`,
			...(process.env.KSL_BENCH_PROFILE
				? ['--env', `KSL_BENCH_PROFILE=${process.env.KSL_BENCH_PROFILE}`]
				: []),
		],
		{ stdio: ['ignore', 'ignore', 'inherit'] },
	);
	const starts = readFileSync(result, 'utf8')
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => JSON.parse(line) as Figures);
	const [first, ...laterRuns] = starts;
	if (!first || laterRuns.length !== laterStarts) {
		throw new Error(`expected ${1 + laterStarts} starts, got ${starts.length}`);
	}
	return { first, later: medianFigures(laterRuns), laterRuns };
}

/** The core's own share, in a fresh Node: parsing and building the graph file by file, as the extension does. */
function coreOnly(workspace: string): Record<string, number> {
	const output = execFileSync(
		process.execPath,
		[join(root, 'bench/vscode/coreOnly.ts'), workspace],
		{
			encoding: 'utf8',
		},
	);
	return JSON.parse(output) as Record<string, number>;
}

function report(
	label: string,
	goalMs: number,
	starts: { first: Figures; later: Figures; laterRuns: Figures[] },
	core: Record<string, number>,
): void {
	const ms = (value: number | undefined) => `${(value ?? 0).toFixed(1)} ms`;
	const { first, later, laterRuns } = starts;
	console.log(`${label}: ${later.objects} objects, ${later.treeItems} tree items`);
	for (const [when, figures] of [
		['first start', first],
		[`later start (median of ${laterRuns.length})`, later],
	] as const) {
		const ratio =
			figures.activationRatio ?? (figures.activationMs ?? 0) / (figures.emptyActivationMs ?? 1);
		console.log(
			`  ${when} (engine code cache: ${figures.codeCache ?? 'n/a'}): activation ${ms(figures.activationMs)}, ${ratio.toFixed(2)}x an empty extension in the same host (${ms(figures.emptyActivationMs)}; goal <= 1.5x); activation to full tree ${ms(figures.activationToTreeMs)} (goal <= ${goalMs} ms); first groups in the tree ${ms(figures.activationToFirstGroupsMs)} (goal: before the full tree)`,
		);
		console.log(
			`    CPU time of the extension host meanwhile (less sensitive to a loaded machine): activation ${ms(figures.activationCpuMs)} (empty extension ${ms(figures.emptyActivationCpuMs)}), activation to full tree ${ms(figures.activationToTreeCpuMs)}, of which its main thread ${figures.activationToTreeThreadCpuMs === undefined ? 'n/a (Node before 23.9)' : ms(figures.activationToTreeThreadCpuMs)}; garbage collection pauses meanwhile: scavenges ${ms(figures.gcMinorMs)}, others ${ms(figures.gcMajorMs)}`,
		);
	}
	console.log(
		`  later starts, range: activation ${range(laterRuns, (run) => (run.activationMs ?? 0) / (run.emptyActivationMs ?? 1), 2)}x an empty extension, activation to full tree ${range(laterRuns, (run) => run.activationToTreeMs ?? 0, 0)} ms (CPU ${range(laterRuns, (run) => run.activationToTreeCpuMs ?? 0, 0)} ms)`,
	);
	console.log(
		`  later start, ms after activation: engine loaded ${ms(later.startup_engineLoadedMs)}, workspace manifests read ${ms(later.startup_manifestsReadMs)}, fleet dump archives read ${ms(later.startup_dumpsReadMs)}`,
	);
	console.log(
		`  later start, of which: listing files ${ms(later.scan_listMs)}, reading, parsing and graph ${ms(later.scan_readPhaseMs)} (wall); summed over 8 parallel reads: waiting for reads (and the worker thread's parsing) ${ms(later.scan_ioMs)}, parsing on the host's thread ${ms(later.scan_parseMs)}, graph ${ms(later.scan_graphMs)} in ${later.scan_batchesMs ?? 0} updates (${ms(later.scan_graphCpuMs)} of the host thread's CPU); ${later.filesFromParseCache ?? 0} of ${core.files} files unchanged since the first start, taken from the parse cache, ${later.parsedInWorker ?? 0} parsed in a worker thread; walking every item ${ms(later.walkMs)}`,
	);
	console.log(
		`  the core alone on the same ${core.files} files (a fresh Node, no VS Code): parsing ${ms(core.parseMs)}, graph ${ms(core.graphMs)}`,
	);
}

console.log(
	'VS Code host (code-server, a first start and three later starts per workspace): activation against an empty extension, and from activation to the full tree. Goals: activation <= 1.5x the empty extension; full tree <= 300 ms for the example workspace, <= 1 s for 10,000 objects in 100 files, first groups before the last file is read.',
);
const extension = buildExtension();
console.log(
	`Bundle: dist/extension.cjs ${(statSync(join(extension, 'dist/extension.cjs')).size / 1024).toFixed(1)} KiB, dist/engine.cjs ${(statSync(join(extension, 'dist/engine.cjs')).size / 1024).toFixed(1)} KiB, dist/manifestWorker.cjs ${(statSync(join(extension, 'dist/manifestWorker.cjs')).size / 1024).toFixed(1)} KiB (production)`,
);
const example = join(work, 'example');
cpSync(join(root, 'examples/workspace'), example, { recursive: true });
report('Example workspace', 300, measure(example), coreOnly(example));

// `--example` measures the example workspace only (a quicker look while working on the first tree).
if (process.argv.includes('--example')) {
	rmSync(work, { recursive: true, force: true });
	process.exit(0);
}

const generated = join(work, 'generated');
mkdirSync(generated);
const objects = mixedObjects(10_000);
for (let file = 0; file < 100; file++) {
	const items = objects.slice(file * 100, file * 100 + 100);
	writeFileSync(
		join(generated, `objects-${file}.yaml`),
		stringify({ apiVersion: 'v1', kind: 'List', items }),
	);
}
report('10,000 generated objects in 100 files', 1000, measure(generated), coreOnly(generated));
rmSync(work, { recursive: true, force: true });
