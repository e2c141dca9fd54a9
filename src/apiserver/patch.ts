// The four PATCH bodies kube-apiserver accepts: JSON merge patch (RFC 7386), JSON patch (RFC 6902), strategic
// merge patch (apimachinery's `strategicpatch`, for built-in kinds only) and server-side apply. Every function
// here is pure: it takes the current object and returns a new one, and throws an ApiError for a bad patch.

import { ApiError, badRequest } from './errors.ts';

/** A JSON value as decoded from a request body. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** Whether a value is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep structural equality of two JSON values; key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (Array.isArray(a)) {
		if (!Array.isArray(b) || a.length !== b.length) return false;
		return a.every((item, i) => jsonEqual(item, b[i]));
	}
	if (isJsonObject(a) && isJsonObject(b)) {
		const keys = Object.keys(a);
		if (keys.length !== Object.keys(b).length) return false;
		return keys.every((key) => key in b && jsonEqual(a[key], b[key]));
	}
	return false;
}

/**
 * A deep copy of a JSON value. Node's structuredClone goes through its serializer and costs several times more
 * on plain JSON; loading 100,000 objects spent most of its time there.
 */
export function cloneJson<T extends Json>(value: T): T {
	if (typeof value !== 'object' || value === null) return value;
	if (Array.isArray(value)) return value.map((item) => cloneJson(item)) as T;
	const copy: JsonObject = {};
	const object: JsonObject = value;
	for (const key in object) {
		const item = object[key];
		if (item !== undefined) copy[key] = cloneJson(item);
	}
	return copy as T;
}

function clone<T extends Json>(value: T): T {
	return cloneJson(value);
}

// JSON merge patch (RFC 7386): objects merge recursively, null deletes, anything else replaces.

/** Applies an RFC 7386 JSON merge patch. */
export function applyMergePatch(target: Json | undefined, patch: Json): Json {
	if (!isJsonObject(patch)) return clone(patch);
	const result: JsonObject = isJsonObject(target) ? { ...target } : {};
	for (const [key, value] of Object.entries(patch)) {
		if (value === null) {
			delete result[key];
		} else {
			result[key] = applyMergePatch(result[key], value);
		}
	}
	return result;
}

// JSON patch (RFC 6902) with JSON pointers (RFC 6901).

