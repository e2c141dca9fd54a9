// Deterministic generators of realistic objects for benchmarks (no randomness: index-derived variety).

const fleetStates = [
	{ applied: 'd1', ready: true, nonModified: true },
	{ applied: 'd1', ready: false, nonModified: true },
	{ applied: 'd0', ready: true, nonModified: true },
	{ applied: 'd1', ready: true, nonModified: false },
] as const;

/** A BundleDeployment of bundle `bundle` on cluster `cluster`, in one of four states. */
export function bundleDeployment(
	index: number,
	bundle: string,
	cluster: string,
): Record<string, unknown> {
	const state = fleetStates[index % fleetStates.length] ?? fleetStates[0];
	return {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'BundleDeployment',
		metadata: {
			name: bundle,
			namespace: `cluster-fleet-default-${cluster}-0123456789ab`,
			uid: `uid-${index}`,
			labels: {
				'fleet.cattle.io/bundle-name': bundle,
				'fleet.cattle.io/bundle-namespace': 'fleet-default',
				'fleet.cattle.io/cluster': cluster,
				'fleet.cattle.io/cluster-namespace': 'fleet-default',
				'fleet.cattle.io/repo-name': `repo-${index % 50}`,
				'fleet.cattle.io/managed': 'true',
			},
		},
		spec: { deploymentID: 'd1', stagedDeploymentID: 'd1' },
		status: {
			appliedDeploymentID: state.applied,
			ready: state.ready,
			nonModified: state.nonModified,
			conditions: [
				{ type: 'Deployed', status: 'True', lastUpdateTime: '2026-11-22T08:00:00Z' },
				{ type: 'Installed', status: 'True', lastUpdateTime: '2026-11-22T08:00:00Z' },
				{
					type: 'Ready',
					status: state.ready ? 'True' : 'False',
					lastUpdateTime: '2026-11-22T08:00:00Z',
					...(state.ready
						? {}
						: { message: 'deployment.apps default/web [progressing] Available: 1/2' }),
				},
			],
			resourceCounts: {
				ready: state.ready ? 3 : 2,
				desiredReady: 3,
				notReady: state.ready ? 0 : 1,
			},
			...(state.ready
				? {}
				: {
						nonReadyStatus: [
							{
								kind: 'Deployment',
								apiVersion: 'apps/v1',
								namespace: 'default',
								name: 'web',
								summary: { state: 'in-progress', transitioning: true, message: ['Available: 1/2'] },
							},
						],
					}),
		},
	};
}

