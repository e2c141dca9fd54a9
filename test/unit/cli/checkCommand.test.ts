import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runCheckCommand, type CheckRecord } from '../../../src/cli/checkCommand.ts';
import { findingCodes } from '../../../src/core/manifest/diagnose.ts';

const badRepository = `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: podinfo
  namespace: flux-system
spec:
  interval: 1d
  url: https://stefanprodan.github.io/podinfo
  secretRef:
    name: tls-only
`;

const warningOnly = `apiVersion: control.kubestellar.io/v1alpha1
kind: BindingPolicy
metadata:
  name: nowhere
spec:
  downsync:
  - resources: [deployments]
`;

const tlsSecret = `apiVersion: v1
kind: Secret
metadata:
  name: tls-only
  namespace: flux-system
data:
  ca.crt: c2VjcmV0
`;

/** A workspace folder with the given files. */
function workspace(files: Readonly<Record<string, string>>): string {
	const folder = mkdtempSync(join(tmpdir(), 'ksl-check-'));
	for (const [name, text] of Object.entries(files)) {
		const path = join(folder, name);
		mkdirSync(join(path, '..'), { recursive: true });
		writeFileSync(path, text);
	}
	return folder;
}

function run(
	argv: readonly string[],
	cwd: string,
): { code: number; stdout: string; stderr: string } {
	let stdout = '';
	let stderr = '';
	const code = runCheckCommand(argv, {
		stdout: (text) => {
			stdout += text;
		},
		stderr: (text) => {
			stderr += text;
		},
		isTty: false,
		now: Date.parse('2026-01-01T00:00:00Z'),
		cwd,
	});
	return { code, stdout, stderr };
}

