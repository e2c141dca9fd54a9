import * as vscode from 'vscode';
import { mayHoldTargets, targetLensesOf } from '../../core/targeting/targetLenses.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';
import { readTargetInventorySetting } from '../settings.ts';
import { targetInventoriesOf } from './targetInventories.ts';

/**
 * "matches 3 clusters of fleet-mgmt: eu-1, eu-3, us-1" above each target of a GitRepo or HelmOp, each
 * targetCustomizations entry of a fleet.yaml and each BindingPolicy, against the clusters the tree holds
 * (the root chosen in kubeStatusLens.targeting.inventory, else src/core/targeting/targetLenses.ts chooses). A click
 * chooses the inventory.
 */
export class TargetCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
	private readonly emitter = new vscode.EventEmitter<void>();
	readonly onDidChangeCodeLenses = this.emitter.event;
	private readonly graph: ResourceGraph;
	private timer: ReturnType<typeof setTimeout> | undefined;
	private readonly settings: vscode.Disposable;

	constructor(graph: ResourceGraph) {
		this.graph = graph;
		this.settings = vscode.workspace.onDidChangeConfiguration((event) => {
			if (event.affectsConfiguration('kubeStatusLens.targeting')) this.emitter.fire();
		});
	}

	/** Called on graph changes; lenses refresh once things settle. */
	graphChanged(): void {
		clearTimeout(this.timer);
		this.timer = setTimeout(() => this.emitter.fire(), 500);
	}

	provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
		const text = document.getText();
		if (!mayHoldTargets(text)) return [];
		return targetLensesOf(
			text,
			document.uri.path,
			targetInventoriesOf(this.graph),
			readTargetInventorySetting(),
		).map(
			(lens) =>
				new vscode.CodeLens(new vscode.Range(lens.line, 0, lens.line, 0), {
					title: lens.title,
					tooltip: lens.tooltip,
					command: 'kubeStatusLens.targets.chooseInventory',
				}),
		);
	}

	dispose(): void {
		clearTimeout(this.timer);
		this.settings.dispose();
		this.emitter.dispose();
	}
}
