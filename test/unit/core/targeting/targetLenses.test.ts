// The CodeLens words above targets (issue 31), against the demo cluster's Fleet and KubeStellar inventories.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseManifests } from '../../../../src/core/manifest/parse.ts';
import { targetLensesOf } from '../../../../src/core/targeting/targetLenses.ts';
import { repoRoot } from '../../../support/conformance.ts';

function inventory(cluster: string): { label: string; objects: unknown[] } {
	const folder = join(repoRoot, 'examples/cluster', cluster);
	return {
		label: cluster,
		objects: readdirSync(folder).flatMap((file) =>
			parseManifests(readFileSync(join(folder, file), 'utf8')).objects.map((entry) => entry.object),
		),
	};
}

describe('target lenses', () => {
	it('says above each GitRepo target which clusters it matches, on the line of the entry', () => {
		const text = readFileSync(
			join(repoRoot, 'examples/workspace/fleet/manifests/gitrepo.yaml'),
			'utf8',
		);
		const lenses = targetLensesOf(text, 'gitrepo.yaml', [inventory('fleet-mgmt')]);
		assert.deepEqual(
			lenses.map((lens) => [lens.line, lens.title]),
			[
				[
					text.split('\n').findIndex((line) => line.includes('- name: prod-and-staging')),
					'matches 3 clusters of fleet-mgmt: prod-eu-1, prod-us-1, staging-1',
				],
			],
		);
	});

	it('says above each fleet.yaml customization which clusters it customizes or skips', () => {
		const text = readFileSync(
			join(repoRoot, 'test/fixtures/plan/head/frontend/fleet.yaml'),
			'utf8',
		);
		assert.deepEqual(
			targetLensesOf(text, 'frontend/fleet.yaml', [inventory('fleet-mgmt')]).map(
				(lens) => lens.title,
			),
			['customizes 1 cluster of fleet-mgmt: prod-us-1', 'skips 1 cluster of fleet-mgmt: staging-1'],
		);
	});

	it('says above a BindingPolicy which inventory clusters it selects, and nothing without an inventory', () => {
		const text = readFileSync(
			join(repoRoot, 'examples/cluster/kubestellar-wds/workload.yaml'),
			'utf8',
		);
		assert.deepEqual(
			targetLensesOf(text, 'workload.yaml', [inventory('kubestellar-its')]).map(
				(lens) => lens.title,
			),
			['selects 3 of 3 clusters of kubestellar-its: cluster1, cluster2, cluster3'],
		);
		assert.deepEqual(targetLensesOf(text, 'workload.yaml', []), []);
	});
});
