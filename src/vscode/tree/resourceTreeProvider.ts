import * as vscode from 'vscode';
import type { ChangedNodes, ResourceGraph, TreeFilter } from '../../core/tree/model.ts';
import { tooltipFor, treeItemOf } from './treeItems.ts';

/**
 * The tree of resources. Elements are graph node ids; change events name only the changed ids, and they wait while
 * the view is hidden (one full refresh when it shows again).
 */
export class ResourceTreeProvider implements vscode.TreeDataProvider<string>, vscode.Disposable {
	private readonly emitter = new vscode.EventEmitter<string | string[] | undefined>();
	readonly onDidChangeTreeData = this.emitter.event;
	private readonly graph: ResourceGraph;
	private filter: TreeFilter = {};
	private readonly expanded = new Set<string>();
	private readonly collapsed = new Set<string>();
	private pendingIds = new Set<string>();
	private pendingAll = false;
	private timer: ReturnType<typeof setTimeout> | undefined;
	private visible = false;

	constructor(graph: ResourceGraph) {
		this.graph = graph;
	}

	/** Tracks the view's visibility and expansion, so refreshes can wait and expansion survives updates. */
	attach(view: vscode.TreeView<string>): vscode.Disposable {
		this.visible = view.visible;
		return vscode.Disposable.from(
			view.onDidChangeVisibility((event) => {
				this.visible = event.visible;
				if (event.visible && (this.pendingAll || this.pendingIds.size > 0)) this.flush();
			}),
			view.onDidExpandElement((event) => {
				this.expanded.add(event.element);
				this.collapsed.delete(event.element);
			}),
			view.onDidCollapseElement((event) => {
				this.expanded.delete(event.element);
				this.collapsed.add(event.element);
			}),
		);
	}

	/** The current filter. */
	get currentFilter(): TreeFilter {
		return this.filter;
	}

	/** Narrows the tree (problems only, namespace, name) and redraws it. */
	setFilter(filter: TreeFilter): void {
		this.filter = filter;
		this.refreshAll();
	}

	/** Queues the nodes an update changed; fired together after a short debounce. */
	update(changes: ChangedNodes): void {
		if (changes.rootsChanged) this.pendingAll = true;
		for (const id of changes.changed) this.pendingIds.add(id);
		for (const id of changes.structureChanged) this.pendingIds.add(id);
		// With a filter on, a change can move nodes in or out of view anywhere above them.
		if (this.filter.problemsOnly || this.filter.namespace || this.filter.nameContains) {
			if (changes.changed.length || changes.structureChanged.length) this.pendingAll = true;
		}
		this.schedule();
	}

	/** Redraws everything. */
	refreshAll(): void {
		this.pendingAll = true;
		this.schedule();
	}

	private schedule(): void {
		if (this.timer) return;
		this.timer = setTimeout(() => {
			this.timer = undefined;
			if (this.visible) this.flush();
		}, 100);
	}

	/** Fires what is pending now, e.g. before a reveal, so a late refresh cannot undo the selection. */
	flushPending(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
		if (this.pendingAll || this.pendingIds.size > 0) this.flush();
	}

	private flush(): void {
		if (this.pendingAll) {
			this.emitter.fire(undefined);
		} else {
			const ids = [...this.pendingIds].filter((id) => this.graph.node(id) !== undefined);
			if (ids.length > 0) this.emitter.fire(ids);
		}
		this.pendingAll = false;
		this.pendingIds = new Set();
	}

	getTreeItem(id: string): vscode.TreeItem {
		const node = this.graph.node(id);
		if (!node) return new vscode.TreeItem('(gone)', vscode.TreeItemCollapsibleState.None);
		// Roots and system groups start open so the first look shows where the problems are.
		const open =
			this.expanded.has(id) ||
			(!this.collapsed.has(id) && (node.kind === 'root' || node.kind === 'system'));
		return treeItemOf(node, open);
	}

	getChildren(id?: string): string[] {
		return this.graph.children(id, this.filter).map((node) => node.id);
	}

	getParent(id: string): string | undefined {
		return this.graph.parentOf(id)?.id;
	}

	resolveTreeItem(item: vscode.TreeItem, id: string): vscode.TreeItem {
		const node = this.graph.node(id);
		if (node) item.tooltip = tooltipFor(node, this.graph);
		return item;
	}

	dispose(): void {
		clearTimeout(this.timer);
		this.emitter.dispose();
	}
}
