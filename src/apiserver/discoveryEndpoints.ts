// The documents kubectl and client-go discover a server by: /version, the health checks, /api and /apis (legacy or
// aggregated, as the Accept header asks), and each group's and group version's document.
import type { ServerResponse } from 'node:http';
import {
	aggregatedDiscovery,
	aggregatedDiscoveryContentType,
	apiGroupDocument,
	apiGroupList,
	apiResourceList,
	apiVersions,
	versionInfo,
	wantsAggregatedDiscovery,
} from './discovery.ts';
import { notFoundPath, sendJson } from './http.ts';
import type { ResourceType } from './resources.ts';

/** Answers a discovery path; false when the path is not one (404 for a group or version not served). */
export function serveDiscovery(
	served: readonly ResourceType[],
	segments: readonly string[],
	accept: string | undefined,
	response: ServerResponse,
	port: number,
): boolean {
	const path = segments.join('/');
	if (path === 'version') {
		sendJson(response, 200, versionInfo());
		return true;
	}
	if (path === 'healthz' || path === 'livez' || path === 'readyz') {
		sendJson(response, 200, 'ok', 'text/plain; charset=utf-8');
		return true;
	}
	if (path === 'api' || path === 'apis') {
		if (wantsAggregatedDiscovery(accept)) {
			sendJson(
				response,
				200,
				aggregatedDiscovery(served, path === 'api'),
				aggregatedDiscoveryContentType,
			);
		} else {
			sendJson(
				response,
				200,
				path === 'api' ? apiVersions(`127.0.0.1:${port}`) : apiGroupList(served),
			);
		}
		return true;
	}
	let document: object | undefined;
	if (segments[0] === 'api' && segments.length === 2) {
		document = apiResourceList(served, '', segments[1] ?? '');
	} else if (segments[0] === 'apis' && segments.length === 2) {
		document = apiGroupDocument(served, segments[1] ?? '');
	} else if (segments[0] === 'apis' && segments.length === 3) {
		document = apiResourceList(served, segments[1] ?? '', segments[2] ?? '');
	} else return false;
	if (document === undefined) throw notFoundPath();
	sendJson(response, 200, document);
	return true;
}
