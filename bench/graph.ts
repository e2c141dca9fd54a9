// `scripts/node24 bench/graph.ts`: the resource graph's build time and the cost of one watch event, printed side by
// side for 10,000 and 100,000 objects. A benchmark, never a timed assertion.
import { computeStatus } from '../src/core/status/registry.ts';
import { ResourceGraph } from '../src/core/tree/model.ts';
import { type TreeNode } from '../src/core/tree/treeNode.ts';
import { bundleDeployment, mixedObjects } from './generate.ts';

const fleetApi = 'fleet.cattle.io/v1alpha1';

/** Bundle and cluster of the BD at a generator index; unique per index, as bench/run.ts spreads them. */
function bdPlace(index: number): { bundle: string; cluster: string } {
	return { bundle: `bundle-${index % 1000}`, cluster: `c${Math.floor(index / 1000)}` };
}

/**
 * The objects generate.ts makes (its BDs re-spread over clusters so that each has its own key), plus the Fleet
 * parents and a BindingPolicy that the BDs and Deployments link to.
 */
function workload(count: number): Record<string, unknown>[] {
	const objects = mixedObjects(count).map((object, index) => {
		if (object.kind !== 'BundleDeployment') return object;
		const { bundle, cluster } = bdPlace(index);
		return bundleDeployment(index, bundle, cluster);
	});
	for (let index = 0; index < 50; index++) {
		objects.push({
			apiVersion: fleetApi,
			kind: 'GitRepo',
			metadata: { name: `repo-${index}`, namespace: 'fleet-default' },
			spec: {},
			status: { gitJobStatus: 'Current', conditions: [{ type: 'Ready', status: 'True' }] },
		});
	}
	for (let index = 0; index < Math.ceil(count / 1000); index++) {
		objects.push({
			apiVersion: fleetApi,
			kind: 'Cluster',
			metadata: {
				name: `c${index}`,
				namespace: 'fleet-default',
				labels: { env: index % 2 ? 'prod' : 'dev' },
			},
			spec: {},
			status: {
				namespace: `cluster-fleet-default-c${index}-0123456789ab`,
				agent: { lastSeen: '2026-11-22T08:00:00Z' },
			},
		});
	}
	objects.push({
		apiVersion: fleetApi,
		kind: 'ClusterGroup',
		metadata: { name: 'prod', namespace: 'fleet-default' },
		spec: { selector: { matchLabels: { env: 'prod' } } },
	});
	for (let index = 0; index < 1000; index++) {
		objects.push({
			apiVersion: fleetApi,
			kind: 'Bundle',
			metadata: {
				name: `bundle-${index}`,
				namespace: 'fleet-default',
				labels: { 'fleet.cattle.io/repo-name': `repo-${index % 50}` },
			},
			spec: {},
			status: {},
		});
	}
	objects.push({
		apiVersion: 'control.kubestellar.io/v1alpha1',
		kind: 'BindingPolicy',
		metadata: { name: 'web' },
		spec: { downsync: [{ resources: ['deployments'], namespaces: ['default'] }] },
		status: {},
	});
	return objects;
}

