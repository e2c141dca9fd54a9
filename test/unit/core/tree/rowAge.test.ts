import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';
import { descriptionAt } from '../../../../src/core/tree/presentation.ts';
import type { TreeNode } from '../../../../src/core/tree/treeNode.ts';

function rowNamed(graph: ResourceGraph, name: string, kind?: string): TreeNode | undefined {
	const visit = (id: string | undefined): TreeNode | undefined => {
		for (const node of graph.children(id)) {
			if (node.ref?.name === name && (kind === undefined || node.ref.kind === kind)) return node;
			const found = visit(node.id);
			if (found) return found;
		}
		return undefined;
	};
	return visit(undefined);
}

function kustomization(name: string, ready: 'True' | 'False', at: string): Record<string, unknown> {
	return {
		apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
		kind: 'Kustomization',
		metadata: { name, namespace: 'flux-system', generation: 1 },
		spec: { interval: '5m' },
		status: {
			observedGeneration: 1,
			conditions: [
				{
					type: 'Ready',
					status: ready,
					reason: ready === 'True' ? 'ReconciliationSucceeded' : 'BuildFailed',
					message: ready === 'True' ? 'Applied revision: main@sha1:abc' : 'kustomize build failed',
					lastTransitionTime: at,
				},
			],
		},
	};
}

const bundleDeployment = {
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'BundleDeployment',
	metadata: { name: 'simple', namespace: 'cluster-fleet-default-c1', generation: 1 },
	spec: { deploymentID: 'd1' },
	status: {
		appliedDeploymentID: 'd1',
		display: { state: 'ErrApplied', message: 'cannot patch "web" with kind Deployment' },
		conditions: [
			{
				type: 'Ready',
				status: 'False',
				message: 'cannot patch "web" with kind Deployment',
				lastUpdateTime: '2026-11-24T10:00:00Z',
			},
			{
				type: 'Deployed',
				status: 'False',
				message: 'cannot patch "web" with kind Deployment',
				lastUpdateTime: '2026-11-24T10:00:00Z',
			},
		],
	},
};

describe('how long a row has been in its state', () => {
	const graph = new ResourceGraph();
	graph.addRoot('ws', 'workspace', 'file');
	graph.upsertObject('ws', 'a.yaml', kustomization('apps', 'False', '2026-11-24T10:00:00Z'));
	graph.upsertObject('ws', 'b.yaml', kustomization('infra', 'True', '2026-11-24T10:00:00Z'));
	graph.upsertObject('ws', 'c.yaml', bundleDeployment);
	const at = Date.parse('2026-11-24T10:00:00Z');

	it('says "for 12 min" right after the state word of a failing row, and moves on with the clock', () => {
		const row = rowNamed(graph, 'apps');
		assert.ok(row);
		assert.match(row.description, /^Failed\b/);
		const minutes12 = descriptionAt(row, at + 12 * 60_000 + 5_000);
		assert.equal(minutes12, row.description.replace(/^Failed/, 'Failed for 12 min'));
		assert.match(descriptionAt(row, at + 3 * 3_600_000), /^Failed for 3 h/);
		assert.match(descriptionAt(row, at + 2 * 86_400_000), /^Failed for 2 days/);
		assert.match(descriptionAt(row, at + 20_000), /^Failed for <1 min/);
	});

	it('gives a Fleet row, whose conditions carry only lastUpdateTime, its age too', () => {
		const row = rowNamed(graph, 'simple', 'BundleDeployment');
		assert.ok(row);
		assert.match(descriptionAt(row, at + 12 * 60_000), /^NotReady for 12 min · cannot patch "web"/);
	});

	it('leaves a ready row and a time in the future (a skewed clock) without an age', () => {
		const ready = rowNamed(graph, 'infra');
		assert.ok(ready);
		assert.equal(descriptionAt(ready, at + 60 * 60_000), ready.description);
		const failing = rowNamed(graph, 'apps');
		assert.ok(failing);
		assert.equal(descriptionAt(failing, at - 60_000), failing.description);
	});
});
