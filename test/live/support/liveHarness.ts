// The live differential test's world: the demo clusters (src/apiserver) behind a kubeconfig, the real cluster client
// (src/k8s), the live feed (src/live) writing into a ResourceGraph through a recorder that keeps, as plain data,
// what every root and source holds (the graph tests' Truth), and the tree provider's part (which nodes it listed).
// `execute` runs one step; `settledDifference` says what still differs from the servers; `treeDifference` compares
// every tree node with a graph built from scratch over what the sources hold.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDemo, type Demo } from '../../../src/apiserver/demo.ts';
import type { ResourceType } from '../../../src/apiserver/resources.ts';
import type { ApiServer } from '../../../src/apiserver/server.ts';
import type { KubeObject } from '../../../src/apiserver/store.ts';
import { wdsContextsOf, type ContextPair } from '../../../src/core/merge/contextPairing.ts';
import { isAsoGroup } from '../../../src/core/status/aso.ts';
import { isFluxGroup } from '../../../src/core/status/flux.ts';
import { isKubestellarGroup } from '../../../src/core/status/kubestellar.ts';
import { objectKeyOf, type BundleDeploymentQuery } from '../../../src/core/tree/linking.ts';
import { ResourceGraph } from '../../../src/core/tree/model.ts';
import type { TreeNode } from '../../../src/core/tree/treeNode.ts';
import * as k8s from '../../../src/k8s/index.ts';
import type { Session } from '../../../src/k8s/session.ts';
import type { ClusterClient, LiveGraph, LiveSettings } from '../../../src/live/feedDependencies.ts';
import { LiveFeed } from '../../../src/live/liveFeed.ts';
import { liveRootId, pairedSourceOf } from '../../../src/live/liveRoots.ts';
import {
	applyOperation,
	applyToTruth,
	differences,
	factsOf,
	mulberry32,
	newTruth,
	observe,
	rebuild,
	type Difference,
	type Operation,
	type Truth,
} from '../../support/graphOperations.ts';
import {
	clusterNames,
	variantName,
	type ClusterName,
	type FeedAction,
	type LiveOperation,
	type NodeRef,
	type Relabel,
	type Templates,
	type Write,
} from './liveOperations.ts';

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
	return typeof value === 'string' ? value : '';
}

const pair: ContextPair = { wds: 'kubestellar-wds', its: 'kubestellar-its', wdsName: 'wds1' };

/** A session the feed created, and what the test saw of it. */
interface TrackedSession {
	readonly session: Session;
	disposed: boolean;
	/** State events whose BundleDeployment mode was not roll-ups-only: each makes the feed drop its listings. */
	leftRollups: number;
}

/** A node the tree provider listed, and what the server held for it when the list answered. */
interface Listing {
	readonly node: TreeNode;
	readonly source: string;
	readonly tracked: TrackedSession;
	readonly leftRollups: number;
	/**
	 * key -> resourceVersion; several when a write raced the list (either answer is right), and one more after each
	 * write since: the feed lists a node's BundleDeployments again when its object changes.
	 */
	readonly snapshots: ReadonlyMap<string, string>[];
}

/** What settling tolerates: known bugs. */
export interface SettleOptions {
	/** A node's on-demand list stays in the root after the node went (moved), where no collapse can release it. */
	readonly keepMovedListings: boolean;
}

/** One run's world. */
export interface LiveWorld {
	readonly templates: Templates;
	readonly demo: Demo;
	readonly graph: ResourceGraph;
	readonly truth: Truth;
	readonly feed: LiveFeed;
	readonly settings: {
		contexts: readonly ClusterName[];
		threshold: number;
		pairs: boolean;
	};
	readonly sessions: TrackedSession[];
	readonly listings: Listing[];
	/** On-demand sources seen kept after their node went (with `keepMovedListings`). */
	readonly movedListings: Set<string>;
	/** Feed calls not awaited by their step (a restart); settling waits for them. */
	readonly pending: Set<Promise<unknown>>;
	/** Fires after every graph change the feed reports. */
	readonly graphChanged: Set<() => void>;
	readonly close: () => Promise<void>;
}

