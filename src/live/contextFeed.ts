// One kube context into its graph root: the session's object events become the root's objects (and WorkStatus
// copies in paired WDS roots), its states become the root's state, and on-demand lists of BundleDeployments go in
// and out as nodes expand and collapse.
import { getString } from '../core/model/object.ts';
import type { Tone } from '../core/status/result.ts';
import type { BundleDeploymentQuery } from '../core/tree/linking.ts';
import type { RootState } from '../core/tree/treeNode.ts';
import type { ConnectionState } from '../k8s/connectionState.ts';
import type { Disposable, ObjectEvent } from '../k8s/events.ts';
import type { Session } from '../k8s/session.ts';
import type { SessionStatus } from '../k8s/sessionStatus.ts';
import type { GraphChanged, LiveGraph } from './feedDependencies.ts';
import { liveRootId } from './liveRoots.ts';
import { isWorkStatusResource, WorkStatusMirror } from './workStatusMirror.ts';

/** What an on-demand list ended with: listed (or withdrawn), or the failure in words. */
export type ListOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };

const onDemandPrefix = 'on-demand:';

/**
 * How long after a listed Bundle or Cluster changes its BundleDeployments are listed again: Fleet writes a Bundle's
 * status as its BundleDeployments change, often several times in a row, and one list answers them all. A node is
 * listed at most once per relistSpacingMs (a Bundle on a thousand clusters lists a thousand objects).
 */
const relistDelayMs = 500;
const relistSpacingMs = 2000;

/** The graph source of the BundleDeployments listed for one expanded node, per place (a Cluster shows in several). */
function onDemandSourceOf(nodeId: string): string {
	return `${onDemandPrefix}${nodeId}`;
}

/** States a user must act on: unreachable, login, permission, configuration, server errors. */
function isTroubled(state: ConnectionState): boolean {
	return !['ready', 'connecting', 'paused', 'not-installed'].includes(state.kind);
}

/** A context's session feeding its root, from construction until `close()`. */
export class ContextFeed {
	readonly context: string;
	readonly session: Session;
	private readonly rootId: string;
	private readonly graph: LiveGraph;
	private readonly onChanged: GraphChanged;
	private readonly toneOfState: (state: ConnectionState) => Tone;
	private readonly mirror: WorkStatusMirror;
	private readonly subscriptions: Disposable[];
	private state: ConnectionState | undefined;
	/** Until the first sync ends the root holds only part of the context, so it says it is syncing. */
	private firstSyncEnded = false;
	/** When the last list (the first, or the relist after a pause or a failure) ended. */
	private listEndedAt: number | undefined;
	/** Graph sources holding BundleDeployments listed for expanded nodes. */
	private readonly listed = new Set<string>();
	private readonly readAt = new Map<string, number>();
	/** Lists running now, by source; a collapse or close takes the ticket away. */
	private readonly pending = new Map<string, object>();
	/** Lists due again, by source: the listed node's object changed (see relistDelayMs). */
	private readonly relists = new Map<string, ReturnType<typeof setTimeout>>();

	constructor(options: {
		readonly session: Session;
		readonly graph: LiveGraph;
		readonly onChanged: GraphChanged;
		readonly toneOfState: (state: ConnectionState) => Tone;
		/** The WDS contexts a WorkStatus of this context is copied to. */
		readonly wdsContextsOf: (workStatus: unknown) => readonly string[];
	}) {
		this.session = options.session;
		this.context = options.session.context;
		this.rootId = liveRootId(this.context);
		this.graph = options.graph;
		this.onChanged = options.onChanged;
		this.toneOfState = options.toneOfState;
		this.mirror = new WorkStatusMirror(
			this.graph,
			this.onChanged,
			this.context,
			options.wdsContextsOf,
		);
		this.onChanged(this.graph.addRoot(this.rootId, this.context, 'live'));
		this.onChanged(
			this.graph.setRootState(this.rootId, {
				tone: 'progressing',
				message: 'syncing…',
				partial: true,
			}),
		);
		this.subscriptions = [
			this.session.onObject((event) => this.applyObjectEvent(event)),
			this.session.onState((status) => this.applyStatus(status)),
		];
	}

