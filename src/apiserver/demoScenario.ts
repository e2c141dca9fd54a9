// The demo cluster's timeline: what changes, on which "cluster", how many seconds into a round. Each round starts
// from the objects under examples/cluster/<cluster>/ and tells one story per system:
// - fleet-mgmt: the GitRepo "shop" gets a new commit, which rolls out cluster by cluster; prod-us-1 rejects the
//   frontend's upgrade (ErrApplied) and someone edits a ConfigMap on staging-1 by hand (Modified); two clusters are
//   relabelled and the bundle sensors-agent moves from edge-eu-1 to lab-1. A stand-in for Fleet's controllers writes
//   the Bundle, GitRepo, Cluster and ClusterGroup statuses after every change.
// - kubestellar-wds / kubestellar-its: the nginx Deployment gets a new image in the WDS; the WorkStatus objects
//   in the ITS follow on cluster1, then cluster2; cluster3 stays short of a replica. A stand-in for KubeStellar's
//   status controller writes the merged status into the WDS Deployment after every change.
// - platform: the HarborCluster "harbor" comes up condition by condition; Flux fetches a new commit, applies it,
//   fails a HelmRelease upgrade and rolls it back; an ASO StorageAccount finishes provisioning.

import { checkFleetDependencies } from './fleetAgent.ts';
import { reconcileFleet } from './fleetController.ts';
import { reconcileKubestellarStatus } from './kubestellarController.ts';
import { cloneJson, isJsonObject, type Json, type JsonObject } from './patch.ts';
import type { ScenarioStep } from './scenario.ts';
import { metadataOf, type KubeObject, type ObjectStore } from './store.ts';

/** One "cluster" of the demo: a server of its own, a kubeconfig context and its story. */
export interface DemoCluster {
	/** The kubeconfig context (and cluster and user) name. */
	readonly name: string;
	/** The API groups it serves ('' is core). */
	readonly groups: readonly string[];
	/** Its starting objects, under examples/cluster/. */
	readonly folder: string;
	/** The context's namespace. */
	readonly namespace: string;
	/** Its timeline; `stores` gives the other clusters' stores by name (the ITS follows the WDS). */
	readonly timeline: (stores: ReadonlyMap<string, ObjectStore>) => readonly ScenarioStep[];
	/** Runs after the objects are loaded and after every restore (e.g. the Fleet roll-ups). */
	readonly settle?: (store: ObjectStore) => void;
}

/** A round's length: every cluster's timeline restarts together. */
export const demoRoundMs = 45_000;

