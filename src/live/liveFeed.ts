// Live kube contexts in the resource graph: one root per chosen context, fed by a Session's watches (contextFeed.ts),
// opened from the settings and the kubeconfig, restarted when they change, and paused while nothing uses the data.
// No vscode here: a front end injects settings, log, progress and the cluster client (feedDependencies.ts).
//
// Openings are serialised: a restart (or dispose) makes the opening in flight stop at its next step, and the next
// opening begins only once that one has settled, so a context never has two sessions.
import { liveReadLine } from '../core/explain/objectFacts.ts';
import { wdsContextsOf } from '../core/merge/contextPairing.ts';
import type { TreeNode } from '../core/tree/treeNode.ts';
import type { MergedKubeconfig } from '../k8s/kubeconfig.ts';
import { ContextFeed, type ListOutcome } from './contextFeed.ts';
import type { FeedDependencies } from './feedDependencies.ts';
import { contextOfLiveRoot, liveContextOf, liveRootId } from './liveRoots.ts';
import { syncingText } from './syncingText.ts';

/** How long the first-sync progress shows at most: it must never spin on. */
const firstSyncProgressMs = 60_000;

/** The live contexts of the graph, for a front end: open, restart, pause, list on demand, report states. */
export class LiveFeed {
	private readonly deps: FeedDependencies;
	private readonly feeds = new Map<string, ContextFeed>();
	/** The opening in flight or last done; `start()` returns it, a restart waits for it to settle. */
	private opening: Promise<void> | undefined;
	/** Goes up with every restart and at dispose: an opening that finds it changed stops where it is. */
	private generation = 0;
	private disposed = false;
	private paused = false;
	private using = new Set<string>();
	private kubeconfigRead: MergedKubeconfig | undefined;
	/** Ends the first-sync progress of the sessions that close. */
	private closing = new AbortController();

	constructor(deps: FeedDependencies) {
		this.deps = deps;
	}

	/** The kubeconfig the sessions were opened with, for actions on live objects. */
	get kubeconfig(): MergedKubeconfig | undefined {
		return this.kubeconfigRead;
	}

	/** The contexts with a root now. */
	get contexts(): string[] {
		return [...this.feeds.keys()];
	}

	/** Each open context with its state in words ("platform: ready"), for the status bar. */
	get summary(): string[] {
		return [...this.feeds.values()].map((feed) => `${feed.context}: ${feed.stateText}`);
	}

	/** The open contexts that cannot be used now (cannot reach, login required, forbidden, server error). */
	get troubledContexts(): string[] {
		return [...this.feeds.values()].filter((feed) => feed.troubled).map((feed) => feed.context);
	}

	/** The open contexts listing now, whose roots do not yet hold all the cluster does. */
	get syncingContexts(): string[] {
		return [...this.feeds.values()].filter((feed) => feed.syncing).map((feed) => feed.context);
	}

	/** What uses the live data now (the tree, the status bar, a live CodeLens, a merge preview). */
	get consumers(): readonly string[] {
		return [...this.using];
	}

	/** An open context's state in words and when its last list ended; undefined for a context that is not open. */
	freshnessOf(context: string): { readonly state: string; readonly syncedAt?: number } | undefined {
		const feed = this.feeds.get(context);
		if (!feed) return undefined;
		return {
			state: feed.stateText,
			...(feed.syncedAt === undefined ? {} : { syncedAt: feed.syncedAt }),
		};
	}

	/** Settles once each of these open contexts has answered its lists (with objects or a failure). */
	async synced(contexts: readonly string[]): Promise<void> {
		await Promise.all(
			contexts.map((context) => this.feeds.get(context)?.session.synced() ?? Promise.resolve()),
		);
	}

	/** Reads the kubeconfig and opens a session per chosen context (once; `restart` reads everything again). */
	start(): Promise<void> {
		if (this.disposed) return Promise.resolve();
		this.opening ??= this.open(this.generation);
		return this.opening;
	}

	/**
	 * Closes every session and opens them again from the current settings and kubeconfig. An opening still in
	 * flight is cancelled and waited for first; of restarts in quick succession only the last opens. A feed never
	 * started stays so: a settings change does not connect to clusters that nothing has shown.
	 */
	restart(): Promise<void> {
		if (this.disposed || this.opening === undefined) return Promise.resolve();
		const generation = ++this.generation;
		const previous = this.opening;
		this.opening = (async () => {
			// Its failure was reported to whoever awaited it; this opening starts afresh either way.
			await previous?.catch(() => undefined);
			if (generation !== this.generation) return;
			this.closeAll();
			await this.open(generation);
		})();
		return this.opening;
	}

	/**
	 * Watches run while anything uses them and pause, keeping the cache, when nothing does; they resync when
	 * something uses them again.
	 */
	setConsumers(consumers: Iterable<string>): void {
		this.using = new Set(consumers);
		if (this.using.size === 0) this.pause();
		else this.resume();
	}

	/** Lists the BundleDeployments of an expanded Bundle or Cluster in a roll-ups-only context into the graph. */
	list(node: TreeNode): Promise<ListOutcome> {
		const feed = this.feedOf(node);
		const query = node.listOnDemand;
		if (!feed || !query) {
			return Promise.resolve({ ok: false, message: 'the context is no longer open' });
		}
		return feed.list(node.id, query);
	}

	/** Whether what was listed for a node is still in the graph (a restart or a mode change drops it). */
	hasListed(node: TreeNode): boolean {
		return this.feedOf(node)?.hasListed(node.id) === true;
	}

	/** Forgets what was listed for a node that collapsed, and withdraws a list still running for it. */
	release(node: TreeNode): void {
		this.feedOf(node)?.release(node.id);
	}

