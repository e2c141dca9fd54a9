// The resource graph behind the status tree: objects from several sources (files, later clusters) under one root
// each, linked in the hierarchies users think in, every node carrying the engine's result and a roll-up of its
// children. Updates are incremental: an object event re-places the object and the few objects whose links it
// changes (found through indexes), and returns the tree ids whose display changed. Pure: no vscode, no I/O, no clock.
import { findCondition, readConditions } from '../model/condition.ts';
import {
	getPath,
	getString,
	groupOf,
	isRecord,
	labelsOf,
	type ObjectRef,
} from '../model/object.ts';
import {
	bundleStatusOf,
	clusterGroupStatusOf,
	clusterStatusOf,
	fleetStatusFrozen,
	gitRepoStatusOf,
	helmOpStatusOf,
	writtenClusterSummary,
	type SummaryParts,
} from '../status/fleetRollup.ts';
import {
	bdDisplayOf,
	modifiedStatusString,
	nonReadyStatusString,
	readBundleDeployment,
	readBundleSummary,
	readResourceCounts,
	type BundleDeploymentView,
} from '../status/fleetSummary.ts';
import { isOciHelmRepository } from '../status/flux.ts';
import { harborDependencyConditions } from '../status/harbor.ts';
import { computeStatus, systemOf } from '../status/registry.ts';
import { toneRank, tones, type StatusResult, type SystemId, type Tone } from '../status/result.ts';
import {
	childrenDisagreementOf,
	fleetCountsOf,
	fleetDisagreementOf,
	fleetRollupSize,
	groupDescriptionOf,
	harborCountsOf,
	harborDisagreementOf,
	isDeclaredOnly,
	ownToneOf,
	stateWordOf,
} from './describe.ts';
import {
	bindingWorkloadRefsOf,
	bundleDeploymentLinksOf,
	bundleDeploymentQueryOf,
	clauseSelects,
	clusterGroupMatcherOf,
	downsyncClausesOf,
	fleetApiGroup,
	fleetOwnerCandidatesOf,
	fleetOwnerKeyOf,
	hasStatus,
	objectKey,
	objectKeyOf,
	ownerKeysOf,
	pairOf,
	pluralOfKind,
	resourceNamesKind,
	workloadNameKey,
	workStatusSourceOf,
	type BundleDeploymentLinks,
	type BundleDeploymentQuery,
	type DownsyncClause,
	type WorkloadRef,
	type WorkStatusSource,
} from './linking.ts';
import {
	childCount,
	createVertex,
	escapeSegment,
	expandChanges,
	isAncestorOrSelf,
	isProblemTone,
	killVertex,
	markDisplay,
	markStructure,
	newChangeSet,
	placeIdCalculator,
	refreshTone,
	setDesiredParents,
	setOwnTone,
	unescapeSegment,
	type ChangeSet,
	type Vertex,
} from './update.ts';

// The graph's key function belongs with the graph's API: callers look nodes up by it (findNodesForObject).
export { objectKeyOf } from './linking.ts';
export type { BundleDeploymentQuery } from './linking.ts';

// ---------------------------------------------------------------------------------------------------------------
// Public types

/** What a tree node stands for. */
export type NodeKind =
	'root' | 'system' | 'category' | 'object' | 'resource' | 'dependency' | 'placeholder';

/** Where a root's objects come from: workspace files or a live cluster. */
export type RootOrigin = 'file' | 'live';

/**
 * Sources whose id starts with this hold copies of objects that live in another root (the WorkStatus objects of an
 * ITS context shown under the workloads of its WDS): shown and linked, but not counted again as problems.
 */
export const copiedSourcePrefix = 'copy:';

/** A state shown on a root itself, e.g. "cannot reach" for a kube context. */
export interface RootState {
	readonly tone: Tone;
	/** Short: shown in the root's description. */
	readonly message: string;
	/** Longer: shown in its tooltip instead of the message. */
	readonly detail?: string;
}

/** One object read from a source, with the zero-based line it starts at (files). */
export interface SourceObject {
	readonly object: unknown;
	readonly line?: number;
	/** How to name the source to a user (e.g. a workspace-relative path). */
	readonly label?: string;
}

/** One place an object was read from. */
export interface NodeSource {
	readonly sourceId: string;
	readonly line?: number;
	readonly label?: string;
}

/** Counts of a node's direct children by tone, recomputed from the children (not from what a controller wrote). */
export interface NodeRollup {
	/** The worst tone among the children. */
	readonly tone: Tone;
	readonly total: number;
	readonly ok: number;
	/** Children with tone warning or error. */
	readonly problems: number;
	readonly byTone: Readonly<Record<Tone, number>>;
}

/** What commands need to know about a node; the adapter turns it into a contextValue in one place. */
export interface ContextFlags {
	readonly origin: RootOrigin;
	readonly system: SystemId | 'none';
	/** The object's kind, or "" for nodes that are not objects. */
	readonly objectKind: string;
	readonly state: string;
	/** A manifest with no status ("declared, no status"). */
	readonly declared: boolean;
	/** Flux spec.suspend is true. */
	readonly suspended: boolean;
	/** Fleet spec.paused is true. */
	readonly paused: boolean;
	/** A Flux HelmRepository of type oci. */
	readonly oci: boolean;
	/** The object was read from a file, at a known line. */
	readonly inFile: boolean;
	readonly problem: boolean;
}

/** A node of the tree, ready to display. */
export interface TreeNode {
	/** Stable per place: "<parent id>/<segment>"; the same object under two parents has two ids. */
	readonly id: string;
	readonly parentId?: string;
	readonly rootId: string;
	readonly kind: NodeKind;
	readonly label: string;
	/** The state word and counts, e.g. "NotReady · 3/5 clusters"; text, never colour alone. */
	readonly description: string;
	readonly tone: Tone;
	readonly objectKey?: string;
	/** The object (or the resource a BundleDeployment reports) this node stands for. */
	readonly ref?: ObjectRef;
	readonly result?: StatusResult;
	readonly rollup?: NodeRollup;
	/** Where what the controller wrote disagrees with what the children say, in words. */
	readonly disagreement?: string;
	/** For nodes without a result (resources, dependencies, placeholders): the one-line explanation. */
	readonly message?: string;
	readonly sources?: readonly NodeSource[];
	readonly contextFlags: ContextFlags;
	readonly hasChildren: boolean;
	/** Children that are not watched and must be listed when the node is expanded (roll-ups-only live roots). */
	readonly listOnDemand?: BundleDeploymentQuery;
}

/** Narrows children: a parent stays when any descendant matches. */
export interface TreeFilter {
	readonly problemsOnly?: boolean;
	readonly namespace?: string;
	readonly nameContains?: string;
}

/**
 * The tree ids an operation changed: `changed` shows differently, `structureChanged` has a different list of
 * children (refresh it with its subtree). Ids below a structure-changed node are left out: its refresh covers them.
 * `rootsChanged` says the list of roots itself changed.
 */
