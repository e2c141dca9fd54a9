// The messages between the rollout matrix panel and the extension, and their checks: each side validates what it
// receives (a webview is a page; what it posts is input like any other). Everything in them is text and numbers.
import type { Tone } from '../status/result.ts';
import { isRecord } from '../model/object.ts';

const toneNames: readonly Tone[] = [
	'ok',
	'suspended',
	'progressing',
	'unknown',
	'warning',
	'error',
];

export interface WireRow {
	readonly label: string;
	readonly heading: boolean;
	readonly summary: string;
	readonly badness: number;
	/** Known from its status summary only: an empty cell is a cluster not named, not one where nothing is deployed. */
	readonly fromSummary: boolean;
}

export interface WireColumn {
	readonly label: string;
	readonly group: string;
	readonly labels: Readonly<Record<string, string>>;
	readonly summary: string;
	readonly badness: number;
}

/** How a cell looks: its state word, the abbreviation shown, its tone. */
export interface WireStyle {
	readonly state: string;
	readonly abbreviation: string;
	readonly tone: Tone;
}

/**
 * A cell: row index, column index, index of its style, index of its message in the texts, indexes of the resources
 * not ready. Styles and texts are tables of the message that carries the cells: 200,000 cells share a few of each.
 * Style -1 removes the cell.
 */
export type WireCell = readonly [number, number, number, number, readonly number[]];

/**
 * Every cell of the grid as one number, row by row (index row * columns + column): 0 where nothing is deployed, else
 * text * base + style + 1, with base the number of styles + 1. `notReady` lists `[cell, ...texts]` for the few
 * cells with resources not ready. 200,000 cells are one array of small numbers rather than 200,000 tuples.
 */
export interface WireGrid {
	readonly styles: readonly WireStyle[];
	readonly texts: readonly string[];
	readonly base: number;
	readonly codes: readonly number[];
	readonly notReady: readonly (readonly number[])[];
}

/** Cells with the tables their indexes point into. */
export interface WireCells {
	readonly styles: readonly WireStyle[];
	readonly texts: readonly string[];
	readonly cells: readonly WireCell[];
}

/** The extension to the panel: the whole matrix, or the cells that changed (state "" removes a cell). */
export type ToPanel =
	| {
			readonly type: 'matrix';
			readonly title: string;
			/** Said above the grid when cells are missing or come from roll-ups; "" when all is there. */
			readonly notice: string;
			readonly rows: readonly WireRow[];
			readonly columns: readonly WireColumn[];
			readonly grid: WireGrid;
	  }
	| {
			readonly type: 'cells';
			readonly cells: WireCells;
			readonly rowSummaries: readonly string[];
			readonly columnSummaries: readonly string[];
			readonly rowBadness: readonly number[];
			readonly columnBadness: readonly number[];
	  }
	| { readonly type: 'move'; readonly key: string }
	/** Opened from a tree item: show its row (-1: none) and filter the columns (a ClusterGroup's name). */
	| { readonly type: 'focus'; readonly row: number; readonly filter: string };

/** The panel to the extension. */
export type FromPanel =
	| { readonly type: 'ready' }
	| { readonly type: 'reveal'; readonly row: number; readonly column: number }
	| { readonly type: 'explain'; readonly row: number; readonly column: number }
	| { readonly type: 'selected'; readonly row: number; readonly column: number };

