// What a command run from the palette offers to pick from: every object once, grouped by where it comes from (the
// workspace's files or a live context), each saying its kind, its state and its file or context, so a manifest and
// the live object of the same name are never mistaken for each other.
import { rowTextLimit, truncate } from '../text/limits.ts';
import { qualified } from './describe.ts';
import type { ResourceGraph } from './model.ts';
import type { TreeNode } from './treeNode.ts';

/** One object to pick: its tree node (the first place it shows), its name, and what and where it is. */
interface ObjectPick {
	readonly id: string;
	readonly label: string;
	readonly description: string;
}

/** The objects of one root, under the title of its separator. */
interface ObjectPickGroup {
	readonly title: string;
	readonly picks: readonly ObjectPick[];
}

/** Where an object of this root was read: "fleet/shop.yaml:12" in the workspace, "context kind-dev" when live. */
function whereOf(root: TreeNode, node: TreeNode): string {
	if (root.contextFlags.origin === 'live') return `context ${root.label}`;
	const source = node.sources?.find((entry) => entry.line !== undefined) ?? node.sources?.[0];
	if (!source) return root.label;
	const file = source.label ?? source.sourceId;
	return source.line === undefined ? file : `${file}:${source.line + 1}`;
}

/** The row's state and counts without the namespace a row in a category ends with (the pick's label has it). */
function stateTextOf(node: TreeNode): string {
	const namespace = node.ref?.namespace;
	const suffix = ` · ${namespace ?? ''}`;
	return namespace && node.description.endsWith(suffix)
		? node.description.slice(0, -suffix.length)
		: node.description;
}

/** Every object of every root once (an object can show under two parents), at most `depth` levels down. */
export function objectPicksOf(graph: ResourceGraph, depth = 6): ObjectPickGroup[] {
	const groups: ObjectPickGroup[] = [];
	for (const root of graph.roots()) {
		const picks: ObjectPick[] = [];
		const seen = new Set<string>();
		const visit = (parent: string, level: number): void => {
			if (level > depth) return;
			for (const node of graph.children(parent)) {
				if (node.kind === 'object' && node.objectKey && !seen.has(node.objectKey)) {
					seen.add(node.objectKey);
					const ref = node.ref;
					// Where before the state: a long name leaves little room, and where is what tells two copies apart.
					const parts = [ref?.kind ?? '', whereOf(root, node), stateTextOf(node)];
					picks.push({
						id: node.id,
						label: truncate(ref ? qualified(ref.namespace, ref.name) : node.label, rowTextLimit),
						description: truncate(parts.filter((part) => part !== '').join(' · '), rowTextLimit),
					});
				}
				if (node.hasChildren) visit(node.id, level + 1);
			}
		};
		visit(root.id, 1);
		if (picks.length === 0) continue;
		const live = root.contextFlags.origin === 'live';
		groups.push({ title: live ? `${root.label} (live context)` : root.label, picks });
	}
	return groups;
}
