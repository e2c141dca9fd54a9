import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FromPanel } from '../../../src/core/matrix/matrixMessages.ts';
import { cellAt, type MatrixCell } from '../../../src/core/matrix/rolloutMatrix.ts';
import type { MatrixPanelHandle } from '../../../src/vscode/matrix/matrixPanel.ts';
import { objectKeyOf } from '../../../src/core/tree/linking.ts';
import { deleteManifest, eventually, extensionApi, findNode } from './support.ts';

function cellOf(
	handle: MatrixPanelHandle,
	rowLabel: string,
	columnLabel: string,
): string | undefined {
	const matrix = handle.current();
	if (!matrix) return undefined;
	const row = matrix.rows.findIndex((candidate) => candidate.label === rowLabel);
	const column = matrix.columns.findIndex((candidate) => candidate.label === columnLabel);
	return cellAt(matrix, row, column)?.state;
}

/** Sends a key to the page and waits for the message it answers with. */
async function pressKey(
	handle: MatrixPanelHandle,
	key: string,
	answer: FromPanel['type'],
): Promise<FromPanel> {
	let subscription: vscode.Disposable | undefined;
	const answered = new Promise<FromPanel>((resolve) => {
		subscription = handle.onMessage((message) => {
			if (message.type === answer) resolve(message);
		});
	});
	assert.ok(await handle.send({ type: 'move', key }));
	try {
		return await answered;
	} finally {
		subscription?.dispose();
	}
}

describe('the rollout matrix', () => {
	let handle: MatrixPanelHandle | undefined;

	it('opens from a GitRepo in the tree on its row, with the cells of the Fleet rollout', async () => {
		const api = await extensionApi();
		const gitRepo = findNode(api, /GitRepo shop|^shop$/, 'object');
		assert.ok(gitRepo, 'the GitRepo shop is in the tree');
		await vscode.commands.executeCommand('kubeStatusLens.matrix.show', gitRepo.id);
		const opened = await eventually('the matrix panel', () => api.matrix.open()[0]);
		handle = opened;
		// The page shows the GitRepo's row: it selects its first cell and says so.
		const selected = await new Promise<FromPanel>((resolve) => {
			const subscription = opened.onMessage((message) => {
				if (message.type !== 'selected') return;
				subscription.dispose();
				resolve(message);
			});
		});
		assert.equal(opened.system, 'fleet');
		const rows = opened.current()?.rows ?? [];
		assert.deepEqual(selected, {
			type: 'selected',
			row: rows.findIndex((row) => row.objectKey === gitRepo.objectKey),
			column: 0,
		});
		assert.equal(
			cellOf(opened, 'Bundle fleet-default/shop-frontend', 'fleet-default/prod-us-1'),
			'ErrApplied',
		);
		assert.equal(
			cellOf(opened, 'Bundle fleet-default/shop-cache', 'fleet-default/prod-eu-1'),
			'Ready',
		);
	});

	it('moves cell by cell with the arrow keys, the page telling the extension where it is', async () => {
		assert.ok(handle);
		const rows = handle.current()?.rows ?? [];
		const from = rows.findIndex((row) => row.label === 'GitRepo fleet-default/shop');
		const down = await pressKey(handle, 'ArrowDown', 'selected');
		assert.deepEqual(down, { type: 'selected', row: from + 1, column: 0 });
		const right = await pressKey(handle, 'ArrowRight', 'selected');
		assert.deepEqual(right, { type: 'selected', row: from + 1, column: 1 });
	});

	it("reveals the cell's BundleDeployment in the tree", async () => {
		const api = await extensionApi();
		assert.ok(handle);
		await pressKey(handle, ' ', 'reveal');
		const matrix = handle.current();
		const from = matrix?.rows.findIndex(
			(candidate) => candidate.label === 'GitRepo fleet-default/shop',
		);
		const cell: MatrixCell | undefined = matrix && cellAt(matrix, (from ?? 0) + 1, 1);
		assert.ok(cell, 'the active cell holds a BundleDeployment');
		const places = api.graph.findNodesForObject(handle.rootId, objectKeyOf(cell.object));
		await eventually('the tree to select the BundleDeployment', () =>
			places.includes(api.view.selection[0] ?? ''),
		);
	});

	it('changes a cell when a BundleDeployment arrives in the workspace', async () => {
		const api = await extensionApi();
		assert.ok(handle);
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
		assert.ok(folder);
		// Its targets do not reach edge-1 (env=edge): the cell says so until a BundleDeployment is there.
		assert.equal(
			cellOf(handle, 'Bundle fleet-default/shop-cache', 'fleet-default/edge-1'),
			'not targeted',
		);
		const text = `apiVersion: fleet.cattle.io/v1alpha1
kind: BundleDeployment
metadata:
  name: shop-cache
  namespace: cluster-fleet-default-edge-1
  labels:
    fleet.cattle.io/bundle-name: shop-cache
    fleet.cattle.io/bundle-namespace: fleet-default
    fleet.cattle.io/cluster: edge-1
    fleet.cattle.io/cluster-namespace: fleet-default
    fleet.cattle.io/repo-name: shop
spec:
  deploymentID: s-2
  stagedDeploymentID: s-2
status:
  appliedDeploymentID: s-1
  conditions:
    - type: Deployed
      status: "False"
      reason: Error
      message: cannot reach the edge
`;
		const uri = vscode.Uri.joinPath(folder, 'fleet', 'matrix-update.yaml');
		await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
		try {
			await eventually(
				'the new cell',
				() =>
					handle &&
					cellOf(handle, 'Bundle fleet-default/shop-cache', 'fleet-default/edge-1') ===
						'ErrApplied',
			);
			assert.ok(api.matrix.open().length === 1);
		} finally {
			await deleteManifest(api, uri);
		}
		handle.panel.dispose();
	});
});
