// The cache of cluster objects: what the engine and the tree need and nothing more. Objects are grouped by source
// (a watched resource, or a dump file), keyed as the graph keys them, and trimmed on the way in: no managedFields,
// no last-applied annotation, and never the data of a Secret.
import { objectKeyOf } from '../core/tree/linking.ts';
import { isRecord } from '../core/model/object.ts';

/** A cached object: a trimmed, frozen-by-convention copy of what the server sent. */
export type StoredObject = Readonly<Record<string, unknown>>;

/** Everything the store holds, sorted, for comparing with the server's truth in tests. */
export type StoreSnapshot = Readonly<Record<string, StoredObject>>;

const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/** True for a core-group Secret, whose data the extension never keeps. */
function isSecret(object: unknown): boolean {
	return isRecord(object) && object.kind === 'Secret' && object.apiVersion === 'v1';
}

/**
 * The object as the cache keeps it: without metadata.managedFields and the last-applied annotation, and for a
 * Secret without data and stringData. Returns undefined for what is not an object with metadata.name. Copies only
 * what it changes; the input is not modified.
 */
export function trimObject(object: unknown): StoredObject | undefined {
	if (!isRecord(object)) return undefined;
	const metadata = object.metadata;
	if (!isRecord(metadata) || typeof metadata.name !== 'string') return undefined;
	let trimmedMetadata = metadata;
	if (metadata.managedFields !== undefined) {
		const { managedFields: _managedFields, ...rest } = metadata;
		trimmedMetadata = rest;
	}
	const annotations = trimmedMetadata.annotations;
	if (isRecord(annotations) && lastAppliedAnnotation in annotations) {
		const { [lastAppliedAnnotation]: _lastApplied, ...restAnnotations } = annotations;
		trimmedMetadata = { ...trimmedMetadata, annotations: restAnnotations };
	}
	let result: Record<string, unknown> = object;
	if (trimmedMetadata !== metadata) result = { ...object, metadata: trimmedMetadata };
	if (isSecret(result) && ('data' in result || 'stringData' in result)) {
		const { data: _data, stringData: _stringData, ...rest } = result;
		result = rest;
	}
	return result;
}

/**
 * Trims, in place, an object this process has just parsed and nothing else holds (a list item, a watch event's
 * object, a dump file's object), as trimObject would trim a copy: no copy per object on the way into the cache, and
 * what is noted beside the object (exact int64 generations, keyed by the metadata object) stays with it.
 * kube-apiserver writes managedFields last in metadata, so deleting it leaves V8's fast layout of the object as it was.
 */
export function trimInPlace(object: Record<string, unknown>): void {
	const metadata = object.metadata;
	if (!isRecord(metadata)) return;
	if (metadata.managedFields !== undefined) delete metadata.managedFields;
	const annotations = metadata.annotations;
	if (isRecord(annotations) && lastAppliedAnnotation in annotations) {
		Reflect.deleteProperty(annotations, lastAppliedAnnotation);
	}
	if (isSecret(object)) {
		delete object.data;
		delete object.stringData;
	}
}

/** The namespace of an object ("" for cluster-scoped ones). */
function namespaceOf(object: StoredObject): string {
	const metadata = object.metadata;
	return isRecord(metadata) && typeof metadata.namespace === 'string' ? metadata.namespace : '';
}

/** A list of a source being taken page by page (`ObjectStore.replacing`). */
export interface Replacement {
	/** Trims, keys and keeps the objects of one page. */
	add(objects: Iterable<unknown>): void;
	/** Puts every page added in place of what the source (or its namespace) holds now. */
	commit(): void;
}

/**
 * Objects by source and key. A key is the graph's (group|kind|namespace|name). The same key may sit in two sources
 * (two dump files); `snapshot()` then shows the one stored last.
 */
export class ObjectStore {
	readonly #sources = new Map<string, Map<string, StoredObject>>();

