import * as vscode from 'vscode';
import { type ChangedNodes, type ResourceGraph } from '../../core/tree/model.ts';
import { copiedSourcePrefix } from '../../core/tree/graphState.ts';
import { objectKeyOf } from '../../core/tree/linking.ts';
import { type TreeNode } from '../../core/tree/treeNode.ts';
import type { MergedKubeconfig } from '../../k8s/kubeconfig.ts';
import type { ObjectEvent } from '../../k8s/events.ts';
import type { Session } from '../../k8s/session.ts';
import { wdsContextsOf } from '../../core/merge/contextPairing.ts';
import type { Log } from '../log.ts';
import { readClusterSettings } from '../settings.ts';
import type { OnDemandChildren } from '../tree/resourceTreeProvider.ts';

/** The graph source of the BundleDeployments listed for one expanded node, per place (a Cluster shows in several). */
function onDemandSourceOf(node: TreeNode): string {
	return `on-demand:${node.id}`;
}

/** The tree root id of a kube context. */
export function liveRootId(context: string): string {
	return `live:${context}`;
}

/**
 * Live clusters in the tree: one root per chosen kube context, fed by a Session's watch events. client-node is
 * loaded only here, with a dynamic import, the first time a live root is needed, so activation stays light.
 */
export class LiveClusters implements vscode.Disposable, OnDemandChildren {
	private readonly graph: ResourceGraph;
	private readonly log: Log;
	private readonly onChanged: (changes: ChangedNodes) => void;
	private readonly sessions = new Map<
		string,
		{
			session: Session;
			keys: Map<string, string>;
			disposables: vscode.Disposable[];
			/** Graph sources holding BundleDeployments listed for expanded nodes. */
			listed: Set<string>;
			/** Lists running now, by source; a collapse takes the ticket away. */
			pending: Map<string, object>;
		}
	>();
	private started: Promise<void> | undefined;
	private paused = false;
	private using = new Set<string>();
	private merged: MergedKubeconfig | undefined;
	private readonly states = new Map<string, string>();
	/** Contexts whose connection has a problem a user must act on (unreachable, login, permission, config). */
	private readonly troubled = new Set<string>();
	/** Settles when the first sync of the open sessions has ended (or its progress gave up waiting). */
	firstSync: Promise<void> = Promise.resolve();

	constructor(graph: ResourceGraph, log: Log, onChanged: (changes: ChangedNodes) => void) {
		this.graph = graph;
		this.log = log;
		this.onChanged = onChanged;
	}

	/** The kubeconfig the sessions were opened with, for actions on live objects. */
	get kubeconfig(): MergedKubeconfig | undefined {
		return this.merged;
	}

	/** Each context in use with its connection state in words, for the status bar. */
	get summary(): string[] {
		return this.contexts.map(
			(context) => `${context}: ${this.states.get(context) ?? 'connecting…'}`,
		);
	}

	/** The open contexts that cannot be used now (cannot reach, login required, forbidden, server error). */
	get troubledContexts(): string[] {
		return this.contexts.filter((context) => this.troubled.has(context));
	}

	/** The contexts with a root now. */
	get contexts(): string[] {
		return [...this.sessions.keys()];
	}

	/** Reads the kubeconfig and opens a session per chosen context (once; `restart` reads everything again). */
	start(): Promise<void> {
		this.started ??= this.open();
		return this.started;
	}

	/** Closes every session and opens them again from the current settings and kubeconfig. */
	async restart(): Promise<void> {
		this.closeAll();
		this.started = this.open();
		await this.started;
	}

