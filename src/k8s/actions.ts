// Cluster actions behind the extension's commands (issue 5, "In VS Code"): read one live object or its events,
// and the few mutations a user may ask for: Flux reconcile, suspend and resume; Fleet force update, pause and
// unpause. Each is one or a few requests through client-node, bounded as a session's requests are (the same
// `authenticate`, exec plugins under `kubeConfigFor`'s timeout, the same classification of network failures), and
// never throws: the answer is `{ ok: true, ... }` or a failure whose message is plain words for a user.
//
// Secrets are never read: asking for one is refused before any request is made.
import { HttpMethod, type KubeConfig } from '@kubernetes/client-node';
import { parseJsonKeepingIntegers } from '../core/model/int64.ts';
import { getPath, groupOf, isRecord } from '../core/model/object.ts';
import { fluxReconcilePatch, fluxSuspendPatch } from '../core/actions/liveActions.ts';
import { isFluxGroup } from '../core/status/flux.ts';
import { kubeConfigFor, type MergedKubeconfig } from './kubeconfig.ts';
import {
	defaultMaxResponseBytes,
	defaultMaxWatchEventBytes,
	defaultRequestDeadlineMs,
	dropConnections,
	failureOf,
	sendRequest,
	type Answer,
	type ClientSettings,
} from './requests.ts';

// ---------------------------------------------------------------------------------------------------------------
// Public types

/** The object an action is about. */
export interface ObjectRef {
	readonly apiVersion: string;
	readonly kind: string;
	readonly name: string;
	/** Absent (or '') for a cluster-scoped object. */
	readonly namespace?: string;
	/** The plural resource name (as in a session's resource id); looked up through discovery when absent. */
	readonly plural?: string;
	/** When known, events are matched by it. */
	readonly uid?: string;
}

/** How long requests may take; the defaults are a session's. */
export interface ActionOptions {
	/** Bound on every request until its answer starts, and on silence while its body arrives. Default 10 s. */
	readonly requestTimeoutMs?: number;
	/** Bound on an exec credential plugin. Default 10 s. */
	readonly execTimeoutMs?: number;
	/** Bound on the bytes of one answer. Default 256 MiB. */
	readonly maxResponseBytes?: number;
	/** Extra environment for exec plugins. */
	readonly execEnv?: Readonly<Record<string, string>>;
}

/** Why an action failed. */
export type ActionFailureKind =
	'forbidden' | 'not-found' | 'conflict' | 'cannot-reach' | 'login-required' | 'error';

/** A failed action, with a message for a user. */
export interface ActionFailure {
	readonly ok: false;
	readonly kind: ActionFailureKind;
	readonly message: string;
}

/** What an action answers: its result, or why it failed. */
export type ActionResult<T extends object> = ({ readonly ok: true } & T) | ActionFailure;

/** A live object (without metadata.managedFields). */
export type LiveObject = Record<string, unknown>;

/** Whether an object is managed from Git, and by which tool, with a sentence for a warning. */
export type GitManagement =
	| { readonly managed: false }
	| {
			readonly managed: true;
			readonly tool: 'Flux' | 'Fleet' | 'Argo CD';
			/** E.g. "Flux manages this object from Git (Kustomization flux-system/apps): ...". */
			readonly message: string;
	  };

/** The annotation that asks a Flux controller to reconcile now (Flux HelmRepository spec, "Triggering a reconcile"). */
export const fluxReconcileAnnotation = 'reconcile.fluxcd.io/requestedAt';

/**
 * The field manager of Flux patches, as the kubectl commands of the Flux HelmRepository spec name it ("Suspending
 * and resuming").
 */
export const fluxFieldManager = 'flux-client-side-apply';

/** The field manager of the extension's own patches (Fleet). */
export const fieldManager = 'kube-status-lens';

const defaultTimeoutMs = 10_000;

// ---------------------------------------------------------------------------------------------------------------
// Helpers

function failure(kind: ActionFailureKind, message: string): ActionFailure {
	return { ok: false, kind, message };
}

