// List + watch of one resource, across namespaces or in one (client-go's reflector: resourceVersion, bookmarks,
// relist on 410 Gone, reconnect with backoff and jitter), feeding an ObjectStore and reporting events and states.
// The watch goes through client-node's `Watch`, sharing the session's connections and bounded credentials.
import { Watch, type KubeConfig, type RequestContext } from '@kubernetes/client-node';
import { isRecord } from '../core/model/object.ts';
import { objectKeyOf } from '../core/tree/linking.ts';
import { connectingState, type ConnectionState } from './connectionState.ts';
import {
	apiVersionOf,
	collectionPathOf,
	displayNameOf,
	type WatchedResource,
} from './discovery.ts';
import type { ObjectEvent } from './events.ts';
import { LoginRequiredError } from './kubeconfig.ts';
import { listPages } from './paging.ts';
import {
	authenticate,
	failureOf,
	failureOfStatus,
	RequestFailure,
	seconds,
	type ClientSettings,
} from './requests.ts';
import type { ObjectStore } from './store.ts';

type WatchOutcome =
	| { readonly kind: 'ended'; readonly established: boolean; readonly lastedMs: number }
	| { readonly kind: 'expired' }
	| { readonly kind: 'failed'; readonly failure: RequestFailure };

/** What a reflector needs from its session. */
export interface ReflectorHost {
	readonly client: ClientSettings;
	readonly store: ObjectStore;
	readonly pageSize: number;
	readonly watchTimeoutSeconds: number;
	readonly random: () => number;
	backoffMs(attempt: number, failure: RequestFailure | undefined): number;
	changed(reflector: Reflector): void;
	emit(event: ObjectEvent): void;
	forbiddenAcrossNamespaces(reflector: Reflector): boolean;
	/** A list or watch answered 404: the CRD may have gone. */
	notServed(reflector: Reflector): void;
	log(message: string): void;
}

/** One resource's list + watch, in one namespace or across all; `state` says how it goes, `answered` whether it has. */
export class Reflector {
	readonly resource: WatchedResource;
	readonly namespace: string | undefined;
	state: ConnectionState = connectingState;
	answered = false;
	readonly #host: ReflectorHost;
	readonly #stop = new AbortController();
	#resourceVersion: string | undefined;
	#watchController: AbortController | undefined;
	#sleep: { timer: NodeJS.Timeout; resolve: () => void } | undefined;

	constructor(host: ReflectorHost, resource: WatchedResource, namespace?: string) {
		this.#host = host;
		this.resource = resource;
		this.namespace = namespace;
	}

	get stopped(): boolean {
		return this.#stop.signal.aborted;
	}

