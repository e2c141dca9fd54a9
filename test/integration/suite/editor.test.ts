import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { deleteManifest, eventually, extensionApi, walk } from './support.ts';

function fileUri(path: string): vscode.Uri {
	const folder = vscode.workspace.workspaceFolders?.[0];
	assert.ok(folder);
	return vscode.Uri.joinPath(folder.uri, path);
}

async function writeAndOpen(path: string, text: string): Promise<vscode.TextDocument> {
	const uri = fileUri(path);
	await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
	const document = await vscode.workspace.openTextDocument(uri);
	await vscode.window.showTextDocument(document);
	return document;
}

function codeOf(diagnostic: vscode.Diagnostic): string {
	const code = diagnostic.code;
	return typeof code === 'object' ? String(code.value) : String(code ?? '');
}

function textOf(content: vscode.MarkdownString | vscode.MarkedString): string {
	return content instanceof vscode.MarkdownString
		? content.value
		: typeof content === 'string'
			? content
			: content.value;
}

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
	return vscode.languages
		.getDiagnostics(uri)
		.filter((diagnostic) => diagnostic.source === 'Kube Status Lens');
}

const providerWithoutOci = `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: podinfo
  namespace: flux-system
spec:
  interval: 5m
  provider: aws
  url: oci://ghcr.io/stefanprodan/charts
`;

describe('hovers, diagnostics and quick fixes in manifests', () => {
	it('flags a provider without type: oci, and the quick fix sets type: oci', async () => {
		await extensionApi();
		const document = await writeAndOpen('editor-provider.yaml', providerWithoutOci);
		const diagnostics = await eventually('diagnostics', () => {
			const found = ours(document.uri);
			return found.length > 0 ? found : undefined;
		});
		const provider = diagnostics.find((diagnostic) => codeOf(diagnostic).includes('provider'));
		assert.ok(provider, diagnostics.map(codeOf).join(', '));
		assert.ok(
			['provider', 'aws'].includes(document.getText(provider.range)),
			'the finding points at the provider key or its value',
		);
		const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
			'vscode.executeCodeActionProvider',
			document.uri,
			provider.range,
			vscode.CodeActionKind.QuickFix.value,
		);
		const fix = actions.find((action) => /type: oci/.test(action.title) && action.edit);
		assert.ok(fix?.edit, actions.map((action) => action.title).join(', '));
		assert.ok(await vscode.workspace.applyEdit(fix.edit));
		assert.match(document.getText(), /type: oci/);
		await eventually(
			'the finding to go',
			() => !ours(document.uri).some((diagnostic) => diagnostic.code === provider.code),
		);
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
		await deleteManifest(await extensionApi(), document.uri);
	});

	it('reports status problems in dumps with the engine message, and clears them when the document closes', async () => {
		await extensionApi();
		const document = await vscode.workspace.openTextDocument(fileUri('flux/dump.yaml'));
		await vscode.window.showTextDocument(document);
		const diagnostics = await eventually('status diagnostics', () => {
			const found = ours(document.uri);
			return found.some((diagnostic) => diagnostic.severity === vscode.DiagnosticSeverity.Error)
				? found
				: undefined;
		});
		assert.ok(diagnostics.some((diagnostic) => /401 Unauthorized/.test(diagnostic.message)));
		assert.ok(diagnostics.some((diagnostic) => /ftp/.test(diagnostic.message)));
		await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
	});

	it('leaves YAML that is not one of the five systems alone', async () => {
		const api = await extensionApi();
		const document = await writeAndOpen(
			'editor-other.yaml',
			'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: "1"\n',
		);
		await eventually(
			'the diagnostics of the open version',
			() => api.diagnostics.diagnosedVersion(document.uri) === document.version,
		);
		assert.deepEqual(ours(document.uri), []);
		const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
			'vscode.executeHoverProvider',
			document.uri,
			new vscode.Position(1, 2),
		);
		assert.ok(
			!hovers.some((hover) =>
				hover.contents.some((content) =>
					String((content as vscode.MarkdownString).value ?? content).includes('Kube Status Lens'),
				),
			),
		);
		await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
		await deleteManifest(await extensionApi(), document.uri);
	});

	it('explains a condition on hover, untrusted', async () => {
		await extensionApi();
		const document = await vscode.workspace.openTextDocument(fileUri('flux/dump.yaml'));
		const line = document
			.getText()
			.split('\n')
			.findIndex((text) => text.includes('type: FetchFailed'));
		assert.ok(line > 0);
		const column = document.lineAt(line).text.indexOf('FetchFailed') + 2;
		const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
			'vscode.executeHoverProvider',
			document.uri,
			new vscode.Position(line, column),
		);
		const markdown = hovers
			.flatMap((hover) => hover.contents)
			.find(
				(content) => content instanceof vscode.MarkdownString && /FetchFailed/.test(content.value),
			) as vscode.MarkdownString | undefined;
		assert.ok(markdown, 'a hover about FetchFailed');
		assert.match(markdown.value, /negative/i);
		assert.equal(markdown.isTrusted, false);
	});

	it('shows the engine badge when hovering kind:', async () => {
		await extensionApi();
		const document = await vscode.workspace.openTextDocument(fileUri('harbor/dump.yaml'));
		const line = document
			.getText()
			.split('\n')
			.findIndex((text) => text.includes('kind: HarborCluster'));
		const column = document.lineAt(line).text.indexOf('kind') + 1;
		const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
			'vscode.executeHoverProvider',
			document.uri,
			new vscode.Position(line, column),
		);
		const text = hovers
			.flatMap((hover) => hover.contents)
			.map(textOf)
			.join('\n');
		assert.match(text, /provisioning/);
		assert.match(text, /kstatus/i);
	});
});

