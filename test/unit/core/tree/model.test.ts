import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseManifests } from '../../../../src/core/manifest/parse.ts';
import { getPath } from '../../../../src/core/model/object.ts';
import { computeFleetRollups } from '../../../../src/core/status/fleet.ts';
import { ResourceGraph, type ChangedNodes } from '../../../../src/core/tree/model.ts';
import { type TreeFilter } from '../../../../src/core/tree/filter.ts';
import { type TreeNode } from '../../../../src/core/tree/treeNode.ts';
import { objectKeyOf } from '../../../../src/core/tree/linking.ts';

// ---------------------------------------------------------------------------------------------------------------
// Builders

type Obj = Record<string, unknown>;
const fleetApi = 'fleet.cattle.io/v1alpha1';

function gitRepo(name: string, status?: Obj): Obj {
	return {
		apiVersion: fleetApi,
		kind: 'GitRepo',
		metadata: { name, namespace: 'fleet-default' },
		spec: { repo: 'https://example.com/x' },
		...(status ? { status } : {}),
	};
}

function bundle(name: string, repo: string, status?: Obj): Obj {
	return {
		apiVersion: fleetApi,
		kind: 'Bundle',
		metadata: { name, namespace: 'fleet-default', labels: { 'fleet.cattle.io/repo-name': repo } },
		spec: {},
		...(status ? { status } : {}),
	};
}

function clusterNamespace(name: string): string {
	return `cluster-fleet-default-${name}-0123456789ab`;
}

function cluster(name: string, labels: Record<string, string> = {}): Obj {
	return {
		apiVersion: fleetApi,
		kind: 'Cluster',
		metadata: { name, namespace: 'fleet-default', labels },
		spec: {},
		status: {
			namespace: clusterNamespace(name),
			agent: { lastSeen: '2026-11-22T08:00:00Z' },
			display: { readyBundles: '1/1' },
			conditions: [{ type: 'Ready', status: 'True' }],
		},
	};
}

function clusterGroup(name: string, selector: unknown): Obj {
	return {
		apiVersion: fleetApi,
		kind: 'ClusterGroup',
		metadata: { name, namespace: 'fleet-default' },
		spec: selector === undefined ? {} : { selector },
	};
}

type BdState = 'Ready' | 'ErrApplied' | 'NotReady' | 'Modified';

function bd(
	bundleName: string,
	clusterName: string,
	state: BdState,
	repo = 'web',
	message = 'helm install failed',
): Obj {
	const status: Obj = {
		appliedDeploymentID: 'd1',
		ready: true,
		nonModified: true,
		conditions: [
			{ type: 'Deployed', status: 'True' },
			{ type: 'Ready', status: 'True' },
		],
		resourceCounts: { ready: 2, desiredReady: 2 },
	};
	if (state === 'ErrApplied') {
		status.appliedDeploymentID = 'd0';
		status.conditions = [{ type: 'Deployed', status: 'False', reason: 'Error', message }];
	}
	if (state === 'NotReady') {
		status.ready = false;
		status.nonReadyStatus = [
			{
				kind: 'Deployment',
				apiVersion: 'apps/v1',
				namespace: 'web',
				name: 'web',
				summary: { state: 'in-progress', transitioning: true, message: ['Available: 1/2'] },
			},
		];
	}
	if (state === 'Modified') {
		status.nonModified = false;
		status.modifiedStatus = [
			{
				kind: 'ConfigMap',
				apiVersion: 'v1',
				namespace: 'web',
				name: 'cfg',
				patch: '{"data":{"a":"b"}}',
			},
		];
	}
	return {
		apiVersion: fleetApi,
		kind: 'BundleDeployment',
		metadata: {
			name: bundleName,
			namespace: clusterNamespace(clusterName),
			labels: {
				'fleet.cattle.io/bundle-name': bundleName,
				'fleet.cattle.io/bundle-namespace': 'fleet-default',
				'fleet.cattle.io/repo-name': repo,
				'fleet.cattle.io/cluster': clusterName,
				'fleet.cattle.io/cluster-namespace': 'fleet-default',
			},
		},
		spec: { deploymentID: 'd1', stagedDeploymentID: 'd1' },
		status,
	};
}

/** What the GitRepo controller would have written when all three clusters were fine. */
const staleReadyGitRepo = {
	display: { readyBundleDeployments: '3/3' },
	gitJobStatus: 'Current',
	readyClusters: 3,
	desiredReadyClusters: 3,
	conditions: [{ type: 'Ready', status: 'True' }],
};

function fleetRollout(states: readonly BdState[] = ['Ready', 'Ready', 'ErrApplied']): Obj[] {
	const names = ['c1', 'c2', 'c3'];
	return [
		gitRepo('web', staleReadyGitRepo),
		bundle('web-app', 'web', {
			display: { readyClusters: '3/3' },
			summary: { ready: 3, desiredReady: 3 },
			conditions: [{ type: 'Ready', status: 'True' }],
		}),
		...names.map((name) => cluster(name, { env: name === 'c3' ? 'dev' : 'prod' })),
		...names.map((name, index) => bd('web-app', name, states[index] ?? 'Ready')),
	];
}

function graphOf(objects: readonly Obj[], sourceId = 'file:///a.yaml'): ResourceGraph {
	const graph = new ResourceGraph();
	graph.addRoot('ws', 'Workspace manifests');
	graph.setSourceObjects(
		'ws',
		sourceId,
		objects.map((object, index) => ({ object, line: index * 10 })),
	);
	return graph;
}

/** Walks labels from the root; fails the test when a step is missing. */
function find(graph: ResourceGraph, ...labels: string[]): TreeNode {
	let nodes = graph.roots();
	let found: TreeNode | undefined;
	for (const label of labels) {
		found = nodes.find((node) => node.label === label);
		assert.ok(found, `no "${label}" among [${nodes.map((node) => node.label).join(', ')}]`);
		nodes = graph.children(found.id);
	}
	assert.ok(found);
	return found;
}

function labels(graph: ResourceGraph, id: string, filter?: TreeFilter): string[] {
	return graph.children(id, filter).map((node) => node.label);
}

function dump(graph: ResourceGraph, filter: TreeFilter = {}): string[] {
	const lines: string[] = [];
	const walk = (nodes: readonly TreeNode[], depth: number) => {
		for (const node of nodes) {
			lines.push(`${'  '.repeat(depth)}${node.label}`);
			walk(graph.children(node.id, filter), depth + 1);
		}
	};
	walk(graph.children(undefined, filter), 0);
	return lines;
}

function prefixes(id: string): string[] {
	const parts = id.split('/');
	return parts.map((_, index) => parts.slice(0, index + 1).join('/'));
}

// ---------------------------------------------------------------------------------------------------------------

