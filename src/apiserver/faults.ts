// Fault injection: tests make the server misbehave the way real clusters do (a dropped watch, a 410 after etcd
// compaction, a 403 from RBAC, a 500 from a webhook, a slow or hung API server, a list too big to hold) and then
// check that the client recovers. Faults are set in-process through `server.faults`, or over HTTP under
// `/_faults` by a test that runs the server in another process (the admin token is required there).

import { randomUUID } from 'node:crypto';
import { failureStatus, reasonForCode, type StatusObject, type StatusReason } from './errors.ts';
import { cloneJson, isJsonObject, type JsonObject } from './patch.ts';
import { apiVersionOf, type ResourceType } from './resources.ts';

/** Which requests a fault applies to; every given field must match. */
export interface RequestMatch {
	/** HTTP method, e.g. 'GET' (any when absent). */
	readonly method?: string;
	/** Tested against the URL path without the query, e.g. /bundledeployments$/ (a string is a RegExp source). */
	readonly path?: RegExp | string;
	/** Tested against the query string including '?', e.g. /labelSelector=/. */
	readonly query?: RegExp | string;
	/** Only watch requests (true) or only other requests (false). */
	readonly watch?: boolean;
	/** Only requests of this user ('admin' for the main token). */
	readonly user?: string;
	/** How many requests the fault applies to before it goes away (unlimited when absent). */
	readonly count?: number;
}

/** What a fault does to a matching request. */
export type Fault =
	| {
			/** Answer with this HTTP status and a Status object (410 reads as reason Expired, 403 Forbidden...). */
			readonly kind: 'status';
			readonly code: number;
			readonly reason?: StatusReason;
			readonly message?: string;
			/** Sent as Retry-After and in the Status details (for 429 and 503). */
			readonly retryAfterSeconds?: number;
			/** For a watch: answer 200 and send the Status as an ERROR event, as kube-apiserver does for 410. */
			readonly inWatch?: boolean;
	  }
	| { /** Wait before answering. */ readonly kind: 'delay'; readonly ms: number }
	| {
			/** Never answer; the connection stays open until the client or the server closes it. */ readonly kind: 'hang';
	  }
	| {
			/** Answer a list with this many generated objects (paged by limit/continue), none of them stored. */
			readonly kind: 'hugeList';
			readonly count: number;
			/** Merged into every generated object (e.g. a status); metadata.name and namespace are set per item. */
			readonly template?: JsonObject;
	  };

/** A request as faults see it. */
export interface FaultRequest {
	readonly method: string;
	readonly path: string;
	readonly query: string;
	readonly watch: boolean;
	readonly user: string;
}

/** A fault that is in force. */
export interface FaultHandle {
	readonly id: string;
	readonly fault: Fault;
	readonly match: RequestMatch;
	/** How many requests it has applied to. */
	readonly hits: number;
	/** Takes it out of force. */
	remove(): void;
}

/** What the server must do for the faults that matched a request. */
export interface FaultDecision {
	readonly delayMs: number;
	/** The first matching fault that decides the answer (status, hang or hugeList), if any. */
	readonly answer: Fault | undefined;
}

/** How `dropWatches` ends the connections: a reset (network failure) or a clean end of the chunked body. */
export type DropMode = 'destroy' | 'end';

/** What the server lends the faults so that they can act on it. */
export interface FaultHooks {
	dropWatches(mode: DropMode): number;
	expireHistory(): number;
}

interface ActiveFault {
	readonly id: string;
	readonly fault: Fault;
	readonly match: RequestMatch;
	remaining: number;
	hits: number;
}

function regexOf(pattern: RegExp | string | undefined): RegExp | undefined {
	if (pattern === undefined) return undefined;
	return typeof pattern === 'string' ? new RegExp(pattern) : pattern;
}

function matches(match: RequestMatch, request: FaultRequest): boolean {
	if (match.method !== undefined && match.method.toUpperCase() !== request.method) return false;
	if (match.watch !== undefined && match.watch !== request.watch) return false;
	if (match.user !== undefined && match.user !== request.user) return false;
	const path = regexOf(match.path);
	if (path !== undefined && !path.test(request.path)) return false;
	const query = regexOf(match.query);
	return query === undefined || query.test(request.query);
}

/** The faults in force on one server. */
export class Faults {
	private readonly active: ActiveFault[] = [];
	private readonly hooks: FaultHooks;

	constructor(hooks: FaultHooks) {
		this.hooks = hooks;
	}

	/** Puts a fault in force for the requests `match` selects (all requests when empty). */
	add(fault: Fault, match: RequestMatch = {}): FaultHandle {
		const entry: ActiveFault = {
			id: randomUUID(),
			fault,
			match,
			remaining: match.count ?? Infinity,
			hits: 0,
		};
		this.active.push(entry);
		const active = this.active;
		return {
			id: entry.id,
			fault,
			match,
			get hits() {
				return entry.hits;
			},
			remove() {
				const index = active.indexOf(entry);
				if (index >= 0) active.splice(index, 1);
			},
		};
	}

	/** Answers matching requests with `code` and a Status object (e.g. 403, 404, 410, 500). */
	respond(
		code: number,
		match: RequestMatch = {},
		options: Omit<Extract<Fault, { kind: 'status' }>, 'kind' | 'code'> = {},
	): FaultHandle {
		return this.add({ kind: 'status', code, ...options }, match);
	}

	/** Delays matching requests by `ms`. */
	delay(ms: number, match: RequestMatch = {}): FaultHandle {
		return this.add({ kind: 'delay', ms }, match);
	}

	/** Never answers matching requests. */
	hang(match: RequestMatch = {}): FaultHandle {
		return this.add({ kind: 'hang' }, match);
	}

