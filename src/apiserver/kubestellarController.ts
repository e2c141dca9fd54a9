// A stand-in for KubeStellar's status controller in the demo, as fleetController.ts is for Fleet's: when the ITS's
// WorkStatus objects change, each WDS workload a BindingPolicy asks reported state for gets the status the released
// controller writes, through the status subresource so that watches see it. Written from kubestellar/kubestellar
// at 1c28a8a1e3aebc918537b698149448152a968063 (`pkg/status/singletonstatus.go` syncWorkloadObject and
// handleSingleton, `multiwec-status.go` handleMultiWEC, `aggregation/*.go`, `workstatus.go` updateObjectStatus), not
// from the extension's merge rules, so that the tree's reading of the WDS is compared with another implementation.
// Left out: the status-return labels the controller also puts on the workload. Where upstream walks a set (so its
// order varies), the WECs are taken in name order.
import { isJsonObject, jsonEqual, type Json, type JsonObject } from './patch.ts';
import type { ResourceType } from './resources.ts';
import { metadataOf, type KubeObject, type ObjectStore } from './store.ts';
import { field, list, str } from './jsonFields.ts';

/** The field manager of the status writes (the controller's name). */
const fieldManager = 'kubestellar-controller-manager';
const kubestellarGroup = 'control.kubestellar.io';

function objectsOf(store: ObjectStore, group: string, kind: string): KubeObject[] {
	const type = store.types.find(
		(candidate) => candidate.group === group && candidate.kind === kind,
	);
	return type === undefined ? [] : store.all(type);
}

/** metav1.LabelSelector matching (matchLabels and matchExpressions). */
function selects(selector: Json, labels: unknown): boolean {
	if (!isJsonObject(selector)) return false;
	const value = (key: string): string | undefined => {
		const found = field(labels, key);
		return typeof found === 'string' ? found : undefined;
	};
	const matchLabels = isJsonObject(selector.matchLabels) ? selector.matchLabels : {};
	for (const [key, wanted] of Object.entries(matchLabels)) if (value(key) !== wanted) return false;
	for (const expression of list(selector, 'matchExpressions')) {
		const current = value(str(expression, 'key'));
		const values = list(expression, 'values');
		const operator = str(expression, 'operator');
		if (operator === 'In' && (current === undefined || !values.includes(current))) return false;
		if (operator === 'NotIn' && current !== undefined && values.includes(current)) return false;
		if (operator === 'Exists' && current === undefined) return false;
		if (operator === 'DoesNotExist' && current !== undefined) return false;
	}
	return true;
}

/** Whether a BindingPolicy downsync clause selects a workload object (each test given must pass). */
function clauseSelects(
	clause: Json,
	type: ResourceType,
	object: KubeObject,
	namespaceLabels: unknown,
): boolean {
	const meta = metadataOf(object);
	const name = typeof meta.name === 'string' ? meta.name : '';
	const namespace = typeof meta.namespace === 'string' ? meta.namespace : '';
	const apiGroup = field(clause, 'apiGroup');
	if (typeof apiGroup === 'string' && apiGroup !== type.group) return false;
	const resources = list(clause, 'resources');
	if (resources.length > 0 && !resources.includes('*') && !resources.includes(type.plural)) {
		return false;
	}
	const namespaces = list(clause, 'namespaces');
	if (namespaces.length > 0 && !namespaces.includes('*') && !namespaces.includes(namespace)) {
		return false;
	}
	const namespaceSelectors = list(clause, 'namespaceSelectors');
	if (
		namespaceSelectors.length > 0 &&
		!namespaceSelectors.some((selector) => selects(selector, namespaceLabels))
	) {
		return false;
	}
	const names = list(clause, 'objectNames');
	if (names.length > 0 && !names.includes('*') && !names.includes(name)) return false;
	const objectSelectors = list(clause, 'objectSelectors');
	return (
		objectSelectors.length === 0 ||
		objectSelectors.some((selector) => selects(selector, meta.labels))
	);
}

