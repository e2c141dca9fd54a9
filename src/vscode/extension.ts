import * as vscode from 'vscode';
import { ResourceGraph, type ChangedNodes } from '../core/tree/model.ts';
import { ManifestDiagnostics } from './diagnostics/manifestDiagnostics.ts';
import { QuickFixProvider } from './diagnostics/quickFixProvider.ts';
import { ExplainProvider, explainScheme } from './explain/explainProvider.ts';
import { ManifestHoverProvider } from './hovers/manifestHoverProvider.ts';
import { registerLiveCommands } from './live/liveCommands.ts';
import { LiveClusters } from './live/liveClusters.ts';
import { LiveStatusCodeLensProvider, liveStatusLookup } from './live/liveCodeLens.ts';
import { registerMergePreview } from './mergePreview/mergePreviewCommand.ts';
import { MergePreviewProvider, mergeScheme } from './mergePreview/mergePreviewProvider.ts';
import { createLog } from './log.ts';
import { readProblemsOnly } from './settings.ts';
import { ResourceTreeProvider } from './tree/resourceTreeProvider.ts';
import { registerTreeCommands } from './tree/treeCommands.ts';
import { WorkspaceManifests, workspaceRootId } from './workspace/workspaceManifests.ts';

/** What the in-host tests may inspect; returned from activate(). */
export interface ExtensionApi {
	readonly graph: ResourceGraph;
	readonly ready: () => Promise<void>;
	readonly view: vscode.TreeView<string>;
	readonly provider: ResourceTreeProvider;
	readonly manifests: WorkspaceManifests;
	readonly live: LiveClusters;
}

