import * as vscode from 'vscode';
import { explainNodeMarkdown } from '../../core/explain/explainDocument.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';

/**
 * The path of a workspace file below the first workspace folder. The Markdown preview refuses `file:` links, and
 * resolves a link starting with "/" against the first workspace folder (the Explain document belongs to none), so
 * only files there can be linked to.
 */
function pathInFirstFolder(sourceId: string): string | undefined {
	const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
	if (!folder || !sourceId.startsWith('file:')) return undefined;
	const file = vscode.Uri.parse(sourceId);
	const root = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
	if (file.scheme !== folder.scheme || file.authority !== folder.authority) return undefined;
	return file.path.startsWith(root) ? file.path.slice(root.length) : undefined;
}

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
		return explainNodeMarkdown(this.graph, nodeId, pathInFirstFolder);
	}

	dispose(): void {
		this.emitter.dispose();
	}
}
