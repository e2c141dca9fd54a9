import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromPanelMessage, toPanelMessage } from '../../../../src/core/matrix/matrixMessages.ts';
import { labelFilterOf, orderColumns, orderRows } from '../../../../src/core/matrix/matrixOrder.ts';
import { changedCells, sameShape, wireMatrixOf } from '../../../../src/core/matrix/matrixWire.ts';
import {
	buildRolloutMatrix,
	cellAt,
	matrixSystemsOf,
	summariesOf,
	type MatrixCell,
	type MatrixSource,
	type RolloutMatrix,
} from '../../../../src/core/matrix/rolloutMatrix.ts';
import { computeStatus } from '../../../../src/core/status/registry.ts';
import type { StatusResult } from '../../../../src/core/status/result.ts';
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

function sourceOf(graph: ResourceGraph, rootId = 'ws'): MatrixSource {
	return (visit) => graph.forEachObjectStatus(rootId, visit);
}

/** A source over plain objects, each result computed alone (as the graph does for BundleDeployments). */
function plainSource(
	objects: readonly Record<string, unknown>[],
	results: readonly StatusResult[] = objects.map((object) => computeStatus(object)),
): MatrixSource {
	return (visit) =>
		objects.forEach((object, index) => visit(object, results[index] ?? computeStatus(object)));
}

function cellOf(
	matrix: RolloutMatrix,
	rowLabel: string,
	columnLabel: string,
): MatrixCell | undefined {
	const row = matrix.rows.findIndex((candidate) => candidate.label === rowLabel);
	const column = matrix.columns.findIndex((candidate) => candidate.label === columnLabel);
	return cellAt(matrix, row, column);
}

function cellState(
	matrix: RolloutMatrix,
	rowLabel: string,
	columnLabel: string,
): string | undefined {
	return cellOf(matrix, rowLabel, columnLabel)?.state;
}

