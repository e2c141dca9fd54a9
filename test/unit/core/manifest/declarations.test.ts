import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	declarationDescription,
	declarationIn,
	rankDeclarations,
	type Declaration,
} from '../../../../src/core/manifest/declarations.ts';

const key = 'fleet.cattle.io|GitRepo|fleet-default|shop';

const manifest = `apiVersion: fleet.cattle.io/v1alpha1
kind: GitRepo
metadata:
  name: shop
  namespace: fleet-default
spec:
  repo: https://example.com/shop
`;

const dump = `apiVersion: v1
kind: List
items:
- apiVersion: fleet.cattle.io/v1alpha1
  kind: GitRepo
  metadata:
    name: other
    namespace: fleet-default
- apiVersion: fleet.cattle.io/v1alpha1
  kind: GitRepo
  metadata:
    name: shop
    namespace: fleet-default
    resourceVersion: "42"
    uid: 0b5c
  spec:
    repo: https://example.com/shop
  status:
    display:
      state: ErrApplied
`;

function at(uri: string, text: string, line = 0): Declaration {
	const found = declarationIn(text, uri, line, key);
	assert.ok(found, `${uri} holds the GitRepo`);
	return found;
}

describe('which file declares an object', () => {
	it('tells a manifest from a kubectl dump, and says why it is a dump', () => {
		const written = at('file:///ws/gitrepo.yaml', manifest);
		assert.equal(written.kind, 'manifest');
		assert.deepEqual(written.dumpMarks, []);
		const dumped = at('file:///ws/dump.yaml', dump, 8);
		assert.equal(dumped.kind, 'dump');
		assert.equal(dumped.line, 8);
		assert.deepEqual(dumped.dumpMarks, ['status', 'resourceVersion', 'uid', 'in a List']);
		assert.equal(
			declarationDescription(dumped),
			'line 9 · kubectl dump (status, resourceVersion, uid, in a List)',
		);
		assert.equal(declarationDescription(written), 'line 1 · manifest');
	});

	it('counts a lone object with managedFields or a uid as a dump, even without status', () => {
		const text = manifest.replace(
			'  namespace: fleet-default\n',
			'  namespace: fleet-default\n  managedFields: []\n',
		);
		assert.deepEqual(at('file:///ws/one.yaml', text).dumpMarks, ['managedFields']);
	});

	it('finds the object nearest the line the tree read it at, never another object there', () => {
		const twice = `${manifest}---\n${manifest.replace('repo: https', 'repo: http')}`;
		assert.equal(at('file:///ws/twice.yaml', twice, 9).line, 8);
		assert.equal(at('file:///ws/twice.yaml', twice, 0).line, 0);
		assert.equal(
			declarationIn(manifest.replace('name: shop', 'name: cart'), 'file:///ws/x.yaml', 0, key),
			undefined,
		);
	});

	it('puts the manifest before the dump, whichever the tree read first, and does not ask', () => {
		const dumped = at('file:///ws/a-dump.yaml', dump, 8);
		const written = at('file:///ws/z/gitrepo.yaml', manifest);
		const { ranked, ask } = rankDeclarations([dumped, written]);
		assert.deepEqual(
			ranked.map((entry) => entry.uri),
			['file:///ws/z/gitrepo.yaml', 'file:///ws/a-dump.yaml'],
		);
		assert.equal(ask, false);
	});

	it('asks when two manifests hold the object, listing every candidate best first', () => {
		const { ranked, ask } = rankDeclarations([
			at('file:///ws/dump.yaml', dump, 8),
			at('file:///ws/overlays/gitrepo.yaml', manifest),
			at('file:///ws/base/gitrepo.yaml', manifest),
		]);
		assert.equal(ask, true);
		assert.deepEqual(
			ranked.map((entry) => `${entry.uri} ${entry.kind}`),
			[
				'file:///ws/base/gitrepo.yaml manifest',
				'file:///ws/overlays/gitrepo.yaml manifest',
				'file:///ws/dump.yaml dump',
			],
		);
	});

	it('asks between two dumps when no manifest is there; one candidate is simply taken', () => {
		assert.equal(
			rankDeclarations([at('file:///ws/b.yaml', dump, 8), at('file:///ws/a.yaml', dump, 8)]).ask,
			true,
		);
		const only = rankDeclarations([at('file:///ws/a.yaml', dump, 8)]);
		assert.equal(only.ask, false);
		assert.equal(only.ranked.length, 1);
		assert.deepEqual(rankDeclarations([]), { ranked: [], ask: false });
	});
});
