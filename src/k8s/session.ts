// One kube context, live: discovery of what the cluster serves, then list + watch per resource (client-go's
// reflector: resourceVersion, bookmarks, relist on 410 Gone, reconnect with backoff and jitter), feeding an
// ObjectStore and reporting events and states as data. Discovery runs again every few minutes and after a 404, so
// CRDs installed or removed later are followed. Every request has a bounded timeout, exec plugins included, so an
// unreachable cluster or a plugin waiting for a login becomes a state within seconds, never a spinner.
//
// HTTP goes through client-node: `KubeConfig.applySecurityAuthentication` (TLS, tokens, client certificates, exec,
// OIDC), its fetch-based `IsomorphicFetchHttpLibrary` for lists and discovery, and its `Watch` for watches.
//
// Failures are states, never exceptions: "cannot reach" (network, TLS, timeout) and server errors retry with
// backoff; "no permission" across namespaces falls back to listing namespace by namespace; "login required" and a
// broken kubeconfig wait for `retry()`, so a login plugin is not run again and again behind the user's back.
import {
	HttpMethod,
	IsomorphicFetchHttpLibrary,
	RequestContext,
	Watch,
	type KubeConfig,
} from '@kubernetes/client-node';
import { objectKeyOf } from '../core/tree/linking.ts';
import { isAsoGroup } from '../core/status/aso.ts';
import { isFluxGroup } from '../core/status/flux.ts';
import { isKubestellarGroup } from '../core/status/kubestellar.ts';
import type { Tone } from '../core/status/result.ts';
import { kubeConfigFor, LoginRequiredError, type MergedKubeconfig } from './kubeconfig.ts';
import { ObjectStore, trimObject, type StoredObject } from './store.ts';

// ---------------------------------------------------------------------------------------------------------------
// Public types

/** What a context, a system or a resource is doing, with a message for a human. */
export interface ConnectionState {
	readonly kind:
		| 'connecting'
		| 'ready'
		| 'paused'
		| 'cannot-reach'
		| 'login-required'
		| 'forbidden'
		| 'not-installed'
		| 'server-error'
		| 'invalid-config';
	readonly message: string;
}

/** How a state shows on a tree root or node (ResourceGraph.setRootState takes `{ tone, message }`). */
export function toneOfState(state: ConnectionState): Tone {
	switch (state.kind) {
		case 'ready':
			return 'ok';
		case 'connecting':
			return 'progressing';
		case 'paused':
			return 'suspended';
		case 'not-installed':
			return 'unknown';
		case 'login-required':
		case 'forbidden':
			return 'warning';
		case 'cannot-reach':
		case 'server-error':
		case 'invalid-config':
			return 'error';
	}
}

/** The systems a session watches; `workloads` are the apps/batch kinds KubeStellar places. */
export type WatchedSystem = 'fleet' | 'kubestellar' | 'harbor' | 'flux' | 'aso' | 'workloads';

/** The systems in display order. */
export const watchedSystems: readonly WatchedSystem[] = [
	'fleet',
	'kubestellar',
	'harbor',
	'flux',
	'aso',
	'workloads',
];

/** A resource the cluster serves and the session lists and watches. */
export interface WatchedResource {
	/** "group/version/plural" ("v1/plural" for the core group): the source id of its objects. */
	readonly id: string;
	readonly group: string;
	readonly version: string;
	readonly kind: string;
	readonly plural: string;
	readonly namespaced: boolean;
	readonly system: WatchedSystem;
}

/** A resource's state and how many objects the cache holds for it. */
export interface ResourceStatus {
	readonly resource: WatchedResource;
	readonly state: ConnectionState;
	readonly count: number;
	/** False when the resource is deliberately not watched (BundleDeployments in roll-ups-only mode). */
	readonly watched: boolean;
	/** The namespaces listed one by one because listing across namespaces is forbidden. */
	readonly namespaces?: readonly string[];
}

/** A system's state: not installed when none of its API groups is served. */
export interface SystemStatus {
	readonly system: WatchedSystem;
	readonly state: ConnectionState;
	/** The served API groups of the system. */
	readonly groups: readonly string[];
}

/**
 * How BundleDeployments are handled: all watched, or (above the threshold) not watched, relying on the roll-ups
 * Fleet writes into GitRepo, Bundle and Cluster status and listing a node's BundleDeployments when asked.
 */
export interface BundleDeploymentMode {
	readonly mode: 'unknown' | 'watch-all' | 'roll-ups-only';
	readonly threshold: number;
	/** The count the decision was made on; absent until counted, or when counting stopped early. */
	readonly count?: number;
	/** Counting stopped once the count went above the threshold: there are at least this many. */
	readonly atLeast?: boolean;
}

/** Everything a view needs to show about a context. */
export interface SessionStatus {
	readonly context: string;
	readonly state: ConnectionState;
	readonly systems: readonly SystemStatus[];
	readonly resources: readonly ResourceStatus[];
	readonly bundleDeployments: BundleDeploymentMode;
}