/** The graph operations the feed makes, applied to the graph and recorded in the truth (the same calls, as data). */
function recordingGraph(world: { graph: ResourceGraph; truth: Truth }): LiveGraph {
	const apply = (operation: Operation) => {
		applyToTruth(world.truth, operation);
		return applyOperation(world.graph, operation);
	};
	return {
		addRoot: (root, label, origin = 'file') => apply({ op: 'addRoot', root, label, origin }),
		removeRoot: (root) => apply({ op: 'removeRoot', root }),
		setRootState: (root, state) => apply({ op: 'setRootState', root, state }),
		setRollupsFromController: (root, fromController) =>
			apply({ op: 'setRollupsFromController', root, fromController }),
		setSourceObjects: (root, source, items) =>
			apply({ op: 'setSourceObjects', root, source, items }),
		upsertObject: (root, source, object, line) =>
			apply({ op: 'upsertObject', root, source, object: object as Obj, line }),
		removeObject: (root, source, key) => apply({ op: 'removeObject', root, source, key }),
		removeSource: (root, source) => apply({ op: 'removeSource', root, source }),
		node: (id) => world.graph.node(id),
	};
}

/** Starts the demo clusters (timelines still) and a feed over all four contexts, WDS and ITS paired. */
export async function startWorld(templates: Templates, seed: number): Promise<LiveWorld> {
	const dir = await mkdtemp(path.join(tmpdir(), 'ksl-live-diff-'));
	const demo = await startDemo({
		kubeconfigPath: path.join(dir, 'kubeconfig'),
		play: false,
		clusters: clusterNames,
	});
	const sessions: TrackedSession[] = [];
	const graphChanged = new Set<() => void>();
	const settings: LiveWorld['settings'] = {
		contexts: [...clusterNames],
		threshold: 20_000,
		pairs: true,
	};
	const random = mulberry32(seed ^ 0x5eed);
	const client: ClusterClient = {
		loadKubeconfig: k8s.loadKubeconfig,
		toneOfState: k8s.toneOfState,
		createSession(options) {
			// Short backoff and rediscovery, so a fault heals and a count crosses the threshold within a step.
			const session = k8s.createSession({
				...options,
				backoff: { initialMs: 10, maxMs: 150 },
				rediscoverMs: 1_500,
				random,
			});
			const tracked: TrackedSession = { session, disposed: false, leftRollups: 0 };
			session.onState((status) => {
				if (status.bundleDeployments.mode !== 'roll-ups-only') tracked.leftRollups++;
			});
			const dispose = session.dispose.bind(session);
			session.dispose = () => {
				tracked.disposed = true;
				dispose();
			};
			sessions.push(tracked);
			return session;
		},
	};
	const partial = {
		templates,
		demo,
		graph: new ResourceGraph(),
		truth: newTruth(),
		settings,
		sessions,
		listings: [] as Listing[],
		movedListings: new Set<string>(),
		pending: new Set<Promise<unknown>>(),
		graphChanged,
	};
	const readSettings = (): LiveSettings => ({
		enabled: true,
		kubeconfig: demo.kubeconfigPath,
		contexts: settings.contexts,
		namespaces: [],
		bundleDeploymentThreshold: settings.threshold,
		kubestellarPairs: settings.pairs ? [pair] : [],
	});
	const feed = new LiveFeed({
		graph: recordingGraph(partial),
		onChanged: () => {
			for (const listener of [...graphChanged]) listener();
		},
		loadClient: () => Promise.resolve(client),
		readSettings,
		log: { info: () => undefined, warn: () => undefined },
		showProgress: (task) => task(() => undefined),
	});
	const world: LiveWorld = {
		...partial,
		feed,
		async close() {
			feed.dispose();
			for (const tracked of sessions) tracked.session.dispose();
			await Promise.allSettled([...partial.pending]);
			await demo.stop();
			await rm(dir, { recursive: true, force: true });
		},
	};
	feed.setConsumers(['tree']);
	await feed.start();
	return world;
}

// ---------------------------------------------------------------------------------------------------------------
// Steps

function server(world: LiveWorld, cluster: ClusterName): ApiServer {
	const found = world.demo.servers.get(cluster);
	if (!found) throw new Error(`the demo serves no ${cluster}`);
	return found;
}

/** The object a write or label change names: its template renamed, as a reference. */
function targetOf(world: LiveWorld, step: Write | Relabel): KubeObject | undefined {
	const template = world.templates.get(step.cluster)?.[step.template];
	if (!template) return undefined;
	const object = structuredClone(template);
	const metadata = isObj(object.metadata) ? object.metadata : {};
	object.metadata = { ...metadata, name: variantName(text(metadata.name), step.name) };
	return object;
}

