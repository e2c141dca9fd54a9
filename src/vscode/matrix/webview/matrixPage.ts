/// <reference lib="dom" />
// The rollout matrix page: runs inside the webview, draws only the cells in sight (rows and columns virtualised),
// and talks to the extension in the typed messages of matrixMessages.ts. Everything from the data is set as text.
import {
	toPanelMessage,
	type FromPanel,
	type WireCells,
	type WireColumn,
	type WireGrid,
	type WireRow,
	type WireStyle,
} from '../../../core/matrix/matrixMessages.ts';
import {
	columnSorts,
	orderColumns,
	orderRows,
	rowSorts,
	type ColumnSort,
	type RowSort,
} from '../../../core/matrix/matrixOrder.ts';

interface VsCodeApi {
	postMessage(message: unknown): void;
	getState(): unknown;
	setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

const rowHeight = 24;
const headerHeight = 56;
/** Cells are at least this wide (a Fleet abbreviation and its glyph) and share the free width up to the most. */
const minColumnWidth = 76;
const maxColumnWidth = 180;
const minRowHeaderWidth = 240;
/** Set by layout(): the widths that show the longest row label and state word uncut while the panel has room. */
let columnWidth = minColumnWidth;
let rowHeaderWidth = 340;
const measure = document.createElement('canvas').getContext('2d');

function textWidth(text: string, font: string): number {
	if (!measure) return text.length * 8;
	measure.font = font;
	return measure.measureText(text).width;
}

/**
 * Sizes the row headers to their longest label and summary (at most 45% of the panel, or 340 px in a narrow one) and
 * the columns to their
 * longest state word, then lets the columns share what width is left (up to maxColumnWidth), so that labels are cut
 * only when the panel has no room for them.
 */
function layout(): void {
	const style = getComputedStyle(document.body);
	const font = `${style.fontSize} ${style.fontFamily}`;
	const bold = `600 ${style.fontSize} ${style.fontFamily}`;
	let longestRow = 0;
	for (const row of rows) {
		longestRow = Math.max(longestRow, textWidth(row.label, bold) + textWidth(row.summary, font));
	}
	const available = grid.clientWidth || window.innerWidth;
	rowHeaderWidth = Math.round(
		Math.max(minRowHeaderWidth, Math.min(longestRow + 32, Math.max(340, available * 0.45))),
	);
	let longestWord = 0;
	for (const cellStyle of styles) {
		longestWord = Math.max(longestWord, textWidth(cellStyle.abbreviation, bold));
	}
	const wordWidth = Math.ceil(longestWord * 0.85 + 30);
	const share = columnOrder.length > 0 ? (available - rowHeaderWidth - 16) / columnOrder.length : 0;
	columnWidth = Math.floor(Math.max(minColumnWidth, wordWidth, Math.min(maxColumnWidth, share)));
	spacer.style.width = `${rowHeaderWidth + columnOrder.length * columnWidth}px`;
}

/** What the page keeps across hide and show (VS Code's webview state). */
interface PageState {
	columnSort: ColumnSort;
	rowSort: RowSort;
	filter: string;
	scrollTop: number;
	scrollLeft: number;
	activeRow: number;
	activeColumn: number;
}

function savedState(): PageState {
	const saved = vscode.getState();
	const fallback: PageState = {
		columnSort: 'group',
		rowSort: 'name',
		filter: '',
		scrollTop: 0,
		scrollLeft: 0,
		activeRow: -1,
		activeColumn: -1,
	};
	if (typeof saved !== 'object' || saved === null) return fallback;
	const record = saved as Record<string, unknown>;
	const number = (value: unknown, otherwise: number): number =>
		typeof value === 'number' && Number.isFinite(value) ? value : otherwise;
	return {
		columnSort: columnSorts.find((sort) => sort === record.columnSort) ?? 'group',
		rowSort: rowSorts.find((sort) => sort === record.rowSort) ?? 'name',
		filter: typeof record.filter === 'string' ? record.filter : '',
		scrollTop: number(record.scrollTop, 0),
		scrollLeft: number(record.scrollLeft, 0),
		activeRow: number(record.activeRow, -1),
		activeColumn: number(record.activeColumn, -1),
	};
}

const state = savedState();
let rows: WireRow[] = [];
let columns: WireColumn[] = [];
/** A cell as render reads it. */
interface PageCell {
	readonly state: string;
	readonly abbreviation: string;
	readonly tone: string;
	readonly message: string;
	readonly notReady: readonly string[];
}
/**
 * The cells, one slot per row and column (row * columns + column): an index into the page's styles (-1: nothing
 * deployed) and one into its texts; lines of resources not ready for the few cells that have them.
 */
let cellStyles = new Int32Array(0);
let cellTexts = new Int32Array(0);
const cellNotReady = new Map<number, readonly number[]>();
/** The styles and texts the cells point into; an update's own tables are added to them. */
let styles: WireStyle[] = [];
let texts: string[] = [];
const styleIndex = new Map<string, number>();
const textIndex = new Map<string, number>();
let rowOrder: number[] = [];
let columnOrder: number[] = [];
/** Where each row and column index sits in the order (-1: filtered out). */
let rowPlace = new Int32Array(0);
let columnPlace = new Int32Array(0);

function element<K extends keyof HTMLElementTagNameMap>(
	id: string,
	tag: K,
): HTMLElementTagNameMap[K] {
	const found = document.getElementById(id);
	if (!found || found.tagName.toLowerCase() !== tag) throw new Error(`missing #${id}`);
	return found as HTMLElementTagNameMap[K];
}

const title = element('title', 'h1');
const filterInput = element('filter', 'input');
const columnSortSelect = element('column-sort', 'select');
const rowSortSelect = element('row-sort', 'select');
const grid = element('grid', 'div');
const spacer = element('spacer', 'div');
const layer = element('layer', 'div');
const status = element('status', 'p');
const notice = element('notice', 'p');

filterInput.value = state.filter;
columnSortSelect.value = state.columnSort;
rowSortSelect.value = state.rowSort;

function post(message: FromPanel): void {
	vscode.postMessage(message);
}

function cellKey(row: number, column: number): number {
	return row * columns.length + column;
}

function cellOf(row: number, column: number): PageCell | undefined {
	const key = cellKey(row, column);
	const style = styles[cellStyles[key] ?? -1];
	if (!style) return undefined;
	return {
		state: style.state,
		abbreviation: style.abbreviation,
		tone: style.tone,
		message: texts[cellTexts[key] ?? 0] ?? '',
		notReady: (cellNotReady.get(key) ?? []).map((index) => texts[index] ?? ''),
	};
}

function reorder(): void {
	columnOrder = orderColumns(columns, state.columnSort, state.filter);
	rowOrder = orderRows(rows, state.rowSort);
	rowPlace = new Int32Array(rows.length).fill(-1);
	columnPlace = new Int32Array(columns.length).fill(-1);
	rowOrder.forEach((row, place) => (rowPlace[row] = place));
	columnOrder.forEach((column, place) => (columnPlace[column] = place));
	layout();
	spacer.style.height = `${headerHeight + rowOrder.length * rowHeight}px`;
	grid.setAttribute('aria-rowcount', String(rowOrder.length + 1));
	grid.setAttribute('aria-colcount', String(columnOrder.length + 1));
	status.textContent =
		columnOrder.length === columns.length
			? `${rows.length} rows, ${columns.length} clusters`
			: `${rows.length} rows, ${columnOrder.length} of ${columns.length} clusters (filtered)`;
}

function saveState(): void {
	vscode.setState(state);
}

let framePending = false;
/** Draws at most once per animation frame, however many updates and scroll events came in between. */
function scheduleRender(): void {
	if (framePending) return;
	framePending = true;
	requestAnimationFrame(() => {
		framePending = false;
		render();
	});
}

function describeCell(cell: PageCell | undefined, row: WireRow, column: WireColumn): string {
	const where = `${row.label} on ${column.label}`;
	if (!cell) {
		return row.fromSummary
			? `${where}: not named by the Bundle's status (counted in its row; BundleDeployments not listed)`
			: `${where}: not deployed`;
	}
	return `${cell.state}: ${where}`;
}

function tooltipOf(cell: PageCell | undefined, row: WireRow, column: WireColumn): string {
	const lines = [describeCell(cell, row, column)];
	if (cell) {
		if (cell.message) lines.push(cell.message);
		for (const line of cell.notReady) lines.push(`• ${line}`);
	}
	return lines.join('\n');
}

function box(
	className: string,
	text: string,
	left: number,
	top: number,
	width: number,
	height: number,
): HTMLDivElement {
	const div = document.createElement('div');
	div.className = className;
	div.textContent = text;
	div.style.left = `${left}px`;
	div.style.top = `${top}px`;
	div.style.width = `${width}px`;
	div.style.height = `${height}px`;
	return div;
}

function render(): void {
	const { scrollTop, scrollLeft, clientWidth, clientHeight } = grid;
	const firstRow = Math.max(0, Math.floor(scrollTop / rowHeight));
	const lastRow = Math.min(
		rowOrder.length,
		Math.ceil((scrollTop + clientHeight - headerHeight) / rowHeight) + 1,
	);
	const firstColumn = Math.max(0, Math.floor(scrollLeft / columnWidth));
	const lastColumn = Math.min(
		columnOrder.length,
		Math.ceil((scrollLeft + clientWidth - rowHeaderWidth) / columnWidth) + 1,
	);
	const fragment = document.createDocumentFragment();
	for (let place = firstRow; place < lastRow; place++) {
		const rowIndex = rowOrder[place] ?? 0;
		const row = rows[rowIndex];
		if (!row) continue;
		const top = headerHeight + place * rowHeight;
		const line = document.createElement('div');
		line.setAttribute('role', 'row');
		line.setAttribute('aria-rowindex', String(place + 2));
		const header = box(
			row.heading ? 'row-header heading' : 'row-header',
			'',
			scrollLeft,
			top,
			rowHeaderWidth,
			rowHeight,
		);
		header.setAttribute('role', 'rowheader');
		const label = document.createElement('span');
		label.className = 'label';
		label.textContent = row.label;
		const summary = document.createElement('span');
		summary.className = 'summary';
		summary.textContent = row.summary;
		header.append(label, summary);
		header.title = row.summary ? `${row.label}\n${row.summary}` : row.label;
		line.append(header);
		for (let columnPlaceAt = firstColumn; columnPlaceAt < lastColumn; columnPlaceAt++) {
			const columnIndex = columnOrder[columnPlaceAt] ?? 0;
			const column = columns[columnIndex];
			if (!column) continue;
			const cell = cellOf(rowIndex, columnIndex);
			const left = rowHeaderWidth + columnPlaceAt * columnWidth;
			const div = box(
				// A cell the targets do not reach is no state: no glyph, and quieter than an unknown one.
				`cell ${cell ? `tone-${cell.tone}${cell.state === 'not targeted' ? ' untargeted' : ''}` : 'empty'}`,
				cell ? cell.abbreviation : row.fromSummary ? '–' : '·',
				left,
				top,
				columnWidth,
				rowHeight,
			);
			div.id = `cell-${rowIndex}-${columnIndex}`;
			div.setAttribute('role', 'gridcell');
			div.setAttribute('aria-colindex', String(columnPlaceAt + 2));
			div.setAttribute('aria-label', describeCell(cell, row, column));
			div.title = tooltipOf(cell, row, column);
			div.dataset.row = String(rowIndex);
			div.dataset.column = String(columnIndex);
			if (rowIndex === state.activeRow && columnIndex === state.activeColumn) {
				div.classList.add('active');
				div.setAttribute('aria-selected', 'true');
			}
			line.append(div);
		}
		fragment.append(line);
	}
	const headerLine = document.createElement('div');
	headerLine.setAttribute('role', 'row');
	headerLine.setAttribute('aria-rowindex', '1');
	headerLine.append(box('corner', '', scrollLeft, scrollTop, rowHeaderWidth, headerHeight));
	for (let columnPlaceAt = firstColumn; columnPlaceAt < lastColumn; columnPlaceAt++) {
		const columnIndex = columnOrder[columnPlaceAt] ?? 0;
		const column = columns[columnIndex];
		if (!column) continue;
		const header = box(
			'column-header',
			'',
			rowHeaderWidth + columnPlaceAt * columnWidth,
			scrollTop,
			columnWidth,
			headerHeight,
		);
		header.setAttribute('role', 'columnheader');
		const group = document.createElement('span');
		group.className = 'group';
		group.textContent = column.group;
		const label = document.createElement('span');
		label.className = 'label';
		label.textContent = column.label.slice(column.label.indexOf('/') + 1);
		const summary = document.createElement('span');
		summary.className = 'summary';
		summary.textContent = column.summary;
		header.append(group, label, summary);
		const labelText = Object.entries(column.labels)
			.map(([key, value]) => `${key}=${value}`)
			.join(', ');
		header.title = [
			column.label,
			column.group ? `ClusterGroup ${column.group}` : '',
			column.summary,
			labelText,
		]
			.filter((line) => line !== '')
			.join('\n');
		headerLine.append(header);
	}
	fragment.append(headerLine);
	layer.replaceChildren(fragment);
	const active = document.getElementById(`cell-${state.activeRow}-${state.activeColumn}`);
	if (active) grid.setAttribute('aria-activedescendant', active.id);
	else grid.removeAttribute('aria-activedescendant');
}

/** Takes the whole grid: its tables become the page's, its codes the cells. */
function applyGrid(grid: WireGrid): void {
	styles = [...grid.styles];
	texts = [...grid.texts];
	styleIndex.clear();
	textIndex.clear();
	styles.forEach((style, index) => styleIndex.set(styleKey(style), index));
	texts.forEach((text, index) => textIndex.set(text, index));
	const size = grid.codes.length;
	cellStyles = new Int32Array(size);
	cellTexts = new Int32Array(size);
	for (let cell = 0; cell < size; cell++) {
		const code = grid.codes[cell] ?? 0;
		cellStyles[cell] = (code % grid.base) - 1;
		cellTexts[cell] = Math.floor(code / grid.base);
	}
	cellNotReady.clear();
	for (const [cell, ...lines] of grid.notReady) {
		if (cell !== undefined) cellNotReady.set(cell, lines);
	}
}

function styleKey(style: WireStyle): string {
	return `${style.tone}\u0000${style.abbreviation}\u0000${style.state}`;
}

function pageStyle(style: WireStyle): number {
	const key = styleKey(style);
	let index = styleIndex.get(key);
	if (index === undefined) {
		index = styles.length;
		styles.push(style);
		styleIndex.set(key, index);
	}
	return index;
}

function pageText(text: string): number {
	let index = textIndex.get(text);
	if (index === undefined) {
		index = texts.length;
		texts.push(text);
		textIndex.set(text, index);
	}
	return index;
}

/** Takes the cells of an update, its tables added to the page's. */
function applyCells({ styles: updateStyles, texts: updateTexts, cells: list }: WireCells): void {
	for (const [row, column, styleAt, message, notReady] of list) {
		if (row >= rows.length || column >= columns.length) continue;
		const key = cellKey(row, column);
		const style = updateStyles[styleAt];
		cellNotReady.delete(key);
		if (!style) {
			cellStyles[key] = -1;
			continue;
		}
		cellStyles[key] = pageStyle(style);
		cellTexts[key] = pageText(updateTexts[message] ?? '');
		if (notReady.length > 0) {
			cellNotReady.set(
				key,
				notReady.map((index) => pageText(updateTexts[index] ?? '')),
			);
		}
	}
}

function scrollIntoView(rowIndex: number, columnIndex: number): void {
	const top = headerHeight + (rowPlace[rowIndex] ?? 0) * rowHeight;
	const left = rowHeaderWidth + (columnPlace[columnIndex] ?? 0) * columnWidth;
	if (top - headerHeight < grid.scrollTop) grid.scrollTop = top - headerHeight;
	else if (top + rowHeight > grid.scrollTop + grid.clientHeight) {
		grid.scrollTop = top + rowHeight - grid.clientHeight;
	}
	if (left - rowHeaderWidth < grid.scrollLeft) grid.scrollLeft = left - rowHeaderWidth;
	else if (left + columnWidth > grid.scrollLeft + grid.clientWidth) {
		grid.scrollLeft = left + columnWidth - grid.clientWidth;
	}
}

function setActive(rowIndex: number, columnIndex: number): void {
	state.activeRow = rowIndex;
	state.activeColumn = columnIndex;
	scrollIntoView(rowIndex, columnIndex);
	saveState();
	scheduleRender();
	post({ type: 'selected', row: rowIndex, column: columnIndex });
}

/** Moves the active cell for a key; returns whether the key was one of ours. */
function move(key: string): boolean {
	if (rowOrder.length === 0 || columnOrder.length === 0) return false;
	let rowAt = Math.max(0, rowPlace[state.activeRow] ?? -1);
	let columnAt = Math.max(0, columnPlace[state.activeColumn] ?? -1);
	const started = state.activeRow >= 0 && (rowPlace[state.activeRow] ?? -1) >= 0;
	const page = Math.max(1, Math.floor((grid.clientHeight - headerHeight) / rowHeight) - 1);
	if (started) {
		switch (key) {
			case 'ArrowUp':
				rowAt--;
				break;
			case 'ArrowDown':
				rowAt++;
				break;
			case 'ArrowLeft':
				columnAt--;
				break;
			case 'ArrowRight':
				columnAt++;
				break;
			case 'PageUp':
				rowAt -= page;
				break;
			case 'PageDown':
				rowAt += page;
				break;
			case 'Home':
				columnAt = 0;
				break;
			case 'End':
				columnAt = columnOrder.length - 1;
				break;
			default:
				return false;
		}
	} else if (
		![
			'ArrowUp',
			'ArrowDown',
			'ArrowLeft',
			'ArrowRight',
			'Home',
			'End',
			'PageUp',
			'PageDown',
		].includes(key)
	) {
		return false;
	}
	rowAt = Math.min(rowOrder.length - 1, Math.max(0, rowAt));
	columnAt = Math.min(columnOrder.length - 1, Math.max(0, columnAt));
	setActive(rowOrder[rowAt] ?? 0, columnOrder[columnAt] ?? 0);
	return true;
}

function handleKey(key: string): boolean {
	if (key === 'Enter' && state.activeRow >= 0) {
		post({ type: 'explain', row: state.activeRow, column: state.activeColumn });
		return true;
	}
	if (key === ' ' && state.activeRow >= 0) {
		post({ type: 'reveal', row: state.activeRow, column: state.activeColumn });
		return true;
	}
	return move(key);
}

grid.addEventListener('keydown', (event) => {
	if (handleKey(event.key)) event.preventDefault();
});
grid.addEventListener('click', (event) => {
	const target = event.target instanceof HTMLElement ? event.target.closest('.cell') : null;
	if (!(target instanceof HTMLElement)) return;
	const row = Number(target.dataset.row);
	const column = Number(target.dataset.column);
	if (!Number.isInteger(row) || !Number.isInteger(column)) return;
	grid.focus();
	setActive(row, column);
	post({ type: 'reveal', row, column });
});
grid.addEventListener('scroll', () => {
	state.scrollTop = grid.scrollTop;
	state.scrollLeft = grid.scrollLeft;
	saveState();
	scheduleRender();
});
window.addEventListener('resize', () => {
	layout();
	scheduleRender();
});
filterInput.addEventListener('input', () => {
	state.filter = filterInput.value;
	saveState();
	reorder();
	scheduleRender();
});
columnSortSelect.addEventListener('change', () => {
	state.columnSort = columnSorts.find((sort) => sort === columnSortSelect.value) ?? 'group';
	saveState();
	reorder();
	scheduleRender();
});
rowSortSelect.addEventListener('change', () => {
	state.rowSort = rowSorts.find((sort) => sort === rowSortSelect.value) ?? 'name';
	saveState();
	reorder();
	scheduleRender();
});

let restoredScroll = false;
window.addEventListener('message', (event: MessageEvent<unknown>) => {
	const message = toPanelMessage(event.data);
	if (!message) return;
	switch (message.type) {
		case 'matrix':
			title.textContent = message.title;
			notice.textContent = message.notice;
			rows = [...message.rows];
			columns = [...message.columns];
			applyGrid(message.grid);
			reorder();
			if (!restoredScroll) {
				restoredScroll = true;
				grid.scrollTop = state.scrollTop;
				grid.scrollLeft = state.scrollLeft;
			}
			break;
		case 'cells':
			applyCells(message.cells);
			rows = rows.map((row, index) => ({
				...row,
				summary: message.rowSummaries[index] ?? row.summary,
				badness: message.rowBadness[index] ?? row.badness,
			}));
			columns = columns.map((column, index) => ({
				...column,
				summary: message.columnSummaries[index] ?? column.summary,
				badness: message.columnBadness[index] ?? column.badness,
			}));
			if (state.rowSort === 'problems' || state.columnSort === 'problems') reorder();
			break;
		case 'move':
			grid.focus();
			handleKey(message.key);
			break;
		case 'focus':
			state.filter = message.filter;
			filterInput.value = message.filter;
			reorder();
			if (message.row >= 0 && message.row < rows.length && columnOrder.length > 0) {
				setActive(message.row, columnOrder[0] ?? 0);
			}
			saveState();
			break;
	}
	scheduleRender();
});

post({ type: 'ready' });