describe('kube-status-lens check', () => {
	it('prints file:line:column findings and exits 1 on an error-level finding', () => {
		const folder = workspace({ 'flux/repo.yaml': badRepository, 'flux/secret.yaml': tlsSecret });
		const result = run([folder], folder);
		assert.equal(result.code, 1, result.stderr);
		const lines = result.stdout.trimEnd().split('\n');
		assert.deepEqual(lines.slice(0, -1), [
			`${join(folder, 'flux/repo.yaml')}:7:13: error flux-invalid-duration: spec.interval "1d" is not a Go duration: Go durations have no d unit: write 24h for a day. Examples: 30s, 5m, 1h30m.`,
			`${join(folder, 'flux/repo.yaml')}:10:11: warning flux-secret-ref-tls: Secret "tls-only" holds TLS data (ca.crt): TLS through spec.secretRef is deprecated; put it in a Secret named by spec.certSecretRef.`,
		]);
		assert.equal(lines.at(-1), '1 error, 1 warning, 0 information in 1 file (2 files checked)');
	});

	it('prints untrusted text as one line without terminal control sequences', () => {
		const hostile = `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: "evil\\u001b[31m"
  namespace: flux-system
spec:
  url: https://charts.example.com
status:
  conditions:
  - type: Ready
    status: "False"
    reason: Failed
    message: "first\\nsecond\\u001b]0;title\\u0007 \\u202eend"
    lastTransitionTime: "2025-11-20T09:00:00Z"
`;
		const folder = workspace({ 'hostile.yaml': hostile });
		const result = run([folder], folder);
		const finding = result.stdout.split('\n').find((line) => line.includes('status-failed'));
		assert.ok(finding?.endsWith('Failed: first second\\u001b]0;title\\u0007 \\u202eend'), finding);
		const controls = [...result.stdout].filter(
			(char) => (char < ' ' && char !== '\n') || char === '\u202e',
		);
		assert.deepEqual(controls, []);
	});

	it('exits 0 when the worst finding is a warning, and on clean input', () => {
		assert.equal(run([workspace({ 'policy.yaml': warningOnly })], tmpdir()).code, 0);
		const clean = run(
			[workspace({ 'other.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n' })],
			tmpdir(),
		);
		assert.equal(clean.code, 0);
		assert.equal(clean.stdout, '0 errors, 0 warnings, 0 information in 0 files (1 file checked)\n');
	});

	it('exits 2 on unreadable input, after reporting what it could read', () => {
		const folder = workspace({ 'policy.yaml': warningOnly });
		const result = run([join(folder, 'policy.yaml'), join(folder, 'missing.yaml')], folder);
		assert.equal(result.code, 2);
		assert.match(result.stderr, /missing\.yaml: cannot read: no such file or folder/);
		assert.match(result.stdout, /kubestellar-no-cluster-selectors/);
	});

	it('reports YAML syntax errors itself, since no YAML extension runs in CI', () => {
		const folder = workspace({ 'broken.yaml': 'apiVersion: v1\nkind: X\nspec:\n  a: b: c\n' });
		const result = run(['--format', 'json', folder], folder);
		assert.equal(result.code, 1);
		assert.equal((JSON.parse(result.stdout) as CheckRecord[])[0]?.code, 'yaml-syntax');
	});

	it('prints JSON records with 1-based positions and fix titles', () => {
		const folder = workspace({
			'policy.yaml': warningOnly.replace('spec:\n', 'spec:\n  wantSingletonReportedState: true\n'),
		});
		const result = run(['--format=json', folder], folder);
		const records = JSON.parse(result.stdout) as CheckRecord[];
		assert.deepEqual(
			records.map((record) => [
				record.code,
				record.line,
				record.column,
				record.endColumn,
				record.fixes,
			]),
			[
				['kubestellar-no-cluster-selectors', 5, 1, 5, []],
				[
					'kubestellar-flag-outside-downsync',
					6,
					3,
					29,
					['Move wantSingletonReportedState into the downsync clause'],
				],
			],
		);
	});

	it('writes SARIF 2.1.0 with a rule per finding code and file locations', () => {
		const folder = workspace({ 'flux/repo.yaml': badRepository });
		const sarifRun = run(['--format', 'sarif', join(folder, 'flux')], folder);
		const sarif = JSON.parse(sarifRun.stdout) as {
			version: string;
			runs: {
				tool: {
					driver: {
						name: string;
						rules: { id: string; defaultConfiguration: { level: string } }[];
					};
				};
				originalUriBaseIds: Record<string, { uri: string }>;
				results: {
					ruleId: string;
					ruleIndex: number;
					level: string;
					message: { text: string };
					locations: {
						physicalLocation: {
							artifactLocation: { uri: string; uriBaseId?: string };
							region: {
								startLine: number;
								startColumn: number;
								endLine: number;
								endColumn: number;
							};
						};
					}[];
				}[];
			}[];
		};
		assert.equal(sarifRun.code, 1);
		assert.equal(sarif.version, '2.1.0');
		const [sarifRunEntry] = sarif.runs;
		assert.ok(sarifRunEntry);
		assert.deepEqual(
			sarifRunEntry.tool.driver.rules.map((rule) => rule.id),
			[...findingCodes],
		);
		// The working folder is named, not spelled out: no path of the machine that ran the check.
		assert.equal(sarifRunEntry.originalUriBaseIds['%SRCROOT%']?.uri, undefined);
		assert.ok(!sarifRun.stdout.includes(folder));
		const [first] = sarifRunEntry.results;
		assert.ok(first);
		assert.equal(first.ruleId, 'flux-invalid-duration');
		assert.equal(sarifRunEntry.tool.driver.rules[first.ruleIndex]?.id, first.ruleId);
		assert.equal(first.level, 'error');
		assert.deepEqual(first.locations[0]?.physicalLocation, {
			artifactLocation: { uri: 'flux/repo.yaml', uriBaseId: '%SRCROOT%' },
			region: { startLine: 7, startColumn: 13, endLine: 7, endColumn: 15 },
		});
	});

	it('locates files outside the working folder relative to it, never by an absolute path', () => {
		const folder = workspace({ 'repo.yaml': badRepository });
		const result = run(['--format', 'sarif', folder], join(folder, 'elsewhere'));
		assert.match(result.stdout, /"uri": "\.\.\/repo\.yaml",\n\s*"uriBaseId": "%SRCROOT%"/);
		assert.ok(!result.stdout.includes(pathToFileURL(folder).href));
	});

	it('refuses an unknown format or option with exit code 2, and explains itself on --help', () => {
		assert.equal(run(['--format', 'xml', '.'], tmpdir()).code, 2);
		assert.equal(run(['--fix', '.'], tmpdir()).code, 2);
		assert.equal(run([], tmpdir()).code, 2);
		const help = run(['--help'], tmpdir());
		assert.equal(help.code, 0);
		assert.match(help.stdout, /--format sarif {5}SARIF 2\.1\.0/);
	});
});
