// The statuses Fleet's controllers write into its parent objects, for the demo's stand-in (fleetController.ts):
// written from rancher/fleet's controller code at 3b2c622ce176b11644abc7fb768f87c3ffb5a3ab, not from this project's
// engine, so that a test comparing the engine's reading with what "the controller" wrote compares two
// implementations. Sources: `internal/cmd/controller/summary/summary.go` (states, summaries, the Ready message),
// `internal/cmd/controller/status/status.go` (SetFields), `internal/resourcestatus/resourcekey.go` (resources),
// `internal/cmd/controller/target/status.go` and `reconciler/bundle_status.go` (Bundle),
// `reconciler/cluster_controller.go`, `reconciler/clustergroup_controller.go`,
// `gitops/reconciler/status_controller.go` (GitRepo) and `helmops/reconciler/helmop_status.go` (HelmOp);
// the WaitingForDependency state, rank, counter and Deployed reason of rancher/fleet#5549 (Fleet 0.16).
// Objects are read as plain JSON with Go's zero values for what is missing.
import { isJsonObject, type Json, type JsonObject } from './patch.ts';
import type { KubeObject } from './store.ts';
import { field, list, str } from './jsonFields.ts';

type State =
	| 'Ready'
	| 'NotReady'
	| 'WaitApplied'
	| 'WaitingForDependency'
	| 'ErrApplied'
	| 'OutOfSync'
	| 'Pending'
	| 'Modified';

/** fleet.StateRank; the empty state ranks 0. */
const stateRank: Readonly<Record<string, number>> = {
	ErrApplied: 8,
	WaitingForDependency: 7,
	WaitApplied: 6,
	Modified: 5,
	OutOfSync: 4,
	Pending: 3,
	NotReady: 2,
	Ready: 1,
};

function rank(state: string): number {
	return stateRank[state] ?? 0;
}

function label(object: unknown, key: string): string {
	return str(object, 'metadata', 'labels', key);
}

/** Go's string order (bytes; these are ASCII names). */
function byKey<T>(items: readonly T[], key: (item: T) => string): T[] {
	return [...items].sort((a, b) => {
		const left = key(a);
		const right = key(b);
		return left < right ? -1 : left > right ? 1 : 0;
	});
}

function conditionOf(object: unknown, type: string): JsonObject | undefined {
	const found = list(object, 'status', 'conditions').find(
		(condition) => isJsonObject(condition) && condition.type === type,
	);
	return isJsonObject(found) ? found : undefined;
}

/** summary.GetDeploymentState. */
export function deploymentState(bd: KubeObject): State {
	if (str(bd, 'status', 'appliedDeploymentID') !== str(bd, 'spec', 'deploymentID')) {
		const deployed = conditionOf(bd, 'Deployed');
		if (deployed?.status !== 'False') return 'WaitApplied';
		return deployed.reason === 'WaitingForDependency' ? 'WaitingForDependency' : 'ErrApplied';
	}
	if (field(bd, 'status', 'ready') !== true) return 'NotReady';
	if (str(bd, 'spec', 'deploymentID') !== str(bd, 'spec', 'stagedDeploymentID')) {
		return 'OutOfSync';
	}
	if (field(bd, 'status', 'nonModified') !== true) return 'Modified';
	return 'Ready';
}

/** summary.MessageFromDeployment. */
function deploymentMessage(bd: KubeObject): string {
	const message = (type: string): string => {
		const condition = conditionOf(bd, type);
		return typeof condition?.message === 'string' ? condition.message : '';
	};
	let text = message('Deployed');
	if (text === '' && str(bd, 'status', 'appliedDeploymentID') === str(bd, 'spec', 'deploymentID')) {
		text = message('Installed');
	}
	return text === '' ? message('Monitored') : text;
}

interface NonReadyResource {
	readonly name: string;
	readonly state: State;
	readonly message: string;
	readonly modifiedStatus: readonly Json[];
	readonly nonReadyStatus: readonly Json[];
}