/** A change in the cache. `resync` carries the whole content of a resource after a (re)list. */
export type ObjectEvent =
	| {
			readonly type: 'upsert';
			readonly resource: string;
			readonly key: string;
			readonly object: StoredObject;
	  }
	| { readonly type: 'remove'; readonly resource: string; readonly key: string }
	| {
			readonly type: 'resync';
			readonly resource: string;
			readonly objects: readonly StoredObject[];
	  };

/** Something to call to stop listening. */
export interface Disposable {
	dispose(): void;
}

/** What a session needs; only `kubeconfig` and `context` are required. */
export interface SessionOptions {
	readonly kubeconfig: MergedKubeconfig;
	readonly context: string;
	/** Namespaces to list one by one when listing across namespaces is forbidden (else the context's namespace). */
	readonly namespaces?: readonly string[];
	/** Bound on every request until its answer starts, and on silence while a body arrives. Default 10 s. */
	readonly requestTimeoutMs?: number;
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

// ---------------------------------------------------------------------------------------------------------------
// Which resources

// The groups watched and the system each belongs to (issue 5, "Discovery"). apps and batch only for the workload
// kinds KubeStellar places; OCM only for ManagedCluster, which the multi-WEC merge reads (core/merge/mergeMode.ts).
const workloadKinds: Readonly<Record<string, readonly string[]>> = {
	apps: ['Deployment', 'StatefulSet', 'DaemonSet'],
	batch: ['Job', 'CronJob'],
	'cluster.open-cluster-management.io': ['ManagedCluster'],
};

/** The system a served API group belongs to, or undefined when the session does not watch it. */
export function watchedSystemOf(group: string): WatchedSystem | undefined {
	if (group === 'fleet.cattle.io') return 'fleet';
	if (isKubestellarGroup(group) || group === 'cluster.open-cluster-management.io') {
		return 'kubestellar';
	}
	if (group === 'goharbor.io') return 'harbor';
	if (isFluxGroup(group)) return 'flux';
	if (isAsoGroup(group)) return 'aso';
	if (group === 'apps' || group === 'batch') return 'workloads';
	return undefined;
}

function isWatchedKind(group: string, kind: string): boolean {
	// Never Secrets, whatever group serves them.
	if (kind === 'Secret') return false;
	const kinds = workloadKinds[group];
	return kinds === undefined || kinds.includes(kind);
}

/** The id of a resource: "group/version/plural". */
export function resourceIdOf(group: string, version: string, plural: string): string {
	return group === '' ? `${version}/${plural}` : `${group}/${version}/${plural}`;
}

function displayNameOf(resource: WatchedResource): string {
	return resource.group === '' ? resource.plural : `${resource.plural}.${resource.group}`;
}

function apiVersionOf(resource: WatchedResource): string {
	return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
}

/** The URL path of a resource's collection, across namespaces or in one. */
export function collectionPathOf(resource: WatchedResource, namespace?: string): string {
	const base =
		resource.group === ''
			? `/api/${resource.version}`
			: `/apis/${resource.group}/${resource.version}`;
	return namespace !== undefined && resource.namespaced
		? `${base}/namespaces/${encodeURIComponent(namespace)}/${resource.plural}`
		: `${base}/${resource.plural}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The resources to watch from an APIResourceList of one group version: top-level resources (no subresources) that
 * can be listed and watched, of the kinds the session wants.
 */
export function resourcesOfGroupVersion(
	group: string,
	version: string,
	resourceList: unknown,
): WatchedResource[] {
	const system = watchedSystemOf(group);
	const resources = isRecord(resourceList) ? resourceList.resources : undefined;
	if (system === undefined || !Array.isArray(resources)) return [];
	const result: WatchedResource[] = [];
	for (const entry of resources) {
		if (!isRecord(entry)) continue;
		const { name, kind, namespaced, verbs } = entry;
		if (typeof name !== 'string' || name.includes('/') || typeof kind !== 'string') continue;
		if (!Array.isArray(verbs) || !verbs.includes('list') || !verbs.includes('watch')) continue;
		if (!isWatchedKind(group, kind)) continue;
		result.push({
			id: resourceIdOf(group, version, name),
			group,
			version,
			kind,
			plural: name,
			namespaced: namespaced === true,
			system,
		});
	}
	return result;
}

/** The group versions to discover from an APIGroupList: the preferred version of each watched group. */
export function groupVersionsToDiscover(groupList: unknown): { group: string; version: string }[] {
	const groups = isRecord(groupList) ? groupList.groups : undefined;
	if (!Array.isArray(groups)) return [];
	const result: { group: string; version: string }[] = [];
	for (const entry of groups) {
		if (!isRecord(entry) || typeof entry.name !== 'string') continue;
		if (watchedSystemOf(entry.name) === undefined) continue;
		const preferred = isRecord(entry.preferredVersion) ? entry.preferredVersion.version : undefined;
		const first =
			Array.isArray(entry.versions) && isRecord(entry.versions[0])
				? entry.versions[0].version
				: undefined;
		const version = typeof preferred === 'string' ? preferred : first;
		if (typeof version === 'string') result.push({ group: entry.name, version });
	}
	return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Failures

type FailureKind =
	| 'cannot-reach'
	| 'login-required'
	| 'forbidden'
	| 'not-installed'
	| 'gone'
	| 'server-error'
	| 'invalid-config'
	| 'stopped';

/** A failed request, classified. */
export class RequestFailure extends Error {
	readonly kind: FailureKind;
	readonly status: number | undefined;
	constructor(kind: FailureKind, message: string, status?: number) {
		super(message);
		this.kind = kind;
		this.status = status;
	}
}

const tlsErrorCodes = new Set([
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'CERT_HAS_EXPIRED',
	'ERR_TLS_CERT_ALTNAME_INVALID',
	'CERT_SIGNATURE_FAILURE',
]);

function statusMessageOf(body: string): string | undefined {
	try {
		const parsed: unknown = JSON.parse(body);
		if (isRecord(parsed) && typeof parsed.message === 'string' && parsed.message !== '') {
			return parsed.message;
		}
	} catch {
		// Not a Status object: fall back to the HTTP status text.
	}
	return undefined;
}

/** A failure for an HTTP status; `what` says what was asked, e.g. "list gitrepos.fleet.cattle.io". */
function failureOfStatus(status: number, what: string, detail?: string): RequestFailure {
	const suffix = detail ? `: ${detail}` : '';
	if (status === 401) {
		return new RequestFailure(
			'login-required',
			`login required: the server did not accept the credentials (401)${suffix}`,
			status,
		);
	}
	if (status === 403) {
		return new RequestFailure('forbidden', `no permission to ${what}${suffix}`, status);
	}
	if (status === 404) {
		return new RequestFailure(
			'not-installed',
			`not installed: ${what} answered 404${suffix}`,
			status,
		);
	}
	if (status === 410) {
		return new RequestFailure('gone', `resource version expired (410)${suffix}`, status);
	}
	return new RequestFailure(
		'server-error',
		`the server answered ${status} to ${what}${suffix}`,
		status,
	);
}

function causeOf(error: unknown): { code?: string; message: string } {
	let current: unknown = error;
	for (let depth = 0; depth < 4; depth++) {
		if (!(current instanceof Error)) break;
		const code = (current as NodeJS.ErrnoException).code;
		if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') {
			return { code, message: current.message };
		}
		const next = (current as { cause?: unknown }).cause;
		if (next === undefined) return { message: current.message };
		current = next;
	}
	return { message: error instanceof Error ? error.message : String(error) };
}

export function failureOf(error: unknown, server: string, timeoutMs: number): RequestFailure {
	if (error instanceof RequestFailure) return error;
	if (error instanceof LoginRequiredError) {
		return new RequestFailure('login-required', `login required: ${error.message}`);
	}
	if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
		return new RequestFailure(
			'cannot-reach',
			`cannot reach ${server}: no answer within ${seconds(timeoutMs)}`,
		);
	}
	const statusCode = (error as { statusCode?: unknown } | undefined)?.statusCode;
	if (typeof statusCode === 'number') return failureOfStatus(statusCode, 'watch');
	const cause = causeOf(error);
	if (cause.code !== undefined && tlsErrorCodes.has(cause.code)) {
		return new RequestFailure(
			'cannot-reach',
			`cannot reach ${server}: its certificate is not trusted (${cause.code})`,
		);
	}
	if (cause.code === 'ENOENT' || cause.code === 'EACCES') {
		// A certificate or token file named by the kubeconfig.
		return new RequestFailure(
			'invalid-config',
			`a file the kubeconfig names cannot be read: ${cause.message}`,
		);
	}
	const detail =
		cause.code === 'ECONNREFUSED'
			? 'connection refused'
			: cause.code === 'ENOTFOUND' || cause.code === 'EAI_AGAIN'
				? 'host not found'
				: cause.message;
	return new RequestFailure('cannot-reach', `cannot reach ${server}: ${detail}`);
}

function seconds(ms: number): string {
	return `${Math.round(ms / 100) / 10} s`;
}

// ---------------------------------------------------------------------------------------------------------------
// Requests

type Dispatcher = NonNullable<ReturnType<RequestContext['getDispatcher']>>;

export interface ClientSettings {
	readonly kubeConfig: KubeConfig;
	readonly server: string;
	readonly requestTimeoutMs: number;
	readonly execTimeoutMs: number;
	/** Changes when an exec plugin hands out a new client certificate. */
	readonly tlsVersion: () => number;
	/** The connections requests share (see `authenticate`). */
	readonly connections: {
		dispatcher: Dispatcher | undefined;
		version: number;
		createdAt: number;
	};
}

// Shared connections are renewed this often, so certificate and CA files rewritten on disk are read again.
const connectionReuseMs = 5 * 60_000;

/**
 * Applies the kubeconfig's credentials and TLS settings to a request, bounded by the exec timeout (plus the
 * request timeout, for OIDC refreshes). client-node builds a new undici Agent for every request, which means a TLS
 * handshake per list page; requests of a session share one instead, renewed when the client certificate changes.
 */
export async function authenticate(client: ClientSettings, context: RequestContext): Promise<void> {
	const limit = client.execTimeoutMs + client.requestTimeoutMs;
	await withTimeout(
		client.kubeConfig.applySecurityAuthentication(context),
		limit,
		() => new LoginRequiredError(`no credentials within ${seconds(limit)}`),
	);
	const fresh = context.getDispatcher();
	if (!fresh) return;
	const shared = client.connections;
	const version = client.tlsVersion();
	if (
		shared.dispatcher &&
		shared.version === version &&
		Date.now() - shared.createdAt < connectionReuseMs
	) {
		context.setDispatcher(shared.dispatcher);
		void fresh.close().catch(() => undefined);
		return;
	}
	const previous = shared.dispatcher;
	shared.dispatcher = fresh;
	shared.version = version;
	shared.createdAt = Date.now();
	// Requests still running on the previous connections (watches) finish there.
	if (previous) void previous.close().catch(() => undefined);
}

/** Stops sharing the current connections: the next request opens new ones. `destroy` also ends running ones. */
export function dropConnections(client: ClientSettings, destroy = false): void {
	const dispatcher = client.connections.dispatcher;
	client.connections.dispatcher = undefined;
	if (!dispatcher) return;
	void (destroy ? dispatcher.destroy() : dispatcher.close()).catch(() => undefined);
}

const httpLibrary = new IsomorphicFetchHttpLibrary();

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const timer = setTimeout(() => reject(onTimeout()), ms);
		promise.then(
			(value) => {
				clearTimeout(timer);
				resolve(value);
			},
			(error: unknown) => {
				clearTimeout(timer);
				reject(error instanceof Error ? error : new Error(String(error)));
			},
		);
	});
}

/** A request's answer: its HTTP status and body. */
export interface Answer {
	readonly status: number;
	readonly text: string;
}

/**
 * One request through client-node, bounded: credentials within the exec timeout (plus the request timeout, for
 * OIDC refreshes), the answer's start within the request timeout, then no silence longer than it while the body
 * arrives. `stop` aborts it; `onBodyStart` sees the start of a 200 body until it returns true. Network failures
 * throw RequestFailure ('stopped' once `stop` has aborted).
 */
export async function sendRequest(
	client: ClientSettings,
	method: HttpMethod,
	path: string,
	query: Readonly<Record<string, string | number | boolean | undefined>>,
	options: {
		readonly body?: { readonly contentType: string; readonly text: string };
		readonly stop?: AbortSignal;
		readonly onBodyStart?: (prefix: string) => boolean;
	} = {},
): Promise<Answer> {
	const { body, stop, onBodyStart } = options;
	const url = new URL(client.server + path);
	for (const [key, value] of Object.entries(query)) {
		if (value !== undefined) url.searchParams.set(key, String(value));
	}
	const context = new RequestContext(url.toString(), method);
	context.setHeaderParam('Accept', 'application/json');
	if (body) {
		context.setHeaderParam('Content-Type', body.contentType);
		context.setBody(body.text);
	}
	const timeoutMs = client.requestTimeoutMs;
	try {
		await authenticate(client, context);
	} catch (error) {
		throw failureOf(error, client.server, timeoutMs);
	}
	if (stop?.aborted) throw new RequestFailure('stopped', 'stopped');
	const controller = new AbortController();
	const onStop = (): void => controller.abort();
	stop?.addEventListener('abort', onStop, { once: true });
	let timer: NodeJS.Timeout | undefined;
	const arm = (): void => {
		clearTimeout(timer);
		timer = setTimeout(
			() => controller.abort(new DOMException('timed out', 'TimeoutError')),
			timeoutMs,
		);
	};
	context.setSignal(controller.signal);
	try {
		arm();
		const response = await httpLibrary.send(context).toPromise();
		arm();
		const stream = response.body.stream();
		const chunks: Uint8Array[] = [];
		let watchingStart = onBodyStart !== undefined && response.httpStatusCode === 200;
		let received = 0;
		if (stream) {
			const reader = stream.getReader();
			for (;;) {
				const { done, value } = await reader.read();
				if (done) break;
				chunks.push(value);
				received += value.length;
				arm();
				if (watchingStart && onBodyStart) {
					const prefix = Buffer.concat(chunks).toString('utf8', 0, Math.min(received, 4096));
					watchingStart = !onBodyStart(prefix) && received < 4096;
				}
			}
		}
		return { status: response.httpStatusCode, text: Buffer.concat(chunks).toString('utf8') };
	} catch (error) {
		if (stop?.aborted) throw new RequestFailure('stopped', 'stopped');
		const failure = failureOf(error, client.server, timeoutMs);
		// Connections that failed may be dead (a restarted server): later requests open new ones.
		if (failure.kind === 'cannot-reach') dropConnections(client);
		throw failure;
	} finally {
		clearTimeout(timer);
		stop?.removeEventListener('abort', onStop);
	}
}

/** GET a JSON document, bounded as `sendRequest` bounds it. Throws RequestFailure. */
async function getJson(
	client: ClientSettings,
	path: string,
	query: Readonly<Record<string, string | number | boolean | undefined>>,
	what: string,
	stop: AbortSignal,
	onBodyStart?: (prefix: string) => boolean,
): Promise<unknown> {
	const answer = await sendRequest(client, HttpMethod.GET, path, query, {
		stop,
		...(onBodyStart ? { onBodyStart } : {}),
	});
	if (answer.status !== 200) {
		throw failureOfStatus(answer.status, what, statusMessageOf(answer.text));
	}
	try {
		return JSON.parse(answer.text) as unknown;
	} catch {
		throw new RequestFailure('server-error', `the answer to ${what} is not JSON`);
	}
}

/** One page of a list: its items (apiVersion and kind filled in) and the list's resourceVersion. */
interface ListPage {
	readonly items: Record<string, unknown>[];
	readonly resourceVersion: string | undefined;
}

/**
 * The `continue` token of a list from the start of its JSON, or 'unknown' when the start is too short to say.
 * kube-apiserver writes a list's metadata before its items (Go encodes struct fields in order), so the token is
 * known long before the body has arrived.
 */
export function continueTokenOfPrefix(
	prefix: string,
): { readonly known: false } | { readonly known: true; readonly token: string | undefined } {
	const itemsAt = prefix.indexOf('"items":');
	const metadata = /"metadata":\{([^{}]*)\}/.exec(prefix);
	if (!metadata || (itemsAt >= 0 && metadata.index > itemsAt)) {
		return itemsAt >= 0 ? { known: true, token: undefined } : { known: false };
	}
	const token = /"continue":"([^"\\]*)"/.exec(metadata[1] ?? '')?.[1];
	return { known: true, token: token !== undefined && token !== '' ? token : undefined };
}

interface PageRequest {
	readonly continueToken: string | undefined;
	readonly page: Promise<unknown>;
	readonly controller: AbortController;
	/** The next page, asked for as soon as this one's metadata arrived. */
	ahead?: PageRequest;
}

/**
 * The pages of a collection, following `continue`; every request bounded as `getJson` bounds it. Each next page is
 * asked for as soon as the current one's metadata has arrived, so the server prepares it while the client is still
 * reading and parsing the current one.
 */
async function* listPages(
	client: ClientSettings,
	resource: WatchedResource,
	namespace: string | undefined,
	query: Readonly<Record<string, string | number | undefined>>,
	pageSize: number,
	stop: AbortSignal,
): AsyncGenerator<ListPage> {
	const where =
		namespace !== undefined
			? ` in namespace ${namespace}`
			: resource.namespaced
				? ' across namespaces'
				: '';
	const what = `list ${displayNameOf(resource)}${where}`;
	const apiVersion = apiVersionOf(resource);
	const path = collectionPathOf(resource, namespace);
	const open = new Set<AbortController>();
	const onStop = (): void => {
		for (const controller of open) controller.abort();
	};
	stop.addEventListener('abort', onStop, { once: true });
	const request = (continueToken: string | undefined): PageRequest => {
		const controller = new AbortController();
		open.add(controller);
		const pageRequest: PageRequest = {
			continueToken,
			controller,
			page: getJson(
				client,
				path,
				{ limit: pageSize, ...query, continue: continueToken },
				what,
				controller.signal,
				(prefix) => {
					const next = continueTokenOfPrefix(prefix);
					if (!next.known) return false;
					if (next.token !== undefined && !stop.aborted) pageRequest.ahead = request(next.token);
					return true;
				},
			),
		};
		// Awaited below; this only keeps a page nobody reads (an early stop) from being an unhandled rejection.
		pageRequest.page.catch(() => undefined);
		return pageRequest;
	};
	try {
		let current: PageRequest | undefined = request(undefined);
		while (current) {
			const page: unknown = await current.page;
			open.delete(current.controller);
			if (!isRecord(page) || !Array.isArray(page.items)) {
				throw new RequestFailure('server-error', `the answer to ${what} is not a list`);
			}
			const metadata: Record<string, unknown> = isRecord(page.metadata) ? page.metadata : {};
			const continueToken =
				typeof metadata.continue === 'string' && metadata.continue !== ''
					? metadata.continue
					: undefined;
			const ahead: PageRequest | undefined = current.ahead;
			if (ahead && ahead.continueToken !== continueToken) {
				// The early read of the metadata was wrong: ask again with the token the parsed list gives.
				ahead.controller.abort();
				open.delete(ahead.controller);
			}
			current =
				continueToken === undefined
					? undefined
					: ahead && ahead.continueToken === continueToken
						? ahead
						: request(continueToken);
			const items: Record<string, unknown>[] = [];
			// List items of built-in types come without apiVersion and kind; the graph keys objects by them.
			for (const item of page.items) {
				if (!isRecord(item)) continue;
				if (typeof item.apiVersion !== 'string') item.apiVersion = apiVersion;
				if (typeof item.kind !== 'string') item.kind = resource.kind;
				items.push(item);
			}
			yield {
				items,
				resourceVersion:
					typeof metadata.resourceVersion === 'string' ? metadata.resourceVersion : undefined,
			};
		}
	} finally {
		// Pages asked for in advance that nobody will read (the caller stopped early, or a failure).
		onStop();
		stop.removeEventListener('abort', onStop);
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Events

function emitter<T>(log: (message: string) => void): {
	on(listener: (event: T) => void): Disposable;
	fire(event: T): void;
	clear(): void;
} {
	const listeners = new Set<(event: T) => void>();
	return {
		on(listener) {
			listeners.add(listener);
			return { dispose: () => listeners.delete(listener) };
		},
		fire(event) {
			for (const listener of listeners) {
				try {
					listener(event);
				} catch (error) {
					// A listener's bug must not stop the watch that feeds every other listener.
					log(
						`a session listener threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
					);
				}
			}
		},
		clear() {
			listeners.clear();
		},
	};
}

