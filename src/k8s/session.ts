// One kube context, live: discovery of what the cluster serves, then list + watch per resource (reflector.ts),
// feeding an ObjectStore and reporting events and states as data. Discovery runs again every few minutes and after a
// 404, so CRDs installed or removed later are followed. Every request has a bounded timeout, exec plugins included,
// so an unreachable cluster or a plugin waiting for a login becomes a state within seconds, never a spinner.
//
// Failures are states, never exceptions: "cannot reach" (network, TLS, timeout) and server errors retry with
// backoff; "no permission" across namespaces falls back to listing namespace by namespace; "login required" and a
// broken kubeconfig wait for `retry()`, so a login plugin is not run again and again behind the user's back.
import {
	bundleDeploymentResourceOf,
	decideBundleDeploymentMode,
	isUnwatchedBundleDeployment,
	listBundleDeploymentsOnDemand,
	sameBundleDeploymentMode,
	type BundleDeploymentMode,
	type OnDemandList,
} from './bundleDeployments.ts';
import { connectingState, type ConnectionState } from './connectionState.ts';
import {
	discoverResources,
	sameDiscovery,
	withFailedGroupsKept,
	type Discovery,
	type WatchedResource,
} from './discovery.ts';
import { emitter, type Disposable, type ObjectEvent } from './events.ts';
import { kubeConfigFor, type MergedKubeconfig } from './kubeconfig.ts';
import { Reflector, type ReflectorHost } from './reflector.ts';
import { retryDelayMs } from './backoff.ts';
import {
	defaultMaxResponseBytes,
	defaultMaxWatchEventBytes,
	defaultRequestDeadlineMs,
	dropConnections,
	failureOf,
	withUrlPasswordsHidden,
	type ClientSettings,
	type RequestFailure,
} from './requests.ts';
import { sessionStatusOf, type SessionStatus } from './sessionStatus.ts';
import { ObjectStore } from './store.ts';

/** What a session needs; only `kubeconfig` and `context` are required. */
export interface SessionOptions {
	readonly kubeconfig: MergedKubeconfig;
	readonly context: string;
	/** Namespaces to list one by one when listing across namespaces is forbidden (else the context's namespace). */
	readonly namespaces?: readonly string[];
	/** Bound on every request until its answer starts, and on silence while a body arrives. Default 10 s. */
	readonly requestTimeoutMs?: number;
	/**
	 * Bound on a whole request, its answer included (a server that trickles its answer byte by byte), watches
	 * excepted. Default 60 s.
	 */
	readonly requestDeadlineMs?: number;
	/** Bound on the bytes of one answer (a list page, a discovery document). Default 256 MiB. */
	readonly maxResponseBytes?: number;
	/** Bound on the bytes of one watch event. Default 16 MiB. */
	readonly maxWatchEventBytes?: number;
	/** Bound on an exec credential plugin. Default 10 s. */
	readonly execTimeoutMs?: number;
	/**
	 * Above this many BundleDeployments they are not watched. Default 20,000. Once above, they are watched again
	 * only below 90% of it, so a fleet near the threshold does not switch back and forth.
	 */
	readonly bundleDeploymentThreshold?: number;
	/**
	 * While running, discovery and the BundleDeployment count run again this often (and soon after a resource
	 * answers 404), so CRDs installed or removed later are seen. Default 5 minutes.
	 */
	readonly rediscoverMs?: number;
	/** Objects per list page. Default 500, as client-go's reflector. */
	readonly pageSize?: number;
	/** Reconnect delays: doubling from initialMs to maxMs, with jitter. Default 500 ms to 30 s. */
	readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number };
	/** The server ends a watch after this long (plus jitter up to as much again). Default 300 s, as client-go. */
	readonly watchTimeoutSeconds?: number;
	/** Extra environment for exec plugins. */
	readonly execEnv?: Readonly<Record<string, string>>;
	/** For jitter; tests may pin it. */
	readonly random?: () => number;
	/** Where to report what a user does not see (a listener that threw, a malformed answer). */
	readonly log?: (message: string) => void;
}

/** When discovery runs again during one run; a new run gets a new one. */
interface Rediscovery {
	readonly stop: AbortSignal;
	timer: NodeJS.Timeout | undefined;
	dueAt: number;
	running: boolean;
	/** Asked for again (a 404) while running. */
	again: boolean;
	lastStartedAt: number;
}

