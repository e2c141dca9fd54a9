// What a Fleet parent's recomputed roll-up needs from its BundleDeployments, kept per index key (a Bundle slot, a
// GitRepo, a HelmOp, a Cluster's namespace or labels) and brought up to date by the BDs that changed since the
// parent was last computed: each changed BD takes its old contribution away and adds its new one. State counts,
// resource counts, cluster readiness and the non-ready BDs in upstream's order are kept as they go, so a roll-up
// costs what changed, not a walk over thousands of BDs. The order and caps are fleetRollup.ts's: BDs ordered by
// the parent's key (cluster name, BD name, UID), ties in the order the index holds them (registration order).
import {
	bundleEntryNameOf,
	bundleOrderKeyOf,
	clusterIdOf,
	clusterOwnerOf,
	fleetResourceOf,
	forEachResourceState,
	isBdUnavailable,
	maxPerClusterStateBytes,
	resourceSortKeyOf,
	resourceWalkKeyOf,
	setResources,
	type ClusterOwnerCounts,
	type ClusterReadiness,
	type FleetResource,
	type ResourceAggregateKey,
	type ResourcesStatus,
	type SummaryInOrder,
} from '../status/fleetRollup.ts';
import {
	addResourceCounts,
	compareBytewise,
	countState,
	deploymentStateOf,
	emptyResourceCounts,
	emptySummary,
	fleetStates,
	messageFromDeployment,
	readBundleDeployment,
	recordNonReadyResource,
	maxNonReadyResources,
	type BundleDeploymentView,
	type BundleSummary,
	type FleetState,
	type ResourceCounts,
} from '../status/fleetSummary.ts';
import type { AggregateSlot, Entry, IndexName, Root } from './graphState.ts';
import { fleetApiGroup, objectKey } from './linking.ts';

/** The indexes whose keys have an aggregate, and the kind of parent that reads each. */
const aggregateKinds = {
	bdSlot: 'bundle',
	bdRepo: 'owner',
	bdHelm: 'owner',
	bdCluster: 'cluster',
	bdAnyNs: 'cluster',
} as const;
/** An index of BundleDeployments that a Fleet parent rolls up. */
export type AggregateIndex = keyof typeof aggregateKinds;
type AggregateKind = (typeof aggregateKinds)[AggregateIndex];

/** One entry of `status.resources` being kept: its per-cluster states ordered by cluster ID, then registration. */
interface ResourceSlot {
	readonly key: ResourceAggregateKey;
	readonly sortKey: string;
	readonly walkKey: string;
	readonly clusterIDs: string[];
	readonly states: string[];
	readonly seqs: number[];
	/** How many of its entries come from BDs with status.incompleteState. */
	incomplete: number;
	/** The built entry, until the slot changes. */
	built: FleetResource | undefined;
}

/** One cluster ID's BDs and their summed resource counts, with the copy the last output showed. */
interface ClusterCounts {
	bds: number;
	readonly counts: ResourceCounts;
	shown: ResourceCounts | undefined;
}

/** What setResources computes, kept per BD (GitRepo and HelmOp aggregates only). */
interface ResourceIndex {
	readonly slots: Map<string, ResourceSlot>;
	/** The slots in output order: "<type>/<id>" ascending, then the walk key descending (setResources' order). */
	readonly sorted: ResourceSlot[];
	/** How many slots have each walk key: two alike make upstream's order depend on first sight (rebuilt then). */
	readonly walkKeys: Map<string, number>;
	walkTies: number;
	/** The cluster-ID bytes of every per-cluster entry: from 1 MiB on, upstream cuts (rebuilt then). */
	size: number;
	/** Per cluster ID: its BDs and their summed resource counts. */
	readonly clusters: Map<string, ClusterCounts>;
	/** The cluster IDs in byte order. */
	readonly clusterIDs: string[];
	/** Member BDs with a "/" in a cluster label: two label pairs could make one ID (rebuilt then). */
	slashLabels: number;
	/** The last output, until a member changes. */
	output: ResourcesStatus | undefined;
}

