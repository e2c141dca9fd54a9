import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import * as vscode from 'vscode';
import { parse } from 'yaml';
import type { ExtensionApi } from '../../../src/vscode/extension.ts';
import type { TreeNode } from '../../../src/core/tree/treeNode.ts';

/** Activates the extension under test and waits until the workspace has been read. */
export async function extensionApi(): Promise<ExtensionApi> {
	const extension = vscode.extensions.getExtension<ExtensionApi>(
		'kube-status-lens.kube-status-lens',
	);
	assert.ok(extension, 'the extension is installed in the host');
	const api = await extension.activate();
	await api.ready();
	return api;
}

/** Polls until `check` returns a value, or fails with `what` after `ms`. */
export async function eventually<T>(
	what: string | (() => string),
	check: () => T | undefined | false | Promise<T | undefined | false>,
	ms = 20_000,
): Promise<T> {
	const until = Date.now() + ms;
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() > until) {
			throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/**
 * Deletes a workspace file and waits until the tree holds nothing from it and no read is due: the file event must not
 * reach the next test (a late rescan there once reset what that test was counting).
 */
export async function deleteManifest(api: ExtensionApi, uri: vscode.Uri): Promise<void> {
	await vscode.workspace.fs.delete(uri);
	await eventually(
		`the tree to drop ${uri.path.slice(uri.path.lastIndexOf('/') + 1)}`,
		() =>
			api.graph.nodesFor(uri.toString(), Number.MAX_SAFE_INTEGER).length === 0 &&
			!api.manifests.scanPending,
	);
}

/** Depth-first walk of the tree as the provider serves it. */
export function walk(api: ExtensionApi, maxDepth = 10): TreeNode[] {
	const found: TreeNode[] = [];
	const visit = (id: string | undefined, depth: number): void => {
		if (depth > maxDepth) return;
		for (const childId of api.provider.getChildren(id)) {
			const node = api.graph.node(childId);
			if (!node) continue;
			found.push(node);
			visit(childId, depth + 1);
		}
	};
	visit(undefined, 0);
	return found;
}

/** The first node whose label matches. */
export function findNode(
	api: ExtensionApi,
	label: string | RegExp,
	kind?: TreeNode['kind'],
): TreeNode | undefined {
	return walk(api).find(
		(node) =>
			(typeof label === 'string' ? node.label === label : label.test(node.label)) &&
			(!kind || node.kind === kind),
	);
}

/** Sends a request to a context of the demo cluster (read from the suite's kubeconfig); answers status and body. */
export function demoRequest(
	context: string,
	method: string,
	path: string,
	body?: unknown,
	contentType = 'application/json',
): Promise<{ readonly status: number; readonly body: string }> {
	const config = parse(readFileSync(process.env.KUBECONFIG ?? '', 'utf8')) as {
		clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
		users: { name: string; user: { token: string } }[];
	};
	const cluster = config.clusters.find((entry) => entry.name === context)?.cluster;
	const token = config.users.find((entry) => entry.name === context)?.user.token;
	assert.ok(cluster && token, `the kubeconfig has a ${context} context`);
	return new Promise((resolve, reject) => {
		const outgoing = request(
			new URL(path, cluster.server),
			{
				method,
				ca: Buffer.from(cluster['certificate-authority-data'], 'base64').toString(),
				headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
			},
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () =>
					resolve({
						status: response.statusCode ?? 0,
						body: Buffer.concat(chunks).toString('utf8'),
					}),
				);
			},
		);
		outgoing.on('error', reject);
		outgoing.end(body === undefined ? undefined : JSON.stringify(body));
	});
}
