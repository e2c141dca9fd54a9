// Field ownership, `metadata.managedFields`, as kube-apiserver keeps it with structured-merge-diff. Every write
// names a field manager; an Update (create, update, patch) owns the fields it added or changed and takes them from
// everyone else, an Apply owns exactly the fields of its configuration. An Apply that would change a field another
// manager owns is a conflict unless forced, and fields a manager stops applying are removed unless someone else
// owns them. The server has no schemas, so maps are told apart from structs by nothing: every map key is a field
// of its own, and lists are keyed, sets or atomic by the strategic merge table in patch.ts.

import { ApiError } from './errors.ts';
import {
	isJsonObject,
	jsonEqual,
	listTypeOf,
	setEntry,
	type Json,
	type JsonObject,
} from './patch.ts';

/** A set of field paths as a tree, FieldsV1 decoded: children by `f:name`, `k:{...}`, `v:value` or `i:index`. */
export interface FieldSet {
	/** Whether this node's own path is in the set (FieldsV1's `.` entry, or a leaf). */
	member: boolean;
	readonly children: Map<string, FieldSet>;
}

/** One entry of metadata.managedFields. */
export interface ManagerEntry {
	readonly manager: string;
	readonly operation: 'Apply' | 'Update';
	readonly apiVersion: string;
	readonly subresource: string | undefined;
	readonly time: string | undefined;
	readonly fields: FieldSet;
}

/** Which top-level fields a write can own: a kind with a status subresource keeps status to itself. */
export type FieldScope = 'all' | 'mainResource' | 'status';

/** Who writes: the field manager of a request, and what it writes to. */
export interface FieldWriter {
	readonly manager: string;
	readonly apiVersion: string;
	readonly subresource: 'status' | undefined;
	readonly scope: FieldScope;
}

/** A field another manager owns that an apply would change. */
export interface FieldConflict {
	readonly owner: ManagerEntry;
	readonly path: string;
}

// Server-owned metadata no manager owns (structured-merge-diff's stripMetaManager).
const strippedMetadata = new Set([
	'name',
	'namespace',
	'creationTimestamp',
	'selfLink',
	'uid',
	'clusterName',
	'generation',
	'managedFields',
	'resourceVersion',
]);

// kube-apiserver's DefaultMaxUpdateManagers: older Update entries merge into one, so the list stays short.
const maxUpdateManagers = 10;
const oldUpdatesManager = 'ancient-changes';

function emptyFieldSet(): FieldSet {
	return { member: false, children: new Map() };
}

function childOf(set: FieldSet, key: string): FieldSet {
	let child = set.children.get(key);
	if (child === undefined) {
		child = emptyFieldSet();
		set.children.set(key, child);
	}
	return child;
}

/** Whether a set holds no path. */
function isEmptyFieldSet(set: FieldSet): boolean {
	if (set.member) return false;
	for (const child of set.children.values()) {
		if (!isEmptyFieldSet(child)) return false;
	}
	return true;
}

function compacted(set: FieldSet): FieldSet {
	const result = emptyFieldSet();
	result.member = set.member;
	for (const [key, child] of set.children) {
		const kept = compacted(child);
		if (!isEmptyFieldSet(kept)) result.children.set(key, kept);
	}
	return result;
}

/** The paths in either set. */
function unionOf(a: FieldSet, b: FieldSet): FieldSet {
	const result = compacted(a);
	result.member ||= b.member;
	for (const [key, child] of b.children) {
		const mine = result.children.get(key);
		const merged = mine === undefined ? compacted(child) : unionOf(mine, child);
		if (!isEmptyFieldSet(merged)) result.children.set(key, merged);
	}
	return result;
}

/** The paths of `a` that are not in `b`. */
export function differenceOf(a: FieldSet, b: FieldSet): FieldSet {
	const result = emptyFieldSet();
	result.member = a.member && !b.member;
	for (const [key, child] of a.children) {
		const other = b.children.get(key);
		const rest = other === undefined ? compacted(child) : differenceOf(child, other);
		if (!isEmptyFieldSet(rest)) result.children.set(key, rest);
	}
	return result;
}

