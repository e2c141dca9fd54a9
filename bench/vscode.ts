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

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'ksl-bench-vscode-'));

function measure(workspace: string): Record<string, number> {
	const result = join(work, `result-${Date.now()}.json`);
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
			'--env',
			`KSL_BENCH_RESULT=${result}`,
		],
		{ stdio: ['ignore', 'ignore', 'inherit'] },
	);
	return JSON.parse(readFileSync(result, 'utf8')) as Record<string, number>;
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
	figures: Record<string, number>,
	core: Record<string, number>,
): void {
	const ms = (value: number | undefined) => `${(value ?? 0).toFixed(1)} ms`;
	console.log(`${label}: ${figures.objects} objects, ${figures.treeItems} tree items`);
	console.log(
		`  activation ${ms(figures.activationMs)} (empty extension in the same host: ${ms(figures.emptyActivationMs)})`,
	);
	console.log(
		`  activation to full tree ${ms(figures.activationToTreeMs)} (goal ${goalMs} ms; first groups in the tree ${ms(figures.activationToFirstGroupsMs)}); walking every item ${ms(figures.walkMs)}`,
	);
	console.log(
		`  of which: listing files ${ms(figures.scan_listMs)}, reading, parsing and graph ${ms(figures.scan_readPhaseMs)} (wall); summed over 8 parallel reads: waiting for reads ${ms(figures.scan_ioMs)}, parsing ${ms(figures.scan_parseMs)}, graph ${ms(figures.scan_graphMs)}`,
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
