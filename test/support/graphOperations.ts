// Random operations on the resource graph as plain data, a model of what the graph should hold after them (the truth),
// a graph rebuilt from scratch from that truth, and what a user sees of a graph as comparable facts. Used by the
// differential test test/unit/core/tree/graphDifferential.test.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseManifests } from '../../src/core/manifest/parse.ts';
import type { TreeFilter } from '../../src/core/tree/filter.ts';
import { objectKeyOf } from '../../src/core/tree/linking.ts';
import { ResourceGraph, type ChangedNodes, type SourceObject } from '../../src/core/tree/model.ts';
import type { RootOrigin, RootState, TreeNode } from '../../src/core/tree/treeNode.ts';

/** A JSON object. */
export type Obj = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------------------------
// Randomness

/** A seeded source of numbers in [0, 1). */
export type Rand = () => number;

/** mulberry32: small, fast and good enough to pick operations. */
export function mulberry32(seed: number): Rand {
	let state = seed | 0;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function pick<T>(rand: Rand, list: readonly T[]): T {
	if (list.length === 0) throw new Error('pick from an empty list');
	return list[Math.floor(rand() * list.length)] as T;
}

function chance(rand: Rand, probability: number): boolean {
	return rand() < probability;
}

function isObj(value: unknown): value is Obj {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The record under a key, created when missing. */
function recordAt(parent: Obj, key: string): Obj {
	const value = parent[key];
	if (isObj(value)) return value;
	const fresh: Obj = {};
	parent[key] = fresh;
	return fresh;
}

function text(value: unknown): string {
	return typeof value === 'string' ? value : '';
}

// ---------------------------------------------------------------------------------------------------------------
// The objects: examples/workspace read with the project's own parser, and a few the examples lack

const workspaceDir = fileURLToPath(new URL('../../examples/workspace/', import.meta.url));

function yamlFiles(dir: string): string[] {
	return readdirSync(dir)
		.sort()
		.flatMap((name) => {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) return yamlFiles(path);
			return /\.ya?ml$/.test(name) ? [path] : [];
		});
}

const fleetApi = 'fleet.cattle.io/v1alpha1';
const kubestellarApi = 'control.kubestellar.io/v1alpha1';

// A Binding, Namespaces (for namespace selectors), a second and third BindingPolicy, a Deployment owned by a
// HarborCluster and a second ClusterGroup: links the examples do not exercise.
const extraObjects: readonly Obj[] = [
	{
		apiVersion: kubestellarApi,
		kind: 'Binding',
		metadata: { name: 'nginx-multiwec' },
		spec: {
			workload: {
				namespaceScope: [
					{ group: 'apps', resource: 'deployments', namespace: 'nginx', name: 'nginx' },
					{ group: 'apps', resource: 'deployments', namespace: 'nginx', name: 'nginx-canary' },
				],
				clusterScope: [{ group: '', resource: 'namespaces', name: 'nginx' }],
			},
			destinations: [{ clusterId: 'cluster1' }, { clusterId: 'cluster2' }],
		},
	},
	{
		apiVersion: kubestellarApi,
		kind: 'BindingPolicy',
		metadata: { name: 'team-a' },
		spec: {
			clusterSelectors: [{ matchLabels: { 'location-group': 'edge' } }],
			downsync: [{ namespaceSelectors: [{ matchLabels: { team: 'a' } }] }],
		},
	},
	{
		apiVersion: kubestellarApi,
		kind: 'BindingPolicy',
		metadata: { name: 'flux-sources' },
		spec: { downsync: [{ apiGroup: 'source.toolkit.fluxcd.io', namespaces: ['flux-system'] }] },
	},
	{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'nginx', labels: { team: 'a' } } },
	{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { team: 'b' } } },
	{
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: {
			name: 'harbor-core',
			namespace: 'harbor-system',
			generation: 2,
			ownerReferences: [
				{ apiVersion: 'goharbor.io/v1beta1', kind: 'HarborCluster', name: 'harbor' },
			],
		},
		status: {
			observedGeneration: 2,
			replicas: 1,
			readyReplicas: 0,
			conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' }],
		},
	},
	{
		apiVersion: fleetApi,
		kind: 'ClusterGroup',
		metadata: { name: 'europe', namespace: 'fleet-default' },
		spec: { selector: { matchExpressions: [{ key: 'region', operator: 'In', values: ['eu'] }] } },
		status: { display: { readyClusters: '1/2' } },
	},
];

function loadPool(): Obj[] {
	const objects: Obj[] = [];
	for (const file of yamlFiles(workspaceDir)) {
		for (const parsed of parseManifests(readFileSync(file, 'utf8')).objects) {
			objects.push(parsed.object);
		}
	}
	return [...objects, ...extraObjects.map((object) => structuredClone(object))];
}

/** Every object the operations start from. */
const pool: readonly Obj[] = loadPool();

function metadataOf(object: Obj): Obj {
	return recordAt(object, 'metadata');
}

function labelsOfObj(object: Obj): Obj {
	return recordAt(metadataOf(object), 'labels');
}

function unique(values: Iterable<string>): string[] {
	return [...new Set(values)].sort();
}

