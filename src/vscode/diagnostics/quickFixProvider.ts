import * as vscode from 'vscode';
import {
	diagnosticSource,
	vscodeRangeOf,
	type ManifestDiagnostics,
} from './manifestDiagnostics.ts';

/** Quick fixes for the findings that have a mechanical fix; the edits come from the core as data. */
export class QuickFixProvider implements vscode.CodeActionProvider {
	static readonly metadata: vscode.CodeActionProviderMetadata = {
		providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
	};
	private readonly diagnostics: ManifestDiagnostics;

	constructor(diagnostics: ManifestDiagnostics) {
		this.diagnostics = diagnostics;
	}

	provideCodeActions(
		document: vscode.TextDocument,
		_range: vscode.Range,
		context: vscode.CodeActionContext,
	): vscode.CodeAction[] {
		const actions: vscode.CodeAction[] = [];
		const findings = this.diagnostics.findingsOf(document.uri);
		for (const diagnostic of context.diagnostics) {
			if (diagnostic.source !== diagnosticSource) continue;
			const finding = findings.find(
				(candidate) =>
					candidate.code === diagnostic.code &&
					vscodeRangeOf(candidate.range).isEqual(diagnostic.range),
			);
			for (const fix of finding?.fixes ?? []) {
				const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
				action.diagnostics = [diagnostic];
				action.edit = new vscode.WorkspaceEdit();
				for (const edit of fix.edits) {
					action.edit.replace(document.uri, vscodeRangeOf(edit.range), edit.newText);
				}
				actions.push(action);
			}
		}
		if (actions.length === 1 && actions[0]) actions[0].isPreferred = true;
		return actions;
	}
}
