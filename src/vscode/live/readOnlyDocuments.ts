import * as vscode from 'vscode';

/** The URI scheme of read-only live objects and their events. */
export const liveScheme = 'kube-status-lens-live';

/** The URI scheme of read-only `fleet dump` archive entries. */
export const dumpEntryScheme = 'kube-status-lens-dump';

/**
 * The root of the tree a read-only document shows an object of: the input Fleet's troubleshooting checks of its
 * Problems read (the live context or the archive it came from). Undefined for other documents.
 */
export function rootOfReadOnlyDocument(uri: vscode.Uri): string | undefined {
	if (uri.scheme !== liveScheme && uri.scheme !== dumpEntryScheme) return undefined;
	return new URLSearchParams(uri.query).get('root') ?? undefined;
}

/** Serves read-only documents: live objects as YAML, the two sides of a diff, events, archive entries. */
export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
	private readonly texts = new Map<string, string>();
	private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
	private readonly scheme: string;
	readonly onDidChange = this.emitter.event;

	constructor(scheme: string = liveScheme) {
		this.scheme = scheme;
	}

	provideTextDocumentContent(uri: vscode.Uri): string {
		return this.texts.get(uri.toString()) ?? '# Not loaded.\n';
	}

	/**
	 * Keeps the text under a URI named for it; an open document of that name shows the new text. A document that shows
	 * an object of a root names the root, for its Problems.
	 */
	uriFor(name: string, text: string, rootId?: string): vscode.Uri {
		const uri = vscode.Uri.from({
			scheme: this.scheme,
			path: `/${name.replace(/[^A-Za-z0-9_. ()-]+/g, '-')}`,
			...(rootId === undefined ? {} : { query: new URLSearchParams({ root: rootId }).toString() }),
		});
		this.texts.set(uri.toString(), text);
		this.emitter.fire(uri);
		return uri;
	}

	/** Shows the text in a preview editor with this language; returns its URI for callers and tests. */
	async open(name: string, text: string, language: string, rootId?: string): Promise<string> {
		const uri = this.uriFor(name, text, rootId);
		const document = await vscode.workspace.openTextDocument(uri);
		await vscode.languages.setTextDocumentLanguage(document, language);
		await vscode.window.showTextDocument(document, { preview: true });
		return uri.toString();
	}

	dispose(): void {
		this.emitter.dispose();
	}
}