const poolNames = unique(pool.map((object) => text((object.metadata as Obj | undefined)?.name)));
const names = unique([...poolNames.filter((name) => name !== ''), 'web', 'nginx-canary']);
const namespaces = unique([
	...pool.map((object) => text((object.metadata as Obj | undefined)?.namespace)),
	'team-a',
	'cluster9',
]);
const labelKeys = unique([
	...pool.flatMap((object) =>
		Object.keys(((object.metadata as Obj | undefined)?.labels ?? {}) as Obj),
	),
	'env',
	'team',
	'app.kubernetes.io/name',
]);
const labelValues = unique([
	...pool.flatMap((object) =>
		Object.values(((object.metadata as Obj | undefined)?.labels ?? {}) as Obj).map(text),
	),
	'prod',
	'staging',
	'a',
	'b',
]);
const reasons = unique([
	...pool.flatMap((object) => {
		const conditions = (object.status as Obj | undefined)?.conditions;
		return Array.isArray(conditions)
			? conditions.map((condition) => text((condition as Obj).reason))
			: [];
	}),
	'Failed',
	'Stalled',
	'ReconciliationFailed',
]);
const bundleNames = ['shop-frontend', 'shop-cache', 'ingress-nginx', 'ghost-bundle'];
const clusterNames = ['prod-eu-1', 'prod-us-1', 'staging-1', 'edge-1', 'ghost-cluster'];
const clusterStatusNamespaces = unique(
	pool
		.filter((object) => object.kind === 'Cluster')
		.map((object) => text((object.status as Obj | undefined)?.namespace))
		.filter((namespace) => namespace !== ''),
);

// ---------------------------------------------------------------------------------------------------------------
// Mutations of one object

interface Mutation {
	readonly weight: number;
	readonly applies: (object: Obj) => boolean;
	readonly apply: (rand: Rand, object: Obj) => void;
}

const always = () => true;
const kindIs =
	(...kinds: string[]) =>
	(object: Obj) =>
		kinds.includes(text(object.kind));

function refTo(target: Obj): Obj {
	return {
		apiVersion: text(target.apiVersion),
		kind: text(target.kind),
		name: text((target.metadata as Obj | undefined)?.name),
	};
}

function resourceOf(kind: string): string {
	const lower = kind.toLowerCase();
	if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
	if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
	return `${lower}s`;
}

function groupOfApiVersion(apiVersion: string): string {
	const slash = apiVersion.indexOf('/');
	return slash < 0 ? '' : apiVersion.slice(0, slash);
}

const selectors: readonly (Obj | undefined)[] = [
	{ matchLabels: { env: 'prod' } },
	{ matchLabels: { env: 'staging' } },
	{},
	undefined,
	{ matchExpressions: [{ key: 'region', operator: 'In', values: ['eu'] }] },
	{ matchExpressions: [{ key: 'region', operator: 'Bogus' }] },
];

const downsyncs: readonly unknown[] = [
	[{ objectSelectors: [{ matchLabels: { 'app.kubernetes.io/name': 'nginx' } }] }],
	[{ namespaces: ['nginx'] }],
	[{ namespaces: ['*'], resources: ['deployments', 'namespaces'] }],
	[{ namespaceSelectors: [{ matchLabels: { team: 'a' } }] }],
	[{ apiGroup: 'source.toolkit.fluxcd.io' }],
	[{ objectNames: ['nginx', 'podinfo', 'harbor'] }],
	[],
	[{}],
];