	/** The context's state in words, for the status bar. */
	get stateText(): string {
		const state = this.state;
		if (!state) return 'connecting…';
		if (state.kind === 'ready') return 'ready';
		return this.isFirstSync(state) ? `syncing… (${state.message})` : state.message;
	}

	/** Whether the context cannot be used now and a user must act (unreachable, login, permission...). */
	get troubled(): boolean {
		return this.state !== undefined && isTroubled(this.state);
	}

	/** When the last list ended (from then on the watches keep the root current), or undefined before the first. */
	get syncedAt(): number | undefined {
		return this.listEndedAt;
	}

	/** Whether the session is listing now: what the root shows is not yet all the context holds. */
	get syncing(): boolean {
		return this.state?.kind === 'connecting';
	}

	/** Lists the BundleDeployments of an expanded Bundle or Cluster (roll-ups-only mode) into the root. */
	async list(nodeId: string, query: BundleDeploymentQuery): Promise<ListOutcome> {
		const source = onDemandSourceOf(nodeId);
		const ticket = {};
		this.pending.set(source, ticket);
		const listed = await this.session.listBundleDeployments(query.labelSelector, query.namespace);
		// A collapse or a close while the list ran withdrew it: its answer must not land in the graph.
		if (this.pending.get(source) !== ticket) return { ok: true };
		this.pending.delete(source);
		if (listed.kind === 'failed') return { ok: false, message: listed.state.message };
		// The session may have switched to watching every BundleDeployment while the list ran.
		if (!this.graph.node(nodeId)?.listOnDemand) return { ok: true };
		this.listed.add(source);
		this.readAt.set(source, Date.now());
		this.onChanged(
			this.graph.setSourceObjects(
				this.rootId,
				source,
				listed.objects.map((object) => ({ object })),
			),
		);
		return { ok: true };
	}

	/** Whether what was listed for a node is still in the root. */
	hasListed(nodeId: string): boolean {
		return this.listed.has(onDemandSourceOf(nodeId));
	}

	/** Forgets what was listed for a node that collapsed, and withdraws a list still running for it. */
	release(nodeId: string): void {
		const source = onDemandSourceOf(nodeId);
		this.pending.delete(source);
		clearTimeout(this.relists.get(source));
		this.relists.delete(source);
		if (!this.listed.delete(source)) return;
		this.onChanged(this.graph.removeSource(this.rootId, source));
	}

	/**
	 * Stops listening, withdraws running lists, takes the WorkStatus copies out of other roots and ends the session.
	 * The root stays: the caller removes the roots once every context let go of its copies.
	 */
	close(): void {
		for (const subscription of this.subscriptions) subscription.dispose();
		this.pending.clear();
		for (const timer of this.relists.values()) clearTimeout(timer);
		this.relists.clear();
		this.mirror.clear();
		this.session.dispose();
	}

	/** When something of a source (a resource, or an on-demand list) was last read from the cluster. */
	lastReadAt(source: string): number | undefined {
		return this.readAt.get(source);
	}

	private applyObjectEvent(event: ObjectEvent): void {
		this.readAt.set(event.resource, Date.now());
		if (isWorkStatusResource(event.resource)) this.mirror.apply(event);
		switch (event.type) {
			case 'upsert':
				this.onChanged(this.graph.upsertObject(this.rootId, event.resource, event.object));
				if (this.listed.size > 0) this.relistIfListed(event.object);
				break;
			case 'remove':
				// The session keys objects with the graph's objectKeyOf, so the key is the graph's. Objects of a
				// list come without one, so a key map filled from upserts alone would miss their removal.
				this.onChanged(this.graph.removeObject(this.rootId, event.resource, event.key));
				break;
			case 'resync':
				this.onChanged(
					this.graph.setSourceObjects(
						this.rootId,
						event.resource,
						event.objects.map((object) => ({ object })),
					),
				);
				break;
		}
		if (this.listed.size > 0) this.releaseMoved();
	}

