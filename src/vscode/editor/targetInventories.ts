import * as vscode from 'vscode';
import { getString } from '../../core/model/object.ts';
import type { TargetInventory } from '../../core/targeting/targetLenses.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';
import { readTargetInventorySetting } from '../settings.ts';

/** Every root of the tree as an inventory of clusters targets can be matched against. */
export function targetInventoriesOf(graph: ResourceGraph): TargetInventory[] {
	return graph
		.roots()
		.map((root) => ({ label: root.label, objects: graph.objectsOf(root.rootId) }));
}

function clusterCounts(inventory: TargetInventory): { fleet: number; managed: number } {
	let fleet = 0;
	let managed = 0;
	for (const object of inventory.objects) {
		const kind = getString(object, 'kind');
		const apiVersion = getString(object, 'apiVersion') ?? '';
		if (kind === 'Cluster' && apiVersion.startsWith('fleet.cattle.io/')) fleet++;
		if (kind === 'ManagedCluster') managed++;
	}
	return { fleet, managed };
}

interface InventoryItem extends vscode.QuickPickItem {
	readonly value: string;
}

/**
 * "Choose Target Inventory…": which root's clusters the targeting lenses and diagnostics match against, written to
 * kubeStatusLens.targeting.inventory (the workspace's setting when a folder is open).
 */
export function registerChooseTargetInventory(
	context: vscode.ExtensionContext,
	graph: ResourceGraph,
): void {
	context.subscriptions.push(
		vscode.commands.registerCommand('kubeStatusLens.targets.chooseInventory', async () => {
			const current = readTargetInventorySetting();
			const items: InventoryItem[] = [
				{
					label: 'Automatic',
					...(current === undefined ? { description: 'current' } : {}),
					detail: 'The root with the most clusters of the kind a target needs',
					value: '',
				},
			];
			for (const inventory of targetInventoriesOf(graph)) {
				const { fleet, managed } = clusterCounts(inventory);
				if (fleet + managed === 0) continue;
				const counts = [
					fleet > 0 ? `${fleet} Fleet Cluster${fleet === 1 ? '' : 's'}` : undefined,
					managed > 0 ? `${managed} ManagedCluster${managed === 1 ? '' : 's'}` : undefined,
				].filter((part) => part !== undefined);
				items.push({
					label: inventory.label,
					...(inventory.label === current ? { description: 'current' } : {}),
					detail: counts.join(', '),
					value: inventory.label,
				});
			}
			if (items.length === 1) {
				void vscode.window.showInformationMessage(
					'No root of the Kube Status Lens tree holds a Fleet Cluster or a ManagedCluster yet: connect a context, open a fleet dump or add cluster manifests to the workspace.',
				);
				return;
			}
			const picked = await vscode.window.showQuickPick(items, {
				title: 'Match targets against the clusters of…',
				placeHolder: 'The inventory for the targeting CodeLenses and diagnostics',
			});
			if (!picked) return;
			const target =
				vscode.workspace.workspaceFolders === undefined
					? vscode.ConfigurationTarget.Global
					: vscode.ConfigurationTarget.Workspace;
			await vscode.workspace
				.getConfiguration('kubeStatusLens.targeting')
				.update('inventory', picked.value === '' ? undefined : picked.value, target);
		}),
	);
}
