import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { deleteManifest, eventually, extensionApi, findNode, walk } from './support.ts';
import { objectPicksOf } from '../../../src/core/tree/objectPicks.ts';
import { ResourceTreeProvider } from '../../../src/vscode/tree/resourceTreeProvider.ts';

const folder = (): vscode.Uri => {
	const first = vscode.workspace.workspaceFolders?.[0];
	assert.ok(first, 'a workspace folder is open');
	return first.uri;
};

/** Accepts what the quick pick or input box a command opens offers first, until the command finishes. */
async function acceptingQuickInput(command: Thenable<unknown>): Promise<void> {
	let finished = false;
	const done = Promise.resolve(command).finally(() => {
		finished = true;
	});
	await eventually('the command to finish', async () => {
		if (!finished) {
			await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		return finished;
	});
	await done;
}

describe('the resource tree on the example workspace', () => {
	it('shows one root with a group per system that has objects', async () => {
		const api = await extensionApi();
		const roots = api.provider.getChildren();
		assert.deepEqual(
			roots.map((id) => api.graph.node(id)?.label),
			['Workspace manifests'],
		);
		const systems = api.provider.getChildren(roots[0]).map((id) => api.graph.node(id)?.label);
		for (const system of ['Fleet', 'KubeStellar', 'Harbor', 'Flux', 'Azure Service Operator']) {
			assert.ok(systems.includes(system), `${system} in ${systems.join(', ')}`);
		}
	});

	it('gives every object item a coloured codicon, a text description and an accessible label', async () => {
		const api = await extensionApi();
		const objects = walk(api).filter((node) => node.kind === 'object');
		assert.ok(objects.length > 20, `${objects.length} objects`);
		for (const node of objects) {
			const item = api.provider.getTreeItem(node.id);
			assert.ok(item.iconPath instanceof vscode.ThemeIcon, `${node.label} has a ThemeIcon`);
			assert.ok(
				item.iconPath.color instanceof vscode.ThemeColor,
				`${node.label} icon is coloured by theme`,
			);
			assert.ok(
				typeof item.description === 'string' && item.description.length > 0,
				`${node.label} has a description`,
			);
			assert.ok(item.accessibilityInformation?.label.includes(node.label));
			assert.match(item.contextValue ?? '', /^kubeStatusLens:file:/);
		}
	});

	it('says how long a failing row has been failing, and redraws that age as time passes', async () => {
		const api = await extensionApi();
		const node = findNode(api, /private-charts/, 'object');
		assert.ok(node, 'private-charts is in the tree');
		// Its Ready condition turned False at 2026-11-22T07:58:00Z (examples/workspace/flux/dump.yaml).
		const days = Math.floor((Date.now() - Date.parse('2026-11-22T07:58:00Z')) / 86_400_000);
		const item = api.provider.getTreeItem(node.id);
		const expected = days >= 1 ? `Failed for ${days} day${days === 1 ? '' : 's'}` : 'Failed for ';
		assert.ok(String(item.description).startsWith(expected), String(item.description));
		assert.ok(item.accessibilityInformation?.label.includes(expected));
		const ready = walk(api).find((row) => row.kind === 'object' && row.tone === 'ok');
		assert.ok(ready, 'a ready row');
		assert.doesNotMatch(String(api.provider.getTreeItem(ready.id).description), / for /);
		const redrawn = new Promise<readonly string[]>((resolve) => {
			const listener = api.provider.onDidChangeTreeData((ids) => {
				if (Array.isArray(ids) && ids.includes(node.id)) {
					listener.dispose();
					resolve(ids);
				}
			});
		});
		await vscode.commands.executeCommand('kubeStatusLens.resources.focus');
		await eventually('the view to be visible', () => api.view.visible);
		api.provider.redrawAges();
		const ids = await redrawn;
		assert.ok(!ids.includes(ready.id), 'rows without an age are not redrawn');
	});

	it('marks the failing Flux repository as an error with its message in the tooltip', async () => {
		const api = await extensionApi();
		const node = findNode(api, /private-charts/, 'object');
		assert.ok(node, 'private-charts is in the tree');
		const item = api.provider.getTreeItem(node.id);
		assert.match(String(item.description), /^Failed/);
		assert.equal((item.iconPath as vscode.ThemeIcon).id, 'error');
		const resolved = api.provider.resolveTreeItem(item, node.id);
		const tooltip = resolved.tooltip as vscode.MarkdownString;
		assert.ok(tooltip instanceof vscode.MarkdownString);
		// Trusted for the Read-from link's one command only.
		assert.deepEqual(tooltip.isTrusted, { enabledCommands: ['kubeStatusLens.readFrom.open'] });
		assert.equal(tooltip.supportHtml, false);
		assert.match(tooltip.value, /401 Unauthorized/);
		// The message once and whole, then the conditions on one line without their messages.
		assert.equal(tooltip.value.split('401 Unauthorized').length, 2, tooltip.value);
		assert.match(tooltip.value, /^Conditions: .*Ready False \\\(AuthenticationFailed\\\)/m);
		// How long it has failed, as the dashboards say it (the dump's Ready went False on 2026-11-22).
		assert.match(
			tooltip.value.replaceAll('\\', ''),
			/Ready False since 2026-11-22 07:58 UTC, (\d+ (min|h) ago|\d+ days? ago)/,
		);
	});

	it('shows a manifest without status as declared, never as ready', async () => {
		const api = await extensionApi();
		// A HelmRepository of the default type that no dump reports on: declared only (an oci one would be Ready).
		const uri = vscode.Uri.joinPath(folder(), 'declared-only.yaml');
		await vscode.workspace.fs.writeFile(
			uri,
			new TextEncoder().encode(
				'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: declared-only\n  namespace: test\nspec:\n  url: https://example.com/charts\n',
			),
		);
		try {
			const plain = await eventually('the declared HelmRepository in the tree', () =>
				walk(api).find((node) => node.kind === 'object' && node.ref?.name === 'declared-only'),
			);
			assert.equal(plain.result?.observed, false);
			assert.equal(plain.contextFlags.declared, true);
			assert.notEqual(plain.tone, 'ok', 'a declared repository is not ok');
			const declared = walk(api).filter((node) => node.contextFlags.declared);
			for (const node of declared) {
				assert.notEqual(node.tone, 'ok', `${node.label} declared but ok`);
			}
		} finally {
			await deleteManifest(api, uri);
		}
	});

	it('updates the tree when a file is added, edited and deleted', async () => {
		const api = await extensionApi();
		const uri = vscode.Uri.joinPath(folder(), 'added-by-test.yaml');
		const manifest = (state: 'True' | 'False') =>
			`apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: test-added\n  namespace: test\n  generation: 1\nspec:\n  url: https://example.com\nstatus:\n  observedGeneration: 1\n  conditions:\n  - type: Ready\n    status: "${state}"\n    reason: ${state === 'True' ? 'Succeeded' : 'AuthenticationFailed'}\n    message: from the test\n`;
		await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(manifest('True')));
		const added = await eventually('the added repository', () =>
			findNode(api, /test-added/, 'object'),
		);
		assert.equal(added.tone, 'ok');
		await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(manifest('False')));
		await eventually(
			'the edited repository to fail',
			() => findNode(api, /test-added/, 'object')?.tone === 'error',
		);
		await vscode.workspace.fs.delete(uri);
		await eventually('the repository to go', () => !findNode(api, /test-added/, 'object'));
	});

	it('shows only problems, and everything again', async () => {
		const api = await extensionApi();
		await vscode.commands.executeCommand('kubeStatusLens.tree.showOnlyProblems');
		const objects = walk(api).filter((node) => node.kind === 'object');
		assert.ok(objects.length > 0);
		const leaves = objects.filter((node) => api.provider.getChildren(node.id).length === 0);
		for (const node of leaves) {
			assert.ok(node.tone === 'error' || node.tone === 'warning', `${node.label} is ${node.tone}`);
		}
		await vscode.commands.executeCommand('kubeStatusLens.tree.showAll');
		assert.ok(walk(api).some((node) => node.kind === 'object' && node.tone === 'ok'));
	});

	it('shows the resources in error from the status bar item "N in error"', async () => {
		const api = await extensionApi();
		assert.ok(api.graph.problemCount() > 0);
		assert.notEqual(api.provider.currentFilter.problemsOnly, true);
		// What the status bar item runs while something is in error (problemsStatusBar.ts).
		await vscode.commands.executeCommand('kubeStatusLens.tree.showProblems');
		assert.equal(api.provider.currentFilter.problemsOnly, true);
		assert.match(api.view.message ?? '', /problems only/);
		await eventually('the view to show', () => api.view.visible);
		const leaves = walk(api).filter(
			(node) => node.kind === 'object' && api.provider.getChildren(node.id).length === 0,
		);
		assert.ok(leaves.length > 0);
		for (const node of leaves) {
			assert.ok(node.tone === 'error' || node.tone === 'warning', `${node.label} is ${node.tone}`);
		}
		await vscode.commands.executeCommand('kubeStatusLens.tree.clearFilters');
		assert.notEqual(api.provider.currentFilter.problemsOnly, true);
	});

	it('filters by name and by namespace, says so in the view, and clears the filters', async () => {
		const api = await extensionApi();
		await vscode.commands.executeCommand('kubeStatusLens.tree.filterByName', {
			nameContains: 'legacy',
		});
		const named = walk(api).filter((node) => node.kind === 'object');
		assert.ok(named.some((node) => node.label.includes('legacy')));
		assert.ok(!named.some((node) => node.label.includes('podinfo')));
		assert.match(api.view.description ?? '', /name contains "legacy"/);
		const message = /: (\d+) of \d+ objects shown/.exec(api.view.message ?? '');
		assert.ok(message, api.view.message);
		// The root's counts say how many of its objects the filter leaves, before its totals.
		const rootId = api.provider.getChildren()[0] ?? '';
		const rootItem = api.provider.getTreeItem(rootId);
		assert.match(String(rootItem.description), new RegExp(`^${message[1]} shown · \\d+ objects`));
		await vscode.commands.executeCommand('kubeStatusLens.tree.clearFilters');
		assert.match(String(api.provider.getTreeItem(rootId).description), /^\d+ objects/);
		await vscode.commands.executeCommand('kubeStatusLens.tree.filterByNamespace', {
			namespace: 'harbor-dr',
		});
		const inNamespace = walk(api).filter((node) => node.kind === 'object');
		assert.ok(inNamespace.length > 0);
		assert.ok(
			inNamespace.every(
				(node) =>
					node.ref?.namespace === 'harbor-dr' || api.provider.getChildren(node.id).length > 0,
			),
		);
		assert.match(api.view.description ?? '', /namespace harbor-dr/);
		await vscode.commands.executeCommand('kubeStatusLens.tree.clearFilters');
		assert.ok(walk(api).some((node) => node.label.includes('podinfo')));
		assert.equal(api.view.description ?? '', '');
		assert.equal(api.view.message ?? '', '');
	});

	it('asks for the namespace when run from the view menu with a row selected, never filtering by its id', async () => {
		const api = await extensionApi();
		const row = findNode(api, /harbor-dr/, 'object');
		assert.ok(row);
		const namespaces = [
			...new Set(
				walk(api).flatMap((node) =>
					node.kind === 'object' && node.ref?.namespace ? [node.ref.namespace] : [],
				),
			),
		].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
		// VS Code hands a title-menu command the selected element: the tree id.
		await acceptingQuickInput(
			vscode.commands.executeCommand('kubeStatusLens.tree.filterByNamespace', row.id),
		);
		try {
			// The first entry of the question, not the row's id.
			assert.equal(api.provider.currentFilter.namespace, namespaces[0]);
			assert.match(api.view.description ?? '', new RegExp(`namespace ${namespaces[0]}`));
		} finally {
			await vscode.commands.executeCommand('kubeStatusLens.tree.clearFilters');
		}
	});

	it('asks for the name, prefilled with the current filter, when run with a row selected', async () => {
		const api = await extensionApi();
		const row = findNode(api, /private-charts/, 'object');
		assert.ok(row);
		await vscode.commands.executeCommand('kubeStatusLens.tree.filterByName', {
			nameContains: 'legacy',
		});
		try {
			await acceptingQuickInput(
				vscode.commands.executeCommand('kubeStatusLens.tree.filterByName', row.id),
			);
			assert.equal(api.provider.currentFilter.nameContains, 'legacy');
		} finally {
			await vscode.commands.executeCommand('kubeStatusLens.tree.clearFilters');
		}
	});

	it('shows one row that explains a filter hiding everything, which clears it on click', async () => {
		const api = await extensionApi();
		await vscode.commands.executeCommand('kubeStatusLens.tree.filterByNamespace', {
			namespace: 'no-such-namespace',
		});
		const rows = api.provider.getChildren();
		assert.equal(rows.length, 1);
		const item = api.provider.getTreeItem(rows[0] ?? '');
		const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
		assert.match(label, /^No objects match namespace no-such-namespace/);
		assert.equal(item.command?.command, 'kubeStatusLens.tree.clearFilters');
		assert.match(api.view.message ?? '', /0 of \d+ objects shown/);
		await vscode.commands.executeCommand(item.command.command);
		assert.deepEqual(
			api.provider.getChildren().map((id) => api.graph.node(id)?.label),
			['Workspace manifests'],
		);
	});

	it('explains a failing object in a read-only Markdown document that walks the chain', async () => {
		const api = await extensionApi();
		const harbor = findNode(api, /harbor-dr/, 'object');
		assert.ok(harbor);
		const uri =
			(await vscode.commands.executeCommand<string>(
				'kubeStatusLens.resource.explain',
				harbor.id,
			)) ?? '';
		const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
		// The tab names the root the object was explained in.
		assert.equal(vscode.Uri.parse(uri).path, '/Explain harbor-dr (Workspace manifests).md');
		const text = document.getText();
		assert.match(text, /^# /);
		assert.match(text, /unhealthy/);
		assert.match(text, /StorageReady/);
		assert.match(text, /## What other tools will say/);
	});

	it('refuses a kubeconfig path from the workspace settings', async () => {
		await extensionApi();
		await assert.rejects(
			Promise.resolve(
				vscode.workspace
					.getConfiguration('kubeStatusLens.clusters')
					.update(
						'kubeconfig',
						'/tmp/a-repository-chose-this',
						vscode.ConfigurationTarget.Workspace,
					),
			),
			/does not support the folder resource scope|Unable to write/,
		);
		assert.notEqual(
			vscode.workspace.getConfiguration('kubeStatusLens.clusters').inspect('kubeconfig')
				?.workspaceValue,
			'/tmp/a-repository-chose-this',
		);
	});

	it('copies a status summary to the clipboard', async () => {
		const api = await extensionApi();
		const node = findNode(api, /private-charts/, 'object');
		assert.ok(node);
		await vscode.commands.executeCommand('kubeStatusLens.resource.copySummary', node.id);
		const text = await vscode.env.clipboard.readText();
		assert.match(text, /private-charts/);
		assert.match(text, /Failed/);
	});

	it('opens the manifest of an object at its line, and reveals the item for the active editor', async () => {
		const api = await extensionApi();
		const node = findNode(api, /(^|\/)legacy$/, 'object');
		assert.ok(node);
		await vscode.commands.executeCommand('kubeStatusLens.resource.openManifest', node.id);
		const editor = await eventually('the manifest editor', () => vscode.window.activeTextEditor);
		assert.match(editor.document.uri.path, /flux\/dump\.yaml$/);
		const line = editor.document.lineAt(editor.selection.active.line).text;
		assert.match(line, /apiVersion|kind/);
		const revealed = await vscode.commands.executeCommand<string | undefined>(
			'kubeStatusLens.tree.revealActiveManifest',
		);
		assert.match(api.graph.node(revealed ?? '')?.label ?? '', /legacy/);
		const selected = await eventually(
			`the revealed item to be selected (view visible: ${api.view.visible})`,
			() => api.view.selection[0],
		);
		assert.equal(selected, revealed);
	});

	it('counts objects in error on the view badge', async () => {
		const api = await extensionApi();
		const errors = api.graph.problemCount();
		assert.ok(errors > 0);
		assert.equal(api.view.badge?.value, errors);
	});
});

describe('the file size setting, renamed so the Settings editor titles it "Max File Size KB"', () => {
	it('still reads the old maxFileSizeKiB while the new key is not set, and prefers the new key', async () => {
		const api = await extensionApi();
		const config = () => vscode.workspace.getConfiguration('kubeStatusLens.workspace');
		const repository = (name: string, padding: number) =>
			new TextEncoder().encode(
				`# ${'x'.repeat(padding)}\napiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: ${name}\n  namespace: test\nspec:\n  url: https://example.com/charts\n`,
			);
		const shown = (name: string) => () =>
			walk(api).some((node) => node.kind === 'object' && node.ref?.name === name);
		const big = vscode.Uri.joinPath(folder(), 'size-limit-big.yaml');
		const small = vscode.Uri.joinPath(folder(), 'size-limit-small.yaml');
		try {
			await config().update('maxFileSizeKiB', 2, vscode.ConfigurationTarget.Workspace);
			await vscode.workspace.fs.writeFile(big, repository('size-limit-big', 3000));
			await vscode.workspace.fs.writeFile(small, repository('size-limit-small', 10));
			// Read after the big file: by then the big one was read or skipped.
			await eventually('the small file read', shown('size-limit-small'));
			assert.equal(shown('size-limit-big')(), false, 'the old key limits the size to 2 KiB');
			await config().update('maxFileSizeKB', 64, vscode.ConfigurationTarget.Workspace);
			await vscode.workspace.fs.writeFile(big, repository('size-limit-big', 3001));
			await eventually('the big file read under the new key', shown('size-limit-big'));
		} finally {
			await config().update('maxFileSizeKB', undefined, vscode.ConfigurationTarget.Workspace);
			await config().update('maxFileSizeKiB', undefined, vscode.ConfigurationTarget.Workspace);
			await deleteManifest(api, big);
			await deleteManifest(api, small);
		}
	});
});

describe('Open Manifest: the file that declares the object, not a kubectl dump of it', () => {
	const gitRepoShop = (api: Awaited<ReturnType<typeof extensionApi>>) =>
		walk(api).find(
			(node) => node.kind === 'object' && node.ref?.kind === 'GitRepo' && node.ref.name === 'shop',
		);
	const sourcePaths = (api: Awaited<ReturnType<typeof extensionApi>>): string[] =>
		(gitRepoShop(api)?.sources ?? []).map((source) => vscode.Uri.parse(source.sourceId).path);

	/** Runs Open Manifest and, while its quick pick is up, takes the last item (or the first). */
	async function openManifestTaking(id: string, item: 'first' | 'last'): Promise<string> {
		let opened: string | undefined;
		const command = Promise.resolve(
			vscode.commands.executeCommand<string | undefined>(
				'kubeStatusLens.resource.openManifest',
				id,
			),
		).then((result) => {
			opened = result ?? 'nothing';
		});
		await eventually('Open Manifest to finish', async () => {
			if (opened === undefined) {
				if (item === 'last') {
					// Twice: a pick that opened just before the first may have had no items yet.
					await vscode.commands.executeCommand('quickInput.last');
					await new Promise((resolve) => setTimeout(resolve, 100));
					await vscode.commands.executeCommand('quickInput.last');
				}
				await vscode.commands.executeCommand('quickInput.accept');
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
			return opened;
		});
		await command;
		return opened ?? '';
	}

	it('opens the manifest a person wrote, though the tree read the dump too, without asking', async () => {
		const api = await extensionApi();
		const cases = [
			{
				kind: 'GitRepo',
				name: 'shop',
				dump: 'fleet/dump.yaml',
				manifest: 'fleet/manifests/gitrepo.yaml',
			},
			{
				kind: 'HelmRepository',
				name: 'podinfo',
				dump: 'flux/dump.yaml',
				manifest: 'flux/helmrepositories.yaml',
			},
			{
				kind: 'HarborCluster',
				name: 'harbor',
				dump: 'harbor/dump.yaml',
				manifest: 'harbor/harborcluster.yaml',
			},
		];
		for (const { kind, name, dump, manifest } of cases) {
			const node = await eventually(`${kind} ${name} from both files`, () =>
				walk(api).find((found) => {
					const paths = (found.sources ?? []).map((source) => source.sourceId);
					return (
						found.kind === 'object' &&
						found.ref?.kind === kind &&
						found.ref.name === name &&
						paths.some((path) => path.endsWith(dump)) &&
						paths.some((path) => path.endsWith(manifest))
					);
				}),
			);
			// No quick pick: the command finishes by itself.
			const opened = await vscode.commands.executeCommand<string>(
				'kubeStatusLens.resource.openManifest',
				node.id,
			);
			assert.ok(opened.endsWith(`${manifest}#2`), `${kind} ${name}: ${opened}`);
			const editor = await eventually('the manifest editor', () =>
				vscode.window.activeTextEditor?.document.uri.path.endsWith(manifest)
					? vscode.window.activeTextEditor
					: undefined,
			);
			assert.match(editor.document.lineAt(editor.selection.active.line).text, /^apiVersion: /);
		}
	});

	it('asks when two manifests declare it, best first, and still offers the dump', async () => {
		const api = await extensionApi();
		const copy = vscode.Uri.joinPath(folder(), 'fleet/manifests/gitrepo-copy.yaml');
		const original = await vscode.workspace.fs.readFile(
			vscode.Uri.joinPath(folder(), 'fleet/manifests/gitrepo.yaml'),
		);
		try {
			await vscode.workspace.fs.writeFile(copy, original);
			const node = await eventually('GitRepo shop read from the copy too', () =>
				sourcePaths(api).some((path) => path.endsWith('gitrepo-copy.yaml'))
					? gitRepoShop(api)
					: undefined,
			);
			// Sorted manifests first (by path), the dump last.
			assert.match(
				await openManifestTaking(node.id, 'first'),
				/fleet\/manifests\/gitrepo-copy\.yaml#2$/,
			);
			const dumpLine = new TextDecoder()
				.decode(
					await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder(), 'fleet/dump.yaml')),
				)
				.split('\n')
				.findIndex(
					(line, index, lines) =>
						line === '- apiVersion: fleet.cattle.io/v1alpha1' &&
						lines[index + 1] === '  kind: GitRepo',
				);
			assert.ok(dumpLine > 0);
			assert.match(
				await openManifestTaking(node.id, 'last'),
				new RegExp(`fleet/dump\\.yaml#${dumpLine + 1}$`),
			);
		} finally {
			await vscode.workspace.fs.delete(copy);
			await eventually(
				'the copy forgotten',
				() => !sourcePaths(api).some((path) => path.endsWith('gitrepo-copy.yaml')),
			);
		}
	});
});

