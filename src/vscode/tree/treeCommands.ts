import * as vscode from 'vscode';
import { statusSummaryText } from '../../core/explain/explainDocument.ts';
import { isFilterActive, type TreeFilter } from '../../core/tree/filter.ts';
import { type ResourceGraph } from '../../core/tree/model.ts';
import { objectKeyOf } from '../../core/tree/linking.ts';
import { objectPicksOf } from '../../core/tree/objectPicks.ts';
import { attentionList } from '../../core/tree/attention.ts';
import { type TreeNode } from '../../core/tree/treeNode.ts';
import { waitingOfNode } from '../../core/tree/waiting.ts';
import { objectAtLine, parseManifests } from '../../core/manifest/parse.ts';
import { rowTextLimit, truncate } from '../../core/text/limits.ts';
import { visibleLine } from '../../core/text/visible.ts';
import type { ExplainProvider } from '../explain/explainProvider.ts';
import type { Log } from '../log.ts';
import { readProblemsOnly } from '../settings.ts';
import { filterSummary } from './filterText.ts';
import type { ResourceTreeProvider } from './resourceTreeProvider.ts';
import type { WorkspaceManifests } from '../workspace/workspaceManifests.ts';
import { workspaceRootId } from '../workspace/workspaceManifests.ts';
import { chooseDeclaration } from '../workspace/declarationChoice.ts';
import { expandPlanOf } from '../../core/tree/expandAll.ts';

/** What the tree commands work on. */
export interface TreeCommandDeps {
	readonly graph: ResourceGraph;
	readonly provider: ResourceTreeProvider;
	readonly view: vscode.TreeView<string>;
	readonly manifests: WorkspaceManifests;
	readonly explain: ExplainProvider;
	readonly log: Log;
	readonly ensureStarted: () => Promise<void>;
}

function setContext(key: string, value: unknown): void {
	void vscode.commands.executeCommand('setContext', key, value);
}

/**
 * Asks the user for an object node when a command runs from the palette: the objects grouped by root under a
 * separator, each saying its kind, state and workspace file or context.
 */
export async function pickObjectNode(
	graph: ResourceGraph,
	placeHolder: string,
): Promise<TreeNode | undefined> {
	const items: (vscode.QuickPickItem & { id?: string })[] = [];
	for (const group of objectPicksOf(graph)) {
		items.push({ label: visibleLine(group.title), kind: vscode.QuickPickItemKind.Separator });
		for (const pick of group.picks) {
			items.push({
				id: pick.id,
				label: visibleLine(pick.label),
				description: visibleLine(pick.description),
			});
		}
	}
	const picked = await vscode.window.showQuickPick(items, {
		placeHolder,
		matchOnDescription: true,
	});
	return picked?.id ? graph.node(picked.id) : undefined;
}

/**
 * Every object of the tree once (an object can show under two parents), visiting at most `limit` rows: the objects
 * are counted per root and key, as the tree shows them under `filter`.
 */
function objectsShown(
	graph: ResourceGraph,
	filter: TreeFilter,
	limit = 200_000,
): { readonly objects: Map<string, TreeNode>; readonly complete: boolean } {
	const objects = new Map<string, TreeNode>();
	let visited = 0;
	const visit = (parent: string | undefined, depth: number): void => {
		if (depth > 10) return;
		for (const node of graph.children(parent, filter)) {
			if (++visited > limit) return;
			if (node.kind === 'object' && node.objectKey) {
				objects.set(`${node.rootId}\u0000${node.objectKey}`, node);
			}
			if (node.hasChildren) visit(node.id, depth + 1);
		}
	};
	visit(undefined, 0);
	return { objects, complete: visited <= limit };
}