export interface ChangedNodes {
	readonly changed: readonly string[];
	readonly structureChanged: readonly string[];
	readonly rootsChanged: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// Internal types (exported for update.ts only)

interface Copy {
	readonly sourceId: string;
	readonly object: Record<string, unknown>;
	readonly line: number | undefined;
	readonly label: string | undefined;
	readonly seq: number;
	readonly withStatus: boolean;
}

/** Internal: one object of a root, merged from its copies in several sources. */
export interface Entry {
	readonly key: string;
	readonly group: string;
	readonly kind: string;
	readonly namespace: string;
	readonly name: string;
	readonly vertex: Vertex;
	copies: readonly Copy[];
	object: Record<string, unknown>;
	winnerSource: string;
	system: SystemId;
	base: StatusResult;
	full: StatusResult | undefined;
	computed: unknown;
	computedDirty: boolean;
	memberships: readonly string[];
	removed: boolean;
	bdLinks: BundleDeploymentLinks | undefined;
	/** The engine's reading of a BD, kept once a roll-up needed it and dropped when the BD changes. */
	bdView: BundleDeploymentView | undefined;
	matcher: ((labels: Readonly<Record<string, string>>) => boolean) | undefined;
	clauses: readonly DownsyncClause[] | undefined;
	bindingRefs: readonly WorkloadRef[] | undefined;
	wsSource: WorkStatusSource | undefined;
	placeholders: Set<string> | undefined;
	derived: Map<string, Vertex> | undefined;
	clusterHasBds: boolean;
	/** The Bundle slot and owner candidates this BD is counted under in Root.slotOwners. */
	slotRegistration: BundleDeploymentLinks | undefined;
}

/** Internal: what a vertex that is not an object shows. */
export interface DerivedInfo {
	readonly label: string;
	/** Fixed description (resources, dependencies) or the prefix before counts (placeholders). */
	readonly description: string | undefined;
	readonly message: string | undefined;
	readonly ref: ObjectRef | undefined;
	readonly system: SystemId | undefined;
	readonly namespace: string;
	/** Bundle slot of a Bundle placeholder; WEC name of a WEC. */
	readonly link: string;
	/** What the children are counted as ("ready", "WECs"). */
	readonly unit: string;
}

interface Root {
	readonly id: string;
	label: string;
	readonly origin: RootOrigin;
	state: RootState | undefined;
	readonly vertex: Vertex;
	/** Systems, categories and placeholders by vertex id. */
	readonly groups: Map<string, Vertex>;
	readonly entries: Map<string, Entry>;
	/** Per index, key -> the entries registered under it: one entry alone, or a Set when several (most hold one). */
	readonly index: Readonly<Record<IndexName, Map<string, Bucket>>>;
	readonly sources: Map<string, Set<string>>;
	readonly lines: Map<string, { readonly line: number; readonly key: string }[]>;
	/** Bundle slot -> keys of the GitRepos/HelmOps its BDs name (for Bundles not in the input) -> count. */
	readonly slotOwners: Map<string, Map<string, number>>;
	/** Workload placeholder id -> BindingPolicies whose Binding lists it. */
	readonly placeholderRefs: Map<string, Set<Entry>>;
	readonly errors: Set<Entry>;
	/** True once the root has had a BindingPolicy: from then on, workload candidates are indexed. */
	workloadsIndexed: boolean;
	/**
	 * Fleet parents show what their controllers wrote, not a roll-up of the BundleDeployments here: the root
	 * watches none, and those listed for an expanded node are a partial view.
	 */
	rollupsFromController: boolean;
}

/**
 * The indexes that answer "who links to this?" without a scan. Keys are raw strings (an object key, a namespace,
 * "ns/name") so that lookups reuse strings whose hash is cached.
 */
const indexNames = [
	'owner',
	'cand',
	'candNs',
	'gnn',
	'bdSlot',
	'bdRepo',
	'bdHelm',
	'bdCluster',
	'bdNs',
	'bdAnyNs',
	'bundleRepo',
	'bundleHelm',
	'clusterNs',
	'clusterStatusNs',
	'groupNs',
	'policy',
	'policies',
	'binding',
	'bindingRef',
	'wsSource',
	'wsGnn',
] as const;
type IndexName = (typeof indexNames)[number];
type Bucket = Entry | Set<Entry>;

function newIndex(): Record<IndexName, Map<string, Bucket>> {
	const index = {} as Record<IndexName, Map<string, Bucket>>;
	for (const name of indexNames) index[name] = new Map();
	return index;
}

interface Work {
	readonly root: Root;
	readonly changes: ChangeSet;
	readonly replace: Set<Entry>;
	readonly replaceVertices: Set<Vertex>;
	readonly computedDirty: Set<Entry>;
	readonly policies: Set<Entry>;
	readonly rescore: Set<Entry>;
}

const systemLabels: Readonly<Record<SystemId, string>> = {
	fleet: 'Fleet',
	kubestellar: 'KubeStellar',
	harbor: 'Harbor',
	flux: 'Flux',
	aso: 'Azure Service Operator',
	kubernetes: 'Kubernetes',
};

const fleetCategories: Readonly<
	Record<string, { readonly label: string; readonly order: number }>
> = {
	GitRepo: { label: 'GitRepos', order: 0 },
	HelmOp: { label: 'HelmOps', order: 1 },
	Cluster: { label: 'Clusters', order: 2 },
	ClusterGroup: { label: 'ClusterGroups', order: 3 },
	Bundle: { label: 'Bundles', order: 4 },
};

const fleetRollupKinds = new Set([
	'BundleDeployment',
	'Bundle',
	'GitRepo',
	'HelmOp',
	'Cluster',
	'ClusterGroup',
]);

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

const noEntries: readonly Entry[] = [];
const noParents: readonly Vertex[] = [];

function isKubestellar(entry: Entry): boolean {
	return entry.system === 'kubestellar';
}

function isBindingPolicy(entry: Entry): boolean {
	return isKubestellar(entry) && entry.kind === 'BindingPolicy';
}

function isBinding(entry: Entry): boolean {
	return isKubestellar(entry) && entry.kind === 'Binding';
}

function isWorkStatus(entry: Entry): boolean {
	return isKubestellar(entry) && entry.kind === 'WorkStatus';
}

function isFleet(entry: Entry, kind: string): boolean {
	return entry.system === 'fleet' && entry.kind === kind;
}

/** The objects a value holds: itself, or the items of a `kind: List` (as `kubectl get -o yaml` writes them). */
function objectsIn(value: unknown): Record<string, unknown>[] {
	if (!isRecord(value)) return [];
	const kind = value.kind;
	if (typeof kind === 'string' && kind.endsWith('List') && Array.isArray(value.items)) {
		return value.items.flatMap(objectsIn);
	}
	return [value];
}

function pickWinner(copies: readonly Copy[]): Copy | undefined {
	let winner: Copy | undefined;
	for (const copy of copies) {
		if (
			!winner ||
			(copy.withStatus && !winner.withStatus) ||
			(copy.withStatus === winner.withStatus && copy.seq > winner.seq)
		) {
			winner = copy;
		}
	}
	return winner;
}

function sameSources(a: readonly Copy[], b: readonly Copy[]): boolean {
	if (a.length !== b.length) return false;
	return a.every(
		(copy, index) =>
			copy.sourceId === b[index]?.sourceId &&
			copy.line === b[index]?.line &&
			copy.label === b[index]?.label,
	);
}

function sameJson(a: unknown, b: unknown): boolean {
	try {
		return JSON.stringify(a) === JSON.stringify(b);
	} catch {
		return false;
	}
}

function nameOrPlaceholder(name: string): string {
	return name === '' ? '(no name)' : name;
}

function qualified(namespace: string, name: string): string {
	return namespace ? `${namespace}/${nameOrPlaceholder(name)}` : nameOrPlaceholder(name);
}

function rollupOf(vertex: Vertex): NodeRollup | undefined {
	const counts = vertex.counts;
	if (!counts || childCount(vertex) === 0) return undefined;
	const byTone = {} as Record<Tone, number>;
	let worst: Tone = 'ok';
	for (const tone of tones) {
		const count = counts[toneRank(tone)] ?? 0;
		byTone[tone] = count;
		if (count > 0) worst = tone;
	}
	return {
		tone: worst,
		total: childCount(vertex),
		ok: byTone.ok,
		problems: byTone.warning + byTone.error,
		byTone,
	};
}

// ---------------------------------------------------------------------------------------------------------------
// The graph

/** The resource graph: roots of objects, linked by system, with incremental updates that report changed tree ids. */
export class ResourceGraph {
	private readonly rootsById = new Map<string, Root>();
	private seq = 0;
	private version = 0;
	private filterMemo:
		{ version: number; signature: string; kept: Map<Vertex, boolean> } | undefined;

	// -- Roots --------------------------------------------------------------------------------------------------

	/** Adds a root (or relabels an existing one). */
	addRoot(rootId: string, label: string, origin: RootOrigin = 'file'): ChangedNodes {
		const existing = this.rootsById.get(rootId);
		const changes = newChangeSet();
		if (existing) {
			if (existing.label !== label) {
				existing.label = label;
				markDisplay(existing.vertex, changes);
			}
			return this.finishChanges(changes);
		}
		this.announced.add(this.createRoot(rootId, label, origin));
		changes.rootsChanged = true;
		return this.finishChanges(changes);
	}

	/** Removes a root and everything in it. */
	removeRoot(rootId: string): ChangedNodes {
		const changes = newChangeSet();
		const root = this.rootsById.get(rootId);
		if (root) {
			this.rootsById.delete(rootId);
			root.vertex.dead = true;
			changes.rootsChanged = true;
		}
		return this.finishChanges(changes);
	}

	/** Sets or clears the state shown on a root itself ("cannot reach", "login required"). */
	setRootState(rootId: string, state: RootState | undefined): ChangedNodes {
		const changes = newChangeSet();
		const root = this.rootsById.get(rootId);
		if (root) {
			root.state = state;
			root.vertex.stateTone = state?.tone;
			markDisplay(root.vertex, changes);
			refreshTone(root.vertex, changes);
		}
		return this.finishChanges(changes);
	}

	/**
	 * Whether Fleet parents in a root take their roll-ups from what the controllers wrote (a live root that watches
	 * no BundleDeployments) and list their BundleDeployments on demand, or recompute them from the children.
	 */
	setRollupsFromController(rootId: string, fromController: boolean): ChangedNodes {
		const changes = newChangeSet();
		const root = this.rootsById.get(rootId);
		if (!root || root.rollupsFromController === fromController) return this.finishChanges(changes);
		root.rollupsFromController = fromController;
		for (const entry of root.entries.values()) {
			if (entry.system !== 'fleet' || !fleetRollupKinds.has(entry.kind)) continue;
			entry.computedDirty = true;
			entry.full = undefined;
			// Whether the node can be expanded changes too: its parent lists it again.
			markStructure(entry.vertex, changes);
		}
		return this.finishChanges(changes);
	}

	// -- Objects ------------------------------------------------------------------------------------------------

	/** Replaces everything one source (a file) contributed to a root with these objects. */
	setSourceObjects(
		rootId: string,
		sourceId: string,
		objects: readonly SourceObject[],
	): ChangedNodes {
		const work = this.newWork(this.ensureRoot(rootId));
		const { root } = work;
		if (!this.announced.has(root)) {
			this.announced.add(root);
			work.changes.rootsChanged = true;
		}
		const incoming = new Map<string, Copy[]>();
		for (const item of objects) {
			for (const object of objectsIn(item.object)) {
				const key = objectKeyOf(object);
				const copy: Copy = {
					sourceId,
					object,
					line: item.line,
					label: item.label,
					seq: ++this.seq,
					withStatus: hasStatus(object),
				};
				const list = incoming.get(key);
				if (list) list.push(copy);
				else incoming.set(key, [copy]);
			}
		}
		for (const key of root.sources.get(sourceId) ?? []) {
			if (!incoming.has(key)) this.replaceCopies(work, key, sourceId, []);
		}
		for (const [key, copies] of incoming) this.replaceCopies(work, key, sourceId, copies, true);
		if (incoming.size > 0) root.sources.set(sourceId, new Set(incoming.keys()));
		else root.sources.delete(sourceId);
		root.lines.delete(sourceId);
		return this.finish(work);
	}

	/** Adds or replaces one object of a source (a watch event); returns what changed. */
	upsertObject(rootId: string, sourceId: string, object: unknown, line?: number): ChangedNodes {
		const work = this.newWork(this.ensureRoot(rootId));
		const { root } = work;
		if (!this.announced.has(root)) {
			this.announced.add(root);
			work.changes.rootsChanged = true;
		}
		for (const item of objectsIn(object)) {
			const key = objectKeyOf(item);
			this.replaceCopies(work, key, sourceId, [
				{
					sourceId,
					object: item,
					line,
					label: undefined,
					seq: ++this.seq,
					withStatus: hasStatus(item),
				},
			]);
			const keys = root.sources.get(sourceId) ?? new Set<string>();
			keys.add(key);
			root.sources.set(sourceId, keys);
			root.lines.delete(sourceId);
		}
		return this.finish(work);
	}

