// A minimal HTTPS client for the wire-protocol tests: Node's https with the server's CA pinned (so every test
// also proves the certificate verifies) and the bearer token sent, plus a line reader for watch streams, the order
// in which answers arrive, and the server's request log as a sync point.

import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { ApiServer } from '../../src/apiserver/server.ts';
import type { Trigger } from '../support/wait.ts';

/** A finished response. */
export interface Response {
	readonly status: number;
	readonly headers: IncomingHttpHeaders;
	readonly text: string;
	/** The body as JSON (undefined when it is not JSON). */
	readonly body: Record<string, unknown> & { items?: Record<string, unknown>[] };
}

/** What to send. */
export interface SendOptions {
	readonly body?: unknown;
	readonly contentType?: string;
	/** A token other than the server's, or null for none. */
	readonly token?: string | null;
	readonly accept?: string;
	readonly ca?: string;
	readonly cert?: string;
	readonly key?: string;
	readonly signal?: AbortSignal;
	/** More request headers, e.g. a User-Agent. */
	readonly headers?: Readonly<Record<string, string>>;
}

function bodyText(body: unknown): string {
	return typeof body === 'string' ? body : JSON.stringify(body);
}

function requestOptions(
	server: Pick<ApiServer, 'port' | 'caPem' | 'token'>,
	method: string,
	path: string,
	options: SendOptions,
): RequestOptions {
	const headers: Record<string, string> = { ...options.headers };
	const token = options.token === undefined ? server.token : options.token;
	if (token !== null) headers.Authorization = `Bearer ${token}`;
	if (options.accept !== undefined) headers.Accept = options.accept;
	if (options.body !== undefined) {
		headers['Content-Type'] = options.contentType ?? 'application/json';
		// Node sends a DELETE body without chunked encoding, so the length must be given.
		headers['Content-Length'] = String(Buffer.byteLength(bodyText(options.body)));
	}
	return {
		host: '127.0.0.1',
		port: server.port,
		method,
		path,
		headers,
		ca: options.ca ?? server.caPem,
		...(options.cert === undefined ? {} : { cert: options.cert, key: options.key }),
		...(options.signal === undefined ? {} : { signal: options.signal }),
		agent: false,
	};
}

/** Sends one request and reads the whole answer. */
export function send(
	server: Pick<ApiServer, 'port' | 'caPem' | 'token'>,
	method: string,
	path: string,
	options: SendOptions = {},
): Promise<Response> {
	return new Promise((resolve, reject) => {
		const req = httpsRequest(requestOptions(server, method, path, options), (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('error', reject);
			res.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				let body: Response['body'] = {};
				try {
					body = JSON.parse(text) as Response['body'];
				} catch {
					// Not JSON; the test reads `text`.
				}
				resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
			});
		});
		req.on('error', reject);
		if (options.body !== undefined) {
			req.end(bodyText(options.body));
		} else {
			req.end();
		}
	});
}

/** One line of a watch stream. */
export interface WatchEvent {
	readonly type: string;
	readonly object: Record<string, unknown> & { metadata?: Record<string, unknown> };
}

/** An open watch: events arrive in `events`; `next` waits for more. */
export interface WatchStream {
	readonly status: number;
	readonly events: WatchEvent[];
	/**
	 * Resolves when at least `count` events have arrived in total; rejects when the stream ends with fewer. No clock:
	 * node:test's per-test timeout is the hang guard.
	 */
	waitFor(count: number): Promise<WatchEvent[]>;
	/** Resolves when the server ends the stream or the connection breaks; tells which. */
	readonly ended: Promise<'end' | 'error'>;
	close(): void;
}

/** Opens a watch (or any streaming GET) and collects its JSON lines. */
export function watch(
	server: Pick<ApiServer, 'port' | 'caPem' | 'token'>,
	path: string,
	options: SendOptions = {},
): Promise<WatchStream> {
	return new Promise((resolve, reject) => {
		const req = httpsRequest(
			requestOptions(server, 'GET', path, options),
			(res: IncomingMessage) => {
				const events: WatchEvent[] = [];
				const waiters: (() => void)[] = [];
				let buffer = '';
				let settle: (how: 'end' | 'error') => void = () => {};
				const ended = new Promise<'end' | 'error'>((done) => {
					settle = done;
				});
				res.setEncoding('utf8');
				res.on('data', (chunk: string) => {
					buffer += chunk;
					let newline = buffer.indexOf('\n');
					while (newline >= 0) {
						const line = buffer.slice(0, newline);
						buffer = buffer.slice(newline + 1);
						if (line.trim() !== '') events.push(JSON.parse(line) as WatchEvent);
						newline = buffer.indexOf('\n');
					}
					for (const waiter of waiters.splice(0)) waiter();
				});
				res.on('end', () => settle('end'));
				res.on('error', () => settle('error'));
				res.on('aborted', () => settle('error'));
				res.socket.on('close', () => settle(res.complete ? 'end' : 'error'));
				resolve({
					status: res.statusCode ?? 0,
					events,
					ended,
					waitFor(count) {
						return new Promise((done, fail) => {
							let over = false;
							const check = (): void => {
								if (over) return;
								if (events.length >= count) {
									over = true;
									done(events);
								} else {
									waiters.push(check);
								}
							};
							void ended.then((how) => {
								// The last lines arrive before the end: a check they allowed has run by now.
								if (over || events.length >= count) return;
								over = true;
								fail(
									new Error(
										`the stream ended (${how}) after ${events.length} of ${count} events: ${JSON.stringify(events.map((e) => e.type))}`,
									),
								);
							});
							check();
						});
					},
					close() {
						req.destroy();
					},
				});
			},
		);
		req.on('error', reject);
		req.end();
	});
}

/** The metadata of an object in a response or event. */
export function metaOf(object: unknown): Record<string, unknown> {
	const meta = (object as { metadata?: unknown } | undefined)?.metadata;
	return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : {};
}

/** A small object of a kind, for creating. */
export function configMap(
	name: string,
	namespace = 'default',
	data: Record<string, string> = { a: '1' },
): Record<string, unknown> {
	return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}

/** The collection path of GitRepos in a namespace. */
export function gitRepos(namespace = 'fleet-default'): string {
	return `/apis/fleet.cattle.io/v1alpha1/namespaces/${namespace}/gitrepos`;
}

/**
 * Starts the requests one after the other (each is sent before the next starts) and tells the order in which their
 * answers arrived, with the answers in the order given.
 */
export async function answerOrder<T>(
	requests: readonly (readonly [name: string, start: () => Promise<T>])[],
): Promise<{ order: string[]; responses: T[] }> {
	const order: string[] = [];
	const responses = await Promise.all(
		requests.map(async ([name, start]) => {
			const response = await start();
			order.push(name);
			return response;
		}),
	);
	return { order, responses };
}

/** A server's request log for a test: pass `log` to startApiServer; `logged` wakes waits on `lines`. */
export function requestLog(): {
	readonly lines: string[];
	readonly log: (line: string) => void;
	readonly logged: Trigger;
} {
	const lines: string[] = [];
	const listeners = new Set<() => void>();
	return {
		lines,
		log(line) {
			lines.push(line);
			for (const listener of [...listeners]) listener();
		},
		logged(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
	};
}
