import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/extension.ts';

// Runs first in the main suite: activation loads only the view and the command registrations, the rest on first use.
describe('activation', () => {
	it('runs a command given right after activation, loading the rest on the way', async () => {
		const extension = vscode.extensions.getExtension<ExtensionApi>(
			'kube-status-lens.kube-status-lens',
		);
		assert.ok(extension, 'the extension is installed in the host');
		const api = await extension.activate();
		await vscode.commands.executeCommand('kubeStatusLens.tree.refresh');
		assert.ok(api.graph.objectCount() > 0, 'the refresh read the workspace');
		assert.ok(api.provider.getChildren(undefined).length > 0, 'the view lists the workspace root');
	});
});
