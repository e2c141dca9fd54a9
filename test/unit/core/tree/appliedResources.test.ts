import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';
import type { TreeNode } from '../../../../src/core/tree/treeNode.ts';

function rowOf(graph: ResourceGraph, kind: string, name: string): TreeNode | undefined {
	const visit = (id: string | undefined): TreeNode | undefined => {
		for (const node of graph.children(id)) {
			if (node.kind === 'object' && node.ref?.kind === kind && node.ref.name === name) return node;
			const found = visit(node.id);
			if (found) return found;
		}
		return undefined;
	};
	return visit(undefined);
}

function bundleDeployment(resources: number, nonReady: number): Record<string, unknown> {
	return {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'BundleDeployment',
		metadata: { name: 'shop', namespace: 'cluster-fleet-default-c1', generation: 1 },
		spec: { deploymentID: 'd1' },
		status: {
			appliedDeploymentID: 'd1',
			ready: nonReady === 0,
			nonModified: true,
			conditions: [
				{ type: 'Ready', status: nonReady === 0 ? 'True' : 'False' },
				{ type: 'Deployed', status: 'True' },
				{ type: 'Monitored', status: 'True' },
			],
			resources: Array.from({ length: resources }, (_, index) => ({
				apiVersion: 'v1',
				kind: 'ConfigMap',
				namespace: 'shop',
				name: `config-${index}`,
			})),
			nonReadyStatus: Array.from({ length: nonReady }, (_, index) => ({
				apiVersion: 'v1',
				kind: 'ConfigMap',
				namespace: 'shop',
				name: `config-${index}`,
				summary: { state: 'pending', transitioning: true },
			})),
		},
	};
}

describe('what an object applied, one level further', () => {
	it('lists every resource a ready BundleDeployment applied, ready, without changing its row', () => {
		const graph = new ResourceGraph();
		graph.addRoot('ws', 'Workspace manifests', 'file');
		graph.upsertObject('ws', 'bd.yaml', bundleDeployment(3, 0));
		const row = rowOf(graph, 'BundleDeployment', 'shop');
		assert.ok(row);
		const bare = new ResourceGraph();
		bare.addRoot('ws', 'Workspace manifests', 'file');
		bare.upsertObject('ws', 'bd.yaml', bundleDeployment(0, 0));
		assert.equal(
			row.tone,
			rowOf(bare, 'BundleDeployment', 'shop')?.tone,
			'the rows do not change its tone',
		);
		assert.equal(row.description, rowOf(bare, 'BundleDeployment', 'shop')?.description);
		const children = graph.children(row.id);
		assert.deepEqual(
			children.map((child) => `${child.label}: ${child.description} (${child.tone})`),
			[0, 1, 2].map((index) => `ConfigMap shop/config-${index}: applied · ready (ok)`),
		);
		assert.deepEqual(children[0]?.ref, {
			apiVersion: 'v1',
			kind: 'ConfigMap',
			namespace: 'shop',
			name: 'config-0',
		});
	});

	it("does not call a resource ready when Fleet's non-ready list was cut at 10", () => {
		const graph = new ResourceGraph();
		graph.addRoot('ws', 'Workspace manifests', 'file');
		graph.upsertObject('ws', 'bd.yaml', bundleDeployment(12, 10));
		const row = rowOf(graph, 'BundleDeployment', 'shop');
		assert.ok(row);
		const unlisted = graph.children(row.id).filter((child) => /config-1[01]$/.test(child.label));
		assert.equal(unlisted.length, 2);
		for (const child of unlisted) {
			assert.match(child.description, /not in the agent’s shortened report/);
			assert.notEqual(child.tone, 'ok');
		}
	});

	it('shows at most 100 rows and says how many more there are', () => {
		const graph = new ResourceGraph();
		graph.addRoot('ws', 'Workspace manifests', 'file');
		graph.upsertObject('ws', 'bd.yaml', bundleDeployment(130, 0));
		const row = rowOf(graph, 'BundleDeployment', 'shop');
		assert.ok(row);
		const children = graph.children(row.id);
		assert.equal(children.length, 101);
		assert.ok(children.some((child) => child.label === '30 more applied resources'));
	});

	it("lists a Flux Kustomization's inventory, reading Flux's ids", () => {
		const graph = new ResourceGraph();
		graph.addRoot('ws', 'Workspace manifests', 'file');
		graph.upsertObject('ws', 'ks.yaml', {
			apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
			kind: 'Kustomization',
			metadata: { name: 'apps', namespace: 'flux-system', generation: 1 },
			spec: { interval: '5m' },
			status: {
				observedGeneration: 1,
				conditions: [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded' }],
				inventory: {
					entries: [
						{ id: 'podinfo_podinfo_apps_Deployment', v: 'v1' },
						{ id: 'podinfo_my_config_map__ConfigMap', v: 'v1' },
						{ id: '_podinfo__Namespace', v: 'v1' },
						{ id: 'broken' },
					],
				},
			},
		});
		const row = rowOf(graph, 'Kustomization', 'apps');
		assert.ok(row);
		const children = graph.children(row.id);
		assert.deepEqual(
			children.map((child) => `${child.label} · ${child.ref?.apiVersion} (${child.tone})`).sort(),
			[
				'ConfigMap podinfo/my_config_map · v1 (ok)',
				'Deployment podinfo/podinfo · apps/v1 (ok)',
				'Namespace podinfo · v1 (ok)',
			],
		);
	});
});