describe('what a new user trips over: expansion, the Explain picker, group counts (issue 15)', () => {
	it('opens after a window reload the nodes the user had open', async () => {
		const api = await extensionApi();
		// A group the suite has not opened yet (groups start closed).
		const category = walk(api).find(
			(node) => node.kind === 'category' && !api.provider.wasExpanded(node.id),
		);
		assert.ok(category, 'a closed group');
		const fresh = new ResourceTreeProvider(api.graph, api.provider.workspaceState);
		const closedBefore = fresh.getTreeItem(category.id).collapsibleState;
		fresh.dispose();
		assert.equal(closedBefore, vscode.TreeItemCollapsibleState.Collapsed, 'a group starts closed');
		await api.view.reveal(category.id, { expand: true });
		await eventually('the view to report the group open', () =>
			api.provider.wasExpanded(category.id),
		);
		// A reload starts a new provider on the same workspace memory; the real reload would end this test run.
		const reloaded = new ResourceTreeProvider(api.graph, api.provider.workspaceState);
		try {
			assert.equal(
				reloaded.getTreeItem(category.id).collapsibleState,
				vscode.TreeItemCollapsibleState.Expanded,
			);
		} finally {
			reloaded.dispose();
		}
	});

	it('a root tooltip counts objects as its row does, not its system groups as "item(s)"', async () => {
		const api = await extensionApi();
		const [rootId] = api.provider.getChildren();
		assert.ok(rootId);
		const root = api.graph.node(rootId);
		assert.ok(root);
		const item = api.provider.resolveTreeItem(api.provider.getTreeItem(rootId), rootId);
		const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : '';
		assert.match(root.description, /\d+ objects/);
		assert.ok(tooltip.includes(root.description), tooltip);
		assert.doesNotMatch(tooltip, /item/, tooltip);
		const flux = findNode(api, 'Flux', 'system');
		assert.ok(flux);
		const fluxTooltip = api.provider.resolveTreeItem(api.provider.getTreeItem(flux.id), flux.id)
			.tooltip as vscode.MarkdownString;
		assert.match(fluxTooltip.value, /\d+ objects\\?: \d+ ready, .*\d+ with problems/);
	});

	it('the Explain picker groups objects by where they come from and explains the one picked', async () => {
		const api = await extensionApi();
		const [first] = objectPicksOf(api.graph);
		assert.equal(first?.title, 'Workspace manifests');
		assert.match(
			first?.picks[0]?.description ?? '',
			/\.(ya?ml|json):\d+ · /,
			'names its file and line',
		);
		let uri: string | undefined;
		await acceptingQuickInput(
			vscode.commands
				.executeCommand<string>('kubeStatusLens.resource.explain')
				.then((value) => (uri = value)),
		);
		// The first entry under the first separator: the separator itself is not an object.
		const node = new URLSearchParams(vscode.Uri.parse(uri ?? '').query).get('node');
		assert.equal(node, first?.picks[0]?.id);
	});
});