function now(): string {
	return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function text(value: Json | undefined): string {
	return typeof value === 'string' ? value : '';
}

function record(value: Json | undefined): JsonObject {
	return isJsonObject(value) ? value : {};
}

/** Changes a stored object through a function of its current content (spec and status alike). */
function edit(store: ObjectStore, ref: KubeObject, change: (object: KubeObject) => void): void {
	const current = store.find(ref);
	if (current === undefined) return;
	const next = cloneJson(current);
	change(next);
	store.put(next);
}

function ref(
	apiVersion: string,
	kind: string,
	namespace: string | undefined,
	name: string,
): KubeObject {
	return {
		apiVersion,
		kind,
		metadata: { name, ...(namespace === undefined ? {} : { namespace }) },
	};
}

// Fleet -----------------------------------------------------------------------------------------------------------

const fleet = 'fleet.cattle.io/v1alpha1';
const newCommit = '7a3c9e1f5b2d8a4c6e0f1b3d5a7c9e2f4b6d8a0c';
const newIds: Readonly<Record<string, string>> = {
	'shop-frontend': 's-5e1c0d9f4b2a7e6c3d8f1a0b9c2e4d6f8a1b3c5d7e9f0a2b4c6d8e0f1a3b:9d7e5c3b1a',
	'shop-cache': 's-9a7b5c3d1e0f2a4b6c8d0e1f3a5b7c9d1e3f5a7b9c0d2e4f6a8b0c1d3e5f:2e4c6a8f0d',
};
const clusterNamespaces: Readonly<Record<string, string>> = {
	'prod-eu-1': 'cluster-fleet-default-prod-eu-1-eb998a50c712',
	'prod-us-1': 'cluster-fleet-default-prod-us-1-04523fc383a2',
	'staging-1': 'cluster-fleet-default-staging-1-ab9dec26139f',
};
const upgradeError =
	'failed to upgrade "shop-frontend": cannot patch "frontend" with kind Deployment: Deployment.apps "frontend" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "4": must be less than or equal to cpu limit of 2';

type BdPhase = 'Staged' | 'NotReady' | 'Ready' | 'ErrApplied' | 'Modified';

function condition(type: string, status: string, message?: string, reason?: string): JsonObject {
	return {
		type,
		status,
		...(reason === undefined ? {} : { reason }),
		...(message === undefined ? {} : { message }),
		lastUpdateTime: now(),
	};
}

/** A BundleDeployment's status in a phase, as the Fleet agent writes it. */
function setBdPhase(bd: KubeObject, phase: BdPhase): void {
	const spec = record(bd.spec);
	const status = record(bd.status);
	const resources = Array.isArray(status.resources) ? status.resources : [];
	const count = resources.length;
	const first = record(resources[0]);
	const counts = (ready: number, extra: JsonObject = {}): JsonObject => ({
		desiredReady: count,
		missing: 0,
		modified: 0,
		notReady: 0,
		orphaned: 0,
		ready,
		unknown: 0,
		waitApplied: 0,
		...extra,
	});
	delete status.nonReadyStatus;
	delete status.modifiedStatus;
	switch (phase) {
		case 'Staged':
			// The agent has not applied the new deployment ID yet: state WaitApplied.
			status.display = { ...record(status.display), state: 'WaitApplied' };
			break;
		case 'NotReady':
			status.appliedDeploymentID = spec.deploymentID ?? '';
			status.ready = false;
			status.nonModified = true;
			status.conditions = [
				condition('Installed', 'True'),
				condition('Deployed', 'True'),
				condition('Monitored', 'True'),
				condition(
					'Ready',
					'False',
					`${text(first.kind)} ${text(first.namespace)}/${text(first.name)} is not ready`,
				),
			];
			status.nonReadyStatus = [
				{
					apiVersion: first.apiVersion ?? 'v1',
					kind: first.kind ?? '',
					name: first.name ?? '',
					namespace: first.namespace ?? '',
					summary: { state: 'in-progress', transitioning: true, message: ['Available: 0/1'] },
				},
			];
			status.resourceCounts = counts(count - 1, { notReady: 1 });
			status.display = { deployed: 'True', monitored: 'True', state: 'NotReady' };
			break;
		case 'Ready':
		case 'Modified':
			status.appliedDeploymentID = spec.deploymentID ?? '';
			status.ready = true;
			status.nonModified = phase === 'Ready';
			status.conditions = ['Installed', 'Deployed', 'Monitored', 'Ready'].map((type) =>
				condition(type, 'True'),
			);
			if (phase === 'Modified') {
				status.modifiedStatus = [
					{
						apiVersion: 'v1',
						kind: 'ConfigMap',
						name: 'frontend-config',
						namespace: 'shop',
						patch: '{"data":{"LOG_LEVEL":"debug"}}',
					},
				];
			}
			status.resourceCounts =
				phase === 'Ready' ? counts(count) : counts(count - 1, { modified: 1 });
			status.display = { deployed: 'True', monitored: 'True', state: phase };
			break;
		case 'ErrApplied':
			status.ready = false;
			status.conditions = [
				condition('Installed', 'True'),
				condition('Deployed', 'False', upgradeError, 'Error'),
				condition('Monitored', 'True'),
				condition('Ready', 'False', upgradeError, 'Error'),
			];
			status.display = {
				deployed: `Error: ${upgradeError}`,
				monitored: 'True',
				state: 'ErrApplied',
			};
			break;
	}
	bd.status = status;
}

function bdRef(bundle: string, cluster: string): KubeObject {
	return ref(fleet, 'BundleDeployment', clusterNamespaces[cluster], bundle);
}

/** A step that moves BundleDeployments to phases, then lets the stand-in controllers roll them up. */
function bdStep(
	at: number,
	description: string,
	moves: readonly [string, string, BdPhase][],
): ScenarioStep {
	return {
		at,
		description,
		action: {
			kind: 'run',
			run(store) {
				for (const [bundle, cluster, phase] of moves) {
					edit(store, bdRef(bundle, cluster), (bd) => setBdPhase(bd, phase));
				}
				reconcileFleet(store);
			},
		},
	};
}

const shopBundles = ['shop-frontend', 'shop-cache'] as const;
const shopClusters = ['prod-eu-1', 'prod-us-1', 'staging-1'] as const;

function fleetTimeline(): readonly ScenarioStep[] {
	return [
		{
			at: 0,
			description: 'Fleet roll-ups of the starting state',
			action: {
				kind: 'run',
				run(store) {
					checkFleetDependencies(store);
					reconcileFleet(store);
				},
			},
		},
		{
			at: 3000,
			description: 'GitRepo shop: new commit, the git job runs',
			action: {
				kind: 'run',
				run(store) {
					edit(store, ref(fleet, 'GitRepo', 'fleet-default', 'shop'), (gitRepo) => {
						gitRepo.status = {
							...record(gitRepo.status),
							commit: newCommit,
							gitJobStatus: 'Running',
							lastPollingTriggered: now(),
						};
					});
					reconcileFleet(store);
				},
			},
		},
		{
			at: 6000,
			description: 'Bundles of the new commit are staged on every cluster',
			action: {
				kind: 'run',
				run(store) {
					edit(store, ref(fleet, 'GitRepo', 'fleet-default', 'shop'), (gitRepo) => {
						gitRepo.status = { ...record(gitRepo.status), gitJobStatus: 'Current' };
					});
					for (const bundle of shopBundles) {
						edit(store, ref(fleet, 'Bundle', 'fleet-default', bundle), (object) => {
							const meta = metadataOf(object);
							meta.labels = { ...record(meta.labels), 'fleet.cattle.io/commit': newCommit };
						});
						for (const cluster of shopClusters) {
							edit(store, bdRef(bundle, cluster), (bd) => {
								const id = newIds[bundle] ?? '';
								bd.spec = { ...record(bd.spec), deploymentID: id, stagedDeploymentID: id };
								const meta = metadataOf(bd);
								meta.labels = { ...record(meta.labels), 'fleet.cattle.io/commit': newCommit };
								setBdPhase(bd, 'Staged');
							});
						}
					}
					reconcileFleet(store);
				},
			},
		},
		bdStep(9000, 'prod-eu-1 applies the new commit', [
			['shop-frontend', 'prod-eu-1', 'NotReady'],
			['shop-cache', 'prod-eu-1', 'NotReady'],
		]),
		bdStep(12_000, 'prod-eu-1 is ready; staging-1 applies', [
			['shop-frontend', 'prod-eu-1', 'Ready'],
			['shop-cache', 'prod-eu-1', 'Ready'],
			['shop-frontend', 'staging-1', 'NotReady'],
			['shop-cache', 'staging-1', 'NotReady'],
		]),
		bdStep(15_000, 'staging-1 is ready; prod-us-1 rejects the frontend upgrade', [
			['shop-frontend', 'staging-1', 'Ready'],
			['shop-cache', 'staging-1', 'Ready'],
			['shop-cache', 'prod-us-1', 'Ready'],
			['shop-frontend', 'prod-us-1', 'ErrApplied'],
		]),
		bdStep(24_000, 'someone edits frontend-config on staging-1 by hand', [
			['shop-frontend', 'staging-1', 'Modified'],
		]),
		...sensorsMoveSteps(),
		ticketsDbStep(30_000, 'the storage quota on local is raised: tickets-db installs', false),
		ticketsDbStep(
			37_000,
			'tickets-db is ready on local; the agent applies tickets-api, which waited for it',
			true,
		),
	];
}

const sensorsBdOnEdgeEu = ref(
	fleet,
	'BundleDeployment',
	'cluster-fleet-edge-edge-eu-1-3c5e7a9b1d2f',
	'sensors-agent',
);

/** A Fleet Cluster's labels, changed as someone relabels it. */
function relabel(store: ObjectStore, namespace: string, name: string, env: string): void {
	edit(store, ref(fleet, 'Cluster', namespace, name), (cluster) => {
		const meta = metadataOf(cluster);
		meta.labels = { ...record(meta.labels), env };
	});
}

/**
 * Someone relabels two clusters: lab-1 joins the edge, edge-eu-1 is retired. The sensors-agent bundle moves: the
 * controller creates its BundleDeployment on lab-1 at once and removes the one on edge-eu-1 three seconds later (in
 * between, that one is stale: no target reaches its cluster any more).
 */
function sensorsMoveSteps(): ScenarioStep[] {
	return [
		{
			at: 19_000,
			description: 'lab-1 is relabelled env=edge and edge-eu-1 env=retired: sensors-agent moves',
			action: {
				kind: 'run',
				run(store) {
					relabel(store, 'fleet-lab', 'lab-1', 'edge');
					relabel(store, 'fleet-edge', 'edge-eu-1', 'retired');
					const current = store.find(sensorsBdOnEdgeEu);
					if (current !== undefined) {
						const moved = cloneJson(current);
						const meta = metadataOf(moved);
						meta.namespace = 'cluster-fleet-lab-lab-1-5e7a9c1d3f4b';
						meta.labels = {
							...record(meta.labels),
							'fleet.cattle.io/cluster': 'lab-1',
							'fleet.cattle.io/cluster-namespace': 'fleet-lab',
						};
						delete meta.uid;
						delete meta.creationTimestamp;
						// Not customized by gold on lab-1 (no tier label): the default options.
						const options = { defaultNamespace: 'sensors' };
						moved.spec = { ...record(moved.spec), options, stagedOptions: options };
						setBdPhase(moved, 'NotReady');
						store.put(moved);
					}
					reconcileFleet(store);
				},
			},
		},
		{
			at: 22_000,
			description:
				'the stale BundleDeployment on edge-eu-1 is removed; sensors-agent is ready on lab-1',
			action: {
				kind: 'run',
				run(store) {
					store.deleteObject(sensorsBdOnEdgeEu);
					edit(
						store,
						ref(fleet, 'BundleDeployment', 'cluster-fleet-lab-lab-1-5e7a9c1d3f4b', 'sensors-agent'),
						(bd) => setBdPhase(bd, 'Ready'),
					);
					reconcileFleet(store);
				},
			},
		},
	];
}

const ticketsDb = ref(
	fleet,
	'BundleDeployment',
	'cluster-fleet-local-local-1a3d67d0a899',
	'tickets-db',
);

/** tickets-db installs on local (its StatefulSet starting, then ready); the agent re-checks tickets-api's dependsOn. */
function ticketsDbStep(at: number, description: string, ready: boolean): ScenarioStep {
	return {
		at,
		description,
		action: {
			kind: 'run',
			run(store) {
				edit(store, ticketsDb, (bd) => {
					const status = record(bd.status);
					status.appliedDeploymentID = record(bd.spec).deploymentID ?? '';
					status.ready = ready;
					status.nonModified = true;
					status.conditions = [
						condition('Installed', 'True'),
						condition('Deployed', 'True'),
						condition('Monitored', 'True'),
						ready
							? condition('Ready', 'True')
							: condition('Ready', 'False', statefulSetStarting, 'Error'),
					];
					if (ready) delete status.nonReadyStatus;
					else {
						status.nonReadyStatus = [
							{
								apiVersion: 'apps/v1',
								kind: 'StatefulSet',
								name: 'postgres',
								namespace: 'tickets',
								summary: { state: 'in-progress', transitioning: true, message: [replicasNotReady] },
							},
						];
					}
					status.display = {
						deployed: 'True',
						monitored: 'True',
						state: ready ? 'Ready' : 'NotReady',
					};
					bd.status = status;
				});
				checkFleetDependencies(store);
				reconcileFleet(store);
			},
		},
	};
}

const replicasNotReady = 'Ready: 0/1';
const statefulSetStarting = `statefulset.apps tickets/postgres [progressing] ${replicasNotReady}`;

// KubeStellar ------------------------------------------------------------------------------------------------------

const wdsDeployment = ref('apps/v1', 'Deployment', 'nginx', 'nginx');
const wecs = [
	['cluster1', '6f1c2a4e-5b7d-4c1e-9a3f-0d2b8e7c6a51'],
	['cluster2', 'a93e7d10-2c4b-4f8e-b6d1-7e5a3c9f2b08'],
	['cluster3', 'c4d58b2f-8e1a-4b7c-a2f6-5d9e0b3c7a14'],
] as const;

type WecPhase = 'Progressing' | 'Available' | 'ShortOfAReplica' | 'DeadlineExceeded';

function deploymentConditions(phase: WecPhase): JsonObject[] {
	const stamp = now();
	const available =
		phase === 'ShortOfAReplica' || phase === 'DeadlineExceeded'
			? {
					status: 'False',
					reason: 'MinimumReplicasUnavailable',
					message: 'Deployment does not have minimum availability.',
				}
			: {
					status: 'True',
					reason: 'MinimumReplicasAvailable',
					message: 'Deployment has minimum availability.',
				};
	const progressing =
		phase === 'Available'
			? {
					status: 'True',
					reason: 'NewReplicaSetAvailable',
					message: 'ReplicaSet "nginx-7c9d5f8b4" has successfully progressed.',
				}
			: phase === 'DeadlineExceeded'
				? {
						status: 'False',
						reason: 'ProgressDeadlineExceeded',
						message: 'ReplicaSet "nginx-7c9d5f8b4" has timed out progressing.',
					}
				: {
						status: 'True',
						reason: 'ReplicaSetUpdated',
						message: 'ReplicaSet "nginx-7c9d5f8b4" is progressing.',
					};
	return [
		{ type: 'Available', ...available, lastUpdateTime: stamp, lastTransitionTime: stamp },
		{ type: 'Progressing', ...progressing, lastUpdateTime: stamp, lastTransitionTime: stamp },
	];
}

/** A step that moves WEC copies of the WDS Deployment (their WorkStatus objects) to the WDS's generation. */
function wecStep(
	at: number,
	description: string,
	wds: ObjectStore | undefined,
	moves: readonly [string, WecPhase][],
): ScenarioStep {
	return {
		at,
		description,
		action: {
			kind: 'run',
			run(store) {
				const generationValue =
					wds === undefined ? undefined : metadataOf(wds.find(wdsDeployment) ?? {}).generation;
				const generation = typeof generationValue === 'number' ? generationValue : 2;
				for (const [wec, phase] of moves) {
					const uid = wecs.find(([name]) => name === wec)?.[1] ?? '';
					edit(
						store,
						ref(
							'control.kubestellar.io/v1alpha1',
							'WorkStatus',
							wec,
							`${uid}-appsv1-deployment-nginx-nginx`,
						),
						(ws) => {
							const ready = phase === 'Available' ? 2 : 1;
							ws.status = {
								observedGeneration: generation,
								replicas: phase === 'Progressing' ? 3 : 2,
								updatedReplicas: phase === 'Progressing' ? 1 : 2,
								readyReplicas: ready,
								availableReplicas: ready,
								...(ready < 2 ? { unavailableReplicas: 2 - ready } : {}),
								conditions: deploymentConditions(phase),
							};
							ws.statusDetails = {
								lastGeneration: generation,
								lastGenerationIsApplied: true,
								lastCurrencyUpdateTime: now(),
							};
						},
					);
				}
				if (wds !== undefined) reconcileKubestellarStatus(wds, store);
			},
		},
	};
}

function wdsTimeline(): readonly ScenarioStep[] {
	return [
		{
			at: 4000,
			description: 'nginx gets a new image in the WDS',
			action: {
				kind: 'patch',
				ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'nginx', name: 'nginx' },
				patchType: 'strategic',
				patch: {
					spec: {
						template: {
							spec: { containers: [{ name: 'nginx', image: 'public.ecr.aws/nginx/nginx:1.28' }] },
						},
					},
				},
			},
		},
	];
}

