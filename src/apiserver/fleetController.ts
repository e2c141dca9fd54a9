// A stand-in for Fleet's status controllers in the demo cluster: after a scenario changes BundleDeployments, it
// writes the GitRepo, HelmOp, Bundle, Cluster and ClusterGroup statuses that Fleet's controllers would write,
// using the project's own roll-up rules (src/core/status/fleetRollup.ts). So the demo's parents follow their
// BundleDeployments, and the extension's "controller roll-up vs recomputed" check agrees on them.

import {
	bundleStatusOf,
	clusterGroupStatusOf,
	clusterStatusOf,
	gitRepoStatusOf,
	helmOpStatusOf,
} from '../core/status/fleetRollup.ts';
import {
	readBundleDeployment,
	type BundleDeploymentView,
	type FleetCondition,
} from '../core/status/fleetSummary.ts';
import { isJsonObject, jsonEqual, type Json, type JsonObject } from './patch.ts';
import { resourceKeyOf, type ResourceType } from './resources.ts';
import { metadataOf, type KubeObject, type ObjectStore } from './store.ts';

const fleetApiVersion = 'fleet.cattle.io/v1alpha1';

function labelOf(object: KubeObject, key: string): string {
	const labels = metadataOf(object).labels;
	const value = isJsonObject(labels) ? labels[key] : undefined;
	return typeof value === 'string' ? value : '';
}

function nameOf(object: KubeObject): string {
	const name = metadataOf(object).name;
	return typeof name === 'string' ? name : '';
}

function namespaceOf(object: KubeObject): string {
	const namespace = metadataOf(object).namespace;
	return typeof namespace === 'string' ? namespace : '';
}

/** The conditions with Ready (and optionally another) replaced; lastUpdateTime moves only when they change. */
function withConditions(
	status: JsonObject,
	updates: readonly FleetCondition[],
	now: string,
): Json[] {
	const conditions = Array.isArray(status.conditions) ? [...status.conditions] : [];
	for (const update of updates) {
		const index = conditions.findIndex(
			(condition) => isJsonObject(condition) && condition.type === update.type,
		);
		const previous = conditions[index];
		const next: JsonObject = {
			...(isJsonObject(previous) ? previous : {}),
			type: update.type,
			status: update.status,
		};
		if (update.message === '') delete next.message;
		else next.message = update.message;
		if (update.reason === undefined || update.reason === '') delete next.reason;
		else next.reason = update.reason;
		const changed =
			!isJsonObject(previous) ||
			previous.status !== next.status ||
			previous.message !== next.message;
		next.lastUpdateTime =
			changed || typeof next.lastUpdateTime !== 'string' ? now : next.lastUpdateTime;
		if (index >= 0) conditions[index] = next;
		else conditions.push(next);
	}
	return conditions;
}

function json(value: unknown): Json {
	return JSON.parse(JSON.stringify(value)) as Json;
}

/** Writes a status if it differs; returns whether it did. */
function writeStatus(
	store: ObjectStore,
	type: ResourceType,
	object: KubeObject,
	status: JsonObject,
): boolean {
	if (jsonEqual(object.status, status)) return false;
	store.update(
		type,
		namespaceOf(object) || undefined,
		nameOf(object),
		{ ...object, status },
		{ subresource: 'status' },
	);
	return true;
}

/**
 * Recomputes and writes every Fleet parent status from the BundleDeployments in the store; returns how many
 * objects changed. Does nothing when the store does not hold Fleet's kinds.
 */