describe('Problems panel lines name the object they are about', () => {
	it('tells apart the GitRepo, Bundle, Cluster and ClusterGroup of a Fleet dump that report the same error', async () => {
		await extensionApi();
		const document = await vscode.workspace.openTextDocument(fileUri('fleet/dump.yaml'));
		await vscode.window.showTextDocument(document);
		const errApplied = await eventually('the ErrApplied diagnostics', () => {
			const found = ours(document.uri).filter(
				(diagnostic) => codeOf(diagnostic) === 'status-err-applied',
			);
			return found.length >= 5 ? found : undefined;
		});
		const subjects = errApplied.map((diagnostic) =>
			diagnostic.message.slice(0, diagnostic.message.indexOf(': ErrApplied')),
		);
		assert.deepEqual(subjects, [
			'GitRepo fleet-default/shop',
			'Bundle fleet-default/shop-frontend',
			'BundleDeployment cluster-fleet-default-prod-us-1-04523fc383a2/shop-frontend',
			'Cluster fleet-default/prod-us-1',
			'ClusterGroup fleet-default/production',
		]);
		const messages = ours(document.uri).map((diagnostic) => diagnostic.message);
		assert.equal(new Set(messages).size, messages.length, messages.join('\n'));
		await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
	});

	it("shows Fleet's own troubleshooting findings on the dump's objects, and none on the GitOps manifests", async () => {
		await extensionApi();
		const document = await vscode.workspace.openTextDocument(fileUri('fleet/dump.yaml'));
		await vscode.window.showTextDocument(document);
		const stuck = await eventually('the stuck BundleDeployment diagnostic', () =>
			ours(document.uri).find(
				(diagnostic) => codeOf(diagnostic) === 'fleet-stuck-bundle-deployments',
			),
		);
		assert.match(
			stuck.message,
			/^BundleDeployment cluster-fleet-default-prod-us-1-[0-9a-f]+\/shop-frontend: Stuck BundleDeployment/,
		);
		assert.equal(stuck.severity, vscode.DiagnosticSeverity.Error);
		await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
		const api = await extensionApi();
		const manifest = await vscode.workspace.openTextDocument(
			fileUri('fleet/manifests/gitrepo.yaml'),
		);
		await vscode.window.showTextDocument(manifest);
		await eventually(
			'the manifest diagnosed',
			() => api.diagnostics.diagnosedVersion(manifest.uri) === manifest.version,
		);
		assert.deepEqual(
			ours(manifest.uri).filter((diagnostic) => codeOf(diagnostic).startsWith('fleet-')),
			[],
		);
		await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
	});

	it('shows the same finding said twice about one object as one line pointing at both places', async () => {
		const api = await extensionApi();
		const repository = `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: twice
  namespace: editor-test
spec:
  url: https://example.com
status:
  conditions:
  - type: Ready
    status: "False"
    reason: Failed
    message: boom
    lastTransitionTime: "2024-01-01T00:00:00Z"
`;
		const document = await writeAndOpen('editor-twice.yaml', `${repository}---\n${repository}`);
		await eventually(
			'the diagnostics of the open version',
			() => api.diagnostics.diagnosedVersion(document.uri) === document.version,
		);
		const failed = ours(document.uri).filter(
			(diagnostic) => codeOf(diagnostic) === 'status-failed',
		);
		assert.equal(failed.length, 1, failed.map((diagnostic) => diagnostic.message).join('\n'));
		assert.equal(failed[0]?.message, 'HelmRepository editor-test/twice: Failed: boom');
		assert.deepEqual(
			failed[0]?.relatedInformation?.map((related) => related.location.range.start.line),
			[document.getText().split('\n').lastIndexOf('  - type: Ready')],
		);
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
		await deleteManifest(await extensionApi(), document.uri);
	});
});