/** What one BD added to an aggregate, kept to take it away again. */
interface Member {
	readonly entry: Entry;
	readonly view: BundleDeploymentView;
	/** When the index registered the BD: the order among BDs with the same key. */
	readonly seq: number;
	/** Index of its state in fleetStates. */
	readonly rank: number;
	readonly orderKey: string;
	/** The order key has no character where the native order and Go's byte order differ. */
	readonly plainKey: boolean;
	readonly name: string;
	/** Resource counts that are not small non-negative integers: sums are then redone in input order. */
	readonly unsafeCounts: boolean;
	readonly clusterID: string;
	readonly resources: readonly { readonly slot: ResourceSlot; readonly state: string }[];
	/** Fleet's message for the BD, read when a summary first names it. */
	message: string | undefined;
	readonly owner:
		{ readonly gitRepo: boolean; readonly namespace: string; readonly name: string } | undefined;
}

/** The BDs of one index key, as its Fleet parent rolls them up. */
export interface BdAggregate extends AggregateSlot {
	readonly kind: AggregateKind;
	readonly members: Map<Entry, Member>;
	/** BDs that changed (or moved in or out) since the aggregate was last brought up to date. */
	readonly pending: Set<Entry>;
	/** Members per state, indexed like fleetStates. */
	readonly stateCounts: number[];
	/** Non-Ready members per state (indexed like fleetStates), each in upstream's order. */
	readonly nonReady: Member[][];
	unsafeCounts: number;
	readonly resourceCounts: ResourceCounts;
	unavailable: number;
	/** GitRepo/HelmOp: per cluster label pair, its BDs and how many are Ready. */
	readonly clusterCounts: Map<string, Map<string, { count: number; ready: number }>>;
	readyClusters: number;
	desiredReadyClusters: number;
	readonly resources: ResourceIndex | undefined;
	/** Cluster: per owner kind, namespace and name, its BDs and how many are Ready. */
	readonly owners: {
		readonly gitRepos: Map<string, Map<string, OwnerCounts>>;
		readonly helmOps: Map<string, Map<string, OwnerCounts>>;
	};
}

/** A GitRepo's or HelmOp's BDs on a Cluster, with the owner's entry key (built once: a fresh key string is hashed anew). */
interface OwnerCounts {
	count: number;
	ready: number;
	readonly key: string;
}

/** Counts at or above this (or negative) are summed in input order, as upstream sums them, not kept as they go. */
const largeCount = 2 ** 32;

function isLarge(count: number): boolean {
	return count < 0 || count >= largeCount;
}

/** The engine's reading of a BD, kept until the BD changes. */
export function bdViewOf(entry: Entry): BundleDeploymentView {
	return (entry.bdView ??= readBundleDeployment(entry.object));
}

/** Notes that an entry registered under these memberships (index name, key, ...) changed for their aggregates. */
export function noteAggregateMembers(
	root: Root,
	entry: Entry,
	memberships: readonly string[],
): void {
	if (root.aggregates.size === 0) return;
	for (let position = 0; position < memberships.length; position += 2) {
		const name = memberships[position] as IndexName;
		if (!Object.hasOwn(aggregateKinds, name)) continue;
		root.aggregates
			.get(name)
			?.get(memberships[position + 1] ?? '')
			?.pending.add(entry);
	}
}

/** The aggregate of an index key, up to date: made from the index the first time, then from what changed. */
export function aggregateOf(root: Root, name: AggregateIndex, key: string): BdAggregate {
	let byKey = root.aggregates.get(name);
	if (!byKey) {
		byKey = new Map();
		root.aggregates.set(name, byKey);
	}
	// Only this module puts aggregates in the map, and each is a BdAggregate.
	let aggregate = byKey.get(key) as BdAggregate | undefined;
	if (!aggregate) {
		aggregate = newAggregate(aggregateKinds[name]);
		// The bucket's own order is the registration order (indexes.ts does not import this module back).
		const bucket = root.index[name].get(key);
		for (const entry of bucket === undefined ? [] : bucket instanceof Set ? bucket : [bucket]) {
			if (accepts(aggregate, entry)) addMember(aggregate, entry);
		}
		byKey.set(key, aggregate);
	} else if (aggregate.pending.size > 0) {
		for (const entry of aggregate.pending) {
			const old = aggregate.members.get(entry);
			if (old) removeMember(aggregate, old);
			if (!entry.removed && isIndexedUnder(root, name, key, entry) && accepts(aggregate, entry)) {
				addMember(aggregate, entry);
			}
		}
		aggregate.pending.clear();
		if (aggregate.resources) aggregate.resources.output = undefined;
	}
	// An empty aggregate is made again when needed; dropping it stops BD events from noting anything for it.
	if (aggregate.members.size === 0) byKey.delete(key);
	return aggregate;
}

