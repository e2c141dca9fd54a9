// `scripts/node24 bench/matrix.ts`: the rollout matrix of 200 Bundles over 1,000 clusters: opening it (build, the
// panel's message, its JSON, the page's parse and checks) and one update batch (100 BundleDeployments change), each
// beside its goal and beside JSON.parse of the same BundleDeployments, measured in the same run. A benchmark, never
// a timed assertion.
import { toPanelMessage } from '../src/core/matrix/matrixMessages.ts';
import { changedCells, sameShape, wireMatrixOf } from '../src/core/matrix/matrixWire.ts';
import {
	buildRolloutMatrix,
	summariesOf,
	type MatrixSource,
} from '../src/core/matrix/rolloutMatrix.ts';
import { ResourceGraph } from '../src/core/tree/model.ts';
import { bundleDeployment } from './generate.ts';

const fleetApi = 'fleet.cattle.io/v1alpha1';
const bundles = 200;
const clusters = 1000;
const repos = 20;

function now(): number {
	return Number(process.hrtime.bigint()) / 1e6;
}

const objects: Record<string, unknown>[] = [];
for (let index = 0; index < repos; index++) {
	objects.push({
		apiVersion: fleetApi,
		kind: 'GitRepo',
		metadata: { name: `repo-${index}`, namespace: 'fleet-default' },
		spec: {},
	});
}
for (let index = 0; index < clusters; index++) {
	objects.push({
		apiVersion: fleetApi,
		kind: 'Cluster',
		metadata: {
			name: `c${index}`,
			namespace: 'fleet-default',
			labels: { region: `r${index % 5}` },
		},
		status: { namespace: `cluster-fleet-default-c${index}-0123456789ab` },
	});
}
for (let index = 0; index < 5; index++) {
	objects.push({
		apiVersion: fleetApi,
		kind: 'ClusterGroup',
		metadata: { name: `region-${index}`, namespace: 'fleet-default' },
		spec: { selector: { matchLabels: { region: `r${index}` } } },
	});
}
for (let index = 0; index < bundles; index++) {
	objects.push({
		apiVersion: fleetApi,
		kind: 'Bundle',
		metadata: {
			name: `bundle-${index}`,
			namespace: 'fleet-default',
			labels: { 'fleet.cattle.io/repo-name': `repo-${index % repos}` },
		},
		spec: {},
	});
}
const bdOf = (bundle: number, cluster: number, variant: number): Record<string, unknown> => {
	const bd = bundleDeployment(
		bundle * clusters + cluster + variant,
		`bundle-${bundle}`,
		`c${cluster}`,
	);
	const labels = (bd.metadata as { labels: Record<string, string> }).labels;
	labels['fleet.cattle.io/repo-name'] = `repo-${bundle % repos}`;
	return bd;
};
for (let bundle = 0; bundle < bundles; bundle++) {
	for (let cluster = 0; cluster < clusters; cluster++) objects.push(bdOf(bundle, cluster, 0));
}

const graph = new ResourceGraph();
graph.addRoot('bench', 'bench', 'file');
graph.setSourceObjects(
	'bench',
	'objects',
	objects.map((object) => ({ object })),
);

const source: MatrixSource = (visit) => graph.forEachObjectStatus('bench', visit);

/** Collects the garbage of what came before (building the graph, its updates), when run with --expose-gc. */
function settle(): void {
	(globalThis as { gc?: () => void }).gc?.();
}

// The machine's pace, for the ratios: JSON.parse of the BundleDeployments the matrix shows.
const bdTexts = objects
	.filter((object) => object.kind === 'BundleDeployment')
	.map((object) => JSON.stringify(object));
settle();
let start = now();
let parsed = 0;
for (const text of bdTexts) parsed += (JSON.parse(text) as object) ? 1 : 0;
const parseMs = now() - start;

// Open: the panel builds the matrix from the graph and posts it; the page parses and checks it.
settle();
start = now();
const matrix = buildRolloutMatrix('fleet', source);
const message = JSON.stringify({ type: 'matrix', title: 'bench', ...wireMatrixOf(matrix) });
const page = toPanelMessage(JSON.parse(message));
const openMs = now() - start;
if (page?.type !== 'matrix') throw new Error('the page refused the matrix message');

// An update batch: 100 BundleDeployments change state, then the panel's rebuild and what it sends.
for (let index = 0; index < 100; index++) {
	graph.upsertObject('bench', 'objects', bdOf(index % bundles, (index * 37) % clusters, 1));
}
settle();
start = now();
const after = buildRolloutMatrix('fleet', source, matrix);
const cells = sameShape(matrix, after) ? changedCells(matrix, after) : undefined;
const summaries = summariesOf(after);
const update = JSON.stringify({
	type: 'cells',
	cells,
	rowSummaries: summaries.rows,
	columnSummaries: summaries.columns,
	rowBadness: summaries.rowBadness,
	columnBadness: summaries.columnBadness,
});
const updateMs = now() - start;

const line = (label: string, ms: number, goal: string, note: string): void =>
	console.log(`${label.padEnd(50)} ${ms.toFixed(1).padStart(8)} ms  ${goal.padEnd(30)} ${note}`);
console.log(
	`Rollout matrix, ${bundles} Bundles x ${clusters.toLocaleString('en-US')} clusters (${parsed.toLocaleString('en-US')} BundleDeployments)`,
);
line('JSON.parse of the BundleDeployments (pace)', parseMs, '', '(baseline)');
line(
	'open: build, message, JSON, page parse and checks',
	openMs,
	'goal: about 1,000 ms',
	`(${(openMs / 1000).toFixed(2)}x the goal, ${(openMs / parseMs).toFixed(2)}x JSON.parse; ${(message.length / 1024 / 1024).toFixed(1)} MiB message)`,
);
line(
	'update batch: 100 cells change, rebuild and send',
	updateMs,
	'goal: a fraction of the open',
	`(${(updateMs / openMs).toFixed(2)}x the open, ${(updateMs / parseMs).toFixed(2)}x JSON.parse; ${cells?.cells.length ?? 0} cells, ${(update.length / 1024).toFixed(0)} KiB)`,
);
