import { join } from 'node:path';
import * as vscode from 'vscode';
import { useCelLanguage } from '../core/status/fluxHealthChecks.ts';
import { celBundleLoader } from '../files/celBundle.ts';
import { fileIdentityOf } from '../files/moduleCodeCache.ts';
import { ParseCache } from '../files/parseCache.ts';
import { ResourceGraph, type ChangedNodes } from '../core/tree/model.ts';
import type { TreeNode } from '../core/tree/treeNode.ts';
import type { LiveFeed } from '../live/liveFeed.ts';
import type { Trigger } from '../live/waitFor.ts';
import type { ManifestDiagnostics } from './diagnostics/manifestDiagnostics.ts';
import { registerEditorFeatures } from './editor/editorFeatures.ts';
import { ExplainProvider, explainScheme } from './explain/explainProvider.ts';
import { registerContextPicker } from './live/contextPicker.ts';
import { registerLiveActionCommands } from './live/liveActionCommands.ts';
import { createLiveFeed } from './live/liveFeedWiring.ts';
import { registerLiveObjectCommands } from './live/liveObjectCommands.ts';
import { registerRolloutMatrix, type MatrixPanels } from './matrix/matrixPanel.ts';
import { registerWatchConsumers } from './live/watchConsumers.ts';
import { registerMergePreview } from './mergePreview/mergePreviewCommand.ts';
import { MergePreviewProvider } from './mergePreview/mergePreviewProvider.ts';
import { createLanguageModelTools, type LanguageModelToolsHost } from './lm/languageModelTools.ts';
import { createLog, type Log } from './log.ts';
import { RedNotifier, registerRedNotifier } from './notify/redNotifier.ts';
import { readProblemsOnly } from './settings.ts';
import { registerProblemsSummary } from './statusBar/problemsStatusBar.ts';
import { AttentionProvider, registerAttentionCommands } from './tree/attentionView.ts';
import { FleetFindingsCache } from './tree/fleetFindingsCache.ts';
import { ResourceTreeProvider } from './tree/resourceTreeProvider.ts';
import { registerAppliedRows } from './tree/appliedRowCommands.ts';
import { registerSourceLinkCommands } from './tree/sourceLinkCommands.ts';
import { registerWhyNotHere } from './tree/whyNotHereCommand.ts';
import { registerTreeCommands } from './tree/treeCommands.ts';
import { RememberedList } from '../files/rememberedList.ts';
import { FleetDumpRoots } from './workspace/fleetDumpRoots.ts';
import { WorkspaceManifests, workspaceRootId } from './workspace/workspaceManifests.ts';
import { errorText } from '../core/text/errorText.ts';

/** What the in-host tests may inspect; returned from activate() once `ready()` has resolved. */
export interface ExtensionApi {
	readonly graph: ResourceGraph;
	readonly ready: () => Promise<void>;
	readonly view: vscode.TreeView<string>;
	readonly provider: ResourceTreeProvider;
	readonly manifests: WorkspaceManifests;
	readonly live: LiveFeed;
	readonly diagnostics: ManifestDiagnostics;
	readonly attention: AttentionProvider;
	readonly attentionView: vscode.TreeView<string>;
	readonly notifier: RedNotifier;
	readonly matrix: MatrixPanels;
	readonly dumps: FleetDumpRoots;
	/** When each step of the first start ended, in ms after activation (logged, and read by the benchmark). */
	readonly startup: StartupTimings;
	/** What the language model tools activation registered forward to. */
	readonly languageModelTools: LanguageModelToolsHost;
}

/** When each step of the first start ended, in ms after activation; 0 until it has. */
interface StartupTimings {
	engineLoaded: number;
	manifestsRead: number;
	dumpsRead: number;
}

/**
 * Everything but the first registrations: loaded from dist/engine.cjs by extension.ts the first time the view, a
 * command, a YAML document or the tests need it. Registers the rest and reads nothing; work starts when the view shows
 * or a command needs it. `view` is the tree view activation created; `connectProvider` hands it the data provider.
 */
