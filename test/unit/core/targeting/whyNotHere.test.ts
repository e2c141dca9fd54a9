// "Why not here?" asked of one cluster (issue 31): every Bundle for a Fleet Cluster, every BindingPolicy for a WEC.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseManifests } from '../../../../src/core/manifest/parse.ts';
import {
	bundlesAskedOfCluster,
	policiesAskedOfCluster,
} from '../../../../src/core/targeting/whyNotHere.ts';
import { repoRoot } from '../../../support/conformance.ts';

function objectsOf(folder: string): Record<string, unknown>[] {
	const path = join(repoRoot, folder);
	return readdirSync(path)
		.filter((file) => /\.ya?ml$/.test(file))
		.flatMap((file) =>
			parseManifests(readFileSync(join(path, file), 'utf8')).objects.map((entry) => entry.object),
		);
}

describe('why not here', () => {
	it('answers every Bundle for a Fleet Cluster, those that do not deploy there first, a Bundle of another namespace too', () => {
		const objects = objectsOf('examples/cluster/fleet-mgmt');
		const answers = bundlesAskedOfCluster(objects, 'fleet-default', 'staging-1');
		assert.deepEqual(
			answers.map((answer) => [`${answer.namespace}/${answer.name}`, answer.deployed]),
			[
				['fleet-default/ingress-nginx', false],
				['fleet-edge/sensors-agent', false],
				['fleet-local/tickets-api', false],
				['fleet-local/tickets-db', false],
				['fleet-default/shop-cache', true],
				['fleet-default/shop-frontend', true],
			],
		);
		assert.equal(
			answers[0]?.why,
			'target `default` wants clusterGroup `production`; the cluster is in no ClusterGroup.',
		);
		assert.equal(
			answers[2]?.why,
			'Cluster `staging-1` is in namespace `fleet-default`: a Bundle of `fleet-local` reaches only the Clusters of its own namespace, and no BundleNamespaceMapping of `fleet-local` maps it to `fleet-default`.',
		);
	});

	it('answers every BindingPolicy of a WDS for a WEC of the ITS', () => {
		const wds = objectsOf('examples/cluster/kubestellar-wds');
		const its = objectsOf('examples/cluster/kubestellar-its');
		assert.deepEqual(
			policiesAskedOfCluster(wds, its, 'cluster3').map((answer) => [answer.name, answer.deployed]),
			[
				['edge-tools-eu', false],
				['nginx-multiwec', true],
			],
		);
		const moved = its.map((object) =>
			object.kind === 'ManagedCluster' && (object.metadata as { name?: string }).name === 'cluster2'
				? { ...object, metadata: { name: 'cluster2', labels: { 'location-group': 'lab' } } }
				: object,
		);
		const notSelected = policiesAskedOfCluster(wds, moved, 'cluster2').find(
			(answer) => answer.name === 'nginx-multiwec',
		);
		assert.equal(notSelected?.deployed, false);
		assert.equal(
			notSelected?.why,
			'No clusterSelectors entry matches: it wants location-group=edge; cluster `cluster2` has location-group=lab.',
		);
		assert.deepEqual(policiesAskedOfCluster(wds, its, 'no-such-wec'), []);
	});
});