/** How many objects each namespace holds, by namespace name. */
function namespaceCounts(graph: ResourceGraph): [string, number][] {
	const counts = new Map<string, number>();
	for (const node of objectsShown(graph, {}).objects.values()) {
		const namespace = node.ref?.namespace;
		if (namespace) counts.set(namespace, (counts.get(namespace) ?? 0) + 1);
	}
	return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Shows the view with only the resources in error: what the status bar's "N in error" does. */
const showProblemsCommand = 'kubeStatusLens.tree.showProblems';

/** How many problems Show Only Problems opens out; the Needs Attention list has them all. */
const revealedProblems = 40;

/**
 * The filter value a caller of our own passes as `{ [key]: value }`. Anything else, notably the element id VS Code
 * hands a command run from the view's title menu while a row is selected, is not a filter: the command asks.
 */
function typedFilterArgument(
	argument: unknown,
	key: 'namespace' | 'nameContains',
): string | undefined {
	if (typeof argument !== 'object' || argument === null) return undefined;
	const value = (argument as Record<string, unknown>)[key];
	return typeof value === 'string' ? value : undefined;
}

async function nodeOrPick(
	graph: ResourceGraph,
	id: string | undefined,
	placeHolder: string,
): Promise<TreeNode | undefined> {
	return id ? graph.node(id) : pickObjectNode(graph, placeHolder);
}

/** The object in the active editor at the cursor, as a graph key. */
function activeObjectKey(editor: vscode.TextEditor): string | undefined {
	const parsed = parseManifests(editor.document.getText(), { fileName: editor.document.uri.path });
	const found = objectAtLine(parsed.objects, editor.selection.active.line);
	return found ? objectKeyOf(found.object) : undefined;
}

/** How many rows Expand All opens at most: each is a reveal, and a fleet's Bundle can hold thousands. */
const expandAllCap = 200;

/**
 * Registers the tree's commands, each saying what it did or why it could not, and follows the problems-only setting
 * with the filter commands.
 */
export function registerTreeCommands(
	context: vscode.ExtensionContext,
	deps: TreeCommandDeps,
): void {
	const { graph, provider, view } = deps;
	let countTimer: ReturnType<typeof setTimeout> | undefined;
	// The message above the rows says how much of the tree a filter leaves, so a narrowed tree never passes for all.
	const showFilterMessage = (): void => {
		countTimer = undefined;
		const filter = provider.currentFilter;
		if (!isFilterActive(filter)) {
			view.message = '';
			provider.setShownCounts(undefined);
			return;
		}
		const shown = objectsShown(graph, filter);
		const perRoot = new Map<string, number>();
		for (const node of shown.objects.values()) {
			perRoot.set(node.rootId, (perRoot.get(node.rootId) ?? 0) + 1);
		}
		provider.setShownCounts(shown.complete ? perRoot : undefined);
		const total = graph.objectCount();
		const count = `${shown.complete ? '' : 'at least '}${shown.objects.size} of ${total} object${total === 1 ? '' : 's'}`;
		view.message = `Filtered (${filterSummary(filter)}): ${count} shown.`;
	};
	const applyFilter = (): void => {
		const filter = provider.currentFilter;
		setContext('kubeStatusLens.problemsOnly', filter.problemsOnly === true);
		setContext('kubeStatusLens.filtered', isFilterActive(filter));
		view.description = isFilterActive(filter) ? `filtered: ${filterSummary(filter)}` : '';
		clearTimeout(countTimer);
		showFilterMessage();
	};
	// "Show Only Problems" left every group collapsed: the first problems are opened out, most urgent first.
	const revealProblems = async (): Promise<void> => {
		provider.flushPending();
		const problems = attentionList(graph, Date.now())
			.filter((item) => item.urgency === 'error' || item.urgency === 'warning')
			.slice(0, revealedProblems);
		for (const item of problems) {
			await view.reveal(item.nodeId, { select: false, focus: false, expand: false }).then(
				() => undefined,
				() => undefined,
			);
		}
		// Each reveal scrolled to its row, leaving the view at the last one: the list reads from the top.
		const [first] = provider.getChildren();
		if (first !== undefined) {
			await view.reveal(first, { select: false, focus: false, expand: false }).then(
				() => undefined,
				() => undefined,
			);
		}
	};
	const setFilter = (filter: TreeFilter): void => {
		provider.setFilter(filter);
		applyFilter();
	};
	context.subscriptions.push(
		// The counts follow the objects while a filter is on (at most once a second).
		provider.onDidChangeTreeData(() => {
			if (isFilterActive(provider.currentFilter) && countTimer === undefined) {
				countTimer = setTimeout(showFilterMessage, 1000);
			}
		}),
		{ dispose: () => clearTimeout(countTimer) },
	);
	context.subscriptions.push(
		vscode.commands.registerCommand('kubeStatusLens.tree.refresh', async () => {
			await deps.ensureStarted();
			await deps.manifests.rescan();
			provider.refreshAll();
		}),
		vscode.commands.registerCommand('kubeStatusLens.tree.showOnlyProblems', async () => {
			setFilter({ ...provider.currentFilter, problemsOnly: true });
			await revealProblems();
		}),
		// The view, showing the objects in error (clicking only focused a view already shown).
		vscode.commands.registerCommand(showProblemsCommand, async () => {
			await deps.ensureStarted();
			setFilter({ ...provider.currentFilter, problemsOnly: true });
			await vscode.commands.executeCommand('kubeStatusLens.resources.focus');
			await revealProblems();
		}),
		vscode.commands.registerCommand('kubeStatusLens.tree.expandAll', async (id?: unknown) => {
			await deps.ensureStarted();
			const start = typeof id === 'string' ? id : view.selection[0];
			const node = start === undefined ? undefined : graph.node(start);
			if (start === undefined || !node) {
				void vscode.window.showInformationMessage(
					'Expand All runs on a row of the Kube Status Lens tree.',
				);
				return 0;
			}
			// A Bundle or Cluster of a roll-ups-only context lists its BundleDeployments from the cluster when opened: not
			// hundreds of lists at once.
			const plan = expandPlanOf(
				start,
				(row) => provider.getChildren(row),
				(row) =>
					provider.getTreeItem(row).collapsibleState !== vscode.TreeItemCollapsibleState.None &&
					(row === start || graph.node(row)?.listOnDemand === undefined),
				expandAllCap,
			);
			for (const row of plan.ids) {
				await view.reveal(row, { expand: true, select: false, focus: false }).then(
					() => undefined,
					() => undefined,
				);
			}
			if (plan.more) {
				void vscode.window.showInformationMessage(
					`Expanded the first ${expandAllCap} rows under ${visibleLine(truncate(node.label, rowTextLimit))}; open the rest one by one, or narrow the tree with a filter.`,
				);
			}
			return plan.ids.length;
		}),
		vscode.commands.registerCommand('kubeStatusLens.tree.showAll', () => {
			setFilter({ ...provider.currentFilter, problemsOnly: false });
		}),
		vscode.commands.registerCommand(
			'kubeStatusLens.tree.filterByNamespace',
			async (argument?: unknown) => {
				await deps.ensureStarted();
				let chosen = typedFilterArgument(argument, 'namespace');
				if (chosen === undefined) {
					const current = provider.currentFilter.namespace;
					const items: (vscode.QuickPickItem & { namespace: string })[] = [
						...(current
							? [{ label: '$(clear-all) All namespaces', namespace: '', alwaysShow: true }]
							: []),
						...namespaceCounts(graph).map(([name, count]) => ({
							label: visibleLine(truncate(name, rowTextLimit)),
							description: `${count} object${count === 1 ? '' : 's'}${name === current ? ' · current filter' : ''}`,
							namespace: name,
						})),
					];
					const picked = await vscode.window.showQuickPick(items, {
						title: 'Filter by Namespace',
						placeHolder: 'Show only the objects of this namespace (and what leads to them)',
						matchOnDescription: false,
					});
					if (picked === undefined) return;
					chosen = picked.namespace;
				}
				const { namespace: _dropped, ...rest } = provider.currentFilter;
				setFilter(chosen ? { ...rest, namespace: chosen } : rest);
			},
		),
		vscode.commands.registerCommand(
			'kubeStatusLens.tree.filterByName',
			async (argument?: unknown) => {
				let chosen = typedFilterArgument(argument, 'nameContains');
				chosen ??= await vscode.window.showInputBox({
					title: 'Filter by Name',
					prompt:
						'Show only the objects whose name or kind contains this text (empty: no name filter)',
					placeHolder: 'e.g. podinfo',
					value: provider.currentFilter.nameContains ?? '',
				});
				if (chosen === undefined) return;
				const { nameContains: _dropped, ...rest } = provider.currentFilter;
				setFilter(chosen.trim() ? { ...rest, nameContains: chosen.trim() } : rest);
			},
		),
		vscode.commands.registerCommand('kubeStatusLens.tree.clearFilters', () => {
			setFilter({});
		}),
		vscode.commands.registerCommand('kubeStatusLens.tree.revealActiveManifest', async () => {
			await deps.ensureStarted();
			const editor = vscode.window.activeTextEditor;
			const key = editor ? activeObjectKey(editor) : undefined;
			const ids = key ? graph.findNodesForObject(workspaceRootId, key) : [];
			const id = ids[0];
			if (!id) {
				void vscode.window.showInformationMessage(
					'The active editor holds no object shown in the Kube Status Lens tree.',
				);
				return undefined;
			}
			provider.flushPending();
			await view.reveal(id, { select: true, focus: true, expand: true });
			return id;
		}),
		vscode.commands.registerCommand('kubeStatusLens.resource.openManifest', async (id?: string) => {
			const node = await nodeOrPick(graph, id, 'Open the manifest of');
			const places = (node?.sources ?? []).flatMap((entry) =>
				entry.line !== undefined ? [{ uri: entry.sourceId, line: entry.line }] : [],
			);
			const first = places[0];
			if (!node || !first) {
				void vscode.window.showInformationMessage('This item was not read from a workspace file.');
				return undefined;
			}
			const choice = await chooseDeclaration(
				places,
				node.objectKey ?? '',
				`Open the manifest of ${visibleLine(truncate(node.label, rowTextLimit))}`,
			);
			if (!choice.declaration && choice.cancelled) return undefined;
			// No file holds it as the tree read it (edited since): where the tree read it is the best guess.
			const place = choice.declaration ?? first;
			const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(place.uri));
			const position = new vscode.Position(place.line, 0);
			await vscode.window.showTextDocument(document, {
				selection: new vscode.Range(position, position),
				preview: true,
			});
			return `${place.uri}#${place.line + 1}`;
		}),
		vscode.commands.registerCommand('kubeStatusLens.resource.explain', async (id?: string) => {
			await deps.ensureStarted();
			const node = await nodeOrPick(graph, id, 'Explain the status of');
			if (!node) return;
			const uri = deps.explain.uriFor(node.id, node.label);
			await vscode.commands.executeCommand('markdown.showPreview', uri);
			return uri.toString();
		}),
		vscode.commands.registerCommand('kubeStatusLens.resource.copySummary', async (id?: string) => {
			const node = await nodeOrPick(graph, id, 'Copy the status summary of');
			if (!node) return;
			const text = statusSummaryText(graph, node.id);
			await vscode.env.clipboard.writeText(text);
			void vscode.window.setStatusBarMessage('Kube Status Lens: status summary copied', 3000);
			return text;
		}),
		// The row's inline action: VS Code passes the row's id; what it waits for is found again through the graph.
		vscode.commands.registerCommand('kubeStatusLens.tree.goToWaitedFor', async (id?: unknown) => {
			await deps.ensureStarted();
			const node = typeof id === 'string' ? graph.node(id) : undefined;
			if (!node) {
				void vscode.window.showInformationMessage(
					'Go to What It Waits For runs on a row of the Kube Status Lens tree that says "waiting for".',
				);
				return undefined;
			}
			const name = visibleLine(truncate(node.label, rowTextLimit));
			const waiting = waitingOfNode(graph, node);
			if (!waiting) {
				void vscode.window.showInformationMessage(`${name} waits for nothing now.`);
				return undefined;
			}
			const words = visibleLine(truncate(waiting.words, rowTextLimit));
			const target = graph.findNodesForObject(node.rootId, waiting.targetKey)[0];
			if (!target) {
				const root = visibleLine(
					truncate(graph.node(node.rootId)?.label ?? 'its root', rowTextLimit),
				);
				void vscode.window.showWarningMessage(
					`${name} is ${words}, which is not in ${root}: nothing there to go to.`,
				);
				return undefined;
			}
			provider.flushPending();
			try {
				await view.reveal(target, { select: true, focus: true, expand: false });
			} catch {
				void vscode.window.showWarningMessage(
					`${name} is ${words}, which the tree's filter hides: Clear Filters shows it.`,
				);
				return undefined;
			}
			return target;
		}),
		vscode.commands.registerCommand('kubeStatusLens.output.show', () => deps.log.show()),
		vscode.workspace.onDidChangeConfiguration((event) => {
			if (event.affectsConfiguration('kubeStatusLens.tree.problemsOnly')) {
				void vscode.commands.executeCommand(
					readProblemsOnly()
						? 'kubeStatusLens.tree.showOnlyProblems'
						: 'kubeStatusLens.tree.showAll',
				);
			}
		}),
	);
	applyFilter();
}
