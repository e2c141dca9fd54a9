// What Fleet's controllers write into parent objects, computed from BundleDeployments (and Clusters for groups).
// Sources: rancher/fleet @ 3b2c622ce176 internal/resourcestatus/resourcekey.go, internal/cmd/controller/status/status.go,
// gitops/reconciler/status_controller.go, helmops/reconciler/helmop_status.go, reconciler/{bundle_status,
// bundle_controller,cluster_controller,clustergroup_controller}.go, target/{status,target,builder}.go.
import { findCondition, readConditions, type Condition } from '../model/condition.ts';
import { labelSelectorMatcherOf, type LabelSelectorMatcher } from '../model/labelSelector.ts';
import { getPath, getString, labelsOf } from '../model/object.ts';
import {
	addResourceCounts,
	addSummaries,
	compareBytewise,
	deploymentStateOf,
	emptyResourceCounts,
	countState,
	emptySummary,
	isSummaryReady,
	maxNonReadyResources,
	messageFromDeployment,
	readBundleSummary,
	readResourceCounts,
	readyConditionOf,
	recordNonReadyResource,
	stateRankOf,
	summaryJsonOf,
	summaryStateOf,
	type BundleDeploymentView,
	type BundleSummary,
	type FleetCondition,
	type FleetState,
	type ResourceCounts,
} from './fleetSummary.ts';

// ---------------------------------------------------------------------------------------------------------------
// resourcestatus (internal/resourcestatus/resourcekey.go)

/** Cluster IDs per state for one resource (resource_types.go PerClusterState; empty lists omitted). */
export interface PerClusterState {
	ready?: string[];
	waitApplied?: string[];
	pending?: string[];
	modified?: string[];
	orphaned?: string[];
	missing?: string[];
	unknown?: string[];
	notReady?: string[];
}

/** One entry of `status.resources` (resource_types.go Resource), as JSON with empty fields omitted. */
export interface FleetResource {
	readonly apiVersion?: string;
	readonly kind?: string;
	readonly type?: string;
	readonly id?: string;
	readonly namespace?: string;
	readonly name?: string;
	readonly incompleteState?: boolean;
	readonly state?: string;
	readonly perClusterState: PerClusterState;
}

/**
 * The per-cluster bucket of each resource state (resourcekey.go appendToPerClusterState). "updating" (agent's
 * Available=False) and "error" count as NotReady; any other word is dropped.
 */
const perClusterBuckets: ReadonlyMap<string, keyof PerClusterState> = new Map([
	['Ready', 'ready'],
	['WaitApplied', 'waitApplied'],
	['Pending', 'pending'],
	['Modified', 'modified'],
	['NotReady', 'notReady'],
	['updating', 'notReady'],
	['error', 'notReady'],
	['Orphaned', 'orphaned'],
	['Missing', 'missing'],
	['Unknown', 'unknown'],
]);

function appendPerClusterState(states: PerClusterState, state: string, clusterID: string): void {
	const bucket = perClusterBuckets.get(state);
	if (bucket === undefined) return;
	const list = states[bucket];
	if (list) list.push(clusterID);
	else states[bucket] = [clusterID];
}

/**
 * The state every resource of a BundleDeployment starts from (resourcekey.go resourcesDefaultState): the BD state,
 * except NotReady and Modified, which come from resource statuses, so they read Ready (Unknown when truncated).
 */
function resourcesDefaultState(bd: BundleDeploymentView): string {
	const state = deploymentStateOf(bd);
	if (state === 'NotReady' || state === 'Modified') return bd.incompleteState ? 'Unknown' : 'Ready';
	return state;
}

/** resourcekey.go toType: "<group>." + lower(kind), no group for core "v1". */
function resourceTypeOf(apiVersion: string, kind: string): string {
	let group = apiVersion.split('/', 1)[0] ?? '';
	if (group === 'v1') group = '';
	else if (group.length > 0) group += '.';
	return group + kind.toLowerCase();
}

interface ResourceAggregate {
	readonly kind: string;
	readonly apiVersion: string;
	readonly namespace: string;
	readonly name: string;
	/** Per-cluster states in BD order, as two parallel lists to spare 100k small objects. */
	readonly states: string[];
	readonly clusterIDs: string[];
	incomplete: boolean;
	/** Index of the last BD that added an entry: a later list of the same BD overrides instead of appending. */
	lastBd: number;
}

/** Upstream stops adding cluster IDs to perClusterState after this many bytes of IDs per status (resourcekey.go). */
export const maxPerClusterStateBytes = 1024 * 1024;

/** The resource fields of a GitRepo/HelmOp status (resourcestatus.SetResources). */
export interface ResourcesStatus {
	readonly resources: readonly FleetResource[];
	readonly resourceCounts: ResourceCounts;
	readonly perClusterResourceCounts: Readonly<Record<string, ResourceCounts>>;
}

/** Characters where UTF-16 order and UTF-8 byte order can disagree (surrogates and U+E000..U+FFFF). */
const nonBmpOrder = /[\ud800-\uffff]/;

