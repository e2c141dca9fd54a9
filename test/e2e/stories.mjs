// User stories on the real workbench, each ending in a screenshot a person looks at. Run by scripts/vscode.mjs shots.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
	ActivityBar,
	clickMenuItem,
	CommandPalette,
	EditorArea,
	TreeView,
} from './pageObjects.mjs';

/**
 * Stories on the demo cluster's live contexts (run with the demo cluster behind KUBECONFIG, the KubeStellar pair set
 * and a BundleDeployment threshold of 1, so fleet-mgmt is in roll-ups-only mode); returns 0 when all passed.
 */
export async function runLiveStories(page, { out }) {
	const { story, shot, tree, activityBar, failures } = await workbench(page, out);
	const palette = new CommandPalette(page);
	await story('a user opens the view and sees each demo context with its state', async () => {
		await activityBar.open('Kube Status Lens');
		await tree.waitForRow('fleet-mgmt');
		await tree.waitForRow('roll-ups only');
		await tree.collapse('Workspace manifests');
		await tree.collapse('platform');
		await shot('live.png');
	});
	await story('a user hovers a roll-ups-only context and reads why and what it means', async () => {
		await tree.hover('fleet-mgmt', 'threshold');
		await shot('live-root-tooltip.png');
		await page.mouse.move(700, 700);
	});
	await story(
		'a user expands a Bundle of a large fleet and its BundleDeployments are listed',
		async () => {
			await tree.expand('GitRepos');
			await tree.expand(/^\s*shop(?!-)/);
			await tree.expand('shop-frontend');
			await tree.waitForRow('prod-eu-1');
			await shot('live-on-demand.png');
		},
	);
	await story(
		'a user opens a BundleDeployment and reads where what it applied is, and why it is not read from here',
		async () => {
			await tree.expand('prod-eu-1');
			await tree.waitForRow('not read here');
			await tree.hover('not read here', 'no open context is named');
			await shot('live-applied-resources.png');
			await page.mouse.move(700, 700);
			await tree.collapse('prod-eu-1');
		},
	);
	await story(
		'a user opens a WDS workload and sees the WorkStatus of each WEC under it',
		async () => {
			await tree.collapse('fleet-mgmt');
			await tree.collapse('kubestellar-its');
			await tree.expand('BindingPolicies');
			await tree.expand('nginx-multiwec');
			await tree.expand('Deployment nginx');
			await shot('live-kubestellar.png');
		},
	);
	await story(
		'a user reconciles a Kustomization from its row and is told what Flux reported once it handled it',
		async () => {
			await tree.collapse('kubestellar-wds');
			await tree.expand('platform');
			await tree.expand('Flux');
			await tree.expand('Kustomizations');
			await tree.clickInlineAction('apps', 'Flux: Reconcile');
			const dialog = page.locator('.monaco-dialog-box', { hasText: 'Reconcile Kustomization' });
			await dialog.waitFor({ timeout: 10_000 });
			await shot('live-action-confirm.png');
			await dialog.locator('.monaco-button', { hasText: /^Reconcile$/ }).click();
			// The toast may have gone by the time it is looked for: the notification list keeps it.
			await palette.run('Notifications: Show Notifications');
			const done = page.locator('.notifications-center .notification-list-item', {
				hasText: 'Reconciled Kustomization',
			});
			await done.waitFor({ timeout: 30_000 });
			// Expanded, it shows the whole message: what Flux reported.
			await done.hover();
			await done.locator('.codicon-notifications-expand').first().click({ timeout: 5_000 });
			await shot('live-action-done.png');
		},
	);
	await story(
		'a user opens a Kustomization and reads the live state of each object it applied',
		async () => {
			await page.keyboard.press('Escape');
			await tree.expand(/apps\s*Ready/);
			await tree.waitForRow('(live)');
			await tree.hover('HelmRelease apps/podinfo', 'read at');
			await shot('live-inventory.png');
			await page.mouse.move(700, 700);
		},
	);
	await story(
		'a user opens a Kustomization with health check expressions and reads which rule rated each object it applied',
		async () => {
			await tree.collapse(/apps\s*Ready/);
			await tree.expand(/registries\s*Failed/);
			await tree.waitForRow('Failed (live, CEL)');
			await tree.hover('HarborCluster harbor-dr/harbor-dr', 'healthCheckExprs[0]');
			await shot('live-health-expressions.png');
			await page.mouse.move(700, 700);
			await tree.collapse(/registries\s*Failed/);
		},
	);
	await story('a user reads what the Flux Operator reports of the installation', async () => {
		await tree.collapse('Kustomizations');
		await tree.expand('FluxReports');
		await tree.waitForRow('4/4 components');
		await tree.hover('4/4 components', 'The report says');
		await shot('live-flux-report.png');
		await page.mouse.move(700, 700);
		await tree.collapse('platform');
	});
	await story(
		'a user sees a Bundle Fleet 0.16 holds for its dependency, and what it waits for',
		async () => {
			await tree.expand('fleet-mgmt');
			await tree.expand(/^\s*tickets(?!-)/);
			// The demo applies tickets-api late in each round; it waits again when the round starts over.
			await tree.waitForRow('WaitingForDependency', 90_000);
			await tree.hover('WaitingForDependency', 'tickets-db');
			await shot('live-waiting-for-dependency.png');
			await page.mouse.move(700, 700);
		},
	);
	await story(
		'a user asks a Cluster why a bundle is not there, and Explain of the bundle says where it goes and why not elsewhere',
		async () => {
			await tree.collapse(/^\s*tickets(?!-)/);
			await tree.collapse('GitRepos');
			await tree.expand('Clusters');
			await tree.contextMenu('lab-1', 'Why Not Here…');
			const row = page
				.locator('.quick-input-list .monaco-list-row', { hasText: 'sensors-agent' })
				.first();
			await row.waitFor({ timeout: 10_000 });
			await page.waitForTimeout(300);
			await shot('live-why-not-here.png');
			await row.click();
			// The tests' workbench shows no toasts: the notification list keeps the answer and its button.
			await palette.run('Notifications: Show Notifications');
			const answer = page
				.locator('.notifications-center .notification-list-item', { hasText: 'sensors-agent' })
				.first();
			await answer.waitFor({ timeout: 10_000 });
			await answer.hover();
			const explain = answer.locator('.monaco-button', { hasText: 'Explain Bundle' }).first();
			if (!(await explain.isVisible())) {
				await answer.locator('.codicon-notifications-expand').first().click({ timeout: 5_000 });
			}
			await shot('live-why-not-here-answer.png');
			await explain.click({ timeout: 10_000 });
			await palette.run('Notifications: Hide Notifications');
			const preview = page
				.frameLocator('iframe.webview')
				.last()
				.frameLocator('iframe#active-frame');
			await preview
				.locator('h2', { hasText: 'Where it goes' })
				.first()
				.scrollIntoViewIfNeeded({ timeout: 30_000 });
			await shot('live-explain-where-it-goes.png');
			await palette.run('View: Close All Editor Groups');
			await tree.collapse('Clusters');
		},
	);
	await story(
		'a user explains a BindingPolicy and reads which WECs of the ITS it selects, why not the third, and its Binding',
		async () => {
			await page.locator('.sidebar .composite.title .title-label').first().click();
			const match = await palette.runAndPick(
				'Kube Status Lens: Explain Status',
				'Explain the status of',
				'edge-tools-eu',
				'BindingPolicy',
			);
			await match.click();
			const preview = page
				.frameLocator('iframe.webview')
				.last()
				.frameLocator('iframe#active-frame');
			await preview
				.locator('h2', { hasText: 'Where it goes' })
				.first()
				.scrollIntoViewIfNeeded({ timeout: 30_000 });
			await preview.locator('h2', { hasText: 'Its Binding' }).first().waitFor({ timeout: 10_000 });
			await shot('live-explain-binding-policy.png');
			await palette.run('View: Close All Editor Groups');
		},
	);
	await liveMatrixStories(page, { story, shot, palette });
	return failures() === 0 ? 0 : 1;
}