	/** Where a live node's object was read, for its tooltip; undefined for a node that is not live. */
	readLineOf(node: TreeNode, now: number): string | undefined {
		const context = liveContextOf(node);
		const feed = context === undefined ? undefined : this.feeds.get(context);
		if (context === undefined || !feed) return undefined;
		const readAt = (node.sources ?? [])
			.map((source) => feed.lastReadAt(source.sourceId))
			.reduce<number | undefined>(
				(latest, at) => (at !== undefined && (latest === undefined || at > latest) ? at : latest),
				undefined,
			);
		return liveReadLine(context, feed.stateText, readAt, now);
	}

	/** Every context the kubeconfig defines, and the current one. */
	async availableContexts(): Promise<{ contexts: string[]; current?: string }> {
		const client = await this.deps.loadClient();
		const kubeconfig = await client.loadKubeconfig(
			this.kubeconfigOptions(this.deps.readSettings().kubeconfig),
		);
		return {
			contexts: kubeconfig.contexts.map((context) => context.name),
			...(kubeconfig.currentContext ? { current: kubeconfig.currentContext } : {}),
		};
	}

	/** Closes every session for good; an opening in flight stops. */
	dispose(): void {
		this.disposed = true;
		this.generation++;
		this.closeAll();
	}

	private feedOf(node: TreeNode): ContextFeed | undefined {
		const context = contextOfLiveRoot(node.rootId);
		return context === undefined ? undefined : this.feeds.get(context);
	}

	private kubeconfigOptions(path: string): { explicitPath?: string } {
		return path ? { explicitPath: path } : {};
	}

	/** Stops the watches while nothing shows them; the cache stays and resyncs on resume. */
	private pause(): void {
		this.paused = true;
		for (const feed of this.feeds.values()) feed.session.pause();
	}

	/** Resumes paused watches (a relist brings the cache up to date). */
	private resume(): void {
		if (!this.paused) return;
		this.paused = false;
		for (const feed of this.feeds.values()) feed.session.start();
	}

	/** Opens the chosen contexts, unless a restart or dispose makes `generation` stale on the way. */
	private async open(generation: number): Promise<void> {
		const settings = this.deps.readSettings();
		if (!settings.enabled) return;
		const client = await this.deps.loadClient();
		if (generation !== this.generation) return;
		const kubeconfig = await client.loadKubeconfig(this.kubeconfigOptions(settings.kubeconfig));
		if (generation !== this.generation) return;
		// From here on nothing waits: the sessions below belong to this generation alone.
		const { log } = this.deps;
		this.kubeconfigRead = kubeconfig;
		for (const problem of kubeconfig.problems) log.warn(`kubeconfig: ${problem.message}`);
		const chosen = [
			...new Set(
				settings.contexts.length > 0
					? settings.contexts
					: kubeconfig.currentContext
						? [kubeconfig.currentContext]
						: [],
			),
		];
		if (chosen.length === 0) {
			log.info('No kube context chosen and no current context: live clusters are off.');
			return;
		}
		for (const context of chosen) {
			const session = client.createSession({
				kubeconfig,
				context,
				...(settings.namespaces.length > 0 ? { namespaces: settings.namespaces } : {}),
				bundleDeploymentThreshold: settings.bundleDeploymentThreshold,
				...(settings.maxResponseBytes ? { maxResponseBytes: settings.maxResponseBytes } : {}),
				log: (message) => log.warn(`${context}: ${message}`),
			});
			const feed = new ContextFeed({
				session,
				graph: this.deps.graph,
				onChanged: this.deps.onChanged,
				toneOfState: client.toneOfState,
				wdsContextsOf: (workStatus) =>
					wdsContextsOf(workStatus, context, settings.kubestellarPairs, chosen),
			});
			this.feeds.set(context, feed);
			if (this.paused) session.pause();
			else session.start();
			log.info(`Watching context ${context}.`);
		}
		if (!this.paused) this.showFirstSync([...this.feeds.values()]);
	}

	/**
	 * A progress indicator while the sessions' first sync runs (discovery and every first list answered, with
	 * objects or a failure that the roots then show); bounded, and ended when the sessions close.
	 */
	private showFirstSync(feeds: readonly ContextFeed[]): void {
		if (feeds.length === 0) return;
		const closing = this.closing.signal;
		const pending = new Set(feeds.map((feed) => feed.context));
		void this.deps.showProgress(async (report) => {
			const say = (): void => {
				if (pending.size > 0) report(syncingText([...pending], feeds.length));
			};
			say();
			const synced = Promise.all(
				feeds.map((feed) =>
					feed.session.synced().then(() => {
						pending.delete(feed.context);
						say();
					}),
				),
			);
			let timer: ReturnType<typeof setTimeout> | undefined;
			let onClose: (() => void) | undefined;
			await Promise.race([
				synced,
				new Promise<void>((resolve) => {
					timer = setTimeout(resolve, firstSyncProgressMs);
					onClose = resolve;
					closing.addEventListener('abort', onClose, { once: true });
				}),
			]);
			clearTimeout(timer);
			if (onClose) closing.removeEventListener('abort', onClose);
		});
	}

	private closeAll(): void {
		this.closing.abort();
		this.closing = new AbortController();
		const feeds = [...this.feeds.values()];
		this.feeds.clear();
		// Every context first lets go of what it put in other roots (WorkStatus copies), then the roots go.
		for (const feed of feeds) feed.close();
		const { graph, onChanged } = this.deps;
		for (const feed of feeds) onChanged(graph.removeRoot(liveRootId(feed.context)));
	}
}
