import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { diagnoseManifest, type Finding } from '../../../../src/core/manifest/diagnose.ts';
import { applyEdits } from '../../../../src/core/manifest/fixes.ts';
import { parseManifestsWithNodes } from '../../../../src/core/manifest/parse.ts';

const fixtureFolder = join(import.meta.dirname, '../../../fixtures/diagnostics');

function secretsOf(
	text: string,
): (namespace: string, name: string) => readonly string[] | undefined {
	const header = /^# options: (.*)$/m.exec(text.split('\n')[0] ?? '');
	const raw = header
		? (JSON.parse(header[1] ?? '{}') as { secrets?: Record<string, string[]> })
		: {};
	return (namespace, name) => raw.secrets?.[`${namespace}/${name}`];
}

function count(findings: readonly Finding[], code: string): number {
	return findings.filter((finding) => finding.code === code).length;
}

function only(text: string, code: string): Finding {
	const finding = diagnoseManifest(text).find((candidate) => candidate.code === code);
	assert.ok(finding, `no ${code}`);
	return finding;
}

function fixed(text: string, code: string, title?: RegExp): string {
	const fixes = only(text, code).fixes ?? [];
	const fix = title ? fixes.find((candidate) => title.test(candidate.title)) : fixes[0];
	assert.ok(fix, `no fix for ${code}`);
	return applyEdits(text, fix.edits);
}

describe('quick fixes on every fixture finding that has one', () => {
	for (const name of readdirSync(fixtureFolder)
		.filter((file) => file.endsWith('.yaml'))
		.sort()) {
		const text = readFileSync(join(fixtureFolder, name), 'utf8');
		const workspaceSecrets = secretsOf(text);
		const findings = diagnoseManifest(text, { workspaceSecrets });
		const withFixes = findings.filter((finding) => (finding.fixes?.length ?? 0) > 0);
		if (withFixes.length === 0) continue;
		it(`applies each fix in ${name}: the text re-parses and the finding is gone`, () => {
			const objectCount = parseManifestsWithNodes(text).objects.length;
			for (const finding of withFixes) {
				for (const fix of finding.fixes ?? []) {
					const after = applyEdits(text, fix.edits);
					const parsed = parseManifestsWithNodes(after);
					assert.deepEqual(parsed.problems, [], `${fix.title}: parses`);
					assert.equal(parsed.objects.length, objectCount, `${fix.title}: keeps every object`);
					assert.equal(
						count(diagnoseManifest(after, { workspaceSecrets }), finding.code),
						count(findings, finding.code) - 1,
						`${fix.title}: removes the ${finding.code} finding`,
					);
				}
			}
		});
	}
});

