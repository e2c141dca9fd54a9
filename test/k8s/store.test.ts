import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getInt64 } from '../../src/core/model/int64.ts';
import { loadDumpFolder, loadDumpTexts } from '../../src/k8s/offline.ts';
import { ObjectStore, trimObject } from '../../src/k8s/store.ts';

const gitRepo = {
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'GitRepo',
	metadata: {
		name: 'app',
		namespace: 'fleet-default',
		managedFields: [{ manager: 'kubectl' }],
		annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', team: 'a' },
	},
	spec: { repo: 'https://example.com/repo' },
	status: { conditions: [{ type: 'Ready', status: 'True' }] },
};

const secret = {
	apiVersion: 'v1',
	kind: 'Secret',
	metadata: { name: 'token', namespace: 'default' },
	type: 'Opaque',
	data: { password: 'c2VjcmV0' },
	stringData: { other: 'plain' },
};

describe('store: what the cache keeps', () => {
	it('drops managedFields and the last-applied annotation, keeping everything else', () => {
		const trimmed = trimObject(gitRepo);
		assert.deepEqual(trimmed, {
			...gitRepo,
			metadata: { name: 'app', namespace: 'fleet-default', annotations: { team: 'a' } },
		});
		// The input is left as it was.
		assert.ok('managedFields' in gitRepo.metadata);
	});

	it('never keeps the data of a Secret', () => {
		const trimmed = trimObject(secret);
		assert.equal(trimmed?.data, undefined);
		assert.equal(trimmed?.stringData, undefined);
		assert.equal(trimmed?.type, 'Opaque');
	});

	it('refuses what is not an object with a name', () => {
		assert.equal(trimObject('text'), undefined);
		assert.equal(trimObject({ kind: 'GitRepo', metadata: {} }), undefined);
	});

	it('replaces one namespace of a source without touching the others', () => {
		const store = new ObjectStore();
		const repo = (namespace: string, name: string) => ({
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'GitRepo',
			metadata: { namespace, name },
		});
		store.replace('gitrepos', [repo('a', '1'), repo('a', '2'), repo('b', '1')]);
		store.replace('gitrepos', [repo('a', '3')], 'a');
		assert.deepEqual(Object.keys(store.snapshot()), [
			'fleet.cattle.io|GitRepo|a|3',
			'fleet.cattle.io|GitRepo|b|1',
		]);
		assert.equal(store.remove('gitrepos', 'fleet.cattle.io|GitRepo|b|1'), true);
		assert.equal(store.countOf('gitrepos'), 1);
		store.clear();
		assert.equal(store.size, 0);
	});

	it('takes lists page by page: lists of two namespaces of a source, running at once, each keep the other', () => {
		const store = new ObjectStore();
		const repo = (namespace: string, name: string) => ({
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'GitRepo',
			metadata: { namespace, name, managedFields: [{ manager: 'kubectl' }] },
		});
		store.replace('gitrepos', [repo('a', 'old'), repo('b', 'old'), repo('c', 'kept')]);
		const inA = store.replacing('gitrepos', 'a');
		const inB = store.replacing('gitrepos', 'b');
		inA.add([repo('a', '1')]);
		inB.add([repo('b', '1')]);
		inA.add([repo('a', '2')]);
		// Until a list commits, the source holds what it held.
		assert.equal(store.countOf('gitrepos'), 3);
		inB.commit();
		inA.commit();
		assert.deepEqual(Object.keys(store.snapshot()), [
			'fleet.cattle.io|GitRepo|a|1',
			'fleet.cattle.io|GitRepo|a|2',
			'fleet.cattle.io|GitRepo|b|1',
			'fleet.cattle.io|GitRepo|c|kept',
		]);
		// Trimmed as they are kept.
		assert.deepEqual(store.get('fleet.cattle.io|GitRepo|a|2')?.metadata, {
			namespace: 'a',
			name: '2',
		});
	});
});