function isIndexedUnder(root: Root, name: IndexName, key: string, entry: Entry): boolean {
	const bucket = root.index[name].get(key);
	return bucket === entry || (bucket instanceof Set && bucket.has(entry));
}

/** The Bundle counts only BDs that carry the bundle-name label (as computeFleetRollups links them). */
function accepts(aggregate: BdAggregate, entry: Entry): boolean {
	const links = entry.bdLinks;
	return links !== undefined && (aggregate.kind !== 'bundle' || links.bundleKey !== undefined);
}

function newAggregate(kind: AggregateKind): BdAggregate {
	return {
		kind,
		members: new Map(),
		pending: new Set(),
		stateCounts: fleetStates.map(() => 0),
		nonReady: fleetStates.map(() => []),
		unsafeCounts: 0,
		resourceCounts: emptyResourceCounts(),
		unavailable: 0,
		clusterCounts: new Map(),
		readyClusters: 0,
		desiredReadyClusters: 0,
		resources:
			kind === 'owner'
				? {
						slots: new Map(),
						sorted: [],
						walkKeys: new Map(),
						walkTies: 0,
						size: 0,
						clusters: new Map(),
						clusterIDs: [],
						slashLabels: 0,
						output: undefined,
					}
				: undefined,
		owners: { gitRepos: new Map(), helmOps: new Map() },
	};
}

// ---------------------------------------------------------------------------------------------------------------
// Members in and out

function orderKeyOf(kind: AggregateKind, view: BundleDeploymentView): string {
	return kind === 'bundle' ? bundleOrderKeyOf(view) : kind === 'cluster' ? view.name : view.uid;
}

function compareMembers(a: Member, b: Member): number {
	if (a.orderKey === b.orderKey) return a.seq - b.seq;
	if (a.plainKey && b.plainKey) return a.orderKey < b.orderKey ? -1 : 1;
	return compareBytewise(a.orderKey, b.orderKey);
}

/** Characters where UTF-16 order and UTF-8 byte order can disagree (surrogates and U+E000..U+FFFF). */
const nonBmpOrder = /[\ud800-\uffff]/;

/** Go's byte order; the native comparison is the same unless a string holds a character from U+D800 up. */
function compareStrings(a: string, b: string): number {
	if (nonBmpOrder.test(a) || nonBmpOrder.test(b)) return compareBytewise(a, b);
	return a < b ? -1 : a > b ? 1 : 0;
}

function addMember(aggregate: BdAggregate, entry: Entry): void {
	const view = bdViewOf(entry);
	const { kind } = aggregate;
	const state = deploymentStateOf(view);
	const counts = view.resourceCounts;
	const unsafeCounts =
		isLarge(counts.ready) ||
		isLarge(counts.desiredReady) ||
		isLarge(counts.waitApplied) ||
		isLarge(counts.modified) ||
		isLarge(counts.orphaned) ||
		isLarge(counts.missing) ||
		isLarge(counts.unknown) ||
		isLarge(counts.notReady);
	const clusterID = clusterIdOf(view);
	const resources: { slot: ResourceSlot; state: string }[] = [];
	const owner = kind === 'cluster' ? clusterOwnerOf(view) : undefined;
	const orderKey = orderKeyOf(kind, view);
	const member: Member = {
		entry,
		view,
		seq: entry.registered,
		rank: fleetStates.indexOf(state),
		orderKey,
		plainKey: !nonBmpOrder.test(orderKey),
		name: kind === 'bundle' ? bundleEntryNameOf(view) : view.name,
		unsafeCounts,
		clusterID,
		resources,
		message: undefined,
		owner,
	};
	aggregate.members.set(entry, member);
	addAt(aggregate.stateCounts, member.rank, 1);
	if (state !== 'Ready') {
		insertSorted(aggregate.nonReady[member.rank] ?? [], member, compareMembers);
	}
	if (unsafeCounts) aggregate.unsafeCounts++;
	addCounts(aggregate.resourceCounts, counts, 1);
	if (isBdUnavailable(view)) aggregate.unavailable++;
	if (kind === 'owner') {
		countCluster(aggregate, view, state === 'Ready', 1);
		addResources(aggregate, member, resources);
	}
	if (owner) countOwner(aggregate, owner, state === 'Ready', 1);
}

