import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { runMergeCommand } from '../../../src/cli/mergeCommand.ts';
import { runStatusCommand } from '../../../src/cli/statusCommand.ts';
import { parseManifests } from '../../../src/core/manifest/parse.ts';
import { mergeInputsFrom, mergePreviewYaml } from '../../../src/core/merge/mergePreview.ts';
import type { MergeRules } from '../../../src/core/merge/wecMerge.ts';
import { repoRoot } from '../../support/conformance.ts';

const fixtures = join(repoRoot, 'test/fixtures/merge');
const fixture = (name: string): string => join(fixtures, name);
const example = (name: string): string => join(repoRoot, 'examples/workspace/kubestellar', name);

// Files the fixtures do not have: broken JSON, and one file per WorkStatus of the example workspace (named by WEC).
const scratch = mkdtempSync(join(tmpdir(), 'ksl-merge-'));
const brokenJson = join(scratch, 'missing-comma.json');
writeFileSync(
	brokenJson,
	'{\n  "apiVersion": "apps/v1",\n  "kind": "Deployment"\n  "metadata": { "name": "web" }\n}\n',
);
const workStatusFiles = objectsIn(example('its-workstatuses.yaml')).map((object) => {
	const wec = (object.metadata as { namespace: string }).namespace;
	const file = join(scratch, `${wec}.json`);
	writeFileSync(file, JSON.stringify(object));
	return { wec, file };
});

function objectsIn(...files: readonly string[]): Record<string, unknown>[] {
	return files.flatMap((file) =>
		parseManifests(readFileSync(file, 'utf8'), { fileName: file }).objects.map(
			(entry) => entry.object,
		),
	);
}

/** The lines of a preview from the merged status on: the status with each field's provenance comment. */
function statusPart(text: string): string {
	return text.slice(text.indexOf('\nstatus:') + 1);
}

/** The provenance comments of a preview, each with the field it stands beside. */
function provenanceComments(text: string): string[] {
	return statusPart(text)
		.split('\n')
		.filter((line) => line.includes('#'));
}