export function reconcileFleet(store: ObjectStore, now: Date = new Date()): number {
	const type = (kind: string): ResourceType | undefined => store.typeOf(fleetApiVersion, kind);
	const bdType = type('BundleDeployment');
	const gitRepoType = type('GitRepo');
	const helmOpType = type('HelmOp');
	const bundleType = type('Bundle');
	const clusterType = type('Cluster');
	const groupType = type('ClusterGroup');
	if (!bdType || !gitRepoType || !helmOpType || !bundleType || !clusterType || !groupType) return 0;
	const stamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
	const bds = store.all(bdType).map(readBundleDeployment);
	const statusOf = (object: KubeObject): JsonObject =>
		isJsonObject(object.status) ? object.status : {};
	let changed = 0;
	const bdsWhere = (test: (bd: BundleDeploymentView) => boolean): BundleDeploymentView[] =>
		bds.filter(test);

	const bundles = store.all(bundleType);
	for (const gitRepo of store.all(gitRepoType)) {
		const name = nameOf(gitRepo);
		const namespace = namespaceOf(gitRepo);
		const own = bdsWhere(
			(bd) => bd.links.repoName === name && bd.links.bundleNamespace === namespace,
		);
		const ownBundles = bundles.filter(
			(bundle) =>
				labelOf(bundle, 'fleet.cattle.io/repo-name') === name && namespaceOf(bundle) === namespace,
		);
		const computed = gitRepoStatusOf(gitRepo, own, ownBundles);
		const { readyCondition, kind: _kind, underivable: _underivable, ...fields } = computed;
		const status = statusOf(gitRepo);
		const next: JsonObject = {
			...status,
			...(json(fields) as JsonObject),
			conditions: withConditions(status, [readyCondition], stamp),
		};
		if (computed.resources === undefined) delete next.resources;
		if (computed.perClusterResourceCounts === undefined) delete next.perClusterResourceCounts;
		if (writeStatus(store, gitRepoType, gitRepo, next)) changed++;
	}
	for (const helmOp of store.all(helmOpType)) {
		const name = nameOf(helmOp);
		const own = bdsWhere(
			(bd) => bd.links.helmOpName === name && bd.links.bundleNamespace === namespaceOf(helmOp),
		);
		const { readyCondition, kind: _kind, ...fields } = helmOpStatusOf(helmOp, own);
		const status = statusOf(helmOp);
		const next: JsonObject = {
			...status,
			...(json(fields) as JsonObject),
			conditions: withConditions(status, [readyCondition], stamp),
		};
		if (writeStatus(store, helmOpType, helmOp, next)) changed++;
	}
	for (const bundle of bundles) {
		const name = nameOf(bundle);
		const own = bdsWhere(
			(bd) => bd.links.bundleName === name && bd.links.bundleNamespace === namespaceOf(bundle),
		);
		const computed = bundleStatusOf(bundle, own);
		const status = statusOf(bundle);
		const next: JsonObject = {
			...status,
			summary: json(computed.summary),
			unavailable: computed.unavailable,
			display: json(computed.display),
			conditions: withConditions(status, [computed.readyCondition], stamp),
		};
		if (writeStatus(store, bundleType, bundle, next)) changed++;
	}
	const existing = {
		gitRepos: new Set(
			store.all(gitRepoType).map((object) => `${namespaceOf(object)}/${nameOf(object)}`),
		),
		helmOps: new Set(
			store.all(helmOpType).map((object) => `${namespaceOf(object)}/${nameOf(object)}`),
		),
	};
	for (const cluster of store.all(clusterType)) {
		const name = nameOf(cluster);
		const own = bdsWhere(
			(bd) => bd.links.cluster === name && bd.links.clusterNamespace === namespaceOf(cluster),
		);
		const {
			readyCondition,
			kind: _kind,
			underivable: _underivable,
			...fields
		} = clusterStatusOf(cluster, own, existing);
		const status = statusOf(cluster);
		const next: JsonObject = {
			...status,
			...(json(fields) as JsonObject),
			conditions: withConditions(status, [readyCondition], stamp),
		};
		if (writeStatus(store, clusterType, cluster, next)) changed++;
	}
	const clusters = store.all(clusterType);
	for (const group of store.all(groupType)) {
		const computed = clusterGroupStatusOf(group, clusters);
		if (computed.processedCondition !== undefined) continue;
		const {
			readyCondition,
			kind: _kind,
			processedCondition: _processed,
			underivable: _underivable,
			...fields
		} = computed;
		const status = statusOf(group);
		const next: JsonObject = {
			...status,
			...(json(fields) as JsonObject),
			conditions: withConditions(status, [readyCondition], stamp),
		};
		if (computed.nonReadyClusters === undefined) delete next.nonReadyClusters;
		if (writeStatus(store, groupType, group, next)) changed++;
	}
	return changed;
}

