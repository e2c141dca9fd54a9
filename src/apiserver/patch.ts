// The four PATCH bodies kube-apiserver accepts: JSON merge patch (RFC 7386), JSON patch (RFC 6902), strategic
// merge patch (apimachinery's `strategicpatch`, for built-in kinds only) and server-side apply. Every function
// here is pure: it takes the current object and returns a new one, and throws an ApiError for a bad patch.
//
// A map's keys are its own properties only, whatever their names: `__proto__`, `constructor` or `toString` in a
// body or a JSON pointer are keys like any other, as they are in Go, never a way into Object.prototype.

import { ApiError, badRequest } from './errors.ts';
import { maxJsonDepth, maxJsonPatchOperations, maxObjectBytes, measureJson } from './limits.ts';

/** A JSON value as decoded from a request body. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** Whether a value is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A map's own entry, or undefined (an inherited property is no entry). */
function entryOf(object: JsonObject, key: string): Json | undefined {
	return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Sets a map's own entry; `__proto__` becomes a key, as JSON.parse makes it, not the prototype. */
export function setEntry(object: JsonObject, key: string, value: Json): void {
	if (key === '__proto__') {
		Object.defineProperty(object, key, {
			value,
			writable: true,
			enumerable: true,
			configurable: true,
		});
	} else {
		object[key] = value;
	}
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
		return keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
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
	// for...in is the fastest walk; Object.prototype has no enumerable properties, as no request can add one.
	for (const key in object) {
		const item = object[key];
		if (item === undefined) continue;
		if (key === '__proto__') setEntry(copy, key, cloneJson(item));
		else copy[key] = cloneJson(item);
	}
	return copy as T;
}

function clone<T extends Json>(value: T): T {
	return cloneJson(value);
}

/** A key for a JSON value that equal values share (jsonEqual's equality: key order does not matter). */
function identityKey(value: Json | undefined): string {
	if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'undefined';
	if (Array.isArray(value)) return `[${value.map(identityKey).join(',')}]`;
	const keys = Object.keys(value).sort();
	return `{${keys.map((key) => `${JSON.stringify(key)}:${identityKey(value[key])}`).join(',')}}`;
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
			setEntry(result, key, applyMergePatch(entryOf(result, key), value));
		}
	}
	return result;
}

// JSON patch (RFC 6902) with JSON pointers (RFC 6901). A patch is bounded in operations, in the size of what it
// builds (checked after every operation, so that a few `copy` operations that double the object each time fail
// long before they take the server's memory) and in how much it copies in all.

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
		} else if (isJsonObject(current) && Object.hasOwn(current, segment)) {
			current = current[segment] as Json;
		} else {
			throw patchFailed(`path "${pointer}" does not exist`);
		}
	}
	return current;
}

/** The bytes an entry adds to its container besides its value: an array's comma, a map's key, quotes and colon. */
function entryBytes(container: Json[] | JsonObject, key: string): number {
	return Array.isArray(container) ? 1 : measureJson(key).bytes + 2;
}

function valueAt(root: Json, pointer: string): Json {
	const segments = pointerSegments(pointer);
	if (segments.length === 0) return root;
	const parent = parentOf(root, segments, pointer);
	const last = segments[segments.length - 1] ?? '';
	if (Array.isArray(parent)) return parent[arrayIndex(parent, last, false)] as Json;
	if (isJsonObject(parent) && Object.hasOwn(parent, last)) return parent[last] as Json;
	throw patchFailed(`path "${pointer}" does not exist`);
}

/** What an operation took out of the document: the value and the bytes of its entry besides the value. */
interface Removed {
	readonly value: Json;
	readonly entryBytes: number;
}

function removeAt(root: Json, pointer: string): Removed {
	const segments = pointerSegments(pointer);
	const parent = parentOf(root, segments, pointer);
	const last = segments[segments.length - 1] ?? '';
	if (Array.isArray(parent)) {
		const [removed] = parent.splice(arrayIndex(parent, last, false), 1);
		return { value: removed as Json, entryBytes: 1 };
	}
	if (isJsonObject(parent) && Object.hasOwn(parent, last)) {
		const removed = parent[last] as Json;
		delete parent[last];
		return { value: removed, entryBytes: entryBytes(parent, last) };
	}
	throw patchFailed(`unable to remove nonexistent key "${last}" at "${pointer}"`);
}

/** What an add or replace did: the new root, the value it replaced, and the bytes of a new entry besides its value. */
interface Added {
	readonly root: Json;
	readonly replaced: Json | undefined;
	readonly entryBytes: number;
}

