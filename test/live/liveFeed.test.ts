// The live feed (src/live) against the project's demo cluster (src/apiserver) through the real cluster client
// (src/k8s): what the graph holds after the cluster changes, restarts, pauses, and the syncing state.
//
// No test sleeps: every wait is for something that happens (a graph change, a session event, a watch opening or
// closing on the server), and node:test's per-test timeout is the hang guard.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, it as test } from 'node:test';
import { startDemo, type Demo } from '../../src/apiserver/demo.ts';
import { demoClusters } from '../../src/apiserver/demoScenario.ts';
import { reconcileFleet } from '../../src/apiserver/fleetController.ts';
import type { ApiServer } from '../../src/apiserver/server.ts';
import type { KubeObject } from '../../src/apiserver/store.ts';
import type { ContextPair } from '../../src/core/merge/contextPairing.ts';
import { objectKeyOf } from '../../src/core/tree/linking.ts';
import { fleetTargetsOf } from '../../src/core/targeting/fleetTargets.ts';
import { ResourceGraph } from '../../src/core/tree/model.ts';
import * as k8s from '../../src/k8s/index.ts';
import type { Session } from '../../src/k8s/session.ts';
import type { ClusterClient } from '../../src/live/feedDependencies.ts';
import { LiveFeed } from '../../src/live/liveFeed.ts';
import { liveRootId } from '../../src/live/liveRoots.ts';
import { reportPendingWaits, until, type Trigger } from '../support/wait.ts';

afterEach(reportPendingWaits);

// Every test here has a hang guard, as its waits have no deadline of their own.
function it(name: string, fn: () => Promise<void>): void {
	void test(name, { timeout: 30_000 }, fn);
}

// ---------------------------------------------------------------------------------------------------------------
// Harness

/** A feed over demo clusters (timelines not playing), with every session it created. */
interface Harness {
	readonly demo: Demo;
	readonly graph: ResourceGraph;
	readonly feed: LiveFeed;
	/** Every session the feed created, in order, and those it disposed. */
	readonly sessions: Session[];
	readonly disposed: Set<Session>;
	/** Fires after every graph change the feed reports. */
	readonly graphChanged: Trigger;
	server(context: string): ApiServer;
	session(context: string): Session;
	close(): Promise<void>;
}

