// Requests to a cluster, bounded and classified. HTTP goes through client-node:
// `KubeConfig.applySecurityAuthentication` (TLS, tokens, client certificates, exec, OIDC) and its fetch-based
// `IsomorphicFetchHttpLibrary`; every request has a bounded timeout, exec plugins included, so an unreachable
// cluster or a plugin waiting for a login becomes a failure within seconds. A failure is a RequestFailure whose
// kind the session turns into a state.
import {
	HttpMethod,
	IsomorphicFetchHttpLibrary,
	RequestContext,
	type KubeConfig,
} from '@kubernetes/client-node';
import { isRecord } from '../core/model/object.ts';
import { LoginRequiredError } from './kubeconfig.ts';

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
	return { message: error instanceof Error ? error.message : String(error) };
}

/** Any error of a request as a RequestFailure; `server` and `timeoutMs` go into its message. */
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

/** A duration as a user reads it: "2.5 s". */
export function seconds(ms: number): string {
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
export async function getJson(
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
