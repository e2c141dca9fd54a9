// How live contexts are named in the graph: the root of a kube context, and the source that holds the WorkStatus
// objects an ITS context copies into a WDS root.
import { copiedSourcePrefix } from '../core/tree/graphState.ts';
import type { TreeNode } from '../core/tree/treeNode.ts';

const liveRootPrefix = 'live:';
const pairedSourcePrefix = `${copiedSourcePrefix}paired:`;

/** The tree root id of a kube context. */
export function liveRootId(context: string): string {
	return `${liveRootPrefix}${context}`;
}

/** The kube context whose root this is, or undefined for a root that is not live (the workspace). */
export function contextOfLiveRoot(rootId: string): string | undefined {
	return rootId.startsWith(liveRootPrefix) ? rootId.slice(liveRootPrefix.length) : undefined;
}

/** The graph source, in a WDS root, of the WorkStatus objects copied from an ITS context. */
export function pairedSourceOf(itsContext: string): string {
	return `${pairedSourcePrefix}${itsContext}`;
}

/** The context a node's object lives in: its root's, or the ITS's for a WorkStatus copied into a WDS root. */
export function liveContextOf(node: TreeNode): string | undefined {
	const copied = node.sources?.find((source) => source.sourceId.startsWith(pairedSourcePrefix));
	if (copied) return copied.sourceId.slice(pairedSourcePrefix.length);
	return contextOfLiveRoot(node.rootId);
}
