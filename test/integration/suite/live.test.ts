import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import * as vscode from 'vscode';
import { parse } from 'yaml';
import type { TreeNode } from '../../../src/core/tree/treeNode.ts';
import { eventually, extensionApi, walk } from './support.ts';

interface Cluster {
	readonly server: string;
	readonly ca: string;
	readonly token: string;
}

/** The demo cluster's `platform` context, read from the kubeconfig the suite was started with. */
function platformCluster(): Cluster {
	return demoCluster('platform');
}

/** A context of the demo cluster, read from the kubeconfig the suite was started with. */
function demoCluster(name: string): Cluster {
	const config = parse(readFileSync(process.env.KUBECONFIG ?? '', 'utf8')) as {
		clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
		users: { name: string; user: { token: string } }[];
	};
	const cluster = config.clusters.find((entry) => entry.name === name);
	const user = config.users.find((entry) => entry.name === name);
	assert.ok(cluster && user, `the kubeconfig has a ${name} context`);
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

/** GETs a JSON document from the demo cluster. */
function getJson(cluster: Cluster, path: string): Promise<Record<string, unknown>> {
	return new Promise((resolve, reject) => {
		const outgoing = request(
			new URL(path, cluster.server),
			{ ca: cluster.ca, headers: { authorization: `Bearer ${cluster.token}` } },
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => {
					try {
						resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
					} catch (error) {
						reject(error instanceof Error ? error : new Error(String(error)));
					}
				});
			},
		);
		outgoing.on('error', reject);
		outgoing.end();
	});
}

const path = '/apis/source.toolkit.fluxcd.io/v1/namespaces/flux-system/helmrepositories';

/** The workspace file that declares podinfo, once the platform context serves podinfo live. */
async function podinfoManifestWhenLive(): Promise<vscode.Uri> {
	const api = await extensionApi();
	await eventually('podinfo in the platform context', () =>
		walk(api).some((node) => node.rootId === 'live:platform' && node.ref?.name === 'podinfo'),
	);
	const folder = vscode.workspace.workspaceFolders?.[0];
	assert.ok(folder);
	return vscode.Uri.joinPath(folder.uri, 'helmrepositories.yaml');
}
const gitRepoPath = '/apis/fleet.cattle.io/v1alpha1/namespaces/fleet-default/gitrepos/shop';

