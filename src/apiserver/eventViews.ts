// Events have two APIs over one storage, as in kube-apiserver: core v1 (`/api/v1/.../events`, what `kubectl get
// events` reads and older recorders write: `count`, `firstTimestamp`, `lastTimestamp`, `source`) and events.k8s.io/v1
// (`/apis/events.k8s.io/v1/.../events`, what client-go's new recorder writes: `eventTime`, `series`,
// `reportingController`, `note`, `regarding`). The store keeps the core form; requests to events.k8s.io/v1 read and
// write through the conversion of kubernetes `pkg/apis/events/v1/conversion.go`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors.ts';
import { mediaType, objectBody, parseJsonBody, readBody, sendJson } from './http.ts';
import {
	applyJsonPatch,
	applyMergePatch,
	applyStrategicMergePatch,
	isJsonObject,
	type Json,
	type JsonObject,
} from './patch.ts';
import { listJson, serveList } from './reads.ts';
import type { ResourceType } from './resources.ts';
import type { ServerState } from './serverState.ts';
import type { KubeObject, ObjectStore, StoredEntry } from './store.ts';
import { listQueryOf, type ResourceTarget, type Verb } from './targets.ts';
import { serveWatch } from './watches.ts';
import { isDryRun, writeOptionsOf } from './writes.ts';

/** Whether a type is events.k8s.io's Event, served from the core Events. */
export function isEventsApiType(type: ResourceType): boolean {
	return type.group === 'events.k8s.io' && type.kind === 'Event';
}

/** Field renames, core v1 name first (the fields both APIs share keep their names). */
const renamed: readonly (readonly [string, string])[] = [
	['involvedObject', 'regarding'],
	['message', 'note'],
	['reportingComponent', 'reportingController'],
	['source', 'deprecatedSource'],
	['firstTimestamp', 'deprecatedFirstTimestamp'],
	['lastTimestamp', 'deprecatedLastTimestamp'],
	['count', 'deprecatedCount'],
];

function renameFields(
	object: KubeObject,
	pairs: readonly (readonly [string, string])[],
): JsonObject {
	const out: JsonObject = {};
	const rename = new Map(pairs);
	for (const [key, value] of Object.entries(object)) {
		const target = rename.get(key) ?? key;
		// A key of the target API's own name in the source is not the same field: dropped.
		if (!rename.has(key) && pairs.some(([, to]) => to === key)) continue;
		out[target] = value;
	}
	return out;
}

/** A stored (core v1) Event as events.k8s.io/v1 shows it. */
function toEventsApi(core: KubeObject): KubeObject {
	const out = renameFields(core, renamed);
	out.apiVersion = 'events.k8s.io/v1';
	out.kind = 'Event';
	// MicroTime is not omitempty in events.k8s.io/v1: an Event of the old API shows `eventTime: null`.
	out.eventTime ??= null;
	return out;
}

/** An events.k8s.io/v1 Event in the stored (core v1) form. */
export function toCoreEvent(event: KubeObject): KubeObject {
	const out = renameFields(
		event,
		renamed.map(([core, events]) => [events, core] as const),
	);
	out.apiVersion = 'v1';
	out.kind = 'Event';
	// Core v1 serializes these without omitempty: the new API's Events show them empty.
	out.firstTimestamp ??= null;
	out.lastTimestamp ??= null;
	out.source ??= {};
	out.reportingComponent ??= '';
	out.reportingInstance ??= '';
	return out;
}

/** A field selector of events.k8s.io/v1 in the core names the store indexes. */
function coreFieldSelector(text: string): string {
	return text
		.replace(/(^|,)regarding\./g, '$1involvedObject.')
		.replace(/(^|,)reportingController(?=!?=)/g, '$1reportingComponent')
		.replace(/(^|,)deprecatedSource(?=!?=)/g, '$1source');
}

function coreParams(params: URLSearchParams): URLSearchParams {
	const out = new URLSearchParams(params);
	const selector = params.get('fieldSelector');
	if (selector !== null) out.set('fieldSelector', coreFieldSelector(selector));
	return out;
}

