// The demo's times, relative to its start: the example objects carry fixed RFC 3339 times (2025), so a state
// seconds old read "GitUpdating for 376 days". Every time in them moves by one offset, which puts the newest at a few
// minutes before the demo started; the objects keep their order and the gaps between them (a HarborCluster healthy
// for ten days still is).
import { isJsonObject, type Json, type JsonObject } from './patch.ts';

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** How long before the start the newest example time lands: a state the demo starts in has just begun. */
const newestAge = 3 * 60_000;

function eachTime(value: Json, visit: (time: string) => void): void {
	if (typeof value === 'string') {
		if (rfc3339.test(value)) visit(value);
	} else if (Array.isArray(value)) {
		for (const item of value) eachTime(item, visit);
	} else if (isJsonObject(value)) {
		for (const item of Object.values(value)) eachTime(item, visit);
	}
}

function shifted(value: Json, offsetMs: number): Json {
	if (typeof value === 'string') {
		if (!rfc3339.test(value)) return value;
		const moved = new Date(Date.parse(value) + offsetMs).toISOString();
		// As the examples write it: whole seconds unless the time had a fraction.
		return value.includes('.') ? moved : moved.replace(/\.\d{3}Z$/, 'Z');
	}
	if (Array.isArray(value)) return value.map((item) => shifted(item, offsetMs));
	if (isJsonObject(value)) {
		const out: JsonObject = {};
		for (const [key, item] of Object.entries(value)) out[key] = shifted(item, offsetMs);
		return out;
	}
	return value;
}

/**
 * The objects with every RFC 3339 time moved so that the newest of all of them (every cluster's, so the clusters
 * agree with each other) is a few minutes before `start`.
 */
export function withTimesRelativeTo<T extends JsonObject>(
	objectsByCluster: ReadonlyMap<string, readonly T[]>,
	start: Date,
): Map<string, T[]> {
	let newest = Number.NEGATIVE_INFINITY;
	for (const objects of objectsByCluster.values()) {
		for (const object of objects) {
			eachTime(object, (time) => {
				newest = Math.max(newest, Date.parse(time));
			});
		}
	}
	const offsetMs = Number.isFinite(newest) ? start.getTime() - newestAge - newest : 0;
	const out = new Map<string, T[]>();
	for (const [cluster, objects] of objectsByCluster) {
		out.set(
			cluster,
			objects.map((object) => shifted(object, offsetMs) as T),
		);
	}
	return out;
}
