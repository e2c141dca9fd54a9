// The actions a user may take on a live Flux or Fleet object, as data: which objects each applies to, how its
// confirmation reads, when a reconcile or a force update is done, and the words for the result and the log. The
// requests themselves are in src/k8s/actions.ts; the waiting and the dialogs in src/vscode/live.
import { getInt, getString } from '../model/object.ts';
import { computeStatus } from '../status/registry.ts';
import type { Tone } from '../status/result.ts';
import type { ContextFlags } from '../tree/treeNode.ts';

export type LiveActionId =
	| 'flux.reconcile'
	| 'flux.suspend'
	| 'flux.resume'
	| 'fleet.forceUpdate'
	| 'fleet.pause'
	| 'fleet.unpause';

/** One action on live objects. */
export interface LiveAction {
	readonly id: LiveActionId;
	/** The verb of the confirmation's button and of the log: "Suspend". */
	readonly verb: string;
	/** What the action changes and what follows, for the confirmation. */
	readonly effect: string;
	/** Whether the tree offers it on an object with these flags (the menus' `when` clauses say the same). */
	readonly appliesTo: (flags: ContextFlags) => boolean;
}

const fleetRollouts = new Set(['GitRepo', 'HelmOp', 'Bundle']);
const fleetSources = new Set(['GitRepo', 'HelmOp']);

const unreconcilableFluxKinds = new Set(['Alert', 'Provider']);

// The Flux Operator's kinds have no spec.suspend: they stop with the annotation fluxcd.controlplane.io/reconcile:
// disabled, which `flux-operator suspend` sets. Setting spec.suspend would be refused or ignored.
const fluxOperatorKinds = new Set([
	'FluxInstance',
	'FluxReport',
	'ResourceSet',
	'ResourceSetInputProvider',
]);

const isLive = (flags: ContextFlags, system: 'flux' | 'fleet'): boolean =>
	flags.origin === 'live' && flags.system === system;

/** Every action, by id. */
export const liveActions: Readonly<Record<LiveActionId, LiveAction>> = {
	'flux.reconcile': {
		id: 'flux.reconcile',
		verb: 'Reconcile',
		effect:
			'Sets the annotation reconcile.fluxcd.io/requestedAt: Flux reconciles the object now and records the request in status.lastHandledReconcileAt.',
		// A notification Alert or Provider (v1beta3) has no status: it would never record the request, and Argo CD
		// offers no reconcile on them either.
		appliesTo: (flags) =>
			isLive(flags, 'flux') &&
			!flags.oci &&
			!flags.suspended &&
			!unreconcilableFluxKinds.has(flags.objectKind),
	},
	'flux.suspend': {
		id: 'flux.suspend',
		verb: 'Suspend',
		effect: 'Sets spec.suspend: true: Flux stops reconciling the object until it is resumed.',
		appliesTo: (flags) =>
			isLive(flags, 'flux') &&
			!flags.oci &&
			!flags.suspended &&
			!fluxOperatorKinds.has(flags.objectKind),
	},
	'flux.resume': {
		id: 'flux.resume',
		verb: 'Resume',
		effect: 'Sets spec.suspend: false: Flux reconciles the object again.',
		appliesTo: (flags) =>
			isLive(flags, 'flux') && flags.suspended && !fluxOperatorKinds.has(flags.objectKind),
	},
	'fleet.forceUpdate': {
		id: 'fleet.forceUpdate',
		verb: 'Force Update',
		effect:
			'Increments spec.forceSyncGeneration: Fleet deploys the object again to its target clusters, even without a change in Git.',
		appliesTo: (flags) => isLive(flags, 'fleet') && fleetSources.has(flags.objectKind),
	},
	'fleet.pause': {
		id: 'fleet.pause',
		verb: 'Pause',
		effect: 'Sets spec.paused: true: Fleet stops rolling out changes to the target clusters.',
		appliesTo: (flags) =>
			isLive(flags, 'fleet') && fleetRollouts.has(flags.objectKind) && !flags.paused,
	},
	'fleet.unpause': {
		id: 'fleet.unpause',
		verb: 'Unpause',
		effect: 'Sets spec.paused: false: Fleet rolls out changes to the target clusters again.',
		appliesTo: (flags) =>
			isLive(flags, 'fleet') && fleetRollouts.has(flags.objectKind) && flags.paused,
	},
};

/** The JSON merge patch a Flux reconcile sends: the annotation Flux's controllers watch, set to the request time. */
export function fluxReconcilePatch(requestedAt: string): Record<string, unknown> {
	return { metadata: { annotations: { 'reconcile.fluxcd.io/requestedAt': requestedAt } } };
}

/** The JSON merge patch a Flux suspend (true) or resume (false) sends. */
export function fluxSuspendPatch(suspended: boolean): Record<string, unknown> {
	return { spec: { suspend: suspended } };
}

/** The object an action is about, as messages name it. */
export interface ActionSubject {
	readonly kind: string;
	readonly namespace?: string;
	readonly name: string;
	readonly context: string;
}

/** "HelmRelease apps/podinfo in context platform". */
export function subjectText(subject: ActionSubject): string {
	const namespace = subject.namespace ? `${subject.namespace}/` : '';
	return `${subject.kind} ${namespace}${subject.name} in context ${subject.context}`;
}