function summaryOf(matrix: RolloutMatrix, label: string): string | undefined {
	const summaries = summariesOf(matrix);
	const row = matrix.rows.findIndex((candidate) => candidate.label === label);
	if (row >= 0) return summaries.rows[row];
	return summaries.columns[matrix.columns.findIndex((candidate) => candidate.label === label)];
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
	const matrix = buildRolloutMatrix('fleet', sourceOf(graph));

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
		const failed = cellOf(matrix, 'Bundle fleet-default/shop-frontend', 'fleet-default/prod-2');
		assert.equal(failed?.abbreviation, 'ERR');
		assert.equal(failed?.tone, 'error');
		assert.match(failed?.message ?? '', /cannot patch "frontend"/);
		const modified = cellOf(
			matrix,
			'Bundle fleet-default/shop-frontend',
			'fleet-default/staging-1',
		);
		assert.equal(modified?.abbreviation, 'MOD');
		assert.deepEqual(modified?.notReady.length, 1);
		assert.match(modified?.notReady[0] ?? '', /configmap\.v1 shop\/config modified/);
	});

	it('names the tree place of each cell through the graph', () => {
		const cell = cellOf(matrix, 'Bundle fleet-default/shop-frontend', 'fleet-default/prod-2');
		const places = graph.findNodesForObject('ws', objectKeyOf(cell?.object));
		assert.ok(places.length > 0);
		assert.equal(graph.node(places[0] ?? '')?.result?.state, 'ErrApplied');
	});

	it('sums rows and columns as "how many in the worst state / all"', () => {
		assert.equal(summaryOf(matrix, 'Bundle fleet-default/shop-frontend'), '1/3 ErrApplied');
		assert.equal(summaryOf(matrix, 'Bundle fleet-default/shop-cache'), '2/2 Ready');
		assert.equal(summaryOf(matrix, 'GitRepo fleet-default/shop'), '1/5 ErrApplied');
		assert.equal(summaryOf(matrix, 'fleet-default/prod-1'), '2/2 Ready');
		assert.equal(summaryOf(matrix, 'fleet-default/staging-1'), '1/1 Modified');
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

	it('sends nothing when an object of another system in the root changes', () => {
		const mixed = graphOf([
			...example,
			{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'x' }, data: {} },
		]);
		const before = buildRolloutMatrix('fleet', sourceOf(mixed));
		mixed.upsertObject('ws', 'fleet.yaml', {
			apiVersion: 'v1',
			kind: 'ConfigMap',
			metadata: { name: 'c', namespace: 'x' },
			data: { changed: 'yes' },
		});
		const after = buildRolloutMatrix('fleet', sourceOf(mixed), before);
		assert.ok(sameShape(before, after));
		assert.equal(changedCells(before, after), undefined);
		assert.deepEqual(after.patched?.cells, []);
	});

	it('sends only the cell that changed when a BundleDeployment turns ready', () => {
		graph.upsertObject('ws', 'fleet.yaml', bd('shop-frontend', 'shop', 'prod-2', 'Ready'));
		const after = buildRolloutMatrix('fleet', sourceOf(graph), matrix);
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
		const matrix = buildRolloutMatrix('kubestellar', sourceOf(graph));
		assert.deepEqual(
			matrix.rows.map((row) => row.label),
			['BindingPolicy nginx-policy', 'Deployment web/nginx'],
		);
		assert.deepEqual(
			matrix.columns.map((column) => column.label),
			['wec1', 'wec2'],
		);
		assert.equal(cellAt(matrix, 1, 0)?.tone, 'ok');
		assert.notEqual(cellAt(matrix, 1, 1)?.tone, 'ok');
		// KubeStellar's words in full, not Fleet-style abbreviations ("Cur", "IP").
		for (const column of [0, 1]) {
			const cell = cellAt(matrix, 1, column);
			assert.ok(cell);
			assert.equal(cell.abbreviation, cell.state);
			assert.doesNotMatch(cell.abbreviation, /^[A-Z]{1,3}$|^Cur$/);
		}
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
		const wire = wireMatrixOf(buildRolloutMatrix('fleet', sourceOf(graphOf(example))));
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
		// A code that points past the texts, or a grid of the wrong size, is refused.
		const codes = [...wire.grid.codes];
		codes[0] = wire.grid.texts.length * wire.grid.base;
		assert.equal(
			toPanelMessage({ type: 'matrix', title: 't', ...wire, grid: { ...wire.grid, codes } }),
			undefined,
		);
		assert.equal(
			toPanelMessage({
				type: 'matrix',
				title: 't',
				...wire,
				grid: { ...wire.grid, codes: wire.grid.codes.slice(1) },
			}),
			undefined,
		);
	});
});