// ---------------------------------------------------------------------------------------------------------------
// Reflector: list + watch of one resource, across namespaces or in one

type WatchOutcome =
	| { readonly kind: 'ended'; readonly established: boolean; readonly lastedMs: number }
	| { readonly kind: 'expired' }
	| { readonly kind: 'failed'; readonly failure: RequestFailure };

interface ReflectorHost {
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

const connectingState: ConnectionState = { kind: 'connecting', message: 'connecting' };

class Reflector {
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

// ---------------------------------------------------------------------------------------------------------------
// Session

/** The result of an on-demand list: the objects, or why there are none. */
export type OnDemandList =
	| { readonly kind: 'ok'; readonly objects: readonly StoredObject[] }
	| { readonly kind: 'failed'; readonly state: ConnectionState };

interface Discovery {
	readonly resources: readonly WatchedResource[];
	readonly groups: ReadonlyMap<string, ConnectionState | undefined>;
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

/** Whether two discoveries serve the same resources and groups, in the same states. */
function sameDiscovery(a: Discovery, b: Discovery): boolean {
	if (a.resources.length !== b.resources.length || a.groups.size !== b.groups.size) return false;
	if (a.resources.some((resource, index) => resource.id !== b.resources[index]?.id)) return false;
	for (const [group, state] of a.groups) {
		if (!b.groups.has(group)) return false;
		const other = b.groups.get(group);
		if (state?.kind !== other?.kind || state?.message !== other?.message) return false;
	}
	return true;
}

/**
 * A rediscovery in which some groups failed (500, 403): they keep what the previous discovery found, so their
 * watches go on. A group that answered 404 has gone and is not kept.
 */
function withFailedGroupsKept(previous: Discovery, next: Discovery): Discovery {
	const kept = new Set<string>();
	for (const [group, state] of next.groups) {
		if (state !== undefined && state.kind !== 'not-installed' && previous.groups.has(group)) {
			kept.add(group);
		}
	}
	if (kept.size === 0) return next;
	const groups = new Map(next.groups);
	for (const group of kept) groups.set(group, previous.groups.get(group));
	const resources = [
		...next.resources.filter((resource) => !kept.has(resource.group)),
		...previous.resources.filter((resource) => kept.has(resource.group)),
	].sort((a, b) => a.id.localeCompare(b.id));
	return { resources, groups };
}

function sameBundleDeploymentMode(a: BundleDeploymentMode, b: BundleDeploymentMode): boolean {
	return (
		a.mode === b.mode &&
		a.threshold === b.threshold &&
		a.count === b.count &&
		a.atLeast === b.atLeast
	);
}

const bundleDeploymentGroup = 'fleet.cattle.io';
const bundleDeploymentKind = 'BundleDeployment';

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
		this.#log = options.log ?? (() => undefined);
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
		const resources = this.#resourceStatuses();
		return {
			context: this.context,
			state: this.#contextState(resources),
			systems: this.#systemStatuses(resources),
			resources,
			bundleDeployments: this.#bundleDeployments,
		};
	}

