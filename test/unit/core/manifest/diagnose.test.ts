import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
	diagnoseManifest,
	findingCodes,
	findingRules,
	goDurationProblem,
	isRfc3339,
	type DiagnoseOptions,
	type Finding,
} from '../../../../src/core/manifest/diagnose.ts';
import { fleetCheckCodes } from '../../../../src/core/checks/fleetCodes.ts';
import { targetingCodes } from '../../../../src/core/targeting/targetingCodes.ts';
import { celLanguage } from '../../../../src/cel/celLanguage.ts';
import { useCelLanguage } from '../../../../src/core/status/fluxHealthChecks.ts';

// CEL as the front ends hand it in (dist/cel.cjs): health check expressions are parsed and evaluated.
useCelLanguage(() => celLanguage);

const fixtureFolder = join(import.meta.dirname, '../../../fixtures/diagnostics');

interface Expected {
	readonly line: number;
	readonly character: number;
	/** Undefined for `#<` markers, which give no length. */
	readonly length?: number;
	readonly severity: string;
	readonly code: string;
}

const markerPattern = /^(\s*)#(\s*)(\^+|<)\s+(error|warning|information|hint)\s+([a-z-]+)\s*$/;

/** The findings a fixture marks, and the options its first line gives. */
function readFixture(text: string): { expected: Expected[]; options: DiagnoseOptions } {
	const lines = text.split('\n');
	const expected: Expected[] = [];
	let target = -1;
	lines.forEach((line, index) => {
		const match = markerPattern.exec(line);
		if (!match) {
			target = index;
			return;
		}
		const [, before = '', between = '', carets = '', severity = '', code = ''] = match;
		expected.push(
			carets === '<'
				? { line: target, character: 0, severity, code }
				: {
						line: target,
						character: before.length + 1 + between.length,
						length: carets.length,
						severity,
						code,
					},
		);
	});
	const header = /^# options: (.*)$/.exec(lines[0] ?? '');
	const raw = header ? (JSON.parse(header[1] ?? '{}') as Record<string, unknown>) : {};
	const secrets = (raw.secrets ?? {}) as Record<string, string[]>;
	const options: DiagnoseOptions = {
		...(typeof raw.now === 'string' ? { now: Date.parse(raw.now) } : {}),
		...(typeof raw.waitAppliedThresholdSeconds === 'number'
			? { waitAppliedThresholdSeconds: raw.waitAppliedThresholdSeconds }
			: {}),
		...(raw.reportSyntaxErrors === true ? { reportSyntaxErrors: true } : {}),
		workspaceSecrets: (namespace, name) => secrets[`${namespace}/${name}`],
	};
	return { expected, options };
}

function describeFinding(finding: Finding, lines: readonly string[]): string {
	const { start, end } = finding.range;
	const source = lines[start.line] ?? '';
	const shown =
		start.line === end.line
			? source.slice(start.character, end.character)
			: source.slice(start.character);
	return `${start.line + 1}:${start.character + 1} ${finding.severity} ${finding.code} «${shown}»`;
}

function matches(finding: Finding, expected: Expected): boolean {
	const { start, end } = finding.range;
	return (
		finding.code === expected.code &&
		finding.severity === expected.severity &&
		start.line === expected.line &&
		start.character === expected.character &&
		(expected.length === undefined ||
			(end.line === start.line && end.character - start.character === expected.length))
	);
}

const fixtures = readdirSync(fixtureFolder)
	.filter((name) => name.endsWith('.yaml'))
	.sort();

describe('diagnoseManifest on the fixtures (expected findings marked in each file)', () => {
	for (const name of fixtures) {
		it(`finds exactly the marked findings in ${name}`, () => {
			const text = readFileSync(join(fixtureFolder, name), 'utf8');
			const lines = text.split('\n');
			const { expected, options } = readFixture(text);
			const findings = diagnoseManifest(text, options);
			const missing = expected.filter(
				(want) => !findings.some((finding) => matches(finding, want)),
			);
			const unexpected = findings.filter(
				(finding) => !expected.some((want) => matches(finding, want)),
			);
			assert.deepEqual(
				{
					missing: missing.map(
						(want) => `${want.line + 1}:${want.character + 1} ${want.severity} ${want.code}`,
					),
					unexpected: unexpected.map((finding) => describeFinding(finding, lines)),
				},
				{ missing: [], unexpected: [] },
			);
		});
	}

	it('gives every finding the severity its code documents', () => {
		for (const name of fixtures) {
			const text = readFileSync(join(fixtureFolder, name), 'utf8');
			for (const finding of diagnoseManifest(text, readFixture(text).options)) {
				assert.equal(
					finding.severity,
					findingRules[finding.code].severity,
					`${name}: ${finding.code}`,
				);
			}
		}
	});

	it('documents every finding code in docs/diagnostics.md', () => {
		const docs = readFileSync(join(import.meta.dirname, '../../../../docs/diagnostics.md'), 'utf8');
		assert.deepEqual(
			findingCodes.filter((code) => !docs.includes(`\n### ${code}\n`)),
			[],
		);
	});

	it('has a fixture with a positive case for every finding code', () => {
		const marked = new Set<string>();
		for (const name of fixtures) {
			for (const want of readFixture(readFileSync(join(fixtureFolder, name), 'utf8')).expected) {
				marked.add(want.code);
			}
		}
		// Fleet's troubleshooting codes compare the objects of a whole input: test/unit/core/checks covers them.
		// Targeting codes need an inventory: test/unit/core/targeting/targetLenses.test.ts covers them.
		const perText = findingCodes.filter(
			(code) =>
				!fleetCheckCodes.some((fleet) => fleet === code) &&
				!targetingCodes.some((targeting) => targeting === code),
		);
		assert.deepEqual(
			perText.filter((code) => !fixtures.includes(`${code}.yaml`) || !marked.has(code)),
			[],
		);
	});
});

