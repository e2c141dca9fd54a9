// The demo cluster's objects (examples/cluster, as the demo server loads them) wait on each other as the example
// workspace's do: Explain's sentence names the dependency and its cause in the demo's own words.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { causeChainOf, worldFromGraph } from '../../../src/core/causes/causeChain.ts';
import { parseManifests } from '../../../src/core/manifest/parse.ts';
import { ResourceGraph } from '../../../src/core/tree/model.ts';
import { repoRoot } from './fixtures.ts';

function clusterGraph(cluster: string): ResourceGraph {
	const graph = new ResourceGraph();
	const folder = join(repoRoot, 'examples/cluster', cluster);
	graph.setSourcesObjects(
		cluster,
		readdirSync(folder)
			.filter((name) => name.endsWith('.yaml'))
			.map((name) => ({
				sourceId: name,
				objects: parseManifests(readFileSync(join(folder, name), 'utf8')).objects.map((entry) => ({
					object: entry.object,
				})),
			})),
	);
	return graph;
}

void describe('the demo clusters wait on each other', () => {
	void it('platform: a Kustomization on a Kustomization whose source cannot fetch, a HelmRelease on a failed one', () => {
		const world = worldFromGraph(clusterGraph('platform'), 'platform');
		assert.equal(
			causeChainOf(world, {
				group: 'kustomize.toolkit.fluxcd.io',
				kind: 'Kustomization',
				namespace: 'flux-system',
				name: 'tenants',
			})?.sentence,
			'Kustomization flux-system/tenants waits for Kustomization flux-system/infra, whose source GitRepository flux-system/platform cannot fetch: authentication required',
		);
		assert.match(
			causeChainOf(world, {
				group: 'helm.toolkit.fluxcd.io',
				kind: 'HelmRelease',
				namespace: 'apps',
				name: 'frontend',
			})?.sentence ?? '',
			/^HelmRelease apps\/frontend waits for HelmRelease apps\/backend, which is Failed: Helm install failed/,
		);
	});

	void it('fleet-mgmt: a Bundle held on a cluster by a dependency that failed there', () => {
		const world = worldFromGraph(clusterGraph('fleet-mgmt'), 'fleet-mgmt');
		assert.match(
			causeChainOf(world, {
				group: 'fleet.cattle.io',
				kind: 'Bundle',
				namespace: 'fleet-local',
				name: 'tickets-api',
			})?.sentence ?? '',
			/^Bundle fleet-local\/tickets-api waits for Bundle fleet-local\/tickets-db on cluster local, which is ErrApplied: failed to install "tickets-db"/,
		);
	});
});
