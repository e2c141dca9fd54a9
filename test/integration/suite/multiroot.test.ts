import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionApi, walk } from './support.ts';

describe('a multi-root workspace', () => {
	it('reads every folder into the one Workspace manifests root', async () => {
		assert.equal(vscode.workspace.workspaceFolders?.length, 2);
		const api = await extensionApi();
		const objects = walk(api).filter((node) => node.kind === 'object');
		assert.ok(
			objects.some((node) => node.ref?.kind === 'HelmRepository'),
			'Flux objects from team-flux',
		);
		assert.ok(
			objects.some((node) => node.ref?.kind === 'HarborCluster'),
			'Harbor objects from team-harbor',
		);
	});

	it('names the folder in each source, so a user knows which repo declared it', async () => {
		const api = await extensionApi();
		const harbor = walk(api).find((node) => node.ref?.kind === 'HarborCluster');
		assert.ok(harbor?.sources?.length);
		assert.match(harbor.sources[0]?.label ?? '', /^team-harbor\//);
	});

	it('lists one object declared in both folders once, with both sources', async () => {
		const api = await extensionApi();
		const folders = vscode.workspace.workspaceFolders ?? [];
		const copy =
			'apiVersion: goharbor.io/v1beta1\nkind: HarborCluster\nmetadata:\n  name: shared\n  namespace: shared\n';
		for (const folder of folders) {
			await vscode.workspace.fs.writeFile(
				vscode.Uri.joinPath(folder.uri, 'shared.yaml'),
				new TextEncoder().encode(copy),
			);
		}
		const until = Date.now() + 20_000;
		let nodes = walk(api).filter((node) => node.ref?.name === 'shared' && node.kind === 'object');
		while ((nodes.length === 0 || (nodes[0]?.sources?.length ?? 0) < 2) && Date.now() < until) {
			await new Promise((resolve) => setTimeout(resolve, 100));
			nodes = walk(api).filter((node) => node.ref?.name === 'shared' && node.kind === 'object');
		}
		assert.equal(nodes.length, 1);
		assert.equal(nodes[0]?.sources?.length, 2);
	});
});
