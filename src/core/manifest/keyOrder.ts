// A live object and a manifest list the same keys in different orders: the API server and `kubectl get -o yaml`
// print fields in their own order, a person writes them in theirs. A line diff would show every moved key as a
// change; printing one side in the other's order leaves only the values that differ.

import { isRecord } from '../model/object.ts';

/** The name that identifies an item of a list (containers, env, ports), when it has one. */
function itemName(item: unknown): string | undefined {
	return isRecord(item) && typeof item.name === 'string' ? item.name : undefined;
}

/**
 * `value` with the keys of every map in the order `template` has them (keys the template lacks follow, in their own
 * order). List items are matched by `name` when they have one, else by position; lists keep their own order, which
 * is meaningful. Values are not changed, only the order of keys.
 */
export function inKeyOrderOf(value: unknown, template: unknown): unknown {
	if (Array.isArray(value)) {
		if (!Array.isArray(template)) return value;
		const byName = new Map<string, unknown>();
		for (const item of template) {
			const name = itemName(item);
			if (name !== undefined && !byName.has(name)) byName.set(name, item);
		}
		return value.map((item, index) => {
			const name = itemName(item);
			return inKeyOrderOf(item, name !== undefined ? byName.get(name) : template[index]);
		});
	}
	if (!isRecord(value)) return value;
	const model = isRecord(template) ? template : {};
	// Entries, not assignments: a key named "__proto__" stays a key.
	const entries: [string, unknown][] = [];
	const placed = new Set<string>();
	for (const key of Object.keys(model)) {
		if (!Object.hasOwn(value, key)) continue;
		entries.push([key, inKeyOrderOf(value[key], model[key])]);
		placed.add(key);
	}
	for (const [key, item] of Object.entries(value)) {
		if (!placed.has(key)) entries.push([key, inKeyOrderOf(item, undefined)]);
	}
	return Object.fromEntries(entries);
}
