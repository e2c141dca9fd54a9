import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { eventsByObject, kindsHeldWhole, readDumpEntry } from '../core/manifest/fleetDump.ts';
import { visitJsonListItems } from '../core/manifest/jsonManifests.ts';
import { withJsonWindows } from '../files/jsonWindows.ts';
import { parseManifests, type ParsedObject, type ParseResult } from '../core/manifest/parse.ts';
import type { KubeEvent } from '../core/model/kubeEvent.ts';
import { getString } from '../core/model/object.ts';
import { visibleLine } from '../core/text/visible.ts';
import { decodeFileBytes } from '../files/decodeFile.ts';
import { readFleetDump } from '../files/fleetDump.ts';
import { parseOptions, type OptionSpec } from './options.ts';
import { fileKindOf, readRegularFileSync } from '../files/regularFile.ts';

const manifestExtensions = ['.yaml', '.yml', '.json'];
const archiveExtensions = ['.tgz', '.tar.gz'];
const skippedFolders = new Set(['node_modules', '.git']);

/**
 * The limit on a file read whole when --max-file-size is not given: YAML, and JSON not laid out as `kubectl get -o
 * json` writes a List, are held as one string and as the reader's tree of it, several times the file's size at once.
 * A List as kubectl writes it is read a window at a time instead (status), whatever its size.
 */
const defaultMaxFileBytes = 64 * 1024 * 1024;

/** The most of a file held at once when it is read a window at a time, when --max-buffer is not given. */
const defaultMaxWindowBytes = 512 * 1024 * 1024;

/** A fleet dump archive's bounds when not given: a dump of some thousands of BundleDeployments fits. */
const defaultMaxArchiveBytes = 1024 * 1024 * 1024;
const defaultMaxArchiveEntries = 100_000;

/** How files are read. */
export interface ReadLimits {
	/** Files read whole that are larger than this are not read (an input error); so are entries of an archive. */
	readonly maxFileBytes: number;
	/** A file read a window at a time holds no more than this at once (one object, or the end of the file). */
	readonly maxWindowBytes: number;
	/** A fleet dump archive's bytes after decompression; the read stops there. */
	readonly maxArchiveBytes: number;
	/** A fleet dump archive's entries; the read stops there. */
	readonly maxArchiveEntries: number;
}

/** The options of the read limits every command takes. */
export const maxFileSizeOption = {
	'max-file-size': 'SIZE',
	'max-buffer': 'SIZE',
	'max-archive-size': 'SIZE',
	'max-archive-entries': 'N',
} as const;

/** What the usage of a command that reads fleet dump archives says about their limits. */
export const archiveLimitsUsage = `  --max-archive-size SIZE
                     read no more than SIZE of a fleet dump archive after decompression (default 1G)
  --max-archive-entries N
                     read no more than N entries of a fleet dump archive (default 100000)
`;

function sizeOption(
	values: Readonly<Record<string, string>>,
	option: string,
): number | string | undefined {
	const given = values[option];
	if (given === undefined) return undefined;
	const match = /^(\d+(?:\.\d+)?)\s*(?:([kmg])(?:i?b)?|b)?$/i.exec(given.trim());
	const units = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 } as const;
	const unit = match?.[2]?.toLowerCase() as keyof typeof units | undefined;
	const bytes = match ? Math.floor(Number(match[1]) * (unit ? units[unit] : 1)) : NaN;
	if (!(bytes > 0) || !Number.isSafeInteger(bytes)) {
		return `--${option} takes a size such as 128M, 2G or 1048576, not ${given}`;
	}
	return bytes;
}

/** The limits the options ask for, or why a value is not a size or a count. */
export function readLimitsOf(values: Readonly<Record<string, string>>): ReadLimits | string {
	const maxFileBytes = sizeOption(values, 'max-file-size') ?? defaultMaxFileBytes;
	if (typeof maxFileBytes === 'string') return maxFileBytes;
	const maxWindowBytes = sizeOption(values, 'max-buffer') ?? defaultMaxWindowBytes;
	if (typeof maxWindowBytes === 'string') return maxWindowBytes;
	const maxArchiveBytes = sizeOption(values, 'max-archive-size') ?? defaultMaxArchiveBytes;
	if (typeof maxArchiveBytes === 'string') return maxArchiveBytes;
	const entries = values['max-archive-entries'];
	const maxArchiveEntries =
		entries === undefined ? defaultMaxArchiveEntries : Number(entries.trim());
	if (
		!Number.isSafeInteger(maxArchiveEntries) ||
		maxArchiveEntries <= 0 ||
		entries?.trim() === ''
	) {
		return `--max-archive-entries takes a number such as 200000, not ${entries ?? ''}`;
	}
	return { maxFileBytes, maxWindowBytes, maxArchiveBytes, maxArchiveEntries };
}

