// The local Kubernetes API server: HTTPS on 127.0.0.1 with a CA made at start, bearer-token (and client
// certificate) authentication, discovery, and get/list/watch/create/update/patch/delete for the kinds of the
// resource table, answering with the same JSON, status codes and Status objects as kube-apiserver. It is the test
// bed for the cluster client, the demo cluster behind `npm start`, and the place where tests inject faults.
//
// This file holds the options, the running server's handle and the wiring; routes.ts takes a request from there.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { usersOf, type ApiUser } from './auth.ts';
import {
	createClientCertificate,
	sharedCertificates,
	type Certificates,
	type ClientCertificate,
} from './certificates.ts';
import { failureStatus } from './errors.ts';
import { Faults } from './faults.ts';
import { resourceTypes, type ResourceType } from './resources.ts';
import { handleRequest } from './routes.ts';
import type { OpenWatch, ServerState } from './serverState.ts';
import { ObjectStore, type KubeObject } from './store.ts';
import { sendBookmarks } from './watches.ts';

/** How to start a server. */
export interface ApiServerOptions {
	/** TCP port on 127.0.0.1; 0 (default) picks a free one. */
	readonly port?: number;
	/** The admin's bearer token (random when absent). */
	readonly token?: string;
	readonly users?: readonly ApiUser[];
	/** API groups to serve ('' is core); all groups of `types` when absent. Others answer 404, "not installed". */
	readonly groups?: readonly string[];
	/** The resource table (default: the project's). */
	readonly types?: readonly ResourceType[];
	/** Namespaces that exist from the start, besides default, kube-system, kube-public and kube-node-lease. */
	readonly namespaces?: readonly string[];
	/** Objects to hold from the start (status included); their namespaces are created. */
	readonly objects?: readonly KubeObject[];
	/** Change events kept for watches to resume from (default 10,000). */
	readonly historyLimit?: number;
	/** How often watches that allow bookmarks get one (default 10 s; 0 turns them off). */
	readonly bookmarkIntervalMs?: number;
	/** TLS material; one set shared by the process when absent. */
	readonly certificates?: Certificates;
	readonly now?: () => Date;
	/** Called with one line per request, for the demo's console. */
	readonly log?: (line: string) => void;
}

/** A running server. */
export interface ApiServer {
	/** `https://127.0.0.1:<port>`. */
	readonly url: string;
	readonly port: number;
	/** The CA that signed the serving certificate (PEM), for `certificate-authority-data`. */
	readonly caPem: string;
	/** The admin's bearer token. */
	readonly token: string;
	readonly certificates: Certificates;
	readonly store: ObjectStore;
	readonly faults: Faults;
	/** The resource types discovery lists and requests reach now. */
	servedTypes(): readonly ResourceType[];
	/** Serves only these groups from now on (all when undefined), as if CRDs were installed or removed. */
	setServedGroups(groups: readonly string[] | undefined): void;
	/** Sends a BOOKMARK now on every watch that allows them; returns how many got one. */
	sendBookmarks(): number;
	/** How many watches are open. */
	openWatchCount(): number;
	/** Calls `listener` whenever a watch opens or closes (a test's sync point); returns the function that stops it. */
	onWatchesChanged(listener: () => void): () => void;
	/** A client certificate for a user (the CN), signed by the server's CA. */
	issueClientCertificate(user: string): ClientCertificate;
	/** Closes every connection (open watches and hung requests included) and stops listening. */
	close(): Promise<void>;
}

