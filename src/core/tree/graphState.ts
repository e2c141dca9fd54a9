// The graph's state as plain data: vertices (the DAG the tree unfolds), entries (one object of a root, merged from
// its copies in several sources), roots with their indexes, and what one operation collects before it settles. The
// modules beside this one are functions that take this state as a parameter; ResourceGraph holds the roots.
import type { Termination } from '../explain/termination.ts';
import type { ObjectRef } from '../model/object.ts';
import type { BundleDeploymentView } from '../status/fleetSummary.ts';
import type { StatusResult, SystemId, Tone } from '../status/result.ts';
import type {
	BundleDeploymentLinks,
	BundleDeploymentQuery,
	DownsyncClause,
	WorkloadRef,
	WorkStatusSource,
} from './linking.ts';
import type {
	ContextFlags,
	NodeKind,
	NodeRollup,
	NodeSource,
	RootOrigin,
	RootState,
	StateSince,
	TreeNode,
} from './treeNode.ts';

/**
 * Sources whose id starts with this hold copies of objects that live in another root (the WorkStatus objects of an
 * ITS context shown under the workloads of its WDS): shown and linked, but not counted again as problems.
 */
export const copiedSourcePrefix = 'copy:';

// ---------------------------------------------------------------------------------------------------------------
// Vertices and change sets

/** Where a child sits among its siblings: what the order compares, as it was when the row was placed. */
export interface RowKey {
	readonly order: number;
	readonly label: string;
	readonly segment: string;
}

/** A vertex's children in order, with the nodes listed at each of its places. */
export interface Listing {
	readonly rows: Vertex[];
	readonly keys: Map<Vertex, RowKey>;
	/** Children that came, went or show differently since the rows were last brought up to date. */
	readonly stale: Set<Vertex>;
	/** Per place id of the vertex, the nodes of its rows in the same order. */
	readonly places: Map<string, TreeNode[]>;
}

/**
 * What fleetAggregates.ts keeps per index key for a Fleet parent's roll-up: its own type (BdAggregate) extends this.
 * Declared here so that this module, which every other one builds on, imports none of them.
 */
export interface AggregateSlot {
	/** BDs that changed (or moved in or out) since the aggregate was last brought up to date. */
	readonly pending: Set<Entry>;
}

/**
 * A node of the graph. The tree shows the DAG unfolded: a vertex with two parents (a BundleDeployment under its Bundle
 * and its Cluster) appears at two places, each with its own id "<parent place>/<segment>".
 */
export interface Vertex {
	/** Unique within its root; also the key among its parent's children. */
	readonly id: string;
	/** The id as it appears in place ids ('/' and '%' escaped). */
	readonly segment: string;
	readonly kind: NodeKind;
	/** Tie-break before the label when siblings have the same tone (keeps systems and categories in design order). */
	readonly order: number;
	/** Shown only while it has children (systems, categories, derived groupings). */
	readonly autoHide: boolean;
	parents: Vertex[];
	/** Where it belongs when visible. */
	desired: readonly Vertex[];
	children: Map<string, Vertex> | undefined;
	/** Children per tone, indexed by toneRank. */
	counts: number[] | undefined;
	ownTone: Tone;
	/** For roots: the tone of the root's own state ("cannot reach"), if any. */
	stateTone: Tone | undefined;
	tone: Tone;
	/** Tree nodes built for this vertex, by place id; dropped whenever its display changes. */
	nodes: Map<string, TreeNode> | undefined;
	/** What all places of an object's node share, built with the first of them and dropped with them. */
	row: ObjectRow | undefined;
	/** Its children in display order once listed, patched as they change (listing.ts). */
	listing: Listing | undefined;
	dead: boolean;
	entry: Entry | undefined;
	info: DerivedInfo | undefined;
}

/** An object's node without what depends on its place (id, parent, label). */
export interface ObjectRow {
	readonly description: string;
	readonly stateSince: StateSince | undefined;
	readonly stateEnd: number;
	readonly terminating: Termination | undefined;
	readonly ref: NonNullable<TreeNode['ref']>;
	/** The result, or for Fleet objects a reader of the result and disagreement that builds the whole roll-up. */
	readonly result: StatusResult | undefined;
	readonly details:
		| (() => { readonly result: StatusResult; readonly disagreement: string | undefined })
		| undefined;
	readonly disagreement: string | undefined;
	readonly sources: readonly NodeSource[];
	readonly contextFlags: ContextFlags;
	readonly hasChildren: boolean;
	readonly rollup: NodeRollup | undefined;
	readonly listOnDemand: BundleDeploymentQuery | undefined;
}

/** What one operation changed, as vertices; expanded to place ids once at the end. */
export interface ChangeSet {
	readonly display: Set<Vertex>;
	readonly structure: Set<Vertex>;
	rootsChanged: boolean;
}

/** An empty change set. */
export function newChangeSet(): ChangeSet {
	return { display: new Set(), structure: new Set(), rootsChanged: false };
}

/** Escapes a vertex id for use as one segment of a place id. */
function escapeSegment(id: string): string {
	return id.includes('/') || id.includes('%')
		? id.replaceAll('%', '%25').replaceAll('/', '%2F')
		: id;
}

