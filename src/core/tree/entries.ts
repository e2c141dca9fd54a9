// The objects of a root, each merged from its copies in several sources: which copy wins, what reading a new
// winner updates (indexes, status, derived children) and which other objects its change affects; and settling an
// operation once its events are in.
import { getString, groupOf, isRecord } from '../model/object.ts';
import { computeStatus, systemOf } from '../status/registry.ts';
import type { StatusResult } from '../status/result.ts';
import { hasFleetRollup, syncDerived } from './derivation.ts';
import { ownToneOf } from './describe.ts';
import { collectFleetDependents, placeBundlePlaceholder } from './fleetPlacement.ts';
import {
	copiedSourcePrefix,
	createVertex,
	isBinding,
	isBindingPolicy,
	isFleet,
	isWorkStatus,
	rootCountsText,
	type Copy,
	type Entry,
	type Root,
	type Work,
} from './graphState.ts';
import { indexed, reindex, unindex } from './indexes.ts';
import {
	collectKubestellarDependents,
	syncPlaceholders,
	workloadOf,
} from './kubestellarPlacement.ts';
import {
	bindingWorkloadRefsOf,
	bundleDeploymentLinksOf,
	clusterGroupMatcherOf,
	downsyncClausesOf,
	workStatusSourceOf,
	type BundleDeploymentLinks,
} from './linking.ts';
import { parentsOf } from './placement.ts';
import {
	childCount,
	killVertex,
	markDisplay,
	markStructure,
	sameJson,
	setDesiredParents,
	setOwnTone,
} from './update.ts';

/** The objects a value holds: itself, or the items of a `kind: List` (as `kubectl get -o yaml` writes them). */
export function objectsIn(value: unknown): Record<string, unknown>[] {
	if (!isRecord(value)) return [];
	const kind = value.kind;
	if (typeof kind === 'string' && kind.endsWith('List') && Array.isArray(value.items)) {
		return value.items.flatMap(objectsIn);
	}
	return [value];
}

/** The copy an entry shows: one with a status before one without, then the newest. */
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

/** True when two lists of copies name the same sources at the same lines. */
function sameSources(a: readonly Copy[], b: readonly Copy[]): boolean {
	if (a.length !== b.length) return false;
	return a.every(
		(copy, index) =>
			copy.sourceId === b[index]?.sourceId &&
			copy.line === b[index]?.line &&
			copy.label === b[index]?.label,
	);
}

/** Replaces what one source says about an object (no copies: the source no longer has it). */
export function replaceCopies(
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
		changeEntry(work, entry, copy);
		return;
	}
	const kept = entry ? entry.copies.filter((copy) => copy.sourceId !== sourceId) : [];
	const next = copies.length > 0 ? [...kept, ...copies] : kept;
	if (!entry) {
		const winner = pickWinner(next);
		if (winner) createEntry(work, key, next, winner);
		return;
	}
	if (next.length === 0) {
		removeEntry(work, entry);
		return;
	}
	const winner = pickWinner(next);
	if (!winner) return;
	const sourcesChanged = !sameSources(entry.copies, next);
	entry.copies = next;
	if (sourcesChanged) {
		markDisplay(entry.vertex, work.changes);
		// Whether it counts among the root's errors depends on its sources (a copy alone is counted where it is from).
		work.replace.add(entry);
	}
	if (winner.object === entry.object) return;
	// A re-read file that did not change this object keeps the node as it is (watch events always change it).
	if (reread && winner.sourceId === entry.winnerSource && sameJson(winner.object, entry.object)) {
		return;
	}
	changeEntry(work, entry, winner);
}

function createEntry(work: Work, key: string, copies: readonly Copy[], winner: Copy): void {
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
		registered: 0,
		groupMembers: undefined,
	};
	vertex.entry = entry;
	work.root.entries.set(key, entry);
	applyObject(work, entry, undefined);
}

function changeEntry(work: Work, entry: Entry, winner: Copy): void {
	const previous = entry.object;
	entry.object = winner.object;
	entry.winnerSource = winner.sourceId;
	applyObject(work, entry, previous);
}

