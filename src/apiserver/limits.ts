// Bounds on what one request can make the server read, build and keep, as kube-apiserver and etcd bound them: a
// request body of at most 3 MiB (kube-apiserver's MaxRequestBodyBytes), a stored object of at most 1.5 MiB (etcd's
// default --max-request-bytes), at most 10,000 operations in a JSON patch (kube-apiserver's limit since
// CVE-2019-1002100), and a nesting depth below what the server's recursive walks can take. Go's JSON decoder
// allows 10,000 levels; the walks here (merges, field ownership, serialization) run on the JavaScript stack, so
// the limit is lower, and still far above any real object's.

import { ApiError, badRequest } from './errors.ts';

export const maxRequestBodyBytes = 3 * 1024 * 1024;
export const maxObjectBytes = 1.5 * 1024 * 1024;
export const maxJsonDepth = 1000;
export const maxJsonPatchOperations = 10_000;

/** How big a JSON value is: about its serialized length in bytes, and its nesting depth (a scalar is 0). */
export interface JsonMeasure {
	readonly bytes: number;
	readonly depth: number;
}

function scalarBytes(value: unknown): number {
	switch (typeof value) {
		case 'string':
			return Buffer.byteLength(value) + 2;
		case 'number':
			return String(value).length;
		case 'boolean':
			return value ? 4 : 5;
		default:
			return 4;
	}
}

/**
 * The size and depth of a JSON value, walked without recursion. The walk stops as soon as either passes its bound
 * (so it costs at most about `bytesBound` steps, and a cyclic structure from YAML aliases ends too); the result
 * then only says that the bound was passed. An entry of an object counts its key, quotes, colon and comma.
 */
export function measureJson(
	value: unknown,
	bytesBound = Infinity,
	depthBound = maxJsonDepth,
): JsonMeasure {
	if (typeof value !== 'object' || value === null) return { bytes: scalarBytes(value), depth: 0 };
	let bytes = 0;
	let depth = 0;
	// Containers still to walk, and their depths; scalars are counted where they are met.
	const containers: object[] = [value];
	const depths: number[] = [1];
	while (containers.length > 0) {
		const current = containers.pop() as Record<string, unknown> | unknown[];
		const level = depths.pop() ?? 1;
		if (level > depth) depth = level;
		bytes += 2;
		const visit = (child: unknown): void => {
			if (typeof child === 'object' && child !== null) {
				containers.push(child);
				depths.push(level + 1);
			} else {
				bytes += scalarBytes(child);
			}
		};
		if (Array.isArray(current)) {
			bytes += current.length;
			for (const child of current) visit(child);
		} else {
			for (const key of Object.keys(current)) {
				bytes += scalarBytes(key) + 2;
				visit(current[key]);
			}
		}
		if (bytes > bytesBound || depth > depthBound) break;
	}
	return { bytes, depth };
}

/** The 400 of a body nested deeper than the server walks. */
function tooDeep(): ApiError {
	return badRequest(
		`couldn't get version/kind; json parse error: exceeded max depth of ${maxJsonDepth} nested objects and lists`,
	);
}

/** The 413 of a request body over the limit, as kube-apiserver words it. */
export function bodyTooLarge(): ApiError {
	return new ApiError(
		413,
		'RequestEntityTooLarge',
		`Request entity too large: limit is ${maxRequestBodyBytes}`,
	);
}

/** A decoded body, or a 400 when it nests too deep (or is cyclic) and a 413 when it expands past the body limit. */
export function boundedBody<T>(value: T): T {
	const measure = measureJson(value, maxRequestBodyBytes);
	if (measure.depth > maxJsonDepth) throw tooDeep();
	if (measure.bytes > maxRequestBodyBytes) throw bodyTooLarge();
	return value;
}