interface Summary {
	notReady: number;
	waitApplied: number;
	errApplied: number;
	waitingForDependency: number;
	outOfSync: number;
	modified: number;
	ready: number;
	pending: number;
	desiredReady: number;
	nonReadyResources: NonReadyResource[];
}

function emptySummary(): Summary {
	return {
		notReady: 0,
		waitApplied: 0,
		errApplied: 0,
		waitingForDependency: 0,
		outOfSync: 0,
		modified: 0,
		ready: 0,
		pending: 0,
		desiredReady: 0,
		nonReadyResources: [],
	};
}

const counterOf: Readonly<
	Record<State, keyof Omit<Summary, 'nonReadyResources' | 'desiredReady'>>
> = {
	Modified: 'modified',
	Pending: 'pending',
	WaitApplied: 'waitApplied',
	ErrApplied: 'errApplied',
	WaitingForDependency: 'waitingForDependency',
	NotReady: 'notReady',
	OutOfSync: 'outOfSync',
	Ready: 'ready',
};

/**
 * A BundleDeployment's modifiedStatus or nonReadyStatus entry as Go writes it back: every field of those types is
 * `omitempty`, so false, empty strings, empty lists and nulls go.
 */
function omitEmpty(value: Json): Json {
	if (Array.isArray(value)) return value.map(omitEmpty);
	if (!isJsonObject(value)) return value;
	const out: JsonObject = {};
	for (const [key, item] of Object.entries(value)) {
		if (item === false || item === '' || item === null) continue;
		if (Array.isArray(item) && item.length === 0) continue;
		out[key] = omitEmpty(item);
	}
	return out;
}

/** summary.IncrementState, plus the DesiredReady++ every caller does after it. */
function incrementState(summary: Summary, name: string, state: State, bd: KubeObject): void {
	summary[counterOf[state]]++;
	if (name !== '' && state !== 'Ready' && summary.nonReadyResources.length < 10) {
		summary.nonReadyResources.push({
			name,
			state,
			message: deploymentMessage(bd),
			modifiedStatus: list(bd, 'status', 'modifiedStatus').map(omitEmpty),
			nonReadyStatus: list(bd, 'status', 'nonReadyStatus').map(omitEmpty),
		});
	}
	summary.desiredReady++;
}

/** summary.Increment: counters add; entries are appended while the left has fewer than ten. */
function addSummary(left: Summary, right: Summary): void {
	for (const key of Object.values(counterOf)) left[key] += right[key];
	left.desiredReady += right.desiredReady;
	if (left.nonReadyResources.length < 10) {
		for (const entry of right.nonReadyResources) left.nonReadyResources.push(entry);
	}
}

function summaryState(summary: Summary): State | '' {
	let state: State | '' = '';
	for (const entry of summary.nonReadyResources) {
		if (rank(entry.state) > rank(state)) state = entry.state;
	}
	return state;
}

/** The Go name of an object in a status string (bundledeployment_types.go `name`). */
function goName(status: Json): string {
	const kind = str(status, 'kind').toLowerCase();
	const apiVersion = str(status, 'apiVersion');
	const namespace = str(status, 'namespace');
	const name = str(status, 'name');
	const what = apiVersion === '' ? kind : `${kind}.${apiVersion.split('/')[0] ?? ''}`;
	return namespace === '' ? `${what} ${name}` : `${what} ${namespace}/${name}`;
}

/** ModifiedStatus.String. */
function modifiedString(status: Json): string {
	const name = goName(status);
	if (field(status, 'create') === true) {
		return field(status, 'exist') === true ? `${name} is not owned by us` : `${name} missing`;
	}
	if (field(status, 'delete') === true) return `${name} extra`;
	return `${name} modified ${str(status, 'patch')}`;
}

/** NonReadyStatus.String: the name and the summary's String (including upstream's "error]" without "["). */
function nonReadyString(status: Json): string {
	const summary = field(status, 'summary');
	const transitioning = field(summary, 'transitioning') === true;
	const error = field(summary, 'error') === true;
	if (!transitioning && !error) return `${goName(status)} ${str(summary, 'state')}`;
	let text = transitioning ? '[progressing' : '';
	if (error) text = text === '' ? 'error]' : `${text},error]`;
	else text += ']';
	const messages = list(summary, 'message').filter((item) => typeof item === 'string');
	if (messages.length > 0) text = `${text} ${messages.join(', ')}`;
	return `${goName(status)} ${text}`;
}

