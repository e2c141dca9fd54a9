import assert from 'node:assert/strict';
import { it } from 'node:test';
import { bundleGitRepoKeyOf, objectKeyOf } from '../../../../src/core/tree/linking.ts';

it("finds a Bundle's GitRepo by its repo-name label in the Bundle's namespace, as the tree links them", () => {
	const bundle = {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'Bundle',
		metadata: {
			name: 'shop-frontend',
			namespace: 'fleet-default',
			labels: { 'fleet.cattle.io/repo-name': 'shop' },
		},
	};
	const gitRepo = {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'GitRepo',
		metadata: { name: 'shop', namespace: 'fleet-default' },
	};
	assert.equal(bundleGitRepoKeyOf(bundle), objectKeyOf(gitRepo));
	// A HelmOp's Bundle, or one written by hand, has no GitRepo.
	assert.equal(
		bundleGitRepoKeyOf({ ...bundle, metadata: { ...bundle.metadata, labels: {} } }),
		undefined,
	);
});
