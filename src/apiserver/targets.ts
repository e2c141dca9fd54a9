// Where a request goes and what it asks: the resource, namespace, name and subresource of a path, the verb of the
// method, and the list query of the parameters.
import { ApiError, badRequest } from './errors.ts';
import { isTrue } from './http.ts';
import type { ResourceType } from './resources.ts';
import { parseFieldSelector, parseLabelSelector } from './selectors.ts';
import type { ListQuery } from './store.ts';

/** The verbs of Kubernetes authorization, as RBAC names them. */
export type Verb =
	'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** Where a request goes, once its path is understood. */
export interface ResourceTarget {
	readonly type: ResourceType;
	readonly namespace: string | undefined;
	readonly name: string | undefined;
	readonly subresource: string | undefined;
}

function findType(
	served: readonly ResourceType[],
	group: string,
	version: string,
	plural: string,
): ResourceType | undefined {
	return served.find(
		(type) => type.group === group && type.version === version && type.plural === plural,
	);
}

/** The target of `/api/v1/...` and `/apis/<group>/<version>/...` paths; undefined for anything else. */
export function resourceTargetOf(
	served: readonly ResourceType[],
	segments: readonly string[],
): ResourceTarget | undefined {
	let group: string;
	let version: string;
	let rest: readonly string[];
	if (segments[0] === 'api' && segments.length >= 3) {
		group = '';
		version = segments[1] ?? '';
		rest = segments.slice(2);
	} else if (segments[0] === 'apis' && segments.length >= 4) {
		group = segments[1] ?? '';
		version = segments[2] ?? '';
		rest = segments.slice(3);
	} else {
		return undefined;
	}
	if (rest[0] === 'namespaces' && rest.length >= 3) {
		const type = findType(served, group, version, rest[2] ?? '');
		if (type?.namespaced === true && rest.length <= 5) {
			return { type, namespace: rest[1], name: rest[3], subresource: rest[4] };
		}
	}
	const type = findType(served, group, version, rest[0] ?? '');
	if (type === undefined || rest.length > 3) return undefined;
	if (type.namespaced && rest.length > 1) return undefined;
	return { type, namespace: undefined, name: rest[1], subresource: rest[2] };
}

/** The verb a method asks for on a target; 405 for a method the target does not allow. */
export function verbOf(method: string, target: ResourceTarget, params: URLSearchParams): Verb {
	const named = target.name !== undefined;
	switch (method) {
		case 'GET':
		case 'HEAD':
			return named ? 'get' : isTrue(params.get('watch')) ? 'watch' : 'list';
		case 'POST':
			if (named) break;
			return 'create';
		case 'PUT':
			if (!named) break;
			return 'update';
		case 'PATCH':
			if (!named) break;
			return 'patch';
		case 'DELETE':
			return named ? 'delete' : 'deletecollection';
	}
	throw new ApiError(
		405,
		'MethodNotAllowed',
		`the server does not allow this method on the requested resource`,
	);
}

/**
 * An integer query parameter, undefined when absent or empty; 400 for anything Go's strconv would not parse (a
 * fraction, an exponent, hex, spaces) or that is negative when `unsigned`.
 */
export function integerParam(
	params: URLSearchParams,
	name: string,
	unsigned = false,
): number | undefined {
	const text = params.get(name);
	if (text === null || text === '') return undefined;
	const parse = unsigned ? 'ParseUint' : 'ParseInt';
	const pattern = unsigned ? /^[0-9]+$/ : /^[+-]?[0-9]+$/;
	if (!pattern.test(text)) {
		throw badRequest(
			`invalid ${name}: strconv.${parse}: parsing ${JSON.stringify(text)}: invalid syntax`,
		);
	}
	const value = Number(text);
	if (!Number.isSafeInteger(value)) {
		throw badRequest(
			`invalid ${name}: strconv.${parse}: parsing ${JSON.stringify(text)}: value out of range`,
		);
	}
	return value;
}

/** The namespace, selectors, limit and continue token of a list or watch; 400 for a bad limit or resourceVersion. */
export function listQueryOf(target: ResourceTarget, params: URLSearchParams): ListQuery {
	const labelSelector = params.get('labelSelector') ?? '';
	const fieldSelector = params.get('fieldSelector') ?? '';
	const limit = integerParam(params, 'limit') ?? 0;
	if (limit < 0) throw badRequest(`invalid limit: ${limit}`);
	integerParam(params, 'resourceVersion', true);
	integerParam(params, 'timeoutSeconds');
	const continueToken = params.get('continue');
	return {
		...(target.namespace === undefined ? {} : { namespace: target.namespace }),
		...(labelSelector === '' ? {} : { labelSelector: parseLabelSelector(labelSelector) }),
		...(fieldSelector === ''
			? {}
			: { fieldSelector: parseFieldSelector(fieldSelector, target.type) }),
		...(limit > 0 ? { limit } : {}),
		...(continueToken === null || continueToken === '' ? {} : { continueToken }),
	};
}