/** The vertex id of an escaped segment. */
export function unescapeSegment(segment: string): string {
	return segment.includes('%') ? segment.replaceAll('%2F', '/').replaceAll('%25', '%') : segment;
}

/** A detached vertex. */
export function createVertex(
	id: string,
	kind: NodeKind,
	options: { readonly order?: number; readonly autoHide?: boolean; readonly ownTone?: Tone } = {},
): Vertex {
	const ownTone = options.ownTone ?? 'unknown';
	return {
		id,
		segment: escapeSegment(id),
		kind,
		order: options.order ?? 0,
		autoHide: options.autoHide ?? false,
		parents: [],
		desired: [],
		children: undefined,
		counts: undefined,
		ownTone,
		stateTone: undefined,
		tone: ownTone,
		nodes: undefined,
		row: undefined,
		listing: undefined,
		dead: false,
		entry: undefined,
		info: undefined,
	};
}

// ---------------------------------------------------------------------------------------------------------------
// Entries

/** What one source says about an object. */
export interface Copy {
	readonly sourceId: string;
	readonly object: Record<string, unknown>;
	readonly line: number | undefined;
	readonly label: string | undefined;
	readonly seq: number;
	readonly withStatus: boolean;
}

/** One object of a root, merged from its copies in several sources. */
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
	/** When the indexes last registered it (Root.registrations): its order within every index bucket. */
	registered: number;
	/** A ClusterGroup's member Clusters in name order, while Root.clusterChanges is what it was. */
	groupMembers: { readonly clusterChanges: number; readonly members: readonly Entry[] } | undefined;
}

/** What a vertex that is not an object shows. */
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

/** True for KubeStellar objects. */
export function isKubestellar(entry: Entry): boolean {
	return entry.system === 'kubestellar';
}

/** True for a KubeStellar BindingPolicy. */
export function isBindingPolicy(entry: Entry): boolean {
	return isKubestellar(entry) && entry.kind === 'BindingPolicy';
}

/** True for a KubeStellar Binding. */
export function isBinding(entry: Entry): boolean {
	return isKubestellar(entry) && entry.kind === 'Binding';
}

/** True for a KubeStellar WorkStatus. */
export function isWorkStatus(entry: Entry): boolean {
	return isKubestellar(entry) && entry.kind === 'WorkStatus';
}

/** True for a Fleet object of this kind. */
export function isFleet(entry: Entry, kind: string): boolean {
	return entry.system === 'fleet' && entry.kind === kind;
}

// ---------------------------------------------------------------------------------------------------------------
// Roots and work

/** One root (the workspace, a kube context): its vertex, objects, groups and indexes. */
export interface Root {
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
	/** The counts the root's description showed when last settled (objects, copies, errors), to see them change. */
	shownCounts: string;
	/** Registrations into the indexes so far: a bucket holds its entries in this order. */
	registrations: number;
	/** Changes to Fleet Clusters so far (created, changed, removed): ClusterGroups select their members again. */
	clusterChanges: number;
	/** What Fleet parents roll up from their BundleDeployments, per index key, kept as the BDs change. */
	readonly aggregates: Map<string, Map<string, AggregateSlot>>;
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
/** The name of one index of a root. */
export type IndexName = (typeof indexNames)[number];
/** The entries one index holds under one key: one entry alone, or a Set when several. */
export type Bucket = Entry | Set<Entry>;

function newIndex(): Record<IndexName, Map<string, Bucket>> {
	const index = {} as Record<IndexName, Map<string, Bucket>>;
	for (const name of indexNames) index[name] = new Map();
	return index;
}

/** What one operation collects while its events come in, settled once at the end. */
export interface Work {
	readonly root: Root;
	readonly changes: ChangeSet;
	readonly replace: Set<Entry>;
	readonly replaceVertices: Set<Vertex>;
	readonly computedDirty: Set<Entry>;
	readonly policies: Set<Entry>;
	readonly rescore: Set<Entry>;
}

/** An empty root. */
export function newRoot(rootId: string, label: string, origin: RootOrigin): Root {
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
		shownCounts: '',
		registrations: 0,
		clusterChanges: 0,
		aggregates: new Map(),
	};
	root.shownCounts = rootCountsText(root);
	return root;
}

/** What a root's description counts: its objects, those copied from other contexts, and those in error. */
export function rootCountsText(root: Root): string {
	let copied = 0;
	for (const [sourceId, keys] of root.sources) {
		if (sourceId.startsWith(copiedSourcePrefix)) copied += keys.size;
	}
	copied = Math.min(copied, root.entries.size);
	const objects = root.entries.size - copied;
	const errors = root.errors.size;
	// Objects that no system places (a plain Deployment with no BindingPolicy, a ConfigMap) leave an open root empty.
	const noneShown = objects > 0 && (root.vertex.children?.size ?? 0) === 0;
	return `${objects} object${objects === 1 ? '' : 's'}${noneShown ? ', none of the kinds this view shows' : ''}${copied > 0 ? ` + ${copied} from other contexts` : ''}${errors > 0 ? ` · ${errors} in error` : ''}`;
}

/** Nothing collected yet for an operation on a root. */
export function newWork(root: Root): Work {
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