/** The rollout matrix on the live demo: the KubeStellar workload by WEC, and a roll-ups-only Fleet context. */
async function liveMatrixStories(page, { story, shot, palette }) {
	const openMatrix = async (root, system) => {
		await palette.run('View: Close All Editor Groups');
		await palette.run('Kube Status Lens: Show Rollout Matrix');
		const choice = page
			.locator('.quick-input-list .monaco-list-row', { hasText: root })
			.filter({ hasText: system })
			.first();
		await choice.waitFor({ timeout: 10_000 });
		await choice.click();
		return page.frameLocator('iframe.webview').frameLocator('iframe');
	};
	await story(
		'a user opens the KubeStellar matrix of the WDS and reads the WorkStatus of each WEC',
		async () => {
			const matrix = await openMatrix('kubestellar-wds', 'KubeStellar workloads');
			await matrix.locator('.cell:not(.empty)').first().waitFor({ timeout: 30_000 });
			await page.mouse.move(900, 600);
			await shot('live-matrix-kubestellar.png');
		},
	);
	await story(
		'a user opens the Fleet matrix of a roll-ups-only context and reads what it knows and why cells are missing',
		async () => {
			const matrix = await openMatrix('fleet-mgmt', 'Fleet rollout');
			await matrix.locator('#notice', { hasText: 'roll-ups' }).waitFor({ timeout: 30_000 });
			await page.mouse.move(900, 600);
			await shot('live-matrix-rollups.png');
			await palette.run('View: Close All Editor Groups');
		},
	);
}

