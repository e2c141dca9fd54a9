// The server's storage: every object by resource type and `namespace/name`, one global resourceVersion counter
// (etcd's revision), and a bounded history of change events that watches replay from. The semantics that clients
// depend on live here, so that HTTP requests and in-process calls from tests and scenarios behave the same:
// server-owned metadata, generation bumps on spec changes only, optimistic concurrency, the status subresource,
// finalizers, namespace termination, no-op writes that change nothing, field ownership (managedFields.ts), and list
// pages that all show one revision.

import { randomUUID } from 'node:crypto';
import {
	alreadyExists,
	ApiError,
	badRequest,
	conflict,
	expired,
	invalid,
	notFound,
	qualifiedResource,
	staleObjectMessage,
} from './errors.ts';
import { maxObjectBytes } from './limits.ts';
import {
	appliedEntries,
	appliedEntryOf,
	applyConflictError,
	decodeManagedFields,
	differenceOf,
	encodeManagedFields,
	fieldsOf,
	fieldsOwnedByOthers,
	startingEntries,
	updatedEntries,
	withoutDisowned,
	type FieldScope,
	type FieldSet,
	type FieldWriter,
} from './managedFields.ts';
import {
	applyJsonPatch,
	applyMergePatch,
	applyStrategicMergePatch,
	isJsonObject,
	jsonEqual,
	mergeStrategic,
	type Json,
	type JsonObject,
	cloneJson,
} from './patch.ts';
import { apiVersionOf, resourceKeyOf, resourceTypes, type ResourceType } from './resources.ts';
import {
	fieldsMatch,
	labelsMatch,
	type FieldRequirement,
	type LabelRequirement,
} from './selectors.ts';

/** A Kubernetes object as stored and served: plain JSON. */
export type KubeObject = JsonObject;

/** A stored object and its serialization, computed once and shared by every list and watch that sends it. */
export interface StoredEntry {
	readonly object: KubeObject;
	readonly key: string;
	json: string | undefined;
	/** `json` as UTF-8, for lists; computed when first listed. */
	bytes?: Buffer;
}

/** One change, as watches send it. */
export interface StoreEvent {
	readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
	readonly resourceVersion: number;
	readonly resource: ResourceType;
	readonly entry: StoredEntry;
	/** The object before the change, for watches whose selector it stops or starts matching. */
	readonly previous: KubeObject | undefined;
}

/** The patch bodies PATCH accepts, by Content-Type. */
export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

/** Options shared by writes. */
export interface WriteOptions {
	/** `?dryRun=All`: answer as if written, keep nothing. */
	readonly dryRun?: boolean;
	/** Require the namespace to exist, as kube-apiserver does (in-process loading creates it instead). */
	readonly requireNamespace?: boolean;
	/**
	 * Who writes, for metadata.managedFields (HTTP requests always name one, from `?fieldManager` or the
	 * User-Agent). In-process writes without one leave field ownership as it was.
	 */
	readonly fieldManager?: string;
}

/** What a write does to field ownership besides Update's: an apply owns exactly its configuration's fields. */
interface OwnershipOptions extends WriteOptions {
	readonly subresource?: 'status';
	readonly applied?: FieldSet;
	readonly force?: boolean;
}

/** A page of a list. */
export interface ListPage {
	readonly entries: readonly StoredEntry[];
	readonly resourceVersion: number;
	readonly continueToken: string | undefined;
	readonly remainingItemCount: number | undefined;
}

/** What a list selects. */
export interface ListQuery {
	readonly namespace?: string;
	readonly labelSelector?: readonly LabelRequirement[];
	readonly fieldSelector?: readonly FieldRequirement[];
	readonly limit?: number;
	readonly continueToken?: string;
}

/** Options of an ObjectStore. */
export interface StoreOptions {
	/** The kinds the store can hold; defaults to the whole resource table. */
	readonly types?: readonly ResourceType[];
	/** How many change events are kept for watches to resume from (default 10,000). */
	readonly historyLimit?: number;
	/** The clock, for creationTimestamp and deletionTimestamp. */
	readonly now?: () => Date;
	/** Namespaces that exist from the start (default: default, kube-system, kube-public, kube-node-lease). */
	readonly namespaces?: readonly string[];
}

const builtInGroups = new Set(['', 'apps', 'batch', 'policy']);

/** Whether a resource type is built into Kubernetes (as opposed to defined by a CRD). */
function isBuiltIn(type: ResourceType): boolean {
	return builtInGroups.has(type.group);
}

/** The metadata of an object, always an object. */
export function metadataOf(object: KubeObject): JsonObject {
	const metadata = object.metadata;
	return isJsonObject(metadata) ? metadata : {};
}

function stringField(object: JsonObject, key: string): string | undefined {
	const value = object[key];
	return typeof value === 'string' ? value : undefined;
}

function stringList(value: Json | undefined): string[] {
	return Array.isArray(value)
		? value.filter((item): item is string => typeof item === 'string')
		: [];
}

