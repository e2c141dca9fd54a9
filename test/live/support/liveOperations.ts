// The steps of the live differential test (test/live/liveDifferential.test.ts) as plain data: writes to the demo
// clusters' API servers (create, update, status patch, delete, label changes that move an object to another
// parent), faults (dropped watches, 410, 500s), and what a front end does to the feed (restart, other contexts,
// another BundleDeployment threshold, the pairs setting, expanding and collapsing roll-ups-only nodes, consumers
// going away and coming back). A step names objects by template and name variant, never by what the run created,
// so that any subsequence of a run's steps is a run too (which is what shrinking needs).
import { join } from 'node:path';
import { demoExamplesFolder } from '../../../src/apiserver/demo.ts';
import { demoClusters } from '../../../src/apiserver/demoScenario.ts';
import { readObjects } from '../../../src/apiserver/scenario.ts';
import type { KubeObject } from '../../../src/apiserver/store.ts';
import type { Rand } from '../../support/graphOperations.ts';

/** The demo clusters every run serves, one kube context each. */
export const clusterNames = [
	'fleet-mgmt',
	'kubestellar-wds',
	'kubestellar-its',
	'platform',
] as const;
export type ClusterName = (typeof clusterNames)[number];

/** Each cluster's objects as examples/cluster holds them: what writes start from. */
export type Templates = ReadonlyMap<ClusterName, readonly KubeObject[]>;

/** Reads examples/cluster, as the demo does. */
export async function readTemplates(): Promise<Templates> {
	const templates = new Map<ClusterName, KubeObject[]>();
	for (const name of clusterNames) {
		const cluster = demoClusters.find((each) => each.name === name);
		if (!cluster) throw new Error(`the demo has no cluster ${name}`);
		const read = await readObjects([join(demoExamplesFolder, cluster.folder)]);
		templates.set(name, read.objects);
	}
	return templates;
}

/** BundleDeployment thresholds to switch between: fleet-mgmt starts with 8 BundleDeployments (up to 24 later). */
export const thresholds = [3, 5, 7, 9, 20_000] as const;

/** What a write does to the object a step names. */
export type WriteAction =
	/** Creates or replaces it (labels and spec changed by `variant`). */
	| 'put'
	/** Patches its status (a condition, readiness, observedGeneration) through the status subresource. */
	| 'status'
	/** Deletes it (with finalizers it only gets a deletionTimestamp). */
	| 'delete'
	/** Removes its finalizers: a terminating object goes. */
	| 'finalize';

/** A server-side change: the object is template `template` of `cluster`, named with suffix `name` (0: as is). */
export interface Write {
	readonly op: 'write';
	readonly cluster: ClusterName;
	readonly template: number;
	readonly name: number;
	readonly action: WriteAction;
	readonly variant: number;
}

/** A label change that moves an object to another parent (a BD to another Bundle or Cluster, a WorkStatus...). */
export interface Relabel {
	readonly op: 'label';
	readonly cluster: ClusterName;
	readonly template: number;
	readonly name: number;
	readonly key: string;
	/** undefined removes the label. */
	readonly value: string | undefined;
}

export type FaultKind =
	/** Every open watch reset (a network failure). */
	| 'drop'
	/** Every open watch ended cleanly (the server's timeout). */
	| 'drop-end'
	/** The next watch answers 410 Gone as an ERROR event; every watch is dropped so one comes. */
	| 'gone-watch'
	/** The next list answers 410. */
	| 'gone-list'
	/** The watch history is forgotten and every watch dropped: a reconnect from an old revision gets 410. */
	| 'expire'
	/** The next `count` requests of any kind answer 500. */
	| 'error'
	/** The next `count` watches answer 500; every watch is dropped so they come. */
	| 'error-watch'
	/** The next `count` BundleDeployment lists (counts, on-demand lists) answer 500. */
	| 'error-bd-list';

export interface Fault {
	readonly op: 'fault';
	readonly cluster: ClusterName;
	readonly fault: FaultKind;
	readonly count: number;
}

/** A Bundle or Cluster of fleet-mgmt, by name, and which of its tree places. */
export interface NodeRef {
	readonly kind: 'Bundle' | 'Cluster';
	readonly name: string;
	readonly place: number;
}

