// Which clusters and objects a BindingPolicy selects, as kubestellar/kubestellar's FindClustersBySelectors and
// testObject decide (pkg/ocm/ocm.go, pkg/binding/selectors.go @ 1c28a8a1e3ae; the project has no unit tests of them).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bindingPolicyTargetsOf } from '../../../../src/core/targeting/bindingPolicyTargets.ts';

const managedCluster = (name: string, labels: Record<string, string>) => ({
	apiVersion: 'cluster.open-cluster-management.io/v1',
	kind: 'ManagedCluster',
	metadata: { name, labels },
});
const policy = (spec: Record<string, unknown>) => ({
	apiVersion: 'control.kubestellar.io/v1alpha1',
	kind: 'BindingPolicy',
	metadata: { name: 'bp' },
	spec,
});
const deployment = (namespace: string, name: string, labels: Record<string, string> = {}) => ({
	apiVersion: 'apps/v1',
	kind: 'Deployment',
	metadata: { namespace, name, labels },
});
const inventory = [
	managedCluster('wec1', { 'location-group': 'edge', region: 'eu' }),
	managedCluster('wec2', { 'location-group': 'edge', region: 'us' }),
	managedCluster('wec3', { 'location-group': 'core' }),
];

describe('BindingPolicy targeting', () => {
	it('ORs the cluster selectors; none selects no cluster', () => {
		const [both] = bindingPolicyTargetsOf([
			...inventory,
			policy({
				clusterSelectors: [
					{ matchLabels: { region: 'eu' } },
					{ matchLabels: { 'location-group': 'core' } },
				],
			}),
		]);
		assert.deepEqual(
			both?.clusters.map((cluster) => [cluster.name, cluster.deployed]),
			[
				['wec1', true],
				['wec2', false],
				['wec3', true],
			],
		);
		assert.match(
			both?.clusters[1]?.why ?? '',
			/wants region=eu or location-group=core; cluster `wec2` has/,
		);
		const [none] = bindingPolicyTargetsOf([...inventory, policy({})]);
		assert.ok(none?.clusters.every((cluster) => !cluster.deployed));
		assert.match(
			none?.clusters[0]?.why ?? '',
			/spec\.clusterSelectors is empty, which selects no cluster/,
		);
	});

	it('ANDs a clause’s tests, ORs the clauses, and needs the Namespace for a namespace selector', () => {
		const [selected] = bindingPolicyTargetsOf([
			...inventory,
			{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { team: 'a' } } },
			deployment('shop', 'frontend', { app: 'web' }),
			deployment('shop', 'backend'),
			deployment('other', 'web', { app: 'web' }),
			{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'other', name: 'cfg' } },
			policy({
				clusterSelectors: [{}],
				downsync: [
					{
						apiGroup: 'apps',
						resources: ['deployments'],
						objectSelectors: [{ matchLabels: { app: 'web' } }],
						namespaceSelectors: [{ matchLabels: { team: 'a' } }],
					},
					{ apiGroup: '', resources: ['configmaps'], objectNames: ['cfg'] },
				],
			}),
		]);
		assert.deepEqual(
			selected?.objects
				.filter((object) => object.kind !== 'Namespace')
				.map((object) => `${object.kind} ${object.namespace}/${object.name} ${object.selected}`),
			[
				'Deployment shop/frontend true',
				'Deployment shop/backend false',
				'Deployment other/web false',
				'ConfigMap other/cfg true',
			],
		);
		assert.ok(
			selected?.clusters.every((cluster) => cluster.deployed),
			'{} selects every cluster',
		);
	});

	it('never counts among the objects a kind the controller does not watch (Events, Nodes, Leases, Endpoints)', () => {
		const [selected] = bindingPolicyTargetsOf([
			...inventory,
			deployment('shop', 'frontend'),
			{ apiVersion: 'v1', kind: 'Event', metadata: { namespace: 'shop', name: 'frontend.1' } },
			{
				apiVersion: 'events.k8s.io/v1',
				kind: 'Event',
				metadata: { namespace: 'shop', name: 'e2' },
			},
			{ apiVersion: 'v1', kind: 'Endpoints', metadata: { namespace: 'shop', name: 'frontend' } },
			{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } },
			{
				apiVersion: 'coordination.k8s.io/v1',
				kind: 'Lease',
				metadata: { namespace: 'shop', name: 'l' },
			},
			policy({ clusterSelectors: [{}], downsync: [{ namespaces: ['shop'] }] }),
		]);
		assert.deepEqual(
			selected?.objects.map((object) => `${object.kind} ${object.name} ${object.selected}`),
			['Deployment frontend true'],
		);
	});
});
