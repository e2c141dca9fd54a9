import * as vscode from 'vscode';
import { stringify } from 'yaml';
import { comparableObject } from '../../core/manifest/comparable.ts';
import { parseManifests } from '../../core/manifest/parse.ts';
import { type ResourceGraph } from '../../core/tree/model.ts';
import { objectKeyOf } from '../../core/tree/linking.ts';
import { liveScheme, ReadOnlyDocuments } from './readOnlyDocuments.ts';
import {
	describeTarget,
	liveTargetOf,
	loadK8sActions,
	showFailure,
	type LiveCommandDeps,
	type LiveTarget,
} from './liveTarget.ts';

/** A place in a workspace file: where a CodeLens sits, or where the tree says an object is declared. */
interface DeclaredAt {
	readonly uri: string;
	readonly line: number;
}

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
	);
}

async function diffWithManifestCommand(
	deps: ReadOnlyDeps,
	id?: string,
	at?: DeclaredAt,
): Promise<string | undefined> {
	const target = liveTargetOf(deps, id);
	if (!target) return undefined;
	// From a CodeLens: the object at that place of that file; from the tree: the first file declaring it.
	const declaredAt = at ?? firstDeclarationOf(deps.graph, target.node.objectKey ?? '');
	const document = declaredAt
		? await vscode.workspace.openTextDocument(vscode.Uri.parse(declaredAt.uri))
		: undefined;
	const declared = document
		? objectAtLine(
				document.getText(),
				document.uri.path,
				declaredAt?.line ?? 0,
				target.node.objectKey ?? '',
			)
		: undefined;
	if (!document || !declared) {
		void vscode.window.showInformationMessage(
			`No workspace file declares ${describeTarget(target)}.`,
		);
		return undefined;
	}
	const object = await readLive(deps, target);
	if (object === undefined) return undefined;
	// Both sides are the one object, without what the server and controllers write, printed the same
	// way: the diff shows drift, not formatting, comments, the file's other documents or status.
	const file = vscode.workspace.asRelativePath(document.uri);
	const name = `${target.context} ${target.ref.kind} ${target.ref.name}`;
	const live = deps.documents.uriFor(`${name} (live).yaml`, stringify(comparableObject(object)));
	const manifest = deps.documents.uriFor(
		`${name} (${file.replace(/.*\//, '')}).yaml`,
		stringify(comparableObject(declared)),
	);
	await vscode.commands.executeCommand(
		'vscode.diff',
		live,
		manifest,
		`${target.ref.name}: live ↔ ${file}:${(declaredAt?.line ?? 0) + 1}`,
	);
	return live.toString();
}

/** Where the first workspace file declaring the object with this key has it. */
function firstDeclarationOf(graph: ResourceGraph, key: string): DeclaredAt | undefined {
	return graph
		.findNodesForObject('workspace', key)
		.map((nodeId) => graph.node(nodeId)?.sources?.[0])
		.map((entry) =>
			entry?.line !== undefined ? { uri: entry.sourceId, line: entry.line } : undefined,
		)
		.find((entry) => entry !== undefined);
}

/**
 * The object with this key in a document, the one nearest the line a CodeLens or tree source points at (the
 * document may have changed since: never another object that happens to sit there now).
 */
function objectAtLine(text: string, fileName: string, line: number, key: string): unknown {
	let found: { object: unknown; distance: number } | undefined;
	for (const entry of parseManifests(text, { fileName }).objects) {
		if (objectKeyOf(entry.object) !== key) continue;
		const distance = Math.abs(entry.range.start.line - line);
		if (!found || distance < found.distance) found = { object: entry.object, distance };
	}
	return found?.object;
}

async function showEventsCommand(deps: ReadOnlyDeps, id?: string): Promise<string | undefined> {
	const target = liveTargetOf(deps, id);
	if (!target) return undefined;
	const result = await (
		await loadK8sActions()
	).listEvents(target.kubeconfig, target.context, target.ref);
	if (!result.ok) {
		showFailure(deps.log, `Listing the events of ${describeTarget(target)}`, result);
		return undefined;
	}
	const field = (value: unknown): string => (typeof value === 'string' ? value : '');
	const lines = result.events.map((event) => {
		const time =
			field(event.lastTimestamp) || field(event.eventTime) || field(event.firstTimestamp);
		return `${time}  ${field(event.type)}  ${field(event.reason)}: ${field(event.message).replace(/\s+/g, ' ')}`;
	});
	const text = [
		`Events of ${describeTarget(target)}`,
		'',
		...(lines.length ? lines : ['(no events)']),
	].join('\n');
	return deps.documents.open(
		`${target.context} ${target.ref.kind} ${target.ref.name} events.log`,
		text,
		'log',
	);
}
