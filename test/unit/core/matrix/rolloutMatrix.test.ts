import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromPanelMessage, toPanelMessage } from '../../../../src/core/matrix/matrixMessages.ts';
import { labelFilterOf, orderColumns, orderRows } from '../../../../src/core/matrix/matrixOrder.ts';
import { changedCells, sameShape, wireMatrixOf } from '../../../../src/core/matrix/matrixWire.ts';
import {
	buildRolloutMatrix,
	summariesOf,
	type RolloutMatrix,
} from '../../../../src/core/matrix/rolloutMatrix.ts';
import { objectKeyOf } from '../../../../src/core/tree/linking.ts';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';

const fleet = 'fleet.cattle.io/v1alpha1';

function gitRepo(name: string): Record<string, unknown> {
	return {
		apiVersion: fleet,
		kind: 'GitRepo',
		metadata: { name, namespace: 'fleet-default' },
		spec: {},
	};
}

function bundle(name: string, repo: string): Record<string, unknown> {
	return {
		apiVersion: fleet,
		kind: 'Bundle',
		metadata: { name, namespace: 'fleet-default', labels: { 'fleet.cattle.io/repo-name': repo } },
		spec: {},
	};
}

function cluster(name: string, labels: Record<string, string>): Record<string, unknown> {
	return {
		apiVersion: fleet,
		kind: 'Cluster',
		metadata: { name, namespace: 'fleet-default', labels },
		status: { namespace: `cluster-fleet-default-${name}` },
	};
}

function clusterGroup(name: string, matchLabels: Record<string, string>): Record<string, unknown> {
	return {
		apiVersion: fleet,
		kind: 'ClusterGroup',
		metadata: { name, namespace: 'fleet-default' },
		spec: { selector: { matchLabels } },
	};
}

/** A BundleDeployment in a state: Ready, ErrApplied (a failed apply) or Modified. */
function bd(
	bundleName: string,
	repo: string,
	clusterName: string,
	state: 'Ready' | 'ErrApplied' | 'Modified',
): Record<string, unknown> {
	const applied = state === 'ErrApplied' ? 's-0' : 's-1';
	return {
		apiVersion: fleet,
		kind: 'BundleDeployment',
		metadata: {
			name: bundleName,
			namespace: `cluster-fleet-default-${clusterName}`,
			labels: {
				'fleet.cattle.io/bundle-name': bundleName,
				'fleet.cattle.io/bundle-namespace': 'fleet-default',
				'fleet.cattle.io/cluster': clusterName,
				'fleet.cattle.io/cluster-namespace': 'fleet-default',
				'fleet.cattle.io/repo-name': repo,
			},
		},
		spec: { deploymentID: 's-1', stagedDeploymentID: 's-1' },
		status: {
			appliedDeploymentID: applied,
			ready: state !== 'ErrApplied',
			nonModified: state !== 'Modified',
			conditions: [
				state === 'ErrApplied'
					? {
							type: 'Deployed',
							status: 'False',
							reason: 'Error',
							message: 'cannot patch "frontend"',
						}
					: { type: 'Deployed', status: 'True' },
			],
			...(state === 'Modified'
				? {
						modifiedStatus: [
							{
								apiVersion: 'v1',
								kind: 'ConfigMap',
								namespace: 'shop',
								name: 'config',
								patch: '{"data":{}}',
							},
						],
					}
				: {}),
		},
	};
}

function graphOf(objects: readonly Record<string, unknown>[]): ResourceGraph {
	const graph = new ResourceGraph();
	graph.addRoot('ws', 'Workspace manifests', 'file');
	graph.setSourceObjects(
		'ws',
		'fleet.yaml',
		objects.map((object) => ({ object })),
	);
	return graph;
}

function cellState(
	matrix: RolloutMatrix,
	rowLabel: string,
	columnLabel: string,
): string | undefined {
	const row = matrix.rows.find((candidate) => candidate.label === rowLabel);
	const column = matrix.columns.find((candidate) => candidate.label === columnLabel);
	if (!row || !column) return undefined;
	return matrix.cells.get(row.id)?.get(column.id)?.state;
}

const example = [
	gitRepo('shop'),
	bundle('shop-frontend', 'shop'),
	bundle('shop-cache', 'shop'),
	cluster('prod-1', { env: 'prod' }),
	cluster('prod-2', { env: 'prod' }),
	cluster('staging-1', { env: 'staging' }),
	clusterGroup('production', { env: 'prod' }),
	bd('shop-frontend', 'shop', 'prod-1', 'Ready'),
	bd('shop-frontend', 'shop', 'prod-2', 'ErrApplied'),
	bd('shop-frontend', 'shop', 'staging-1', 'Modified'),
	bd('shop-cache', 'shop', 'prod-1', 'Ready'),
	bd('shop-cache', 'shop', 'prod-2', 'Ready'),
];

