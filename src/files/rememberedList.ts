// A list of strings kept across restarts in a key-value store the front end provides (VS Code's workspace state):
// the fleet dumps a user opened, so that a reload shows them again until the user closes them.

/** The part of VS Code's Memento this needs. */
export interface KeyValueStore {
	get(key: string): unknown;
	update(key: string, value: unknown): PromiseLike<void>;
}

/** The strings under one key, in the order they were added, each once; malformed stored values read as none. */
export class RememberedList {
	readonly #store: KeyValueStore;
	readonly #key: string;

	constructor(store: KeyValueStore, key: string) {
		this.#store = store;
		this.#key = key;
	}

	get items(): string[] {
		const stored = this.#store.get(this.#key);
		return Array.isArray(stored)
			? stored.filter((item): item is string => typeof item === 'string')
			: [];
	}

	async add(item: string): Promise<void> {
		const items = this.items;
		if (!items.includes(item)) await this.#store.update(this.#key, [...items, item]);
	}

	async remove(item: string): Promise<void> {
		const items = this.items;
		if (items.includes(item)) {
			await this.#store.update(
				this.#key,
				items.filter((each) => each !== item),
			);
		}
	}
}