describe('a rollout of 200 Bundles over 1,000 clusters', () => {
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
	const results = objects.map((object) => computeStatus(object));
	const source = plainSource(objects, results);
	const matrix = buildRolloutMatrix('fleet', source);

	it('builds every cell, and the panel message holds each in one number, its texts once', () => {
		assert.equal(matrix.rows.length, 201);
		assert.equal(matrix.columns.length, 1000);
		const wire = wireMatrixOf(matrix);
		assert.equal(wire.grid.codes.length, 201_000);
		const errApplied = wire.grid.styles.findIndex((style) => style.state === 'ErrApplied');
		const styleOf = (code: number) => (code % wire.grid.base) - 1;
		assert.equal(wire.grid.codes.filter((code) => styleOf(code) === errApplied).length, 201);
		assert.equal(wire.grid.codes.filter((code) => code === 0).length, 1000, 'the heading row');
		assert.ok(wire.grid.texts.length < 10, 'messages are sent once each');
		assert.equal(orderColumns(wire.columns, 'group', 'shard=3').length, 100);
		const message = JSON.stringify({ type: 'matrix', title: 't', ...wire });
		assert.ok(message.length < 1.5 * 1024 * 1024, `${message.length} bytes`);
		assert.ok(toPanelMessage(JSON.parse(message)));
	});

	it('returns the same matrix when nothing it reads changed', () => {
		assert.equal(buildRolloutMatrix('fleet', source, matrix), matrix);
	});

	it('replaces only the cells of the BundleDeployments that changed, and sends only those', () => {
		// After the GitRepo and the clusters, each Bundle is followed by its 1,000 BundleDeployments.
		const at = (bundleIndex: number, clusterIndex: number) =>
			1001 + bundleIndex * 1001 + 1 + clusterIndex;
		const changed = [...objects];
		changed[at(0, 3)] = bd('b0', 'big', 'c3', 'Modified');
		changed[at(149, 779)] = bd('b149', 'big', 'c779', 'Modified');
		const changedResults = [...results];
		for (const index of [at(0, 3), at(149, 779)]) {
			changedResults[index] = computeStatus(changed[index]);
		}
		const after = buildRolloutMatrix('fleet', plainSource(changed, changedResults), matrix);
		assert.ok(sameShape(matrix, after));
		const cells = changedCells(matrix, after);
		assert.deepEqual(
			cells?.cells.map((cell) => [
				after.rows[cell[0]]?.label,
				after.columns[cell[1]]?.label,
				cells.styles[cell[2]]?.state,
			]),
			[
				['Bundle fleet-default/b0', 'fleet-default/c3', 'Modified'],
				['Bundle fleet-default/b149', 'fleet-default/c779', 'Modified'],
			],
		);
		assert.equal(cellState(matrix, 'Bundle fleet-default/b0', 'fleet-default/c3'), 'Ready');
	});
});

describe('the cells come from the results the graph computed', () => {
	it('shows the result it is handed for a BundleDeployment, not one of its own', () => {
		const objects = [gitRepo('shop'), bundle('shop-cache', 'shop'), cluster('prod-1', {})];
		const deployment = bd('shop-cache', 'shop', 'prod-1', 'Ready');
		const source: MatrixSource = (visit) => {
			for (const object of objects) visit(object, computeStatus(object));
			visit(deployment, { ...computeStatus(deployment), state: 'Handed', tone: 'warning' });
		};
		const matrix = buildRolloutMatrix('fleet', source);
		assert.equal(
			cellState(matrix, 'Bundle fleet-default/shop-cache', 'fleet-default/prod-1'),
			'Handed',
		);
	});
});

