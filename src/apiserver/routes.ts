// One request from start to answer: its URL and user (401 without one), the faults that apply to it (delay, hang,
// a Status), then fault control, discovery or a resource's handler by verb; errors become Status answers, and each
// request is logged in one line.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, forbiddenError, type User } from './auth.ts';
import { serveDiscovery } from './discoveryEndpoints.ts';
import { ApiError, badRequest, failureStatus } from './errors.ts';
import { serveFaultControl } from './faultControl.ts';
import { isCrdType, serveCrds } from './customResourceDefinitions.ts';
import { isEventsApiType, serveEventsApi } from './eventViews.ts';
import { faultStatus, type Fault, type FaultRequest } from './faults.ts';
import { acceptsJson, isTrue, notFoundPath, requestUrl, sendStatus } from './http.ts';
import { serveGet, serveList } from './reads.ts';
import type { ServerState } from './serverState.ts';
import { resourceTargetOf, verbOf, type ResourceTarget } from './targets.ts';
import { serveWatch, watchLine } from './watches.ts';
import {
	serveCreate,
	serveDelete,
	serveDeleteCollection,
	servePatch,
	serveUpdate,
} from './writes.ts';
import { errorText } from '../core/text/errorText.ts';

/** Answers a request. */
export async function handleRequest(
	state: ServerState,
	request: IncomingMessage,
	response: ServerResponse,
): Promise<void> {
	const { faults, hung, log } = state;
	const started = performance.now();
	const url = requestUrl(request);
	const method = request.method ?? 'GET';
	let code = 200;
	let user: User | undefined;
	try {
		let segments: string[];
		try {
			segments = url.pathname
				.split('/')
				.filter((segment) => segment !== '')
				.map(decodeURIComponent);
		} catch {
			throw badRequest(`invalid path: ${url.pathname}`);
		}
		user = authenticate(state.users, request);
		if (user === undefined) {
			throw new ApiError(401, 'Unauthorized', 'Unauthorized');
		}
		if (segments[0] === '_faults') {
			if (user !== state.users.admin) {
				throw new ApiError(403, 'Forbidden', 'only the admin token may control faults');
			}
			await serveFaultControl(state, request, response, segments);
			return;
		}
		const faultRequest: FaultRequest = {
			method,
			path: url.pathname,
			query: url.search,
			watch: isTrue(url.searchParams.get('watch')),
			user: user.name,
		};
		const decision = faults.decide(faultRequest);
		if (decision.delayMs > 0) {
			await new Promise((resolve) => setTimeout(resolve, decision.delayMs));
		}
		const fault = decision.answer;
		if (fault?.kind === 'hang') {
			hung.add(response);
			response.on('close', () => hung.delete(response));
			code = 0;
			return;
		}
		if (fault?.kind === 'status') {
			const status = faultStatus(fault);
			code = fault.code;
			if (fault.inWatch === true && faultRequest.watch) {
				response.writeHead(200, {
					'Content-Type': 'application/json',
					'Transfer-Encoding': 'chunked',
				});
				response.end(watchLine('ERROR', JSON.stringify(status)));
				return;
			}
			sendStatus(
				response,
				status,
				fault.retryAfterSeconds === undefined
					? {}
					: { 'Retry-After': String(fault.retryAfterSeconds) },
			);
			return;
		}
		if (
			method === 'GET' &&
			serveDiscovery(state.served(), segments, request.headers.accept, response, state.port())
		) {
			return;
		}
		const target = resourceTargetOf(state.served(), segments);
		// No OpenAPI documents are served (404): kubectl then goes without validation schemas and uses
		// JSON merge patch for custom resources, as against any server without them.
		if (target === undefined) throw notFoundPath();
		if (!acceptsJson(request.headers.accept)) {
			throw new ApiError(
				406,
				'NotAcceptable',
				'only the following media types are accepted: application/json',
			);
		}
		code = await serveResource(state, request, response, user, target, url.searchParams, fault);
	} catch (error) {
		// Whatever a handler throws (a string or undefined included), the client gets a Status.
		const status =
			error instanceof ApiError
				? error.toStatus()
				: failureStatus(500, 'InternalError', `Internal error occurred: ${errorText(error)}`);
		code = status.code;
		if (!response.headersSent) sendStatus(response, status);
		else response.end();
	} finally {
		log?.(
			`${method} ${url.pathname}${url.search} ${code === 0 ? 'hung' : code} ${Math.round(performance.now() - started)}ms ${user?.name ?? '-'}`,
		);
	}
}

/** Answers a request for a resource, after the checks of its subresource and of the user's rules. */
async function serveResource(
	state: ServerState,
	request: IncomingMessage,
	response: ServerResponse,
	user: User,
	target: ResourceTarget,
	params: URLSearchParams,
	fault: Fault | undefined,
): Promise<number> {
	const method = request.method ?? 'GET';
	const verb = verbOf(method, target, params);
	if (target.subresource !== undefined) {
		if (target.subresource !== 'status' || !target.type.statusSubresource) throw notFoundPath();
		if (verb !== 'get' && verb !== 'update' && verb !== 'patch') {
			throw new ApiError(
				405,
				'MethodNotAllowed',
				'the server does not allow this method on the requested resource',
			);
		}
	}
	const forbidden = forbiddenError(user, verb, target);
	if (forbidden) throw forbidden;
	if (isEventsApiType(target.type)) {
		return serveEventsApi(state, request, response, target, params, verb);
	}
	if (isCrdType(target.type)) {
		return serveCrds(state.store, state.served(), state.started, response, target, verb);
	}
	const store = state.store;
	switch (verb) {
		case 'get':
			return serveGet(store, response, target, request.headers.accept, params);
		case 'list':
			return serveList(store, response, target, params, fault, request.headers.accept);
		case 'watch':
			serveWatch(state, response, target, params, request.headers.accept);
			return 200;
		case 'create':
			return serveCreate(store, request, response, target, params);
		case 'update':
			return serveUpdate(store, request, response, target, params);
		case 'patch':
			return servePatch(store, request, response, target, params);
		case 'delete':
			return serveDelete(store, request, response, target, params);
		case 'deletecollection':
			return serveDeleteCollection(store, response, target, params);
	}
}
