import * as vscode from 'vscode';
import { objectAtLine, parseManifests } from '../../core/manifest/parse.ts';
import { mergeDiffTitle, mergeInputsFrom, mergeWorkloadOf } from '../../core/merge/mergePreview.ts';
import type { MergeRules } from '../../core/merge/wecMerge.ts';
import { type ResourceGraph } from '../../core/tree/model.ts';
import { objectKeyOf } from '../../core/tree/linking.ts';
import { visibleLine } from '../../core/text/visible.ts';
import { contextOfLiveRoot } from '../../live/liveRoots.ts';
import { waitFor, type Trigger } from '../../live/waitFor.ts';
import { readMergeRules } from '../settings.ts';
import { workspaceRootId } from '../workspace/workspaceManifests.ts';
import { mergeScheme, mergeUriOf, type MergePreviewProvider } from './mergePreviewProvider.ts';

/** How long a live preview waits for the contexts' first listing. */
const pairingWaitMs = 30_000;

/** Where a preview was asked for: a tree node id, or a workload at a line of a document (the CodeLens). */
type PreviewArgument = string | { readonly uri: string; readonly line: number } | undefined;

function titleOf(object: Readonly<Record<string, unknown>>): string {
	const metadata = object.metadata as Record<string, unknown> | undefined;
	return `${String(object.kind)} ${typeof metadata?.name === 'string' ? metadata.name : ''}`;
}

/** CodeLenses "Preview multi-WEC status merge" above workloads a BindingPolicy selects or WorkStatus objects name. */
class MergeCodeLensProvider implements vscode.CodeLensProvider {
	private readonly emitter = new vscode.EventEmitter<void>();
	readonly onDidChangeCodeLenses = this.emitter.event;
	private readonly graph: ResourceGraph;

	constructor(graph: ResourceGraph) {
		this.graph = graph;
	}

	refresh(): void {
		this.emitter.fire();
	}

	dispose(): void {
		this.emitter.dispose();
	}

	provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
		const objects = this.graph.objectsOf(workspaceRootId);
		if (objects.length === 0) return [];
		const lenses: vscode.CodeLens[] = [];
		for (const entry of parseManifests(document.getText(), { fileName: document.uri.path })
			.objects) {
			const key = objectKeyOf(entry.object);
			const workload = this.graph.objectOf(workspaceRootId, key) ?? entry.object;
			const inputs = mergeInputsFrom(workload, objects);
			if (!inputs.because) continue;
			const range = new vscode.Range(entry.range.start.line, 0, entry.range.start.line, 0);
			const argument = { uri: document.uri.toString(), line: entry.range.start.line };
			lenses.push(
				new vscode.CodeLens(range, {
					title: '$(git-merge) Preview multi-WEC status merge',
					tooltip: `Merge the statuses of this workload in its WECs (${inputs.because})`,
					command: 'kubeStatusLens.merge.preview',
					arguments: [argument],
				}),
			);
		}
		return lenses;
	}
}

/**
 * Opens a preview as YAML in the active editor group (beside a narrow manifest its header lines were cut); returns
 * its URI for callers and tests.
 */
async function showBeside(uri: vscode.Uri): Promise<string> {
	const document = await vscode.workspace.openTextDocument(uri);
	await vscode.languages.setTextDocumentLanguage(document, 'yaml');
	await vscode.window.showTextDocument(document, {
		viewColumn: vscode.ViewColumn.Active,
		preview: false,
	});
	return uri.toString();
}

/** Whether a live root is still listing (its row says "syncing…"): its WorkStatus copies may not be in yet. */
function anyLiveRootSyncing(graph: ResourceGraph): boolean {
	return graph
		.roots()
		.some((root) => contextOfLiveRoot(root.id) !== undefined && graph.rootIsPartial(root.rootId));
}

