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
	 * For the row, the name first: the kind left out when it is the row's own and put after the name otherwise, the
	 * namespace left out when it is the row's own ("waiting for infra", "waiting for platform (GitRepository)").
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
	// The row keeps to what a 300 px side bar shows: the name first, since what is cut is the end. The kind is left
	// out when it is the row's own ("waiting for infra") and follows the name otherwise ("waiting for platform
	// (GitRepository)"); the namespace shows only when it is another.
	const qualified = `${target.kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}`;
	const name =
		target.namespace === ref.namespace || !target.namespace
			? target.name
			: `${target.namespace}/${target.name}`;
	// A BundleDeployment's dependency is another Bundle's deployment on the same cluster: the same kind of thing.
	const sameKind =
		target.kind === ref.kind || (ref.kind === 'BundleDeployment' && target.kind === 'Bundle');
	let rowWords = words;
	const at = words.indexOf(qualified);
	if (at >= 0) {
		const rest = words.slice(at + qualified.length);
		const tail = sameKind
			? rest
			: rest === ' (missing)'
				? ` (${target.kind}, missing)`
				: ` (${target.kind})${rest}`;
		rowWords = `${words.slice(0, at)}${name}${tail}`;
	}
	return {
		target,
		targetKey: objectKey(target.group, target.kind, target.namespace, target.name),
		words,
		rowWords,
	};
}
