// Rows that say what their object waits for, with the inline action that goes there, and rows of objects being
// deleted, on the example workspace (examples/workspace/flux/dependencies.yaml, aso/dump.yaml).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, extensionApi, walk } from './support.ts';

describe('rows that wait and rows being deleted', () => {
	it('says "waiting for" on a Kustomization that waits for another, and the row\'s action selects that one', async () => {
		const api = await extensionApi();
		const apps = walk(api).find(
			(node) =>
				node.kind === 'object' && node.ref?.kind === 'Kustomization' && node.ref.name === 'apps',
		);
		assert.ok(apps, 'the Kustomization apps is in the tree');
		const item = api.provider.getTreeItem(apps.id);
		assert.match(String(item.description), /^waiting for infra · Failed\b/);
		// The row's contextValue shows the inline action, as package.json's `when` clause reads it.
		const menus = (
			vscode.extensions.getExtension('kube-status-lens.kube-status-lens')?.packageJSON as {
				contributes: {
					menus: Record<string, { command: string; when?: string; group?: string }[]>;
				};
			}
		).contributes.menus['view/item/context'];
		const action = menus?.find((entry) => entry.command === 'kubeStatusLens.tree.goToWaitedFor');
		assert.ok(action, 'Go to What It Waits For is in the row menus');
		assert.ok(action.group?.startsWith('inline'), 'Go to What It Waits For is an inline action');
		const pattern = /viewItem =~ \/(.*?)\/(?: |$)/.exec(action.when ?? '')?.[1];
		assert.ok(pattern);
		assert.match(item.contextValue ?? '', new RegExp(pattern));
		const resolved = api.provider.resolveTreeItem(item, apps.id);
		assert.match(
			(resolved.tooltip as vscode.MarkdownString).value,
			/Waiting for Kustomization flux\\-system\/infra/,
		);
		await vscode.commands.executeCommand('kubeStatusLens.resources.focus');
		await eventually('the view to be visible', () => api.view.visible);
		const revealed = await vscode.commands.executeCommand<string | undefined>(
			'kubeStatusLens.tree.goToWaitedFor',
			apps.id,
		);
		const target = api.graph.node(revealed ?? '');
		assert.equal(target?.ref?.kind, 'Kustomization');
		assert.equal(target?.ref?.name, 'infra');
		assert.equal(target?.rootId, apps.rootId);
		const selected = await eventually(
			`infra to be selected (selection: ${JSON.stringify(api.view.selection)})`,
			() => api.view.selection[0] === revealed && revealed,
		);
		assert.equal(selected, revealed);
	});

	it('answers a row that waits on nothing, rather than going anywhere', async () => {
		const api = await extensionApi();
		const ready = walk(api).find((node) => node.kind === 'object' && node.tone === 'ok');
		assert.ok(ready);
		assert.doesNotMatch(api.provider.getTreeItem(ready.id).contextValue ?? '', /:waiting/);
		const revealed = await vscode.commands.executeCommand<string | undefined>(
			'kubeStatusLens.tree.goToWaitedFor',
			ready.id,
		);
		assert.equal(revealed, undefined);
	});

	it('names an owner that is not there as missing, and the action stays where it is', async () => {
		const api = await extensionApi();
		const server = walk(api).find(
			(node) => node.kind === 'object' && node.ref?.name === 'orders-db',
		);
		assert.ok(server, 'the FlexibleServer orders-db is in the tree');
		const item = api.provider.getTreeItem(server.id);
		assert.match(
			String(item.description),
			/^waiting for team-a-rg \(ResourceGroup, missing\) · WaitingForOwner/,
		);
		const before = api.view.selection[0];
		const revealed = await vscode.commands.executeCommand<string | undefined>(
			'kubeStatusLens.tree.goToWaitedFor',
			server.id,
		);
		assert.equal(revealed, undefined);
		assert.equal(api.view.selection[0], before);
	});

	it('keeps the state word of an object being deleted and adds how long and its finalizers', async () => {
		const api = await extensionApi();
		const vault = walk(api).find(
			(node) => node.kind === 'object' && node.ref?.name === 'old-vault',
		);
		assert.ok(vault, 'the Vault old-vault is in the tree');
		const item = api.provider.getTreeItem(vault.id);
		assert.match(
			String(item.description),
			/^Deleting for \d+ days? · finalizers: serviceoperator\.azure\.com\/finalizer/,
		);
		const tooltip = (api.provider.resolveTreeItem(item, vault.id).tooltip as vscode.MarkdownString)
			.value;
		assert.match(
			tooltip.replaceAll('\\', ''),
			/Terminating \d+ days? · finalizers: serviceoperator\.azure\.com\/finalizer/,
		);
	});
});
