// The children of a vertex in display order (design order, label and id: never by state, so rows stay where a user
// looks while states change; problems show by their badge and the problems filter), kept per vertex once
// listed and patched as children come, go or change: a parent with 16,000 children is sorted once, then each event
// moves the few rows it changed instead of sorting and building the whole list again.
import type { Listing, Root, RowKey, Vertex } from './graphState.ts';
import { buildNode } from './presentation.ts';
import type { TreeNode } from './treeNode.ts';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function compareKeys(a: RowKey, b: RowKey): number {
	return (
		a.order - b.order ||
		collator.compare(a.label, b.label) ||
		(a.segment < b.segment ? -1 : a.segment > b.segment ? 1 : 0)
	);
}

function nodeAt(root: Root, vertex: Vertex, child: Vertex, place: string): TreeNode {
	return buildNode(root, child, `${place}/${child.segment}`, place, vertex);
}

function keyOf(child: Vertex, node: TreeNode): RowKey {
	return {
		order: child.order,
		label: node.label,
		segment: child.segment,
	};
}

function lowerBound(listing: Listing, key: RowKey): number {
	let low = 0;
	let high = listing.rows.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		const row = listing.rows[middle];
		const rowKey = row ? listing.keys.get(row) : undefined;
		if (rowKey && compareKeys(rowKey, key) < 0) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** Sorts every child of a vertex once, for one place. */
function freshListing(root: Root, vertex: Vertex, place: string): Listing {
	const rows: { child: Vertex; node: TreeNode; key: RowKey }[] = [];
	for (const child of vertex.children?.values() ?? []) {
		const node = nodeAt(root, vertex, child, place);
		rows.push({ child, node, key: keyOf(child, node) });
	}
	rows.sort((a, b) => compareKeys(a.key, b.key));
	return {
		rows: rows.map((row) => row.child),
		keys: new Map(rows.map((row) => [row.child, row.key])),
		stale: new Set(),
		places: new Map([[place, rows.map((row) => row.node)]]),
	};
}

/** Moves the rows of the children that changed, in every place listed so far. */
function patch(root: Root, vertex: Vertex, listing: Listing): void {
	for (const child of listing.stale) {
		const previous = listing.keys.get(child);
		if (previous) {
			let at = lowerBound(listing, previous);
			if (listing.rows[at] !== child) at = listing.rows.indexOf(child);
			if (at >= 0) {
				listing.rows.splice(at, 1);
				for (const nodes of listing.places.values()) nodes.splice(at, 1);
			}
			listing.keys.delete(child);
		}
		if (child.dead || vertex.children?.get(child.id) !== child) continue;
		let key: RowKey | undefined;
		const nodes = new Map<string, TreeNode>();
		for (const place of listing.places.keys()) {
			const node = nodeAt(root, vertex, child, place);
			nodes.set(place, node);
			key ??= keyOf(child, node);
		}
		if (!key) continue;
		const at = lowerBound(listing, key);
		listing.rows.splice(at, 0, child);
		listing.keys.set(child, key);
		for (const [place, list] of listing.places) list.splice(at, 0, nodes.get(place) as TreeNode);
	}
	listing.stale.clear();
}

/** The children of a vertex at one place (id), in display order. */
export function listedChildren(root: Root, vertex: Vertex, place: string): readonly TreeNode[] {
	let listing = vertex.listing;
	// Many changes at once (a file read, a relist) cost less as one sort than as many moves.
	if (listing && listing.stale.size * 8 > listing.rows.length + 64) listing = undefined;
	if (!listing) {
		listing = freshListing(root, vertex, place);
		vertex.listing = listing;
		return listing.places.get(place) ?? [];
	}
	patch(root, vertex, listing);
	let nodes = listing.places.get(place);
	if (!nodes) {
		nodes = listing.rows.map((child) => nodeAt(root, vertex, child, place));
		listing.places.set(place, nodes);
	}
	return nodes;
}

/** The rows of a listed vertex in display order (for filtered listings, which keep some of them). */
export function listedRows(root: Root, vertex: Vertex, place: string): readonly Vertex[] {
	listedChildren(root, vertex, place);
	return vertex.listing?.rows ?? [];
}
