// How the rollout matrix is ordered and filtered: pure functions over plain data, shared by the extension and the
// panel's own script (which bundles this file and nothing else of the core).

/** What ordering and filtering read of a column. */
export interface OrderedColumn {
	readonly label: string;
	readonly group: string;
	readonly labels: Readonly<Record<string, string>>;
	/** How bad its cells are: higher first when sorting by problems. */
	readonly badness: number;
}

/** What ordering reads of a row. */
export interface OrderedRow {
	readonly label: string;
	readonly heading: boolean;
	readonly badness: number;
}

export type ColumnSort = 'group' | 'name' | 'problems';
export type RowSort = 'name' | 'problems';

export const columnSorts: readonly ColumnSort[] = ['group', 'name', 'problems'];
export const rowSorts: readonly RowSort[] = ['name', 'problems'];

function compareText(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A label filter as a predicate: terms separated by commas, each `key=value`, `key!=value`, `key` (has the label) or
 * `!key`; a term that is none of these matches the column's name or group as text. Empty matches everything.
 */
export function labelFilterOf(
	text: string,
): (column: Pick<OrderedColumn, 'label' | 'group' | 'labels'>) => boolean {
	const terms = text
		.split(',')
		.map((term) => term.trim())
		.filter((term) => term !== '');
	const tests = terms.map(
		(term): ((column: Pick<OrderedColumn, 'label' | 'group' | 'labels'>) => boolean) => {
			const notEqual = term.indexOf('!=');
			if (notEqual > 0) {
				const key = term.slice(0, notEqual).trim();
				const value = term.slice(notEqual + 2).trim();
				return (column) => !Object.hasOwn(column.labels, key) || column.labels[key] !== value;
			}
			const equal = term.indexOf('=');
			if (equal > 0) {
				const key = term.slice(0, equal).trim();
				const value = term
					.slice(equal + 1)
					.replace(/^=/, '')
					.trim();
				return (column) => Object.hasOwn(column.labels, key) && column.labels[key] === value;
			}
			if (term.startsWith('!')) {
				const key = term.slice(1).trim();
				return (column) => !Object.hasOwn(column.labels, key);
			}
			const lower = term.toLowerCase();
			return (column) =>
				Object.hasOwn(column.labels, term) ||
				column.label.toLowerCase().includes(lower) ||
				column.group.toLowerCase().includes(lower);
		},
	);
	return (column) => tests.every((matches) => matches(column));
}

/** The indexes of the columns a filter keeps, in the order a sort asks for. */
export function orderColumns(
	columns: readonly OrderedColumn[],
	sort: ColumnSort,
	filter: string,
): number[] {
	const keeps = labelFilterOf(filter);
	const kept: number[] = [];
	for (let index = 0; index < columns.length; index++) {
		const column = columns[index];
		if (column && keeps(column)) kept.push(index);
	}
	const at = (index: number): OrderedColumn => columns[index] as OrderedColumn;
	const byName = (a: number, b: number): number => compareText(at(a).label, at(b).label);
	if (sort === 'name') return kept.sort(byName);
	if (sort === 'problems') {
		return kept.sort((a, b) => at(b).badness - at(a).badness || byName(a, b));
	}
	// Grouped: by ClusterGroup, clusters of no group last.
	return kept.sort((a, b) => {
		const groupA = at(a).group;
		const groupB = at(b).group;
		if (groupA !== groupB) {
			if (groupA === '') return 1;
			if (groupB === '') return -1;
			return compareText(groupA, groupB);
		}
		return byName(a, b);
	});
}

/** The indexes of the rows in the order a sort asks for: headings keep their place, rows move within their heading. */
export function orderRows(rows: readonly OrderedRow[], sort: RowSort): number[] {
	const order: number[] = [];
	let block: number[] = [];
	const at = (index: number): OrderedRow => rows[index] as OrderedRow;
	const flush = (): void => {
		block.sort(
			sort === 'problems'
				? (a, b) => at(b).badness - at(a).badness || compareText(at(a).label, at(b).label)
				: (a, b) => compareText(at(a).label, at(b).label),
		);
		for (const index of block) order.push(index);
		block = [];
	};
	for (let index = 0; index < rows.length; index++) {
		if (at(index).heading) {
			flush();
			order.push(index);
		} else block.push(index);
	}
	flush();
	return order;
}