function removeMember(aggregate: BdAggregate, member: Member): void {
	const { view } = member;
	aggregate.members.delete(member.entry);
	addAt(aggregate.stateCounts, member.rank, -1);
	if (fleetStates[member.rank] !== 'Ready') {
		removeSorted(aggregate.nonReady[member.rank] ?? [], member, compareMembers);
	}
	if (member.unsafeCounts) aggregate.unsafeCounts--;
	addCounts(aggregate.resourceCounts, view.resourceCounts, -1);
	if (isBdUnavailable(view)) aggregate.unavailable--;
	const ready = fleetStates[member.rank] === 'Ready';
	if (aggregate.kind === 'owner') {
		countCluster(aggregate, view, ready, -1);
		removeResources(aggregate, member);
	}
	if (member.owner) countOwner(aggregate, member.owner, ready, -1);
}

function addAt(counts: number[], index: number, delta: number): void {
	counts[index] = (counts[index] ?? 0) + delta;
}

function addCounts(sum: ResourceCounts, counts: Readonly<ResourceCounts>, sign: 1 | -1): void {
	sum.ready += sign * counts.ready;
	sum.desiredReady += sign * counts.desiredReady;
	sum.waitApplied += sign * counts.waitApplied;
	sum.modified += sign * counts.modified;
	sum.orphaned += sign * counts.orphaned;
	sum.missing += sign * counts.missing;
	sum.unknown += sign * counts.unknown;
	sum.notReady += sign * counts.notReady;
}

function nested<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
	let inner = outer.get(key);
	if (!inner) {
		inner = new Map();
		outer.set(key, inner);
	}
	return inner;
}

/** status.go: a cluster (by its two labels) counts when it has BDs, and is ready when all of them are Ready. */
function countCluster(
	aggregate: BdAggregate,
	view: BundleDeploymentView,
	ready: boolean,
	delta: 1 | -1,
): void {
	const { cluster, clusterNamespace } = view.links;
	if (cluster === '' || clusterNamespace === '') return;
	const byName = nested(aggregate.clusterCounts, clusterNamespace);
	const counts = byName.get(cluster) ?? { count: 0, ready: 0 };
	const isReady = (c: { count: number; ready: number }) => c.ready > 0 && c.ready === c.count;
	if (counts.count > 0) {
		aggregate.desiredReadyClusters--;
		if (isReady(counts)) aggregate.readyClusters--;
	}
	counts.count += delta;
	if (ready) counts.ready += delta;
	if (counts.count > 0) {
		byName.set(cluster, counts);
		aggregate.desiredReadyClusters++;
		if (isReady(counts)) aggregate.readyClusters++;
	} else {
		byName.delete(cluster);
		if (byName.size === 0) aggregate.clusterCounts.delete(clusterNamespace);
	}
}

