// Requests to a cluster, bounded and classified. HTTP goes through client-node:
// `KubeConfig.applySecurityAuthentication` (TLS, tokens, client certificates, exec, OIDC) and its fetch-based
// `IsomorphicFetchHttpLibrary`, or for a GET read whole (list pages, discovery) the request API of the connection
// pool client-node built (`sendThroughPool`); every request has a bounded timeout, exec plugins included, so an
// unreachable cluster or a plugin waiting for a login becomes a failure within seconds. Every answer is bounded too:
// in silence, in total time (watches excepted) and in bytes, so a server that trickles or floods becomes a failure,
// not a spinner or an out-of-memory crash. A failure is a RequestFailure whose kind the session turns into a state.
import {
	HttpMethod,
	IsomorphicFetchHttpLibrary,
	RequestContext,
	type KubeConfig,
} from '@kubernetes/client-node';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { StringDecoder } from 'node:string_decoder';
import { LongDigitRunWatch, parseJsonKeepingIntegers } from '../core/model/int64.ts';
import { isRecord } from '../core/model/object.ts';
import { LoginRequiredError } from './kubeconfig.ts';
import { errorText } from '../core/text/errorText.ts';

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
	/** The answer went over a size limit: asking again soon would only download the same bytes again. */
	readonly tooLarge: boolean;
	/**
	 * The connection closed or was reset before the answer was whole: a keep-alive connection the server had just
	 * closed, or one that broke. An idempotent request may be sent again at once, on a new connection.
	 */
	readonly connectionLost: boolean;
	constructor(
		kind: FailureKind,
		message: string,
		status?: number,
		tooLarge = false,
		connectionLost = false,
	) {
		super(message);
		this.kind = kind;
		this.status = status;
		this.tooLarge = tooLarge;
		this.connectionLost = connectionLost;
	}
}

/**
 * A text with the password of every URL in it replaced by "xxxxx", as Go's `url.URL.Redacted` (and so kubectl)
 * shows a URL: a kubeconfig may put credentials in a server address, and messages and logs name the server.
 */
