import * as vscode from 'vscode';
import type { ResourceGraph } from '../../core/tree/model.ts';
import { ManifestDiagnostics } from '../diagnostics/manifestDiagnostics.ts';
import { QuickFixProvider } from '../diagnostics/quickFixProvider.ts';
import { ManifestHoverProvider } from '../hovers/manifestHoverProvider.ts';
import { LiveStatusCodeLensProvider, liveStatusLookup } from '../live/liveCodeLens.ts';
import { TargetCodeLensProvider } from './targetCodeLens.ts';
import { registerChooseTargetInventory } from './targetInventories.ts';
import type { LiveFeed } from '../../live/liveFeed.ts';

/**
 * Registers the features of YAML editors: diagnostics, quick fixes, hovers and live-status CodeLenses. Returns the
 * CodeLens provider, which uses the watches and refreshes when the graph changes, and the diagnostics.
 */
export function registerEditorFeatures(
	context: vscode.ExtensionContext,
	deps: { readonly graph: ResourceGraph; readonly live: LiveFeed },
): {
	readonly liveLenses: LiveStatusCodeLensProvider;
	readonly targetLenses: TargetCodeLensProvider;
	readonly diagnostics: ManifestDiagnostics;
} {
	const { graph, live } = deps;
	// They work on open YAML documents alone: no cluster, no workspace scan needed (untrusted too).
	const diagnostics = new ManifestDiagnostics(graph);
	const liveLenses = new LiveStatusCodeLensProvider(graph, live);
	const targetLenses = new TargetCodeLensProvider(graph);
	registerChooseTargetInventory(context, graph);
	context.subscriptions.push(
		targetLenses,
		vscode.languages.registerCodeLensProvider({ language: 'yaml' }, targetLenses),
		diagnostics,
		vscode.languages.registerHoverProvider(
			{ language: 'yaml' },
			new ManifestHoverProvider(liveStatusLookup(graph, live)),
		),
		liveLenses,
		vscode.languages.registerCodeLensProvider({ language: 'yaml' }, liveLenses),
		vscode.languages.registerCodeActionsProvider(
			{ language: 'yaml' },
			new QuickFixProvider(diagnostics),
			QuickFixProvider.metadata,
		),
	);
	return { liveLenses, targetLenses, diagnostics };
}
