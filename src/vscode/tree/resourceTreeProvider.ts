import * as vscode from 'vscode';
import type { ChangedNodes, ResourceGraph } from '../../core/tree/model.ts';
import type { TreeFilter } from '../../core/tree/filter.ts';
import type { TreeNode } from '../../core/tree/treeNode.ts';
import { waitingOfNode } from '../../core/tree/waiting.ts';
import { tooltipFor, treeItemOf, type TooltipSources } from './treeItems.ts';
import { fleetFindingsRowText } from '../../core/explain/fleetFindingLines.ts';
import { isFilterActive } from '../../core/tree/filter.ts';
import { filterHidesAllItem } from './filterText.ts';
import { appliedRowRoleOf } from '../../core/tree/appliedResources.ts';
import { escapeMarkdown } from '../../core/text/markdown.ts';
import type { AppliedResourceReads } from './appliedResourceReads.ts';
import type { ReadFromLinks } from './readFromLinks.ts';
import { appliedRowContextValue } from './contextValues.ts';
import { isFleetDumpRoot } from '../workspace/fleetDumpRoots.ts';
import { errorText } from '../../core/text/errorText.ts';

/** Lists the children of a node that are not watched (the BundleDeployments of a roll-ups-only root). */
export interface OnDemandChildren {
	list(
		node: TreeNode,
	): Promise<{ readonly ok: true } | { readonly ok: false; readonly message: string }>;
	/** Whether what was listed for the node is still there (a restart or a mode change drops it). */
	hasListed(node: TreeNode): boolean;
	/** The node collapsed: what was listed for it can go. */
	release(node: TreeNode): void;
}

type ListingState =
	| { readonly kind: 'listing' }
	| { readonly kind: 'listed' }
	| { readonly kind: 'failed'; readonly message: string };

/** Where the ids of the nodes a user opened or closed are kept, so a window reload shows the tree as it was left. */
const expansionKey = 'kubeStatusLens.tree.expansion';
/** At most this many ids per set are kept (the latest), so ids of objects long gone do not pile up. */
const rememberedIds = 2000;

interface RememberedExpansion {
	readonly expanded: readonly string[];
	readonly collapsed: readonly string[];
}

function idsOf(value: unknown): string[] {
	return Array.isArray(value)
		? value.filter((id): id is string => typeof id === 'string').slice(-rememberedIds)
		: [];
}

// Items that stand for a listing in progress, a failed one, or an empty result; never graph ids (no NUL in those).
const markerSeparator = '\u0000on-demand:';

/**
 * The tree of resources. Elements are graph node ids; change events name only the changed ids, and they wait while
 * the view is hidden (one full refresh when it shows again).
 */
/** Ages are shown in minutes: redrawing more often would change nothing. */
const ageRedrawMs = 60_000;

export class ResourceTreeProvider implements vscode.TreeDataProvider<string>, vscode.Disposable {
	private readonly emitter = new vscode.EventEmitter<string | string[] | undefined>();
	readonly onDidChangeTreeData = this.emitter.event;
	private readonly graph: ResourceGraph;
	private filter: TreeFilter = {};
	private readonly expanded: Set<string>;
	private readonly collapsed: Set<string>;
	/** The workspace's memory: expansion is read from it on start and written on every expand or collapse. */
	readonly workspaceState: vscode.Memento;
	private pendingIds = new Set<string>();
	private pendingAll = false;
	private timer: ReturnType<typeof setTimeout> | undefined;
	private visible = false;
	private onDemand: OnDemandChildren | undefined;
	private readonly listings = new Map<string, ListingState>();
	/** Where live objects were read and which Events are known, set by the engine. */
	tooltipSources: TooltipSources = {};
	/** With a filter on: how many objects of each root it leaves, which the root's row says before its totals. */
	private shownCounts: ReadonlyMap<string, number> | undefined;
	/** Rows drawn with an age ("ErrApplied for 12 min"): redrawn each minute while the view shows. */
	private agedIds = new Set<string>();
	private readonly ageTimer = setInterval(() => this.redrawAges(), ageRedrawMs);
	/** Reads what a BundleDeployment or Kustomization applied when it opens (live roots only), set by the engine. */
	appliedReads: AppliedResourceReads | undefined;
	/** Whether a row's object is pinned for notifications, set by the engine: the row's menu offers to unpin it. */
	isPinned: (node: TreeNode) => boolean = () => false;
	/** The table behind the tooltips' Read-from links, set by the engine. */
	readFromLinks: ReadFromLinks | undefined;

