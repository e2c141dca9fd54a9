import * as vscode from 'vscode';
import { explainNodeMarkdown } from '../../core/explain/explainDocument.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';

/** The URI scheme of the read-only "Explain status" documents. */
export const explainScheme = 'kube-status-lens-explain';

/** Read-only Markdown documents that explain a tree item; they refresh when the item changes. */
export class ExplainProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
	private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
	readonly onDidChange = this.emitter.event;
	private readonly graph: ResourceGraph;
	private readonly open = new Map<string, vscode.Uri>();

	constructor(graph: ResourceGraph) {
		this.graph = graph;
	}

	/** The document URI for a node; the path carries a readable name, the query the node id. */
	uriFor(nodeId: string, label: string): vscode.Uri {
		const safe = label.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'item';
		const uri = vscode.Uri.from({
			scheme: explainScheme,
			path: `/Explain ${safe}.md`,
			query: new URLSearchParams({ node: nodeId }).toString(),
		});
		this.open.set(nodeId, uri);
		return uri;
	}

	/** Tells open previews that their node changed. */
	nodesChanged(ids: readonly string[]): void {
		for (const id of ids) {
			const uri = this.open.get(id);
			if (uri) this.emitter.fire(uri);
		}
	}

	provideTextDocumentContent(uri: vscode.Uri): string {
		const nodeId = new URLSearchParams(uri.query).get('node') ?? '';
		return explainNodeMarkdown(this.graph, nodeId);
	}

	dispose(): void {
		this.emitter.dispose();
	}
}
