// The incremental part of the resource graph: vertices linked into a DAG, tone roll-ups kept as per-tone child
// counts, and the expansion of a change set into tree item ids. One event touches a vertex, its parents and, while
// their tone changes, their ancestors: O(depth x parents), never the whole graph.
import { toneRank, tones, type Tone } from '../status/result.ts';
import type { ChangeSet, Vertex } from './graphState.ts';

/** Number of children. */
export function childCount(vertex: Vertex): number {
	return vertex.children?.size ?? 0;
}

/** Records that a vertex shows differently. */
export function markDisplay(vertex: Vertex, changes: ChangeSet): void {
	vertex.nodes = undefined;
	vertex.row = undefined;
	noteListed(vertex, vertex.parents);
	changes.display.add(vertex);
	markSystemsOf(vertex, changes);
}

/** A system counts its categories' objects (presentation.ts systemRollupOf): their changes show on it too. */
function markSystemsOf(vertex: Vertex, changes: ChangeSet): void {
	if (vertex.kind !== 'category') return;
	for (const parent of vertex.parents) {
		if (parent.kind === 'system') markDisplay(parent, changes);
	}
}

/** Records that a vertex's list of children changed. */
export function markStructure(vertex: Vertex, changes: ChangeSet): void {
	vertex.nodes = undefined;
	vertex.row = undefined;
	noteListed(vertex, vertex.parents);
	changes.structure.add(vertex);
	markSystemsOf(vertex, changes);
}

/** Tells the listings of these parents (listing.ts) that the child's row came, went or shows differently. */
function noteListed(child: Vertex, parents: readonly Vertex[]): void {
	for (const parent of parents) parent.listing?.stale.add(child);
}

/** The worst tone among the children, or undefined without children. */
function worstChildTone(vertex: Vertex): Tone | undefined {
	const counts = vertex.counts;
	if (!counts) return undefined;
	for (let rank = tones.length - 1; rank >= 0; rank--) {
		if ((counts[rank] ?? 0) > 0) return tones[rank];
	}
	return undefined;
}

/** True for the tones "Show only problems" keeps and roll-ups count as problems. */
export function isProblemTone(tone: Tone): boolean {
	return toneRank(tone) >= toneRank('warning');
}

/**
 * The tone a vertex shows. An object keeps its own word unless something below it is a problem (warning or error),
 * which then shows through: a parent never looks better than a failing child. Groups show their worst child.
 */
function displayToneOf(vertex: Vertex): Tone {
	const worst = worstChildTone(vertex);
	switch (vertex.kind) {
		case 'object':
			return worst !== undefined &&
				isProblemTone(worst) &&
				toneRank(worst) > toneRank(vertex.ownTone)
				? worst
				: vertex.ownTone;
		case 'root': {
			const fromChildren = worst ?? (vertex.stateTone === undefined ? 'unknown' : 'ok');
			return vertex.stateTone !== undefined && toneRank(vertex.stateTone) > toneRank(fromChildren)
				? vertex.stateTone
				: fromChildren;
		}
		default:
			return worst ?? vertex.ownTone;
	}
}

/** Recomputes the shown tone and carries a change up through the parents' counts. */
export function refreshTone(vertex: Vertex, changes: ChangeSet): void {
	const next = displayToneOf(vertex);
	if (next === vertex.tone) return;
	const previous = vertex.tone;
	vertex.tone = next;
	markDisplay(vertex, changes);
	for (const parent of vertex.parents) {
		const counts = parent.counts;
		if (counts) {
			counts[toneRank(previous)] = (counts[toneRank(previous)] ?? 0) - 1;
			counts[toneRank(next)] = (counts[toneRank(next)] ?? 0) + 1;
		}
		markDisplay(parent, changes);
		refreshTone(parent, changes);
	}
}

/** Sets a vertex's own tone (its status), propagating what changes. */
export function setOwnTone(vertex: Vertex, tone: Tone, changes: ChangeSet): void {
	if (vertex.ownTone === tone) return;
	vertex.ownTone = tone;
	markDisplay(vertex, changes);
	refreshTone(vertex, changes);
}

function attach(child: Vertex, parent: Vertex, changes: ChangeSet): void {
	if (parent.dead || child.parents.includes(parent)) return;
	child.parents.push(parent);
	(parent.children ??= new Map()).set(child.id, child);
	noteListed(child, [parent]);
	const counts = (parent.counts ??= tones.map(() => 0));
	counts[toneRank(child.tone)] = (counts[toneRank(child.tone)] ?? 0) + 1;
	markStructure(parent, changes);
	markDisplay(parent, changes);
	if (parent.autoHide && childCount(parent) === 1) applyParents(parent, changes);
	refreshTone(parent, changes);
}

