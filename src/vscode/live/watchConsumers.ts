import * as vscode from 'vscode';
import { mergeScheme } from '../mergePreview/mergePreviewProvider.ts';
import type { LiveStatusCodeLensProvider } from './liveCodeLens.ts';
import type { LiveFeed } from '../../live/liveFeed.ts';

/**
 * Registers what the watches run for: the visible tree or Needs Attention list, a visible editor with live
 * CodeLenses, a visible merge preview of a live workload, and whatever holds a consumer through the returned function
 * (an assistant's tool call, while it runs) until it disposes it. With none of them the sessions pause, whether or not
 * the window has focus (a focused window showing no live data would otherwise keep every watch running). The tree
 * showing is also what starts the work that activation defers.
 */
export function registerWatchConsumers(
	context: vscode.ExtensionContext,
	deps: {
		readonly view: vscode.TreeView<string>;
		readonly attentionView: vscode.TreeView<string>;
		readonly live: LiveFeed;
		readonly liveLenses: LiveStatusCodeLensProvider;
		readonly ensureStarted: () => Promise<void>;
		readonly refreshSummary: () => void;
	},
): (consumer: string) => vscode.Disposable {
	const { view, attentionView, live, liveLenses, ensureStarted, refreshSummary } = deps;
	/** Consumers held through the returned function, with how many holders each has now. */
	const held = new Map<string, number>();
	const updateConsumers = (): void => {
		live.setConsumers([...consumersNow(view, attentionView, liveLenses), ...held.keys()]);
		refreshSummary();
	};
	context.subscriptions.push(
		view.onDidChangeVisibility((event) => {
			if (event.visible) void ensureStarted();
			updateConsumers();
		}),
		attentionView.onDidChangeVisibility(() => updateConsumers()),
		vscode.window.onDidChangeVisibleTextEditors(() => updateConsumers()),
		liveLenses.onDidChangeUsage(() => updateConsumers()),
	);
	updateConsumers();
	if (view.visible) void ensureStarted();
	return (consumer) => {
		held.set(consumer, (held.get(consumer) ?? 0) + 1);
		updateConsumers();
		let released = false;
		return new vscode.Disposable(() => {
			if (released) return;
			released = true;
			const holders = (held.get(consumer) ?? 1) - 1;
			if (holders > 0) held.set(consumer, holders);
			else held.delete(consumer);
			updateConsumers();
		});
	};
}

/** The consumers there are now, by the names the status bar tooltip shows. */
function consumersNow(
	view: vscode.TreeView<string>,
	attentionView: vscode.TreeView<string>,
	liveLenses: LiveStatusCodeLensProvider,
): string[] {
	const consumers: string[] = [];
	if (view.visible) consumers.push('tree');
	if (attentionView.visible) consumers.push('Needs Attention');
	const editors = vscode.window.visibleTextEditors;
	if (editors.some((editor) => liveLenses.showsLive(editor.document.uri))) {
		consumers.push('live CodeLens');
	}
	if (editors.some((editor) => isLiveMergePreview(editor.document.uri))) {
		consumers.push('merge preview');
	}
	return consumers;
}

function isLiveMergePreview(uri: vscode.Uri): boolean {
	return (
		uri.scheme === mergeScheme &&
		new URLSearchParams(uri.query).get('root')?.startsWith('live:') === true
	);
}