	/** Removes what one source said about an object (key as from objectKeyOf). */
	removeObject(rootId: string, sourceId: string, key: string): ChangedNodes {
		const root = this.rootsById.get(rootId);
		if (!root) return this.finishChanges(newChangeSet());
		const work = this.newWork(root);
		this.replaceCopies(work, key, sourceId, []);
		root.sources.get(sourceId)?.delete(key);
		root.lines.delete(sourceId);
		return this.finish(work);
	}

	/** Removes everything a source contributed (a deleted file, a closed watch); a root that is gone stays gone. */
	removeSource(rootId: string, sourceId: string): ChangedNodes {
		if (!this.rootsById.has(rootId)) return this.finishChanges(newChangeSet());
		return this.setSourceObjects(rootId, sourceId, []);
	}

	// -- Reading ------------------------------------------------------------------------------------------------

	/** The root nodes, in the order they were added. */
	roots(): TreeNode[] {
		return [...this.rootsById.values()].map((root) =>
			this.buildNode(root, root.vertex, root.vertex.segment, undefined, undefined),
		);
	}

	/** The node with this id, or undefined when that place no longer exists. */
	node(id: string): TreeNode | undefined {
		const found = this.resolve(id);
		if (!found) return undefined;
		const { root, path } = found;
		const vertex = path[path.length - 1];
		if (!vertex) return undefined;
		const slash = id.lastIndexOf('/');
		return this.buildNode(
			root,
			vertex,
			id,
			slash < 0 ? undefined : id.slice(0, slash),
			path[path.length - 2],
		);
	}

	/** The parent node of an id (for reveal), or undefined for roots and unknown ids. */
	parentOf(id: string): TreeNode | undefined {
		if (!this.resolve(id)) return undefined;
		const slash = id.lastIndexOf('/');
		return slash < 0 ? undefined : this.node(id.slice(0, slash));
	}

	/**
	 * The children of a node (the roots for undefined), problems first (worst tone first), then in design order and by
	 * label. With a filter, a child stays when it or any descendant matches; below a node that matches the namespace
	 * and name criteria itself, only "problems only" still applies.
	 */
	children(id: string | undefined, filter: TreeFilter = {}): TreeNode[] {
		const active = this.isActive(filter);
		if (id === undefined) {
			const roots = [...this.rootsById.values()].filter(
				(root) => !active || this.kept(root.vertex, filter, false),
			);
			return roots.map((root) =>
				this.buildNode(root, root.vertex, root.vertex.segment, undefined, undefined),
			);
		}
		const found = this.resolve(id);
		if (!found) return [];
		const { root, path } = found;
		const vertex = path[path.length - 1];
		if (!vertex?.children) return [];
		const textSatisfied = active && path.some((step) => this.textMatches(step, filter));
		const rows: { vertex: Vertex; node: TreeNode }[] = [];
		for (const child of vertex.children.values()) {
			if (active && !this.kept(child, filter, textSatisfied)) continue;
			rows.push({
				vertex: child,
				node: this.buildNode(root, child, `${id}/${child.segment}`, id, vertex),
			});
		}
		rows.sort(
			(a, b) =>
				toneRank(b.node.tone) - toneRank(a.node.tone) ||
				a.vertex.order - b.vertex.order ||
				collator.compare(a.node.label, b.node.label) ||
				(a.node.id < b.node.id ? -1 : a.node.id > b.node.id ? 1 : 0),
		);
		return rows.map((row) => row.node);
	}

	/** Every tree id where an object appears in a root (for "reveal the item for this manifest"). */
	findNodesForObject(rootId: string, key: string): string[] {
		const entry = this.rootsById.get(rootId)?.entries.get(key);
		if (!entry) return [];
		return placeIdCalculator((vertex) => vertex.kind === 'root')(entry.vertex);
	}

	/** The tree ids of the object that a line of a source (file) belongs to: the last object starting at or before it. */
	nodesFor(sourceId: string, line: number): string[] {
		const ids: string[] = [];
		for (const root of this.rootsById.values()) {
			const key = this.keyAtLine(root, sourceId, line);
			if (key !== undefined) ids.push(...this.findNodesForObject(root.id, key));
		}
		return ids;
	}

	/** Number of objects shown in the tree whose own status is an error (for the view badge). */
	problemCount(): number {
		let count = 0;
		for (const root of this.rootsById.values()) count += root.errors.size;
		return count;
	}

	/** Number of objects in a root, or in all roots. */
	objectCount(rootId?: string): number {
		if (rootId !== undefined) return this.rootsById.get(rootId)?.entries.size ?? 0;
		let count = 0;
		for (const root of this.rootsById.values()) count += root.entries.size;
		return count;
	}

	/** The object a root holds under a key (the winning copy), for explain and "open". */
	objectOf(rootId: string, key: string): Readonly<Record<string, unknown>> | undefined {
		return this.rootsById.get(rootId)?.entries.get(key)?.object;
	}

	/** Every object of a root (the winning copy of each), e.g. to find a workload's merge inputs. */
	objectsOf(rootId: string): Readonly<Record<string, unknown>>[] {
		const entries = this.rootsById.get(rootId)?.entries;
		return entries ? [...entries.values()].map((entry) => entry.object) : [];
	}

	// -- Roots and work -----------------------------------------------------------------------------------------

	private createRoot(rootId: string, label: string, origin: RootOrigin): Root {
		const vertex = createVertex(rootId, 'root');
		const root: Root = {
			id: rootId,
			label,
			origin,
			state: undefined,
			vertex,
			groups: new Map(),
			entries: new Map(),
			index: newIndex(),
			sources: new Map(),
			lines: new Map(),
			slotOwners: new Map(),
			placeholderRefs: new Map(),
			errors: new Set(),
			workloadsIndexed: false,
			rollupsFromController: false,
		};
		this.rootsById.set(rootId, root);
		return root;
	}

	/** Roots the caller has been told about (added explicitly or reported in rootsChanged). */
	private readonly announced = new WeakSet<Root>();

	private ensureRoot(rootId: string): Root {
		return this.rootsById.get(rootId) ?? this.createRoot(rootId, rootId, 'file');
	}

	private newWork(root: Root): Work {
		return {
			root,
			changes: newChangeSet(),
			replace: new Set(),
			replaceVertices: new Set(),
			computedDirty: new Set(),
			policies: new Set(),
			rescore: new Set(),
		};
	}

	private finishChanges(changes: ChangeSet): ChangedNodes {
		this.version++;
		const { changed, structureChanged } = expandChanges(
			changes,
			(vertex) => vertex.kind === 'root',
		);
		return { changed, structureChanged, rootsChanged: changes.rootsChanged };
	}

	/** Settles an operation: placeholders, placements, dirty roll-ups, garbage, badge; then expands the changes. */
	private finish(work: Work): ChangedNodes {
		const { root, changes } = work;
		const entriesBefore = root.entries.size;
		const errorsBefore = root.errors.size;
		for (const entry of work.rescore) {
			if (entry.removed) continue;
			this.rescoreEntry(work, entry);
			work.replace.add(entry);
		}
		for (const policy of work.policies) this.syncPlaceholders(work, policy);
		for (const entry of work.replace) {
			if (entry.removed) continue;
			setDesiredParents(entry.vertex, this.parentsOf(work, entry), changes);
		}
		for (const vertex of work.replaceVertices) {
			if (!vertex.dead) this.placeBundlePlaceholder(root, vertex, changes);
		}
		for (const entry of work.computedDirty) {
			if (entry.removed) continue;
			entry.computedDirty = true;
			entry.full = undefined;
			markDisplay(entry.vertex, changes);
		}
		// Bundle and WEC placeholders live only while something is under them.
		for (const vertex of [...changes.structure]) {
			if (
				vertex.kind === 'placeholder' &&
				vertex.autoHide &&
				!vertex.dead &&
				childCount(vertex) === 0
			) {
				killVertex(vertex, changes);
				root.groups.delete(vertex.id);
			}
		}
		for (const entry of work.replace) this.refreshError(root, entry);
		if (root.entries.size !== entriesBefore || root.errors.size !== errorsBefore) {
			markDisplay(root.vertex, changes);
		}
		return this.finishChanges(changes);
	}

	private refreshError(root: Root, entry: Entry): void {
		const copyOnly = entry.copies.every((copy) => copy.sourceId.startsWith(copiedSourcePrefix));
		if (
			!entry.removed &&
			!copyOnly &&
			entry.vertex.ownTone === 'error' &&
			entry.vertex.parents.length > 0
		) {
			root.errors.add(entry);
		} else root.errors.delete(entry);
	}

	// -- Copies and entries -------------------------------------------------------------------------------------

	private replaceCopies(
		work: Work,
		key: string,
		sourceId: string,
		copies: readonly Copy[],
		reread = false,
	): void {
		const entry = work.root.entries.get(key);
		const only = entry?.copies.length === 1 ? entry.copies[0] : undefined;
		const copy = copies.length === 1 ? copies[0] : undefined;
		if (entry && only && copy && only.sourceId === sourceId) {
			// The common watch event: the only copy of an object replaced by a newer one from the same source.
			entry.copies = copies;
			if (only.line !== copy.line || only.label !== copy.label) {
				markDisplay(entry.vertex, work.changes);
			}
			if (copy.object === entry.object) return;
			if (reread && sameJson(copy.object, entry.object)) return;
			this.changeEntry(work, entry, copy);
			return;
		}
		const kept = entry ? entry.copies.filter((copy) => copy.sourceId !== sourceId) : [];
		const next = copies.length > 0 ? [...kept, ...copies] : kept;
		if (!entry) {
			const winner = pickWinner(next);
			if (winner) this.createEntry(work, key, next, winner);
			return;
		}
		if (next.length === 0) {
			this.removeEntry(work, entry);
			return;
		}
		const winner = pickWinner(next);
		if (!winner) return;
		const sourcesChanged = !sameSources(entry.copies, next);
		entry.copies = next;
		if (sourcesChanged) markDisplay(entry.vertex, work.changes);
		if (winner.object === entry.object) return;
		// A re-read file that did not change this object keeps the node as it is (watch events always change it).
		if (reread && winner.sourceId === entry.winnerSource && sameJson(winner.object, entry.object)) {
			return;
		}
		this.changeEntry(work, entry, winner);
	}