describe('resource graph: Fleet', () => {
	it('shows GitRepo -> Bundle -> one BundleDeployment per cluster, in cluster order', () => {
		const graph = graphOf(fleetRollout());
		assert.deepEqual(labels(graph, find(graph, 'Workspace manifests', 'Fleet').id), [
			'GitRepos',
			'Clusters',
		]);
		const bundleNode = find(graph, 'Workspace manifests', 'Fleet', 'GitRepos', 'web', 'web-app');
		assert.deepEqual(labels(graph, bundleNode.id), ['c1', 'c2', 'c3']);
		const failing = find(graph, 'Workspace manifests', 'Fleet', 'GitRepos', 'web', 'web-app', 'c3');
		assert.equal(failing.result?.state, 'ErrApplied');
		assert.equal(failing.tone, 'error');
		assert.equal(failing.kind, 'object');
		// Its resources still count 2/2 ready (the old release runs): the row says why it failed instead.
		assert.equal(failing.description, 'ErrApplied · helm install failed');
		const ready = find(graph, 'Workspace manifests', 'Fleet', 'GitRepos', 'web', 'web-app', 'c1');
		assert.equal(ready.description, 'Ready · 2/2 resources');
	});

	it('rolls the failing BundleDeployment up and says where the written status disagrees', () => {
		const graph = graphOf(fleetRollout());
		const repo = find(graph, 'Workspace manifests', 'Fleet', 'GitRepos', 'web');
		assert.equal(repo.result?.state, 'Ready', 'the word is what the controller wrote');
		assert.equal(repo.tone, 'error', 'a failing child shows through a parent that claims Ready');
		assert.equal(repo.description, 'Ready · 2/3 clusters · fleet-default');
		assert.match(
			repo.disagreement ?? '',
			/wrote Ready, but the 3 BundleDeployments here say ErrApplied/,
		);
		assert.match(repo.disagreement ?? '', /3\/3 clusters ready, recomputed 2\/3/);
		const bundleNode = find(graph, 'Workspace manifests', 'Fleet', 'GitRepos', 'web', 'web-app');
		assert.equal(bundleNode.description, 'Ready · 2/3 ready');
		assert.deepEqual(
			{
				total: bundleNode.rollup?.total,
				ok: bundleNode.rollup?.ok,
				problems: bundleNode.rollup?.problems,
			},
			{ total: 3, ok: 2, problems: 1 },
		);
		assert.match(bundleNode.disagreement ?? '', /Ready is True but would be False/);
		assert.match(bundleNode.disagreement ?? '', /summary counts 3 ready, recomputed 2/);
	});

	it('in a root that watches no BundleDeployments, shows what the controllers wrote and lists BDs on demand', () => {
		const objects = fleetRollout();
		const parents = objects.filter((object) => object.kind !== 'BundleDeployment');
		const bds = objects.filter((object) => object.kind === 'BundleDeployment');
		const graph = new ResourceGraph();
		graph.addRoot('live', 'fleet-mgmt', 'live');
		graph.setSourceObjects(
			'live',
			'watch',
			parents.map((object) => ({ object })),
		);
		const changes = graph.setRollupsFromController('live', true);
		assert.ok(changes.structureChanged.length > 0, 'the Fleet nodes are listed again');
		const path = ['fleet-mgmt', 'Fleet', 'GitRepos', 'web', 'web-app'];
		const before = find(graph, ...path);
		assert.deepEqual(before.listOnDemand, {
			labelSelector:
				'fleet.cattle.io/bundle-name=web-app,fleet.cattle.io/bundle-namespace=fleet-default',
		});
		assert.equal(before.hasChildren, true, 'expandable although nothing is under it yet');
		const c3 = find(graph, 'fleet-mgmt', 'Fleet', 'Clusters', 'c3');
		assert.deepEqual(c3.listOnDemand, { labelSelector: '', namespace: clusterNamespace('c3') });
		// A status namespace that is not a DNS label could widen the list to every namespace: the labels decide.
		const odd = cluster('c9');
		(odd.status as Obj).namespace = '..';
		graph.upsertObject('live', 'watch', odd);
		assert.deepEqual(find(graph, 'fleet-mgmt', 'Fleet', 'Clusters', 'c9').listOnDemand, {
			labelSelector: 'fleet.cattle.io/cluster=c9,fleet.cattle.io/cluster-namespace=fleet-default',
		});
		graph.removeObject('live', 'watch', objectKeyOf(odd));
		assert.equal(before.description, 'Ready · 3/3 ready', 'the counts the controller wrote');

		// Only c3's deployment is listed (the user expanded cluster c3): the Bundle must not recompute 0/1 or 1/1.
		const failing = bds.filter((object) => JSON.stringify(object).includes('"c3"'));
		graph.setSourceObjects(
			'live',
			'on-demand:c3',
			failing.map((object) => ({ object })),
		);
		const after = find(graph, ...path);
		assert.equal(after.description, 'Ready · 3/3 ready');
		assert.deepEqual(labels(graph, after.id), ['c3']);
		assert.equal(find(graph, ...path, 'c3').result?.state, 'ErrApplied');
		assert.equal(after.tone, 'error', 'a listed failing deployment still shows through');
		const repo = find(graph, 'fleet-mgmt', 'Fleet', 'GitRepos', 'web');
		assert.equal(repo.description, 'Ready · 3/3 clusters · fleet-default');
		assert.ok(!/recomputed/.test(repo.disagreement ?? ''), repo.disagreement);

		// Watching them all again: the roll-ups are recomputed from the deployments here.
		graph.setSourceObjects('live', 'on-demand:c3', []);
		graph.setSourceObjects(
			'live',
			'bds',
			bds.map((object) => ({ object })),
		);
		graph.setRollupsFromController('live', false);
		const watched = find(graph, ...path);
		assert.equal(watched.listOnDemand, undefined);
		assert.equal(watched.description, 'Ready · 2/3 ready');
		assert.match(watched.disagreement ?? '', /summary counts 3 ready, recomputed 2/);
	});

	it('carries what computeFleetRollups computes for the same input', () => {
		const objects = fleetRollout();
		const graph = graphOf(objects);
		const expected = computeFleetRollups(objects);
		for (const object of objects) {
			const [id] = graph.findNodesForObject('ws', objectKeyOf(object));
			assert.ok(id, `no node for ${objectKeyOf(object)}`);
			assert.deepEqual(graph.node(id)?.result?.computed, expected.get(object), objectKeyOf(object));
		}
	});

	it('counts for a Cluster every BundleDeployment in its status.namespace, as computeFleetRollups, and follows them', () => {
		// Labelled for c2 but in c1's namespace: Fleet's cluster controller counts it for c1, not c2.
		const stray = (state: BdState): Obj => {
			const object = bd('web-app', 'c2', state);
			(object.metadata as Obj).namespace = clusterNamespace('c1');
			(object.metadata as Obj).name = 'web-app-stray';
			return object;
		};
		const objects = [cluster('c1'), cluster('c2'), stray('Ready')];
		const graph = graphOf(objects);
		const computedOf = (name: string): unknown => {
			const [id] = graph.findNodesForObject('ws', objectKeyOf(cluster(name)));
			assert.ok(id);
			return graph.node(id)?.result?.computed;
		};
		const expected = computeFleetRollups(objects);
		assert.deepEqual(computedOf('c1'), expected.get(objects[0]));
		assert.deepEqual(computedOf('c2'), expected.get(objects[1]));
		assert.equal(getPath(computedOf('c1'), 'summary', 'ready'), 1);
		graph.upsertObject('ws', 'file:///a.yaml', stray('ErrApplied'));
		assert.equal(getPath(computedOf('c1'), 'summary', 'errApplied'), 1);
		assert.equal(getPath(computedOf('c2'), 'summary', 'errApplied'), undefined);
	});

	it('gives a BundleDeployment a distinct, stable id under its Bundle and under its Cluster', () => {
		const graph = graphOf(fleetRollout());
		const key = objectKeyOf(bd('web-app', 'c1', 'Ready'));
		const ids = graph.findNodesForObject('ws', key);
		assert.equal(ids.length, 2);
		assert.notEqual(ids[0], ids[1]);
		const parents = ids.map((id) => graph.parentOf(id)?.label).sort();
		assert.deepEqual(parents, ['c1', 'web-app']);
		assert.deepEqual(ids.map((id) => graph.node(id)?.label).sort(), ['c1', 'web-app']);
		graph.upsertObject('ws', 'file:///a.yaml', bd('web-app', 'c1', 'NotReady'));
		graph.upsertObject('ws', 'file:///a.yaml', bd('web-app', 'c2', 'Modified'));
		assert.deepEqual(graph.findNodesForObject('ws', key), ids);
		for (const id of ids) assert.equal(graph.node(id)?.result?.state, 'NotReady');
	});

	it('lists the non-ready and modified resources a BundleDeployment reports', () => {
		const graph = graphOf(fleetRollout(['NotReady', 'Modified', 'Ready']));
		const notReady = find(graph, 'Workspace manifests', 'Fleet', 'Clusters', 'c1', 'web-app');
		const [resource] = graph.children(notReady.id);
		assert.equal(resource?.kind, 'resource');
		assert.equal(resource?.label, 'Deployment web/web');
		assert.equal(resource?.description, 'in-progress');
		assert.equal(resource?.message, 'deployment.apps web/web [progressing] Available: 1/2');
		const modified = find(
			graph,
			'Workspace manifests',
			'Fleet',
			'Clusters',
			'c2',
			'web-app',
			'ConfigMap web/cfg',
		);
		assert.equal(modified.description, 'modified');
		assert.equal(modified.tone, 'warning');
	});

	it('expands a BundleDeployment that failed to apply to the resource the agent could not apply', () => {
		const message =
			'failed to upgrade "web": cannot patch "web" with kind Deployment: Deployment.apps "web" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "4": must be less than or equal to cpu limit of 2';
		const failing = bd('web-app', 'c3', 'ErrApplied', 'web', message);
		(failing.status as Obj).resources = [
			{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'web', name: 'web' },
			{ apiVersion: 'v1', kind: 'Service', namespace: 'web', name: 'web' },
		];
		const graph = graphOf([...fleetRollout(['Ready', 'Ready', 'Ready']).slice(0, -1), failing]);
		const row = find(graph, 'Workspace manifests', 'Fleet', 'GitRepos', 'web', 'web-app', 'c3');
		const children = graph.children(row.id);
		assert.deepEqual(
			children.map((child) => `${child.label}: ${child.description}`),
			[
				'Deployment web/web: failed to apply',
				'Service web/web: in the release · the last apply failed',
			],
		);
		assert.equal(children[0]?.tone, 'error');
		assert.match(children[0]?.message ?? '', /must be less than or equal to cpu limit of 2/);
		assert.deepEqual(children[0]?.ref, {
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			namespace: 'web',
			name: 'web',
		});
		// A BundleDeployment that applied has nothing of the kind.
		const applied = find(graph, 'Workspace manifests', 'Fleet', 'GitRepos', 'web', 'web-app', 'c1');
		assert.deepEqual(graph.children(applied.id), []);
	});

	it('puts the Clusters a ClusterGroup selects under it, by its selector', () => {
		const graph = graphOf([
			...fleetRollout(),
			clusterGroup('prod', { matchLabels: { env: 'prod' } }),
			clusterGroup('all', {}),
			clusterGroup('none', undefined),
		]);
		const groups = find(graph, 'Workspace manifests', 'Fleet', 'ClusterGroups');
		assert.deepEqual(
			labels(graph, find(graph, 'Workspace manifests', 'Fleet', 'ClusterGroups', 'prod').id),
			['c1', 'c2'],
		);
		assert.deepEqual(
			labels(graph, find(graph, 'Workspace manifests', 'Fleet', 'ClusterGroups', 'all').id),
			['c1', 'c2', 'c3'],
		);
		assert.equal(
			find(graph, 'Workspace manifests', 'Fleet', 'ClusterGroups', 'none').hasChildren,
			false,
		);
		assert.equal(graph.children(groups.id).length, 3);
		const all = find(graph, 'Workspace manifests', 'Fleet', 'ClusterGroups', 'all');
		assert.equal(all.description, 'declared, no status · 2/3 clusters · fleet-default');
		// Relabelling a cluster moves it in or out of a group.
		graph.upsertObject('ws', 'file:///a.yaml', cluster('c3', { env: 'prod' }));
		assert.deepEqual(
			labels(graph, find(graph, 'Workspace manifests', 'Fleet', 'ClusterGroups', 'prod').id),
			['c1', 'c2', 'c3'],
		);
	});

	it('shows a placeholder for a Bundle that is not in the input, and the Bundle once it arrives', () => {
		const objects = fleetRollout().filter((object) => object.kind !== 'Bundle');
		const graph = graphOf(objects);
		const placeholder = find(graph, 'Workspace manifests', 'Fleet', 'GitRepos', 'web', 'web-app');
		assert.equal(placeholder.kind, 'placeholder');
		assert.equal(placeholder.description, 'Bundle not in input · 2/3 ready');
		graph.upsertObject('ws', 'file:///b.yaml', bundle('web-app', 'web'));
		const real = find(graph, 'Workspace manifests', 'Fleet', 'GitRepos', 'web', 'web-app');
		assert.equal(real.kind, 'object');
		assert.deepEqual(labels(graph, real.id), ['c1', 'c2', 'c3']);
		assert.equal(
			graph.children(find(graph, 'Workspace manifests', 'Fleet', 'GitRepos', 'web').id).length,
			1,
		);
	});

	it('moves the Bundles of a GitRepo that goes away to the Bundles group', () => {
		const graph = graphOf(fleetRollout());
		graph.removeObject('ws', 'file:///a.yaml', objectKeyOf(gitRepo('web')));
		assert.deepEqual(labels(graph, find(graph, 'Workspace manifests', 'Fleet').id), [
			'Clusters',
			'Bundles',
		]);
		assert.deepEqual(labels(graph, find(graph, 'Workspace manifests', 'Fleet', 'Bundles').id), [
			'web-app',
		]);
	});

	it('drops the Cluster place of its BundleDeployments when the Cluster goes away', () => {
		const graph = graphOf(fleetRollout());
		const key = objectKeyOf(bd('web-app', 'c1', 'Ready'));
		graph.removeObject('ws', 'file:///a.yaml', objectKeyOf(cluster('c1')));
		assert.equal(graph.findNodesForObject('ws', key).length, 1);
		assert.deepEqual(labels(graph, find(graph, 'Workspace manifests', 'Fleet', 'Clusters').id), [
			'c2',
			'c3',
		]);
	});
});