/** How the force-update stand-in runs. */
export interface FleetControllerOptions {
	/** How long after a force update the status follows (default 300 ms). */
	readonly delayMs?: number;
	/** Told about a status write that failed. */
	readonly log?: (line: string) => void;
}

const forceSyncKinds = ['GitRepo', 'HelmOp', 'Bundle'] as const;

function forceSyncGenerationOf(object: KubeObject): number | undefined {
	const value = isJsonObject(object.spec) ? object.spec.forceSyncGeneration : undefined;
	return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

/**
 * Answers force updates on the GitRepos, HelmOps and Bundles of a store: when spec.forceSyncGeneration changes,
 * the status shortly after records the generation as observed and, for a GitRepo, the new value as
 * status.updateGeneration, as rancher/fleet's gitjob controller does when it runs the job again. Values the objects
 * hold when it starts count as taken. Returns the function that stops it.
 */
export function startFleetController(
	store: ObjectStore,
	options: FleetControllerOptions = {},
): () => void {
	const delayMs = options.delayMs ?? 300;
	const types = new Map<string, ResourceType>();
	for (const kind of forceSyncKinds) {
		const type = store.typeOf(fleetApiVersion, kind);
		if (type) types.set(kind, type);
	}
	if (types.size === 0) return () => {};
	const taken = new Map<string, number | undefined>();
	const timers = new Map<string, NodeJS.Timeout>();
	const keyOf = (type: ResourceType, object: KubeObject): string =>
		`${type.kind}:${namespaceOf(object)}/${nameOf(object)}`;

	const handle = (type: ResourceType, namespace: string, name: string): void => {
		const object = store.get(type, namespace || undefined, name);
		if (object === undefined) return;
		const generation = metadataOf(object).generation;
		const status: JsonObject = isJsonObject(object.status) ? { ...object.status } : {};
		if (typeof generation === 'number') status.observedGeneration = generation;
		const forceSyncGeneration = forceSyncGenerationOf(object);
		if (type.kind === 'GitRepo' && forceSyncGeneration !== undefined) {
			status.updateGeneration = forceSyncGeneration;
		}
		try {
			writeStatus(store, type, object, status);
		} catch (error) {
			options.log?.(
				`fleet: ${type.kind} ${namespace}/${name}: taking the force update failed: ${(error as Error).message}`,
			);
		}
	};

	const schedule = (type: ResourceType, object: KubeObject): void => {
		const key = keyOf(type, object);
		const value = forceSyncGenerationOf(object);
		if (taken.get(key) === value || timers.has(key)) return;
		taken.set(key, value);
		const namespace = namespaceOf(object);
		const name = nameOf(object);
		const timer = setTimeout(() => {
			timers.delete(key);
			handle(type, namespace, name);
		}, delayMs);
		timer.unref();
		timers.set(key, timer);
	};

	for (const type of types.values()) {
		for (const object of store.all(type)) {
			taken.set(keyOf(type, object), forceSyncGenerationOf(object));
		}
	}
	const unsubscribe = store.subscribe((event) => {
		const type = types.get(event.resource.kind);
		if (event.type === 'DELETED' || type === undefined) return;
		if (resourceKeyOf(event.resource) !== resourceKeyOf(type)) return;
		schedule(type, event.entry.object);
	});
	return () => {
		unsubscribe();
		for (const timer of timers.values()) clearTimeout(timer);
		timers.clear();
	};
}
