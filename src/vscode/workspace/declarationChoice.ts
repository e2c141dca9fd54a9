import * as vscode from 'vscode';
import {
	declarationDescription,
	declarationIn,
	rankDeclarations,
	type Declaration,
} from '../../core/manifest/declarations.ts';
import { rowTextLimit, truncate } from '../../core/text/limits.ts';
import { visibleLine } from '../../core/text/visible.ts';
import { decodeFileBytes } from '../../files/decodeFile.ts';

/** A place the tree says a copy of the object was read from. */
export interface SourcePlace {
	readonly uri: string;
	readonly line: number;
}

/**
 * A file's text as it is now: an open editor's (unsaved edits included), else the file's. Opening a document for
 * this would put the diagnostics of a dump the user never opened in the Problems panel.
 */
async function currentText(uri: vscode.Uri): Promise<string | undefined> {
	const open = vscode.workspace.textDocuments.find(
		(document) => document.uri.toString() === uri.toString(),
	);
	if (open) return open.getText();
	try {
		const decoded = decodeFileBytes(await vscode.workspace.fs.readFile(uri));
		return 'text' in decoded ? decoded.text : undefined;
	} catch {
		return undefined;
	}
}

/** The copy of the object with this key at each place, read from the files as they are now. */
async function declarationsAt(places: readonly SourcePlace[], key: string): Promise<Declaration[]> {
	const found: Declaration[] = [];
	const seen = new Set<string>();
	for (const place of places) {
		const text = await currentText(vscode.Uri.parse(place.uri));
		const declaration =
			text === undefined ? undefined : declarationIn(text, place.uri, place.line, key);
		const at = declaration && `${declaration.uri}#${declaration.line}`;
		if (!declaration || !at || seen.has(at)) continue;
		seen.add(at);
		found.push(declaration);
	}
	return found;
}

/** The declaration chosen, or why there is none: no file holds the object any more, or the user cancelled. */
type Choice =
	| { readonly declaration: Declaration }
	| { readonly declaration?: undefined; readonly cancelled: boolean };

/**
 * The file that declares the object: a manifest a person wrote before a `kubectl get -o yaml` dump; when the best
 * candidates are equally good, the user chooses from all of them, best first.
 */
export async function chooseDeclaration(
	places: readonly SourcePlace[],
	key: string,
	title: string,
): Promise<Choice> {
	const { ranked, ask } = rankDeclarations(await declarationsAt(places, key));
	const best = ranked[0];
	if (!best) return { cancelled: false };
	if (!ask) return { declaration: best };
	const items = ranked.map((declaration) => ({
		label: visibleLine(
			truncate(vscode.workspace.asRelativePath(vscode.Uri.parse(declaration.uri)), rowTextLimit),
		),
		description: declarationDescription(declaration),
		declaration,
	}));
	const picked = await vscode.window.showQuickPick(items, {
		title,
		placeHolder: 'Several files hold this object: which one?',
	});
	return picked ? { declaration: picked.declaration } : { cancelled: true };
}