/** summary.ReadyMessage: per non-Ready state with a count, its first entry and up to four details each; sorted. */
function readyMessage(summary: Summary, referencedKind: string): string {
	const messages: string[] = [];
	for (const state of Object.keys(counterOf) as State[]) {
		const count = summary[counterOf[state]];
		if (state === 'Ready' || count <= 0) continue;
		const entry = summary.nonReadyResources.find((candidate) => candidate.state === state);
		if (entry === undefined) continue;
		messages.push(
			entry.message === ''
				? `${state}(${count}) [${referencedKind} ${entry.name}]`
				: `${state}(${count}) [${referencedKind} ${entry.name}: ${entry.message}]`,
		);
		// Upstream breaks when the index passes 3: four of each.
		for (const status of entry.modifiedStatus.slice(0, 4)) messages.push(modifiedString(status));
		for (const status of entry.nonReadyStatus.slice(0, 4)) messages.push(nonReadyString(status));
	}
	return messages.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join('; ');
}

/** The Ready condition summary.SetReadyConditions leaves: status and message (a True one loses its reason). */
export interface ReadyUpdate {
	readonly status: 'True' | 'False';
	readonly message: string;
	/** Cleared when Ready; a False keeps the reason it had. */
	readonly clearReason: boolean;
}

function readyUpdate(summary: Summary, referencedKind: string): ReadyUpdate {
	const message = readyMessage(summary, referencedKind);
	return { status: message === '' ? 'True' : 'False', message, clearReason: message === '' };
}

function summaryJson(summary: Summary): JsonObject {
	const out: JsonObject = {};
	// BundleSummary's JSON order; waitingForDependency sits after errApplied (omitempty).
	const counters = [
		'notReady',
		'waitApplied',
		'errApplied',
		'waitingForDependency',
		'outOfSync',
		'modified',
	] as const;
	for (const key of counters) {
		if (summary[key] !== 0) out[key] = summary[key];
	}
	out.ready = summary.ready;
	if (summary.pending !== 0) out.pending = summary.pending;
	out.desiredReady = summary.desiredReady;
	if (summary.nonReadyResources.length > 0) {
		out.nonReadyResources = summary.nonReadyResources.map((entry) => {
			const json: JsonObject = {};
			if (entry.name !== '') json.name = entry.name;
			json.bundleState = entry.state;
			if (entry.message !== '') json.message = entry.message;
			if (entry.modifiedStatus.length > 0) json.modifiedStatus = [...entry.modifiedStatus];
			if (entry.nonReadyStatus.length > 0) json.nonReadyStatus = [...entry.nonReadyStatus];
			return json;
		});
	}
	return out;
}

const resourceCountKeys = [
	'ready',
	'desiredReady',
	'waitApplied',
	'modified',
	'orphaned',
	'missing',
	'unknown',
	'notReady',
] as const;

type ResourceCounts = Record<(typeof resourceCountKeys)[number], number>;

function emptyCounts(): ResourceCounts {
	return {
		ready: 0,
		desiredReady: 0,
		waitApplied: 0,
		modified: 0,
		orphaned: 0,
		missing: 0,
		unknown: 0,
		notReady: 0,
	};
}

/** summary.IncrementResourceCounts. */
function addCounts(left: ResourceCounts, right: unknown): void {
	for (const key of resourceCountKeys) {
		const value = field(right, key);
		if (typeof value === 'number') left[key] += value;
	}
}

function clusterIdOf(bd: KubeObject): string {
	return `${label(bd, 'fleet.cattle.io/cluster-namespace')}/${label(bd, 'fleet.cattle.io/cluster')}`;
}

/** resourcestatus.resourcesDefaultState. */
function resourcesDefaultState(bd: KubeObject): string {
	const state = deploymentState(bd);
	if (state === 'NotReady' || state === 'Modified') {
		return field(bd, 'status', 'incompleteState') === true ? 'Unknown' : 'Ready';
	}
	return state;
}