	private createEntry(work: Work, key: string, copies: readonly Copy[], winner: Copy): void {
		const object = winner.object;
		const group = groupOf(getString(object, 'apiVersion') ?? '');
		const kind = getString(object, 'kind') ?? '';
		const namespace = getString(object, 'metadata', 'namespace') ?? '';
		const name = getString(object, 'metadata', 'name') ?? '';
		// The key itself is the vertex id: it has three '|', which no group, category or placeholder id has.
		const vertex = createVertex(key, 'object', { order: 10 });
		const entry: Entry = {
			key,
			group,
			kind,
			namespace,
			name,
			vertex,
			copies,
			object,
			winnerSource: winner.sourceId,
			system: 'kubernetes',
			base: computeStatus(undefined),
			full: undefined,
			computed: undefined,
			computedDirty: true,
			memberships: [],
			removed: false,
			bdLinks: undefined,
			bdView: undefined,
			matcher: undefined,
			clauses: undefined,
			bindingRefs: undefined,
			wsSource: undefined,
			placeholders: undefined,
			derived: undefined,
			clusterHasBds: false,
			slotRegistration: undefined,
		};
		vertex.entry = entry;
		work.root.entries.set(key, entry);
		this.applyObject(work, entry, undefined);
	}

	private changeEntry(work: Work, entry: Entry, winner: Copy): void {
		const previous = entry.object;
		entry.object = winner.object;
		entry.winnerSource = winner.sourceId;
		this.applyObject(work, entry, previous);
	}

	/** Reads the entry's (new) object: caches, indexes, status, derived children, and what depends on it. */
	private applyObject(
		work: Work,
		entry: Entry,
		previous: Record<string, unknown> | undefined,
	): void {
		const object = entry.object;
		const previousLinks = entry.bdLinks;
		entry.system = systemOf(object);
		entry.bdLinks = isFleet(entry, 'BundleDeployment')
			? bundleDeploymentLinksOf(object, previousLinks)
			: undefined;
		entry.bdView = undefined;
		entry.matcher = isFleet(entry, 'ClusterGroup') ? clusterGroupMatcherOf(object) : undefined;
		entry.clauses = isBindingPolicy(entry) ? downsyncClausesOf(object) : undefined;
		entry.bindingRefs = isBinding(entry) ? bindingWorkloadRefsOf(object) : undefined;
		entry.wsSource = isWorkStatus(entry) ? workStatusSourceOf(object) : undefined;
		this.reindex(work.root, entry);
		this.rescoreEntry(work, entry);
		if (entry.system === 'fleet' && fleetRollupKinds.has(entry.kind)) work.computedDirty.add(entry);
		markDisplay(entry.vertex, work.changes);
		this.collectDependents(work, entry, previous, entry.object, previousLinks);
		work.replace.add(entry);
		this.syncDerived(work, entry);
	}

	private removeEntry(work: Work, entry: Entry): void {
		const { root, changes } = work;
		entry.removed = true;
		entry.copies = [];
		this.unindex(root, entry);
		root.entries.delete(entry.key);
		root.errors.delete(entry);
		this.collectDependents(work, entry, entry.object, undefined, entry.bdLinks);
		for (const vertex of entry.derived?.values() ?? []) killVertex(vertex, changes);
		entry.derived = undefined;
		killVertex(entry.vertex, changes);
	}

	private workloadOf(root: Root, entry: Entry): Entry | undefined {
		const source = entry.wsSource;
		if (!source) return undefined;
		const workload = root.entries.get(source.key);
		return workload && !isKubestellar(workload) ? workload : undefined;
	}

	/** The engine's result for the entry's object, with the root as context (the WDS workload of a WorkStatus). */
	private rescoreEntry(work: Work, entry: Entry): void {
		let base: StatusResult;
		if (isWorkStatus(entry)) {
			const workload = this.workloadOf(work.root, entry);
			base = computeStatus(entry.object, { workloadLookup: () => workload?.object });
		} else {
			base = computeStatus(entry.object);
		}
		entry.base = base;
		entry.full = undefined;
		markDisplay(entry.vertex, work.changes);
		setOwnTone(entry.vertex, ownToneOf(base), work.changes);
	}

	// -- Indexes ------------------------------------------------------------------------------------------------

	/** Where the entry is indexed, as a flat list: index name, key, index name, key... */
	private membershipsOf(root: Root, entry: Entry): string[] {
		const keys: string[] = [];
		const object = entry.object;
		for (const owner of ownerKeysOf(object)) keys.push('owner', owner);
		// What a BindingPolicy may select is indexed only once the root has one (most roots never do).
		if (root.workloadsIndexed && !isKubestellar(entry)) {
			keys.push(
				'cand',
				'',
				'candNs',
				entry.namespace,
				'gnn',
				workloadNameKey(entry.group, entry.namespace, entry.name),
			);
		}
		if (entry.system === 'fleet') {
			switch (entry.kind) {
				case 'BundleDeployment': {
					const links = entry.bdLinks;
					if (!links) break;
					keys.push('bdSlot', links.slot);
					if (links.repo) keys.push('bdRepo', links.repo);
					if (links.helmOp) keys.push('bdHelm', links.helmOp);
					if (links.cluster) keys.push('bdCluster', links.cluster);
					else keys.push('bdNs', links.namespace);
					keys.push('bdAnyNs', links.namespace);
					break;
				}
				case 'Bundle': {
					const labels = labelsOf(object);
					const repo = labels['fleet.cattle.io/repo-name'];
					const helmOp = labels['fleet.cattle.io/fleet-helm-name'];
					if (repo) keys.push('bundleRepo', pairOf(entry.namespace, repo));
					if (helmOp) keys.push('bundleHelm', pairOf(entry.namespace, helmOp));
					break;
				}
				case 'Cluster': {
					keys.push('clusterNs', entry.namespace);
					const statusNamespace = getString(object, 'status', 'namespace');
					if (statusNamespace) keys.push('clusterStatusNs', statusNamespace);
					break;
				}
				case 'ClusterGroup':
					keys.push('groupNs', entry.namespace);
					break;
			}
		}
		if (isBindingPolicy(entry)) keys.push('policy', entry.name, 'policies', '');
		if (isBinding(entry)) {
			keys.push('binding', entry.name);
			for (const ref of entry.bindingRefs ?? []) {
				keys.push('bindingRef', workloadNameKey(ref.group, ref.namespace, ref.name));
			}
		}
		if (entry.wsSource) {
			keys.push(
				'wsSource',
				entry.wsSource.key,
				'wsGnn',
				workloadNameKey(entry.wsSource.group, entry.wsSource.namespace, entry.wsSource.name),
			);
		}
		return keys;
	}

	private reindex(root: Root, entry: Entry): void {
		if (!root.workloadsIndexed && isBindingPolicy(entry)) this.indexWorkloads(root);
		const keys = this.membershipsOf(root, entry);
		const previous = entry.memberships;
		const same =
			previous.length === keys.length && previous.every((key, index) => key === keys[index]);
		// A status update keeps the labels and so every membership (the slot owners derive from them too): most
		// watch events leave the index as it is.
		if (same) return;
		this.unindex(root, entry);
		for (let position = 0; position < keys.length; position += 2) {
			const index = root.index[keys[position] as IndexName];
			const key = keys[position + 1] ?? '';
			const bucket = index.get(key);
			if (bucket === undefined) index.set(key, entry);
			else if (bucket instanceof Set) bucket.add(entry);
			else if (bucket !== entry) index.set(key, new Set([bucket, entry]));
		}
		entry.memberships = keys;
		const links = entry.bdLinks;
		if (links) {
			const owners = root.slotOwners.get(links.slot) ?? new Map<string, number>();
			for (const key of links.ownerKeys) owners.set(key, (owners.get(key) ?? 0) + 1);
			root.slotOwners.set(links.slot, owners);
			entry.slotRegistration = links;
		}
	}

	/**
	 * The first BindingPolicy of a root: index every object it could select. This one event scans the root; every
	 * later one is incremental.
	 */
	private indexWorkloads(root: Root): void {
		root.workloadsIndexed = true;
		for (const entry of root.entries.values()) {
			if (!isKubestellar(entry)) this.reindex(root, entry);
		}
	}

	private unindex(root: Root, entry: Entry): void {
		const keys = entry.memberships;
		for (let position = 0; position < keys.length; position += 2) {
			const index = root.index[keys[position] as IndexName];
			const key = keys[position + 1] ?? '';
			const bucket = index.get(key);
			if (bucket === entry) index.delete(key);
			else if (bucket instanceof Set) {
				bucket.delete(entry);
				if (bucket.size === 1) for (const only of bucket) index.set(key, only);
			}
		}
		entry.memberships = [];
		const previous = entry.slotRegistration;
		if (previous) {
			const owners = root.slotOwners.get(previous.slot);
			if (owners) {
				for (const key of previous.ownerKeys) {
					const count = (owners.get(key) ?? 0) - 1;
					if (count > 0) owners.set(key, count);
					else owners.delete(key);
				}
				if (owners.size === 0) root.slotOwners.delete(previous.slot);
			}
			entry.slotRegistration = undefined;
		}
	}

	private indexed(root: Root, name: IndexName, key: string): ReadonlySet<Entry> | readonly Entry[] {
		const bucket = root.index[name].get(key);
		return bucket === undefined ? noEntries : bucket instanceof Set ? bucket : [bucket];
	}

	private indexedSize(root: Root, name: IndexName, key: string): number {
		const bucket = root.index[name].get(key);
		return bucket === undefined ? 0 : bucket instanceof Set ? bucket.size : 1;
	}

	// -- Dependents ---------------------------------------------------------------------------------------------