const mutations: readonly Mutation[] = [
	{
		// A manifest without a status, or a status emptied.
		weight: 2,
		applies: (object) => object.status !== undefined,
		apply: (rand, object) => {
			if (chance(rand, 0.8)) delete object.status;
			else object.status = {};
		},
	},
	{
		weight: 5,
		applies: (object) => Array.isArray((object.status as Obj | undefined)?.conditions),
		apply: (rand, object) => {
			const conditions = (object.status as Obj).conditions as unknown[];
			if (conditions.length > 0 && chance(rand, 0.2)) {
				conditions.splice(Math.floor(rand() * conditions.length), 1);
				return;
			}
			if (conditions.length === 0 || chance(rand, 0.15)) {
				conditions.push({ type: pick(rand, ['Ready', 'Stalled', 'Reconciling']), status: 'True' });
			}
			const condition = pick(rand, conditions);
			if (!isObj(condition)) return;
			condition.status = pick(rand, ['True', 'False', 'Unknown']);
			if (chance(rand, 0.6)) condition.reason = pick(rand, reasons);
			if (chance(rand, 0.3)) condition.message = pick(rand, ['boom', 'waiting for it', '']);
		},
	},
	{
		weight: 3,
		applies: always,
		apply: (rand, object) => {
			const labels = labelsOfObj(object);
			const keys = Object.keys(labels);
			if (keys.length > 0 && chance(rand, 0.3)) delete labels[pick(rand, keys)];
			else labels[pick(rand, labelKeys)] = pick(rand, labelValues);
		},
	},
	{
		weight: 2,
		applies: always,
		apply: (rand, object) => {
			metadataOf(object).name = pick(rand, names);
		},
	},
	{
		weight: 2,
		applies: always,
		apply: (rand, object) => {
			const namespace = pick(rand, namespaces);
			if (namespace === '') delete metadataOf(object).namespace;
			else metadataOf(object).namespace = namespace;
		},
	},
	{
		// Owner references: to a HarborCluster or any object of the pool, often in the owner's namespace so the
		// link resolves.
		weight: 3,
		applies: always,
		apply: (rand, object) => {
			const metadata = metadataOf(object);
			if (chance(rand, 0.2)) {
				delete metadata.ownerReferences;
				return;
			}
			const harborClusters = pool.filter((candidate) => candidate.kind === 'HarborCluster');
			const owner = pick(rand, chance(rand, 0.5) ? harborClusters : pool);
			metadata.ownerReferences = [refTo(owner)];
			if (chance(rand, 0.6)) {
				const namespace = text((owner.metadata as Obj | undefined)?.namespace);
				if (namespace) metadata.namespace = namespace;
				else delete metadata.namespace;
			}
		},
	},
	{
		// The Fleet labels that link a BundleDeployment to its Bundle, Cluster, GitRepo or HelmOp.
		weight: 6,
		applies: kindIs('BundleDeployment', 'Bundle'),
		apply: (rand, object) => {
			const labels = labelsOfObj(object);
			const which = pick(rand, [
				'fleet.cattle.io/bundle-name',
				'fleet.cattle.io/bundle-namespace',
				'fleet.cattle.io/cluster',
				'fleet.cattle.io/cluster-namespace',
				'fleet.cattle.io/repo-name',
				'fleet.cattle.io/fleet-helm-name',
			]);
			if (chance(rand, 0.25)) {
				delete labels[which];
				return;
			}
			const values: Record<string, readonly string[]> = {
				'fleet.cattle.io/bundle-name': bundleNames,
				'fleet.cattle.io/bundle-namespace': ['fleet-default', 'fleet-local'],
				'fleet.cattle.io/cluster': clusterNames,
				'fleet.cattle.io/cluster-namespace': ['fleet-default', 'fleet-local'],
				'fleet.cattle.io/repo-name': ['shop', 'ghost-repo'],
				'fleet.cattle.io/fleet-helm-name': ['ingress-nginx', 'ghost-helm'],
			};
			labels[which] = pick(rand, values[which] ?? ['x']);
			if (object.kind === 'BundleDeployment' && chance(rand, 0.3)) {
				metadataOf(object).namespace = pick(rand, [...clusterStatusNamespaces, 'cluster-unknown']);
			}
		},
	},
	{
		weight: 3,
		applies: kindIs('Cluster'),
		apply: (rand, object) => {
			if (chance(rand, 0.5)) {
				const status = recordAt(object, 'status');
				if (chance(rand, 0.2)) delete status.namespace;
				else status.namespace = pick(rand, [...clusterStatusNamespaces, 'cluster-unknown']);
			} else {
				labelsOfObj(object).env = pick(rand, ['prod', 'staging', 'edge']);
			}
		},
	},
	{
		weight: 3,
		applies: kindIs('ClusterGroup'),
		apply: (rand, object) => {
			const spec = recordAt(object, 'spec');
			const selector = pick(rand, selectors);
			if (selector === undefined) delete spec.selector;
			else spec.selector = structuredClone(selector);
		},
	},
	{
		weight: 4,
		applies: kindIs('BindingPolicy'),
		apply: (rand, object) => {
			recordAt(object, 'spec').downsync = structuredClone(pick(rand, downsyncs));
		},
	},
	{
		// The workloads a Binding lists: objects of the pool (present or not in the graph) and ones nowhere.
		weight: 4,
		applies: kindIs('Binding'),
		apply: (rand, object) => {
			if (chance(rand, 0.3)) {
				metadataOf(object).name = pick(rand, ['nginx-multiwec', 'team-a', 'flux-sources', 'ghost']);
				return;
			}
			const refs: Obj[] = [];
			const count = Math.floor(rand() * 3);
			for (let index = 0; index < count; index++) {
				const target = pick(rand, pool);
				const metadata = (target.metadata ?? {}) as Obj;
				refs.push({
					group: groupOfApiVersion(text(target.apiVersion)),
					resource: chance(rand, 0.8) ? resourceOf(text(target.kind)) : text(target.kind),
					namespace: chance(rand, 0.15) ? 'nowhere' : text(metadata.namespace),
					name: text(metadata.name),
				});
			}
			const workload = recordAt(recordAt(object, 'spec'), 'workload');
			workload.namespaceScope = refs;
			if (chance(rand, 0.3)) delete workload.clusterScope;
		},
	},
	{
		// The workload a WorkStatus reports, and the WEC (its namespace).
		weight: 4,
		applies: kindIs('WorkStatus'),
		apply: (rand, object) => {
			if (chance(rand, 0.3)) {
				metadataOf(object).namespace = pick(rand, ['cluster1', 'cluster2', 'cluster3', 'cluster9']);
				return;
			}
			const spec = recordAt(object, 'spec');
			if (chance(rand, 0.15)) {
				delete spec.sourceRef;
				return;
			}
			const target = pick(rand, pool);
			const metadata = (target.metadata ?? {}) as Obj;
			spec.sourceRef = {
				group: groupOfApiVersion(text(target.apiVersion)),
				version: 'v1',
				resource: resourceOf(text(target.kind)),
				kind: text(target.kind),
				name: chance(rand, 0.15) ? 'nginx-canary' : text(metadata.name),
				namespace: text(metadata.namespace),
			};
		},
	},
	{
		weight: 2,
		applies: always,
		apply: (rand, object) => {
			const metadata = metadataOf(object);
			if (metadata.deletionTimestamp !== undefined && chance(rand, 0.5)) {
				delete metadata.deletionTimestamp;
			} else metadata.deletionTimestamp = '2025-11-01T12:00:00Z';
		},
	},
	{
		weight: 2,
		applies: (object) => isObj(object.spec),
		apply: (rand, object) => {
			const spec = recordAt(object, 'spec');
			spec[chance(rand, 0.5) ? 'suspend' : 'paused'] = chance(rand, 0.6);
		},
	},
	{
		weight: 1,
		applies: always,
		apply: (rand, object) => {
			const metadata = metadataOf(object);
			metadata.generation = (typeof metadata.generation === 'number' ? metadata.generation : 1) + 1;
			if (chance(rand, 0.5) && isObj(object.status)) {
				object.status.observedGeneration = metadata.generation;
			}
		},
	},
];

// Kinds Kubernetes serves cluster-scoped: they never get a namespace (two Bindings of one name, in two namespaces,
// would make "the Binding of a policy" ambiguous, which no cluster can hold).
const clusterScoped = new Set(['Binding', 'BindingPolicy', 'Namespace', 'ManagedCluster']);

/**
 * What every object of a cluster has: no namespace for cluster-scoped kinds, and a uid of its own (Fleet orders
 * BundleDeployments and Bundles by uid, so a renamed copy keeping its original's uid would tie with it).
 */
