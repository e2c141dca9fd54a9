// Where Harbor objects belong: under the Harbor object that owns them (metadata.ownerReferences), else in their
// kind's category. Objects of other systems that a Harbor object owns show under it too.
import { getPath } from '../model/object.ts';
import type { Entry, Root, Vertex } from './graphState.ts';
import { ownerKeysOf, pluralOfKind } from './linking.ts';
import { categoryVertex } from './systemVertices.ts';
import { isAncestorOrSelf } from './update.ts';

const noParents: readonly Vertex[] = [];

/** Where a Harbor object belongs: under the Harbor objects that own it, else in its kind's category. */
export function harborParents(root: Root, entry: Entry, parents: Vertex[]): void {
	const owners = harborOwners(root, entry);
	if (owners.length > 0) for (const owner of owners) parents.push(owner);
	else if (entry.kind) {
		const label = pluralOfKind(entry.kind);
		parents.push(
			categoryVertex(root, 'harbor', entry.kind, label, entry.kind === 'HarborCluster' ? 0 : 1),
		);
	}
}

/** The Harbor objects that own an object (never the object itself or one below it). */
export function harborOwners(root: Root, entry: Entry): readonly Vertex[] {
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
