/**
 * Rules keyed by "group/Kind" ("Kind" or "/Kind" for the core group), looked up by group and kind without building
 * the key string for every object: hashing a fresh string per lookup cost more than the rules it selected.
 */
export class KindTable<T> {
	private readonly byKind = new Map<string, { readonly group: string; readonly value: T }[]>();

	constructor(entries: Iterable<readonly [string, T]>) {
		for (const [key, value] of entries) {
			const slash = key.lastIndexOf('/');
			const group = slash < 0 ? '' : key.slice(0, slash);
			const kind = key.slice(slash + 1);
			let candidates = this.byKind.get(kind);
			if (candidates === undefined) {
				candidates = [];
				this.byKind.set(kind, candidates);
			}
			candidates.push({ group, value });
		}
	}

	get(group: string, kind: string): T | undefined {
		const candidates = this.byKind.get(kind);
		if (candidates === undefined) return undefined;
		for (const candidate of candidates) if (candidate.group === group) return candidate.value;
		return undefined;
	}
}