describe('the Needs Attention list', () => {
	it('lists every object in error without expanding anything, most urgent first, each naming its root', async () => {
		const api = await extensionApi();
		await api.ready();
		const ids = api.attention.getChildren();
		const items = api.attention.current();
		assert.deepEqual(
			ids,
			items.map((item) => item.nodeId),
		);
		const errors = items.filter((item) => item.urgency === 'error');
		assert.equal(errors.length, api.graph.problemCount(), 'every object in error, once');
		const firstOther = items.findIndex((item) => item.urgency !== 'error');
		assert.ok(firstOther === -1 || firstOther === errors.length, 'errors come first');
		for (const id of ids) {
			const row = api.attention.getTreeItem(id);
			assert.match(String(row.description), / · Workspace manifests$/);
			assert.equal(row.command?.command, 'kubeStatusLens.attention.reveal');
			assert.match(row.contextValue ?? '', /^kubeStatusLens:file:/, 'the tree row menu applies');
		}
		const failing = api.attention.getTreeItem(errors[0]?.nodeId ?? '');
		assert.match(String(failing.description), / for \d+ (min|h|days?)\b/);
	});

	it('walks the problems in the tree with Next and Previous Problem', async () => {
		const api = await extensionApi();
		const items = api.attention.current();
		assert.ok(items.length >= 2);
		await vscode.commands.executeCommand('kubeStatusLens.tree.clearFilters');
		const first = await vscode.commands.executeCommand<string>('kubeStatusLens.attention.next');
		assert.equal(first, items[0]?.nodeId);
		await eventually(
			'the first problem selected in the tree',
			() => api.view.selection[0] === first,
		);
		const second = await vscode.commands.executeCommand<string>('kubeStatusLens.attention.next');
		assert.equal(second, items[1]?.nodeId);
		await eventually('the second problem selected', () => api.view.selection[0] === second);
		const back = await vscode.commands.executeCommand<string>('kubeStatusLens.attention.previous');
		assert.equal(back, first);
	});

	it('opens from the status bar item and reveals a row in the tree on click', async () => {
		const api = await extensionApi();
		await vscode.commands.executeCommand('kubeStatusLens.attention.focus');
		await eventually('the Needs Attention view to show', () => api.attentionView.visible);
		const last = api.attention.current().at(-1);
		assert.ok(last);
		const row = api.attention.getTreeItem(last.nodeId);
		assert.ok(row.command);
		assert.deepEqual(row.command.arguments, [last.nodeId]);
		const revealed = await vscode.commands.executeCommand<boolean>(
			row.command.command,
			last.nodeId,
		);
		assert.equal(revealed, true);
		await eventually('the row selected in the tree', () => api.view.selection[0] === last.nodeId);
	});

	it('Expand All opens every row under a GitRepo, down to what its BundleDeployments applied', async () => {
		const api = await extensionApi();
		await vscode.commands.executeCommand('kubeStatusLens.tree.clearFilters');
		await vscode.commands.executeCommand(
			'workbench.actions.treeView.kubeStatusLens.resources.collapseAll',
		);
		const shop = walk(api).find((node) => node.ref?.kind === 'GitRepo' && node.ref.name === 'shop');
		assert.ok(shop);
		const opened = await vscode.commands.executeCommand<number>(
			'kubeStatusLens.tree.expandAll',
			shop.id,
		);
		const below = (id: string): string[] =>
			api.provider.getChildren(id).flatMap((child) => [child, ...below(child)]);
		const withChildren = [shop.id, ...below(shop.id)].filter(
			(id) => api.provider.getChildren(id).length > 0,
		);
		assert.ok(withChildren.length >= 4, `rows with children under shop: ${withChildren.length}`);
		assert.equal(opened, withChildren.length);
		for (const id of withChildren) {
			await eventually(`${api.graph.node(id)?.label ?? id} opened out`, () =>
				api.provider.wasExpanded(id),
			);
		}
	});

	it('Show Only Problems opens out the groups that hold the problems', async () => {
		const api = await extensionApi();
		await vscode.commands.executeCommand('kubeStatusLens.tree.clearFilters');
		await vscode.commands.executeCommand(
			'workbench.actions.treeView.kubeStatusLens.resources.collapseAll',
		);
		await vscode.commands.executeCommand('kubeStatusLens.tree.showOnlyProblems');
		const errors = api.attention.current().filter((item) => item.urgency === 'error');
		assert.ok(errors.length > 0);
		for (const item of errors) {
			const parent = api.graph.parentOf(item.nodeId);
			if (!parent || parent.kind === 'root' || parent.kind === 'system') continue;
			await eventually(`${parent.label} opened out`, () => api.provider.wasExpanded(parent.id));
		}
		await vscode.commands.executeCommand('kubeStatusLens.tree.clearFilters');
	});
});

