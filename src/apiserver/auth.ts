// Who is asking and what they may not do: the admin's bearer token, other users by token or by the CN of a client
// certificate signed by the server's CA, and each user's forbidden rules, answered with kube-apiserver's 403.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { ApiError, qualifiedResource } from './errors.ts';
import type { ResourceTarget, Verb } from './targets.ts';

/** A request a user may not make: every given field must match (absent fields match anything). */
export interface ForbiddenRule {
	readonly verbs?: readonly Verb[];
	/** API group ('' for core). */
	readonly group?: string;
	/** Plural resource name; `gitrepos/status` for the subresource. */
	readonly resource?: string;
	/** Only in this namespace; '' means only requests at the cluster scope (lists across all namespaces). */
	readonly namespace?: string;
}

/** A user besides the admin: authenticated by token or by a client certificate whose CN is `name`. */
export interface ApiUser {
	readonly name: string;
	readonly token?: string;
	/** Requests that get 403 Forbidden. */
	readonly forbidden?: readonly ForbiddenRule[];
}

/** An authenticated user and the rules that forbid requests to them. */
export interface User {
	readonly name: string;
	readonly forbidden: readonly ForbiddenRule[];
}

/** The users a server knows: the admin (who alone may control faults), by token and by certificate name. */
export interface Users {
	readonly admin: User;
	readonly byToken: ReadonlyMap<string, User>;
	readonly byName: ReadonlyMap<string, User>;
}

/** The admin, with `token`, and the given users. */
export function usersOf(token: string, users: readonly ApiUser[]): Users {
	const admin: User = { name: 'admin', forbidden: [] };
	const byToken = new Map<string, User>([[token, admin]]);
	const byName = new Map<string, User>([['admin', admin]]);
	for (const user of users) {
		const entry: User = { name: user.name, forbidden: user.forbidden ?? [] };
		if (user.token !== undefined) byToken.set(user.token, entry);
		byName.set(user.name, entry);
	}
	return { admin, byToken, byName };
}

/** The user a request comes from (bearer token first, then client certificate), or undefined for 401. */
export function authenticate(users: Users, request: IncomingMessage): User | undefined {
	const header = request.headers.authorization;
	if (header !== undefined) {
		const match = /^Bearer\s+(.+)$/i.exec(header.trim());
		return match === null ? undefined : users.byToken.get(match[1] ?? '');
	}
	const socket = request.socket as TLSSocket;
	if (socket.authorized) {
		const cn = socket.getPeerCertificate().subject?.CN;
		const name = Array.isArray(cn) ? cn[0] : cn;
		if (name !== undefined) return users.byName.get(name) ?? { name, forbidden: [] };
	}
	return undefined;
}

function forbiddenMessage(user: string, verb: Verb, target: ResourceTarget): string {
	const resource =
		target.subresource === undefined
			? target.type.plural
			: `${target.type.plural}/${target.subresource}`;
	const subject =
		target.name === undefined
			? qualifiedResource(target.type)
			: `${qualifiedResource(target.type)} "${target.name}"`;
	const scope =
		target.type.namespaced && target.namespace !== undefined
			? `in the namespace "${target.namespace}"`
			: 'at the cluster scope';
	return `${subject} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "${target.type.group}" ${scope}`;
}

function isForbidden(user: User, verb: Verb, target: ResourceTarget): boolean {
	const resource =
		target.subresource === undefined
			? target.type.plural
			: `${target.type.plural}/${target.subresource}`;
	const namespace = target.type.namespaced ? (target.namespace ?? '') : '';
	return user.forbidden.some(
		(rule) =>
			(rule.verbs === undefined || rule.verbs.includes(verb)) &&
			(rule.group === undefined || rule.group === target.type.group) &&
			(rule.resource === undefined || rule.resource === resource) &&
			(rule.namespace === undefined || rule.namespace === namespace),
	);
}

/** The 403 for a request one of the user's rules forbids, as kube-apiserver words it; undefined when allowed. */
export function forbiddenError(
	user: User,
	verb: Verb,
	target: ResourceTarget,
): ApiError | undefined {
	if (!isForbidden(user, verb, target)) return undefined;
	return new ApiError(403, 'Forbidden', forbiddenMessage(user.name, verb, target), {
		...(target.name === undefined ? {} : { name: target.name }),
		group: target.type.group,
		kind: target.type.plural,
	});
}
