// The tree's filters: "show only problems", a namespace, and a part of a name. A parent stays when anything below it
// matches, so whether a vertex is kept is memoized per graph version and filter.
import type { Vertex } from './graphState.ts';
import { isProblemTone } from './update.ts';

/** Narrows children: a parent stays when any descendant matches. */
export interface TreeFilter {
	readonly problemsOnly?: boolean;
	readonly namespace?: string;
	readonly nameContains?: string;
}

/** True when a filter narrows anything. */
export function isFilterActive(filter: TreeFilter): boolean {
	return filter.problemsOnly === true || Boolean(filter.namespace) || Boolean(filter.nameContains);
}

/** True when a vertex itself meets the namespace and name criteria (groups never do). */
export function matchesFilterText(vertex: Vertex, filter: TreeFilter): boolean {
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
			? [entry.name, entry.kind, entry.bdLinks?.clusterName ?? '', entry.wsSource?.name ?? ''].join(
					'\u0000',
				)
			: (vertex.info?.label ?? '');
		if (!haystack.toLowerCase().includes(needle)) return false;
	}
	return true;
}

/** The answers of `isKeptByFilter` for one graph version and one filter. */
export interface KeptMemo {
	readonly version: number;
	readonly signature: string;
	readonly kept: Map<Vertex, boolean>;
}

/** The memo for a graph version and filter: the previous one while both are the same, else an empty one. */
export function keptMemoFor(
	previous: KeptMemo | undefined,
	version: number,
	filter: TreeFilter,
): KeptMemo {
	const signature = `${filter.problemsOnly === true}\u0000${filter.namespace ?? ''}\u0000${filter.nameContains ?? ''}`;
	return previous?.version === version && previous.signature === signature
		? previous
		: { version, signature, kept: new Map() };
}

/**
 * Whether a vertex stays under a filter: it matches, or something below it does. `memo` gives the answers kept for
 * this graph version and filter; it is asked only when the name and namespace criteria apply.
 */
export function isKeptByFilter(
	vertex: Vertex,
	filter: TreeFilter,
	textSatisfied: boolean,
	memo: () => Map<Vertex, boolean>,
): boolean {
	if (filter.problemsOnly && !isProblemTone(vertex.tone)) return false;
	const textual = Boolean(filter.namespace) || Boolean(filter.nameContains);
	if (!textual || textSatisfied) return true;
	const kept = memo();
	const known = kept.get(vertex);
	if (known !== undefined) return known;
	// Provisional false guards against cycles.
	kept.set(vertex, false);
	let result = matchesFilterText(vertex, filter);
	if (!result) {
		for (const child of vertex.children?.values() ?? []) {
			if (isKeptByFilter(child, filter, false, memo)) {
				result = true;
				break;
			}
		}
	}
	kept.set(vertex, result);
	return result;
}
