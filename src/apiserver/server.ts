// The local Kubernetes API server: HTTPS on 127.0.0.1 with a CA made at start, bearer-token (and client
// certificate) authentication, discovery, and get/list/watch/create/update/patch/delete for the kinds of the
// resource table, answering with the same JSON, status codes and Status objects as kube-apiserver. It is the test
// bed for the cluster client, the demo cluster behind `npm start`, and the place where tests inject faults.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { parse as parseYaml } from 'yaml';
import {
	createClientCertificate,
	sharedCertificates,
	type Certificates,
	type ClientCertificate,
} from './certificates.ts';
import {
	aggregatedDiscovery,
	aggregatedDiscoveryContentType,
	apiGroupDocument,
	apiGroupList,
	apiResourceList,
	apiVersions,
	versionInfo,
	wantsAggregatedDiscovery,
} from './discovery.ts';
import {
	ApiError,
	badRequest,
	expired,
	failureStatus,
	qualifiedResource,
	type StatusObject,
} from './errors.ts';
import {
	faultFromJson,
	Faults,
	faultStatus,
	generateObjects,
	type DropMode,
	type Fault,
	type FaultRequest,
} from './faults.ts';
import { defaultFieldManager } from './managedFields.ts';
import { isJsonObject, type Json } from './patch.ts';
import { apiVersionOf, resourceTypes, type ResourceType } from './resources.ts';
import { parseFieldSelector, parseLabelSelector } from './selectors.ts';
import {
	ObjectStore,
	type KubeObject,
	type ListQuery,
	type PatchType,
	type StoreEvent,
	type StoredEntry,
} from './store.ts';

/** The verbs of Kubernetes authorization, as RBAC names them. */
export type Verb =
	'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** A request a user may not make: every given field must match (absent fields match anything). */
export interface ForbiddenRule {
	readonly verbs?: readonly Verb[];
	/** API group ('' for core). */
	readonly group?: string;
	/** Plural resource name; `gitrepos/status` for the subresource. */
	readonly resource?: string;
	/** Only in this namespace; '' means only requests at the cluster scope (lists across all namespaces). */
	readonly namespace?: string;
}

/** A user besides the admin: authenticated by token or by a client certificate whose CN is `name`. */
export interface ApiUser {
	readonly name: string;
	readonly token?: string;
	/** Requests that get 403 Forbidden. */
	readonly forbidden?: readonly ForbiddenRule[];
}

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
	/** A client certificate for a user (the CN), signed by the server's CA. */
	issueClientCertificate(user: string): ClientCertificate;
	/** Closes every connection (open watches and hung requests included) and stops listening. */
	close(): Promise<void>;
}

const maxBodyBytes = 16 * 1024 * 1024;

interface User {
	readonly name: string;
	readonly forbidden: readonly ForbiddenRule[];
}

/** Where a request goes, once its path is understood. */
interface ResourceTarget {
	readonly type: ResourceType;
	readonly namespace: string | undefined;
	readonly name: string | undefined;
	readonly subresource: string | undefined;
}

interface OpenWatch {
	readonly response: ServerResponse;
	readonly bookmarks: boolean;
	readonly type: ResourceType;
	close(mode: DropMode): void;
	bookmark(): void;
}

function sendJson(
	response: ServerResponse,
	code: number,
	body: unknown,
	contentType = 'application/json',
): void {
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	response.writeHead(code, {
		'Content-Type': contentType,
		'Content-Length': Buffer.byteLength(text),
		'Cache-Control': 'no-cache, private',
	});
	response.end(text);
}

function sendStatus(
	response: ServerResponse,
	status: StatusObject,
	headers: Record<string, string> = {},
): void {
	const text = JSON.stringify(status);
	response.writeHead(status.code, {
		'Content-Type': 'application/json',
		'Content-Length': Buffer.byteLength(text),
		'Cache-Control': 'no-cache, private',
		...headers,
	});
	response.end(text);
}

function notFoundPath(): ApiError {
	return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** The request's URL; a target that does not parse reads as `/?invalid`, which no route serves. */
function requestUrl(request: IncomingMessage): URL {
	try {
		return new URL(request.url ?? '/', 'https://127.0.0.1');
	} catch {
		return new URL('/?invalid', 'https://127.0.0.1');
	}
}

async function readBody(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > maxBodyBytes) {
			throw new ApiError(413, 'RequestEntityTooLarge', 'the request body is too large');
		}
		chunks.push(chunk);
	}
	return Buffer.concat(chunks).toString('utf8');
}