function intersectionOf(a: FieldSet, b: FieldSet): FieldSet {
	const result = emptyFieldSet();
	result.member = a.member && b.member;
	for (const [key, child] of a.children) {
		const other = b.children.get(key);
		if (other === undefined) continue;
		const both = intersectionOf(child, other);
		if (!isEmptyFieldSet(both)) result.children.set(key, both);
	}
	return result;
}

/** A FieldsV1 object as a set; undefined when it is not one. */
function fieldSetFromV1(value: Json | undefined): FieldSet | undefined {
	if (!isJsonObject(value)) return undefined;
	const set = emptyFieldSet();
	for (const [key, child] of Object.entries(value)) {
		if (key === '.') {
			set.member = true;
			continue;
		}
		if (!/^[fkvi]:/.test(key)) return undefined;
		const decoded = fieldSetFromV1(child);
		if (decoded === undefined) return undefined;
		if (decoded.children.size === 0) decoded.member = true;
		set.children.set(key, decoded);
	}
	return set;
}

/** A set as FieldsV1 JSON. */
function fieldSetToV1(set: FieldSet): JsonObject {
	const result: JsonObject = {};
	if (set.member && set.children.size > 0) result['.'] = {};
	for (const [key, child] of [...set.children].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
		if (!isEmptyFieldSet(child)) result[key] = fieldSetToV1(child);
	}
	return result;
}

/** A FieldsV1 key as structured-merge-diff prints a path element: `.name`, `[name="web"]`, `[="a"]`, `[0]`. */
function pathElement(key: string): string {
	const rest = key.slice(2);
	switch (key[0]) {
		case 'f':
			return `.${rest}`;
		case 'k': {
			try {
				const fields = JSON.parse(rest) as Record<string, unknown>;
				return `[${Object.entries(fields)
					.map(([name, value]) => `${name}=${JSON.stringify(value)}`)
					.join(',')}]`;
			} catch {
				return `[${rest}]`;
			}
		}
		case 'v':
			return `[=${rest}]`;
		default:
			return `[${rest}]`;
	}
}

/** Every path of a set, in order, as kube prints paths (`.spec.containers[name="web"].image`). */
function pathsOf(set: FieldSet, prefix = ''): string[] {
	const paths: string[] = [];
	if (set.member && prefix !== '') paths.push(prefix);
	for (const [key, child] of [...set.children].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
		for (const path of pathsOf(child, `${prefix}${pathElement(key)}`)) paths.push(path);
	}
	return paths;
}

// Walking objects. The root and metadata are no fields of their own; below them, every map key, keyed list item
// and set item is a node, and anything else (scalars, atomic lists) is a leaf.

type Level = 'root' | 'metadata' | 'field';

interface Child {
	readonly key: string;
	readonly value: Json;
	readonly field: string;
	readonly level: Level;
}

function inScope(key: string, scope: FieldScope): boolean {
	if (key === 'apiVersion' || key === 'kind') return false;
	if (scope === 'status') return key === 'status';
	return scope === 'all' || key !== 'status';
}

/** The children of a node, or undefined for a leaf. */
function childrenOf(
	value: Json,
	field: string,
	level: Level,
	scope: FieldScope,
): Map<string, Child> | undefined {
	if (isJsonObject(value)) {
		const children = new Map<string, Child>();
		for (const [key, item] of Object.entries(value)) {
			if (level === 'root' && !inScope(key, scope)) continue;
			if (level === 'metadata' && strippedMetadata.has(key)) continue;
			const childLevel = level === 'root' && key === 'metadata' ? 'metadata' : 'field';
			children.set(`f:${key}`, { key: `f:${key}`, value: item, field: key, level: childLevel });
		}
		return children;
	}
	const keyOf = Array.isArray(value) ? itemKeyOf(field, value) : undefined;
	if (keyOf === undefined) return undefined;
	const children = new Map<string, Child>();
	for (const item of value as Json[]) {
		const key = keyOf(item);
		children.set(key, { key, value: item, field: '', level: 'field' });
	}
	return children;
}