/** The status a status patch writes, by variant: a Ready condition either way, readiness, observedGeneration. */
function statusPatch(current: KubeObject, variant: number): Obj {
	const metadata = isObj(current.metadata) ? current.metadata : {};
	const generation = typeof metadata.generation === 'number' ? metadata.generation : 1;
	switch (variant % 5) {
		case 0:
			return {
				conditions: [
					{
						type: 'Ready',
						status: 'False',
						reason: 'KslTestFailing',
						message: `failing ${variant}`,
					},
				],
				observedGeneration: generation,
			};
		case 1:
			return {
				conditions: [{ type: 'Ready', status: 'True', reason: 'Succeeded', message: 'ok' }],
				observedGeneration: generation,
			};
		case 2:
			return { observedGeneration: Math.max(0, generation - (variant % 2)) };
		case 3:
			return current.kind === 'BundleDeployment'
				? {
						ready: variant % 2 === 0,
						nonModified: variant % 3 !== 0,
						display: { state: variant % 2 === 0 ? 'Ready' : 'Modified' },
					}
				: { summary: { ready: variant % 4, desiredReady: 3 }, phase: 'Pending' };
		default:
			return { conditions: null };
	}
}

/** A write or label change on the server; refusals (409, 422, a terminating object) change nothing. */
function write(world: LiveWorld, step: Write | Relabel): void {
	const target = targetOf(world, step);
	if (!target) return;
	const store = server(world, step.cluster).store;
	const current = store.find(target);
	try {
		if (step.op === 'label') {
			if (!current) return;
			store.patchObject(target, 'merge', {
				metadata: { labels: { [step.key]: step.value ?? null } },
			});
			return;
		}
		switch (step.action) {
			case 'put': {
				const object = structuredClone(target);
				const metadata = isObj(object.metadata) ? object.metadata : {};
				const labels = isObj(metadata.labels) ? metadata.labels : {};
				object.metadata = {
					...metadata,
					labels: { ...labels, 'ksl.test/variant': String(step.variant % 4) },
				};
				if (step.variant % 3 === 0) {
					object.spec = { ...(isObj(object.spec) ? object.spec : {}), kslTest: step.variant % 7 };
				}
				store.put(object);
				return;
			}
			case 'status':
				if (current) {
					store.patchObject(
						target,
						'merge',
						{ status: statusPatch(current, step.variant) } as never,
						{
							subresource: 'status',
						},
					);
				}
				return;
			case 'delete':
				if (current) store.deleteObject(target);
				return;
			case 'finalize':
				if (current) store.patchObject(target, 'merge', { metadata: { finalizers: null } });
				return;
		}
	} catch {
		// The server refused: nothing changed.
	}
}

function applyFault(world: LiveWorld, step: Extract<LiveOperation, { op: 'fault' }>): void {
	const target = server(world, step.cluster);
	const faults = target.faults;
	switch (step.fault) {
		case 'drop':
			faults.dropWatches('destroy');
			return;
		case 'drop-end':
			faults.dropWatches('end');
			return;
		case 'gone-watch':
			faults.respond(410, { watch: true, count: 1 }, { inWatch: true });
			faults.dropWatches('end');
			return;
		case 'gone-list':
			faults.respond(410, { watch: false, method: 'GET', count: 1 });
			return;
		case 'expire':
			faults.expireHistory();
			faults.dropWatches('destroy');
			return;
		case 'error':
			faults.respond(500, { count: step.count });
			return;
		case 'error-watch':
			faults.respond(500, { watch: true, count: step.count });
			faults.dropWatches('end');
			return;
		case 'error-bd-list':
			faults.respond(500, { watch: false, path: /bundledeployments$/, count: step.count });
			return;
	}
}

/** The tree node a NodeRef names in fleet-mgmt's root, if it lists on demand now. */
function nodeOf(world: LiveWorld, ref: NodeRef): TreeNode | undefined {
	const root = liveRootId('fleet-mgmt');
	const key = objectKeyOf({
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: ref.kind,
		metadata: { namespace: 'fleet-default', name: ref.name },
	});
	const nodes = world.graph
		.findNodesForObject(root, key)
		.map((id) => world.graph.node(id))
		.filter((node): node is TreeNode => node?.listOnDemand !== undefined);
	return nodes.length === 0 ? undefined : nodes[ref.place % nodes.length];
}