/** The WECs a BindingPolicy resolved to: its Binding's destinations, else the selected ManagedClusters. */
function destinationsOf(policy: KubeObject, wds: ObjectStore, its: ObjectStore): Set<string> {
	const name = str(policy, 'metadata', 'name');
	const binding = objectsOf(wds, kubestellarGroup, 'Binding').find(
		(candidate) => str(candidate, 'metadata', 'name') === name,
	);
	if (binding !== undefined) {
		return new Set(list(binding, 'spec', 'destinations').map((item) => str(item, 'clusterId')));
	}
	const selectors = list(policy, 'spec', 'clusterSelectors');
	return new Set(
		objectsOf(its, 'cluster.open-cluster-management.io', 'ManagedCluster')
			.filter((cluster) =>
				selectors.some((selector) => selects(selector, field(cluster, 'metadata', 'labels'))),
			)
			.map((cluster) => str(cluster, 'metadata', 'name')),
	);
}

interface ReportedStateRequest {
	readonly singleton: Set<string>;
	readonly multi: Set<string>;
	singletonRequested: boolean;
	multiRequested: boolean;
}

/** binding policy resolver's GetReportedStateRequestForObject: who asks for which reported state, on which WECs. */
function requestFor(
	type: ResourceType,
	object: KubeObject,
	wds: ObjectStore,
	its: ObjectStore,
): ReportedStateRequest {
	const request: ReportedStateRequest = {
		singleton: new Set(),
		multi: new Set(),
		singletonRequested: false,
		multiRequested: false,
	};
	const namespace = str(object, 'metadata', 'namespace');
	const namespaceObject = objectsOf(wds, '', 'Namespace').find(
		(candidate) => str(candidate, 'metadata', 'name') === namespace,
	);
	const namespaceLabels = field(namespaceObject, 'metadata', 'labels');
	for (const policy of objectsOf(wds, kubestellarGroup, 'BindingPolicy')) {
		const clauses = list(policy, 'spec', 'downsync').filter((clause) =>
			clauseSelects(clause, type, object, namespaceLabels),
		);
		if (clauses.length === 0) continue;
		const destinations = destinationsOf(policy, wds, its);
		if (clauses.some((clause) => field(clause, 'wantSingletonReportedState') === true)) {
			request.singletonRequested = true;
			for (const wec of destinations) request.singleton.add(wec);
		}
		if (clauses.some((clause) => field(clause, 'wantMultiWECReportedState') === true)) {
			request.multiRequested = true;
			for (const wec of destinations) request.multi.add(wec);
		}
	}
	return request;
}

/** The WorkStatus objects of the ITS that report on a workload object, by WEC (their namespace). */
function workStatusesOf(
	its: ObjectStore,
	type: ResourceType,
	object: KubeObject,
): Map<string, KubeObject[]> {
	const byWec = new Map<string, KubeObject[]>();
	const meta = metadataOf(object);
	for (const workStatus of objectsOf(its, kubestellarGroup, 'WorkStatus')) {
		const source = field(workStatus, 'spec', 'sourceRef');
		if (
			str(source, 'group') !== type.group ||
			str(source, 'kind') !== type.kind ||
			str(source, 'name') !== meta.name ||
			str(source, 'namespace') !== (typeof meta.namespace === 'string' ? meta.namespace : '')
		) {
			continue;
		}
		const wec = str(workStatus, 'metadata', 'namespace');
		byWec.set(wec, [...(byWec.get(wec) ?? []), workStatus]);
	}
	return byWec;
}

/** aggregation.GetMin / GetMax over the integer values of a field; 0 when none has one. */
function extreme(statuses: readonly JsonObject[], key: string, pick: 'min' | 'max'): number {
	let found: number | undefined;
	for (const status of statuses) {
		const value = status[key];
		if (typeof value !== 'number' || !Number.isInteger(value)) continue;
		found =
			found === undefined
				? value
				: pick === 'min'
					? Math.min(found, value)
					: Math.max(found, value);
	}
	return found ?? 0;
}

/** The first condition (over the WECs, then their conditions) that passes a test, as a one-item list. */
function firstCondition(
	statuses: readonly JsonObject[],
	test: (condition: JsonObject) => boolean,
): Json[] {
	for (const status of statuses) {
		for (const condition of list(status, 'conditions')) {
			if (isJsonObject(condition) && test(condition)) return [condition];
		}
	}
	return [];
}

