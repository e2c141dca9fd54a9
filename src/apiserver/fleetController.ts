// A stand-in for Fleet's status controllers in the demo cluster: after a scenario changes BundleDeployments, it
// writes the GitRepo, HelmOp, Bundle, Cluster and ClusterGroup statuses that Fleet's controllers would write, as
// fleetStatus.ts computes them from rancher/fleet's code (not with the extension's engine, which a test then
// compares with what is written here), and records the gitops controller's Events. Its poller stamps each GitRepo's
// status.lastPollingTriggered as the gitjob controller's polling job does, so `fleet analyze` finds none unpolled.

import {
	bundleStatus,
	clusterGroupStatus,
	clusterStatus,
	gitRepoStatus,
	helmOpStatus,
	type FleetStatusUpdate,
	type ReadyUpdate,
} from './fleetStatus.ts';
import { recordEventsApiEvent } from './eventRecorder.ts';
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

/**
 * The conditions with Ready set as wrangler's condition setters leave it: status and message (a True one loses its
 * reason), lastUpdateTime moved when they change; or, for a GitRepo that takes a failing Bundle's, that condition.
 */
function withReady(status: JsonObject, ready: ReadyUpdate | JsonObject, now: string): Json[] {
	const conditions = Array.isArray(status.conditions) ? [...status.conditions] : [];
	const index = conditions.findIndex(
		(condition) => isJsonObject(condition) && condition.type === 'Ready',
	);
	let next: JsonObject;
	if (!('clearReason' in ready)) {
		next = ready;
	} else {
		const previous = conditions[index];
		next = { ...(isJsonObject(previous) ? previous : {}), type: 'Ready', status: ready.status };
		if (ready.message === '') delete next.message;
		else next.message = ready.message;
		if (ready.clearReason) delete next.reason;
		const changed =
			!isJsonObject(previous) ||
			previous.status !== next.status ||
			previous.message !== next.message;
		next.lastUpdateTime =
			changed || typeof next.lastUpdateTime !== 'string' ? now : next.lastUpdateTime;
	}
	if (index >= 0) conditions[index] = next;
	else conditions.push(next);
	return conditions;
}

