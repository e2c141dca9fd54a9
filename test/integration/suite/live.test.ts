import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import * as vscode from 'vscode';
import { parse } from 'yaml';
import { eventually, extensionApi, walk } from './support.ts';

interface Cluster {
	readonly server: string;
	readonly ca: string;
	readonly token: string;
}

/** The demo cluster's `platform` context, read from the kubeconfig the suite was started with. */
function platformCluster(): Cluster {
	const config = parse(readFileSync(process.env.KUBECONFIG ?? '', 'utf8')) as {
		clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
		users: { name: string; user: { token: string } }[];
	};
	const cluster = config.clusters.find((entry) => entry.name === 'platform');
	const user = config.users.find((entry) => entry.name === 'platform');
	assert.ok(cluster && user, 'the kubeconfig has a platform context');
	return {
		server: cluster.cluster.server,
		ca: Buffer.from(cluster.cluster['certificate-authority-data'], 'base64').toString(),
		token: user.user.token,
	};
}

function call(
	cluster: Cluster,
	method: string,
	path: string,
	body?: unknown,
	contentType = 'application/json',
): Promise<number> {
	return new Promise((resolve, reject) => {
		const url = new URL(path, cluster.server);
		const outgoing = request(
			url,
			{
				method,
				ca: cluster.ca,
				headers: { authorization: `Bearer ${cluster.token}`, 'content-type': contentType },
			},
			(response) => {
				response.resume();
				response.on('end', () => resolve(response.statusCode ?? 0));
			},
		);
		outgoing.on('error', reject);
		if (body !== undefined) outgoing.write(JSON.stringify(body));
		outgoing.end();
	});
}

const path = '/apis/source.toolkit.fluxcd.io/v1/namespaces/flux-system/helmrepositories';

describe('live clusters (the demo cluster)', () => {
	it('shows a root per chosen context with the objects the cluster serves', async () => {
		const api = await extensionApi();
		const roots = await eventually(
			`the live roots (contexts: ${JSON.stringify(vscode.workspace.getConfiguration('kubeStatusLens.clusters').get('contexts'))}, sessions: ${api.live.contexts.join(',')}, KUBECONFIG ${process.env.KUBECONFIG})`,
			() => {
				const labels = api.provider.getChildren().map((id) => api.graph.node(id)?.label);
				return labels.includes('platform') && labels.includes('fleet-mgmt') ? labels : undefined;
			},
		);
		assert.ok(roots.includes('Workspace manifests'));
		await eventually('Fleet objects from fleet-mgmt', () =>
			walk(api).some((node) => node.rootId === 'live:fleet-mgmt' && node.ref?.kind === 'GitRepo'),
		);
		const item = api.provider.getTreeItem(
			api.provider.getChildren().find((id) => api.graph.node(id)?.label === 'platform') ?? '',
		);
		assert.equal((item.iconPath as vscode.ThemeIcon).id, 'cloud');
		assert.match(item.contextValue ?? '', /root/);
	});

	it('shows a change on the server in the tree, and a deletion', async () => {
		const api = await extensionApi();
		const cluster = platformCluster();
		const created = await call(cluster, 'POST', path, {
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'HelmRepository',
			metadata: { name: 'live-test', namespace: 'flux-system' },
			spec: { url: 'https://example.com', interval: '5m' },
		});
		assert.equal(created, 201);
		await eventually('the new repository in the tree', () =>
			walk(api).some((node) => node.rootId === 'live:platform' && node.ref?.name === 'live-test'),
		);
		const patched = await call(
			cluster,
			'PATCH',
			`${path}/live-test/status`,
			{
				status: {
					conditions: [
						{
							type: 'Stalled',
							status: 'True',
							reason: 'URLInvalid',
							message: 'from the live test',
						},
					],
				},
			},
			'application/merge-patch+json',
		);
		assert.ok(patched === 200 || patched === 201, String(patched));
		await eventually('the repository to turn Stalled', () =>
			walk(api).some(
				(node) =>
					node.rootId === 'live:platform' &&
					node.ref?.name === 'live-test' &&
					node.result?.state === 'Stalled',
			),
		);
		assert.equal(await call(cluster, 'DELETE', `${path}/live-test`), 200);
		await eventually(
			'the repository to go',
			() =>
				!walk(api).some(
					(node) => node.rootId === 'live:platform' && node.ref?.name === 'live-test',
				),
		);
	});
});

