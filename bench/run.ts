// `npm run bench`: figures printed as ratios measured side by side in one run. Never a timed assertion.
import { mergeWecStatuses } from '../src/core/merge/wecMerge.ts';
import { computeFleetRollups } from '../src/core/status/fleet.ts';
import { computeStatus } from '../src/core/status/registry.ts';
import { benchmarkCliOnDump } from './cli.ts';
import { bundleDeployment, mixedObjects } from './generate.ts';

function timeIt(run: () => void, repeats = 3): number {
	let best = Number.POSITIVE_INFINITY;
	for (let index = 0; index < repeats; index++) {
		const start = process.hrtime.bigint();
		run();
		best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
	}
	return best;
}

function report(label: string, ms: number, count: number, baselineMs?: number): void {
	const rate = Math.round((count / ms) * 1000).toLocaleString('en-US');
	const ratio = baselineMs === undefined ? '' : `  (${(ms / baselineMs).toFixed(2)}x JSON.parse)`;
	console.log(
		`${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms  ${rate.padStart(12)} objects/s${ratio}`,
	);
}

const count = 100_000;
const objects = mixedObjects(count);
const json = objects.map((object) => JSON.stringify(object));
console.log(
	`Status engine, ${count.toLocaleString('en-US')} mixed objects (Fleet BD, Deployment, Flux, ASO, Harbor, WorkStatus)`,
);
let sink = 0;
const parseMs = timeIt(() => {
	for (const text of json) sink += (JSON.parse(text) as object) ? 1 : 0;
});
report('JSON.parse of the same objects', parseMs, count);
const statusMs = timeIt(() => {
	for (const object of objects) sink += computeStatus(object).state.length;
});
report('computeStatus (system, kstatus, Argo CD health)', statusMs, count, parseMs);
console.log('  goal: computeStatus <= 1.0x JSON.parse');

const bds: Record<string, unknown>[] = [];
for (let index = 0; index < count; index++) {
	bds.push(bundleDeployment(index, `bundle-${index % 1000}`, `c${Math.floor(index / 1000)}`));
}
const parents: Record<string, unknown>[] = [];
for (let index = 0; index < 50; index++) {
	parents.push({
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'GitRepo',
		metadata: { name: `repo-${index}`, namespace: 'fleet-default' },
		spec: {},
		status: {},
	});
}
for (let index = 0; index < 100; index++) {
	parents.push({
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'Cluster',
		metadata: { name: `c${index}`, namespace: 'fleet-default' },
		spec: {},
		status: {
			namespace: `cluster-fleet-default-c${index}-0123456789ab`,
			agent: { lastSeen: '2026-11-22T08:00:00Z' },
		},
	});
}
for (let index = 0; index < 1000; index++) {
	parents.push({
		apiVersion: 'fleet.cattle.io/v1alpha1',
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
const bdJson = JSON.stringify(bds);
const bdParseMs = timeIt(() => {
	sink += (JSON.parse(bdJson) as unknown[]).length;
});
console.log(
	`\nFleet roll-up of ${count.toLocaleString('en-US')} BundleDeployments into 1,000 Bundles, 50 GitRepos, 100 Clusters`,
);
report('JSON.parse of the BundleDeployments', bdParseMs, count);
const rollupMs = timeIt(() => {
	sink += computeFleetRollups([...parents, ...bds]).size;
});
report('computeFleetRollups', rollupMs, count, bdParseMs);
if (sink < 0) console.log(sink);

console.log('\nMulti-WEC merge of one Deployment (proposal rules; kubestellar rules beside)');
for (const wecs of [1_000, 10_000]) {
	const workload = {
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: { name: 'nginx', namespace: 'default', generation: 1 },
		spec: { replicas: 2 },
		status: {},
	};
	const perWec = Array.from({ length: wecs }, (_, index) => ({
		wec: `wec${index}`,
		object: {
			...workload,
			status: {
				observedGeneration: 1,
				replicas: 2,
				updatedReplicas: 2,
				readyReplicas: index % 7 ? 2 : 1,
				availableReplicas: index % 7 ? 2 : 1,
				conditions: [
					{
						type: 'Available',
						status: index % 7 ? 'True' : 'False',
						reason: 'MinimumReplicasAvailable',
						lastTransitionTime: `2026-11-22T08:${String(index % 60).padStart(2, '0')}:00Z`,
					},
					{
						type: 'Progressing',
						status: 'True',
						reason: 'NewReplicaSetAvailable',
						lastTransitionTime: '2026-11-22T08:00:00Z',
					},
				],
			},
		},
	}));
	const proposalMs = timeIt(() => void mergeWecStatuses(workload, perWec, null, 'proposal'), 10);
	const releasedMs = timeIt(() => void mergeWecStatuses(workload, perWec, null, 'kubestellar'), 10);
	console.log(
		`${`${wecs.toLocaleString('en-US')} WECs`.padEnd(44)} ${proposalMs.toFixed(2).padStart(8)} ms proposal, ${releasedMs.toFixed(2)} ms kubestellar (goal at 1,000: <= 10 ms)`,
	);
}

benchmarkCliOnDump();