/** How the items of a list are named in a field set; undefined for an atomic list, which is one leaf. */
function itemKeyOf(field: string, items: readonly Json[]): ((item: Json) => string) | undefined {
	const type = listTypeOf(field, items);
	switch (type.kind) {
		case 'atomic':
			return undefined;
		case 'set':
			return (item) => `v:${JSON.stringify(item)}`;
		case 'map':
			return (item) =>
				`k:${JSON.stringify({ [type.key]: isJsonObject(item) ? item[type.key] : null })}`;
	}
}

function addAll(set: FieldSet, value: Json, field: string, level: Level, scope: FieldScope): void {
	if (level === 'field') set.member = true;
	for (const child of childrenOf(value, field, level, scope)?.values() ?? []) {
		addAll(childOf(set, child.key), child.value, child.field, child.level, scope);
	}
}

/** Every field of an object (an applied configuration) within a scope. */
export function fieldsOf(object: JsonObject, scope: FieldScope): FieldSet {
	const set = emptyFieldSet();
	addAll(set, object, '', 'root', scope);
	return compacted(set);
}

function sameShape(a: Json, b: Json): boolean {
	return (isJsonObject(a) && isJsonObject(b)) || (Array.isArray(a) && Array.isArray(b));
}

function compareInto(
	before: Json,
	after: Json,
	field: string,
	level: Level,
	scope: FieldScope,
	changed: FieldSet,
	removed: FieldSet,
): void {
	const old = sameShape(before, after) ? childrenOf(before, field, level, scope) : undefined;
	const next = old === undefined ? undefined : childrenOf(after, field, level, scope);
	if (old === undefined || next === undefined) {
		if (jsonEqual(before, after)) return;
		addAll(removed, before, field, level, scope);
		addAll(changed, after, field, level, scope);
		return;
	}
	for (const [key, child] of next) {
		const previous = old.get(key);
		if (previous === undefined) {
			addAll(childOf(changed, key), child.value, child.field, child.level, scope);
		} else {
			compareInto(
				previous.value,
				child.value,
				child.field,
				child.level,
				scope,
				childOf(changed, key),
				childOf(removed, key),
			);
		}
	}
	for (const [key, child] of old) {
		if (!next.has(key)) addAll(childOf(removed, key), child.value, child.field, child.level, scope);
	}
}

/** The fields a write added or changed, and the ones it removed. */
function compareObjects(
	before: JsonObject,
	after: JsonObject,
	scope: FieldScope,
): { readonly changed: FieldSet; readonly removed: FieldSet } {
	const changed = emptyFieldSet();
	const removed = emptyFieldSet();
	compareInto(before, after, '', 'root', scope, changed, removed);
	return { changed: compacted(changed), removed: compacted(removed) };
}

// Entries.

function identityOf(entry: {
	readonly manager: string;
	readonly operation: string;
	readonly apiVersion: string;
	readonly subresource: string | undefined;
}): string {
	// As kube's BuildManagerIdentifier: an applier is one manager whatever version it applies.
	return JSON.stringify([
		entry.manager,
		entry.operation,
		entry.operation === 'Apply' ? '' : entry.apiVersion,
		entry.subresource ?? '',
	]);
}

