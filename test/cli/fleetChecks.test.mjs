// `kube-status-lens check` runs Fleet's own troubleshooting classes (those of `fleet monitor` / `fleet analyze`) on
// each input, names every finding's object in JSON and SARIF, and reads `fleet monitor` output. Run by the bundled
// CLI on whichever Node runs this file.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'dist/cli.cjs');
const fleet = 'fleet.cattle.io/v1alpha1';

/** A dump as `kubectl get -o yaml` writes it: a GitRepo, its Bundle, a stuck BundleDeployment, two Clusters. */
const dump = {
	apiVersion: 'v1',
	kind: 'List',
	items: [
		{
			apiVersion: fleet,
			kind: 'GitRepo',
			metadata: { name: 'shop', namespace: 'fleet-default', generation: 2 },
			spec: { repo: 'https://example.com/shop' },
			status: {
				commit: 'c2',
				pollingCommit: 'c2',
				observedGeneration: 2,
				lastPollingTriggered: '2026-03-01T11:59:58Z',
				conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-03-01T12:00:00Z' }],
			},
		},
		{
			apiVersion: fleet,
			kind: 'Bundle',
			metadata: {
				name: 'shop-web',
				namespace: 'fleet-default',
				generation: 1,
				labels: { 'fleet.cattle.io/repo-name': 'shop', 'fleet.cattle.io/commit': 'c1' },
			},
			spec: {},
			status: { observedGeneration: 1 },
		},
		{
			apiVersion: fleet,
			kind: 'BundleDeployment',
			metadata: {
				name: 'shop-web',
				namespace: 'cluster-fleet-default-prod-1',
				labels: {
					'fleet.cattle.io/bundle-name': 'shop-web',
					'fleet.cattle.io/bundle-namespace': 'fleet-default',
				},
			},
			spec: { deploymentID: 's-new:o' },
			status: { appliedDeploymentID: 's-old:o' },
		},
		{
			apiVersion: fleet,
			kind: 'Cluster',
			metadata: { name: 'prod-1', namespace: 'fleet-default' },
			status: {
				agent: { lastSeen: '2026-03-01T11:59:00Z' },
				conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-03-01T11:00:00Z' }],
			},
		},
		{
			apiVersion: fleet,
			kind: 'Cluster',
			metadata: { name: 'local', namespace: 'fleet-local' },
			status: {
				agent: { lastSeen: '2026-03-01T11:59:30Z' },
				conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-03-01T11:00:00Z' }],
			},
		},
	],
};

/** A GitOps repository: Fleet objects as written, without status. */
const gitOps = `apiVersion: fleet.cattle.io/v1alpha1
kind: GitRepo
metadata:
  name: shop
  namespace: fleet-default
spec:
  repo: https://example.com/shop
---
apiVersion: fleet.cattle.io/v1alpha1
kind: ClusterGroup
metadata:
  name: prod
  namespace: fleet-default
spec:
  selector:
    matchLabels:
      env: prod
`;

function folderWith(files) {
	const folder = mkdtempSync(join(tmpdir(), 'ksl-fleet-checks-'));
	for (const [name, text] of Object.entries(files)) {
		mkdirSync(dirname(join(folder, name)), { recursive: true });
		writeFileSync(join(folder, name), text);
	}
	return folder;
}

function check(args, env = {}) {
	const environment = { ...process.env, ...env };
	if (!('KUBE_STATUS_LENS_NOW' in env)) delete environment.KUBE_STATUS_LENS_NOW;
	return spawnSync(process.execPath, [cli, 'check', ...args], {
		encoding: 'utf8',
		env: environment,
		cwd: root,
	});
}