function normalize(base: Obj, object: Obj): void {
	const metadata = metadataOf(object);
	if (clusterScoped.has(text(object.kind))) delete metadata.namespace;
	const key = objectKeyOf(object);
	if (typeof metadata.uid === 'string' && key !== objectKeyOf(base)) metadata.uid = `uid:${key}`;
}

/** A copy of an object with zero to three random mutations. */
function mutate(rand: Rand, base: Obj): Obj {
	const object = structuredClone(base);
	const count = pick(rand, [0, 1, 1, 1, 2, 3]);
	for (let index = 0; index < count; index++) {
		const applicable = mutations.filter((mutation) => mutation.applies(object));
		const total = applicable.reduce((sum, mutation) => sum + mutation.weight, 0);
		let roll = rand() * total;
		for (const mutation of applicable) {
			roll -= mutation.weight;
			if (roll < 0) {
				mutation.apply(rand, object);
				break;
			}
		}
	}
	normalize(base, object);
	return object;
}

// ---------------------------------------------------------------------------------------------------------------
// Operations

/** One call on the graph, as data. */
export type Operation =
	| {
			readonly op: 'upsertObject';
			readonly root: string;
			readonly source: string;
			readonly object: Obj;
			readonly line: number | undefined;
	  }
	| {
			readonly op: 'setSourceObjects';
			readonly root: string;
			readonly source: string;
			readonly items: readonly SourceObject[];
	  }
	| {
			readonly op: 'removeObject';
			readonly root: string;
			readonly source: string;
			readonly key: string;
	  }
	| { readonly op: 'removeSource'; readonly root: string; readonly source: string }
	| {
			readonly op: 'addRoot';
			readonly root: string;
			readonly label: string;
			readonly origin: RootOrigin;
	  }
	| { readonly op: 'removeRoot'; readonly root: string }
	| { readonly op: 'setRootState'; readonly root: string; readonly state: RootState | undefined }
	| {
			readonly op: 'setRollupsFromController';
			readonly root: string;
			readonly fromController: boolean;
	  };

/**
 * One step of a run: the operation, whether the test reads the whole tree before and after it (to check the
 * ChangedNodes it returns), and whether it compares the graph with one rebuilt from scratch after it. Steps that read
 * nothing leave the lazy parts (built nodes, Fleet roll-ups) unread across operations, as a hidden view does.
 */
export interface Step {
	readonly operation: Operation;
	readonly observe: boolean;
	readonly compare: boolean;
}

/** Root ids: the workspace, a live context, and one whose id needs escaping in tree ids. */
const rootIds = ['workspace', 'wds1', 'kind/prod%1'] as const;
/** Source ids: files (replaced whole), watches (one event at a time), copies from another context, on-demand lists. */
const sourceIds = [
	'file:///ws/fleet.yaml',
	'file:///ws/all.yaml',
	'watch:fleet.cattle.io/bundledeployments',
	'watch:misc',
	'copy:paired:its1',
	'on-demand:wds1/Bundle',
] as const;
const fileSources = sourceIds.filter((source) => source.startsWith('file:'));

function listOf(rand: Rand, count: number, base: () => Obj): Obj {
	return {
		apiVersion: 'v1',
		kind: pick(rand, ['List', 'BundleDeploymentList']),
		metadata: { resourceVersion: '1' },
		items: Array.from({ length: count }, base),
	};
}

/** Objects a root holds now, to change or remove them. */
function heldObjects(truth: Truth, root: string): { source: string; key: string; object: Obj }[] {
	const held: { source: string; key: string; object: Obj }[] = [];
	for (const [source, keys] of truth.roots.get(root)?.sources ?? []) {
		for (const [key, copies] of keys) {
			for (const copy of copies) held.push({ source, key, object: copy.object });
		}
	}
	return held;
}

/** A random operation; reads the truth to change or remove what is there. */
export function randomOperation(rand: Rand, truth: Truth): Operation {
	const root = chance(rand, 0.45) ? 'workspace' : pick(rand, rootIds);
	const held = heldObjects(truth, root);
	const base = (): Obj =>
		held.length > 0 && chance(rand, 0.45) ? pick(rand, held).object : pick(rand, pool);
	const anySource = () => pick(rand, sourceIds);
	const roll = rand();
	if (roll < 0.36) {
		const line = chance(rand, 0.6) ? Math.floor(rand() * 60) : undefined;
		if (held.length > 0 && chance(rand, 0.3)) {
			// A watch event: the same source sends a new version of what it sent.
			const target = pick(rand, held);
			return {
				op: 'upsertObject',
				root,
				source: target.source,
				object: mutate(rand, target.object),
				line,
			};
		}
		return { op: 'upsertObject', root, source: anySource(), object: mutate(rand, base()), line };
	}
	if (roll < 0.41) {
		const count = 1 + Math.floor(rand() * 3);
		return {
			op: 'upsertObject',
			root,
			source: anySource(),
			object: listOf(rand, count, () => mutate(rand, base())),
			line: undefined,
		};
	}
	if (roll < 0.52) {
		const source = chance(rand, 0.8) ? pick(rand, fileSources) : anySource();
		const items: SourceObject[] = [];
		const count = Math.floor(rand() * 7);
		let line = 0;
		for (let index = 0; index < count; index++) {
			line += 1 + Math.floor(rand() * 12);
			const object = chance(rand, 0.15)
				? listOf(rand, 2, () => mutate(rand, base()))
				: mutate(rand, base());
			const label = chance(rand, 0.7) ? source.replace('file:///', '') : undefined;
			const item: { -readonly [K in keyof SourceObject]: SourceObject[K] } = { object };
			if (chance(rand, 0.85)) item.line = line;
			if (label !== undefined) item.label = label;
			items.push(item);
		}
		return { op: 'setSourceObjects', root, source, items };
	}
	if (roll < 0.67) {
		if (held.length > 0 && chance(rand, 0.85)) {
			const target = pick(rand, held);
			return { op: 'removeObject', root, source: target.source, key: target.key };
		}
		return {
			op: 'removeObject',
			root,
			source: anySource(),
			key: objectKeyOf(mutate(rand, base())),
		};
	}
	if (roll < 0.71) {
		const sources = [...(truth.roots.get(root)?.sources.keys() ?? [])];
		return {
			op: 'removeSource',
			root,
			source: sources.length > 0 && chance(rand, 0.8) ? pick(rand, sources) : anySource(),
		};
	}
	if (roll < 0.77) {
		return {
			op: 'addRoot',
			root,
			label: pick(rand, ['Workspace', 'kind-prod', root]),
			origin: pick(rand, ['file', 'live']),
		};
	}
	if (roll < 0.79) return { op: 'removeRoot', root };
	if (roll < 0.88) {
		let state: RootState | undefined;
		if (chance(rand, 0.65)) {
			const message = pick(rand, ['cannot reach', 'login required', 'paused']);
			state = chance(rand, 0.5)
				? { tone: pick(rand, ['error', 'warning', 'progressing', 'ok', 'unknown']), message }
				: { tone: pick(rand, ['error', 'suspended']), message, detail: `${message}: details` };
		}
		return { op: 'setRootState', root, state };
	}
	return { op: 'setRollupsFromController', root, fromController: chance(rand, 0.6) };
}

