// How the demo's stand-in controllers record Events, as the real controllers' recorders do (client-go):
// - Fleet's controllers use controller-runtime's events.k8s.io recorder (`tools/events`): each Event has `eventTime`,
//   `action`, `reportingController` and `reportingInstance`, and no `count` or `lastTimestamp`; an Event like one
//   recorded before (same object, type, reason, action, note, reporter) within six minutes gets a `series` (count 2
//   on the first repeat, then one more each time, with `lastObservedTime`) instead of a new Event.
// - Flux's controllers (fluxcd/pkg `runtime/events`) use the core recorder (`tools/record`): `source.component`,
//   `firstTimestamp`, `lastTimestamp` and `count`, a repeat within ten minutes counted on the same Event, and the
//   object's revision as an annotation `<group>/revision`.
// Both kinds end up in the store in the core v1 form (eventViews.ts shows them through either API).
import { isJsonObject, type JsonObject } from './patch.ts';
import { toCoreEvent } from './eventViews.ts';
import { metadataOf, type KubeObject, type ObjectStore } from './store.ts';

const seriesWindowMs = 6 * 60 * 1000;
/** kube-apiserver's `--event-ttl` default: an Event goes an hour after it was last written. */
const eventTtlMs = 60 * 60 * 1000;
const correlationWindowMs = 10 * 60 * 1000;

/** An object reference as client-go's `reference.GetReference` writes it. */
function referenceTo(object: KubeObject): JsonObject {
	const meta = metadataOf(object);
	const out: JsonObject = {};
	for (const key of ['apiVersion', 'kind'] as const) {
		if (typeof object[key] === 'string') out[key] = object[key];
	}
	for (const key of ['namespace', 'name', 'uid', 'resourceVersion'] as const) {
		if (typeof meta[key] === 'string' && meta[key] !== '') out[key] = meta[key];
	}
	return out;
}

function textOf(value: unknown): string {
	return typeof value === 'string' ? value : '';
}

