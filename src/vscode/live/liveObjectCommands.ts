import * as vscode from 'vscode';
import { stringify } from 'yaml';
import { comparableObject } from '../../core/manifest/comparable.ts';
import { inKeyOrderOf } from '../../core/manifest/keyOrder.ts';
import { rowTextLimit, truncate } from '../../core/text/limits.ts';
import { visibleLine } from '../../core/text/visible.ts';
import { eventsReport } from '../../core/explain/eventsReport.ts';
import { readKubeEvents } from '../../core/model/kubeEvent.ts';
import { type ResourceGraph } from '../../core/tree/model.ts';
import type { TreeNode } from '../../core/tree/treeNode.ts';
import { contextOfLiveRoot } from '../../live/liveRoots.ts';
import { pickObjectNode } from '../tree/treeCommands.ts';
import { chooseDeclaration, type SourcePlace } from '../workspace/declarationChoice.ts';
import { liveScheme, ReadOnlyDocuments } from './readOnlyDocuments.ts';
import {
	describeTarget,
	liveTargetOf,
	showFailure,
	type LiveCommandDeps,
	type LiveTarget,
} from './liveTarget.ts';
import { loadK8sActions } from './k8sActions.ts';

/** A place in a workspace file: where a CodeLens sits. */
type DeclaredAt = SourcePlace;

/** What the read-only commands work with: the live commands' needs and the documents they open. */
interface ReadOnlyDeps extends LiveCommandDeps {
	readonly documents: ReadOnlyDocuments;
}

/** Registers the read-only commands on live objects: open as YAML, diff with the manifest, events. */
export function registerLiveObjectCommands(
	context: vscode.ExtensionContext,
	deps: LiveCommandDeps,
): void {
	const documents = new ReadOnlyDocuments();
	const withDocuments: ReadOnlyDeps = { ...deps, documents };
	context.subscriptions.push(
		documents,
		vscode.workspace.registerTextDocumentContentProvider(liveScheme, documents),
		vscode.commands.registerCommand('kubeStatusLens.live.openYaml', (id?: string) =>
			openYamlCommand(withDocuments, id),
		),
		vscode.commands.registerCommand(
			'kubeStatusLens.live.diffWithManifest',
			(id?: string, at?: DeclaredAt) => diffWithManifestCommand(withDocuments, id, at),
		),
		vscode.commands.registerCommand('kubeStatusLens.live.showEvents', (id?: string) =>
			showEventsCommand(withDocuments, id),
		),
	);
}

/** The live object as the cluster has it now, or undefined once a failure was shown. */
async function readLive(deps: LiveCommandDeps, target: LiveTarget): Promise<unknown> {
	const result = await (
		await loadK8sActions()
	).getObject(target.kubeconfig, target.context, target.ref);
	if (result.ok) return result.object;
	showFailure(deps.log, `Reading ${describeTarget(target)}`, result);
	return undefined;
}

async function openYamlCommand(deps: ReadOnlyDeps, id?: string): Promise<string | undefined> {
	const target = liveTargetOf(deps, id);
	if (!target) return undefined;
	const object = await readLive(deps, target);
	if (object === undefined) return undefined;
	return deps.documents.open(
		`${target.context} ${target.ref.kind} ${target.ref.name}.yaml`,
		stringify(object),
		'yaml',
		target.node.rootId,
	);
}