function deployment(index: number): Record<string, unknown> {
	const ready = index % 3 !== 0;
	return {
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: { name: `web-${index}`, namespace: 'default', generation: 2 },
		spec: { replicas: 3 },
		status: {
			observedGeneration: 2,
			replicas: 3,
			updatedReplicas: 3,
			readyReplicas: ready ? 3 : 2,
			availableReplicas: ready ? 3 : 2,
			conditions: [
				{ type: 'Available', status: ready ? 'True' : 'False', reason: 'MinimumReplicasAvailable' },
				{ type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
			],
		},
	};
}

function helmRepository(index: number): Record<string, unknown> {
	return {
		apiVersion: 'source.toolkit.fluxcd.io/v1',
		kind: 'HelmRepository',
		metadata: { name: `repo-${index}`, namespace: 'flux-system', generation: 1 },
		spec: { interval: '5m', url: 'https://charts.example.com' },
		status: {
			observedGeneration: 1,
			conditions: [
				{
					type: 'Ready',
					status: index % 4 ? 'True' : 'False',
					reason: index % 4 ? 'Succeeded' : 'AuthenticationFailed',
					message: 'stored artifact',
				},
				{ type: 'ArtifactInStorage', status: 'True', reason: 'Succeeded' },
			],
		},
	};
}

function asoResource(index: number): Record<string, unknown> {
	return {
		apiVersion: 'resources.azure.com/v1api20200601',
		kind: 'ResourceGroup',
		metadata: { name: `rg-${index}`, namespace: 'default', generation: 1 },
		spec: { location: 'westus' },
		status: {
			conditions: [
				{
					type: 'Ready',
					status: index % 5 ? 'True' : 'False',
					severity: index % 5 ? undefined : 'Warning',
					reason: index % 5 ? 'Succeeded' : 'WaitingForOwner',
					observedGeneration: 1,
				},
			],
		},
	};
}

function harborCluster(index: number): Record<string, unknown> {
	return {
		apiVersion: 'goharbor.io/v1beta1',
		kind: 'HarborCluster',
		metadata: { name: `harbor-${index}`, namespace: 'harbor' },
		status: {
			status: 'healthy',
			conditions: ['StorageReady', 'DatabaseReady', 'CacheReady', 'ServiceReady'].map((type) => ({
				type,
				status: 'True',
			})),
		},
	};
}

function workStatus(index: number): Record<string, unknown> {
	return {
		apiVersion: 'control.kubestellar.io/v1alpha1',
		kind: 'WorkStatus',
		metadata: { name: `ws-${index}`, namespace: `wec${index % 10}` },
		spec: {
			sourceRef: {
				group: 'apps',
				version: 'v1',
				kind: 'Deployment',
				resource: 'deployments',
				name: `web-${index}`,
				namespace: 'default',
			},
		},
		status: {
			replicas: 2,
			readyReplicas: 2,
			availableReplicas: 2,
			updatedReplicas: 2,
			observedGeneration: 1,
		},
	};
}

const makers = [
	(index: number) => bundleDeployment(index, `bundle-${index % 1000}`, `c${index % 100}`),
	deployment,
	helmRepository,
	asoResource,
	harborCluster,
	workStatus,
];

/** `count` objects cycling through the systems. */
export function mixedObjects(count: number): Record<string, unknown>[] {
	const objects: Record<string, unknown>[] = [];
	for (let index = 0; index < count; index++) {
		objects.push((makers[index % makers.length] ?? deployment)(index));
	}
	return objects;
}

/** A value with its object keys sorted at every level, as `kubectl get -o json` writes unstructured objects. */
export function sortedKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sortedKeys);
	if (value === null || typeof value !== 'object') return value;
	const sorted: Record<string, unknown> = {};
	for (const key of Object.keys(value).sort()) {
		const entry = (value as Record<string, unknown>)[key];
		if (entry !== undefined) sorted[key] = sortedKeys(entry);
	}
	return sorted;
}

/** The shape of a real Fleet installation's objects: how many of each, named as Fleet names them. */
export interface FleetShape {
	readonly gitRepos: number;
	readonly clusters: number;
	readonly clusterGroups: number;
}

const timestamp = '2026-11-22T08:00:00Z';

function fleetCondition(type: string, ok: boolean, message?: string): Record<string, unknown> {
	return {
		lastUpdateTime: timestamp,
		status: ok ? 'True' : 'False',
		type,
		...(message === undefined ? {} : { message }),
	};
}

function clusterNamespace(cluster: number): string {
	return `cluster-fleet-default-c-${(cluster * 2654435761).toString(16).slice(-5).padStart(5, '0')}-${cluster.toString(16).padStart(6, '0')}`;
}

/**
 * A whole Fleet installation as `kubectl get gitrepos,bundles,bundledeployments,clusters,clustergroups -A -o json`
 * lists it: GitRepos, then Bundles (one per GitRepo), then a BundleDeployment of each Bundle on each Cluster, then
 * Clusters and ClusterGroups, each object as the controllers write it (status, conditions, display, resources), keys
 * sorted. 250 GitRepos and 400 Clusters give 100,000 BundleDeployments, about 650 bytes each without indentation.
 */
