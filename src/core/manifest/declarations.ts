// Which workspace file declares an object, when several hold it. A repository often has the manifest a person
// wrote beside a `kubectl get -o yaml` dump of the same object; "Open Manifest" and the live diff mean the first.

import { getPath, getRecord, isRecord } from '../model/object.ts';
import { objectKeyOf } from '../tree/linking.ts';
import { parseManifests } from './parse.ts';

/** A manifest a person wrote, or an object as `kubectl get -o yaml` printed it. */
type DeclarationKind = 'manifest' | 'dump';

/** One file's copy of an object, and what it looks like. */
export interface Declaration {
	/** The file, as the caller names it (a URI). */
	readonly uri: string;
	/** The line the object starts at, from 0. */
	readonly line: number;
	readonly object: Record<string, unknown>;
	readonly kind: DeclarationKind;
	/** What makes it a dump: "status", "resourceVersion", "managedFields", "uid", "in a List". Empty for a manifest. */
	readonly dumpMarks: readonly string[];
}

/** What the server and controllers write, which a person's manifest does not hold. */
function dumpMarksOf(object: Record<string, unknown>, inList: boolean): string[] {
	const marks: string[] = [];
	const status = object.status;
	if (status !== undefined && status !== null) marks.push('status');
	const metadata = getRecord(object, 'metadata');
	for (const field of ['resourceVersion', 'managedFields', 'uid']) {
		if (metadata && getPath(metadata, field) !== undefined) marks.push(field);
	}
	if (inList) marks.push('in a List');
	return marks;
}

/**
 * The copy of the object with this key in a file's text: the one nearest `line` (the text may have changed since the
 * line was read; never another object that sits there now). Undefined when the text no longer holds it.
 */
export function declarationIn(
	text: string,
	uri: string,
	line: number,
	key: string,
): Declaration | undefined {
	let found: { declaration: Declaration; distance: number } | undefined;
	for (const entry of parseManifests(text, { fileName: uri }).objects) {
		if (!isRecord(entry.object) || objectKeyOf(entry.object) !== key) continue;
		const distance = Math.abs(entry.range.start.line - line);
		if (found && distance >= found.distance) continue;
		const dumpMarks = dumpMarksOf(entry.object, entry.itemIndex !== undefined);
		found = {
			declaration: {
				uri,
				line: entry.range.start.line,
				object: entry.object,
				kind: dumpMarks.length === 0 ? 'manifest' : 'dump',
				dumpMarks,
			},
			distance,
		};
	}
	return found?.declaration;
}

/** The candidates best first, and whether the best is not clearly better than the next (the user chooses). */
export interface RankedDeclarations {
	readonly ranked: readonly Declaration[];
	readonly ask: boolean;
}

const kindRank: Readonly<Record<DeclarationKind, number>> = { manifest: 0, dump: 1 };

/**
 * Manifests before dumps; among equals, by file then line (a stable order the user can read). When the first two are
 * equally good, which one the user means cannot be guessed: `ask` says so.
 */
export function rankDeclarations(candidates: readonly Declaration[]): RankedDeclarations {
	const ranked = [...candidates].sort(
		(a, b) =>
			kindRank[a.kind] - kindRank[b.kind] ||
			(a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0) ||
			a.line - b.line,
	);
	const [first, second] = ranked;
	return { ranked, ask: first !== undefined && second !== undefined && first.kind === second.kind };
}

/** How a choice names a candidate after its file: "line 12 · manifest", "line 60 · kubectl dump (status, uid)". */
export function declarationDescription(declaration: Declaration): string {
	const what =
		declaration.kind === 'manifest'
			? 'manifest'
			: `kubectl dump (${declaration.dumpMarks.join(', ')})`;
	return `line ${declaration.line + 1} · ${what}`;
}