	/**
	 * Collects what an object change affects besides the object itself: objects to place again (their parent may be
	 * this object), Fleet parents whose roll-up is now stale, policies whose placeholders change, WorkStatus results
	 * that read this workload. Called with the previous and the new object (either may be undefined).
	 */
	private collectDependents(
		work: Work,
		entry: Entry,
		previous: unknown,
		next: unknown,
		previousLinks: BundleDeploymentLinks | undefined,
	): void {
		const { root } = work;
		const existence = previous === undefined || next === undefined;
		const objects = [previous, next].filter((object) => object !== undefined);
		const replaceAll = (name: IndexName, key: string) => {
			for (const dependent of this.indexed(root, name, key)) work.replace.add(dependent);
		};
		if (existence) replaceAll('owner', entry.key);
		if (entry.system === 'fleet') {
			this.collectFleetDependents(work, entry, objects, existence, previousLinks);
		}
		if (isBindingPolicy(entry)) {
			if (existence) replaceAll('binding', entry.name);
			if (existence || !sameJson(getPath(previous, 'spec'), getPath(next, 'spec'))) {
				this.reselect(work, entry);
			}
		}
		if (
			isBinding(entry) &&
			(existence || !sameJson(getPath(previous, 'spec'), getPath(next, 'spec')))
		) {
			for (const policy of this.indexed(root, 'policy', entry.name)) this.reselect(work, policy);
		}
		if (!isKubestellar(entry)) {
			for (const workStatus of this.indexed(root, 'wsSource', entry.key)) {
				work.rescore.add(workStatus);
			}
			if (existence) {
				const nameKey = workloadNameKey(entry.group, entry.namespace, entry.name);
				for (const binding of this.indexed(root, 'bindingRef', nameKey)) {
					for (const policy of this.indexed(root, 'policy', binding.name)) {
						work.policies.add(policy);
					}
				}
				replaceAll('wsGnn', nameKey);
			}
			if (
				entry.group === '' &&
				entry.kind === 'Namespace' &&
				!sameJson(getPath(previous, 'metadata', 'labels'), getPath(next, 'metadata', 'labels'))
			) {
				const selective = [...this.indexed(root, 'policies', '')].some((policy) =>
					policy.clauses?.some((clause) => clause.namespaceSelectors.length > 0),
				);
				if (selective) replaceAll('candNs', entry.name);
			}
		}
	}

	private collectFleetDependents(
		work: Work,
		entry: Entry,
		objects: readonly unknown[],
		existence: boolean,
		previousLinks: BundleDeploymentLinks | undefined,
	): void {
		const { root } = work;
		const dirty = (key: string | undefined) => {
			const target = key === undefined ? undefined : root.entries.get(key);
			if (target) work.computedDirty.add(target);
		};
		const pair = pairOf(entry.namespace, entry.name);
		switch (entry.kind) {
			case 'BundleDeployment': {
				const both =
					entry.removed || previousLinks === entry.bdLinks
						? [previousLinks]
						: [previousLinks, entry.bdLinks];
				for (const links of both) {
					if (!links) continue;
					dirty(links.bundleKey);
					for (const key of links.ownerKeys) dirty(key);
					// The Cluster its labels name (where it shows) and every Cluster whose namespace holds it (what
					// Fleet's cluster controller counts).
					const clusters = new Set(this.indexed(root, 'clusterStatusNs', links.namespace));
					const labelled = links.clusterKey ? root.entries.get(links.clusterKey) : undefined;
					if (labelled) clusters.add(labelled);
					for (const cluster of clusters) {
						if (!cluster) continue;
						work.computedDirty.add(cluster);
						for (const parent of cluster.vertex.desired) {
							if (parent.entry && isFleet(parent.entry, 'ClusterGroup')) {
								work.computedDirty.add(parent.entry);
							}
						}
					}
					// The placeholder's owner comes from its BDs' labels: only a BD that comes, goes or relabels moves it.
					const relinked =
						existence ||
						previousLinks?.slot !== entry.bdLinks?.slot ||
						previousLinks?.ownerKeys.join() !== entry.bdLinks?.ownerKeys.join();
					const placeholder = relinked ? root.groups.get(`ph:bundle:${links.slot}`) : undefined;
					if (placeholder) work.replaceVertices.add(placeholder);
				}
				break;
			}
			case 'Bundle':
				if (existence) for (const bd of this.indexed(root, 'bdSlot', pair)) work.replace.add(bd);
				for (const object of objects) {
					for (const candidate of fleetOwnerCandidatesOf(object, entry.namespace)) {
						dirty(fleetOwnerKeyOf(candidate));
					}
				}
				break;
			case 'GitRepo':
			case 'HelmOp': {
				if (!existence) break;
				const gitRepo = entry.kind === 'GitRepo';
				for (const bundle of this.indexed(root, gitRepo ? 'bundleRepo' : 'bundleHelm', pair)) {
					work.replace.add(bundle);
				}
				for (const bd of this.indexed(root, gitRepo ? 'bdRepo' : 'bdHelm', pair)) {
					const placeholder = bd.bdLinks
						? root.groups.get(`ph:bundle:${bd.bdLinks.slot}`)
						: undefined;
					if (placeholder) work.replaceVertices.add(placeholder);
					// The Cluster controller counts only GitRepos and HelmOps that exist.
					const cluster = bd.bdLinks?.clusterKey
						? root.entries.get(bd.bdLinks.clusterKey)
						: undefined;
					if (cluster) work.computedDirty.add(cluster);
				}
				break;
			}
			case 'Cluster': {
				const statusNamespaces = new Set(
					objects.map((object) => getString(object, 'status', 'namespace') ?? ''),
				);
				if (existence || statusNamespaces.size > 1) {
					for (const bd of this.indexed(root, 'bdCluster', pair)) work.replace.add(bd);
					for (const namespace of statusNamespaces) {
						if (namespace) {
							for (const bd of this.indexed(root, 'bdNs', namespace)) work.replace.add(bd);
						}
					}
				}
				for (const group of this.indexed(root, 'groupNs', entry.namespace)) {
					work.computedDirty.add(group);
				}
				break;
			}
			case 'ClusterGroup': {
				const selectors = objects.map((object) => getPath(object, 'spec', 'selector'));
				if (existence || !sameJson(selectors[0], selectors[1])) {
					for (const cluster of this.indexed(root, 'clusterNs', entry.namespace)) {
						work.replace.add(cluster);
					}
				}
				break;
			}
		}
	}

	/** A policy's selection changed: its placeholders and every object it selected or may now select are placed again. */
	private reselect(work: Work, policy: Entry): void {
		work.policies.add(policy);
		for (const child of policy.vertex.children?.values() ?? []) {
			if (child.entry) work.replace.add(child.entry);
		}
		if (policy.removed) return;
		for (const candidate of this.selectionCandidates(work.root, policy)) {
			work.replace.add(candidate);
		}
	}

	private bindingOf(root: Root, policy: Entry): Entry | undefined {
		for (const binding of this.indexed(root, 'binding', policy.name)) return binding;
		return undefined;
	}

	/** Objects a policy may select: those its Binding lists, or those in the namespaces its clauses name. */
	private selectionCandidates(root: Root, policy: Entry): Entry[] {
		const binding = this.bindingOf(root, policy);
		const result: Entry[] = [];
		if (binding) {
			for (const ref of binding.bindingRefs ?? []) {
				result.push(
					...this.indexed(root, 'gnn', workloadNameKey(ref.group, ref.namespace, ref.name)),
				);
			}
			return result;
		}
		for (const clause of policy.clauses ?? []) {
			if (clause.onlyNamespaces) {
				for (const namespace of clause.onlyNamespaces) {
					result.push(...this.indexed(root, 'candNs', namespace));
				}
			} else return [...this.indexed(root, 'cand', '')];
		}
		return result;
	}

	// -- Placement ----------------------------------------------------------------------------------------------

	private systemVertex(root: Root, system: SystemId): Vertex {
		const id = `sys:${system}`;
		let vertex = root.groups.get(id);
		if (!vertex) {
			vertex = createVertex(id, 'system', {
				autoHide: true,
				order: ['fleet', 'kubestellar', 'harbor', 'flux', 'aso'].indexOf(system),
			});
			vertex.info = this.groupInfo(systemLabels[system], system);
			vertex.desired = [root.vertex];
			root.groups.set(id, vertex);
		}
		return vertex;
	}

	private categoryVertex(
		root: Root,
		system: SystemId,
		name: string,
		label: string,
		order: number,
	): Vertex {
		const id = `cat:${system}:${name}`;
		let vertex = root.groups.get(id);
		if (!vertex) {
			vertex = createVertex(id, 'category', { autoHide: true, order });
			vertex.info = this.groupInfo(label, system);
			vertex.desired = [this.systemVertex(root, system)];
			root.groups.set(id, vertex);
		}
		return vertex;
	}

	private groupInfo(
		label: string,
		system: SystemId,
		extra: Partial<DerivedInfo> = {},
	): DerivedInfo {
		return {
			label,
			description: undefined,
			message: undefined,
			ref: undefined,
			system,
			namespace: '',
			link: '',
			unit: 'ready',
			...extra,
		};
	}

	/** Where an object belongs in the tree right now. */
	private parentsOf(work: Work, entry: Entry): Vertex[] {
		const { root } = work;
		const parents: Vertex[] = [];
		switch (entry.system) {
			case 'fleet':
				this.fleetParents(work, entry, parents);
				break;
			case 'kubestellar':
				this.kubestellarParents(work, entry, parents);
				break;
			case 'harbor': {
				const owners = this.harborOwners(root, entry);
				if (owners.length > 0) parents.push(...owners);
				else if (entry.kind) {
					const label = pluralOfKind(entry.kind);
					parents.push(
						this.categoryVertex(
							root,
							'harbor',
							entry.kind,
							label,
							entry.kind === 'HarborCluster' ? 0 : 1,
						),
					);
				}
				break;
			}
			case 'flux':
				if (entry.kind) {
					parents.push(this.categoryVertex(root, 'flux', entry.kind, pluralOfKind(entry.kind), 0));
				}
				break;
			case 'aso':
				parents.push(this.categoryVertex(root, 'aso', entry.group, entry.group, 0));
				break;
			case 'kubernetes':
				break;
		}
		if (entry.system !== 'harbor') parents.push(...this.harborOwners(root, entry));
		if (!isKubestellar(entry)) parents.push(...this.selectingPolicies(root, entry));
		return parents;
	}