	/**
	 * Lists BundleDeployments on demand (roll-ups-only mode: when a node is expanded), by label selector, across
	 * namespaces or in the fallback namespaces. The cache is left alone.
	 */
	async listBundleDeployments(labelSelector: string, namespace?: string): Promise<OnDemandList> {
		const resource = this.#discovery?.resources.find(
			(entry) => entry.group === bundleDeploymentGroup && entry.kind === bundleDeploymentKind,
		);
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
		const objects: StoredObject[] = [];
		try {
			for (const scope of namespaces) {
				const pages = listPages(
					client,
					resource,
					scope,
					{ labelSelector },
					this.#options.pageSize ?? 500,
					stop,
				);
				for await (const page of pages) {
					for (const item of page.items) {
						const trimmed = trimObject(item);
						if (trimmed) objects.push(trimmed);
					}
				}
			}
		} catch (error) {
			const failure = failureOf(error, client.server, client.requestTimeoutMs);
			const kind =
				failure.kind === 'gone' || failure.kind === 'stopped' ? 'server-error' : failure.kind;
			return { kind: 'failed', state: { kind, message: failure.message } };
		}
		return { kind: 'ok', objects };
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
		const initial = this.#options.backoff?.initialMs ?? 500;
		const max = this.#options.backoff?.maxMs ?? 30_000;
		// Permissions and CRDs change rarely: ask again at the slowest pace.
		const step =
			failure?.kind === 'forbidden' || failure?.kind === 'not-installed'
				? max
				: Math.min(max, initial * 2 ** Math.min(attempt, 30));
		const random = this.#options.random ?? Math.random;
		// Jitter: between half and all of the step, so many watches that failed together do not retry together.
		return Math.round(step / 2 + (step / 2) * random());
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
				discovery = await this.#discover(client, stop);
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
			const found = await this.#discover(client, stop);
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
			if (this.#isUnwatchedBundleDeployment(resource)) {
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

	#isUnwatchedBundleDeployment(resource: WatchedResource): boolean {
		return (
			resource.group === bundleDeploymentGroup &&
			resource.kind === bundleDeploymentKind &&
			this.#bundleDeployments.mode === 'roll-ups-only'
		);
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

	async #discover(client: ClientSettings, stop: AbortSignal): Promise<Discovery> {
		const groupList = await getJson(client, '/apis', {}, 'discover API groups', stop);
		const toDiscover = groupVersionsToDiscover(groupList);
		const groups = new Map<string, ConnectionState | undefined>();
		const resources: WatchedResource[] = [];
		// A few at a time: ASO alone serves dozens of groups.
		const queue = [...toDiscover];
		const worker = async (): Promise<void> => {
			for (let next = queue.shift(); next; next = queue.shift()) {
				const { group, version } = next;
				try {
					const list = await getJson(
						client,
						`/apis/${group}/${version}`,
						{},
						`discover ${group}/${version}`,
						stop,
					);
					resources.push(...resourcesOfGroupVersion(group, version, list));
					groups.set(group, undefined);
				} catch (error) {
					const failure = failureOf(error, client.server, client.requestTimeoutMs);
					// Unreachable or no login: the whole context is, not one group.
					if (
						failure.kind === 'cannot-reach' ||
						failure.kind === 'login-required' ||
						failure.kind === 'stopped'
					) {
						throw failure;
					}
					const kind = failure.kind === 'gone' ? 'server-error' : failure.kind;
					groups.set(group, { kind, message: failure.message });
				}
			}
		};
		await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
		resources.sort((a, b) => a.id.localeCompare(b.id));
		return { resources, groups };
	}

