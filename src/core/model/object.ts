/** A Kubernetes object as read from a file or a cluster: untrusted, any field may be missing or of any type. */
export type K8sObject = Readonly<Record<string, unknown>>;

/** What identifies an object to a user: group/version, kind, namespace and name. */
export interface ObjectRef {
	readonly apiVersion: string;
	readonly kind: string;
	readonly namespace: string;
	readonly name: string;
}

/** A plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a path of keys, or undefined when any step is missing or not an object. */
export function getPath(value: unknown, ...path: readonly string[]): unknown {
	let current = value;
	for (const key of path) {
		if (!isRecord(current)) return undefined;
		current = current[key];
	}
	return current;
}

/** The record at a path, or undefined. */
export function getRecord(
	value: unknown,
	...path: readonly string[]
): Record<string, unknown> | undefined {
	const found = getPath(value, ...path);
	return isRecord(found) ? found : undefined;
}

/** The string at a path, or undefined when absent or not a string. */
export function getString(value: unknown, ...path: readonly string[]): string | undefined {
	const found = getPath(value, ...path);
	return typeof found === 'string' ? found : undefined;
}

/** The integer at a path, or undefined when absent or not an integer (Go's typed int fields reject floats). */
export function getInt(value: unknown, ...path: readonly string[]): number | undefined {
	const found = getPath(value, ...path);
	return typeof found === 'number' && Number.isInteger(found) ? found : undefined;
}

/** The boolean at a path, or undefined when absent or not a boolean. */
export function getBool(value: unknown, ...path: readonly string[]): boolean | undefined {
	const found = getPath(value, ...path);
	return typeof found === 'boolean' ? found : undefined;
}

/** The array at a path, or undefined when absent or not an array. */
export function getArray(
	value: unknown,
	...path: readonly string[]
): readonly unknown[] | undefined {
	const found = getPath(value, ...path);
	return Array.isArray(found) ? found : undefined;
}

/** The API group of an apiVersion: "" for the core group ("v1"). */
export function groupOf(apiVersion: string): string {
	const slash = apiVersion.indexOf('/');
	return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The version part of an apiVersion. */
export function versionOf(apiVersion: string): string {
	const slash = apiVersion.indexOf('/');
	return slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
}

/** The reference of an object, with empty strings for what is missing or mistyped. */
export function refOf(object: unknown): ObjectRef {
	return {
		apiVersion: getString(object, 'apiVersion') ?? '',
		kind: getString(object, 'kind') ?? '',
		namespace: getString(object, 'metadata', 'namespace') ?? '',
		name: getString(object, 'metadata', 'name') ?? '',
	};
}

/** The labels of an object, keeping only string values. */
export function labelsOf(object: unknown): Readonly<Record<string, string>> {
	const labels = getRecord(object, 'metadata', 'labels');
	const result: Record<string, string> = {};
	if (!labels) return result;
	for (const [key, value] of Object.entries(labels)) {
		if (typeof value === 'string') result[key] = value;
	}
	return result;
}
