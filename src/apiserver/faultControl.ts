// /_faults, the admin's control of the server's faults: list, add, remove and clear them, and drop watches, expire
// the watch history or send bookmarks now.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, badRequest } from './errors.ts';
import { faultFromJson, type DropMode } from './faults.ts';
import { notFoundPath, parseJsonBody, readBody, sendJson } from './http.ts';
import { isJsonObject } from './patch.ts';
import type { ServerState } from './serverState.ts';
import { sendBookmarks } from './watches.ts';

/** Answers a request to `/_faults` or `/_faults/<action or id>`. */
export async function serveFaultControl(
	state: ServerState,
	request: IncomingMessage,
	response: ServerResponse,
	segments: readonly string[],
): Promise<void> {
	const { faults, watches, store } = state;
	const method = request.method ?? 'GET';
	const action = segments[1];
	if (method === 'GET' && action === undefined) {
		sendJson(response, 200, {
			faults: faults.list(),
			openWatches: watches.size,
			resourceVersion: store.resourceVersion,
		});
	} else if (method === 'POST' && action === undefined) {
		const parsed = faultFromJson(parseJsonBody(await readBody(request)));
		if (typeof parsed === 'string') throw badRequest(parsed);
		sendJson(response, 201, { id: faults.add(parsed.fault, parsed.match).id });
	} else if (method === 'POST' && action === 'drop-watches') {
		const text = await readBody(request);
		const body = text.trim() === '' ? {} : parseJsonBody(text);
		const mode: DropMode = isJsonObject(body) && body.mode === 'end' ? 'end' : 'destroy';
		sendJson(response, 200, { dropped: faults.dropWatches(mode) });
	} else if (method === 'POST' && action === 'expire-history') {
		sendJson(response, 200, { resourceVersion: faults.expireHistory() });
	} else if (method === 'POST' && action === 'bookmarks') {
		sendJson(response, 200, { sent: sendBookmarks(watches) });
	} else if (method === 'DELETE' && action === undefined) {
		faults.clear();
		sendJson(response, 200, { faults: [] });
	} else if (method === 'DELETE' && action !== undefined) {
		if (!faults.remove(action)) throw notFoundPath();
		sendJson(response, 200, { removed: action });
	} else {
		throw new ApiError(405, 'MethodNotAllowed', 'use GET, POST or DELETE on /_faults');
	}
}