describe('resource graph: KubeStellar', () => {
	const policy = {
		apiVersion: 'control.kubestellar.io/v1alpha1',
		kind: 'BindingPolicy',
		metadata: { name: 'nginx-bp', generation: 1 },
		spec: {
			clusterSelectors: [{ matchLabels: { 'location-group': 'edge' } }],
			downsync: [{ resources: ['deployments'], namespaces: ['nginx'] }],
		},
		status: { observedGeneration: 1, conditions: [] },
	};
	const deployment = {
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: { name: 'nginx', namespace: 'nginx', generation: 1 },
		spec: { replicas: 2 },
	};
	const service = {
		apiVersion: 'v1',
		kind: 'Service',
		metadata: { name: 'nginx', namespace: 'nginx' },
		spec: {},
	};
	const elsewhere = {
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: { name: 'other', namespace: 'other' },
		spec: {},
	};
	function workStatus(wec: string, ok: boolean): Obj {
		return {
			apiVersion: 'control.kubestellar.io/v1alpha1',
			kind: 'WorkStatus',
			metadata: { name: `uid-appsv1-deployment-nginx-nginx`, namespace: wec },
			spec: {
				sourceRef: {
					group: 'apps',
					version: 'v1',
					resource: 'deployments',
					kind: 'Deployment',
					namespace: 'nginx',
					name: 'nginx',
				},
			},
			status: ok
				? {
						observedGeneration: 1,
						replicas: 2,
						updatedReplicas: 2,
						readyReplicas: 2,
						availableReplicas: 2,
						conditions: [{ type: 'Available', status: 'True' }],
					}
				: {
						observedGeneration: 1,
						replicas: 2,
						updatedReplicas: 2,
						readyReplicas: 0,
						availableReplicas: 0,
						conditions: [
							{
								type: 'Progressing',
								status: 'False',
								reason: 'ProgressDeadlineExceeded',
								message: 'ReplicaSet "nginx-5d" has timed out progressing.',
							},
						],
					},
		};
	}
	const objects = [
		policy,
		deployment,
		service,
		elsewhere,
		workStatus('wec1', true),
		workStatus('wec2', true),
		workStatus('wec3', false),
	];

	it('shows policy -> the workloads its downsync clauses select -> the WorkStatus of each WEC', () => {
		const graph = graphOf(objects);
		const policyNode = find(
			graph,
			'Workspace manifests',
			'KubeStellar',
			'BindingPolicies',
			'nginx-bp',
		);
		assert.deepEqual(labels(graph, policyNode.id), ['Deployment nginx']);
		// Its own status is fine, its icon is red: the row leads with why (not "Ready · 0/1 ready").
		assert.equal(policyNode.tone, 'error');
		assert.equal(policyNode.description, '1 of 1 failing · Ready');
		const workload = find(
			graph,
			'Workspace manifests',
			'KubeStellar',
			'BindingPolicies',
			'nginx-bp',
			'Deployment nginx',
		);
		assert.deepEqual(labels(graph, workload.id), ['wec1', 'wec2', 'wec3']);
		assert.equal(workload.description, 'declared, no status · 2/3 WECs · nginx');
		assert.equal(workload.tone, 'error');
		assert.equal(
			find(
				graph,
				'Workspace manifests',
				'KubeStellar',
				'BindingPolicies',
				'nginx-bp',
				'Deployment nginx',
				'wec3',
			).result?.state,
			'Failed',
		);
		assert.deepEqual(labels(graph, find(graph, 'Workspace manifests', 'KubeStellar', 'WECs').id), [
			'wec1',
			'wec2',
			'wec3',
		]);
		assert.deepEqual(
			labels(graph, find(graph, 'Workspace manifests', 'KubeStellar', 'WECs', 'wec1').id),
			['Deployment nginx'],
		);
		assert.equal(
			graph.findNodesForObject('ws', objectKeyOf(elsewhere)).length,
			0,
			'unselected plain workloads are not listed',
		);
	});

	it('follows the Binding when there is one, with placeholders for what it lists but the input lacks', () => {
		const binding = {
			apiVersion: 'control.kubestellar.io/v1alpha1',
			kind: 'Binding',
			metadata: { name: 'nginx-bp' },
			spec: {
				workload: {
					namespaceScope: [
						{
							group: 'apps',
							version: 'v1',
							resource: 'deployments',
							namespace: 'nginx',
							name: 'nginx',
						},
						{
							group: '',
							version: 'v1',
							resource: 'configmaps',
							namespace: 'nginx',
							name: 'settings',
						},
					],
				},
				destinations: [{ clusterId: 'wec1' }, { clusterId: 'wec2' }, { clusterId: 'wec3' }],
			},
		};
		const graph = graphOf([...objects, binding]);
		const policyNode = find(
			graph,
			'Workspace manifests',
			'KubeStellar',
			'BindingPolicies',
			'nginx-bp',
		);
		assert.deepEqual(labels(graph, policyNode.id), [
			'Binding nginx-bp',
			'configmaps nginx/settings',
			'Deployment nginx',
		]);
		const placeholder = find(
			graph,
			'Workspace manifests',
			'KubeStellar',
			'BindingPolicies',
			'nginx-bp',
			'configmaps nginx/settings',
		);
		assert.equal(placeholder.kind, 'placeholder');
		assert.equal(placeholder.description, 'not in input');
		// The listed object arrives: the placeholder gives way to it.
		graph.upsertObject('ws', 'file:///b.yaml', {
			apiVersion: 'v1',
			kind: 'ConfigMap',
			metadata: { name: 'settings', namespace: 'nginx' },
			data: {},
		});
		assert.deepEqual(labels(graph, policyNode.id), [
			'Binding nginx-bp',
			'ConfigMap settings',
			'Deployment nginx',
		]);
		// The Binding goes: the downsync clauses decide again.
		graph.removeObject('ws', 'file:///a.yaml', objectKeyOf(binding));
		assert.deepEqual(labels(graph, policyNode.id), ['Deployment nginx']);
	});

	it('re-evaluates the WorkStatus of a workload when the WDS workload changes', () => {
		const graph = graphOf(objects);
		const wec1 = () =>
			find(
				graph,
				'Workspace manifests',
				'KubeStellar',
				'BindingPolicies',
				'nginx-bp',
				'Deployment nginx',
				'wec1',
			);
		assert.equal(wec1().result?.state, 'Current');
		const changes = graph.upsertObject('ws', 'file:///a.yaml', {
			...deployment,
			spec: { replicas: 3 },
		});
		assert.equal(
			wec1().result?.state,
			'InProgress',
			'the WEC copy is now judged against 3 desired replicas',
		);
		assert.ok(changes.changed.includes(wec1().id));
	});
});

