// Kube contexts for `kube-status-lens mcp`: the extension's kubeconfig handling (src/k8s, loaded lazily as
// dist/k8s.cjs, which needs Node 22) fed through src/live into the server's graph. A tool call that names a context
// opens it the first time, counts as a consumer while it runs (the watches run, then pause keeping the cache) and
// waits a bounded time for the first sync, answering with what the root holds then and how old it is.
import { readKubeEvents, type KubeEvent } from '../core/model/kubeEvent.ts';
import type { ContextPair } from '../core/merge/contextPairing.ts';
import { getString } from '../core/model/object.ts';
import type { ResourceGraph } from '../core/tree/model.ts';
import type { ClusterClient } from '../live/feedDependencies.ts';
import { LiveFeed } from '../live/liveFeed.ts';
import { liveRootId } from '../live/liveRoots.ts';

/** The Node major version the cluster client needs (client-node 2 and the bundle's target). */
const clusterNodeMajor = 22;

/** How long a call waits for a context's first sync before it answers with what it has. */
const firstSyncWaitMs = 10_000;

/** How long an explanation waits for an object's Events. */
const eventsWaitMs = 4_000;

/** Why contexts cannot be read on this Node, or undefined when they can. */
export function contextsUnavailable(nodeVersion = process.versions.node): string | undefined {
	const major = Number(nodeVersion.split('.')[0]);
	return Number.isFinite(major) && major < clusterNodeMajor
		? `contexts need Node ${clusterNodeMajor} or later (this is Node ${nodeVersion}); paths still work`
		: undefined;
}

/** A context's root as a tool sees it: its state in words and when it was last read whole. */
export interface ContextRoot {
	readonly rootId: string;
	readonly context: string;
	readonly syncedAt?: number;
	readonly note?: string;
}

/** The contexts the server reads: opened on demand or from the command line, sessions kept between calls. */
export class McpContexts {
	private readonly graph: ResourceGraph;
	private readonly log: (line: string) => void;
	private readonly chosen: string[] = [];
	private feed: LiveFeed | undefined;
	/** Calls running now: the watches run while there is one. */
	private calls = 0;

	private readonly pairs: readonly ContextPair[];

	constructor(
		graph: ResourceGraph,
		log: (line: string) => void,
		pairs: readonly ContextPair[] = [],
	) {
		this.graph = graph;
		this.log = log;
		this.pairs = pairs;
	}

	/** The contexts a call on `contexts` reads: those, and the other half of each KubeStellar pair they are in. */
	private withPartners(contexts: readonly string[]): string[] {
		const all = new Set(contexts);
		for (const pair of this.pairs) {
			if (all.has(pair.wds) || all.has(pair.its)) {
				all.add(pair.wds);
				all.add(pair.its);
			}
		}
		return [...all];
	}

	/** The contexts opened so far. */
	get open(): readonly string[] {
		return [...this.chosen];
	}

	private feedOf(): LiveFeed {
		this.feed ??= new LiveFeed({
			graph: this.graph,
			onChanged: () => undefined,
			// The cluster bundle, only now: status, check and merge never load it.
			loadClient: async (): Promise<ClusterClient> => await import('../k8s/index.ts'),
			readSettings: () => ({
				enabled: true,
				kubeconfig: '',
				contexts: this.chosen,
				namespaces: [],
				bundleDeploymentThreshold: 20_000,
				kubestellarPairs: this.pairs,
			}),
			log: {
				info: (message) => this.log(message),
				warn: (message) => this.log(message),
			},
			showProgress: (task) => task(() => undefined),
		});
		return this.feed;
	}

	/** Every context the kubeconfig (KUBECONFIG, else ~/.kube/config) defines. */
	async available(): Promise<{ contexts: string[]; current?: string }> {
		return this.feedOf().availableContexts();
	}

	/**
	 * Opens these contexts (once each), runs their watches while `use` runs, and waits up to 10 s for their first
	 * sync before calling it; returns what `use` returns.
	 */
	async using<T>(
		contexts: readonly string[],
		use: (roots: ContextRoot[]) => T | Promise<T>,
	): Promise<T> {
		const feed = this.feedOf();
		const read = this.withPartners(contexts);
		const added = read.filter((context) => !this.chosen.includes(context));
		if (added.length > 0) {
			for (const context of added) this.chosen.push(context);
			await (this.chosen.length === added.length ? feed.start() : feed.restart());
		}
		this.calls++;
		feed.setConsumers(["an assistant's tool call"]);
		try {
			let timer: NodeJS.Timeout | undefined;
			await Promise.race([
				feed.synced(read),
				new Promise((resolve) => {
					timer = setTimeout(resolve, firstSyncWaitMs);
				}),
			]);
			clearTimeout(timer);
			return await use(
				contexts.map((context) => {
					const freshness = feed.freshnessOf(context);
					return {
						rootId: liveRootId(context),
						context,
						...(freshness?.syncedAt === undefined ? {} : { syncedAt: freshness.syncedAt }),
						...(freshness && freshness.state !== 'ready' ? { note: freshness.state } : {}),
					};
				}),
			);
		} finally {
			this.calls--;
			if (this.calls === 0) feed.setConsumers([]);
		}
	}

	/** The Events of an object of an open context, newest or not; none when they cannot be read within 4 s. */
	async eventsOf(context: string, object: Readonly<Record<string, unknown>>): Promise<KubeEvent[]> {
		const kubeconfig = this.feed?.kubeconfig;
		if (!kubeconfig) return [];
		const k8s = await import('../k8s/index.ts');
		const uid = getString(object, 'metadata', 'uid');
		const namespace = getString(object, 'metadata', 'namespace');
		const answer = await k8s.listEvents(
			kubeconfig,
			context,
			{
				apiVersion: getString(object, 'apiVersion') ?? '',
				kind: getString(object, 'kind') ?? '',
				name: getString(object, 'metadata', 'name') ?? '',
				...(namespace ? { namespace } : {}),
				...(uid ? { uid } : {}),
			},
			{ requestTimeoutMs: eventsWaitMs },
		);
		return answer.ok ? readKubeEvents(answer.events) : [];
	}

	/** Closes every session. */
	dispose(): void {
		this.feed?.dispose();
	}
}
