import * as vscode from 'vscode';
import { parseManifests } from '../../core/manifest/parse.ts';
import type { ObjectRef } from '../../core/model/object.ts';
import type { StatusResult } from '../../core/status/result.ts';
import { type ResourceGraph } from '../../core/tree/model.ts';
import { objectKeyOf } from '../../core/tree/linking.ts';
import { type TreeNode } from '../../core/tree/treeNode.ts';
import type { LiveFeed } from '../../live/liveFeed.ts';
import { liveRootId } from '../../live/liveRoots.ts';

/** The live counterpart of a workspace object (same kind, namespace, name) in the first context that has it. */
function liveNodeOf(
	graph: ResourceGraph,
	live: LiveFeed,
	key: string,
): { context: string; node: TreeNode } | undefined {
	for (const context of live.contexts) {
		const id = graph.findNodesForObject(liveRootId(context), key)[0];
		const node = id ? graph.node(id) : undefined;
		if (node?.result) return { context, node };
	}
	return undefined;
}

/** For hovers: the engine's verdict on the live object with this identity. */
export function liveStatusLookup(
	graph: ResourceGraph,
	live: LiveFeed,
): (ref: ObjectRef) => StatusResult | undefined {
	return (ref) => {
		const key = objectKeyOf({
			apiVersion: ref.apiVersion,
			kind: ref.kind,
			metadata: { name: ref.name, namespace: ref.namespace },
		});
		return liveNodeOf(graph, live, key)?.node.result;
	};
}

/** "Live: NotReady · 3/5 clusters" above each manifest that exists in a connected cluster. */
export class LiveStatusCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
	private readonly emitter = new vscode.EventEmitter<void>();
	readonly onDidChangeCodeLenses = this.emitter.event;
	private readonly graph: ResourceGraph;
	private readonly live: LiveFeed;
	private timer: ReturnType<typeof setTimeout> | undefined;
	/** Documents whose last lenses showed live objects: they use the watches while visible. */
	private readonly withLiveLenses = new Set<string>();
	private readonly usageEmitter = new vscode.EventEmitter<void>();
	/** Fires when a document starts or stops having live lenses. */
	readonly onDidChangeUsage = this.usageEmitter.event;

	constructor(graph: ResourceGraph, live: LiveFeed) {
		this.graph = graph;
		this.live = live;
	}

	/** Whether the document's lenses show live objects. */
	showsLive(uri: vscode.Uri): boolean {
		return this.withLiveLenses.has(uri.toString());
	}

	/** Called on graph changes; lenses refresh once things settle. */
	graphChanged(): void {
		clearTimeout(this.timer);
		this.timer = setTimeout(() => this.emitter.fire(), 500);
	}

	provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
		if (this.live.contexts.length === 0 || document.uri.scheme !== 'file') return [];
		const lenses: vscode.CodeLens[] = [];
		for (const entry of parseManifests(document.getText(), { fileName: document.uri.path })
			.objects) {
			const found = liveNodeOf(this.graph, this.live, objectKeyOf(entry.object));
			if (!found) continue;
			const range = new vscode.Range(entry.range.start.line, 0, entry.range.start.line, 0);
			lenses.push(
				new vscode.CodeLens(range, {
					title: `Live (${found.context}): ${found.node.description}`,
					tooltip: 'Explain the live status',
					command: 'kubeStatusLens.resource.explain',
					arguments: [found.node.id],
				}),
				new vscode.CodeLens(range, {
					title: 'Diff live ↔ manifest',
					command: 'kubeStatusLens.live.diffWithManifest',
					arguments: [
						found.node.id,
						{ uri: document.uri.toString(), line: entry.range.start.line },
					],
				}),
			);
		}
		const key = document.uri.toString();
		if (this.withLiveLenses.has(key) !== lenses.length > 0) {
			if (lenses.length > 0) this.withLiveLenses.add(key);
			else this.withLiveLenses.delete(key);
			this.usageEmitter.fire();
		}
		return lenses;
	}

	dispose(): void {
		clearTimeout(this.timer);
		this.emitter.dispose();
		this.usageEmitter.dispose();
	}
}
