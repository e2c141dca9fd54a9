import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { deleteManifest, eventually, extensionApi, findNode } from './support.ts';

/** A Flux HelmRepository whose Ready condition says `ready`, the FetchFailed transition four minutes before it. */
function helmRepository(name: string, ready: 'True' | 'False', message: string): string {
	const fetchFailed = ready === 'True' ? 'False' : 'True';
	const reason = ready === 'True' ? 'Succeeded' : 'IndexationFailed';
	return `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata: {name: ${name}, namespace: flux-system, generation: 1}
spec: {url: "https://charts.example.com"}
status:
  observedGeneration: 1
  conditions:
  - {type: Ready, status: "${ready}", reason: ${reason}, message: "${message}", lastTransitionTime: "2026-11-22T10:45:00Z"}
  - {type: FetchFailed, status: "${fetchFailed}", reason: ${reason}, message: "${message}", lastTransitionTime: "2026-11-22T10:41:00Z"}
`;
}

function folderUri(): vscode.Uri {
	const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
	assert.ok(folder, 'a workspace folder');
	return folder;
}

async function write(path: string, text: string): Promise<void> {
	await vscode.workspace.fs.writeFile(
		vscode.Uri.joinPath(folderUri(), path),
		new TextEncoder().encode(text),
	);
}

describe('what happened, and notice when it turns red', () => {
	const written: string[] = [];

	after(async () => {
		const api = await extensionApi();
		for (const path of written) {
			await deleteManifest(api, vscode.Uri.joinPath(folderUri(), path));
		}
	});

	it('explains a failing object with what happened, oldest first', async () => {
		const api = await extensionApi();
		written.push('timeline-charts.yaml');
		await write('timeline-charts.yaml', helmRepository('timeline-charts', 'False', 'index 404'));
		const node = await eventually('the new HelmRepository in the tree', () =>
			findNode(api, 'timeline-charts', 'object'),
		);
		const uri =
			(await vscode.commands.executeCommand<string>('kubeStatusLens.resource.explain', node.id)) ??
			'';
		const text = (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText();
		const section = text.slice(text.indexOf('## What happened, in order'));
		assert.ok(text.includes('## What happened, in order'), text);
		const fetchFailed = section.indexOf('`FetchFailed` became True');
		const ready = section.indexOf('`Ready` became False');
		assert.ok(fetchFailed >= 0 && ready > fetchFailed, section);
		assert.match(section, /\(\d+ days? ago\)/);
	});

	it('notifies once when a pinned object turns red, and not again while it stays red', async () => {
		const api = await extensionApi();
		written.push('notify-charts.yaml');
		await write('notify-charts.yaml', helmRepository('notify-charts', 'True', 'stored artifact'));
		const node = await eventually('the pinned HelmRepository, ready', () => {
			const found = findNode(api, 'notify-charts', 'object');
			return found?.tone === 'ok' && found;
		});
		const other = findNode(api, 'podinfo', 'object');
		assert.ok(other, 'another object of the workspace');
		await vscode.commands.executeCommand('kubeStatusLens.notify.pin', node.id);
		// Its row offers "Stop Notifying" now; the others still offer to notify (their menus follow contextValue).
		await eventually('the pinned row marked as pinned', () =>
			/:pinned$/.test(api.provider.getTreeItem(node.id).contextValue ?? '') ? true : undefined,
		);
		assert.doesNotMatch(api.provider.getTreeItem(other.id).contextValue ?? '', /:pinned/);
		// The row shows it (a bell before its state), and the list of every pin holds it.
		assert.match(String(api.provider.getTreeItem(node.id).description), /^🔔 /);
		assert.doesNotMatch(String(api.provider.getTreeItem(other.id).description), /🔔/);
		assert.ok(api.notifier.pinned().some((pin) => pin.node?.id === node.id));
		const before = api.notifier.notified.length;
		await write('notify-charts.yaml', helmRepository('notify-charts', 'False', 'index 404'));
		await eventually('one notification', () => api.notifier.notified.length > before);
		assert.equal(api.notifier.notified.length, before + 1);
		assert.match(
			api.notifier.notified[before]?.message ?? '',
			/HelmRepository flux-system\/notify-charts: Failed turned red/,
		);
		await write('notify-charts.yaml', helmRepository('notify-charts', 'False', 'index 500'));
		await eventually('the second failure read', () => {
			const found = findNode(api, 'notify-charts', 'object');
			return found?.result?.message === 'index 500';
		});
		api.notifier.flush();
		assert.equal(api.notifier.notified.length, before + 1, 'still red: no second notification');
		await vscode.commands.executeCommand('kubeStatusLens.notify.unpin', node.id);
		assert.doesNotMatch(api.provider.getTreeItem(node.id).contextValue ?? '', /:pinned/);
		assert.ok(!api.notifier.pinned().some((pin) => pin.node?.id === node.id));
	});
});