/** Applies an operation to a graph; objects are cloned so that no two graphs share one. */
export function applyOperation(graph: ResourceGraph, operation: Operation): ChangedNodes {
	switch (operation.op) {
		case 'upsertObject':
			return graph.upsertObject(
				operation.root,
				operation.source,
				structuredClone(operation.object),
				operation.line,
			);
		case 'setSourceObjects':
			return graph.setSourceObjects(
				operation.root,
				operation.source,
				structuredClone(operation.items),
			);
		case 'removeObject':
			return graph.removeObject(operation.root, operation.source, operation.key);
		case 'removeSource':
			return graph.removeSource(operation.root, operation.source);
		case 'addRoot':
			return graph.addRoot(operation.root, operation.label, operation.origin);
		case 'removeRoot':
			return graph.removeRoot(operation.root);
		case 'setRootState':
			return graph.setRootState(operation.root, operation.state);
		case 'setRollupsFromController':
			return graph.setRollupsFromController(operation.root, operation.fromController);
	}
}

function describeValue(value: unknown): string {
	if (isObj(value) && Array.isArray(value.items) && text(value.kind).endsWith('List')) {
		return `${text(value.kind)}[${value.items.map((item) => objectKeyOf(item)).join(', ')}]`;
	}
	return objectKeyOf(value);
}

/** An operation in one line, as a call. */
export function describeOperation(operation: Operation): string {
	const root = JSON.stringify(operation.root);
	switch (operation.op) {
		case 'upsertObject':
			return `upsertObject(${root}, ${JSON.stringify(operation.source)}, ${describeValue(operation.object)}, line ${String(operation.line)})`;
		case 'setSourceObjects':
			return `setSourceObjects(${root}, ${JSON.stringify(operation.source)}, [${operation.items
				.map((item) => `${describeValue(item.object)}@${String(item.line)}`)
				.join(', ')}])`;
		case 'removeObject':
			return `removeObject(${root}, ${JSON.stringify(operation.source)}, ${operation.key})`;
		case 'removeSource':
			return `removeSource(${root}, ${JSON.stringify(operation.source)})`;
		case 'addRoot':
			return `addRoot(${root}, ${JSON.stringify(operation.label)}, ${operation.origin})`;
		case 'removeRoot':
			return `removeRoot(${root})`;
		case 'setRootState':
			return `setRootState(${root}, ${JSON.stringify(operation.state)})`;
		case 'setRollupsFromController':
			return `setRollupsFromController(${root}, ${String(operation.fromController)})`;
	}
}

// ---------------------------------------------------------------------------------------------------------------
// The truth: what each source of each root holds now, and the roots' own settings

/** One object as one source holds it; `batch` is the call that sent it, `seq` orders every copy ever sent. */
interface TruthCopy {
	readonly object: Obj;
	readonly line: number | undefined;
	readonly label: string | undefined;
	readonly seq: number;
	readonly batch: number;
	readonly viaSet: boolean;
}

interface TruthRoot {
	readonly id: string;
	label: string;
	readonly origin: RootOrigin;
	state: RootState | undefined;
	fromController: boolean;
	/** source -> object key -> copies (several only when a file holds one object twice). */
	readonly sources: Map<string, Map<string, TruthCopy[]>>;
}

/** What the graph should hold: roots in the order the graph lists them. */
export interface Truth {
	readonly roots: Map<string, TruthRoot>;
	seq: number;
	batch: number;
	/**
	 * "root\u0000key" of objects that some `copy:` source and some other source have held together since the object
	 * last appeared: whether such an object counts as a problem is what the known problemCount bug gets wrong.
	 */
	readonly mixedCopies: Set<string>;
}

/** An empty truth. */
export function newTruth(): Truth {
	return { roots: new Map(), seq: 0, batch: 0, mixedCopies: new Set() };
}

function updateMixedCopies(truth: Truth): void {
	const present = new Set<string>();
	for (const root of truth.roots.values()) {
		const kinds = new Map<string, number>();
		for (const [source, keys] of root.sources) {
			const bit = source.startsWith('copy:') ? 1 : 2;
			for (const key of keys.keys()) kinds.set(key, (kinds.get(key) ?? 0) | bit);
		}
		for (const [key, bits] of kinds) {
			const id = `${root.id}\u0000${key}`;
			present.add(id);
			if (bits === 3) truth.mixedCopies.add(id);
		}
	}
	for (const id of truth.mixedCopies) if (!present.has(id)) truth.mixedCopies.delete(id);
}

