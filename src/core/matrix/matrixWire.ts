// The rollout matrix as the panel receives it: rows and columns by index, every cell as one number of a flat array
// (its style and message, indexes into tables sent once), and what changed between two builds (the cells, and every
// summary) so an update sends a few cells rather than the whole grid.
import type {
	WireCells,
	WireCell,
	WireColumn,
	WireGrid,
	WireRow,
	WireStyle,
} from './matrixMessages.ts';
import { summariesOf, type MatrixTables, type RolloutMatrix } from './rolloutMatrix.ts';

/** The whole matrix for the panel. */
export interface WireMatrix {
	readonly notice: string;
	readonly rows: readonly WireRow[];
	readonly columns: readonly WireColumn[];
	readonly grid: WireGrid;
}

/** Copies the styles and texts a message uses out of the matrix's tables, each once. */
class TableWriter {
	readonly styles: WireStyle[] = [];
	readonly texts: string[] = [];
	private readonly styleAt: Int32Array;
	private readonly textAt: Int32Array;
	private readonly tables: MatrixTables;

	constructor(tables: MatrixTables) {
		this.tables = tables;
		this.styleAt = new Int32Array(tables.styles.length).fill(-1);
		this.textAt = new Int32Array(tables.texts.length).fill(-1);
	}

	style(index: number): number {
		let at = this.styleAt[index] ?? -1;
		if (at < 0) {
			at = this.styles.length;
			const style = this.tables.styles[index];
			const { state, abbreviation, tone } = style ?? {
				state: '',
				abbreviation: '',
				tone: 'unknown',
			};
			this.styles.push({ state, abbreviation, tone });
			this.styleAt[index] = at;
		}
		return at;
	}

	text(index: number): number {
		let at = this.textAt[index] ?? -1;
		if (at < 0) {
			at = this.texts.length;
			this.texts.push(this.tables.texts[index] ?? '');
			this.textAt[index] = at;
		}
		return at;
	}
}

/** The matrix as indexes and one number per cell. */
export function wireMatrixOf(matrix: RolloutMatrix): WireMatrix {
	const summaries = summariesOf(matrix);
	const tables = new TableWriter(matrix.tables);
	// Styles first, so the codes' base is known before the first code is written.
	for (const style of matrix.cellStyles) if (style >= 0) tables.style(style);
	const base = tables.styles.length + 1;
	const size = matrix.cellStyles.length;
	const codes = new Array<number>(size);
	for (let cell = 0; cell < size; cell++) {
		const style = matrix.cellStyles[cell] ?? -1;
		codes[cell] =
			style < 0 ? 0 : tables.text(matrix.cellTexts[cell] ?? 0) * base + tables.style(style) + 1;
	}
	const notReady: number[][] = [];
	for (const [cell, lines] of matrix.cellNotReady) {
		notReady.push([cell, ...lines.map((line) => tables.text(line))]);
	}
	const rows = matrix.rows.map((row, index): WireRow => ({
		label: row.label,
		heading: row.heading,
		summary: summaries.rows[index] ?? '',
		badness: summaries.rowBadness[index] ?? 0,
		fromSummary: matrix.rowCounts.has(index),
	}));
	const columns = matrix.columns.map((column, index): WireColumn => ({
		label: column.label,
		group: column.group,
		labels: column.labels,
		summary: summaries.columns[index] ?? '',
		badness: summaries.columnBadness[index] ?? 0,
	}));
	return {
		notice: matrix.notice,
		rows,
		columns,
		grid: { styles: tables.styles, texts: tables.texts, base, codes, notReady },
	};
}

/** Whether two builds have the same rows and columns in the same order (so an update can send cells only). */
export function sameShape(before: RolloutMatrix, after: RolloutMatrix): boolean {
	if (before.rows.length !== after.rows.length || before.columns.length !== after.columns.length) {
		return false;
	}
	if (before.notice !== after.notice || before.tables !== after.tables) return false;
	for (let index = 0; index < before.rows.length; index++) {
		const a = before.rows[index];
		const b = after.rows[index];
		if (a?.id !== b?.id || a?.label !== b?.label) return false;
	}
	for (let index = 0; index < before.columns.length; index++) {
		const a = before.columns[index];
		const b = after.columns[index];
		if (a?.id !== b?.id || a?.group !== b?.group) return false;
	}
	return true;
}

function sameLines(a: readonly number[] | undefined, b: readonly number[] | undefined): boolean {
	if (a === b) return true;
	if (!a || !b || a.length !== b.length) return false;
	return a.every((line, index) => line === b[index]);
}

/**
 * The cells that differ between two builds of the same shape (style -1 for a cell that is gone); undefined when none.
 * The builds share their tables, so equal indexes are equal cells.
 */
export function changedCells(before: RolloutMatrix, after: RolloutMatrix): WireCells | undefined {
	if (before === after) return undefined;
	const width = after.columns.length;
	const tables = new TableWriter(after.tables);
	const cells: WireCell[] = [];
	const add = (cell: number): void => {
		const style = after.cellStyles[cell] ?? -1;
		const row = Math.floor(cell / width);
		const column = cell - row * width;
		const lines = after.cellNotReady.get(cell) ?? [];
		cells.push(
			style < 0
				? [row, column, -1, tables.text(0), []]
				: [
						row,
						column,
						tables.style(style),
						tables.text(after.cellTexts[cell] ?? 0),
						lines.map((line) => tables.text(line)),
					],
		);
	};
	if (after.patched?.base === before.read) {
		// A patch of `before`: only the cells it replaced can differ.
		for (const cell of [...new Set(after.patched.cells)].sort((a, b) => a - b)) {
			if (
				after.cellStyles[cell] !== before.cellStyles[cell] ||
				after.cellTexts[cell] !== before.cellTexts[cell] ||
				!sameLines(after.cellNotReady.get(cell), before.cellNotReady.get(cell))
			) {
				add(cell);
			}
		}
		return cells.length === 0 ? undefined : { styles: tables.styles, texts: tables.texts, cells };
	}
	// The loop over every cell reads two arrays; the few cells with lines of resources are compared apart.
	const { cellStyles, cellTexts } = after;
	const { cellStyles: stylesBefore, cellTexts: textsBefore } = before;
	const withLines = new Set([...before.cellNotReady.keys(), ...after.cellNotReady.keys()]);
	for (let cell = 0; cell < cellStyles.length; cell++) {
		if (cellStyles[cell] !== stylesBefore[cell] || cellTexts[cell] !== textsBefore[cell]) {
			add(cell);
			withLines.delete(cell);
		}
	}
	for (const cell of [...withLines].sort((a, b) => a - b)) {
		if (!sameLines(after.cellNotReady.get(cell), before.cellNotReady.get(cell))) add(cell);
	}
	return cells.length === 0 ? undefined : { styles: tables.styles, texts: tables.texts, cells };
}
