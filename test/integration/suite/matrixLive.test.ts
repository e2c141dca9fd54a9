// The rollout matrix on the demo's live contexts: the KubeStellar workload opened from its BindingPolicy, a change
// on the server arriving in a Fleet cell (with the keys and the reveal still working), and a context in roll-ups-only
// mode saying what it shows instead of a blank grid.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FromPanel } from '../../../src/core/matrix/matrixMessages.ts';
import { cellAt, type MatrixCell } from '../../../src/core/matrix/rolloutMatrix.ts';
import { objectKeyOf } from '../../../src/core/tree/linking.ts';
import type { MatrixPanelHandle } from '../../../src/vscode/matrix/matrixPanel.ts';
import { demoRequest, eventually, extensionApi, walk } from './support.ts';

/** Sends a merge patch (or another request) to a context of the demo cluster; resolves with the status. */
async function callDemo(
	context: string,
	method: string,
	path: string,
	body?: unknown,
): Promise<number> {
	return (await demoRequest(context, method, path, body, 'application/merge-patch+json')).status;
}

/** GETs a JSON object from a context of the demo cluster. */
async function getDemo(context: string, path: string): Promise<Record<string, unknown>> {
	return JSON.parse((await demoRequest(context, 'GET', path)).body) as Record<string, unknown>;
}

function cellOf(
	handle: MatrixPanelHandle,
	rowLabel: string,
	columnLabel: string,
): MatrixCell | undefined {
	const matrix = handle.current();
	if (!matrix) return undefined;
	const row = matrix.rows.findIndex((candidate) => candidate.label === rowLabel);
	const column = matrix.columns.findIndex((candidate) => candidate.label === columnLabel);
	return cellAt(matrix, row, column);
}

/** The next message of a type from the page. */
function nextMessage(handle: MatrixPanelHandle, type: FromPanel['type']): Promise<FromPanel> {
	return new Promise((resolve) => {
		const subscription = handle.onMessage((message) => {
			if (message.type !== type) return;
			subscription.dispose();
			resolve(message);
		});
	});
}

/** Sends a key to the page and waits for the message it answers with. */
async function pressKey(
	handle: MatrixPanelHandle,
	key: string,
	answer: FromPanel['type'],
): Promise<FromPanel> {
	const answered = nextMessage(handle, answer);
	assert.ok(await handle.send({ type: 'move', key }));
	return answered;
}

async function closeMatrices(): Promise<void> {
	const api = await extensionApi();
	for (const handle of api.matrix.open()) handle.panel.dispose();
}