/** The objects a value holds: itself, or the items of a `kind: *List` (what the graph documents). */
function objectsOf(value: unknown): Obj[] {
	if (!isObj(value)) return [];
	if (text(value.kind).endsWith('List') && Array.isArray(value.items)) {
		return value.items.flatMap(objectsOf);
	}
	return [value];
}

function ensureTruthRoot(truth: Truth, id: string): TruthRoot {
	let root = truth.roots.get(id);
	if (!root) {
		root = {
			id,
			label: id,
			origin: 'file',
			state: undefined,
			fromController: false,
			sources: new Map(),
		};
		truth.roots.set(id, root);
	}
	return root;
}

/** Applies an operation to the truth, by what model.ts documents for each call. */
export function applyToTruth(truth: Truth, operation: Operation): void {
	applyCall(truth, operation);
	updateMixedCopies(truth);
}

function applyCall(truth: Truth, operation: Operation): void {
	const existing = truth.roots.get(operation.root);
	switch (operation.op) {
		case 'upsertObject': {
			const root = ensureTruthRoot(truth, operation.root);
			const batch = ++truth.batch;
			for (const object of objectsOf(operation.object)) {
				const keys = root.sources.get(operation.source) ?? new Map<string, TruthCopy[]>();
				keys.set(objectKeyOf(object), [
					{
						object,
						line: operation.line,
						label: undefined,
						seq: ++truth.seq,
						batch,
						viaSet: false,
					},
				]);
				root.sources.set(operation.source, keys);
			}
			return;
		}
		case 'setSourceObjects': {
			const root = ensureTruthRoot(truth, operation.root);
			const batch = ++truth.batch;
			const keys = new Map<string, TruthCopy[]>();
			for (const item of operation.items) {
				for (const object of objectsOf(item.object)) {
					const key = objectKeyOf(object);
					const copy = {
						object,
						line: item.line,
						label: item.label,
						seq: ++truth.seq,
						batch,
						viaSet: true,
					};
					keys.set(key, [...(keys.get(key) ?? []), copy]);
				}
			}
			if (keys.size > 0) root.sources.set(operation.source, keys);
			else root.sources.delete(operation.source);
			return;
		}
		case 'removeObject': {
			const keys = existing?.sources.get(operation.source);
			keys?.delete(operation.key);
			if (keys?.size === 0) existing?.sources.delete(operation.source);
			return;
		}
		case 'removeSource':
			existing?.sources.delete(operation.source);
			return;
		case 'addRoot':
			if (existing) existing.label = operation.label;
			else {
				truth.roots.set(operation.root, {
					id: operation.root,
					label: operation.label,
					origin: operation.origin,
					state: undefined,
					fromController: false,
					sources: new Map(),
				});
			}
			return;
		case 'removeRoot':
			truth.roots.delete(operation.root);
			return;
		case 'setRootState':
			if (existing) existing.state = operation.state;
			return;
		case 'setRollupsFromController':
			if (existing) existing.fromController = operation.fromController;
			return;
	}
}

/**
 * A graph built from scratch from the truth: each root added with its label and origin, then what its sources hold
 * now, sent in the order it was first sent (a file in one setSourceObjects call, a watch event by event), so every
 * object's newest copy is the same; the root's state and roll-up mode before or after the objects by `variant`.
 */
export function rebuild(truth: Truth, variant: number): ResourceGraph {
	const graph = new ResourceGraph();
	let index = 0;
	for (const root of truth.roots.values()) {
		graph.addRoot(root.id, root.label, root.origin);
		const settingsFirst = (variant + index++) % 2 === 0;
		const settings = () => {
			if (root.state) graph.setRootState(root.id, root.state);
			if (root.fromController) graph.setRollupsFromController(root.id, true);
		};
		if (settingsFirst) settings();
		const batches = new Map<number, { source: string; copies: TruthCopy[] }>();
		for (const [source, keys] of root.sources) {
			for (const copies of keys.values()) {
				for (const copy of copies) {
					const batch = batches.get(copy.batch) ?? { source, copies: [] };
					batch.copies.push(copy);
					batches.set(copy.batch, batch);
				}
			}
		}
		for (const [, batch] of [...batches].sort((a, b) => a[0] - b[0])) {
			const copies = batch.copies.sort((a, b) => a.seq - b.seq);
			if (copies[0]?.viaSet) {
				graph.setSourceObjects(
					root.id,
					batch.source,
					copies.map((copy) => {
						const item: { -readonly [K in keyof SourceObject]: SourceObject[K] } = {
							object: structuredClone(copy.object),
						};
						if (copy.line !== undefined) item.line = copy.line;
						if (copy.label !== undefined) item.label = copy.label;
						return item;
					}),
				);
			} else {
				for (const copy of copies) {
					graph.upsertObject(root.id, batch.source, structuredClone(copy.object), copy.line);
				}
			}
		}
		if (!settingsFirst) settings();
	}
	return graph;
}

// ---------------------------------------------------------------------------------------------------------------
// What a user sees

/** JSON with keys sorted, so that two equal values print the same whatever order their keys were set in. */
export function canonical(value: unknown): string {
	return JSON.stringify(value, (_key, inner: unknown) => {
		if (!isObj(inner)) return inner;
		const sorted: Obj = {};
		for (const key of Object.keys(inner).sort()) sorted[key] = inner[key];
		return sorted;
	});
}

// The graph hands out the same node object until the node's display changes: print each (node, object) pair once.
const printed = new WeakMap<TreeNode, { readonly object: unknown; readonly text: string }>();

