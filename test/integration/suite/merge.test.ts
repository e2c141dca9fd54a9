import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { deleteManifest, eventually, extensionApi } from './support.ts';

function fileUri(path: string): vscode.Uri {
	const folder = vscode.workspace.workspaceFolders?.[0];
	assert.ok(folder);
	return vscode.Uri.joinPath(folder.uri, path);
}

/** The CodeLenses of a file, as the editor would ask for them (the document must be open). */
async function codeLensesOf(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
	await vscode.workspace.openTextDocument(uri);
	return (
		(await vscode.commands.executeCommand<vscode.CodeLens[] | undefined>(
			'vscode.executeCodeLensProvider',
			uri,
		)) ?? []
	);
}

describe('the multi-WEC merge preview', () => {
	it('offers a CodeLens on the workload a BindingPolicy selects, and none on an unrelated Deployment', async () => {
		const api = await extensionApi();
		const lenses = await eventually('a merge CodeLens', async () => {
			const found = await codeLensesOf(fileUri('kubestellar/deployment.yaml'));
			return found.some((lens) => lens.command?.title.includes('Preview multi-WEC status merge'))
				? found
				: undefined;
		});
		assert.equal(
			lenses.filter((lens) => lens.command?.command === 'kubeStatusLens.merge.preview').length,
			1,
		);
		const unrelated = fileUri('unrelated-deployment.yaml');
		await vscode.workspace.fs.writeFile(
			unrelated,
			new TextEncoder().encode(
				'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: lonely\n  namespace: default\nspec:\n  replicas: 1\n',
			),
		);
		// The lenses depend on what the workspace holds: wait until the file watcher has read the new workload.
		await eventually('the unrelated workload read into the graph', () =>
			api.graph.objectOf('workspace', 'apps|Deployment|default|lonely'),
		);
		const none = await codeLensesOf(unrelated);
		assert.equal(
			none.filter((lens) => lens.command?.command === 'kubeStatusLens.merge.preview').length,
			0,
		);
		await deleteManifest(api, unrelated);
	});

	it('opens a read-only YAML preview with each field’s rule and WEC, the mode and what Argo CD will show', async () => {
		await extensionApi();
		const lenses = await codeLensesOf(fileUri('kubestellar/deployment.yaml'));
		const lens = lenses.find((entry) => entry.command?.command === 'kubeStatusLens.merge.preview');
		assert.ok(lens?.command);
		const uri = await vscode.commands.executeCommand<string>(
			lens.command.command,
			...((lens.command.arguments ?? []) as unknown[]),
		);
		const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
		assert.equal(document.languageId, 'yaml');
		const text = document.getText();
		assert.match(text, /# Mode: multi/);
		assert.match(text, /readyReplicas: 1 # decided by cluster3: the lowest value of the WECs/);
		assert.match(text, /# Argo CD health: Progressing/);
		assert.match(text, /# Per-WEC values:/);
	});

	it('diffs the current .status against the merged one', async () => {
		await extensionApi();
		const lenses = await codeLensesOf(fileUri('kubestellar/deployment.yaml'));
		const lens = lenses.find((entry) => entry.command?.command === 'kubeStatusLens.merge.preview');
		assert.ok(lens?.command);
		await vscode.commands.executeCommand(
			'kubeStatusLens.merge.diff',
			...((lens.command.arguments ?? []) as unknown[]),
		);
		const tab = await eventually('a diff tab', () => {
			const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
			return input instanceof vscode.TabInputTextDiff ? input : undefined;
		});
		assert.match(tab.original.query, /side=current/);
		assert.match(tab.modified.query, /side=merged-status/);
		// Both sides are a bare .status: no comment header against `status: {}`.
		const modified = await vscode.workspace.openTextDocument(tab.modified);
		assert.doesNotMatch(modified.getText(), /^#/m);
		assert.match(modified.getText(), /^status:\n {2}\w/);
		assert.equal(
			vscode.window.tabGroups.activeTabGroup.activeTab?.label,
			'Deployment nginx/nginx: no .status yet ↔ merged by the proposal',
		);
	});

	it('updates the open preview when a WEC reports a new status', async () => {
		await extensionApi();
		const lenses = await codeLensesOf(fileUri('kubestellar/deployment.yaml'));
		const lens = lenses.find((entry) => entry.command?.command === 'kubeStatusLens.merge.preview');
		assert.ok(lens?.command);
		const uri = await vscode.commands.executeCommand<string>(
			lens.command.command,
			...((lens.command.arguments ?? []) as unknown[]),
		);
		const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
		assert.match(document.getText(), /readyReplicas: 1/);
		const file = fileUri('kubestellar/its-workstatuses.yaml');
		const original = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
		const healed = original
			.replace(/readyReplicas: 1\b/g, 'readyReplicas: 2')
			.replace(/availableReplicas: 1\b/g, 'availableReplicas: 2');
		assert.notEqual(healed, original);
		await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(healed));
		try {
			await eventually('the preview to show 2 ready replicas', () =>
				/readyReplicas: 2 # the same in all 3 WECs/.test(document.getText()),
			);
		} finally {
			await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(original));
		}
	});
});

describe('the merge preview from picked files', () => {
	it('merges the workload, WorkStatus objects and policies of the files the user picks', async () => {
		await extensionApi();
		const files = [
			'kubestellar/deployment.yaml',
			'kubestellar/its-workstatuses.yaml',
			'kubestellar/bindingpolicy.yaml',
		].map(fileUri);
		const uri = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.merge.previewFromFiles',
			files,
			'kubestellar',
		);
		const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
		assert.match(document.getText(), /^# Rules: what the released KubeStellar controller writes$/m);
		assert.match(document.getText(), /# Mode: multi/);
		assert.match(document.getText(), /readyReplicas: 1/);
	});
});

describe('where targets go, above them in the editor (issue 31)', () => {
	it("says above a GitRepo's target which clusters of the workspace it matches", async () => {
		const lenses = await eventually('a targets CodeLens', async () => {
			const found = await codeLensesOf(fileUri('fleet/manifests/gitrepo.yaml'));
			return found.some((lens) => lens.command?.title.startsWith('matches ')) ? found : undefined;
		});
		const titles = lenses.map((lens) => lens.command?.title ?? '');
		assert.ok(
			titles.includes('matches 3 clusters of Workspace manifests: prod-eu-1, prod-us-1, staging-1'),
			titles.join('\n'),
		);
		const target = lenses.find((lens) => lens.command?.title.startsWith('matches '));
		// Above the target entry itself, not the object.
		assert.ok((target?.range.start.line ?? 0) > 0);
	});
});