function itsTimeline(stores: ReadonlyMap<string, ObjectStore>): readonly ScenarioStep[] {
	const wds = stores.get('kubestellar-wds');
	return [
		{
			at: 1000,
			description: "KubeStellar's status controller merges the WECs' statuses into the WDS",
			action: {
				kind: 'run',
				run(store) {
					if (wds !== undefined) reconcileKubestellarStatus(wds, store);
				},
			},
		},
		wecStep(7000, 'cluster1 rolls out the new image', wds, [['cluster1', 'Progressing']]),
		wecStep(10_000, 'cluster1 is available; cluster2 rolls out', wds, [
			['cluster1', 'Available'],
			['cluster2', 'Progressing'],
		]),
		wecStep(13_000, 'cluster2 is available; cluster3 rolls out', wds, [
			['cluster2', 'Available'],
			['cluster3', 'Progressing'],
		]),
		wecStep(17_000, 'cluster3 is short of a replica', wds, [['cluster3', 'ShortOfAReplica']]),
		wecStep(30_000, 'cluster3 exceeds its progress deadline', wds, [
			['cluster3', 'DeadlineExceeded'],
		]),
	];
}

// Platform: Harbor, Flux, ASO ----------------------------------------------------------------------------------------

const harbor = ref('goharbor.io/v1beta1', 'HarborCluster', 'harbor-system', 'harbor');