describe('watches follow what uses them', () => {
	it('runs them while the tree shows, and pauses them when nothing uses them', async () => {
		const api = await extensionApi();
		await vscode.commands.executeCommand('kubeStatusLens.resources.focus');
		await eventually('the tree to count as a consumer', () => api.live.consumers.includes('tree'));
		// Nothing else shows live data: no editor, no panel (Needs Attention lives there). The window keeps its focus.
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		await vscode.commands.executeCommand('workbench.action.closePanel');
		await vscode.commands.executeCommand('workbench.view.explorer');
		await eventually('nothing to count as a consumer', () => api.live.consumers.length === 0);
		await eventually('the contexts to say they are paused', () =>
			api.live.summary.every((line) => /paused/i.test(line)),
		);
		await vscode.commands.executeCommand('kubeStatusLens.resources.focus');
		await eventually('the contexts to sync again', () =>
			api.live.summary.every((line) => line.endsWith(': ready')),
		);
	});
});

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

	it('drops an object of the first list that is deleted on the server, and shows it again when it comes back', async () => {
		const api = await extensionApi();
		const cluster = platformCluster();
		const harborPath = '/apis/goharbor.io/v1beta1/namespaces/harbor-dr/harborclusters';
		// The object's own row: Kustomization registries lists it too, as a row of what it applied.
		const shown = () =>
			walk(api).some(
				(node) =>
					node.rootId === 'live:platform' &&
					node.kind === 'object' &&
					node.ref?.kind === 'HarborCluster' &&
					node.ref.name === 'harbor-dr',
			);
		await eventually('harbor-dr from the first list in the tree', shown);
		const original = await getJson(cluster, `${harborPath}/harbor-dr`);
		assert.equal(await call(cluster, 'DELETE', `${harborPath}/harbor-dr`), 200);
		await eventually('harbor-dr to leave the tree', () => !shown());
		// Put it back as it was, so the suites after this one see the demo unchanged.
		const metadata = original.metadata as Record<string, unknown>;
		const recreated = await call(cluster, 'POST', harborPath, {
			apiVersion: original.apiVersion,
			kind: original.kind,
			metadata: { name: metadata.name, namespace: metadata.namespace },
			spec: original.spec,
		});
		assert.equal(recreated, 201);
		const restored = await call(
			cluster,
			'PATCH',
			`${harborPath}/harbor-dr/status`,
			{ status: original.status },
			'application/merge-patch+json',
		);
		assert.ok(restored === 200 || restored === 201, String(restored));
		await eventually('harbor-dr back in the tree, unhealthy', () =>
			walk(api).some(
				(node) =>
					node.rootId === 'live:platform' &&
					node.ref?.name === 'harbor-dr' &&
					node.result?.state === 'unhealthy',
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

	it('says in a live tooltip which context the object was read from and when, not a file-like place', async () => {
		const api = await extensionApi();
		const node = await eventually('podinfo in the platform context', () => podinfo(api));
		const item = api.provider.getTreeItem(node.id);
		const tooltip = api.provider.resolveTreeItem(item, node.id).tooltip as vscode.MarkdownString;
		assert.match(
			tooltip.value,
			/Live in context platform \\?\(ready\\?\) · last read \d\d\\?:\d\d\\?:\d\d UTC/,
		);
		assert.doesNotMatch(tooltip.value, /From source\.toolkit/);
	});

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

	it("gives a live object's read-only YAML the Problems Fleet's checks find in its context", async () => {
		const api = await extensionApi();
		// The Fleet objects of the demo's management cluster that the tree says fleet analyze would report.
		const reported = await eventually('live Fleet rows with a fleet analyze finding', () => {
			const found = walk(api).filter(
				(candidate) =>
					candidate.rootId === 'live:fleet-mgmt' &&
					candidate.kind === 'object' &&
					/fleet analyze: /.test(String(api.provider.getTreeItem(candidate.id).description ?? '')),
			);
			return found.length > 0 ? found.slice(0, 6) : undefined;
		});
		for (const node of reported) {
			const item = api.provider.getTreeItem(node.id);
			const tooltip = api.provider.resolveTreeItem(item, node.id).tooltip as vscode.MarkdownString;
			const shown = [...new Set(tooltip.value.match(/fleet-[a-z-]+/g) ?? [])].sort();
			const uri = await vscode.commands.executeCommand<string>(
				'kubeStatusLens.live.openYaml',
				node.id,
			);
			const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
			// The document's Problems are what the row says: Fleet's checks over the whole context, from now.
			await eventually(
				() => `${node.label}: the tooltip's findings ${shown.join(', ')} in Problems`,
				() => {
					const codes = vscode.languages
						.getDiagnostics(document.uri)
						.map((found) => (typeof found.code === 'object' ? found.code.value : found.code))
						.map(String)
						.filter((code) => code.startsWith('fleet-'));
					return JSON.stringify([...new Set(codes)].sort()) === JSON.stringify(shown)
						? true
						: undefined;
				},
			);
		}
	});

	it('suspends and resumes a Flux object, and the tree follows the cluster', async () => {
		const api = await extensionApi();
		const node = await eventually('podinfo in the platform context', () => podinfo(api));
		assert.deepEqual(
			await vscode.commands.executeCommand('kubeStatusLens.flux.suspend', node.id, {
				confirmed: true,
			}),
			{ ok: true },
		);
		await eventually(
			'podinfo to show Suspended',
			() => podinfo(api)?.result?.state === 'Suspended',
		);
		assert.match(podinfo(api)?.contextFlags.suspended ? 'suspended' : '', /suspended/);
		assert.deepEqual(
			await vscode.commands.executeCommand('kubeStatusLens.flux.resume', podinfo(api)?.id, {
				confirmed: true,
			}),
			{ ok: true },
		);
		await eventually('podinfo to resume', () => podinfo(api)?.result?.state !== 'Suspended');
	});

	it('requests a Flux reconcile and waits until the controller has handled it', async () => {
		const api = await extensionApi();
		const node = await eventually('podinfo in the platform context', () => podinfo(api));
		const handled = await vscode.commands.executeCommand('kubeStatusLens.flux.reconcile', node.id, {
			confirmed: true,
		});
		assert.deepEqual(
			handled,
			{ ok: true },
			'the demo cluster answers reconcile requests as Flux does',
		);
		const object = await getJson(platformCluster(), `${path}/podinfo`);
		const annotations = (object.metadata as { annotations?: Record<string, string> }).annotations;
		const requestedAt = annotations?.['reconcile.fluxcd.io/requestedAt'];
		assert.ok(requestedAt, 'the request is an annotation on the object');
		assert.equal(
			(object.status as { lastHandledReconcileAt?: string }).lastHandledReconcileAt,
			requestedAt,
		);
	});

	const shop = (api: Awaited<ReturnType<typeof extensionApi>>) =>
		walk(api).find(
			(node) =>
				node.rootId === 'live:fleet-mgmt' &&
				node.ref?.kind === 'GitRepo' &&
				node.ref.name === 'shop',
		);

	it('forces a Fleet update by incrementing spec.forceSyncGeneration', async () => {
		const api = await extensionApi();
		const cluster = demoCluster('fleet-mgmt');
		const node = await eventually('the shop GitRepo in fleet-mgmt', () => shop(api));
		const before = await getJson(cluster, gitRepoPath);
		const generation = (before.spec as { forceSyncGeneration?: number }).forceSyncGeneration ?? 0;
		assert.deepEqual(
			await vscode.commands.executeCommand('kubeStatusLens.fleet.forceUpdate', node.id, {
				confirmed: true,
			}),
			{ ok: true },
		);
		const after = await getJson(cluster, gitRepoPath);
		assert.equal(
			(after.spec as { forceSyncGeneration?: number }).forceSyncGeneration,
			generation + 1,
		);
	});

	it('pauses and unpauses a Fleet GitRepo, and the tree offers the opposite action', async () => {
		const api = await extensionApi();
		const node = await eventually('the shop GitRepo in fleet-mgmt', () => shop(api));
		assert.deepEqual(
			await vscode.commands.executeCommand('kubeStatusLens.fleet.pause', node.id, {
				confirmed: true,
			}),
			{ ok: true },
		);
		const paused = await eventually('shop to show as paused', () =>
			shop(api)?.contextFlags.paused ? shop(api) : undefined,
		);
		assert.match(api.provider.getTreeItem(paused.id).contextValue ?? '', /paused/);
		assert.deepEqual(
			await vscode.commands.executeCommand('kubeStatusLens.fleet.unpause', paused.id, {
				confirmed: true,
			}),
			{ ok: true },
		);
		await eventually('shop to run again', () => shop(api)?.contextFlags.paused === false);
	});

	it('says in plain words when the cluster forbids a change (403), and changes nothing', async () => {
		const api = await extensionApi();
		const cluster = demoCluster('fleet-mgmt');
		const node = await eventually('the shop GitRepo in fleet-mgmt', () => shop(api));
		const fault = await new Promise<string>((resolve, reject) => {
			const outgoing = request(
				new URL('/_faults', cluster.server),
				{
					method: 'POST',
					ca: cluster.ca,
					headers: {
						authorization: `Bearer ${cluster.token}`,
						'content-type': 'application/json',
					},
				},
				(response) => {
					const chunks: Buffer[] = [];
					response.on('data', (chunk: Buffer) => chunks.push(chunk));
					response.on('end', () =>
						resolve((JSON.parse(Buffer.concat(chunks).toString()) as { id: string }).id),
					);
				},
			);
			outgoing.on('error', reject);
			outgoing.end(
				JSON.stringify({
					kind: 'status',
					code: 403,
					method: 'PATCH',
					path: 'gitrepos/shop$',
					message:
						'gitrepos.fleet.cattle.io "shop" is forbidden: User "viewer" cannot patch resource "gitrepos" in API group "fleet.cattle.io" in the namespace "fleet-default"',
				}),
			);
		});
		try {
			const shown = await vscode.commands.executeCommand<unknown>(
				'kubeStatusLens.fleet.pause',
				node.id,
				{ confirmed: true },
			);
			const message = (shown as { ok: boolean; message?: string }).message ?? '';
			assert.equal((shown as { ok: boolean }).ok, false, 'the command reports the failure');
			assert.match(message, /^Pause the rollout \(spec\.paused: true\) failed: /);
			assert.match(message, /You may not .*\(403 Forbidden\)/);
			const object = await getJson(cluster, gitRepoPath);
			assert.notEqual((object.spec as { paused?: boolean }).paused, true);
		} finally {
			assert.equal(await call(cluster, 'DELETE', `/_faults/${fault}`), 200);
		}
	});

	it('shows the events of a live object', async () => {
		const api = await extensionApi();
		const node = await eventually('podinfo in the platform context', () => podinfo(api));
		const uri = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.live.showEvents',
			node.id,
		);
		const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
		assert.match(
			document.getText(),
			/^Events of HelmRepository flux-system\/podinfo in context platform/,
		);
	});

	it('shows the Events of a workspace manifest from the context that runs it', async () => {
		const api = await extensionApi();
		await eventually('podinfo in the platform context', () => podinfo(api));
		const manifest = await eventually('the podinfo manifest in the workspace root', () =>
			walk(api).find(
				(node) =>
					!node.rootId.startsWith('live:') &&
					node.ref?.kind === 'HelmRepository' &&
					node.ref.name === 'podinfo',
			),
		);
		const uri = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.live.showEvents',
			manifest.id,
		);
		assert.ok(uri, 'a document opened');
		const text = (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText();
		assert.match(text, /^Events of HelmRepository flux-system\/podinfo in context platform\nRead /);
		assert.match(text, /^LAST SEEN +AGE +TYPE +REASON +COUNT +FROM +MESSAGE$|no events/m);
	});

	it("lists a Flux object's Events from the cluster in Explain's timeline", async () => {
		const api = await extensionApi();
		// kustomize-controller records ReconciliationSucceeded each time it reconciles (the stand-in on start).
		const node = await eventually('the Kustomization in the platform context', () =>
			walk(api).find(
				(found) =>
					found.rootId === 'live:platform' &&
					found.kind === 'object' &&
					found.ref?.kind === 'Kustomization',
			),
		);
		const uri =
			(await vscode.commands.executeCommand<string>('kubeStatusLens.resource.explain', node.id)) ??
			'';
		const text = (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText();
		const section = text.slice(text.indexOf('## What happened, in order'));
		assert.ok(text.includes('## What happened, in order'), text);
		assert.match(
			section,
			/Normal event `ReconciliationSucceeded`.* from kustomize\\-controller/,
			section,
		);
	});
});

describe('live status in manifests', () => {
	it('puts the live state above a workspace manifest that exists in a connected cluster', async () => {
		const uri = await podinfoManifestWhenLive();
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

		// The diff lens compares the one object, both sides without what the server writes.
		const diff = lenses.find(
			(entry) => entry.command?.command === 'kubeStatusLens.live.diffWithManifest',
		);
		assert.ok(diff?.command);
		const liveUri = await vscode.commands.executeCommand<string>(
			diff.command.command,
			...((diff.command.arguments ?? []) as unknown[]),
		);
		const liveText = (await vscode.workspace.openTextDocument(vscode.Uri.parse(liveUri))).getText();
		assert.match(liveText, /name: podinfo\n/);
		assert.ok(!/^status:|uid:|resourceVersion:/m.test(liveText), liveText);
		const manifest = await eventually(
			() =>
				`the manifest side among ${vscode.workspace.textDocuments.map((document) => document.uri.toString()).join(', ')}`,
			() =>
				vscode.workspace.textDocuments.find(
					(document) =>
						document.uri.scheme === 'kube-status-lens-live' &&
						document.uri.path.includes('(helmrepositories.yaml)'),
				),
		);
		assert.match(manifest.getText(), /name: podinfo\n/);
		assert.ok(!/podinfo-oci/.test(manifest.getText()), 'only the one object, not the whole file');
	});
});

describe('hovers in manifests that exist live', () => {
	it('adds the live status to the hover on kind:', async () => {
		const uri = await podinfoManifestWhenLive();
		const document = await vscode.workspace.openTextDocument(uri);
		const lines = document.getText().split('\n');
		const nameLine = lines.findIndex((line) => line.trim() === 'name: podinfo');
		const kindLine = lines.slice(0, nameLine).findLastIndex((line) => line.startsWith('kind:'));
		assert.ok(kindLine >= 0);
		const hovers =
			(await vscode.commands.executeCommand<vscode.Hover[]>(
				'vscode.executeHoverProvider',
				uri,
				new vscode.Position(kindLine, 2),
			)) ?? [];
		const text = hovers
			.flatMap((hover) => hover.contents)
			.map((content) => (typeof content === 'string' ? content : content.value))
			.join('\n');
		assert.match(text, /declared, no status/i, 'the manifest itself has no status');
		assert.match(text, /\*\*Live:\*\* /, `the live status is there too:\n${text}`);
	});
});

describe('KubeStellar WDS and ITS side by side', () => {
	it('shows the WorkStatus objects of the paired ITS under the WDS workload', async () => {
		const api = await extensionApi();
		const workload = await eventually('nginx in the WDS with its WECs under it', () =>
			walk(api).find(
				(node) =>
					node.rootId === 'live:kubestellar-wds' &&
					node.ref?.kind === 'Deployment' &&
					node.ref.name === 'nginx' &&
					api.graph.children(node.id).some((child) => child.ref?.kind === 'WorkStatus'),
			),
		);
		const children = api.graph.children(workload.id);
		assert.ok(
			children.filter((child) => child.ref?.kind === 'WorkStatus').length >= 2,
			children.map((child) => child.label).join(', '),
		);
		assert.match(workload.description, /\d+\/\d+ WECs/);

		// A copied WorkStatus lives in the ITS: its live YAML comes from there, not from the WDS.
		const copy = children.find((child) => child.ref?.kind === 'WorkStatus');
		assert.ok(copy);
		const uri = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.live.openYaml',
			copy.id,
		);
		assert.ok(uri, 'the object was read');
		const text = (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText();
		assert.match(text, /kind: WorkStatus/);
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
		assert.match(
			document.getText(),
			/^# Live from context kubestellar-wds: the WECs' values last changed at \d\d:\d\d:\d\d UTC$/m,
		);
	});

	it('works on the first try while the contexts are still listing, as the tree pairs them', async () => {
		const api = await extensionApi();
		// Reopen every context and ask as soon as the WDS lists its workload, whether or not the ITS has listed the
		// WorkStatus objects yet (the first try used to fail then).
		await api.live.restart();
		const workload = await eventually('the nginx workload back in the WDS', () =>
			walk(api).find(
				(node) =>
					node.rootId === 'live:kubestellar-wds' &&
					node.ref?.kind === 'Deployment' &&
					node.ref.name === 'nginx',
			),
		);
		const uri = await vscode.commands.executeCommand<string | undefined>(
			'kubeStatusLens.merge.preview',
			workload.id,
		);
		assert.ok(uri, 'the preview opened on the first try');
		// The same preview was open from the test before, as the restart found it: it reads the WDS again.
		const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
		await eventually('the preview to merge the WorkStatus objects', () =>
			/WorkStatus object\(s\) refer to it/.test(document.getText()) ? true : undefined,
		);
		const copies = walk(api).filter(
			(node) => node.rootId === 'live:kubestellar-wds' && node.ref?.kind === 'WorkStatus',
		);
		assert.ok(copies.length > 0, 'the tree shows the WorkStatus objects the preview merged');
		await eventually('every context ready again', () =>
			api.live.summary.every((line) => line.endsWith(': ready')),
		);
	});
});

describe('above the BundleDeployment threshold', () => {
	after(async () => {
		await vscode.workspace
			.getConfiguration('kubeStatusLens.clusters')
			.update('bundleDeploymentThreshold', undefined, vscode.ConfigurationTarget.Global);
	});

	it("relies on Fleet roll-ups and lists a Bundle's BundleDeployments when it is expanded", async () => {
		const api = await extensionApi();
		await vscode.commands.executeCommand('kubeStatusLens.resources.focus');
		await vscode.workspace
			.getConfiguration('kubeStatusLens.clusters')
			.update('bundleDeploymentThreshold', 1, vscode.ConfigurationTarget.Global);
		const bundle = await bundleListingOnDemand(api);
		assert.notEqual(
			api.provider.getTreeItem(bundle.id).collapsibleState,
			vscode.TreeItemCollapsibleState.None,
		);
		const first = api.provider.getChildren(bundle.id);
		assert.ok(first.length > 0);
		const listed = await eventually(
			() =>
				`the BundleDeployments of the Bundle (listing: ${JSON.stringify(api.provider.listingOf(bundle.id))}, node: ${JSON.stringify({ exists: api.graph.node(bundle.id) !== undefined, listOnDemand: api.graph.node(bundle.id)?.listOnDemand, root: api.graph.node(bundle.rootId)?.description, graphChildren: api.graph.children(bundle.id).length, summary: api.live.summary })}, children: ${api.provider
					.getChildren(bundle.id)
					.map((id) => api.graph.node(id)?.label ?? JSON.stringify(id))
					.join(', ')})`,
			() => {
				const children = api.provider.getChildren(bundle.id).map((id) => api.graph.node(id));
				return children.length > 0 &&
					children.every((child) => child?.ref?.kind === 'BundleDeployment')
					? children
					: undefined;
			},
		);
		assert.ok(listed.length >= 1);
		assert.equal(api.provider.listingOf(bundle.id)?.kind, 'listed');
	});

	it('drops what it listed when the node collapses, and lists afresh when it opens again', async () => {
		const api = await extensionApi();
		const bundle = await bundleListingOnDemand(api);
		await toggleInView(api, bundle.id, 'expanded');
		await eventually('the BundleDeployments listed on expansion', () =>
			api.graph.children(bundle.id).some((child) => child.ref?.kind === 'BundleDeployment'),
		);
		await toggleInView(api, bundle.id, 'collapsed');
		await eventually(
			() =>
				`the listed BundleDeployments to go with the collapse (children: ${api.graph.children(bundle.id).length}, listing: ${JSON.stringify(api.provider.listingOf(bundle.id))}, collapse seen: ${api.provider.wasCollapsed(bundle.id)})`,
			() =>
				api.graph.children(bundle.id).length === 0 &&
				api.provider.listingOf(bundle.id) === undefined,
		);
		await toggleInView(api, bundle.id, 'expanded');
		await eventually('a fresh list on the next expansion', () =>
			api.graph.children(bundle.id).some((child) => child.ref?.kind === 'BundleDeployment'),
		);
	});

	it('lists an open Bundle again when Fleet updates it, so a BundleDeployment that fails says so', async () => {
		const api = await extensionApi();
		const bundle = await bundleListingOnDemand(api);
		await toggleInView(api, bundle.id, 'expanded');
		const deployment = await eventually('a BundleDeployment listed on expansion', () =>
			api.graph
				.children(bundle.id)
				.find(
					(child) =>
						child.ref?.kind === 'BundleDeployment' && !/ErrApplied/.test(child.description),
				),
		);
		const ref = deployment.ref;
		assert.ok(ref && bundle.ref);
		const cluster = demoCluster('fleet-mgmt');
		const fleetPath = '/apis/fleet.cattle.io/v1alpha1/namespaces';
		const deploymentPath = `${fleetPath}/${ref.namespace}/bundledeployments/${ref.name}/status`;
		const bundlePath = `${fleetPath}/${bundle.ref.namespace}/bundles/${bundle.ref.name}/status`;
		const before = (await getJson(cluster, deploymentPath)).status;
		const bundleBefore = (await getJson(cluster, bundlePath)).status as Record<string, unknown>;
		const message = 'cannot patch "frontend": from the relist test';
		const failed = (type: string) => ({
			type,
			status: 'False',
			reason: 'Error',
			message,
			lastUpdateTime: new Date().toISOString(),
		});
		try {
			// The agent reports the failure; then Fleet's controller rewrites the Bundle's status.
			const put = (path: string, status: unknown): Promise<number> =>
				call(cluster, 'PATCH', path, { status }, 'application/merge-patch+json');
			assert.equal(
				await put(deploymentPath, {
					ready: false,
					conditions: [failed('Deployed'), failed('Ready')],
					display: { deployed: `Error: ${message}`, monitored: 'True', state: 'ErrApplied' },
				}),
				200,
			);
			assert.equal(
				await put(bundlePath, {
					display: { state: 'ErrApplied', message: 'from the relist test' },
				}),
				200,
			);
			const row = await eventually(
				() =>
					`the BundleDeployment's row to say its new failure (children: ${api.graph
						.children(bundle.id)
						.map((child) => `${child.label} ${child.description}`)
						.join('; ')})`,
				() =>
					api.graph
						.children(bundle.id)
						.find((child) => child.ref?.name === ref.name && child.ref.namespace === ref.namespace)
						?.description.includes('from the relist test')
						? true
						: undefined,
			);
			assert.ok(row);
		} finally {
			// Merge patches: a key the test added to a map is removed by writing null for it.
			const restored = (display: unknown): unknown => {
				if (typeof display !== 'object' || display === null) return null;
				const {
					state = null,
					message = null,
					deployed = null,
					monitored = null,
				} = display as Record<string, unknown>;
				return { ...display, state, message, deployed, monitored };
			};
			const deploymentBefore = (before ?? {}) as Record<string, unknown>;
			await call(
				cluster,
				'PATCH',
				deploymentPath,
				{ status: { ...deploymentBefore, display: restored(deploymentBefore.display) } },
				'application/merge-patch+json',
			);
			await call(
				cluster,
				'PATCH',
				bundlePath,
				{ status: { display: restored(bundleBefore.display) } },
				'application/merge-patch+json',
			);
			await toggleInView(api, bundle.id, 'collapsed');
		}
	});
});

describe('a context that cannot be used', () => {
	after(async () => {
		await vscode.workspace
			.getConfiguration('kubeStatusLens.clusters')
			.update('contexts', undefined, vscode.ConfigurationTarget.Global);
	});

	it('shows on its root and in the status bar, and the other contexts keep working', async () => {
		const api = await extensionApi();
		const contexts =
			vscode.workspace.getConfiguration('kubeStatusLens.clusters').get<string[]>('contexts') ?? [];
		await vscode.workspace
			.getConfiguration('kubeStatusLens.clusters')
			.update('contexts', [...contexts, 'no-such-context'], vscode.ConfigurationTarget.Global);
		const root = await eventually('a root for the missing context with its state', () =>
			api.provider
				.getChildren()
				.map((id) => api.graph.node(id))
				.find((node) => node?.label === 'no-such-context' && node.description !== ''),
		);
		assert.match(root.description, /no-such-context/);
		assert.equal(root.tone, 'error');
		await eventually('the status bar to count it', () =>
			api.live.troubledContexts.includes('no-such-context'),
		);
		await eventually('the platform context to sync again beside it', () =>
			walk(api).some((node) => node.rootId === 'live:platform' && node.ref?.name === 'podinfo'),
		);
	});
});

/** A Bundle of fleet-mgmt, in roll-ups-only mode, that lists its BundleDeployments when expanded (the view focused). */
async function bundleListingOnDemand(
	api: Awaited<ReturnType<typeof extensionApi>>,
): Promise<TreeNode> {
	await vscode.commands.executeCommand('kubeStatusLens.resources.focus');
	const rootId = await eventually('fleet-mgmt to say it is in roll-ups-only mode', () =>
		api.provider.getChildren().find((id) => {
			const node = api.graph.node(id);
			return node?.label === 'fleet-mgmt' && /roll-ups only/.test(node.description);
		}),
	);
	return eventually('a Bundle that lists on demand', () =>
		// Under its GitRepo: while the first sync runs, a Bundle may show elsewhere until its owner arrives.
		walkFrom(api, rootId).find(
			(node) =>
				node.ref?.kind === 'Bundle' &&
				node.listOnDemand !== undefined &&
				api.graph.parentOf(node.id)?.ref?.kind === 'GitRepo' &&
				api.live.summary.every((line) => line.endsWith(': ready')),
		),
	);
}

/**
 * Expands or collapses a row as a user does, with the keyboard on the focused row, until the view reports it. The
 * workbench can drop a keystroke or a reveal's expansion while a refresh of the same row renders (a user presses
 * again), and on a loaded machine it can hold a row open without having said so: a toggle then reports the other
 * state first, and the next one the state asked for. What the tests check is what follows the state the view reports.
 */
async function toggleInView(
	api: Awaited<ReturnType<typeof extensionApi>>,
	id: string,
	wanted: 'expanded' | 'collapsed',
): Promise<void> {
	const reached = () =>
		wanted === 'expanded' ? api.provider.wasExpanded(id) : api.provider.wasCollapsed(id);
	for (let attempt = 0; attempt < 6 && !reached(); attempt++) {
		api.provider.flushPending();
		if (attempt === 0 && wanted === 'expanded') {
			await api.view.reveal(id, { expand: true, select: true, focus: true });
		} else {
			await api.view.reveal(id, { select: true, focus: true });
			await vscode.commands.executeCommand(attempt === 0 ? 'list.collapse' : 'list.toggleExpand');
		}
		await eventually(`the view to report the row ${wanted}`, reached, 3_000).catch(() => undefined);
	}
	await eventually(
		() =>
			`the view to report the row ${wanted} (visible: ${api.view.visible}, selection: ${JSON.stringify(api.view.selection)}, item: ${api.provider.getTreeItem(id).collapsibleState})`,
		reached,
		5_000,
	);
}

/** The nodes below one node, as the provider serves them. */
function walkFrom(api: Awaited<ReturnType<typeof extensionApi>>, id: string): TreeNode[] {
	const found: TreeNode[] = [];
	const visit = (parent: string, depth: number): void => {
		if (depth > 6) return;
		for (const child of api.graph.children(parent)) {
			found.push(child);
			visit(child.id, depth + 1);
		}
	};
	visit(id, 0);
	return found;
}

describe('live actions that finish the job', () => {
	type Api = Awaited<ReturnType<typeof extensionApi>>;
	interface Detailed {
		readonly ok: boolean;
		readonly message: string;
		readonly log: readonly string[];
	}
	const live = (api: Api, context: string, kind: string, name: string): TreeNode | undefined =>
		walk(api).find(
			(node) =>
				node.rootId === `live:${context}` && node.ref?.kind === kind && node.ref.name === name,
		);
	// The describes above may leave only the current context open: these need platform (Flux) and fleet-mgmt. The
	// suite started with every context of the demo's kubeconfig, and that is what this opens again (and leaves).
	before(async () => {
		const config = parse(readFileSync(process.env.KUBECONFIG ?? '', 'utf8')) as {
			contexts: { name: string }[];
		};
		await vscode.workspace.getConfiguration('kubeStatusLens.clusters').update(
			'contexts',
			config.contexts.map((context) => context.name),
			vscode.ConfigurationTarget.Global,
		);
	});
	const appsPath =
		'/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/apps';
	const releasePath = '/apis/helm.toolkit.fluxcd.io/v2/namespaces/apps/helmreleases/podinfo';

	it('reconciles a Kustomization and says what Flux reported once it handled the request', async () => {
		const api = await extensionApi();
		const node = await eventually('the apps Kustomization in platform', () =>
			live(api, 'platform', 'Kustomization', 'apps'),
		);
		const answer = await vscode.commands.executeCommand<Detailed>(
			'kubeStatusLens.flux.reconcile',
			node.id,
			{ confirmed: true, details: true },
		);
		assert.equal(answer.ok, true, answer.message);
		assert.match(
			answer.message,
			/^Reconciled Kustomization flux-system\/apps in context platform \(generation \d+, as of [^)]+\): Applied revision: main@sha1:/,
		);
		const object = await getJson(platformCluster(), appsPath);
		const requestedAt = (object.metadata as { annotations?: Record<string, string> }).annotations?.[
			'reconcile.fluxcd.io/requestedAt'
		];
		assert.ok(requestedAt);
		assert.equal(
			(object.status as { lastHandledReconcileAt?: string }).lastHandledReconcileAt,
			requestedAt,
			'the answer came once Flux had handled the request',
		);
		assert.ok(
			answer.log.some((line) =>
				/^Reconcile Kustomization flux-system\/apps in context platform: handled: .* \(\d+(\.\d)? s\)$/.test(
					line,
				),
			),
			answer.log.join('\n'),
		);
	});

	it('forces a Fleet update and waits until Fleet has taken the new forceSyncGeneration', async () => {
		const api = await extensionApi();
		const node = await eventually('the shop GitRepo in fleet-mgmt', () =>
			live(api, 'fleet-mgmt', 'GitRepo', 'shop'),
		);
		const answer = await vscode.commands.executeCommand<Detailed>(
			'kubeStatusLens.fleet.forceUpdate',
			node.id,
			{ confirmed: true, details: true },
		);
		assert.equal(answer.ok, true, answer.message);
		assert.match(
			answer.message,
			/^Fleet took the force update of GitRepo fleet-default\/shop in context fleet-mgmt/,
		);
		const object = await getJson(demoCluster('fleet-mgmt'), gitRepoPath);
		assert.equal(
			(object.status as { updateGeneration?: number }).updateGeneration,
			(object.spec as { forceSyncGeneration?: number }).forceSyncGeneration,
		);
		assert.ok(
			answer.log.some((line) =>
				/^Force Update GitRepo fleet-default\/shop in context fleet-mgmt: requested/.test(line),
			),
		);
	});

	it('keeps a failing HelmRelease red and counted when it is suspended', async () => {
		const api = await extensionApi();
		const cluster = platformCluster();
		const before = await getJson(cluster, releasePath);
		const conditions = (before.status as { conditions: unknown[] }).conditions;
		const failing = {
			status: {
				conditions: [
					{
						type: 'Ready',
						status: 'False',
						reason: 'UpgradeFailed',
						message: 'Helm upgrade failed: timed out waiting for the condition',
						lastTransitionTime: '2025-11-20T09:10:00Z',
					},
				],
			},
		};
		assert.equal(
			await call(
				cluster,
				'PATCH',
				`${releasePath}/status`,
				failing,
				'application/merge-patch+json',
			),
			200,
		);
		try {
			const failed = await eventually('podinfo to fail', () => {
				const node = live(api, 'platform', 'HelmRelease', 'podinfo');
				return node?.result?.state === 'Failed' ? node : undefined;
			});
			// The platform root's own count: the other contexts, reopened before these tests, may still be listing.
			const platformErrors = () =>
				api.graph.problemCountsByRoot().find((root) => root.rootId === 'live:platform')?.count;
			const errors = platformErrors();
			const answer = await vscode.commands.executeCommand<Detailed>(
				'kubeStatusLens.flux.suspend',
				failed.id,
				{ confirmed: true, details: true },
			);
			assert.equal(answer.ok, true, answer.message);
			assert.ok(
				answer.log.some((line) =>
					/^Suspend HelmRelease apps\/podinfo in context platform: done \(\d+(\.\d)? s\)$/.test(
						line,
					),
				),
				answer.log.join('\n'),
			);
			const suspended = await eventually('podinfo to show it is suspended', () => {
				const node = live(api, 'platform', 'HelmRelease', 'podinfo');
				return node?.contextFlags.suspended ? node : undefined;
			});
			assert.match(
				suspended.description,
				/^Suspended · Failed: Helm upgrade failed: timed out waiting for the condition/,
			);
			assert.equal(suspended.tone, 'error');
			assert.equal(platformErrors(), errors, 'it still counts as an error');
		} finally {
			await vscode.commands.executeCommand(
				'kubeStatusLens.flux.resume',
				live(api, 'platform', 'HelmRelease', 'podinfo')?.id,
				{ confirmed: true },
			);
			await call(
				cluster,
				'PATCH',
				`${releasePath}/status`,
				{ status: { conditions } },
				'application/merge-patch+json',
			);
		}
	});

	it('asks which live object when run without one, as from the command palette', async () => {
		const api = await extensionApi();
		await eventually('the apps Kustomization in platform', () =>
			live(api, 'platform', 'Kustomization', 'apps'),
		);
		let settled = false;
		const running = Promise.resolve(
			vscode.commands.executeCommand<Detailed>('kubeStatusLens.flux.reconcile', undefined, {
				confirmed: true,
				details: true,
			}),
		).finally(() => {
			settled = true;
		});
		// The first item (by context, then kind and name) is accepted once the picker shows.
		await eventually('the picker to take the first live Flux object', async () => {
			await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
			return settled;
		});
		const answer = await running;
		assert.equal(answer.ok, true, answer.message);
		assert.match(
			answer.message,
			/^Reconciled GitRepository flux-system\/flux-system in context platform \(generation \d+, as of [^)]+\): /,
		);
	});
});

