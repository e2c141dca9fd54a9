// A stand-in for the Flux controllers' handling of reconcile requests in the demo cluster, as fleetController.ts is
// for Fleet's status controllers. `flux reconcile` (and the extension's Reconcile command) set the annotation
// `reconcile.fluxcd.io/requestedAt`; a Flux controller then reconciles the object and records the request as
// handled in `status.lastHandledReconcileAt` (fluxcd/pkg `meta.ReconcileRequestStatus`). Here that status write
// follows shortly after, through the store's status subresource so that watches see it, and waits while the object
// is suspended, as Flux skips suspended objects.

import { recordCoreEvent, type CoreEventRecord } from './eventRecorder.ts';
import { isJsonObject, type JsonObject } from './patch.ts';
import { resourceKeyOf, type ResourceType } from './resources.ts';
import { metadataOf, type KubeObject, type ObjectStore } from './store.ts';

/** The annotation that asks a Flux controller to reconcile now. */
export const reconcileRequestAnnotation = 'reconcile.fluxcd.io/requestedAt';

/** How the stand-in runs. */
export interface FluxControllerOptions {
	/** How long after a request the status follows (default 300 ms). */
	readonly delayMs?: number;
	/** Told about a status write that failed. */
	readonly log?: (line: string) => void;
}

/** Whether a resource type is one of Flux's: every Flux API group ends in `.toolkit.fluxcd.io`. */
function isFluxType(type: ResourceType): boolean {
	return type.group.endsWith('.toolkit.fluxcd.io');
}

/**
 * The reconcile request an object waits on: the annotation's value when `status.lastHandledReconcileAt` differs
 * from it and `spec.suspend` is not true; undefined otherwise.
 */
function pendingReconcileRequest(object: KubeObject): string | undefined {
	const annotations = metadataOf(object).annotations;
	const requestedAt = isJsonObject(annotations)
		? annotations[reconcileRequestAnnotation]
		: undefined;
	if (typeof requestedAt !== 'string') return undefined;
	if (isJsonObject(object.spec) && object.spec.suspend === true) return undefined;
	const handled = isJsonObject(object.status) ? object.status.lastHandledReconcileAt : undefined;
	return handled === requestedAt ? undefined : requestedAt;
}

/** The field manager of the Flux controller that owns a kind, as its status writes name it. */
function controllerOf(type: ResourceType): string {
	if (type.group === 'image.toolkit.fluxcd.io') {
		return type.kind === 'ImageUpdateAutomation'
			? 'image-automation-controller'
			: 'image-reflector-controller';
	}
	return `${type.group.split('.')[0] ?? 'flux'}-controller`;
}

function stringOf(value: unknown): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

/** A duration of a Flux spec (`10m`, `1h30m`, `90s`) as Go's `time.Duration.String` prints it (`10m0s`). */
function goDurationString(text: string): string {
	const parts =
		/^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+)ms)?$/.exec(text);
	if (parts === null || text === '') return text;
	const milliseconds =
		Number(parts[1] ?? 0) * 3_600_000 +
		Number(parts[2] ?? 0) * 60_000 +
		Number(parts[3] ?? 0) * 1000 +
		Number(parts[4] ?? 0);
	if (milliseconds === 0) return '0s';
	if (milliseconds < 1000) return `${milliseconds}ms`;
	const hours = Math.trunc(milliseconds / 3_600_000);
	const minutes = Math.trunc((milliseconds % 3_600_000) / 60_000);
	const seconds = Number(((milliseconds % 60_000) / 1000).toFixed(3));
	if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
	if (minutes > 0) return `${minutes}m${seconds}s`;
	return `${seconds}s`;
}

function readyConditionOf(object: KubeObject): JsonObject | undefined {
	const conditions = isJsonObject(object.status) ? object.status.conditions : undefined;
	if (!Array.isArray(conditions)) return undefined;
	const ready = conditions.find(
		(condition) => isJsonObject(condition) && condition.type === 'Ready',
	);
	return isJsonObject(ready) ? ready : undefined;
}

/** The revision a Flux Event carries as its `<group>/revision` annotation. */
function revisionOf(object: KubeObject): string | undefined {
	const status = isJsonObject(object.status) ? object.status : {};
	const artifact = isJsonObject(status.artifact) ? status.artifact : {};
	return (
		stringOf(status.lastAppliedRevision) ??
		stringOf(status.lastAttemptedRevision) ??
		stringOf(artifact.revision)
	);
}

/**
 * The Event a Flux controller records at the end of a reconciliation, or undefined when it records none: a failed
 * one is a Warning with the Ready condition's reason and message (every controller); a successful Kustomization
 * says `ReconciliationSucceeded` with kustomize-controller's words; a HelmRelease whose Ready just turned True
 * records the action (its Ready reason and message); a source or HelmRelease with nothing new records nothing (its
 * "up to date" is only logged).
 */
