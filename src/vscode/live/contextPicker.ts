import * as vscode from 'vscode';
import type { LiveFeed } from '../../live/liveFeed.ts';

/**
 * Registers Choose Contexts (which kube contexts the tree shows), and restarts the sessions whenever the clusters
 * settings change, whether that command or the user changed them.
 */
export function registerContextPicker(context: vscode.ExtensionContext, live: LiveFeed): void {
	context.subscriptions.push(
		vscode.commands.registerCommand('kubeStatusLens.clusters.chooseContexts', () =>
			chooseContextsCommand(live),
		),
		vscode.workspace.onDidChangeConfiguration((event) => {
			if (event.affectsConfiguration('kubeStatusLens.clusters')) void live.restart();
		}),
	);
}

async function chooseContextsCommand(live: LiveFeed): Promise<void> {
	const { contexts, current } = await live.availableContexts();
	if (contexts.length === 0) {
		void vscode.window.showInformationMessage('The kubeconfig defines no context.');
		return;
	}
	const chosen =
		vscode.workspace.getConfiguration('kubeStatusLens.clusters').get<string[]>('contexts') ?? [];
	const picked = await vscode.window.showQuickPick(
		contexts.map((context) => ({
			label: context,
			description: context === current ? 'current context' : '',
			picked: chosen.length ? chosen.includes(context) : context === current,
		})),
		{ canPickMany: true, placeHolder: 'Kube contexts to show in the tree' },
	);
	if (!picked) return;
	await vscode.workspace.getConfiguration('kubeStatusLens.clusters').update(
		'contexts',
		picked.map((item) => item.label),
		vscode.ConfigurationTarget.Global,
	);
}