	constructor(graph: ResourceGraph, workspaceState: vscode.Memento) {
		this.graph = graph;
		this.workspaceState = workspaceState;
		const remembered = workspaceState.get<Partial<RememberedExpansion>>(expansionKey);
		this.expanded = new Set(idsOf(remembered?.expanded));
		this.collapsed = new Set(idsOf(remembered?.collapsed));
	}

	private rememberExpansion(): void {
		const remembered: RememberedExpansion = {
			expanded: [...this.expanded].slice(-rememberedIds),
			collapsed: [...this.collapsed].slice(-rememberedIds),
		};
		void this.workspaceState.update(expansionKey, remembered);
	}

	/** Where the children of on-demand nodes come from (live clusters, loaded lazily). */
	setOnDemandChildren(onDemand: OnDemandChildren): void {
		this.onDemand = onDemand;
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
				// Moved to the end: the latest are the ones kept.
				this.expanded.delete(event.element);
				this.expanded.add(event.element);
				const wasCollapsed = this.collapsed.delete(event.element);
				this.rememberExpansion();
				// Reopened: list afresh. (getChildren does not list for a node it last saw collapse, since a
				// request sent before the collapse can arrive after it.)
				const node = this.graph.node(event.element);
				if (wasCollapsed && node?.listOnDemand && this.onDemand && !this.listings.has(node.id)) {
					this.startListing(node);
					this.emitter.fire([node.id]);
				}
			}),
			view.onDidCollapseElement((event) => {
				this.expanded.delete(event.element);
				this.collapsed.delete(event.element);
				this.collapsed.add(event.element);
				this.rememberExpansion();
				// Listed children are a snapshot: drop them, and list afresh on the next expansion.
				const node = this.graph.node(event.element);
				if (node?.listOnDemand && this.listings.delete(event.element)) this.onDemand?.release(node);
				this.appliedReads?.collapsed(event.element);
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
		if (changes.rootsChanged) {
			this.pendingAll = true;
			// Roots came or went (contexts reopened): their listings went with them.
			this.listings.clear();
		}
		for (const id of changes.changed) this.pendingIds.add(id);
		for (const id of changes.structureChanged) this.pendingIds.add(id);
		// With a filter on, a change can move nodes in or out of view anywhere above them.
		if (this.filter.problemsOnly || this.filter.namespace || this.filter.nameContains) {
			if (changes.changed.length || changes.structureChanged.length) this.pendingAll = true;
		}
		this.schedule();
	}

	/** Redraws these rows (after the debounce). */
	redraw(ids: readonly string[]): void {
		for (const id of ids) this.pendingIds.add(id);
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
		if (id.includes(markerSeparator)) return this.markerItem(id);
		const node = this.graph.node(id);
		if (!node) return new vscode.TreeItem('(gone)', vscode.TreeItemCollapsibleState.None);
		// Roots and system groups start open so the first look shows where the problems are.
		const open =
			this.expanded.has(id) ||
			(!this.collapsed.has(id) && (node.kind === 'root' || node.kind === 'system'));
		// "waiting for …" reads other objects of the root: a periodic redraw keeps it current, as the ages.
		const waiting = waitingOfNode(this.graph, node);
		if (node.stateSince || node.terminating || waiting) this.agedIds.add(id);
		const item = treeItemOf(node, open, Date.now(), waiting?.rowWords);
		if (node.kind === 'object' && this.isPinned(node)) {
			item.contextValue += ':pinned';
			// Pinned to notify when it turns red: a bell before the state, and said to a screen reader.
			item.description = `🔔 ${typeof item.description === 'string' ? item.description : ''}`;
			if (item.accessibilityInformation) {
				item.accessibilityInformation = {
					...item.accessibilityInformation,
					label: `${item.accessibilityInformation.label}, notifying when it turns red`,
				};
			}
		}
		if (node.kind === 'root' && isFleetDumpRoot(node.rootId)) item.contextValue += ':fleetDump';
		if (node.kind === 'resource') {
			const parentKey = node.parentId ? this.graph.node(node.parentId)?.objectKey : undefined;
			item.contextValue = appliedRowContextValue(node, appliedRowRoleOf(node.id, parentKey));
			this.appliedReads?.decorate(node, item);
		}
		// Fleet's own troubleshooting findings show on the row of the object they are about.
		const fleetNote =
			node.kind === 'object' && node.contextFlags.system === 'fleet' && node.objectKey
				? fleetFindingsRowText(
						this.tooltipSources.fleetFindingsOf?.(
							node.rootId,
							this.graph.objectOf(node.rootId, node.objectKey),
						) ?? [],
					)
				: undefined;
		if (fleetNote) {
			item.description = `${String(item.description ?? '')} · ${fleetNote}`;
			if (item.accessibilityInformation) {
				item.accessibilityInformation = {
					...item.accessibilityInformation,
					label: `${item.accessibilityInformation.label} · ${fleetNote}`,
				};
			}
		}
		const shown = node.kind === 'root' ? this.shownCounts?.get(id) : undefined;
		if (shown !== undefined && isFilterActive(this.filter)) {
			item.description = `${shown} shown · ${String(item.description ?? '')}`;
		}
		return item;
	}

	getChildren(id?: string): string[] {
		if (id?.includes(markerSeparator)) return [];
		const childNodes = this.graph.children(id, this.filter);
		const children = childNodes.map((node) => node.id);
		// A filter that hides every root says so, rather than leave a blank view.
		if (id === undefined && children.length === 0 && isFilterActive(this.filter)) {
			return this.graph.roots().length > 0 ? [`${markerSeparator}filtered`] : [];
		}
		const node = id === undefined ? undefined : this.graph.node(id);
		if (node && this.appliedReads) this.appliedReads.childrenShown(node, childNodes);
		if (!node?.listOnDemand || !this.onDemand || id === undefined) return children;
		let state = this.listings.get(id);
		if (!state && this.collapsed.has(id)) return [`${id}${markerSeparator}listing`, ...children];
		if (!state || (state.kind === 'listed' && !this.onDemand.hasListed(node))) {
			state = this.startListing(node);
		}
		if (state.kind === 'listing') return [`${id}${markerSeparator}listing`, ...children];
		if (state.kind === 'failed') return [`${id}${markerSeparator}failed`, ...children];
		if (children.length > 0) return children;
		// Listed, but a filter hides every one of them: that is not "none".
		return this.graph.children(id).length > 0 ? [] : [`${id}${markerSeparator}empty`];
	}

	/** Whether the view last reported this node expanded. */
	wasExpanded(id: string): boolean {
		return this.expanded.has(id);
	}

	/** Whether the view last reported this node collapsed (after the user had it open). */
	wasCollapsed(id: string): boolean {
		return this.collapsed.has(id);
	}

	/** How the listing under a node stands: undefined when the node lists nothing on demand or was not expanded. */
	listingOf(id: string): ListingState | undefined {
		return this.listings.get(id);
	}

	private startListing(node: TreeNode): ListingState {
		const state: ListingState = { kind: 'listing' };
		this.listings.set(node.id, state);
		void (this.onDemand as OnDemandChildren).list(node).then(
			(result) => this.listingDone(node.id, state, result),
			(error: unknown) =>
				this.listingDone(node.id, state, {
					ok: false,
					message: errorText(error),
				}),
		);
		return state;
	}

	private listingDone(
		id: string,
		started: ListingState,
		result: { readonly ok: true } | { readonly ok: false; readonly message: string },
	): void {
		// Collapsed (or collapsed and expanded again) meanwhile: that listing's answer is not wanted.
		if (this.listings.get(id) !== started) return;
		this.listings.set(
			id,
			result.ok ? { kind: 'listed' } : { kind: 'failed', message: result.message },
		);
		this.emitter.fire([id]);
	}

	private markerItem(id: string): vscode.TreeItem {
		const [parentId = '', marker] = id.split(markerSeparator);
		if (marker === 'filtered') return filterHidesAllItem(this.filter);
		const state = this.listings.get(parentId);
		const what =
			this.graph.node(parentId)?.ref?.kind === 'Cluster' ? 'this cluster' : 'this Bundle';
		if (marker === 'listing') {
			const item = new vscode.TreeItem('Listing BundleDeployments…');
			item.iconPath = new vscode.ThemeIcon('loading~spin');
			item.tooltip = `Listing the BundleDeployments of ${what}: this context has more than the threshold setting, so they are listed when a node opens rather than watched.`;
			return item;
		}
		if (marker === 'failed') {
			const message = state?.kind === 'failed' ? state.message : 'the list failed';
			const item = new vscode.TreeItem('Cannot list BundleDeployments');
			item.description = message;
			item.tooltip = `${message}\nCollapse and expand the node to try again.`;
			item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
			return item;
		}
		const item = new vscode.TreeItem('No BundleDeployments');
		item.description = 'listed on expansion';
		item.tooltip = `The cluster has no BundleDeployment for ${what} now.`;
		item.iconPath = new vscode.ThemeIcon('info');
		return item;
	}

	getParent(id: string): string | undefined {
		if (id.includes(markerSeparator)) return id.split(markerSeparator)[0] || undefined;
		return this.graph.parentOf(id)?.id;
	}

	resolveTreeItem(item: vscode.TreeItem, id: string): vscode.TreeItem {
		if (id.includes(markerSeparator)) return item;
		const node = this.graph.node(id);
		if (!node) return item;
		const links = this.readFromLinks;
		const tooltip = tooltipFor(node, this.graph, {
			...this.tooltipSources,
			...(links ? { readFromLinkOf: (shown: TreeNode) => links.linkOf(shown) } : {}),
		});
		const live = node.kind === 'resource' ? this.appliedReads?.detailOf(node) : undefined;
		if (live) tooltip.appendMarkdown(`\n\n${escapeMarkdown(live)}`);
		item.tooltip = tooltip;
		return item;
	}

	/** Sets the per-root counts of objects a filter leaves (undefined: none, or not known) and redraws the roots. */
	setShownCounts(counts: ReadonlyMap<string, number> | undefined): void {
		const before = this.shownCounts;
		this.shownCounts = counts;
		const changed = this.graph
			.roots()
			.map((root) => root.id)
			.filter((id) => before?.get(id) !== counts?.get(id));
		for (const id of changed) this.pendingIds.add(id);
		if (changed.length > 0) this.schedule();
	}

	/** Redraws the rows whose age text may have moved on; they are collected again as VS Code asks for them. */
	redrawAges(): void {
		if (!this.visible || this.agedIds.size === 0) return;
		const ids = [...this.agedIds].filter((id) => this.graph.node(id) !== undefined);
		this.agedIds = new Set();
		if (ids.length > 0) this.emitter.fire(ids);
	}

	dispose(): void {
		clearInterval(this.ageTimer);
		clearTimeout(this.timer);
		this.emitter.dispose();
	}
}