describe('resource graph: Harbor, Flux, ASO', () => {
	it('counts a system by its objects, not by its categories, and follows an object that changes or goes', () => {
		const helmRepository = (name: string, ready: boolean): Obj => ({
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'HelmRepository',
			metadata: { name, namespace: 'flux-system', generation: 1 },
			spec: { url: 'https://charts.example.com' },
			status: {
				observedGeneration: 1,
				conditions: [
					ready
						? { type: 'Ready', status: 'True', reason: 'Succeeded', message: 'stored artifact' }
						: { type: 'Ready', status: 'False', reason: 'FetchFailed', message: 'timeout' },
				],
			},
		});
		const repositories = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) =>
			helmRepository(name, name !== 'c'),
		);
		const graph = graphOf(repositories);
		const flux = find(graph, 'Workspace manifests', 'Flux');
		assert.equal(flux.description, '6 · 1 problem');
		assert.equal(flux.rollup?.total, 6);
		assert.equal(
			find(graph, 'Workspace manifests', 'Flux', 'HelmRepositories').description,
			'6 · 1 problem',
		);
		const changed = graph.upsertObject('ws', 'file:///a.yaml', helmRepository('d', false));
		assert.ok(changed.changed.includes(flux.id) || changed.structureChanged.includes(flux.id));
		assert.equal(graph.node(flux.id)?.description, '6 · 2 problems');
		graph.setSourceObjects(
			'ws',
			'file:///a.yaml',
			repositories.slice(1).map((object) => ({ object })),
		);
		assert.equal(graph.node(flux.id)?.description, '5 · 1 problem');
	});

	const harbor = {
		apiVersion: 'goharbor.io/v1beta1',
		kind: 'HarborCluster',
		metadata: { name: 'harbor', namespace: 'harbor-system' },
		spec: {},
		status: {
			status: 'provisioning',
			conditions: [
				{ type: 'StorageReady', status: 'True', reason: 'MinIOReady' },
				{ type: 'DatabaseReady', status: 'True' },
				{
					type: 'CacheReady',
					status: 'Unknown',
					reason: 'RedisDeploying',
					message: 'Redis failover is being created',
				},
			],
		},
	};
	const owner = [
		{ apiVersion: 'goharbor.io/v1beta1', kind: 'HarborCluster', name: 'harbor', uid: 'u1' },
	];
	const owned = [
		{
			apiVersion: 'goharbor.io/v1beta1',
			kind: 'Harbor',
			metadata: { name: 'harbor-harbor', namespace: 'harbor-system', ownerReferences: owner },
			spec: {},
		},
		{
			apiVersion: 'acid.zalan.do/v1',
			kind: 'postgresql',
			metadata: { name: 'harbor-db', namespace: 'harbor-system', ownerReferences: owner },
			spec: {},
		},
	];

	it('shows a HarborCluster with its four dependency conditions and the objects it owns', () => {
		const graph = graphOf([harbor, ...owned]);
		const node = find(graph, 'Workspace manifests', 'Harbor', 'HarborClusters', 'harbor');
		assert.equal(node.description, 'provisioning · 2/4 dependencies · harbor-system');
		const children = graph.children(node.id);
		const dependencies = children.filter((child) => child.kind === 'dependency');
		assert.deepEqual(
			dependencies.map((child) => `${child.label}: ${child.description}`),
			[
				'StorageReady: True · MinIOReady',
				'DatabaseReady: True',
				'CacheReady: Unknown · RedisDeploying',
				'ServiceReady: not reported',
			],
		);
		assert.equal(dependencies[2]?.message, 'Redis failover is being created');
		assert.deepEqual(
			children
				.filter((child) => child.kind === 'object')
				.map((child) => child.label)
				.sort(),
			['Harbor harbor-harbor', 'postgresql harbor-db'],
		);
		assert.deepEqual(
			labels(graph, find(graph, 'Workspace manifests', 'Harbor').id),
			['HarborClusters'],
			'owned Harbor CRs are not listed again on their own',
		);
	});

	it('groups Flux objects by kind and ASO objects by API group; plain objects with no link are not listed', () => {
		const flux = [
			{
				apiVersion: 'source.toolkit.fluxcd.io/v1',
				kind: 'HelmRepository',
				metadata: { name: 'podinfo', namespace: 'flux-system', generation: 1 },
				spec: { url: 'https://x' },
				status: {
					observedGeneration: 1,
					conditions: [{ type: 'Ready', status: 'True', reason: 'Succeeded' }],
				},
			},
			{
				apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
				kind: 'Kustomization',
				metadata: { name: 'apps', namespace: 'flux-system' },
				spec: {},
			},
		];
		const aso = [
			{
				apiVersion: 'resources.azure.com/v1api20200601',
				kind: 'ResourceGroup',
				metadata: { name: 'rg', namespace: 'default' },
				spec: {},
			},
			{
				apiVersion: 'storage.azure.com/v1api20230101',
				kind: 'StorageAccount',
				metadata: { name: 'sa', namespace: 'default' },
				spec: {},
			},
		];
		const plain = {
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			metadata: { name: 'web', namespace: 'default' },
			spec: {},
		};
		const graph = graphOf([...flux, ...aso, plain]);
		assert.deepEqual(labels(graph, find(graph, 'Workspace manifests').id).sort(), [
			'Azure Service Operator',
			'Flux',
		]);
		assert.deepEqual(labels(graph, find(graph, 'Workspace manifests', 'Flux').id).sort(), [
			'HelmRepositories',
			'Kustomizations',
		]);
		assert.deepEqual(
			labels(graph, find(graph, 'Workspace manifests', 'Azure Service Operator').id).sort(),
			['resources.azure.com', 'storage.azure.com'],
		);
		assert.deepEqual(graph.findNodesForObject('ws', objectKeyOf(plain)), []);
	});
});