describe('actions on live objects', () => {
	const podinfo = (api: Awaited<ReturnType<typeof extensionApi>>) =>
		walk(api).find(
			(node) =>
				node.rootId === 'live:platform' &&
				node.ref?.kind === 'HelmRepository' &&
				node.ref.name === 'podinfo' &&
				node.ref.namespace === 'flux-system',
		);

	it('opens the live object as read-only YAML', async () => {
		const api = await extensionApi();
		const node = await eventually('podinfo in the platform context', () => podinfo(api));
		const uri = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.live.openYaml',
			node.id,
		);
		const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
		assert.match(document.getText(), /kind: HelmRepository/);
		assert.ok(!/managedFields/.test(document.getText()));
	});

	it('suspends and resumes a Flux object, and the tree follows the cluster', async () => {
		const api = await extensionApi();
		const node = await eventually('podinfo in the platform context', () => podinfo(api));
		assert.equal(
			await vscode.commands.executeCommand('kubeStatusLens.flux.suspend', node.id, {
				confirmed: true,
			}),
			true,
		);
		await eventually(
			'podinfo to show Suspended',
			() => podinfo(api)?.result?.state === 'Suspended',
		);
		assert.match(podinfo(api)?.contextFlags.suspended ? 'suspended' : '', /suspended/);
		assert.equal(
			await vscode.commands.executeCommand('kubeStatusLens.flux.resume', podinfo(api)?.id, {
				confirmed: true,
			}),
			true,
		);
		await eventually('podinfo to resume', () => podinfo(api)?.result?.state !== 'Suspended');
	});

	it('shows the events of a live object', async () => {
		const api = await extensionApi();
		const node = await eventually('podinfo in the platform context', () => podinfo(api));
		const uri = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.live.showEvents',
			node.id,
		);
		const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
		assert.match(document.getText(), /^Events of HelmRepository flux-system\/podinfo in platform/);
	});
});

describe('live status in manifests', () => {
	it('puts the live state above a workspace manifest that exists in a connected cluster', async () => {
		const api = await extensionApi();
		await eventually('podinfo in the platform context', () =>
			walk(api).some((node) => node.rootId === 'live:platform' && node.ref?.name === 'podinfo'),
		);
		const folder = vscode.workspace.workspaceFolders?.[0];
		assert.ok(folder);
		const uri = vscode.Uri.joinPath(folder.uri, 'helmrepositories.yaml');
		await vscode.workspace.openTextDocument(uri);
		const lenses = await eventually('a live CodeLens', async () => {
			const found =
				(await vscode.commands.executeCommand<vscode.CodeLens[] | undefined>(
					'vscode.executeCodeLensProvider',
					uri,
				)) ?? [];
			return found.some((lens) => lens.command?.title.startsWith('Live (platform)'))
				? found
				: undefined;
		});
		const lens = lenses.find((entry) => entry.command?.title.startsWith('Live (platform)'));
		assert.equal(lens?.command?.command, 'kubeStatusLens.resource.explain');
	});
});

describe('the merge preview on live clusters', () => {
	it('merges a WDS workload from the WorkStatus objects of the ITS context', async () => {
		const api = await extensionApi();
		const workload = await eventually('the nginx workload of the WDS', () =>
			walk(api).find(
				(node) =>
					node.rootId === 'live:kubestellar-wds' &&
					node.ref?.kind === 'Deployment' &&
					node.ref.name === 'nginx',
			),
		);
		await eventually('WorkStatus objects in the ITS', () =>
			walk(api).some(
				(node) => node.rootId === 'live:kubestellar-its' && node.ref?.kind === 'WorkStatus',
			),
		);
		const uri = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.merge.preview',
			workload.id,
		);
		const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
		assert.match(document.getText(), /# Mode: (multi|singleton)/);
		assert.match(document.getText(), /WorkStatus object\(s\) refer to it/);
	});
});