function fluxEventOf(
	type: ResourceType,
	object: KubeObject,
	took: string,
	readyChanged = false,
): Omit<CoreEventRecord, 'involvedObject'> | undefined {
	const ready = readyConditionOf(object);
	const revision = revisionOf(object);
	const annotations = revision === undefined ? {} : { [`${type.group}/revision`]: revision };
	const component = controllerOf(type);
	if (ready?.status === 'False') {
		return {
			type: 'Warning',
			reason: stringOf(ready.reason) ?? 'ReconciliationFailed',
			message: stringOf(ready.message) ?? '',
			component,
			annotations,
		};
	}
	if (readyChanged && ready?.status === 'True' && type.kind === 'HelmRelease') {
		// helm-controller records the release action it took, in the words of the Ready condition it sets.
		return {
			type: 'Normal',
			reason: stringOf(ready.reason) ?? 'ReconciliationSucceeded',
			message: stringOf(ready.message) ?? '',
			component,
			annotations,
		};
	}
	if (ready?.status === 'True' && type.kind === 'Kustomization') {
		const interval = isJsonObject(object.spec) ? stringOf(object.spec.interval) : undefined;
		return {
			type: 'Normal',
			reason: 'ReconciliationSucceeded',
			message: `Reconciliation finished in ${took}, next run in ${goDurationString(interval ?? '')}`,
			component,
			annotations,
		};
	}
	return undefined;
}

/**
 * Answers reconcile requests on the Flux objects of a store, those there now and those written later; returns the
 * function that stops it. Conditions stay as they are: the stand-in has no new outcome to report, and Flux moves
 * a condition's lastTransitionTime only when its status changes.
 */
export function startFluxController(
	store: ObjectStore,
	options: FluxControllerOptions = {},
): () => void {
	const delayMs = options.delayMs ?? 300;
	const timers = new Map<string, NodeJS.Timeout>();

	const handle = (type: ResourceType, namespace: string | undefined, name: string): void => {
		const object = store.get(type, namespace, name);
		const requestedAt = object === undefined ? undefined : pendingReconcileRequest(object);
		if (object === undefined || requestedAt === undefined) return;
		const status = isJsonObject(object.status) ? object.status : {};
		try {
			const updated = store.update(
				type,
				namespace,
				name,
				{ ...object, status: { ...status, lastHandledReconcileAt: requestedAt } },
				{ subresource: 'status', fieldManager: controllerOf(type) },
			);
			const event = fluxEventOf(type, updated, `${delayMs}ms`);
			if (event !== undefined) recordCoreEvent(store, { ...event, involvedObject: updated });
		} catch (error) {
			options.log?.(
				`flux: ${type.kind} ${namespace ?? ''}/${name}: handling the reconcile request failed: ${(error as Error).message}`,
			);
		}
	};

	const schedule = (type: ResourceType, object: KubeObject): void => {
		if (pendingReconcileRequest(object) === undefined) return;
		const metadata = metadataOf(object);
		const namespace = stringOf(metadata.namespace);
		const name = stringOf(metadata.name) ?? '';
		const key = `${resourceKeyOf(type)}:${namespace ?? ''}/${name}`;
		// One pending write per object; it reads the object again when it runs, so later requests are not lost.
		if (timers.has(key)) return;
		const timer = setTimeout(() => {
			timers.delete(key);
			handle(type, namespace, name);
		}, delayMs);
		timer.unref();
		timers.set(key, timer);
	};

	const unsubscribe = store.subscribe((event) => {
		if (event.type === 'DELETED' || !isFluxType(event.resource)) return;
		const object = event.entry.object;
		schedule(event.resource, object);
		// A status written with another outcome (the demo's story plays the controller's reconciliations): the
		// Event that reconciliation records, once the write that announced it is done.
		const before = event.previous === undefined ? undefined : readyConditionOf(event.previous);
		const after = readyConditionOf(object);
		const outcome = (condition: JsonObject | undefined): string =>
			JSON.stringify([condition?.status, condition?.reason, condition?.message]);
		const unchanged = outcome(before) === outcome(after);
		if (event.type !== 'MODIFIED' || after === undefined || unchanged) return;
		const recorded = fluxEventOf(event.resource, object, `${delayMs}ms`, true);
		if (recorded === undefined) return;
		queueMicrotask(() => {
			try {
				recordCoreEvent(store, { ...recorded, involvedObject: object });
			} catch (error) {
				options.log?.(`flux: recording an Event failed: ${(error as Error).message}`);
			}
		});
	});
	for (const type of store.types) {
		if (!isFluxType(type)) continue;
		for (const object of store.all(type)) {
			// A Flux controller reconciles every object when it starts: the Events of that round.
			const event = fluxEventOf(type, object, `${delayMs}ms`);
			if (event !== undefined) recordCoreEvent(store, { ...event, involvedObject: object });
			schedule(type, object);
		}
	}
	return () => {
		unsubscribe();
		for (const timer of timers.values()) clearTimeout(timer);
		timers.clear();
	};
}