const perClusterKey: Readonly<Record<string, string>> = {
	Ready: 'ready',
	WaitApplied: 'waitApplied',
	Pending: 'pending',
	Modified: 'modified',
	NotReady: 'notReady',
	updating: 'notReady',
	error: 'notReady',
	Orphaned: 'orphaned',
	Missing: 'missing',
	Unknown: 'unknown',
};

interface ResourceKey {
	readonly kind: string;
	readonly apiVersion: string;
	readonly namespace: string;
	readonly name: string;
}

function resourceKeyOf(value: Json): ResourceKey {
	return {
		kind: str(value, 'kind'),
		apiVersion: str(value, 'apiVersion'),
		namespace: str(value, 'namespace'),
		name: str(value, 'name'),
	};
}

/** resourcestatus.SetResources: per resource, each cluster's state; counts summed and per cluster. */
function resourcesOf(bds: readonly KubeObject[]): {
	resources: JsonObject[];
	resourceCounts: ResourceCounts;
	perCluster: Map<string, ResourceCounts>;
} {
	const states = new Map<
		string,
		{ key: ResourceKey; entries: { state: string; cluster: string; incomplete: boolean }[] }
	>();
	for (const bd of byKey(bds, clusterIdOf)) {
		const cluster = clusterIdOf(bd);
		const incomplete = field(bd, 'status', 'incompleteState') === true;
		const own = new Map<string, { key: ResourceKey; state: string }>();
		const set = (value: Json, state: string): void => {
			const key = resourceKeyOf(value);
			own.set(JSON.stringify([key.kind, key.apiVersion, key.namespace, key.name]), { key, state });
		};
		const defaultState = resourcesDefaultState(bd);
		for (const resource of list(bd, 'status', 'resources')) set(resource, defaultState);
		for (const nonReady of list(bd, 'status', 'nonReadyStatus')) {
			set(nonReady, str(nonReady, 'summary', 'state'));
		}
		for (const modified of list(bd, 'status', 'modifiedStatus')) {
			const state =
				field(modified, 'delete') === true
					? 'Orphaned'
					: field(modified, 'create') === true
						? 'Missing'
						: 'Modified';
			set(modified, state);
		}
		for (const [id, { key, state }] of own) {
			const entry = states.get(id) ?? { key, entries: [] };
			entry.entries.push({ state, cluster, incomplete });
			states.set(id, entry);
		}
	}
	let size = 0;
	const resources: JsonObject[] = [];
	const ordered = byKey(
		[...states.values()],
		({ key }) => `${key.kind}${key.apiVersion} ${key.namespace}/${key.name}`,
	).reverse();
	for (const { key, entries } of ordered) {
		const group = key.apiVersion.split('/')[0] ?? '';
		const type = `${group === 'v1' ? '' : group === '' ? '' : `${group}.`}${key.kind.toLowerCase()}`;
		const resource: JsonObject = {};
		if (key.apiVersion !== '') resource.apiVersion = key.apiVersion;
		if (key.kind !== '') resource.kind = key.kind;
		if (type !== '') resource.type = type;
		const id = key.namespace === '' ? key.name : `${key.namespace}/${key.name}`;
		if (id !== '') resource.id = id;
		if (key.namespace !== '') resource.namespace = key.namespace;
		if (key.name !== '') resource.name = key.name;
		let state = 'Ready';
		let incomplete = false;
		const perClusterState: Record<string, string[]> = {};
		for (const entry of entries) {
			if (entry.incomplete) incomplete = true;
			size += entry.cluster.length;
			const bucket = perClusterKey[entry.state];
			if (size < 1024 * 1024 && bucket !== undefined) {
				(perClusterState[bucket] ??= []).push(entry.cluster);
			}
			if (state === 'Ready') state = entry.state;
		}
		if (incomplete) resource.incompleteState = true;
		if (state !== '') resource.state = state;
		const perCluster: JsonObject = {};
		for (const bucket of [
			'ready',
			'waitApplied',
			'pending',
			'modified',
			'orphaned',
			'missing',
			'unknown',
			'notReady',
		]) {
			const clusters = perClusterState[bucket];
			if (clusters !== undefined) perCluster[bucket] = clusters;
		}
		resource.perClusterState = perCluster;
		resources.push(resource);
	}
	const sorted = byKey(resources, (resource) => `${str(resource, 'type')}/${str(resource, 'id')}`);
	const resourceCounts = emptyCounts();
	const perCluster = new Map<string, ResourceCounts>();
	for (const bd of bds) {
		addCounts(resourceCounts, field(bd, 'status', 'resourceCounts'));
		const counts = perCluster.get(clusterIdOf(bd)) ?? emptyCounts();
		addCounts(counts, field(bd, 'status', 'resourceCounts'));
		perCluster.set(clusterIdOf(bd), counts);
	}
	return { resources: sorted, resourceCounts, perCluster };
}

