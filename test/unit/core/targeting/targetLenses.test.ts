// The CodeLens words above targets (issue 31), against the demo cluster's Fleet and KubeStellar inventories.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseManifests } from '../../../../src/core/manifest/parse.ts';
import { targetFindingsOf, targetLensesOf } from '../../../../src/core/targeting/targetLenses.ts';
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
			[
				// GitRepo shop reads the path frontend: its namespace and its targets, not edge-us-1 of fleet-edge.
				'customizes 1 cluster of fleet-mgmt: prod-us-1',
				'skips 1 cluster of fleet-mgmt: staging-1',
			],
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

	it('warns where a GitRepo target matches no cluster, saying why, and where an earlier target shadows one', () => {
		const text = [
			'apiVersion: fleet.cattle.io/v1alpha1',
			'kind: GitRepo',
			'metadata: { name: shop, namespace: fleet-default }',
			'spec:',
			'  targets:',
			'    - name: europe',
			'      clusterSelector: { matchLabels: { region: eu } }',
			'    - name: staging',
			'      clusterSelector: { matchLabels: { env: staging } }',
			'    - name: typo',
			'      clusterSelector: { matchLabels: { env: prdo } }',
			'    - name: everything',
			'      clusterSelector: {}',
			'',
		].join('\n');
		const inventories = [inventory('fleet-mgmt')];
		assert.deepEqual(
			targetLensesOf(text, 'gitrepo.yaml', inventories).map((lens) => [lens.line, lens.title]),
			[
				[5, 'matches 2 clusters of fleet-mgmt: prod-eu-1, staging-1'],
				[7, 'shadowed by `europe`, which matches its 1 cluster of fleet-mgmt first'],
				[9, 'matches none of the 3 clusters of fleet-mgmt'],
				[11, 'matches 1 cluster of fleet-mgmt: prod-us-1 (2 more taken by `europe`)'],
			],
		);
		const findings = targetFindingsOf(text, 'gitrepo.yaml', inventories);
		assert.deepEqual(
			findings.map((finding) => [finding.code, finding.range.start, finding.message]),
			[
				[
					'fleet-target-shadowed',
					{ line: 7, character: 4 },
					'Target `staging` never applies: every cluster it matches in fleet-mgmt (staging-1) matches the earlier `europe` first, and the first match decides.',
				],
				[
					'fleet-target-matches-no-cluster',
					{ line: 9, character: 4 },
					'Target `typo` matches none of the 3 Clusters of fleet-mgmt: target `typo` wants env=prdo; cluster `prod-eu-1` has env=prod (and 2 other clusters).',
				],
			],
		);
		assert.equal(findings[1]?.subject, 'GitRepo fleet-default/shop');
	});

	it('warns on a fleet.yaml customization that an earlier one shadows, unless AllMatches applies every match', () => {
		const text = [
			'targetCustomizations:',
			'- name: europe',
			'  clusterSelector:',
			'    matchExpressions:',
			'    - { key: region, operator: In, values: [eu] }',
			'- name: staging',
			'  clusterSelector:',
			'    matchLabels: { env: staging }',
			'',
		].join('\n');
		const inventories = [inventory('fleet-mgmt')];
		assert.deepEqual(
			targetFindingsOf(text, 'apps/fleet.yaml', inventories).map((finding) => [
				finding.code,
				finding.range.start,
				finding.message,
			]),
			[
				[
					'fleet-target-shadowed',
					{ line: 5, character: 0 },
					'Customization `staging` never applies: every cluster it matches in fleet-mgmt (staging-1) matches the earlier `europe` first, and the first match decides.',
				],
			],
		);
		const allMatches = `targetCustomizationMode: AllMatches\n${text}`;
		assert.deepEqual(targetFindingsOf(allMatches, 'apps/fleet.yaml', inventories), []);
		assert.deepEqual(
			targetLensesOf(allMatches, 'apps/fleet.yaml', inventories).map((lens) => lens.title),
			[
				'customizes 4 clusters of fleet-mgmt: prod-eu-1, staging-1, edge-eu-1, lab-1',
				'customizes 1 cluster of fleet-mgmt: staging-1',
			],
		);
	});

	it('warns on a BindingPolicy that selects no inventory cluster, and matches against the inventory chosen', () => {
		const text = [
			'apiVersion: control.kubestellar.io/v1alpha1',
			'kind: BindingPolicy',
			'metadata: { name: edge }',
			'spec:',
			'  clusterSelectors:',
			'    - matchLabels: { location-group: moon }',
			'',
		].join('\n');
		const its = inventory('kubestellar-its');
		const [finding] = targetFindingsOf(text, 'policy.yaml', [its]);
		assert.equal(finding?.code, 'kubestellar-policy-selects-no-cluster');
		assert.match(
			finding?.message ?? '',
			/^BindingPolicy `edge` selects none of the 3 ManagedClusters of kubestellar-its: No clusterSelectors entry matches: it wants location-group=moon; cluster `cluster1` has /,
		);
		// A second inventory with fewer clusters is used only when chosen, and never when it has none of the kind.
		const small = { label: 'small', objects: its.objects.slice(0, 1) };
		const chosenSmall = targetLensesOf(text, 'policy.yaml', [its, small], 'small');
		assert.match(chosenSmall[0]?.title ?? '', / of small$/);
		const fleet = inventory('fleet-mgmt');
		const chosenFleet = targetLensesOf(text, 'policy.yaml', [its, fleet], 'fleet-mgmt');
		assert.match(chosenFleet[0]?.title ?? '', / of kubestellar-its$/);
	});

	it("reads the example workspace's fleet.yaml against the workspace's clusters: customized, skipped, shadowed", () => {
		const folder = join(repoRoot, 'examples/workspace/fleet/manifests');
		const workspace = {
			label: 'Workspace manifests',
			objects: readdirSync(folder).flatMap((file) =>
				parseManifests(readFileSync(join(folder, file), 'utf8')).objects.map(
					(entry) => entry.object,
				),
			),
		};
		const path = 'examples/workspace/fleet/shop-fleet/frontend/fleet.yaml';
		const text = readFileSync(join(repoRoot, path), 'utf8');
		assert.deepEqual(
			targetLensesOf(text, path, [workspace]).map((lens) => lens.title),
			[
				'customizes 1 cluster of Workspace manifests: prod-us-1',
				'skips 1 cluster of Workspace manifests: staging-1',
				'shadowed by `us`, which matches its 1 cluster of Workspace manifests first',
			],
		);
		assert.deepEqual(
			targetFindingsOf(text, path, [workspace]).map((finding) => finding.code),
			['fleet-target-shadowed'],
		);
	});

	it('judges a fleet.yaml within the GitRepo that names its path: that namespace, behind its targets', () => {
		const text =
			'targetCustomizations:\n- name: edge\n  clusterSelector:\n    matchLabels: { env: edge }\n';
		const inventories = [inventory('fleet-mgmt')];
		const [read] = targetLensesOf(text, 'repo/frontend/fleet.yaml', inventories);
		assert.equal(read?.title, 'matches none of the 3 clusters of fleet-mgmt');
		assert.match(read?.tooltip ?? '', /as GitRepo fleet-default\/shop deploys this path/);
		const [unread] = targetLensesOf(text, 'repo/elsewhere/fleet.yaml', inventories);
		assert.equal(unread?.title, 'customizes 2 clusters of fleet-mgmt: edge-eu-1, edge-us-1');
		assert.match(unread?.tooltip ?? '', /no GitRepo of the inventory names this path/);
	});
});