	/**
	 * What was listed for a Bundle or Cluster is a snapshot; when the object itself changes (Fleet writes its status as
	 * its BundleDeployments change), its BundleDeployments are listed again, so the rows under it and the matrix,
	 * which shows them rather than the object's summary, keep up with the cluster.
	 */
	private relistIfListed(object: unknown): void {
		const kind = getString(object, 'kind');
		const name = getString(object, 'metadata', 'name');
		const namespace = getString(object, 'metadata', 'namespace') ?? '';
		for (const source of this.listed) {
			const nodeId = source.slice(onDemandPrefix.length);
			const ref = this.graph.node(nodeId)?.ref;
			if (!ref || ref.kind !== kind || ref.name !== name || ref.namespace !== namespace) continue;
			if (this.relists.has(source)) continue;
			this.relists.set(
				source,
				setTimeout(
					() => {
						this.relists.delete(source);
						const query = this.graph.node(nodeId)?.listOnDemand;
						if (!query || !this.listed.has(source)) return;
						// A failed list leaves the last one in place.
						void this.list(nodeId, query).catch(() => undefined);
					},
					Math.max(relistDelayMs, (this.readAt.get(source) ?? 0) + relistSpacingMs - Date.now()),
				),
			);
		}
	}

	/**
	 * A listed node can move (a Bundle's repo label, a Cluster leaving a ClusterGroup): its tree id changes and no
	 * collapse will come for the old one, so its list goes now rather than staying stale in the root.
	 */
	private releaseMoved(): void {
		for (const source of [...this.listed]) {
			const nodeId = source.slice(onDemandPrefix.length);
			if (this.graph.node(nodeId)?.listOnDemand) continue;
			this.listed.delete(source);
			this.onChanged(this.graph.removeSource(this.rootId, source));
		}
	}

	private applyStatus(status: SessionStatus): void {
		const state = status.state;
		const wasListing = this.state === undefined || this.state.kind === 'connecting';
		this.state = state;
		if (state.kind !== 'connecting' && state.kind !== 'paused') {
			this.firstSyncEnded = true;
			if (wasListing) this.listEndedAt = Date.now();
		}
		const rollupsOnly = status.bundleDeployments.mode === 'roll-ups-only';
		if (!rollupsOnly) this.releaseAll();
		this.onChanged(this.graph.setRollupsFromController(this.rootId, rollupsOnly));
		this.onChanged(this.graph.setRootState(this.rootId, this.rootStateOf(status)));
	}

	/** What the root says about the context: nothing more when ready, else its state, and the mode. */
	private rootStateOf(status: SessionStatus): RootState | undefined {
		const state = status.state;
		const { mode, count, atLeast, threshold } = status.bundleDeployments;
		const rollupsOnly = mode === 'roll-ups-only';
		if (state.kind === 'ready') {
			if (!rollupsOnly) return undefined;
			const counted = count === undefined ? 'More' : `${count}${atLeast ? ' or more' : ''}`;
			return {
				tone: 'ok',
				message: 'roll-ups only',
				detail: `${counted} BundleDeployments, above kubeStatusLens.clusters.bundleDeploymentThreshold (${threshold}): GitRepos, Bundles and Clusters show the roll-ups Fleet's controllers wrote, and a Bundle or Cluster lists its BundleDeployments when you expand it.`,
			};
		}
		const words = this.isFirstSync(state) ? 'syncing…' : state.message;
		return {
			tone: this.toneOfState(state),
			message: rollupsOnly ? `${words} · roll-ups only` : words,
			...(words === state.message ? {} : { detail: state.message }),
			...(this.isFirstSync(state) ? { partial: true } : {}),
		};
	}

	private isFirstSync(state: ConnectionState): boolean {
		return !this.firstSyncEnded && state.kind === 'connecting';
	}

	private releaseAll(): void {
		for (const source of this.listed) {
			this.onChanged(this.graph.removeSource(this.rootId, source));
		}
		this.listed.clear();
	}
}
