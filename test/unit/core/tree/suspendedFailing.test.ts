import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';
import type { TreeNode } from '../../../../src/core/tree/treeNode.ts';

function helmRelease(suspend: boolean): Record<string, unknown> {
	return {
		apiVersion: 'helm.toolkit.fluxcd.io/v2',
		kind: 'HelmRelease',
		metadata: { name: 'podinfo', namespace: 'apps', generation: 2 },
		spec: { interval: '5m', suspend },
		status: {
			observedGeneration: 2,
			conditions: [
				{
					type: 'Ready',
					status: 'False',
					reason: 'UpgradeFailed',
					message: 'Helm upgrade failed: cannot patch "podinfo"',
				},
			],
		},
	};
}

function podinfoRow(graph: ResourceGraph): TreeNode | undefined {
	const visit = (id: string | undefined): TreeNode | undefined => {
		for (const node of graph.children(id)) {
			if (node.ref?.name === 'podinfo') return node;
			const found = visit(node.id);
			if (found) return found;
		}
		return undefined;
	};
	return visit(undefined);
}

describe('a failing Flux object that is suspended', () => {
	it('reads "Suspended · Failed: <reason>" in red and still counts as an error', () => {
		const graph = new ResourceGraph();
		graph.addRoot('live:platform', 'platform', 'live');
		graph.upsertObject('live:platform', 'helmreleases', helmRelease(false));
		assert.equal(graph.problemCount(), 1);
		graph.upsertObject('live:platform', 'helmreleases', helmRelease(true));
		const row = podinfoRow(graph);
		assert.ok(row);
		assert.match(
			row.description,
			/^Suspended · Failed: Helm upgrade failed: cannot patch "podinfo"/,
		);
		assert.equal(row.tone, 'error');
		assert.equal(row.contextFlags.suspended, true, 'Resume is offered');
		assert.equal(graph.problemCount(), 1, 'suspending does not take it out of the error count');
	});
});