describe('targeting in the editor: lenses, diagnostics, the inventory, Why Not Here…', () => {
	const gitRepo = `apiVersion: fleet.cattle.io/v1alpha1
kind: GitRepo
metadata:
  name: targeting-check
  namespace: fleet-default
spec:
  repo: https://github.com/example/targeting-check
  targets:
    - name: europe
      clusterSelector: { matchLabels: { region: eu } }
    - name: staging
      clusterSelector: { matchLabels: { env: staging } }
    - name: typo
      clusterSelector: { matchLabels: { env: prdo } }
`;

	it('warns on a target that matches no cluster and one an earlier target shadows, and the lens lets the user choose the inventory', async () => {
		const api = await extensionApi();
		const document = await writeAndOpen('targeting-check.yaml', gitRepo);
		try {
			const findings = await eventually('the targeting diagnostics', () => {
				const found = ours(document.uri).filter((diagnostic) =>
					codeOf(diagnostic).startsWith('fleet-target-'),
				);
				return found.length === 2 ? found : undefined;
			});
			const byCode = new Map(findings.map((finding) => [codeOf(finding), finding]));
			const none = byCode.get('fleet-target-matches-no-cluster');
			assert.ok(none);
			assert.match(
				none.message,
				/^GitRepo fleet-default\/targeting-check: Target `typo` matches none of the \d+ Clusters of /,
			);
			assert.equal(
				none.range.start.line,
				document.getText().split('\n').indexOf('    - name: typo'),
			);
			assert.match(
				byCode.get('fleet-target-shadowed')?.message ?? '',
				/: Target `staging` never applies: every cluster it matches .*\(staging-1\) matches the earlier `europe` first/,
			);
			const lenses = await eventually('the target lenses', async () => {
				const found = await vscode.commands.executeCommand<vscode.CodeLens[]>(
					'vscode.executeCodeLensProvider',
					document.uri,
				);
				const ours = found.filter(
					(lens) => lens.command?.command === 'kubeStatusLens.targets.chooseInventory',
				);
				return ours.length === 3 ? ours : undefined;
			});
			assert.match(
				lenses[0]?.command?.title ?? '',
				/^matches 2 clusters of .*: prod-eu-1, staging-1$/,
			);
			// A chosen inventory without clusters is passed over for the fullest one, and the choice is kept.
			const config = vscode.workspace.getConfiguration('kubeStatusLens.targeting');
			await config.update('inventory', 'no-such-root', vscode.ConfigurationTarget.Workspace);
			assert.equal(
				vscode.workspace.getConfiguration('kubeStatusLens.targeting').get('inventory'),
				'no-such-root',
			);
			const chosenTitle = lenses[0]?.command?.title;
			await eventually(
				'the lenses again after the setting changed, on the same inventory',
				async () => {
					const again = await vscode.commands.executeCommand<vscode.CodeLens[]>(
						'vscode.executeCodeLensProvider',
						document.uri,
					);
					return again.some((lens) => lens.command?.title === chosenTitle) ? true : undefined;
				},
			);
			await eventually('the diagnostics again after the setting changed', () =>
				ours(document.uri).filter((diagnostic) => codeOf(diagnostic).startsWith('fleet-target-'))
					.length === 2
					? true
					: undefined,
			);
		} finally {
			await vscode.workspace
				.getConfiguration('kubeStatusLens.targeting')
				.update('inventory', undefined, vscode.ConfigurationTarget.Workspace);
			await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
			await deleteManifest(api, document.uri);
		}
	});

	it('answers Why Not Here… on a Cluster row with the Fleet controller reason for a Bundle', async () => {
		const api = await extensionApi();
		const cluster = await eventually('the Cluster staging-1 row', () =>
			walk(api).find(
				(node) =>
					node.kind === 'object' &&
					node.ref?.kind === 'Cluster' &&
					node.ref.name === 'staging-1' &&
					node.contextFlags.system === 'fleet',
			),
		);
		const answer = await vscode.commands.executeCommand<
			{ deployed: boolean; why: string } | undefined
		>('kubeStatusLens.targets.whyNotHere', cluster.id, 'fleet-default/ingress-nginx');
		assert.equal(answer?.deployed, false);
		assert.equal(
			answer.why,
			'target `default` wants clusterGroup `production`; the cluster is in no ClusterGroup.',
		);
	});
});