/** client-go's MicroTime: RFC 3339 with microseconds. */
function microTime(now: Date): string {
	return now.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** metav1.Time: RFC 3339 in seconds. */
function secondsTime(now: Date): string {
	return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `<object name>.<nanoseconds in hex>`, as both recorders name an Event; unique in the store. */
function eventName(store: ObjectStore, namespace: string, objectName: string, now: Date): string {
	const type = store.typeOf('v1', 'Event');
	let nanos = BigInt(now.getTime()) * 1_000_000n;
	for (;;) {
		const name = `${objectName}.${nanos.toString(16)}`;
		if (type === undefined || store.get(type, namespace, name) === undefined) return name;
		nanos += 1n;
	}
}

function sameRef(a: unknown, b: JsonObject): boolean {
	if (!isJsonObject(a)) return false;
	return a.uid === b.uid && a.kind === b.kind && a.name === b.name && a.namespace === b.namespace;
}

/** When an Event was last observed, in either API's fields. */
function lastObservedMs(event: KubeObject): number {
	const series = isJsonObject(event.series) ? event.series.lastObservedTime : undefined;
	for (const value of [
		series,
		event.lastTimestamp,
		event.eventTime,
		metadataOf(event).creationTimestamp,
	]) {
		if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return Date.parse(value);
	}
	return Number.NaN;
}

/** Drops a namespace's Events older than the TTL, so a demo that loops for days keeps an hour of them. */
function dropExpired(store: ObjectStore, namespace: string, now: Date): void {
	const type = store.typeOf('v1', 'Event');
	if (type === undefined) return;
	for (const event of store.all(type, namespace)) {
		if (now.getTime() - lastObservedMs(event) > eventTtlMs) {
			store.delete(type, namespace, textOf(metadataOf(event).name));
		}
	}
}

/** What a Fleet controller records: `Eventf(regarding, related, type, reason, action, note)`. */
export interface EventsApiRecord {
	readonly regarding: KubeObject;
	readonly type: 'Normal' | 'Warning';
	readonly reason: string;
	readonly action: string;
	readonly note: string;
	/** The name the controller's recorder was created with, e.g. `fleet-gitops`. */
	readonly reportingController: string;
}

/** The pod the stand-in says it runs in: a reportingInstance is `<controller>-<hostname>`. */
const podName = 'fleet-controller-7c9d5b8f6d-q4x2m';

/** Records an Event through the events.k8s.io API, as Fleet's controllers do; returns the stored Event. */
export function recordEventsApiEvent(
	store: ObjectStore,
	record: EventsApiRecord,
	now: Date = store.now(),
): KubeObject | undefined {
	const type = store.typeOf('v1', 'Event');
	if (type === undefined) return undefined;
	const regarding = referenceTo(record.regarding);
	const namespace = typeof regarding.namespace === 'string' ? regarding.namespace : 'default';
	const reportingInstance = `${record.reportingController}-${podName}`;
	dropExpired(store, namespace, now);
	const earlier = store.all(type, namespace).find((event) => {
		if (!sameRef(event.involvedObject, regarding)) return false;
		const observed = isJsonObject(event.series) ? event.series.lastObservedTime : event.eventTime;
		return (
			event.type === record.type &&
			event.reason === record.reason &&
			event.action === record.action &&
			event.message === record.note &&
			event.reportingComponent === record.reportingController &&
			event.reportingInstance === reportingInstance &&
			typeof observed === 'string' &&
			now.getTime() - Date.parse(observed) < seriesWindowMs
		);
	});
	if (earlier !== undefined) {
		const count = isJsonObject(earlier.series) && typeof earlier.series.count === 'number';
		const series = {
			count: count ? Number((earlier.series as JsonObject).count) + 1 : 2,
			lastObservedTime: microTime(now),
		};
		const name = textOf(metadataOf(earlier).name);
		return store.update(type, namespace, name, { ...earlier, series });
	}
	const event = toCoreEvent({
		apiVersion: 'events.k8s.io/v1',
		kind: 'Event',
		metadata: { name: eventName(store, namespace, textOf(regarding.name), now), namespace },
		eventTime: microTime(now),
		reportingController: record.reportingController,
		reportingInstance,
		action: record.action,
		reason: record.reason,
		regarding,
		note: record.note,
		type: record.type,
	});
	return store.create(type, namespace, event, { fieldManager: record.reportingController });
}

/** What a Flux controller records: an annotated core Event from `<kind>-controller`. */
export interface CoreEventRecord {
	readonly involvedObject: KubeObject;
	readonly type: 'Normal' | 'Warning';
	readonly reason: string;
	readonly message: string;
	/** The recorder's `source.component`, e.g. `kustomize-controller`. */
	readonly component: string;
	readonly annotations?: Readonly<Record<string, string>>;
}

/** Records a core v1 Event as client-go's `tools/record` does, counting repeats; returns the stored Event. */
export function recordCoreEvent(
	store: ObjectStore,
	record: CoreEventRecord,
	now: Date = store.now(),
): KubeObject | undefined {
	const type = store.typeOf('v1', 'Event');
	if (type === undefined) return undefined;
	const involved = referenceTo(record.involvedObject);
	const namespace = typeof involved.namespace === 'string' ? involved.namespace : 'default';
	dropExpired(store, namespace, now);
	const earlier = store.all(type, namespace).find((event) => {
		const source = isJsonObject(event.source) ? event.source : {};
		return (
			sameRef(event.involvedObject, involved) &&
			source.component === record.component &&
			event.type === record.type &&
			event.reason === record.reason &&
			event.message === record.message &&
			typeof event.lastTimestamp === 'string' &&
			now.getTime() - Date.parse(event.lastTimestamp) < correlationWindowMs
		);
	});
	if (earlier !== undefined) {
		const count = typeof earlier.count === 'number' ? earlier.count + 1 : 2;
		const name = textOf(metadataOf(earlier).name);
		return store.update(type, namespace, name, {
			...earlier,
			count,
			lastTimestamp: secondsTime(now),
		});
	}
	const annotations = record.annotations ?? {};
	return store.create(
		type,
		namespace,
		{
			apiVersion: 'v1',
			kind: 'Event',
			metadata: {
				name: eventName(store, namespace, textOf(involved.name), now),
				namespace,
				...(Object.keys(annotations).length > 0 ? { annotations: { ...annotations } } : {}),
			},
			involvedObject: involved,
			reason: record.reason,
			message: record.message,
			source: { component: record.component },
			firstTimestamp: secondsTime(now),
			lastTimestamp: secondsTime(now),
			count: 1,
			type: record.type,
			eventTime: null,
			reportingComponent: record.component,
			reportingInstance: '',
		},
		{ fieldManager: record.component },
	);
}