function milliseconds(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Per-event costs of one size, for the side-by-side comparison at the end. */
interface EventFigures {
	readonly eager: number;
	readonly debounced: number;
}

/** Builds, expands and updates a graph of `count` objects; prints the figures unless it is a warm-up run. */
function bench(count: number, print = true): EventFigures {
	const log = (line: string) => {
		if (print) console.log(line);
	};
	const objects = workload(count);
	let best = Number.POSITIVE_INFINITY;
	let graph = new ResourceGraph();
	for (let repeat = 0; repeat < 3; repeat++) {
		const candidate = new ResourceGraph();
		candidate.addRoot('bench', 'Bench', 'live');
		const start = process.hrtime.bigint();
		candidate.setSourceObjects(
			'bench',
			'source',
			objects.map((object) => ({ object })),
		);
		best = Math.min(best, milliseconds(start));
		graph = candidate;
	}
	const label = `${count.toLocaleString('en-US')} objects (+ ${(objects.length - count).toLocaleString('en-US')} parents)`;
	log(`\n${label}`);
	log(
		`  build (setSourceObjects)                      ${best.toFixed(1).padStart(9)} ms   ${((best * 1000) / objects.length).toFixed(1).padStart(6)} µs/object`,
	);

	// Expanding every node once, as a fully expanded tree would: builds every TreeNode and every Fleet roll-up.
	let start = process.hrtime.bigint();
	let nodes = 0;
	let largest: TreeNode | undefined;
	let largestSize = 0;
	const walk = (list: readonly TreeNode[]) => {
		for (const node of list) {
			nodes++;
			const children = graph.children(node.id);
			if (children.length > largestSize) {
				largestSize = children.length;
				largest = node;
			}
			walk(children);
		}
	};
	walk(graph.roots());
	log(
		`  first full expansion (${nodes.toLocaleString('en-US')} tree items)`.padEnd(47) +
			`${milliseconds(start).toFixed(1).padStart(9)} ms`,
	);
	if (largest) {
		const id = largest.id;
		start = process.hrtime.bigint();
		graph.children(id);
		log(
			`  children of the largest node (${largestSize.toLocaleString('en-US')}, cached)`.padEnd(47) +
				`${milliseconds(start).toFixed(1).padStart(9)} ms`,
		);
		start = process.hrtime.bigint();
		graph.children(id, { nameContains: 'bundle-99' });
		log(`  same, filtered by name`.padEnd(47) + `${milliseconds(start).toFixed(1).padStart(9)} ms`);
	}

	// One BD event = a watch update of one BD's status: same labels (the generator derives the repo label from
	// index % 50), another of its states (index % 4), as a Fleet agent writes it. Offsets 50 and 100 keep the repo
	// label and alternate the state, so that every event of the second round changes its BD again.
	const eventsOf = (offset: number) => {
		const events: Record<string, unknown>[] = [];
		for (let event = 0; event < 5000; event++) {
			const index = ((event * 7919) % Math.floor(count / 6)) * 6;
			const { bundle, cluster } = bdPlace(index);
			events.push(bundleDeployment(index + offset, bundle, cluster));
		}
		return events;
	};
	const first = eventsOf(50);
	const warm = 500;
	for (let event = 0; event < warm; event++) graph.upsertObject('bench', 'source', first[event]);
	start = process.hrtime.bigint();
	let changedIds = 0;
	for (let event = warm; event < first.length; event++) {
		changedIds += graph.upsertObject('bench', 'source', first[event]).changed.length;
	}
	const perEvent = (milliseconds(start) * 1000) / (first.length - warm);
	// The status engine's share, side by side: computeStatus of the same BDs, outside the graph.
	start = process.hrtime.bigint();
	let words = 0;
	for (let event = warm; event < first.length; event++) {
		words += computeStatus(first[event]).state.length;
	}
	const engine = (milliseconds(start) * 1000) / (first.length - warm);
	log(
		`  one BD update event, amortized                ${perEvent.toFixed(1).padStart(9)} µs   (${(changedIds / (first.length - warm)).toFixed(1)} changed ids/event)`,
	);
	log(
		`    of which the status engine (computeStatus)  ${engine.toFixed(1).padStart(9)} µs${words < 0 ? '?' : ''}`,
	);

	// The same, plus rebuilding the changed tree items as a visible, fully expanded tree would: this recomputes the
	// Fleet roll-ups of the BD's Bundle, GitRepo, Cluster and ClusterGroup from all their BDs.
	const second = eventsOf(100);
	start = process.hrtime.bigint();
	for (const event of second.slice(0, 1000)) {
		for (const id of graph.upsertObject('bench', 'source', event).changed) graph.node(id);
	}
	const eager = milliseconds(start);
	log(`  same + rebuild of the changed items, per event ${eager.toFixed(1).padStart(9)} µs`);
	// Debounced as the adapter does it: 100 events, then one rebuild of the union of their changed items.
	const third = eventsOf(50);
	start = process.hrtime.bigint();
	for (let batch = 0; batch < third.length; batch += 100) {
		const changed = new Set<string>();
		for (const event of third.slice(batch, batch + 100)) {
			for (const id of graph.upsertObject('bench', 'source', event).changed) changed.add(id);
		}
		for (const id of changed) graph.node(id);
	}
	const debounced = (milliseconds(start) * 1000) / third.length;
	log(`  same, rebuilt once per 100 events (debounced)  ${debounced.toFixed(1).padStart(9)} µs`);
	return { eager, debounced };
}

/** The figures side by side: one BD event with the rebuild of its changed items, at both sizes. */
function compare(small: EventFigures, large: EventFigures): void {
	const row = (label: string, a: number, b: number) =>
		console.log(
			`  ${label.padEnd(44)} ${a.toFixed(1).padStart(9)} µs ${b.toFixed(1).padStart(9)} µs ${(b / a).toFixed(2).padStart(7)}x`,
		);
	console.log(
		'\nOne BD event + rebuild of the changed items (goal: debounced <= 100 µs at 100k, <= 1.5x)',
	);
	console.log(
		`  ${''.padEnd(44)} ${'10,000'.padStart(12)} ${'100,000'.padStart(12)} ${'ratio'.padStart(8)}`,
	);
	row('per event', small.eager, large.eager);
	row('debounced (rebuilt once per 100 events)', small.debounced, large.debounced);
}

/** Heap held by a graph of `count` objects beyond the objects themselves, before and after expanding every node. */
function memory(count: number): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) {
		console.log('\n(run with --expose-gc for memory figures)');
		return;
	}
	const objects = workload(count).map((object) => ({ object }));
	gc();
	const before = process.memoryUsage().heapUsed;
	const graph = new ResourceGraph();
	graph.addRoot('bench', 'Bench', 'live');
	graph.setSourceObjects('bench', 'source', objects);
	gc();
	const built = process.memoryUsage().heapUsed;
	const walk = (list: readonly TreeNode[]) => {
		for (const node of list) walk(graph.children(node.id));
	};
	walk(graph.roots());
	gc();
	const expanded = process.memoryUsage().heapUsed;
	const per10k = (bytes: number) => ((bytes / objects.length) * 10_000) / 1024 / 1024;
	console.log(
		`\nMemory per 10,000 objects (${count.toLocaleString('en-US')} in the graph, objects themselves excluded)`,
	);
	console.log(
		`  graph, results included                       ${per10k(built - before)
			.toFixed(1)
			.padStart(9)} MiB`,
	);
	console.log(
		`  + every tree node built and cached            ${per10k(expanded - before)
			.toFixed(1)
			.padStart(9)} MiB`,
	);
}

console.log('Resource graph (src/core/tree/model.ts): mixed objects from bench/generate.ts');
bench(2_000, false);
const small = bench(10_000);
const large = bench(100_000);
compare(small, large);
memory(100_000);
