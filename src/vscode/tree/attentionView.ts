import * as vscode from 'vscode';
import { attentionList, type AttentionItem } from '../../core/tree/attention.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';
import { visibleLine } from '../../core/text/visible.ts';
import type { TreeNode } from '../../core/tree/treeNode.ts';
import { contextValueOf } from './contextValues.ts';
import { iconOf, tooltipFor, type TooltipSources } from './treeItems.ts';

/** Ages are shown in minutes; the list is also rebuilt after a burst of changes settles. */
const redrawMs = 60_000;
const settleMs = 300;

/**
 * The "Needs Attention" view: every object in trouble across all roots as one flat list, most urgent first (see
 * core/tree/attention.ts). Its element ids are the objects' tree ids, so every command of a tree row works on its rows.
 */
export class AttentionProvider implements vscode.TreeDataProvider<string>, vscode.Disposable {
	private readonly emitter = new vscode.EventEmitter<undefined>();
	readonly onDidChangeTreeData = this.emitter.event;
	private readonly graph: ResourceGraph;
	/** Where live objects were read and which Events are known, set by the engine. */
	tooltipSources: TooltipSources = {};
	/** Whether a row's object is pinned for notifications, set by the engine: the row's menu offers to unpin it. */
	isPinned: (node: TreeNode) => boolean = () => false;
	private items: AttentionItem[] | undefined;
	private byId = new Map<string, AttentionItem>();
	private visible = false;
	private stale = false;
	private settleTimer: ReturnType<typeof setTimeout> | undefined;
	private readonly redrawTimer = setInterval(() => this.graphChanged(), redrawMs);

	constructor(graph: ResourceGraph) {
		this.graph = graph;
	}

	/** Tracks visibility: a hidden list is rebuilt only when it shows again. */
	attach(view: vscode.TreeView<string>): vscode.Disposable {
		this.visible = view.visible;
		return view.onDidChangeVisibility((event) => {
			this.visible = event.visible;
			if (event.visible && this.stale) this.graphChanged();
		});
	}

	/** The list as it stands now (built on demand), for the next/previous commands and the view. */
	current(): readonly AttentionItem[] {
		if (!this.items) {
			this.items = attentionList(this.graph, Date.now());
			this.byId = new Map(this.items.map((item) => [item.nodeId, item]));
		}
		return this.items;
	}

	/** Something in the graph changed: rebuild after it settles, if anyone is looking. */
	graphChanged(): void {
		this.items = undefined;
		if (!this.visible) {
			this.stale = true;
			return;
		}
		this.settleTimer ??= setTimeout(() => {
			this.settleTimer = undefined;
			this.stale = false;
			this.emitter.fire(undefined);
		}, settleMs);
	}

	getChildren(id?: string): string[] {
		if (id !== undefined) return [];
		return this.current().map((item) => item.nodeId);
	}

	getParent(): undefined {
		return undefined;
	}

	getTreeItem(id: string): vscode.TreeItem {
		const node = this.graph.node(id);
		const item = this.byId.get(id);
		if (!node || !item) return new vscode.TreeItem('(gone)', vscode.TreeItemCollapsibleState.None);
		const row = new vscode.TreeItem(visibleLine(item.label), vscode.TreeItemCollapsibleState.None);
		row.id = id;
		row.description = visibleLine(item.description);
		row.iconPath = iconOf(node);
		row.contextValue = `${contextValueOf(node)}${this.isPinned(node) ? ':pinned' : ''}`;
		row.accessibilityInformation = { label: `${row.label as string}, ${row.description}` };
		row.command = {
			title: 'Reveal in the Tree',
			command: 'kubeStatusLens.attention.reveal',
			arguments: [id],
		};
		return row;
	}

	resolveTreeItem(item: vscode.TreeItem, id: string): vscode.TreeItem {
		const node = this.graph.node(id);
		if (node) item.tooltip = tooltipFor(node, this.graph, this.tooltipSources);
		return item;
	}

	dispose(): void {
		clearInterval(this.redrawTimer);
		clearTimeout(this.settleTimer);
		this.emitter.dispose();
	}
}

/** Reveals a tree id in the main view, selected; says so when the tree (a filter) does not show it. */
async function revealInTree(
	view: vscode.TreeView<string>,
	id: string,
	focus: boolean,
): Promise<boolean> {
	try {
		await view.reveal(id, { select: true, focus, expand: false });
		return true;
	} catch {
		void vscode.window.showInformationMessage(
			'The tree does not show this object now (a filter hides it): Clear Filters shows it.',
		);
		return false;
	}
}

/**
 * Registers the list's commands: reveal a row in the tree, and walk the list (Next/Previous Problem), which selects
 * each object in the tree in turn, most urgent first.
 */
export function registerAttentionCommands(
	context: vscode.ExtensionContext,
	deps: {
		readonly attention: AttentionProvider;
		readonly attentionView: vscode.TreeView<string>;
		readonly treeView: vscode.TreeView<string>;
		readonly flushTree: () => void;
		readonly ensureStarted: () => Promise<void>;
	},
): void {
	const { attention, attentionView, treeView } = deps;
	let lastWalked: string | undefined;
	const walk = async (step: 1 | -1): Promise<string | undefined> => {
		await deps.ensureStarted();
		const items = attention.current();
		if (items.length === 0) {
			void vscode.window.showInformationMessage('Nothing needs attention: every object is ready.');
			return undefined;
		}
		const from = attentionView.selection[0] ?? lastWalked;
		const at = from === undefined ? -1 : items.findIndex((item) => item.nodeId === from);
		const next =
			at < 0 ? (step === 1 ? 0 : items.length - 1) : (at + step + items.length) % items.length;
		const item = items[next];
		if (!item) return undefined;
		lastWalked = item.nodeId;
		deps.flushTree();
		if (attentionView.visible) {
			await attentionView.reveal(item.nodeId, { select: true, focus: false }).then(
				() => undefined,
				() => undefined,
			);
		}
		await revealInTree(treeView, item.nodeId, true);
		vscode.window.setStatusBarMessage(
			`Problem ${next + 1} of ${items.length}: ${visibleLine(item.label)} — ${visibleLine(item.description)}`,
			5_000,
		);
		return item.nodeId;
	};
	context.subscriptions.push(
		vscode.commands.registerCommand('kubeStatusLens.attention.reveal', async (id?: unknown) => {
			if (typeof id !== 'string') return false;
			lastWalked = id;
			deps.flushTree();
			return revealInTree(treeView, id, false);
		}),
		vscode.commands.registerCommand('kubeStatusLens.attention.next', () => walk(1)),
		vscode.commands.registerCommand('kubeStatusLens.attention.previous', () => walk(-1)),
	);
}
