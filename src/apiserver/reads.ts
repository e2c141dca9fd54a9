// Reads: one object, a page of a list (the store's, or a huge generated one when a fault asks for it), with the
// list JSON assembled from each object's cached serialization (as UTF-8 bytes).
import type { ServerResponse } from 'node:http';
import { badRequest, expired } from './errors.ts';
import { generateObjects, type Fault } from './faults.ts';
import { sendJson } from './http.ts';
import { includeObjectOf, tableOf, tablePrinterOf, wantsTable } from './printerColumns.ts';
import { apiVersionOf, type ResourceType } from './resources.ts';
import { metadataOf, type ObjectStore, type StoredEntry } from './store.ts';
import { listQueryOf, type ResourceTarget } from './targets.ts';

function listKind(type: ResourceType): string {
	return `${type.kind}List`;
}

const itemSeparator = Buffer.from(',');
const listEnd = Buffer.from(']}');

/** An object's serialization as UTF-8, computed once per stored version. */
function bytesOf(entry: StoredEntry): Buffer {
	entry.bytes ??= Buffer.from((entry.json ??= JSON.stringify(entry.object)));
	return entry.bytes;
}

/**
 * The list JSON as UTF-8, assembled from each object's cached bytes, as kube-apiserver writes bytes: a page is never
 * one giant string (joining, measuring and encoding those cost the server more than serving the bytes did).
 */
export function listJson(
	type: ResourceType,
	entries: readonly StoredEntry[],
	metadata: object,
): Buffer {
	const parts: Buffer[] = [
		Buffer.from(
			`{"kind":${JSON.stringify(listKind(type))},"apiVersion":${JSON.stringify(apiVersionOf(type))},"metadata":${JSON.stringify(metadata)},"items":[`,
		),
	];
	for (const [index, entry] of entries.entries()) {
		if (index > 0) parts.push(itemSeparator);
		parts.push(bytesOf(entry));
	}
	parts.push(listEnd);
	return Buffer.concat(parts);
}

/**
 * The Table kubectl asks for (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`), for a CRD's objects;
 * undefined when the client did not ask for one or the type has no printer columns (built-in types: the client
 * then prints from the objects, as it does against a server without a Table for them).
 */
function tableAnswer(
	store: ObjectStore,
	target: ResourceTarget,
	entries: readonly StoredEntry[],
	metadata: object,
	accept: string | undefined,
	params: URLSearchParams,
): object | undefined {
	const printer = tablePrinterOf(target.type);
	if (printer === undefined || target.subresource !== undefined || !wantsTable(accept)) {
		return undefined;
	}
	return tableOf(printer, entries, metadata, includeObjectOf(params), store.now());
}

const tableContentType = 'application/json;as=Table;v=v1;g=meta.k8s.io';

/** Answers a get with the object's cached serialization, or a Table of it when asked. */
export function serveGet(
	store: ObjectStore,
	response: ServerResponse,
	target: ResourceTarget,
	accept: string | undefined,
	params: URLSearchParams,
): number {
	const entry = store.getOrThrow(target.type, target.namespace, target.name ?? '');
	const resourceVersion = metadataOf(entry.object).resourceVersion;
	const table = tableAnswer(
		store,
		target,
		[entry],
		{
			resourceVersion:
				typeof resourceVersion === 'string' ? resourceVersion : String(store.resourceVersion),
		},
		accept,
		params,
	);
	if (table !== undefined) {
		sendJson(response, 200, table, tableContentType);
		return 200;
	}
	entry.json ??= JSON.stringify(entry.object);
	sendJson(response, 200, entry.json);
	return 200;
}

/** Another API's view of the stored objects (events.k8s.io's of the core Events): its type, its objects. */
export interface ListView {
	readonly type: ResourceType;
	present(entries: readonly StoredEntry[]): StoredEntry[];
}

/** Answers a list: one page of the store's objects, or of generated ones under a `hugeList` fault. */
export function serveList(
	store: ObjectStore,
	response: ServerResponse,
	target: ResourceTarget,
	params: URLSearchParams,
	fault: Fault | undefined,
	accept: string | undefined,
	view?: ListView,
): number {
	const { type } = target;
	if (fault?.kind === 'hugeList') {
		serveHugeList(store, response, target, params, fault);
		return 200;
	}
	const query = listQueryOf(target, params);
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
	const table = tableAnswer(store, target, page.entries, metadata, accept, params);
	if (table !== undefined) sendJson(response, 200, table, tableContentType);
	else if (view === undefined) sendJson(response, 200, listJson(type, page.entries, metadata));
	else sendJson(response, 200, listJson(view.type, view.present(page.entries), metadata));
	return 200;
}

/** A page of the fault's generated objects; the continue token is the index of the next one. */
function serveHugeList(
	store: ObjectStore,
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
