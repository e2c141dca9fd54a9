// Kubernetes answers every failure with a `Status` object whose `code` is the HTTP status and whose `reason` says
// which kind of failure it is; clients (client-go's `errors.IsNotFound`, client-node's `ApiException`) branch on
// both. The messages follow kube-apiserver's wording, because users see them verbatim in kubectl.

import type { ResourceType } from './resources.ts';

/** The `reason` values of `metav1.StatusReason` the server uses. */
export type StatusReason =
	| 'NotFound'
	| 'AlreadyExists'
	| 'Conflict'
	| 'Forbidden'
	| 'Unauthorized'
	| 'Expired'
	| 'Gone'
	| 'BadRequest'
	| 'Invalid'
	| 'MethodNotAllowed'
	| 'NotAcceptable'
	| 'UnsupportedMediaType'
	| 'RequestEntityTooLarge'
	| 'TooManyRequests'
	| 'ServiceUnavailable'
	| 'Timeout'
	| 'InternalError';

/** `metav1.StatusDetails`: which object the failure is about. */
export interface StatusDetails {
	readonly name?: string;
	readonly group?: string;
	readonly kind?: string;
	readonly uid?: string;
	readonly causes?: readonly {
		readonly reason?: string;
		readonly message: string;
		readonly field?: string;
	}[];
	readonly retryAfterSeconds?: number;
}

/** A `Status` object as the wire carries it. */
export interface StatusObject {
	readonly kind: 'Status';
	readonly apiVersion: 'v1';
	readonly metadata: Record<string, never>;
	readonly status: 'Failure' | 'Success';
	readonly message: string;
	readonly reason?: StatusReason;
	readonly details?: StatusDetails;
	readonly code: number;
}

/** A failure that the request handler turns into a `Status` response. */
export class ApiError extends Error {
	readonly code: number;
	readonly reason: StatusReason;
	readonly details: StatusDetails | undefined;

	constructor(code: number, reason: StatusReason, message: string, details?: StatusDetails) {
		super(message);
		this.name = 'ApiError';
		this.code = code;
		this.reason = reason;
		this.details = details;
	}

	/** The `Status` object this failure is sent as. */
	toStatus(): StatusObject {
		return failureStatus(this.code, this.reason, this.message, this.details);
	}
}

/** A failure `Status` object. */
export function failureStatus(
	code: number,
	reason: StatusReason,
	message: string,
	details?: StatusDetails,
): StatusObject {
	return {
		kind: 'Status',
		apiVersion: 'v1',
		metadata: {},
		status: 'Failure',
		message,
		reason,
		...(details === undefined ? {} : { details }),
		code,
	};
}

/** The reason kube-apiserver gives for an HTTP status code when nothing more specific is known. */
export function reasonForCode(code: number): StatusReason {
	switch (code) {
		case 400:
			return 'BadRequest';
		case 401:
			return 'Unauthorized';
		case 403:
			return 'Forbidden';
		case 404:
			return 'NotFound';
		case 405:
			return 'MethodNotAllowed';
		case 406:
			return 'NotAcceptable';
		case 409:
			return 'Conflict';
		case 410:
			return 'Expired';
		case 413:
			return 'RequestEntityTooLarge';
		case 415:
			return 'UnsupportedMediaType';
		case 422:
			return 'Invalid';
		case 429:
			return 'TooManyRequests';
		case 503:
			return 'ServiceUnavailable';
		case 504:
			return 'Timeout';
		default:
			return 'InternalError';
	}
}

/** `gitrepos.fleet.cattle.io` or, for the core group, `configmaps`: how messages name a resource. */
export function qualifiedResource(type: ResourceType): string {
	return type.group === '' ? type.plural : `${type.plural}.${type.group}`;
}

function objectDetails(type: ResourceType, name: string): StatusDetails {
	return { name, group: type.group, kind: type.plural };
}

/** 404 for a named object. */
export function notFound(type: ResourceType, name: string): ApiError {
	return new ApiError(
		404,
		'NotFound',
		`${qualifiedResource(type)} "${name}" not found`,
		objectDetails(type, name),
	);
}

/** 409 AlreadyExists for a create of a taken name. */
export function alreadyExists(type: ResourceType, name: string): ApiError {
	return new ApiError(
		409,
		'AlreadyExists',
		`${qualifiedResource(type)} "${name}" already exists`,
		objectDetails(type, name),
	);
}

/** 409 Conflict for a stale resourceVersion or a failed precondition. */
export function conflict(type: ResourceType, name: string, why: string): ApiError {
	return new ApiError(
		409,
		'Conflict',
		`Operation cannot be fulfilled on ${qualifiedResource(type)} "${name}": ${why}`,
		objectDetails(type, name),
	);
}

/** The reason a stale resourceVersion gives, as kube-apiserver words it. */
export const staleObjectMessage =
	'the object has been modified; please apply your changes to the latest version and try again';

/** 422 Invalid with one field cause. */
export function invalid(
	type: ResourceType,
	name: string,
	field: string,
	message: string,
): ApiError {
	return new ApiError(
		422,
		'Invalid',
		`${type.kind}${type.group === '' ? '' : `.${type.group}`} "${name}" is invalid: ${field}: ${message}`,
		{
			...objectDetails(type, name),
			kind: type.kind,
			causes: [{ reason: 'FieldValueInvalid', message, field }],
		},
	);
}

/** 400 BadRequest. */
export function badRequest(message: string): ApiError {
	return new ApiError(400, 'BadRequest', message);
}

/** 410 Expired, as a watch or a list continuation from a compacted resourceVersion gets it. */
export function expired(message: string): ApiError {
	return new ApiError(410, 'Expired', message);
}