describe('diagnoseManifest', () => {
	it('leaves syntax errors to the YAML extension unless asked', () => {
		const text = readFileSync(join(fixtureFolder, 'yaml-syntax.yaml'), 'utf8');
		assert.deepEqual(diagnoseManifest(text), []);
		assert.equal(diagnoseManifest(text, { reportSyntaxErrors: true })[0]?.code, 'yaml-syntax');
	});

	it('judges WaitApplied ages only against the time the caller passes', () => {
		const text = readFileSync(join(fixtureFolder, 'status-wait-applied.yaml'), 'utf8');
		assert.deepEqual(
			diagnoseManifest(text).map((finding) => finding.code),
			[],
		);
		const lateNow = Date.parse('2025-11-21T10:00:00Z');
		assert.equal(
			diagnoseManifest(text, { now: lateNow }).filter(
				(finding) => finding.code === 'status-wait-applied',
			).length,
			2,
		);
		assert.equal(
			diagnoseManifest(text, { now: lateNow, waitAppliedThresholdSeconds: 100_000 }).length,
			0,
		);
	});

	it('asks the workspace for Secret key names with the repository namespace, and only when needed', () => {
		const asked: string[] = [];
		diagnoseManifest(
			'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: r, namespace: team}\nspec:\n  url: https://x\n  secretRef: {name: creds}\n---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: q}\nspec:\n  url: https://x\n',
			{
				workspaceSecrets: (namespace, name) => {
					asked.push(`${namespace}/${name}`);
					return ['tls.crt'];
				},
			},
		);
		assert.deepEqual(asked, ['team/creds']);
	});

	it('offers no fix for a status problem (status is observed, not written)', () => {
		for (const name of fixtures.filter((file) => file.startsWith('status-'))) {
			const text = readFileSync(join(fixtureFolder, name), 'utf8');
			const { options } = readFixture(text);
			for (const finding of diagnoseManifest(text, options)) {
				assert.equal(finding.fixes, undefined, name);
			}
		}
	});

	it('never throws on malformed or hostile input', () => {
		const inputs = [
			'',
			'---\n---\n',
			'kind: [',
			'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nspec: 3\nstatus: [1, 2]\n',
			'apiVersion: resources.azure.com/v1\nkind: X\nstatus:\n  conditions: [1, null, {type: 3}, {type: Ready, status: true}]\n',
			'apiVersion: control.kubestellar.io/v1alpha1\nkind: BindingPolicy\nspec:\n  downsync: {}\n  clusterSelectors: 7\n',
			'apiVersion: control.kubestellar.io/v1alpha1\nkind: BindingPolicy\nspec:\n  downsync: [null, 1, {wantSingletonReportedState: {constructor: 1}}]\n',
			'a: &a [x, x]\nb: [*a, *a]\napiVersion: fleet.cattle.io/v1alpha1\nkind: Bundle\nstatus: {display: {state: ErrApplied}}\n',
			'{"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"HelmRepository","spec":{"url":"oci://x","provider":"aws"}}',
		];
		for (const input of inputs) {
			assert.doesNotThrow(() => diagnoseManifest(input, { now: 0 }), input);
		}
	});

	it('points into JSON and flow-style YAML too', () => {
		const text =
			'{"apiVersion": "source.toolkit.fluxcd.io/v1", "kind": "HelmRepository",\n "metadata": {"name": "j"}, "spec": {"url": "https://x", "provider": "aws"}}\n';
		const [finding] = diagnoseManifest(text);
		assert.equal(finding?.code, 'flux-provider-without-oci');
		assert.equal(
			text.split('\n')[1]?.slice(finding.range.start.character, finding.range.end.character),
			'"aws"',
		);
	});

	it('reads the items of a kind: List dump', () => {
		const text =
			'apiVersion: v1\nkind: List\nitems:\n- apiVersion: source.toolkit.fluxcd.io/v1\n  kind: HelmRepository\n  metadata: {name: a}\n  spec:\n    url: https://x\n    interval: 1d\n';
		const [finding] = diagnoseManifest(text);
		assert.deepEqual(
			[finding?.code, finding?.range.start.line, finding?.range.start.character],
			['flux-invalid-duration', 8, 14],
		);
	});
});

describe('goDurationProblem (time.ParseDuration)', () => {
	it('accepts what Go accepts', () => {
		for (const text of [
			'0',
			'5m',
			'1h30m',
			'1.5h',
			'.5s',
			'10ms',
			'3us',
			'3µs',
			'-2m',
			'+1s',
			'1h2m3s4ms5us6ns',
		]) {
			assert.equal(goDurationProblem(text), undefined, text);
		}
	});

	it('rejects what Go rejects, saying why', () => {
		assert.match(goDurationProblem('1d') ?? '', /24h/);
		assert.match(goDurationProblem('5') ?? '', /unit/);
		assert.match(goDurationProblem('') ?? '', /empty/);
		for (const text of ['m', '.s', '5 m', '1h-2m', '10sec', '9999999999h']) {
			assert.notEqual(goDurationProblem(text), undefined, text);
		}
	});
});

describe('isRfc3339', () => {
	it('accepts metav1.Time forms and rejects impossible dates', () => {
		assert.ok(isRfc3339('2025-11-20T09:00:00Z'));
		assert.ok(isRfc3339('2025-11-20T09:00:00.123456+01:00'));
		assert.ok(!isRfc3339('2025-02-30T09:00:00Z'));
		assert.ok(!isRfc3339('2025-11-20 09:00:00'));
		assert.ok(!isRfc3339('2025-11-20T24:00:00Z'));
	});
});
