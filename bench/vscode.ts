// `npm run bench:vscode`: activation time against an empty extension in the same host, the time from activation to
// a full tree for the example workspace and for 10,000 generated objects, and the bundle size. Figures, not tests.
import { execFileSync } from 'node:child_process';
import {
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
	cpSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { mixedObjects } from './generate.ts';

type Figures = Record<string, number> & { codeCache?: string };

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'ksl-bench-vscode-'));

/** A first start (no code cache yet) and a later start of the same profile, as a user meets them. */
function measure(workspace: string): { first: Figures; later: Figures } {
	const result = join(work, `result-${Date.now()}.jsonl`);
	execFileSync(
		process.execPath,
		[
			join(root, 'scripts/vscode.mjs'),
			'test',
			'--workspace',
			workspace,
			'--tests',
			join(root, 'bench/vscode/measure.cjs'),
			'--also-extension',
			join(root, 'bench/vscode/emptyExtension'),
			'--runs',
			'2',
			'--env',
			`KSL_BENCH_RESULT=${result}`,
		],
		{ stdio: ['ignore', 'ignore', 'inherit'] },
	);
	const starts = readFileSync(result, 'utf8')
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => JSON.parse(line) as Figures);
	const [first, later] = starts;
	if (!first || !later) throw new Error(`expected two starts, got ${starts.length}`);
	return { first, later };
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
	starts: { first: Figures; later: Figures },
	core: Record<string, number>,
): void {
	const ms = (value: number | undefined) => `${(value ?? 0).toFixed(1)} ms`;
	const { first, later } = starts;
	console.log(`${label}: ${later.objects} objects, ${later.treeItems} tree items`);
	for (const [when, figures] of [
		['first start', first],
		['later start', later],
	] as const) {
		console.log(
			`  ${when} (engine code cache: ${figures.codeCache ?? 'n/a'}): activation ${ms(figures.activationMs)} (empty extension in the same host: ${ms(figures.emptyActivationMs)}); activation to full tree ${ms(figures.activationToTreeMs)} (goal ${goalMs} ms; first groups in the tree ${ms(figures.activationToFirstGroupsMs)})`,
		);
	}
	console.log(
		`  later start, of which: listing files ${ms(later.scan_listMs)}, reading, parsing and graph ${ms(later.scan_readPhaseMs)} (wall); summed over 8 parallel reads: waiting for reads ${ms(later.scan_ioMs)}, parsing ${ms(later.scan_parseMs)}, graph ${ms(later.scan_graphMs)}; walking every item ${ms(later.walkMs)}`,
	);
	console.log(
		`  the core alone on the same ${core.files} files (a fresh Node, no VS Code): parsing ${ms(core.parseMs)}, graph ${ms(core.graphMs)}`,
	);
}

execFileSync(process.execPath, [join(root, 'esbuild.mjs'), '--production'], { stdio: 'ignore' });
console.log(
	`Bundle: dist/extension.cjs ${(statSync(join(root, 'dist/extension.cjs')).size / 1024).toFixed(1)} KiB (production)`,
);
const example = join(work, 'example');
cpSync(join(root, 'examples/workspace'), example, { recursive: true });
report('Example workspace', 300, measure(example), coreOnly(example));

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
execFileSync(process.execPath, [join(root, 'esbuild.mjs')], { stdio: 'ignore' });
rmSync(work, { recursive: true, force: true });