/** Registers everything and reads nothing: work starts when the view shows or a command needs it. */
export function activate(context: vscode.ExtensionContext): ExtensionApi {
	const activatedAt = Date.now();
	const log = createLog();
	const graph = new ResourceGraph();
	graph.addRoot(workspaceRootId, 'Workspace manifests', 'file');
	const provider = new ResourceTreeProvider(graph);
	if (readProblemsOnly()) provider.setFilter({ problemsOnly: true });
	const view = vscode.window.createTreeView('kubeStatusLens.resources', {
		treeDataProvider: provider,
		showCollapseAll: true,
	});
	const explain = new ExplainProvider(graph);
	const statusBar = vscode.window.createStatusBarItem(
		'kubeStatusLens.problems',
		vscode.StatusBarAlignment.Left,
		10,
	);
	statusBar.name = 'Kube Status Lens problems';
	statusBar.command = 'kubeStatusLens.resources.focus';

	const refreshSummary = (): void => {
		const problems = graph.problemCount();
		const objects = graph.objectCount();
		view.badge =
			problems > 0 ? { value: problems, tooltip: `${problems} resource(s) in error` } : undefined;
		void vscode.commands.executeCommand('setContext', 'kubeStatusLens.hasResources', objects > 0);
		if (objects === 0 && live.contexts.length === 0) {
			statusBar.hide();
			return;
		}
		const troubled = live.troubledContexts;
		statusBar.text = [
			problems > 0 ? `$(error) ${problems} in error` : '$(pass) all ready',
			...(troubled.length > 0
				? [
						`$(debug-disconnect) ${troubled.length === 1 ? troubled[0] : `${troubled.length} contexts`} unavailable`,
					]
				: []),
		].join('  ');
		const contexts = live.summary;
		statusBar.tooltip = [
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
		statusBar.accessibilityInformation = { label: statusBar.tooltip };
		statusBar.show();
	};
	const mergeProvider = new MergePreviewProvider(graph);
	let mergeChanged = (): void => {};
	const onChanged = (changes: ChangedNodes): void => {
		provider.update(changes);
		mergeChanged();
		explain.nodesChanged([...changes.changed, ...changes.structureChanged]);
		refreshSummary();
	};
	const manifests = new WorkspaceManifests(graph, log, onChanged);
	const live = new LiveClusters(graph, log, onChanged);
	provider.setOnDemandChildren(live);
	let started: Promise<void> | undefined;
	const ensureStarted = (): Promise<void> => {
		void live
			.start()
			.catch((error: unknown) =>
				log.warn(`Live clusters: ${error instanceof Error ? error.message : String(error)}`),
			);
		started ??= manifests.start().then(
			() => {
				log.info(
					`Workspace manifests read ${Date.now() - activatedAt} ms after activation: ${graph.objectCount()} object(s).`,
				);
				void vscode.commands.executeCommand('setContext', 'kubeStatusLens.ready', true);
				provider.refreshAll();
				refreshSummary();
			},
			(error: unknown) => {
				log.warn(
					`Reading workspace manifests failed: ${error instanceof Error ? error.message : String(error)}`,
				);
				void vscode.commands.executeCommand('setContext', 'kubeStatusLens.ready', true);
			},
		);
		return started;
	};

	context.subscriptions.push(
		log,
		provider,
		view,
		explain,
		statusBar,
		manifests,
		provider.attach(view),
		vscode.workspace.registerTextDocumentContentProvider(explainScheme, explain),
		live,
		view.onDidChangeVisibility((event) => {
			if (event.visible) void ensureStarted();
			updateConsumers();
		}),
		vscode.window.onDidChangeWindowState(() => updateConsumers()),
		vscode.window.onDidChangeVisibleTextEditors(() => updateConsumers()),
		vscode.commands.registerCommand('kubeStatusLens.clusters.chooseContexts', async () => {
			const { contexts, current } = await live.availableContexts();
			if (contexts.length === 0) {
				void vscode.window.showInformationMessage('The kubeconfig defines no context.');
				return;
			}
			const chosen =
				vscode.workspace.getConfiguration('kubeStatusLens.clusters').get<string[]>('contexts') ??
				[];
			const picked = await vscode.window.showQuickPick(
				contexts.map((context) => ({
					label: context,
					description: context === current ? 'current context' : '',
					picked: chosen.length ? chosen.includes(context) : context === current,
				})),
				{ canPickMany: true, placeHolder: 'Kube contexts to show in the tree' },
			);
			if (!picked) return;
			await vscode.workspace.getConfiguration('kubeStatusLens.clusters').update(
				'contexts',
				picked.map((item) => item.label),
				vscode.ConfigurationTarget.Global,
			);
		}),
		vscode.workspace.onDidChangeConfiguration((event) => {
			if (event.affectsConfiguration('kubeStatusLens.clusters')) void live.restart();
			if (event.affectsConfiguration('kubeStatusLens.tree.problemsOnly')) {
				void vscode.commands.executeCommand(
					readProblemsOnly()
						? 'kubeStatusLens.tree.showOnlyProblems'
						: 'kubeStatusLens.tree.showAll',
				);
			}
		}),
	);
	registerTreeCommands(context, { graph, provider, view, manifests, explain, log, ensureStarted });
	registerLiveCommands(context, { graph, live, log });
	context.subscriptions.push(mergeProvider);
	// Editor features work on open YAML documents alone: no cluster, no workspace scan needed (untrusted too).
	const diagnostics = new ManifestDiagnostics(graph);
	const liveLenses = new LiveStatusCodeLensProvider(graph, live);
	context.subscriptions.push(
		diagnostics,
		vscode.languages.registerHoverProvider(
			{ language: 'yaml' },
			new ManifestHoverProvider(liveStatusLookup(graph, live)),
		),
		liveLenses,
		vscode.languages.registerCodeLensProvider({ language: 'yaml' }, liveLenses),
		vscode.languages.registerCodeActionsProvider(
			{ language: 'yaml' },
			new QuickFixProvider(diagnostics),
			QuickFixProvider.metadata,
		),
	);
	const mergePreview = registerMergePreview(context, {
		graph,
		provider: mergeProvider,
		ensureStarted,
	});
	// Watches run while anything uses them: the visible tree, the status bar of a focused window, a visible
	// editor with live CodeLenses, a visible merge preview of a live workload.
	const updateConsumers = (): void => {
		const consumers: string[] = [];
		if (view.visible) consumers.push('tree');
		if (vscode.window.state.focused) consumers.push('status bar');
		const editors = vscode.window.visibleTextEditors;
		if (editors.some((editor) => liveLenses.showsLive(editor.document.uri))) {
			consumers.push('live CodeLens');
		}
		if (
			editors.some(
				(editor) =>
					editor.document.uri.scheme === mergeScheme &&
					new URLSearchParams(editor.document.uri.query).get('root')?.startsWith('live:'),
			)
		) {
			consumers.push('merge preview');
		}
		live.setConsumers(consumers);
		refreshSummary();
	};
	context.subscriptions.push(liveLenses.onDidChangeUsage(() => updateConsumers()));
	updateConsumers();
	mergeChanged = () => {
		mergePreview.graphChanged();
		liveLenses.graphChanged();
	};
	if (view.visible) void ensureStarted();
	log.info(`Activated in ${Date.now() - activatedAt} ms.`);
	return { graph, ready: ensureStarted, view, provider, manifests, live };
}

/** Everything is disposed through context.subscriptions. */
export function deactivate(): void {}