/** Registers the merge preview: content provider, CodeLens, preview and diff commands. */
export function registerMergePreview(
	context: vscode.ExtensionContext,
	deps: {
		readonly graph: ResourceGraph;
		readonly provider: MergePreviewProvider;
		readonly ensureStarted: () => Promise<void>;
		/** Fires after every change of the graph. */
		readonly onGraphChanged: Trigger;
	},
): { graphChanged: () => void } {
	const { graph, provider } = deps;
	const lenses = new MergeCodeLensProvider(graph);
	const resolveKey = async (argument: PreviewArgument): Promise<string | undefined> => {
		await deps.ensureStarted();
		if (typeof argument === 'string') return graph.node(argument)?.objectKey;
		if (argument) {
			const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(argument.uri));
			const entries = parseManifests(document.getText(), { fileName: document.uri.path }).objects;
			const found = objectAtLine(entries, argument.line);
			return found ? objectKeyOf(found.object) : undefined;
		}
		const editor = vscode.window.activeTextEditor;
		if (!editor) return undefined;
		return resolveKey({ uri: editor.document.uri.toString(), line: editor.selection.active.line });
	};
	const targetFor = async (argument: PreviewArgument) => {
		const key = await resolveKey(argument);
		// A tree item of a live root merges from the live WDS and its paired ITS; anything else from the workspace.
		const rootId =
			(typeof argument === 'string' ? graph.node(argument)?.rootId : undefined) ?? workspaceRootId;
		const withInputs = (): Readonly<Record<string, unknown>> | undefined => {
			const found = key ? graph.objectOf(rootId, key) : undefined;
			return found && mergeInputsFrom(found, provider.objectsOf(rootId)).because
				? found
				: undefined;
		};
		let workload = withInputs();
		const context = contextOfLiveRoot(rootId);
		if (key && !workload && context !== undefined && anyLiveRootSyncing(graph)) {
			// The first try used to find nothing while the ITS context was still listing: wait for it, visibly.
			workload = await vscode.window.withProgress(
				{
					location: vscode.ProgressLocation.Notification,
					title: `Waiting for context ${visibleLine(context)} and its paired ITS to list their WorkStatus objects…`,
					cancellable: true,
				},
				async (_progress, token) =>
					(await waitFor(
						// Done once the workload has its inputs, or once no context is listing any more (then it has none).
						() => {
							const found = withInputs();
							return found ?? (anyLiveRootSyncing(graph) ? undefined : null);
						},
						[deps.onGraphChanged],
						{
							timeoutMs: pairingWaitMs,
							cancelled: (listener) => token.onCancellationRequested(listener),
						},
					)) ?? withInputs(),
			);
		}
		if (!key || !workload) {
			const where =
				context === undefined
					? 'in the workspace'
					: `in context ${visibleLine(context)} (nor in the ITS paired with it by kubeStatusLens.clusters.kubestellarPairs)`;
			void vscode.window.showInformationMessage(
				`No BindingPolicy ${where} selects this object and no WorkStatus refers to it, so KubeStellar returns no status for it.`,
			);
			return undefined;
		}
		return { key, rootId, title: titleOf(workload), workload };
	};
	context.subscriptions.push(
		lenses,
		vscode.workspace.registerTextDocumentContentProvider(mergeScheme, provider),
		vscode.languages.registerCodeLensProvider({ language: 'yaml' }, lenses),
		vscode.commands.registerCommand(
			'kubeStatusLens.merge.preview',
			async (argument?: PreviewArgument, rules?: MergeRules) => {
				const target = await targetFor(argument);
				if (!target) return undefined;
				const uri = mergeUriOf(
					{
						rootId: target.rootId,
						key: target.key,
						rules: rules ?? readMergeRules(),
						side: 'merged',
					},
					target.title,
				);
				provider.refresh(uri);
				return showBeside(uri);
			},
		),
		vscode.commands.registerCommand(
			'kubeStatusLens.merge.diff',
			async (argument?: PreviewArgument, rules?: MergeRules) => {
				const target = await targetFor(argument);
				if (!target) return undefined;
				const chosen = rules ?? readMergeRules();
				const left = mergeUriOf(
					{ rootId: target.rootId, key: target.key, rules: chosen, side: 'current' },
					target.title,
				);
				const right = mergeUriOf(
					{ rootId: target.rootId, key: target.key, rules: chosen, side: 'merged-status' },
					target.title,
				);
				await vscode.commands.executeCommand(
					'vscode.diff',
					left,
					right,
					mergeDiffTitle(target.workload, chosen),
				);
				return right.toString();
			},
		),
	);
	context.subscriptions.push(
		vscode.commands.registerCommand(
			'kubeStatusLens.merge.previewFromFiles',
			async (uris?: vscode.Uri[] | string[], rules?: MergeRules) => {
				const chosen =
					uris?.map((uri) => (typeof uri === 'string' ? vscode.Uri.parse(uri) : uri)) ??
					(await vscode.window.showOpenDialog({
						canSelectMany: true,
						openLabel: 'Merge',
						title:
							'Files holding the workload, its WorkStatus objects (or per-WEC copies) and BindingPolicies',
						filters: { 'Kubernetes YAML or JSON': ['yaml', 'yml', 'json'] },
					}));
				if (!chosen?.length) return undefined;
				const objects: Readonly<Record<string, unknown>>[] = [];
				for (const uri of chosen) {
					const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
					for (const entry of parseManifests(text, { fileName: uri.path }).objects) {
						objects.push(entry.object);
					}
				}
				// The same choice as `kube-status-lens merge FILE...`: the workload a policy or WorkStatus points at, else
				// the only one; the user picks among several.
				const choice = mergeWorkloadOf(objects);
				let workload = choice.kind === 'found' ? choice.workload : undefined;
				if (choice.kind === 'several') {
					const picked = await vscode.window.showQuickPick(
						choice.candidates.map((object, index) => ({ label: titleOf(object), index })),
						{ placeHolder: 'Which workload?' },
					);
					if (!picked) return undefined;
					workload = choice.candidates[picked.index];
				}
				if (!workload) {
					void vscode.window.showInformationMessage(
						'The files hold no workload that a BindingPolicy selects or a WorkStatus refers to.',
					);
					return undefined;
				}
				const rootId = provider.addPickedObjects(objects);
				const uri = mergeUriOf(
					{ rootId, key: objectKeyOf(workload), rules: rules ?? readMergeRules(), side: 'merged' },
					titleOf(workload),
				);
				return showBeside(uri);
			},
		),
	);
	return {
		graphChanged: () => {
			provider.graphChanged();
			lenses.refresh();
		},
	};
}
