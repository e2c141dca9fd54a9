import * as assert from 'node:assert/strict';
import Module from 'node:module';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/extension.ts';
import { eventually } from './support.ts';

function clusterClientLoaded(): boolean {
	const cache = (Module as unknown as { _cache: Record<string, unknown> })._cache;
	return Object.keys(cache).some((path) => /[\\/]dist[\\/]k8s\.cjs$/.test(path));
}

// Runs first in the main suite: activation loads only the view and the command registrations, the rest on first use.
describe('activation', () => {
	it('runs a command given right after activation, loading the rest on the way', async () => {
		const extension = vscode.extensions.getExtension<ExtensionApi>(
			'kube-status-lens.kube-status-lens',
		);
		assert.ok(extension, 'the extension is installed in the host');
		const api = await extension.activate();
		// Whether the cluster client was loaded at the moment the workspace tree was read.
		const clientLoadedWhenRead = api.ready().then(clusterClientLoaded);
		await vscode.commands.executeCommand('kubeStatusLens.tree.refresh');
		assert.ok(api.graph.objectCount() > 0, 'the refresh read the workspace');
		assert.ok(api.provider.getChildren(undefined).length > 0, 'the view lists the workspace root');
		// The client (dist/k8s.cjs) takes hundreds of ms to load on the thread that reads the workspace: it waits.
		assert.equal(await clientLoadedWhenRead, false, 'the cluster client loaded before the tree');
		await eventually('the cluster client to load for the live roots', clusterClientLoaded);
	});

	it("saves the engine's compiled code after the first tree, for the next start to read back", async () => {
		const extension = vscode.extensions.getExtension<ExtensionApi>(
			'kube-status-lens.kube-status-lens',
		);
		assert.ok(extension);
		const api = await extension.activate();
		// A fresh profile has no cache: this start loads the engine through the cache loader and writes it.
		assert.equal(await api.codeCache(), 'written');
	});
});