/**
 * A live kube context: owns its watches and its cache. Nothing starts until `start()`; `pause()` stops every
 * request and keeps the cache; `start()` again relists. `dispose()` ends it for good.
 */
export class Session implements Disposable {
	readonly context: string;
	readonly store = new ObjectStore();
	#options: SessionOptions;
	readonly #log: (message: string) => void;
	readonly #objectEvents: ReturnType<typeof emitter<ObjectEvent>>;
	readonly #stateEvents: ReturnType<typeof emitter<SessionStatus>>;
	#client: ClientSettings | undefined;
	#contextNamespace: string | undefined;
	#run: AbortController | undefined;
	#discoveryState: ConnectionState = { kind: 'paused', message: 'not started' };
	#discovery: Discovery | undefined;
	#reflectors = new Map<string, Reflector[]>();
	#fallbackNamespaces = new Map<string, readonly string[]>();
	#bundleDeployments: BundleDeploymentMode;
	#synced: { promise: Promise<void>; resolve: () => void } | undefined;
	#disposed = false;
	#retryTimer: NodeJS.Timeout | undefined;
	#rediscovery: Rediscovery | undefined;

	constructor(options: SessionOptions) {
		this.#options = options;
		this.context = options.context;
		const log = options.log ?? (() => undefined);
		// Messages may name the server, whose address may carry a password.
		this.#log = (message) => log(withUrlPasswordsHidden(message));
		this.#objectEvents = emitter<ObjectEvent>(this.#log);
		this.#stateEvents = emitter<SessionStatus>(this.#log);
		this.#bundleDeployments = { mode: 'unknown', threshold: this.#threshold() };
	}

	/** Called for every change in the cache. */
	onObject(listener: (event: ObjectEvent) => void): Disposable {
		return this.#objectEvents.on(listener);
	}

	/** Called with the whole status whenever a state changes. */
	onState(listener: (status: SessionStatus) => void): Disposable {
		return this.#stateEvents.on(listener);
	}