/** The released aggregations (apps group only); undefined for other kinds, which get no status then. */
function aggregate(type: ResourceType, statuses: readonly JsonObject[]): JsonObject | undefined {
	if (type.group !== 'apps') return undefined;
	const fields = (pairs: readonly (readonly [string, 'min' | 'max'])[]): JsonObject =>
		Object.fromEntries(pairs.map(([key, pick]) => [key, extreme(statuses, key, pick)]));
	switch (type.kind) {
		case 'Deployment':
			return {
				...fields([
					['replicas', 'min'],
					['updatedReplicas', 'min'],
					['availableReplicas', 'min'],
					['readyReplicas', 'min'],
					['unavailableReplicas', 'max'],
					['observedGeneration', 'min'],
				]),
				conditions: firstCondition(
					statuses,
					(condition) =>
						condition.type === 'Progressing' && condition.reason === 'ProgressDeadlineExceeded',
				),
			};
		case 'ReplicaSet':
			return {
				...fields([
					['replicas', 'min'],
					['fullyLabeledReplicas', 'min'],
					['readyReplicas', 'min'],
					['availableReplicas', 'min'],
					['observedGeneration', 'min'],
				]),
				conditions: firstCondition(statuses, (condition) => condition.type === 'ReplicaFailure'),
			};
		case 'DaemonSet':
			return fields([
				['currentNumberScheduled', 'min'],
				['numberMisscheduled', 'max'],
				['desiredNumberScheduled', 'min'],
				['numberReady', 'min'],
				['observedGeneration', 'min'],
				['updatedNumberScheduled', 'min'],
				['numberAvailable', 'min'],
			]);
		default:
			return undefined;
	}
}

/** What syncWorkloadObject writes into a workload's status; undefined when it leaves the status alone. */
function reportedStatus(
	type: ResourceType,
	object: KubeObject,
	wds: ObjectStore,
	its: ObjectStore,
): JsonObject | undefined {
	const request = requestFor(type, object, wds, its);
	const byWec = workStatusesOf(its, type, object);
	const statusesOn = (wecs: Set<string>): JsonObject[] =>
		[...wecs]
			.sort()
			.flatMap((wec) => byWec.get(wec) ?? [])
			.map((workStatus) => workStatus.status)
			.filter((status): status is JsonObject => isJsonObject(status));
	const singleton = (wecs: Set<string>): JsonObject | undefined => {
		const [wec] = wecs;
		const found = byWec.get(wec ?? '') ?? [];
		if (found.length !== 1) return undefined;
		const status = found[0]?.status;
		return isJsonObject(status) ? status : undefined;
	};
	const multi = (wecs: Set<string>): JsonObject | undefined => {
		const statuses = statusesOn(wecs);
		if (statuses.length === 0) return undefined;
		if (statuses.length === 1) return statuses[0];
		return aggregate(type, statuses);
	};
	if (request.singletonRequested && request.multiRequested) {
		const wecs = new Set([...request.singleton, ...request.multi]);
		return wecs.size === 1 ? singleton(wecs) : multi(wecs);
	}
	if (request.singletonRequested && request.singleton.size === 1) {
		return singleton(request.singleton);
	}
	if (request.multiRequested && request.multi.size === 1) return singleton(request.multi);
	if (request.multiRequested && request.multi.size > 0) return multi(request.multi);
	return undefined;
}

/**
 * Writes the reported state of every WDS workload a BindingPolicy asks it for, from the ITS's WorkStatus objects;
 * returns how many workloads changed. Namespaces (KubeStellar's WEC2WDSExceptions) and KubeStellar's own objects
 * get none.
 */
export function reconcileKubestellarStatus(wds: ObjectStore, its: ObjectStore): number {
	let changed = 0;
	for (const type of wds.types) {
		if (type.group === kubestellarGroup || (type.group === '' && type.kind === 'Namespace')) {
			continue;
		}
		for (const workload of wds.all(type)) {
			const status = reportedStatus(type, workload, wds, its);
			if (status === undefined || jsonEqual(workload.status, status)) continue;
			const { name, namespace } = metadataOf(workload);
			if (typeof name !== 'string') continue;
			wds.update(
				type,
				typeof namespace === 'string' && namespace !== '' ? namespace : undefined,
				name,
				{ ...workload, status },
				{ subresource: 'status', fieldManager },
			);
			changed++;
		}
	}
	return changed;
}