/** Starts a server on 127.0.0.1. */
export async function startApiServer(options: ApiServerOptions = {}): Promise<ApiServer> {
	const certificates = options.certificates ?? sharedCertificates();
	const token = options.token ?? randomBytes(24).toString('hex');
	const store = new ObjectStore({
		...(options.types === undefined ? {} : { types: options.types }),
		...(options.historyLimit === undefined ? {} : { historyLimit: options.historyLimit }),
		...(options.now === undefined ? {} : { now: options.now }),
		namespaces: [
			'default',
			'kube-system',
			'kube-public',
			'kube-node-lease',
			...(options.namespaces ?? []),
		],
	});
	for (const object of options.objects ?? []) store.put(object);
	const allTypes = options.types ?? resourceTypes;
	let served = allTypes;
	const serveGroups = (groups: readonly string[] | undefined): void => {
		const wanted = groups === undefined ? undefined : new Set(groups);
		// events.k8s.io is built in, as the core group is: the same Events through the newer API.
		if (wanted?.has('') === true) {
			wanted.add('events.k8s.io');
			wanted.add('apiextensions.k8s.io');
		}
		served = wanted === undefined ? allTypes : allTypes.filter((type) => wanted.has(type.group));
	};
	serveGroups(options.groups);
	const bookmarkIntervalMs = options.bookmarkIntervalMs ?? 10_000;
	const log = options.log;
	const watches = new Set<OpenWatch>();
	const hung = new Set<ServerResponse>();
	const watchListeners = new Set<() => void>();

	const faults = new Faults({
		dropWatches(mode) {
			const open = [...watches];
			for (const watch of open) watch.close(mode);
			return open.length;
		},
		expireHistory() {
			store.expireHistory();
			return store.resourceVersion;
		},
	});
	let port = 0;
	const state: ServerState = {
		store,
		faults,
		users: usersOf(token, options.users ?? []),
		served: () => served,
		port: () => port,
		watches,
		watchesChanged() {
			for (const listener of [...watchListeners]) listener();
		},
		hung,
		bookmarkIntervalMs,
		log,
		started: store
			.now()
			.toISOString()
			.replace(/\.\d{3}Z$/, 'Z'),
	};
	const server = await listenHttps(certificates, options.port ?? 0, (request, response) =>
		handleRequest(state, request, response),
	);
	port = (server.address() as AddressInfo).port;

	return {
		url: `https://127.0.0.1:${port}`,
		port,
		caPem: certificates.caPem,
		token,
		certificates,
		store,
		faults,
		servedTypes: () => served,
		setServedGroups: serveGroups,
		sendBookmarks: () => sendBookmarks(watches),
		openWatchCount: () => watches.size,
		onWatchesChanged(listener) {
			watchListeners.add(listener);
			return () => watchListeners.delete(listener);
		},
		issueClientCertificate: (user) => createClientCertificate(certificates, user),
		async close() {
			for (const watch of [...watches]) watch.close('destroy');
			for (const response of [...hung]) response.socket?.destroy();
			const closed = new Promise<void>((resolve) => server.close(() => resolve()));
			server.closeAllConnections();
			await closed;
		},
	};
}

/** How long an idle keep-alive connection stays open, as kube-apiserver's `IdleTimeout`. */
const idleConnectionMs = 90_000;

// Go's http.DefaultMaxHeaderBytes, which kube-apiserver keeps: large bearer tokens (OIDC with many groups) fit.
const maxHeaderBytes = 1024 * 1024;

/**
 * A request Node's parser refused (headers over the limit, bad syntax) gets a Status as Go's server would send one,
 * instead of a reset connection: the rest of what the client sends is read and dropped until it has the answer.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
	// An answer already under way on this connection cannot be followed by another (Node's own handler checks so).
	const answering = (socket as { _httpMessage?: ServerResponse | null })._httpMessage;
	if (!socket.writable || answering?.headersSent === true) {
		socket.destroy();
		return;
	}
	const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
	const code = tooLarge ? 431 : 400;
	const body = JSON.stringify(
		failureStatus(
			code,
			'BadRequest',
			tooLarge ? 'Request Header Fields Too Large' : `Bad Request: ${error.message}`,
		),
	);
	// Closing while the client still sends would make the kernel reset the connection, and a reset can reach the
	// client before the answer does: the answer is written, the rest of the request drained, and the connection
	// closed once the client is done (or after 10 s).
	socket.resume();
	socket.once('end', () => socket.destroy());
	setTimeout(() => socket.destroy(), 10_000).unref();
	socket.write(
		`HTTP/1.1 ${code} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
	);
}

/**
 * HTTPS on 127.0.0.1 with the serving certificate. Client certificates are asked for but not required: a request
 * without one (or with one the CA did not sign) may still bring a bearer token.
 */
async function listenHttps(
	certificates: Certificates,
	port: number,
	handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<Server> {
	const server: Server = createServer(
		{
			cert: certificates.certPem,
			key: certificates.keyPem,
			ca: certificates.caPem,
			requestCert: true,
			rejectUnauthorized: false,
			maxHeaderSize: maxHeaderBytes,
		},
		(request, response) => {
			// handleRequest answers its own failures; this is the last guard that keeps the process up.
			handle(request, response).catch(() => response.destroy());
		},
	);
	server.on('clientError', answerClientError);
	// kube-apiserver keeps an idle connection 90 s (its http.Server's IdleTimeout); Node's default of 5 s closed
	// keep-alive connections under clients still busy with the previous answer, whose next request then met a reset.
	server.keepAliveTimeout = idleConnectionMs;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	return server;
}
