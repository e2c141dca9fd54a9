import * as vscode from 'vscode';
import type { ResourceGraph } from '../../core/tree/model.ts';
import type { LiveFeed } from '../../live/liveFeed.ts';
import { showProblemsCommand } from '../tree/treeCommands.ts';

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
		view.badge =
			problems > 0 ? { value: problems, tooltip: `${problems} resource(s) in error` } : undefined;
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
		statusBar.text = summaryText(problems, live.syncingContexts, live.troubledContexts);
		statusBar.command =
			problems > 0
				? { title: 'Show the resources in error', command: showProblemsCommand }
				: 'kubeStatusLens.resources.focus';
		statusBar.tooltip = summaryTooltip(problems, objects, live);
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
	syncing: readonly string[],
	troubled: readonly string[],
): string {
	return [
		...(problems > 0
			? [`$(error) ${problems} in error`]
			: syncing.length === 0
				? ['$(pass) all ready']
				: []),
		...(syncing.length > 0
			? [`$(sync~spin) syncing ${syncing.length === 1 ? syncing[0] : `${syncing.length} contexts`}`]
			: []),
		...(troubled.length > 0
			? [
					`$(debug-disconnect) ${troubled.length === 1 ? troubled[0] : `${troubled.length} contexts`} unavailable`,
				]
			: []),
	].join('  ');
}

/** The counts, each context's state, and what the watches run for (or that they are paused). */
function summaryTooltip(problems: number, objects: number, live: LiveFeed): string {
	const contexts = live.summary;
	return [
		problems > 0
			? `Kube Status Lens: ${problems} resource(s) in error of ${objects}`
			: `Kube Status Lens: no resource in error (${objects} read)`,
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