async function diffWithManifestCommand(
	deps: ReadOnlyDeps,
	id?: string,
	at?: DeclaredAt,
): Promise<string | undefined> {
	const target = liveTargetOf(deps, id);
	if (!target) return undefined;
	const key = target.node.objectKey ?? '';
	// From a CodeLens: the object at that place of that file; from the tree: the file that declares it.
	const choice = await chooseDeclaration(
		at ? [at] : workspacePlacesOf(deps.graph, key),
		key,
		visibleLine(truncate(`Diff the live ${describeTarget(target)} with`, rowTextLimit)),
	);
	const declared = choice.declaration;
	if (!declared) {
		if (!choice.cancelled) {
			void vscode.window.showInformationMessage(
				`No workspace file declares ${describeTarget(target)}.`,
			);
		}
		return undefined;
	}
	const object = await readLive(deps, target);
	if (object === undefined) return undefined;
	// Both sides are the one object, without what the server and controllers write, printed the same
	// way: the diff shows drift, not formatting, key order, comments, the file's other documents or status.
	const manifestSide = comparableObject(declared.object);
	const liveSide = inKeyOrderOf(comparableObject(object), manifestSide);
	const file = vscode.workspace.asRelativePath(vscode.Uri.parse(declared.uri));
	const name = `${target.context} ${target.ref.kind} ${target.ref.name}`;
	const live = deps.documents.uriFor(`${name} (live).yaml`, stringify(liveSide));
	const manifest = deps.documents.uriFor(
		`${name} (${file.replace(/.*\//, '')}).yaml`,
		stringify(manifestSide),
	);
	await vscode.commands.executeCommand(
		'vscode.diff',
		live,
		manifest,
		`${target.ref.name}: live ↔ ${file}:${declared.line + 1}`,
	);
	return live.toString();
}

/** Every place a workspace file holds the object with this key, as the tree read them. */
function workspacePlacesOf(graph: ResourceGraph, key: string): SourcePlace[] {
	return graph
		.findNodesForObject('workspace', key)
		.flatMap((nodeId) => graph.node(nodeId)?.sources ?? [])
		.flatMap((entry) =>
			entry.line !== undefined ? [{ uri: entry.sourceId, line: entry.line }] : [],
		);
}

/**
 * The live copy of the object a node shows: the node itself when live, else the same object in an open context (the
 * user picks when several have it). Undefined once the user was told why there is none.
 */
async function liveCopyOf(deps: ReadOnlyDeps, node: TreeNode): Promise<string | undefined> {
	if (contextOfLiveRoot(node.rootId) !== undefined) return node.id;
	const copies: { readonly id: string; readonly context: string }[] = [];
	for (const root of deps.graph.roots()) {
		const context = contextOfLiveRoot(root.id);
		if (context === undefined || node.objectKey === undefined) continue;
		const id = deps.graph.findNodesForObject(root.id, node.objectKey)[0];
		if (id !== undefined) copies.push({ id, context });
	}
	const named = node.ref ? describeRef(node.ref) : node.label;
	if (copies.length === 0) {
		const choose = 'Choose Contexts…';
		void vscode.window
			.showInformationMessage(
				`${visibleLine(named)} is not in an open kube context. Its Events are kept by the cluster that runs it: open that context to see them.`,
				choose,
			)
			.then((answer) => {
				if (answer === choose) {
					void vscode.commands.executeCommand('kubeStatusLens.clusters.chooseContexts');
				}
			});
		return undefined;
	}
	if (copies.length === 1) return copies[0]?.id;
	const picked = await vscode.window.showQuickPick(
		copies.map((copy) => ({ label: visibleLine(copy.context), id: copy.id })),
		{
			title: `Events of ${visibleLine(named)}`,
			placeHolder: 'The context to read its Events from',
		},
	);
	return picked?.id;
}

function describeRef(ref: {
	readonly kind: string;
	readonly namespace?: string | undefined;
	readonly name: string;
}): string {
	return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

async function showEventsCommand(deps: ReadOnlyDeps, id?: string): Promise<string | undefined> {
	const node =
		typeof id === 'string'
			? deps.graph.node(id)
			: await pickObjectNode(deps.graph, 'The object whose Events to show');
	if (!node) return undefined;
	const liveId = await liveCopyOf(deps, node);
	if (liveId === undefined) return undefined;
	const target = liveTargetOf(deps, liveId);
	if (!target) return undefined;
	const result = await (
		await loadK8sActions()
	).listEvents(target.kubeconfig, target.context, target.ref);
	if (!result.ok) {
		showFailure(deps.log, `Listing the events of ${describeTarget(target)}`, result);
		return undefined;
	}
	const events = readKubeEvents(result.events);
	deps.log.info(`Listed ${events.length} event(s) of ${describeTarget(target)}`);
	return deps.documents.open(
		`${target.context} ${target.ref.kind} ${target.ref.name} events.log`,
		eventsReport(describeRef(target.ref), `in context ${target.context}`, events, Date.now()),
		'log',
	);
}