/**
 * Items sorted by a string key in Go's byte order, ties in input order. Go's sort.Slice is not stable, so for ties
 * Fleet's order is arbitrary; keeping input order is one of its possible answers.
 */
function stableSorted<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
	const keys = items.map(keyOf);
	// Sorting indexes over a key list spares one wrapper object per item (roll-ups sort 100k BDs).
	const order = items.map((_, index) => index);
	// The native comparison is byte order unless a key holds a character from U+D800 up; check once, not per compare.
	if (keys.some((key) => nonBmpOrder.test(key))) {
		order.sort((a, b) => compareBytewise(keys[a] ?? '', keys[b] ?? '') || a - b);
	} else {
		order.sort((a, b) => {
			const x = keys[a] ?? '';
			const y = keys[b] ?? '';
			return x < y ? -1 : x > y ? 1 : a - b;
		});
	}
	return order.map((index) => items[index] as T);
}

/** "<cluster-namespace label>/<cluster label>" of a BundleDeployment (resourcekey.go clusterID). */
export function clusterIdOf(bd: BundleDeploymentView): string {
	return `${bd.links.clusterNamespace}/${bd.links.cluster}`;
}

/** BDs grouped by cluster ID in input order; the ID string is built once per cluster, not once per BD. */
function groupByCluster(bds: readonly BundleDeploymentView[]): Map<string, BundleDeploymentView[]> {
	const byLabels = new Map<string, Map<string, BundleDeploymentView[]>>();
	for (const bd of bds) {
		const byName = nestedMap(byLabels, bd.links.clusterNamespace);
		const group = byName.get(bd.links.cluster);
		if (group) group.push(bd);
		else byName.set(bd.links.cluster, [bd]);
	}
	const groups = new Map<string, BundleDeploymentView[]>();
	for (const byName of byLabels.values()) {
		for (const group of byName.values()) {
			const first = group[0];
			if (!first) continue;
			// Two label pairs can join to one ID (a "/" inside a label value); merge them as Go's string key does.
			const id = clusterIdOf(first);
			const existing = groups.get(id);
			if (existing) for (const view of group) existing.push(view);
			else groups.set(id, group);
		}
	}
	return groups;
}

/**
 * resourcestatus.SetResources: per resource key, the per-cluster states over the BundleDeployments sorted by cluster
 * ID; each BD's default state is overridden per resource by nonReadyStatus[].summary.state, then by modifiedStatus
 * (Orphaned for delete, Missing for create, else Modified); the top-level state is the first non-Ready per-cluster
 * state; counts are summed, also per cluster ID.
 */