describe('resource graph: workspace semantics', () => {
	const manifest = {
		apiVersion: fleetApi,
		kind: 'GitRepo',
		metadata: { name: 'web', namespace: 'fleet-default' },
		spec: { repo: 'https://example.com/x' },
	};
	const dumped = { ...manifest, status: { ...staleReadyGitRepo } };

	it('shows an object found in two files as one node listing both, the copy with status winning', () => {
		for (const order of [
			['manifest', 'dump'],
			['dump', 'manifest'],
		]) {
			const graph = new ResourceGraph();
			graph.addRoot('ws', 'Workspace manifests');
			for (const which of order) {
				graph.setSourceObjects('ws', `file:///${which}.yaml`, [
					{
						object: which === 'dump' ? dumped : manifest,
						line: which === 'dump' ? 12 : 3,
						label: `${which}.yaml`,
					},
				]);
			}
			const ids = graph.findNodesForObject('ws', objectKeyOf(manifest));
			assert.equal(ids.length, 1);
			const node = graph.node(ids[0] ?? '');
			assert.equal(node?.result?.observed, true, `order ${order.join(', ')}`);
			assert.deepEqual(node?.sources?.map((source) => `${source.label}:${source.line}`).sort(), [
				'dump.yaml:12',
				'manifest.yaml:3',
			]);
			graph.removeSource('ws', 'file:///dump.yaml');
			const after = graph.node(graph.findNodesForObject('ws', objectKeyOf(manifest))[0] ?? '');
			assert.equal(after?.description, 'declared, no status · fleet-default');
			assert.equal(after?.sources?.length, 1);
		}
	});

	it('a later copy wins when both have status', () => {
		const graph = graphOf([dumped]);
		graph.setSourceObjects('ws', 'file:///b.yaml', [
			{ object: { ...dumped, status: { ...staleReadyGitRepo, gitJobStatus: 'InProgress' } } },
		]);
		assert.equal(
			graph.node(graph.findNodesForObject('ws', objectKeyOf(manifest))[0] ?? '')?.result?.state,
			'GitUpdating',
		);
	});

	it('removing a file removes only what that file contributed', () => {
		const repo = (name: string) => ({
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'HelmRepository',
			metadata: { name, namespace: 'flux-system' },
			spec: { type: 'oci' },
		});
		const graph = new ResourceGraph();
		graph.addRoot('ws', 'Workspace manifests');
		graph.setSourceObjects('ws', 'file:///a.yaml', [{ object: repo('a') }]);
		graph.setSourceObjects('ws', 'file:///b.yaml', [{ object: repo('b') }]);
		const category = find(graph, 'Workspace manifests', 'Flux', 'HelmRepositories');
		const changes = graph.removeSource('ws', 'file:///a.yaml');
		assert.deepEqual(labels(graph, category.id), ['b']);
		assert.deepEqual(changes.structureChanged, [category.id]);
		assert.equal(graph.objectCount('ws'), 1);
		graph.removeSource('ws', 'file:///b.yaml');
		assert.deepEqual(
			graph.children(find(graph, 'Workspace manifests').id),
			[],
			'empty groups are hidden',
		);
	});

	it('never shows a manifest without status as ok, unless its system defines that case as ready', () => {
		const oci = {
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'HelmRepository',
			metadata: { name: 'charts', namespace: 'flux-system' },
			spec: { type: 'oci', url: 'oci://x' },
		};
		const kustomization = {
			apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
			kind: 'Kustomization',
			metadata: { name: 'apps', namespace: 'flux-system' },
			spec: {},
		};
		const graph = graphOf([manifest, oci, kustomization]);
		for (const object of [manifest, kustomization]) {
			const node = graph.node(graph.findNodesForObject('ws', objectKeyOf(object))[0] ?? '');
			assert.equal(node?.description, `declared, no status · ${object.metadata.namespace}`);
			assert.equal(node?.tone, 'unknown');
			assert.equal(node?.contextFlags.declared, true);
		}
		const ociNode = graph.node(graph.findNodesForObject('ws', objectKeyOf(oci))[0] ?? '');
		assert.equal(ociNode?.tone, 'ok');
		assert.equal(ociNode?.contextFlags.oci, true);
	});

	it('finds the object at a line of a file', () => {
		const graph = graphOf(fleetRollout());
		const [at0] = graph.nodesFor('file:///a.yaml', 5);
		assert.equal(at0 && graph.node(at0)?.label, 'web');
		const bundleIds = graph.nodesFor('file:///a.yaml', 10);
		assert.equal(bundleIds.length, 1);
		assert.equal(graph.node(bundleIds[0] ?? '')?.label, 'web-app');
		assert.equal(
			graph.nodesFor('file:///a.yaml', 65).length,
			2,
			'the last BD, under its Bundle and its Cluster',
		);
		assert.deepEqual(graph.nodesFor('file:///nowhere.yaml', 1), []);
	});

	it('does not crash on malformed objects and shows them as Unknown', () => {
		const graph = new ResourceGraph();
		graph.addRoot('ws', 'Workspace manifests');
		assert.doesNotThrow(() =>
			graph.setSourceObjects('ws', 'file:///bad.yaml', [
				{
					object: {
						apiVersion: fleetApi,
						kind: 'GitRepo',
						metadata: { namespace: 'fleet-default' },
						status: 'broken',
					},
				},
				{
					object: {
						apiVersion: fleetApi,
						kind: 'BundleDeployment',
						metadata: { name: 'x', labels: 'oops' },
						spec: [],
						status: { conditions: 'no' },
					},
				},
				{
					object: {
						apiVersion: fleetApi,
						kind: 'Cluster',
						metadata: { name: 7, namespace: 'fleet-default' },
						status: { namespace: 3 },
					},
				},
				{
					object: {
						apiVersion: fleetApi,
						kind: 'ClusterGroup',
						metadata: { name: 'g', namespace: 'fleet-default' },
						spec: { selector: { matchExpressions: 'bad' } },
					},
				},
				{
					object: {
						apiVersion: 'control.kubestellar.io/v1alpha1',
						kind: 'BindingPolicy',
						metadata: { name: 'p' },
						spec: { downsync: 'all' },
					},
				},
				{
					object: {
						apiVersion: 'control.kubestellar.io/v1alpha1',
						kind: 'WorkStatus',
						metadata: { name: 'w', namespace: 'wec1' },
						spec: { sourceRef: 5 },
					},
				},
				{
					object: {
						apiVersion: 'goharbor.io/v1beta1',
						kind: 'HarborCluster',
						metadata: { name: 'h', namespace: 'h', ownerReferences: 'x' },
						status: { conditions: {} },
					},
				},
				{ object: { kind: 'Deployment' } },
				{ object: 42 },
				{ object: null },
				{ object: ['a'] },
			]),
		);
		const repo = find(graph, 'Workspace manifests', 'Fleet', 'GitRepos', '(no name)');
		assert.equal(repo.result?.state, 'Unknown');
		assert.equal(repo.tone, 'unknown');
		assert.doesNotThrow(() => dump(graph));
		assert.doesNotThrow(() =>
			dump(graph, { problemsOnly: true, namespace: 'x', nameContains: 'y' }),
		);
	});

	it('shows a root state and counts objects in error for the badge', () => {
		const graph = graphOf(fleetRollout());
		assert.equal(
			graph.problemCount(),
			1,
			'the ErrApplied BD, once though it shows twice; its parents claim Ready themselves',
		);
		graph.upsertObject(
			'ws',
			'file:///a.yaml',
			gitRepo('web', { ...staleReadyGitRepo, display: { state: 'ErrApplied' } }),
		);
		assert.equal(graph.problemCount(), 2);
		graph.addRoot('ctx', 'kind-dev', 'live');
		const changes = graph.setRootState('ctx', { tone: 'error', message: 'cannot reach' });
		const root = graph.roots().find((node) => node.label === 'kind-dev');
		assert.equal(root?.tone, 'error');
		assert.equal(root?.description, 'cannot reach · 0 objects');
		assert.deepEqual(changes.changed, [root?.id]);
	});
});

