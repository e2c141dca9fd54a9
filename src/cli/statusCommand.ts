import { refOf } from '../core/model/object.ts';
import { terminationOf } from '../core/explain/termination.ts';
import { computeStatuses } from '../core/status/registry.ts';
import { visitJsonListItems } from '../core/manifest/jsonManifests.ts';
import { standaloneStatusReader, statusStandsAlone } from '../core/status/standalone.ts';
import { toneRank, type StatusResult, type Tone } from '../core/status/result.ts';
import type { KubeEvent } from '../core/model/kubeEvent.ts';
import {
	archiveLimitsUsage,
	jsonBytesOf,
	maxFileSizeOption,
	readEachManifest,
	readingDumpArchives,
	readLimitsOf,
	type DumpArchives,
	type ManifestFile,
	type ReadLimits,
} from './files.ts';
import { optionsOrExit, usageError } from './options.ts';
import { ByteBatches, JsonArrayWriter, writeLines } from './output.ts';
import { defaultTableWidth, exitCodeOf, summaryLines, tableLines } from './statusTable.ts';

/** Where the command writes, so tests can capture it. */
export interface CommandIo {
	readonly stdout: (text: string) => void;
	/**
	 * Writes bytes to stdout (whole UTF-8 text), when the caller can take them without decoding; the bytes are written
	 * over once it returns.
	 */
	readonly stdoutBytes?: (bytes: Uint8Array) => void;
	readonly stderr: (text: string) => void;
	readonly isTty: boolean;
	readonly now: number;
	/** The terminal's width (or COLUMNS); the table wraps messages at it. */
	readonly columns?: number;
	/** The working directory: the table shows paths below it relative to it. */
	readonly cwd?: string;
}

function bytesWriterOf(io: CommandIo): (bytes: Uint8Array) => void {
	const decoder = new TextDecoder();
	return io.stdoutBytes ?? ((bytes) => io.stdout(decoder.decode(bytes)));
}

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

const usage = `Usage: kube-status-lens status PATH... [--json] [--wide] [--fail-on error|warning] [--max-file-size SIZE]

Reads Kubernetes objects from YAML/JSON files and folders (multi-document YAML, kind: List,
kubectl get -o yaml/json output) and fleet dump archives (.tgz), and prints the status each system would report.

  --json               one JSON array, one record per object (with its Events from a fleet dump)
  --wide               print each message whole on its row (the table wraps them at the terminal's width, or
                       COLUMNS, or ${defaultTableWidth} characters when the output is not a terminal)
  --fail-on LEVEL      exit 1 when an object has tone LEVEL or worse (error, or warning and error)
  --max-file-size SIZE read no file (or archive entry) larger than SIZE (bytes, or with K, M or G: 256M; default 64M)
${archiveLimitsUsage}
Exit codes: 0 fine; 1 --fail-on matched; 2 an input could not be read or parsed (other files are still reported).
The table's last line says which, and why.
`;