function labelsOf(object: KubeObject): Obj {
	const metadata = isObj(object.metadata) ? object.metadata : {};
	return isObj(metadata.labels) ? metadata.labels : {};
}

/** What the server holds for an on-demand query: key -> resourceVersion. */
function serverSelection(world: LiveWorld, query: BundleDeploymentQuery): Map<string, string> {
	const store = server(world, 'fleet-mgmt').store;
	const type = store.typeOf('fleet.cattle.io/v1alpha1', 'BundleDeployment');
	const selected = new Map<string, string>();
	if (!type) return selected;
	const terms = query.labelSelector.split(',').map((term) => term.split('='));
	for (const object of store.all(type, query.namespace)) {
		const labels = labelsOf(object);
		if (terms.every(([key = '', value]) => labels[key] === value)) {
			selected.set(objectKeyOf(object), resourceVersionOf(object));
		}
	}
	return selected;
}

function currentSession(world: LiveWorld, context: string): TrackedSession | undefined {
	return world.sessions.findLast(
		(tracked) => tracked.session.context === context && !tracked.disposed,
	);
}

async function expand(
	world: LiveWorld,
	step: Extract<FeedAction, { op: 'expand' }>,
): Promise<void> {
	const node = nodeOf(world, step.node);
	const query = node?.listOnDemand;
	const tracked = currentSession(world, 'fleet-mgmt');
	if (!node || !query || !tracked) return;
	const leftRollups = tracked.leftRollups;
	const snapshots = [serverSelection(world, query)];
	// The provider drops what it held for the node before it lists again.
	removeListing(world, node.id);
	const listing = world.feed.list(node);
	switch (step.race) {
		case 'collapse':
			world.feed.release(node);
			break;
		case 'restart':
			track(world, world.feed.restart());
			break;
		case 'write': {
			const bd = world.templates
				.get('fleet-mgmt')
				?.findIndex((object) => object.kind === 'BundleDeployment');
			write(world, {
				op: 'write',
				cluster: 'fleet-mgmt',
				template: bd ?? 0,
				name: 0,
				action: 'status',
				variant: 3,
			});
			snapshots.push(serverSelection(world, query));
			break;
		}
		case 'none':
			break;
	}
	const outcome = await listing;
	if (!outcome.ok || !world.feed.hasListed(node)) return;
	world.listings.push({
		node,
		source: `on-demand:${node.id}`,
		tracked,
		leftRollups,
		snapshots,
	});
}

function removeListing(world: LiveWorld, nodeId: string): void {
	const index = world.listings.findIndex((listing) => listing.node.id === nodeId);
	if (index >= 0) world.listings.splice(index, 1);
}

function track(world: LiveWorld, promise: Promise<unknown>): void {
	const settled = promise.finally(() => world.pending.delete(settled));
	world.pending.add(settled);
}

/** Runs one step against the servers and the feed. */
export async function execute(world: LiveWorld, operation: LiveOperation): Promise<void> {
	switch (operation.op) {
		case 'write':
		case 'label':
			write(world, operation);
			// What a list taken from now on answers (src/live/contextFeed.ts lists a changed node again).
			for (const listing of world.listings) {
				const query = listing.node.listOnDemand;
				if (query) listing.snapshots.push(serverSelection(world, query));
			}
			return;
		case 'fault':
			applyFault(world, operation);
			return;
		case 'restart':
			if (operation.wait) await world.feed.restart();
			else track(world, world.feed.restart());
			return;
		case 'contexts':
			world.settings.contexts = operation.contexts;
			await world.feed.restart();
			return;
		case 'threshold':
			world.settings.threshold = operation.value;
			await world.feed.restart();
			return;
		case 'pairs':
			world.settings.pairs = operation.on;
			await world.feed.restart();
			return;
		case 'expand':
			await expand(world, operation);
			return;
		case 'collapse': {
			const listing = world.listings[operation.index % Math.max(1, world.listings.length)];
			if (!listing) return;
			world.feed.release(listing.node);
			removeListing(world, listing.node.id);
			return;
		}
		case 'pause':
			world.feed.setConsumers([]);
			for (const each of operation.writes) write(world, each);
			world.feed.setConsumers(['tree']);
			return;
	}
}