function run(argv: readonly string[]): { code: number; stdout: string; stderr: string } {
	let stdout = '';
	let stderr = '';
	const code = runMergeCommand(argv, {
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

	it("prints the merged status as YAML with each field's rule and WEC beside it, in the editor's words", () => {
		const result = run(perWecFlags);
		assert.equal(result.code, 0);
		assert.match(
			result.stdout,
			/^# The \.status KubeStellar would write into Deployment shop\/web, from its WECs$/m,
		);
		assert.match(result.stdout, /^# Rules: the multi-WEC status proposal, in full$/m);
		assert.match(result.stdout, /^# Mode: multi/m);
		assert.match(result.stdout, /^# Changed: yes/m);
		assert.match(result.stdout, /^# kstatus: InProgress/m);
		assert.match(result.stdout, /^# Argo CD health: Progressing/m);
		assert.match(
			result.stdout,
			/^ {2}readyReplicas: 1 # decided by west: the lowest value of the WECs$/m,
		);
		assert.match(result.stdout, /^ {6}status: "False" # decided by west: False there, /m);
		assert.match(
			result.stdout,
			/^ {2}unavailableReplicas: 1 # decided by west: the highest value of the WECs; not reported by east /m,
		);
		assert.match(
			result.stdout,
			/message: "west: Deployment does not have minimum availability\." # decided by west: the most recent condition with this status$/m,
		);
		assert.match(result.stdout, /^# Notes:$/m);
		// The whole output is YAML: the header is comments, and the document is the merged status.
		assert.deepEqual(parse(result.stdout), { status: json(perWecFlags).status });
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

describe('kube-status-lens merge and the editor say the same words', () => {
	const cases: readonly [string, readonly string[]][] = [
		[
			'the example workspace',
			[
				'deployment.yaml',
				'bindingpolicy.yaml',
				'managedclusters.yaml',
				'its-workstatuses.yaml',
			].map(example),
		],
		['one multi-document file', [fixture('all-in-one.yaml')]],
		['a kind: List in JSON', [fixture('list.json')]],
	];
	for (const [what, files] of cases) {
		for (const rules of ['proposal', 'kubestellar'] as const satisfies readonly MergeRules[]) {
			it(`prints the editor's preview for ${what} (--rules ${rules})`, () => {
				// The editor's "from files" preview: the objects of the files, the workload the preview is offered on.
				const objects = objectsIn(...files);
				const offered = objects.filter((object) => mergeInputsFrom(object, objects).because);
				assert.equal(offered.length, 1);
				const workload = offered[0];
				const editor = mergePreviewYaml(workload, mergeInputsFrom(workload, objects), rules).text;
				const cli = run([...files, '--rules', rules]);
				assert.equal(cli.code, 0, cli.stderr);
				assert.ok(provenanceComments(editor).length > 0);
				assert.deepEqual(provenanceComments(cli.stdout), provenanceComments(editor));
				assert.equal(cli.stdout, editor);
			});
		}
	}

	it('comments each field of per-WEC files as the editor comments the same copies', () => {
		const [east] = objectsIn(fixture('wec-east.yaml'));
		const [west] = objectsIn(fixture('wec-west.yaml'));
		const north = parse(readFileSync(fixture('wec-north-status.yaml'), 'utf8')) as {
			status: unknown;
		};
		const [workload] = objectsIn(fixture('workload.yaml'));
		const editor = mergePreviewYaml(
			workload,
			{
				perWec: [
					{ wec: 'east', object: east },
					{ wec: 'west', object: west },
					{ wec: 'north', object: { status: north.status } },
				],
				policies: null,
			},
			'proposal',
		).text;
		const cli = run([...perWecFlags, '--wec', `north=${fixture('wec-north-status.yaml')}`]);
		assert.equal(cli.code, 0, cli.stderr);
		assert.deepEqual(provenanceComments(cli.stdout), provenanceComments(editor));
		assert.equal(statusPart(cli.stdout), statusPart(editor));
	});
});

describe('kube-status-lens merge PATH... and --workload/--wec', () => {
	const wecFlags = workStatusFiles.flatMap(({ wec, file }) => ['--wec', `${wec}=${file}`]);
	const files = workStatusFiles.map(({ file }) => file);

	it('agree on WorkStatus files given either way', () => {
		const byPaths = run([example('deployment.yaml'), ...files]);
		const byFlags = run(['--workload', example('deployment.yaml'), ...wecFlags]);
		assert.equal(byPaths.code, 0, byPaths.stderr);
		assert.equal(byFlags.stdout, byPaths.stdout);
		assert.deepEqual(
			json(['--workload', example('deployment.yaml'), ...wecFlags]),
			json([example('deployment.yaml'), ...files]),
		);
		assert.match(byPaths.stdout, /^ {2}readyReplicas: 1 # decided by cluster3: /m);
	});

	it('agree with the policies given as --policy or as paths', () => {
		const policies = [example('bindingpolicy.yaml'), example('managedclusters.yaml')];
		const byPaths = run([example('deployment.yaml'), ...files, ...policies]);
		const byFlags = run([
			'--workload',
			example('deployment.yaml'),
			...wecFlags,
			...policies.flatMap((file) => ['--policy', file]),
		]);
		assert.equal(byPaths.code, 0, byPaths.stderr);
		assert.equal(byFlags.stdout, byPaths.stdout);
		assert.match(byPaths.stdout, /^# Mode: multi /m);
		assert.match(byPaths.stdout, /^# Why this workload: selected by nginx-multiwec; 3 WorkStatus/m);
	});
});

describe('kube-status-lens merge reads files as status does', () => {
	for (const file of [fixture('broken.yaml'), brokenJson, fixture('broken.json')]) {
		it(`reports ${file.slice(file.lastIndexOf('/') + 1)} with the same words and exit code`, () => {
			let statusErr = '';
			const statusCode = runStatusCommand([file], {
				stdout: () => {},
				stderr: (text) => {
					statusErr += text;
				},
				isTty: false,
				now: 0,
			});
			const merge = run([file]);
			assert.equal(merge.code, statusCode);
			assert.equal(merge.stderr, statusErr);
		});
	}
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
			'broken JSON, with file, line and column, as status reports it',
			[brokenJson],
			/missing-comma\.json:4:3: Missing , between flow map items/,
		],
		['no arguments', [], /give --workload FILE/],
		['--workload without any WEC', ['--workload', fixture('workload.yaml')], /at least one --wec/],
		[
			'--wec without NAME=FILE',
			['--workload', fixture('workload.yaml'), '--wec', 'east'],
			/--wec takes NAME=FILE, not east/,
		],
		[
			'an unknown option',
			['--frobnicate', fixture('all-in-one.yaml')],
			/unknown option --frobnicate/,
		],
		[
			'unknown rules',
			['--rules', 'newest', fixture('all-in-one.yaml')],
			/--rules takes proposal or kubestellar, not newest/,
		],
		[
			'a flag without its value',
			[fixture('all-in-one.yaml'), '--rules'],
			/--rules takes proposal or kubestellar, not nothing/,
		],
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
