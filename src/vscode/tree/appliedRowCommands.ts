import * as vscode from 'vscode';
import { stringify } from 'yaml';
import { recordedPatchOf } from '../../core/tree/appliedResources.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';
import type { MergedKubeconfig } from '../../k8s/kubeconfig.ts';
import { AppliedResourceReads, appliedRowTargetOf } from './appliedResourceReads.ts';
import { ReadOnlyDocuments } from '../live/readOnlyDocuments.ts';
import { ReadFromLinks } from './readFromLinks.ts';
import type { ResourceTreeProvider } from './resourceTreeProvider.ts';

/** The URI scheme of the read-only texts these commands open (a recorded patch, an object read from an archive). */
const viewScheme = 'kube-status-lens-view';

/** What the applied-resource rows and the Read-from links need from the engine. */
export interface AppliedRowDeps {
	readonly graph: ResourceGraph;
	readonly provider: ResourceTreeProvider;
	readonly kubeconfigOf: () => MergedKubeconfig | undefined;
}

/**
 * Wires the live reads of applied-resource rows into the tree, and registers "Show Recorded Patch" and the command
 * behind the tooltips' Read-from links. Returns the links' table, which tooltips and Explain use.
 */
export function registerAppliedRows(
	context: vscode.ExtensionContext,
	deps: AppliedRowDeps,
): ReadFromLinks {
	const { graph, provider } = deps;
	const texts = new ReadOnlyDocuments(viewScheme);
	provider.appliedReads = new AppliedResourceReads(graph, deps.kubeconfigOf, (ids) =>
		provider.redraw(ids),
	);
	const links = new ReadFromLinks();
	provider.readFromLinks = links;
	context.subscriptions.push(
		texts,
		vscode.workspace.registerTextDocumentContentProvider(viewScheme, texts),
		vscode.commands.registerCommand('kubeStatusLens.resource.showRecordedPatch', (id?: string) =>
			showRecordedPatch(graph, texts, id),
		),
		vscode.commands.registerCommand('kubeStatusLens.readFrom.open', (token?: unknown) =>
			openReadFrom(graph, texts, links, token),
		),
	);
	return links;
}

async function showRecordedPatch(
	graph: ResourceGraph,
	texts: ReadOnlyDocuments,
	id?: string,
): Promise<string | undefined> {
	const node = typeof id === 'string' ? graph.node(id) : undefined;
	const target = node ? appliedRowTargetOf(graph, node) : undefined;
	if (!node?.ref || target?.role !== 'modified') {
		void vscode.window.showInformationMessage(
			'Choose a modified resource under a BundleDeployment in the Kube Status Lens tree.',
		);
		return undefined;
	}
	const parent = target.parent;
	const bundleDeployment = parent.objectKey
		? graph.objectOf(parent.rootId, parent.objectKey)
		: undefined;
	const patch = recordedPatchOf(bundleDeployment, node.ref);
	if (patch === undefined) {
		void vscode.window.showInformationMessage(
			`Fleet recorded no patch for ${node.label}: it reports it ${node.description}.`,
		);
		return undefined;
	}
	const bd = parent.ref?.name ?? 'BundleDeployment';
	return texts.open(`${bd} ${node.ref.kind} ${node.ref.name} (recorded patch).json`, patch, 'json');
}

/** Opens what a Read-from link names: the file at its line, or the object as read, read-only. */
async function openReadFrom(
	graph: ResourceGraph,
	texts: ReadOnlyDocuments,
	links: ReadFromLinks,
	token: unknown,
): Promise<string | undefined> {
	const target = links.targetOf(token);
	if (!target) {
		void vscode.window.showInformationMessage(
			'That link is out of date: hover the row again to follow where it was read.',
		);
		return undefined;
	}
	if (target.kind === 'file') {
		const uri = vscode.Uri.parse(target.sourceId);
		const position = new vscode.Position(target.line, 0);
		await vscode.window.showTextDocument(uri, {
			selection: new vscode.Range(position, position),
			preview: true,
		});
		return `${uri.toString()}#${target.line + 1}`;
	}
	const node = graph.node(target.nodeId);
	if (target.kind === 'live' && node) {
		return vscode.commands.executeCommand<string | undefined>(
			'kubeStatusLens.live.openYaml',
			node.id,
		);
	}
	const object = node?.objectKey ? graph.objectOf(node.rootId, node.objectKey) : undefined;
	if (!node || !object) {
		void vscode.window.showInformationMessage('The object is no longer in the tree.');
		return undefined;
	}
	const from = target.kind === 'entry' ? target.label : 'live';
	return texts.open(`${from} ${node.label}.yaml`, stringify(object), 'yaml');
}