function countOwner(
	aggregate: BdAggregate,
	owner: { readonly gitRepo: boolean; readonly namespace: string; readonly name: string },
	ready: boolean,
	delta: 1 | -1,
): void {
	const byNamespace = owner.gitRepo ? aggregate.owners.gitRepos : aggregate.owners.helmOps;
	const byName = nested(byNamespace, owner.namespace);
	const counts = byName.get(owner.name) ?? {
		count: 0,
		ready: 0,
		key: objectKey(
			fleetApiGroup,
			owner.gitRepo ? 'GitRepo' : 'HelmOp',
			owner.namespace,
			owner.name,
		),
	};
	counts.count += delta;
	if (ready) counts.ready += delta;
	if (counts.count > 0) byName.set(owner.name, counts);
	else {
		byName.delete(owner.name);
		if (byName.size === 0) byNamespace.delete(owner.namespace);
	}
}

// ---------------------------------------------------------------------------------------------------------------
// status.resources, per BD

function resourceIdOf(key: ResourceAggregateKey): string {
	const parts = [key.kind, key.apiVersion, key.namespace, key.name];
	return parts.some((part) => part.includes('\u0000'))
		? JSON.stringify(parts)
		: parts.join('\u0000');
}

function compareSlots(a: ResourceSlot, b: ResourceSlot): number {
	return compareStrings(a.sortKey, b.sortKey) || compareStrings(b.walkKey, a.walkKey);
}

/** Where a (cluster ID, seq) entry goes among a slot's entries. */
function slotPosition(slot: ResourceSlot, clusterID: string, seq: number): number {
	let low = 0;
	let high = slot.clusterIDs.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		const order =
			compareStrings(slot.clusterIDs[middle] ?? '', clusterID) || (slot.seqs[middle] ?? 0) - seq;
		if (order < 0) low = middle + 1;
		else high = middle;
	}
	return low;
}

function addResources(
	aggregate: BdAggregate,
	member: Member,
	into: { slot: ResourceSlot; state: string }[],
): void {
	const index = aggregate.resources;
	if (!index) return;
	const { view, clusterID, seq } = member;
	if (view.links.cluster.includes('/') || view.links.clusterNamespace.includes('/')) {
		index.slashLabels++;
	}
	const cluster = index.clusters.get(clusterID);
	if (cluster) {
		cluster.bds++;
		addCounts(cluster.counts, view.resourceCounts, 1);
		cluster.shown = undefined;
	} else {
		const counts = emptyResourceCounts();
		addCounts(counts, view.resourceCounts, 1);
		index.clusters.set(clusterID, { bds: 1, counts, shown: undefined });
		insertSorted(index.clusterIDs, clusterID, compareStrings);
	}
	// One state per resource per BD, the last one winning (setResources' put).
	const states = new Map<string, { key: ResourceAggregateKey; state: string }>();
	forEachResourceState(view, (key, state) => {
		const id = resourceIdOf(key);
		const known = states.get(id);
		if (known) known.state = state;
		else states.set(id, { key, state });
	});
	for (const [id, { key, state }] of states) {
		let slot = index.slots.get(id);
		if (!slot) {
			const owned = {
				kind: key.kind,
				apiVersion: key.apiVersion,
				namespace: key.namespace,
				name: key.name,
			};
			slot = {
				key: owned,
				sortKey: resourceSortKeyOf(owned),
				walkKey: resourceWalkKeyOf(owned),
				clusterIDs: [],
				states: [],
				seqs: [],
				incomplete: 0,
				built: undefined,
			};
			index.slots.set(id, slot);
			insertSorted(index.sorted, slot, compareSlots);
			const alike = (index.walkKeys.get(slot.walkKey) ?? 0) + 1;
			index.walkKeys.set(slot.walkKey, alike);
			if (alike === 2) index.walkTies++;
		}
		const position = slotPosition(slot, clusterID, seq);
		slot.clusterIDs.splice(position, 0, clusterID);
		slot.states.splice(position, 0, state);
		slot.seqs.splice(position, 0, seq);
		if (view.incompleteState) slot.incomplete++;
		slot.built = undefined;
		index.size += clusterID.length;
		into.push({ slot, state });
	}
}