	private harborOwners(root: Root, entry: Entry): readonly Vertex[] {
		if (getPath(entry.object, 'metadata', 'ownerReferences') === undefined) return noParents;
		const owners: Vertex[] = [];
		for (const key of ownerKeysOf(entry.object)) {
			const owner = root.entries.get(key);
			if (!owner || owner.system !== 'harbor' || owner === entry) continue;
			if (isAncestorOrSelf(entry.vertex, owner.vertex)) continue;
			owners.push(owner.vertex);
		}
		return owners;
	}

	private fleetParents(work: Work, entry: Entry, parents: Vertex[]): void {
		const { root } = work;
		const category = fleetCategories[entry.kind];
		switch (entry.kind) {
			case 'GitRepo':
			case 'HelmOp':
			case 'ClusterGroup':
				if (category) {
					parents.push(
						this.categoryVertex(root, 'fleet', entry.kind, category.label, category.order),
					);
				}
				break;
			case 'Cluster':
				if (category) {
					parents.push(
						this.categoryVertex(root, 'fleet', entry.kind, category.label, category.order),
					);
				}
				for (const group of this.indexed(root, 'groupNs', entry.namespace)) {
					if (group.matcher?.(labelsOf(entry.object))) parents.push(group.vertex);
				}
				break;
			case 'Bundle': {
				const owner = this.fleetOwnerVertex(
					root,
					fleetOwnerCandidatesOf(entry.object, entry.namespace).map(fleetOwnerKeyOf),
				);
				const bundles = fleetCategories.Bundle;
				if (owner) parents.push(owner);
				else if (bundles) {
					parents.push(this.categoryVertex(root, 'fleet', 'Bundle', bundles.label, bundles.order));
				}
				break;
			}
			case 'BundleDeployment': {
				const links = entry.bdLinks;
				if (!links) break;
				const bundle = links.bundleKey ? root.entries.get(links.bundleKey) : undefined;
				parents.push(bundle ? bundle.vertex : this.bundlePlaceholder(work, links.slot));
				if (links.clusterKey) {
					const cluster = root.entries.get(links.clusterKey);
					if (cluster) parents.push(cluster.vertex);
				} else {
					for (const cluster of this.indexed(root, 'clusterStatusNs', links.namespace)) {
						parents.push(cluster.vertex);
					}
				}
				break;
			}
		}
	}

	private fleetOwnerVertex(root: Root, ownerKeys: Iterable<string>): Vertex | undefined {
		for (const key of ownerKeys) {
			const owner = root.entries.get(key);
			if (owner) return owner.vertex;
		}
		return undefined;
	}

	/** The placeholder standing for a Bundle that is not in the input but has BundleDeployments here. */
	private bundlePlaceholder(work: Work, slot: string): Vertex {
		const { root } = work;
		const id = `ph:bundle:${slot}`;
		let vertex = root.groups.get(id);
		if (!vertex) {
			vertex = createVertex(id, 'placeholder', { autoHide: true, order: 10 });
			const unlabelled = slot.startsWith('?');
			const slash = slot.indexOf('/');
			const namespace = unlabelled ? '' : slot.slice(0, slash);
			const name = unlabelled ? slot.slice(1) : slot.slice(slash + 1);
			vertex.info = this.groupInfo(nameOrPlaceholder(name), 'fleet', {
				description: unlabelled ? 'no bundle label' : 'Bundle not in input',
				message: unlabelled
					? 'These BundleDeployments carry no fleet.cattle.io/bundle-name label, so their Bundle is unknown.'
					: `The Bundle ${qualified(namespace, name)} is not in this input; its BundleDeployments are.`,
				ref: { apiVersion: `${fleetApiGroup}/v1alpha1`, kind: 'Bundle', namespace, name },
				namespace,
				link: slot,
			});
			root.groups.set(id, vertex);
			this.placeBundlePlaceholder(root, vertex, work.changes);
		}
		return vertex;
	}

	private placeBundlePlaceholder(root: Root, vertex: Vertex, changes: ChangeSet): void {
		const slot = vertex.info?.link ?? '';
		const owner = this.fleetOwnerVertex(root, root.slotOwners.get(slot)?.keys() ?? []);
		const bundles = fleetCategories.Bundle;
		const parent =
			owner ??
			(bundles
				? this.categoryVertex(root, 'fleet', 'Bundle', bundles.label, bundles.order)
				: undefined);
		setDesiredParents(vertex, parent ? [parent] : [], changes);
	}

	private kubestellarParents(work: Work, entry: Entry, parents: Vertex[]): void {
		const { root } = work;
		switch (entry.kind) {
			case 'BindingPolicy':
				parents.push(
					this.categoryVertex(root, 'kubestellar', 'BindingPolicies', 'BindingPolicies', 0),
				);
				break;
			case 'Binding':
				for (const policy of this.indexed(root, 'policy', entry.name)) parents.push(policy.vertex);
				break;
			case 'WorkStatus': {
				if (entry.namespace) parents.push(this.wecVertex(root, entry.namespace));
				const source = entry.wsSource;
				if (!source) break;
				const workload = this.workloadOf(root, entry);
				if (workload) {
					parents.push(workload.vertex);
					break;
				}
				const placeholder = root.groups.get(
					`ph:wl:${source.group}|${source.resource}|${source.namespace}|${source.name}`,
				);
				if (placeholder) parents.push(placeholder);
				break;
			}
		}
	}

	private wecVertex(root: Root, wec: string): Vertex {
		const id = `ph:wec:${wec}`;
		let vertex = root.groups.get(id);
		if (!vertex) {
			vertex = createVertex(id, 'placeholder', { autoHide: true, order: 10 });
			vertex.info = this.groupInfo(wec, 'kubestellar', {
				message: `Workload execution cluster ${wec}: the WorkStatus objects in namespace ${wec} report its workloads.`,
				link: wec,
			});
			vertex.desired = [this.categoryVertex(root, 'kubestellar', 'WECs', 'WECs', 1)];
			root.groups.set(id, vertex);
		}
		return vertex;
	}

	/** The BindingPolicies that select an object: by their Binding when it exists, else by their downsync clauses. */
	private selectingPolicies(root: Root, entry: Entry): readonly Vertex[] {
		if (this.indexedSize(root, 'policies', '') === 0 || entry.kind === '' || entry.name === '') {
			return noParents;
		}
		const policies = this.indexed(root, 'policies', '');
		const result: Vertex[] = [];
		const nameKey = workloadNameKey(entry.group, entry.namespace, entry.name);
		for (const binding of this.indexed(root, 'bindingRef', nameKey)) {
			const listed = binding.bindingRefs?.some(
				(ref) =>
					ref.group === entry.group &&
					ref.namespace === entry.namespace &&
					ref.name === entry.name &&
					resourceNamesKind(ref.resource, entry.kind),
			);
			if (!listed) continue;
			for (const policy of this.indexed(root, 'policy', binding.name)) result.push(policy.vertex);
		}
		const candidate = {
			group: entry.group,
			kind: entry.kind,
			namespace: entry.namespace,
			name: entry.name,
			labels: () => labelsOf(entry.object),
		};
		const namespaceLabels = (namespace: string) =>
			labelsOf(root.entries.get(objectKey('', 'Namespace', '', namespace))?.object);
		for (const policy of policies) {
			if (this.bindingOf(root, policy)) continue;
			if (policy.clauses?.some((clause) => clauseSelects(clause, candidate, namespaceLabels))) {
				result.push(policy.vertex);
			}
		}
		return result;
	}

	/** Workload placeholders: what a policy's Binding lists that is not in the input. */
	private syncPlaceholders(work: Work, policy: Entry): void {
		const { root, changes } = work;
		const wanted = new Map<string, WorkloadRef>();
		const binding = policy.removed ? undefined : this.bindingOf(root, policy);
		for (const ref of binding?.bindingRefs ?? []) {
			const present = [
				...this.indexed(root, 'gnn', workloadNameKey(ref.group, ref.namespace, ref.name)),
			].some((candidate) => resourceNamesKind(ref.resource, candidate.kind));
			if (!present) {
				wanted.set(`ph:wl:${ref.group}|${ref.resource}|${ref.namespace}|${ref.name}`, ref);
			}
		}
		const previous = policy.placeholders ?? new Set<string>();
		const touched = new Set<string>();
		for (const id of previous) {
			if (wanted.has(id)) continue;
			root.placeholderRefs.get(id)?.delete(policy);
			touched.add(id);
		}
		for (const [id, ref] of wanted) {
			if (previous.has(id)) continue;
			const refs = root.placeholderRefs.get(id) ?? new Set<Entry>();
			refs.add(policy);
			root.placeholderRefs.set(id, refs);
			touched.add(id);
			if (!root.groups.has(id)) {
				const vertex = createVertex(id, 'placeholder', { order: 10 });
				vertex.info = this.groupInfo(
					`${ref.resource || 'object'} ${qualified(ref.namespace, ref.name)}`,
					'kubestellar',
					{
						description: 'not in input',
						message: `The Binding lists ${ref.resource} ${qualified(ref.namespace, ref.name)}, which is not in this input.`,
						ref: {
							apiVersion: ref.group,
							kind: ref.resource,
							namespace: ref.namespace,
							name: ref.name,
						},
						namespace: ref.namespace,
						unit: 'WECs',
					},
				);
				root.groups.set(id, vertex);
				for (const workStatus of this.indexed(
					root,
					'wsGnn',
					workloadNameKey(ref.group, ref.namespace, ref.name),
				)) {
					work.replace.add(workStatus);
				}
			}
		}
		policy.placeholders = wanted.size > 0 ? new Set(wanted.keys()) : undefined;
		for (const id of touched) {
			const vertex = root.groups.get(id);
			if (!vertex) continue;
			const refs = root.placeholderRefs.get(id);
			if (!refs || refs.size === 0) {
				root.placeholderRefs.delete(id);
				root.groups.delete(id);
				for (const child of vertex.children?.values() ?? []) {
					if (child.entry) work.replace.add(child.entry);
				}
				killVertex(vertex, changes);
			} else {
				setDesiredParents(
					vertex,
					[...refs].filter((ref) => !ref.removed).map((ref) => ref.vertex),
					changes,
				);
			}
		}
	}