export function setResources(bds: readonly BundleDeploymentView[]): ResourcesStatus {
	// Keyed name -> namespace, then a short scan over kind and apiVersion: nested maps reuse each input string's
	// hash instead of hashing a joined key for each of several 100k resource entries, and the scan spares two more.
	const byKey = new Map<string, Map<string, ResourceAggregate[]>>();
	const all: ResourceAggregate[] = [];
	// One state per resource key per BD: a later list of the same BD overrides an earlier one
	// (resourcekey.go bundleDeploymentResources builds a map per BD).
	const put = (
		resource: ResourceAggregateKey,
		state: string,
		bdIndex: number,
		clusterID: string,
		incomplete: boolean,
	): void => {
		const byNamespace = nestedMap(byKey, resource.name);
		let bucket = byNamespace.get(resource.namespace);
		if (!bucket) {
			bucket = [];
			byNamespace.set(resource.namespace, bucket);
		}
		let aggregate = bucket.find(
			(a) => a.kind === resource.kind && a.apiVersion === resource.apiVersion,
		);
		if (!aggregate) {
			aggregate = {
				kind: resource.kind,
				apiVersion: resource.apiVersion,
				namespace: resource.namespace,
				name: resource.name,
				states: [],
				clusterIDs: [],
				incomplete: false,
				lastBd: -1,
			};
			bucket.push(aggregate);
			all.push(aggregate);
		}
		if (incomplete) aggregate.incomplete = true;
		if (aggregate.lastBd === bdIndex) {
			aggregate.states[aggregate.states.length - 1] = state;
			return;
		}
		aggregate.lastBd = bdIndex;
		aggregate.states.push(state);
		aggregate.clusterIDs.push(clusterID);
	};
	// Upstream sorts all BDs by cluster ID; grouping by cluster and sorting the distinct IDs gives the same sequence
	// (ties in input order, where Go's unstable sort leaves them arbitrary) without sorting 100k BDs.
	const groups = groupByCluster(bds);
	const clusterIDs = stableSorted([...groups.keys()], (id) => id);
	let bdIndex = -1;
	for (const clusterID of clusterIDs) {
		for (const bd of groups.get(clusterID) ?? []) {
			bdIndex++;
			const incomplete = bd.incompleteState;
			forEachResourceState(bd, (resource, state) =>
				put(resource, state, bdIndex, clusterID, incomplete),
			);
		}
	}

	// Upstream walks keys in descending "<kind><apiVersion> <ns>/<name>" order so the 1 MiB cut is stable.
	const aggregates = stableSorted(all, resourceWalkKeyOf).reverse();
	let size = 0;
	const resources: { resource: FleetResource; sortKey: string }[] = [];
	for (const aggregate of aggregates) {
		const built = fleetResourceOf(
			aggregate,
			aggregate.states,
			aggregate.clusterIDs,
			aggregate.incomplete,
			size,
		);
		size = built.size;
		resources.push({ resource: built.resource, sortKey: resourceSortKeyOf(aggregate) });
	}
	const resourceCounts = emptyResourceCounts();
	// encoding/json writes map keys sorted; defineProperty keeps an ID like "__proto__" an own key.
	const perClusterResourceCounts: Record<string, ResourceCounts> = {};
	for (const clusterID of clusterIDs) {
		const counts = emptyResourceCounts();
		for (const bd of groups.get(clusterID) ?? []) addResourceCounts(counts, bd.resourceCounts);
		addResourceCounts(resourceCounts, counts);
		Object.defineProperty(perClusterResourceCounts, clusterID, {
			value: counts,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return {
		resources: stableSorted(resources, (entry) => entry.sortKey).map((entry) => entry.resource),
		resourceCounts,
		perClusterResourceCounts,
	};
}

/** What identifies one entry of `status.resources`: kind, apiVersion, namespace and name. */
export type ResourceAggregateKey = Pick<
	ResourceAggregate,
	'kind' | 'apiVersion' | 'namespace' | 'name'
>;

/**
 * The resource states one BundleDeployment contributes, in the order setResources applies them: every listed
 * resource at the BD's default state, then nonReadyStatus[].summary.state, then modifiedStatus (Orphaned for delete,
 * Missing for create, else Modified). A later state for the same key overrides an earlier one.
 */
export function forEachResourceState(
	bd: BundleDeploymentView,
	put: (resource: ResourceAggregateKey, state: string) => void,
): void {
	if (bd.resources.length > 0) {
		const defaultState = resourcesDefaultState(bd);
		for (const resource of bd.resources) put(resource, defaultState);
	}
	for (const nonReady of bd.nonReadyStatus) put(nonReady, nonReady.summary.state);
	for (const modified of bd.modifiedStatus) {
		put(modified, modified.delete ? 'Orphaned' : modified.missing ? 'Missing' : 'Modified');
	}
}

/** The key setResources sorts its output by: "<type>/<id>" (resourcestatus.go). */
export function resourceSortKeyOf(resource: ResourceAggregateKey): string {
	const type = resourceTypeOf(resource.apiVersion, resource.kind);
	const id = resource.namespace === '' ? resource.name : `${resource.namespace}/${resource.name}`;
	return `${type}/${id}`;
}

/** The key upstream walks resources by, in descending order, for the 1 MiB cut: "<kind><apiVersion> <ns>/<name>". */
export function resourceWalkKeyOf(resource: ResourceAggregateKey): string {
	return `${resource.kind}${resource.apiVersion} ${resource.namespace}/${resource.name}`;
}

/**
 * One entry of `status.resources` from its per-cluster states in BD order (cluster ID, then input order), with
 * `size` the cluster-ID bytes the walk counted before it; returns the size after it. The top-level state is the first
 * non-Ready per-cluster state; cluster IDs past the 1 MiB budget are left out of perClusterState.
 */
export function fleetResourceOf(
	key: ResourceAggregateKey,
	states: readonly string[],
	clusterIDs: readonly string[],
	incomplete: boolean,
	size: number,
): { resource: FleetResource; size: number } {
	const perClusterState: PerClusterState = {};
	let state = 'Ready';
	for (let i = 0; i < states.length; i++) {
		const entryState = states[i] ?? '';
		const clusterID = clusterIDs[i] ?? '';
		// Cluster IDs are Kubernetes names (ASCII), so string length equals Go's byte length.
		size += clusterID.length;
		if (size < maxPerClusterStateBytes) {
			appendPerClusterState(perClusterState, entryState, clusterID);
		}
		if (state === 'Ready') state = entryState;
	}
	const type = resourceTypeOf(key.apiVersion, key.kind);
	const id = key.namespace === '' ? key.name : `${key.namespace}/${key.name}`;
	// Fields in Go struct order, empty ones omitted, so the JSON reads like the stored status.
	const resource: {
		-readonly [K in keyof FleetResource]: FleetResource[K];
	} = {
		...(key.apiVersion ? { apiVersion: key.apiVersion } : {}),
		...(key.kind ? { kind: key.kind } : {}),
		...(type ? { type } : {}),
		...(id ? { id } : {}),
		...(key.namespace ? { namespace: key.namespace } : {}),
		...(key.name ? { name: key.name } : {}),
		...(incomplete ? { incompleteState: true } : {}),
		...(state ? { state } : {}),
		perClusterState,
	};
	return { resource, size };
}

function nestedMap<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
	let inner = outer.get(key);
	if (!inner) {
		inner = new Map();
		outer.set(key, inner);
	}
	return inner;
}

// ---------------------------------------------------------------------------------------------------------------
// GitRepo and HelmOp (status/status.go SetFields + setStatus/setStatusHelm)

/** `status.display` of a GitRepo or HelmOp (status.go StatusDisplay; empty fields omitted). */
export interface StatusDisplay {
	readonly readyBundleDeployments?: string;
	readonly state?: string;
	readonly message?: string;
	readonly error?: boolean;
}

/** What the GitRepo/HelmOp status controllers compute into StatusBase, in Fleet's JSON field names. */
export interface StatusBaseComputed {
	readonly readyClusters: number;
	readonly desiredReadyClusters: number;
	readonly summary: Record<string, unknown>;
	readonly display: StatusDisplay;
	readonly resources?: readonly FleetResource[];
	readonly resourceCounts: ResourceCounts;
	readonly perClusterResourceCounts?: Readonly<Record<string, ResourceCounts>>;
	readonly readyCondition: FleetCondition;
}

function readyConditionFrom(object: unknown): Condition | undefined {
	return object === undefined
		? undefined
		: findCondition(readConditions(object).conditions, 'Ready');
}

/** A summary built as upstream builds it, BDs in one order, with the worst state and its message. */
export interface SummaryInOrder {
	readonly summary: BundleSummary;
	/** The worst state ("" for no BDs); Ready when all are. */
	readonly worst: FleetState | '';
	/** MessageFromDeployment of the first BD, in that order, whose state is the worst. */
	readonly message: string;
}

/** A summary in order, with the per-BD states. */
interface OrderedSummary extends SummaryInOrder {
	readonly states: readonly FleetState[];
}

/**
 * IncrementState over BDs as if they were first sorted by `orderKey` (setStatus by UID, the Cluster controller by
 * name, Bundle targets by cluster name), plus desiredReady per BD. Counters do not depend on order and only non-Ready
 * BDs are recorded, so only those are sorted: a healthy 100k-BD fleet sorts nothing.
 */
function summarizeInOrder(
	bds: readonly BundleDeploymentView[],
	orderKey: (bd: BundleDeploymentView) => string,
	nameOf: (bd: BundleDeploymentView) => string,
): OrderedSummary {
	const summary = emptySummary();
	const states = bds.map((bd) => deploymentStateOf(bd));
	const nonReady: number[] = [];
	let worst: FleetState | '' = '';
	for (let index = 0; index < states.length; index++) {
		const state = states[index] as FleetState;
		countState(summary, state);
		summary.desiredReady++;
		if (state !== 'Ready') nonReady.push(index);
		if (stateRankOf(state) > stateRankOf(worst)) worst = state;
	}
	let message = '';
	let messageFound = worst === 'Ready' || worst === '';
	for (const index of stableSorted(nonReady, (i) => orderKey(bds[i] as BundleDeploymentView))) {
		const bd = bds[index] as BundleDeploymentView;
		const state = states[index] as FleetState;
		const name = nameOf(bd);
		const wantEntry = name !== '' && summary.nonReadyResources.length < maxNonReadyResources;
		const wantMessage = !messageFound && state === worst;
		if (!wantEntry && !wantMessage) {
			if (messageFound) break;
			continue;
		}
		const bdMessage = messageFromDeployment(bd);
		if (wantEntry) {
			recordNonReadyResource(summary, name, state, bdMessage, bd.modifiedStatus, bd.nonReadyStatus);
		}
		if (wantMessage) {
			message = bdMessage;
			messageFound = true;
		}
	}
	return { summary, states, worst, message };
}

/**
 * StatusBase of a GitRepo or HelmOp from its BundleDeployments (status.go SetFields, resourcestatus.SetResources,
 * SetReadyConditions "Bundle", display.readyBundleDeployments), counting BDs in UID order as setStatus does.
 * `owner` is the GitRepo/HelmOp whose existing Ready reason survives a False (wrangler keeps it).
 */
export function statusBaseOf(
	bds: readonly BundleDeploymentView[],
	owner?: unknown,
): StatusBaseComputed {
	const ordered = summarizeInOrder(
		bds,
		(bd) => bd.uid,
		(bd) => bd.name,
	);
	const { states } = ordered;
	// Keyed by the two label strings (client.ObjectKey upstream), not a string joined per BD.
	const perCluster = new Map<string, Map<string, { count: number; ready: number }>>();
	let desiredReadyClusters = 0;
	bds.forEach((bd, index) => {
		// Old BDs may lack the cluster labels; status.go skips them for the cluster counts.
		if (bd.links.cluster === '' || bd.links.clusterNamespace === '') return;
		const byName = nestedMap(perCluster, bd.links.clusterNamespace);
		let counts = byName.get(bd.links.cluster);
		if (!counts) {
			counts = { count: 0, ready: 0 };
			byName.set(bd.links.cluster, counts);
			desiredReadyClusters++;
		}
		counts.count++;
		if (states[index] === 'Ready') counts.ready++;
	});
	let readyClusters = 0;
	for (const byName of perCluster.values()) {
		for (const counts of byName.values()) {
			if (counts.ready > 0 && counts.ready === counts.count) readyClusters++;
		}
	}
	return statusBaseFrom(owner, ordered, { readyClusters, desiredReadyClusters }, setResources(bds));
}

/** How many clusters of a GitRepo/HelmOp have BDs (with both cluster labels), and on how many all are Ready. */
export interface ClusterReadiness {
	readonly readyClusters: number;
	readonly desiredReadyClusters: number;
}

/** StatusBase from its parts, computed from a list (statusBaseOf) or kept up to date per BD by the resource graph. */
export function statusBaseFrom(
	owner: unknown,
	ordered: SummaryInOrder,
	clusters: ClusterReadiness,
	resources: ResourcesStatus,
): StatusBaseComputed {
	const { summary, worst } = ordered;
	let maxState = worst;
	let message = ordered.message;
	if (maxState === 'Ready') {
		maxState = '';
		message = '';
	}
	const display: { -readonly [K in keyof StatusDisplay]: StatusDisplay[K] } = {
		readyBundleDeployments: `${summary.ready}/${summary.desiredReady}`,
	};
	if (maxState !== '') display.state = maxState;
	if (message !== '') {
		display.message = message;
		display.error = true;
	}
	// Fields in StatusBase order; Go omits an empty resources list and an empty per-cluster map.
	return {
		readyClusters: clusters.readyClusters,
		desiredReadyClusters: clusters.desiredReadyClusters,
		summary: summaryJsonOf(summary),
		display,
		...(resources.resources.length > 0 ? { resources: resources.resources } : {}),
		resourceCounts: resources.resourceCounts,
		...(Object.keys(resources.perClusterResourceCounts).length > 0
			? { perClusterResourceCounts: resources.perClusterResourceCounts }
			: {}),
		readyCondition: readyConditionOf(summary, 'Bundle', readyConditionFrom(owner)),
	};
}

/** What the GitRepo status controller writes (gitops/reconciler/status_controller.go). */
export interface GitRepoComputed extends StatusBaseComputed {
	readonly kind: 'GitRepo';
	/** Fields the input cannot settle, as JSON paths (e.g. the Ready override when the repo's Bundles are absent). */
	readonly underivable?: readonly string[];
}

/** What the HelmOp status controller writes (helmops/reconciler/helmop_status.go). */
export interface HelmOpComputed extends StatusBaseComputed {
	readonly kind: 'HelmOp';
}

/**
 * Whether Fleet's status controllers leave this object's status as it is: a GitRepo, HelmOp or Cluster being
 * deleted (gitops status_controller.go and helmop_status.go return early, the cluster controller only runs its
 * deletion). No roll-up is recomputed for those. (The GitRepo controller also skips an empty spec.repo; that is
 * not followed here, so a GitRepo written without its spec, as in trimmed dumps, still gets its roll-up.)
 */
export function fleetStatusFrozen(kind: string, object: unknown): boolean {
	if (kind !== 'GitRepo' && kind !== 'HelmOp' && kind !== 'Cluster') return false;
	return Boolean(getString(object, 'metadata', 'deletionTimestamp'));
}

/**
 * The status the GitRepo status controller writes: StatusBase from the repo's BDs; display.state "GitUpdating" while
 * status.gitJobStatus is not "Current" (absent included); and the first (by UID) Bundle of the repo whose Ready is False replaces the
 * Ready condition, which surfaces rendering errors that leave no BDs (setReadyStatusFromBundle).
 */
export function gitRepoStatusOf(
	gitRepo: unknown,
	bds: readonly BundleDeploymentView[],
	bundles: readonly unknown[],
	bundlesKnown = true,
): GitRepoComputed {
	return gitRepoStatusFrom(gitRepo, statusBaseOf(bds, gitRepo), bundles, bundlesKnown);
}

/** The GitRepo status from its StatusBase (see gitRepoStatusOf). */
export function gitRepoStatusFrom(
	gitRepo: unknown,
	base: StatusBaseComputed,
	bundles: readonly unknown[],
	bundlesKnown: boolean,
): GitRepoComputed {
	// status_controller.go (every release since 0.12): `if gitrepo.Status.GitJobStatus != "Current"`, so a status
	// with neither the field ("" in Go) nor a display is GitUpdating too: no git job has finished for it yet. A
	// display written without gitJobStatus comes from a controller that does not write the field; it is recomputed.
	const gitJobStatus = getString(gitRepo, 'status', 'gitJobStatus');
	const forced =
		gitJobStatus === undefined
			? getPath(gitRepo, 'status', 'display') === undefined
			: gitJobStatus !== 'Current';
	const display = forced ? { ...base.display, state: 'GitUpdating' } : base.display;
	let readyCondition = base.readyCondition;
	const failing = stableSorted(bundles, (bundle) => getString(bundle, 'metadata', 'uid') ?? '')
		.map((bundle) =>
			readConditions(bundle).conditions.find((c) => c.type === 'Ready' && c.status === 'False'),
		)
		.find((condition) => condition !== undefined);
	if (failing) {
		readyCondition = failing.reason
			? { type: 'Ready', status: 'False', reason: failing.reason, message: failing.message ?? '' }
			: { type: 'Ready', status: 'False', message: failing.message ?? '' };
	}
	return {
		kind: 'GitRepo',
		...base,
		display,
		readyCondition,
		...(bundlesKnown ? {} : { underivable: ['readyCondition'] }),
	};
}

/** The status the HelmOp status controller writes (helmop_status.go setStatusHelm). */
export function helmOpStatusOf(
	helmOp: unknown,
	bds: readonly BundleDeploymentView[],
): HelmOpComputed {
	return helmOpStatusFrom(statusBaseOf(bds, helmOp));
}

/** The HelmOp status from its StatusBase. */
export function helmOpStatusFrom(base: StatusBaseComputed): HelmOpComputed {
	return { kind: 'HelmOp', ...base };
}

// ---------------------------------------------------------------------------------------------------------------
// Bundle (bundle_status.go resetStatus/updateDisplay, target/status.go Summary/Unavailable)

/**
 * Bundle fields a roll-up from BundleDeployments cannot settle: targets without a BD (Pending) exist only in the
 * controller's matching of Clusters against spec.targets, and the limits depend on the number of targets.
 */
const bundleUnderivable = [
	'summary.pending',
	'summary.desiredReady',
	'maxUnavailable',
	'maxUnavailablePartitions',
	'partitions',
] as const;

/** What the Bundle controller writes, as far as the BDs tell. */
export interface BundleComputed {
	readonly kind: 'Bundle';
	readonly summary: Record<string, unknown>;
	readonly unavailable: number;
	readonly display: { readonly readyClusters: string; readonly state?: string };
	readonly readyCondition: FleetCondition;
	/** Counts that include targets without a BundleDeployment, which the input cannot show (see bundleUnderivable). */
	readonly underivable: readonly string[];
}

/**
 * The Bundle status from its BundleDeployments, each standing for one target: targets sorted by cluster name
 * (builder.go), summary entries named "<cluster namespace>/<cluster name>", unavailable = BDs not applied or not
 * ready, Ready condition with kind "Cluster", display.readyClusters "ready/desiredReady", display.state the worst.
 */
export function bundleStatusOf(
	bundle: unknown,
	bds: readonly BundleDeploymentView[],
): BundleComputed {
	const { summary } = summarizeInOrder(bds, bundleOrderKeyOf, bundleEntryNameOf);
	let unavailable = 0;
	for (const bd of bds) {
		if (isBdUnavailable(bd)) unavailable++;
	}
	return bundleStatusFrom(bundle, summary, unavailable);
}

/** The order Bundle targets are counted in: by cluster name (builder.go). */
export function bundleOrderKeyOf(bd: BundleDeploymentView): string {
	return bd.links.cluster;
}

/** How a Bundle's summary names a BD: "<cluster namespace>/<cluster name>". */
export function bundleEntryNameOf(bd: BundleDeploymentView): string {
	return `${bd.links.clusterNamespace}/${bd.links.cluster}`;
}

/** True when a BD counts as unavailable for its Bundle: not applied or not ready (target/status.go). */
export function isBdUnavailable(bd: BundleDeploymentView): boolean {
	return bd.appliedDeploymentID !== bd.deploymentID || !bd.ready;
}

/** The Bundle status from its summary and unavailable count (see bundleStatusOf). */
export function bundleStatusFrom(
	bundle: unknown,
	summary: BundleSummary,
	unavailable: number,
): BundleComputed {
	const state = summaryStateOf(summary);
	return {
		kind: 'Bundle',
		summary: summaryJsonOf(summary),
		unavailable,
		display:
			state === ''
				? { readyClusters: `${summary.ready}/${summary.desiredReady}` }
				: { readyClusters: `${summary.ready}/${summary.desiredReady}`, state },
		readyCondition: readyConditionOf(summary, 'Cluster', readyConditionFrom(bundle)),
		underivable: bundleUnderivable,
	};
}

// ---------------------------------------------------------------------------------------------------------------
// Cluster (reconciler/cluster_controller.go)

/** What the Cluster controller writes. */
export interface ClusterComputed {
	readonly kind: 'Cluster';
	readonly summary: Record<string, unknown>;
	readonly resourceCounts: ResourceCounts;
	readonly readyGitRepos: number;
	readonly desiredReadyGitRepos: number;
	readonly readyHelmOps: number;
	readonly desiredReadyHelmOps: number;
	readonly display: { readonly readyBundles: string; readonly state?: string };
	readonly readyCondition: FleetCondition;
	/** Repo counts that depend on GitRepos/HelmOps missing from the input. */
	readonly underivable?: readonly string[];
}

/** "namespace/name" keys of the GitRepos and HelmOps that exist; the Cluster controller counts only those. */
export interface ExistingOwners {
	readonly gitRepos: ReadonlySet<string>;
	readonly helmOps: ReadonlySet<string>;
}

/** True when a Cluster's agent has never checked in: status.agent.lastSeen absent, null or Go's zero time. */
export function isAgentLastSeenZero(cluster: unknown): boolean {
	const lastSeen = getPath(cluster, 'status', 'agent', 'lastSeen');
	return typeof lastSeen !== 'string' || lastSeen === '' || lastSeen.startsWith('0001-01-01');
}

/**
 * The Cluster status from its BundleDeployments (cluster_controller.go Reconcile): BDs sorted by name; summary with
 * kind "Bundle"; resourceCounts summed; a GitRepo/HelmOp counts only if it exists and is ready when ANY of its BDs
 * here is Ready (as coded upstream); display.state the worst state, "WaitCheckIn" while the agent never checked in.
 */
export function clusterStatusOf(
	cluster: unknown,
	bds: readonly BundleDeploymentView[],
	existing: ExistingOwners,
): ClusterComputed {
	const { summary, states } = summarizeInOrder(
		bds,
		(bd) => bd.name,
		(bd) => bd.name,
	);
	const resourceCounts = emptyResourceCounts();
	const gitRepos = new Map<string, Map<string, boolean>>();
	const helmOps = new Map<string, Map<string, boolean>>();
	bds.forEach((bd, index) => {
		addResourceCounts(resourceCounts, bd.resourceCounts);
		const owner = clusterOwnerOf(bd);
		if (!owner) return;
		const byName = nestedMap(owner.gitRepo ? gitRepos : helmOps, owner.namespace);
		byName.set(owner.name, states[index] === 'Ready' || (byName.get(owner.name) ?? false));
	});
	return clusterStatusFrom(cluster, summary, resourceCounts, {
		gitRepos: countClusterOwners(gitRepos, existing.gitRepos),
		helmOps: countClusterOwners(helmOps, existing.helmOps),
	});
}

/**
 * The GitRepo or HelmOp the Cluster controller counts a BD for: its repo-name label (with both set, never expected,
 * upstream counts the GitRepo), else its fleet-helm-name label, in its bundle namespace; none without those.
 */
export function clusterOwnerOf(
	bd: BundleDeploymentView,
): { readonly gitRepo: boolean; readonly namespace: string; readonly name: string } | undefined {
	const namespace = bd.links.bundleNamespace;
	if (namespace === '') return undefined;
	const gitRepo = bd.links.repoName !== '';
	const name = gitRepo ? bd.links.repoName : bd.links.helmOpName;
	return name === '' ? undefined : { gitRepo, namespace, name };
}

/**
 * The GitRepos (or HelmOps) a Cluster counts: those that exist, and how many of them have a Ready BD there; `missing`
 * when a BD names one absent from the input (upstream skips owners it cannot get; absent may mean "not dumped").
 */
export interface ClusterOwnerCounts {
	readonly desired: number;
	readonly ready: number;
	readonly missing: boolean;
}

/** Owner counts from "any BD Ready" per bundle namespace and name, and the owners that exist. */
function countClusterOwners(
	byNamespace: ReadonlyMap<string, ReadonlyMap<string, boolean>>,
	known: ReadonlySet<string>,
): ClusterOwnerCounts {
	let desired = 0;
	let ready = 0;
	let missing = false;
	for (const [namespace, byName] of byNamespace) {
		for (const [name, isReady] of byName) {
			if (!known.has(`${namespace}/${name}`)) {
				missing = true;
				continue;
			}
			desired++;
			if (isReady) ready++;
		}
	}
	return { desired, ready, missing };
}

/** The Cluster status from its parts (see clusterStatusOf). */
export function clusterStatusFrom(
	cluster: unknown,
	summary: BundleSummary,
	resourceCounts: ResourceCounts,
	owners: { readonly gitRepos: ClusterOwnerCounts; readonly helmOps: ClusterOwnerCounts },
): ClusterComputed {
	const underivable: string[] = [];
	if (owners.gitRepos.missing) underivable.push('readyGitRepos', 'desiredReadyGitRepos');
	if (owners.helmOps.missing) underivable.push('readyHelmOps', 'desiredReadyHelmOps');
	const repos = owners.gitRepos;
	const ops = owners.helmOps;
	const worst = summaryStateOf(summary);
	const state = isAgentLastSeenZero(cluster) ? 'WaitCheckIn' : worst;
	const readyBundles = `${summary.ready}/${summary.desiredReady}`;
	return {
		kind: 'Cluster',
		summary: summaryJsonOf(summary),
		resourceCounts,
		readyGitRepos: repos.ready,
		desiredReadyGitRepos: repos.desired,
		readyHelmOps: ops.ready,
		desiredReadyHelmOps: ops.desired,
		display: state === '' ? { readyBundles } : { readyBundles, state },
		readyCondition: readyConditionOf(summary, 'Bundle', readyConditionFrom(cluster)),
		...(underivable.length > 0 ? { underivable } : {}),
	};
}

// ---------------------------------------------------------------------------------------------------------------
// ClusterGroup (reconciler/clustergroup_controller.go)

/** Upstream names at most this many non-ready clusters (clustergroup_controller.go MaxReportedNonReadyClusters). */
const maxReportedNonReadyClusters = 10;

/** What the ClusterGroup controller writes. */
export interface ClusterGroupComputed {
	readonly kind: 'ClusterGroup';
	readonly clusterCount: number;
	readonly nonReadyClusterCount: number;
	readonly nonReadyClusters?: readonly string[];
	readonly summary: Record<string, unknown>;
	readonly resourceCounts: ResourceCounts;
	readonly display: {
		readonly readyBundles: string;
		readonly readyClusters: string;
		readonly state?: string;
	};
	readonly readyCondition: FleetCondition;
	/** Set when spec.selector is invalid: upstream then only writes Processed=False and keeps the old counts. */
	readonly processedCondition?: FleetCondition;
	readonly underivable?: readonly string[];
}

/** A Cluster's summary and resource counts, as the ClusterGroup controller reads them. */
export interface SummaryParts {
	readonly summary: BundleSummary;
	readonly resourceCounts: ResourceCounts;
}

/** A Cluster's summary as the ClusterGroup controller reads it: from its status, unless the caller computed one. */
export type ClusterSummaryLookup = (cluster: unknown) => SummaryParts;

/** Reads a Cluster's written status.summary and status.resourceCounts. */
export function writtenClusterSummary(cluster: unknown): SummaryParts {
	return {
		summary: readBundleSummary(getPath(cluster, 'status', 'summary')),
		resourceCounts: readResourceCounts(getPath(cluster, 'status', 'resourceCounts')),
	};
}

/** The Clusters a ClusterGroup counts: those of its namespace its selector matches, sorted by name (none if invalid). */
export function clusterGroupMembersOf<T>(
	group: unknown,
	clusters: readonly T[],
	matcher: LabelSelectorMatcher = labelSelectorMatcherOf(getPath(group, 'spec', 'selector')),
): T[] {
	if (!matcher.ok) return [];
	const namespace = getString(group, 'metadata', 'namespace') ?? '';
	return stableSorted(
		clusters.filter(
			(cluster) =>
				(getString(cluster, 'metadata', 'namespace') ?? '') === namespace &&
				matcher.matches(labelsOf(cluster)),
		),
		(cluster) => getString(cluster, 'metadata', 'name') ?? '',
	);
}

/**
 * The ClusterGroup status (clustergroup_controller.go Reconcile): Clusters of the group's namespace matching
 * spec.selector, sorted by name; summaries added with Increment, counts summed; a cluster is non-ready when its
 * summary is not ready; display.readyClusters "ready/count" plus " (a,b)" naming up to 10 non-ready clusters.
 */
export function clusterGroupStatusOf(
	group: unknown,
	clusters: readonly unknown[],
	summaryOf: ClusterSummaryLookup = writtenClusterSummary,
): ClusterGroupComputed {
	const matcher = labelSelectorMatcherOf(getPath(group, 'spec', 'selector'));
	const members = clusterGroupMembersOf(group, clusters, matcher);
	const summary = emptySummary();
	const resourceCounts = emptyResourceCounts();
	let nonReadyClusterCount = 0;
	const nonReadyClusters: string[] = [];
	for (const cluster of members) {
		const parts = summaryOf(cluster);
		addResourceCounts(resourceCounts, parts.resourceCounts);
		addSummaries(summary, parts.summary);
		if (!isSummaryReady(parts.summary)) {
			nonReadyClusterCount++;
			if (nonReadyClusters.length < maxReportedNonReadyClusters) {
				nonReadyClusters.push(getString(cluster, 'metadata', 'name') ?? '');
			}
		}
	}
	const clusterCount = members.length;
	let readyClusters = `${clusterCount - nonReadyClusterCount}/${clusterCount}`;
	if (nonReadyClusters.length > 0) readyClusters += ` (${nonReadyClusters.join(',')})`;
	const state = summaryStateOf(summary);
	const readyBundles = `${summary.ready}/${summary.desiredReady}`;
	return {
		kind: 'ClusterGroup',
		clusterCount,
		nonReadyClusterCount,
		...(nonReadyClusters.length > 0 ? { nonReadyClusters } : {}),
		summary: summaryJsonOf(summary),
		resourceCounts,
		display:
			state === '' ? { readyBundles, readyClusters } : { readyBundles, readyClusters, state },
		readyCondition: readyConditionOf(summary, 'Bundle', readyConditionFrom(group)),
		...(matcher.ok
			? {}
			: {
					processedCondition: {
						type: 'Processed',
						status: 'False',
						reason: 'Error',
						message: matcher.error,
					},
					underivable: [
						'clusterCount',
						'nonReadyClusterCount',
						'nonReadyClusters',
						'summary',
						'resourceCounts',
						'display',
						'readyCondition',
					],
				}),
	};
}
