// "waiting for …" on a row: the first object an object waits for (src/core/causes), in the words of the row and of
// the tooltip, and the key of that object in the same root, which "Go to What It Waits For" reveals.
import { waitingForOf, worldFromGraph, type CauseRef } from '../causes/causeChain.ts';
import { groupOf } from '../model/object.ts';
import { objectKey } from './linking.ts';
import type { ResourceGraph } from './model.ts';
import type { TreeNode } from './treeNode.ts';

/** What a row's object waits for. */
export interface RowWaiting {
	/** The object waited for, as the cause chain names it (it may be missing from the root). */
	readonly target: CauseRef;
	/** Its graph key in the node's root. */
	readonly targetKey: string;
	/** Whole, for the tooltip: "waiting for Kustomization flux-system/infra". */
	readonly words: string;
	/**
	 * For the row: the kind left out when it is the row's own, and the namespace when it is ("waiting for infra",
	 * "waiting for GitRepository platform").
	 */
	readonly rowWords: string;
}

/**
 * What the object of a tree node waits for, read through the graph (its own root); undefined for nodes that are not
 * objects, objects that are ready or suspended, and objects that wait on nothing.
 */
export function waitingOfNode(graph: ResourceGraph, node: TreeNode): RowWaiting | undefined {
	const ref = node.ref;
	if (node.kind !== 'object' || !ref || node.tone === 'ok' || node.tone === 'suspended') {
		return undefined;
	}
	const waiting = waitingForOf(worldFromGraph(graph, node.rootId), {
		group: groupOf(ref.apiVersion),
		kind: ref.kind,
		namespace: ref.namespace,
		name: ref.name,
	});
	if (!waiting) return undefined;
	const { target, words } = waiting;
	// Under its own kind's group a Kustomization that waits for a Kustomization names it alone ("waiting for infra"):
	// the row keeps to what a 300 px side bar shows.
	const qualified = `${target.kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}`;
	const sameNamespace = target.namespace === ref.namespace;
	// A BundleDeployment's dependency is another Bundle's deployment on the same cluster: the same kind of thing.
	const sameKind =
		target.kind === ref.kind || (ref.kind === 'BundleDeployment' && target.kind === 'Bundle');
	const short = sameKind
		? sameNamespace
			? target.name
			: `${target.namespace}/${target.name}`
		: sameNamespace
			? `${target.kind} ${target.name}`
			: qualified;
	const rowWords = words.includes(qualified) ? words.replace(qualified, short) : words;
	return {
		target,
		targetKey: objectKey(target.group, target.kind, target.namespace, target.name),
		words,
		rowWords,
	};
}
