import * as vscode from 'vscode';
import type { TreeFilter } from '../../core/tree/filter.ts';
import { rowTextLimit, truncate } from '../../core/text/limits.ts';
import { visibleLine } from '../../core/text/visible.ts';

/** What a filter narrows the tree to, in words ("namespace harbor-dr, name contains "web", problems only"). */
export function filterSummary(filter: TreeFilter): string {
	const parts = [
		filter.namespace ? `namespace ${filter.namespace}` : '',
		filter.nameContains ? `name contains "${filter.nameContains}"` : '',
		filter.problemsOnly ? 'problems only' : '',
	].filter(Boolean);
	return visibleLine(truncate(parts.join(', '), rowTextLimit));
}

/** The one row of a tree whose filter hides everything: says so, and clears the filter on click. */
export function filterHidesAllItem(filter: TreeFilter): vscode.TreeItem {
	const textual = Boolean(filter.namespace) || Boolean(filter.nameContains);
	const item = new vscode.TreeItem(
		textual ? `No objects match ${filterSummary(filter)}` : 'No objects with problems',
	);
	item.description = 'Clear Filters';
	item.iconPath = new vscode.ThemeIcon('filter');
	item.tooltip =
		'Every object is hidden by the filter. Click to clear the filters and show all objects.';
	item.command = { command: 'kubeStatusLens.tree.clearFilters', title: 'Clear Filters' };
	item.contextValue = 'kubeStatusLens:filterHidesAll';
	return item;
}