function harborCondition(type: string, reason: string, message: string): JsonObject {
	return { type, status: 'True', reason, message, lastTransitionTime: now() };
}

function harborStep(
	at: number,
	description: string,
	conditions: readonly JsonObject[],
	state?: string,
): ScenarioStep {
	return {
		at,
		description,
		action: {
			kind: 'run',
			run(store) {
				edit(store, harbor, (object) => {
					const status = record(object.status);
					const list = Array.isArray(status.conditions) ? [...status.conditions] : [];
					for (const update of conditions) {
						const index = list.findIndex(
							(entry) => isJsonObject(entry) && entry.type === update.type,
						);
						if (index >= 0) list[index] = update;
						else list.push(update);
					}
					object.status = {
						...status,
						conditions: list,
						...(state === undefined ? {} : { status: state }),
					};
				});
			},
		},
	};
}

function fluxCondition(
	type: string,
	status: string,
	reason: string,
	message: string,
	generation: number,
): JsonObject {
	return {
		type,
		status,
		reason,
		message,
		observedGeneration: generation,
		lastTransitionTime: now(),
	};
}

const newRevision = 'main@sha1:9e7c5a3f1d8b6e4c2a0f9d7b5e3c1a8f6d4b2e0c';

function statusStep(
	at: number,
	description: string,
	target: KubeObject,
	status: (current: JsonObject) => JsonObject,
): ScenarioStep {
	return {
		at,
		description,
		action: {
			kind: 'run',
			run(store) {
				edit(store, target, (object) => {
					object.status = status(record(object.status));
				});
			},
		},
	};
}

