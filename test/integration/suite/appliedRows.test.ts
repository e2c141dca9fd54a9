import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, extensionApi, walk } from './support.ts';

describe('applied-resource rows and Read-from links', () => {
	it('offers a modified resource under a BundleDeployment the patch Fleet recorded, as a read-only document', async () => {
		const api = await extensionApi();
		const modified = walk(api, 12).find(
			(node) =>
				node.kind === 'resource' &&
				node.ref?.kind === 'ConfigMap' &&
				node.ref.name === 'frontend-config' &&
				node.description === 'modified',
		);
		assert.ok(modified, 'the modified ConfigMap row under a BundleDeployment');
		const item = api.provider.getTreeItem(modified.id);
		assert.equal(item.contextValue, 'kubeStatusLensNode:resource:file:modified');
		const sibling = api.graph
			.children(modified.parentId)
			.find((node) => node.id !== modified.id && node.kind === 'resource');
		assert.ok(sibling);
		assert.doesNotMatch(
			String(api.provider.getTreeItem(sibling.id).contextValue),
			/:modified$/,
			'only the modified row offers the patch',
		);
		const uri = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.resource.showRecordedPatch',
			modified.id,
		);
		assert.ok(uri, 'a document opened');
		const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
		assert.equal(document.uri.scheme, 'kube-status-lens-view', 'read-only: served, not a file');
		assert.equal(document.languageId, 'json');
		assert.equal(document.getText(), '{\n  "data": {\n    "LOG_LEVEL": "debug"\n  }\n}\n');
		// A file's rows are not read from any cluster: their words stay the controller's.
		assert.equal(item.description, 'modified');
	});

	it("makes a tooltip's Read-from line a link through the extension's own command, whose argument is a token", async () => {
		const api = await extensionApi();
		const node = walk(api).find(
			(found) => found.kind === 'object' && /private-charts/.test(found.label),
		);
		assert.ok(node?.sources?.[0]?.line !== undefined, 'private-charts, read from a file');
		const item = api.provider.getTreeItem(node.id);
		const tooltip = api.provider.resolveTreeItem(item, node.id).tooltip as vscode.MarkdownString;
		assert.deepEqual(tooltip.isTrusted, { enabledCommands: ['kubeStatusLens.readFrom.open'] });
		const link = /\]\(command:kubeStatusLens\.readFrom\.open\?([^)]+)\)/.exec(tooltip.value);
		assert.ok(link?.[1], tooltip.value);
		const args = JSON.parse(decodeURIComponent(link[1])) as unknown[];
		assert.equal(args.length, 1);
		assert.match(String(args[0]), /^r\d+$/, 'an opaque token, not a name or path from the data');
		const opened = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.readFrom.open',
			...args,
		);
		const source = node.sources[0];
		assert.equal(opened, `${source.sourceId}#${(source.line ?? 0) + 1}`);
		const editor = vscode.window.activeTextEditor;
		assert.equal(editor?.document.uri.toString(), source.sourceId);
		assert.equal(editor.selection.active.line, source.line);
		// A token the extension never made opens nothing.
		assert.equal(
			await vscode.commands.executeCommand('kubeStatusLens.readFrom.open', 'file:///etc/passwd'),
			undefined,
		);
	});

	it("links Explain's chain items to the objects, through keys of the extension's own, and follows them to the tree", async () => {
		const api = await extensionApi();
		const gitRepo = walk(api).find(
			(node) => node.kind === 'object' && node.ref?.kind === 'GitRepo' && node.tone === 'error',
		);
		assert.ok(gitRepo, 'a failing GitRepo');
		const uri = vscode.Uri.parse(
			await vscode.commands.executeCommand<string>('kubeStatusLens.resource.explain', gitRepo.id),
		);
		const text = (await vscode.workspace.openTextDocument(uri)).getText();
		const links = [...text.matchAll(/^\d+\. \*\*\[([^\]]+)\]\(([^)]+)\)\*\*/gm)];
		assert.ok(links.length >= 2, text);
		for (const [, , target] of links) assert.match(target ?? '', /^Explain%20.+%20%23s\d+\.md$/);
		// What the Markdown preview does with a relative link: the document's folder joined with the decoded path.
		const [, title, target] = links[1] ?? [];
		const followed = uri.with({ path: `/${decodeURIComponent(target ?? '')}` });
		const step = (await vscode.workspace.openTextDocument(followed)).getText();
		assert.ok(step.startsWith(`# ${title ?? ''}`), step.slice(0, 200));
		const revealed = await eventually('the chain item to be revealed in the tree', () =>
			api.view.selection
				.map((id) => api.graph.node(id))
				.find((node) => node && node.id !== gitRepo.id),
		);
		assert.ok(
			step.startsWith(`# ${revealed.ref?.kind ?? ''} `),
			`${revealed.label} is the item followed`,
		);
		// The tab names the object followed, not a key.
		assert.match(
			followed.path,
			new RegExp(`^/Explain ${revealed.ref?.kind ?? ''} ${revealed.label} #s\\d+\\.md$`),
		);
		const stale = uri.with({ path: '/Explain Bundle gone #s999999.md' });
		assert.match(
			(await vscode.workspace.openTextDocument(stale)).getText(),
			/^# This link is out of date/,
		);
	});
});