async function startHarness(options: {
	readonly clusters: readonly string[];
	readonly pairs?: readonly ContextPair[];
	/** Stands between the feed and the cluster client it loads (to hold the first load, as a slow import does). */
	readonly loadClient?: (client: ClusterClient) => Promise<ClusterClient>;
	readonly maxResponseBytes?: number;
	/** kubeStatusLens.clusters.bundleDeploymentThreshold (20,000 unless said). */
	readonly bundleDeploymentThreshold?: number;
	/** Told what the first sync's progress indicator says, in order. */
	readonly onProgress?: (message: string) => void;
}): Promise<Harness> {
	const dir = await mkdtemp(path.join(tmpdir(), 'ksl-live-'));
	const demo = await startDemo({
		kubeconfigPath: path.join(dir, 'kubeconfig'),
		play: false,
		clusters: options.clusters,
	});
	const graph = new ResourceGraph();
	const listeners = new Set<() => void>();
	const sessions: Session[] = [];
	const disposed = new Set<Session>();
	const client: ClusterClient = {
		loadKubeconfig: k8s.loadKubeconfig,
		toneOfState: k8s.toneOfState,
		createSession(sessionOptions) {
			const session = k8s.createSession(sessionOptions);
			const dispose = session.dispose.bind(session);
			session.dispose = () => {
				disposed.add(session);
				dispose();
			};
			sessions.push(session);
			return session;
		},
	};
	const feed = new LiveFeed({
		graph,
		onChanged: () => {
			for (const listener of [...listeners]) listener();
		},
		loadClient: () => options.loadClient?.(client) ?? Promise.resolve(client),
		readSettings: () => ({
			enabled: true,
			kubeconfig: demo.kubeconfigPath,
			contexts: options.clusters,
			namespaces: [],
			bundleDeploymentThreshold: options.bundleDeploymentThreshold ?? 20_000,
			kubestellarPairs: options.pairs ?? [],
			...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
		}),
		log: { info: () => undefined, warn: () => undefined },
		showProgress: (task) => task((message) => options.onProgress?.(message)),
	});
	return {
		demo,
		graph,
		feed,
		sessions,
		disposed,
		graphChanged(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		server(context) {
			const server = demo.servers.get(context);
			assert.ok(server, `the demo serves ${context}`);
			return server;
		},
		session(context) {
			const session = sessions.find((each) => each.context === context && !disposed.has(each));
			assert.ok(session, `an open session for ${context}`);
			return session;
		},
		async close() {
			feed.dispose();
			// Sessions a defect leaked must not keep the process alive.
			for (const session of sessions) session.dispose();
			await demo.stop();
			await rm(dir, { recursive: true, force: true });
		},
	};
}

async function withHarness(
	options: Parameters<typeof startHarness>[0],
	body: (harness: Harness) => Promise<void>,
): Promise<void> {
	const harness = await startHarness(options);
	try {
		await body(harness);
	} finally {
		await harness.close();
	}
}

function watchesChanged(server: ApiServer): Trigger {
	return (listener) => server.onWatchesChanged(listener);
}

function objectEvents(session: Session): Trigger {
	return (listener) => session.onObject(() => listener());
}

/** Resolves once every chosen context has a root whose session is ready (its first sync ended). */
function everyContextReady(harness: Harness, contexts: number): Promise<void> {
	return until(
		() =>
			harness.feed.summary.length === contexts &&
			harness.feed.summary.every((line) => line.endsWith(': ready')),
		() => `every context ready (${harness.feed.summary.join('; ')})`,
		[harness.graphChanged],
	);
}

const harborDr = {
	apiVersion: 'goharbor.io/v1beta1',
	kind: 'HarborCluster',
	metadata: { namespace: 'harbor-dr', name: 'harbor-dr' },
};

// ---------------------------------------------------------------------------------------------------------------
// Tests

describe('what the graph holds follows the cluster', () => {
	it('removes an object of the first list when the cluster deletes it', () =>
		withHarness({ clusters: ['platform'] }, async (harness) => {
			await harness.feed.start();
			await everyContextReady(harness, 1);
			const root = liveRootId('platform');
			const key = objectKeyOf(harborDr);
			assert.ok(harness.graph.objectOf(root, key), 'harbor-dr came with the first list');
			const count = harness.graph.objectCount(root);
			const session = harness.session('platform');

			harness.server('platform').store.deleteObject(harborDr);
			// The feed hears each event before this wait does: once the session's cache lacks the object, the
			// feed has had the removal.
			await until(() => session.store.get(key) === undefined, 'the session to see the deletion', [
				objectEvents(session),
			]);
			assert.equal(harness.graph.objectOf(root, key), undefined, 'harbor-dr left the root');
			assert.equal(harness.graph.objectCount(root), count - 1);
		}));

	it('takes a WorkStatus of the first list of an ITS context out of the paired WDS root when it is deleted', () =>
		withHarness(
			{
				clusters: ['kubestellar-wds', 'kubestellar-its'],
				pairs: [{ wds: 'kubestellar-wds', its: 'kubestellar-its', wdsName: 'wds1' }],
			},
			async (harness) => {
				await harness.feed.start();
				await everyContextReady(harness, 2);
				const wdsRoot = liveRootId('kubestellar-wds');
				const itsRoot = liveRootId('kubestellar-its');
				const workStatus = harness.graph
					.objectsOf(itsRoot)
					.find(
						(object) =>
							object.kind === 'WorkStatus' &&
							harness.graph.objectOf(wdsRoot, objectKeyOf(object)) !== undefined,
					);
				assert.ok(workStatus, 'a WorkStatus of the first list was copied into the WDS root');
				const key = objectKeyOf(workStatus);
				const session = harness.session('kubestellar-its');

				harness
					.server('kubestellar-its')
					.store.deleteObject(structuredClone(workStatus) as KubeObject);
				await until(
					() => session.store.get(key) === undefined,
					'the ITS session to see the deletion',
					[objectEvents(session)],
				);
				assert.equal(harness.graph.objectOf(wdsRoot, key), undefined, 'gone from the WDS root');
				assert.equal(harness.graph.objectOf(itsRoot, key), undefined, 'gone from the ITS root');
			},
		));
});

describe("the demo's targeting scene, read live", () => {
	it('reaches lab-1 through the mapping (Namespaces watched), and follows the relabel that moves sensors-agent', () =>
		withHarness({ clusters: ['fleet-mgmt'] }, async (harness) => {
			await harness.feed.start();
			await everyContextReady(harness, 1);
			const root = liveRootId('fleet-mgmt');
			const sensors = () =>
				fleetTargetsOf(harness.graph.objectsOf(root), {
					namespace: 'fleet-edge',
					name: 'sensors-agent',
				})[0];
			const where = () =>
				(sensors()?.clusters ?? []).map((cluster) => `${cluster.name} ${cluster.deployed}`);
			// lab-1 is a candidate only through the BundleNamespaceMapping, which needs the Namespace's labels.
			assert.deepEqual(where(), ['edge-eu-1 true', 'edge-us-1 false', 'lab-1 false']);
			const fleet = demoClusters.find((cluster) => cluster.name === 'fleet-mgmt');
			const store = harness.server('fleet-mgmt').store;
			const steps = fleet?.timeline(new Map([['fleet-mgmt', store]])) ?? [];
			const scene = steps.filter((step) => /sensors-agent/.test(step.description ?? ''));
			assert.equal(scene.length, 2);
			const bdOn = (cluster: string) =>
				harness.graph
					.objectsOf(root)
					.some(
						(object) =>
							(object as { kind?: string }).kind === 'BundleDeployment' &&
							(object as { metadata?: { labels?: Record<string, string> } }).metadata?.labels?.[
								'fleet.cattle.io/cluster'
							] === cluster,
					);
			for (const [index, step] of scene.entries()) {
				if (step.action.kind === 'run') step.action.run(store);
				const wanted = index === 0 ? [true, true] : [true, false];
				await until(
					() =>
						where().join() === 'edge-eu-1 false,edge-us-1 false,lab-1 true' &&
						bdOn('lab-1') === wanted[0] &&
						bdOn('edge-eu-1') === wanted[1],
					() => `after "${step.description ?? ''}": ${where().join()}`,
					[harness.graphChanged],
				);
			}
		}));
});

describe('BundleDeployments listed for an expanded node (roll-ups-only mode)', () => {
	it('are listed again when their Bundle changes, so a BundleDeployment that changed shows its new status', () =>
		withHarness({ clusters: ['fleet-mgmt'], bundleDeploymentThreshold: 3 }, async (harness) => {
			await harness.feed.start();
			await everyContextReady(harness, 1);
			const root = liveRootId('fleet-mgmt');
			const store = harness.server('fleet-mgmt').store;
			const type = store.typeOf('fleet.cattle.io/v1alpha1', 'BundleDeployment');
			assert.ok(type, 'the demo serves BundleDeployments');
			const deployments = store.all(type);
			// A Bundle with BundleDeployments, and its node, which lists them on demand.
			const bundleName = deployments
				.map((object) => (object.metadata as { labels?: Record<string, string> }).labels)
				.map((labels) => labels?.['fleet.cattle.io/bundle-name'])
				.find((name) => name !== undefined);
			assert.ok(bundleName, 'a BundleDeployment names its Bundle');
			const bundle = harness.graph
				.objectsOf(root)
				.find(
					(object) =>
						object.kind === 'Bundle' &&
						(object.metadata as { name?: string } | undefined)?.name === bundleName,
				);
			assert.ok(bundle, `Bundle ${bundleName} is in the root`);
			const node = harness.graph
				.findNodesForObject(root, objectKeyOf(bundle))
				.map((id) => harness.graph.node(id))
				.find((each) => each?.listOnDemand !== undefined);
			assert.ok(node, 'the Bundle lists its BundleDeployments on demand');
			assert.deepEqual(await harness.feed.list(node), { ok: true });
			const deployment = deployments.find(
				(object) =>
					(object.metadata as { labels?: Record<string, string> }).labels?.[
						'fleet.cattle.io/bundle-name'
					] === bundleName,
			);
			assert.ok(deployment);
			const key = objectKeyOf(deployment);
			assert.ok(harness.graph.objectOf(root, key), 'the list brought the BundleDeployment in');

			// The agent reports a failure, and Fleet's controllers (the demo's stand-in) write the Bundle's status.
			store.patchObject(
				deployment,
				'merge',
				{
					status: {
						ready: false,
						display: { state: 'ErrApplied', message: 'relisted: the new failure' },
					},
				},
				{ subresource: 'status' },
			);
			assert.ok(reconcileFleet(store) > 0, "Fleet's controllers wrote the Bundle's status");
			await until(
				() =>
					(harness.graph.objectOf(root, key)?.status as { display?: { message?: string } })?.display
						?.message === 'relisted: the new failure',
				'the BundleDeployment listed again with its new status',
				[harness.graphChanged],
			);
			assert.ok(harness.feed.hasListed(node), 'still listed for the expanded node');
		}));
});

describe('settings reach the cluster client', () => {
	it('refuses answers above kubeStatusLens.clusters.maxResponseMB and says which setting raises it', () =>
		withHarness({ clusters: ['platform'], maxResponseBytes: 100 }, async (harness) => {
			await harness.feed.start();
			await until(
				() => harness.feed.summary.some((line) => line.includes('maxResponseMB')),
				() => `the context to name the size limit (${harness.feed.summary.join('; ')})`,
				[harness.graphChanged],
			);
		}));
});

describe('restarts', () => {
	it('leaves one session per context when restarted while the contexts are still opening', async () => {
		let entered = (): void => undefined;
		const opening = new Promise<void>((resolve) => {
			entered = resolve;
		});
		let release = (): void => undefined;
		const released = new Promise<void>((resolve) => {
			release = resolve;
		});
		let loads = 0;
		await withHarness(
			{
				clusters: ['platform'],
				// The first load of the client is held, as the first use waits for dist/k8s.cjs to load.
				loadClient: async (client) => {
					if (++loads === 1) {
						entered();
						await released;
					}
					return client;
				},
			},
			async (harness) => {
				const server = harness.server('platform');
				const starting = harness.feed.start();
				await opening;
				// A settings change, then Choose Contexts, both while the first opening waits.
				const restarts = [harness.feed.restart(), harness.feed.restart()];
				release();
				await Promise.all([starting, ...restarts]);

				const open = (): Session[] =>
					harness.sessions.filter((session) => !harness.disposed.has(session));
				const watchesOf = (session: Session): number =>
					session.status().resources.filter((resource) => resource.state.kind === 'ready').length;
				// Every open session is ready and the server holds exactly their watches.
				await until(
					() =>
						open().length > 0 &&
						open().every((session) => session.status().state.kind === 'ready') &&
						server.openWatchCount() ===
							open().reduce((sum, session) => sum + watchesOf(session), 0),
					() =>
						`every open session ready with its watches (${open().length} open, ${server.openWatchCount()} watches)`,
					[harness.graphChanged, watchesChanged(server)],
				);
				const [session, ...leaked] = open();
				assert.ok(session);
				assert.equal(leaked.length, 0, `one session for the context, not ${open().length}`);
				assert.ok(watchesOf(session) > 0);
				assert.equal(server.openWatchCount(), watchesOf(session), "one context's worth of watches");
				assert.deepEqual(harness.feed.contexts, ['platform']);

				harness.feed.dispose();
				await until(
					() => server.openWatchCount() === 0,
					() => `every watch to close after dispose (${server.openWatchCount()} open)`,
					[watchesChanged(server)],
				);
			},
		);
	});

	it('opens nothing when disposed while the contexts are still opening', async () => {
		let entered = (): void => undefined;
		const opening = new Promise<void>((resolve) => {
			entered = resolve;
		});
		let release = (): void => undefined;
		const released = new Promise<void>((resolve) => {
			release = resolve;
		});
		await withHarness(
			{
				clusters: ['platform'],
				loadClient: async (client) => {
					entered();
					await released;
					return client;
				},
			},
			async (harness) => {
				const starting = harness.feed.start();
				await opening;
				harness.feed.dispose();
				release();
				await starting;
				assert.equal(harness.sessions.length, 0);
				assert.deepEqual(harness.graph.roots(), []);
			},
		);
	});
});

describe('a restart of a feed never started', () => {
	it('connects to nothing: a settings change must not start what the view never started', async () => {
		let loads = 0;
		await withHarness(
			{
				clusters: ['platform'],
				loadClient: (client) => {
					loads++;
					return Promise.resolve(client);
				},
			},
			async (harness) => {
				await harness.feed.restart();
				assert.equal(loads, 0, 'the cluster client was not even loaded');
				assert.equal(harness.sessions.length, 0);
				assert.deepEqual(harness.graph.roots(), []);
				// Once started, a restart opens again from the settings.
				await harness.feed.start();
				await harness.feed.restart();
				assert.equal(
					harness.sessions.filter((session) => !harness.disposed.has(session)).length,
					1,
				);
				assert.deepEqual(
					harness.graph.roots().map((root) => root.label),
					['platform'],
				);
			},
		);
	});
});

describe('consumers pause and resume the watches', () => {
	it('keeps the cache while paused and catches up with what changed meanwhile', () =>
		withHarness({ clusters: ['platform'] }, async (harness) => {
			const server = harness.server('platform');
			const root = liveRootId('platform');
			harness.feed.setConsumers(['tree']);
			await harness.feed.start();
			await everyContextReady(harness, 1);
			const count = harness.graph.objectCount(root);
			const harborProd = {
				apiVersion: 'goharbor.io/v1beta1',
				kind: 'HarborCluster',
				metadata: { namespace: 'harbor-prod', name: 'harbor-prod' },
			};
			const added = {
				apiVersion: 'goharbor.io/v1beta1',
				kind: 'HarborCluster',
				metadata: { namespace: 'harbor-dr', name: 'harbor-added' },
				spec: {},
			};

			harness.feed.setConsumers([]);
			await until(
				() =>
					server.openWatchCount() === 0 &&
					harness.feed.summary.every((line) => line.endsWith(': paused')),
				() =>
					`the watches to close (${server.openWatchCount()} open; ${harness.feed.summary.join('; ')})`,
				[watchesChanged(server), harness.graphChanged],
			);
			assert.equal(harness.graph.objectCount(root), count, 'the cache stays while paused');

			server.store.deleteObject(harborDr);
			server.store.put(added);
			const prod = server.store.find(harborProd);
			assert.ok(prod);
			server.store.put({
				...prod,
				metadata: { ...(prod.metadata as object), labels: { changed: 'while-paused' } },
			});
			assert.ok(
				harness.graph.objectOf(root, objectKeyOf(harborDr)),
				'nothing arrives while paused',
			);

			harness.feed.setConsumers(['status bar']);
			await until(
				() =>
					harness.graph.objectOf(root, objectKeyOf(harborDr)) === undefined &&
					harness.graph.objectOf(root, objectKeyOf(added)) !== undefined &&
					(
						harness.graph.objectOf(root, objectKeyOf(harborProd))?.metadata as
							{ labels?: Record<string, string> } | undefined
					)?.labels?.changed === 'while-paused',
				'the resumed watches to catch up',
				[harness.graphChanged],
			);
			await everyContextReady(harness, 1);
			assert.equal(harness.graph.objectCount(root), count);
			assert.equal(harness.sessions.length, 1, 'the same session resumed');
		}));
});

describe('loading states', () => {
	it('says a context is syncing until its first sync ends', () =>
		withHarness({ clusters: ['platform'] }, async (harness) => {
			await harness.feed.start();
			// The sessions have asked and nothing has answered yet: no I/O completes before this line.
			const root = (): string => harness.graph.node(liveRootId('platform'))?.description ?? '';
			assert.match(root(), /^syncing…/);
			assert.deepEqual(harness.feed.syncingContexts, ['platform']);
			assert.match(harness.feed.summary[0] ?? '', /^platform: syncing…/);

			await everyContextReady(harness, 1);
			assert.doesNotMatch(root(), /syncing/);
			assert.deepEqual(harness.feed.syncingContexts, []);
		}));

	it("words the first sync's progress as the status bar does: contexts still syncing, of those open", () => {
		const progress: string[] = [];
		const listeners = new Set<() => void>();
		const onProgress = (message: string): void => {
			progress.push(message);
			for (const listener of [...listeners]) listener();
		};
		return withHarness({ clusters: ['platform', 'fleet-mgmt'], onProgress }, async (harness) => {
			await harness.feed.start();
			assert.deepEqual(progress, ['syncing 2 of 2 contexts']);
			await until(
				() => progress.length === 2,
				() => `the progress to name the last context syncing: ${JSON.stringify(progress)}`,
				[
					(listener) => {
						listeners.add(listener);
						return () => listeners.delete(listener);
					},
				],
			);
			assert.match(progress[1] ?? '', /^syncing (platform|fleet-mgmt) \(1 of 2 contexts\)$/);
			await everyContextReady(harness, 2);
			assert.equal(progress.length, 2, 'nothing is said once every context synced');
		});
	});
});