/** RFC 3339 with seconds, as Kubernetes writes timestamps. */
function timestamp(date: Date): string {
	return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const nameSuffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

function randomSuffix(): string {
	let suffix = '';
	for (let i = 0; i < 5; i++) {
		suffix += nameSuffixAlphabet[Math.floor(Math.random() * nameSuffixAlphabet.length)];
	}
	return suffix;
}

const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * Whether kube-apiserver keeps `metadata.generation` for a type: custom resources and the apps, batch and policy
 * kinds do; core v1 kinds (ConfigMap, Service, Namespace...) have none.
 */
function tracksGeneration(type: ResourceType): boolean {
	return type.group !== '';
}

/** The part of an object that counts as spec for the generation: everything but metadata (and status). */
function specOf(type: ResourceType, object: KubeObject): JsonObject {
	const { metadata: _metadata, status, ...rest } = object;
	return type.statusSubresource ? rest : { ...rest, ...(status === undefined ? {} : { status }) };
}

/**
 * The serialization of an object as it will be stored (kept for lists and watches), or 413 for one larger than
 * etcd stores (1.5 MiB by default), which kube-apiserver reports with etcd's "request is too large". The object
 * is at most a body and a stored object merged, so serializing it is safe and cheaper than any walk of ours.
 */
function storableJson(type: ResourceType, name: string, object: KubeObject): string {
	const json = JSON.stringify(object);
	if (json.length <= maxObjectBytes / 3 || Buffer.byteLength(json) <= maxObjectBytes) return json;
	throw new ApiError(
		413,
		'RequestEntityTooLarge',
		`Request entity too large: ${qualifiedResource(type)} "${name}" would be larger than the limit of ${maxObjectBytes} bytes (etcdserver: request is too large)`,
		{ name, group: type.group, kind: type.plural },
	);
}

interface Bucket {
	readonly entries: Map<string, StoredEntry>;
	sortedKeys: string[] | undefined;
}

/** A list's objects at a past revision where they differ from today's, for the pages after its first. */
interface PastEntries {
	/** By key, the entry at the revision of every key changed since; null where the key did not exist yet. */
	readonly then: Map<string, StoredEntry | null>;
	/** The keys of `then` that exist no more, sorted; undefined until needed. */
	gone: string[] | undefined;
	/** The keys of `then` that did not exist yet and do now, sorted; undefined until needed. */
	created: string[] | undefined;
	/** The newest revision `then` accounts for. */
	upTo: number;
	readonly createdMs: number;
}

// Kept views of past revisions: enough for a few clients paging at once, and not past etcd's default compaction
// interval. Dropping one costs a rebuild from the history, not an error.
const listViewLimit = 16;
const listViewTtlMs = 5 * 60_000;

const continueExpiredMessage =
	'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

interface ContinueToken {
	readonly rv: number;
	readonly start: string;
}

function encodeContinue(token: ContinueToken): string {
	return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', ...token })).toString('base64url');
}

function decodeContinue(text: string): ContinueToken {
	try {
		const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
		if (isJsonObject(value) && typeof value.rv === 'number' && typeof value.start === 'string') {
			return { rv: value.rv, start: value.start };
		}
	} catch {
		// Falls through to the BadRequest below.
	}
	throw badRequest('continue key is not valid: incorrect encoded start resourceVersion');
}

function lowerBound(keys: readonly string[], key: string): number {
	let low = 0;
	let high = keys.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if ((keys[middle] ?? '') < key) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** All objects of the server, with their history. */
export class ObjectStore {
	readonly types: readonly ResourceType[];
	private readonly buckets = new Map<ResourceType, Bucket>();
	private readonly byKind = new Map<string, ResourceType>();
	private readonly byPlural = new Map<string, ResourceType>();
	private readonly listeners = new Set<(event: StoreEvent) => void>();
	private readonly listViews = new Map<string, PastEntries>();
	private readonly historyLimit: number;
	/** The store's clock: creation timestamps, and the ages a Table shows. */
	readonly now: () => Date;
	private history: StoreEvent[] = [];
	private revision = 0;
	private compacted = 0;

	constructor(options: StoreOptions = {}) {
		this.types = options.types ?? resourceTypes;
		this.historyLimit = Math.max(1, options.historyLimit ?? 10_000);
		this.now = options.now ?? (() => new Date());
		for (const type of this.types) {
			this.buckets.set(type, { entries: new Map(), sortedKeys: undefined });
			this.byKind.set(`${apiVersionOf(type)}/${type.kind}`, type);
			this.byPlural.set(`${type.group}/${type.version}/${type.plural}`, type);
		}
		for (const name of options.namespaces ?? [
			'default',
			'kube-system',
			'kube-public',
			'kube-node-lease',
		]) {
			this.ensureNamespace(name);
		}
	}

	/** The newest resourceVersion (etcd revision). */
	get resourceVersion(): number {
		return this.revision;
	}

	/** The oldest resourceVersion a watch can still resume from. */
	get oldestResumableVersion(): number {
		return this.compacted;
	}

	/** The resource type of an apiVersion and kind, if the store holds that kind. */
	typeOf(apiVersion: string, kind: string): ResourceType | undefined {
		return this.byKind.get(`${apiVersion}/${kind}`);
	}

	/** The resource type of a group, version and plural, if the store holds it. */
	typeOfResource(group: string, version: string, plural: string): ResourceType | undefined {
		return this.byPlural.get(`${group}/${version}/${plural}`);
	}

	/** Calls `listener` for every change from now on; returns the unsubscribe function. */
	subscribe(listener: (event: StoreEvent) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** The events after `resourceVersion`, or 'expired' when some of them are no longer kept. */
	eventsSince(resourceVersion: number): readonly StoreEvent[] | 'expired' {
		if (resourceVersion < this.compacted) return 'expired';
		const history = this.history;
		let low = 0;
		let high = history.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if ((history[middle]?.resourceVersion ?? 0) <= resourceVersion) low = middle + 1;
			else high = middle;
		}
		return history.slice(low);
	}

	/** Forgets every kept event, so that a watch from any older resourceVersion gets 410 Gone. */
	expireHistory(): void {
		this.history = [];
		this.compacted = this.revision;
		this.listViews.clear();
	}

	private bucketOf(type: ResourceType): Bucket {
		const bucket = this.buckets.get(type);
		if (bucket === undefined) throw new Error(`the store does not hold ${resourceKeyOf(type)}`);
		return bucket;
	}

	private keyOf(type: ResourceType, namespace: string | undefined, name: string): string {
		return `${type.namespaced ? (namespace ?? '') : ''}/${name}`;
	}

	/** One object, or undefined. */
	get(type: ResourceType, namespace: string | undefined, name: string): KubeObject | undefined {
		return this.bucketOf(type).entries.get(this.keyOf(type, namespace, name))?.object;
	}

	/** One object, or a 404 ApiError. */
	getOrThrow(type: ResourceType, namespace: string | undefined, name: string): StoredEntry {
		const entry = this.bucketOf(type).entries.get(this.keyOf(type, namespace, name));
		if (entry === undefined) throw notFound(type, name);
		return entry;
	}

	/** How many objects of a type there are (in a namespace, when given). */
	count(type: ResourceType, namespace?: string): number {
		if (namespace === undefined || !type.namespaced) return this.bucketOf(type).entries.size;
		return this.list(type, { namespace }).entries.length;
	}

	/** Every object of a type, in key order (for tests and scenarios). */
	all(type: ResourceType, namespace?: string): KubeObject[] {
		return this.list(type, namespace === undefined ? {} : { namespace }).entries.map(
			(entry) => entry.object,
		);
	}

	private sortedKeysOf(bucket: Bucket): string[] {
		bucket.sortedKeys ??= [...bucket.entries.keys()].sort();
		return bucket.sortedKeys;
	}

	/**
	 * A page of objects of a type, in `namespace/name` order, as etcd lists keys. Pages after the first show the
	 * objects as they were at the first page's resourceVersion, as etcd's MVCC reads do: the store rebuilds that
	 * view from its change history, so a continue token lives as long as the history reaches back to it.
	 */
	list(type: ResourceType, query: ListQuery): ListPage {
		const bucket = this.bucketOf(type);
		const keys = this.sortedKeysOf(bucket);
		let listVersion = this.revision;
		const prefix = type.namespaced && query.namespace !== undefined ? `${query.namespace}/` : '';
		let from = prefix;
		let past: PastEntries | undefined;
		if (query.continueToken !== undefined && query.continueToken !== '') {
			const token = decodeContinue(query.continueToken);
			past = this.pastEntries(type, bucket, token.rv);
			listVersion = token.rv;
			if (token.start > from) from = token.start;
		}
		const then = past?.then;
		const gone = past?.gone ?? [];
		// Two sorted, disjoint key lists walked as one: today's keys, and the keys deleted since the list's revision.
		let index = lowerBound(keys, from);
		let goneIndex = lowerBound(gone, from);
		const nextKey = (): string | undefined => {
			const key = keys[index];
			const deleted = gone[goneIndex];
			if (deleted === undefined || (key !== undefined && key < deleted)) {
				index++;
				return key;
			}
			goneIndex++;
			return deleted;
		};
		const entryAt = (key: string): StoredEntry | undefined => {
			const earlier = then?.get(key);
			return earlier === undefined ? bucket.entries.get(key) : (earlier ?? undefined);
		};
		const filtered =
			(query.labelSelector?.length ?? 0) > 0 || (query.fieldSelector?.length ?? 0) > 0;
		const limit = query.limit !== undefined && query.limit > 0 ? query.limit : Infinity;
		const entries: StoredEntry[] = [];
		let key = nextKey();
		for (; key?.startsWith(prefix) === true && entries.length < limit; key = nextKey()) {
			const entry = entryAt(key);
			if (entry === undefined) continue;
			if (filtered && !this.matches(entry.object, query)) continue;
			entries.push(entry);
		}
		const rest = key;
		let more = false;
		for (; key?.startsWith(prefix) === true; key = nextKey()) {
			const entry = entryAt(key);
			if (entry !== undefined && (!filtered || this.matches(entry.object, query))) {
				more = true;
				break;
			}
		}
		const last = entries[entries.length - 1];
		const continueToken =
			more && last !== undefined
				? encodeContinue({ rv: listVersion, start: `${last.key}\u0000` })
				: undefined;
		let remainingItemCount: number | undefined;
		if (continueToken !== undefined && !filtered && rest !== undefined) {
			// '0' follows '/': the first key past the namespace's.
			const end = prefix === '' ? undefined : `${prefix.slice(0, -1)}0`;
			const below = (sorted: readonly string[]): number =>
				(end === undefined ? sorted.length : lowerBound(sorted, end)) - lowerBound(sorted, rest);
			remainingItemCount = below(keys) + below(gone) - below(past?.created ?? []);
		}
		return { entries, resourceVersion: listVersion, continueToken, remainingItemCount };
	}

	/**
	 * The objects of a type that changed after `revision`, as they were at it (null: not there yet), from the
	 * change history; undefined when nothing changed. 410 Expired once the history no longer reaches back that far.
	 * Views are kept for the next page (a few, for a few minutes) and brought up to date from the history.
	 */
	private pastEntries(
		type: ResourceType,
		bucket: Bucket,
		revision: number,
	): PastEntries | undefined {
		if (revision < this.compacted) throw expired(continueExpiredMessage);
		if (revision >= this.revision) return undefined;
		const cacheKey = `${resourceKeyOf(type)}@${revision}`;
		const nowMs = performance.now();
		let view = this.listViews.get(cacheKey);
		this.listViews.delete(cacheKey);
		if (view === undefined || nowMs - view.createdMs > listViewTtlMs) {
			view = {
				then: new Map(),
				gone: undefined,
				created: undefined,
				upTo: revision,
				createdMs: nowMs,
			};
		}
		if (view.upTo < this.revision) {
			const events = this.eventsSince(view.upTo);
			if (events === 'expired') throw expired(continueExpiredMessage);
			for (const event of events) {
				if (event.resource !== type || view.then.has(event.entry.key)) continue;
				// The first change after the revision tells what the key held at it.
				view.then.set(
					event.entry.key,
					event.previous === undefined
						? null
						: { object: event.previous, key: event.entry.key, json: undefined },
				);
			}
			view.upTo = this.revision;
			view.gone = undefined;
			view.created = undefined;
		}
		this.listViews.set(cacheKey, view);
		for (const oldest of this.listViews.keys()) {
			if (this.listViews.size <= listViewLimit) break;
			this.listViews.delete(oldest);
		}
		if (view.then.size === 0) return undefined;
		if (view.gone === undefined || view.created === undefined) {
			const gone: string[] = [];
			const created: string[] = [];
			for (const [key, entry] of view.then) {
				const exists = bucket.entries.has(key);
				if (entry !== null && !exists) gone.push(key);
				else if (entry === null && exists) created.push(key);
			}
			view.gone = gone.sort();
			view.created = created.sort();
		}
		return view;
	}

	/** Whether an object is selected by a query's namespace and selectors. */
	matches(object: KubeObject, query: ListQuery): boolean {
		const metadata = metadataOf(object);
		if (
			query.namespace !== undefined &&
			query.namespace !== '' &&
			stringField(metadata, 'namespace') !== query.namespace
		) {
			return false;
		}
		if (query.labelSelector !== undefined && query.labelSelector.length > 0) {
			const labels = metadata.labels;
			if (!labelsMatch(query.labelSelector, isJsonObject(labels) ? labels : undefined)) {
				return false;
			}
		}
		return query.fieldSelector === undefined || fieldsMatch(query.fieldSelector, object);
	}

	private emit(
		type: StoreEvent['type'],
		resource: ResourceType,
		entry: StoredEntry,
		previous: KubeObject | undefined,
	): void {
		const event: StoreEvent = { type, resourceVersion: this.revision, resource, entry, previous };
		this.history.push(event);
		if (this.history.length > this.historyLimit * 2) {
			const dropped = this.history.length - this.historyLimit;
			this.compacted = this.history[dropped - 1]?.resourceVersion ?? this.compacted;
			this.history = this.history.slice(dropped);
		}
		for (const listener of this.listeners) listener(event);
	}

	private store(
		type: ResourceType,
		object: KubeObject,
		previous: StoredEntry | undefined,
		json?: string,
	): StoredEntry {
		const bucket = this.bucketOf(type);
		const metadata = metadataOf(object);
		const key = this.keyOf(
			type,
			stringField(metadata, 'namespace'),
			stringField(metadata, 'name') ?? '',
		);
		const entry: StoredEntry = { object, key, json };
		if (previous === undefined) bucket.sortedKeys = undefined;
		bucket.entries.set(key, entry);
		this.emit(previous === undefined ? 'ADDED' : 'MODIFIED', type, entry, previous?.object);
		return entry;
	}

	private namespaceType(): ResourceType | undefined {
		return this.typeOf('v1', 'Namespace');
	}

	private ensureNamespace(name: string): void {
		const type = this.namespaceType();
		if (type === undefined || this.get(type, undefined, name) !== undefined) return;
		this.revision++;
		this.store(
			type,
			{
				apiVersion: 'v1',
				kind: 'Namespace',
				metadata: {
					name,
					uid: randomUUID(),
					resourceVersion: String(this.revision),
					creationTimestamp: timestamp(this.now()),
					labels: { 'kubernetes.io/metadata.name': name },
				},
				spec: { finalizers: ['kubernetes'] },
				status: { phase: 'Active' },
			},
			undefined,
		);
	}

	private checkNamespace(
		type: ResourceType,
		namespace: string | undefined,
		options: WriteOptions,
	): void {
		if (!type.namespaced) return;
		if (namespace === undefined || namespace === '') {
			throw badRequest('the server could not find the requested resource: a namespace is required');
		}
		const namespaces = this.namespaceType();
		if (namespaces === undefined) return;
		const existing = this.get(namespaces, undefined, namespace);
		if (existing === undefined) {
			if (options.requireNamespace === true) throw notFound(namespaces, namespace);
			if (options.dryRun !== true) this.ensureNamespace(namespace);
			return;
		}
		if (metadataOf(existing).deletionTimestamp !== undefined) {
			throw new ApiError(
				403,
				'Forbidden',
				`${type.plural}${type.group === '' ? '' : `.${type.group}`} is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
				{ name: namespace, group: type.group, kind: type.plural },
			);
		}
	}

	/**
	 * Creates an object. `namespace` is the request's namespace (the object's own when undefined). The status of
	 * a kind with a status subresource is dropped, as kube-apiserver drops it, unless `keepStatus` is set;
	 * `keepIdentity` keeps a given uid, creationTimestamp and generation (for loading dumps).
	 */
	create(
		type: ResourceType,
		namespace: string | undefined,
		body: KubeObject,
		options: OwnershipOptions & {
			readonly keepStatus?: boolean;
			readonly keepIdentity?: boolean;
		} = {},
	): KubeObject {
		const object = cloneJson(body);
		object.apiVersion = apiVersionOf(type);
		object.kind = type.kind;
		const metadata = isJsonObject(object.metadata) ? object.metadata : {};
		object.metadata = metadata;
		const bodyNamespace = stringField(metadata, 'namespace');
		if (type.namespaced) {
			if (namespace !== undefined && bodyNamespace !== undefined && bodyNamespace !== namespace) {
				throw badRequest(
					'the namespace of the provided object does not match the namespace sent on the request',
				);
			}
			const effective = namespace ?? bodyNamespace;
			if (effective !== undefined) metadata.namespace = effective;
		} else {
			delete metadata.namespace;
		}
		let name = stringField(metadata, 'name') ?? '';
		const generateName = stringField(metadata, 'generateName');
		if (name === '' && generateName !== undefined && generateName !== '') {
			name = `${generateName}${randomSuffix()}`;
			metadata.name = name;
		}
		if (name === '') {
			throw invalid(type, '', 'metadata.name', 'Required value: name or generateName is required');
		}
		if (name.length > 253 || !dnsSubdomain.test(name)) {
			throw invalid(
				type,
				name,
				'metadata.name',
				`Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`,
			);
		}
		this.checkNamespace(type, stringField(metadata, 'namespace'), options);
		if (this.get(type, stringField(metadata, 'namespace'), name) !== undefined) {
			throw alreadyExists(type, name);
		}
		if (type.statusSubresource && options.keepStatus !== true) delete object.status;
		const requested = metadata.managedFields;
		for (const field of [
			'deletionTimestamp',
			'deletionGracePeriodSeconds',
			'selfLink',
			'managedFields',
		]) {
			delete metadata[field];
		}
		const keep = options.keepIdentity === true;
		if (!keep || typeof metadata.uid !== 'string') metadata.uid = randomUUID();
		if (!keep || typeof metadata.creationTimestamp !== 'string') {
			metadata.creationTimestamp = timestamp(this.now());
		}
		if (!tracksGeneration(type)) delete metadata.generation;
		else if (!keep || typeof metadata.generation !== 'number') metadata.generation = 1;
		if (type.group === '' && type.kind === 'Namespace') {
			object.spec = { finalizers: ['kubernetes'] };
			object.status = { phase: 'Active' };
			const labels = isJsonObject(metadata.labels) ? metadata.labels : {};
			metadata.labels = { ...labels, 'kubernetes.io/metadata.name': name };
		}
		this.recordOwnership(type, name, undefined, object, requested, options);
		const dryRun = options.dryRun === true;
		metadata.resourceVersion = String(dryRun ? this.revision : this.revision + 1);
		const json = storableJson(type, name, object);
		if (dryRun) return object;
		this.revision++;
		this.store(type, object, undefined, json);
		return object;
	}

	/**
	 * Replaces an object (PUT). A stale `metadata.resourceVersion` is a 409; an absent one is allowed for
	 * built-in kinds and refused for custom resources, as kube-apiserver does. With `subresource: 'status'` only
	 * `.status` changes; without it `.status` is kept for kinds that have a status subresource.
	 */
	update(
		type: ResourceType,
		namespace: string | undefined,
		name: string,
		body: KubeObject,
		options: WriteOptions & { readonly subresource?: 'status' } = {},
	): KubeObject {
		const current = this.getOrThrow(type, namespace, name);
		const incoming = cloneJson(body);
		const incomingMeta = metadataOf(incoming);
		const bodyName = stringField(incomingMeta, 'name');
		if (bodyName !== undefined && bodyName !== name) {
			throw badRequest(
				`the name of the object (${bodyName}) does not match the name on the URL (${name})`,
			);
		}
		const bodyNamespace = stringField(incomingMeta, 'namespace');
		if (
			type.namespaced &&
			bodyNamespace !== undefined &&
			namespace !== undefined &&
			bodyNamespace !== namespace
		) {
			throw badRequest(
				'the namespace of the provided object does not match the namespace sent on the request',
			);
		}
		const wanted = stringField(incomingMeta, 'resourceVersion');
		const currentVersion = stringField(metadataOf(current.object), 'resourceVersion');
		if (wanted === undefined || wanted === '') {
			if (!isBuiltIn(type)) {
				throw invalid(
					type,
					name,
					'metadata.resourceVersion',
					'Invalid value: 0x0: must be specified for an update',
				);
			}
		} else if (wanted !== currentVersion) {
			throw conflict(type, name, staleObjectMessage);
		}
		return this.replace(type, current, incoming, options);
	}

	/** The next version of `current` with `incoming`'s content, keeping server-owned fields, then written. */
	private replace(
		type: ResourceType,
		current: StoredEntry,
		incoming: KubeObject,
		options: OwnershipOptions & { readonly wholeObject?: boolean },
	): KubeObject {
		const old = current.object;
		const oldMeta = metadataOf(old);
		const givenGeneration = metadataOf(incoming).generation;
		const requested = metadataOf(incoming).managedFields;
		let next: KubeObject;
		if (options.subresource === 'status') {
			next = cloneJson(old);
			if (incoming.status === undefined) delete next.status;
			else next.status = incoming.status;
		} else {
			next = incoming;
			next.apiVersion = apiVersionOf(type);
			next.kind = type.kind;
			// A patch shares the parts it leaves alone with the stored object, which watches and list views still hold.
			const meta = { ...metadataOf(next) };
			next.metadata = meta;
			for (const field of [
				'name',
				'namespace',
				'uid',
				'creationTimestamp',
				'generation',
				'deletionTimestamp',
				'deletionGracePeriodSeconds',
			]) {
				const value = oldMeta[field];
				if (value === undefined) delete meta[field];
				else meta[field] = value;
			}
			delete meta.selfLink;
			delete meta.managedFields;
			if (type.statusSubresource && options.wholeObject !== true) {
				if (old.status === undefined) delete next.status;
				else next.status = old.status;
			}
		}
		const nextMeta = metadataOf(next);
		if (oldMeta.deletionTimestamp !== undefined) {
			const before = new Set(stringList(oldMeta.finalizers));
			const added = stringList(nextMeta.finalizers).filter((finalizer) => !before.has(finalizer));
			if (added.length > 0) {
				throw invalid(
					type,
					stringField(oldMeta, 'name') ?? '',
					'metadata.finalizers',
					'Forbidden: no new finalizers can be added if the object is being deleted',
				);
			}
		}
		if (
			options.wholeObject === true &&
			typeof givenGeneration === 'number' &&
			tracksGeneration(type)
		) {
			// Loading an object as given (a scenario restoring its start) keeps the generation it states.
			nextMeta.generation = givenGeneration;
		} else if (tracksGeneration(type) && !jsonEqual(specOf(type, old), specOf(type, next))) {
			nextMeta.generation = (typeof oldMeta.generation === 'number' ? oldMeta.generation : 0) + 1;
		}
		nextMeta.resourceVersion = oldMeta.resourceVersion ?? '';
		this.recordOwnership(type, stringField(oldMeta, 'name') ?? '', old, next, requested, options);
		if (nextMeta.deletionTimestamp !== undefined && stringList(nextMeta.finalizers).length === 0) {
			return this.remove(type, current, options.dryRun === true, next);
		}
		if (jsonEqual(old, next)) return old;
		const dryRun = options.dryRun === true;
		if (!dryRun) nextMeta.resourceVersion = String(this.revision + 1);
		const json = storableJson(type, stringField(oldMeta, 'name') ?? '', next);
		if (dryRun) return next;
		this.revision++;
		this.store(type, next, current, json);
		return next;
	}

	/**
	 * Patches an object. A `metadata.resourceVersion` in the patch is a precondition (409 when stale). An apply
	 * patch of a missing object creates it.
	 */
	patch(
		type: ResourceType,
		namespace: string | undefined,
		name: string,
		patchType: PatchType,
		patch: Json,
		options: WriteOptions & { readonly subresource?: 'status'; readonly force?: boolean } = {},
	): KubeObject {
		if (patchType === 'strategic' && !isBuiltIn(type)) {
			throw new ApiError(
				415,
				'UnsupportedMediaType',
				'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
			);
		}
		const existing = this.bucketOf(type).entries.get(this.keyOf(type, namespace, name));
		if (patchType === 'apply') return this.apply(type, namespace, name, patch, existing, options);
		if (existing === undefined) throw notFound(type, name);
		const old = existing.object;
		let patched: Json;
		switch (patchType) {
			case 'merge':
				if (!isJsonObject(patch)) throw badRequest('a merge patch must be a JSON object');
				patched = applyMergePatch(old, patch);
				break;
			case 'json':
				patched = applyJsonPatch(old, patch);
				break;
			case 'strategic':
				patched = applyStrategicMergePatch(old, patch);
				break;
		}
		if (!isJsonObject(patched)) throw badRequest('the patch did not result in an object');
		const patchedMeta = metadataOf(patched);
		const wanted = stringField(patchedMeta, 'resourceVersion');
		if (wanted !== undefined && wanted !== '' && wanted !== metadataOf(old).resourceVersion) {
			throw conflict(type, name, staleObjectMessage);
		}
		if (stringField(patchedMeta, 'name') !== name) {
			throw badRequest(
				`the name of the object (${JSON.stringify(patchedMeta.name ?? null)}) does not match the name on the URL (${name})`,
			);
		}
		return this.replace(type, existing, patched, options);
	}

	private apply(
		type: ResourceType,
		namespace: string | undefined,
		name: string,
		patch: Json,
		existing: StoredEntry | undefined,
		options: WriteOptions & { readonly subresource?: 'status'; readonly force?: boolean },
	): KubeObject {
		if (!isJsonObject(patch)) throw badRequest('an apply patch must be an object');
		const manager = options.fieldManager;
		if (manager === undefined || manager === '') {
			throw badRequest('PATCH, application/apply-patch+yaml requires fieldManager to be set');
		}
		const config = cloneJson(patch);
		const configMeta = metadataOf(config);
		if (stringField(configMeta, 'name') !== name) {
			throw badRequest(
				`the name of the object (${JSON.stringify(configMeta.name ?? null)}) does not match the name on the URL (${name})`,
			);
		}
		if (config.apiVersion !== apiVersionOf(type) || config.kind !== type.kind) {
			throw badRequest(
				`the apiVersion and kind of the applied object must be ${apiVersionOf(type)}, ${type.kind}`,
			);
		}
		if (configMeta.managedFields !== undefined) {
			throw badRequest('metadata.managedFields must be nil');
		}
		const ownership = { ...options, applied: fieldsOf(config, this.scopeOf(type, options)) };
		if (existing === undefined) {
			return this.create(type, namespace, config, {
				...ownership,
				keepStatus: options.subresource === 'status',
			});
		}
		let merged = mergeStrategic(existing.object, config) ?? {};
		const entries = decodeManagedFields(metadataOf(existing.object).managedFields) ?? [];
		const previous = appliedEntryOf(entries, this.writerOf(type, manager, options));
		if (previous !== undefined) {
			// What this manager applied last time and leaves out now goes, unless someone else owns it.
			merged = withoutDisowned(
				merged,
				differenceOf(previous.fields, ownership.applied),
				fieldsOwnedByOthers(entries, previous),
				this.scopeOf(type, options),
			);
		}
		return this.replace(type, existing, merged, ownership);
	}

	private scopeOf(type: ResourceType, options: { readonly subresource?: 'status' }): FieldScope {
		if (!type.statusSubresource) return 'all';
		return options.subresource === 'status' ? 'status' : 'mainResource';
	}

	private writerOf(
		type: ResourceType,
		manager: string,
		options: { readonly subresource?: 'status' },
	): FieldWriter {
		return {
			manager,
			apiVersion: apiVersionOf(type),
			subresource: options.subresource,
			scope: this.scopeOf(type, options),
		};
	}

	/**
	 * Sets `next`'s metadata.managedFields for a write from `old` (undefined for a create), or throws the 409 of
	 * an apply that conflicts with other managers. `requested` is the managedFields the request itself carried.
	 */
	private recordOwnership(
		type: ResourceType,
		name: string,
		old: KubeObject | undefined,
		next: KubeObject,
		requested: Json | undefined,
		options: OwnershipOptions,
	): void {
		const nextMeta = metadataOf(next);
		const stored = old === undefined ? undefined : metadataOf(old).managedFields;
		const manager = options.fieldManager;
		let managedFields: Json[] | undefined;
		if (manager === undefined) {
			managedFields = Array.isArray(stored) ? stored : undefined;
		} else {
			const writer = this.writerOf(type, manager, options);
			const now = timestamp(this.now());
			const fromRequest = options.subresource === undefined && options.applied === undefined;
			const entries = startingEntries(stored, requested, fromRequest);
			if (options.applied === undefined) {
				managedFields = encodeManagedFields(updatedEntries(entries, old, next, writer, now));
			} else {
				const result = appliedEntries(
					entries,
					old,
					next,
					options.applied,
					writer,
					now,
					options.force === true,
				);
				if ('conflicts' in result) {
					throw applyConflictError(result.conflicts, {
						name,
						group: type.group,
						kind: type.plural,
					});
				}
				managedFields = encodeManagedFields(result.entries);
			}
		}
		if (managedFields === undefined) delete nextMeta.managedFields;
		else nextMeta.managedFields = managedFields;
	}

	/**
	 * Deletes an object. One with finalizers only gets a deletionTimestamp (`deleted: false`, HTTP 202); it goes
	 * when an update removes the last finalizer. A namespace deletes its content first.
	 */
	delete(
		type: ResourceType,
		namespace: string | undefined,
		name: string,
		options: WriteOptions & {
			readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
		} = {},
	): { readonly object: KubeObject; readonly deleted: boolean } {
		const current = this.getOrThrow(type, namespace, name);
		const meta = metadataOf(current.object);
		const preconditions = options.preconditions;
		if (preconditions?.uid !== undefined && preconditions.uid !== meta.uid) {
			throw conflict(
				type,
				name,
				`Precondition failed: UID in precondition: ${preconditions.uid}, UID in object meta: ${stringField(meta, 'uid') ?? ''}`,
			);
		}
		if (
			preconditions?.resourceVersion !== undefined &&
			preconditions.resourceVersion !== meta.resourceVersion
		) {
			throw conflict(
				type,
				name,
				`Precondition failed: ResourceVersion in precondition: ${preconditions.resourceVersion}, ResourceVersion in object meta: ${stringField(meta, 'resourceVersion') ?? ''}`,
			);
		}
		const dryRun = options.dryRun === true;
		const isNamespace = type.group === '' && type.kind === 'Namespace';
		if (isNamespace && !dryRun) this.deleteNamespaceContent(name);
		const blocked =
			stringList(meta.finalizers).length > 0 || (isNamespace && this.namespaceHasContent(name));
		if (!blocked) return { object: this.remove(type, current, dryRun, undefined), deleted: true };
		if (meta.deletionTimestamp !== undefined) return { object: current.object, deleted: false };
		const next = cloneJson(current.object);
		const nextMeta = metadataOf(next);
		nextMeta.deletionTimestamp = timestamp(this.now());
		nextMeta.deletionGracePeriodSeconds = 0;
		if (tracksGeneration(type)) {
			nextMeta.generation = (typeof meta.generation === 'number' ? meta.generation : 0) + 1;
		}
		if (isNamespace) {
			next.status = { ...(isJsonObject(next.status) ? next.status : {}), phase: 'Terminating' };
		}
		if (dryRun) return { object: next, deleted: false };
		this.revision++;
		nextMeta.resourceVersion = String(this.revision);
		this.store(type, next, current);
		return { object: next, deleted: false };
	}

	/** Removes an object for good and sends DELETED with the deletion's resourceVersion. */
	private remove(
		type: ResourceType,
		current: StoredEntry,
		dryRun: boolean,
		last: KubeObject | undefined,
	): KubeObject {
		const final = cloneJson(last ?? current.object);
		if (dryRun) return final;
		this.revision++;
		metadataOf(final).resourceVersion = String(this.revision);
		const bucket = this.bucketOf(type);
		bucket.entries.delete(current.key);
		bucket.sortedKeys = undefined;
		this.emit(
			'DELETED',
			type,
			{ object: final, key: current.key, json: undefined },
			current.object,
		);
		const namespace = stringField(metadataOf(final), 'namespace');
		if (type.namespaced && namespace !== undefined) this.finishNamespace(namespace);
		return final;
	}

	private namespaceHasContent(namespace: string): boolean {
		return this.types.some(
			(type) => type.namespaced && this.list(type, { namespace, limit: 1 }).entries.length > 0,
		);
	}

	private deleteNamespaceContent(namespace: string): void {
		for (const type of this.types) {
			if (!type.namespaced) continue;
			for (const entry of this.list(type, { namespace }).entries) {
				const name = stringField(metadataOf(entry.object), 'name') ?? '';
				this.delete(type, namespace, name);
			}
		}
	}

	/** Removes a terminating namespace once its last object is gone. */
	private finishNamespace(namespace: string): void {
		const type = this.namespaceType();
		if (type === undefined) return;
		const entry = this.bucketOf(type).entries.get(this.keyOf(type, undefined, namespace));
		if (entry === undefined || metadataOf(entry.object).deletionTimestamp === undefined) return;
		if (
			stringList(metadataOf(entry.object).finalizers).length > 0 ||
			this.namespaceHasContent(namespace)
		) {
			return;
		}
		this.remove(type, entry, false, undefined);
	}

	/** Deletes every object a query selects (DELETE on a collection); returns what was deleted or marked. */
	deleteCollection(type: ResourceType, query: ListQuery, options: WriteOptions = {}): KubeObject[] {
		const results: KubeObject[] = [];
		for (const entry of this.list(type, { ...query, limit: 0 }).entries) {
			const meta = metadataOf(entry.object);
			results.push(
				this.delete(type, stringField(meta, 'namespace'), stringField(meta, 'name') ?? '', options)
					.object,
			);
		}
		return results;
	}

	// In-process helpers for tests and scenarios: by object, not by type.

	private typeOfObject(object: KubeObject): ResourceType {
		const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
		const kind = typeof object.kind === 'string' ? object.kind : '';
		const type = this.typeOf(apiVersion, kind);
		if (type === undefined) {
			throw new ApiError(404, 'NotFound', `the server does not know ${apiVersion} ${kind}`);
		}
		return type;
	}

	/**
	 * Creates or replaces an object as given, status included, creating its namespace when missing. Replacing
	 * keeps uid and creationTimestamp and ignores any resourceVersion in `object`. For loading and scenarios.
	 */
	put(object: KubeObject): KubeObject {
		const type = this.typeOfObject(object);
		const meta = metadataOf(object);
		const namespace = stringField(meta, 'namespace') ?? (type.namespaced ? 'default' : undefined);
		const name = stringField(meta, 'name') ?? '';
		const existing = this.bucketOf(type).entries.get(this.keyOf(type, namespace, name));
		const body = cloneJson(object);
		delete metadataOf(body).resourceVersion;
		if (existing === undefined) {
			return this.create(type, namespace, body, { keepStatus: true, keepIdentity: true });
		}
		return this.replace(type, existing, body, { wholeObject: true });
	}

	/** The stored object an object names (by apiVersion, kind, namespace and name), or undefined. */
	find(object: KubeObject): KubeObject | undefined {
		const type = this.typeOfObject(object);
		const meta = metadataOf(object);
		return this.get(
			type,
			stringField(meta, 'namespace') ?? (type.namespaced ? 'default' : undefined),
			stringField(meta, 'name') ?? '',
		);
	}

	/** Patches the object `ref` names; `subresource: 'status'` patches only its status. */
	patchObject(
		ref: KubeObject,
		patchType: PatchType,
		patch: Json,
		options: WriteOptions & { readonly subresource?: 'status'; readonly force?: boolean } = {},
	): KubeObject {
		const type = this.typeOfObject(ref);
		const meta = metadataOf(ref);
		return this.patch(
			type,
			stringField(meta, 'namespace') ?? (type.namespaced ? 'default' : undefined),
			stringField(meta, 'name') ?? '',
			patchType,
			patch,
			options,
		);
	}

	/** Deletes the object `ref` names, honouring finalizers. */
	deleteObject(ref: KubeObject): { readonly object: KubeObject; readonly deleted: boolean } {
		const type = this.typeOfObject(ref);
		const meta = metadataOf(ref);
		return this.delete(
			type,
			stringField(meta, 'namespace') ?? (type.namespaced ? 'default' : undefined),
			stringField(meta, 'name') ?? '',
		);
	}
}