function recordOf(
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
function writeStatusRecord(out: ByteBatches, record: StatusRecord): boolean {
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

const standaloneBatch = 256;

const statusOptions = {
	choices: { 'fail-on': ['error', 'warning'] },
	flags: ['json', 'wide'],
	texts: maxFileSizeOption,
};

/** `kube-status-lens status` as the command line runs it, fleet dump archives read first (see readingDumpArchives). */
export function runStatusCommandLine(
	argv: readonly string[],
	io: CommandIo,
): number | Promise<number> {
	return readingDumpArchives(argv, statusOptions, io.stderr, (dumps) =>
		runStatusCommand(argv, io, dumps),
	);
}

/** `kube-status-lens status`: returns the exit code. `dumps`: the fleet dump archives among the paths, as read. */
export function runStatusCommand(
	argv: readonly string[],
	io: CommandIo,
	dumps?: DumpArchives,
): number {
	const parsed = optionsOrExit(argv, statusOptions, usage, io);
	if (typeof parsed === 'number') return parsed;
	const { paths } = parsed;
	const json = parsed.flags.has('json');
	const wide = parsed.flags.has('wide');
	const failOn = parsed.values['fail-on'] as 'error' | 'warning' | undefined;
	const limits = readLimitsOf(parsed.values);
	if (typeof limits === 'string') return usageError(limits, usage, io);
	return reportStatus(
		paths,
		dumps?.archives.flatMap((archive) => archive.entries) ?? [],
		dumps?.unreadableCount ?? 0,
		{ json, wide, failOn, limits },
		io,
	);
}

function reportStatus(
	paths: readonly string[],
	dumpEntries: readonly ManifestFile[],
	unreadableDumps: number,
	{
		json,
		wide,
		failOn,
		limits,
	}: { json: boolean; wide: boolean; failOn: 'error' | 'warning' | undefined; limits: ReadLimits },
	io: CommandIo,
): number {
	const threshold = failOn === undefined ? undefined : toneRank(failOn);
	let failing = 0;
	const jsonWriter = json
		? new JsonArrayWriter(new ByteBatches(bytesWriterOf(io)), writeStatusRecord)
		: undefined;
	const tableRecords: StatusRecord[] = [];
	const report = (
		result: StatusResult,
		object: unknown,
		from: Pick<ManifestFile, 'file' | 'entry' | 'eventsOf'>,
		line: number,
	): void => {
		if (
			threshold !== undefined &&
			toneRank(result.tone) >= threshold &&
			(result.tone === 'warning' || result.tone === 'error')
		) {
			failing++;
		}
		const record = recordOf(result, object, from, line);
		if (jsonWriter) jsonWriter.add(record);
		else tableRecords.push(record);
	};
	const options = { now: io.now };

	// A big dump's objects are most of the memory: each file's records are written as it is read, and its objects
	// let go, until an object whose status reads the others (a Fleet parent, a KubeStellar report) comes. From there
	// on the objects are held, and the files already written are read again for what those objects read.
	const writtenFiles: string[] = [];
	let held:
		| {
				objects: unknown[];
				files: Pick<ManifestFile, 'file' | 'entry' | 'eventsOf'>[];
				lines: number[];
		  }
		| undefined;
	// A List as `kubectl get -o json` writes it is read from its bytes an object at a time, each written before the
	// next is parsed (so objects die young), as long as every object stands alone; the file's records are held until
	// its end proves it such a List, and taken back otherwise (then the file is read the usual way).
	const standaloneStatus = standaloneStatusReader(options);
	const readListObjects = (file: string, bytes: Buffer): boolean => {
		const source = held ? undefined : jsonBytesOf(bytes);
		if (!source) return false;
		const from = { file };
		const failingBefore = failing;
		const tableLength = tableRecords.length;
		const pending = jsonWriter?.begin();
		const read = visitJsonListItems(source, (object, line) => {
			if (!statusStandsAlone(object)) return false;
			report(standaloneStatus(object), object, from, line + 1);
			return true;
		});
		if (read) {
			pending?.commit();
			writtenFiles.push(file);
			return true;
		}
		pending?.rollback();
		failing = failingBefore;
		tableRecords.length = tableLength;
		return false;
	};
	const failedReads = readEachManifest(
		paths,
		io.stderr,
		limits,
		(read) => {
			const { file, parsed } = read;
			// An archive's entries are held: the files written early are read again, and an archive is not such a file.
			if (
				!held &&
				read.entry === undefined &&
				parsed.objects.every((entry) => statusStandsAlone(entry.object))
			) {
				// A few hundred at a time, so that verdicts and records are let go young.
				for (let from = 0; from < parsed.objects.length; from += standaloneBatch) {
					const entries = parsed.objects.slice(from, from + standaloneBatch);
					const results = computeStatuses(
						entries.map((entry) => entry.object),
						options,
					);
					entries.forEach((entry, index) => {
						const result = results[index];
						if (result) report(result, entry.object, read, entry.range.start.line + 1);
					});
				}
				writtenFiles.push(file);
				return;
			}
			held ??= { objects: [], files: [], lines: [] };
			for (const entry of parsed.objects) {
				held.objects.push(entry.object);
				held.files.push(read);
				held.lines.push(entry.range.start.line + 1);
			}
		},
		dumpEntries,
		readListObjects,
	);
	if (held) {
		const written: unknown[] = [];
		if (writtenFiles.length > 0) {
			// Read errors and problems were reported the first time.
			readEachManifest(
				writtenFiles,
				() => undefined,
				limits,
				({ parsed }) => {
					for (const entry of parsed.objects) written.push(entry.object);
				},
			);
		}
		const results: (StatusResult | undefined)[] = computeStatuses(
			[...written, ...held.objects],
			options,
		);
		for (let index = 0; index < held.objects.length; index++) {
			const result = results[written.length + index];
			if (result) {
				report(
					result,
					held.objects[index],
					held.files[index] ?? { file: '' },
					held.lines[index] ?? 0,
				);
			}
			// Each object is let go once written.
			held.objects[index] = undefined;
			results[written.length + index] = undefined;
		}
	}
	const exit = { failedInputs: failedReads + unreadableDumps, failOn, failing };
	if (jsonWriter) jsonWriter.end();
	else {
		const layout = {
			width: io.columns ?? defaultTableWidth,
			wide,
			colour: io.isTty,
			...(io.cwd === undefined ? {} : { cwd: io.cwd }),
		};
		writeLines(tableLines(tableRecords, layout), io.stdout);
		writeLines(['', ...summaryLines(tableRecords, exit)], io.stdout);
	}
	return exitCodeOf(exit);
}
