// One object's record in `status --json` output, and its text: written by the command, and by the worker thread that
// reads a big dump's files beside it (statusWorker.ts), byte for byte the same.
import { refOf } from '../core/model/object.ts';
import type { KubeEvent } from '../core/model/kubeEvent.ts';
import { terminationOf } from '../core/explain/termination.ts';
import { toneRank, type StatusResult, type Tone } from '../core/status/result.ts';
import type { ManifestFile } from './files.ts';
import type { ByteBatches } from './output.ts';

/** One object's record in `--json` output. */
export interface StatusRecord {
	readonly apiVersion: string;
	readonly kind: string;
	readonly namespace: string;
	readonly name: string;
	readonly system: string;
	readonly state: string;
	readonly tone: Tone;
	readonly message: string;
	readonly reasons: readonly string[];
	readonly observed: boolean;
	readonly kstatus: { readonly status: string; readonly message: string };
	readonly health: { readonly status: string; readonly message: string } | null;
	readonly computed: unknown;
	/** Set while the object is being deleted: metadata.deletionTimestamp and the finalizers that hold it. */
	readonly terminating: TerminatingRecord | null;
	/** The Events about the object, newest first (from a fleet dump archive; none for plain files). */
	readonly events: readonly EventRecord[];
	/** Where the object was read: the file, and for a fleet dump archive the entry in it; the entry's line. */
	readonly source: { readonly file: string; readonly entry?: string; readonly line: number };
}

/** An object being deleted, in `--json` output. */
interface TerminatingRecord {
	readonly deletionTimestamp: string;
	readonly finalizers: readonly string[];
}

function terminatingRecordOf(object: unknown): TerminatingRecord | null {
	const termination = terminationOf(object);
	return termination
		? { deletionTimestamp: termination.deletionTimestamp, finalizers: termination.finalizers }
		: null;
}

/** An Event in `--json` output. */
interface EventRecord {
	readonly type: string;
	readonly reason: string;
	readonly message: string;
	readonly count: number;
	readonly lastSeen: string | null;
	readonly firstSeen: string | null;
	readonly reporter: string | null;
}

function eventRecordOf(event: KubeEvent): EventRecord {
	return {
		type: event.type,
		reason: event.reason,
		message: event.message,
		count: event.count,
		lastSeen: event.lastSeen ?? null,
		firstSeen: event.firstSeen ?? null,
		reporter: event.reporter ?? null,
	};
}

export function recordOf(
	result: StatusResult,
	object: unknown,
	from: Pick<ManifestFile, 'file' | 'entry' | 'eventsOf'>,
	line: number,
): StatusRecord {
	const ref = refOf(object);
	const { file, entry } = from;
	return {
		apiVersion: ref.apiVersion,
		kind: ref.kind,
		namespace: ref.namespace,
		name: ref.name,
		system: result.system,
		state: result.state,
		tone: result.tone,
		message: result.message,
		reasons: result.reasons,
		observed: result.observed,
		kstatus: { status: result.kstatus.status, message: result.kstatus.message },
		health: result.health ? { status: result.health.status, message: result.health.message } : null,
		computed: result.computed ?? null,
		terminating: terminatingRecordOf(object),
		events: (from.eventsOf?.(object) ?? []).map(eventRecordOf),
		source: entry === undefined ? { file, line } : { file, entry, line },
	};
}

function isText(value: unknown): value is string {
	return typeof value === 'string';
}

function isStatusPair(value: unknown): value is { status: string; message: string } {
	return (
		typeof value === 'object' &&
		value !== null &&
		isText((value as { status?: unknown }).status) &&
		isText((value as { message?: unknown }).message)
	);
}

const bytesOf = (text: string): Buffer => Buffer.from(text);
const recordParts = {
	apiVersion: bytesOf('  {\n    "apiVersion": '),
	kind: bytesOf(',\n    "kind": '),
	namespace: bytesOf(',\n    "namespace": '),
	name: bytesOf(',\n    "name": '),
	computed: bytesOf(',\n    "computed": '),
	terminating: bytesOf(',\n    "terminating": '),
	nothing: bytesOf('null'),
	noEvents: bytesOf(',\n    "events": []'),
	events: bytesOf(',\n    "events": '),
	file: bytesOf(',\n    "source": {\n      "file": '),
	entry: bytesOf(',\n      "entry": '),
	line: bytesOf(',\n      "line": '),
	close: bytesOf('\n    }\n  }'),
};

/** The fields of a record from `system` to `health`: the verdict, which many objects share word for word. */
type RecordVerdict = Pick<
	StatusRecord,
	'system' | 'state' | 'tone' | 'message' | 'reasons' | 'observed' | 'kstatus' | 'health'
>;

function verdictText(record: RecordVerdict): string {
	const { reasons, kstatus, health } = record;
	const json = JSON.stringify;
	const reasonsText =
		reasons.length === 0
			? '[]'
			: `[\n      ${reasons.map((reason) => json(reason)).join(',\n      ')}\n    ]`;
	const healthText =
		health === null
			? 'null'
			: `{\n      "status": ${json(health.status)},\n      "message": ${json(health.message)}\n    }`;
	return `,\n    "system": ${json(record.system)},\n    "state": ${json(record.state)},\n    "tone": ${json(record.tone)},\n    "message": ${json(record.message)},\n    "reasons": ${reasonsText},\n    "observed": ${record.observed},\n    "kstatus": {\n      "status": ${json(kstatus.status)},\n      "message": ${json(kstatus.message)}\n    },\n    "health": ${healthText}`;
}

