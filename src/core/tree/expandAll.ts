// Expand All on a row: which rows under it to open out, parents first (a tree opens a row only once its parent is
// open), breadth first so that a cap leaves every level near the top open rather than one deep branch.

/** What Expand All opens: the rows in order, and whether it stopped at the cap with more left. */
export interface ExpandPlan {
	readonly ids: readonly string[];
	readonly more: boolean;
}

/**
 * The rows to open under `start` (itself included when it can open), at most `cap`. `childrenOf` gives a row's
 * children as the tree shows them (its filters applied); `canOpen` says whether a row has children to show.
 */
export function expandPlanOf(
	start: string,
	childrenOf: (id: string) => readonly string[],
	canOpen: (id: string) => boolean,
	cap: number,
): ExpandPlan {
	const ids: string[] = [];
	const queue = canOpen(start) ? [start] : [];
	for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
		if (ids.length === cap) return { ids, more: true };
		ids.push(next);
		for (const child of childrenOf(next)) if (canOpen(child)) queue.push(child);
	}
	return { ids, more: false };
}