	/** Answers matching list requests with `count` generated objects. */
	hugeList(count: number, match: RequestMatch = {}, template?: JsonObject): FaultHandle {
		return this.add(
			{ kind: 'hugeList', count, ...(template === undefined ? {} : { template }) },
			{ watch: false, ...match },
		);
	}

	/** Closes every open watch now; returns how many there were. */
	dropWatches(mode: DropMode = 'destroy'): number {
		return this.hooks.dropWatches(mode);
	}

	/** Forgets the event history: a watch from any older resourceVersion gets 410. Returns the current one. */
	expireHistory(): number {
		return this.hooks.expireHistory();
	}

	/** Takes one fault out of force by id; false when there was none. */
	remove(id: string): boolean {
		const index = this.active.findIndex((entry) => entry.id === id);
		if (index >= 0) this.active.splice(index, 1);
		return index >= 0;
	}

	/** Takes every fault out of force. */
	clear(): void {
		this.active.length = 0;
	}

	/** The faults in force, for the control endpoint and for test messages. */
	list(): readonly {
		readonly id: string;
		readonly fault: Fault;
		readonly match: object;
		readonly hits: number;
	}[] {
		return this.active.map((entry) => ({
			id: entry.id,
			fault: entry.fault,
			match: {
				...entry.match,
				path: regexOf(entry.match.path)?.source,
				query: regexOf(entry.match.query)?.source,
			},
			hits: entry.hits,
		}));
	}

	/** Decides what happens to a request, using up one application of each fault that matched. */
	decide(request: FaultRequest): FaultDecision {
		let delayMs = 0;
		let answer: Fault | undefined;
		for (const entry of [...this.active]) {
			if (entry.remaining <= 0 || !matches(entry.match, request)) continue;
			if (entry.fault.kind === 'delay') {
				delayMs += entry.fault.ms;
			} else if (answer === undefined) {
				answer = entry.fault;
			} else {
				continue;
			}
			entry.hits++;
			entry.remaining--;
			if (entry.remaining <= 0) {
				const index = this.active.indexOf(entry);
				if (index >= 0) this.active.splice(index, 1);
			}
		}
		return { delayMs, answer };
	}
}

/** The Status object a status fault answers with. */
export function faultStatus(fault: Extract<Fault, { kind: 'status' }>): StatusObject {
	const reason = fault.reason ?? reasonForCode(fault.code);
	return failureStatus(
		fault.code,
		reason,
		fault.message ?? `injected fault: ${fault.code} ${reason}`,
		fault.retryAfterSeconds === undefined
			? undefined
			: { retryAfterSeconds: fault.retryAfterSeconds },
	);
}

/**
 * `count` objects of a type, numbered from `start`: `<singular>-000042` in `namespace`, with `template` merged
 * in. For huge lists and for seeding a store (`store.put` each one) in scale tests.
 */
export function generateObjects(
	type: ResourceType,
	count: number,
	options: {
		readonly namespace?: string;
		readonly template?: JsonObject;
		readonly start?: number;
	} = {},
): JsonObject[] {
	const objects: JsonObject[] = [];
	const start = options.start ?? 0;
	const template = options.template ?? {};
	const templateMeta = isJsonObject(template.metadata) ? template.metadata : {};
	for (let i = start; i < start + count; i++) {
		const name = `${type.singular}-${String(i).padStart(6, '0')}`;
		objects.push({
			...cloneJson(template),
			apiVersion: apiVersionOf(type),
			kind: type.kind,
			metadata: {
				...cloneJson(templateMeta),
				name,
				...(type.namespaced ? { namespace: options.namespace ?? 'default' } : {}),
				uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
				resourceVersion: '1',
				generation: 1,
				creationTimestamp: '2025-01-01T00:00:00Z',
			},
		});
	}
	return objects;
}

/** Reads a fault and its match from the JSON body of `POST /_faults`. */
export function faultFromJson(body: unknown): { fault: Fault; match: RequestMatch } | string {
	if (!isJsonObject(body)) return 'the body must be a JSON object';
	const match: {
		method?: string;
		path?: string;
		query?: string;
		watch?: boolean;
		user?: string;
		count?: number;
	} = {};
	if (typeof body.method === 'string') match.method = body.method;
	if (typeof body.path === 'string') match.path = body.path;
	if (typeof body.query === 'string') match.query = body.query;
	if (typeof body.watch === 'boolean') match.watch = body.watch;
	if (typeof body.user === 'string') match.user = body.user;
	if (typeof body.count === 'number') match.count = body.count;
	switch (body.kind) {
		case 'status': {
			if (typeof body.code !== 'number') return 'a status fault needs a numeric "code"';
			return {
				fault: {
					kind: 'status',
					code: body.code,
					...(typeof body.reason === 'string' ? { reason: body.reason as StatusReason } : {}),
					...(typeof body.message === 'string' ? { message: body.message } : {}),
					...(typeof body.retryAfterSeconds === 'number'
						? { retryAfterSeconds: body.retryAfterSeconds }
						: {}),
					...(typeof body.inWatch === 'boolean' ? { inWatch: body.inWatch } : {}),
				},
				match,
			};
		}
		case 'delay':
			if (typeof body.ms !== 'number') return 'a delay fault needs a numeric "ms"';
			return { fault: { kind: 'delay', ms: body.ms }, match };
		case 'hang':
			return { fault: { kind: 'hang' }, match };
		case 'hugeList':
			if (typeof body.items !== 'number') return 'a hugeList fault needs a numeric "items"';
			return {
				fault: {
					kind: 'hugeList',
					count: body.items,
					...(isJsonObject(body.template) ? { template: body.template } : {}),
				},
				match: { watch: false, ...match },
			};
		default:
			return 'unknown fault kind: use status, delay, hang or hugeList';
	}
}
