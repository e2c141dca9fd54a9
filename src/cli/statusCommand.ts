import { computeStatuses } from '../core/status/registry.ts';
import type { BundleDeploymentView } from '../core/status/fleetSummary.ts';
import { isFleetParent, StreamedStatuses } from '../core/status/standalone.ts';
import { toneRank, type StatusResult } from '../core/status/result.ts';
import {
	archiveLimitsUsage,
	visitJsonListFile,
	manifestFilesUnder,
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
import { failsAt, recordOf, writeStatusRecord, type StatusRecord } from './statusRecords.ts';
import { StatusWorkerReads, type StatusWorkerSetup } from './statusWorkerClient.ts';
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
	/** `status --json` reads a big input's files on a worker thread too, from this script (statusWorkerClient.ts). */
	readonly statusWorker?: StatusWorkerSetup;
	/** Told how many files the worker read, once the command is done (tests look). */
	readonly workerFilesRead?: (count: number) => void;
}

function bytesWriterOf(io: CommandIo): (bytes: Uint8Array) => void {
	const decoder = new TextDecoder();
	return io.stdoutBytes ?? ((bytes) => io.stdout(decoder.decode(bytes)));
}

const usage = `Usage: kube-status-lens status PATH... [--json] [--wide] [--fail-on error|warning] [--max-file-size SIZE]
                               [--max-buffer SIZE]

Reads Kubernetes objects from YAML/JSON files and folders (multi-document YAML, kind: List,
kubectl get -o yaml/json output) and fleet dump archives (.tgz), and prints the status each system would report.

  --json               one JSON array, one record per object (with its Events from a fleet dump)
  --wide               print each message on one line of its row (the table wraps them at the terminal's width,
                       or COLUMNS, or ${defaultTableWidth} characters when the output is not a terminal); either way
                       at most 2,000 characters of one message (--json prints it whole)
  --fail-on LEVEL      exit 1 when an object has tone LEVEL or worse (error, or warning and error)
  --max-file-size SIZE read no file read whole (YAML, or JSON not laid out as kubectl writes a List) or archive
                       entry larger than SIZE (bytes, or with K, M or G: 256M; default 64M); a List as
                       kubectl get -o json writes it is read a piece at a time, whatever its size
  --max-buffer SIZE    hold no more than SIZE of such a List at once: its largest object fits (default 512M)
${archiveLimitsUsage}
With --json, an input of 16 MiB or more is read on two threads; KUBE_STATUS_LENS_THREADS=1 keeps it to one.
Exit codes: 0 fine; 1 --fail-on matched; 2 an input could not be read or parsed (other files are still reported).
The table's last line says which, and why.
`;

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
		if (failsAt(result.tone, threshold)) failing++;
		const record = recordOf(result, object, from, line);
		if (jsonWriter) jsonWriter.add(record);
		else tableRecords.push(record);
	};
	const options = { now: io.now };

	// A big dump's objects are most of the memory: each file's records are written as it is read, and its objects
	// let go (a Fleet parent is held, and written at the end with the roll-up of the BundleDeployments read before and
	// after it), until an object whose status reads whole objects of the input (a KubeStellar report) comes. From there
	// on the objects are held, and the files already written are read again for what those objects read.
	type Origin = { from: Pick<ManifestFile, 'file' | 'entry' | 'eventsOf'>; line: number };
	const streamed = new StreamedStatuses<Origin>(options);
	const take = (object: unknown, from: Origin['from'], line: number): void => {
		const result = streamed.take(object, { from, line });
		if (result !== 'held') report(result, object, from, line);
	};
	const writtenFiles: string[] = [];
	// The files the worker read, and where their BundleDeployments come among the others: they are read again if a
	// Fleet parent needs them.
	const workerFiles: { file: string; at: number }[] = [];
	let held:
		| {
				objects: unknown[];
				files: Pick<ManifestFile, 'file' | 'entry' | 'eventsOf'>[];
				lines: number[];
		  }
		| undefined;
	// A big input's files are read on two threads: the worker's records are written in the files' order, as the
	// command would have written them.
	const workerReads =
		jsonWriter && io.statusWorker
			? StatusWorkerReads.start(io.statusWorker, manifestFilesUnder(paths), {
					maxWindowBytes: limits.maxWindowBytes,
					now: io.now,
					threshold,
				})
			: undefined;
	const readByWorker = (file: string): boolean => {
		if (!workerReads || !jsonWriter || held) return false;
		const read = workerReads.take(file);
		if (!read) return false;
		jsonWriter.addWritten(read.chunks);
		failing += read.failing;
		writtenFiles.push(file);
		workerFiles.push({ file, at: streamed.bundleDeploymentsTaken });
		return true;
	};
	// A List as `kubectl get -o json` writes it is read from its bytes an object at a time, each written before the
	// next is parsed (so objects die young); the file's records are held until its end proves it such a List, and
	// taken back otherwise (then the file is read the usual way).
	const readListObjects = (file: string): boolean | string => {
		if (held) return false;
		const from = { file };
		const failingBefore = failing;
		const tableLength = tableRecords.length;
		const pending = jsonWriter?.begin();
		const back = streamed.mark();
		const read = visitJsonListFile(file, limits.maxWindowBytes, (object, line) => {
			if (!StreamedStatuses.takes(object)) return false;
			take(object, from, line + 1);
			return true;
		});
		if (read === true) {
			pending?.commit();
			writtenFiles.push(file);
			return true;
		}
		pending?.rollback();
		back();
		failing = failingBefore;
		tableRecords.length = tableLength;
		return read;
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
				parsed.objects.every((entry) => StreamedStatuses.takes(entry.object))
			) {
				for (const entry of parsed.objects) take(entry.object, read, entry.range.start.line + 1);
				writtenFiles.push(file);
				return;
			}
			// From here on every file is read here (the worker's files too): their objects are held.
			workerReads?.stop();
			held ??= { objects: [], files: [], lines: [] };
			for (const entry of parsed.objects) {
				held.objects.push(entry.object);
				held.files.push(read);
				held.lines.push(entry.range.start.line + 1);
			}
		},
		dumpEntries,
		readListObjects,
		readByWorker,
	);
	workerReads?.stop();
	io.workerFilesRead?.(workerReads?.handled ?? 0);
	if (held) {
		// The Fleet parents of the files written early were held, not written: they are written from here.
		const written: unknown[] = [];
		const writtenParents: { index: number; from: ManifestFile; line: number }[] = [];
		if (writtenFiles.length > 0) {
			// Read errors and problems were reported the first time.
			readEachManifest(
				writtenFiles,
				() => undefined,
				limits,
				(read) => {
					for (const entry of read.parsed.objects) {
						if (isFleetParent(entry.object)) {
							writtenParents.push({
								index: written.length,
								from: read,
								line: entry.range.start.line + 1,
							});
						}
						written.push(entry.object);
					}
				},
			);
		}
		const results: (StatusResult | undefined)[] = computeStatuses(
			[...written, ...held.objects],
			options,
		);
		// Fleet's parents last, as when nothing is held.
		const heldParents: number[] = [];
		const reportHeld = (index: number): void => {
			const result = results[written.length + index];
			if (result) {
				report(
					result,
					held?.objects[index],
					held?.files[index] ?? { file: '' },
					held?.lines[index] ?? 0,
				);
			}
			// Each object is let go once written.
			if (held) held.objects[index] = undefined;
			results[written.length + index] = undefined;
		};
		for (let index = 0; index < held.objects.length; index++) {
			if (isFleetParent(held.objects[index])) heldParents.push(index);
			else reportHeld(index);
		}
		for (const { index, from, line } of writtenParents) {
			const result = results[index];
			if (result) report(result, written[index], from, line);
		}
		for (const index of heldParents) reportHeld(index);
	} else if (streamed.holdsParents) {
		for (const { file, at } of workerFiles.reverse()) {
			const views: BundleDeploymentView[] = [];
			const gather = (object: unknown): void => {
				const view = StreamedStatuses.viewOf(object);
				if (view) views.push(view);
			};
			readEachManifest(
				[file],
				() => undefined,
				limits,
				({ parsed }) => {
					for (const entry of parsed.objects) gather(entry.object);
				},
				[],
				(listFile) => {
					const listed = visitJsonListFile(listFile, limits.maxWindowBytes, (object) => {
						gather(object);
						return true;
					});
					if (listed !== true) views.length = 0;
					return listed;
				},
			);
			streamed.gather(at, views);
		}
		for (const { object, origin, result } of streamed.finish()) {
			report(result, object, origin.from, origin.line);
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
