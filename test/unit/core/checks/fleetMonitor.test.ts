// Snapshots shaped as rancher/fleet's `fleet monitor` writes them (pkg/troubleshooting/types.go, JSON tags), holding
// the objects of integrationtests/cli/analyze/analyze_test.go at commit 3b2c622ce176b11644abc7fb768f87c3ffb5a3ab:
// "with issues in monitor output" (two GitRepos with a commit mismatch, one polled too long ago, a Bundle with a
// generation mismatch, a stuck BundleDeployment) and "with multiple snapshots" (a clean snapshot, then one with a new
// Bundle).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	isFleetMonitorOutput,
	monitorDocumentReport,
	readFleetMonitorOutput,
	snapshotChangeLines,
} from '../../../../src/core/checks/fleetMonitor.ts';

const namespace = 'fleet-local';

const clean = {
	timestamp: '2026-03-01T11:00:00Z',
	controller: [{ name: 'fleet-controller-1', restarts: 0, status: 'Running' }],
	gitrepos: [],
	diagnostics: {},
};

const withIssues = {
	timestamp: '2026-03-01T12:00:00Z',
	gitrepos: [
		{ namespace, name: 'test-gitrepo-1', generation: 1, ready: false },
		{ namespace, name: 'test-gitrepo-2', generation: 1, ready: false },
	],
	bundles: [
		{
			namespace,
			name: 'test-bundle-mismatch',
			uid: 'u1',
			generation: 5,
			observedGeneration: 3,
			ready: false,
			sizeBytes: 2048,
		},
	],
	bundledeployments: [
		{
			namespace,
			name: 'test-bd-stuck',
			uid: 'u2',
			generation: 1,
			deploymentID: 's-newcontent:options',
			appliedDeploymentID: 's-oldcontent:options',
			ready: false,
			waitingForValues: false,
		},
	],
	diagnostics: {
		stuckBundleDeployments: [
			{
				namespace,
				name: 'test-bd-stuck',
				uid: 'u2',
				generation: 1,
				deploymentID: 's-newcontent:options',
				appliedDeploymentID: 's-oldcontent:options',
				ready: false,
				waitingForValues: false,
			},
		],
		gitReposWithCommitMismatch: [
			{
				namespace,
				name: 'test-gitrepo-1',
				generation: 1,
				commit: 'b785d408903225ed0ff86d22a749779f200561d7',
				pollingCommit: 'cf70b2422b58c878b56c0b2a1ccce368a4a6ed33',
				ready: false,
			},
			{
				namespace,
				name: 'test-gitrepo-2',
				generation: 1,
				commit: 'b785d408903225ed0ff86d22a749779f200561d7',
				webhookCommit: 'cf70b2422b58c878b56c0b2a1ccce368a4a6ed33',
				ready: false,
			},
		],
		gitReposUnpolled: [
			{
				namespace,
				name: 'test-gitrepo-1',
				generation: 1,
				lastPollingTime: '2026-03-01T11:59:00Z',
				pollingInterval: 15000000000,
				ready: false,
			},
		],
		bundlesWithGenerationMismatch: [
			{
				namespace,
				name: 'test-bundle-mismatch',
				uid: 'u1',
				generation: 5,
				observedGeneration: 3,
				ready: false,
			},
		],
		clustersWithAgentIssues: [
			{
				namespace: 'fleet-default',
				name: 'downstream',
				ready: true,
				agentLastSeen: '2026-02-27T12:00:00Z',
				agentLastSeenAge: '48h0m0s',
			},
		],
		bundleDeploymentsWithDeletionTimestamp: 0,
	},
};

const monitorText = `${JSON.stringify(clean)}\n${JSON.stringify(withIssues)}\n`;