	/** What uses the live data now (the tree, the status bar, a live CodeLens, a merge preview). */
	get consumers(): readonly string[] {
		return [...this.using];
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

	/** Stops the watches while nothing shows them; the cache stays and resyncs on resume. */
	pause(): void {
		this.paused = true;
		for (const { session } of this.sessions.values()) session.pause();
	}

	/** Resumes paused watches (a relist brings the cache up to date). */
	resume(): void {
		if (!this.paused) return;
		this.paused = false;
		for (const { session } of this.sessions.values()) session.start();
	}

	/** Lists the BundleDeployments of an expanded Bundle or Cluster in a roll-ups-only context into the graph. */
	async list(
		node: TreeNode,
	): Promise<{ readonly ok: true } | { readonly ok: false; readonly message: string }> {
		const context = node.rootId.slice('live:'.length);
		const open = this.sessions.get(context);
		const query = node.listOnDemand;
		if (!open || !query || !node.rootId.startsWith('live:')) {
			return { ok: false, message: 'the context is no longer open' };
		}
		const source = onDemandSourceOf(node);
		// A collapse while the list runs withdraws it: its answer must not land in the graph.
		const ticket = {};
		open.pending.set(source, ticket);
		const listed = await open.session.listBundleDeployments(query.labelSelector, query.namespace);
		if (open.pending.get(source) !== ticket) return { ok: true };
		open.pending.delete(source);
		if (listed.kind === 'failed') return { ok: false, message: listed.state.message };
		// The session may have closed, or switched to watching every BundleDeployment, while the list ran.
		if (this.sessions.get(context) !== open || !this.graph.node(node.id)?.listOnDemand) {
			return { ok: true };
		}
		open.listed.add(source);
		this.onChanged(
			this.graph.setSourceObjects(
				node.rootId,
				source,
				listed.objects.map((object) => ({ object })),
			),
		);
		return { ok: true };
	}

	/** Whether what was listed for a node is still in the graph (a restart or a mode change drops it). */
	hasListed(node: TreeNode): boolean {
		return (
			this.sessions.get(node.rootId.slice('live:'.length))?.listed.has(onDemandSourceOf(node)) ===
			true
		);
	}

	/** Forgets what was listed for a node that collapsed, and withdraws a list still running for it. */
	release(node: TreeNode): void {
		const open = this.sessions.get(node.rootId.slice('live:'.length));
		const source = onDemandSourceOf(node);
		open?.pending.delete(source);
		if (!open?.listed.delete(source)) return;
		this.onChanged(this.graph.removeSource(node.rootId, source));
	}

	private releaseAll(rootId: string, listed: Set<string>): void {
		for (const source of listed) this.onChanged(this.graph.removeSource(rootId, source));
		listed.clear();
	}

	/** Every context the kubeconfig defines, and the current one. */
	async availableContexts(): Promise<{ contexts: string[]; current?: string }> {
		const { loadKubeconfig } = await import('../../k8s/index.ts');
		const settings = readClusterSettings();
		const merged = await loadKubeconfig(
			settings.kubeconfig ? { explicitPath: settings.kubeconfig } : {},
		);
		return {
			contexts: merged.contexts.map((context) => context.name),
			...(merged.currentContext ? { current: merged.currentContext } : {}),
		};
	}

	private async open(): Promise<void> {
		const settings = readClusterSettings();
		if (!settings.enabled) return;
		const { loadKubeconfig, createSession, toneOfState } = await import('../../k8s/index.ts');
		const merged = await loadKubeconfig(
			settings.kubeconfig ? { explicitPath: settings.kubeconfig } : {},
		);
		this.merged = merged;
		for (const problem of merged.problems) this.log.warn(`kubeconfig: ${problem.message}`);
		const chosen =
			settings.contexts.length > 0
				? settings.contexts
				: merged.currentContext
					? [merged.currentContext]
					: [];
		if (chosen.length === 0) {
			this.log.info('No kube context chosen and no current context: live clusters are off.');
			return;
		}
		for (const context of chosen) {
			const rootId = liveRootId(context);
			this.onChanged(this.graph.addRoot(rootId, context, 'live'));
			this.onChanged(
				this.graph.setRootState(rootId, { tone: 'progressing', message: 'connecting…' }),
			);
			const session = createSession({
				kubeconfig: merged,
				context,
				...(settings.namespaces.length > 0 ? { namespaces: settings.namespaces } : {}),
				bundleDeploymentThreshold: settings.bundleDeploymentThreshold,
				log: (message) => this.log.warn(`${context}: ${message}`),
			});
			const keys = new Map<string, string>();
			const listed = new Set<string>();
			const mirror = new WorkStatusMirror(
				this.graph,
				context,
				(object) => wdsContextsOf(object, context, settings.kubestellarPairs, chosen),
				this.onChanged,
			);
			const disposables = [
				{ dispose: () => mirror.clear() },
				session.onObject((event) => {
					if (isWorkStatusResource(event.resource)) mirror.apply(event);
					if (event.type === 'upsert') {
						const key = objectKeyOf(event.object);
						keys.set(event.key, key);
						this.onChanged(this.graph.upsertObject(rootId, event.resource, event.object));
					} else if (event.type === 'remove') {
						const key = keys.get(event.key);
						keys.delete(event.key);
						if (key) this.onChanged(this.graph.removeObject(rootId, event.resource, key));
					} else {
						this.onChanged(
							this.graph.setSourceObjects(
								rootId,
								event.resource,
								event.objects.map((object) => ({ object })),
							),
						);
					}
				}),
				session.onState((status) => {
					const state = status.state;
					const { mode: bdMode, count, atLeast, threshold } = status.bundleDeployments;
					const rollupsOnly = bdMode === 'roll-ups-only';
					const mode = rollupsOnly ? 'roll-ups only' : '';
					const detail = rollupsOnly
						? `${count === undefined ? 'More' : `${count}${atLeast ? ' or more' : ''}`} BundleDeployments, above kubeStatusLens.clusters.bundleDeploymentThreshold (${threshold}): GitRepos, Bundles and Clusters show the roll-ups Fleet's controllers wrote, and a Bundle or Cluster lists its BundleDeployments when you expand it.`
						: undefined;
					this.states.set(context, state.kind === 'ready' ? 'ready' : state.message);
					if (['ready', 'connecting', 'paused', 'not-installed'].includes(state.kind)) {
						this.troubled.delete(context);
					} else this.troubled.add(context);
					if (!rollupsOnly) this.releaseAll(rootId, listed);
					this.onChanged(this.graph.setRollupsFromController(rootId, rollupsOnly));
					this.onChanged(
						this.graph.setRootState(
							rootId,
							state.kind === 'ready'
								? rollupsOnly
									? { tone: 'ok', message: mode, ...(detail ? { detail } : {}) }
									: undefined
								: {
										tone: toneOfState(state),
										message: mode ? `${state.message} · ${mode}` : state.message,
									},
						),
					);
				}),
			];
			this.sessions.set(context, { session, keys, disposables, listed, pending: new Map() });
			if (!this.paused) session.start();
			this.log.info(`Watching context ${context}.`);
		}
		if (!this.paused) {
			this.firstSync = this.showFirstSync(
				[...this.sessions.values()].map(({ session }) => session),
			);
		}
	}

	/**
	 * A window progress item while the sessions' first sync runs (discovery and every first list answered, with
	 * objects or a failure that the roots then show); bounded so it never spins on.
	 */
	private showFirstSync(sessions: readonly Session[]): Promise<void> {
		let done = 0;
		return Promise.resolve(
			vscode.window.withProgress(
				{ location: vscode.ProgressLocation.Window, title: 'Kube Status Lens' },
				async (progress) => {
					const report = (): void =>
						progress.report({
							message: `syncing ${sessions.length === 1 ? (sessions[0]?.context ?? '') : `contexts ${done}/${sessions.length}`}`,
						});
					report();
					const all = Promise.all(
						sessions.map((session) =>
							session.synced().then(() => {
								done++;
								report();
							}),
						),
					);
					let timer: ReturnType<typeof setTimeout> | undefined;
					await Promise.race([
						all,
						new Promise<void>((resolve) => {
							timer = setTimeout(resolve, 60_000);
						}),
					]);
					clearTimeout(timer);
				},
			),
		);
	}

	private closeAll(): void {
		this.troubled.clear();
		// Every context first lets go of what it put in other roots (WorkStatus copies), then the roots go.
		for (const { session, disposables } of this.sessions.values()) {
			for (const disposable of disposables) disposable.dispose();
			session.dispose();
		}
		for (const context of this.sessions.keys()) {
			this.onChanged(this.graph.removeRoot(liveRootId(context)));
		}
		this.sessions.clear();
	}

	dispose(): void {
		this.closeAll();
	}
}

/** The graph source, in a WDS root, of the WorkStatus objects copied from an ITS context. */
function pairedSourceOf(itsContext: string): string {
	return `${copiedSourcePrefix}paired:${itsContext}`;
}

/** The context a node's object lives in: its root's, or the ITS's for a WorkStatus copied into a WDS root. */
export function liveContextOf(node: TreeNode): string | undefined {
	const copied = node.sources?.find((source) =>
		source.sourceId.startsWith(`${copiedSourcePrefix}paired:`),
	);
	if (copied) return copied.sourceId.slice(`${copiedSourcePrefix}paired:`.length);
	return node.rootId.startsWith('live:') ? node.rootId.slice('live:'.length) : undefined;
}

function isWorkStatusResource(resource: string): boolean {
	return resource.startsWith('control.kubestellar.io/') && resource.endsWith('/workstatuses');
}

/**
 * Copies the WorkStatus objects of an ITS context into the roots of the WDS contexts they report to, so the WDS
 * workload shows its per-WEC status under it (the graph links a WorkStatus to its source workload in the same root).
 */
class WorkStatusMirror {
	private readonly graph: ResourceGraph;
	private readonly source: string;
	private readonly targetsOf: (object: unknown) => string[];
	private readonly onChanged: (changes: ChangedNodes) => void;
	/** Event key -> the graph key and the WDS contexts it was copied to. */
	private readonly copied = new Map<string, { key: string; targets: string[] }>();