/**
 * The encoded verdicts seen so far (a dump of 100,000 objects holds some dozens), up to a bound on nodes, found by
 * walking maps keyed by each field in turn: no key string is built per record. A marker before the optional parts
 * (health, the count of reasons) keeps every path distinct.
 */
interface VerdictNode {
	readonly next: Map<string, VerdictNode>;
	text?: Buffer;
}

const verdictRoot: VerdictNode = { next: new Map() };
let verdictNodeCount = 0;
const verdictNodesLimit = 100_000;
const verdictTextLimit = 4096;

/** The node under `node` for `key`; made when missing unless the bound on nodes is reached (then undefined). */
function step(node: VerdictNode | undefined, key: string): VerdictNode | undefined {
	if (!node) return undefined;
	let child = node.next.get(key);
	if (!child && verdictNodeCount < verdictNodesLimit) {
		child = { next: new Map() };
		node.next.set(key, child);
		verdictNodeCount++;
	}
	return child;
}

function writeVerdict(out: ByteBatches, record: RecordVerdict): void {
	const { reasons, kstatus, health } = record;
	let node = step(step(step(verdictRoot, record.system), record.state), record.tone);
	node = step(step(node, record.message), record.observed ? 'true' : 'false');
	node = step(step(node, kstatus.status), kstatus.message);
	node =
		health === null
			? step(node, 'no health')
			: step(step(step(node, 'health'), health.status), health.message);
	node = step(node, String(reasons.length));
	for (const reason of reasons) node = step(node, reason);
	if (node?.text) {
		out.bytes(node.text);
		return;
	}
	const text = verdictText(record);
	if (!node || text.length > verdictTextLimit) {
		out.text(text);
		return;
	}
	node.text = Buffer.from(text);
	out.bytes(node.text);
}

// The text of each `computed` value (the same object for the many records that share one verdict).
const computedTexts = new WeakMap<object, Buffer>();

function writeComputed(out: ByteBatches, computed: unknown): void {
	if (computed === null) {
		out.bytes(recordParts.nothing);
		return;
	}
	const shared = typeof computed === 'object' ? computedTexts.get(computed) : undefined;
	if (shared) {
		out.bytes(shared);
		return;
	}
	const text = JSON.stringify(computed, null, 2).replace(/\n/g, '\n    ');
	if (typeof computed !== 'object') {
		out.text(text);
		return;
	}
	const bytes = Buffer.from(text);
	computedTexts.set(computed, bytes);
	out.bytes(bytes);
}

/**
 * Writes what `JSON.stringify(record, null, 2)` becomes as an element of the output array (every line indented by
 * two more), for the record's known shape: the generic pretty-printer is most of the time of `status --json` on a big
 * dump. A record of another shape (a field missing at run time) is not written (false), and takes the generic path,
 * so the text is always the same.
 */
export function writeStatusRecord(out: ByteBatches, record: StatusRecord): boolean {
	const { reasons, kstatus, health, computed, terminating, events, source } = record;
	if (
		!isText(record.apiVersion) ||
		!isText(record.kind) ||
		!isText(record.namespace) ||
		!isText(record.name) ||
		!isText(record.system) ||
		!isText(record.state) ||
		!isText(record.tone) ||
		!isText(record.message) ||
		!Array.isArray(reasons) ||
		!reasons.every(isText) ||
		typeof record.observed !== 'boolean' ||
		!isStatusPair(kstatus) ||
		(health !== null && !isStatusPair(health)) ||
		terminating === undefined ||
		!Array.isArray(events) ||
		!isText(source.file) ||
		(source.entry !== undefined && !isText(source.entry)) ||
		!Number.isSafeInteger(source.line)
	) {
		return false;
	}
	out.recurringField(recordParts.apiVersion, record.apiVersion);
	out.recurringField(recordParts.kind, record.kind);
	out.recurringField(recordParts.namespace, record.namespace);
	out.bytes(recordParts.name);
	out.text(JSON.stringify(record.name));
	writeVerdict(out, record);
	out.bytes(recordParts.computed);
	writeComputed(out, computed);
	out.bytes(recordParts.terminating);
	if (terminating === null) out.bytes(recordParts.nothing);
	else out.text(JSON.stringify(terminating, null, 2).replace(/\n/g, '\n    '));
	if (events.length === 0) out.bytes(recordParts.noEvents);
	else {
		out.bytes(recordParts.events);
		out.text(JSON.stringify(events, null, 2).replace(/\n/g, '\n    '));
	}
	out.recurringField(recordParts.file, source.file);
	if (source.entry !== undefined) out.recurringField(recordParts.entry, source.entry);
	out.bytes(recordParts.line);
	out.text(String(source.line));
	out.bytes(recordParts.close);
	return true;
}

/** Whether a status counts toward `--fail-on` at `threshold` (a tone's rank; undefined: no --fail-on). */
export function failsAt(tone: Tone, threshold: number | undefined): boolean {
	return (
		threshold !== undefined &&
		toneRank(tone) >= threshold &&
		(tone === 'warning' || tone === 'error')
	);
}