/** What a status computation leaves: the status fields to set, and the Ready condition. */
export interface FleetStatusUpdate {
	readonly fields: JsonObject;
	/** Fields of the old status to drop (Go omits them when empty). */
	readonly drop: readonly string[];
	readonly ready: ReadyUpdate | JsonObject;
}

/** StatusBase of a GitRepo or HelmOp (status.SetFields, resourcestatus.SetResources, SetReadyConditions). */
function statusBase(bds: readonly KubeObject[]): FleetStatusUpdate & { summary: Summary } {
	const ordered = byKey(bds, (bd) => str(bd, 'metadata', 'uid'));
	const summary = emptySummary();
	let maxState: State | '' = '';
	let message = '';
	const count = new Map<string, number>();
	const readyCount = new Map<string, number>();
	for (const bd of ordered) {
		const state = deploymentState(bd);
		incrementState(summary, str(bd, 'metadata', 'name'), state, bd);
		if (rank(state) > rank(maxState)) {
			maxState = state;
			message = deploymentMessage(bd);
		}
		const name = label(bd, 'fleet.cattle.io/cluster');
		const namespace = label(bd, 'fleet.cattle.io/cluster-namespace');
		if (name === '' || namespace === '') continue;
		const key = JSON.stringify([namespace, name]);
		count.set(key, (count.get(key) ?? 0) + 1);
		if (state === 'Ready') readyCount.set(key, (readyCount.get(key) ?? 0) + 1);
	}
	let readyClusters = 0;
	for (const [key, ready] of readyCount) if (count.get(key) === ready) readyClusters++;
	if (maxState === 'Ready') {
		maxState = '';
		message = '';
	}
	const display: JsonObject = {
		readyBundleDeployments: `${summary.ready}/${summary.desiredReady}`,
	};
	if (maxState !== '') display.state = maxState;
	if (message !== '') {
		display.message = message;
		display.error = true;
	}
	const { resources, resourceCounts, perCluster } = resourcesOf(ordered);
	const fields: JsonObject = {
		readyClusters,
		desiredReadyClusters: count.size,
		summary: summaryJson(summary),
		display,
		resourceCounts,
	};
	const drop: string[] = [];
	if (resources.length > 0) fields.resources = resources;
	else drop.push('resources');
	if (perCluster.size > 0) fields.perClusterResourceCounts = Object.fromEntries(perCluster);
	else drop.push('perClusterResourceCounts');
	return { fields, drop, ready: readyUpdate(summary, 'Bundle'), summary };
}

/**
 * A GitRepo's status (status_controller.go): its StatusBase; GitUpdating while the git job is not Current; and the
 * Ready condition of the first Bundle (by UID) whose Ready is False in place of its own.
 */
export function gitRepoStatus(
	gitRepo: KubeObject,
	bds: readonly KubeObject[],
	bundles: readonly KubeObject[],
): FleetStatusUpdate {
	const base = statusBase(bds);
	if (str(gitRepo, 'status', 'gitJobStatus') !== 'Current') {
		(base.fields.display as JsonObject).state = 'GitUpdating';
	}
	for (const bundle of byKey(bundles, (object) => str(object, 'metadata', 'uid'))) {
		const failing = list(bundle, 'status', 'conditions').find(
			(condition) =>
				isJsonObject(condition) && condition.type === 'Ready' && condition.status === 'False',
		);
		if (isJsonObject(failing)) return { ...base, ready: failing };
	}
	return base;
}