describe('a Fleet matrix with roll-ups only (BundleDeployments not listed)', () => {
	const rolledUp = {
		...bundle('shop-frontend', 'shop'),
		status: {
			summary: {
				desiredReady: 3,
				ready: 1,
				errApplied: 1,
				modified: 1,
				nonReadyResources: [
					{
						name: 'fleet-default/prod-2',
						bundleState: 'ErrApplied',
						message: 'cannot patch "frontend"',
					},
					{
						name: 'fleet-default/staging-1',
						bundleState: 'Modified',
						modifiedStatus: [
							{
								apiVersion: 'v1',
								kind: 'ConfigMap',
								namespace: 'shop',
								name: 'config',
								patch: '{}',
							},
						],
					},
				],
			},
		},
	};
	const objects = [
		gitRepo('shop'),
		rolledUp,
		cluster('prod-1', { env: 'prod' }),
		cluster('prod-2', { env: 'prod' }),
		cluster('staging-1', { env: 'staging' }),
	];

	it("shows the clusters the Bundle's status names, counts the rest in its row, and says why", () => {
		const matrix = buildRolloutMatrix('fleet', plainSource(objects));
		assert.equal(
			cellState(matrix, 'Bundle fleet-default/shop-frontend', 'fleet-default/prod-2'),
			'ErrApplied',
		);
		const modified = cellOf(
			matrix,
			'Bundle fleet-default/shop-frontend',
			'fleet-default/staging-1',
		);
		assert.equal(modified?.state, 'Modified');
		assert.equal(modified?.tone, 'warning');
		assert.match(modified?.notReady[0] ?? '', /configmap\.v1 shop\/config modified/);
		assert.equal(objectKeyOf(modified?.object), objectKeyOf(rolledUp));
		assert.equal(
			cellState(matrix, 'Bundle fleet-default/shop-frontend', 'fleet-default/prod-1'),
			undefined,
		);
		assert.equal(summaryOf(matrix, 'Bundle fleet-default/shop-frontend'), '1/3 ErrApplied');
		assert.equal(summaryOf(matrix, 'GitRepo fleet-default/shop'), '1/3 ErrApplied');
		assert.match(matrix.notice, /roll-ups/);
		assert.match(matrix.notice, /Expand a Bundle in the tree/);
		const wire = wireMatrixOf(matrix);
		assert.match(wire.notice, /roll-ups/);
		assert.deepEqual(
			wire.rows.map((row) => [row.label, row.fromSummary]),
			[
				['GitRepo fleet-default/shop', false],
				['Bundle fleet-default/shop-frontend', true],
			],
		);
	});

	it('says why it is empty when only GitRepos are known yet, rather than a blank grid', () => {
		const source = plainSource([gitRepo('shop'), cluster('prod-1', {})]);
		assert.deepEqual(matrixSystemsOf(source), ['fleet']);
		const matrix = buildRolloutMatrix('fleet', source);
		assert.match(matrix.notice, /No Bundles yet/);
		assert.match(buildRolloutMatrix('fleet', plainSource([])).notice, /as they arrive/);
		assert.match(buildRolloutMatrix('kubestellar', plainSource([])).notice, /ITS/);
	});

	it('says nothing above a matrix whose BundleDeployments are all there', () => {
		assert.equal(buildRolloutMatrix('fleet', sourceOf(graphOf(example))).notice, '');
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

describe('cells the targets do not reach (issue 31)', () => {
	const targeted = (name: string): Record<string, unknown> => ({
		...bundle(name, 'shop'),
		spec: { targets: [{ name: 'prod', clusterSelector: { matchLabels: { env: 'prod' } } }] },
	});
	const objects = [
		gitRepo('shop'),
		targeted('web'),
		cluster('prod-1', { env: 'prod' }),
		cluster('prod-2', { env: 'prod' }),
		cluster('dev-1', { env: 'dev' }),
		bd('web', 'shop', 'prod-1', 'Ready'),
		bd('web', 'shop', 'dev-1', 'Ready'),
	];
	const matrix = buildRolloutMatrix('fleet', plainSource(objects));

	it('says "not targeted" with the reason, apart from a cluster the targets reach without a BundleDeployment', () => {
		const web = 'Bundle fleet-default/web';
		assert.equal(cellState(matrix, web, 'fleet-default/prod-2'), 'no BundleDeployment yet');
		assert.match(
			cellOf(matrix, web, 'fleet-default/prod-2')?.message ?? '',
			/the controller is behind/,
		);
		const dev = cellOf(matrix, web, 'fleet-default/dev-1');
		assert.equal(dev?.state, 'Ready');
		assert.match(
			dev?.message ?? '',
			/Stale: the Bundle's targets no longer reach this cluster\. target `prod` wants env=prod; cluster `dev-1` has env=dev\./,
		);
	});

	it('leaves not-targeted cells out of the summaries, and counts a missing BundleDeployment', () => {
		const noDev = buildRolloutMatrix(
			'fleet',
			plainSource(
				objects.filter(
					(object) =>
						!(object.kind === 'BundleDeployment' && JSON.stringify(object).includes('dev-1')),
				),
			),
		);
		const web = 'Bundle fleet-default/web';
		assert.equal(cellState(noDev, web, 'fleet-default/dev-1'), 'not targeted');
		assert.equal(cellOf(noDev, web, 'fleet-default/dev-1')?.abbreviation, '—');
		assert.match(
			cellOf(noDev, web, 'fleet-default/dev-1')?.message ?? '',
			/^target `prod` wants env=prod/,
		);
		assert.equal(summaryOf(noDev, web), '1/2 no BundleDeployment yet');
	});
});
