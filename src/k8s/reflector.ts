// List + watch of one resource, across namespaces or in one (client-go's reflector: resourceVersion, bookmarks,
// relist on 410 Gone, reconnect with backoff and jitter), feeding an ObjectStore and reporting events and states.
// The watch is read here, line by line with a bound on each event's size, through the session's connections and
// bounded credentials. A watch that breaks mid-way (an event too large, a malformed one) may have lost a change:
// the resource is listed again, and its state shows the fault until a watch delivers events again.
import { HttpMethod } from '@kubernetes/client-node';
import { parseJsonKeepingIntegers } from '../core/model/int64.ts';
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
import { listPages } from './paging.ts';
import {
	failureOf,
	failureOfStatus,
	openRequest,
	RequestFailure,
	sizeText,
	statusMessageOf,
	type ClientSettings,
	type OpenRequest,
} from './requests.ts';
import { trimInPlace, type ObjectStore } from './store.ts';
import { LineSplitter } from './watchLines.ts';

type WatchOutcome =
	| { readonly kind: 'ended'; readonly established: boolean; readonly lastedMs: number }
	| { readonly kind: 'expired' }
	| {
			readonly kind: 'failed';
			readonly failure: RequestFailure;
			/** The watch broke mid-way: a change may have been lost, so the resource is listed again. */
			readonly broken?: boolean;
	  };

const watchEventTypes = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

// What of a failed watch's body is read for its Status message.
const statusBodyBytes = 64 * 1024;

const watchingState: ConnectionState = { kind: 'ready', message: 'watching' };

