// The pages of a list, following `continue` tokens, each next page asked for before the current one is read.
import { isRecord } from '../core/model/object.ts';
import {
	apiVersionOf,
	collectionPathOf,
	displayNameOf,
	type WatchedResource,
} from './discovery.ts';
import { getJson, RequestFailure, type ClientSettings } from './requests.ts';
import { trimInPlace } from './store.ts';

/**
 * One page of a list: its items (apiVersion and kind filled in, trimmed in place as the cache keeps them) and the
 * list's resourceVersion.
 */
export interface ListPage {
	readonly items: Record<string, unknown>[];
	readonly resourceVersion: string | undefined;
}

/**
 * The `continue` token of a list from the start of its JSON, or 'unknown' when the start is too short to say.
 * kube-apiserver writes a list's metadata before its items (Go encodes struct fields in order), so the token is
 * known long before the body has arrived.
 */
export function continueTokenOfPrefix(
	prefix: string,
): { readonly known: false } | { readonly known: true; readonly token: string | undefined } {
	const itemsAt = prefix.indexOf('"items":');
	const metadata = /"metadata":\{([^{}]*)\}/.exec(prefix);
	if (!metadata || (itemsAt >= 0 && metadata.index > itemsAt)) {
		return itemsAt >= 0 ? { known: true, token: undefined } : { known: false };
	}
	const token = /"continue":"([^"\\]*)"/.exec(metadata[1] ?? '')?.[1];
	return { known: true, token: token !== undefined && token !== '' ? token : undefined };
}

// How often a page is sent again when its connection was lost under it.
const pageRetriesOnLostConnection = 2;

/**
 * One page, sent again at once (on a new connection) when the connection was lost under it: a keep-alive connection
 * the server closed while this process was busy, or a reset one. client-go's request sends a GET again on a reset
 * connection too. Other failures, and a connection lost again and again, are the caller's.
 */
async function getPage(
	client: ClientSettings,
	path: string,
	query: Readonly<Record<string, string | number | undefined>>,
	what: string,
	stop: AbortSignal,
	onBodyStart: (prefix: string) => boolean,
): Promise<unknown> {
	for (let retry = 0; ; retry++) {
		try {
			return await getJson(client, path, query, what, stop, onBodyStart);
		} catch (error) {
			const lost = error instanceof RequestFailure && error.connectionLost;
			if (!lost || stop.aborted || retry >= pageRetriesOnLostConnection) throw error;
		}
	}
}

interface PageRequest {
	readonly continueToken: string | undefined;
	readonly page: Promise<unknown>;
	readonly controller: AbortController;
	/** The next page, asked for as soon as this one's metadata arrived. */
	ahead?: PageRequest;
}

/**
 * The pages of a collection, following `continue`; every request bounded as `getJson` bounds it. Each next page is
 * asked for as soon as the current one's metadata has arrived, so the server prepares it while the client is still
 * reading and parsing the current one.
 */
export async function* listPages(
	client: ClientSettings,
	resource: WatchedResource,
	namespace: string | undefined,
	query: Readonly<Record<string, string | number | undefined>>,
	pageSize: number,
	stop: AbortSignal,
): AsyncGenerator<ListPage> {
	const where =
		namespace !== undefined
			? ` in namespace ${namespace}`
			: resource.namespaced
				? ' across namespaces'
				: '';
	const what = `list ${displayNameOf(resource)}${where}`;
	const apiVersion = apiVersionOf(resource);
	const path = collectionPathOf(resource, namespace);
	const open = new Set<AbortController>();
	const onStop = (): void => {
		for (const controller of open) controller.abort();
	};
	stop.addEventListener('abort', onStop, { once: true });
	const request = (continueToken: string | undefined): PageRequest => {
		const controller = new AbortController();
		open.add(controller);
		const pageRequest: PageRequest = {
			continueToken,
			controller,
			page: getPage(
				client,
				path,
				{ limit: pageSize, ...query, continue: continueToken },
				what,
				controller.signal,
				(prefix) => {
					const next = continueTokenOfPrefix(prefix);
					if (!next.known) return false;
					// A page sent again (its connection was lost) has asked for the next one already.
					if (next.token !== undefined && !stop.aborted && !pageRequest.ahead) {
						pageRequest.ahead = request(next.token);
					}
					return true;
				},
			),
		};
		// Awaited below; this only keeps a page nobody reads (an early stop) from being an unhandled rejection.
		pageRequest.page.catch(() => undefined);
		return pageRequest;
	};
	try {
		let current: PageRequest | undefined = request(undefined);
		while (current) {
			const page: unknown = await current.page;
			open.delete(current.controller);
			if (!isRecord(page) || !Array.isArray(page.items)) {
				throw new RequestFailure('server-error', `the answer to ${what} is not a list`);
			}
			const metadata: Record<string, unknown> = isRecord(page.metadata) ? page.metadata : {};
			const continueToken =
				typeof metadata.continue === 'string' && metadata.continue !== ''
					? metadata.continue
					: undefined;
			const ahead: PageRequest | undefined = current.ahead;
			if (ahead && ahead.continueToken !== continueToken) {
				// The early read of the metadata was wrong: ask again with the token the parsed list gives.
				ahead.controller.abort();
				open.delete(ahead.controller);
			}
			current =
				continueToken === undefined
					? undefined
					: ahead && ahead.continueToken === continueToken
						? ahead
						: request(continueToken);
			const items: Record<string, unknown>[] = [];
			// List items of built-in types come without apiVersion and kind; the graph keys objects by them.
			for (const item of page.items) {
				if (!isRecord(item)) continue;
				if (typeof item.apiVersion !== 'string') item.apiVersion = apiVersion;
				if (typeof item.kind !== 'string') item.kind = resource.kind;
				trimInPlace(item);
				items.push(item);
			}
			yield {
				items,
				resourceVersion:
					typeof metadata.resourceVersion === 'string' ? metadata.resourceVersion : undefined,
			};
		}
	} finally {
		// Pages asked for in advance that nobody will read (the caller stopped early, or a failure).
		onStop();
		stop.removeEventListener('abort', onStop);
	}
}