describe('the Fleet rollout matrix', () => {
	const graph = graphOf(example);
	const matrix = buildRolloutMatrix('fleet', graph.objectsOf('ws'));

	it('has the GitRepo as a heading over its Bundles, and a column per Cluster grouped by ClusterGroup', () => {
		assert.deepEqual(
			matrix.rows.map((row) => [row.label, row.heading]),
			[
				['GitRepo fleet-default/shop', true],
				['Bundle fleet-default/shop-cache', false],
				['Bundle fleet-default/shop-frontend', false],
			],
		);
		assert.deepEqual(
			matrix.columns.map((column) => [column.label, column.group]),
			[
				['fleet-default/prod-1', 'production'],
				['fleet-default/prod-2', 'production'],
				['fleet-default/staging-1', ''],
			],
		);
	});

	it('says each BundleDeployment state in a cell, with an abbreviation, a message and the modified resources', () => {
		assert.equal(
			cellState(matrix, 'Bundle fleet-default/shop-frontend', 'fleet-default/prod-1'),
			'Ready',
		);
		assert.equal(
			cellState(matrix, 'Bundle fleet-default/shop-frontend', 'fleet-default/prod-2'),
			'ErrApplied',
		);
		assert.equal(
			cellState(matrix, 'Bundle fleet-default/shop-cache', 'fleet-default/staging-1'),
			undefined,
		);
		const row = matrix.rows.find(
			(candidate) => candidate.label === 'Bundle fleet-default/shop-frontend',
		);
		const failed = matrix.cells.get(row?.id ?? '')?.get('fleet-default/prod-2');
		assert.equal(failed?.abbreviation, 'ERR');
		assert.equal(failed?.tone, 'error');
		assert.match(failed?.message ?? '', /cannot patch "frontend"/);
		const modified = matrix.cells.get(row?.id ?? '')?.get('fleet-default/staging-1');
		assert.equal(modified?.abbreviation, 'MOD');
		assert.deepEqual(modified?.notReady.length, 1);
		assert.match(modified?.notReady[0] ?? '', /configmap\.v1 shop\/config modified/);
	});

	it('names the tree place of each cell through the graph', () => {
		const row = matrix.rows.find(
			(candidate) => candidate.label === 'Bundle fleet-default/shop-frontend',
		);
		const cell = matrix.cells.get(row?.id ?? '')?.get('fleet-default/prod-2');
		const places = graph.findNodesForObject('ws', objectKeyOf(cell?.object));
		assert.ok(places.length > 0);
		assert.equal(graph.node(places[0] ?? '')?.result?.state, 'ErrApplied');
	});

	it('sums rows and columns as "how many in the worst state / all"', () => {
		const { rows, columns } = summariesOf(matrix);
		const byLabel = (label: string) => matrix.rows.find((row) => row.label === label)?.id ?? '';
		assert.equal(rows.get(byLabel('Bundle fleet-default/shop-frontend')), '1/3 ErrApplied');
		assert.equal(rows.get(byLabel('Bundle fleet-default/shop-cache')), '2/2 Ready');
		assert.equal(rows.get(byLabel('GitRepo fleet-default/shop')), '1/5 ErrApplied');
		assert.equal(columns.get('fleet-default/prod-1'), '2/2 Ready');
		assert.equal(columns.get('fleet-default/staging-1'), '1/1 Modified');
	});

	it('filters columns by label and sorts them by problems', () => {
		const wire = wireMatrixOf(matrix);
		const labelsOf = (indexes: number[]) => indexes.map((index) => wire.columns[index]?.label);
		assert.deepEqual(labelsOf(orderColumns(wire.columns, 'group', 'env=prod')), [
			'fleet-default/prod-1',
			'fleet-default/prod-2',
		]);
		assert.deepEqual(labelsOf(orderColumns(wire.columns, 'name', 'env!=prod')), [
			'fleet-default/staging-1',
		]);
		assert.deepEqual(labelsOf(orderColumns(wire.columns, 'problems', '')), [
			'fleet-default/prod-2',
			'fleet-default/staging-1',
			'fleet-default/prod-1',
		]);
		assert.equal(labelFilterOf('!env')({ label: 'x', group: '', labels: { env: 'a' } }), false);
		assert.deepEqual(
			orderRows(wire.rows, 'problems').map((index) => wire.rows[index]?.label),
			[
				'GitRepo fleet-default/shop',
				'Bundle fleet-default/shop-frontend',
				'Bundle fleet-default/shop-cache',
			],
		);
	});

	it('sends only the cell that changed when a BundleDeployment turns ready', () => {
		graph.upsertObject('ws', 'fleet.yaml', bd('shop-frontend', 'shop', 'prod-2', 'Ready'));
		const after = buildRolloutMatrix('fleet', graph.objectsOf('ws'), matrix);
		assert.ok(sameShape(matrix, after));
		const changed = changedCells(matrix, after);
		assert.deepEqual(
			changed?.cells.map((cell) => [
				after.rows[cell[0]]?.label,
				after.columns[cell[1]]?.label,
				changed.styles[cell[2]]?.state,
			]),
			[['Bundle fleet-default/shop-frontend', 'fleet-default/prod-2', 'Ready']],
		);
		assert.equal(changedCells(after, after), undefined);
	});
});