/** Reads the whole tree, as a visible view does (lazy nodes and roll-ups get built). */
export function observeTree(world: LiveWorld): void {
	observe(world.graph);
}

// ---------------------------------------------------------------------------------------------------------------
// Checks

function resourceVersionOf(object: unknown): string {
	return isObj(object) && isObj(object.metadata) ? text(object.metadata.resourceVersion) : '';
}

/**
 * The served types a session watches (discovery.ts's rule, restated): never Secrets; of the core group only
 * Namespaces, and only where BundleNamespaceMappings or BindingPolicies are served.
 */
function watchedTypesOf(served: readonly ResourceType[]): ResourceType[] {
	const watched = served.filter(isWatchedType);
	const readsNamespaces = watched.some(
		(type) =>
			(type.group === 'fleet.cattle.io' && type.kind === 'BundleNamespaceMapping') ||
			(isKubestellarGroup(type.group) && type.kind === 'BindingPolicy'),
	);
	const namespaces = served.find((type) => type.group === '' && type.kind === 'Namespace');
	return readsNamespaces && namespaces ? [...watched, namespaces] : watched;
}

function isWatchedType(type: ResourceType): boolean {
	if (type.kind === 'Secret') return false;
	switch (type.group) {
		case 'apps':
			return ['Deployment', 'StatefulSet', 'DaemonSet'].includes(type.kind);
		case 'batch':
			return ['Job', 'CronJob'].includes(type.kind);
		case 'cluster.open-cluster-management.io':
			return type.kind === 'ManagedCluster';
		case 'fleet.cattle.io':
		case 'goharbor.io':
			return true;
		default:
			return isKubestellarGroup(type.group) || isFluxGroup(type.group) || isAsoGroup(type.group);
	}
}

function resourceIdOf(type: ResourceType): string {
	return type.group === ''
		? `${type.version}/${type.plural}`
		: `${type.group}/${type.version}/${type.plural}`;
}

/** key -> resourceVersion of what a source of a root holds in the truth. */
function sourceContent(world: LiveWorld, root: string, source: string): Map<string, string> {
	const content = new Map<string, string>();
	for (const [key, copies] of world.truth.roots.get(root)?.sources.get(source) ?? []) {
		content.set(key, resourceVersionOf(copies[copies.length - 1]?.object));
	}
	return content;
}

function contentDifference(
	what: string,
	held: ReadonlyMap<string, string>,
	expected: ReadonlyMap<string, string>,
): string | undefined {
	const missing = [...expected].filter(([key]) => !held.has(key)).map(([key]) => key);
	const extra = [...held.keys()].filter((key) => !expected.has(key));
	const stale = [...expected]
		.filter(([key, version]) => held.has(key) && held.get(key) !== version)
		.map(([key, version]) => `${key} at ${held.get(key) ?? '?'}, not ${version}`);
	if (missing.length + extra.length + stale.length === 0) return undefined;
	return `${what}: ${[
		missing.length > 0 ? `missing ${missing.join(', ')}` : '',
		extra.length > 0 ? `not on the server ${extra.join(', ')}` : '',
		stale.length > 0 ? `stale ${stale.join('; ')}` : '',
	]
		.filter(Boolean)
		.join('; ')}`;
}

function sameContent(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
	return a.size === b.size && [...a].every(([key, version]) => b.get(key) === version);
}

/**
 * What still keeps the feed from matching the servers, or undefined once it does: every chosen context open and
 * ready with all its watches on the server; each watched resource's source holding exactly the server's objects
 * (key and resourceVersion), BundleDeployments only in watch-all mode; the paired WDS root holding copies of exactly
 * the ITS WorkStatus objects that report to it; on-demand sources holding what the server had when they were listed;
 * the roll-ups mode flag and root state following the session's count and the threshold.
 */
