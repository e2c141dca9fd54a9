import * as vscode from 'vscode';
import { hoverAt, type HoverContext } from '../../core/manifest/hover.ts';
import { vscodeRangeOf } from '../diagnostics/manifestDiagnostics.ts';

/** Hovers that explain conditions, states and fields; the content is built (and escaped) in the core. */
export class ManifestHoverProvider implements vscode.HoverProvider {
	private readonly liveStatus: HoverContext['liveStatus'];

	constructor(liveStatus?: HoverContext['liveStatus']) {
		this.liveStatus = liveStatus;
	}

	provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
		const hover = hoverAt(
			document.getText(),
			{ line: position.line, character: position.character },
			{ now: Date.now(), ...(this.liveStatus ? { liveStatus: this.liveStatus } : {}) },
		);
		if (!hover) return undefined;
		const markdown = new vscode.MarkdownString(hover.markdown, false);
		markdown.isTrusted = false;
		markdown.supportHtml = false;
		return new vscode.Hover(markdown, vscodeRangeOf(hover.range));
	}
}
