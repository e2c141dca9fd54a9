import * as vscode from 'vscode';
import { targetLensesOf, type TargetInventory } from '../../core/targeting/targetLenses.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';

/**
 * "matches 3 clusters of fleet-mgmt: eu-1, eu-3, us-1" above each target of a GitRepo or HelmOp, each
 * targetCustomizations entry of a fleet.yaml and each BindingPolicy, against the clusters the tree holds
 * (src/core/targeting/targetLenses.ts chooses the root). Text only: the lens opens nothing.
 */
export class TargetCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
	private readonly emitter = new vscode.EventEmitter<void>();
	readonly onDidChangeCodeLenses = this.emitter.event;
	private readonly graph: ResourceGraph;
	private timer: ReturnType<typeof setTimeout> | undefined;

	constructor(graph: ResourceGraph) {
		this.graph = graph;
	}

	/** Called on graph changes; lenses refresh once things settle. */
	graphChanged(): void {
		clearTimeout(this.timer);
		this.timer = setTimeout(() => this.emitter.fire(), 500);
	}

	provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
		const text = document.getText();
		// Only documents that can hold targets are read at all.
		if (!/\b(targets|targetCustomizations|clusterSelectors)\s*:/.test(text)) return [];
		const inventories: TargetInventory[] = this.graph
			.roots()
			.map((root) => ({ label: root.label, objects: this.graph.objectsOf(root.rootId) }));
		return targetLensesOf(text, document.uri.path, inventories).map(
			(lens) =>
				new vscode.CodeLens(new vscode.Range(lens.line, 0, lens.line, 0), {
					title: lens.title,
					tooltip: lens.tooltip,
					command: '',
				}),
		);
	}

	dispose(): void {
		clearTimeout(this.timer);
		this.emitter.dispose();
	}
}
