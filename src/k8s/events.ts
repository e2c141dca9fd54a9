// What a session tells its listeners, and the emitter that keeps one listener's bug from reaching the others.
import type { StoredObject } from './store.ts';

/** A change in the cache. `resync` carries the whole content of a resource after a (re)list. */
export type ObjectEvent =
	| {
			readonly type: 'upsert';
			readonly resource: string;
			readonly key: string;
			readonly object: StoredObject;
	  }
	| { readonly type: 'remove'; readonly resource: string; readonly key: string }
	| {
			readonly type: 'resync';
			readonly resource: string;
			readonly objects: readonly StoredObject[];
	  };

/** Something to call to stop listening. */
export interface Disposable {
	dispose(): void;
}

/** Listeners of one kind of event; a listener that throws is logged, and the others still hear the event. */
export function emitter<T>(log: (message: string) => void): {
	on(listener: (event: T) => void): Disposable;
	fire(event: T): void;
	clear(): void;
} {
	const listeners = new Set<(event: T) => void>();
	return {
		on(listener) {
			listeners.add(listener);
			return { dispose: () => listeners.delete(listener) };
		},
		fire(event) {
			for (const listener of listeners) {
				try {
					listener(event);
				} catch (error) {
					// A listener's bug must not stop the watch that feeds every other listener.
					log(
						`a session listener threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
					);
				}
			}
		},
		clear() {
			listeners.clear();
		},
	};
}