function parseJsonBody(text: string): Json {
	try {
		return JSON.parse(text) as Json;
	} catch (error) {
		throw badRequest(`couldn't get version/kind; json parse error: ${(error as Error).message}`);
	}
}

function parseYamlBody(text: string): Json {
	try {
		return parseYaml(text) as Json;
	} catch (error) {
		throw badRequest(`error converting YAML to JSON: ${(error as Error).message}`);
	}
}

function mediaType(contentType: string | undefined): string {
	return (contentType ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
}

function objectBody(text: string, contentType: string | undefined): KubeObject {
	const media = mediaType(contentType);
	let body: Json;
	if (media === 'application/json' || media === '') body = parseJsonBody(text);
	else if (media === 'application/yaml' || media === 'application/x-yaml') {
		body = parseYamlBody(text);
	} else {
		throw new ApiError(
			415,
			'UnsupportedMediaType',
			`the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`,
		);
	}
	if (!isJsonObject(body)) throw badRequest('the body must be a JSON object');
	return body;
}

const patchTypes: Readonly<Record<string, PatchType>> = {
	'application/merge-patch+json': 'merge',
	'application/json-patch+json': 'json',
	'application/strategic-merge-patch+json': 'strategic',
	'application/apply-patch+yaml': 'apply',
};

function acceptsJson(accept: string | undefined): boolean {
	if (accept === undefined || accept.trim() === '') return true;
	return accept.split(',').some((part) => {
		const media = part.split(';')[0]?.trim().toLowerCase() ?? '';
		return media === 'application/json' || media === '*/*' || media === 'application/*';
	});
}

function isTrue(value: string | null): boolean {
	return value === 'true' || value === '1';
}

function listKind(type: ResourceType): string {
	return `${type.kind}List`;
}

/** The list JSON, assembled from each object's cached serialization. */
function listJson(type: ResourceType, entries: readonly StoredEntry[], metadata: object): string {
	const items = entries.map((entry) => {
		entry.json ??= JSON.stringify(entry.object);
		return entry.json;
	});
	return `{"kind":${JSON.stringify(listKind(type))},"apiVersion":${JSON.stringify(apiVersionOf(type))},"metadata":${JSON.stringify(metadata)},"items":[${items.join(',')}]}`;
}

function watchLine(type: string, json: string): string {
	return `{"type":"${type}","object":${json}}\n`;
}

function forbiddenMessage(user: string, verb: Verb, target: ResourceTarget): string {
	const resource =
		target.subresource === undefined
			? target.type.plural
			: `${target.type.plural}/${target.subresource}`;
	const subject =
		target.name === undefined
			? qualifiedResource(target.type)
			: `${qualifiedResource(target.type)} "${target.name}"`;
	const scope =
		target.type.namespaced && target.namespace !== undefined
			? `in the namespace "${target.namespace}"`
			: 'at the cluster scope';
	return `${subject} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "${target.type.group}" ${scope}`;
}

function isForbidden(user: User, verb: Verb, target: ResourceTarget): boolean {
	const resource =
		target.subresource === undefined
			? target.type.plural
			: `${target.type.plural}/${target.subresource}`;
	const namespace = target.type.namespaced ? (target.namespace ?? '') : '';
	return user.forbidden.some(
		(rule) =>
			(rule.verbs === undefined || rule.verbs.includes(verb)) &&
			(rule.group === undefined || rule.group === target.type.group) &&
			(rule.resource === undefined || rule.resource === resource) &&
			(rule.namespace === undefined || rule.namespace === namespace),
	);
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
		served = wanted === undefined ? allTypes : allTypes.filter((type) => wanted.has(type.group));
	};
	serveGroups(options.groups);
	const bookmarkIntervalMs = options.bookmarkIntervalMs ?? 10_000;
	const log = options.log;

	const admin: User = { name: 'admin', forbidden: [] };
	const byToken = new Map<string, User>([[token, admin]]);
	const byName = new Map<string, User>([['admin', admin]]);
	for (const user of options.users ?? []) {
		const entry: User = { name: user.name, forbidden: user.forbidden ?? [] };
		if (user.token !== undefined) byToken.set(user.token, entry);
		byName.set(user.name, entry);
	}

	const watches = new Set<OpenWatch>();
	const hung = new Set<ServerResponse>();

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

	function authenticate(request: IncomingMessage): User | undefined {
		const header = request.headers.authorization;
		if (header !== undefined) {
			const match = /^Bearer\s+(.+)$/i.exec(header.trim());
			return match === null ? undefined : byToken.get(match[1] ?? '');
		}
		const socket = request.socket as TLSSocket;
		if (socket.authorized) {
			const cn = socket.getPeerCertificate().subject?.CN;
			const name = Array.isArray(cn) ? cn[0] : cn;
			if (name !== undefined) return byName.get(name) ?? { name, forbidden: [] };
		}
		return undefined;
	}

	function findType(group: string, version: string, plural: string): ResourceType | undefined {
		return served.find(
			(type) => type.group === group && type.version === version && type.plural === plural,
		);
	}

	/** Reads `/api/v1/...` and `/apis/<group>/<version>/...` paths; undefined for anything else. */
	function resourceTarget(segments: readonly string[]): ResourceTarget | undefined {
		let group: string;
		let version: string;
		let rest: readonly string[];
		if (segments[0] === 'api' && segments.length >= 3) {
			group = '';
			version = segments[1] ?? '';
			rest = segments.slice(2);
		} else if (segments[0] === 'apis' && segments.length >= 4) {
			group = segments[1] ?? '';
			version = segments[2] ?? '';
			rest = segments.slice(3);
		} else {
			return undefined;
		}
		if (rest[0] === 'namespaces' && rest.length >= 3) {
			const type = findType(group, version, rest[2] ?? '');
			if (type?.namespaced === true && rest.length <= 5) {
				return { type, namespace: rest[1], name: rest[3], subresource: rest[4] };
			}
		}
		const type = findType(group, version, rest[0] ?? '');
		if (type === undefined || rest.length > 3) return undefined;
		if (type.namespaced && rest.length > 1) return undefined;
		return { type, namespace: undefined, name: rest[1], subresource: rest[2] };
	}

	function queryOf(target: ResourceTarget, params: URLSearchParams): ListQuery {
		const labelSelector = params.get('labelSelector') ?? '';
		const fieldSelector = params.get('fieldSelector') ?? '';
		const limit = Number(params.get('limit') ?? '0');
		if (!Number.isInteger(limit) || limit < 0) {
			throw badRequest(`invalid limit: ${params.get('limit')}`);
		}
		const continueToken = params.get('continue');
		return {
			...(target.namespace === undefined ? {} : { namespace: target.namespace }),
			...(labelSelector === '' ? {} : { labelSelector: parseLabelSelector(labelSelector) }),
			...(fieldSelector === ''
				? {}
				: { fieldSelector: parseFieldSelector(fieldSelector, target.type) }),
			...(limit > 0 ? { limit } : {}),
			...(continueToken === null || continueToken === '' ? {} : { continueToken }),
		};
	}

	function serveWatch(
		response: ServerResponse,
		target: ResourceTarget,
		params: URLSearchParams,
	): void {
		const query = queryOf(target, params);
		const { type } = target;
		const rvParam = params.get('resourceVersion') ?? '';
		const startVersion = rvParam === '' ? 0 : Number(rvParam);
		if (!Number.isInteger(startVersion) || startVersion < 0) {
			throw badRequest(
				`invalid resource version: strconv.ParseUint: parsing "${rvParam}": invalid syntax`,
			);
		}
		const bookmarks = isTrue(params.get('allowWatchBookmarks'));
		const sendInitial = params.get('sendInitialEvents') === 'true';
		const timeoutSeconds = Number(params.get('timeoutSeconds') ?? '0');
		response.writeHead(200, {
			'Content-Type': 'application/json',
			'Cache-Control': 'no-cache, private',
			'Transfer-Encoding': 'chunked',
		});
		response.flushHeaders();
		let closed = false;
		const write = (line: string): void => {
			if (!closed) response.write(line);
		};
		const bookmarkJson = (annotations?: object): string =>
			JSON.stringify({
				kind: type.kind,
				apiVersion: apiVersionOf(type),
				metadata: {
					resourceVersion: String(store.resourceVersion),
					creationTimestamp: null,
					...(annotations === undefined ? {} : { annotations }),
				},
			});
		const send = (event: StoreEvent): void => {
			// A start point ahead of the store (a client that saw a newer revision elsewhere) skips up to it.
			if (event.resource !== type || event.resourceVersion <= startVersion) return;
			const now = store.matches(event.entry.object, query);
			const before = event.previous !== undefined && store.matches(event.previous, query);
			let kind: string | undefined;
			if (event.type === 'ADDED') kind = now ? 'ADDED' : undefined;
			else if (event.type === 'DELETED') kind = now || before ? 'DELETED' : undefined;
			else if (now) kind = before ? 'MODIFIED' : 'ADDED';
			else kind = before ? 'DELETED' : undefined;
			if (kind === undefined) return;
			event.entry.json ??= JSON.stringify(event.entry.object);
			write(watchLine(kind, event.entry.json));
		};
		let timer: NodeJS.Timeout | undefined;
		let timeout: NodeJS.Timeout | undefined;
		const unsubscribe = store.subscribe(send);
		const watch: OpenWatch = {
			response,
			bookmarks,
			type,
			close(mode) {
				// Unsubscribe first: a store change after the end must not write to the finished response.
				cleanup();
				if (mode === 'destroy') response.socket?.destroy();
				else response.end();
			},
			bookmark() {
				write(watchLine('BOOKMARK', bookmarkJson()));
			},
		};
		const cleanup = (): void => {
			if (closed) return;
			closed = true;
			unsubscribe();
			clearInterval(timer);
			clearTimeout(timeout);
			watches.delete(watch);
		};
		response.on('close', cleanup);
		watches.add(watch);
		if (rvParam === '' || rvParam === '0' || sendInitial) {
			// No starting point (or an explicit request for initial events): the current state comes first as
			// ADDED events, as kube-apiserver's watch cache sends it.
			for (const entry of store.list(type, { ...query, limit: 0 }).entries) {
				entry.json ??= JSON.stringify(entry.object);
				write(watchLine('ADDED', entry.json));
			}
			if (sendInitial && bookmarks) {
				write(watchLine('BOOKMARK', bookmarkJson({ 'k8s.io/initial-events-end': 'true' })));
			}
		} else {
			const events = store.eventsSince(startVersion);
			if (events === 'expired') {
				// kube-apiserver answers 200 and sends the 410 as an ERROR event, then ends the watch.
				const status = expired(
					`too old resource version: ${startVersion} (${store.oldestResumableVersion})`,
				).toStatus();
				write(watchLine('ERROR', JSON.stringify(status)));
				cleanup();
				response.end();
				return;
			}
			for (const event of events) send(event);
		}
		if (bookmarks && bookmarkIntervalMs > 0) {
			timer = setInterval(() => watch.bookmark(), bookmarkIntervalMs);
		}
		if (Number.isFinite(timeoutSeconds) && timeoutSeconds > 0) {
			timeout = setTimeout(() => {
				cleanup();
				response.end();
			}, timeoutSeconds * 1000);
		}
	}

	function serveHugeList(
		response: ServerResponse,
		target: ResourceTarget,
		params: URLSearchParams,
		fault: Extract<Fault, { kind: 'hugeList' }>,
	): void {
		const limit = Number(params.get('limit') ?? '0');
		const continueText = params.get('continue') ?? '';
		const start =
			continueText === '' ? 0 : Number(Buffer.from(continueText, 'base64url').toString('utf8'));
		if (!Number.isInteger(start) || start < 0) throw badRequest('continue key is not valid');
		const pageSize = limit > 0 ? Math.min(limit, fault.count - start) : fault.count - start;
		const objects = generateObjects(target.type, Math.max(0, pageSize), {
			start,
			namespace: target.namespace ?? 'default',
			...(fault.template === undefined ? {} : { template: fault.template }),
		});
		const next = start + objects.length;
		const metadata = {
			resourceVersion: String(store.resourceVersion),
			...(next < fault.count
				? {
						continue: Buffer.from(String(next)).toString('base64url'),
						remainingItemCount: fault.count - next,
					}
				: {}),
		};
		const entries = objects.map((object) => ({ object, key: '', json: undefined }));
		sendJson(response, 200, listJson(target.type, entries, metadata));
	}

	function verbOf(method: string, target: ResourceTarget, params: URLSearchParams): Verb {
		const named = target.name !== undefined;
		switch (method) {
			case 'GET':
			case 'HEAD':
				return named ? 'get' : isTrue(params.get('watch')) ? 'watch' : 'list';
			case 'POST':
				if (named) break;
				return 'create';
			case 'PUT':
				if (!named) break;
				return 'update';
			case 'PATCH':
				if (!named) break;
				return 'patch';
			case 'DELETE':
				return named ? 'delete' : 'deletecollection';
		}
		throw new ApiError(
			405,
			'MethodNotAllowed',
			`the server does not allow this method on the requested resource`,
		);
	}

	async function serveResource(
		request: IncomingMessage,
		response: ServerResponse,
		user: User,
		target: ResourceTarget,
		params: URLSearchParams,
		fault: Fault | undefined,
	): Promise<number> {
		const method = request.method ?? 'GET';
		const verb = verbOf(method, target, params);
		if (target.subresource !== undefined) {
			if (target.subresource !== 'status' || !target.type.statusSubresource) throw notFoundPath();
			if (verb !== 'get' && verb !== 'update' && verb !== 'patch') {
				throw new ApiError(
					405,
					'MethodNotAllowed',
					'the server does not allow this method on the requested resource',
				);
			}
		}
		if (isForbidden(user, verb, target)) {
			throw new ApiError(403, 'Forbidden', forbiddenMessage(user.name, verb, target), {
				...(target.name === undefined ? {} : { name: target.name }),
				group: target.type.group,
				kind: target.type.plural,
			});
		}
		const { type, namespace, name } = target;
		const dryRun = params.getAll('dryRun').includes('All');
		const fieldManager = params.get('fieldManager') ?? undefined;
		const writeOptions = {
			dryRun,
			requireNamespace: true,
			fieldManager: fieldManager ?? defaultFieldManager(request.headers['user-agent']),
			...(target.subresource === 'status' ? { subresource: 'status' as const } : {}),
		};
		switch (verb) {
			case 'get': {
				const entry = store.getOrThrow(type, namespace, name ?? '');
				entry.json ??= JSON.stringify(entry.object);
				sendJson(response, 200, entry.json);
				return 200;
			}
			case 'list': {
				if (fault?.kind === 'hugeList') {
					serveHugeList(response, target, params, fault);
					return 200;
				}
				const query = queryOf(target, params);
				const exact = params.get('resourceVersionMatch') === 'Exact';
				const rv = params.get('resourceVersion') ?? '';
				if (exact && rv !== String(store.resourceVersion)) {
					throw expired(`too old resource version: ${rv} (${store.resourceVersion})`);
				}
				const page = store.list(type, query);
				const metadata = {
					resourceVersion: String(page.resourceVersion),
					...(page.continueToken === undefined ? {} : { continue: page.continueToken }),
					...(page.remainingItemCount === undefined
						? {}
						: { remainingItemCount: page.remainingItemCount }),
				};
				sendJson(response, 200, listJson(type, page.entries, metadata));
				return 200;
			}
			case 'watch':
				serveWatch(response, target, params);
				return 200;
			case 'create': {
				const body = objectBody(await readBody(request), request.headers['content-type']);
				const created = store.create(type, namespace, body, writeOptions);
				sendJson(response, 201, created);
				return 201;
			}
			case 'update': {
				const body = objectBody(await readBody(request), request.headers['content-type']);
				sendJson(response, 200, store.update(type, namespace, name ?? '', body, writeOptions));
				return 200;
			}
			case 'patch': {
				const media = mediaType(request.headers['content-type']);
				const patchType = patchTypes[media];
				if (patchType === undefined) {
					throw new ApiError(
						415,
						'UnsupportedMediaType',
						`the body of the request was in an unknown format - accepted media types include: ${Object.keys(patchTypes).join(', ')}`,
					);
				}
				const text = await readBody(request);
				const patch = patchType === 'apply' ? parseYamlBody(text) : parseJsonBody(text);
				const existed = store.get(type, namespace, name ?? '') !== undefined;
				const patched = store.patch(type, namespace, name ?? '', patchType, patch, {
					...writeOptions,
					// Apply needs a named manager; no User-Agent stands in for it.
					...(patchType === 'apply' ? { fieldManager: fieldManager ?? '' } : {}),
					force: isTrue(params.get('force')),
				});
				const code = existed ? 200 : 201;
				sendJson(response, code, patched);
				return code;
			}
			case 'delete': {
				const text = await readBody(request);
				const deleteOptions = text.trim() === '' ? {} : parseJsonBody(text);
				const preconditions =
					isJsonObject(deleteOptions) && isJsonObject(deleteOptions.preconditions)
						? deleteOptions.preconditions
						: {};
				const bodyDryRun =
					isJsonObject(deleteOptions) &&
					Array.isArray(deleteOptions.dryRun) &&
					deleteOptions.dryRun.includes('All');
				const result = store.delete(type, namespace, name ?? '', {
					dryRun: dryRun || bodyDryRun,
					preconditions: {
						...(typeof preconditions.uid === 'string' ? { uid: preconditions.uid } : {}),
						...(typeof preconditions.resourceVersion === 'string'
							? { resourceVersion: preconditions.resourceVersion }
							: {}),
					},
				});
				const code = result.deleted ? 200 : 202;
				sendJson(response, code, result.object);
				return code;
			}
			case 'deletecollection': {
				const deleted = store.deleteCollection(
					type,
					{ ...queryOf(target, params), limit: 0 },
					{ dryRun },
				);
				const entries = deleted.map((object) => ({ object, key: '', json: undefined }));
				sendJson(
					response,
					200,
					listJson(type, entries, { resourceVersion: String(store.resourceVersion) }),
				);
				return 200;
			}
		}
	}

	function serveDiscovery(
		segments: readonly string[],
		accept: string | undefined,
		response: ServerResponse,
		port: number,
	): boolean {
		const path = segments.join('/');
		if (path === 'version') {
			sendJson(response, 200, versionInfo());
			return true;
		}
		if (path === 'healthz' || path === 'livez' || path === 'readyz') {
			sendJson(response, 200, 'ok', 'text/plain; charset=utf-8');
			return true;
		}
		if (path === 'api' || path === 'apis') {
			if (wantsAggregatedDiscovery(accept)) {
				sendJson(
					response,
					200,
					aggregatedDiscovery(served, path === 'api'),
					aggregatedDiscoveryContentType,
				);
			} else {
				sendJson(
					response,
					200,
					path === 'api' ? apiVersions(`127.0.0.1:${port}`) : apiGroupList(served),
				);
			}
			return true;
		}
		let document: object | undefined;
		if (segments[0] === 'api' && segments.length === 2) {
			document = apiResourceList(served, '', segments[1] ?? '');
		} else if (segments[0] === 'apis' && segments.length === 2) {
			document = apiGroupDocument(served, segments[1] ?? '');
		} else if (segments[0] === 'apis' && segments.length === 3) {
			document = apiResourceList(served, segments[1] ?? '', segments[2] ?? '');
		} else return false;
		if (document === undefined) throw notFoundPath();
		sendJson(response, 200, document);
		return true;
	}

	async function serveFaultControl(
		request: IncomingMessage,
		response: ServerResponse,
		segments: readonly string[],
	): Promise<void> {
		const method = request.method ?? 'GET';
		const action = segments[1];
		if (method === 'GET' && action === undefined) {
			sendJson(response, 200, {
				faults: faults.list(),
				openWatches: watches.size,
				resourceVersion: store.resourceVersion,
			});
		} else if (method === 'POST' && action === undefined) {
			const parsed = faultFromJson(parseJsonBody(await readBody(request)));
			if (typeof parsed === 'string') throw badRequest(parsed);
			sendJson(response, 201, { id: faults.add(parsed.fault, parsed.match).id });
		} else if (method === 'POST' && action === 'drop-watches') {
			const text = await readBody(request);
			const body = text.trim() === '' ? {} : parseJsonBody(text);
			const mode: DropMode = isJsonObject(body) && body.mode === 'end' ? 'end' : 'destroy';
			sendJson(response, 200, { dropped: faults.dropWatches(mode) });
		} else if (method === 'POST' && action === 'expire-history') {
			sendJson(response, 200, { resourceVersion: faults.expireHistory() });
		} else if (method === 'POST' && action === 'bookmarks') {
			sendJson(response, 200, { sent: sendBookmarks() });
		} else if (method === 'DELETE' && action === undefined) {
			faults.clear();
			sendJson(response, 200, { faults: [] });
		} else if (method === 'DELETE' && action !== undefined) {
			if (!faults.remove(action)) throw notFoundPath();
			sendJson(response, 200, { removed: action });
		} else {
			throw new ApiError(405, 'MethodNotAllowed', 'use GET, POST or DELETE on /_faults');
		}
	}

	function sendBookmarks(): number {
		let sent = 0;
		for (const watch of watches) {
			if (!watch.bookmarks) continue;
			watch.bookmark();
			sent++;
		}
		return sent;
	}

	let port = 0;

	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const started = performance.now();
		const url = requestUrl(request);
		const method = request.method ?? 'GET';
		let code = 200;
		let user: User | undefined;
		try {
			let segments: string[];
			try {
				segments = url.pathname
					.split('/')
					.filter((segment) => segment !== '')
					.map(decodeURIComponent);
			} catch {
				throw badRequest(`invalid path: ${url.pathname}`);
			}
			user = authenticate(request);
			if (user === undefined) {
				throw new ApiError(401, 'Unauthorized', 'Unauthorized');
			}
			if (segments[0] === '_faults') {
				if (user !== admin) {
					throw new ApiError(403, 'Forbidden', 'only the admin token may control faults');
				}
				await serveFaultControl(request, response, segments);
				return;
			}
			const faultRequest: FaultRequest = {
				method,
				path: url.pathname,
				query: url.search,
				watch: isTrue(url.searchParams.get('watch')),
				user: user.name,
			};
			const decision = faults.decide(faultRequest);
			if (decision.delayMs > 0) {
				await new Promise((resolve) => setTimeout(resolve, decision.delayMs));
			}
			const fault = decision.answer;
			if (fault?.kind === 'hang') {
				hung.add(response);
				response.on('close', () => hung.delete(response));
				code = 0;
				return;
			}
			if (fault?.kind === 'status') {
				const status = faultStatus(fault);
				code = fault.code;
				if (fault.inWatch === true && faultRequest.watch) {
					response.writeHead(200, {
						'Content-Type': 'application/json',
						'Transfer-Encoding': 'chunked',
					});
					response.end(watchLine('ERROR', JSON.stringify(status)));
					return;
				}
				sendStatus(
					response,
					status,
					fault.retryAfterSeconds === undefined
						? {}
						: { 'Retry-After': String(fault.retryAfterSeconds) },
				);
				return;
			}
			if (method === 'GET' && serveDiscovery(segments, request.headers.accept, response, port)) {
				return;
			}
			const target = resourceTarget(segments);
			// No OpenAPI documents are served (404): kubectl then goes without validation schemas and uses
			// JSON merge patch for custom resources, as against any server without them.
			if (target === undefined) throw notFoundPath();
			if (!acceptsJson(request.headers.accept)) {
				throw new ApiError(
					406,
					'NotAcceptable',
					'only the following media types are accepted: application/json',
				);
			}
			code = await serveResource(request, response, user, target, url.searchParams, fault);
		} catch (error) {
			const status =
				error instanceof ApiError
					? error.toStatus()
					: failureStatus(
							500,
							'InternalError',
							`Internal error occurred: ${(error as Error).message}`,
						);
			code = status.code;
			if (!response.headersSent) sendStatus(response, status);
			else response.end();
		} finally {
			log?.(
				`${method} ${url.pathname}${url.search} ${code === 0 ? 'hung' : code} ${Math.round(performance.now() - started)}ms ${user?.name ?? '-'}`,
			);
		}
	}

	const server: Server = createServer(
		{
			cert: certificates.certPem,
			key: certificates.keyPem,
			ca: certificates.caPem,
			requestCert: true,
			rejectUnauthorized: false,
		},
		(request, response) => void handle(request, response),
	);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
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
		sendBookmarks,
		openWatchCount: () => watches.size,
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