describe('the KubeStellar matrix', () => {
	it('has a workload row under its BindingPolicy and a WorkStatus cell per WEC', () => {
		const workStatus = (wec: string, ready: number) => ({
			apiVersion: 'control.kubestellar.io/v1alpha1',
			kind: 'WorkStatus',
			metadata: {
				name: `nginx-${wec}`,
				namespace: wec,
				labels: { 'transport.kubestellar.io/originOwnerReferenceBindingKey': 'nginx-policy' },
			},
			spec: {
				sourceRef: {
					group: 'apps',
					version: 'v1',
					resource: 'deployments',
					kind: 'Deployment',
					name: 'nginx',
					namespace: 'web',
				},
			},
			status: {
				observedGeneration: 1,
				replicas: 2,
				updatedReplicas: 2,
				readyReplicas: ready,
				availableReplicas: ready,
				conditions: [{ type: 'Available', status: ready === 2 ? 'True' : 'False' }],
			},
		});
		const graph = graphOf([workStatus('wec1', 2), workStatus('wec2', 1)]);
		const matrix = buildRolloutMatrix('kubestellar', graph.objectsOf('ws'));
		assert.deepEqual(
			matrix.rows.map((row) => row.label),
			['BindingPolicy nginx-policy', 'Deployment web/nginx'],
		);
		assert.deepEqual(
			matrix.columns.map((column) => column.label),
			['wec1', 'wec2'],
		);
		const row = matrix.rows[1]?.id ?? '';
		assert.equal(matrix.cells.get(row)?.get('wec1')?.tone, 'ok');
		assert.notEqual(matrix.cells.get(row)?.get('wec2')?.tone, 'ok');
	});
});

describe('the messages between the panel and the extension', () => {
	it('accepts only well-formed messages from the panel', () => {
		assert.deepEqual(fromPanelMessage({ type: 'reveal', row: 1, column: 2 }), {
			type: 'reveal',
			row: 1,
			column: 2,
		});
		assert.equal(fromPanelMessage({ type: 'reveal', row: -1, column: 2 }), undefined);
		assert.equal(fromPanelMessage({ type: 'explain', row: '1', column: 2 }), undefined);
		assert.equal(fromPanelMessage({ type: 'run', command: 'x' }), undefined);
	});

	it('accepts only well-formed messages from the extension', () => {
		const wire = wireMatrixOf(buildRolloutMatrix('fleet', graphOf(example).objectsOf('ws')));
		assert.ok(toPanelMessage({ type: 'matrix', title: 't', ...wire }));
		assert.equal(
			toPanelMessage({
				type: 'matrix',
				title: 't',
				rows: [],
				columns: [],
				cells: [[0, 0, 'Ready', 'OK', 'green', '', []]],
			}),
			undefined,
		);
	});
});

describe('a rollout of 200 Bundles over 1,000 clusters', () => {
	it('builds every cell, and the panel message holds each', () => {
		const objects: Record<string, unknown>[] = [gitRepo('big')];
		for (let c = 0; c < 1000; c++) objects.push(cluster(`c${c}`, { shard: String(c % 10) }));
		for (let b = 0; b < 200; b++) {
			objects.push(bundle(`b${b}`, 'big'));
			for (let c = 0; c < 1000; c++) {
				objects.push(
					bd(`b${b}`, 'big', `c${c}`, (b * 1000 + c) % 997 === 0 ? 'ErrApplied' : 'Ready'),
				);
			}
		}
		const matrix = buildRolloutMatrix('fleet', objects);
		assert.equal(matrix.rows.length, 201);
		assert.equal(matrix.columns.length, 1000);
		const wire = wireMatrixOf(matrix);
		assert.equal(wire.cells.cells.length, 200_000);
		const errApplied = wire.cells.styles.findIndex((style) => style.state === 'ErrApplied');
		assert.equal(wire.cells.cells.filter((cell) => cell[2] === errApplied).length, 201);
		assert.ok(wire.cells.texts.length < 10, 'messages are sent once each');
		assert.equal(orderColumns(wire.columns, 'group', 'shard=3').length, 100);
	});
});

describe('the panel page', () => {
	it('sets text only and loads nothing but its own nonce script', async () => {
		const { readFileSync } = await import('node:fs');
		const page = readFileSync(
			new URL('../../../../src/vscode/matrix/webview/matrixPage.ts', import.meta.url),
			'utf8',
		);
		assert.doesNotMatch(page, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(/);
		const panel = readFileSync(
			new URL('../../../../src/vscode/matrix/matrixPanel.ts', import.meta.url),
			'utf8',
		);
		assert.match(
			panel,
			/content="default-src 'none'; img-src \$\{webview\.cspSource\}; style-src 'nonce-\$\{once\}'; script-src 'nonce-\$\{once\}';"/,
		);
		assert.doesNotMatch(panel, /\son[a-z]+="/, 'no inline event handlers');
	});
});