function addAt(root: Json, pointer: string, value: Json, replace: boolean): Added {
	const segments = pointerSegments(pointer);
	if (segments.length === 0) return { root: value, replaced: root, entryBytes: 0 };
	const parent = parentOf(root, segments, pointer);
	const last = segments[segments.length - 1] ?? '';
	if (Array.isArray(parent)) {
		if (replace) {
			const index = arrayIndex(parent, last, false);
			const replaced = parent[index] as Json;
			parent[index] = value;
			return { root, replaced, entryBytes: 0 };
		}
		parent.splice(arrayIndex(parent, last, true), 0, value);
		return { root, replaced: undefined, entryBytes: 1 };
	}
	if (isJsonObject(parent)) {
		const exists = Object.hasOwn(parent, last);
		if (replace && !exists) {
			throw patchFailed(`unable to replace nonexistent key "${last}" at "${pointer}"`);
		}
		const replaced = exists ? parent[last] : undefined;
		setEntry(parent, last, value);
		return { root, replaced, entryBytes: exists ? 0 : entryBytes(parent, last) };
	}
	throw patchFailed(`path "${pointer}" does not exist`);
}

function tooManyOperations(count: number): ApiError {
	return new ApiError(
		413,
		'RequestEntityTooLarge',
		`Request entity too large: The allowed maximum operations in a JSON patch is ${maxJsonPatchOperations}, got ${count}`,
	);
}

function patchTooLarge(what: string, index: number, op: string): ApiError {
	return new ApiError(
		413,
		'RequestEntityTooLarge',
		`Request entity too large: ${what} (operation ${index}, "${op}")`,
	);
}

/**
 * Applies an RFC 6902 JSON patch (a list of operations). 413 when it has too many operations, when the object
 * it builds passes `bytesLimit` after any operation, or when its copies add up to more than that; 422 when the
 * result nests deeper than the server walks.
 */
export function applyJsonPatch(target: Json, operations: Json, bytesLimit = maxObjectBytes): Json {
	if (!Array.isArray(operations)) throw badRequest('a JSON patch must be a list of operations');
	if (operations.length > maxJsonPatchOperations) throw tooManyOperations(operations.length);
	let root = clone(target);
	const start = measureJson(root, Infinity, Infinity);
	let bytes = start.bytes;
	// managedFields nests a few levels deeper than the fields it records: an object stored that deep may stay so.
	const depthLimit = Math.max(maxJsonDepth, start.depth);
	let copied = 0;
	const bytesOf = (value: Json | undefined): number =>
		value === undefined ? 0 : measureJson(value).bytes;
	for (const [index, operation] of operations.entries()) {
		if (!isJsonObject(operation) || typeof operation.op !== 'string') {
			throw badRequest('every JSON patch operation needs an "op"');
		}
		const op = operation.op;
		const path = operation.path;
		if (typeof path !== 'string') throw badRequest(`operation "${op}" needs a "path"`);
		const from = typeof operation.from === 'string' ? operation.from : undefined;
		switch (op) {
			case 'add':
			case 'replace': {
				const value = entryOf(operation, 'value');
				if (value === undefined) throw badRequest(`operation "${op}" needs a "value"`);
				const added = addAt(root, path, clone(value), op === 'replace');
				root = added.root;
				bytes += bytesOf(value) + added.entryBytes - bytesOf(added.replaced);
				break;
			}
			case 'remove': {
				const removed = removeAt(root, path);
				bytes -= bytesOf(removed.value) + removed.entryBytes;
				break;
			}
			case 'move': {
				if (from === undefined) throw badRequest(`operation "${op}" needs a "from"`);
				const removed = removeAt(root, from);
				const added = addAt(root, path, removed.value, false);
				root = added.root;
				bytes += added.entryBytes - removed.entryBytes - bytesOf(added.replaced);
				break;
			}
			case 'copy': {
				if (from === undefined) throw badRequest(`operation "${op}" needs a "from"`);
				const value = valueAt(root, from);
				// Measured before it is cloned, and only as far as the copy allowance still reaches.
				const measure = measureJson(value, bytesLimit - copied, depthLimit);
				copied += measure.bytes;
				if (copied > bytesLimit) {
					throw patchTooLarge(`the JSON patch copies more than ${bytesLimit} bytes`, index, op);
				}
				if (measure.depth > depthLimit) {
					throw patchFailed(
						`the copy at operation ${index} nests deeper than ${depthLimit} levels`,
					);
				}
				const added = addAt(root, path, clone(value), false);
				root = added.root;
				bytes += measure.bytes + added.entryBytes - bytesOf(added.replaced);
				break;
			}
			case 'test':
				if (!jsonEqual(valueAt(root, path), entryOf(operation, 'value'))) {
					throw patchFailed(`testing value ${path} failed`);
				}
				break;
			default:
				throw badRequest(`unknown JSON patch operation "${op}"`);
		}
		if (bytes > bytesLimit) {
			throw patchTooLarge(
				`the JSON patch makes the object larger than ${bytesLimit} bytes`,
				index,
				op,
			);
		}
	}
	// Moves measure nothing, so they can stack deep subtrees on one another; the result is checked once.
	if (measureJson(root, Infinity, depthLimit).depth > depthLimit) {
		throw patchFailed(`the JSON patch nests the object deeper than ${depthLimit} levels`);
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
		return items.some((item) => isJsonObject(item) && Object.hasOwn(item, 'containerPort'))
			? 'containerPort'
			: 'port';
	}
	return Object.hasOwn(mergeKeysByField, field) ? mergeKeysByField[field] : undefined;
}

