// Watches: the initial state or the events since a resourceVersion (410 as an ERROR event when they are gone), then
// every matching change as it happens, bookmarks, and the end after `timeoutSeconds`, as kube-apiserver streams them.
import type { ServerResponse } from 'node:http';
import { expired } from './errors.ts';
import { isTrue } from './http.ts';
import { apiVersionOf } from './resources.ts';
import type { OpenWatch, ServerState } from './serverState.ts';
import { includeObjectOf, tableOf, tablePrinterOf, wantsTable } from './printerColumns.ts';
import type { ResourceType } from './resources.ts';
import type { KubeObject, StoredEntry, StoreEvent } from './store.ts';
import { integerParam, listQueryOf, type ResourceTarget } from './targets.ts';

/** One line of a watch stream. */
export function watchLine(type: string, json: string): string {
	return `{"type":"${type}","object":${json}}\n`;
}

/** Answers a watch request: a chunked stream that stays open until the timeout, a fault or the client ends it. */
export function serveWatch(
	state: ServerState,
	response: ServerResponse,
	target: ResourceTarget,
	params: URLSearchParams,
	accept: string | undefined,
	view?: { readonly type: ResourceType; present(object: KubeObject): KubeObject },
): void {
	const { store, watches, bookmarkIntervalMs } = state;
	const query = listQueryOf(target, params);
	const { type } = target;
	const rvParam = params.get('resourceVersion') ?? '';
	const startVersion = integerParam(params, 'resourceVersion', true) ?? 0;
	const bookmarks = isTrue(params.get('allowWatchBookmarks'));
	const sendInitial = params.get('sendInitialEvents') === 'true';
	// setTimeout takes at most 2^31 - 1 ms (about 24 days) and fires at once above it.
	const timeoutMs = Math.min((integerParam(params, 'timeoutSeconds') ?? 0) * 1000, 2 ** 31 - 1);
	response.writeHead(200, {
		'Content-Type': 'application/json',
		'Cache-Control': 'no-cache, private',
		'Transfer-Encoding': 'chunked',
	});
	response.flushHeaders();
	let closed = false;
	// `kubectl get -w` asks for Tables: each event's object is then a one-row Table.
	const printer = wantsTable(accept) ? tablePrinterOf(type) : undefined;
	const include = includeObjectOf(params);
	let tableSent = false;
	const encode = (entry: StoredEntry): string => {
		if (printer === undefined) {
			if (view !== undefined) return JSON.stringify(view.present(entry.object));
			entry.json ??= JSON.stringify(entry.object);
			return entry.json;
		}
		const metadata = { resourceVersion: String(store.resourceVersion) };
		const table = tableOf(printer, [entry], metadata, include, store.now(), !tableSent);
		tableSent = true;
		return JSON.stringify(table);
	};
	const write = (line: string): void => {
		if (!closed) response.write(line);
	};
	const bookmarkJson = (annotations?: object): string =>
		JSON.stringify({
			kind: type.kind,
			apiVersion: apiVersionOf(view?.type ?? type),
			metadata: {
				resourceVersion: String(store.resourceVersion),
				creationTimestamp: null,
				...(annotations === undefined ? {} : { annotations }),
			},
		});
	const send = (event: StoreEvent): void => {
		// A start point ahead of the store (a client that saw a newer revision elsewhere) skips up to it.
		if (event.resource !== type || event.resourceVersion <= startVersion) return;
		const now = store.matches(event.entry.object, query);
		const before = event.previous !== undefined && store.matches(event.previous, query);
		let kind: string | undefined;
		if (event.type === 'ADDED') kind = now ? 'ADDED' : undefined;
		else if (event.type === 'DELETED') kind = now || before ? 'DELETED' : undefined;
		else if (now) kind = before ? 'MODIFIED' : 'ADDED';
		else kind = before ? 'DELETED' : undefined;
		if (kind === undefined) return;
		write(watchLine(kind, encode(event.entry)));
	};
	let timer: NodeJS.Timeout | undefined;
	let timeout: NodeJS.Timeout | undefined;
	const unsubscribe = store.subscribe(send);
	const watch: OpenWatch = {
		response,
		bookmarks,
		type,
		close(mode) {
			// Unsubscribe first: a store change after the end must not write to the finished response.
			cleanup();
			if (mode === 'destroy') response.socket?.destroy();
			else response.end();
		},
		bookmark() {
			write(watchLine('BOOKMARK', bookmarkJson()));
		},
	};
	const cleanup = (): void => {
		if (closed) return;
		closed = true;
		unsubscribe();
		clearInterval(timer);
		clearTimeout(timeout);
		watches.delete(watch);
		state.watchesChanged();
	};
	response.on('close', cleanup);
	watches.add(watch);
	state.watchesChanged();
	if (rvParam === '' || rvParam === '0' || sendInitial) {
		// No starting point (or an explicit request for initial events): the current state comes first as
		// ADDED events, as kube-apiserver's watch cache sends it.
		for (const entry of store.list(type, { ...query, limit: 0 }).entries) {
			write(watchLine('ADDED', encode(entry)));
		}
		if (sendInitial && bookmarks) {
			write(watchLine('BOOKMARK', bookmarkJson({ 'k8s.io/initial-events-end': 'true' })));
		}
	} else {
		const events = store.eventsSince(startVersion);
		if (events === 'expired') {
			// kube-apiserver answers 200 and sends the 410 as an ERROR event, then ends the watch.
			const status = expired(
				`too old resource version: ${startVersion} (${store.oldestResumableVersion})`,
			).toStatus();
			write(watchLine('ERROR', JSON.stringify(status)));
			cleanup();
			response.end();
			return;
		}
		for (const event of events) send(event);
	}
	if (bookmarks && bookmarkIntervalMs > 0) {
		timer = setInterval(() => watch.bookmark(), bookmarkIntervalMs);
	}
	if (timeoutMs > 0) {
		timeout = setTimeout(() => {
			cleanup();
			response.end();
		}, timeoutMs);
	}
}

/** Sends a BOOKMARK now on every watch that allows them; returns how many got one. */
export function sendBookmarks(watches: ReadonlySet<OpenWatch>): number {
	let sent = 0;
	for (const watch of watches) {
		if (!watch.bookmarks) continue;
		watch.bookmark();
		sent++;
	}
	return sent;
}