const gitRepository = ref(
	'source.toolkit.fluxcd.io/v1',
	'GitRepository',
	'flux-system',
	'flux-system',
);
const kustomization = ref('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', 'flux-system', 'apps');
/**
 * What kustomize-controller records it applied (status.inventory): each entry's id is
 * `<namespace>_<name>_<group>_<kind>` and `v` its version (fluxcd/cli-utils ObjMetadata, as Flux writes it).
 */
const appsInventory: JsonObject = {
	entries: [
		{ id: 'flux-system_podinfo_source.toolkit.fluxcd.io_HelmRepository', v: 'v1' },
		{ id: 'apps_podinfo_helm.toolkit.fluxcd.io_HelmRelease', v: 'v2' },
	],
};
const helmRelease = ref('helm.toolkit.fluxcd.io/v2', 'HelmRelease', 'apps', 'podinfo');
const storageAccount = ref(
	'storage.azure.com/v1api20230101',
	'StorageAccount',
	'default',
	'asodemostorage',
);

function platformTimeline(): readonly ScenarioStep[] {
	return [
		harborStep(3000, 'Harbor: MinIO is ready', [
			harborCondition('StorageReady', 'MinIOReady', 'MinIO tenant is ready'),
		]),
		statusStep(4000, 'Flux: the source fetches a new commit', gitRepository, (status) => ({
			...status,
			artifact: { ...record(status.artifact), revision: newRevision, lastUpdateTime: now() },
			conditions: [
				fluxCondition(
					'Ready',
					'True',
					'Succeeded',
					`stored artifact for revision '${newRevision}'`,
					1,
				),
				fluxCondition(
					'ArtifactInStorage',
					'True',
					'Succeeded',
					`stored artifact for revision '${newRevision}'`,
					1,
				),
			],
		})),
		statusStep(
			5000,
			'Flux: the Kustomization applies the new revision',
			kustomization,
			(status) => ({
				...status,
				lastAttemptedRevision: newRevision,
				conditions: [
					fluxCondition(
						'Reconciling',
						'True',
						'Progressing',
						`Building manifests for revision ${newRevision}`,
						1,
					),
					fluxCondition('Ready', 'Unknown', 'Progressing', 'Reconciliation in progress', 1),
				],
			}),
		),
		harborStep(6000, 'Harbor: PostgreSQL is ready', [
			harborCondition('DatabaseReady', 'PostgreSQLReady', 'PostgreSQL cluster is ready'),
		]),
		{
			at: 7000,
			description: 'Flux: the new revision bumps the podinfo chart',
			action: {
				kind: 'patch',
				ref: {
					apiVersion: 'helm.toolkit.fluxcd.io/v2',
					kind: 'HelmRelease',
					namespace: 'apps',
					name: 'podinfo',
				},
				patch: { spec: { chart: { spec: { version: '6.7.1' } } } },
			},
		},
		statusStep(8000, 'Flux: the Kustomization is ready', kustomization, (status) => ({
			...status,
			lastAppliedRevision: newRevision,
			inventory: appsInventory,
			conditions: [
				fluxCondition(
					'Ready',
					'True',
					'ReconciliationSucceeded',
					`Applied revision: ${newRevision}`,
					1,
				),
			],
		})),
		statusStep(9000, 'Flux: the HelmRelease upgrade starts', helmRelease, (status) => ({
			...status,
			lastAttemptedRevision: '6.7.1',
			conditions: [
				fluxCondition(
					'Reconciling',
					'True',
					'Progressing',
					"Running 'upgrade' action with timeout of 5m0s",
					2,
				),
				fluxCondition(
					'Ready',
					'Unknown',
					'Progressing',
					"Running 'upgrade' action with timeout of 5m0s",
					2,
				),
				fluxCondition(
					'Released',
					'True',
					'InstallSucceeded',
					'Helm install succeeded for release apps/podinfo.v1 with chart podinfo@6.7.0',
					1,
				),
			],
		})),
		harborStep(9000, 'Harbor: Redis is ready', [
			harborCondition('CacheReady', 'RedisReady', 'Redis failover is ready'),
		]),
		statusStep(10_000, 'ASO: the storage account is provisioned', storageAccount, (status) => ({
			...status,
			id: '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/aso-demo-rg/providers/Microsoft.Storage/storageAccounts/asodemostorage',
			conditions: [
				{
					type: 'Ready',
					status: 'True',
					reason: 'Succeeded',
					observedGeneration: 1,
					lastTransitionTime: now(),
				},
			],
		})),
		harborStep(12_000, 'Harbor: the Harbor services are ready', [
			harborCondition('ServiceReady', 'HarborReady', 'Harbor components are ready'),
		]),
		statusStep(14_000, 'Flux: the HelmRelease upgrade fails', helmRelease, (status) => ({
			...status,
			observedGeneration: 2,
			failures: 1,
			upgradeFailures: 1,
			conditions: [
				fluxCondition(
					'Stalled',
					'False',
					'RetriesLeft',
					'Helm upgrade failed; retrying with rollback remediation',
					2,
				),
				fluxCondition(
					'Ready',
					'False',
					'UpgradeFailed',
					'Helm upgrade failed for release apps/podinfo with chart podinfo@6.7.1: context deadline exceeded',
					2,
				),
				fluxCondition(
					'Released',
					'False',
					'UpgradeFailed',
					'Helm upgrade failed for release apps/podinfo with chart podinfo@6.7.1: context deadline exceeded',
					2,
				),
			],
		})),
		harborStep(
			15_000,
			'Harbor: configured and healthy',
			[
				harborCondition(
					'ConfigurationReady',
					'ConfigurationApplied',
					'Harbor configuration is applied',
				),
			],
			'healthy',
		),
		statusStep(22_000, 'Flux: the failed upgrade is rolled back', helmRelease, (status) => ({
			...status,
			observedGeneration: 2,
			conditions: [
				fluxCondition(
					'Ready',
					'False',
					'RollbackSucceeded',
					'Helm rollback to previous release apps/podinfo.v1 with chart podinfo@6.7.0 succeeded',
					2,
				),
				fluxCondition(
					'Released',
					'False',
					'UpgradeFailed',
					'Helm upgrade failed for release apps/podinfo with chart podinfo@6.7.1: context deadline exceeded',
					2,
				),
				fluxCondition(
					'Remediated',
					'True',
					'RollbackSucceeded',
					'Helm rollback to previous release apps/podinfo.v1 with chart podinfo@6.7.0 succeeded',
					2,
				),
			],
		})),
	];
}