/** The entries of a managedFields list; undefined when it is not a valid one (kube then ignores it). */
export function decodeManagedFields(value: Json | undefined): ManagerEntry[] | undefined {
	if (!Array.isArray(value)) return undefined;
	const entries: ManagerEntry[] = [];
	const seen = new Set<string>();
	for (const item of value) {
		if (!isJsonObject(item)) return undefined;
		const { manager, operation, apiVersion, time, fieldsType, subresource } = item;
		if (operation !== 'Apply' && operation !== 'Update') return undefined;
		if (fieldsType !== 'FieldsV1') return undefined;
		const fields = item.fieldsV1 === undefined ? emptyFieldSet() : fieldSetFromV1(item.fieldsV1);
		if (fields === undefined) return undefined;
		const entry: ManagerEntry = {
			manager: typeof manager === 'string' ? manager : '',
			operation,
			apiVersion: typeof apiVersion === 'string' ? apiVersion : '',
			subresource: typeof subresource === 'string' && subresource !== '' ? subresource : undefined,
			time: typeof time === 'string' ? time : undefined,
			fields,
		};
		const identity = identityOf(entry);
		if (seen.has(identity)) return undefined;
		seen.add(identity);
		entries.push(entry);
	}
	return entries;
}

function compareText(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** Entries as metadata.managedFields, in kube's order (Apply first, then oldest first); undefined when none. */
export function encodeManagedFields(entries: readonly ManagerEntry[]): Json[] | undefined {
	if (entries.length === 0) return undefined;
	const ordered = [...entries].sort(
		(a, b) =>
			compareText(a.operation, b.operation) ||
			compareText(a.time ?? '', b.time ?? '') ||
			compareText(a.manager, b.manager) ||
			compareText(a.apiVersion, b.apiVersion) ||
			compareText(a.subresource ?? '', b.subresource ?? ''),
	);
	return ordered.map((entry) => ({
		...(entry.manager === '' ? {} : { manager: entry.manager }),
		operation: entry.operation,
		apiVersion: entry.apiVersion,
		...(entry.time === undefined ? {} : { time: entry.time }),
		fieldsType: 'FieldsV1',
		fieldsV1: fieldSetToV1(entry.fields),
		...(entry.subresource === undefined ? {} : { subresource: entry.subresource }),
	}));
}

/**
 * The entries a write starts from. A request may set managedFields itself (kubectl does to move client-side apply
 * ownership to server-side apply); an empty list or one empty entry resets them. Anything else that does not
 * decode, or a status write, keeps the stored ones.
 */
export function startingEntries(
	stored: Json | undefined,
	requested: Json | undefined,
	fromRequest: boolean,
): ManagerEntry[] {
	if (fromRequest && Array.isArray(requested) && requested !== stored) {
		const [first] = requested;
		if (requested.length === 0 || (requested.length === 1 && jsonEqual(first, {}))) return [];
		const decoded = decodeManagedFields(requested);
		if (decoded !== undefined && decoded.length > 0) return decoded;
	}
	return decodeManagedFields(stored) ?? [];
}

/** The manager name kube-apiserver takes from a User-Agent when a request names none: the part before '/'. */
export function defaultFieldManager(userAgent: string | undefined): string {
	const prefix = (userAgent ?? '').split('/')[0] ?? '';
	// Printable characters only, at most 128 (validation.FieldManagerMaxLength).
	return [...prefix.replace(/\p{C}/gu, '')].slice(0, 128).join('');
}

function capUpdateManagers(entries: ManagerEntry[]): ManagerEntry[] {
	const updates = entries.filter((entry) => entry.operation === 'Update');
	if (updates.length <= maxUpdateManagers) return entries;
	const oldestFirst = [...updates].sort(
		(a, b) => compareText(a.time ?? '', b.time ?? '') || compareText(a.manager, b.manager),
	);
	const merged = new Set(oldestFirst.slice(0, updates.length - maxUpdateManagers + 1));
	for (const entry of updates) {
		if (entry.manager === oldUpdatesManager && entry.subresource === undefined) merged.add(entry);
	}
	let fields = emptyFieldSet();
	let newest: ManagerEntry | undefined;
	for (const entry of merged) {
		fields = unionOf(fields, entry.fields);
		if (newest === undefined || compareText(entry.time ?? '', newest.time ?? '') > 0) {
			newest = entry;
		}
	}
	return [
		...entries.filter((entry) => !merged.has(entry)),
		{
			manager: oldUpdatesManager,
			operation: 'Update',
			apiVersion: newest?.apiVersion ?? '',
			subresource: undefined,
			time: newest?.time,
			fields,
		},
	];
}

/**
 * The entries after an Update-operation write (create, update, or a patch that is not an apply) changed `before`
 * into `after`: the writer owns what it added or changed and takes it from the others; removed fields are nobody's.
 */
export function updatedEntries(
	entries: readonly ManagerEntry[],
	before: JsonObject | undefined,
	after: JsonObject,
	writer: FieldWriter,
	now: string,
): ManagerEntry[] {
	const { changed, removed } = compareObjects(before ?? {}, after, writer.scope);
	const identity = identityOf({ ...writer, operation: 'Update' });
	const result: ManagerEntry[] = [];
	let previous: ManagerEntry | undefined;
	for (const entry of entries) {
		if (identityOf(entry) === identity) {
			previous = entry;
			continue;
		}
		const fields = differenceOf(differenceOf(entry.fields, removed), changed);
		if (!isEmptyFieldSet(fields)) result.push({ ...entry, fields });
	}
	const fields = unionOf(differenceOf(previous?.fields ?? emptyFieldSet(), removed), changed);
	if (!isEmptyFieldSet(fields)) {
		result.push({
			manager: writer.manager,
			operation: 'Update',
			apiVersion: writer.apiVersion,
			subresource: writer.subresource,
			// The time moves only when the write took fields, as kube's managedFieldsUpdater does.
			time: isEmptyFieldSet(changed) ? previous?.time : now,
			fields,
		});
	}
	return capUpdateManagers(result);
}

/** The entry an apply manager has, if any. */
export function appliedEntryOf(
	entries: readonly ManagerEntry[],
	writer: FieldWriter,
): ManagerEntry | undefined {
	const identity = identityOf({ ...writer, operation: 'Apply' });
	return entries.find((entry) => identityOf(entry) === identity);
}

/**
 * The entries after `writer` applied a configuration with the fields `applied`, which turned `before` into
 * `after`; or the conflicts: fields of other managers whose value the apply changes. With `force` those fields
 * move to the applier.
 */
export function appliedEntries(
	entries: readonly ManagerEntry[],
	before: JsonObject | undefined,
	after: JsonObject,
	applied: FieldSet,
	writer: FieldWriter,
	now: string,
	force: boolean,
): { readonly entries: ManagerEntry[] } | { readonly conflicts: FieldConflict[] } {
	const { changed, removed } = compareObjects(before ?? {}, after, writer.scope);
	const previous = appliedEntryOf(entries, writer);
	const others = entries.filter((entry) => entry !== previous);
	const conflicts: FieldConflict[] = [];
	for (const owner of others) {
		for (const path of pathsOf(intersectionOf(owner.fields, changed))) {
			conflicts.push({ owner, path });
		}
	}
	if (conflicts.length > 0 && !force) return { conflicts };
	const result: ManagerEntry[] = [];
	for (const entry of others) {
		const fields = differenceOf(differenceOf(entry.fields, removed), changed);
		if (!isEmptyFieldSet(fields)) result.push({ ...entry, fields });
	}
	if (!isEmptyFieldSet(applied)) {
		const touched = !isEmptyFieldSet(changed) || !isEmptyFieldSet(removed);
		result.push({
			manager: writer.manager,
			operation: 'Apply',
			apiVersion: writer.apiVersion,
			subresource: writer.subresource,
			time: touched || previous === undefined ? now : previous.time,
			fields: applied,
		});
	}
	return { entries: capUpdateManagers(result) };
}

function isEmptyContainer(value: Json): boolean {
	return Array.isArray(value)
		? value.length === 0
		: isJsonObject(value) && Object.keys(value).length === 0;
}

function withoutDisownedInto(
	value: Json,
	field: string,
	level: Level,
	scope: FieldScope,
	disowned: FieldSet,
	kept: FieldSet | undefined,
): Json {
	const children = childrenOf(value, field, level, scope);
	if (children === undefined) return value;
	const results = new Map<string, Json | undefined>();
	for (const [key, child] of children) {
		const gone = disowned.children.get(key);
		if (gone === undefined) continue;
		const keep = kept?.children.get(key);
		const pruned = withoutDisownedInto(child.value, child.field, child.level, scope, gone, keep);
		const leaf = childrenOf(child.value, child.field, child.level, scope) === undefined;
		const remove = gone.member && keep?.member !== true && (leaf || isEmptyContainer(pruned));
		results.set(key, remove ? undefined : pruned);
	}
	if (results.size === 0) return value;
	if (isJsonObject(value)) {
		const result: JsonObject = {};
		for (const [name, item] of Object.entries(value)) {
			const key = `f:${name}`;
			const replaced = results.has(key) ? results.get(key) : item;
			if (replaced !== undefined) setEntry(result, name, replaced);
		}
		return result;
	}
	const keyOf = Array.isArray(value) ? itemKeyOf(field, value) : undefined;
	if (keyOf === undefined || !Array.isArray(value)) return value;
	const items: Json[] = [];
	for (const item of value) {
		const key = keyOf(item);
		const replaced = results.has(key) ? results.get(key) : item;
		if (replaced !== undefined) items.push(replaced);
	}
	return items;
}

/**
 * The object without the fields an applier owned and applies no more (`disowned`), except those another manager
 * owns (`kept`) and maps or lists that still hold something else.
 */
export function withoutDisowned(
	object: JsonObject,
	disowned: FieldSet,
	kept: FieldSet,
	scope: FieldScope,
): JsonObject {
	const result = withoutDisownedInto(object, '', 'root', scope, disowned, kept);
	return isJsonObject(result) ? result : object;
}

/** The union of every entry's fields but one's. */
export function fieldsOwnedByOthers(
	entries: readonly ManagerEntry[],
	except: ManagerEntry | undefined,
): FieldSet {
	let fields = emptyFieldSet();
	for (const entry of entries) {
		if (entry !== except) fields = unionOf(fields, entry.fields);
	}
	return fields;
}

function describeManager(entry: ManagerEntry): string {
	// kube's printManager; the time is not part of a manager's identity, so it is never printed.
	const name = `${JSON.stringify(entry.manager)}${entry.subresource === undefined ? '' : ` with subresource ${JSON.stringify(entry.subresource)}`}`;
	return entry.operation === 'Update' ? `${name} using ${entry.apiVersion}` : name;
}

/** The 409 Conflict of an apply, worded as kube-apiserver words it. */
export function applyConflictError(
	conflicts: readonly FieldConflict[],
	details: { readonly name: string; readonly group: string; readonly kind: string },
): ApiError {
	let message: string;
	const [only] = conflicts;
	if (conflicts.length === 1 && only !== undefined) {
		message = `Apply failed with 1 conflict: conflict with ${describeManager(only.owner)}: ${only.path}`;
	} else {
		const byManager = new Map<string, string[]>();
		for (const conflict of conflicts) {
			const name = describeManager(conflict.owner);
			byManager.set(name, [...(byManager.get(name) ?? []), conflict.path]);
		}
		const lines = [...byManager]
			.sort(([a], [b]) => compareText(a, b))
			.flatMap(([name, paths]) => [`conflicts with ${name}:`, ...paths.map((path) => `- ${path}`)]);
		message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
	}
	return new ApiError(409, 'Conflict', message, {
		...details,
		causes: conflicts.map((conflict) => ({
			reason: 'FieldManagerConflict',
			message: `conflict with ${describeManager(conflict.owner)}`,
			field: conflict.path,
		})),
	});
}
