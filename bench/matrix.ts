// `scripts/node24 bench/matrix.ts`: the rollout matrix of 200 Bundles over 1,000 clusters: opening it (build, the
// panel's message, its JSON) and one update batch (100 BundleDeployments change), each beside the tree's first
// levels of the same graph, measured in the same run. A benchmark, never a timed assertion.
import { changedCells, sameShape, wireMatrixOf } from '../src/core/matrix/matrixWire.ts';
import { buildRolloutMatrix, summariesOf } from '../src/core/matrix/rolloutMatrix.ts';
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

/** The tree's first levels as the view asks for them: the root, its systems, their categories, the GitRepos' rows. */
function treeFirstLevels(): number {
	let count = 0;
	for (const root of graph.children(undefined)) {
		for (const system of graph.children(root.id)) {
			for (const category of graph.children(system.id)) {
				count += graph.children(category.id).length;
			}
		}
	}
	return count;
}

let start = now();
treeFirstLevels();
const treeMs = now() - start;

start = now();
const matrix = buildRolloutMatrix('fleet', graph.objectsOf('bench'));
const buildMs = now() - start;
start = now();
const message = JSON.stringify({ type: 'matrix', title: 'bench', ...wireMatrixOf(matrix) });
const openMs = buildMs + now() - start;

// An update batch: 100 BundleDeployments change state, then the panel's rebuild and what it sends.
for (let index = 0; index < 100; index++) {
	graph.upsertObject('bench', 'objects', bdOf(index % bundles, (index * 37) % clusters, 1));
}
start = now();
const after = buildRolloutMatrix('fleet', graph.objectsOf('bench'), matrix);
const cells = sameShape(matrix, after) ? changedCells(matrix, after) : undefined;
const summaries = summariesOf(after);
const update = JSON.stringify({
	type: 'cells',
	cells,
	rowSummaries: after.rows.map((row) => summaries.rows.get(row.id) ?? ''),
	columnSummaries: after.columns.map((column) => summaries.columns.get(column.id) ?? ''),
});
const updateMs = now() - start;

const line = (label: string, ms: number, note: string): void =>
	console.log(`${label.padEnd(52)} ${ms.toFixed(1).padStart(8)} ms  ${note}`);
console.log(`Rollout matrix, ${bundles} Bundles x ${clusters.toLocaleString('en-US')} clusters`);
line('tree first levels of the same graph', treeMs, '(baseline)');
line(
	'open: build, panel message and its JSON',
	openMs,
	`(${(openMs / treeMs).toFixed(1)}x the tree; ${(message.length / 1024 / 1024).toFixed(1)} MiB message)`,
);
line(
	'update batch: 100 cells change, rebuild and send',
	updateMs,
	`(${(updateMs / treeMs).toFixed(1)}x the tree; ${cells?.cells.length ?? 0} cells, ${(update.length / 1024).toFixed(0)} KiB)`,
);
console.log(
	'  goal (issue 16): open in about a second; an update batch a fraction of that (it sends only the changed cells)',
);
