// Writes: create, update (the object or its status), patch in the four patch types, delete (with preconditions)
// and delete collection, each with `?dryRun=All` and the field manager that managedFields records.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors.ts';
import {
	isTrue,
	mediaType,
	objectBody,
	parseJsonBody,
	parseYamlBody,
	readBody,
	sendJson,
} from './http.ts';
import { defaultFieldManager } from './managedFields.ts';
import { isJsonObject } from './patch.ts';
import { listJson } from './reads.ts';
import type { ObjectStore, PatchType } from './store.ts';
import { listQueryOf, type ResourceTarget } from './targets.ts';

const patchTypes: Readonly<Record<string, PatchType>> = {
	'application/merge-patch+json': 'merge',
	'application/json-patch+json': 'json',
	'application/strategic-merge-patch+json': 'strategic',
	'application/apply-patch+yaml': 'apply',
};

/** Whether a request is a dry run (`?dryRun=All`). */
export function isDryRun(params: URLSearchParams): boolean {
	return params.getAll('dryRun').includes('All');
}

/** The options of a create, update or patch: dry run, the field manager (else the User-Agent's), the subresource. */
export function writeOptionsOf(
	request: IncomingMessage,
	target: ResourceTarget,
	params: URLSearchParams,
) {
	const fieldManager = params.get('fieldManager') ?? undefined;
	return {
		dryRun: isDryRun(params),
		requireNamespace: true,
		fieldManager: fieldManager ?? defaultFieldManager(request.headers['user-agent']),
		...(target.subresource === 'status' ? { subresource: 'status' as const } : {}),
	};
}

/** Answers a create: 201 with the object as stored. */
export async function serveCreate(
	store: ObjectStore,
	request: IncomingMessage,
	response: ServerResponse,
	target: ResourceTarget,
	params: URLSearchParams,
): Promise<number> {
	const body = objectBody(await readBody(request), request.headers['content-type']);
	const created = store.create(
		target.type,
		target.namespace,
		body,
		writeOptionsOf(request, target, params),
	);
	sendJson(response, 201, created);
	return 201;
}

/** Answers an update of an object or its status. */
export async function serveUpdate(
	store: ObjectStore,
	request: IncomingMessage,
	response: ServerResponse,
	target: ResourceTarget,
	params: URLSearchParams,
): Promise<number> {
	const { type, namespace, name } = target;
	const writeOptions = writeOptionsOf(request, target, params);
	const body = objectBody(await readBody(request), request.headers['content-type']);
	sendJson(response, 200, store.update(type, namespace, name ?? '', body, writeOptions));
	return 200;
}

/** Answers a patch of the type the Content-Type names; 201 when an apply created the object. */
export async function servePatch(
	store: ObjectStore,
	request: IncomingMessage,
	response: ServerResponse,
	target: ResourceTarget,
	params: URLSearchParams,
): Promise<number> {
	const { type, namespace, name } = target;
	const writeOptions = writeOptionsOf(request, target, params);
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
		...(patchType === 'apply' ? { fieldManager: params.get('fieldManager') ?? '' } : {}),
		force: isTrue(params.get('force')),
	});
	const code = existed ? 200 : 201;
	sendJson(response, code, patched);
	return code;
}

/** Answers a delete: 200 when gone, 202 while finalizers hold the object. */
export async function serveDelete(
	store: ObjectStore,
	request: IncomingMessage,
	response: ServerResponse,
	target: ResourceTarget,
	params: URLSearchParams,
): Promise<number> {
	const { type, namespace, name } = target;
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
		dryRun: isDryRun(params) || bodyDryRun,
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

/** Answers a delete collection with the list of what it deleted. */
export function serveDeleteCollection(
	store: ObjectStore,
	response: ServerResponse,
	target: ResourceTarget,
	params: URLSearchParams,
): number {
	const { type } = target;
	const deleted = store.deleteCollection(
		type,
		{ ...listQueryOf(target, params), limit: 0 },
		{ dryRun: isDryRun(params) },
	);
	const entries = deleted.map((object) => ({ object, key: '', json: undefined }));
	sendJson(
		response,
		200,
		listJson(type, entries, { resourceVersion: String(store.resourceVersion) }),
	);
	return 200;
}