describe('resource graph: sources', () => {
	it('reads the items of a kind: List and announces a root it had to create', () => {
		const graph = new ResourceGraph();
		const changes = graph.upsertObject(
			'ctx',
			'watch',
			{ apiVersion: 'v1', kind: 'List', items: fleetRollout() },
			undefined,
		);
		assert.equal(changes.rootsChanged, true);
		assert.equal(graph.objectCount('ctx'), 8);
		assert.equal(graph.upsertObject('ctx', 'watch', gitRepo('other')).rootsChanged, false);
	});

	it('removing a source of a root that is gone does not bring the root back', () => {
		const graph = new ResourceGraph();
		graph.addRoot('live:wds', 'wds', 'live');
		graph.removeRoot('live:wds');
		const changes = graph.removeSource('live:wds', 'copy:paired:its');
		assert.equal(changes.rootsChanged, false);
		assert.deepEqual(
			graph.roots().map((root) => root.rootId),
			[],
		);
	});

	it('shows copies of objects from another root but does not count their problems again', () => {
		const graph = new ResourceGraph();
		graph.addRoot('live:its', 'its', 'live');
		graph.addRoot('live:wds', 'wds', 'live');
		const failing = {
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'HelmRepository',
			metadata: { name: 'broken', namespace: 'flux-system' },
			spec: { url: 'https://example.com' },
			status: { conditions: [{ type: 'Stalled', status: 'True', reason: 'URLInvalid' }] },
		};
		graph.upsertObject('live:its', 'watch', failing);
		graph.upsertObject('live:wds', 'copy:paired:its', failing);
		assert.equal(graph.problemCount(), 1);
		assert.equal(graph.findNodesForObject('live:wds', objectKeyOf(failing)).length, 1);
		const wds = graph.roots().find((root) => root.rootId === 'live:wds');
		assert.equal(wds?.description, '0 objects + 1 from other contexts');
	});

	it('marks live roots in the context flags', () => {
		const graph = new ResourceGraph();
		graph.addRoot('ctx', 'kind-dev', 'live');
		graph.upsertObject('ctx', 'watch', gitRepo('web', staleReadyGitRepo));
		const node = find(graph, 'kind-dev', 'Fleet', 'GitRepos', 'web');
		assert.equal(node.contextFlags.origin, 'live');
		assert.equal(node.contextFlags.inFile, false);
		assert.equal(node.contextFlags.system, 'fleet');
		assert.equal(node.contextFlags.objectKind, 'GitRepo');
		graph.upsertObject('ctx', 'watch', gitRepo('new'));
		assert.equal(
			find(graph, 'kind-dev', 'Fleet', 'GitRepos', 'new').description,
			'no status yet · fleet-default',
			'a live object was not declared by anyone here: its controller has not written yet',
		);
	});

	it('reads the example workspace into a group for each of its five systems', () => {
		const base = new URL('../../../../examples/workspace/', import.meta.url).pathname;
		const folders: Record<string, string> = {
			fleet: 'Fleet',
			kubestellar: 'KubeStellar',
			harbor: 'Harbor',
			flux: 'Flux',
			aso: 'Azure Service Operator',
		};
		const graph = new ResourceGraph();
		graph.addRoot('ws', 'Workspace manifests');
		const walk = (dir: string): string[] =>
			readdirSync(dir, { withFileTypes: true }).flatMap((item) =>
				item.isDirectory() ? walk(join(dir, item.name)) : [join(dir, item.name)],
			);
		for (const file of walk(base).filter((name) => /\.(ya?ml|json)$/.test(name))) {
			const parsed = parseManifests(readFileSync(file, 'utf8'), { fileName: file });
			graph.setSourceObjects(
				'ws',
				file,
				parsed.objects.map((entry) => ({ object: entry.object, line: entry.range.start.line })),
			);
		}
		assert.deepEqual(readdirSync(base).sort(), Object.keys(folders).sort());
		const systems = labels(graph, find(graph, 'Workspace manifests').id);
		for (const label of Object.values(folders)) {
			assert.ok(systems.includes(label), `${label} missing`);
		}
		assert.doesNotThrow(() => dump(graph));
	});
});