describe('quick fixes', () => {
	it('moves a spec-level flag into each downsync clause, keeping its value', () => {
		const text = [
			'apiVersion: control.kubestellar.io/v1alpha1',
			'kind: BindingPolicy',
			'metadata: {name: p}',
			'spec:',
			'  clusterSelectors: [{matchLabels: {a: b}}]',
			'  wantMultiWECReportedState: true',
			'  downsync:',
			'  - resources: [deployments]',
			'  - objectNames: [nginx]',
			'    createOnly: true',
			'',
		].join('\n');
		assert.equal(
			fixed(text, 'kubestellar-flag-outside-downsync'),
			[
				'apiVersion: control.kubestellar.io/v1alpha1',
				'kind: BindingPolicy',
				'metadata: {name: p}',
				'spec:',
				'  clusterSelectors: [{matchLabels: {a: b}}]',
				'  downsync:',
				'  - resources: [deployments]',
				'    wantMultiWECReportedState: true',
				'  - objectNames: [nginx]',
				'    createOnly: true',
				'    wantMultiWECReportedState: true',
				'',
			].join('\n'),
		);
	});

	it('moves the flag into the one clause there is, and into a flow-style clause', () => {
		const text =
			'apiVersion: control.kubestellar.io/v1alpha1\nkind: BindingPolicy\nmetadata: {name: p}\nspec:\n  wantSingletonReportedState: true\n  clusterSelectors: [{}]\n  downsync: [{resources: [deployments]}]\n';
		const finding = only(text, 'kubestellar-flag-outside-downsync');
		assert.equal(
			finding.fixes?.[0]?.title,
			'Move wantSingletonReportedState into the downsync clause',
		);
		assert.equal(
			fixed(text, 'kubestellar-flag-outside-downsync'),
			'apiVersion: control.kubestellar.io/v1alpha1\nkind: BindingPolicy\nmetadata: {name: p}\nspec:\n  clusterSelectors: [{}]\n  downsync: [{resources: [deployments], wantSingletonReportedState: true}]\n',
		);
	});

	it('offers no move when there is no downsync clause to move into', () => {
		const text =
			'apiVersion: control.kubestellar.io/v1alpha1\nkind: BindingPolicy\nmetadata: {name: p}\nspec:\n  wantSingletonReportedState: true\n  clusterSelectors: [{}]\n';
		assert.equal(only(text, 'kubestellar-flag-outside-downsync').fixes, undefined);
	});

	it('sets type: oci at the end of spec for an oci:// URL, or replaces the type there is', () => {
		const text =
			'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: r\nspec:\n  url: oci://ghcr.io/x\n  interval: 5m\n---\napiVersion: v1\nkind: ConfigMap\n';
		assert.equal(
			fixed(text, 'flux-url-scheme-mismatch'),
			'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: r\nspec:\n  url: oci://ghcr.io/x\n  interval: 5m\n  type: oci\n---\napiVersion: v1\nkind: ConfigMap\n',
		);
		const typed = text.replace('  interval: 5m\n', '  type: default # the old one\n');
		assert.equal(
			fixed(typed, 'flux-url-scheme-mismatch'),
			typed.replace('type: default', 'type: oci'),
		);
	});

	it('adds type: oci at the end of a file without a final newline', () => {
		const text =
			'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: r}\nspec:\n  url: oci://ghcr.io/x';
		assert.equal(fixed(text, 'flux-url-scheme-mismatch'), `${text}\n  type: oci`);
	});

	it('drops a field that does not apply, whole line with its comment', () => {
		const text =
			'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: r}\nspec:\n  type: oci\n  url: oci://ghcr.io/x\n  timeout: 60s # too short\n  suspend: true\n';
		assert.equal(
			fixed(text, 'flux-oci-field-not-applicable'),
			text.replace('  timeout: 60s # too short\n', ''),
		);
	});

	it('removes the first key of a sequence item by moving the next key onto the dash line', () => {
		const text = [
			'apiVersion: control.kubestellar.io/v1alpha1',
			'kind: BindingPolicy',
			'metadata: {name: p}',
			'spec:',
			'  clusterSelectors:',
			'  - wantMultiWECReportedState: true',
			'    matchLabels: {location: edge}',
			'  downsync:',
			'  - resources: [deployments]',
			'',
		].join('\n');
		assert.equal(
			fixed(text, 'kubestellar-flag-outside-downsync'),
			[
				'apiVersion: control.kubestellar.io/v1alpha1',
				'kind: BindingPolicy',
				'metadata: {name: p}',
				'spec:',
				'  clusterSelectors:',
				'  - matchLabels: {location: edge}',
				'  downsync:',
				'  - resources: [deployments]',
				'    wantMultiWECReportedState: true',
				'',
			].join('\n'),
		);
		const alone = text.replace('    matchLabels: {location: edge}\n', '');
		assert.match(
			fixed(alone, 'kubestellar-flag-outside-downsync'),
			/ {2}clusterSelectors:\n {2}- \{\}\n/,
		);
	});

	it('renames secretRef to certSecretRef only when the Secret holds TLS data alone', () => {
		const text =
			'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: r, namespace: n}\nspec:\n  url: https://x\n  secretRef:\n    name: s\n';
		const tlsOnly = diagnoseManifest(text, { workspaceSecrets: () => ['ca.crt'] })[0];
		assert.equal(tlsOnly?.fixes?.[0]?.title, 'Rename spec.secretRef to spec.certSecretRef');
		assert.equal(
			applyEdits(text, tlsOnly?.fixes?.[0]?.edits ?? []),
			text.replace('secretRef:', 'certSecretRef:'),
		);
		const mixed = diagnoseManifest(text, {
			workspaceSecrets: () => ['ca.crt', 'username', 'password'],
		})[0];
		assert.equal(mixed?.code, 'flux-secret-ref-tls');
		assert.equal(mixed.fixes, undefined);
	});
});
