// One list of what needs attention across every root, most urgent first: errors, objects stuck in deletion,
// warnings, then what is still progressing; within each, what has been so the longest first. The rows name their
// root, so a manifest and the live object of the same name are told apart.
import { heldFor } from '../explain/objectFacts.ts';
import { rowTextLimit, truncate } from '../text/limits.ts';
import type { ResourceGraph } from './model.ts';
import { descriptionAt } from './presentation.ts';
import type { TreeNode } from './treeNode.ts';

const stateLimit = 90;
const urgencies = ['error', 'deleting', 'warning', 'progressing'] as const;
type Urgency = (typeof urgencies)[number];

/** One row of the list: the object's tree node, and what the row says. */
export interface AttentionItem {
	readonly nodeId: string;
	readonly rootId: string;
	readonly urgency: Urgency;
	readonly label: string;
	readonly description: string;
	/** Since when it has been so (ms since the epoch), when known. */
	readonly since: number | undefined;
}

function whereOf(graph: ResourceGraph, rootId: string, rootLabel: string): string {
	return graph.node(rootId)?.contextFlags.origin === 'live' ? `context ${rootLabel}` : rootLabel;
}

/** Every object that needs attention, most urgent first, then longest so first, then by root and name. */
export function attentionList(graph: ResourceGraph, now: number): AttentionItem[] {
	const items: AttentionItem[] = [];
	for (const candidate of graph.attentionCandidates()) {
		const node: TreeNode | undefined = graph.node(candidate.nodeId);
		if (!node) continue;
		const deletionAt = candidate.deletion ? Date.parse(candidate.deletion) : NaN;
		const deleting = candidate.tone !== 'error' && candidate.deletion !== undefined;
		const urgency: Urgency = deleting
			? 'deleting'
			: candidate.tone === 'error'
				? 'error'
				: candidate.tone === 'warning'
					? 'warning'
					: 'progressing';
		// Deletion is said below, in the list's own words.
		let state = descriptionAt(node, now, { termination: !deleting });
		let since = node.stateSince?.at;
		if (deleting) {
			const held = Number.isFinite(deletionAt) ? heldFor(now - deletionAt) : undefined;
			// A state that already says so ("Deleting for 2 days", ASO's) is not said twice.
			if (!/^(Deleting|Terminating)\b/.test(state)) {
				state = `being deleted${held ? ` for ${held}` : ''} · ${state}`;
			}
			since = Number.isFinite(deletionAt) ? deletionAt : undefined;
		}
		const kind = node.ref?.kind;
		const name = node.ref?.name ?? node.label;
		items.push({
			nodeId: node.id,
			rootId: candidate.rootId,
			urgency,
			label: truncate(kind ? `${kind} ${name}` : name, rowTextLimit),
			// The root is named whole: a long message gives way before it.
			description: `${state.length > stateLimit ? `${state.slice(0, stateLimit)}…` : state} · ${truncate(
				whereOf(graph, candidate.rootId, candidate.rootLabel),
				rowTextLimit,
			)}`,
			since,
		});
	}
	const rootOrder = new Map(graph.roots().map((root, index) => [root.id, index]));
	return items.sort(
		(a, b) =>
			urgencies.indexOf(a.urgency) - urgencies.indexOf(b.urgency) ||
			(a.since ?? Number.POSITIVE_INFINITY) - (b.since ?? Number.POSITIVE_INFINITY) ||
			(rootOrder.get(a.rootId) ?? 0) - (rootOrder.get(b.rootId) ?? 0) ||
			(a.label < b.label ? -1 : a.label > b.label ? 1 : 0),
	);
}