	// -- Derived children (BD resources, Harbor dependencies) ---------------------------------------------------

	private syncDerived(work: Work, entry: Entry): void {
		const wanted = new Map<
			string,
			{ info: DerivedInfo; tone: Tone; kind: 'resource' | 'dependency'; order: number }
		>();
		const view = isFleet(entry, 'BundleDeployment')
			? readBundleDeployment(entry.object)
			: undefined;
		if (view) {
			const seen = new Map<string, number>();
			const add = (base: string, info: DerivedInfo, tone: Tone) => {
				const count = (seen.get(base) ?? 0) + 1;
				seen.set(base, count);
				wanted.set(count === 1 ? base : `${base}#${count}`, {
					info,
					tone,
					kind: 'resource',
					order: 10,
				});
			};
			for (const nonReady of view.nonReadyStatus) {
				const label = `${nonReady.kind || 'resource'} ${qualified(nonReady.namespace, nonReady.name)}`;
				add(
					`r:${entry.key}:n:${nonReady.apiVersion}:${nonReady.kind}:${nonReady.namespace}/${nonReady.name}`,
					this.groupInfo(label, 'fleet', {
						description: nonReady.summary.state || 'not ready',
						message: nonReadyStatusString(nonReady),
						ref: {
							apiVersion: nonReady.apiVersion,
							kind: nonReady.kind,
							namespace: nonReady.namespace,
							name: nonReady.name,
						},
						namespace: nonReady.namespace,
					}),
					nonReady.summary.error ? 'error' : 'progressing',
				);
			}
			for (const modified of view.modifiedStatus) {
				const label = `${modified.kind || 'resource'} ${qualified(modified.namespace, modified.name)}`;
				const word = modified.missing
					? modified.exist
						? 'not owned by us'
						: 'missing'
					: modified.delete
						? 'extra'
						: 'modified';
				add(
					`r:${entry.key}:m:${modified.apiVersion}:${modified.kind}:${modified.namespace}/${modified.name}`,
					this.groupInfo(label, 'fleet', {
						description: word,
						message: modifiedStatusString(modified),
						ref: {
							apiVersion: modified.apiVersion,
							kind: modified.kind,
							namespace: modified.namespace,
							name: modified.name,
						},
						namespace: modified.namespace,
					}),
					'warning',
				);
			}
		}
		if (entry.system === 'harbor' && entry.kind === 'HarborCluster') {
			const { conditions } = readConditions(entry.object);
			harborDependencyConditions.forEach((type, index) => {
				const condition = findCondition(conditions, type);
				const tone: Tone =
					condition?.status === 'True'
						? 'ok'
						: condition?.status === 'False'
							? 'error'
							: entry.base.observed
								? 'progressing'
								: 'unknown';
				const description = condition
					? `${condition.status}${condition.reason ? ` · ${condition.reason}` : ''}`
					: 'not reported';
				wanted.set(`d:${entry.key}:${type}`, {
					info: this.groupInfo(type, 'harbor', {
						description,
						message:
							condition?.message ??
							(condition ? undefined : `The operator has not reported ${type} yet.`),
						namespace: entry.namespace,
					}),
					tone,
					kind: 'dependency',
					order: index,
				});
			});
		}
		const { changes } = work;
		const existing = entry.derived ?? new Map<string, Vertex>();
		for (const [id, vertex] of existing) {
			if (wanted.has(id)) continue;
			killVertex(vertex, changes);
			existing.delete(id);
		}
		for (const [id, want] of wanted) {
			let vertex = existing.get(id);
			if (!vertex) {
				vertex = createVertex(id, want.kind, { order: want.order, ownTone: want.tone });
				vertex.info = want.info;
				existing.set(id, vertex);
				setDesiredParents(vertex, [entry.vertex], changes);
				continue;
			}
			if (!sameJson(vertex.info, want.info)) {
				vertex.info = want.info;
				markDisplay(vertex, changes);
			}
			setOwnTone(vertex, want.tone, changes);
		}
		entry.derived = existing.size > 0 ? existing : undefined;
	}

	// -- Results and Fleet roll-ups -----------------------------------------------------------------------------

	/** The engine's result with, for Fleet parents, what the controller would write recomputed from the children. */
	private resultOf(root: Root, entry: Entry): StatusResult {
		if (entry.full && !entry.computedDirty) return entry.full;
		if (entry.system === 'fleet' && fleetRollupKinds.has(entry.kind)) {
			entry.full = { ...entry.base, computed: this.fleetComputed(root, entry) };
		} else {
			entry.full = entry.base;
		}
		return entry.full;
	}

	private bdViews(
		root: Root,
		name: IndexName,
		key: string,
		accept: (links: BundleDeploymentLinks) => boolean = () => true,
	): BundleDeploymentView[] {
		const views: BundleDeploymentView[] = [];
		if (root.rollupsFromController) return views;
		for (const bd of this.indexed(root, name, key)) {
			if (bd.bdLinks && accept(bd.bdLinks)) views.push(this.bdViewOf(bd));
		}
		return views;
	}

	private bdViewOf(entry: Entry): BundleDeploymentView {
		return (entry.bdView ??= readBundleDeployment(entry.object));
	}

	/** Fleet's roll-up for one parent from the indexed children, with the links computeFleetRollups uses. */
	private fleetComputed(root: Root, entry: Entry): unknown {
		if (!entry.computedDirty) return entry.computed;
		entry.computedDirty = false;
		const object = entry.object;
		const pair = pairOf(entry.namespace, entry.name);
		if (fleetStatusFrozen(entry.kind, object)) {
			entry.clusterHasBds = false;
			entry.computed = undefined;
			return undefined;
		}
		switch (entry.kind) {
			case 'BundleDeployment': {
				const display = bdDisplayOf(this.bdViewOf(entry));
				entry.computed = { kind: 'BundleDeployment', state: display.state, display };
				break;
			}
			case 'Bundle':
				entry.computed = bundleStatusOf(
					object,
					this.bdViews(root, 'bdSlot', pair, (links) => links.bundleKey !== undefined),
				);
				break;
			case 'GitRepo': {
				const bds = this.bdViews(root, 'bdRepo', pair);
				const bundles = [...this.indexed(root, 'bundleRepo', pair)].map((bundle) => bundle.object);
				entry.computed = gitRepoStatusOf(
					object,
					bds,
					bundles,
					bundles.length > 0 || bds.length === 0,
				);
				break;
			}
			case 'HelmOp':
				entry.computed = helmOpStatusOf(object, this.bdViews(root, 'bdHelm', pair));
				break;
			case 'Cluster': {
				const statusNamespace = getString(object, 'status', 'namespace') ?? '';
				// Fleet's cluster controller counts every BD in the cluster's status.namespace, whatever their labels
				// say; before the cluster registered, the labels are the best guess (as computeFleetRollups does).
				const members = root.rollupsFromController
					? []
					: statusNamespace
						? [...this.indexed(root, 'bdAnyNs', statusNamespace)]
						: [...this.indexed(root, 'bdCluster', pair)];
				const bds: BundleDeploymentView[] = [];
				const gitRepos = new Set<string>();
				const helmOps = new Set<string>();
				for (const bd of members) {
					if (!bd.bdLinks) continue;
					bds.push(this.bdViewOf(bd));
					for (const key of bd.bdLinks.ownerKeys) {
						const owner = root.entries.get(key);
						if (owner) {
							(owner.kind === 'GitRepo' ? gitRepos : helmOps).add(
								pairOf(owner.namespace, owner.name),
							);
						}
					}
				}
				entry.clusterHasBds = bds.length > 0;
				entry.computed = clusterStatusOf(object, bds, { gitRepos, helmOps });
				break;
			}
			case 'ClusterGroup': {
				const members = [...this.indexed(root, 'clusterNs', entry.namespace)];
				const byObject = new Map<unknown, Entry>(members.map((member) => [member.object, member]));
				entry.computed = clusterGroupStatusOf(
					object,
					members.map((member) => member.object),
					(cluster): SummaryParts => {
						const member = byObject.get(cluster);
						if (member) {
							const computed = this.fleetComputed(root, member);
							if (member.clusterHasBds) {
								return {
									summary: readBundleSummary(getPath(computed, 'summary')),
									resourceCounts: readResourceCounts(getPath(computed, 'resourceCounts')),
								};
							}
						}
						return writtenClusterSummary(cluster);
					},
				);
				break;
			}
			default:
				entry.computed = undefined;
		}
		return entry.computed;
	}

	// -- Nodes --------------------------------------------------------------------------------------------------

	private resolve(id: string): { root: Root; path: Vertex[] } | undefined {
		const segments = id.split('/');
		const root = this.rootsById.get(unescapeSegment(segments[0] ?? ''));
		if (!root) return undefined;
		const path: Vertex[] = [root.vertex];
		let current = root.vertex;
		for (let index = 1; index < segments.length; index++) {
			const child = current.children?.get(unescapeSegment(segments[index] ?? ''));
			if (!child) return undefined;
			path.push(child);
			current = child;
		}
		return { root, path };
	}

	private buildNode(
		root: Root,
		vertex: Vertex,
		id: string,
		parentId: string | undefined,
		parent: Vertex | undefined,
	): TreeNode {
		const cached = vertex.nodes?.get(id);
		if (cached) return cached;
		const node = vertex.entry
			? this.objectNode(root, vertex.entry, id, parentId, parent)
			: this.otherNode(root, vertex, id, parentId);
		(vertex.nodes ??= new Map()).set(id, node);
		return node;
	}