/** Everything a tree row, its tooltip and its commands read: the node, and the object the tooltip shows. */
function visibleOf(graph: ResourceGraph, node: TreeNode): string {
	const object = node.objectKey ? graph.objectOf(node.rootId, node.objectKey) : undefined;
	const known = printed.get(node);
	if (known && known.object === object) return known.text;
	const text = canonical({ node, object });
	printed.set(node, { object, text });
	return text;
}

/** The unfiltered tree as a user can unfold it: every node's visible fields and ordered children. */
export interface Observed {
	readonly roots: readonly string[];
	readonly nodes: ReadonlyMap<string, string>;
	readonly children: ReadonlyMap<string, readonly string[]>;
}

const maxDepth = 16;
const maxNodes = 20000;

function walk(
	graph: ResourceGraph,
	filter: TreeFilter,
	visit: (parent: string | undefined, children: readonly TreeNode[]) => void,
): void {
	let count = 0;
	const step = (id: string | undefined, depth: number) => {
		const children = graph.children(id, filter);
		visit(id, children);
		count += children.length;
		if (depth >= maxDepth || count > maxNodes) {
			throw new Error(`the tree is deeper than ${maxDepth} or larger than ${maxNodes} nodes`);
		}
		for (const child of children) step(child.id, depth + 1);
	};
	step(undefined, 0);
}

/** Reads the whole unfiltered tree. */
export function observe(graph: ResourceGraph): Observed {
	const nodes = new Map<string, string>();
	const children = new Map<string, readonly string[]>();
	walk(graph, {}, (parent, list) => {
		children.set(
			parent ?? '',
			list.map((node) => node.id),
		);
		for (const node of list) nodes.set(node.id, visibleOf(graph, node));
	});
	return { roots: graph.roots().map((node) => node.id), nodes, children };
}

/** The filters the comparison unfolds the tree under. */
const filters: readonly TreeFilter[] = [
	{ problemsOnly: true },
	{ nameContains: 'nginx' },
	{ nameContains: 'PROD' },
	{ namespace: 'fleet-default' },
	{ namespace: 'nginx', problemsOnly: true },
	{ nameContains: 'shop', problemsOnly: true },
];

/** What a user can see of a graph, as named facts in a stable order; every API a caller reads. */
export function factsOf(graph: ResourceGraph, universe: Universe): Map<string, string> {
	const facts = new Map<string, string>();
	// Counts first: a wrong count shows as itself before it shows in a description.
	facts.set('problemCount()', String(graph.problemCount()));
	facts.set('objectCount()', String(graph.objectCount()));
	for (const root of universe.roots) {
		facts.set(`objectCount(${root})`, String(graph.objectCount(root)));
		facts.set(
			`objectsOf(${root})`,
			canonical(
				graph
					.objectsOf(root)
					.map((object) => objectKeyOf(object))
					.sort(),
			),
		);
	}
	const observed = observe(graph);
	facts.set('roots()', canonical(graph.roots()));
	for (const [id, list] of observed.children) {
		facts.set(`children(${id || '(top)'})`, canonical(list));
	}
	for (const [id, visible] of observed.nodes) {
		facts.set(`node(${id})`, visible);
		const looked = graph.node(id);
		facts.set(`node(${id}) by id`, looked ? visibleOf(graph, looked) : 'undefined');
		facts.set(`parentOf(${id})`, String(graph.parentOf(id)?.id));
	}
	for (const filter of filters) {
		walk(graph, filter, (parent, list) =>
			facts.set(
				`children(${parent ?? '(top)'}, ${canonical(filter)})`,
				canonical(list.map((node) => node.id)),
			),
		);
	}
	for (const root of universe.roots) {
		// In any order: model.ts promises every place, and the order follows the order parents were linked in.
		for (const key of universe.keys) {
			facts.set(
				`findNodesForObject(${root}, ${key})`,
				canonical(graph.findNodesForObject(root, key).sort()),
			);
		}
	}
	for (const source of universe.sources) {
		for (const line of universe.lines) {
			// Two objects that start at the same line: which one the line belongs to is not defined.
			const ambiguous = universe.ambiguousLines.has(`${source}\u0000${line}`);
			facts.set(
				`nodesFor(${source}, ${line})`,
				ambiguous ? '"(two objects start there)"' : canonical(graph.nodesFor(source, line).sort()),
			);
		}
	}
	return facts;
}

/** The roots, keys, sources and lines the comparison asks about. */
export interface Universe {
	readonly roots: readonly string[];
	readonly keys: readonly string[];
	readonly sources: readonly string[];
	readonly lines: readonly number[];
	/** "source\u0000line" where, in some root, two objects of the source start at the last line at or before it. */
	readonly ambiguousLines: ReadonlySet<string>;
}

/** Everything a run may have touched, plus ids no run uses. */
export function universeOf(truth: Truth): Universe {
	const keys = new Set<string>(['fleet.cattle.io|Bundle|fleet-default|never-there']);
	for (const root of truth.roots.values()) {
		for (const sourceKeys of root.sources.values()) {
			for (const key of sourceKeys.keys()) keys.add(key);
		}
	}
	const lines = [0, 1, 7, 13, 25, 40, 59, 200];
	const ambiguousLines = new Set<string>();
	for (const root of truth.roots.values()) {
		for (const [source, sourceKeys] of root.sources) {
			for (const line of lines) {
				let last = -1;
				const starting = new Set<string>();
				for (const [key, copies] of sourceKeys) {
					for (const copy of copies) {
						if (copy.line === undefined || copy.line > line || copy.line < last) continue;
						if (copy.line > last) starting.clear();
						last = copy.line;
						starting.add(key);
					}
				}
				if (starting.size > 1) ambiguousLines.add(`${source}\u0000${line}`);
			}
		}
	}
	return {
		roots: [...rootIds, 'never-there'],
		keys: [...keys].sort(),
		sources: [...sourceIds, 'file:///never-there.yaml'],
		lines,
		ambiguousLines,
	};
}