/** The demo's clusters, each served on its own port (in this order from the base port). */
export const demoClusters: readonly DemoCluster[] = [
	{
		name: 'fleet-mgmt',
		groups: ['', 'apps', 'fleet.cattle.io'],
		folder: 'fleet-mgmt',
		namespace: 'fleet-default',
		timeline: fleetTimeline,
		settle: (store) => void reconcileFleet(store),
	},
	{
		name: 'kubestellar-wds',
		groups: ['', 'apps', 'batch', 'control.kubestellar.io'],
		folder: 'kubestellar-wds',
		namespace: 'nginx',
		timeline: wdsTimeline,
	},
	{
		name: 'kubestellar-its',
		groups: ['', 'control.kubestellar.io', 'cluster.open-cluster-management.io'],
		folder: 'kubestellar-its',
		namespace: 'cluster1',
		timeline: itsTimeline,
	},
	{
		name: 'platform',
		groups: [
			'',
			'apps',
			'goharbor.io',
			'source.toolkit.fluxcd.io',
			'kustomize.toolkit.fluxcd.io',
			'helm.toolkit.fluxcd.io',
			'fluxcd.controlplane.io',
			'resources.azure.com',
			'storage.azure.com',
			'cache.azure.com',
			'azure.microsoft.com',
		],
		folder: 'platform',
		namespace: 'default',
		timeline: platformTimeline,
	},
	{
		// A Fleet downstream cluster, named as its Cluster: what a BundleDeployment applied is read here.
		name: 'prod-us-1',
		groups: ['', 'apps'],
		folder: 'prod-us-1',
		namespace: 'shop',
		timeline: () => [],
	},
];
