import { explain } from '../catalog/explanations.ts';
import { readConditions } from '../model/condition.ts';
import { toneRank } from '../status/result.ts';
import type { ResourceGraph } from '../tree/model.ts';
import type { TreeNode } from '../tree/treeNode.ts';
import { escapeMarkdown, escapeTableCell, truncate } from '../text/markdown.ts';
import { stateLabel } from './tooltip.ts';

const maxDepth = 8;

function titleOf(node: TreeNode): string {
	const kind =
		node.ref?.kind ??
		(node.kind === 'dependency' ? 'Dependency' : node.kind === 'resource' ? 'Resource' : '');
	return kind && !node.label.startsWith(kind) ? `${kind} ${node.label}` : node.label;
}

function stateOf(node: TreeNode): string {
	return node.result ? stateLabel(node.result) : node.description || node.tone;
}

/** The worst child, the one that explains why its parent is not ready; ties go to the first (already sorted). */
function blockingChild(graph: ResourceGraph, node: TreeNode): TreeNode | undefined {
	let worst: TreeNode | undefined;
	for (const child of graph.children(node.id)) {
		if (child.tone === 'ok') continue;
		if (!worst || toneRank(child.tone) > toneRank(worst.tone)) worst = child;
	}
	return worst;
}

function meaningOf(node: TreeNode): { meaning: string; action: string } | undefined {
	const result = node.result;
	if (!result) return undefined;
	const system = result.system === 'kubernetes' ? 'kstatus' : result.system;
	const found = explain(system, 'state', result.state, node.ref?.kind);
	return found ? { meaning: found.meaning, action: found.action } : undefined;
}

/**
 * "Explain status" as Markdown: the chain from the chosen object down to what blocks it (GitRepo -> Bundle ->
 * BundleDeployment -> resource, BindingPolicy -> workload -> WEC, HarborCluster -> dependency), each step with its
 * state, message and meaning, then what to do. Every string from files or clusters is escaped.
 */
export function explainNodeMarkdown(graph: ResourceGraph, nodeId: string): string {
	const start = graph.node(nodeId);
	if (!start) return '# Nothing to explain\n\nThe item is no longer in the tree.';
	const chain: TreeNode[] = [start];
	for (
		let node = blockingChild(graph, start);
		node && chain.length < maxDepth;
		node = blockingChild(graph, node)
	) {
		chain.push(node);
	}
	const lines: string[] = [];
	lines.push(`# ${escapeMarkdown(titleOf(start))}`, '');
	const ready = start.tone === 'ok';
	lines.push(
		`**${escapeMarkdown(stateOf(start))}**${start.result?.message ? ` — ${escapeMarkdown(truncate(start.result.message, 500))}` : ''}`,
		'',
	);
	if (ready) {
		lines.push('Nothing blocks it: every part below it is ready.', '');
	} else if (chain.length > 1) {
		lines.push('## Why it is not ready', '');
		lines.push(chain.map((node) => escapeMarkdown(titleOf(node))).join(' → '), '');
		let previousMessage = start.result?.message ?? '';
		chain.forEach((node, index) => {
			// The message was printed above for the first step; a step that repeats its parent's message says only its state.
			const message = node.result?.message ?? node.message ?? '';
			const shown =
				index > 0 && message && message !== previousMessage
					? `: ${escapeMarkdown(truncate(message, 240))}`
					: '';
			previousMessage = message;
			lines.push(
				`${index + 1}. **${escapeMarkdown(titleOf(node))}** is ${escapeMarkdown(stateOf(node))}${shown}`,
			);
			const meaning = meaningOf(node);
			if (meaning) lines.push(`   ${escapeMarkdown(meaning.meaning)}`);
		});
		lines.push('');
	}
	if (start.disagreement) {
		lines.push(
			'## The controller and the children disagree',
			'',
			escapeMarkdown(start.disagreement),
			'',
		);
	}
	const deepest = [...chain].reverse().find((node) => meaningOf(node)?.action);
	const action = deepest ? meaningOf(deepest)?.action : undefined;
	if (!ready && action) lines.push('## What to do', '', escapeMarkdown(action), '');
	const reasons = start.result?.reasons ?? [];
	if (reasons.length > 0) {
		lines.push('## Details', '');
		for (const reason of reasons.slice(0, 12)) {
			lines.push(`- ${escapeMarkdown(truncate(reason, 400))}`);
		}
		lines.push('');
	}
	const object = start.objectKey ? graph.objectOf(start.rootId, start.objectKey) : undefined;
	const { conditions } = readConditions(object);
	if (conditions.length > 0) {
		lines.push(
			'## Conditions',
			'',
			'| Type | Status | Reason | Message |',
			'| --- | --- | --- | --- |',
		);
		for (const condition of conditions.slice(0, 20)) {
			lines.push(
				`| ${escapeTableCell(condition.type, 40)} | ${escapeTableCell(condition.status + (condition.severity ? ` · ${condition.severity}` : ''), 30)} | ${escapeTableCell(condition.reason ?? '', 40)} | ${escapeTableCell(condition.message ?? '', 200)} |`,
			);
		}
		lines.push('');
	}
	if (start.result) {
		lines.push('## What other tools will say', '');
		lines.push(
			`- kstatus: **${escapeMarkdown(start.result.kstatus.status)}**${start.result.kstatus.message ? ` — ${escapeMarkdown(start.result.kstatus.message)}` : ''}`,
		);
		lines.push(
			start.result.health
				? `- Argo CD health: **${escapeMarkdown(start.result.health.status)}**${start.result.health.message ? ` — ${escapeMarkdown(start.result.health.message)}` : ''}`
				: '- Argo CD has no health check for this kind.',
		);
		lines.push('');
	}
	const sources = start.sources ?? [];
	if (sources.length > 0) {
		lines.push('## Read from', '');
		for (const source of sources.slice(0, 10)) {
			lines.push(
				`- ${escapeMarkdown(`${source.label ?? source.sourceId}${source.line === undefined ? '' : `:${source.line + 1}`}`)}`,
			);
		}
		lines.push('');
	}
	return lines.join('\n');
}

/** A plain-text summary of a node for the clipboard: one line for it, one per blocking step. */
export function statusSummaryText(graph: ResourceGraph, nodeId: string): string {
	const node = graph.node(nodeId);
	if (!node) return '';
	const lines = [
		`${titleOf(node)}: ${stateOf(node)}${node.result?.message ? ` — ${node.result.message}` : ''}`,
	];
	for (
		let child = blockingChild(graph, node), depth = 1;
		child && depth < maxDepth;
		child = blockingChild(graph, child), depth++
	) {
		lines.push(
			`${'  '.repeat(depth)}└ ${titleOf(child)}: ${stateOf(child)}${child.result?.message || child.message ? ` — ${child.result?.message ?? child.message}` : ''}`,
		);
	}
	if (node.result) {
		lines.push(
			`kstatus: ${node.result.kstatus.status}; Argo CD: ${node.result.health?.status ?? 'no check'}`,
		);
	}
	return lines.join('\n');
}