function sizeText(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${Number((bytes / 1024 / 1024).toFixed(1))} MiB`;
	if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
	return `${bytes} bytes`;
}

// The size to suggest: a round number of MiB the file fits in.
function tooLarge(size: number, limit: number, exact: boolean): string {
	let suggestion = 1;
	while (suggestion * 1024 * 1024 < Math.max(size, limit * 2)) suggestion *= 2;
	return `${exact ? sizeText(size) : `more than ${sizeText(limit)}`} is over the limit of ${sizeText(limit)} per file read whole (raise it with --max-file-size ${suggestion}M)`;
}

/** Why a file was not read a window at a time: one window would have had to hold more than the bound. */
function windowBoundText(needed: number, limit: number): string {
	let suggestion = 1;
	while (suggestion * 1024 * 1024 < needed) suggestion *= 2;
	return `one object of it needs more than the ${sizeText(limit)} held at once when a List is read a piece at a time (raise it with --max-buffer ${suggestion}M)`;
}

/**
 * Reads a List laid out as `kubectl get -o json` writes it an item at a time, a window of the file at a time (see
 * files/jsonWindows.ts and visitJsonListItems), handing each item and its line (from 0) to `visit`. True when the
 * file is such a List and every item was visited; false when it is not, or not sure, or `visit` said stop (then what
 * was visited means nothing, and the caller reads the file the usual way); a text when a window would have had to grow
 * past the bound (why the file was not read so).
 */
export function visitJsonListFile(
	file: string,
	maxWindowBytes: number,
	visit: (item: Record<string, unknown>, line: number) => boolean,
): boolean | string {
	let listed: boolean | undefined;
	let boundHit: number | undefined;
	try {
		listed = withJsonWindows(file, maxWindowBytes, (first, windows) => {
			const read = visitJsonListItems(first, visit);
			boundHit = windows.boundHit;
			return read;
		});
	} catch {
		// Not readable: the usual read says why.
		return false;
	}
	if (listed === true) return true;
	return boundHit === undefined ? false : windowBoundText(boundHit, maxWindowBytes);
}

/** The manifest files under the paths, in the order readEachManifest reads them (what cannot be listed left out). */
export function manifestFilesUnder(paths: readonly string[]): string[] {
	return collectManifestFiles(paths).files;
}

/** A file's bytes, or why they were not read, in the CLI's words. */
function readFileBytes(
	path: string,
	limits: ReadLimits,
	scratch: { buffer: Buffer | undefined },
): { bytes: Buffer } | { error: string } {
	const read = readRegularFileSync(path, limits.maxFileBytes, scratch);
	if ('notRegular' in read) return { error: `${read.notRegular}, not a regular file: not read` };
	if ('tooLarge' in read) {
		return { error: tooLarge(read.tooLarge, limits.maxFileBytes, !read.grew) };
	}
	return read;
}

/** A path the user named that could not be read, with why. */
export interface UnreadablePath {
	readonly path: string;
	readonly message: string;
}

/**
 * The manifest files under the given paths (files as given, folders recursively, symbolic links followed), sorted
 * within each folder. Each file and folder is visited once by its real path, so links to a parent folder end.
 */
function collectManifestFiles(paths: readonly string[]): {
	files: string[];
	archives: { path: string; named: boolean }[];
	unreadable: UnreadablePath[];
} {
	const files: string[] = [];
	const archives: { path: string; named: boolean }[] = [];
	const unreadable: UnreadablePath[] = [];
	const visited = new Set<string>();
	const visit = (path: string, named: boolean): void => {
		let stats;
		try {
			stats = statSync(path);
			const wanted =
				stats.isDirectory() ||
				named ||
				manifestExtensions.some((extension) => path.endsWith(extension)) ||
				isArchiveName(path);
			if (!wanted) return;
			const real = realpathSync(path);
			if (visited.has(real)) return;
			visited.add(real);
		} catch (error) {
			unreadable.push({
				path,
				message:
					(error as NodeJS.ErrnoException).code === 'ENOENT'
						? 'no such file or folder'
						: String((error as Error).message),
			});
			return;
		}
		if (stats.isDirectory()) {
			let entries: string[];
			try {
				entries = readdirSync(path).sort();
			} catch (error) {
				unreadable.push({ path, message: (error as Error).message });
				return;
			}
			for (const entry of entries) {
				if (skippedFolders.has(entry)) continue;
				visit(join(path, entry), false);
			}
		} else if (isArchiveName(path)) archives.push({ path, named });
		else if (stats.isFile()) files.push(path);
		else unreadable.push({ path, message: `${fileKindOf(stats)}, not a regular file: not read` });
	};
	for (const path of paths) visit(path, true);
	return { files, archives, unreadable };
}

function isArchiveName(path: string): boolean {
	const lower = path.toLowerCase();
	return archiveExtensions.some((extension) => lower.endsWith(extension));
}

/**
 * Reads the manifest files under the paths one at a time, handing each text to `visit` (so no more than one file's
 * text need be held); what cannot be read is reported on stderr. Returns how many paths and files could not be read.
 */
function readEachManifestText(
	paths: readonly string[],
	stderr: (text: string) => void,
	limits: ReadLimits,
	visit: (file: string, text: string) => void,
	readStreamed?: (file: string) => boolean | string,
	readElsewhere?: (file: string) => boolean,
): number {
	let unreadableCount = 0;
	const { files, unreadable } = collectManifestFiles(paths);
	for (const entry of unreadable) {
		stderr(`${visibleLine(entry.path)}: cannot read: ${visibleLine(entry.message)}\n`);
		unreadableCount++;
	}
	const scratch: { buffer: Buffer | undefined } = { buffer: undefined };
	for (const file of files) {
		if (readElsewhere?.(file)) continue;
		// What `readStreamed` and `visit` throw (stdout closed by its reader) is no read error.
		const streamed = readStreamed?.(file) ?? false;
		if (streamed === true) continue;
		let read: { bytes: Buffer } | { error: string };
		try {
			read = readFileBytes(file, limits, scratch);
		} catch (error) {
			read = { error: (error as Error).message };
		}
		if ('error' in read && typeof streamed === 'string') {
			read = { error: `${read.error}; ${streamed}` };
		}
		let decoded: { text: string } | { error: string };
		try {
			decoded = 'bytes' in read ? decodeFileBytes(read.bytes) : read;
		} catch (error) {
			decoded = { error: (error as Error).message };
		}
		if ('text' in decoded) visit(file, decoded.text);
		else {
			stderr(`${visibleLine(file)}: cannot read: ${visibleLine(decoded.error)}\n`);
			unreadableCount++;
		}
	}
	return unreadableCount;
}

/** The texts of the manifest files under the paths; what cannot be read is reported on stderr and flagged. */
export function readManifestTexts(
	paths: readonly string[],
	stderr: (text: string) => void,
	limits: ReadLimits,
): { texts: { file: string; text: string }[]; inputError: boolean } {
	const texts: { file: string; text: string }[] = [];
	const unreadable = readEachManifestText(paths, stderr, limits, (file, text) =>
		texts.push({ file, text }),
	);
	return { texts, inputError: unreadable > 0 };
}

/** A manifest file as read and parsed by the core's reader, or one entry of a fleet dump archive. */
export interface ManifestFile {
	readonly file: string;
	/** The entry of the archive `file` the objects come from. */
	readonly entry?: string;
	readonly text: string;
	readonly parsed: ParseResult;
	/** The Events about an object, newest first (a dump's Events; none for plain files). */
	readonly eventsOf?: (object: unknown) => readonly KubeEvent[];
}

/** A fleet dump archive as read: its entries that hold objects, its Events, and the kinds it holds whole. */
export interface DumpArchive {
	readonly path: string;
	readonly entries: readonly ManifestFile[];
	readonly events: readonly KubeEvent[];
	readonly kinds: ReadonlySet<string>;
}

/** The fleet dump archives read, and whether any could not be read whole (how many). */
export interface DumpArchives {
	readonly archives: readonly DumpArchive[];
	readonly inputError: boolean;
	readonly unreadableCount: number;
}

/**
 * Runs a command as `main` does: the fleet dump archives among its paths (named, or found in a folder) are read first,
 * as streams, and handed to it; without archives (or with a bad command line, which the command answers) it runs at
 * once.
 */
export function readingDumpArchives(
	argv: readonly string[],
	spec: OptionSpec,
	stderr: (text: string) => void,
	command: (dumps?: DumpArchives) => number | Promise<number>,
): number | Promise<number> {
	const parsed = parseOptions(argv, spec);
	if (parsed.kind !== 'ok') return command();
	const limits = readLimitsOf(parsed.values);
	if (typeof limits === 'string') return command();
	const archives = collectManifestFiles(parsed.paths).archives;
	if (archives.length === 0) return command();
	return readDumpArchives(archives, stderr, limits).then(command);
}

/**
 * Reads the fleet dump archives (see files/fleetDump.ts): one ManifestFile per entry that holds objects, each with
 * the archive's Events. A `.tgz` found in a folder that is no dump (a Helm chart) is passed over; one named on the
 * command line is an input error. Skipped entries, limits hit and where a read stopped are reported on stderr.
 */
async function readDumpArchives(
	archives: readonly { path: string; named: boolean }[],
	stderr: (text: string) => void,
	limits: ReadLimits,
): Promise<DumpArchives> {
	const dumps: DumpArchive[] = [];
	let unreadableCount = 0;
	for (const { path, named } of archives) {
		let inputError = false;
		const read = await readFleetDump(
			path,
			{
				maxEntries: limits.maxArchiveEntries,
				maxInflatedBytes: limits.maxArchiveBytes,
				maxEntryBytes: limits.maxFileBytes,
			},
			{
				maxEntries: '--max-archive-entries',
				maxInflatedBytes: '--max-archive-size',
				maxEntryBytes: '--max-file-size',
			},
		);
		if (read.kind !== 'dump') {
			if (read.kind === 'unreadable' || named) {
				const message =
					read.kind === 'unreadable' ? read.message : `not a fleet dump archive: ${read.why}`;
				stderr(`${visibleLine(path)}: cannot read: ${visibleLine(message)}\n`);
				unreadableCount++;
			}
			continue;
		}
		for (const note of read.notes) {
			stderr(
				`${visibleLine(path)}: ${visibleLine(JSON.stringify(note.entry))}: ${visibleLine(note.message)}\n`,
			);
		}
		for (const error of read.errors) {
			stderr(`${visibleLine(path)}: ${visibleLine(error)}\n`);
			inputError = true;
		}
		const events: KubeEvent[] = [];
		const archiveEntries: { entry: string; text: string; objects: readonly ParsedObject[] }[] = [];
		for (const { name, text } of read.entries) {
			const content = readDumpEntry(name, text);
			for (const event of content.events) events.push(event);
			for (const problem of content.problems) {
				const { line, character } = problem.range.start;
				stderr(
					`${visibleLine(path)}:${visibleLine(name)}:${line + 1}:${character + 1}: ${visibleLine(problem.message)}\n`,
				);
				inputError = true;
			}
			if (content.skipped !== undefined) {
				stderr(
					`${visibleLine(path)}: ${visibleLine(JSON.stringify(name))}: ${content.skipped}: skipped\n`,
				);
			}
			if (content.objects.length > 0) {
				archiveEntries.push({ entry: name, text: content.text, objects: content.objects });
			}
		}
		if (inputError) unreadableCount++;
		const eventsOf = eventsByObject(events);
		dumps.push({
			path,
			entries: archiveEntries.map(({ entry, text, objects }) => ({
				file: path,
				entry,
				text,
				parsed: { objects, problems: [], skippedDocuments: 0 },
				eventsOf,
			})),
			events,
			kinds: kindsHeldWhole(
				archiveEntries.flatMap(({ objects }) =>
					objects.map(({ object }) => getString(object, 'kind') ?? ''),
				),
			),
		});
	}
	return { archives: dumps, inputError: unreadableCount > 0, unreadableCount };
}

/**
 * Reads and parses (YAML, `kind: List`, JSON) the manifest files under the paths one at a time, handing each to
 * `visit`; what cannot be read or parsed is reported on stderr as `file:line:column: message` (parse problems after
 * the read errors) and flagged. Returns how many paths and files could not be read or parsed. `readElsewhere` is
 * asked first: true when the file was read and reported elsewhere (another thread). Then `readStreamed` may read the
 * file itself (a window at a time): true, and the file is neither read nor parsed here (it has no problems to report);
 * a text, and it did not, for that reason, which a read error here then names.
 */
export function readEachManifest(
	paths: readonly string[],
	stderr: (text: string) => void,
	limits: ReadLimits,
	visit: (file: ManifestFile) => void,
	dumpEntries: readonly ManifestFile[] = [],
	readStreamed?: (file: string) => boolean | string,
	readElsewhere?: (file: string) => boolean,
): number {
	const problemLines: string[] = [];
	let unparsedCount = 0;
	const unreadableCount = readEachManifestText(
		paths,
		stderr,
		limits,
		(file, text) => {
			const parsed = parseManifests(text, { fileName: file });
			if (parsed.problems.length > 0) unparsedCount++;
			for (const problem of parsed.problems) {
				const { line, character } = problem.range.start;
				problemLines.push(
					`${visibleLine(file)}:${line + 1}:${character + 1}: ${visibleLine(problem.message)}\n`,
				);
			}
			visit({ file, text, parsed });
		},
		readStreamed,
		readElsewhere,
	);
	for (const line of problemLines) stderr(line);
	for (const entry of dumpEntries) visit(entry);
	return unreadableCount + unparsedCount;
}

/** The manifest files under the paths, parsed by the core's one reader (see readEachManifest). */
export function readManifests(
	paths: readonly string[],
	stderr: (text: string) => void,
	limits: ReadLimits,
): { files: ManifestFile[]; inputError: boolean } {
	const files: ManifestFile[] = [];
	const failed = readEachManifest(paths, stderr, limits, (file) => files.push(file));
	return { files, inputError: failed > 0 };
}