describe('resource graph: filters and order', () => {
	const extra = [
		{
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'HelmRepository',
			metadata: { name: 'web-charts', namespace: 'flux-system', generation: 1 },
			spec: {},
			status: {
				observedGeneration: 1,
				conditions: [{ type: 'Ready', status: 'True', reason: 'Succeeded' }],
			},
		},
	];

	it('keeps only problems and the path to them', () => {
		const graph = graphOf([...fleetRollout(), ...extra]);
		assert.deepEqual(dump(graph, { problemsOnly: true }), [
			'Workspace manifests',
			'  Fleet',
			'    GitRepos',
			'      web',
			'        web-app',
			'          c3',
			'    Clusters',
			'      c3',
			'        web-app',
		]);
	});

	it('filters by namespace and by name, keeping ancestors, and everything below a match', () => {
		const graph = graphOf([...fleetRollout(), ...extra]);
		assert.deepEqual(dump(graph, { namespace: 'flux-system' }), [
			'Workspace manifests',
			'  Flux',
			'    HelmRepositories',
			'      web-charts',
		]);
		const byName = dump(graph, { nameContains: 'C3' });
		assert.deepEqual(byName, [
			'Workspace manifests',
			'  Fleet',
			'    GitRepos',
			'      web',
			'        web-app',
			'          c3',
			'    Clusters',
			'      c3',
			'        web-app',
		]);
		const web = dump(graph, { nameContains: 'web' });
		assert.ok(web.includes('          c1'), 'a matching GitRepo keeps all of its descendants');
		assert.ok(web.includes('      web-charts'));
	});

	it('orders rows by label, not by state, and keeps a row in place when its state changes', () => {
		const graph = graphOf([
			...fleetRollout(['Ready', 'NotReady', 'Modified']),
			cluster('c10'),
			bd('web-app', 'c10', 'Ready'),
		]);
		const bundleId = find(graph, 'Workspace manifests', 'Fleet', 'GitRepos', 'web', 'web-app').id;
		assert.deepEqual(labels(graph, bundleId), ['c1', 'c2', 'c3', 'c10']);
		graph.setSourceObjects(
			'ws',
			'file:///a.yaml',
			[
				...fleetRollout(['NotReady', 'Ready', 'Ready']),
				cluster('c10'),
				bd('web-app', 'c10', 'Ready'),
			].map((object, index) => ({ object, line: index * 10 })),
		);
		assert.deepEqual(labels(graph, bundleId), ['c1', 'c2', 'c3', 'c10']);
		assert.equal(graph.children(bundleId)[0]?.tone, 'progressing');
	});
});