function detach(child: Vertex, parent: Vertex, changes: ChangeSet): void {
	const index = child.parents.indexOf(parent);
	if (index < 0) return;
	child.parents.splice(index, 1);
	parent.children?.delete(child.id);
	noteListed(child, [parent]);
	const counts = parent.counts;
	if (counts) counts[toneRank(child.tone)] = (counts[toneRank(child.tone)] ?? 0) - 1;
	markStructure(parent, changes);
	markDisplay(parent, changes);
	if (parent.autoHide && childCount(parent) === 0) applyParents(parent, changes);
	refreshTone(parent, changes);
}

/** Links a vertex under the parents it should have now (none while an auto-hidden vertex is empty). */
function applyParents(vertex: Vertex, changes: ChangeSet): void {
	const target =
		vertex.dead || (vertex.autoHide && childCount(vertex) === 0) ? noVertices : vertex.desired;
	// Most placements leave the parents as they are: check before copying anything.
	if (vertex.parents.some((parent) => !target.includes(parent))) {
		for (const parent of [...vertex.parents]) {
			if (!target.includes(parent)) detach(vertex, parent, changes);
		}
	}
	for (const parent of target) {
		if (!vertex.parents.includes(parent)) attach(vertex, parent, changes);
	}
}

const noVertices: readonly Vertex[] = [];

/** Sets where a vertex belongs and links it accordingly. */
export function setDesiredParents(
	vertex: Vertex,
	desired: readonly Vertex[],
	changes: ChangeSet,
): void {
	// Parent lists are short: a quadratic check beats allocating a Set on every placement.
	const clean = desired.every(
		(parent, index) => parent !== vertex && desired.indexOf(parent) === index,
	);
	vertex.desired = clean
		? desired
		: desired.filter((parent, index) => parent !== vertex && desired.indexOf(parent) === index);
	applyParents(vertex, changes);
}

/** Unlinks a vertex from everything and marks it dead; children lose this parent. */
export function killVertex(vertex: Vertex, changes: ChangeSet): void {
	vertex.dead = true;
	vertex.desired = [];
	applyParents(vertex, changes);
	for (const child of [...(vertex.children?.values() ?? [])]) {
		detach(child, vertex, changes);
		child.desired = child.desired.filter((parent) => parent !== vertex);
		// An auto-hidden child that just lost its only parent stays unlinked until its owner places it again.
	}
}

/** True when two values are the same JSON (a re-read object, a spec that may not have changed). */
export function sameJson(a: unknown, b: unknown): boolean {
	try {
		return JSON.stringify(a) === JSON.stringify(b);
	} catch {
		return false;
	}
}

/** True when `ancestor` is `vertex` or above it through desired parents (guards against ownership cycles). */
export function isAncestorOrSelf(ancestor: Vertex, vertex: Vertex, depth = 0): boolean {
	if (ancestor === vertex) return true;
	if (depth > 64) return true;
	return vertex.desired.some((parent) => isAncestorOrSelf(ancestor, parent, depth + 1));
}

/** Computes place ids of vertices, pruning paths that pass through a vertex in `stop`. */
export function placeIdCalculator(
	rootOf: (vertex: Vertex) => boolean,
	stop: ReadonlySet<Vertex> = new Set(),
): (vertex: Vertex) => string[] {
	const memo = new Map<Vertex, string[]>();
	const visiting = new Set<Vertex>();
	const places = (vertex: Vertex): string[] => {
		const known = memo.get(vertex);
		if (known) return known;
		if (rootOf(vertex)) {
			const own = vertex.dead ? [] : [vertex.segment];
			memo.set(vertex, own);
			return own;
		}
		if (visiting.has(vertex)) return [];
		visiting.add(vertex);
		const result: string[] = [];
		for (const parent of vertex.parents) {
			if (stop.has(parent)) continue;
			for (const place of places(parent)) result.push(`${place}/${vertex.segment}`);
		}
		visiting.delete(vertex);
		memo.set(vertex, result);
		return result;
	};
	return places;
}

/** Ids changed by an operation: the display-changed places outside refreshed subtrees, and the refreshed parents. */
export function expandChanges(
	changes: ChangeSet,
	rootOf: (vertex: Vertex) => boolean,
): { changed: string[]; structureChanged: string[] } {
	const places = placeIdCalculator(rootOf, changes.structure);
	const structureChanged: string[] = [];
	for (const vertex of changes.structure) {
		for (const place of places(vertex)) structureChanged.push(place);
	}
	const changed: string[] = [];
	for (const vertex of changes.display) {
		if (!changes.structure.has(vertex)) for (const place of places(vertex)) changed.push(place);
	}
	return { changed, structureChanged };
}