describe('Diff Live Object with Manifest: the declaring manifest, key order aside', () => {
	/** podinfo in the platform context, from the graph: the describes above may leave a filter on the view. */
	const livePodinfo = (api: Awaited<ReturnType<typeof extensionApi>>): Promise<TreeNode> =>
		eventually('podinfo in the platform context', () => {
			const [id] = api.graph.findNodesForObject(
				'live:platform',
				'source.toolkit.fluxcd.io|HelmRepository|flux-system|podinfo',
			);
			return id ? api.graph.node(id) : undefined;
		});

	/** The two sides of the diff the command opened, once its tab names the file and line it compares with. */
	async function diffSides(place: string): Promise<[string, string]> {
		const shown = (): string => vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? 'none';
		const input = await eventually(
			() => `a diff with ${place} (the active tab: ${shown()})`,
			() => {
				const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
				return tab?.input instanceof vscode.TabInputTextDiff && tab.label.endsWith(`↔ ${place}`)
					? tab.input
					: undefined;
			},
		);
		const live = await vscode.workspace.openTextDocument(input.original);
		const manifest = await vscode.workspace.openTextDocument(input.modified);
		return [live.getText(), manifest.getText()];
	}

	it('from the tree, compares with the manifest, not the kubectl dump read first', async () => {
		const api = await extensionApi();
		const node = await livePodinfo(api);
		await vscode.commands.executeCommand('kubeStatusLens.live.diffWithManifest', node.id);
		// flux/dump.yaml holds podinfo too (in a List, with status), and the tree read it first.
		const [live, manifest] = await diffSides('helmrepositories.yaml:2');
		assert.match(manifest, /name: podinfo\n/);
		assert.match(live, /name: podinfo\n/);
	});

	it("prints the live object in the manifest's key order", async () => {
		const api = await extensionApi();
		const node = await livePodinfo(api);
		const folder = vscode.workspace.workspaceFolders?.[0];
		assert.ok(folder);
		const uri = vscode.Uri.joinPath(folder.uri, 'reordered.yaml');
		await vscode.workspace.fs.writeFile(
			uri,
			new TextEncoder().encode(
				'kind: HelmRepository\nspec:\n  url: https://stefanprodan.github.io/podinfo\n  interval: 5m0s\nmetadata:\n  namespace: flux-system\n  name: podinfo\napiVersion: source.toolkit.fluxcd.io/v1\n',
			),
		);
		try {
			await vscode.commands.executeCommand('kubeStatusLens.live.diffWithManifest', node.id, {
				uri: uri.toString(),
				line: 0,
			});
			const [live, manifest] = await diffSides('reordered.yaml:1');
			assert.match(manifest, /^kind: HelmRepository\nspec:\n {2}url: /);
			// The live object may hold more (an annotation from a reconcile): what both hold is in one order.
			const object = parse(live) as Record<string, Record<string, unknown>>;
			assert.deepEqual(Object.keys(object).slice(0, 4), ['kind', 'spec', 'metadata', 'apiVersion']);
			assert.deepEqual(Object.keys(object.spec ?? {}).slice(0, 2), ['url', 'interval']);
			assert.deepEqual(Object.keys(object.metadata ?? {}).slice(0, 2), ['namespace', 'name']);
		} finally {
			await vscode.workspace.fs.delete(uri);
		}
	});
});