	constructor(
		graph: ResourceGraph,
		itsContext: string,
		targetsOf: (object: unknown) => string[],
		onChanged: (changes: ChangedNodes) => void,
	) {
		this.graph = graph;
		this.source = pairedSourceOf(itsContext);
		this.targetsOf = targetsOf;
		this.onChanged = onChanged;
	}

	apply(event: ObjectEvent): void {
		if (event.type === 'upsert') {
			const key = objectKeyOf(event.object);
			const targets = this.targetsOf(event.object);
			this.removeFrom(event.key, targets);
			for (const wds of targets) {
				this.onChanged(this.graph.upsertObject(liveRootId(wds), this.source, event.object));
			}
			if (targets.length > 0) this.copied.set(event.key, { key, targets });
			else this.copied.delete(event.key);
		} else if (event.type === 'remove') {
			this.removeFrom(event.key, []);
			this.copied.delete(event.key);
		} else {
			const byTarget = new Map<string, { object: unknown }[]>();
			for (const { targets } of this.copied.values()) {
				for (const wds of targets) byTarget.set(wds, []);
			}
			this.copied.clear();
			for (const object of event.objects) {
				const targets = this.targetsOf(object);
				for (const wds of targets) {
					const list = byTarget.get(wds) ?? [];
					list.push({ object });
					byTarget.set(wds, list);
				}
			}
			for (const [wds, objects] of byTarget) {
				this.onChanged(this.graph.setSourceObjects(liveRootId(wds), this.source, objects));
			}
			for (const object of event.objects) {
				const targets = this.targetsOf(object);
				if (targets.length === 0) continue;
				const key = objectKeyOf(object);
				this.copied.set(key, { key, targets });
			}
		}
	}

	/** Takes the copies out of every WDS root. */
	clear(): void {
		const targets = new Set<string>();
		for (const copy of this.copied.values()) for (const wds of copy.targets) targets.add(wds);
		for (const wds of targets) {
			this.onChanged(this.graph.removeSource(liveRootId(wds), this.source));
		}
		this.copied.clear();
	}

	private removeFrom(eventKey: string, keep: readonly string[]): void {
		const previous = this.copied.get(eventKey);
		if (!previous) return;
		for (const wds of previous.targets) {
			if (!keep.includes(wds)) {
				this.onChanged(this.graph.removeObject(liveRootId(wds), this.source, previous.key));
			}
		}
	}
}