export function activateEngine(
	context: vscode.ExtensionContext,
	view: vscode.TreeView<string>,
	connectProvider: (provider: ResourceTreeProvider) => void,
	activatedAt: number,
	attentionPlace: {
		readonly view: vscode.TreeView<string>;
		readonly connect: (provider: AttentionProvider) => void;
	},
): ExtensionApi {
	const log = createLog();
	// CEL (dist/cel.cjs) is read only when a Kustomization's health check expressions need it.
	useCelLanguage(celBundleLoader(join(context.extensionPath, 'dist')));
	const startup: StartupTimings = { engineLoaded: 0, manifestsRead: 0, dumpsRead: 0 };
	const graph = new ResourceGraph();
	graph.addRoot(workspaceRootId, 'Workspace manifests', 'file');
	const provider = new ResourceTreeProvider(graph, context.workspaceState);
	if (readProblemsOnly()) provider.setFilter({ problemsOnly: true });
	// The sources report changes only once started, by which time everything below exists to take them.
	let graphChanged = (_changes: ChangedNodes): void => {};
	// For waits on the graph (a controller answering an action, a paired ITS listing): an event per change.
	const graphChanges = new vscode.EventEmitter<void>();
	context.subscriptions.push(graphChanges);
	const onGraphChanged: Trigger = (listener) => graphChanges.event(listener);
	const manifests = new WorkspaceManifests(
		graph,
		log,
		(changes) => graphChanged(changes),
		parseCacheOf(context),
	);
	const dumps = new FleetDumpRoots(
		graph,
		log,
		(changes) => graphChanged(changes),
		new RememberedList(context.workspaceState, 'kubeStatusLens.fleetDump.opened'),
	);
	const live = createLiveFeed(graph, log, (changes) => graphChanged(changes));
	const fleetFindings = new FleetFindingsCache(graph);
	const explain = new ExplainProvider(graph, {
		live,
		dumpEventsOf: (rootId, object) => dumps.eventsOf(rootId, object),
		fleetFindingsOf: (rootId, object) => fleetFindings.findingsOf(rootId, object),
	});
	const notifier = new RedNotifier({ graph, live, log, workspaceState: context.workspaceState });
	provider.setOnDemandChildren(live);
	const tooltipSources = {
		readLineOf: (node: TreeNode, now: number): string | undefined => live.readLineOf(node, now),
		eventsOf: (rootId: string, object: unknown) => dumps.eventsOf(rootId, object),
		fleetFindingsOf: (rootId: string, object: unknown) => fleetFindings.findingsOf(rootId, object),
	};
	provider.tooltipSources = tooltipSources;
	context.subscriptions.push(
		log,
		provider,
		explain,
		manifests,
		provider.attach(view),
		vscode.workspace.registerTextDocumentContentProvider(explainScheme, explain),
		live,
	);
	const attention = new AttentionProvider(graph);
	attention.tooltipSources = tooltipSources;
	provider.isPinned = (node) => notifier.isPinned(node);
	attention.isPinned = (node) => notifier.isPinned(node);
	context.subscriptions.push(
		notifier.onDidChangePins((node) => {
			if (node.objectKey !== undefined) {
				provider.redraw(graph.findNodesForObject(node.rootId, node.objectKey));
			}
			attention.graphChanged();
		}),
	);
	context.subscriptions.push(attention, attention.attach(attentionPlace.view));
	const refreshSummary = registerProblemsSummary(context, { graph, view, live });
	const startWork = startOnFirstUse({
		graph,
		provider,
		manifests,
		dumps,
		live,
		log,
		refreshSummary,
		activatedAt,
		startup,
	});
	// Notifications start once the workspace has been read: its first read is no transition.
	const ensureStarted = (): Promise<void> => startWork().then(() => notifier.start());
	registerRedNotifier(context, notifier, ensureStarted);
	registerContextPicker(context, live);
	context.subscriptions.push(
		// From the palette it asks for the archive; tests and other commands may give its Uri.
		vscode.commands.registerCommand('kubeStatusLens.fleetDump.open', async (uri?: unknown) => {
			await ensureStarted();
			if (uri instanceof vscode.Uri) await dumps.read(uri, true);
			else await dumps.openWithDialog();
		}),
		dumps,
		dumps.registerEntryDocuments(),
		vscode.commands.registerCommand('kubeStatusLens.fleetDump.close', (id?: unknown) =>
			dumps.close(typeof id === 'string' ? id : undefined),
		),
		vscode.commands.registerCommand('kubeStatusLens.fleetDump.openEntry', (id?: unknown) =>
			dumps.openEntry(typeof id === 'string' ? id : undefined),
		),
	);
	registerTreeCommands(context, { graph, provider, view, manifests, explain, log, ensureStarted });
	registerAttentionCommands(context, {
		attention,
		attentionView: attentionPlace.view,
		treeView: view,
		flushTree: () => provider.flushPending(),
		ensureStarted,
	});
	registerLiveObjectCommands(context, { graph, live, log, onGraphChanged });
	const matrix = registerRolloutMatrix(context, {
		graph,
		view,
		flushTree: () => provider.flushPending(),
		ensureStarted,
	});
	registerSourceLinkCommands(context, { graph });
	registerWhyNotHere(context, { graph });
	registerAppliedRows(context, { graph, provider, kubeconfigOf: () => live.kubeconfig });
	registerLiveActionCommands(context, { graph, live, log, onGraphChanged });
	const mergeProvider = new MergePreviewProvider(graph);
	context.subscriptions.push(mergeProvider);
	const mergePreview = registerMergePreview(context, {
		graph,
		provider: mergeProvider,
		ensureStarted,
		onGraphChanged,
	});
	const { liveLenses, targetLenses, diagnostics } = registerEditorFeatures(context, {
		graph,
		live,
	});
	// What follows the whole graph (the status bar and badge count every object; previews and lenses wait for quiet)
	// runs at most every 100 ms: a first read reports a change per file, and each refresh counts every object and
	// sends several messages to the workbench.
	let followersTimer: ReturnType<typeof setTimeout> | undefined;
	const updateFollowers = (): void => {
		followersTimer = undefined;
		mergePreview.graphChanged();
		liveLenses.graphChanged();
		targetLenses.graphChanged();
		diagnostics.graphChanged();
		refreshSummary();
	};
	context.subscriptions.push({ dispose: () => clearTimeout(followersTimer) });
	graphChanged = (changes) => {
		provider.update(changes);
		graphChanges.fire();
		attention.graphChanged();
		notifier.graphChanged();
		matrix.graphChanged();
		fleetFindings.invalidate();
		explain.nodesChanged([...changes.changed, ...changes.structureChanged]);
		followersTimer ??= setTimeout(updateFollowers, 100);
	};
	connectProvider(provider);
	attentionPlace.connect(attention);
	const holdConsumer = registerWatchConsumers(context, {
		view,
		attentionView: attentionPlace.view,
		live,
		liveLenses,
		ensureStarted,
		refreshSummary,
	});
	const languageModelTools = createLanguageModelTools({
		graph,
		live,
		log,
		ensureStarted,
		workspaceReadAt: () => manifests.lastReadEndedAt,
		holdConsumer,
		dumpEventsOf: (rootId, object) => dumps.eventsOf(rootId, object),
		liveEventsOf: (node) => explain.eventsOfLiveNode(node),
	});
	startup.engineLoaded = Date.now() - activatedAt;
	log.info(`Loaded ${startup.engineLoaded} ms after activation.`);
	return {
		graph,
		ready: ensureStarted,
		view,
		provider,
		manifests,
		live,
		diagnostics,
		attention,
		attentionView: attentionPlace.view,
		matrix,
		dumps,
		notifier,
		startup,
		languageModelTools,
	};
}