export function settledDifference(world: LiveWorld, options: SettleOptions): string | undefined {
	if (world.pending.size > 0) return 'a restart is still running';
	const chosen = world.settings.contexts;
	const open = [...world.feed.contexts].sort();
	if (open.join() !== [...chosen].sort().join()) {
		return `the feed has contexts [${open.join(', ')}], not [${[...chosen].sort().join(', ')}]`;
	}
	const rootIds = [...world.truth.roots.keys()].sort();
	const expectedRoots = chosen.map((context) => liveRootId(context)).sort();
	if (rootIds.join() !== expectedRoots.join()) {
		return `the graph has roots [${rootIds.join(', ')}], not [${expectedRoots.join(', ')}]`;
	}
	for (const cluster of clusterNames) {
		const apiServer = server(world, cluster);
		const tracked = currentSession(world, cluster);
		const isChosen = chosen.includes(cluster);
		if (!isChosen) {
			if (tracked) return `${cluster} is not chosen but has an open session`;
			if (apiServer.openWatchCount() !== 0) {
				return `${cluster} is not chosen but has ${apiServer.openWatchCount()} open watches`;
			}
			continue;
		}
		if (!tracked) return `${cluster} has no open session`;
		const status = tracked.session.status();
		if (status.state.kind !== 'ready') {
			return `${cluster} is ${status.state.kind}: ${status.state.message}`;
		}
		const notReady = status.resources.filter(
			(resource) => resource.watched && resource.state.kind !== 'ready',
		);
		if (notReady.length > 0) {
			return `${cluster}: ${notReady.map((resource) => `${resource.resource.id} ${resource.state.message}`).join('; ')}`;
		}
		const mode = status.bundleDeployments;
		const rollupsOnly = mode.mode === 'roll-ups-only';
		if (mode.threshold !== world.settings.threshold && mode.mode !== 'unknown') {
			return `${cluster} counts against threshold ${mode.threshold}, not ${world.settings.threshold}`;
		}
		if (rollupsOnly && (mode.count === undefined || mode.count * 10 < mode.threshold * 9)) {
			return `${cluster} is roll-ups-only with ${String(mode.count)} BundleDeployments, threshold ${mode.threshold}`;
		}
		if (mode.mode === 'watch-all' && mode.count !== undefined && mode.count > mode.threshold) {
			return `${cluster} watches all ${mode.count} BundleDeployments, above threshold ${mode.threshold}`;
		}
		const rootId = liveRootId(cluster);
		const root = world.truth.roots.get(rootId);
		if (!root) return `no root for ${cluster}`;
		if (root.fromController !== rollupsOnly) {
			return `${cluster}'s root takes roll-ups from the controllers: ${root.fromController}, the session is ${mode.mode}`;
		}
		const state = root.state;
		if (rollupsOnly ? state?.message !== 'roll-ups only' : state !== undefined) {
			return `${cluster}'s root state is ${JSON.stringify(state)} (${mode.mode})`;
		}
		// Every watched resource: its source holds what the server holds.
		const types = watchedTypesOf(apiServer.servedTypes()).filter(
			(type) => !(rollupsOnly && type.kind === 'BundleDeployment'),
		);
		const watchedIds = new Set(types.map(resourceIdOf));
		for (const type of types) {
			const expected = new Map<string, string>();
			for (const object of apiServer.store.all(type)) {
				expected.set(objectKeyOf(object), resourceVersionOf(object));
			}
			const difference = contentDifference(
				`${cluster} ${resourceIdOf(type)}`,
				sourceContent(world, rootId, resourceIdOf(type)),
				expected,
			);
			if (difference) return difference;
		}
		const watches = status.resources.filter((resource) => resource.watched).length;
		if (watches !== types.length) {
			return `${cluster} watches ${watches} resources, the server serves ${types.length} it should watch`;
		}
		if (apiServer.openWatchCount() !== types.length) {
			return `${cluster} has ${apiServer.openWatchCount()} open watches, not ${types.length}`;
		}
		// Copies of the ITS's WorkStatus objects that report to this context.
		const copySource = pairedSourceOf('kubestellar-its');
		const copies = new Map<string, string>();
		if (chosen.includes('kubestellar-its')) {
			const its = server(world, 'kubestellar-its').store;
			const type = its.typeOf('control.kubestellar.io/v1alpha1', 'WorkStatus');
			for (const object of type ? its.all(type) : []) {
				const targets = wdsContextsOf(
					object,
					'kubestellar-its',
					world.settings.pairs ? [pair] : [],
					chosen,
				);
				if (targets.includes(cluster)) copies.set(objectKeyOf(object), resourceVersionOf(object));
			}
		}
		const copyDifference = contentDifference(
			`${cluster} ${copySource}`,
			sourceContent(world, rootId, copySource),
			copies,
		);
		if (copyDifference) return copyDifference;
		// On-demand lists: exactly those the provider listed since the session last left roll-ups-only mode.
		const expectedListings = world.listings.filter(
			(listing) =>
				listing.node.rootId === rootId &&
				listing.tracked === tracked &&
				listing.leftRollups === tracked.leftRollups,
		);
		for (const source of root.sources.keys()) {
			if (watchedIds.has(source) || source === copySource) continue;
			const listing = expectedListings.find((each) => each.source === source);
			if (!listing) return `${cluster}'s root has a source nobody asked for: ${source}`;
			// Its node is gone (the object moved to another parent, so its tree id changed): no collapse can come
			// for it, so what was listed for it should go with it.
			if (world.graph.node(listing.node.id) === undefined) {
				if (!options.keepMovedListings) {
					return `${cluster}'s root keeps what was listed for a node that is gone: ${source}`;
				}
				world.movedListings.add(source);
			}
		}
		for (const listing of expectedListings) {
			if (world.graph.node(listing.node.id) === undefined) continue;
			if (!world.feed.hasListed(listing.node)) {
				return `${cluster}: the feed forgot what it listed for ${listing.node.id}`;
			}
			const held = sourceContent(world, rootId, listing.source);
			if (!listing.snapshots.some((snapshot) => sameContent(held, snapshot))) {
				return (
					contentDifference(
						`${cluster} ${listing.source}`,
						held,
						listing.snapshots[0] ?? new Map(),
					) ?? `${cluster} ${listing.source} differs`
				);
			}
		}
	}
	// The graph's objects are the sources' winners.
	for (const [rootId, root] of world.truth.roots) {
		const keys = new Set<string>();
		for (const content of root.sources.values()) for (const key of content.keys()) keys.add(key);
		const held = world.graph.objectsOf(rootId).map((object) => objectKeyOf(object));
		if (held.length !== keys.size || held.some((key) => !keys.has(key))) {
			return `${rootId}: the graph holds ${held.length} objects, its sources ${keys.size}`;
		}
	}
	return undefined;
}

