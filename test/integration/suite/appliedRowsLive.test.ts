import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TreeNode } from '../../../src/core/tree/treeNode.ts';
import { demoRequest, eventually, extensionApi, walk } from './support.ts';

type Api = Awaited<ReturnType<typeof extensionApi>>;

/** The body of a request to a context of the demo cluster. */
async function demoBody(
	context: string,
	method: string,
	path: string,
	body?: unknown,
): Promise<string> {
	return (await demoRequest(context, method, path, body)).body;
}

function liveObject(api: Api, context: string, kind: string, name: string): TreeNode | undefined {
	return walk(api).find(
		(node) =>
			node.kind === 'object' &&
			node.rootId === `live:${context}` &&
			node.ref?.kind === kind &&
			node.ref.name === name,
	);
}

/** The row's description once it no longer says it is reading. */
async function settledRow(api: Api, parent: TreeNode, label: string): Promise<string> {
	return eventually(`the row ${label} to be read`, () => {
		const ids = api.provider.getChildren(parent.id);
		const row = ids.map((id) => api.graph.node(id)).find((node) => node?.label === label);
		const description = row ? String(api.provider.getTreeItem(row.id).description) : '';
		return description && !description.startsWith('reading') ? description : undefined;
	});
}

describe('what an object applied, read live', () => {
	it("shows each inventory entry's kstatus when the Kustomization opens, and opens its live YAML", async () => {
		const api = await extensionApi();
		const kustomization = await eventually('the Kustomization apps in platform', () =>
			liveObject(api, 'platform', 'Kustomization', 'apps'),
		);
		const description = await settledRow(api, kustomization, 'HelmRelease apps/podinfo');
		assert.match(
			description,
			/^(Current|InProgress|Failed) \(live\) · applied · helm\.toolkit\.fluxcd\.io\/v2$/,
		);
		const row = api.graph
			.children(kustomization.id)
			.find((node) => node.label === 'HelmRelease apps/podinfo');
		assert.ok(row);
		const item = api.provider.getTreeItem(row.id);
		assert.equal(item.contextValue, 'kubeStatusLensNode:resource:live:inventory');
		const tooltip = api.provider.resolveTreeItem(item, row.id).tooltip as vscode.MarkdownString;
		assert.match(tooltip.value, /Live in context platform, read at /);
		const uri = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.live.openYaml',
			row.id,
		);
		assert.ok(uri);
		const text = (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText();
		assert.match(text, /^kind: HelmRelease$/m);
		assert.match(text, /^ {2}name: podinfo$/m);
		// Its Events come from the same context, as for any live object.
		const events = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.live.showEvents',
			row.id,
		);
		assert.match(decodeURIComponent(events ?? ''), /platform HelmRelease podinfo events\.log$/);
	});

	/** The row's words after a read through a fault of the demo cluster (removed afterwards). */
	async function readThroughFault(api: Api, fault: Record<string, unknown>): Promise<string> {
		const kustomization = await eventually('the Kustomization apps in platform', () =>
			liveObject(api, 'platform', 'Kustomization', 'apps'),
		);
		const label = 'HelmRepository flux-system/podinfo';
		await settledRow(api, kustomization, label);
		const added = JSON.parse(
			await demoBody('platform', 'POST', '/_faults', {
				...fault,
				method: 'GET',
				path: 'helmrepositories/podinfo$',
			}),
		) as { id: string };
		try {
			// Collapsed and opened again: read afresh.
			api.provider.appliedReads?.collapsed(kustomization.id);
			return await settledRow(api, kustomization, label);
		} finally {
			await demoBody('platform', 'DELETE', `/_faults/${added.id}`);
		}
	}

	it('says on the row when the cluster forbids the read (403) or has no such object (404)', async () => {
		const api = await extensionApi();
		assert.equal(
			await readThroughFault(api, {
				kind: 'status',
				code: 403,
				message:
					'helmrepositories.source.toolkit.fluxcd.io "podinfo" is forbidden: User "viewer" cannot get resource "helmrepositories"',
			}),
			'forbidden · applied · source.toolkit.fluxcd.io/v1',
		);
		assert.equal(
			await readThroughFault(api, {
				kind: 'status',
				code: 404,
				message: 'helmrepositories.source.toolkit.fluxcd.io "podinfo" not found',
			}),
			'NotFound · applied · source.toolkit.fluxcd.io/v1',
		);
	});

	it('ends a read the cluster never answers with a word on the row, not a reading that stays', async () => {
		const api = await extensionApi();
		assert.equal(
			await readThroughFault(api, { kind: 'hang' }),
			'timed out · applied · source.toolkit.fluxcd.io/v1',
		);
	});

	it('reads what a BundleDeployment applied from the open context named as its Cluster', async () => {
		const api = await extensionApi();
		const bd = await eventually('the shop-frontend BundleDeployment of prod-us-1', () =>
			walk(api).find(
				(node) =>
					node.kind === 'object' &&
					node.rootId === 'live:fleet-mgmt' &&
					node.ref?.kind === 'BundleDeployment' &&
					node.ref.name === 'shop-frontend' &&
					node.ref.namespace?.includes('-prod-us-1-') === true,
			),
		);
		const description = await settledRow(api, bd, 'Deployment shop/frontend');
		assert.match(description, /^Current \(live\) · /);
	});

	it('says where a downstream BundleDeployment’s resources are when no open context is named as its Cluster', async () => {
		const api = await extensionApi();
		const bd = await eventually('a BundleDeployment in fleet-mgmt', () =>
			walk(api).find(
				(node) =>
					node.kind === 'object' &&
					node.rootId === 'live:fleet-mgmt' &&
					node.ref?.kind === 'BundleDeployment' &&
					// The demo opens a context for prod-us-1 only.
					!node.ref.namespace?.includes('-prod-us-1-') &&
					node.hasChildren,
			),
		);
		const [row] = api.provider.getChildren(bd.id).map((id) => api.graph.node(id));
		assert.ok(row?.ref);
		assert.match(String(api.provider.getTreeItem(row.id).description), /^not read here · /);
		const tooltip = api.provider.resolveTreeItem(api.provider.getTreeItem(row.id), row.id)
			.tooltip as vscode.MarkdownString;
		assert.match(
			tooltip.value.replaceAll('\\', ''),
			/no open context is named (?!prod-us-1\b)[\w-]+\. Open one with Choose Contexts/,
		);
		assert.equal(
			await vscode.commands.executeCommand('kubeStatusLens.live.openYaml', row.id),
			undefined,
		);
	});
});
