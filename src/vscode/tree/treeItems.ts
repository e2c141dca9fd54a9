import * as vscode from 'vscode';
import { objectTooltipMarkdown } from '../../core/explain/tooltip.ts';
import { latestWarningEventLines } from '../../core/explain/warningEvents.ts';
import { fleetFindingLines } from '../../core/explain/fleetFindingLines.ts';
import type { ObjectFleetFinding } from '../../core/checks/fleetTroubleshooting.ts';
import type { KubeEvent } from '../../core/model/kubeEvent.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';
import { descriptionAt, groupCountsSentence } from '../../core/tree/presentation.ts';
import type { TreeNode } from '../../core/tree/treeNode.ts';
import { waitingOfNode } from '../../core/tree/waiting.ts';
import type { Tone } from '../../core/status/result.ts';
import { escapeMarkdown, truncate } from '../../core/text/markdown.ts';
import { visibleLine } from '../../core/text/visible.ts';
import { contextValueOf } from './contextValues.ts';
import { readFromCommand } from './readFromLinks.ts';

// Theme colours every theme defines with a light and a dark value that both stand out from the side bar:
// testing.iconPassed (#73c991 in every theme) and disabledForeground were barely visible on a light theme.
const toneIcons: Readonly<Record<Tone, { readonly icon: string; readonly color: string }>> = {
	ok: { icon: 'pass-filled', color: 'charts.green' },
	progressing: { icon: 'sync', color: 'charts.blue' },
	warning: { icon: 'warning', color: 'problemsWarningIcon.foreground' },
	error: { icon: 'error', color: 'problemsErrorIcon.foreground' },
	suspended: { icon: 'debug-pause', color: 'descriptionForeground' },
	unknown: { icon: 'circle-large-outline', color: 'descriptionForeground' },
};

const toneWords: Readonly<Record<Tone, string>> = {
	ok: 'ready',
	progressing: 'in progress',
	warning: 'warning',
	error: 'error',
	suspended: 'suspended',
	unknown: 'unknown',
};

const systemIcons: Readonly<Record<string, string>> = {
	fleet: 'rocket',
	kubestellar: 'star-full',
	harbor: 'package',
	flux: 'git-merge',
	aso: 'azure',
	kubernetes: 'symbol-class',
};

export function iconOf(node: TreeNode): vscode.ThemeIcon {
	const tone = toneIcons[node.tone];
	if (node.kind === 'root') {
		return new vscode.ThemeIcon(
			node.contextFlags.origin === 'live' ? 'cloud' : 'files',
			new vscode.ThemeColor(tone.color),
		);
	}
	if (node.kind === 'system') {
		return new vscode.ThemeIcon(
			systemIcons[node.contextFlags.system] ?? 'symbol-namespace',
			new vscode.ThemeColor(tone.color),
		);
	}
	if (node.kind === 'category') {
		return new vscode.ThemeIcon('folder', new vscode.ThemeColor(tone.color));
	}
	return new vscode.ThemeIcon(tone.icon, new vscode.ThemeColor(tone.color));
}

/** The tooltip, built only when the user hovers (resolveTreeItem): thousands of rows would otherwise pay for it. */
/** What a tooltip adds from outside the graph: where a live object was read, the Events known for an object. */
export interface TooltipSources {
	readonly readLineOf?: (node: TreeNode, now: number) => string | undefined;
	readonly eventsOf?: (rootId: string, object: unknown) => readonly KubeEvent[];
	readonly fleetFindingsOf?: (rootId: string, object: unknown) => readonly ObjectFleetFinding[];
	/** The command link of the Read-from line (an opaque token of the extension's own table). */
	readonly readFromLinkOf?: (node: TreeNode) => string | undefined;
}

export function tooltipFor(
	node: TreeNode,
	graph: ResourceGraph,
	sources: TooltipSources = {},
): vscode.MarkdownString {
	const now = Date.now();
	let text: string;
	let linked = false;
	const object = node.objectKey ? graph.objectOf(node.rootId, node.objectKey) : undefined;
	if (object && node.result) {
		const readFromLink = sources.readFromLinkOf?.(node);
		linked = readFromLink !== undefined;
		text = objectTooltipMarkdown(
			object,
			node.result,
			(node.sources ?? []).map((source) => ({
				label: source.label ?? source.sourceId,
				line: (source.line ?? 0) + 1,
			})),
			now,
			sources.readLineOf?.(node, now),
			readFromLink,
			waitingOfNode(graph, node)?.words,
		);
		const warnings = latestWarningEventLines(sources.eventsOf?.(node.rootId, object) ?? [], now);
		if (warnings.length > 0) text += `\n\n${warnings.join('\n')}`;
		const fleet = fleetFindingLines(sources.fleetFindingsOf?.(node.rootId, object) ?? []);
		if (fleet.length > 0) text += `\n\n${fleet.join('\n')}`;
		if (node.disagreement) {
			text += `\n\n**Recomputed from the children:** ${escapeMarkdown(truncate(node.disagreement, 300))}`;
		}
	} else {
		const lines = [
			`**${escapeMarkdown(node.label)}** — ${escapeMarkdown(node.description || toneWords[node.tone])}`,
		];
		if (node.message) lines.push('', escapeMarkdown(truncate(node.message, 400)));
		const counts = groupCountsSentence(node);
		if (counts) lines.push('', escapeMarkdown(counts));
		if (node.disagreement) lines.push('', escapeMarkdown(truncate(node.disagreement, 300)));
		text = lines.join('\n');
	}
	// Untrusted but for the one command of the Read-from link (whose argument is a token, not data): no other command
	// links, no HTML, no theme-icon syntax from data.
	const markdown = new vscode.MarkdownString(text, false);
	markdown.isTrusted = linked ? { enabledCommands: [readFromCommand] } : false;
	markdown.supportHtml = false;
	return markdown;
}

/**
 * The TreeItem of a graph node: stable id, coloured codicon, text description, tooltip, contextValue. `waiting`: the
 * row's "waiting for …" words, when its object waits for another.
 */
export function treeItemOf(
	node: TreeNode,
	expanded: boolean,
	now: number,
	waiting?: string,
): vscode.TreeItem {
	// A root is always expandable: it is drawn before its first read, and a node first drawn without children
	// would stay collapsed once it has some.
	const collapsible =
		node.hasChildren || node.kind === 'root'
			? expanded
				? vscode.TreeItemCollapsibleState.Expanded
				: vscode.TreeItemCollapsibleState.Collapsed
			: vscode.TreeItemCollapsibleState.None;
	// Names and messages come from files and clusters: no control or direction override reaches the row.
	const label = visibleLine(node.label);
	const description = visibleLine(descriptionAt(node, now, { waiting }));
	const item = new vscode.TreeItem(label, collapsible);
	item.id = node.id;
	item.description = description;
	item.iconPath = iconOf(node);
	item.contextValue = contextValueOf(node, waiting !== undefined);
	item.accessibilityInformation = {
		label: `${label}, ${toneWords[node.tone]}${description ? `, ${description}` : ''}`,
		role: 'treeitem',
	};
	return item;
}