function isSecretRef(ref: ObjectRef): boolean {
	return ref.kind === 'Secret' && ref.apiVersion === 'v1';
}

function refusedSecret(ref: ObjectRef): ActionFailure {
	return failure(
		'error',
		`Secret ${ref.name} is not read: Kube Status Lens never reads the data of Secrets.`,
	);
}

function namespaceOf(ref: ObjectRef): string | undefined {
	return ref.namespace !== undefined && ref.namespace !== '' ? ref.namespace : undefined;
}

function withoutManagedFields(object: LiveObject): LiveObject {
	const metadata = object.metadata;
	if (!isRecord(metadata) || !('managedFields' in metadata)) return object;
	const { managedFields: _managedFields, ...rest } = metadata;
	return { ...object, metadata: rest };
}

/** The apiVersion's URL base: /api/v1 or /apis/group/version. */
function apiBase(apiVersion: string): string {
	return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Requests

/** One request, bounded as a session's are (see sendRequest). */
function send(
	client: ClientSettings,
	method: HttpMethod,
	path: string,
	query: Readonly<Record<string, string | undefined>>,
	body?: { readonly contentType: string; readonly text: string },
): Promise<Answer> {
	return sendRequest(client, method, path, query, body ? { body } : {});
}

/** What a request was, for messages: "patch gitrepos.fleet.cattle.io in fleet-default". */
interface Asked {
	readonly verb: string;
	readonly resource: string;
	readonly namespace: string | undefined;
	readonly ref?: ObjectRef;
}

function askedText(asked: Asked): string {
	return `${asked.verb} ${asked.resource}${asked.namespace !== undefined ? ` in ${asked.namespace}` : ''}`;
}

function statusOf(text: string): { message?: string; details?: Record<string, unknown> } {
	try {
		const parsed: unknown = JSON.parse(text);
		if (!isRecord(parsed)) return {};
		return {
			...(typeof parsed.message === 'string' && parsed.message !== ''
				? { message: parsed.message }
				: {}),
			...(isRecord(parsed.details) ? { details: parsed.details } : {}),
		};
	} catch {
		return {};
	}
}

/** A failure in plain words for an HTTP status other than 2xx. */
function failureOfAnswer(answer: Answer, asked: Asked): ActionFailure {
	const status = statusOf(answer.text);
	const ref = asked.ref;
	const where = asked.namespace !== undefined ? ` in ${asked.namespace}` : '';
	switch (answer.status) {
		case 401:
			return failure(
				'login-required',
				'The cluster did not accept the credentials; log in again (401 Unauthorized).',
			);
		case 403:
			return failure('forbidden', `You may not ${askedText(asked)} (403 Forbidden)`);
		case 404:
			// A Status naming the object: the object is missing; otherwise the resource itself is not served.
			return ref && typeof status.details?.name === 'string'
				? failure('not-found', `${ref.kind} ${ref.name} was not found${where} (404 Not Found)`)
				: failure(
						'not-found',
						`The cluster does not serve ${asked.resource}: is it installed? (404 Not Found)`,
					);
		case 409:
			return failure(
				'conflict',
				`${ref ? `${ref.kind} ${ref.name}` : 'The object'} changed on the cluster meanwhile; try again (409 Conflict)`,
			);
		default:
			return failure(
				'error',
				`The cluster answered ${answer.status} to ${askedText(asked)}${status.message ? `: ${status.message}` : ''}`,
			);
	}
}

function parseObject(text: string, asked: Asked): LiveObject | ActionFailure {
	try {
		const parsed: unknown = parseJsonKeepingIntegers(text);
		if (isRecord(parsed)) return parsed;
	} catch {
		// Reported below.
	}
	return failure('error', `The cluster's answer to ${askedText(asked)} is not an object.`);
}

function isFailure(value: unknown): value is ActionFailure {
	return isRecord(value) && value.ok === false;
}

/** A client for one action: a fresh KubeConfig (exec plugins under a timeout), as a session makes one. */
function clientFor(
	merged: MergedKubeconfig,
	context: string,
	options: ActionOptions,
): ClientSettings | ActionFailure {
	const execTimeoutMs = options.execTimeoutMs ?? defaultTimeoutMs;
	const made = kubeConfigFor(merged, context, {
		timeoutMs: execTimeoutMs,
		...(options.execEnv ? { env: options.execEnv } : {}),
	});
	if (made.kind === 'invalid') {
		return failure('error', `The kubeconfig cannot be used: ${made.message}`);
	}
	const kubeConfig: KubeConfig = made.kubeConfig;
	return {
		kubeConfig,
		server: kubeConfig.getCurrentCluster()?.server ?? '',
		requestTimeoutMs: options.requestTimeoutMs ?? defaultTimeoutMs,
		requestDeadlineMs: defaultRequestDeadlineMs,
		maxResponseBytes: options.maxResponseBytes ?? defaultMaxResponseBytes,
		maxWatchEventBytes: defaultMaxWatchEventBytes,
		execTimeoutMs,
		tlsVersion: made.tlsVersion,
		connections: { dispatcher: undefined, version: 0, createdAt: 0 },
	};
}

/** Runs an action with a client, turning every exception into a failure and closing the connections after. */
async function withClient<T extends object>(
	merged: MergedKubeconfig,
	context: string,
	options: ActionOptions,
	action: (client: ClientSettings) => Promise<ActionResult<T>>,
): Promise<ActionResult<T>> {
	let client: ClientSettings | ActionFailure;
	try {
		client = clientFor(merged, context, options);
	} catch (error) {
		return failure('error', `The kubeconfig cannot be used: ${(error as Error).message}`);
	}
	if (isFailure(client)) return client;
	try {
		return await action(client);
	} catch (error) {
		const failed = failureOf(error, client.server, client.requestTimeoutMs);
		switch (failed.kind) {
			case 'cannot-reach':
			case 'login-required':
				return failure(failed.kind, capitalized(failed.message));
			default:
				return failure('error', capitalized(failed.message));
		}
	} finally {
		dropConnections(client, true);
	}
}

function capitalized(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

interface Resolved {
	readonly plural: string;
	/** "gitrepos.fleet.cattle.io", "events". */
	readonly resource: string;
	/** The object's URL path. */
	readonly path: string;
}

/** The object's plural (from the ref, else from discovery of its group version) and URL path. */
async function resolve(client: ClientSettings, ref: ObjectRef): Promise<Resolved | ActionFailure> {
	const group = groupOf(ref.apiVersion);
	let plural = ref.plural;
	if (plural === undefined || plural === '') {
		const asked: Asked = {
			verb: 'discover',
			resource: ref.apiVersion,
			namespace: undefined,
		};
		const answer = await send(client, HttpMethod.GET, apiBase(ref.apiVersion), {});
		if (answer.status !== 200) return failureOfAnswer(answer, asked);
		const list = parseObject(answer.text, asked);
		if (isFailure(list)) return list;
		const entry = Array.isArray(list.resources)
			? list.resources.find(
					(item): item is Record<string, unknown> =>
						isRecord(item) &&
						item.kind === ref.kind &&
						typeof item.name === 'string' &&
						!item.name.includes('/'),
				)
			: undefined;
		if (!entry) {
			return failure(
				'not-found',
				`The cluster does not serve ${ref.kind} in ${ref.apiVersion}: is it installed?`,
			);
		}
		plural = entry.name as string;
	}
	const namespace = namespaceOf(ref);
	const collection =
		namespace !== undefined
			? `${apiBase(ref.apiVersion)}/namespaces/${encodeURIComponent(namespace)}/${plural}`
			: `${apiBase(ref.apiVersion)}/${plural}`;
	return {
		plural,
		resource: group === '' ? plural : `${plural}.${group}`,
		path: `${collection}/${encodeURIComponent(ref.name)}`,
	};
}

async function getLive(
	client: ClientSettings,
	ref: ObjectRef,
	resolved: Resolved,
): Promise<LiveObject | ActionFailure> {
	const asked: Asked = {
		verb: 'get',
		resource: resolved.resource,
		namespace: namespaceOf(ref),
		ref,
	};
	const answer = await send(client, HttpMethod.GET, resolved.path, {});
	if (answer.status !== 200) return failureOfAnswer(answer, asked);
	const object = parseObject(answer.text, asked);
	return isFailure(object) ? object : withoutManagedFields(object);
}

/** A JSON merge patch of one object (RFC 7386), as `kubectl patch --type=merge`. */
async function mergePatch(
	merged: MergedKubeconfig,
	context: string,
	ref: ObjectRef,
	options: ActionOptions,
	manager: string,
	patch: (client: ClientSettings, resolved: Resolved) => Promise<LiveObject | ActionFailure>,
): Promise<ActionResult<{ readonly object: LiveObject }>> {
	if (isSecretRef(ref)) return refusedSecret(ref);
	return withClient(merged, context, options, async (client) => {
		const resolved = await resolve(client, ref);
		if (isFailure(resolved)) return resolved;
		const body = await patch(client, resolved);
		if (isFailure(body)) return body;
		const asked: Asked = {
			verb: 'patch',
			resource: resolved.resource,
			namespace: namespaceOf(ref),
			ref,
		};
		const answer = await send(
			client,
			HttpMethod.PATCH,
			resolved.path,
			{ fieldManager: manager },
			{ contentType: 'application/merge-patch+json', text: JSON.stringify(body) },
		);
		if (answer.status !== 200 && answer.status !== 201) return failureOfAnswer(answer, asked);
		const object = parseObject(answer.text, asked);
		return isFailure(object) ? object : { ok: true, object: withoutManagedFields(object) };
	});
}

function requireFlux(ref: ObjectRef): ActionFailure | undefined {
	return isFluxGroup(groupOf(ref.apiVersion))
		? undefined
		: failure('error', `${ref.kind} ${ref.name} is not a Flux object.`);
}

function requireFleet(ref: ObjectRef): ActionFailure | undefined {
	return groupOf(ref.apiVersion) === 'fleet.cattle.io'
		? undefined
		: failure('error', `${ref.kind} ${ref.name} is not a Fleet object.`);
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

/** The live object, without metadata.managedFields. Secrets are refused without a request. */
export async function getObject(
	merged: MergedKubeconfig,
	context: string,
	ref: ObjectRef,
	options: ActionOptions = {},
): Promise<ActionResult<{ readonly object: LiveObject }>> {
	if (isSecretRef(ref)) return refusedSecret(ref);
	return withClient(merged, context, options, async (client) => {
		const resolved = await resolve(client, ref);
		if (isFailure(resolved)) return resolved;
		const object = await getLive(client, ref, resolved);
		if (isFailure(object)) return object;
		// A server that answers a Secret for another name is not trusted with it either.
		if (object.kind === 'Secret' && object.apiVersion === 'v1') return refusedSecret(ref);
		return { ok: true, object };
	});
}

function eventTime(event: LiveObject): number {
	for (const path of [
		['lastTimestamp'],
		['series', 'lastObservedTime'],
		['eventTime'],
		['firstTimestamp'],
		['metadata', 'creationTimestamp'],
	]) {
		const value = getPath(event, ...path);
		if (typeof value === 'string' && value !== '') {
			const time = Date.parse(value);
			if (!Number.isNaN(time)) return time;
		}
	}
	return 0;
}

// At most this many pages of events (500 each) are read.
const maxEventPages = 20;

/**
 * The core/v1 Events about an object, oldest first (by lastTimestamp, else eventTime): matched by uid when the ref
 * has one, else by kind, name and namespace. Events of a cluster-scoped object are looked for in every namespace.
 */
export async function listEvents(
	merged: MergedKubeconfig,
	context: string,
	ref: ObjectRef,
	options: ActionOptions = {},
): Promise<ActionResult<{ readonly events: readonly LiveObject[] }>> {
	return withClient(merged, context, options, async (client) => {
		const namespace = namespaceOf(ref);
		const uid = ref.uid !== undefined && ref.uid !== '' ? ref.uid : undefined;
		const selector =
			uid !== undefined
				? `involvedObject.uid=${uid}`
				: [
						`involvedObject.kind=${ref.kind}`,
						`involvedObject.name=${ref.name}`,
						...(namespace !== undefined ? [`involvedObject.namespace=${namespace}`] : []),
					].join(',');
		const path =
			namespace !== undefined
				? `/api/v1/namespaces/${encodeURIComponent(namespace)}/events`
				: '/api/v1/events';
		const asked: Asked = { verb: 'list', resource: 'events', namespace };
		const matches = (event: LiveObject): boolean => {
			const involved = event.involvedObject;
			if (!isRecord(involved)) return false;
			if (uid !== undefined) return involved.uid === uid;
			return (
				involved.kind === ref.kind &&
				involved.name === ref.name &&
				(namespace === undefined || (involved.namespace ?? '') === namespace)
			);
		};
		const events: LiveObject[] = [];
		let continueToken: string | undefined;
		for (let page = 0; page < maxEventPages; page++) {
			const answer = await send(client, HttpMethod.GET, path, {
				fieldSelector: selector,
				limit: '500',
				continue: continueToken,
			});
			if (answer.status !== 200) return failureOfAnswer(answer, asked);
			const list = parseObject(answer.text, asked);
			if (isFailure(list)) return list;
			if (Array.isArray(list.items)) {
				for (const item of list.items) {
					if (isRecord(item) && matches(item)) {
						events.push(withoutManagedFields({ apiVersion: 'v1', kind: 'Event', ...item }));
					}
				}
			}
			const next = getPath(list, 'metadata', 'continue');
			continueToken = typeof next === 'string' && next !== '' ? next : undefined;
			if (continueToken === undefined) break;
		}
		const sorted = events
			.map((event, index) => ({ event, index, time: eventTime(event) }))
			.sort((a, b) => a.time - b.time || a.index - b.index)
			.map((entry) => entry.event);
		return { ok: true, events: sorted };
	});
}

// ---------------------------------------------------------------------------------------------------------------
// Flux

/**
 * Asks a Flux controller to reconcile now: annotates `reconcile.fluxcd.io/requestedAt` with `now` (ISO 8601), with
 * Flux's field manager. Whether it is done is `reconcileProgress` (src/core/actions/liveActions.ts).
 */
export async function requestFluxReconcile(
	merged: MergedKubeconfig,
	context: string,
	ref: ObjectRef,
	now: Date,
	options: ActionOptions = {},
): Promise<ActionResult<{ readonly object: LiveObject; readonly requestedAt: string }>> {
	const notFlux = requireFlux(ref);
	if (notFlux) return notFlux;
	const requestedAt = now.toISOString();
	const result = await mergePatch(merged, context, ref, options, fluxFieldManager, () =>
		Promise.resolve(fluxReconcilePatch(requestedAt)),
	);
	return result.ok ? { ...result, requestedAt } : result;
}

/** Suspends (true) or resumes (false) a Flux object: `spec.suspend`, patched with Flux's field manager. */
export async function setFluxSuspended(
	merged: MergedKubeconfig,
	context: string,
	ref: ObjectRef,
	suspended: boolean,
	options: ActionOptions = {},
): Promise<ActionResult<{ readonly object: LiveObject }>> {
	const notFlux = requireFlux(ref);
	if (notFlux) return notFlux;
	return mergePatch(merged, context, ref, options, fluxFieldManager, () =>
		Promise.resolve(fluxSuspendPatch(suspended)),
	);
}

// ---------------------------------------------------------------------------------------------------------------
// Fleet

/**
 * Makes Fleet deploy again: `spec.forceSyncGeneration` set to its current value plus one (1 when absent). The
 * patch carries the resourceVersion read, so a change made meanwhile answers "conflict" instead of being lost.
 */
export async function fleetForceUpdate(
	merged: MergedKubeconfig,
	context: string,
	ref: ObjectRef,
	options: ActionOptions = {},
): Promise<ActionResult<{ readonly object: LiveObject; readonly forceSyncGeneration: number }>> {
	const notFleet = requireFleet(ref);
	if (notFleet) return notFleet;
	let generation = 0;
	const result = await mergePatch(
		merged,
		context,
		ref,
		options,
		fieldManager,
		async (client, resolved) => {
			const live = await getLive(client, ref, resolved);
			if (isFailure(live)) return live;
			const current = getPath(live, 'spec', 'forceSyncGeneration');
			generation =
				(typeof current === 'number' && Number.isSafeInteger(current) && current > 0
					? current
					: 0) + 1;
			const resourceVersion = getPath(live, 'metadata', 'resourceVersion');
			return {
				...(typeof resourceVersion === 'string' ? { metadata: { resourceVersion } } : {}),
				spec: { forceSyncGeneration: generation },
			};
		},
	);
	return result.ok ? { ...result, forceSyncGeneration: generation } : result;
}

/** Pauses (true) or unpauses (false) a Fleet object: `spec.paused`. */
export async function setFleetPaused(
	merged: MergedKubeconfig,
	context: string,
	ref: ObjectRef,
	paused: boolean,
	options: ActionOptions = {},
): Promise<ActionResult<{ readonly object: LiveObject }>> {
	const notFleet = requireFleet(ref);
	if (notFleet) return notFleet;
	return mergePatch(merged, context, ref, options, fieldManager, () =>
		Promise.resolve({ spec: { paused } }),
	);
}

// ---------------------------------------------------------------------------------------------------------------
// Managed from Git

function metadataValue(object: unknown, key: string): string | undefined {
	for (const field of ['labels', 'annotations']) {
		const value = getPath(object, 'metadata', field, key);
		if (typeof value === 'string' && value !== '') return value;
	}
	return undefined;
}

/**
 * Whether an object looks managed from Git by Flux (`kustomize.toolkit.fluxcd.io/name`), Fleet
 * (`objectset.rio.cattle.io/hash`) or Argo CD (`argocd.argoproj.io/instance`, or its tracking annotation
 * `argocd.argoproj.io/tracking-id`, usually with `app.kubernetes.io/instance`), with a sentence saying which tool
 * would undo a change made on the cluster.
 */
export function managedFromGit(object: unknown): GitManagement {
	const fluxName = metadataValue(object, 'kustomize.toolkit.fluxcd.io/name');
	if (fluxName !== undefined) {
		const fluxNamespace = metadataValue(object, 'kustomize.toolkit.fluxcd.io/namespace');
		const owner = fluxNamespace !== undefined ? `${fluxNamespace}/${fluxName}` : fluxName;
		return {
			managed: true,
			tool: 'Flux',
			message: `Flux manages this object from Git (Kustomization ${owner}): its next reconcile may undo a change made here unless the change is also made in Git.`,
		};
	}
	if (metadataValue(object, 'objectset.rio.cattle.io/hash') !== undefined) {
		return {
			managed: true,
			tool: 'Fleet',
			message:
				'Fleet deployed this object from Git: its next deployment may undo a change made here unless the change is also made in Git.',
		};
	}
	const argoInstance = metadataValue(object, 'argocd.argoproj.io/instance');
	const trackingId = metadataValue(object, 'argocd.argoproj.io/tracking-id');
	if (argoInstance !== undefined || trackingId !== undefined) {
		const app =
			argoInstance ??
			metadataValue(object, 'app.kubernetes.io/instance') ??
			trackingId?.split(':')[0];
		return {
			managed: true,
			tool: 'Argo CD',
			message: `Argo CD manages this object from Git${app !== undefined ? ` (Application ${app})` : ''}: its next sync may undo a change made here unless the change is also made in Git.`,
		};
	}
	return { managed: false };
}