/** What a front end does to the feed. */
export type FeedAction =
	| { readonly op: 'restart'; readonly wait: boolean }
	| { readonly op: 'contexts'; readonly contexts: readonly ClusterName[] }
	| { readonly op: 'threshold'; readonly value: number }
	| { readonly op: 'pairs'; readonly on: boolean }
	/** The tree provider lists a roll-ups-only node's BundleDeployments; `race` acts while the list runs. */
	| {
			readonly op: 'expand';
			readonly node: NodeRef;
			readonly race: 'none' | 'collapse' | 'restart' | 'write';
	  }
	/** The tree provider releases one of the nodes it listed (by index among them, modulo). */
	| { readonly op: 'collapse'; readonly index: number }
	/** Every consumer goes; these writes happen while paused; a consumer comes back. */
	| { readonly op: 'pause'; readonly writes: readonly (Write | Relabel)[] };

export type LiveOperation = Write | Relabel | Fault | FeedAction;

/**
 * One step: the operation, whether the tree is read after it (as a visible view does: lazy nodes get built), and
 * whether the test waits for everything to settle and checks it (the last step always does).
 */
export interface LiveStep {
	readonly operation: LiveOperation;
	readonly observe: boolean;
	readonly settle: boolean;
}

function pick<T>(rand: Rand, list: readonly T[]): T {
	if (list.length === 0) throw new Error('pick from an empty list');
	return list[Math.floor(rand() * list.length)] as T;
}

function chance(rand: Rand, probability: number): boolean {
	return rand() < probability;
}

function kindOf(object: KubeObject): string {
	return typeof object.kind === 'string' ? object.kind : '';
}

function indexesOf(
	templates: Templates,
	cluster: ClusterName,
	kinds?: readonly string[],
): number[] {
	const list = templates.get(cluster) ?? [];
	return list.flatMap((object, index) =>
		kinds === undefined || kinds.includes(kindOf(object)) ? [index] : [],
	);
}

/** The label changes that move objects between parents, per kind. */
const labelMoves: Readonly<
	Record<
		string,
		readonly { readonly key: string; readonly values: readonly (string | undefined)[] }[]
	>
> = {
	BundleDeployment: [
		{
			key: 'fleet.cattle.io/bundle-name',
			values: ['shop-frontend', 'shop-cache', 'ingress-nginx', 'shop-frontend-b', 'no-such-bundle'],
		},
		{
			key: 'fleet.cattle.io/cluster',
			values: ['prod-eu-1', 'prod-us-1', 'staging-1', 'prod-eu-1-b', 'no-such-cluster', undefined],
		},
		{ key: 'fleet.cattle.io/repo-name', values: ['shop', 'ingress-nginx', undefined] },
	],
	Bundle: [{ key: 'fleet.cattle.io/repo-name', values: ['shop', 'other-repo', undefined] }],
	Cluster: [{ key: 'env', values: ['prod', 'staging', undefined] }],
	WorkStatus: [
		{
			key: 'transport.kubestellar.io/originWdsName',
			values: ['wds1', 'kubestellar-wds', 'wds2', undefined],
		},
	],
	ManagedCluster: [{ key: 'location-group', values: ['edge', 'core', undefined] }],
	Deployment: [{ key: 'app.kubernetes.io/name', values: ['nginx', 'other', undefined] }],
};

function randomWrite(rand: Rand, templates: Templates, cluster: ClusterName): Write | Relabel {
	const all = indexesOf(templates, cluster);
	const template = pick(rand, all);
	const name = chance(rand, 0.6) ? 0 : pick(rand, [1, 2]);
	const object = templates.get(cluster)?.[template];
	const moves = object ? labelMoves[kindOf(object)] : undefined;
	if (moves && chance(rand, 0.3)) {
		const move = pick(rand, moves);
		return {
			op: 'label',
			cluster,
			template,
			name,
			key: move.key,
			value: pick(rand, move.values),
		};
	}
	const action = pick<WriteAction>(rand, [
		'put',
		'put',
		'put',
		'status',
		'status',
		'status',
		'delete',
		'finalize',
	]);
	return { op: 'write', cluster, template, name, action, variant: Math.floor(rand() * 1000) };
}

/** Clusters weighted towards fleet-mgmt, where the roll-ups-only mode and on-demand lists are. */
function randomCluster(rand: Rand): ClusterName {
	return chance(rand, 0.4) ? 'fleet-mgmt' : pick(rand, clusterNames);
}

