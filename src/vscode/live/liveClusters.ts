import type * as vscode from 'vscode';
import { objectKeyOf, type ChangedNodes, type ResourceGraph } from '../../core/tree/model.ts';
import type { MergedKubeconfig } from '../../k8s/kubeconfig.ts';
import type { Session } from '../../k8s/session.ts';
import type { Log } from '../log.ts';
import { readClusterSettings } from '../settings.ts';

/** The tree root id of a kube context. */
export function liveRootId(context: string): string {
	return `live:${context}`;
}

/**
 * Live clusters in the tree: one root per chosen kube context, fed by a Session's watch events. client-node is
 * loaded only here, with a dynamic import, the first time a live root is needed, so activation stays light.
 */
export class LiveClusters implements vscode.Disposable {
	private readonly graph: ResourceGraph;
	private readonly log: Log;
	private readonly onChanged: (changes: ChangedNodes) => void;
	private readonly sessions = new Map<
		string,
		{ session: Session; keys: Map<string, string>; disposables: vscode.Disposable[] }
	>();
	private started: Promise<void> | undefined;
	private paused = false;
	private merged: MergedKubeconfig | undefined;
	private readonly states = new Map<string, string>();

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

	/** Every context the kubeconfig defines, and the current one. */
	async availableContexts(): Promise<{ contexts: string[]; current?: string }> {
		const { loadKubeconfig } = await import('../../k8s/kubeconfig.ts');
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
		const [{ loadKubeconfig }, { createSession, toneOfState }] = await Promise.all([
			import('../../k8s/kubeconfig.ts'),
			import('../../k8s/session.ts'),
		]);
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
			const disposables = [
				session.onObject((event) => {
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
					const rollupsOnly = status.bundleDeployments.mode === 'roll-ups-only';
					const mode = rollupsOnly
						? 'roll-ups only: more BundleDeployments than the threshold setting'
						: '';
					this.states.set(context, state.kind === 'ready' ? 'ready' : state.message);
					this.onChanged(
						this.graph.setRootState(
							rootId,
							state.kind === 'ready'
								? rollupsOnly
									? { tone: 'ok', message: mode }
									: undefined
								: {
										tone: toneOfState(state),
										message: mode ? `${state.message} · ${mode}` : state.message,
									},
						),
					);
				}),
			];
			this.sessions.set(context, { session, keys, disposables });
			if (!this.paused) session.start();
			this.log.info(`Watching context ${context}.`);
		}
	}

	private closeAll(): void {
		for (const [context, { session, disposables }] of this.sessions) {
			for (const disposable of disposables) disposable.dispose();
			session.dispose();
			this.onChanged(this.graph.removeRoot(liveRootId(context)));
		}
		this.sessions.clear();
	}

	dispose(): void {
		this.closeAll();
	}
}