/** Every difference between the graph and one built from scratch over what the sources hold now. */
export function treeDifferences(world: LiveWorld, variant: number): Difference[] {
	const keys = new Set<string>();
	for (const root of world.truth.roots.values()) {
		for (const content of root.sources.values()) for (const key of content.keys()) keys.add(key);
	}
	const universe = {
		roots: [...world.truth.roots.keys(), 'never-there'],
		keys: [...keys].sort(),
		sources: [],
		lines: [],
		ambiguousLines: new Set<string>(),
	};
	const rebuilt = rebuild(world.truth, variant);
	return differences(factsOf(world.graph, universe), factsOf(rebuilt, universe));
}

/**
 * Resolves true once `settledDifference` finds nothing, false when `deadlineMs` passes first. Checked now, after
 * every graph change the feed reports and every watch that opens or closes on a server.
 */
export async function settle(
	world: LiveWorld,
	deadlineMs: number,
	options: SettleOptions,
): Promise<boolean> {
	const started = Date.now();
	while (world.pending.size > 0) {
		const remaining = deadlineMs - (Date.now() - started);
		if (remaining <= 0) return false;
		let timer: NodeJS.Timeout | undefined;
		await Promise.race([
			Promise.allSettled([...world.pending]),
			new Promise((resolve) => {
				timer = setTimeout(resolve, remaining);
			}),
		]);
		clearTimeout(timer);
	}
	return new Promise<boolean>((resolve) => {
		const stops: (() => void)[] = [];
		const finish = (value: boolean): void => {
			for (const stop of stops.splice(0)) stop();
			resolve(value);
		};
		const timer = setTimeout(() => finish(false), Math.max(0, deadlineMs - (Date.now() - started)));
		stops.push(() => clearTimeout(timer));
		const check = (): void => {
			if (settledDifference(world, options) === undefined) finish(true);
		};
		const listener = (): void => check();
		world.graphChanged.add(listener);
		stops.push(() => world.graphChanged.delete(listener));
		for (const apiServer of world.demo.servers.values()) {
			stops.push(apiServer.onWatchesChanged(listener));
		}
		check();
	});
}