/** Reads the entry's (new) object: caches, indexes, status, derived children, and what depends on it. */
function applyObject(
	work: Work,
	entry: Entry,
	previous: Record<string, unknown> | undefined,
): void {
	const object = entry.object;
	const previousLinks = entry.bdLinks;
	const previousLabel = previous === undefined ? undefined : labelInputsOf(entry);
	entry.system = systemOf(object);
	entry.bdLinks = isFleet(entry, 'BundleDeployment')
		? bundleDeploymentLinksOf(object, previousLinks)
		: undefined;
	entry.bdView = undefined;
	entry.matcher = isFleet(entry, 'ClusterGroup') ? clusterGroupMatcherOf(object) : undefined;
	entry.groupMembers = undefined;
	if (isFleet(entry, 'Cluster')) work.root.clusterChanges++;
	entry.clauses = isBindingPolicy(entry) ? downsyncClausesOf(object) : undefined;
	entry.bindingRefs = isBinding(entry) ? bindingWorkloadRefsOf(object) : undefined;
	entry.wsSource = isWorkStatus(entry) ? workStatusSourceOf(object) : undefined;
	reindex(work.root, entry);
	rescoreEntry(work, entry);
	if (hasFleetRollup(entry)) work.computedDirty.add(entry);
	markDisplay(entry.vertex, work.changes);
	// Rows are sorted by label: a relabelled row moves among its siblings, so its parents list their rows again.
	if (previousLabel !== undefined && previousLabel !== labelInputsOf(entry)) {
		for (const parent of entry.vertex.parents) markStructure(parent, work.changes);
	}
	collectDependents(work, entry, previous, entry.object, previousLinks);
	work.replace.add(entry);
	syncDerived(work, entry);
}

/** What an object's row label is made of, wherever it shows (see presentation.ts labelFor). */
function labelInputsOf(entry: Entry): string {
	const source = entry.wsSource;
	return [
		entry.bdLinks?.clusterName ?? '',
		source ? `${source.kind}|${source.resource}|${source.namespace}|${source.name}` : '',
	].join('|');
}

function removeEntry(work: Work, entry: Entry): void {
	const { root, changes } = work;
	entry.removed = true;
	entry.copies = [];
	if (isFleet(entry, 'Cluster')) root.clusterChanges++;
	unindex(root, entry);
	root.entries.delete(entry.key);
	root.errors.delete(entry);
	collectDependents(work, entry, entry.object, undefined, entry.bdLinks);
	for (const vertex of entry.derived?.values() ?? []) killVertex(vertex, changes);
	entry.derived = undefined;
	killVertex(entry.vertex, changes);
}

/** The engine's result for the entry's object, with the root as context (the WDS workload of a WorkStatus). */
function rescoreEntry(work: Work, entry: Entry): void {
	let base: StatusResult;
	if (isWorkStatus(entry)) {
		const workload = workloadOf(work.root, entry);
		base = computeStatus(entry.object, { workloadLookup: () => workload?.object });
	} else {
		base = computeStatus(entry.object);
	}
	entry.base = base;
	entry.full = undefined;
	markDisplay(entry.vertex, work.changes);
	setOwnTone(entry.vertex, ownToneOf(base), work.changes);
}

/**
 * Collects what an object change affects besides the object itself: objects to place again (their parent may be
 * this object), Fleet parents whose roll-up is now stale, policies whose placeholders change, WorkStatus results
 * that read this workload. Called with the previous and the new object (either may be undefined).
 */
function collectDependents(
	work: Work,
	entry: Entry,
	previous: unknown,
	next: unknown,
	previousLinks: BundleDeploymentLinks | undefined,
): void {
	const { root } = work;
	const existence = previous === undefined || next === undefined;
	const objects = [previous, next].filter((object) => object !== undefined);
	if (existence) {
		for (const dependent of indexed(root, 'owner', entry.key)) work.replace.add(dependent);
	}
	if (entry.system === 'fleet') {
		collectFleetDependents(work, entry, objects, existence, previousLinks);
	}
	collectKubestellarDependents(work, entry, previous, next, existence);
}

/** Settles an operation: placeholders, placements, dirty roll-ups, garbage, badge; the caller expands the changes. */
export function settle(work: Work): void {
	const { root, changes } = work;
	for (const entry of work.rescore) {
		if (entry.removed) continue;
		rescoreEntry(work, entry);
		work.replace.add(entry);
	}
	for (const policy of work.policies) syncPlaceholders(work, policy);
	for (const entry of work.replace) {
		if (entry.removed) continue;
		setDesiredParents(entry.vertex, parentsOf(work, entry), changes);
	}
	for (const vertex of work.replaceVertices) {
		if (!vertex.dead) placeBundlePlaceholder(root, vertex, changes);
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
	for (const entry of work.replace) refreshError(root, entry);
	// The root's description counts objects, copies and errors: compared with what it last showed, since objects
	// come and go during the operation, before this point.
	const counts = rootCountsText(root);
	if (counts !== root.shownCounts) {
		root.shownCounts = counts;
		markDisplay(root.vertex, changes);
	}
}

/** Counts an entry among the root's errors while it shows, is in error and is not only a copy. */
function refreshError(root: Root, entry: Entry): void {
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
