// Reading a `fleet dump` archive (a gzipped tar, rancher/fleet's internal/cmd/cli/dump/dump.go) as a stream, with
// tar-stream for the tar format: nothing is written anywhere, entry names are only matched (core/manifest/fleetDump.ts),
// and three bounds hold whatever the archive claims: entries, bytes after decompression (so a decompression bomb ends
// at the limit), and bytes per entry. What was read before a limit, a truncation or corrupt data is kept, with where
// the read stopped.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { extract, type Header } from 'tar-stream';
import { isDumpEntryName } from '../core/manifest/fleetDump.ts';
import { decodeFileBytes } from './decodeFile.ts';
import { fileKindOf } from './regularFile.ts';

/** The bounds of one archive's read. */
export interface DumpReadLimits {
	readonly maxEntries: number;
	/** Bytes of the tar stream after decompression. */
	readonly maxInflatedBytes: number;
	/** Bytes of one entry. */
	readonly maxEntryBytes: number;
}

/** How the user raises each limit, in the words of the front end ("--max-archive-entries", a setting's name). */
export interface DumpLimitNames {
	readonly maxEntries: string;
	readonly maxInflatedBytes: string;
	readonly maxEntryBytes: string;
}

/** An entry's text, by its name in the archive. */
export interface DumpEntryText {
	readonly name: string;
	readonly text: string;
}

/** An entry that was not read, and why. */
export interface DumpEntryNote {
	readonly entry: string;
	readonly message: string;
}

/** What reading an archive gave. */
export type FleetDumpRead =
	/** A regular file, but not a dump (not gzip, empty, or its first entry is not named like a dump's). */
	| { readonly kind: 'not-a-dump'; readonly why: string }
	| { readonly kind: 'unreadable'; readonly message: string }
	| {
			readonly kind: 'dump';
			readonly entries: readonly DumpEntryText[];
			/** Entries skipped on purpose (links, odd names, metrics): worth a log line, not an error. */
			readonly notes: readonly DumpEntryNote[];
			/** Limits hit, entries that are not text, and where a truncated or corrupt archive stopped. */
			readonly errors: readonly string[];
	  };

const openFlags =
	constants.O_RDONLY | ((constants as Partial<Record<string, number>>).O_NONBLOCK ?? 0);

function sizeText(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${Number((bytes / 1024 / 1024).toFixed(1))} MiB`;
	if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
	return `${bytes} bytes`;
}

function entryKindText(header: Header): string {
	const kind = header.type.replace(/-/g, ' ');
	return header.linkname ? `a ${kind} to ${JSON.stringify(header.linkname)}` : `a ${kind}`;
}

/** Reads the dump archive at `path` within the limits (see the top of this file). Never throws. */
export async function readFleetDump(
	path: string,
	limits: DumpReadLimits,
	raise: DumpLimitNames,
): Promise<FleetDumpRead> {
	let handle;
	try {
		handle = await open(path, openFlags);
	} catch (error) {
		return { kind: 'unreadable', message: (error as Error).message };
	}
	try {
		const stats = await handle.stat();
		if (!stats.isFile()) {
			return { kind: 'unreadable', message: `${fileKindOf(stats)}, not a regular file: not read` };
		}
		return await readArchiveStream(handle.createReadStream({ autoClose: false }), limits, raise);
	} catch (error) {
		return { kind: 'unreadable', message: (error as Error).message };
	} finally {
		await handle.close();
	}
}

function readArchiveStream(
	source: NodeJS.ReadableStream & { destroy(error?: Error): void },
	limits: DumpReadLimits,
	raise: DumpLimitNames,
): Promise<FleetDumpRead> {
	const entries: DumpEntryText[] = [];
	const notes: DumpEntryNote[] = [];
	const errors: string[] = [];
	const gunzip = createGunzip();
	const tar = extract();
	let inflated = 0;
	let entryCount = 0;
	let lastEntry: string | undefined;
	let notDump: string | undefined;
	let stopped = false;

	const where = (): string =>
		lastEntry === undefined
			? 'before the first entry'
			: `after ${entryCount} ${entryCount === 1 ? 'entry' : 'entries'} (the last ${JSON.stringify(lastEntry)})`;
	const stop = (message: string): void => {
		if (stopped) return;
		stopped = true;
		if (message !== '') errors.push(message);
		source.destroy();
		gunzip.destroy();
		tar.destroy();
	};

	return new Promise((resolve) => {
		const finish = (): void => {
			if (notDump !== undefined) resolve({ kind: 'not-a-dump', why: notDump });
			else if (entryCount === 0 && errors.length === 0) {
				resolve({ kind: 'not-a-dump', why: 'an archive without entries' });
			} else resolve({ kind: 'dump', entries, notes, errors });
		};
		source.on('error', (error: Error) => stop(`reading stopped ${where()}: ${error.message}`));
		gunzip.on('error', (error: Error) => {
			if (inflated === 0) {
				notDump = `not gzip data (${error.message})`;
				stop('');
			} else {
				stop(
					`the archive ends early or is corrupt: reading stopped ${where()}, at ${sizeText(inflated)} decompressed (${error.message})`,
				);
			}
		});
		gunzip.on('data', (chunk: Buffer) => {
			inflated += chunk.length;
			if (inflated > limits.maxInflatedBytes) {
				stop(
					`more than ${sizeText(limits.maxInflatedBytes)} after decompression, the limit per archive (raise it with ${raise.maxInflatedBytes}): reading stopped ${where()}`,
				);
				return;
			}
			if (!tar.write(chunk)) {
				gunzip.pause();
				tar.once('drain', () => gunzip.resume());
			}
		});
		gunzip.on('end', () => tar.end(undefined));
		tar.on('error', (error: Error) => {
			stop(`the archive is not a complete tar: reading stopped ${where()} (${error.message})`);
		});
		tar.on('close', finish);
		tar.on('entry', (header, stream, next) => {
			const name = header.name;
			entryCount++;
			if (entryCount === 1 && !isDumpEntryName(name)) {
				notDump = `its first entry, ${JSON.stringify(name)}, is not named as fleet dump names them`;
				stop('');
				return;
			}
			if (entryCount > limits.maxEntries) {
				entryCount--;
				stop(
					`more than ${limits.maxEntries} entries, the limit per archive (raise it with ${raise.maxEntries}): reading stopped ${where()}`,
				);
				return;
			}
			lastEntry = name;
			const skip = (): void => {
				stream.on('end', () => next());
				stream.resume();
			};
			if (header.type !== 'file' && header.type !== 'contiguous-file') {
				notes.push({
					entry: name,
					message: `${entryKindText(header)}, not a regular file: skipped`,
				});
				skip();
				return;
			}
			if (!isDumpEntryName(name)) {
				notes.push({ entry: name, message: 'not a name fleet dump writes: skipped' });
				skip();
				return;
			}
			if (header.size > limits.maxEntryBytes) {
				errors.push(
					`${JSON.stringify(name)}: ${sizeText(header.size)} is over the limit of ${sizeText(limits.maxEntryBytes)} per entry (raise it with ${raise.maxEntryBytes}): not read`,
				);
				skip();
				return;
			}
			const chunks: Buffer[] = [];
			stream.on('data', (chunk: unknown) => {
				chunks.push(chunk as Buffer);
			});
			stream.on('end', () => {
				const decoded = decodeFileBytes(Buffer.concat(chunks));
				if ('text' in decoded) entries.push({ name, text: decoded.text });
				else errors.push(`${JSON.stringify(name)}: cannot read: ${decoded.error}`);
				next();
			});
		});
		source.pipe(gunzip);
	});
}