	private flagsOf(
		root: Root,
		vertex: Vertex,
		entry: Entry | undefined,
		result: StatusResult | undefined,
	): ContextFlags {
		const object = entry?.object;
		return {
			origin: root.origin,
			system: entry ? entry.system : (vertex.info?.system ?? 'none'),
			objectKind: entry?.kind ?? '',
			state: result?.state ?? '',
			declared: result ? isDeclaredOnly(result) : false,
			suspended: entry?.system === 'flux' && getPath(object, 'spec', 'suspend') === true,
			paused: entry?.system === 'fleet' && getPath(object, 'spec', 'paused') === true,
			oci: entry ? isOciHelmRepository(object) : false,
			inFile: entry ? entry.copies.some((copy) => copy.line !== undefined) : false,
			problem: isProblemTone(vertex.tone),
		};
	}

	private labelFor(entry: Entry, parent: Vertex | undefined): string {
		const parentEntry = parent?.entry;
		if (isFleet(entry, 'BundleDeployment')) {
			if (parentEntry && isFleet(parentEntry, 'Cluster')) return nameOrPlaceholder(entry.name);
			return entry.bdLinks?.clusterName || nameOrPlaceholder(entry.namespace);
		}
		if (isWorkStatus(entry)) {
			const source = entry.wsSource;
			if (parent?.kind === 'placeholder' && parent.info?.link === entry.namespace) {
				return source
					? `${source.kind || source.resource || 'object'} ${qualified(source.namespace, source.name)}`
					: qualified(entry.namespace, entry.name);
			}
			return nameOrPlaceholder(entry.namespace);
		}
		if (!parent || parent.kind === 'category') return qualified(entry.namespace, entry.name);
		if (parentEntry) {
			if (entry.system === 'fleet' && parentEntry.system === 'fleet') {
				return nameOrPlaceholder(entry.name);
			}
			const name =
				parentEntry.namespace === entry.namespace
					? nameOrPlaceholder(entry.name)
					: qualified(entry.namespace, entry.name);
			return `${entry.kind || 'object'} ${name}`;
		}
		return qualified(entry.namespace, entry.name);
	}

	private objectNode(
		root: Root,
		entry: Entry,
		id: string,
		parentId: string | undefined,
		parent: Vertex | undefined,
	): TreeNode {
		const vertex = entry.vertex;
		const result = this.resultOf(root, entry);
		const rollup = rollupOf(vertex);
		let counts: string | undefined;
		let disagreement: string | undefined;
		if (entry.system === 'fleet' && fleetRollupKinds.has(entry.kind)) {
			counts = fleetCountsOf(entry.kind, entry.object, result.computed);
			disagreement = fleetDisagreementOf(entry.kind, entry.object, result.computed);
			if (!disagreement && fleetRollupSize(entry.kind, result.computed) === 0 && rollup) {
				disagreement = childrenDisagreementOf(entry.kind, result, rollup.total, rollup.problems);
			}
		} else if (entry.system === 'harbor' && entry.kind === 'HarborCluster') {
			counts = harborCountsOf(entry.object);
			disagreement = harborDisagreementOf(entry.object, result.computed);
		} else if (rollup) {
			const unit =
				this.indexedSize(root, 'wsSource', entry.key) > 0 && !isBindingPolicy(entry)
					? 'WECs'
					: 'ready';
			counts = `${rollup.ok}/${rollup.total} ${unit}`;
			disagreement = childrenDisagreementOf(entry.kind, result, rollup.total, rollup.problems);
		}
		const word = stateWordOf(result, root.origin === 'live');
		const sources: NodeSource[] = [];
		for (const copy of entry.copies) {
			const source: { -readonly [K in keyof NodeSource]: NodeSource[K] } = {
				sourceId: copy.sourceId,
			};
			if (copy.line !== undefined) source.line = copy.line;
			if (copy.label !== undefined) source.label = copy.label;
			sources.push(source);
		}
		const node: { -readonly [K in keyof TreeNode]: TreeNode[K] } = {
			id,
			rootId: root.id,
			kind: 'object',
			label: this.labelFor(entry, parent),
			description: counts ? `${word} · ${counts}` : word,
			tone: vertex.tone,
			objectKey: entry.key,
			ref: {
				apiVersion: getString(entry.object, 'apiVersion') ?? '',
				kind: entry.kind,
				namespace: entry.namespace,
				name: entry.name,
			},
			result,
			sources,
			contextFlags: this.flagsOf(root, vertex, entry, result),
			hasChildren: childCount(vertex) > 0,
		};
		if (root.rollupsFromController && entry.system === 'fleet') {
			const query = bundleDeploymentQueryOf(entry.kind, entry.object);
			if (query) {
				node.listOnDemand = query;
				node.hasChildren = true;
			}
		}
		if (parentId !== undefined) node.parentId = parentId;
		if (rollup) node.rollup = rollup;
		if (disagreement) node.disagreement = disagreement;
		return node;
	}

	private otherNode(
		root: Root,
		vertex: Vertex,
		id: string,
		parentId: string | undefined,
	): TreeNode {
		const info = vertex.info;
		const rollup = rollupOf(vertex);
		let label: string;
		let description: string;
		switch (vertex.kind) {
			case 'root': {
				label = root.label;
				let copied = 0;
				for (const [sourceId, keys] of root.sources) {
					if (sourceId.startsWith(copiedSourcePrefix)) copied += keys.size;
				}
				copied = Math.min(copied, root.entries.size);
				const objects = root.entries.size - copied;
				const errors = root.errors.size;
				const counts = `${objects} object${objects === 1 ? '' : 's'}${copied > 0 ? ` + ${copied} from other contexts` : ''}${errors > 0 ? ` · ${errors} in error` : ''}`;
				description = root.state ? `${root.state.message} · ${counts}` : counts;
				break;
			}
			case 'system':
			case 'category':
				label = info?.label ?? vertex.id;
				description = groupDescriptionOf(rollup?.total ?? 0, rollup?.problems ?? 0);
				break;
			case 'placeholder': {
				label = info?.label ?? vertex.id;
				const counts = rollup ? `${rollup.ok}/${rollup.total} ${info?.unit ?? 'ready'}` : undefined;
				description = [info?.description, counts]
					.filter((part) => part !== undefined && part !== '')
					.join(' · ');
				break;
			}
			default:
				label = info?.label ?? vertex.id;
				description = info?.description ?? '';
		}
		const node: { -readonly [K in keyof TreeNode]: TreeNode[K] } = {
			id,
			rootId: root.id,
			kind: vertex.kind,
			label,
			description,
			tone: vertex.tone,
			contextFlags: this.flagsOf(root, vertex, undefined, undefined),
			hasChildren: childCount(vertex) > 0,
		};
		if (parentId !== undefined) node.parentId = parentId;
		if (rollup) node.rollup = rollup;
		if (info?.ref) node.ref = info.ref;
		const message =
			vertex.kind === 'root' ? (root.state?.detail ?? root.state?.message) : info?.message;
		if (message) node.message = message;
		return node;
	}

	// -- Filters ------------------------------------------------------------------------------------------------

	private isActive(filter: TreeFilter): boolean {
		return (
			filter.problemsOnly === true || Boolean(filter.namespace) || Boolean(filter.nameContains)
		);
	}

	/** True when a vertex itself meets the namespace and name criteria (groups never do). */
	private textMatches(vertex: Vertex, filter: TreeFilter): boolean {
		if (!filter.namespace && !filter.nameContains) return false;
		if (vertex.kind === 'root' || vertex.kind === 'system' || vertex.kind === 'category') {
			return false;
		}
		const entry = vertex.entry;
		const namespace = entry ? entry.namespace : (vertex.info?.namespace ?? '');
		if (filter.namespace && namespace !== filter.namespace) return false;
		if (filter.nameContains) {
			const needle = filter.nameContains.toLowerCase();
			// Names a user sees on the item count too: a BD is shown by its cluster, a WorkStatus by its WEC and workload.
			const haystack = entry
				? [
						entry.name,
						entry.kind,
						entry.bdLinks?.clusterName ?? '',
						entry.wsSource?.name ?? '',
					].join('\u0000')
				: (vertex.info?.label ?? '');
			if (!haystack.toLowerCase().includes(needle)) return false;
		}
		return true;
	}

	/** Whether a vertex stays under a filter: it matches, or something below it does. Memoized per graph version. */
	private kept(vertex: Vertex, filter: TreeFilter, textSatisfied: boolean): boolean {
		if (filter.problemsOnly && !isProblemTone(vertex.tone)) return false;
		const textual = Boolean(filter.namespace) || Boolean(filter.nameContains);
		if (!textual || textSatisfied) return true;
		const signature = `${filter.problemsOnly === true}\u0000${filter.namespace ?? ''}\u0000${filter.nameContains ?? ''}`;
		if (this.filterMemo?.version !== this.version || this.filterMemo.signature !== signature) {
			this.filterMemo = { version: this.version, signature, kept: new Map() };
		}
		const memo = this.filterMemo.kept;
		const known = memo.get(vertex);
		if (known !== undefined) return known;
		// Provisional false guards against cycles.
		memo.set(vertex, false);
		let result = this.textMatches(vertex, filter);
		if (!result) {
			for (const child of vertex.children?.values() ?? []) {
				if (this.kept(child, filter, false)) {
					result = true;
					break;
				}
			}
		}
		memo.set(vertex, result);
		return result;
	}

	// -- Sources ------------------------------------------------------------------------------------------------

	private keyAtLine(root: Root, sourceId: string, line: number): string | undefined {
		let lines = root.lines.get(sourceId);
		if (!lines) {
			lines = [];
			for (const key of root.sources.get(sourceId) ?? []) {
				for (const copy of root.entries.get(key)?.copies ?? []) {
					if (copy.sourceId === sourceId && copy.line !== undefined) {
						lines.push({ line: copy.line, key });
					}
				}
			}
			lines.sort((a, b) => a.line - b.line);
			root.lines.set(sourceId, lines);
		}
		let low = 0;
		let high = lines.length - 1;
		let found: string | undefined;
		while (low <= high) {
			const middle = (low + high) >> 1;
			const candidate = lines[middle];
			if (!candidate) break;
			if (candidate.line <= line) {
				found = candidate.key;
				low = middle + 1;
			} else {
				high = middle - 1;
			}
		}
		return found;
	}
}

/** The tree id of a root. */
export function rootNodeId(rootId: string): string {
	return escapeSegment(rootId);
}