/** Where two JSON values first differ, as a path ("result.reasons[0]") with both values; undefined when equal. */
function firstDifference(
	a: unknown,
	b: unknown,
	path = '',
): { path: string; a: unknown; b: unknown } | undefined {
	if (a === b) return undefined;
	if (Array.isArray(a) && Array.isArray(b)) {
		for (let index = 0; index < Math.max(a.length, b.length); index++) {
			const found = firstDifference(a[index], b[index], `${path}[${index}]`);
			if (found) return found;
		}
		return undefined;
	}
	if (isObj(a) && isObj(b)) {
		for (const key of unique([...Object.keys(a), ...Object.keys(b)])) {
			const found = firstDifference(a[key], b[key], path ? `${path}.${key}` : key);
			if (found) return found;
		}
		return undefined;
	}
	return { path: path || '(value)', a, b };
}

function shorten(value: unknown): string {
	const printed = JSON.stringify(value) ?? 'undefined';
	return printed.length > 400 ? `${printed.slice(0, 400)}…` : printed;
}

/** One fact two graphs disagree on; a side is undefined when only the other graph has the fact. */
export interface Difference {
	readonly fact: string;
	readonly incremental: string | undefined;
	readonly rebuilt: string | undefined;
}

/** Every fact where two graphs differ, in the facts' order. */
export function differences(
	incremental: ReadonlyMap<string, string>,
	rebuilt: ReadonlyMap<string, string>,
): Difference[] {
	const found: Difference[] = [];
	for (const [fact, value] of incremental) {
		const other = rebuilt.get(fact);
		if (other !== value) found.push({ fact, incremental: value, rebuilt: other });
	}
	for (const [fact, value] of rebuilt) {
		if (!incremental.has(fact)) found.push({ fact, incremental: undefined, rebuilt: value });
	}
	return found;
}

/** A difference in words: the fact and the first field where the two values differ. */
export function describeDifference(difference: Difference): string {
	const { fact, incremental, rebuilt } = difference;
	if (incremental === undefined) {
		return `${fact} is in the rebuilt graph only: ${shorten(JSON.parse(rebuilt ?? 'null'))}`;
	}
	if (rebuilt === undefined) {
		return `${fact} is in the incremental graph only: ${shorten(JSON.parse(incremental))}`;
	}
	const first = firstDifference(JSON.parse(incremental), JSON.parse(rebuilt));
	return first
		? `${fact} differs at field ${first.path}: incremental ${shorten(first.a)}, rebuilt ${shorten(first.b)}`
		: `${fact} differs`;
}

// ---------------------------------------------------------------------------------------------------------------
// The ChangedNodes contract

/** One way an operation's ChangedNodes falls short of what changed in the tree. */
export interface Violation {
	readonly kind: 'roots' | 'node' | 'children' | 'order';
	/** The node concerned ("" for the roots). */
	readonly id: string;
	readonly message: string;
	/** For 'order': whether a child that moved is itself reported as changed (its label or tone changed). */
	readonly movedChildReported?: boolean;
}

/**
 * Checks what an operation returned against what changed between two readings of the unfiltered tree (model.ts,
 * ChangedNodes): a node that shows differently is in `changed`, or it or an ancestor is in `structureChanged` (whose
 * refresh covers its subtree); a node whose set of children differs is, or is below, a `structureChanged` id; a node
 * whose children only changed order is refreshed (changed or structure), since refreshing only the children that
 * moved does not sort them again; a different list of roots sets `rootsChanged`. Returns every violation.
 */
export function checkChangedNodes(
	before: Observed,
	after: Observed,
	changes: ChangedNodes,
): Violation[] {
	const violations: Violation[] = [];
	const changed = new Set(changes.changed);
	const structure = new Set(changes.structureChanged);
	const refreshedSubtree = (id: string) => {
		const segments = id.split('/');
		for (let length = 1; length <= segments.length; length++) {
			if (structure.has(segments.slice(0, length).join('/'))) return true;
		}
		return false;
	};
	if (canonical(before.roots) !== canonical(after.roots) && !changes.rootsChanged) {
		violations.push({
			kind: 'roots',
			id: '',
			message: `the roots went from ${canonical(before.roots)} to ${canonical(after.roots)} but rootsChanged is false`,
		});
	}
	for (const [id, visible] of after.nodes) {
		const previous = before.nodes.get(id);
		if (previous === undefined) continue;
		if (previous !== visible && !changed.has(id) && !refreshedSubtree(id)) {
			const difference = firstDifference(JSON.parse(previous), JSON.parse(visible));
			violations.push({
				kind: 'node',
				id,
				message: `node ${id} shows differently (field ${difference?.path ?? '?'}: ${shorten(difference?.a)} -> ${shorten(difference?.b)}) but is neither in changed nor under a structureChanged id`,
			});
		}
	}
	for (const [id, list] of after.children) {
		if (id === '') continue;
		const previous = before.children.get(id);
		if (previous === undefined || canonical(previous) === canonical(list)) continue;
		const sameSet = canonical([...previous].sort()) === canonical([...list].sort());
		if (!sameSet && !refreshedSubtree(id)) {
			violations.push({
				kind: 'children',
				id,
				message: `node ${id} has other children (${canonical(previous)} -> ${canonical(list)}) but neither it nor an ancestor is in structureChanged`,
			});
		}
		if (sameSet && !changed.has(id) && !refreshedSubtree(id)) {
			violations.push({
				kind: 'order',
				id,
				message: `the children of ${id} changed order (${canonical(previous)} -> ${canonical(list)}) but it is neither in changed nor under a structureChanged id`,
				movedChildReported: list.some(
					(child, index) => child !== previous[index] && changed.has(child),
				),
			});
		}
	}
	return violations;
}