describe(`kube-status-lens check: Fleet's troubleshooting classes, on Node ${process.versions.node}`, () => {
	it('finds them on the objects of a dump, names each object, and none on a GitOps repository', () => {
		const folder = folderWith({
			'dump/fleet.json': JSON.stringify(dump, null, 2),
			'repo/fleet.yaml': gitOps,
		});
		const result = check(['--format', 'json', join(folder, 'dump'), join(folder, 'repo')]);
		assert.equal(result.status, 1, result.stderr);
		const records = JSON.parse(result.stdout);
		assert.deepEqual(
			records.map((record) => [record.code, record.severity, record.object]),
			[
				[
					'fleet-git-repo-bundle-inconsistencies',
					'error',
					{ apiVersion: fleet, kind: 'Bundle', namespace: 'fleet-default', name: 'shop-web' },
				],
				[
					'fleet-stuck-bundle-deployments',
					'error',
					{
						apiVersion: fleet,
						kind: 'BundleDeployment',
						namespace: 'cluster-fleet-default-prod-1',
						name: 'shop-web',
					},
				],
			],
		);
		assert.ok(records.every((record) => record.file === join(folder, 'dump/fleet.json')));
		assert.match(
			result.stderr,
			/dump: note: fleet-content-issues not checked: the input holds no Contents/,
		);
		assert.doesNotMatch(result.stderr, /repo: note/);
	});

	it('measures the agent age from the newest timestamp of the input, or from --now and KUBE_STATUS_LENS_NOW', () => {
		const folder = folderWith({ 'fleet.json': JSON.stringify(dump) });
		const agentIssues = (result) =>
			JSON.parse(result.stdout)
				.filter((record) => record.code === 'fleet-clusters-with-agent-issues')
				.map((record) => `${record.object.namespace}/${record.object.name}`);
		assert.deepEqual(agentIssues(check(['--format', 'json', folder])), []);
		const later = check(['--format', 'json', '--now', '2026-03-03T12:00:00Z', folder]);
		assert.deepEqual(agentIssues(later), ['fleet-default/prod-1', 'fleet-local/local']);
		assert.match(
			JSON.parse(later.stdout).find((record) => record.code === 'fleet-clusters-with-agent-issues')
				.message,
			/its agent was last seen 2d ago \(2026-03-01T11:59:00Z\), more than 24 hours/,
		);
		const fromEnvironment = check(['--format', 'json', folder], {
			KUBE_STATUS_LENS_NOW: '2026-03-03T12:00:00Z',
		});
		assert.deepEqual(agentIssues(fromEnvironment), ['fleet-default/prod-1', 'fleet-local/local']);
		const bad = check(['--now', 'yesterday', folder]);
		assert.equal(bad.status, 2);
		assert.match(bad.stderr, /--now takes an RFC 3339 time/);
	});

	it('keeps the text lines and adds the findings and the notes', () => {
		const folder = folderWith({ 'fleet.json': JSON.stringify(dump, null, 2) });
		const result = check([folder]);
		const lines = result.stdout.trimEnd().split('\n');
		assert.match(
			lines[0] ?? '',
			/fleet\.json:\d+:\d+: error fleet-git-repo-bundle-inconsistencies: Bundle out of step with GitRepo shop: its commit "c1" \(label fleet.cattle.io\/commit\) is not the GitRepo's "c2"/,
		);
		assert.ok(
			lines.some((line) =>
				line.endsWith(
					"note: fleet-secrets-with-values-hash-mismatch not checked: it hashes the values in the bundle Secrets' data, which Kube Status Lens never reads",
				),
			),
		);
		assert.equal(lines.at(-1), '2 errors, 0 warnings, 0 information in 1 file (1 file checked)');
	});

	it('names the object of every SARIF result in logicalLocations, for Fleet codes and the others', () => {
		const errApplied = {
			apiVersion: fleet,
			kind: 'Bundle',
			metadata: { name: 'failing', namespace: 'fleet-local' },
			status: {
				display: { state: 'ErrApplied' },
				summary: { errApplied: 1, desiredReady: 1 },
				conditions: [
					{
						type: 'Ready',
						status: 'False',
						message: 'ErrApplied(1) [Cluster fleet-local/local: boom]',
					},
				],
			},
		};
		const folder = folderWith({
			'fleet.json': JSON.stringify({ ...dump, items: [...dump.items, errApplied] }, null, 2),
		});
		const result = check(['--format', 'sarif', folder]);
		const [run] = JSON.parse(result.stdout).runs;
		const named = (ruleId) =>
			run.results
				.filter((entry) => entry.ruleId === ruleId)
				.map((entry) => entry.locations[0].logicalLocations[0].fullyQualifiedName);
		assert.deepEqual(named('fleet-stuck-bundle-deployments'), [
			'BundleDeployment/cluster-fleet-default-prod-1/shop-web',
		]);
		assert.ok(named('status-err-applied').includes('Bundle/fleet-local/failing'));
		assert.ok(run.results.every((entry) => entry.locations[0].logicalLocations?.length === 1));
		assert.ok(
			run.invocations[0].toolExecutionNotifications.some((note) =>
				note.message.text.includes('fleet-secrets-with-values-hash-mismatch not checked'),
			),
		);
	});

	it("reads fleet monitor output: the latest snapshot's findings and what changed", () => {
		const first = { timestamp: '2026-03-01T11:00:00Z', gitrepos: [], diagnostics: {} };
		const second = {
			timestamp: '2026-03-01T12:00:00Z',
			bundledeployments: [
				{
					namespace: 'cluster-x',
					name: 'web',
					uid: 'u',
					generation: 1,
					ready: false,
					waitingForValues: false,
				},
			],
			diagnostics: {
				stuckBundleDeployments: [
					{
						namespace: 'cluster-x',
						name: 'web',
						uid: 'u',
						generation: 1,
						deploymentID: 's-a:o',
						appliedDeploymentID: 's-b:o',
						ready: false,
						waitingForValues: false,
					},
				],
			},
		};
		const folder = folderWith({
			'monitor.json': `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`,
		});
		const result = check([folder]);
		assert.equal(result.status, 1, result.stderr);
		const lines = result.stdout.trimEnd().split('\n');
		assert.equal(
			lines[0],
			`${join(folder, 'monitor.json')}:2:1: error fleet-stuck-bundle-deployments: Stuck BundleDeployment (DeploymentID: s-a:o != AppliedDeploymentID: s-b:o) (fleet monitor at 2026-03-01T12:00:00Z).`,
		);
		assert.ok(lines.includes('      Stuck BundleDeployments: 0 → 1 ↑'), result.stdout);
		assert.ok(lines.includes('      BundleDeployments: 0 → 1 ↑'), result.stdout);
		const json = JSON.parse(check(['--format', 'json', folder]).stdout);
		assert.deepEqual(json[0].object, {
			apiVersion: fleet,
			kind: 'BundleDeployment',
			namespace: 'cluster-x',
			name: 'web',
		});
	});
});
