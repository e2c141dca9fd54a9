// explain_kube_placement: "why is my bundle not on cluster X", answered from the example workspace's Fleet objects.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAssistantTool } from '../../../src/core/assistant/assistantTools.ts';
import { exampleGraph } from '../causes/fixtures.ts';

const world = {
	graph: exampleGraph(),
	roots: [{ rootId: 'ws', label: 'Workspace manifests', kind: 'workspace' as const }],
	now: Date.parse('2026-12-02T10:00:00Z'),
};

describe('explain_kube_placement', () => {
	it('says why a Bundle is not on a cluster, naming the criterion and the value', () => {
		const answer = runAssistantTool(
			'explain_kube_placement',
			{ name: 'ingress-nginx', cluster: 'staging-1' },
			world,
		);
		assert.equal(answer.isError, undefined);
		assert.match(
			answer.text,
			/^In "Workspace manifests":\nBundle fleet-default\/ingress-nginx reaches 2 of 4 clusters\.$/m,
		);
		assert.match(
			answer.text,
			/^- not on Cluster fleet-default\/staging-1: target `default` wants clusterGroup `production`; the cluster is in no ClusterGroup\.$/m,
		);
		assert.doesNotMatch(answer.text, /prod-eu-1/);
	});

	it('answers for a GitRepo with its Bundles, and says so when nothing of the name is placed', () => {
		const shop = runAssistantTool('explain_kube_placement', { name: 'shop' }, world);
		assert.match(shop.text, /Bundle fleet-default\/shop-frontend reaches 3 of 4 clusters/);
		assert.match(shop.text, /Bundle fleet-default\/shop-cache reaches/);
		const none = runAssistantTool('explain_kube_placement', { name: 'nothing-here' }, world);
		assert.equal(none.isError, true);
		assert.match(none.text, /No Bundle, GitRepo, HelmOp or BindingPolicy named nothing-here/);
	});
});
