import assert from 'node:assert/strict';
import { it } from 'node:test';
import { RememberedList, type KeyValueStore } from '../../../src/files/rememberedList.ts';

function memoryStore(initial: Record<string, unknown> = {}): KeyValueStore {
	const values = new Map(Object.entries(initial));
	return {
		get: (key) => values.get(key),
		update: (key, value) => {
			values.set(key, value);
			return Promise.resolve();
		},
	};
}

it('keeps what was added across instances over the same store, once each, until removed', async () => {
	const store = memoryStore();
	const first = new RememberedList(store, 'opened');
	await first.add('file:///cases/a.tgz');
	await first.add('file:///cases/b.tgz');
	await first.add('file:///cases/a.tgz');
	// A later start reads the same store.
	const later = new RememberedList(store, 'opened');
	assert.deepEqual(later.items, ['file:///cases/a.tgz', 'file:///cases/b.tgz']);
	await later.remove('file:///cases/a.tgz');
	assert.deepEqual(new RememberedList(store, 'opened').items, ['file:///cases/b.tgz']);
});

it('reads a malformed stored value as an empty list, and its strings only', () => {
	assert.deepEqual(new RememberedList(memoryStore({ opened: 'x' }), 'opened').items, []);
	assert.deepEqual(
		new RememberedList(memoryStore({ opened: ['file:///a.tgz', 3, null] }), 'opened').items,
		['file:///a.tgz'],
	);
});
