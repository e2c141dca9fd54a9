// What the request handlers of a running server share.
import type { ServerResponse } from 'node:http';
import type { Users } from './auth.ts';
import type { DropMode, Faults } from './faults.ts';
import type { ResourceType } from './resources.ts';
import type { ObjectStore } from './store.ts';

/** A watch being answered: ended by a fault or by the server closing, sent a bookmark when asked. */
export interface OpenWatch {
	readonly response: ServerResponse;
	readonly bookmarks: boolean;
	readonly type: ResourceType;
	close(mode: DropMode): void;
	bookmark(): void;
}

/** A running server's state, as its handlers read and change it. */
export interface ServerState {
	readonly store: ObjectStore;
	readonly faults: Faults;
	readonly users: Users;
	/** The resource types discovery lists and requests reach now. */
	served(): readonly ResourceType[];
	/** The port listened on, for discovery documents. */
	port(): number;
	readonly watches: Set<OpenWatch>;
	/** Called after a watch is added to or deleted from `watches`. */
	watchesChanged(): void;
	/** Requests a `hang` fault holds until the client goes away or the server closes. */
	readonly hung: Set<ServerResponse>;
	/** How often watches that allow bookmarks get one; 0 for never. */
	readonly bookmarkIntervalMs: number;
	readonly log: ((line: string) => void) | undefined;
	/** When the server started (RFC 3339): the creation time of what it has from the start, its CRDs. */
	readonly started: string;
}
