// Quick fixes as edit data (jsonc-parser style): each fix is a title and text edits computed from the object's syntax
// tree, for the mechanical cases only (move a flag, set a field, drop a field that does not apply). Status is never
// edited: it is observed, not written. Edits never overlap; edits that touch are merged into one.
import type { AnalyzedObject, ManifestAnalysis } from './analysis.ts';
import type { MapEntry, MapNode, ObjectPath, TreeNode } from './yamlTree.ts';
import { offsetAt, positionAt } from './yamlTree.ts';
import type { Range } from '../model/range.ts';

/** Replace the text of `range` with `newText` (an insertion when the range is empty). */
export interface TextEdit {
	readonly range: Range;
	readonly newText: string;
}

/** A quick fix: what it does, and the edits that do it. */
export interface Fix {
	readonly title: string;
	readonly edits: readonly TextEdit[];
}

interface OffsetEdit {
	start: number;
	end: number;
	text: string;
}

function lineStartOf(analysis: ManifestAnalysis, offset: number): number {
	const { line } = positionAt(analysis.lineStarts, offset);
	return analysis.lineStarts[line] ?? 0;
}

/** The offset just after the line holding `offset` (its `\n`), or the text's end. */
function nextLineStart(analysis: ManifestAnalysis, offset: number): number {
	const { line } = positionAt(analysis.lineStarts, offset);
	return line + 1 < analysis.lineStarts.length
		? (analysis.lineStarts[line + 1] ?? analysis.text.length)
		: analysis.text.length;
}

function lineEndOf(analysis: ManifestAnalysis, offset: number): number {
	const newline = analysis.text.indexOf('\n', offset);
	let end = newline < 0 ? analysis.text.length : newline;
	if (end > offset && analysis.text.charCodeAt(end - 1) === 13) end--;
	return end;
}

function entryEnd(entry: MapEntry): number {
	return entry.value ? entry.value.end : entry.keyEnd;
}

/** True when only spaces stand before `offset` on its line. */
function startsItsLine(analysis: ManifestAnalysis, offset: number): boolean {
	const start = lineStartOf(analysis, offset);
	return /^[ \t]*$/.test(analysis.text.slice(start, offset));
}

function toFix(analysis: ManifestAnalysis, title: string, edits: OffsetEdit[]): Fix {
	const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
	const merged: OffsetEdit[] = [];
	for (const edit of sorted) {
		const previous = merged[merged.length - 1];
		if (previous && edit.start <= previous.end) {
			// Touching or overlapping edits become one, so that no editor refuses them.
			const end = Math.max(previous.end, edit.end);
			previous.text =
				previous.text +
				analysis.text.slice(previous.end, Math.max(previous.end, edit.start)) +
				edit.text;
			previous.end = end;
		} else merged.push({ ...edit });
	}
	return {
		title,
		edits: merged.map((edit) => ({
			range: analysis.range(edit.start, edit.end),
			newText: edit.text,
		})),
	};
}

/** The edit removing one `key: value` from its mapping, whole lines when it has its own lines. */
function removalEdit(
	analysis: ManifestAnalysis,
	parent: MapNode,
	entry: MapEntry,
): OffsetEdit | undefined {
	const index = parent.entries.indexOf(entry);
	if (index < 0) return undefined;
	const next = parent.entries[index + 1];
	const previous = parent.entries[index - 1];
	if (parent.flow) {
		if (next) return { start: entry.keyStart, end: next.keyStart, text: '' };
		if (previous) return { start: entryEnd(previous), end: entryEnd(entry), text: '' };
		return { start: entry.keyStart, end: entryEnd(entry), text: '' };
	}
	if (startsItsLine(analysis, entry.keyStart)) {
		return {
			start: lineStartOf(analysis, entry.keyStart),
			end: nextLineStart(analysis, Math.max(entryEnd(entry) - 1, entry.keyStart)),
			text: '',
		};
	}
	// The first key of a sequence item (`- key: value`): the next key moves up onto the dash line.
	if (next) return { start: entry.keyStart, end: next.keyStart, text: '' };
	return { start: entry.keyStart, end: lineEndOf(analysis, entryEnd(entry) - 1), text: '{}' };
}

/** The edit adding `key: value` at the end of a mapping. */
function insertionEdit(
	analysis: ManifestAnalysis,
	map: MapNode,
	key: string,
	value: string,
): OffsetEdit {
	if (map.flow) {
		if (map.entries.length === 0) {
			return { start: map.start, end: map.end, text: `{ ${key}: ${value} }` };
		}
		const last = map.entries[map.entries.length - 1];
		const at = last ? entryEnd(last) : map.end - 1;
		return { start: at, end: at, text: `, ${key}: ${value}` };
	}
	const first = map.entries[0];
	const column = first ? positionAt(analysis.lineStarts, first.keyStart).character : 0;
	const line = `${' '.repeat(column)}${key}: ${value}`;
	const at = nextLineStart(analysis, Math.max(map.end - 1, map.start));
	if (at >= analysis.text.length && !analysis.text.endsWith('\n')) {
		return { start: analysis.text.length, end: analysis.text.length, text: `\n${line}` };
	}
	return { start: at, end: at, text: `${line}\n` };
}

