import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { diagnoseManifest, listedFindings } from '../../../../src/core/manifest/diagnose.ts';

const fleetDump = readFileSync(
	join(import.meta.dirname, '../../../../examples/workspace/fleet/dump.yaml'),
	'utf8',
);

function failedRepository(name: string, message: string, namespace = 'flux-system'): string {
	return `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
  url: https://example.com
status:
  conditions:
  - type: Ready
    status: "False"
    reason: Failed
    message: ${message}
    lastTransitionTime: "2024-01-01T00:00:00Z"
`;
}

describe('Problems panel lines name the object they are about', () => {
	it('tells apart the GitRepo, Bundle, Cluster and ClusterGroup that report the same ErrApplied', () => {
		const messages = listedFindings(diagnoseManifest(fleetDump))
			.filter((entry) => entry.finding.code === 'status-err-applied')
			.map((entry) => entry.message.slice(0, entry.message.indexOf(': ErrApplied')));
		assert.deepEqual(messages, [
			'GitRepo fleet-default/shop',
			'Bundle fleet-default/shop-frontend',
			'BundleDeployment cluster-fleet-default-prod-us-1-04523fc383a2/shop-frontend',
			'Cluster fleet-default/prod-us-1',
			'ClusterGroup fleet-default/production',
		]);
		const lines = listedFindings(diagnoseManifest(fleetDump)).map((entry) => entry.message);
		assert.equal(new Set(lines).size, lines.length, lines.join('\n'));
	});

	it('names spec findings too, and a cluster-scoped or unnamed object as it can', () => {
		const text = `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: legacy
  namespace: team-b
spec:
  url: ftp://charts.example.com
`;
		const [finding] = listedFindings(diagnoseManifest(text));
		assert.match(finding?.message ?? '', /^HelmRepository team-b\/legacy: A Helm repository URL/);
		const unnamed = listedFindings(
			diagnoseManifest(text.replace('  name: legacy\n  namespace: team-b\n', '  labels: {}\n')),
		);
		assert.match(unnamed[0]?.message ?? '', /^HelmRepository: A Helm repository URL/);
	});

	it('cuts a long name with the shared row limit, saying how much was left out', () => {
		const name = 'n'.repeat(5000);
		const [finding] = listedFindings(diagnoseManifest(failedRepository(name, 'boom')));
		assert.match(
			finding?.message ?? '',
			/^HelmRepository flux-system\/n{188}… \(4812 more characters\): Failed: boom$/,
		);
	});

	it('collapses the same finding said twice into one line that points at the other place', () => {
		const twice = `${failedRepository('same', 'boom')}---\n${failedRepository('same', 'boom')}`;
		const findings = diagnoseManifest(twice);
		assert.equal(findings.length, 2, 'each place is found');
		const listed = listedFindings(findings);
		assert.equal(listed.length, 1);
		assert.equal(listed[0]?.message, 'HelmRepository flux-system/same: Failed: boom');
		assert.deepEqual(
			listed[0]?.alsoAt.map((range) => range.start.line),
			[findings[1]?.range.start.line],
		);
		const other = `${failedRepository('same', 'boom')}---\n${failedRepository('same', 'boom', 'team-a')}`;
		assert.equal(listedFindings(diagnoseManifest(other)).length, 2, 'other objects stay apart');
	});

	it('keeps findings with a quick fix apart: each place has its own edit', () => {
		const findings = [
			{
				range: { start: { line: 1, character: 0 }, end: { line: 1, character: 4 } },
				severity: 'warning' as const,
				code: 'condition-reason-not-camel-case' as const,
				message: 'reason',
				subject: 'HelmRepository a/b',
				fixes: [{ title: 'fix', edits: [] }],
			},
		];
		assert.equal(listedFindings([...findings, ...findings]).length, 2);
	});

	it('cuts a megabyte message at the hover limit', () => {
		const [listed] = listedFindings(
			diagnoseManifest(failedRepository('big', 'x'.repeat(1_000_000))),
		);
		assert.ok(listed);
		assert.ok(listed.message.length < 1_100, `${listed.message.length} characters`);
		assert.match(
			listed.message,
			/^HelmRepository flux-system\/big: Failed: x+… \(\d+ more characters\)$/,
		);
	});
});
