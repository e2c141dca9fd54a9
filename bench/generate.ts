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
