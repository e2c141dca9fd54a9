// Reading fields of the demo store's JSON objects for the stand-in controllers: a missing step or a wrong type reads
// as absent (an empty string, an empty list), as Go's zero values.
import { isJsonObject, type Json } from './patch.ts';

/** The value at a path of keys, or undefined when a step is missing or not an object. */
export function field(value: unknown, ...path: string[]): unknown {
	let current = value;
	for (const key of path) current = isJsonObject(current) ? current[key] : undefined;
	return current;
}

/** The string at a path, or '' when absent or not a string. */
export function str(value: unknown, ...path: string[]): string {
	const found = field(value, ...path);
	return typeof found === 'string' ? found : '';
}

/** The array at a path, or [] when absent or not an array. */
export function list(value: unknown, ...path: string[]): Json[] {
	const found = field(value, ...path);
	return Array.isArray(found) ? (found as Json[]) : [];
}