	/** Starts (or, after `pause()`, resumes) discovery, lists and watches. Idempotent while running. */
	start(): void {
		if (this.#disposed || this.#run) return;
		const run = new AbortController();
		this.#run = run;
		this.#newSyncPromise();
		this.#discoveryState = connectingState;
		this.#emitState();
		void this.#startRun(run.signal).catch((error: unknown) => {
			this.#log(`session ${this.context} failed: ${String(error)}`);
		});
	}

	/** Stops every watch and request; the cache stays as it was. */
	pause(): void {
		this.#stopRun();
		if (this.#disposed) return;
		this.#discoveryState = { kind: 'paused', message: 'paused' };
		this.#emitState();
	}

	/** Starts over with fresh credentials: after "login required", or when the kubeconfig changed. */
	retry(kubeconfig?: MergedKubeconfig): void {
		if (this.#disposed) return;
		this.#stopRun();
		if (kubeconfig) this.#options = { ...this.#options, kubeconfig };
		this.#client = undefined;
		this.start();
	}

	/** True between start() and pause()/dispose(). */
	get running(): boolean {
		return this.#run !== undefined;
	}

	/**
	 * Resolves once discovery and every resource's first list have answered (with objects or a failure): the end of
	 * the first sync, for progress. Resolves at once when not started.
	 */
	synced(): Promise<void> {
		return this.#synced?.promise ?? Promise.resolve();
	}

	/** The context's state, its systems and resources, and the BundleDeployment mode. */
	status(): SessionStatus {
		return sessionStatusOf({
			context: this.context,
			store: this.store,
			discovery: this.#discovery,
			discoveryState: this.#discoveryState,
			running: this.#run !== undefined,
			disposed: this.#disposed,
			bundleDeployments: this.#bundleDeployments,
			reflectors: this.#reflectors,
			fallbackNamespaces: this.#fallbackNamespaces,
		});
	}

	/**
	 * Lists BundleDeployments on demand (roll-ups-only mode: when a node is expanded), by label selector, across
	 * namespaces or in the fallback namespaces. The cache is left alone.
	 */
	async listBundleDeployments(labelSelector: string, namespace?: string): Promise<OnDemandList> {
		const resource = bundleDeploymentResourceOf(this.#discovery?.resources ?? []);
		const client = this.#client;
		if (!client || !resource) {
			return {
				kind: 'failed',
				state: {
					kind: 'not-installed',
					message: 'BundleDeployments are not served by this cluster',
				},
			};
		}
		// A paused session (nothing else uses the watches) still answers an expansion: each request has its timeout.
		const stop = this.#run?.signal ?? new AbortController().signal;
		const namespaces =
			namespace !== undefined
				? [namespace]
				: (this.#fallbackNamespaces.get(resource.id) ?? [undefined]);
		return listBundleDeploymentsOnDemand(
			client,
			resource,
			namespaces,
			labelSelector,
			this.#options.pageSize ?? 500,
			stop,
		);
	}

	/** Stops everything and forgets listeners and cache. */
	dispose(): void {
		if (this.#disposed) return;
		this.#stopRun();
		this.#disposed = true;
		this.#objectEvents.clear();
		this.#stateEvents.clear();
		this.store.clear();
	}

	// -------------------------------------------------------------------------------------------------------------

	#threshold(): number {
		return this.#options.bundleDeploymentThreshold ?? 20_000;
	}

	#newSyncPromise(): void {
		this.#synced?.resolve();
		let resolve = (): void => undefined;
		const promise = new Promise<void>((done) => {
			resolve = done;
		});
		this.#synced = { promise, resolve };
	}

	#checkSynced(): void {
		if (!this.#synced) return;
		if (this.#discoveryState.kind === 'connecting') return;
		for (const reflectors of this.#reflectors.values()) {
			if (reflectors.some((reflector) => !reflector.answered)) return;
		}
		this.#synced.resolve();
	}

	#stopRun(): void {
		clearTimeout(this.#retryTimer);
		this.#retryTimer = undefined;
		clearTimeout(this.#rediscovery?.timer);
		this.#rediscovery = undefined;
		this.#run?.abort();
		this.#run = undefined;
		for (const reflectors of this.#reflectors.values()) {
			for (const reflector of reflectors) reflector.stop();
		}
		this.#reflectors.clear();
		this.#fallbackNamespaces.clear();
		if (this.#client) dropConnections(this.#client, true);
		this.#synced?.resolve();
	}

	#backoffMs(attempt: number, failure: RequestFailure | undefined): number {
		return retryDelayMs(
			attempt,
			failure,
			{
				initialMs: this.#options.backoff?.initialMs ?? 500,
				maxMs: this.#options.backoff?.maxMs ?? 30_000,
			},
			this.#options.random ?? Math.random,
		);
	}

	#makeClient(): ClientSettings | ConnectionState {
		const made = kubeConfigFor(this.#options.kubeconfig, this.context, {
			timeoutMs: this.#options.execTimeoutMs ?? 10_000,
			...(this.#options.execEnv ? { env: this.#options.execEnv } : {}),
		});
		if (made.kind === 'invalid') return { kind: 'invalid-config', message: made.message };
		this.#contextNamespace = made.namespace;
		const server = made.kubeConfig.getCurrentCluster()?.server ?? '';
		return {
			kubeConfig: made.kubeConfig,
			server,
			requestTimeoutMs: this.#options.requestTimeoutMs ?? 10_000,
			requestDeadlineMs: this.#options.requestDeadlineMs ?? defaultRequestDeadlineMs,
			maxResponseBytes: this.#options.maxResponseBytes ?? defaultMaxResponseBytes,
			maxWatchEventBytes: this.#options.maxWatchEventBytes ?? defaultMaxWatchEventBytes,
			execTimeoutMs: this.#options.execTimeoutMs ?? 10_000,
			tlsVersion: made.tlsVersion,
			connections: { dispatcher: undefined, version: 0, createdAt: 0 },
		};
	}

	async #startRun(stop: AbortSignal): Promise<void> {
		if (!this.#client) {
			const made = this.#makeClient();
			if ('kind' in made) {
				this.#discoveryState = made;
				this.#emitState();
				this.#checkSynced();
				return;
			}
			this.#client = made;
		}
		const client = this.#client;
		let attempt = 0;
		let discovery: Discovery | undefined;
		let startedAt = 0;
		while (!stop.aborted) {
			try {
				startedAt = Date.now();
				discovery = await discoverResources(client, stop);
				break;
			} catch (error) {
				if (stop.aborted) return;
				const failure = failureOf(error, client.server, client.requestTimeoutMs);
				const kind =
					failure.kind === 'gone' || failure.kind === 'stopped' ? 'server-error' : failure.kind;
				this.#discoveryState = { kind, message: failure.message };
				this.#emitState();
				this.#checkSynced();
				if (kind === 'login-required' || kind === 'invalid-config') return;
				await new Promise<void>((resolve) => {
					this.#retryTimer = setTimeout(resolve, this.#backoffMs(attempt++, failure));
					stop.addEventListener('abort', () => resolve(), { once: true });
				});
			}
		}
		if (stop.aborted || !discovery) return;
		const bundleDeployments = await this.#decideBundleDeploymentMode(client, discovery, stop);
		if (stop.aborted) return;
		this.#discoveryState = { kind: 'ready', message: 'discovered' };
		const rediscovery: Rediscovery = {
			stop,
			timer: undefined,
			dueAt: 0,
			running: false,
			again: false,
			lastStartedAt: startedAt,
		};
		this.#rediscovery = rediscovery;
		this.#applyDiscovery(discovery, bundleDeployments);
		this.#scheduleRediscovery(rediscovery, this.#rediscoverMs());
		this.#emitState();
		this.#checkSynced();
	}

	#rediscoverMs(): number {
		return this.#options.rediscoverMs ?? 5 * 60_000;
	}

	/** Runs discovery again after `delayMs`, or sooner if it is already due sooner. */
	#scheduleRediscovery(rediscovery: Rediscovery, delayMs: number): void {
		if (rediscovery.stop.aborted) return;
		if (rediscovery.running) {
			// The rediscovery under way schedules the next one when it ends; a 404 meanwhile asks for one more.
			if (delayMs < this.#rediscoverMs()) rediscovery.again = true;
			return;
		}
		const dueAt = Date.now() + delayMs;
		if (rediscovery.timer !== undefined && rediscovery.dueAt <= dueAt) return;
		clearTimeout(rediscovery.timer);
		rediscovery.dueAt = dueAt;
		rediscovery.timer = setTimeout(() => {
			rediscovery.timer = undefined;
			void this.#rediscover(rediscovery).catch((error: unknown) => {
				this.#log(`rediscovery of ${this.context} failed: ${String(error)}`);
			});
		}, delayMs);
	}

	/**
	 * A list or watch answered 404: discovery runs again now, unless it ran within the slowest backoff step (CRDs
	 * change rarely, and a resource that keeps answering 404 must not turn into a discovery loop).
	 */
	#rediscoverSoon(): void {
		const rediscovery = this.#rediscovery;
		if (rediscovery) this.#scheduleRediscovery(rediscovery, this.#soonMs(rediscovery));
	}

	#soonMs(rediscovery: Rediscovery): number {
		const spacingMs = this.#options.backoff?.maxMs ?? 30_000;
		return Math.max(0, rediscovery.lastStartedAt + spacingMs - Date.now());
	}

	/**
	 * Discovery and the BundleDeployment count again, applied to the running watches. A failure changes nothing:
	 * what runs keeps running, and the next period tries again.
	 */
	async #rediscover(rediscovery: Rediscovery): Promise<void> {
		const client = this.#client;
		const stop = rediscovery.stop;
		if (!client || stop.aborted || rediscovery.running) return;
		rediscovery.running = true;
		rediscovery.again = false;
		rediscovery.lastStartedAt = Date.now();
		try {
			const found = await discoverResources(client, stop);
			if (stop.aborted) return;
			const previous = this.#discovery;
			for (const [group, state] of found.groups) {
				if (state !== undefined && state.kind !== 'not-installed' && previous?.groups.has(group)) {
					this.#log(`rediscovery of ${this.context}: ${group} kept as it was: ${state.message}`);
				}
			}
			const discovery = previous ? withFailedGroupsKept(previous, found) : found;
			const bundleDeployments = await this.#decideBundleDeploymentMode(client, discovery, stop);
			if (stop.aborted) return;
			if (this.#applyDiscovery(discovery, bundleDeployments)) {
				this.#emitState();
				this.#checkSynced();
			}
		} catch (error) {
			if (stop.aborted) return;
			const failure = failureOf(error, client.server, client.requestTimeoutMs);
			this.#log(
				`rediscovery of ${this.context} failed, the watches go on as they are: ${failure.message}`,
			);
		} finally {
			rediscovery.running = false;
			const again = rediscovery.again;
			rediscovery.again = false;
			if (again) this.#scheduleRediscovery(rediscovery, this.#soonMs(rediscovery));
			this.#scheduleRediscovery(rediscovery, this.#rediscoverMs());
		}
	}

	/**
	 * Makes the watches follow a discovery: resources no longer served stop and leave the cache, new ones start,
	 * and BundleDeployments follow the mode. True when what a view shows of the context changed.
	 */
	#applyDiscovery(discovery: Discovery, bundleDeployments: BundleDeploymentMode): boolean {
		const previous = this.#discovery;
		const changed =
			!previous ||
			!sameDiscovery(previous, discovery) ||
			!sameBundleDeploymentMode(this.#bundleDeployments, bundleDeployments);
		const served = new Set(discovery.resources.map((resource) => resource.id));
		for (const id of [...this.#reflectors.keys()]) {
			if (!served.has(id)) this.#stopReflectors(id);
		}
		// Resources no longer served (a CRD removed now, or while paused) leave the cache.
		for (const source of this.store.sources()) {
			if (!served.has(source)) this.#clearSource(source);
		}
		this.#discovery = discovery;
		this.#bundleDeployments = bundleDeployments;
		for (const resource of discovery.resources) {
			if (isUnwatchedBundleDeployment(resource, this.#bundleDeployments)) {
				this.#stopReflectors(resource.id);
				if (this.store.sources().includes(resource.id)) this.#clearSource(resource.id);
				continue;
			}
			if (!this.#reflectors.has(resource.id)) this.#startReflectors(resource, [undefined]);
		}
		return changed;
	}

	#stopReflectors(id: string): void {
		for (const reflector of this.#reflectors.get(id) ?? []) reflector.stop();
		this.#reflectors.delete(id);
		this.#fallbackNamespaces.delete(id);
	}

	#clearSource(source: string): void {
		this.store.clear(source);
		this.#objectEvents.fire({ type: 'resync', resource: source, objects: [] });
	}

	#startReflectors(resource: WatchedResource, namespaces: readonly (string | undefined)[]): void {
		const host: ReflectorHost = {
			client: this.#client as ClientSettings,
			store: this.store,
			pageSize: this.#options.pageSize ?? 500,
			watchTimeoutSeconds: this.#options.watchTimeoutSeconds ?? 300,
			random: this.#options.random ?? Math.random,
			backoffMs: (attempt, failure) => this.#backoffMs(attempt, failure),
			changed: () => {
				this.#emitState();
				this.#checkSynced();
			},
			emit: (event) => this.#objectEvents.fire(event),
			forbiddenAcrossNamespaces: (reflector) => this.#fallBackToNamespaces(reflector),
			notServed: () => this.#rediscoverSoon(),
			log: this.#log,
		};
		const reflectors = namespaces.map((namespace) => new Reflector(host, resource, namespace));
		this.#reflectors.set(resource.id, reflectors);
		for (const reflector of reflectors) reflector.start();
	}

	/** The namespaces to list one by one when listing across namespaces is forbidden. */
	#namespacesForFallback(): readonly string[] {
		const configured = this.#options.namespaces?.filter((namespace) => namespace !== '') ?? [];
		if (configured.length > 0) return [...new Set(configured)];
		return this.#contextNamespace !== undefined ? [this.#contextNamespace] : [];
	}

	#fallBackToNamespaces(reflector: Reflector): boolean {
		const namespaces = this.#namespacesForFallback();
		if (namespaces.length === 0 || reflector.stopped) return false;
		reflector.stop();
		this.#fallbackNamespaces.set(reflector.resource.id, namespaces);
		this.#startReflectors(reflector.resource, namespaces);
		this.#emitState();
		return true;
	}

	#decideBundleDeploymentMode(
		client: ClientSettings,
		discovery: Discovery,
		stop: AbortSignal,
	): Promise<BundleDeploymentMode> {
		return decideBundleDeploymentMode(
			discovery,
			{
				client,
				context: this.context,
				previous: this.#bundleDeployments,
				threshold: this.#threshold(),
				pageSize: this.#options.pageSize ?? 500,
				namespacesForFallback: () => this.#namespacesForFallback(),
				log: this.#log,
			},
			stop,
		);
	}

	#emitState(): void {
		if (this.#disposed) return;
		this.#stateEvents.fire(this.status());
	}
}

/** A session for one context; call `start()` when something needs it. */
export function createSession(options: SessionOptions): Session {
	return new Session(options);
}
