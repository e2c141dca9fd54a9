// `kube-status-lens targets`, run as a user runs it (CI runs it on Node 24 and Node 20): the JSON contract other
// tools check, on the demo cluster's Fleet and KubeStellar objects.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'dist/cli.cjs');
const demo = (cluster) => join(root, 'examples/cluster', cluster);

const nodeMajor = Number(process.versions.node.split('.')[0]);

/** The CLI run without blocking this process (a demo server it talks to runs in a child of this one). */
function runAsync(args, env = {}) {
	return new Promise((resolveRun) => {
		const child = spawn(process.execPath, [cli, ...args], {
			cwd: root,
			env: { ...process.env, NO_COLOR: '1', ...env },
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.on('close', (code) => resolveRun({ code, stdout, stderr }));
	});
}

function run(...args) {
	const result = spawnSync(process.execPath, [cli, ...args], {
		cwd: root,
		encoding: 'utf8',
		env: { ...process.env, NO_COLOR: '1' },
	});
	return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `targets --json` on the demo cluster's Fleet, WDS and ITS objects. */
const demoTargets = () =>
	run('targets', '--json', demo('fleet-mgmt'), demo('kubestellar-wds'), demo('kubestellar-its'));

describe(`kube-status-lens targets on Node ${process.versions.node}`, () => {
	it('prints one record per Bundle and BindingPolicy, with every field of the contract', () => {
		const result = demoTargets();
		assert.equal(result.stderr, '');
		assert.equal(result.code, 0);
		const records = JSON.parse(result.stdout);
		const nginx = records.find(
			(record) => record.kind === 'Bundle' && record.name === 'ingress-nginx',
		);
		assert.deepEqual(Object.keys(nginx), ['kind', 'namespace', 'name', 'clusters']);
		const staging = nginx.clusters.find((cluster) => cluster.name === 'staging-1');
		assert.deepEqual(Object.keys(staging), [
			'namespace',
			'name',
			'deployed',
			'target',
			'customization',
			'doNotDeploy',
			'why',
		]);
		assert.deepEqual(
			{ ...staging, why: undefined },
			{
				namespace: 'fleet-default',
				name: 'staging-1',
				deployed: false,
				target: null,
				customization: null,
				doNotDeploy: false,
				why: undefined,
			},
		);
		assert.match(staging.why, /wants clusterGroup `production`/);
		const policy = records.find(
			(record) => record.kind === 'BindingPolicy' && record.name === 'nginx-multiwec',
		);
		assert.deepEqual(Object.keys(policy), ['kind', 'name', 'clusters', 'objects']);
		assert.deepEqual(
			policy.clusters.map((cluster) => [cluster.name, cluster.deployed]),
			[
				['cluster1', true],
				['cluster2', true],
				['cluster3', true],
			],
		);
		const deployment = policy.objects.find((object) => object.kind === 'Deployment');
		assert.deepEqual(deployment, {
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			namespace: 'nginx',
			name: 'nginx',
			selected: true,
		});
	});

	it("gives the demo's targeting scene: a customization, a doNotDeploy, a mapped workspace, a policy on 2 of 3 WECs", () => {
		const result = demoTargets();
		assert.equal(result.code, 0);
		const records = JSON.parse(result.stdout);
		const sensors = records.find((record) => record.name === 'sensors-agent');
		assert.deepEqual(
			sensors.clusters.map(({ why: _why, ...cluster }) => cluster),
			[
				{
					namespace: 'fleet-edge',
					name: 'edge-eu-1',
					deployed: true,
					target: 'edge',
					customization: 'gold',
					doNotDeploy: false,
				},
				{
					namespace: 'fleet-edge',
					name: 'edge-us-1',
					deployed: false,
					target: 'edge',
					customization: 'us-hold',
					doNotDeploy: true,
				},
				{
					namespace: 'fleet-lab',
					name: 'lab-1',
					deployed: false,
					target: null,
					customization: null,
					doNotDeploy: false,
				},
			],
		);
		assert.equal(
			sensors.clusters[2].why,
			'target `edge` wants env=edge; cluster `lab-1` has env=lab.',
		);
		const tools = records.find((record) => record.name === 'edge-tools-eu');
		assert.deepEqual(
			tools.clusters.map((cluster) => [cluster.name, cluster.deployed]),
			[
				['cluster1', true],
				['cluster2', true],
				['cluster3', false],
			],
		);
	});

	it('says in a table where each Bundle goes and why not elsewhere', () => {
		const result = run('targets', demo('fleet-mgmt'));
		assert.equal(result.code, 0);
		assert.match(result.stdout, /^Bundle fleet-default\/ingress-nginx: reaches 2 of 3 clusters$/m);
		assert.match(
			result.stdout,
			/^ {2}- fleet-default\/staging-1: target `default` wants clusterGroup `production`; the cluster is in no ClusterGroup\.$/m,
		);
	});
});

describe(`kube-status-lens targets --plan on Node ${process.versions.node}`, () => {
	const plan = (...extra) =>
		run(
			'targets',
			'--plan',
			join(root, 'test/fixtures/plan/base'),
			join(root, 'test/fixtures/plan/head'),
			'--clusters',
			demo('fleet-mgmt'),
			...extra,
		);

	it('says what a change of the GitOps repository deploys where, and fails on a bundle that reaches no cluster', () => {
		const result = plan();
		assert.equal(result.stderr, '');
		assert.equal(result.code, 1);
		assert.match(result.stdout, /^Bundle fleet-default\/shop-frontend \(changed\) \+0 -0 ~2$/m);
		assert.match(result.stdout, /^ {2}~ fleet-default\/prod-us-1: customization none -> us$/m);
		assert.match(
			result.stdout,
			/^Bundle fleet-default\/shop-cache \(added\) \+0 -0 ~0 · reaches no cluster$/m,
		);
	});

	it('prints the plan as JSON and the finding as SARIF', () => {
		const entries = JSON.parse(plan('--json').stdout);
		const frontend = entries.find((entry) => entry.name === 'shop-frontend');
		assert.deepEqual(frontend.customizations, [
			{ cluster: 'fleet-default/prod-eu-1', from: 'eu', to: null },
			{ cluster: 'fleet-default/prod-us-1', from: null, to: 'us' },
		]);
		assert.equal(frontend.reaches, 2);
		const sarif = JSON.parse(plan('--format', 'sarif').stdout);
		assert.deepEqual(
			sarif.runs[0].results.map((result) => result.message.text),
			['Bundle fleet-default/shop-cache would reach no cluster of the inventory.'],
		);
	});

	it('reads the inventory from a live kube context, the same plan as from the folder of its objects', async (t) => {
		if (nodeMajor < 22) {
			const result = plan('--context', 'fleet-mgmt');
			assert.equal(result.code, 2);
			assert.match(result.stderr, /contexts need Node 22 or later/);
			return;
		}
		const folder = mkdtempSync(join(tmpdir(), 'ksl-plan-'));
		const kubeconfig = join(folder, 'kubeconfig');
		const server = spawn(
			process.execPath,
			['src/apiserver/main.ts', '--port', '0', '--kubeconfig', kubeconfig, '--no-scenario'],
			{ cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
		);
		t.after(() => {
			server.kill();
			rmSync(folder, { recursive: true, force: true });
		});
		await new Promise((resolveReady, rejectReady) => {
			server.stdout.on('data', () => {
				if (existsSync(kubeconfig)) resolveReady();
			});
			server.once('exit', (code) => rejectReady(new Error(`the demo exited with ${code}`)));
		});
		const args = [
			'targets',
			'--plan',
			join(root, 'test/fixtures/plan/base'),
			join(root, 'test/fixtures/plan/head'),
			'--json',
		];
		const live = await runAsync([...args, '--context', 'fleet-mgmt'], { KUBECONFIG: kubeconfig });
		assert.equal(live.stderr, '');
		assert.equal(live.code, 1);
		const fromFolder = run(...args, '--clusters', demo('fleet-mgmt'));
		assert.deepEqual(JSON.parse(live.stdout), JSON.parse(fromFolder.stdout));
		const unknown = await runAsync([...args, '--context', 'no-such-context'], {
			KUBECONFIG: kubeconfig,
		});
		assert.notEqual(unknown.stderr, '');
	});
});