function removeResources(aggregate: BdAggregate, member: Member): void {
	const index = aggregate.resources;
	if (!index) return;
	const { view, clusterID, seq } = member;
	if (view.links.cluster.includes('/') || view.links.clusterNamespace.includes('/')) {
		index.slashLabels--;
	}
	const cluster = index.clusters.get(clusterID);
	if (cluster) {
		cluster.bds--;
		addCounts(cluster.counts, view.resourceCounts, -1);
		cluster.shown = undefined;
		if (cluster.bds === 0) {
			index.clusters.delete(clusterID);
			removeSorted(index.clusterIDs, clusterID, compareStrings);
		}
	}
	for (const { slot } of member.resources) {
		const position = slotPosition(slot, clusterID, seq);
		slot.clusterIDs.splice(position, 1);
		slot.states.splice(position, 1);
		slot.seqs.splice(position, 1);
		if (view.incompleteState) slot.incomplete--;
		slot.built = undefined;
		index.size -= clusterID.length;
		if (slot.clusterIDs.length > 0) continue;
		index.slots.delete(resourceIdOf(slot.key));
		removeSorted(index.sorted, slot, compareSlots);
		const alike = (index.walkKeys.get(slot.walkKey) ?? 0) - 1;
		if (alike > 0) index.walkKeys.set(slot.walkKey, alike);
		else index.walkKeys.delete(slot.walkKey);
		if (alike === 1) index.walkTies--;
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Sorted lists

function insertSorted<T>(list: T[], item: T, compare: (a: T, b: T) => number): void {
	list.splice(lowerBound(list, item, compare), 0, item);
}

function removeSorted<T>(list: T[], item: T, compare: (a: T, b: T) => number): void {
	const position = lowerBound(list, item, compare);
	if (list[position] === item) list.splice(position, 1);
	else {
		const found = list.indexOf(item);
		if (found >= 0) list.splice(found, 1);
	}
}

function lowerBound<T>(list: readonly T[], item: T, compare: (a: T, b: T) => number): number {
	let low = 0;
	let high = list.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		if (compare(list[middle] as T, item) < 0) low = middle + 1;
		else high = middle;
	}
	return low;
}

// ---------------------------------------------------------------------------------------------------------------
// Roll-up parts

/** The members in the order the index holds them (the input order of the list-based roll-ups). */
function membersInOrder(aggregate: BdAggregate): Member[] {
	return [...aggregate.members.values()].sort((a, b) => a.seq - b.seq);
}

/**
 * The summary, worst state and its message, as summarizeInOrder computes them: counters from the state counts;
 * nonReadyResources from the first 10 named non-Ready BDs in order (a merge of the per-state lists); the message
 * from the first BD in the worst state.
 */
export function summaryOf(aggregate: BdAggregate): SummaryInOrder {
	const counts = aggregate.stateCounts;
	const summary: BundleSummary = emptySummary();
	fleetStates.forEach((state, rank) => countState(summary, state, counts[rank] ?? 0));
	summary.desiredReady = aggregate.members.size;
	let worstRank = -1;
	counts.forEach((count, rank) => {
		if (count > 0) worstRank = rank;
	});
	const worst: FleetState | '' = worstRank < 0 ? '' : (fleetStates[worstRank] ?? '');
	// A merge of the per-state lists, which are each in upstream's order, up to the 10 entries upstream records.
	const lists = aggregate.nonReady;
	const cursors = lists.map(() => 0);
	while (summary.nonReadyResources.length < maxNonReadyResources) {
		let next: Member | undefined;
		let from = -1;
		for (let rank = 1; rank < lists.length; rank++) {
			const head = lists[rank]?.[cursors[rank] ?? 0];
			if (head !== undefined && (next === undefined || compareMembers(head, next) < 0)) {
				next = head;
				from = rank;
			}
		}
		if (next === undefined) break;
		cursors[from] = (cursors[from] ?? 0) + 1;
		const { view } = next;
		recordNonReadyResource(
			summary,
			next.name,
			fleetStates[next.rank] ?? 'Ready',
			messageOf(next),
			view.modifiedStatus,
			view.nonReadyStatus,
		);
	}
	const first = worstRank > 0 ? aggregate.nonReady[worstRank]?.[0] : undefined;
	return { summary, worst, message: first ? messageOf(first) : '' };
}

function messageOf(member: Member): string {
	return (member.message ??= messageFromDeployment(member.view));
}

/** The Bundle's unavailable count: BDs not applied or not ready. */
export function unavailableOf(aggregate: BdAggregate): number {
	return aggregate.unavailable;
}

/** GitRepo/HelmOp: how many clusters have BDs and on how many all are Ready. */
export function clusterReadinessOf(aggregate: BdAggregate): ClusterReadiness {
	return {
		readyClusters: aggregate.readyClusters,
		desiredReadyClusters: aggregate.desiredReadyClusters,
	};
}

function hasLargeCounts(aggregate: BdAggregate): boolean {
	return (
		aggregate.unsafeCounts > 0 ||
		Object.values(aggregate.resourceCounts).some((count) => count >= 2 ** 52)
	);
}

/**
 * GitRepo/HelmOp: setResources' result. Rebuilt from the list when upstream's cut, label pairs sharing a cluster ID,
 * two resources with one walk key or large counts would make an incremental answer differ; else only the entries
 * whose BDs changed are built again.
 */
export function resourcesOf(aggregate: BdAggregate): ResourcesStatus {
	const index = aggregate.resources;
	if (
		!index ||
		index.size >= maxPerClusterStateBytes ||
		index.slashLabels > 0 ||
		index.walkTies > 0 ||
		hasLargeCounts(aggregate)
	) {
		return setResources(membersInOrder(aggregate).map((member) => member.view));
	}
	if (index.output) return index.output;
	const resources = index.sorted.map(
		(slot) =>
			(slot.built ??= fleetResourceOf(
				slot.key,
				slot.states,
				slot.clusterIDs,
				slot.incomplete > 0,
				0,
			).resource),
	);
	const resourceCounts = emptyResourceCounts();
	addResourceCounts(resourceCounts, aggregate.resourceCounts);
	// encoding/json writes map keys sorted; defineProperty keeps an ID like "__proto__" an own key.
	const perClusterResourceCounts: Record<string, ResourceCounts> = {};
	for (const clusterID of index.clusterIDs) {
		const cluster = index.clusters.get(clusterID);
		if (!cluster) continue;
		// Outputs share a cluster's counts until they change (results are never written to).
		if (!cluster.shown) {
			cluster.shown = emptyResourceCounts();
			addResourceCounts(cluster.shown, cluster.counts);
		}
		if (clusterID === '__proto__') {
			Object.defineProperty(perClusterResourceCounts, clusterID, {
				value: cluster.shown,
				enumerable: true,
				writable: true,
				configurable: true,
			});
		} else perClusterResourceCounts[clusterID] = cluster.shown;
	}
	index.output = { resources, resourceCounts, perClusterResourceCounts };
	return index.output;
}

/** Cluster: the summed resource counts, and the GitRepos and HelmOps it counts (those that exist in the root). */
export function clusterPartsOf(
	root: Root,
	aggregate: BdAggregate,
): {
	readonly resourceCounts: ResourceCounts;
	readonly owners: { readonly gitRepos: ClusterOwnerCounts; readonly helmOps: ClusterOwnerCounts };
} {
	const resourceCounts = emptyResourceCounts();
	if (hasLargeCounts(aggregate)) {
		for (const member of membersInOrder(aggregate)) {
			addResourceCounts(resourceCounts, member.view.resourceCounts);
		}
	} else addResourceCounts(resourceCounts, aggregate.resourceCounts);
	const count = (
		byNamespace: ReadonlyMap<string, ReadonlyMap<string, OwnerCounts>>,
	): ClusterOwnerCounts => {
		let desired = 0;
		let ready = 0;
		let missing = false;
		for (const byName of byNamespace.values()) {
			for (const counts of byName.values()) {
				if (!root.entries.has(counts.key)) {
					missing = true;
					continue;
				}
				desired++;
				if (counts.ready > 0) ready++;
			}
		}
		return { desired, ready, missing };
	};
	return {
		resourceCounts,
		owners: {
			gitRepos: count(aggregate.owners.gitRepos),
			helmOps: count(aggregate.owners.helmOps),
		},
	};
}
