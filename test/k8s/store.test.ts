import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