function mapAt(
	analysis: ManifestAnalysis,
	entry: AnalyzedObject,
	path: ObjectPath,
): MapNode | undefined {
	const located =
		path.length === 0 ? { node: analysis.treeOf(entry) } : analysis.locate(entry, path);
	const node: TreeNode | undefined = located?.node;
	return node?.kind === 'map' ? node : undefined;
}

/** Removes the entry at `path` (a mapping key). */
export function removeEntryFix(
	analysis: ManifestAnalysis,
	entry: AnalyzedObject,
	path: ObjectPath,
	title: string,
): Fix | undefined {
	const located = analysis.locate(entry, path);
	if (!located?.entry || located.parent?.kind !== 'map') return undefined;
	const edit = removalEdit(analysis, located.parent, located.entry);
	return edit ? toFix(analysis, title, [edit]) : undefined;
}

/** Sets `key` of the mapping at `mapPath` to `value` (YAML source text), replacing the value or adding the key. */
export function setScalarFix(
	analysis: ManifestAnalysis,
	entry: AnalyzedObject,
	mapPath: ObjectPath,
	key: string,
	value: string,
	title: string,
): Fix | undefined {
	const map = mapAt(analysis, entry, mapPath);
	if (!map) return undefined;
	const existing = map.entries.find((candidate) => candidate.key === key);
	if (existing?.value) {
		if (existing.value.kind !== 'scalar') return undefined;
		return toFix(analysis, title, [
			{ start: existing.value.start, end: existing.value.end, text: value },
		]);
	}
	if (existing) {
		const colon = analysis.text.indexOf(':', existing.keyEnd);
		if (colon < 0) return undefined;
		const end = lineEndOf(analysis, colon);
		const rest = analysis.text.slice(colon + 1, end);
		if (!/^[ \t]*(#.*)?$/.test(rest)) return undefined;
		return toFix(analysis, title, [{ start: colon + 1, end: colon + 1, text: ` ${value}` }]);
	}
	return toFix(analysis, title, [insertionEdit(analysis, map, key, value)]);
}

/** Renames the key at `path`, keeping its value. */
export function renameKeyFix(
	analysis: ManifestAnalysis,
	entry: AnalyzedObject,
	path: ObjectPath,
	newKey: string,
	title: string,
): Fix | undefined {
	const located = analysis.locate(entry, path);
	if (!located?.entry) return undefined;
	return toFix(analysis, title, [
		{ start: located.entry.keyStart, end: located.entry.keyEnd, text: newKey },
	]);
}

/**
 * Moves a misplaced `key: value` into each of the mappings at `targets` that lacks the key (KubeStellar's reported-state
 * flags belong in every downsync clause). The value keeps its source text.
 */
export function moveEntryFix(
	analysis: ManifestAnalysis,
	entry: AnalyzedObject,
	path: ObjectPath,
	targets: readonly ObjectPath[],
	title: string,
): Fix | undefined {
	const located = analysis.locate(entry, path);
	if (!located?.entry || located.parent?.kind !== 'map') return undefined;
	const moved = located.entry;
	const valueText = moved.value ? analysis.text.slice(moved.value.start, moved.value.end) : 'true';
	if (moved.value && moved.value.kind !== 'scalar') return undefined;
	const removal = removalEdit(analysis, located.parent, moved);
	if (!removal) return undefined;
	const edits: OffsetEdit[] = [removal];
	for (const target of targets) {
		const map = mapAt(analysis, entry, target);
		if (!map) return undefined;
		if (map.entries.some((candidate) => candidate.key === moved.key)) continue;
		const insertion = insertionEdit(analysis, map, moved.key, valueText);
		// An insertion inside the removed text would vanish with it.
		if (insertion.start > removal.start && insertion.start < removal.end) return undefined;
		edits.push(insertion);
	}
	return toFix(analysis, title, edits);
}

/** The text after applying edits (non-overlapping), for tests and command-line use. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
	const starts = [0];
	for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) {
		starts.push(index + 1);
	}
	const spans = edits
		.map((edit) => ({
			start: offsetAt(starts, edit.range.start),
			end: offsetAt(starts, edit.range.end),
			text: edit.newText,
		}))
		.sort((a, b) => b.start - a.start);
	let result = text;
	for (const span of spans) {
		result = result.slice(0, span.start) + span.text + result.slice(span.end);
	}
	return result;
}
