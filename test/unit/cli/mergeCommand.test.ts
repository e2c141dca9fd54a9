import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runMergeCommand } from '../../../src/cli/mergeCommand.ts';
import { repoRoot } from '../../support/conformance.ts';

const fixtures = join(repoRoot, 'test/fixtures/merge');
const fixture = (name: string): string => join(fixtures, name);

function run(argv: readonly string[]): { code: number; stdout: string; stderr: string } {
	let stdout = '';
	let stderr = '';
	const code = runMergeCommand(argv, {
		readFile: (path) => readFileSync(path, 'utf8'),
		stdout: (text) => {
			stdout += text;
		},
		stderr: (text) => {
			stderr += text;
		},
	});
	return { code, stdout, stderr };
}

interface JsonOutput {
	readonly mode: string;
	readonly rules: string;
	readonly status: Record<string, unknown>;
	readonly provenance: Record<string, { readonly rule: string; readonly wecs: readonly string[] }>;
	readonly changed: boolean;
	readonly kstatus: { readonly status: string };
	readonly health: { readonly status: string } | null;
	readonly notes: readonly string[];
}

function json(argv: readonly string[]): JsonOutput {
	const result = run([...argv, '--json']);
	assert.equal(result.code, 0, result.stderr);
	assert.equal(result.stderr, '');
	return JSON.parse(result.stdout) as JsonOutput;
}

const perWecFlags = [
	'--workload',
	fixture('workload.yaml'),
	'--wec',
	`east=${fixture('wec-east.yaml')}`,
	'--wec',
	`west=${fixture('wec-west.yaml')}`,
];