	/** Stores or replaces an object; returns the stored (trimmed) object and its key, or undefined if unusable. */
	upsert(source: string, object: unknown): { key: string; object: StoredObject } | undefined {
		const trimmed = trimObject(object);
		if (!trimmed) return undefined;
		const key = objectKeyOf(trimmed);
		let objects = this.#sources.get(source);
		if (!objects) {
			objects = new Map();
			this.#sources.set(source, objects);
		}
		objects.set(key, trimmed);
		return { key, object: trimmed };
	}

	/** Forgets an object; returns whether it was there. */
	remove(source: string, key: string): boolean {
		const objects = this.#sources.get(source);
		if (!objects) return false;
		const removed = objects.delete(key);
		if (objects.size === 0) this.#sources.delete(source);
		return removed;
	}

	/**
	 * Replaces what a source holds with a fresh list. With `namespace`, only objects of that namespace are replaced
	 * (a list made per namespace); the others stay.
	 */
	replace(source: string, objects: Iterable<unknown>, namespace?: string): void {
		const replacement = this.replacing(source, namespace);
		replacement.add(objects);
		replacement.commit();
	}

	/**
	 * A fresh list of a source taken page by page, as `replace` takes it whole: each page is trimmed and keyed as it
	 * arrives (while the server prepares the next one), and `commit` puts the list in place of what the source held
	 * then. Lists of other namespaces of the same source may commit meanwhile; each keeps the others' objects.
	 */
	replacing(source: string, namespace?: string): Replacement {
		const listed = new Map<string, StoredObject>();
		return {
			add(objects) {
				for (const object of objects) {
					const trimmed = trimObject(object);
					if (trimmed) listed.set(objectKeyOf(trimmed), trimmed);
				}
			},
			commit: () => {
				const previous = this.#sources.get(source);
				let next = listed;
				if (previous && namespace !== undefined) {
					next = new Map();
					for (const [key, object] of previous) {
						if (namespaceOf(object) !== namespace) next.set(key, object);
					}
					for (const [key, object] of listed) next.set(key, object);
				}
				if (next.size > 0) this.#sources.set(source, next);
				else this.#sources.delete(source);
			},
		};
	}

	/** Forgets a source, or everything. */
	clear(source?: string): void {
		if (source === undefined) this.#sources.clear();
		else this.#sources.delete(source);
	}

	/** The object stored under a key, in a given source or in any. */
	get(key: string, source?: string): StoredObject | undefined {
		if (source !== undefined) return this.#sources.get(source)?.get(key);
		for (const objects of this.#sources.values()) {
			const found = objects.get(key);
			if (found) return found;
		}
		return undefined;
	}

	/** The objects of one source, in insertion order. */
	objectsOf(source: string): StoredObject[] {
		return [...(this.#sources.get(source)?.values() ?? [])];
	}

	/** How many objects one source holds. */
	countOf(source: string): number {
		return this.#sources.get(source)?.size ?? 0;
	}

	/** Forgets the objects of a source that fail a test (e.g. outside the namespaces now listed). */
	retain(source: string, keep: (object: StoredObject) => boolean): void {
		const objects = this.#sources.get(source);
		if (!objects) return;
		for (const [key, object] of objects) if (!keep(object)) objects.delete(key);
		if (objects.size === 0) this.#sources.delete(source);
	}

	/** The keys of one source. */
	keysOf(source: string): string[] {
		return [...(this.#sources.get(source)?.keys() ?? [])];
	}

	/** The sources that hold anything. */
	sources(): string[] {
		return [...this.#sources.keys()];
	}

	/** How many objects are stored in all. */
	get size(): number {
		let total = 0;
		for (const objects of this.#sources.values()) total += objects.size;
		return total;
	}

	/** Every stored object by key, keys sorted: for comparing with the server in tests. */
	snapshot(): StoreSnapshot {
		const all = new Map<string, StoredObject>();
		for (const objects of this.#sources.values()) {
			for (const [key, object] of objects) all.set(key, object);
		}
		const result: Record<string, StoredObject> = {};
		for (const key of [...all.keys()].sort()) {
			const object = all.get(key);
			if (object) result[key] = object;
		}
		return result;
	}
}
