// The rollout matrix as the panel receives it: rows and columns by index, cells as short tuples, and what changed
// between two builds (the cells, and every summary) so an update sends a few cells rather than the whole grid.
import type { WireCell, WireCells, WireColumn, WireRow, WireStyle } from './matrixMessages.ts';
import { summariesOf, type MatrixCell, type RolloutMatrix } from './rolloutMatrix.ts';
import { toneRank } from '../status/result.ts';

/** The whole matrix for the panel. */
export interface WireMatrix {
	readonly rows: readonly WireRow[];
	readonly columns: readonly WireColumn[];
	readonly cells: WireCells;
}

/** Collects cells with their styles and texts, each table entry once. */
class CellWriter {
	private readonly styles: WireStyle[] = [];
	private readonly texts: string[] = [];
	private readonly styleIndex = new Map<string, number>();
	private readonly textIndex = new Map<string, number>();
	private readonly cells: WireCell[] = [];

	private text(value: string): number {
		let index = this.textIndex.get(value);
		if (index === undefined) {
			index = this.texts.length;
			this.texts.push(value);
			this.textIndex.set(value, index);
		}
		return index;
	}

	private style(cell: MatrixCell): number {
		const key = `${cell.tone}\u0000${cell.abbreviation}\u0000${cell.state}`;
		let index = this.styleIndex.get(key);
		if (index === undefined) {
			index = this.styles.length;
			this.styles.push({ state: cell.state, abbreviation: cell.abbreviation, tone: cell.tone });
			this.styleIndex.set(key, index);
		}
		return index;
	}

	add(row: number, column: number, cell: MatrixCell): void {
		this.cells.push([
			row,
			column,
			this.style(cell),
			this.text(cell.message),
			cell.notReady.map((line) => this.text(line)),
		]);
	}

	remove(row: number, column: number): void {
		this.cells.push([row, column, -1, this.text(''), []]);
	}

	get count(): number {
		return this.cells.length;
	}

	done(): WireCells {
		return { styles: this.styles, texts: this.texts, cells: this.cells };
	}
}

/** How bad a tone is for sorting by problems: one error outweighs any number of warnings in practice. */
function badnessOf(cell: MatrixCell): number {
	return 10 ** toneRank(cell.tone) - 1;
}

/** The matrix as indexes and tuples. */
export function wireMatrixOf(matrix: RolloutMatrix): WireMatrix {
	const summaries = summariesOf(matrix);
	const columnIndex = new Map<string, number>();
	matrix.columns.forEach((column, index) => columnIndex.set(column.id, index));
	const columnBadness = new Float64Array(matrix.columns.length);
	const cells = new CellWriter();
	const rows = matrix.rows.map((row, rowIndex): WireRow => {
		let badness = 0;
		for (const [columnId, cell] of matrix.cells.get(row.id) ?? []) {
			const column = columnIndex.get(columnId);
			if (column === undefined) continue;
			cells.add(rowIndex, column, cell);
			badness += badnessOf(cell);
			columnBadness[column] = (columnBadness[column] ?? 0) + badnessOf(cell);
		}
		return {
			label: row.label,
			heading: row.heading,
			summary: summaries.rows.get(row.id) ?? '',
			badness,
		};
	});
	const columns = matrix.columns.map((column, index): WireColumn => ({
		label: column.label,
		group: column.group,
		labels: column.labels,
		summary: summaries.columns.get(column.id) ?? '',
		badness: columnBadness[index] ?? 0,
	}));
	return { rows, columns, cells: cells.done() };
}

/** Whether two builds have the same rows and columns in the same order (so an update can send cells only). */
export function sameShape(before: RolloutMatrix, after: RolloutMatrix): boolean {
	if (before.rows.length !== after.rows.length || before.columns.length !== after.columns.length) {
		return false;
	}
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

function sameCell(a: MatrixCell, b: MatrixCell): boolean {
	return (
		a === b ||
		(a.state === b.state &&
			a.tone === b.tone &&
			a.message === b.message &&
			a.notReady.length === b.notReady.length &&
			a.notReady.every((line, index) => line === b.notReady[index]))
	);
}

/** The cells that differ between two builds of the same shape (style -1 for a cell that is gone); undefined when none. */
export function changedCells(before: RolloutMatrix, after: RolloutMatrix): WireCells | undefined {
	const columnIndex = new Map<string, number>();
	after.columns.forEach((column, index) => columnIndex.set(column.id, index));
	const changed = new CellWriter();
	after.rows.forEach((row, rowIndex) => {
		const old = before.cells.get(row.id);
		const now = after.cells.get(row.id);
		if (old === now) return;
		for (const [columnId, cell] of now ?? []) {
			const previous = old?.get(columnId);
			const column = columnIndex.get(columnId);
			if (column === undefined || (previous && sameCell(previous, cell))) continue;
			changed.add(rowIndex, column, cell);
		}
		for (const columnId of old?.keys() ?? []) {
			const column = columnIndex.get(columnId);
			if (column !== undefined && !now?.has(columnId)) {
				changed.remove(rowIndex, column);
			}
		}
	});
	return changed.count === 0 ? undefined : changed.done();
}