/** A HelmOp's status (helmop_status.go): its StatusBase. */
export function helmOpStatus(bds: readonly KubeObject[]): FleetStatusUpdate {
	return statusBase(bds);
}

/**
 * A Bundle's status from its BundleDeployments, each a target (target/status.go Summary and Unavailable, sorted by
 * cluster name as the target builder does; bundle_status.go updateDisplay; SetReadyConditions "Cluster").
 */
export function bundleStatus(bds: readonly KubeObject[]): FleetStatusUpdate {
	const summary = emptySummary();
	let unavailable = 0;
	for (const bd of byKey(bds, (object) => label(object, 'fleet.cattle.io/cluster'))) {
		incrementState(summary, clusterIdOf(bd), deploymentState(bd), bd);
		const applied = str(bd, 'status', 'appliedDeploymentID') === str(bd, 'spec', 'deploymentID');
		if (!applied || field(bd, 'status', 'ready') !== true) unavailable++;
	}
	const state = summaryState(summary);
	const display: JsonObject = { readyClusters: `${summary.ready}/${summary.desiredReady}` };
	if (state !== '') display.state = state;
	return {
		fields: { summary: summaryJson(summary), unavailable, display },
		drop: [],
		ready: readyUpdate(summary, 'Cluster'),
	};
}

/**
 * A Cluster's status (cluster_controller.go): its BundleDeployments by name, the GitRepos and HelmOps they come from
 * that exist (one Ready BD makes a repo count as ready there, as upstream counts), WaitCheckIn before the agent
 * was seen.
 */
export function clusterStatus(
	cluster: KubeObject,
	bds: readonly KubeObject[],
	exists: (kind: 'GitRepo' | 'HelmOp', namespace: string, name: string) => boolean,
): FleetStatusUpdate & { summary: Summary } {
	const summary = emptySummary();
	const resourceCounts = emptyCounts();
	const gitRepos = new Map<string, boolean>();
	const helmOps = new Map<string, boolean>();
	for (const bd of byKey(bds, (object) => str(object, 'metadata', 'name'))) {
		addCounts(resourceCounts, field(bd, 'status', 'resourceCounts'));
		const state = deploymentState(bd);
		incrementState(summary, str(bd, 'metadata', 'name'), state, bd);
		const namespace = label(bd, 'fleet.cattle.io/bundle-namespace');
		const repo = label(bd, 'fleet.cattle.io/repo-name');
		const helmOp = label(bd, 'fleet.cattle.io/fleet-helm-name');
		if (namespace === '') continue;
		const owners = repo !== '' ? gitRepos : helmOp !== '' ? helmOps : undefined;
		const key = JSON.stringify([namespace, repo !== '' ? repo : helmOp]);
		owners?.set(key, state === 'Ready' || owners.get(key) === true);
	}
	const counted = (owners: Map<string, boolean>, kind: 'GitRepo' | 'HelmOp'): [number, number] => {
		let desired = 0;
		let ready = 0;
		for (const [key, isReady] of owners) {
			const [namespace, name] = JSON.parse(key) as [string, string];
			if (!exists(kind, namespace, name)) continue;
			desired++;
			if (isReady) ready++;
		}
		return [ready, desired];
	};
	const [readyGitRepos, desiredReadyGitRepos] = counted(gitRepos, 'GitRepo');
	const [readyHelmOps, desiredReadyHelmOps] = counted(helmOps, 'HelmOp');
	const display: JsonObject = { readyBundles: `${summary.ready}/${summary.desiredReady}` };
	const lastSeen = str(cluster, 'status', 'agent', 'lastSeen');
	const seen = lastSeen !== '' && !lastSeen.startsWith('0001-01-01');
	const state = seen ? summaryState(summary) : 'WaitCheckIn';
	if (state !== '') display.state = state;
	return {
		fields: {
			summary: summaryJson(summary),
			resourceCounts,
			readyGitRepos,
			desiredReadyGitRepos,
			readyHelmOps,
			desiredReadyHelmOps,
			display,
		},
		drop: [],
		ready: readyUpdate(summary, 'Bundle'),
		summary,
	};
}

