import { getArray, getInt, getRecord, getString, isRecord } from './object.ts';

/** The object an Event is about, as far as the Event names it. */
export interface EventSubject {
	readonly apiVersion?: string;
	readonly kind?: string;
	readonly namespace?: string;
	readonly name?: string;
	readonly uid?: string;
}

/**
 * A Kubernetes Event read from either API (core v1 or events.k8s.io/v1). Controllers that record through the
 * events.k8s.io recorder (Fleet's among them) leave `lastTimestamp` and `count` empty and fill `eventTime` and
 * `series` instead, so both shapes are read.
 */
export interface KubeEvent {
	readonly type: string;
	readonly reason: string;
	readonly message: string;
	/** How many times it happened: `count`, else `series.count`, else 1. */
	readonly count: number;
	/** When it last happened: `lastTimestamp`, else `eventTime`, else `series.lastObservedTime` (RFC 3339 text). */
	readonly lastSeen: string | undefined;
	readonly firstSeen: string | undefined;
	readonly subject: EventSubject;
	/** Who recorded it: `reportingController` / `reportingComponent`, else `source.component`. */
	readonly reporter: string | undefined;
	readonly namespace: string | undefined;
	readonly name: string | undefined;
	readonly uid: string | undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
	return value === undefined || value === '' ? undefined : value;
}

function positive(value: number | undefined): number | undefined {
	return value !== undefined && value > 0 ? value : undefined;
}

function subjectOf(record: Record<string, unknown> | undefined): EventSubject {
	if (record === undefined) return {};
	const subject: {
		apiVersion?: string;
		kind?: string;
		namespace?: string;
		name?: string;
		uid?: string;
	} = {};
	const apiVersion = nonEmpty(getString(record, 'apiVersion'));
	const kind = nonEmpty(getString(record, 'kind'));
	const namespace = nonEmpty(getString(record, 'namespace'));
	const name = nonEmpty(getString(record, 'name'));
	const uid = nonEmpty(getString(record, 'uid'));
	if (apiVersion !== undefined) subject.apiVersion = apiVersion;
	if (kind !== undefined) subject.kind = kind;
	if (namespace !== undefined) subject.namespace = namespace;
	if (name !== undefined) subject.name = name;
	if (uid !== undefined) subject.uid = uid;
	return subject;
}

/** Reads one Event (either API's shape); undefined when the value is not an object. */
export function readKubeEvent(raw: unknown): KubeEvent | undefined {
	if (!isRecord(raw)) return undefined;
	const series = getRecord(raw, 'series');
	const count = positive(getInt(raw, 'count')) ?? positive(getInt(series, 'count'));
	const lastSeen =
		nonEmpty(getString(raw, 'lastTimestamp')) ??
		nonEmpty(getString(raw, 'eventTime')) ??
		nonEmpty(getString(series, 'lastObservedTime')) ??
		nonEmpty(getString(raw, 'deprecatedLastTimestamp'));
	const firstSeen =
		nonEmpty(getString(raw, 'firstTimestamp')) ??
		nonEmpty(getString(raw, 'deprecatedFirstTimestamp')) ??
		nonEmpty(getString(raw, 'eventTime')) ??
		lastSeen;
	return {
		type: getString(raw, 'type') ?? '',
		reason: getString(raw, 'reason') ?? '',
		message: getString(raw, 'message') ?? getString(raw, 'note') ?? '',
		count: count ?? 1,
		lastSeen,
		firstSeen,
		subject: subjectOf(getRecord(raw, 'involvedObject') ?? getRecord(raw, 'regarding')),
		reporter:
			nonEmpty(getString(raw, 'reportingController')) ??
			nonEmpty(getString(raw, 'reportingComponent')) ??
			nonEmpty(getString(raw, 'source', 'component')),
		namespace: nonEmpty(getString(raw, 'metadata', 'namespace')),
		name: nonEmpty(getString(raw, 'metadata', 'name')),
		uid: nonEmpty(getString(raw, 'metadata', 'uid')),
	};
}

/** Reads the Events of a `List`/`EventList` or of an array; items that are not objects are skipped. */
export function readKubeEvents(listOrItems: unknown): KubeEvent[] {
	const items = Array.isArray(listOrItems) ? listOrItems : (getArray(listOrItems, 'items') ?? []);
	const events: KubeEvent[] = [];
	for (const item of items) {
		const event = readKubeEvent(item);
		if (event !== undefined) events.push(event);
	}
	return events;
}

/** Whether an Event is about the object: by uid when both have one, else by kind, namespace and name. */
export function eventIsAbout(
	event: KubeEvent,
	object: {
		readonly kind: string;
		readonly namespace: string;
		readonly name: string;
		readonly uid?: string | undefined;
	},
): boolean {
	if (event.subject.uid !== undefined && object.uid !== undefined && object.uid !== '') {
		return event.subject.uid === object.uid;
	}
	return (
		event.subject.kind === object.kind &&
		(event.subject.namespace ?? '') === object.namespace &&
		event.subject.name === object.name
	);
}

function timeOf(text: string | undefined): number {
	if (text === undefined) return Number.NEGATIVE_INFINITY;
	const parsed = Date.parse(text);
	return Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed;
}

/** Newest first; Events without a time last; ties keep their input order. */
export function newestEventsFirst(events: readonly KubeEvent[]): KubeEvent[] {
	return events
		.map((event, index) => ({ event, index, time: timeOf(event.lastSeen) }))
		.sort((a, b) => b.time - a.time || a.index - b.index)
		.map((entry) => entry.event);
}
