// The bundled CLI run as a user runs it, on whichever Node runs this file (CI runs it on Node 24 and Node 20).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'dist/cli.cjs');
const examples = join(root, 'examples/workspace');

function run(...args) {
	return runWith({}, ...args);
}

/** Runs the CLI with these environment variables besides NO_COLOR (COLUMNS unset unless given). */
function runWith(env, ...args) {
	const result = spawnSync(process.execPath, [cli, ...args], {
		cwd: root,
		encoding: 'utf8',
		env: { ...process.env, NO_COLOR: '1', COLUMNS: '', ...env },
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

	// The SOURCE column is new (issue 20): without it a manifest and its dump printed identical-looking rows.
	it('prints a table with one row per object, naming the file and line each was read from', () => {
		const dump = join(examples, 'harbor/dump.yaml');
		const result = run('status', '--wide', dump);
		assert.equal(result.code, 0);
		const lines = result.stdout.trim().split('\n');
		assert.match(lines[0], /^KIND\s+NAMESPACE\/NAME\s+STATE\s+SOURCE\s+MESSAGE$/);
		assert.equal(lines.length, 3 + 1 + 3);
		assert.match(
			lines[1],
			/^HarborCluster +harbor-system\/harbor +provisioning +\S+ +Waiting for CacheReady/,
		);
		// Below the working directory, a path is shown relative to it (a CI log reads the same in any clone).
		assert.equal(/provisioning +(\S+)/.exec(lines[1])?.[1], `${relative(root, dump)}:5`);
	});

	it('tells a manifest from its dump by where each row was read', () => {
		const result = run('status', join(examples, 'aso'));
		const rows = result.stdout.split('\n').filter((line) => line.includes('default/aso-sample-rg'));
		assert.equal(rows.length, 2, result.stdout);
		assert.match(rows[0], /Succeeded +\S*aso\/dump\.yaml:5 +Ready$/);
		assert.match(rows[1], /Unknown \(no status\) +\S*aso\/manifests\.yaml:2 +No Ready condition/);
	});

	it('wraps messages at the terminal width, or prints them whole with --wide', () => {
		const dump = join(examples, 'fleet/dump.yaml');
		const message = records(dump).find((record) => record.kind === 'GitRepo').message;
		assert.ok(message.length > 200);
		const wrapped = runWith({ COLUMNS: '100' }, 'status', dump).stdout.split('\n');
		const start = wrapped.findIndex((line) => line.startsWith('GitRepo '));
		const end = wrapped.findIndex((line, index) => index > start && /^\S/.test(line));
		// The row is wider than 100 (the path): the message goes under it, in lines of the terminal's width.
		const messageLines = wrapped.slice(start + 1, end);
		assert.ok(messageLines.length >= 3, wrapped.join('\n'));
		assert.ok(
			messageLines.every((line) => line.length <= 100),
			messageLines.find((line) => line.length > 100),
		);
		assert.equal(messageLines.map((line) => line.trim()).join(' '), message);
		// Beside a narrow row, the message wraps in its own column.
		const folder = mkdtempSync(join(tmpdir(), 'ksl-cli-'));
		const file = join(folder, 'r.yaml');
		writeFileSync(
			file,
			[
				'apiVersion: source.toolkit.fluxcd.io/v1',
				'kind: HelmRepository',
				'metadata: {name: r, namespace: flux-system}',
				'spec: {url: "https://charts.example.com"}',
				'status:',
				'  conditions:',
				'  - {type: Ready, status: "False", reason: Failed, message: "one two three four five six seven eight nine ten eleven twelve"}',
				'',
			].join('\n'),
		);
		const lines = runWith({ COLUMNS: '100' }, 'status', file).stdout.split('\n');
		const column = lines[0].indexOf('MESSAGE');
		assert.ok(column > 40, lines[0]);
		const parts = [lines[1], lines[2], lines[3]];
		assert.ok(
			parts.every((line, index) => line.length <= 100 && (index === 0 || /^ +\S/.test(line))),
			lines.join('\n'),
		);
		assert.equal(
			parts.map((line) => line.slice(column)).join(' '),
			'one two three four five six seven eight nine ten eleven twelve',
		);
		const wide = runWith({ COLUMNS: '100' }, 'status', '--wide', dump).stdout.split('\n');
		assert.ok(wide.find((line) => line.startsWith('GitRepo ')).endsWith(`  ${message}`));
		assert.equal(wide.filter((line) => line.startsWith('  ')).length, 0);
	});

	it('ends the table with a summary that says why the exit code is what it is', () => {
		const summary = (...args) => {
			const { code, stdout } = run('status', ...args);
			return { code, last: stdout.trimEnd().split('\n').slice(-2) };
		};
		const harbor = join(examples, 'harbor/dump.yaml');
		assert.deepEqual(summary('--fail-on', 'error', harbor), {
			code: 1,
			last: [
				'3 objects: 1 error, 1 progressing, 1 ok',
				'1 object in error (--fail-on error): exit 1',
			],
		});
		assert.deepEqual(summary('--fail-on', 'error', join(examples, 'flux/helmrepositories.yaml')), {
			code: 0,
			last: ['2 objects: 1 unknown, 1 ok', 'no object in error (--fail-on error): exit 0'],
		});
		assert.deepEqual(
			summary('--fail-on', 'warning', join(examples, 'aso/dump.yaml')).last[1],
			'2 objects in warning or error (--fail-on warning): exit 1',
		);
		assert.deepEqual(
			summary(harbor).last[1],
			'states set the exit code only with --fail-on error|warning: exit 0',
		);
		assert.deepEqual(summary('--fail-on', 'error', harbor, join(root, 'no-such-folder')), {
			code: 2,
			last: [
				'3 objects: 1 error, 1 progressing, 1 ok',
				'1 input could not be read or parsed (see the messages above); 1 object in error (--fail-on error): exit 2',
			],
		});
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
		assert.match(
			result.stdout,
			/flux-system\/evil\\u001b\[2J +Failed +\S+hostile\.yaml:1 +a b\\u001b\]0;t\\u0007/,
		);
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

describe(`kube-status-lens check of health check expressions on Node ${process.versions.node}`, () => {
	it('parses a Kustomization spec.healthCheckExprs with the CEL bundle and points at the expression that does not', () => {
		const fixture = join(root, 'test/fixtures/diagnostics/flux-health-check-invalid.yaml');
		const result = run('check', '--format', 'json', fixture);
		assert.equal(result.stderr, '');
		const findings = JSON.parse(result.stdout).filter(
			(finding) => finding.code === 'flux-health-check-invalid',
		);
		// dist/cel.cjs was loaded: the syntax error is found, as well as the entry without current and the duplicate.
		assert.equal(findings.length, 3, result.stdout);
		assert.match(
			findings[0].message,
			/failed to parse the expression InProgress: failed to parse the CEL expression 'foo\.'/,
		);
		assert.equal(findings[0].line, 20);
	});
});