/** A random operation, drawn from the seed alone (no state: steps stay valid in any subsequence). */
function randomOperation(rand: Rand, templates: Templates): LiveOperation {
	const roll = rand();
	if (roll < 0.5) return randomWrite(rand, templates, randomCluster(rand));
	if (roll < 0.64) {
		return {
			op: 'fault',
			cluster: randomCluster(rand),
			fault: pick<FaultKind>(rand, [
				'drop',
				'drop-end',
				'gone-watch',
				'gone-list',
				'expire',
				'error',
				'error-watch',
				'error-bd-list',
			]),
			count: 1 + Math.floor(rand() * 4),
		};
	}
	if (roll < 0.665) return { op: 'restart', wait: chance(rand, 0.5) };
	if (roll < 0.69) {
		const contexts = clusterNames.filter(() => chance(rand, 0.7));
		return { op: 'contexts', contexts: contexts.length > 0 ? contexts : ['fleet-mgmt'] };
	}
	if (roll < 0.75) return { op: 'threshold', value: pick(rand, thresholds) };
	if (roll < 0.77) return { op: 'pairs', on: chance(rand, 0.6) };
	if (roll < 0.9) {
		const kind = pick(rand, ['Bundle', 'Cluster'] as const);
		const names =
			kind === 'Bundle'
				? ['shop-frontend', 'shop-cache', 'ingress-nginx', 'shop-frontend-b']
				: ['prod-eu-1', 'prod-us-1', 'staging-1', 'prod-eu-1-b'];
		return {
			op: 'expand',
			node: { kind, name: pick(rand, names), place: Math.floor(rand() * 3) },
			race: pick(rand, ['none', 'none', 'none', 'collapse', 'restart', 'write'] as const),
		};
	}
	if (roll < 0.95) return { op: 'collapse', index: Math.floor(rand() * 8) };
	const writes = Array.from({ length: Math.floor(rand() * 3) }, () =>
		randomWrite(rand, templates, randomCluster(rand)),
	);
	return { op: 'pause', writes };
}

/** The steps of a seed; half the seeds start by lowering the threshold, so fleet-mgmt starts roll-ups-only. */
export function stepsOf(rand: Rand, templates: Templates, count: number): LiveStep[] {
	const lower = chance(rand, 0.6);
	return Array.from({ length: count }, (_, index) => ({
		operation:
			index === 0 && lower
				? { op: 'threshold', value: pick(rand, [3, 5, 7]) }
				: randomOperation(rand, templates),
		observe: chance(rand, 0.6),
		settle: chance(rand, 0.4),
	}));
}

/** The name a step gives its object: the template's, or it with a suffix. */
export function variantName(name: string, variant: number): string {
	return variant === 0 ? name : `${name}-${'abcdefgh'.charAt(variant)}`;
}

function templateName(templates: Templates, cluster: ClusterName, template: number): string {
	const object = templates.get(cluster)?.[template];
	const metadata = object?.metadata as { name?: unknown; namespace?: unknown } | undefined;
	const namespace = typeof metadata?.namespace === 'string' ? `${metadata.namespace}/` : '';
	return `${object ? kindOf(object) : '?'} ${namespace}${String(metadata?.name)}`;
}

/** An operation in one line. */
export function describeOperation(templates: Templates, operation: LiveOperation): string {
	switch (operation.op) {
		case 'write':
			return `${operation.action} ${operation.cluster}: ${templateName(templates, operation.cluster, operation.template)}${operation.name === 0 ? '' : ` (name -${'abcdefgh'.charAt(operation.name)})`} variant ${operation.variant}`;
		case 'label':
			return `label ${operation.cluster}: ${templateName(templates, operation.cluster, operation.template)}${operation.name === 0 ? '' : ` (name -${'abcdefgh'.charAt(operation.name)})`} ${operation.key}=${operation.value ?? '(removed)'}`;
		case 'fault':
			return `fault ${operation.cluster}: ${operation.fault}${operation.fault.startsWith('error') ? ` x${operation.count}` : ''}`;
		case 'restart':
			return `feed.restart()${operation.wait ? '' : ' (not awaited)'}`;
		case 'contexts':
			return `contexts = [${operation.contexts.join(', ')}], restart`;
		case 'threshold':
			return `bundleDeploymentThreshold = ${operation.value}, restart`;
		case 'pairs':
			return `kubestellarPairs ${operation.on ? 'on' : 'off'}, restart`;
		case 'expand':
			return `expand ${operation.node.kind} fleet-default/${operation.node.name} (place ${operation.node.place})${operation.race === 'none' ? '' : `, ${operation.race} while it lists`}`;
		case 'collapse':
			return `collapse listed node #${operation.index}`;
		case 'pause':
			return `setConsumers([]); ${operation.writes.map((write) => describeOperation(templates, write)).join('; ')}${operation.writes.length > 0 ? '; ' : ''}setConsumers(['tree'])`;
	}
}
