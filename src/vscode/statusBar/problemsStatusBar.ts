import * as vscode from 'vscode';
import type { ResourceGraph } from '../../core/tree/model.ts';
import type { LiveFeed } from '../../live/liveFeed.ts';
import { contextOfLiveRoot } from '../../live/liveRoots.ts';
import { syncingText } from '../../live/syncingText.ts';

/**
 * Registers the problems summary: a status bar item and the badge of the view. Returns what refreshes both, called
 * when the graph changes and when the watches' consumers change.
 */
export function registerProblemsSummary(
	context: vscode.ExtensionContext,
	deps: {
		readonly graph: ResourceGraph;
		readonly view: vscode.TreeView<string>;
		readonly live: LiveFeed;
	},
): () => void {
	const { graph, view, live } = deps;
	const statusBar = vscode.window.createStatusBarItem(
		'kubeStatusLens.problems',
		vscode.StatusBarAlignment.Left,
		10,
	);
	statusBar.name = 'Kube Status Lens problems';
	context.subscriptions.push(statusBar);
	return () => {
		const problems = graph.problemCount();
		const objects = graph.objectCount();
		const byRoot = rootsInError(graph);
		view.badge =
			problems > 0
				? {
						value: problems,
						tooltip: `${problems} in error: ${byRoot.map((root) => `${root.count} in ${root.where}`).join(', ')}`,
					}
				: undefined;
		void vscode.commands.executeCommand('setContext', 'kubeStatusLens.hasResources', objects > 0);
		// The live actions are in the command palette while a live context is open.
		void vscode.commands.executeCommand(
			'setContext',
			'kubeStatusLens.liveContexts',
			live.contexts.length > 0,
		);
		if (objects === 0 && live.contexts.length === 0) {
			statusBar.hide();
			return;
		}
		statusBar.text = summaryText(
			problems,
			byRoot.length,
			live.syncingContexts,
			live.contexts.length,
			live.troubledContexts,
		);
		statusBar.command =
			problems > 0
				? {
						title: 'Open the list of what needs attention',
						command: 'kubeStatusLens.attention.focus',
					}
				: 'kubeStatusLens.resources.focus';
		statusBar.tooltip = summaryTooltip(problems, objects, byRoot, live);
		statusBar.accessibilityInformation = { label: statusBar.tooltip };
		statusBar.show();
	};
}

/**
 * "3 in error" or "all ready", which contexts are still syncing (then nothing is "all ready" yet), and which cannot
 * be used now.
 */
function summaryText(
	problems: number,
	roots: number,
	syncing: readonly string[],
	open: number,
	troubled: readonly string[],
): string {
	return [
		...(problems > 0
			? [`$(error) ${problems} in error${roots > 1 ? ` in ${roots} roots` : ''}`]
			: syncing.length === 0
				? ['$(pass) all ready']
				: []),
		...(syncing.length > 0 ? [`$(sync~spin) ${syncingText(syncing, open)}`] : []),
		...(troubled.length > 0
			? [
					`$(debug-disconnect) ${troubled.length === 1 ? troubled[0] : `${troubled.length} contexts`} unavailable`,
				]
			: []),
	].join('  ');
}

/** The counts, each context's state, and what the watches run for (or that they are paused). */
function summaryTooltip(
	problems: number,
	objects: number,
	byRoot: readonly RootInError[],
	live: LiveFeed,
): string {
	const contexts = live.summary;
	return [
		problems > 0
			? `Kube Status Lens: ${problems} of ${objects} objects in error, counted in each root that shows them:`
			: `Kube Status Lens: no object in error (${objects} read)`,
		...byRoot.map((root) => `  ${root.where}: ${root.count}`),
		...(byRoot.length > 1
			? ['An object in a manifest and in a live context counts once in each.']
			: []),
		...(problems > 0
			? ['Click to open Needs Attention, the list of every object in trouble.']
			: []),
		...(contexts.length
			? [
					'Contexts:',
					...contexts.map((line) => `  ${line}`),
					live.consumers.length > 0
						? `Watching for: ${live.consumers.join(', ')}`
						: 'Watches paused: nothing shows them now (the cache is kept)',
				]
			: []),
	].join('\n');
}

interface RootInError {
	readonly where: string;
	readonly count: number;
}

/** The roots that hold objects in error, each named as the tree names it ("context platform" when live). */
function rootsInError(graph: ResourceGraph): RootInError[] {
	return graph
		.problemCountsByRoot()
		.filter((root) => root.count > 0)
		.map((root) => ({
			where: contextOfLiveRoot(root.rootId) !== undefined ? `context ${root.label}` : root.label,
			count: root.count,
		}));
}