const stoppedOutcome: WatchOutcome = {
	kind: 'failed',
	failure: new RequestFailure('stopped', 'stopped'),
};

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
	/** The state of a watch that broke mid-way, shown until a watch delivers events again. */
	#brokenWatch: ConnectionState | undefined;
	/** Watches that broke mid-way since one last delivered events: the backoff after the next one. */
	#brokenInARow = 0;
	/** Malformed watch events since the reflector started. */
	#malformedEvents = 0;

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
				if (outcome.established && outcome.lastedMs > 1000) {
					attempt = 0;
					this.#recovered();
				} else await this.#sleepFor(this.#host.backoffMs(attempt++, undefined));
				continue;
			}
			const failure = outcome.failure;
			if (failure.kind === 'stopped') return;
			this.#fail(failure);
			if (failure.kind === 'login-required' || failure.kind === 'invalid-config') return;
			if (outcome.broken) {
				// Listing succeeds and the watch breaks again, over and over: the backoff grows across the lists.
				this.#brokenWatch = this.state;
				needList = true;
				await this.#sleepFor(this.#host.backoffMs(this.#brokenInARow++, failure));
				continue;
			}
			if (failure.kind === 'forbidden' || failure.kind === 'not-installed') needList = true;
			await this.#sleepFor(this.#host.backoffMs(attempt++, failure));
		}
	}

	/** Lists every page into the store (each keyed as it arrives), then announces the whole resource. */
	async #list(): Promise<void> {
		const store = this.#host.store;
		const replacement = store.replacing(this.resource.id, this.namespace);
		let resourceVersion: string | undefined;
		for await (const page of listPages(
			this.#host.client,
			this.resource,
			this.namespace,
			{},
			this.#host.pageSize,
			this.#stop.signal,
		)) {
			replacement.add(page.items);
			resourceVersion = page.resourceVersion ?? resourceVersion;
		}
		// Stopped after the last page arrived (the resource went away): its objects must not come back.
		if (this.stopped) return;
		this.#resourceVersion = resourceVersion;
		replacement.commit();
		this.#host.emit({
			type: 'resync',
			resource: this.resource.id,
			objects: store.objectsOf(this.resource.id),
		});
		this.#setState(this.#brokenWatch ?? watchingState);
	}

	/** A watch delivered events (or held until the server ended it): a broken watch is behind. */
	#recovered(): void {
		this.#brokenInARow = 0;
		if (this.#brokenWatch === undefined) return;
		this.#brokenWatch = undefined;
		this.#setState(watchingState);
	}

	/** One watch from the last resourceVersion, until it ends. */
	async #watch(): Promise<WatchOutcome> {
		const host = this.#host;
		const client = host.client;
		const what = `watch ${displayNameOf(this.resource)} ${this.#where()}`.trim();
		// client-go's reflector: the server ends the watch after 5 to 10 minutes, spreading reconnects out.
		const timeoutSeconds = Math.round(host.watchTimeoutSeconds * (1 + host.random()));
		const query: Record<string, string | number | boolean> = {
			watch: true,
			allowWatchBookmarks: true,
			timeoutSeconds,
		};
		if (this.#resourceVersion !== undefined) query.resourceVersion = this.#resourceVersion;
		if (this.stopped) return stoppedOutcome;
		const controller = new AbortController();
		this.#watchController = controller;
		let request: OpenRequest;
		try {
			request = await openRequest(
				client,
				HttpMethod.GET,
				collectionPathOf(this.resource, this.namespace),
				query,
				// The answer's start is bounded by the request timeout; then a quiet watch may be silent until the
				// server's own end of it, and a little more.
				{ what, stop: controller.signal, silenceMs: (timeoutSeconds + 30) * 1000 },
			);
		} catch (error) {
			return {
				kind: 'failed',
				failure: failureOf(error, client.server, client.requestTimeoutMs),
			};
		}
		try {
			if (request.status !== 200) return await this.#refused(request, what);
			if (this.stopped) return stoppedOutcome;
			// The answer has started: the watch is up, even before its first event.
			const startedAt = Date.now();
			this.#setState(this.#brokenWatch ?? watchingState);
			const lines = new LineSplitter(client.maxWatchEventBytes);
			for (;;) {
				let chunk: Uint8Array | undefined;
				try {
					chunk = await request.read();
				} catch (error) {
					const failure = failureOf(error, client.server, client.requestTimeoutMs);
					if (failure.kind === 'stopped' || this.stopped) return stoppedOutcome;
					// A dropped connection or a silent one: reconnect from the last resourceVersion.
					return { kind: 'ended', established: true, lastedMs: Date.now() - startedAt };
				}
				if (!chunk) return { kind: 'ended', established: true, lastedMs: Date.now() - startedAt };
				const complete = lines.push(chunk);
				if (complete === 'too-long') {
					const failure = new RequestFailure(
						'server-error',
						`the watch of ${displayNameOf(this.resource)} sent an event larger than ${sizeText(client.maxWatchEventBytes)}, the most read of one event; listing again`,
						undefined,
						true,
					);
					host.log(failure.message);
					return { kind: 'failed', failure, broken: true };
				}
				for (const line of complete) {
					const outcome = this.#onLine(line);
					if (outcome) return outcome;
					if (this.stopped) return stoppedOutcome;
				}
			}
		} finally {
			request.close();
		}
	}

	/** A watch answered with a status other than 200. */
	async #refused(request: OpenRequest, what: string): Promise<WatchOutcome> {
		if (request.status === 410) return { kind: 'expired' };
		const chunks: Uint8Array[] = [];
		let received = 0;
		try {
			for (let chunk = await request.read(); chunk; chunk = await request.read()) {
				chunks.push(chunk);
				received += chunk.length;
				if (received >= statusBodyBytes) break;
			}
		} catch {
			// The status alone says enough.
		}
		const detail = statusMessageOf(Buffer.concat(chunks).toString('utf8'));
		return { kind: 'failed', failure: failureOfStatus(request.status, what, detail) };
	}

	/** One event of a watch, applied; an outcome when it ends the watch. */
	#onLine(line: string): WatchOutcome | undefined {
		if (line.trim() === '') return undefined;
		let event: unknown;
		try {
			event = parseJsonKeepingIntegers(line);
		} catch {
			return this.#malformed(line, 'not JSON');
		}
		if (!isRecord(event) || typeof event.type !== 'string' || !watchEventTypes.has(event.type)) {
			return this.#malformed(line, 'no known event type');
		}
		const { type: phase, object } = event;
		if (!isRecord(object)) return this.#malformed(line, 'no object');
		if (phase === 'ERROR') {
			const code = object.code;
			if (code === 410) return { kind: 'expired' };
			const message = typeof object.message === 'string' ? object.message : undefined;
			return {
				kind: 'failed',
				failure: failureOfStatus(
					typeof code === 'number' ? code : 500,
					`watch ${displayNameOf(this.resource)}`,
					message,
				),
			};
		}
		const host = this.#host;
		const metadata = isRecord(object.metadata) ? object.metadata : undefined;
		if (typeof metadata?.resourceVersion === 'string') {
			this.#resourceVersion = metadata.resourceVersion;
		}
		this.#recovered();
		if (phase === 'BOOKMARK') return undefined;
		if (typeof object.apiVersion !== 'string') object.apiVersion = apiVersionOf(this.resource);
		if (typeof object.kind !== 'string') object.kind = this.resource.kind;
		if (phase === 'DELETED') {
			const key = objectKeyOf(object);
			if (host.store.remove(this.resource.id, key)) {
				host.emit({ type: 'remove', resource: this.resource.id, key });
			}
			return undefined;
		}
		trimInPlace(object);
		const stored = host.store.upsert(this.resource.id, object);
		if (stored) host.emit({ type: 'upsert', resource: this.resource.id, ...stored });
		return undefined;
	}

	/** A line that is not a watch event: a change may have been lost, so the watch ends and the resource is listed. */
	#malformed(line: string, why: string): WatchOutcome {
		this.#malformedEvents++;
		const failure = new RequestFailure(
			'server-error',
			`the watch of ${displayNameOf(this.resource)} sent a malformed event (${this.#malformedEvents} so far); listing again, as a change may have been lost`,
		);
		this.#host.log(
			`${failure.message} (${why}, ${Buffer.byteLength(line)} bytes: ${JSON.stringify(line.slice(0, 80))})`,
		);
		return { kind: 'failed', failure, broken: true };
	}
}