function withoutDirectives(value: Json): Json {
	if (Array.isArray(value)) {
		return value
			.filter(
				(item) =>
					!(isJsonObject(item) && Object.keys(item).length === 1 && Object.hasOwn(item, '$patch')),
			)
			.map(withoutDirectives);
	}
	if (isJsonObject(value)) {
		const result: JsonObject = {};
		for (const [key, item] of Object.entries(value)) {
			if (key.startsWith('$')) continue;
			setEntry(result, key, withoutDirectives(item));
		}
		return result;
	}
	return value;
}

// The lists below are matched through maps of identity keys, not by searching one list for each item of the
// other: a patch and an object near the size limits hold hundreds of thousands of items.

function orderedBy(items: Json[], order: readonly Json[], key: string | undefined): Json[] {
	const ranks = new Map<string, number>();
	const identityOf = (item: Json): string =>
		identityKey(key === undefined ? item : isJsonObject(item) ? entryOf(item, key) : undefined);
	for (const [index, entry] of order.entries()) {
		if (key !== undefined && !isJsonObject(entry)) continue;
		const identity = identityOf(entry);
		if (!ranks.has(identity)) ranks.set(identity, index);
	}
	const rank = (item: Json): number => {
		if (key !== undefined && !isJsonObject(item)) return order.length;
		return ranks.get(identityOf(item)) ?? order.length;
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
		const present = new Set(live.map(identityKey));
		for (const item of patch) {
			const identity = identityKey(item);
			if (present.has(identity)) continue;
			present.add(identity);
			result.push(clone(item));
		}
		return result;
	}
	const key = mergeKeyOf(field, [...patch, ...live]);
	if (key === undefined || !patch.every(isJsonObject)) return withoutDirectives(patch) as Json[];
	const result: (Json | undefined)[] = live.map(clone);
	// The positions of the items by merge key value, first first: a patch item merges into the first one.
	const positions = new Map<string, number[]>();
	const track = (identity: string, index: number): void => {
		const list = positions.get(identity);
		if (list === undefined) positions.set(identity, [index]);
		else list.push(index);
	};
	for (const [index, existing] of live.entries()) {
		if (isJsonObject(existing)) track(identityKey(entryOf(existing, key)), index);
	}
	for (const item of patch) {
		if (!isJsonObject(item)) continue;
		const identity = identityKey(entryOf(item, key));
		const index = positions.get(identity)?.[0];
		if (item.$patch === 'delete') {
			if (index !== undefined) {
				result[index] = undefined;
				positions.get(identity)?.shift();
			}
		} else if (index !== undefined) {
			result[index] = mergeStrategic(result[index], item) ?? {};
		} else {
			track(identity, result.length);
			result.push(mergeStrategic(undefined, item) ?? {});
		}
	}
	return result.filter((item) => item !== undefined);
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
			const merged = mergeStrategic(entryOf(result, key), value);
			if (merged === undefined) delete result[key];
			else setEntry(result, key, merged);
		} else if (Array.isArray(value)) {
			setEntry(result, key, mergeList(key, entryOf(result, key), value));
		} else {
			setEntry(result, key, value);
		}
	}
	for (const [field, values] of deletions) {
		const list = entryOf(result, field);
		if (Array.isArray(list)) {
			const deleted = new Set(values.map(identityKey));
			setEntry(
				result,
				field,
				list.filter((item) => !deleted.has(identityKey(item))),
			);
		}
	}
	for (const [field, order] of orders) {
		const list = entryOf(result, field);
		if (Array.isArray(list)) {
			setEntry(result, field, orderedBy(list, order, mergeKeyOf(field, list)));
		}
	}
	const retain = entryOf(patch, '$retainKeys');
	if (Array.isArray(retain)) {
		const retained = new Set(retain);
		for (const key of Object.keys(result)) {
			if (!retained.has(key)) delete result[key];
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
	if (
		key !== undefined &&
		items.every((item) => isJsonObject(item) && entryOf(item, key) !== undefined)
	) {
		return { kind: 'map', key };
	}
	return { kind: 'atomic' };
}
