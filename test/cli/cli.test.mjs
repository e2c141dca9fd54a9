// The bundled CLI run as a user runs it, on whichever Node runs this file (CI runs it on Node 24 and Node 20).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'dist/cli.cjs');
const examples = join(root, 'examples/workspace');

function run(...args) {
	const result = spawnSync(process.execPath, [cli, ...args], {
		encoding: 'utf8',
		env: { ...process.env, NO_COLOR: '1' },
	});
	return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function records(...paths) {
	const result = run('status', '--json', ...paths);
	assert.equal(result.stderr, '');
	return JSON.parse(result.stdout);
}

function find(list, kind, name) {
	const record = list.find((entry) => entry.kind === kind && entry.name === name);
	assert.ok(record, `${kind} ${name} not in output`);
	return record;
}

describe(`kube-status-lens status on Node ${process.versions.node}`, () => {
	it('reports every Flux HelmRepository state from a kubectl dump', () => {
		const list = records(join(examples, 'flux/dump.yaml'));
		assert.equal(find(list, 'HelmRepository', 'podinfo').state, 'Ready');
		assert.equal(find(list, 'HelmRepository', 'bitnami').state, 'Reconciling');
		const failed = find(list, 'HelmRepository', 'private-charts');
		assert.equal(failed.state, 'Failed');
		assert.equal(failed.tone, 'error');
		assert.match(failed.message, /401 Unauthorized.*retrying/);
		assert.equal(find(list, 'HelmRepository', 'legacy').state, 'Stalled');
		assert.equal(find(list, 'HelmRepository', 'frozen').state, 'Suspended');
		assert.equal(find(list, 'HelmRepository', 'podinfo-oci').state, 'Ready');
	});

	it('says a plain manifest has no status, and still knows an oci repository is ready', () => {
		const list = records(join(examples, 'flux/helmrepositories.yaml'));
		const plain = find(list, 'HelmRepository', 'podinfo');
		assert.equal(plain.observed, false);
		assert.notEqual(plain.state, 'Ready');
		const oci = find(list, 'HelmRepository', 'podinfo-oci');
		assert.equal(oci.observed, false);
		assert.equal(oci.state, 'Ready');
	});

	it('gives ASO tones from the Ready severity', () => {
		const list = records(join(examples, 'aso/dump.yaml'));
		assert.deepEqual(
			['aso-sample-rg', 'asosamplestorage', 'orders-db', 'sessions'].map((name) => {
				const record = list.find((entry) => entry.name === name);
				return [record.state, record.tone];
			}),
			[
				['Succeeded', 'ok'],
				['Reconciling', 'progressing'],
				['WaitingForOwner', 'warning'],
				['InvalidResourceGroupLocation', 'error'],
			],
		);
	});

	it('shows a HarborCluster as provisioning, the word the operator writes, naming what it waits for', () => {
		const list = records(join(examples, 'harbor/dump.yaml'));
		const harbor = find(list, 'HarborCluster', 'harbor');
		assert.equal(harbor.state, 'provisioning');
		assert.match(harbor.message, /CacheReady/);
		assert.deepEqual(harbor.computed, { status: 'provisioning' });
		assert.equal(find(list, 'HarborCluster', 'harbor-prod').state, 'healthy');
		assert.equal(find(list, 'HarborCluster', 'harbor-dr').tone, 'error');
	});

	it('prints every field of a record with kstatus and Argo CD health', () => {
		const [record] = records(join(examples, 'flux/dump.yaml'));
		for (const key of [
			'apiVersion',
			'kind',
			'namespace',
			'name',
			'system',
			'state',
			'tone',
			'message',
			'observed',
			'kstatus',
			'health',
			'computed',
		]) {
			assert.ok(key in record, `missing ${key}`);
		}
		assert.deepEqual(record.kstatus, { status: 'Current', message: 'Resource is Ready' });
		assert.equal(record.health.status, 'Healthy');
	});

	it('prints a table with one row per object', () => {
		const result = run('status', join(examples, 'harbor/dump.yaml'));
		assert.equal(result.code, 0);
		const lines = result.stdout.trim().split('\n');
		assert.match(lines[0], /^KIND\s+NAMESPACE\/NAME\s+STATE\s+MESSAGE$/);
		assert.equal(lines.length, 4);
		assert.match(lines[1], /HarborCluster\s+harbor-system\/harbor\s+provisioning/);
	});

	it('exits 1 with --fail-on when an object is in error, 0 when none is', () => {
		assert.equal(run('status', '--fail-on', 'error', join(examples, 'harbor/dump.yaml')).code, 1);
		assert.equal(
			run('status', '--fail-on', 'error', join(examples, 'flux/helmrepositories.yaml')).code,
			0,
		);
		assert.equal(run('status', '--fail-on', 'warning', join(examples, 'aso/dump.yaml')).code, 1);
	});

	it('exits 2 on a broken file, names file and line, and still reports the other files', () => {
		const dir = mkdtempSync(join(tmpdir(), 'ksl-cli-'));
		writeFileSync(
			join(dir, 'broken.yaml'),
			'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n',
		);
		writeFileSync(
			join(dir, 'ok.yaml'),
			'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fine\n',
		);
		const result = run('status', '--json', dir);
		assert.equal(result.code, 2);
		assert.match(result.stderr, /broken\.yaml:\d+:\d+: /);
		const list = JSON.parse(result.stdout);
		assert.equal(find(list, 'ConfigMap', 'fine').state, 'Current');
	});

	it('prints the table without the terminal control sequences a manifest carries', () => {
		const folder = mkdtempSync(join(tmpdir(), 'ksl-cli-'));
		const file = join(folder, 'hostile.yaml');
		writeFileSync(
			file,
			[
				'apiVersion: source.toolkit.fluxcd.io/v1',
				'kind: HelmRepository',
				'metadata: {name: "evil\\u001b[2J", namespace: flux-system}',
				'spec: {url: "https://charts.example.com"}',
				'status:',
				'  conditions:',
				'  - {type: Ready, status: "False", reason: Failed, message: "a\\nb\\u001b]0;t\\u0007"}',
				'',
			].join('\n'),
		);
		const result = run('status', file);
		assert.equal(result.code, 0, result.stderr);
		assert.ok(
			!result.stdout.includes('\u001b') && !result.stdout.includes('\u0007'),
			result.stdout,
		);
		assert.match(result.stdout, /flux-system\/evil\\u001b\[2J +Failed +a b\\u001b\]0;t\\u0007/);
	});

	it('exits 2 for a path that does not exist', () => {
		const result = run('status', join(root, 'no-such-folder'));
		assert.equal(result.code, 2);
		assert.match(result.stderr, /no-such-folder: cannot read/);
	});

	it('reads the whole example workspace without an input error', () => {
		const result = run('status', '--json', examples);
		assert.equal(result.code, 0, result.stderr);
		const list = JSON.parse(result.stdout);
		assert.ok(list.length > 20);
		for (const system of ['fleet', 'kubestellar', 'harbor', 'flux', 'aso']) {
			assert.ok(
				list.some((entry) => entry.system === system),
				`no ${system} object`,
			);
		}
	});
});

describe(`kube-status-lens merge on Node ${process.versions.node}`, () => {
	const kubestellar = join(examples, 'kubestellar');
	const files = [
		'deployment.yaml',
		'bindingpolicy.yaml',
		'managedclusters.yaml',
		'its-workstatuses.yaml',
	].map((name) => join(kubestellar, name));

	it("prints the editor's preview: the merged status with each field's rule and WECs", () => {
		const result = run('merge', ...files);
		assert.equal(result.code, 0, result.stderr);
		assert.match(
			result.stdout,
			/^# The \.status KubeStellar would write into Deployment nginx\/nginx, from its WECs$/m,
		);
		assert.match(result.stdout, /^# Why this workload: selected by nginx-multiwec/m);
		assert.match(
			result.stdout,
			/^ {2}readyReplicas: 1 # decided by cluster3: the lowest value of the WECs$/m,
		);
	});

	it('prints the merge as JSON, and reads a folder', () => {
		const result = run('merge', kubestellar, '--json', '--rules', 'kubestellar');
		assert.equal(result.code, 0, result.stderr);
		const output = JSON.parse(result.stdout);
		assert.equal(output.rules, 'kubestellar');
		assert.equal(output.mode, 'multi');
		assert.equal(output.status.readyReplicas, 1);
	});

	it('takes the WEC copies as --wec NAME=FILE, many times', () => {
		const dir = mkdtempSync(join(tmpdir(), 'ksl-cli-'));
		writeFileSync(join(dir, 'a.yaml'), 'status: {replicas: 2, readyReplicas: 2}\n');
		writeFileSync(join(dir, 'b.yaml'), 'replicas: 2\nreadyReplicas: 0\n');
		const result = run(
			'merge',
			'--workload',
			files[0],
			'--wec',
			`a=${join(dir, 'a.yaml')}`,
			'--wec',
			`b=${join(dir, 'b.yaml')}`,
			'--json',
		);
		assert.equal(result.code, 0, result.stderr);
		const output = JSON.parse(result.stdout);
		assert.equal(output.status.readyReplicas, 0);
		assert.deepEqual(output.provenance.readyReplicas.wecs, ['b']);
	});

	it('exits 2 on bad usage and on a broken file, naming file, line and column', () => {
		const usage = run('merge', '--wec', 'east');
		assert.equal(usage.code, 2);
		assert.match(usage.stderr, /--wec takes NAME=FILE, not east/);
		const dir = mkdtempSync(join(tmpdir(), 'ksl-cli-'));
		writeFileSync(
			join(dir, 'broken.yaml'),
			'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n',
		);
		const broken = run('merge', join(dir, 'broken.yaml'));
		assert.equal(broken.code, 2);
		assert.equal(broken.stdout, '');
		assert.match(broken.stderr, /broken\.yaml:\d+:\d+: /);
	});
});