describe('offline: a folder of kubectl get -o yaml dumps', () => {
	let folder: string;
	before(async () => {
		folder = await mkdtemp(path.join(tmpdir(), 'ksl-dumps-'));
		await mkdir(path.join(folder, 'fleet'));
		await mkdir(path.join(folder, '.git'));
		await writeFile(
			path.join(folder, 'fleet', 'gitrepos.yaml'),
			`apiVersion: v1
kind: List
items:
- apiVersion: fleet.cattle.io/v1alpha1
  kind: GitRepo
  metadata:
    name: app
    namespace: fleet-default
    managedFields: [{manager: kubectl}]
  status: {conditions: [{type: Ready, status: "True"}]}
- apiVersion: fleet.cattle.io/v1alpha1
  kind: GitRepo
  metadata: {name: web, namespace: fleet-default}
`,
		);
		await writeFile(
			path.join(folder, 'secrets.json'),
			JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [secret] }),
		);
		await writeFile(path.join(folder, 'broken.yaml'), 'kind: [\n');
		await writeFile(
			path.join(folder, '.git', 'ignored.yaml'),
			'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n',
		);
		await writeFile(path.join(folder, 'notes.txt'), 'not read');
	});
	after(() => rm(folder, { recursive: true, force: true }));

	it('loads every object into the same store shape a live session fills, one source per file', async () => {
		const loaded = await loadDumpFolder(folder);
		assert.deepEqual(Object.keys(loaded.store.snapshot()), [
			'fleet.cattle.io|GitRepo|fleet-default|app',
			'fleet.cattle.io|GitRepo|fleet-default|web',
			'|Secret|default|token',
		]);
		assert.deepEqual(loaded.store.sources().sort(), [
			path.join(folder, 'fleet', 'gitrepos.yaml'),
			path.join(folder, 'secrets.json'),
		]);
		const app = loaded.store.get('fleet.cattle.io|GitRepo|fleet-default|app');
		assert.equal((app?.metadata as Record<string, unknown>).managedFields, undefined);
		assert.equal(loaded.store.get('|Secret|default|token')?.data, undefined);
	});

	it('keeps a generation beyond 2^53 exact in an object trimmed of managedFields', () => {
		const loaded = loadDumpTexts([
			{
				path: 'gitrepos.yaml',
				text: 'apiVersion: fleet.cattle.io/v1alpha1\nkind: GitRepo\nmetadata:\n  name: app\n  namespace: a\n  generation: 9007199254740993\n  managedFields: [{manager: kubectl}]\n',
			},
			{
				path: 'gitrepos.json',
				text: '{"apiVersion":"fleet.cattle.io/v1alpha1","kind":"GitRepo","metadata":{"name":"web","namespace":"a","generation":9007199254740995,"managedFields":[{"manager":"kubectl"}]}}',
			},
		]);
		for (const [name, generation] of [
			['app', 9007199254740993n],
			['web', 9007199254740995n],
		] as const) {
			const object = loaded.store.get(`fleet.cattle.io|GitRepo|a|${name}`);
			assert.equal((object?.metadata as Record<string, unknown>).managedFields, undefined);
			assert.equal(getInt64(object, 'metadata', 'generation'), generation, name);
		}
	});

	it('reports a broken file and keeps reading the others', async () => {
		const loaded = await loadDumpFolder(folder);
		assert.equal(loaded.problems.length, 1);
		assert.equal(loaded.problems[0]?.path, path.join(folder, 'broken.yaml'));
		assert.equal(loaded.files.find((file) => file.path.endsWith('gitrepos.yaml'))?.objects, 2);
	});

	it('reports a folder that cannot be read instead of throwing', async () => {
		const loaded = await loadDumpFolder(path.join(folder, 'nope'));
		assert.equal(loaded.store.size, 0);
		assert.match(loaded.problems[0]?.message ?? '', /cannot read the folder/);
	});

	it('skips a file above the size limit', async () => {
		const loaded = await loadDumpFolder(folder, { maxFileBytes: 100 });
		assert.ok(loaded.problems.some((problem) => problem.message.startsWith('skipped:')));
	});

	it('reads texts without touching the disk', () => {
		const loaded = loadDumpTexts([
			{
				path: 'a.yaml',
				text: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: d}\n',
			},
		]);
		assert.deepEqual(Object.keys(loaded.store.snapshot()), ['|ConfigMap|d|c']);
	});
});
