import * as vscode from 'vscode';

/** The URI scheme of read-only live objects and their events. */
export const liveScheme = 'kube-status-lens-live';

/** Serves the read-only documents the live commands open: objects as YAML, the two sides of a diff, events. */
export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
	private readonly texts = new Map<string, string>();
	private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
	readonly onDidChange = this.emitter.event;

	provideTextDocumentContent(uri: vscode.Uri): string {
		return this.texts.get(uri.toString()) ?? '# Not loaded.\n';
	}

	/** Keeps the text under a URI named for it; an open document of that name shows the new text. */
	uriFor(name: string, text: string): vscode.Uri {
		const uri = vscode.Uri.from({
			scheme: liveScheme,
			path: `/${name.replace(/[^A-Za-z0-9._ ()-]+/g, '-')}`,
		});
		this.texts.set(uri.toString(), text);
		this.emitter.fire(uri);
		return uri;
	}

	/** Shows the text in a preview editor with this language; returns its URI for callers and tests. */
	async open(name: string, text: string, language: string): Promise<string> {
		const uri = this.uriFor(name, text);
		const document = await vscode.workspace.openTextDocument(uri);
		await vscode.languages.setTextDocumentLanguage(document, language);
		await vscode.window.showTextDocument(document, { preview: true });
		return uri.toString();
	}

	dispose(): void {
		this.emitter.dispose();
	}
}
