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

	it('lists for a BindingPolicy the inventory clusters it selects and the objects it places', () => {
		const graph = new ResourceGraph();
		graph.addRoot('ws', 'demo');
		const files = ['kubestellar-wds', 'kubestellar-its'].flatMap((folder) =>
			readdirSync(join(repoRoot, 'examples/cluster', folder)).map((file) =>
				join(repoRoot, 'examples/cluster', folder, file),
			),
		);
		graph.setSourcesObjects(
			'ws',
			files.map((file) => ({
				sourceId: file,
				objects: parseManifests(readFileSync(file, 'utf8')).objects.map((entry) => ({
					object: entry.object,
				})),
			})),
		);
		const id = graph.findNodesForObject(
			'ws',
			'control.kubestellar.io|BindingPolicy||nginx-multiwec',
		)[0];
		assert.ok(id);
		const text = explainNodeMarkdown(graph, id).replace(/\\(.)/g, '$1');
		assert.match(text, /## Where it goes\n\nSelects 3 of 3 inventory clusters/);
		assert.match(
			text,
			/^- Yes: \*\*cluster1\*\* — clusterSelectors\[0\] \(location-group=edge\) matches its labels\.$/m,
		);
		assert.match(text, /^- Places \*\*Deployment nginx\/nginx\*\*$/m);
	});
});