	/**
	 * Counts BundleDeployments with a list of limit 1 (the server's remainingItemCount), or by counting pages when
	 * the server gives no count, stopping once above the threshold. Roll-ups-only mode ends only below 90% of the
	 * threshold. When counting fails the previous decision stands (watch all at first).
	 */
	async #decideBundleDeploymentMode(
		client: ClientSettings,
		discovery: Discovery,
		stop: AbortSignal,
	): Promise<BundleDeploymentMode> {
		const threshold = this.#threshold();
		const previous = this.#bundleDeployments;
		const resource = discovery.resources.find(
			(entry) => entry.group === bundleDeploymentGroup && entry.kind === bundleDeploymentKind,
		);
		if (!resource) return { mode: 'unknown', threshold };
		const countIn = async (
			namespace: string | undefined,
			budget: number,
		): Promise<{ count: number; atLeast: boolean }> => {
			const path = collectionPathOf(resource, namespace);
			const what = `count ${displayNameOf(resource)}`;
			const first = await getJson(client, path, { limit: 1 }, what, stop);
			if (!isRecord(first) || !Array.isArray(first.items)) return { count: 0, atLeast: false };
			const metadata = isRecord(first.metadata) ? first.metadata : {};
			if (typeof metadata.remainingItemCount === 'number') {
				return { count: first.items.length + metadata.remainingItemCount, atLeast: false };
			}
			let count = first.items.length;
			let continueToken =
				typeof metadata.continue === 'string' && metadata.continue !== ''
					? metadata.continue
					: undefined;
			while (continueToken !== undefined && count <= budget) {
				const page = await getJson(
					client,
					path,
					{ limit: this.#options.pageSize ?? 500, continue: continueToken },
					what,
					stop,
				);
				if (!isRecord(page) || !Array.isArray(page.items)) break;
				count += page.items.length;
				const pageMetadata = isRecord(page.metadata) ? page.metadata : {};
				continueToken =
					typeof pageMetadata.continue === 'string' && pageMetadata.continue !== ''
						? pageMetadata.continue
						: undefined;
			}
			return { count, atLeast: continueToken !== undefined };
		};
		try {
			let counted: { count: number; atLeast: boolean };
			try {
				counted = await countIn(undefined, threshold);
			} catch (error) {
				const namespaces = this.#namespacesForFallback();
				if (
					!(error instanceof RequestFailure) ||
					error.kind !== 'forbidden' ||
					namespaces.length === 0
				) {
					throw error;
				}
				counted = { count: 0, atLeast: false };
				for (const namespace of namespaces) {
					const part = await countIn(namespace, threshold - counted.count);
					counted = { count: counted.count + part.count, atLeast: counted.atLeast || part.atLeast };
					if (counted.count > threshold) break;
				}
			}
			const rollUpsOnly =
				counted.count > threshold ||
				(previous.mode === 'roll-ups-only' && counted.count * 10 >= threshold * 9);
			return {
				mode: rollUpsOnly ? 'roll-ups-only' : 'watch-all',
				threshold,
				count: counted.count,
				...(counted.atLeast ? { atLeast: true } : {}),
			};
		} catch (error) {
			if (stop.aborted) return previous;
			// Counting failed (forbidden, say): the BundleDeployment watch reports the same problem itself.
			const failure = failureOf(error, client.server, client.requestTimeoutMs);
			this.#log(`counting BundleDeployments in ${this.context} failed: ${failure.message}`);
			return previous.mode === 'unknown' ? { mode: 'watch-all', threshold } : previous;
		}
	}

	#resourceStatuses(): ResourceStatus[] {
		const resources = this.#discovery?.resources ?? [];
		return resources.map((resource): ResourceStatus => {
			const count = this.store.countOf(resource.id);
			if (this.#isUnwatchedBundleDeployment(resource)) {
				const { count: counted = 0, atLeast, threshold } = this.#bundleDeployments;
				const number = (value: number): string => value.toLocaleString('en-US');
				const why =
					counted > threshold
						? `is above the threshold of ${number(threshold)}`
						: `was above the threshold of ${number(threshold)}; watched again below ${number(Math.ceil((threshold * 9) / 10))}`;
				return {
					resource,
					count,
					watched: false,
					state: {
						kind: 'ready',
						message: `roll-ups only: ${atLeast ? 'more than ' : ''}${number(counted)} BundleDeployments ${why}; they are listed when a node is expanded`,
					},
				};
			}
			const reflectors = this.#reflectors.get(resource.id);
			const namespaces = this.#fallbackNamespaces.get(resource.id);
			const base = { resource, count, watched: true, ...(namespaces ? { namespaces } : {}) };
			if (!this.#run) return { ...base, state: this.#discoveryState };
			if (!reflectors || reflectors.length === 0) return { ...base, state: connectingState };
			return { ...base, state: this.#combinedState(resource, reflectors, namespaces) };
		});
	}

	#combinedState(
		resource: WatchedResource,
		reflectors: readonly Reflector[],
		namespaces: readonly string[] | undefined,
	): ConnectionState {
		const first = reflectors[0];
		if (!namespaces || reflectors.length === 1) {
			if (!first || !first.answered) return connectingState;
			if (!namespaces) return first.state;
		}
		if (reflectors.some((reflector) => !reflector.answered)) return connectingState;
		const readyIn = reflectors.filter((reflector) => reflector.state.kind === 'ready');
		const failed = reflectors.filter((reflector) => reflector.state.kind !== 'ready');
		const list = (items: readonly Reflector[]): string =>
			items.map((item) => item.namespace ?? '').join(', ');
		if (readyIn.length > 0) {
			return {
				kind: 'ready',
				message: `watching in namespace${readyIn.length > 1 ? 's' : ''} ${list(readyIn)} only: no permission to list ${displayNameOf(resource)} across namespaces${failed.length > 0 ? ` (and not in ${list(failed)})` : ''}`,
			};
		}
		if (failed.every((reflector) => reflector.state.kind === 'forbidden')) {
			return {
				kind: 'forbidden',
				message: `no permission to list ${displayNameOf(resource)} across namespaces or in namespace${failed.length > 1 ? 's' : ''} ${list(failed)}`,
			};
		}
		return (
			failed.find((reflector) => reflector.state.kind !== 'forbidden')?.state ?? connectingState
		);
	}

	#systemStatuses(resources: readonly ResourceStatus[]): SystemStatus[] {
		return watchedSystems.map((system): SystemStatus => {
			const groups = [...(this.#discovery?.groups.keys() ?? [])].filter(
				(group) => watchedSystemOf(group) === system,
			);
			if (!this.#discovery) return { system, groups, state: this.#discoveryState };
			if (groups.length === 0) {
				return {
					system,
					groups,
					state: { kind: 'not-installed', message: `${system} is not installed on this cluster` },
				};
			}
			const groupFailure = groups
				.map((group) => this.#discovery?.groups.get(group))
				.find((state) => state !== undefined);
			const mine = resources.filter((entry) => entry.resource.system === system);
			const problem = mine.find((entry) => entry.state.kind !== 'ready');
			const state: ConnectionState = !this.#run
				? this.#discoveryState
				: problem
					? problem.state.kind === 'connecting'
						? connectingState
						: {
								kind: problem.state.kind,
								message: `${displayNameOf(problem.resource)}: ${problem.state.message}`,
							}
					: (groupFailure ?? {
							kind: 'ready',
							message: `${mine.length} resource${mine.length === 1 ? '' : 's'} watched`,
						});
			return { system, groups, state };
		});
	}

	#contextState(resources: readonly ResourceStatus[]): ConnectionState {
		if (this.#disposed) return { kind: 'paused', message: 'closed' };
		if (!this.#run || this.#discoveryState.kind !== 'ready') return this.#discoveryState;
		const pending = resources.filter((entry) => entry.state.kind === 'connecting').length;
		if (pending > 0) {
			return {
				kind: 'connecting',
				message: `listing: ${resources.length - pending} of ${resources.length} resources`,
			};
		}
		const watched = resources.filter((entry) => entry.watched);
		const failures = watched.filter((entry) => entry.state.kind !== 'ready');
		// Everything failing the same way is the context's problem, e.g. the server went away.
		const first = failures[0];
		if (
			first &&
			failures.length === watched.length &&
			(first.state.kind === 'cannot-reach' ||
				first.state.kind === 'login-required' ||
				first.state.kind === 'server-error') &&
			failures.every((entry) => entry.state.kind === first.state.kind)
		) {
			return first.state;
		}
		const problems = failures.length > 0 ? ` (${failures.length} with problems)` : '';
		return {
			kind: 'ready',
			message: `${watched.length} resource${watched.length === 1 ? '' : 's'} watched${problems}`,
		};
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