describe('links to the source', () => {
	it('offers Open Source on a GitRepo and a Bundle, and copies the repository with the commit they are at', async () => {
		const api = await extensionApi();
		const extension = vscode.extensions.all.find((candidate) =>
			candidate.id.toLowerCase().endsWith('kube-status-lens'),
		);
		const menus = (
			extension?.packageJSON as {
				contributes: { menus: Record<string, { command: string; when?: string }[]> };
			}
		).contributes.menus['view/item/context'];
		const openWhen =
			menus?.find((entry) => entry.command === 'kubeStatusLens.source.open')?.when ?? '';
		const itemPattern = /viewItem =~ \/(.+)\/$/.exec(openWhen)?.[1];
		assert.ok(itemPattern, openWhen);
		const gitRepo = walk(api).find(
			(node) => node.ref?.kind === 'GitRepo' && node.ref.name === 'shop',
		);
		const bundle = walk(api).find(
			(node) => node.ref?.kind === 'Bundle' && node.ref.name === 'shop-frontend',
		);
		const helmRepository = walk(api).find((node) => node.ref?.kind === 'HelmRepository');
		assert.ok(gitRepo && bundle && helmRepository);
		const menuFor = (id: string): boolean =>
			new RegExp(itemPattern).test(api.provider.getTreeItem(id).contextValue ?? '');
		assert.equal(menuFor(gitRepo.id), true, 'on the GitRepo');
		assert.equal(menuFor(bundle.id), true, 'on the Bundle');
		assert.equal(menuFor(helmRepository.id), false, 'not on a HelmRepository');
		// shop deploys two paths (frontend, cache): a user picks one; a caller names it.
		const copied = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.source.copy',
			gitRepo.id,
			'cache',
		);
		assert.match(copied, /^https:\/\/github\.com\/example\/shop-fleet [0-9a-f]{40} cache$/);
		assert.equal(await vscode.env.clipboard.readText(), copied);
		const fromBundle = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.source.copy',
			bundle.id,
		);
		assert.match(fromBundle, /^https:\/\/github\.com\/example\/shop-fleet [0-9a-f]{40}$/);
	});
});

