import { explain } from '../catalog/explanations.ts';
import { readConditions } from '../model/condition.ts';
import { toneRank } from '../status/result.ts';
import type { ResourceGraph } from '../tree/model.ts';
import type { TreeNode } from '../tree/treeNode.ts';
import { documentTextLimit, truncate } from '../text/limits.ts';
import { escapeMarkdown, escapeTableCell } from '../text/markdown.ts';
import { visibleLine } from '../text/visible.ts';
import { stateLabel } from './tooltip.ts';

const maxDepth = 8;

/** An untrusted string in the document: escaped, cut at the document's limit per string. */
function field(text: string): string {
	return escapeMarkdown(text, documentTextLimit);
}

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
	lines.push(`# ${field(titleOf(start))}`, '');
	const ready = start.tone === 'ok';
	lines.push(
		`**${field(stateOf(start))}**${start.result?.message ? ` — ${field(start.result.message)}` : ''}`,
		'',
	);
	if (ready) {
		lines.push('Nothing blocks it: every part below it is ready.', '');
	} else if (chain.length > 1) {
		lines.push('## Why it is not ready', '');
		lines.push(chain.map((node) => field(titleOf(node))).join(' → '), '');
		let previousMessage = start.result?.message ?? '';
		chain.forEach((node, index) => {
			// The message was printed above for the first step; a step that repeats its parent's message says only its state.
			const message = node.result?.message ?? node.message ?? '';
			const shown =
				index > 0 && message && message !== previousMessage ? `: ${field(message)}` : '';
			previousMessage = message;
			lines.push(`${index + 1}. **${field(titleOf(node))}** is ${field(stateOf(node))}${shown}`);
			const meaning = meaningOf(node);
			if (meaning) lines.push(`   ${field(meaning.meaning)}`);
		});
		lines.push('');
	}
	if (start.disagreement) {
		lines.push('## The controller and the children disagree', '', field(start.disagreement), '');
	}
	const deepest = [...chain].reverse().find((node) => meaningOf(node)?.action);
	const action = deepest ? meaningOf(deepest)?.action : undefined;
	if (!ready && action) lines.push('## What to do', '', field(action), '');
	const reasons = start.result?.reasons ?? [];
	if (reasons.length > 0) {
		lines.push('## Details', '');
		for (const reason of reasons.slice(0, 12)) {
			lines.push(`- ${field(reason)}`);
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
			`- kstatus: **${field(start.result.kstatus.status)}**${start.result.kstatus.message ? ` — ${field(start.result.kstatus.message)}` : ''}`,
		);
		lines.push(
			start.result.health
				? `- Argo CD health: **${field(start.result.health.status)}**${start.result.health.message ? ` — ${field(start.result.health.message)}` : ''}`
				: '- Argo CD has no health check for this kind.',
		);
		lines.push('');
	}
	const sources = start.sources ?? [];
	if (sources.length > 0) {
		lines.push('## Read from', '');
		for (const source of sources.slice(0, 10)) {
			lines.push(
				`- ${field(`${source.label ?? source.sourceId}${source.line === undefined ? '' : `:${source.line + 1}`}`)}`,
			);
		}
		lines.push('');
	}
	return lines.join('\n');
}

/** An untrusted string in the copied summary: on one line, controls and direction overrides visible, cut. */
function summaryValue(text: string): string {
	return visibleLine(truncate(text, documentTextLimit));
}

/**
 * A plain-text summary of a node for the clipboard: one line for it, one per blocking step. The line breaks are the
 * summary's own; a name or message cannot add lines, terminal controls or direction overrides.
 */
export function statusSummaryText(graph: ResourceGraph, nodeId: string): string {
	const node = graph.node(nodeId);
	if (!node) return '';
	const stepLine = (step: TreeNode, message: string | undefined): string =>
		`${summaryValue(titleOf(step))}: ${summaryValue(stateOf(step))}${message ? ` — ${summaryValue(message)}` : ''}`;
	const lines = [stepLine(node, node.result?.message)];
	for (
		let child = blockingChild(graph, node), depth = 1;
		child && depth < maxDepth;
		child = blockingChild(graph, child), depth++
	) {
		lines.push(`${'  '.repeat(depth)}└ ${stepLine(child, child.result?.message || child.message)}`);
	}
	if (node.result) {
		lines.push(
			`kstatus: ${summaryValue(node.result.kstatus.status)}; Argo CD: ${summaryValue(node.result.health?.status ?? 'no check')}`,
		);
	}
	return lines.join('\n');
}
