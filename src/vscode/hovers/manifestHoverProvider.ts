import * as vscode from 'vscode';
import { hoverAt } from '../../core/manifest/hover.ts';
import { vscodeRangeOf } from '../diagnostics/manifestDiagnostics.ts';

/** Hovers that explain conditions, states and fields; the content is built (and escaped) in the core. */
export class ManifestHoverProvider implements vscode.HoverProvider {
	provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
		const hover = hoverAt(
			document.getText(),
			{ line: position.line, character: position.character },
			{ now: Date.now() },
		);
		if (!hover) return undefined;
		const markdown = new vscode.MarkdownString(hover.markdown, false);
		markdown.isTrusted = false;
		markdown.supportHtml = false;
		return new vscode.Hover(markdown, vscodeRangeOf(hover.range));
	}
}