describe("Fleet's troubleshooting checks on the tree", () => {
	it('shows what fleet analyze would report in the tooltip and Explain of the object it is about', async () => {
		const api = await extensionApi();
		const stuck = walk(api).find(
			(node) =>
				node.ref?.kind === 'BundleDeployment' &&
				node.ref.name === 'shop-frontend' &&
				node.ref.namespace.includes('prod-us-1'),
		);
		assert.ok(stuck, 'the prod-us-1 BundleDeployment of shop-frontend');
		const item = api.provider.getTreeItem(stuck.id);
		assert.match(String(item.description), / · fleet analyze: stuck bundle deployments( \+\d+)?$/);
		const tooltip = api.provider.resolveTreeItem(item, stuck.id).tooltip as vscode.MarkdownString;
		assert.match(tooltip.value, /What `fleet analyze` would report/);
		assert.match(tooltip.value, /✗ `fleet-stuck-bundle-deployments`/);
		const uri = await vscode.commands.executeCommand<string>(
			'kubeStatusLens.resource.explain',
			stuck.id,
		);
		const text = (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText();
		assert.match(text, /## Fleet's troubleshooting checks\n\n- ✗ `fleet-stuck-bundle-deployments`/);
		const healthy = walk(api).find(
			(node) => node.ref?.kind === 'BundleDeployment' && node.tone === 'ok',
		);
		assert.ok(healthy);
		const healthyTooltip = api.provider.resolveTreeItem(
			api.provider.getTreeItem(healthy.id),
			healthy.id,
		).tooltip as vscode.MarkdownString;
		assert.doesNotMatch(healthyTooltip.value, /fleet-stuck-bundle-deployments/);
		assert.doesNotMatch(String(api.provider.getTreeItem(healthy.id).description), /fleet analyze/);
	});
});