describe('fleet monitor output', () => {
	it('is recognised by its content, and a manifest or a JSON object of another kind is not', () => {
		assert.equal(isFleetMonitorOutput(monitorText), true);
		assert.equal(isFleetMonitorOutput(`\n\n${JSON.stringify(withIssues)}`), true);
		assert.equal(isFleetMonitorOutput('apiVersion: v1\nkind: List\nitems: []\n'), false);
		assert.equal(
			isFleetMonitorOutput('{"apiVersion":"v1","kind":"List","timestamp":"x","items":[]}'),
			false,
		);
		assert.equal(isFleetMonitorOutput('{"timestamp": "2026-03-01T12:00:00Z"}'), false);
	});

	it("puts the latest snapshot's classes on the objects it names", () => {
		const reading = readFleetMonitorOutput(monitorText);
		assert.equal(reading.snapshotCount, 2);
		assert.equal(reading.latestLine, 1);
		assert.deepEqual(
			reading.findings.map((finding) => [
				finding.code,
				finding.severity,
				`${finding.object.apiVersion} ${finding.object.kind} ${finding.object.namespace}/${finding.object.name}`,
			]),
			[
				[
					'fleet-stuck-bundle-deployments',
					'error',
					'fleet.cattle.io/v1alpha1 BundleDeployment fleet-local/test-bd-stuck',
				],
				[
					'fleet-clusters-with-agent-issues',
					'error',
					'fleet.cattle.io/v1alpha1 Cluster fleet-default/downstream',
				],
				[
					'fleet-git-repos-with-commit-mismatch',
					'warning',
					'fleet.cattle.io/v1alpha1 GitRepo fleet-local/test-gitrepo-1',
				],
				[
					'fleet-git-repos-with-commit-mismatch',
					'warning',
					'fleet.cattle.io/v1alpha1 GitRepo fleet-local/test-gitrepo-2',
				],
				[
					'fleet-git-repos-unpolled',
					'warning',
					'fleet.cattle.io/v1alpha1 GitRepo fleet-local/test-gitrepo-1',
				],
				[
					'fleet-bundles-with-generation-mismatch',
					'warning',
					'fleet.cattle.io/v1alpha1 Bundle fleet-local/test-bundle-mismatch',
				],
			],
		);
		const messages = reading.findings.map((finding) => finding.message);
		assert.match(messages[1] ?? '', /agent last seen 48h0m0s ago/);
		assert.match(
			messages[2] ?? '',
			/polling: "cf70b2422b58c878b56c0b2a1ccce368a4a6ed33", webhook: "", status commit:/,
		);
		assert.match(messages[4] ?? '', /polling interval: 15s/);
	});

	it("places each finding on its object's name in the latest snapshot, for the Problems panel", () => {
		const report = monitorDocumentReport(monitorText);
		const latest = monitorText.split('\n')[1] ?? '';
		const placed = report.findings.map((finding) => [
			finding.subject,
			finding.range.start.line,
			latest.slice(finding.range.start.character, finding.range.end.character),
		]);
		assert.deepEqual(placed[0], [
			'BundleDeployment fleet-local/test-bd-stuck',
			1,
			'"test-bd-stuck"',
		]);
		assert.deepEqual(placed[1], ['Cluster fleet-default/downstream', 1, '"downstream"']);
		assert.equal(report.findings.length, 6);
		assert.equal(report.changes?.line, 1);
		assert.match(
			report.changes?.text ?? '',
			/^fleet monitor: 2 snapshots, changes as fleet analyze --diff/,
		);
		assert.match(report.changes?.text ?? '', /Stuck BundleDeployments: 0 → 1 ↑/);
		const broken = monitorDocumentReport(`${monitorText}not json\n`);
		assert.equal(broken.unreadableLines[0]?.line, 2);
		assert.equal(monitorDocumentReport(JSON.stringify(withIssues)).changes, undefined);
	});

	it('counts what changed between snapshots as fleet analyze --diff does', () => {
		const reading = readFleetMonitorOutput(monitorText);
		assert.deepEqual(snapshotChangeLines(reading.changes), [
			'Snapshot 1 → 2 (Time: 2026-03-01T11:00:00Z → 2026-03-01T12:00:00Z)',
			'  RESOURCE COUNTS:',
			'    GitRepos: 0 → 2 ↑',
			'    Bundles: 0 → 1 ↑',
			'    BundleDeployments: 0 → 1 ↑',
			'    Contents: 0 → 0 →',
			'    Clusters: 0 → 0 →',
			'  DIAGNOSTICS CHANGES:',
			'    Stuck BundleDeployments: 0 → 1 ↑',
			'    GitRepo/Bundle Mismatches: 0 → 0 →',
			'    Bundles with No Deployments: 0 → 0 →',
			'    Agent Issues: 0 → 1 ↑',
		]);
		assert.deepEqual(readFleetMonitorOutput(JSON.stringify(withIssues)).changes, []);
	});

	it('names the lines that are not snapshots', () => {
		const reading = readFleetMonitorOutput(`${JSON.stringify(clean)}\nnot json\n`);
		assert.equal(reading.snapshotCount, 1);
		assert.deepEqual(
			reading.problems.map((problem) => problem.line),
			[1],
		);
	});
});