describe('the rollout matrix on live clusters', () => {
	afterEach(closeMatrices);

	it('opens the KubeStellar matrix from a BindingPolicy row, each cell the state of a WorkStatus', async () => {
		const api = await extensionApi();
		await vscode.commands.executeCommand('kubeStatusLens.resources.focus');
		const rootId = 'live:kubestellar-wds';
		await eventually('the WorkStatuses of the ITS under the WDS workload', () =>
			walk(api).some(
				(node) =>
					node.rootId === rootId &&
					node.ref?.kind === 'Deployment' &&
					api.graph.children(node.id).some((child) => child.ref?.kind === 'WorkStatus'),
			),
		);
		const policy = await eventually('the BindingPolicy nginx-multiwec', () =>
			walk(api).find(
				(node) =>
					node.rootId === rootId &&
					node.ref?.kind === 'BindingPolicy' &&
					node.ref.name === 'nginx-multiwec',
			),
		);
		await vscode.commands.executeCommand('kubeStatusLens.matrix.show', policy.id);
		const handle = await eventually('the KubeStellar matrix', () =>
			api.matrix.open().find((open) => open.system === 'kubestellar' && open.rootId === rootId),
		);
		// The page shows the BindingPolicy's row: it selects its first cell and says so.
		const selected = await nextMessage(handle, 'selected');
		const rows = handle.current()?.rows ?? [];
		assert.deepEqual(selected, {
			type: 'selected',
			row: rows.findIndex((row) => row.objectKey === policy.objectKey),
			column: 0,
		});
		const cell = await eventually('the cell of nginx on cluster1', () =>
			cellOf(handle, 'Deployment nginx/nginx', 'cluster1'),
		);
		assert.equal(cell.object.kind, 'WorkStatus');
		const places = api.graph.findNodesForObject(rootId, objectKeyOf(cell.object));
		const inTree = api.graph.node(places[0] ?? '');
		assert.ok(inTree, 'the WorkStatus is in the tree');
		assert.equal(cell.state, inTree.result?.state);
		assert.ok(cell.state !== '' && cell.abbreviation !== '');
	});

	it('changes a cell when a BundleDeployment changes on the server; the keys and the reveal still work', async () => {
		const api = await extensionApi();
		await vscode.commands.executeCommand('kubeStatusLens.resources.focus');
		const rootId = 'live:fleet-mgmt';
		const gitRepo = await eventually('the GitRepo shop with its BundleDeployments', () =>
			walk(api).find(
				(node) =>
					node.rootId === rootId &&
					node.ref?.kind === 'GitRepo' &&
					node.ref.name === 'shop' &&
					!/roll-ups only/.test(api.graph.node(rootId)?.description ?? ''),
			),
		);
		await vscode.commands.executeCommand('kubeStatusLens.matrix.show', gitRepo.id);
		const handle = await eventually('the Fleet matrix', () =>
			api.matrix.open().find((open) => open.system === 'fleet' && open.rootId === rootId),
		);
		await nextMessage(handle, 'selected');
		const row = 'Bundle fleet-default/shop-cache';
		const column = 'fleet-default/prod-eu-1';
		await eventually(
			'shop-cache ready on prod-eu-1',
			() => cellOf(handle, row, column)?.state === 'Ready',
		);
		const path =
			'/apis/fleet.cattle.io/v1alpha1/namespaces/cluster-fleet-default-prod-eu-1-eb998a50c712/bundledeployments/shop-cache/status';
		const patched = await callDemo('fleet-mgmt', 'PATCH', path, {
			status: {
				nonModified: false,
				modifiedStatus: [
					{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'cache', patch: '{}' },
				],
			},
		});
		assert.ok(patched === 200 || patched === 201, String(patched));
		try {
			const changed = await eventually(
				() => `the cell to turn Modified (now ${cellOf(handle, row, column)?.state})`,
				() => {
					const cell = cellOf(handle, row, column);
					return cell?.state === 'Modified' ? cell : undefined;
				},
			);
			assert.equal(changed.abbreviation, 'MOD');
			assert.match(changed.notReady.join('\n'), /configmap\.v1 shop\/cache modified/);

			// The keys move from the GitRepo's row onto the next, then right; Space reveals that cell in the tree.
			const matrix = handle.current();
			assert.ok(matrix);
			const from = matrix.rows.findIndex((candidate) => candidate.objectKey === gitRepo.objectKey);
			assert.deepEqual(await pressKey(handle, 'ArrowDown', 'selected'), {
				type: 'selected',
				row: from + 1,
				column: 0,
			});
			assert.deepEqual(await pressKey(handle, 'ArrowRight', 'selected'), {
				type: 'selected',
				row: from + 1,
				column: 1,
			});
			await pressKey(handle, ' ', 'reveal');
			const cell = cellAt(matrix, from + 1, 1);
			assert.ok(cell, 'the active cell holds a BundleDeployment');
			const places = api.graph.findNodesForObject(rootId, objectKeyOf(cell.object));
			await eventually('the tree to select the BundleDeployment', () =>
				places.includes(api.view.selection[0] ?? ''),
			);
		} finally {
			await callDemo('fleet-mgmt', 'PATCH', path, {
				status: { nonModified: true, modifiedStatus: null },
			});
		}
	});

	describe('a context in roll-ups-only mode', () => {
		after(async () => {
			await vscode.workspace
				.getConfiguration('kubeStatusLens.clusters')
				.update('bundleDeploymentThreshold', undefined, vscode.ConfigurationTarget.Global);
		});

		it("shows what the Bundles' statuses say and why other cells are missing, never a blank grid", async () => {
			const api = await extensionApi();
			await vscode.commands.executeCommand('kubeStatusLens.resources.focus');
			// A Bundle an earlier test left open would list its BundleDeployments again in roll-ups-only mode.
			await vscode.commands.executeCommand(
				'workbench.actions.treeView.kubeStatusLens.resources.collapseAll',
			);
			await vscode.workspace
				.getConfiguration('kubeStatusLens.clusters')
				.update('bundleDeploymentThreshold', 1, vscode.ConfigurationTarget.Global);
			const rootId = await eventually('fleet-mgmt to say it is in roll-ups-only mode', () =>
				api.provider.getChildren().find((id) => {
					const node = api.graph.node(id);
					return node?.label === 'fleet-mgmt' && /roll-ups only/.test(node.description);
				}),
			);
			// Not through the tree: expanding a Bundle lists its BundleDeployments.
			await eventually('the Bundles with their status', () => {
				let bundles = 0;
				api.graph.forEachObjectStatus(rootId, (object) => {
					if (object.kind === 'Bundle') bundles++;
				});
				return bundles > 0;
			});
			await vscode.commands.executeCommand('kubeStatusLens.matrix.show', rootId);
			const handle = await eventually('the Fleet matrix', () =>
				api.matrix.open().find((open) => open.system === 'fleet' && open.rootId === rootId),
			);
			const explained = await eventually(
				() => {
					const current = handle.current();
					const kinds = new Map<string, number>();
					api.graph.forEachObjectStatus(rootId, (object) => {
						const kind = String(object.kind);
						kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
					});
					return `the matrix to say why cells are missing (notice: ${JSON.stringify(current?.notice)}, rows: ${current?.rows.map((row) => row.label).join(', ')}, root objects: ${JSON.stringify([...kinds])})`;
				},
				() => {
					const current = handle.current();
					return current && /roll-ups/.test(current.notice) ? current : undefined;
				},
			);
			assert.match(explained.notice, /Expand a Bundle in the tree/);

			// What the patch below has to reach: the Bundle's row drawn from its status. A row whose
			// BundleDeployments the root holds (a sync from before the mode changed that has not yet gone, or a
			// listing from an expansion) shows those instead, and a patch to the status alone would not show.
			const rowLabel = 'Bundle fleet-default/shop-frontend';
			const rowState = (): string => {
				const matrix = handle.current();
				const row = matrix?.rows.findIndex((candidate) => candidate.label === rowLabel) ?? -1;
				let listed = 0;
				let nonReady: unknown;
				api.graph.forEachObjectStatus(rootId, (object) => {
					const record = object as {
						kind?: unknown;
						metadata?: { name?: unknown; labels?: Record<string, unknown> };
						status?: { summary?: { nonReadyResources?: unknown } };
					};
					if (
						record.kind === 'BundleDeployment' &&
						record.metadata?.labels?.['fleet.cattle.io/bundle-name'] === 'shop-frontend'
					) {
						listed++;
					}
					if (record.kind === 'Bundle' && record.metadata?.name === 'shop-frontend') {
						nonReady = record.status?.summary?.nonReadyResources;
					}
				});
				const cell = cellOf(handle, rowLabel, 'fleet-default/prod-us-1');
				return `row ${row}, from the status: ${matrix?.rowCounts.has(row) ?? false}, its BundleDeployments in the root: ${listed}, cell: ${cell?.state ?? 'none'}, nonReadyResources in the graph: ${JSON.stringify(nonReady)}, root: ${api.graph.node(rootId)?.description ?? 'gone'}`;
			};
			await eventually(
				() => `the row of shop-frontend drawn from its status (${rowState()})`,
				() => {
					const matrix = handle.current();
					const row = matrix?.rows.findIndex((candidate) => candidate.label === rowLabel) ?? -1;
					return row >= 0 && matrix?.rowCounts.has(row) === true;
				},
			);

			// Fleet names a failing cluster in the Bundle's status: the matrix shows that cell.
			const path =
				'/apis/fleet.cattle.io/v1alpha1/namespaces/fleet-default/bundles/shop-frontend/status';
			const before = await getDemo('fleet-mgmt', path);
			const summary = ((before.status as Record<string, unknown> | undefined)?.summary ??
				{}) as Record<string, unknown>;
			const desired = typeof summary.desiredReady === 'number' ? summary.desiredReady : 3;
			const patched = await callDemo('fleet-mgmt', 'PATCH', path, {
				status: {
					summary: {
						ready: desired - 1,
						errApplied: 1,
						nonReadyResources: [
							{
								name: 'fleet-default/prod-us-1',
								bundleState: 'ErrApplied',
								message: 'cannot patch "frontend": from the matrix test',
							},
						],
					},
				},
			});
			assert.ok(patched === 200 || patched === 201, String(patched));
			try {
				const failing = await eventually(
					() => `the failing cluster from the Bundle status (${rowState()})`,
					() => {
						const cell = cellOf(handle, rowLabel, 'fleet-default/prod-us-1');
						return cell?.state === 'ErrApplied' ? cell : undefined;
					},
				);
				assert.equal(failing.object.kind, 'Bundle');
				assert.match(failing.message, /from the matrix test/);
				const matrix = handle.current();
				assert.ok(matrix);
				assert.match(matrix.notice, /roll-ups/);
			} finally {
				await callDemo('fleet-mgmt', 'PATCH', path, {
					status: {
						summary: {
							ready: summary.ready ?? null,
							errApplied: summary.errApplied ?? null,
							nonReadyResources: summary.nonReadyResources ?? null,
						},
					},
				});
			}
		});
	});
});