const liveStartDelayMs = 500;

/**
 * The workspace's parse cache in the extension's storage for this workspace, keyed by this engine bundle (its file's
 * identity: a new version parses everything once); none without a workspace or outside a bundle.
 */
function parseCacheOf(context: vscode.ExtensionContext): ParseCache | undefined {
	const folder = context.storageUri;
	if (folder?.scheme !== 'file' || typeof __filename !== 'string') return undefined;
	try {
		return new ParseCache(
			join(folder.fsPath, 'manifest-parse-cache.json'),
			`${String((context.extension.packageJSON as { version?: unknown }).version)}\0${fileIdentityOf(__filename)}`,
		);
	} catch {
		return undefined;
	}
}

/**
 * What starts the deferred work: the workspace scan once, the live sessions on every call. Returns the wait for the
 * scan (the in-host tests' `ready`).
 */
function startOnFirstUse(deps: {
	readonly graph: ResourceGraph;
	readonly provider: ResourceTreeProvider;
	readonly manifests: WorkspaceManifests;
	readonly dumps: FleetDumpRoots;
	readonly live: LiveFeed;
	readonly log: Log;
	readonly refreshSummary: () => void;
	readonly activatedAt: number;
	readonly startup: StartupTimings;
}): () => Promise<void> {
	const { graph, provider, manifests, dumps, live, log, refreshSummary, activatedAt, startup } =
		deps;
	let started: Promise<void> | undefined;
	const startLive = (): void => {
		void live.start().catch((error: unknown) => log.warn(`Live clusters: ${errorText(error)}`));
	};
	return () => {
		started ??= Promise.all([
			manifests.start().finally(() => (startup.manifestsRead = Date.now() - activatedAt)),
			dumps
				.scanWorkspace()
				.then(() => dumps.restoreOpened())
				.finally(() => (startup.dumpsRead = Date.now() - activatedAt)),
		]).then(
			() => {
				log.info(
					`Workspace manifests read ${Date.now() - activatedAt} ms after activation: ${graph.objectCount()} object(s).`,
				);
				void vscode.commands.executeCommand('setContext', 'kubeStatusLens.ready', true);
				provider.refreshAll();
				refreshSummary();
			},
			(error: unknown) => {
				log.warn(`Reading workspace manifests failed: ${errorText(error)}`);
				void vscode.commands.executeCommand('setContext', 'kubeStatusLens.ready', true);
			},
		);
		// The live client (dist/k8s.cjs, client-node) takes a few hundred ms to load on the one thread that also
		// reads the workspace and answers the view: it loads once the workspace tree has been read and the view has
		// had time to ask for it. Clusters take seconds to answer anyway.
		void started.then(() => setTimeout(startLive, liveStartDelayMs));
		return started;
	};
}
