// `kubectl get -o json` dumps through the bundled CLI, on whichever Node runs this file (Node 24 and Node 20 in CI):
// each object is reported on its own line, and the output is what the same objects give as YAML.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import jsyaml from 'js-yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'dist/cli.cjs');
const examples = join(root, 'examples');

function run(...args) {
	const result = spawnSync(process.execPath, [cli, ...args], {
		encoding: 'utf8',
		env: { ...process.env, NO_COLOR: '1' },
		maxBuffer: 64 * 1024 * 1024,
	});
	return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function yamlFilesUnder(folder) {
	return readdirSync(folder)
		.sort()
		.flatMap((entry) => {
			const path = join(folder, entry);
			if (statSync(path).isDirectory()) return yamlFilesUnder(path);
			return /\.ya?ml$/.test(entry) ? [path] : [];
		});
}

/** The example objects, each file's documents as one List, written as kubectl writes JSON and as YAML. */
function exampleDumps() {
	const folder = mkdtempSync(join(tmpdir(), 'ksl-json-dump-'));
	const jsonFolder = join(folder, 'json');
	const yamlFolder = join(folder, 'yaml');
	spawnSync('mkdir', [jsonFolder, yamlFolder]);
	let index = 0;
	for (const file of yamlFilesUnder(examples)) {
		let documents;
		try {
			// What kubectl writes: Kubernetes objects only (a fleet.yaml of the examples is none).
			documents = jsyaml
				.loadAll(readFileSync(file, 'utf8'))
				.filter((document) => document?.apiVersion && document.kind);
		} catch {
			continue;
		}
		if (documents.length === 0) continue;
		const list = { apiVersion: 'v1', items: documents, kind: 'List', metadata: {} };
		const name = `dump-${String(index++).padStart(3, '0')}`;
		writeFileSync(join(jsonFolder, `${name}.json`), `${JSON.stringify(list, null, 4)}\n`);
		writeFileSync(join(yamlFolder, `${name}.yaml`), jsyaml.dump(list));
	}
	return { jsonFolder, yamlFolder };
}

const bundleDeployment = (name, ready, staged = true) => ({
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'BundleDeployment',
	metadata: { name, namespace: 'cluster-fleet-default-c1-0123456789ab' },
	spec: staged ? { deploymentID: 'd1', stagedDeploymentID: 'd1' } : { deploymentID: 'd1' },
	status: {
		appliedDeploymentID: 'd1',
		ready,
		nonModified: true,
		conditions: [
			{ type: 'Ready', status: ready ? 'True' : 'False', message: ready ? '' : 'ErrApplied: boom' },
		],
	},
});

describe(`kube-status-lens on kubectl JSON dumps on Node ${process.versions.node}`, () => {
	it('reports each object of a JSON List on the line it starts on', () => {
		const folder = mkdtempSync(join(tmpdir(), 'ksl-json-lines-'));
		const file = join(folder, 'bundledeployments.json');
		const text = `${JSON.stringify(
			{
				apiVersion: 'v1',
				items: [
					bundleDeployment('a', true),
					bundleDeployment('b', true, false),
					bundleDeployment('c', true),
				],
				kind: 'List',
				metadata: { resourceVersion: '' },
			},
			null,
			4,
		)}\n`;
		writeFileSync(file, text);
		const itemLines = text
			.split('\n')
			.flatMap((line, index) => (line === '        {' ? [index + 1] : []));
		assert.equal(itemLines.length, 3);
		const result = run('status', '--json', file);
		assert.equal(result.stderr, '');
		assert.deepEqual(
			JSON.parse(result.stdout).map((record) => [record.name, record.source.line]),
			[
				['a', itemLines[0]],
				['b', itemLines[1]],
				['c', itemLines[2]],
			],
		);
		const check = run('check', file);
		const findingLines = [...check.stdout.matchAll(/bundledeployments\.json:(\d+):1:/g)].map(
			(match) => Number(match[1]),
		);
		assert.deepEqual(findingLines, [itemLines[1]], check.stdout);
	});

	it('prints the same table and records for a JSON dump as for the same objects in YAML', () => {
		const { jsonFolder, yamlFolder } = exampleDumps();
		const jsonTable = run('status', jsonFolder);
		const yamlTable = run('status', yamlFolder);
		assert.equal(jsonTable.code, yamlTable.code);
		// The rows differ only in where each object was read (the SOURCE column: file and line).
		const withoutSourceColumn = (stdout) =>
			stdout.replace(/\S+\/(?:json|yaml)\/dump-\d+\.(?:json|yaml):\d+/g, '-').replace(/ +/g, ' ');
		assert.match(jsonTable.stdout, /\/json\/dump-000\.json:\d+\s/);
		assert.equal(withoutSourceColumn(jsonTable.stdout), withoutSourceColumn(yamlTable.stdout));
		const withoutSource = (stdout) =>
			JSON.parse(stdout).map((record) => ({ ...record, source: undefined }));
		const jsonRecords = run('status', '--json', jsonFolder);
		const yamlRecords = run('status', '--json', yamlFolder);
		assert.equal(jsonRecords.stderr, yamlRecords.stderr.replaceAll('.yaml', '.json'));
		assert.ok(withoutSource(jsonRecords.stdout).length > 20);
		assert.deepEqual(withoutSource(jsonRecords.stdout), withoutSource(yamlRecords.stdout));
	});

	it('writes --json exactly as JSON.stringify(records, null, 2) lays it out', () => {
		const { jsonFolder } = exampleDumps();
		for (const path of [jsonFolder, examples]) {
			const result = run('status', '--json', path);
			assert.equal(result.stdout, `${JSON.stringify(JSON.parse(result.stdout), null, 2)}\n`);
		}
	});

	it('reads a dump of 16 MiB or more on two threads and writes what one thread writes', () => {
		const { jsonFolder } = exampleDumps();
		const standalone = readdirSync(jsonFolder).flatMap((name) =>
			JSON.parse(readFileSync(join(jsonFolder, name), 'utf8')).items.filter(
				(item) =>
					!['Bundle', 'GitRepo', 'HelmOp', 'Cluster', 'ClusterGroup'].includes(item.kind) &&
					!String(item.apiVersion).includes('kubestellar.io'),
			),
		);
		assert.ok(standalone.length > 10);
		const folder = mkdtempSync(join(tmpdir(), 'ksl-json-two-threads-'));
		// Three Lists of about 6 MiB (the command reads the first and third, the worker the second), then a YAML file
		// the worker would leave to the command.
		for (const file of ['a', 'b', 'c']) {
			const items = [];
			let bytes = 0;
			for (let index = 0; bytes < 6 * 1024 * 1024; index++) {
				const item = structuredClone(standalone[index % standalone.length]);
				item.metadata = { ...item.metadata, name: `${file}-${index}-${item.metadata?.name ?? ''}` };
				bytes += JSON.stringify(item, null, 4).length;
				items.push(item);
			}
			writeFileSync(
				join(folder, `${file}.json`),
				`${JSON.stringify({ apiVersion: 'v1', items, kind: 'List', metadata: {} }, null, 4)}\n`,
			);
		}
		writeFileSync(join(folder, 'd.yaml'), jsyaml.dump(standalone[0]));
		const oneThread = spawnSync(
			process.execPath,
			[cli, 'status', '--json', '--fail-on', 'warning', folder],
			{
				encoding: 'utf8',
				env: { ...process.env, KUBE_STATUS_LENS_THREADS: '1' },
				maxBuffer: 256 * 1024 * 1024,
			},
		);
		const twoThreads = spawnSync(
			process.execPath,
			[cli, 'status', '--json', '--fail-on', 'warning', folder],
			{ encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
		);
		assert.equal(twoThreads.status, oneThread.status);
		assert.equal(twoThreads.stderr, oneThread.stderr);
		assert.ok(twoThreads.stdout === oneThread.stdout, 'the two outputs differ');
		const records = JSON.parse(twoThreads.stdout);
		assert.ok(records.some((record) => record.source.file.endsWith('b.json')));
		assert.equal(records.at(-1).source.file, join(folder, 'd.yaml'));
	});
});