/** The workbench with a wider side bar, and the story and screenshot helpers. */
async function workbench(page, out) {
	const shot = async (name) => {
		await page.waitForTimeout(400);
		const path = join(out, name);
		await page.screenshot({ path });
		console.log(`[e2e] ${path}`);
	};
	let failed = 0;
	const story = async (title, body) => {
		try {
			await body();
			console.log(`[e2e] ok - ${title}`);
		} catch (error) {
			failed++;
			console.log(
				`[e2e] FAIL - ${title}: ${error instanceof Error ? error.message.split('\n').slice(0, 3).join(' | ') : String(error)}`,
			);
			await page
				.screenshot({ path: join(out, `failed-${title.replace(/\W+/g, '-')}.png`) })
				.catch(() => {});
		}
	};
	await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
	await page.locator('.sidebar').first().waitFor({ timeout: 30_000 });
	const sidebar = await page.locator('.sidebar').first().boundingBox();
	let box;
	for (const sash of await page.locator('.monaco-sash.vertical').all()) {
		const candidate = await sash.boundingBox();
		if (
			candidate &&
			sidebar &&
			Math.abs(candidate.x + candidate.width / 2 - (sidebar.x + sidebar.width)) < 6
		) {
			box = candidate;
		}
	}
	if (box) {
		await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
		await page.mouse.down();
		await page.mouse.move(box.x + 260, box.y + box.height / 2, { steps: 5 });
		await page.mouse.up();
	}
	return {
		story,
		shot,
		failures: () => failed,
		tree: new TreeView(page),
		activityBar: new ActivityBar(page),
	};
}