describe('resource graph: incremental updates', () => {
	const unrelated = {
		apiVersion: 'source.toolkit.fluxcd.io/v1',
		kind: 'HelmRepository',
		metadata: { name: 'charts', namespace: 'flux-system', generation: 1 },
		spec: {},
		status: {
			observedGeneration: 1,
			conditions: [{ type: 'Ready', status: 'True', reason: 'Succeeded' }],
		},
	};

	it('keeps the root description counting its objects after the root was shown, and reports the root changed', () => {
		const graph = new ResourceGraph();
		graph.addRoot('w', 'Workspace manifests');
		const harbor = (name: string) => ({
			apiVersion: 'goharbor.io/v1beta1',
			kind: 'HarborCluster',
			metadata: { name, namespace: 'harbor' },
		});
		graph.upsertObject('w', 'a.yaml', harbor('a'));
		const rootId = graph.roots()[0]?.id ?? '';
		assert.equal(graph.node(rootId)?.description, '1 object');
		graph.children(rootId);
		const added = graph.upsertObject('w', 'b.yaml', harbor('b'));
		assert.equal(graph.node(rootId)?.description, '2 objects');
		assert.ok(
			[...added.changed, ...added.structureChanged].includes(rootId),
			'the root is reported',
		);
		const removed = graph.removeSource('w', 'a.yaml');
		assert.equal(graph.node(rootId)?.description, '1 object');
		assert.ok(
			[...removed.changed, ...removed.structureChanged].includes(rootId),
			'the root is reported',
		);
	});

	it('says what a root is doing instead of counting while its first read or sync runs', () => {
		const graph = new ResourceGraph();
		graph.addRoot('live:c', 'c', 'live');
		graph.setRootState('live:c', { tone: 'progressing', message: 'syncing…', partial: true });
		graph.upsertObject('live:c', 'r', {
			apiVersion: 'goharbor.io/v1beta1',
			kind: 'HarborCluster',
			metadata: { name: 'a', namespace: 'harbor' },
		});
		const rootId = graph.roots()[0]?.id ?? '';
		assert.equal(graph.node(rootId)?.description, 'syncing…');
		const ended = graph.setRootState('live:c', undefined);
		assert.equal(graph.node(rootId)?.description, '1 object');
		assert.ok([...ended.changed, ...ended.structureChanged].includes(rootId));
	});

	function everyId(graph: ResourceGraph): string[] {
		const ids: string[] = [];
		const walk = (nodes: readonly TreeNode[]) => {
			for (const node of nodes) {
				ids.push(node.id);
				walk(graph.children(node.id));
			}
		};
		walk(graph.roots());
		return ids;
	}

	it('an update to one BundleDeployment changes exactly its nodes and their ancestors', () => {
		const graph = graphOf([...fleetRollout(['Ready', 'Ready', 'Ready']), unrelated]);
		const key = objectKeyOf(bd('web-app', 'c2', 'Ready'));
		const places = graph.findNodesForObject('ws', key);
		const before = new Map(everyId(graph).map((id) => [id, graph.node(id)]));
		const changes: ChangedNodes = graph.upsertObject(
			'ws',
			'file:///a.yaml',
			bd('web-app', 'c2', 'ErrApplied'),
		);
		const expected = new Set(places.flatMap(prefixes));
		assert.deepEqual([...changes.changed].sort(), [...expected].sort());
		assert.deepEqual(changes.structureChanged, []);
		for (const [id, node] of before) {
			if (!expected.has(id)) {
				assert.equal(graph.node(id), node, `${id} should be the identical node object`);
			} else assert.notEqual(graph.node(id), node, `${id} should be rebuilt`);
		}
		assert.equal(graph.node(places[0] ?? '')?.result?.state, 'ErrApplied');
		// A change that keeps every tone touches only the BD and the parents whose roll-up reads it.
		const quiet = graph.upsertObject(
			'ws',
			'file:///a.yaml',
			bd('web-app', 'c2', 'ErrApplied', 'web', 'timeout'),
		);
		for (const id of quiet.changed) {
			assert.ok(expected.has(id), `${id} is not the BD or an ancestor`);
		}
		assert.ok(quiet.changed.length < expected.size);
	});

	it('adding an object reports the parent whose children changed, not the whole tree', () => {
		const graph = graphOf([...fleetRollout(['Ready', 'Ready', 'Ready']), unrelated]);
		const bundleNode = find(graph, 'Workspace manifests', 'Fleet', 'GitRepos', 'web', 'web-app');
		const changes = graph.upsertObject('ws', 'file:///a.yaml', bd('web-app', 'c4', 'Ready'));
		assert.deepEqual(changes.structureChanged, [bundleNode.id]);
		assert.ok(!changes.changed.some((id) => id.startsWith(`${bundleNode.id}/`)));
		assert.deepEqual(labels(graph, bundleNode.id), ['c1', 'c2', 'c3', 'c4']);
	});

	it('keeps Fleet roll-ups equal to computeFleetRollups while BundleDeployments flip, move between parents and go', () => {
		// Twelve BDs over two Bundles and six Clusters (c6 not registered: its BDs count by label), a HelmOp, a
		// ClusterGroup; no BD has a UID, so the GitRepo orders them by when the graph registered them, as
		// computeFleetRollups orders them by input position: a relabelled BD moves to the end of the input.
		const clusters = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
		const states: BdState[] = ['Ready', 'NotReady', 'ErrApplied', 'Modified'];
		const unregistered = (name: string): Obj => {
			const object = cluster(name, { env: 'prod' });
			delete (object.status as Obj).namespace;
			return object;
		};
		const helmOp: Obj = {
			apiVersion: fleetApi,
			kind: 'HelmOp',
			metadata: { name: 'op', namespace: 'fleet-default' },
			spec: {},
		};
		let objects: Obj[] = [
			gitRepo('web'),
			gitRepo('api'),
			helmOp,
			bundle('web-app', 'web'),
			bundle('api-app', 'web'),
			...clusters.map((name, index) =>
				name === 'c6' ? unregistered(name) : cluster(name, { env: index % 2 ? 'dev' : 'prod' }),
			),
			clusterGroup('prod', { matchLabels: { env: 'prod' } }),
			...clusters.flatMap((name) => [bd('web-app', name, 'Ready'), bd('api-app', name, 'Ready')]),
		];
		const graph = graphOf(objects);
		const isBd = (object: Obj) => object.kind === 'BundleDeployment';
		const check = (step: string) => {
			const expected = computeFleetRollups(objects);
			for (const object of objects) {
				const [id] = graph.findNodesForObject('ws', objectKeyOf(object));
				assert.ok(id, `${step}: no node for ${objectKeyOf(object)}`);
				assert.deepEqual(
					graph.node(id)?.result?.computed,
					expected.get(object),
					`${step}: ${objectKeyOf(object)}`,
				);
			}
		};
		check('first read');
		let seed = 7;
		const next = (below: number) => {
			seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
			return (seed >>> 8) % below;
		};
		const removed: Obj[] = [];
		for (let step = 0; step < 160; step++) {
			const bds = objects.filter(isBd);
			const target = bds[next(bds.length)];
			assert.ok(target, `step ${step}: no BD left`);
			const labelsOf = (object: Obj) => (object.metadata as Obj).labels as Record<string, string>;
			const move = next(10);
			let changed: Obj;
			if (move < 5) {
				// A status update: same labels, another state (often back to one it had).
				changed = structuredClone(target);
				const again = bd('x', 'c1', states[next(states.length)] ?? 'Ready', 'web', `m${next(3)}`);
				changed.status = again.status;
			} else if (move < 8) {
				// A relabel: to another Bundle, Cluster (namespace kept), or from its GitRepo to the HelmOp and back.
				changed = structuredClone(target);
				const labels = labelsOf(changed);
				const which = next(3);
				if (which === 0) {
					labels['fleet.cattle.io/bundle-name'] =
						labels['fleet.cattle.io/bundle-name'] === 'web-app' ? 'api-app' : 'web-app';
				} else if (which === 1) {
					labels['fleet.cattle.io/cluster'] = clusters[next(clusters.length)] ?? 'c1';
				} else if (labels['fleet.cattle.io/repo-name'] === undefined) {
					delete labels['fleet.cattle.io/fleet-helm-name'];
					labels['fleet.cattle.io/repo-name'] = next(2) ? 'web' : 'api';
				} else {
					delete labels['fleet.cattle.io/repo-name'];
					labels['fleet.cattle.io/fleet-helm-name'] = 'op';
				}
			} else if (move < 9 || removed.length === 0) {
				graph.removeObject('ws', 'file:///a.yaml', objectKeyOf(target));
				objects = objects.filter((object) => object !== target);
				removed.push(target);
				check(`step ${step}: removed ${objectKeyOf(target)}`);
				continue;
			} else {
				const back = removed.pop() as Obj;
				graph.upsertObject('ws', 'file:///a.yaml', back);
				objects = [...objects, back];
				check(`step ${step}: added ${objectKeyOf(back)} again`);
				continue;
			}
			graph.upsertObject('ws', 'file:///a.yaml', changed);
			const relabelled = JSON.stringify(labelsOf(changed)) !== JSON.stringify(labelsOf(target));
			const kept = objects.filter((object) => objectKeyOf(object) !== objectKeyOf(changed));
			objects = relabelled
				? [...kept, changed]
				: objects.map((object) => (object === target ? changed : object));
			check(`step ${step}: ${relabelled ? 'moved' : 'updated'} ${objectKeyOf(changed)}`);
		}
	});

	it('a re-read file with the same content changes nothing', () => {
		const objects = fleetRollout();
		const graph = graphOf(objects);
		const again = graph.setSourceObjects(
			'ws',
			'file:///a.yaml',
			structuredClone(objects).map((object, index) => ({ object, line: index * 10 })),
		);
		assert.deepEqual(again, { changed: [], structureChanged: [], rootsChanged: false });
	});
});

describe('a root whose objects the tree does not place', () => {
	it('says none of its objects are of a kind the view shows, instead of counting them above no rows', () => {
		const graph = new ResourceGraph();
		graph.addRoot('live:downstream', 'downstream', 'live');
		const deployment = {
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			metadata: { name: 'frontend', namespace: 'shop' },
		};
		const configMap = {
			apiVersion: 'v1',
			kind: 'ConfigMap',
			metadata: { name: 'c', namespace: 'shop' },
		};
		graph.setSourceObjects('live:downstream', 'objects', [
			{ object: deployment },
			{ object: configMap },
		]);
		const root = graph.roots()[0];
		assert.ok(root);
		assert.deepEqual(graph.children(root.id), []);
		assert.equal(root.description, '2 objects, none of the kinds this view shows');
		// Once something is placed, the root counts as before.
		graph.setSourceObjects('live:downstream', 'more', [
			{
				object: {
					apiVersion: 'source.toolkit.fluxcd.io/v1',
					kind: 'HelmRepository',
					metadata: { name: 'charts', namespace: 'flux-system' },
				},
			},
		]);
		assert.equal(graph.roots()[0]?.description, '3 objects');
	});
});

describe('resource graph: a root that holds only part of its objects', () => {
	it('says so while its state is partial (a first sync), and not once the state is cleared', () => {
		const graph = new ResourceGraph();
		graph.addRoot('live:platform', 'platform', 'live');
		assert.equal(graph.rootIsPartial('live:platform'), false);
		graph.setRootState('live:platform', {
			tone: 'progressing',
			message: 'syncing…',
			partial: true,
		});
		assert.equal(graph.rootIsPartial('live:platform'), true);
		graph.setRootState('live:platform', undefined);
		assert.equal(graph.rootIsPartial('live:platform'), false);
		assert.equal(graph.rootIsPartial('live:gone'), false);
	});
});