describe('kube-status-lens merge', () => {
	it('prints exactly the documented JSON fields', () => {
		const output = json(perWecFlags);
		assert.deepEqual(Object.keys(output), [
			'mode',
			'rules',
			'status',
			'provenance',
			'changed',
			'kstatus',
			'health',
			'notes',
		]);
		assert.equal(output.mode, 'multi');
		assert.equal(output.rules, 'proposal');
		assert.equal(output.changed, true);
		assert.equal(output.status.readyReplicas, 1);
		assert.equal(output.status.unavailableReplicas, 1);
		assert.deepEqual(output.provenance.readyReplicas?.wecs, ['west']);
		assert.equal(output.kstatus.status, 'InProgress');
		assert.equal(output.health?.status, 'Progressing');
		assert.ok(
			output.notes.some((note) => note.includes('wantMultiWECReportedState is taken to be set')),
		);
	});

	it('accepts a WEC file holding only the status, and the command name in argv', () => {
		const output = json([
			'merge',
			...perWecFlags,
			'--wec',
			`north=${fixture('wec-north-status.yaml')}`,
		]);
		assert.deepEqual(output.provenance.replicas?.wecs, ['east', 'north', 'west']);
	});

	it('follows --policy: a singleton BindingPolicy on one WEC copies that WEC', () => {
		const output = json([...perWecFlags, '--policy', fixture('policy-singleton.yaml')]);
		assert.equal(output.mode, 'singleton');
		assert.equal(output.status.readyReplicas, 2);
		assert.equal(output.provenance.readyReplicas?.rule, 'verbatim');
	});

	it("applies the released controller's rules with --rules kubestellar", () => {
		const output = json([...perWecFlags, '--rules', 'kubestellar']);
		assert.equal(output.rules, 'kubestellar');
		assert.deepEqual(output.status.conditions, []);
		assert.equal(output.provenance.conditions?.rule, 'first-matching-condition');
	});

	it('reads the workload, WorkStatus objects and policies from multi-document YAML', () => {
		const output = json([fixture('all-in-one.yaml')]);
		assert.equal(output.mode, 'multi');
		assert.equal(output.status.readyReplicas, 1);
		assert.equal(
			output.notes.some((note) => note.includes('taken to be set')),
			false,
		);
	});

	it('reads a kind: List in JSON', () => {
		const output = json([fixture('list.json'), '--rules=kubestellar']);
		assert.equal(output.mode, 'multi');
		assert.equal(output.status.numberReady, 2);
		assert.equal(output.status.numberMisscheduled, 1);
	});

	it("prints the merged status as YAML with each field's rule and WEC beside it", () => {
		const result = run(perWecFlags);
		assert.equal(result.code, 0);
		assert.match(
			result.stdout,
			/^Multi-WEC status merge of apps\/v1 Deployment shop\/web \(rules: proposal\)$/m,
		);
		assert.match(result.stdout, /^mode: multi$/m);
		assert.match(result.stdout, /^changed: yes/m);
		assert.match(result.stdout, /^kstatus: InProgress/m);
		assert.match(result.stdout, /^Argo CD health: Progressing/m);
		assert.match(result.stdout, /^ {2}readyReplicas: 1 # min <- west$/m);
		assert.match(result.stdout, /^ {6}status: "False" # three-valued <- west$/m);
		assert.match(result.stdout, /^ {2}unavailableReplicas: 1 # max <- west; absent in east$/m);
		assert.match(
			result.stdout,
			/message: "west: Deployment does not have minimum availability\." # from-merged-status <- west$/m,
		);
		assert.match(result.stdout, /^notes:$/m);
	});

	it('merges the example workspace: cluster3 decides readiness and the Available condition', () => {
		const folder = join(repoRoot, 'examples/workspace/kubestellar');
		const files = [
			'deployment.yaml',
			'bindingpolicy.yaml',
			'managedclusters.yaml',
			'its-workstatuses.yaml',
		];
		const output = json(files.map((name) => join(folder, name)));
		assert.equal(output.mode, 'multi');
		assert.equal(output.status.readyReplicas, 1);
		assert.deepEqual(output.provenance.readyReplicas?.wecs, ['cluster3']);
		const conditions = output.status.conditions as Record<string, unknown>[];
		const available = conditions.find((entry) => entry.type === 'Available');
		assert.equal(available?.status, 'False');
		assert.equal(available?.message, 'cluster3: Deployment does not have minimum availability.');
		assert.equal(output.kstatus.status, 'InProgress');
	});

	it('keeps control sequences from WEC names and messages away from the terminal', () => {
		const result = run([
			'--workload',
			fixture('workload.yaml'),
			'--wec',
			`east\u001b[2J\nwest=${fixture('wec-east.yaml')}`,
			'--wec',
			`west=${fixture('wec-west.yaml')}`,
		]);
		assert.equal(result.code, 0, result.stderr);
		assert.ok(!result.stdout.includes('\u001b'));
		assert.match(result.stdout, /east\\u001b\[2J/);
	});

	it('prints usage with --help', () => {
		const result = run(['--help']);
		assert.equal(result.code, 0);
		assert.match(result.stdout, /Usage: kube-status-lens merge --workload FILE --wec NAME=FILE/);
	});
});

describe('kube-status-lens merge errors (exit 2)', () => {
	const failing: readonly [string, readonly string[], RegExp][] = [
		[
			'a file that does not exist',
			['--workload', fixture('missing.yaml'), '--wec', `a=${fixture('wec-east.yaml')}`],
			/missing\.yaml: cannot read: no such file/,
		],
		['broken YAML, with file, line and column', [fixture('broken.yaml')], /broken\.yaml:6:1: /],
		[
			'broken JSON, with file, line and column',
			[fixture('broken.json')],
			/broken\.json:4:31: invalid JSON: expected a double-quoted property name/,
		],
		['no arguments', [], /give --workload FILE/],
		['--workload without any WEC', ['--workload', fixture('workload.yaml')], /at least one --wec/],
		[
			'--wec without NAME=FILE',
			['--workload', fixture('workload.yaml'), '--wec', 'east'],
			/--wec needs NAME=FILE/,
		],
		[
			'an unknown option',
			['--frobnicate', fixture('all-in-one.yaml')],
			/unknown option --frobnicate/,
		],
		[
			'unknown rules',
			['--rules', 'newest', fixture('all-in-one.yaml')],
			/--rules must be proposal or kubestellar/,
		],
		['a flag without its value', [fixture('all-in-one.yaml'), '--rules'], /--rules needs a value/],
		[
			'several workloads and nothing to choose',
			[fixture('two-workloads.yaml')],
			/several workloads found \(Deployment shop\/web, Deployment shop\/api\)/,
		],
		['no workload in the files', [fixture('wec-east.yaml')], /no workload found/],
		[
			'a --workload file with several workloads',
			['--workload', fixture('two-workloads.yaml'), '--wec', `a=${fixture('wec-east.yaml')}`],
			/exactly one workload object, found 2/,
		],
	];
	for (const [what, argv, message] of failing) {
		it(`rejects ${what}`, () => {
			const result = run(argv);
			assert.equal(result.code, 2);
			assert.equal(result.stdout, '');
			assert.match(result.stderr, message);
		});
	}
});