function pointerSegments(pointer: string): string[] {
	if (pointer === '') return [];
	if (!pointer.startsWith('/')) throw badRequest(`invalid JSON pointer: "${pointer}"`);
	return pointer
		.slice(1)
		.split('/')
		.map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function patchFailed(message: string): ApiError {
	return new ApiError(
		422,
		'Invalid',
		`the server rejected our request due to an error in our request: ${message}`,
	);
}

function arrayIndex(container: Json[], segment: string, forInsert: boolean): number {
	if (forInsert && segment === '-') return container.length;
	if (!/^(0|[1-9][0-9]*)$/.test(segment)) throw patchFailed(`invalid array index "${segment}"`);
	const index = Number(segment);
	if (index > container.length || (!forInsert && index === container.length)) {
		throw patchFailed(`array index ${index} out of bounds`);
	}
	return index;
}

/** The container a pointer's last segment lives in, walking from the root. */
function parentOf(root: Json, segments: readonly string[], pointer: string): Json {
	let current = root;
	for (const segment of segments.slice(0, -1)) {
		if (Array.isArray(current)) {
			current = current[arrayIndex(current, segment, false)] as Json;
		} else if (isJsonObject(current) && segment in current) {
			current = current[segment] as Json;
		} else {
			throw patchFailed(`path "${pointer}" does not exist`);
		}
	}
	return current;
}

function valueAt(root: Json, pointer: string): Json {
	const segments = pointerSegments(pointer);
	if (segments.length === 0) return root;
	const parent = parentOf(root, segments, pointer);
	const last = segments[segments.length - 1] ?? '';
	if (Array.isArray(parent)) return parent[arrayIndex(parent, last, false)] as Json;
	if (isJsonObject(parent) && last in parent) return parent[last] as Json;
	throw patchFailed(`path "${pointer}" does not exist`);
}

function removeAt(root: Json, pointer: string): Json {
	const segments = pointerSegments(pointer);
	const parent = parentOf(root, segments, pointer);
	const last = segments[segments.length - 1] ?? '';
	if (Array.isArray(parent)) {
		const [removed] = parent.splice(arrayIndex(parent, last, false), 1);
		return removed as Json;
	}
	if (isJsonObject(parent) && last in parent) {
		const removed = parent[last] as Json;
		delete parent[last];
		return removed;
	}
	throw patchFailed(`unable to remove nonexistent key "${last}" at "${pointer}"`);
}

function addAt(root: Json, pointer: string, value: Json, replace: boolean): Json {
	const segments = pointerSegments(pointer);
	if (segments.length === 0) return value;
	const parent = parentOf(root, segments, pointer);
	const last = segments[segments.length - 1] ?? '';
	if (Array.isArray(parent)) {
		if (replace) parent[arrayIndex(parent, last, false)] = value;
		else parent.splice(arrayIndex(parent, last, true), 0, value);
	} else if (isJsonObject(parent)) {
		if (replace && !(last in parent)) {
			throw patchFailed(`unable to replace nonexistent key "${last}" at "${pointer}"`);
		}
		parent[last] = value;
	} else {
		throw patchFailed(`path "${pointer}" does not exist`);
	}
	return root;
}

/** Applies an RFC 6902 JSON patch (a list of operations). */
export function applyJsonPatch(target: Json, operations: Json): Json {
	if (!Array.isArray(operations)) throw badRequest('a JSON patch must be a list of operations');
	let root = clone(target);
	for (const operation of operations) {
		if (!isJsonObject(operation) || typeof operation.op !== 'string') {
			throw badRequest('every JSON patch operation needs an "op"');
		}
		const path = operation.path;
		if (typeof path !== 'string') throw badRequest(`operation "${operation.op}" needs a "path"`);
		const from = typeof operation.from === 'string' ? operation.from : undefined;
		switch (operation.op) {
			case 'add':
			case 'replace':
				if (!('value' in operation)) {
					throw badRequest(`operation "${operation.op}" needs a "value"`);
				}
				root = addAt(root, path, clone(operation.value), operation.op === 'replace');
				break;
			case 'remove':
				removeAt(root, path);
				break;
			case 'move':
			case 'copy': {
				if (from === undefined) throw badRequest(`operation "${operation.op}" needs a "from"`);
				const value = operation.op === 'move' ? removeAt(root, from) : clone(valueAt(root, from));
				root = addAt(root, path, value, false);
				break;
			}
			case 'test':
				if (!jsonEqual(valueAt(root, path), operation.value)) {
					throw patchFailed(`testing value ${path} failed`);
				}
				break;
			default:
				throw badRequest(`unknown JSON patch operation "${operation.op}"`);
		}
	}
	return root;
}

// Strategic merge patch. Built-in types declare, per list field, whether the list merges and by which key
// (`patchStrategy:"merge" patchMergeKey:"name"` tags in k8s.io/api). The server has no Go types, so this table
// holds the tags of the fields the served built-in kinds have; any other list is replaced, as untagged lists are.

const mergeKeysByField: Readonly<Record<string, string>> = {
	containers: 'name',
	initContainers: 'name',
	ephemeralContainers: 'name',
	volumes: 'name',
	env: 'name',
	imagePullSecrets: 'name',
	resourceClaims: 'name',
	volumeMounts: 'mountPath',
	volumeDevices: 'devicePath',
	conditions: 'type',
	hostAliases: 'ip',
	ownerReferences: 'uid',
	topologySpreadConstraints: 'topologyKey',
};

// Lists of scalars tagged `patchStrategy:"merge"`: the patch's items are added to the live ones.
const mergedScalarLists = new Set(['finalizers']);

/** The merge key of a list field, or undefined when the list is replaced whole. */
function mergeKeyOf(field: string, items: readonly Json[]): string | undefined {
	if (field === 'ports') {
		// Container ports merge by containerPort, Service ports by port: the same field name in two types.
		return items.some((item) => isJsonObject(item) && 'containerPort' in item)
			? 'containerPort'
			: 'port';
	}
	return mergeKeysByField[field];
}

function withoutDirectives(value: Json): Json {
	if (Array.isArray(value)) {
		return value
			.filter((item) => !(isJsonObject(item) && Object.keys(item).length === 1 && '$patch' in item))
			.map(withoutDirectives);
	}
	if (isJsonObject(value)) {
		const result: JsonObject = {};
		for (const [key, item] of Object.entries(value)) {
			if (key.startsWith('$')) continue;
			result[key] = withoutDirectives(item);
		}
		return result;
	}
	return value;
}

function orderedBy(items: Json[], order: readonly Json[], key: string | undefined): Json[] {
	const rank = (item: Json): number => {
		const index = order.findIndex((entry) =>
			key === undefined
				? jsonEqual(entry, item)
				: isJsonObject(entry) && isJsonObject(item) && jsonEqual(entry[key], item[key]),
		);
		return index < 0 ? order.length : index;
	};
	return items
		.map((item, position) => ({ item, position, rank: rank(item) }))
		.sort((a, b) => a.rank - b.rank || a.position - b.position)
		.map((entry) => entry.item);
}

function mergeList(field: string, original: Json | undefined, patch: Json[]): Json[] {
	const replace = patch.some((item) => isJsonObject(item) && item.$patch === 'replace');
	const live = Array.isArray(original) ? original : [];
	if (replace) return withoutDirectives(patch) as Json[];
	if (mergedScalarLists.has(field)) {
		const result = [...live];
		for (const item of patch) {
			if (!result.some((existing) => jsonEqual(existing, item))) result.push(clone(item));
		}
		return result;
	}
	const key = mergeKeyOf(field, [...patch, ...live]);
	if (key === undefined || !patch.every(isJsonObject)) return withoutDirectives(patch) as Json[];
	const result = live.map(clone);
	for (const item of patch) {
		if (!isJsonObject(item)) continue;
		const index = result.findIndex(
			(existing) => isJsonObject(existing) && jsonEqual(existing[key], item[key]),
		);
		if (item.$patch === 'delete') {
			if (index >= 0) result.splice(index, 1);
		} else if (index >= 0) {
			result[index] = mergeStrategic(result[index], item) ?? {};
		} else {
			result.push(mergeStrategic(undefined, item) ?? {});
		}
	}
	return result;
}

/** Applies a strategic merge patch to a map; undefined means the patch deleted it (`$patch: delete`). */
export function mergeStrategic(
	original: Json | undefined,
	patch: JsonObject,
): JsonObject | undefined {
	if (patch.$patch === 'delete') return undefined;
	if (patch.$patch === 'replace') return withoutDirectives(patch) as JsonObject;
	const result: JsonObject = isJsonObject(original) ? { ...original } : {};
	const orders: [string, Json[]][] = [];
	const deletions: [string, Json[]][] = [];
	for (const [key, value] of Object.entries(patch)) {
		if (key.startsWith('$setElementOrder/')) {
			if (Array.isArray(value)) orders.push([key.slice('$setElementOrder/'.length), value]);
		} else if (key.startsWith('$deleteFromPrimitiveList/')) {
			if (Array.isArray(value)) {
				deletions.push([key.slice('$deleteFromPrimitiveList/'.length), value]);
			}
		} else if (key.startsWith('$')) {
			continue;
		} else if (value === null) {
			delete result[key];
		} else if (isJsonObject(value)) {
			const merged = mergeStrategic(result[key], value);
			if (merged === undefined) delete result[key];
			else result[key] = merged;
		} else if (Array.isArray(value)) {
			result[key] = mergeList(key, result[key], value);
		} else {
			result[key] = value;
		}
	}
	for (const [field, values] of deletions) {
		const list = result[field];
		if (Array.isArray(list)) {
			result[field] = list.filter((item) => !values.some((value) => jsonEqual(value, item)));
		}
	}
	for (const [field, order] of orders) {
		const list = result[field];
		if (Array.isArray(list)) result[field] = orderedBy(list, order, mergeKeyOf(field, list));
	}
	const retain = patch.$retainKeys;
	if (Array.isArray(retain)) {
		for (const key of Object.keys(result)) {
			if (!retain.includes(key)) delete result[key];
		}
	}
	return result;
}

/** Applies a strategic merge patch to a whole object. */
export function applyStrategicMergePatch(target: Json, patch: Json): Json {
	if (!isJsonObject(patch)) throw badRequest('a strategic merge patch must be a JSON object');
	return mergeStrategic(target, patch) ?? {};
}

// Server-side apply merges a manager's configuration into the live object as a strategic merge would; which fields
// it then owns, removes or conflicts on is field ownership, in managedFields.ts.

/** How a list field is merged and owned: by a key (containers by name), as a set of scalars, or whole. */
export type ListType =
	| { readonly kind: 'map'; readonly key: string }
	| { readonly kind: 'set' }
	| { readonly kind: 'atomic' };

/** The list type of a field's items: keyed by its merge key when every item has it, else a set or atomic. */
export function listTypeOf(field: string, items: readonly Json[]): ListType {
	if (
		mergedScalarLists.has(field) &&
		items.every((item) => !isJsonObject(item) && !Array.isArray(item))
	) {
		return { kind: 'set' };
	}
	const key = mergeKeyOf(field, items);
	if (key !== undefined && items.every((item) => isJsonObject(item) && item[key] !== undefined)) {
		return { kind: 'map', key };
	}
	return { kind: 'atomic' };
}