export function withUrlPasswordsHidden(text: string): string {
	return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@:]*):[^\s/?#@]*@/gi, '$1$2:xxxxx@');
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

/** The message of a Kubernetes Status object, if the body is one. */
export function statusMessageOf(body: string): string | undefined {
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
export function failureOfStatus(status: number, what: string, detail?: string): RequestFailure {
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
	return { message: errorText(error) };
}

/**
 * Any error of a request as a RequestFailure; `server` and `timeoutMs` go into its message, with the password of
 * any URL hidden.
 */
export function failureOf(error: unknown, server: string, timeoutMs: number): RequestFailure {
	const failure = unmaskedFailureOf(error, withUrlPasswordsHidden(server), timeoutMs);
	const message = withUrlPasswordsHidden(failure.message);
	return message === failure.message
		? failure
		: new RequestFailure(
				failure.kind,
				message,
				failure.status,
				failure.tooLarge,
				failure.connectionLost,
			);
}

// Codes of a connection that closed or was reset under a request (undici's "other side closed" is UND_ERR_SOCKET).
const connectionLostCodes = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

function isConnectionLost(error: unknown): boolean {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
		const code = (current as NodeJS.ErrnoException).code;
		if (typeof code === 'string' && connectionLostCodes.has(code)) return true;
		current = (current as { cause?: unknown }).cause;
	}
	return false;
}

function unmaskedFailureOf(error: unknown, server: string, timeoutMs: number): RequestFailure {
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
	return new RequestFailure(
		'cannot-reach',
		`cannot reach ${server}: ${detail}`,
		undefined,
		false,
		isConnectionLost(error),
	);
}

/** A duration as a user reads it: "2.5 s". */
function seconds(ms: number): string {
	return `${Math.round(ms / 100) / 10} s`;
}

/** A size as a user reads it: "256 MiB", "1.5 MiB", "64 KiB". */
export function sizeText(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
	return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
}

// ---------------------------------------------------------------------------------------------------------------
// Requests

type Dispatcher = NonNullable<ReturnType<RequestContext['getDispatcher']>>;

export interface ClientSettings {
	readonly kubeConfig: KubeConfig;
	readonly server: string;
	/** Bound on every request until its answer starts, and on silence while a body arrives. */
	readonly requestTimeoutMs: number;
	/** Bound on a whole request, its answer included; watches excepted. */
	readonly requestDeadlineMs: number;
	/** Bound on the bytes of one answer (a list page, a discovery document). */
	readonly maxResponseBytes: number;
	/** Bound on the bytes of one watch event (one line of a watch). */
	readonly maxWatchEventBytes: number;
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

/** A whole request, answer included, may take this long (the default of `requestDeadlineMs`). */
export const defaultRequestDeadlineMs = 60_000;

/**
 * The most one answer may hold (the default of `maxResponseBytes`): lists come in pages of 500 objects, so only a
 * server that ignores the page size, or objects of megabytes each, come near it.
 */
export const defaultMaxResponseBytes = 256 * 1024 * 1024;

/** The most one watch event may hold (the default of `maxWatchEventBytes`); etcd stores objects up to 1.5 MiB. */
export const defaultMaxWatchEventBytes = 16 * 1024 * 1024;

/** The VS Code setting that raises `maxResponseBytes`, named in the message of an answer above it. */
const maxResponseSetting = 'kubeStatusLens.clusters.maxResponseMB';

// Shared connections are renewed this often, so certificate and CA files rewritten on disk are read again.
const connectionReuseMs = 5 * 60_000;

/**
 * Applies the kubeconfig's credentials and TLS settings to a request, bounded by the exec timeout (plus the
 * request timeout, for OIDC refreshes). client-node builds a new undici Agent for every request, which means a TLS
 * handshake per list page; requests of a session share one instead, renewed when the client certificate changes.
 */
async function authenticate(client: ClientSettings, context: RequestContext): Promise<void> {
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
	/** Whether the text holds a run of 16 digits (parseJsonKeepingIntegers's slower read), looked at as it came. */
	readonly longDigitRun: boolean;
}

type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/** A request whose answer has started: its status, and its body read chunk by chunk. */
export interface OpenRequest {
	readonly status: number;
	/** The body's next chunk, or undefined at its end. Throws RequestFailure ('stopped' once stopped). */
	read(): Promise<Uint8Array | undefined>;
	/** Ends the request and its timers; the connection is let go. */
	close(): void;
}

/** How a request is bounded besides the client's own timeouts. */
interface OpenOptions {
	readonly body?: { readonly contentType: string; readonly text: string };
	readonly stop?: AbortSignal;
	/** What was asked, for messages: "list gitrepos.fleet.cattle.io". */
	readonly what: string;
	/** Silence allowed once the answer has started; the request timeout when absent. */
	readonly silenceMs?: number;
	/** Bound on the whole request from when it is sent; none when absent (a watch). */
	readonly deadlineMs?: number;
	/** A GET whose answer is read whole (a list page, discovery): see `sendThroughPool`. */
	readonly readWhole?: boolean;
}

/** An answer as a transport hands it over: its status, its body's chunks, and a way to let it go. */
interface Transported {
	readonly status: number;
	/** The body's next chunk, or undefined at its end; throws what the transport threw. */
	next(): Promise<Uint8Array | undefined>;
	/** Lets the rest of the body go. */
	cancel(): void;
}

/** Through client-node's fetch: every request that is not a GET read whole (watches, writes). */
async function sendThroughFetch(context: RequestContext): Promise<Transported> {
	const response = await httpLibrary.send(context).toPromise();
	const reader = response.body.stream()?.getReader();
	return {
		status: response.httpStatusCode,
		next: async () => {
			if (!reader) return undefined;
			const { done, value } = await reader.read();
			return done ? undefined : value;
		},
		cancel: () => void reader?.cancel().catch(() => undefined),
	};
}

/**
 * Through the request API of the connection pool client-node built for the kubeconfig, for a GET read whole: fetch
 * hands each 16 KiB chunk through a web stream, which cost a list of 100,000 objects about twice the CPU time of
 * the pool's own Node stream. Compression is asked for as fetch (and client-go) ask for it, and inflated here.
 */
async function sendThroughPool(
	dispatcher: Dispatcher,
	context: RequestContext,
	signal: AbortSignal,
): Promise<Transported> {
	const url = new URL(context.getUrl());
	const answer = await dispatcher.request({
		origin: url.origin,
		path: `${url.pathname}${url.search}`,
		method: 'GET',
		headers: { ...context.getHeaders(), 'accept-encoding': 'gzip' },
		signal,
	});
	let body: Readable = answer.body;
	if (answer.headers['content-encoding'] === 'gzip') {
		// A failure of either stream ends the other, and reading the inflated one throws it.
		body = pipeline(answer.body, createGunzip(), () => undefined);
	}
	const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array, undefined>;
	return {
		status: answer.statusCode,
		next: async () => (await chunks.next()).value,
		cancel: () => {
			body.destroy();
			answer.body.destroy();
		},
	};
}

/**
 * Sends one request through client-node and waits for its answer to start: credentials within the exec timeout
 * (plus the request timeout, for OIDC refreshes), the answer's start within the request timeout, then no silence
 * longer than `silenceMs` between chunks and, when given, the whole of it within `deadlineMs`.
 */
export async function openRequest(
	client: ClientSettings,
	method: HttpMethod,
	path: string,
	query: Query,
	options: OpenOptions,
): Promise<OpenRequest> {
	const { body, stop, what } = options;
	const url = new URL(client.server + path);
	for (const [key, value] of Object.entries(query)) {
		if (value !== undefined) url.searchParams.set(key, String(value));
	}
	// fetch refuses a URL with credentials in it; Go's HTTP client (so kubectl) sends them as basic auth.
	const basic =
		url.username !== '' || url.password !== ''
			? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
			: undefined;
	url.username = '';
	url.password = '';
	const context = new RequestContext(url.toString(), method);
	context.setHeaderParam('Accept', 'application/json');
	if (body) {
		context.setHeaderParam('Content-Type', body.contentType);
		context.setBody(body.text);
	}
	const timeoutMs = client.requestTimeoutMs;
	const fail = (error: unknown): RequestFailure => {
		if (stop?.aborted) return new RequestFailure('stopped', 'stopped');
		const failure = failureOf(error, client.server, timeoutMs);
		// Connections that failed may be dead (a restarted server): later requests open new ones.
		if (failure.kind === 'cannot-reach') dropConnections(client);
		return failure;
	};
	try {
		await authenticate(client, context);
	} catch (error) {
		throw failureOf(error, client.server, timeoutMs);
	}
	if (basic !== undefined && context.getHeaders().Authorization === undefined) {
		context.setHeaderParam('Authorization', basic);
	}
	if (stop?.aborted) throw new RequestFailure('stopped', 'stopped');
	const controller = new AbortController();
	// Why the request was aborted, when it was by a bound of ours; fetch's own error says less.
	let abortedFor: RequestFailure | undefined;
	const abort = (reason: RequestFailure): void => {
		abortedFor ??= reason;
		controller.abort(reason);
	};
	const onStop = (): void => abort(new RequestFailure('stopped', 'stopped'));
	stop?.addEventListener('abort', onStop, { once: true });
	let silence: NodeJS.Timeout | undefined;
	const armSilence = (ms: number): void => {
		clearTimeout(silence);
		silence = setTimeout(
			() =>
				abort(
					new RequestFailure(
						'cannot-reach',
						`cannot reach ${withUrlPasswordsHidden(client.server)}: no answer within ${seconds(ms)}`,
					),
				),
			ms,
		);
	};
	const deadlineMs = options.deadlineMs;
	const deadline =
		deadlineMs === undefined
			? undefined
			: setTimeout(
					() =>
						abort(
							new RequestFailure(
								'cannot-reach',
								`cannot reach ${withUrlPasswordsHidden(client.server)}: the answer to ${what} did not arrive in full within ${seconds(deadlineMs)}`,
							),
						),
					deadlineMs,
				);
	let closed = false;
	// An answer read to its end has let its connection go: aborting it then would only cost an exception.
	const close = (finished = false): void => {
		if (closed) return;
		closed = true;
		clearTimeout(silence);
		clearTimeout(deadline);
		stop?.removeEventListener('abort', onStop);
		if (!finished && !controller.signal.aborted) controller.abort();
	};
	context.setSignal(controller.signal);
	const silenceMs = options.silenceMs ?? timeoutMs;
	const dispatcher = context.getDispatcher();
	try {
		armSilence(timeoutMs);
		const answer =
			options.readWhole === true && method === HttpMethod.GET && dispatcher !== undefined
				? await sendThroughPool(dispatcher, context, controller.signal)
				: await sendThroughFetch(context);
		armSilence(silenceMs);
		let ended = false;
		return {
			status: answer.status,
			read: async () => {
				if (ended) return undefined;
				try {
					const chunk = await answer.next();
					if (chunk === undefined) {
						ended = true;
						return undefined;
					}
					armSilence(silenceMs);
					return chunk;
				} catch (error) {
					close();
					throw fail(abortedFor ?? error);
				}
			},
			close: () => {
				close(ended);
				if (!ended) answer.cancel();
			},
		};
	} catch (error) {
		close();
		throw fail(abortedFor ?? error);
	}
}

/**
 * One request through client-node, bounded as `openRequest` bounds it, within the request deadline and the byte
 * limit of one answer. `stop` aborts it; `onBodyStart` sees the start of a 200 body until it returns true. Failures
 * throw RequestFailure ('stopped' once `stop` has aborted).
 */
export async function sendRequest(
	client: ClientSettings,
	method: HttpMethod,
	path: string,
	query: Query,
	options: {
		readonly body?: { readonly contentType: string; readonly text: string };
		readonly stop?: AbortSignal;
		readonly onBodyStart?: (prefix: string) => boolean;
		/** What is asked, for messages: "list gitrepos.fleet.cattle.io". */
		readonly what?: string;
		/** A GET of a JSON document (see `sendThroughPool`). */
		readonly readWhole?: boolean;
	} = {},
): Promise<Answer> {
	const { onBodyStart } = options;
	const what = options.what ?? `${method} ${path}`;
	const request = await openRequest(client, method, path, query, {
		what,
		deadlineMs: client.requestDeadlineMs,
		...(options.readWhole === true ? { readWhole: true } : {}),
		...(options.body ? { body: options.body } : {}),
		...(options.stop ? { stop: options.stop } : {}),
	});
	try {
		// Each chunk is decoded and looked at for long integers as it arrives, while the next is on its way: on a big
		// list page that was a tenth of the client's time after the last chunk.
		const decoder = new StringDecoder('utf8');
		const digits = new LongDigitRunWatch();
		let text = '';
		let watchingStart = onBodyStart !== undefined && request.status === 200;
		let received = 0;
		for (let chunk = await request.read(); chunk; chunk = await request.read()) {
			received += chunk.length;
			if (received > client.maxResponseBytes) throw tooLargeFailure(what, client.maxResponseBytes);
			const piece = decoder.write(chunk);
			digits.add(piece);
			text += piece;
			if (watchingStart && onBodyStart) {
				watchingStart = !onBodyStart(text.slice(0, 4096)) && received < 4096;
			}
		}
		const rest = decoder.end();
		digits.add(rest);
		text += rest;
		return { status: request.status, text, longDigitRun: digits.seen };
	} finally {
		request.close();
	}
}

function tooLargeFailure(what: string, limit: number): RequestFailure {
	return new RequestFailure(
		'server-error',
		`the answer to ${what} is larger than ${sizeText(limit)}, the most read from one answer (the setting ${maxResponseSetting} raises it)`,
		undefined,
		true,
	);
}

/** GET a JSON document, bounded as `sendRequest` bounds it. Throws RequestFailure. */
export async function getJson(
	client: ClientSettings,
	path: string,
	query: Readonly<Record<string, string | number | boolean | undefined>>,
	what: string,
	stop: AbortSignal,
	onBodyStart?: (prefix: string) => boolean,
): Promise<unknown> {
	let answer = await sendRequest(client, HttpMethod.GET, path, query, {
		stop,
		what,
		readWhole: true,
		...(onBodyStart ? { onBodyStart } : {}),
	});
	if (answer.status >= 300 && answer.status < 400) {
		// A redirect (a proxy in front of the server): fetch follows it, as Go's client (so kubectl) does.
		answer = await sendRequest(client, HttpMethod.GET, path, query, {
			stop,
			what,
			...(onBodyStart ? { onBodyStart } : {}),
		});
	}
	if (answer.status !== 200) {
		throw failureOfStatus(answer.status, what, statusMessageOf(answer.text));
	}
	try {
		return parseJsonKeepingIntegers(answer.text, answer.longDigitRun);
	} catch {
		throw new RequestFailure('server-error', `the answer to ${what} is not JSON`);
	}
}