export function realisticFleet(shape: FleetShape): Record<string, unknown>[] {
	const items: Record<string, unknown>[] = [];
	const deploymentId = (repo: number): string =>
		`s-${(repo * 40503).toString(16).padStart(8, '0')}e5f6a7b8c9d0:${(repo * 7919).toString(16).padStart(8, '0')}`;
	// Every seventh Cluster is behind: its BundleDeployments are not ready; every 31st Bundle waits for an apply on
	// half its Clusters.
	const clusterReady = (cluster: number): boolean => cluster % 7 !== 3;
	for (let repo = 0; repo < shape.gitRepos; repo++) {
		const ready = shape.clusters - Math.ceil(shape.clusters / 7);
		items.push({
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'GitRepo',
			metadata: {
				creationTimestamp: timestamp,
				generation: 3,
				name: `app-${repo}`,
				namespace: 'fleet-default',
				resourceVersion: String(1_000_000 + repo),
				uid: `0b1c2d3e-${repo.toString(16).padStart(4, '0')}-4f5a-8b9c-0d1e2f3a4b5c`,
			},
			spec: {
				branch: 'main',
				paths: [`apps/app-${repo}`],
				repo: 'https://git.example.com/platform/fleet-apps.git',
				targets: [{ clusterSelector: { matchLabels: { env: 'prod' } } }],
			},
			status: {
				commit: '4f2a9c1d0e8b7a6c5d4e3f2a1b0c9d8e7f6a5b4c',
				conditions: [
					fleetCondition('Ready', ready === shape.clusters),
					fleetCondition('Accepted', true),
					fleetCondition('Stalled', false),
					fleetCondition('Reconciling', false),
				],
				desiredReadyClusters: shape.clusters,
				display: {
					readyBundleDeployments: `${ready}/${shape.clusters}`,
					state: ready === shape.clusters ? '' : 'NotReady',
				},
				observedGeneration: 3,
				readyClusters: ready,
				resourceCounts: {
					desiredReady: shape.clusters * 3,
					missing: 0,
					modified: 0,
					notReady: (shape.clusters - ready) * 3,
					orphaned: 0,
					ready: ready * 3,
					unknown: 0,
					waitApplied: 0,
				},
				summary: { desiredReady: shape.clusters, notReady: shape.clusters - ready, ready },
			},
		});
	}
	for (let repo = 0; repo < shape.gitRepos; repo++) {
		items.push({
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'Bundle',
			metadata: {
				creationTimestamp: timestamp,
				generation: 2,
				labels: {
					'fleet.cattle.io/commit': '4f2a9c1d0e8b7a6c5d4e3f2a1b0c9d8e7f6a5b4c',
					'fleet.cattle.io/repo-name': `app-${repo}`,
				},
				name: `app-${repo}-apps-app-${repo}`,
				namespace: 'fleet-default',
				resourceVersion: String(2_000_000 + repo),
				uid: `1c2d3e4f-${repo.toString(16).padStart(4, '0')}-4a5b-9c0d-1e2f3a4b5c6d`,
			},
			spec: {
				defaultNamespace: `app-${repo}`,
				resources: [
					{ content: 'apiVersion: apps/v1\nkind: Deployment\n', name: 'deployment.yaml' },
				],
				targets: [{ clusterSelector: { matchLabels: { env: 'prod' } } }],
			},
			status: {
				conditions: [fleetCondition('Ready', true)],
				display: { readyClusters: `${shape.clusters}/${shape.clusters}` },
				maxNew: 50,
				observedGeneration: 2,
				resourceKey: [
					{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: `app-${repo}` },
					{ apiVersion: 'v1', kind: 'Service', name: 'web', namespace: `app-${repo}` },
					{ apiVersion: 'v1', kind: 'ConfigMap', name: 'web-config', namespace: `app-${repo}` },
				],
				summary: { desiredReady: shape.clusters, ready: shape.clusters },
			},
		});
	}
	for (let repo = 0; repo < shape.gitRepos; repo++) {
		for (let cluster = 0; cluster < shape.clusters; cluster++) {
			const ready = clusterReady(cluster);
			const applied =
				repo % 31 === 5 && cluster % 2 === 0 ? deploymentId(repo - 1) : deploymentId(repo);
			items.push({
				apiVersion: 'fleet.cattle.io/v1alpha1',
				kind: 'BundleDeployment',
				metadata: {
					creationTimestamp: timestamp,
					generation: 4,
					labels: {
						'fleet.cattle.io/bundle-name': `app-${repo}-apps-app-${repo}`,
						'fleet.cattle.io/bundle-namespace': 'fleet-default',
						'fleet.cattle.io/cluster': `c-${cluster}`,
						'fleet.cattle.io/cluster-namespace': 'fleet-default',
						'fleet.cattle.io/managed': 'true',
						'fleet.cattle.io/repo-name': `app-${repo}`,
					},
					name: `app-${repo}-apps-app-${repo}`,
					namespace: clusterNamespace(cluster),
					resourceVersion: String(3_000_000 + repo * shape.clusters + cluster),
					uid: `2d3e4f5a-${repo.toString(16).padStart(4, '0')}-4b6c-a${cluster.toString(16).padStart(3, '0')}-2e3f4a5b6c7d`,
				},
				spec: {
					deploymentID: deploymentId(repo),
					options: { defaultNamespace: `app-${repo}` },
					stagedDeploymentID: deploymentId(repo),
					stagedOptions: { defaultNamespace: `app-${repo}` },
				},
				status: {
					appliedDeploymentID: applied,
					conditions: [
						fleetCondition(
							'Ready',
							ready,
							ready ? undefined : `deployment.apps app-${repo}/web [progressing] Available: 1/2`,
						),
						fleetCondition('Deployed', true),
					],
					display: { deployed: 'Yes', monitored: 'Yes', state: ready ? 'Ready' : 'NotReady' },
					ready,
					nonModified: true,
					...(ready
						? {}
						: {
								nonReadyStatus: [
									{
										apiVersion: 'apps/v1',
										kind: 'Deployment',
										name: 'web',
										namespace: `app-${repo}`,
										summary: {
											message: ['Available: 1/2'],
											state: 'in-progress',
											transitioning: true,
										},
										uid: `9e8d7c6b-${cluster.toString(16).padStart(4, '0')}-4a3b-8c2d-1e0f9a8b7c6d`,
									},
								],
							}),
					resourceCounts: {
						desiredReady: 3,
						notReady: ready ? 0 : 1,
						ready: ready ? 3 : 2,
					},
					syncGeneration: 0,
				},
			});
		}
	}
	for (let cluster = 0; cluster < shape.clusters; cluster++) {
		const ready = clusterReady(cluster);
		items.push({
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'Cluster',
			metadata: {
				creationTimestamp: timestamp,
				generation: 2,
				labels: {
					env: 'prod',
					region: `region-${cluster % 8}`,
					'management.cattle.io/cluster-name': `c-${cluster}`,
				},
				name: `c-${cluster}`,
				namespace: 'fleet-default',
				resourceVersion: String(4_000_000 + cluster),
				uid: `3e4f5a6b-${cluster.toString(16).padStart(4, '0')}-4c7d-b8e9-3f4a5b6c7d8e`,
			},
			spec: { agentNamespace: 'cattle-fleet-system', kubeConfigSecret: `c-${cluster}-kubeconfig` },
			status: {
				agent: { lastSeen: timestamp, namespace: 'cattle-fleet-system' },
				agentDeployedGeneration: 2,
				agentMigrated: true,
				agentNamespaceMigrated: true,
				conditions: [fleetCondition('Ready', ready), fleetCondition('Processed', true)],
				desiredReadyGitRepos: shape.gitRepos,
				display: {
					readyBundles: `${ready ? shape.gitRepos : 0}/${shape.gitRepos}`,
					state: ready ? '' : 'NotReady',
				},
				namespace: clusterNamespace(cluster),
				readyGitRepos: ready ? shape.gitRepos : 0,
				resourceCounts: {
					desiredReady: shape.gitRepos * 3,
					notReady: ready ? 0 : shape.gitRepos,
					ready: ready ? shape.gitRepos * 3 : shape.gitRepos * 2,
				},
				summary: {
					desiredReady: shape.gitRepos,
					notReady: ready ? 0 : shape.gitRepos,
					ready: ready ? shape.gitRepos : 0,
				},
			},
		});
	}
	for (let group = 0; group < shape.clusterGroups; group++) {
		items.push({
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'ClusterGroup',
			metadata: {
				creationTimestamp: timestamp,
				generation: 1,
				name: `region-${group}`,
				namespace: 'fleet-default',
				resourceVersion: String(5_000_000 + group),
				uid: `4f5a6b7c-${group.toString(16).padStart(4, '0')}-4d8e-c9fa-4a5b6c7d8e9f`,
			},
			spec: { selector: { matchLabels: { region: `region-${group}` } } },
			status: { clusterCount: Math.ceil(shape.clusters / 8), display: { readyClusters: '' } },
		});
	}
	return items.map((item) => sortedKeys(item) as Record<string, unknown>);
}
