// Explain of a Fleet Bundle says where it goes and why not elsewhere, and Explain of a Cluster what it gets (issue 31),
// from the example workspace's Bundles, Clusters and ClusterGroups.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { explainNodeMarkdown } from '../../../../src/core/explain/explainDocument.ts';
import { parseManifests } from '../../../../src/core/manifest/parse.ts';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';
import { repoRoot } from '../../../support/conformance.ts';
import { exampleGraph } from '../../causes/fixtures.ts';

function explain(key: string): string {
	const graph = exampleGraph();
	const id = graph.findNodesForObject('ws', key)[0];
	assert.ok(id, key);
	return explainNodeMarkdown(graph, id).replace(/\\(.)/g, '$1');
}

describe('Explain: where a Bundle goes', () => {
	it('lists the clusters a Bundle reaches and why it does not reach the others', () => {
		const text = explain('fleet.cattle.io|Bundle|fleet-default|ingress-nginx');
		assert.match(text, /## Where it goes\n\nReaches 2 of 4 clusters of this input\.\n/);
		assert.match(
			text,
			/^- No: \*\*fleet-default\/staging-1\*\* — target `default` wants clusterGroup `production`; the cluster is in no ClusterGroup\.$/m,
		);
		assert.match(text, /^- Yes: \*\*fleet-default\/prod-eu-1\*\* — Reached by target `default`/m);
	});

	it('lists for a GitRepo how far each of its Bundles reaches', () => {
		const text = explain('fleet.cattle.io|GitRepo|fleet-default|shop');
		assert.match(
			text,
			/## Where its bundles go\n\n- \*\*shop-cache\*\* reaches 3 of 4 clusters; not edge-1 \(explain the Bundle for why\)\./,
		);
	});

	it('lists for a Cluster the bundles it gets and those it does not', () => {
		const text = explain('fleet.cattle.io|Cluster|fleet-default|staging-1');
		assert.match(
			text,
			/## What it gets\n\n\d+ of the \d+ bundles of this input that could reach it deploy here\./,
		);
		assert.match(
			text,
			/^- No: \*\*fleet-default\/ingress-nginx\*\* — target `default` wants clusterGroup `production`/m,
		);
		assert.match(text, /^- Yes: \*\*fleet-default\/shop-frontend\*\*/m);
	});

	/** A graph with a root per demo context folder given, each holding that folder's objects (edited by `edit`). */
	function kubestellarGraph(
		roots: Readonly<Record<string, readonly string[]>>,
		edit: (object: Record<string, unknown>) => Record<string, unknown> = (object) => object,
	): ResourceGraph {
		const graph = new ResourceGraph();
		for (const [root, folders] of Object.entries(roots)) {
			graph.addRoot(root, root);
			const files = folders.flatMap((folder) =>
				readdirSync(join(repoRoot, 'examples/cluster', folder)).map((file) =>
					join(repoRoot, 'examples/cluster', folder, file),
				),
			);
			graph.setSourcesObjects(
				root,
				files.map((file) => ({
					sourceId: file,
					objects: parseManifests(readFileSync(file, 'utf8')).objects.map((entry) => ({
						object: edit(entry.object),
					})),
				})),
			);
		}
		return graph;
	}

	function explainPolicy(graph: ResourceGraph, root: string): string {
		const id = graph.findNodesForObject(
			root,
			'control.kubestellar.io|BindingPolicy||nginx-multiwec',
		)[0];
		assert.ok(id);
		return explainNodeMarkdown(graph, id).replace(/\\(.)/g, '$1');
	}

	it('lists for a BindingPolicy the inventory clusters it selects and the objects it places', () => {
		const graph = kubestellarGraph({ demo: ['kubestellar-wds', 'kubestellar-its'] });
		const text = explainPolicy(graph, 'demo');
		assert.match(text, /## Where it goes\n\nSelects 3 of 3 inventory clusters/);
		assert.match(
			text,
			/^- Yes: \*\*cluster1\*\* — clusterSelectors\[0\] \(location-group=edge\) matches its labels\.$/m,
		);
		assert.match(text, /^- Places \*\*Deployment nginx\/nginx\*\*$/m);
		assert.match(
			text,
			/## Its Binding\n\nThe Binding the controller wrote agrees: the same destinations and the same objects\./,
		);
	});

	it('matches a BindingPolicy of a WDS against the ITS beside it, and says where its Binding differs', () => {
		// As two live contexts show them: the policy and its Binding in the WDS, the ManagedClusters in the ITS; the
		// Binding still names cluster3, which no longer carries the label the policy selects.
		const graph = kubestellarGraph(
			{ wds: ['kubestellar-wds'], its: ['kubestellar-its'] },
			(object) =>
				object.kind === 'ManagedCluster' &&
				(object.metadata as { name?: string } | undefined)?.name === 'cluster3'
					? { ...object, metadata: { name: 'cluster3', labels: { 'location-group': 'lab' } } }
					: object,
		);
		const text = explainPolicy(graph, 'wds');
		assert.match(text, /## Where it goes\n\nSelects 2 of 3 inventory clusters \(of its\) and 1 of/);
		assert.match(text, /^- No: \*\*cluster3\*\* — No clusterSelectors entry matches/m);
		assert.match(
			text,
			/## Its Binding\n\nThe Binding the controller wrote differs from what the policy selects now:\n\n- cluster `cluster3` is a destination of the Binding, but the policy's selectors do not select it now/,
		);
	});

	it('lists for a WEC of an ITS the BindingPolicies of the WDS beside it that select it, and what it receives', () => {
		const graph = kubestellarGraph({ wds: ['kubestellar-wds'], its: ['kubestellar-its'] });
		const find = (id?: string): string | undefined => {
			for (const child of graph.children(id)) {
				if (child.id.endsWith('/ph:wec:cluster2')) return child.id;
				const found = find(child.id);
				if (found) return found;
			}
			return undefined;
		};
		const wec = find();
		assert.ok(wec);
		const text = explainNodeMarkdown(graph, wec).replace(/\\(.)/g, '$1');
		assert.match(text, /## What it gets\n\n2 of 2 BindingPolicies of wds select this WEC\./);
		assert.match(text, /^- Yes: \*\*nginx-multiwec\*\* — clusterSelectors\[0\]/m);
		assert.match(text, /^- Receives \*\*Deployment nginx\/nginx\*\*$/m);
	});
});
