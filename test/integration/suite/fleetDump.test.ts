import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import * as vscode from 'vscode';
import { eventually, extensionApi, findNode } from './support.ts';

/** A gzipped tar of the entries, written as tar-stream writes one (as Go's archive/tar does for `fleet dump`). */
async function writeArchive(path: string, entries: Record<string, string>): Promise<void> {
	const archive = pack();
	const chunks: Buffer[] = [];
	archive.on('data', (chunk: unknown) => {
		chunks.push(chunk as Buffer);
	});
	const ended = new Promise<void>((resolve) => archive.on('end', () => resolve()));
	for (const [name, body] of Object.entries(entries)) {
		archive.entry({ name, mode: 0o644, mtime: new Date(0) }, body);
	}
	archive.finalize();
	await ended;
	writeFileSync(path, gzipSync(Buffer.concat(chunks)));
}

const bundle = `apiVersion: fleet.cattle.io/v1alpha1
kind: Bundle
metadata: {name: dumped-app, namespace: fleet-dumped, generation: 1}
status:
  observedGeneration: 1
  summary: {desiredReady: 1, ready: 0, errApplied: 1}
  conditions:
  - {type: Ready, status: "False", message: "ErrApplied(1) [Cluster fleet-dumped/edge: boom]"}
`;

describe('fleet dump archives as roots', () => {
	it('opens a dump as a root named after the file, with its objects rated as manifests are', async () => {
		const api = await extensionApi();
		await api.ready();
		const folder = mkdtempSync(join(tmpdir(), 'ksl-dump-'));
		const path = join(folder, 'support-case.tgz');
		await writeArchive(path, {
			'bundles_fleet-dumped_dumped-app': bundle,
			'events_fleet-dumped':
				'{"reason":"ErrApplied","type":"Warning","involvedObject":{"kind":"Bundle","namespace":"fleet-dumped","name":"dumped-app"}}',
		});
		await vscode.commands.executeCommand('kubeStatusLens.fleetDump.open', vscode.Uri.file(path));
		const root = await eventually('a root for the archive', () =>
			api.provider
				.getChildren()
				.map((id) => api.graph.node(id))
				.find((node) => node?.label === 'support-case.tgz'),
		);
		const objects = api.graph.objectsOf(root.rootId);
		assert.deepEqual(
			objects.map((object) => (object.metadata as { name?: string } | undefined)?.name),
			['dumped-app'],
		);
		const node = findNode(api, 'dumped-app', 'object');
		assert.equal(node?.rootId, root.rootId);
		assert.equal(node.tone, 'error');
		assert.equal(node.sources?.[0]?.label, 'support-case.tgz: bundles_fleet-dumped_dumped-app');
		// No file to open: the entry lives inside the archive.
		assert.doesNotMatch(api.provider.getTreeItem(node.id).contextValue ?? '', /hasManifest/);
	});

	it('reads a dump opened earlier again at the next start, until the user closes it', async () => {
		const api = await extensionApi();
		await api.ready();
		const folder = mkdtempSync(join(tmpdir(), 'ksl-dump-'));
		const path = join(folder, 'kept.tgz');
		await writeArchive(path, {
			'bundles_fleet-dumped_kept-app': bundle.replace('dumped-app', 'kept-app'),
		});
		const rootOf = () =>
			api.provider
				.getChildren()
				.map((id) => api.graph.node(id))
				.find((node) => node?.label === 'kept.tgz');
		await vscode.commands.executeCommand('kubeStatusLens.fleetDump.open', vscode.Uri.file(path));
		await eventually('a root for the opened archive', rootOf);
		// A later start of the window: no root until what the last session opened is read again.
		api.dumps.forget(vscode.Uri.file(path));
		assert.equal(rootOf(), undefined);
		await api.dumps.restoreOpened();
		const again = await eventually('the archive read again at the next start', rootOf);
		// Close Fleet Dump, on the root's row: the root goes, and the next start does not read it.
		assert.equal(
			api.provider.getTreeItem(again.id).contextValue,
			'kubeStatusLensNode:root:fleetDump',
		);
		assert.equal(
			await vscode.commands.executeCommand('kubeStatusLens.fleetDump.close', again.id),
			true,
		);
		await eventually('the closed root gone', () => (rootOf() ? undefined : true));
		await api.dumps.restoreOpened();
		assert.equal(rootOf(), undefined);
	});

	it('follows an archive in the workspace: added, rewritten and deleted', async () => {
		const api = await extensionApi();
		await api.ready();
		const workspace = vscode.workspace.workspaceFolders?.[0];
		assert.ok(workspace);
		const path = join(workspace.uri.fsPath, 'watched-dump.tgz');
		const rootOf = () =>
			api.provider
				.getChildren()
				.map((id) => api.graph.node(id))
				.find((node) => node?.label === 'watched-dump.tgz');
		const namesIn = (rootId: string) =>
			api.graph
				.objectsOf(rootId)
				.map((object) => (object.metadata as { name?: string } | undefined)?.name)
				.sort();
		await writeArchive(path, { 'bundles_fleet-dumped_dumped-app': bundle });
		const root = await eventually('a root for the archive written into the workspace', rootOf);
		assert.deepEqual(namesIn(root.rootId), ['dumped-app']);
		await writeArchive(path, {
			'bundles_fleet-dumped_other-app': bundle.replace('dumped-app', 'other-app'),
		});
		await eventually('the rewritten archive read again, without the entry it lost', () =>
			JSON.stringify(namesIn(root.rootId)) === JSON.stringify(['other-app']) ? true : undefined,
		);
		rmSync(path);
		await eventually('the root gone with its archive', () => (rootOf() ? undefined : true));
	});

	it("opens an object's archive entry read-only, with Fleet's checks of that archive in Problems", async () => {
		const api = await extensionApi();
		await api.ready();
		const folder = mkdtempSync(join(tmpdir(), 'ksl-dump-'));
		const path = join(folder, 'deleting.tgz');
		await writeArchive(path, {
			'bundles_fleet-dumped_going-app': bundle
				.replace('dumped-app', 'going-app')
				.replace('generation: 1}', "generation: 1, deletionTimestamp: '2026-01-01T00:00:00Z'}"),
		});
		await vscode.commands.executeCommand('kubeStatusLens.fleetDump.open', vscode.Uri.file(path));
		const node = await eventually('the Bundle read from the archive', () =>
			findNode(api, 'going-app', 'object'),
		);
		assert.match(api.provider.getTreeItem(node.id).contextValue ?? '', /:archiveEntry/);
		const uri = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.fleetDump.openEntry',
			node.id,
		);
		assert.ok(uri, 'an entry document was opened');
		const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
		assert.equal(document.uri.scheme, 'kube-status-lens-dump');
		// The tab names the archive and the entry as `fleet dump` wrote it.
		assert.match(document.uri.path, /deleting\.tgz bundles_fleet-dumped_going-app\.yaml$/);
		assert.match(document.getText(), /kind: Bundle/);
		const diagnostic = await eventually("Fleet's check on the entry", () =>
			vscode.languages
				.getDiagnostics(document.uri)
				.find((found) => found.code === 'fleet-bundles-with-deletion-timestamp'),
		);
		assert.match(diagnostic.message, /^Bundle fleet-dumped\/going-app: /);
	});

	it('shows fleet monitor output in Problems: the latest findings on their names, and what changed', async () => {
		const folder = mkdtempSync(join(tmpdir(), 'ksl-monitor-'));
		const path = join(folder, 'monitor.jsonl');
		const first = { timestamp: '2026-03-01T11:00:00Z', gitrepos: [], diagnostics: {} };
		const stuck = {
			namespace: 'fleet-local',
			name: 'stuck-bd',
			deploymentID: 's-new:options',
			appliedDeploymentID: 's-old:options',
		};
		const second = {
			timestamp: '2026-03-01T12:00:00Z',
			bundledeployments: [stuck],
			diagnostics: { stuckBundleDeployments: [stuck] },
		};
		writeFileSync(path, `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);
		const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
		await vscode.window.showTextDocument(document);
		const stuckFinding = await eventually('the stuck BundleDeployment in Problems', () =>
			vscode.languages
				.getDiagnostics(document.uri)
				.find((found) => found.code === 'fleet-stuck-bundle-deployments'),
		);
		assert.equal(stuckFinding.severity, vscode.DiagnosticSeverity.Error);
		assert.equal(stuckFinding.range.start.line, 1);
		assert.equal(document.getText(stuckFinding.range), '"stuck-bd"');
		const changes = vscode.languages
			.getDiagnostics(document.uri)
			.find((found) => found.code === 'fleet-monitor-changes');
		assert.match(changes?.message ?? '', /Stuck BundleDeployments: 0 → 1 ↑/);
	});

	it('leaves an archive that is not a dump (a Helm chart) without a root', async () => {
		const api = await extensionApi();
		const folder = mkdtempSync(join(tmpdir(), 'ksl-chart-'));
		const path = join(folder, 'mychart-0.1.0.tgz');
		await writeArchive(path, { 'mychart/Chart.yaml': 'apiVersion: v2\nname: mychart\n' });
		await vscode.commands.executeCommand('kubeStatusLens.fleetDump.open', vscode.Uri.file(path));
		assert.ok(
			!api.provider.getChildren().some((id) => api.graph.node(id)?.label === 'mychart-0.1.0.tgz'),
		);
	});
});