	start(): void {
		void this.#run().catch((error: unknown) => {
			this.#host.log(`watch of ${displayNameOf(this.resource)} ended: ${String(error)}`);
		});
	}

	stop(): void {
		this.#stop.abort();
		this.#watchController?.abort();
		if (this.#sleep) {
			clearTimeout(this.#sleep.timer);
			this.#sleep.resolve();
		}
	}

	#where(): string {
		return this.namespace === undefined
			? this.resource.namespaced
				? 'across namespaces'
				: ''
			: `in namespace ${this.namespace}`;
	}

	#setState(state: ConnectionState): void {
		if (this.stopped) return;
		const changed =
			!this.answered || this.state.kind !== state.kind || this.state.message !== state.message;
		this.answered = true;
		this.state = state;
		if (changed) this.#host.changed(this);
	}

	#fail(failure: RequestFailure): void {
		if (failure.kind === 'stopped' || this.stopped) return;
		const kind = failure.kind === 'gone' ? 'server-error' : failure.kind;
		this.#setState({ kind, message: failure.message });
		if (failure.kind === 'not-installed') this.#host.notServed(this);
	}

	#sleepFor(ms: number): Promise<void> {
		return new Promise((resolve) => {
			if (this.stopped) {
				resolve();
				return;
			}
			const timer = setTimeout(() => {
				this.#sleep = undefined;
				resolve();
			}, ms);
			this.#sleep = { timer, resolve };
		});
	}

	async #run(): Promise<void> {
		let attempt = 0;
		let needList = true;
		let listFailuresInARow = 0;
		while (!this.stopped) {
			if (needList) {
				try {
					await this.#list();
					needList = false;
					attempt = 0;
					listFailuresInARow = 0;
				} catch (error) {
					const failure = failureOf(
						error,
						this.#host.client.server,
						this.#host.client.requestTimeoutMs,
					);
					if (this.stopped || failure.kind === 'stopped') return;
					if (failure.kind === 'gone' && listFailuresInARow++ === 0) continue;
					if (
						failure.kind === 'forbidden' &&
						this.namespace === undefined &&
						this.resource.namespaced &&
						this.#host.forbiddenAcrossNamespaces(this)
					) {
						// The session lists namespace by namespace instead; this reflector has been stopped.
						return;
					}
					this.#fail(failure);
					// A login or a broken kubeconfig needs the user; retrying would only run the plugin again.
					if (failure.kind === 'login-required' || failure.kind === 'invalid-config') return;
					await this.#sleepFor(this.#host.backoffMs(attempt++, failure));
					continue;
				}
			}
			const outcome = await this.#watch();
			if (this.stopped) return;
			if (outcome.kind === 'expired') {
				needList = true;
				continue;
			}
			if (outcome.kind === 'ended') {
				// A watch that held a while is the normal case (the server's timeout, a dropped connection): reconnect
				// at once. One that ended at once, over and over, backs off.
				if (outcome.established && outcome.lastedMs > 1000) attempt = 0;
				else await this.#sleepFor(this.#host.backoffMs(attempt++, undefined));
				continue;
			}
			const failure = outcome.failure;
			if (failure.kind === 'stopped') return;
			this.#fail(failure);
			if (failure.kind === 'login-required' || failure.kind === 'invalid-config') return;
			if (failure.kind === 'forbidden' || failure.kind === 'not-installed') needList = true;
			await this.#sleepFor(this.#host.backoffMs(attempt++, failure));
		}
	}

	/** Lists every page into the store, then announces the whole resource. */
	async #list(): Promise<void> {
		const items: unknown[] = [];
		let resourceVersion: string | undefined;
		for await (const page of listPages(
			this.#host.client,
			this.resource,
			this.namespace,
			{},
			this.#host.pageSize,
			this.#stop.signal,
		)) {
			for (const item of page.items) items.push(item);
			resourceVersion = page.resourceVersion ?? resourceVersion;
		}
		// Stopped after the last page arrived (the resource went away): its objects must not come back.
		if (this.stopped) return;
		this.#resourceVersion = resourceVersion;
		const store = this.#host.store;
		store.replace(this.resource.id, items, this.namespace);
		this.#host.emit({
			type: 'resync',
			resource: this.resource.id,
			objects: store.objectsOf(this.resource.id),
		});
		this.#setState({ kind: 'ready', message: 'watching' });
	}

	/** One watch from the last resourceVersion, until it ends. */
	#watch(): Promise<WatchOutcome> {
		const host = this.#host;
		const client = host.client;
		const apiVersion = apiVersionOf(this.resource);
		const kind = this.resource.kind;
		// client-go's reflector: the server ends the watch after 5 to 10 minutes, spreading reconnects out.
		const timeoutSeconds = Math.round(host.watchTimeoutSeconds * (1 + host.random()));
		const idleMs = (timeoutSeconds + 30) * 1000;
		return new Promise<WatchOutcome>((resolve) => {
			let settled = false;
			let established = false;
			let expired = false;
			let startedAt = 0;
			let errorEvent: RequestFailure | undefined;
			const finish = (outcome: WatchOutcome): void => {
				if (settled) return;
				settled = true;
				clearTimeout(guard);
				resolve(outcome);
			};
			// Watch uses only these two methods of its KubeConfig; through them it shares the session's connections
			// and bounded credentials.
			const watchConfig = {
				getCurrentCluster: () => client.kubeConfig.getCurrentCluster(),
				applySecurityAuthentication: (context: RequestContext) => authenticate(client, context),
			};
			const watch = new Watch(watchConfig as unknown as KubeConfig);
			// client-node's Watch uses one timeout first for the answer to start and then, re-armed on every chunk,
			// for silence. The first read bounds the connect; later reads allow the silence of a quiet watch.
			let reads = 0;
			Object.defineProperty(watch, 'requestTimeoutMs', {
				configurable: true,
				get: () => (reads++ === 0 ? client.requestTimeoutMs : idleMs),
				set: () => undefined,
			});
			// Credentials come before client-node's own timer starts; bound them here.
			const guard = setTimeout(
				() =>
					finish({
						kind: 'failed',
						failure: failureOf(
							new LoginRequiredError(
								`no credentials within ${seconds(client.execTimeoutMs + client.requestTimeoutMs)}`,
							),
							client.server,
							client.requestTimeoutMs,
						),
					}),
				client.execTimeoutMs + client.requestTimeoutMs * 2,
			);
			const onEvent = (phase: string, object: unknown): void => {
				if (settled || this.stopped) return;
				if (!established) {
					established = true;
					startedAt = Date.now();
				}
				if (phase === 'ERROR') {
					const code = isRecord(object) ? object.code : undefined;
					if (code === 410) expired = true;
					else {
						const message =
							isRecord(object) && typeof object.message === 'string' ? object.message : undefined;
						errorEvent = failureOfStatus(
							typeof code === 'number' ? code : 500,
							`watch ${displayNameOf(this.resource)}`,
							message,
						);
					}
					return;
				}
				if (!isRecord(object)) return;
				const metadata = isRecord(object.metadata) ? object.metadata : undefined;
				if (typeof metadata?.resourceVersion === 'string') {
					this.#resourceVersion = metadata.resourceVersion;
				}
				if (phase === 'BOOKMARK') return;
				if (typeof object.apiVersion !== 'string') object.apiVersion = apiVersion;
				if (typeof object.kind !== 'string') object.kind = kind;
				if (phase === 'DELETED') {
					const key = objectKeyOf(object);
					if (host.store.remove(this.resource.id, key)) {
						host.emit({ type: 'remove', resource: this.resource.id, key });
					}
					return;
				}
				if (phase !== 'ADDED' && phase !== 'MODIFIED') return;
				const stored = host.store.upsert(this.resource.id, object);
				if (stored) host.emit({ type: 'upsert', resource: this.resource.id, ...stored });
			};
			const onDone = (error: unknown): void => {
				if (this.stopped) {
					finish({ kind: 'failed', failure: new RequestFailure('stopped', 'stopped') });
					return;
				}
				if (expired) {
					finish({ kind: 'expired' });
					return;
				}
				if (errorEvent) {
					finish({ kind: 'failed', failure: errorEvent });
					return;
				}
				const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
				if (statusCode === 410) {
					finish({ kind: 'expired' });
					return;
				}
				if (established || (error === null && startedAt > 0)) {
					finish({ kind: 'ended', established, lastedMs: Date.now() - startedAt });
					return;
				}
				if (error === null || error === undefined) {
					finish({ kind: 'ended', established: false, lastedMs: 0 });
					return;
				}
				const failure =
					typeof statusCode === 'number'
						? failureOfStatus(
								statusCode,
								`watch ${displayNameOf(this.resource)} ${this.#where()}`.trim(),
							)
						: failureOf(error, client.server, client.requestTimeoutMs);
				finish({ kind: 'failed', failure });
			};
			const query: Record<string, string | number | boolean> = {
				allowWatchBookmarks: true,
				timeoutSeconds,
			};
			if (this.#resourceVersion !== undefined) query.resourceVersion = this.#resourceVersion;
			watch.watch(collectionPathOf(this.resource, this.namespace), query, onEvent, onDone).then(
				(controller) => {
					if (settled || this.stopped) {
						controller.abort();
						return;
					}
					// The answer has started: the watch is up, even before its first event.
					clearTimeout(guard);
					this.#watchController = controller;
					if (!established) {
						established = true;
						startedAt = Date.now();
					}
					this.#setState({ kind: 'ready', message: 'watching' });
				},
				(error: unknown) => {
					// Credentials failed before client-node's Watch sent anything.
					finish({
						kind: 'failed',
						failure: failureOf(error, client.server, client.requestTimeoutMs),
					});
				},
			);
		});
	}
}
