// A stand-in for the Flux controllers' handling of reconcile requests in the demo cluster, as fleetController.ts is
// for Fleet's status controllers. `flux reconcile` (and the extension's Reconcile command) set the annotation
// `reconcile.fluxcd.io/requestedAt`; a Flux controller then reconciles the object and records the request as
// handled in `status.lastHandledReconcileAt` (fluxcd/pkg `meta.ReconcileRequestStatus`). Here that status write
// follows shortly after, through the store's status subresource so that watches see it, and waits while the object
// is suspended, as Flux skips suspended objects.

import { isJsonObject } from './patch.ts';
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
			store.update(
				type,
				namespace,
				name,
				{ ...object, status: { ...status, lastHandledReconcileAt: requestedAt } },
				{ subresource: 'status', fieldManager: controllerOf(type) },
			);
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
		if (event.type !== 'DELETED' && isFluxType(event.resource)) {
			schedule(event.resource, event.entry.object);
		}
	});
	for (const type of store.types) {
		if (!isFluxType(type)) continue;
		for (const object of store.all(type)) schedule(type, object);
	}
	return () => {
		unsubscribe();
		for (const timer of timers.values()) clearTimeout(timer);
		timers.clear();
	};
}