/** Runs every story; returns 0 when all passed. */
export async function runStories(page, { out }) {
	const { story, shot, tree, activityBar, failures } = await workbench(page, out);
	const editors = new EditorArea(page);
	const palette = new CommandPalette(page);

	await story(
		'a user opens the view and sees the Fleet rollout, its failing cluster marked in place',
		async () => {
			await activityBar.open('Kube Status Lens');
			await tree.waitForRow('Workspace manifests');
			await tree.expand('Fleet');
			await tree.expand('GitRepos');
			await tree.waitForRow('ErrApplied');
			await shot('tree.png');
		},
	);

	await story('a user hovers a GitRepo and reads why it is not ready', async () => {
		await tree.hover(/^\s*shop(?!-)/, 'ErrApplied');
		await shot('tooltip.png');
	});

	await story(
		'a user selects a row, filters by namespace from the view menu, sees the filter and clears it',
		async () => {
			await page.mouse.move(700, 700);
			await (await tree.waitForRow(/^\s*shop(?!-)/)).click();
			await page.locator('.sidebar .codicon-toolbar-more').first().click();
			await clickMenuItem(page, 'Filter by Namespace');
			// It asks (the namespaces present, with counts) instead of filtering by the selected row.
			const choice = page
				.locator('.quick-input-list .monaco-list-row', { hasText: 'harbor-dr' })
				.first();
			await choice.waitFor();
			await shot('tree-filter-pick.png');
			await choice.click();
			await tree.expand('HarborClusters');
			await tree.waitForRow('harbor-dr');
			await page.locator('.sidebar', { hasText: 'objects shown' }).first().waitFor();
			await shot('tree-filtered.png');
			await page.locator('.sidebar .codicon-clear-all').first().click();
			await tree.expand('GitRepos');
			await tree.waitForRow(/^\s*shop(?!-)/);
		},
	);

	await story(
		'a user shows only the problems and reads them from the top of the tree',
		async () => {
			await page.mouse.move(700, 700);
			await palette.run('Kube Status Lens: Show Only Problems');
			await page.locator('.sidebar', { hasText: 'objects shown' }).first().waitFor();
			// The problems are opened out (the view scrolls to each as it does), then the view is back at its top row.
			await page
				.waitForFunction(
					() => {
						const rows = [
							...globalThis.document.querySelectorAll('.sidebar .monaco-list-row'),
						].sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
						return rows[0]?.textContent?.includes('Workspace manifests') === true;
					},
					undefined,
					{ timeout: 10_000 },
				)
				.catch(async () => {
					const texts = await page.locator('.sidebar .monaco-list-row').allInnerTexts();
					throw new Error(`the tree did not come back to its top row: ${JSON.stringify(texts[0])}`);
				});
			await shot('tree-problems-only.png');
			await page.locator('.sidebar .codicon-clear-all').first().click();
			await page
				.locator('.sidebar', { hasText: 'objects shown' })
				.first()
				.waitFor({ state: 'hidden' });
		},
	);

	await story(
		'a user clicks "in error" in the status bar and reads every broken object in one list',
		async () => {
			await page.locator('.statusbar-item', { hasText: 'in error' }).first().click();
			await page
				.locator('.part.panel .monaco-list-row', { hasText: 'Workspace manifests' })
				.first()
				.waitFor();
			await shot('attention.png');
			// Put it away again, so the stories after this one see the workbench as before.
			await page.keyboard.press('Control+J');
			await page.locator('.part.panel').first().waitFor({ state: 'hidden' });
		},
	);

	await story(
		'a user hovers a HarborCluster and reads the word its operator writes, provisioning',
		async () => {
			await page.keyboard.press('Escape');
			await tree.expand('HarborClusters');
			await tree.hover(/^\s*harbor(?!-)/, 'docs call this state');
			await shot('tooltip-harbor.png');
			await page.mouse.move(700, 700);
		},
	);

	await story(
		'a user asks to explain a status and reads the chain down to the failing resource',
		async () => {
			await page.mouse.move(700, 700);
			await palette.run('Kube Status Lens: Explain Status');
			await page
				.locator('.quick-input-list .monaco-list-row', { hasText: 'GitRepo' })
				.first()
				.waitFor({ timeout: 10_000 });
			await page.waitForTimeout(300);
			await shot('explain-pick.png');
			await page.keyboard.press('Enter');
			await editors.waitForTab('Explain');
			// The Markdown preview renders in a webview once the built-in Markdown extension has activated.
			await page
				.locator('.statusbar', { hasText: 'Activating Extensions' })
				.waitFor({ state: 'detached', timeout: 30_000 })
				.catch(() => {});
			await page
				.frameLocator('iframe.webview')
				.frameLocator('iframe')
				.locator('h1')
				.first()
				.waitFor({ timeout: 30_000 });
			await shot('explain.png');
			// What happened, in order: the chain's condition transitions, oldest first, with their ages.
			await page
				.frameLocator('iframe.webview')
				.frameLocator('iframe')
				.locator('h2', { hasText: 'What happened, in order' })
				.first()
				.scrollIntoViewIfNeeded({ timeout: 30_000 });
			await shot('explain-timeline.png');
			// The end of the document: what to do with the object's own names, and links to the files it was read from.
			const readFrom = page
				.frameLocator('iframe.webview')
				.frameLocator('iframe')
				.locator('h2', { hasText: 'Read from' })
				.first();
			await readFrom.scrollIntoViewIfNeeded({ timeout: 30_000 });
			await shot('explain-read-from.png');
		},
	);

	await story(
		'a user clicks a step of the Explain chain and the object opens in the tree and in Explain',
		async () => {
			// A preview that navigates holds a pending frame beside the active one for a moment; the newest preview is last.
			const preview = () =>
				page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');
			const step = preview().locator('ol li a').nth(1);
			await step.scrollIntoViewIfNeeded({ timeout: 30_000 });
			await step.click();
			await preview().locator('h1', { hasText: 'Bundle' }).first().waitFor({ timeout: 30_000 });
			await page.locator('.sidebar .monaco-list-row.selected').first().waitFor({ timeout: 10_000 });
			await shot('explain-step.png');
		},
	);

	await story(
		'a user explains a Kustomization that waits for another and reads the root cause first',
		async () => {
			await page.mouse.move(700, 700);
			// The last step left the focus in the Explain webview: take it to the side bar first.
			await page.locator('.sidebar .composite.title .title-label').first().click();
			await palette.runAndPick(
				'Kube Status Lens: Explain Status',
				'Explain the status of',
				'flux-system/apps',
				'Kustomization',
			);
			await page.keyboard.press('Enter');
			await page
				.frameLocator('iframe.webview')
				.last()
				.frameLocator('iframe#active-frame')
				.locator('h1', { hasText: 'Kustomization apps' })
				.first()
				.waitFor({ timeout: 30_000 });
			await shot('explain-dependency.png');
		},
	);

	await story(
		'a user opens a BundleDeployment, sees what it applied and opens the patch Fleet recorded for a modified one',
		async () => {
			await page.keyboard.press('Escape');
			await tree.expand('GitRepos');
			await tree.expand(/^\s*shop(?!-)/);
			await tree.expand(/^\s*shop-frontend/);
			await tree.expand(/^\s*staging-1/);
			await tree.waitForRow('frontend-config');
			await tree.contextMenu('frontend-config', 'Show Recorded Patch');
			await editors.waitForTab('recorded patch');
			// The pointer off the tree: its hover would cover a row.
			await page.mouse.move(900, 500);
			await shot('applied-resources.png');
		},
	);

	await story('a user hovers a condition in a dump and reads what it means', async () => {
		await page.keyboard.press('Escape');
		await palette.quickOpen('flux/dump.yaml', 'dump.yaml');
		await page.keyboard.press('Enter');
		// Find goes to the editor that has the focus: this one, once it has opened.
		await editors.waitForTab('dump.yaml');
		await page.locator('.monaco-editor.focused').first().waitFor({ timeout: 15_000 });
		const word = page
			.locator('.monaco-editor .view-line span', { hasText: /^FetchFailed$/ })
			.first();
		await page.keyboard.press('Control+F');
		await page.keyboard.type('type: FetchFailed');
		await page.keyboard.press('Escape');
		await word.waitFor({ timeout: 15_000 });
		for (let attempt = 0; attempt < 5; attempt++) {
			await page.mouse.move(5, 5);
			await word.hover();
			try {
				await page
					.locator('.monaco-hover', { hasText: 'FetchFailed' })
					.first()
					.waitFor({ state: 'visible', timeout: 4_000 });
				break;
			} catch (error) {
				if (attempt === 4) throw error;
			}
		}
		await shot('hover.png');
	});

	/** Opens a workspace file by quick open and waits for a CodeLens saying `lens`. */
	const openWithLens = async (query, tab, lens) => {
		await page.mouse.move(5, 5);
		await page.keyboard.press('Escape');
		await palette.quickOpen(query, tab);
		await page.keyboard.press('Enter');
		await editors.waitForTab(tab);
		await page
			.locator('.monaco-editor .codelens-decoration', { hasText: lens })
			.first()
			.waitFor({ timeout: 30_000 });
	};

	await story(
		'a user opens a GitRepo manifest and reads above its target which clusters it matches',
		async () => {
			await openWithLens('manifests/gitrepo.yaml', 'gitrepo.yaml', 'matches 3 clusters');
			await shot('codelens-targets.png');
		},
	);

	await story(
		'a user opens a fleet.yaml and reads above each customization where it applies, and that the last is shadowed',
		async () => {
			await openWithLens('shop-fleet/frontend/fleet.yaml', 'fleet.yaml', 'shadowed by');
			await page.locator('.squiggly-warning').first().waitFor({ timeout: 30_000 });
			await shot('codelens-fleet-yaml.png');
		},
	);

	await story('a user opens the Problems panel and sees what the manifests get wrong', async () => {
		await page.mouse.move(5, 5);
		await page.keyboard.press('Escape');
		await page.keyboard.press('Control+Shift+M');
		await page
			.locator('.markers-panel .monaco-list-row', { hasText: 'Kube Status Lens' })
			.first()
			.waitFor({ timeout: 30_000 });
		await shot('problems.png');
		await page.keyboard.press('Control+J');
	});

	await story(
		'a user opens a Fleet dump and reads in the Problems panel which object each error is on',
		async () => {
			await page.keyboard.press('Escape');
			// Not flux/dump.yaml, which quick open offers first as recently opened.
			const row = await palette.quickOpen('fleet/dump.yaml', /dump\.yaml.*fleet/);
			await row.click();
			await editors.waitForTab('dump.yaml');
			await page.keyboard.press('Control+Shift+M');
			await palette.run('View: Toggle Maximized Panel');
			await page
				.locator('.markers-panel .monaco-list-row', {
					hasText: 'GitRepo fleet-default/shop: ErrApplied',
				})
				.first()
				.waitFor({ timeout: 30_000 });
			// The side bar hidden: the panel's width for the lines, which lead with the object.
			await palette.run('View: Toggle Primary Side Bar Visibility');
			await shot('problems-objects.png');
			await palette.run('View: Toggle Primary Side Bar Visibility');
			await palette.run('View: Toggle Maximized Panel');
			await page.keyboard.press('Control+J');
		},
	);

	await story(
		'a user opens a KubeStellar workload and previews how its WEC statuses merge',
		async () => {
			await page.keyboard.press('Escape');
			await palette.quickOpen('kubestellar/deployment.yaml', 'deployment.yaml');
			await page.keyboard.press('Enter');
			const lens = page
				.locator('.codelens-decoration a', { hasText: 'Preview multi-WEC status merge' })
				.first();
			await lens.waitFor({ timeout: 30_000 });
			await lens.click();
			await editors.waitForTab('merge preview');
			await page
				.locator('.monaco-editor .view-line', { hasText: 'decided by cluster3' })
				.first()
				.waitFor({ timeout: 30_000 });
			// The side bar closed, so the manifest and its preview share the window as a user reading them would arrange.
			await page.keyboard.press('Control+B');
			await shot('merge-preview.png');
		},
	);

	await story(
		'a user diffs the status a workload has against the merged one, both sides a bare status',
		async () => {
			await page.locator('.tabs-container .tab', { hasText: 'deployment.yaml' }).first().click();
			await palette.run('Kube Status Lens: Diff Current and Merged Status');
			await editors.waitForTab('no .status yet');
			await page
				.locator('.monaco-diff-editor .view-line', { hasText: 'readyReplicas: 1' })
				.first()
				.waitFor({ timeout: 30_000 });
			await shot('merge-diff.png');
		},
	);

	await story(
		'a user with a side bar 300 pixels wide still reads the state of each row',
		async () => {
			// The previous story closed the side bar, with this view in it.
			await page.keyboard.press('Control+B');
			await tree.waitForRow('Workspace manifests');
			const sidebar = await page.locator('.sidebar').first().boundingBox();
			const sash = page.locator('.monaco-sash.vertical').filter({ visible: true });
			for (const candidate of await sash.all()) {
				const box = await candidate.boundingBox();
				if (box && sidebar && Math.abs(box.x + box.width / 2 - (sidebar.x + sidebar.width)) < 6) {
					await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
					await page.mouse.down();
					await page.mouse.move(sidebar.x + 300, box.y + box.height / 2, { steps: 5 });
					await page.mouse.up();
					break;
				}
			}
			// The other systems closed, the Flux kinds (a dozen categories since the Flux Operator's) fit the view.
			for (const system of ['Fleet', 'KubeStellar', 'Harbor']) await tree.collapse(system);
			await tree.expand('Flux');
			await tree.expand('HelmRepositories');
			await tree.waitForRow('Stalled');
			await shot('tree-narrow.png');
		},
	);

	await story(
		'a user with a narrow side bar reads what a Kustomization waits for, goes there, and sees an object being deleted',
		async () => {
			// The previous story's diff is of no interest here.
			await palette.run('View: Close All Editor Groups');
			for (const system of ['Fleet', 'KubeStellar', 'Harbor']) await tree.collapse(system);
			await tree.collapse('HelmRepositories');
			await tree.expand('HelmReleases');
			await tree.expand('Kustomizations');
			// Selected, the row shows its inline actions; the pointer away, no tooltip covers the rows.
			await (await tree.waitForRow('waiting for infra')).click();
			await page.mouse.move(900, 600);
			await shot('tree-waiting.png');
			await tree.clickInlineAction('apps', 'Go to What It Waits For');
			await page
				.locator('.sidebar .monaco-list-row.selected', { hasText: 'waiting for platform' })
				.first()
				.waitFor({ timeout: 10_000 });
			await tree.collapse('Flux');
			await tree.expand('Azure Service Operator');
			await tree.expand('keyvault.azure.com');
			await tree.waitForRow('Deleting for');
			await page.mouse.move(900, 600);
			await shot('tree-terminating.png');
			await tree.hover('Deleting for', 'Terminating');
			await shot('tooltip-terminating.png');
			await page.mouse.move(700, 700);
			await tree.collapse('Azure Service Operator');
		},
	);

	await story(
		"a user opens the demo cluster's fleet dump and reads its Fleet objects as a tree of their own",
		async () => {
			// The demo cluster's objects and Events as `fleet dump` writes them (scripts/demo-fleet-dump.ts).
			const dump = join(out, 'demo-fleet-dump.tgz');
			const made = spawnSync(
				process.execPath,
				[join(dirname(fileURLToPath(import.meta.url)), '../../scripts/demo-fleet-dump.ts'), dump],
				{ encoding: 'utf8', timeout: 60_000 },
			);
			if (made.status !== 0) throw new Error(`the demo dump was not written: ${made.stderr}`);
			await palette.run('Kube Status Lens: Open Fleet Dump');
			const path = page.locator('.quick-input-widget input');
			await path.waitFor({ timeout: 10_000 });
			// The dialog writes its starting folder into the box a moment after it shows: typed before, the path is appended.
			await page.waitForFunction(
				"document.querySelector('.quick-input-widget input')?.value",
				undefined,
				{ timeout: 10_000 },
			);
			// It may write its starting folder again once it has listed it: typed until the box keeps the path and the
			// dialog lists the file in it.
			const dumpName = 'demo-fleet-dump.tgz';
			for (let attempt = 1; ; attempt++) {
				await path.fill(dump);
				try {
					await page
						.locator('.quick-input-list .monaco-list-row', { hasText: dumpName })
						.first()
						.waitFor({ timeout: 5_000 });
					if ((await path.inputValue()) === dump) break;
				} catch (error) {
					if (attempt >= 4) throw error;
				}
				if (attempt >= 4) throw new Error(`the file dialog kept ${await path.inputValue()}`);
			}
			// VS Code's own file dialog (code-server has no native one) opens with its button.
			await page
				.locator('.quick-input-widget .monaco-button', { hasText: 'Open Fleet Dump' })
				.first()
				.click();
			// The new root comes last: the workspace's rows put away, it shows without scrolling.
			await tree.collapse('Workspace manifests');
			await tree.waitForRow('demo-fleet-dump.tgz');
			// Wide enough again after the narrow story.
			const sidebar = await page.locator('.sidebar').first().boundingBox();
			for (const sash of await page
				.locator('.monaco-sash.vertical')
				.filter({ visible: true })
				.all()) {
				const box = await sash.boundingBox();
				if (box && sidebar && Math.abs(box.x + box.width / 2 - (sidebar.x + sidebar.width)) < 6) {
					await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
					await page.mouse.down();
					await page.mouse.move(sidebar.x + 560, box.y + box.height / 2, { steps: 5 });
					await page.mouse.up();
					break;
				}
			}
			await tree.expand('demo-fleet-dump.tgz');
			// Not /Fleet/: the archive's own row holds "fleet" too.
			await tree.expand(/^\s*Fleet/);
			await tree.expand('GitRepos');
			await tree.waitForRow(/^\s*shop(?!-)/);
			await shot('fleet-dump.png');
			// The row's menu opens the object as the archive holds it, read-only, its tab named after the entry.
			await tree.contextMenu(/^\s*shop(?!-)/, 'Open Dump Entry');
			await editors.waitForTab('shop');
		},
	);

	await story(
		'a user opens the rollout matrix, sees the failing cluster at once and moves cell by cell (dark, light, high contrast)',
		async () => {
			// The matrix wants the width: one editor group, the tree beside it.
			await palette.run('View: Close All Editor Groups');
			await palette.run('Kube Status Lens: Show Rollout Matrix');
			const choice = page
				.locator('.quick-input-list .monaco-list-row', { hasText: 'Workspace manifests' })
				.filter({ hasText: 'Fleet rollout' })
				.first();
			await choice.waitFor({ timeout: 10_000 });
			await choice.click();
			const matrix = page.frameLocator('iframe.webview').frameLocator('iframe');
			await matrix.locator('.cell.tone-error').first().waitFor({ timeout: 30_000 });
			await matrix.locator('#grid').focus();
			for (const key of ['ArrowDown', 'ArrowDown', 'ArrowRight']) await page.keyboard.press(key);
			await matrix.locator('.cell.active').first().waitFor();
			await shot('matrix-dark.png');
			for (const [theme, name] of [
				['Light Modern', 'matrix-light.png'],
				['Dark High Contrast', 'matrix-high-contrast.png'],
				['Dark Modern', undefined],
			]) {
				// Preferences: Color Theme, by its keys (the palette's first match for its name is the Marketplace's).
				await page.keyboard.press('Control+K');
				await page.keyboard.press('Control+T');
				await page
					.locator('.quick-input-list .monaco-list-row', { hasText: 'Modern' })
					.first()
					.waitFor({ timeout: 10_000 });
				const input = page.locator('.quick-input-widget input');
				await input.fill(theme);
				await page
					.locator('.quick-input-list .monaco-list-row', { hasText: theme })
					.first()
					.waitFor({ timeout: 10_000 });
				await page.keyboard.press('Enter');
				if (name) {
					await matrix.locator('.cell.tone-error').first().waitFor({ timeout: 30_000 });
					await page.mouse.move(900, 600);
					await shot(name);
				}
			}
		},
	);

	return failures() === 0 ? 0 : 1;
}