function isIndex(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** A message from the panel, or undefined when it is not one we know in every field. */
export function fromPanelMessage(value: unknown): FromPanel | undefined {
	if (!isRecord(value)) return undefined;
	if (value.type === 'ready') return { type: 'ready' };
	if (value.type === 'reveal' || value.type === 'explain' || value.type === 'selected') {
		if (!isIndex(value.row) || !isIndex(value.column)) return undefined;
		return { type: value.type, row: value.row, column: value.column };
	}
	return undefined;
}

function isText(value: unknown): value is string {
	return typeof value === 'string';
}

function isTextList(value: unknown): value is readonly string[] {
	return Array.isArray(value) && value.every(isText);
}

function isIndexList(value: unknown): value is readonly number[] {
	return Array.isArray(value) && value.every(isIndex);
}

function isWireStyle(value: unknown): value is WireStyle {
	return (
		isRecord(value) &&
		isText(value.state) &&
		isText(value.abbreviation) &&
		toneNames.includes(value.tone as Tone)
	);
}

/** Cells whose every index points into their tables. */
function isWireCells(value: unknown): value is WireCells {
	if (!isRecord(value)) return false;
	const { styles, texts, cells } = value;
	if (!Array.isArray(styles) || !styles.every(isWireStyle) || !isTextList(texts)) return false;
	if (!Array.isArray(cells)) return false;
	return cells.every(
		(cell: unknown) =>
			Array.isArray(cell) &&
			cell.length === 5 &&
			isIndex(cell[0]) &&
			isIndex(cell[1]) &&
			Number.isInteger(cell[2]) &&
			cell[2] >= -1 &&
			cell[2] < styles.length &&
			isIndex(cell[3]) &&
			cell[3] < texts.length &&
			isIndexList(cell[4]) &&
			cell[4].every((index: number) => index < texts.length),
	);
}

/** A grid of `size` cells whose every code and line points into its tables. */
function isWireGrid(value: unknown, size: number): value is WireGrid {
	if (!isRecord(value)) return false;
	const { styles, texts, base, codes, notReady } = value;
	if (!Array.isArray(styles) || !styles.every(isWireStyle) || !isTextList(texts)) return false;
	if (base !== styles.length + 1 || !Array.isArray(codes) || codes.length !== size) return false;
	const limit = texts.length * base;
	for (const code of codes as unknown[]) {
		if (!isIndex(code) || code >= limit) return false;
	}
	return (
		Array.isArray(notReady) &&
		notReady.every(
			(entry: unknown) =>
				isIndexList(entry) &&
				entry.length >= 1 &&
				(entry[0] ?? size) < size &&
				entry.every((index, at) => at === 0 || index < texts.length),
		)
	);
}

function isNumberList(value: unknown): value is readonly number[] {
	return (
		Array.isArray(value) && value.every((item) => typeof item === 'number' && Number.isFinite(item))
	);
}

function isWireRow(value: unknown): value is WireRow {
	return (
		isRecord(value) &&
		isText(value.label) &&
		typeof value.heading === 'boolean' &&
		isText(value.summary) &&
		typeof value.badness === 'number' &&
		typeof value.fromSummary === 'boolean'
	);
}

function isWireColumn(value: unknown): value is WireColumn {
	return (
		isRecord(value) &&
		isText(value.label) &&
		isText(value.group) &&
		isRecord(value.labels) &&
		Object.values(value.labels).every(isText) &&
		isText(value.summary) &&
		typeof value.badness === 'number'
	);
}

/** A message from the extension, or undefined when any field is not what the panel expects. */
export function toPanelMessage(value: unknown): ToPanel | undefined {
	if (!isRecord(value)) return undefined;
	if (value.type === 'matrix') {
		const { title, notice, rows, columns, grid } = value;
		if (!isText(title) || !isText(notice) || !Array.isArray(rows) || !Array.isArray(columns)) {
			return undefined;
		}
		if (!rows.every(isWireRow) || !columns.every(isWireColumn)) return undefined;
		if (!isWireGrid(grid, rows.length * columns.length)) return undefined;
		return { type: 'matrix', title, notice, rows, columns, grid };
	}
	if (value.type === 'cells') {
		const { cells, rowSummaries, columnSummaries, rowBadness, columnBadness } = value;
		if (!isWireCells(cells)) return undefined;
		if (!isTextList(rowSummaries) || !isTextList(columnSummaries)) return undefined;
		if (!isNumberList(rowBadness) || !isNumberList(columnBadness)) return undefined;
		return { type: 'cells', cells, rowSummaries, columnSummaries, rowBadness, columnBadness };
	}
	if (value.type === 'move' && isText(value.key)) return { type: 'move', key: value.key };
	if (value.type === 'focus' && Number.isInteger(value.row) && isText(value.filter)) {
		return { type: 'focus', row: value.row as number, filter: value.filter };
	}
	return undefined;
}