function presented(entries: readonly StoredEntry[]): StoredEntry[] {
	return entries.map((entry) => ({
		object: toEventsApi(entry.object),
		key: entry.key,
		json: undefined,
	}));
}

const patchers: Readonly<Record<string, (target: Json, patch: Json) => Json>> = {
	'application/merge-patch+json': applyMergePatch,
	'application/json-patch+json': (target, patch) => applyJsonPatch(target, patch),
	'application/strategic-merge-patch+json': applyStrategicMergePatch,
};

/**
 * Answers a request to events.k8s.io/v1 Events from the core Events of the store: reads converted on the way out,
 * writes on the way in. Server-side apply is not offered on this view (415), nor is it by the recorders that write
 * here.
 */
export async function serveEventsApi(
	state: ServerState,
	request: IncomingMessage,
	response: ServerResponse,
	target: ResourceTarget,
	params: URLSearchParams,
	verb: Verb,
): Promise<number> {
	const store: ObjectStore = state.store;
	const coreType = store.typeOf('v1', 'Event');
	if (coreType === undefined) throw new ApiError(404, 'NotFound', 'events are not served');
	const core: ResourceTarget = { ...target, type: coreType };
	const { namespace } = target;
	const name = target.name ?? '';
	const accept = request.headers.accept;
	switch (verb) {
		case 'get':
			sendJson(response, 200, toEventsApi(store.getOrThrow(coreType, namespace, name).object));
			return 200;
		case 'list':
			return serveList(store, response, core, coreParams(params), undefined, accept, {
				type: target.type,
				present: presented,
			});
		case 'watch':
			serveWatch(state, response, core, coreParams(params), accept, {
				type: target.type,
				present: toEventsApi,
			});
			return 200;
		case 'create': {
			const body = objectBody(await readBody(request), request.headers['content-type']);
			const created = store.create(
				coreType,
				namespace,
				toCoreEvent(body),
				writeOptionsOf(request, core, params),
			);
			sendJson(response, 201, toEventsApi(created));
			return 201;
		}
		case 'update': {
			const body = objectBody(await readBody(request), request.headers['content-type']);
			const updated = store.update(
				coreType,
				namespace,
				name,
				toCoreEvent(body),
				writeOptionsOf(request, core, params),
			);
			sendJson(response, 200, toEventsApi(updated));
			return 200;
		}
		case 'patch': {
			const patcher = patchers[mediaType(request.headers['content-type'])];
			if (patcher === undefined) {
				throw new ApiError(
					415,
					'UnsupportedMediaType',
					`the body of the request was in an unknown format - accepted media types include: ${Object.keys(patchers).join(', ')}`,
				);
			}
			const patch = parseJsonBody(await readBody(request));
			const current = toEventsApi(store.getOrThrow(coreType, namespace, name).object);
			const next = patcher(current, patch);
			if (!isJsonObject(next)) {
				throw new ApiError(422, 'Invalid', 'the patched Event is not an object');
			}
			const updated = store.update(
				coreType,
				namespace,
				name,
				toCoreEvent(next),
				writeOptionsOf(request, core, params),
			);
			sendJson(response, 200, toEventsApi(updated));
			return 200;
		}
		case 'delete': {
			const result = store.delete(coreType, namespace, name, { dryRun: isDryRun(params) });
			sendJson(response, 200, toEventsApi(result.object));
			return 200;
		}
		case 'deletecollection': {
			const deleted = store.deleteCollection(
				coreType,
				{ ...listQueryOf(core, coreParams(params)), limit: 0 },
				{ dryRun: isDryRun(params) },
			);
			const entries = deleted.map((object) => ({ object, key: '', json: undefined }));
			sendJson(
				response,
				200,
				listJson(target.type, presented(entries), {
					resourceVersion: String(store.resourceVersion),
				}),
			);
			return 200;
		}
	}
}