/** The confirmation of an action: a question naming it and the object, and a button named by its verb. */
export function confirmationOf(
	action: LiveAction,
	subject: ActionSubject,
	gitWarning?: string,
): { readonly message: string; readonly detail: string; readonly button: string } {
	return {
		message: `${action.verb} ${subjectText(subject)}?`,
		detail: gitWarning ? `${action.effect}\n\n${gitWarning}` : action.effect,
		button: action.verb,
	};
}

/** Where a reconcile or a force update stands, read from the object as the cluster now serves it. */
export type ActionProgress =
	| { readonly done: false; readonly waitingFor: string }
	| {
			readonly done: true;
			/** The object's state after the controller handled the request is not a problem. */
			readonly ok: boolean;
			readonly state: string;
			readonly message: string;
			/** The object's metadata.generation when it was read: the spec the state is about. */
			readonly generation?: number;
	  };

function isProblem(tone: Tone): boolean {
	return tone === 'warning' || tone === 'error';
}

function finished(object: unknown): ActionProgress {
	const result = computeStatus(object);
	const generation = getInt(object, 'metadata', 'generation');
	return {
		done: true,
		ok: !isProblem(result.tone),
		state: result.state,
		message: result.message.split('\n', 1)[0] ?? '',
		...(generation === undefined ? {} : { generation }),
	};
}

/**
 * A Flux reconcile requested at `requestedAt` is done once `status.lastHandledReconcileAt` equals it: the
 * controller records the request there when it has reconciled (Flux's `meta.ReconcileRequestStatus`, as
 * `flux reconcile` waits for it).
 */
export function reconcileProgress(object: unknown, requestedAt: string): ActionProgress {
	const handled = getString(object, 'status', 'lastHandledReconcileAt');
	if (handled !== requestedAt) {
		return {
			done: false,
			waitingFor: `status.lastHandledReconcileAt is ${handled ?? 'not set'}, requested ${requestedAt}`,
		};
	}
	return finished(object);
}

/** What a force update asked for: the new spec.forceSyncGeneration, and the generation the patch gave the object. */
export interface ForceUpdateRequest {
	readonly forceSyncGeneration: number;
	readonly generation: number | undefined;
}

/**
 * A Fleet force update is done once the controller has taken the new spec.forceSyncGeneration: a GitRepo's
 * controller copies it into status.updateGeneration when it runs the job again (rancher/fleet gitjob controller);
 * a HelmOp's or Bundle's controller records the patched generation in status.observedGeneration.
 */
export function forceUpdateProgress(object: unknown, request: ForceUpdateRequest): ActionProgress {
	if (getString(object, 'kind') === 'GitRepo') {
		const taken = getInt(object, 'status', 'updateGeneration');
		if (taken !== request.forceSyncGeneration) {
			return {
				done: false,
				waitingFor: `status.updateGeneration is ${taken ?? 'not set'}, spec.forceSyncGeneration ${request.forceSyncGeneration}`,
			};
		}
		return finished(object);
	}
	const observed = getInt(object, 'status', 'observedGeneration');
	if (request.generation === undefined || observed === undefined || observed < request.generation) {
		return {
			done: false,
			waitingFor: `status.observedGeneration is ${observed ?? 'not set'}, metadata.generation ${request.generation ?? 'unknown'}`,
		};
	}
	return finished(object);
}

/**
 * What the user is told once the controller handled the request. It names the generation and the time (`at`, as the
 * front end words the local time) the state was read at, so a row that has moved on since does not contradict it.
 */
export function finishedText(
	action: LiveAction,
	subject: ActionSubject,
	progress: Extract<ActionProgress, { done: true }>,
	at?: string,
): string {
	const what = subjectText(subject);
	const said = progress.message ? `${progress.state}: ${progress.message}` : progress.state;
	const when = [
		...(progress.generation === undefined ? [] : [`generation ${progress.generation}`]),
		...(at === undefined ? [] : [`as of ${at}`]),
	];
	const readAt = when.length > 0 ? ` (${when.join(', ')})` : '';
	if (action.id === 'flux.reconcile') {
		return progress.ok
			? `Reconciled ${what}${readAt}: ${progress.message || progress.state}`
			: `Reconciled ${what}, and it is still failing${readAt}: ${said}`;
	}
	return progress.ok
		? `Fleet took the force update of ${what}${readAt}: ${said}`
		: `Fleet took the force update of ${what}, and it is still failing${readAt}: ${said}`;
}

/** What the user is told when the controller has not handled the request in time, and how to follow it. */
export function stillWaitingText(
	action: LiveAction,
	subject: ActionSubject,
	waitedMs: number,
	waitingFor: string,
): string {
	const what = subjectText(subject);
	const request =
		action.id === 'flux.reconcile'
			? `Flux has not handled the reconcile of ${what}`
			: `Fleet has not taken the force update of ${what}`;
	return `${request} after ${durationText(waitedMs)} (${waitingFor}). The request stays; its row in the tree follows the object, and Show Events on the row lists what the controller reports.`;
}

/** "0.4 s", "12 s", "2 min", "2 min 5 s". */
function durationText(ms: number): string {
	if (ms < 10_000) return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
	const seconds = Math.round(ms / 1000);
	if (seconds < 60) return `${seconds} s`;
	const minutes = Math.floor(seconds / 60);
	const rest = seconds % 60;
	return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** A line of the output channel for an action: what, on which object and context, the result and the time it took. */
export function actionLogLine(
	action: LiveAction,
	subject: ActionSubject,
	result: string,
	elapsedMs: number,
): string {
	return `${action.verb} ${subjectText(subject)}: ${result} (${durationText(elapsedMs)})`;
}