/** A status with a computation's fields set and its Ready condition updated. */
function updatedStatus(status: JsonObject, update: FleetStatusUpdate, now: string): JsonObject {
	const next: JsonObject = {
		...status,
		...update.fields,
		conditions: withReady(status, update.ready, now),
	};
	for (const key of update.drop) delete next[key];
	return JSON.parse(JSON.stringify(next)) as JsonObject;
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

/** The gitops controller's recorder name (rancher/fleet `internal/cmd/controller/gitops/operator.go`). */
const gitopsController = 'fleet-gitops';

function timeOf(event: KubeObject | undefined): string {
	return typeof event?.eventTime === 'string' ? event.eventTime : '';
}

/** The newest Event of a reason about an object, by its eventTime. */
function latestEvent(
	store: ObjectStore,
	object: KubeObject,
	reason: string,
): KubeObject | undefined {
	const type = store.typeOf('v1', 'Event');
	const uid = metadataOf(object).uid;
	if (type === undefined) return undefined;
	let latest: KubeObject | undefined;
	for (const event of store.all(type, namespaceOf(object))) {
		if (event.reason !== reason) continue;
		if (!isJsonObject(event.involvedObject) || event.involvedObject.uid !== uid) continue;
		if (latest === undefined || timeOf(event) > timeOf(latest)) latest = event;
	}
	return latest;
}

/**
 * The Events the gitops controller records about a GitRepo whose status it (here, a scenario) changed, as
 * rancher/fleet's `gitjob_controller.go` and `gitjob.go` do: `GotNewCommit` (action `GetNewCommit`, the commit as the
 * note) when the commit differs from the last one announced, and `Created` (`CreateGitJob`, "GitJob was created")
 * when a git job runs for a commit that has none yet.
 */
function recordGitRepoEvents(store: ObjectStore, gitRepo: KubeObject, now: Date): void {
	const status = isJsonObject(gitRepo.status) ? gitRepo.status : {};
	const commit = typeof status.commit === 'string' ? status.commit : '';
	if (commit === '') return;
	const announced = latestEvent(store, gitRepo, 'GotNewCommit');
	if (announced?.message !== commit) {
		recordEventsApiEvent(
			store,
			{
				regarding: gitRepo,
				type: 'Normal',
				reason: 'GotNewCommit',
				action: 'GetNewCommit',
				note: commit,
				reportingController: gitopsController,
			},
			now,
		);
	}
	if (status.gitJobStatus !== 'Running') return;
	const newCommit = latestEvent(store, gitRepo, 'GotNewCommit');
	const created = latestEvent(store, gitRepo, 'Created');
	if (created === undefined || timeOf(created) < timeOf(newCommit)) {
		recordGitJobCreated(store, gitRepo, now);
	}
}

function recordGitJobCreated(store: ObjectStore, gitRepo: KubeObject, now: Date): void {
	recordEventsApiEvent(
		store,
		{
			regarding: gitRepo,
			type: 'Normal',
			reason: 'Created',
			action: 'CreateGitJob',
			note: 'GitJob was created',
			reportingController: gitopsController,
		},
		now,
	);
}

/**
 * The status controller returns before any roll-up when AuthorizeAndAssignDefaults fails (status_controller.go); the
 * demo has no Policy evaluation of its own, so a GitRepo whose Accepted condition carries a Policy's refusal
 * (gitops/reconciler/restrictions.go words) stands for that.
 */
function rejectedByPolicy(gitRepo: KubeObject): boolean {
	const conditions = isJsonObject(gitRepo.status) ? gitRepo.status.conditions : undefined;
	return (Array.isArray(conditions) ? conditions : []).some(
		(condition) =>
			isJsonObject(condition) &&
			condition.type === 'Accepted' &&
			condition.status === 'False' &&
			typeof condition.message === 'string' &&
			/^(disallowed |serviceAccount is required by Policy)/.test(condition.message),
	);
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
	const bds = store.all(bdType);
	const statusOf = (object: KubeObject): JsonObject =>
		isJsonObject(object.status) ? object.status : {};
	const deleting = (object: KubeObject): boolean =>
		typeof metadataOf(object).deletionTimestamp === 'string';
	let changed = 0;
	const bdsWhere = (labels: Readonly<Record<string, string>>): KubeObject[] =>
		bds.filter((bd) => Object.entries(labels).every(([key, value]) => labelOf(bd, key) === value));
	const write = (kind: ResourceType, object: KubeObject, update: FleetStatusUpdate): void => {
		if (writeStatus(store, kind, object, updatedStatus(statusOf(object), update, stamp))) changed++;
	};

	// Bundles first: the GitRepo status controller watches Bundles and copies a failing one's Ready condition
	// (setReadyStatusFromBundle), so what converges is the GitRepo read after its Bundles were written.
	for (const bundle of store.all(bundleType)) {
		const own = bdsWhere({
			'fleet.cattle.io/bundle-name': nameOf(bundle),
			'fleet.cattle.io/bundle-namespace': namespaceOf(bundle),
		});
		write(bundleType, bundle, bundleStatus(own));
	}
	// The GitRepo and HelmOp status controllers skip objects being deleted.
	const bundles = store.all(bundleType);
	for (const gitRepo of store.all(gitRepoType)) {
		if (deleting(gitRepo) || rejectedByPolicy(gitRepo)) continue;
		const name = nameOf(gitRepo);
		const namespace = namespaceOf(gitRepo);
		const own = bdsWhere({
			'fleet.cattle.io/repo-name': name,
			'fleet.cattle.io/bundle-namespace': namespace,
		});
		const ownBundles = bundles.filter(
			(bundle) =>
				labelOf(bundle, 'fleet.cattle.io/repo-name') === name && namespaceOf(bundle) === namespace,
		);
		write(gitRepoType, gitRepo, gitRepoStatus(gitRepo, own, ownBundles));
		recordGitRepoEvents(store, gitRepo, now);
	}
	for (const helmOp of store.all(helmOpType)) {
		if (deleting(helmOp)) continue;
		const own = bdsWhere({
			'fleet.cattle.io/fleet-helm-name': nameOf(helmOp),
			'fleet.cattle.io/bundle-namespace': namespaceOf(helmOp),
		});
		write(helmOpType, helmOp, helmOpStatus(own));
	}
	const exists = (kind: 'GitRepo' | 'HelmOp', namespace: string, name: string): boolean =>
		store.get(kind === 'GitRepo' ? gitRepoType : helmOpType, namespace, name) !== undefined;
	for (const cluster of store.all(clusterType)) {
		if (deleting(cluster)) continue;
		const own = bdsWhere({
			'fleet.cattle.io/cluster': nameOf(cluster),
			'fleet.cattle.io/cluster-namespace': namespaceOf(cluster),
		});
		write(clusterType, cluster, clusterStatus(cluster, own, exists));
	}
	for (const group of store.all(groupType)) {
		write(groupType, group, clusterGroupStatus(group, store.all(clusterType, namespaceOf(group))));
	}
	return changed;
}

/** How the force-update stand-in runs. */
export interface FleetControllerOptions {
	/** How long after a force update the status follows (default 300 ms). */
	readonly delayMs?: number;
	/** Told about a status write that failed. */
	readonly log?: (line: string) => void;
	/** How often the stand-in poller looks at the GitRepos (default 5 s); 0 turns it off. */
	readonly pollEveryMs?: number;
}

/** Fleet's gitjob controller polls a GitRepo without spec.pollingInterval every 15 s (defaultPollingSyncInterval). */
const defaultPollingIntervalMs = 15_000;

/** The ms of a Go duration made of hours, minutes and seconds ("1m30s"), or undefined. */
function pollingIntervalMs(object: KubeObject): number | undefined {
	const text = isJsonObject(object.spec) ? object.spec.pollingInterval : undefined;
	if (typeof text !== 'string') return undefined;
	const parts = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?$/.exec(text);
	if (parts === null || text === '') return undefined;
	const ms =
		Number(parts[1] ?? 0) * 3_600_000 +
		Number(parts[2] ?? 0) * 60_000 +
		Number(parts[3] ?? 0) * 1000;
	return ms > 0 ? ms : undefined;
}

/**
 * Stamps status.lastPollingTriggered on the GitRepos that poll (no spec.disablePolling), as the gitjob controller's
 * polling job does on each poll, once half their polling interval has passed since the last stamp: the stamp is
 * then never older than the interval that `fleet analyze` measures it against. A GitRepo a Policy refused gets no
 * polling job (the gitjob controller returns before scheduling one), so it stays unpolled, as `fleet analyze` would
 * then report it. Returns how many it stamped.
 */
function pollGitRepos(store: ObjectStore, now: Date = store.now()): number {
	const type = store.typeOf(fleetApiVersion, 'GitRepo');
	if (type === undefined) return 0;
	const stamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
	let stamped = 0;
	for (const gitRepo of store.all(type)) {
		if (typeof metadataOf(gitRepo).deletionTimestamp === 'string') continue;
		const spec = isJsonObject(gitRepo.spec) ? gitRepo.spec : {};
		if (spec.disablePolling === true || rejectedByPolicy(gitRepo)) continue;
		const status: JsonObject = isJsonObject(gitRepo.status) ? gitRepo.status : {};
		const last =
			typeof status.lastPollingTriggered === 'string'
				? Date.parse(status.lastPollingTriggered)
				: NaN;
		const interval = pollingIntervalMs(gitRepo) ?? defaultPollingIntervalMs;
		if (Number.isFinite(last) && now.getTime() - last < interval / 2) continue;
		if (writeStatus(store, type, gitRepo, { ...status, lastPollingTriggered: stamp })) stamped++;
	}
	return stamped;
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
	const pollEveryMs = options.pollEveryMs ?? 5_000;
	const poll = (): void => {
		try {
			pollGitRepos(store);
		} catch (error) {
			options.log?.(`fleet: polling the GitRepos failed: ${(error as Error).message}`);
		}
	};
	const poller = pollEveryMs > 0 ? setInterval(poll, pollEveryMs) : undefined;
	poller?.unref();
	if (poller !== undefined) poll();
	const types = new Map<string, ResourceType>();
	for (const kind of forceSyncKinds) {
		const type = store.typeOf(fleetApiVersion, kind);
		if (type) types.set(kind, type);
	}
	if (types.size === 0) return () => clearInterval(poller);
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
			// A force update runs the git job again (rancher/fleet `gitjob.go`).
			if (type.kind === 'GitRepo' && forceSyncGeneration !== undefined) {
				recordGitJobCreated(store, object, store.now());
			}
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
		clearInterval(poller);
		unsubscribe();
		for (const timer of timers.values()) clearTimeout(timer);
		timers.clear();
	};
}