/** Whether a Cluster's labels match a ClusterGroup's selector (metav1.LabelSelector); none matches nothing. */
function selects(selector: unknown, cluster: KubeObject): boolean {
	if (!isJsonObject(selector)) return false;
	const labels = field(cluster, 'metadata', 'labels');
	const value = (key: string): string | undefined => {
		const found = field(labels, key);
		return typeof found === 'string' ? found : undefined;
	};
	const matchLabels = isJsonObject(selector.matchLabels) ? selector.matchLabels : {};
	for (const [key, wanted] of Object.entries(matchLabels)) if (value(key) !== wanted) return false;
	for (const expression of list(selector, 'matchExpressions')) {
		const key = str(expression, 'key');
		const values = list(expression, 'values');
		const has = value(key) !== undefined;
		switch (str(expression, 'operator')) {
			case 'In':
				if (!has || !values.includes(value(key) ?? '')) return false;
				break;
			case 'NotIn':
				if (has && values.includes(value(key) ?? '')) return false;
				break;
			case 'Exists':
				if (!has) return false;
				break;
			case 'DoesNotExist':
				if (has) return false;
				break;
			default:
				return false;
		}
	}
	return true;
}

function summaryFrom(json: unknown): Summary {
	const summary = emptySummary();
	for (const key of [...Object.values(counterOf), 'desiredReady'] as const) {
		const value = field(json, key);
		if (typeof value === 'number') summary[key] = value;
	}
	for (const entry of list(json, 'nonReadyResources')) {
		summary.nonReadyResources.push({
			name: str(entry, 'name'),
			state: (str(entry, 'bundleState') || 'NotReady') as State,
			message: str(entry, 'message'),
			modifiedStatus: list(entry, 'modifiedStatus'),
			nonReadyStatus: list(entry, 'nonReadyStatus'),
		});
	}
	return summary;
}

/** A ClusterGroup's status (clustergroup_controller.go) from the Clusters of its namespace it selects, by name. */
export function clusterGroupStatus(
	group: KubeObject,
	clustersOfNamespace: readonly KubeObject[],
): FleetStatusUpdate {
	const selector = field(group, 'spec', 'selector');
	const clusters = byKey(
		clustersOfNamespace.filter((cluster) => selects(selector, cluster)),
		(cluster) => str(cluster, 'metadata', 'name'),
	);
	const summary = emptySummary();
	const resourceCounts = emptyCounts();
	const nonReadyClusters: string[] = [];
	let nonReadyClusterCount = 0;
	for (const cluster of clusters) {
		addCounts(resourceCounts, field(cluster, 'status', 'resourceCounts'));
		const clusterSummary = summaryFrom(field(cluster, 'status', 'summary'));
		addSummary(summary, clusterSummary);
		if (clusterSummary.desiredReady !== clusterSummary.ready) {
			nonReadyClusterCount++;
			if (nonReadyClusters.length < 10) nonReadyClusters.push(str(cluster, 'metadata', 'name'));
		}
	}
	let readyClusters = `${clusters.length - nonReadyClusterCount}/${clusters.length}`;
	if (nonReadyClusters.length > 0) readyClusters += ` (${nonReadyClusters.join(',')})`;
	const display: JsonObject = {
		readyClusters,
		readyBundles: `${summary.ready}/${summary.desiredReady}`,
	};
	const state = summaryState(summary);
	if (state !== '') display.state = state;
	const fields: JsonObject = {
		clusterCount: clusters.length,
		nonReadyClusterCount,
		summary: summaryJson(summary),
		display,
		resourceCounts,
	};
	if (nonReadyClusters.length > 0) fields.nonReadyClusters = nonReadyClusters;
	return {
		fields,
		drop: nonReadyClusters.length > 0 ? [] : ['nonReadyClusters'],
		ready: readyUpdate(summary, 'Bundle'),
	};
}
