// What the workspace's manifests parsed to, kept for the next start of the same workspace: parsing is most of a first
// read (YAML for 10,000 objects takes longer than building their graph), and most files have not changed since.
// A file's entry is used only while its stat is the one taken before it was read (size, mtime, ctime, inode: ctime
// changes with every write and no tool sets it back; a file changed in the last 2 s is not kept, as times are coarse),
// and only by the engine bundle that wrote it. A file with a Secret is never kept: its data stays where the user put it.
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { WorkerObject, WorkerProblem } from './manifestWorkerClient.ts';

/** A file's stat, as the cache compares it. */
export interface FileStamp {
	readonly size: number;
	readonly mtimeMs: number;
	readonly ctimeMs: number;
	readonly ino: number;
}

/** A file's objects and the parser's problems, zero-based lines. */
export interface ParsedObjects {
	readonly objects: readonly WorkerObject[];
	readonly problems: readonly WorkerProblem[];
}

interface CacheEntry extends FileStamp, ParsedObjects {}

interface CacheFile {
	readonly key: string;
	readonly files: Record<string, CacheEntry>;
}

/**
 * A file changed this recently is not kept: file times are coarse (a few ms), so a second write of the same size right
 * after the stat could leave the same stamp on other content (git's "racily clean" files).
 */
const settledMs = 2000;

/** Past this size the cache is not written: reading it back would cost about what parsing does. */
const maxCacheBytes = 64 * 1024 * 1024;

/** The stat of a regular file, or undefined (missing, not a regular file, unreadable). */
export async function stampOf(path: string): Promise<FileStamp | undefined> {
	try {
		const stats = await stat(path);
		if (!stats.isFile()) return undefined;
		return { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
	} catch {
		return undefined;
	}
}

function sameStamp(a: FileStamp, b: FileStamp): boolean {
	return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

/** True when JSON gives the value back as it is: no integer beyond 2^53 (kept exact beside it), no NaN or Infinity. */
function survivesJson(value: unknown): boolean {
	if (typeof value === 'number') {
		return Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value));
	}
	if (typeof value !== 'object' || value === null) {
		return typeof value === 'string' || typeof value === 'boolean' || value === null;
	}
	if (Array.isArray(value)) return value.every(survivesJson);
	if (Object.getPrototypeOf(value) !== Object.prototype) return false;
	for (const key in value) {
		if (!survivesJson((value as Record<string, unknown>)[key])) return false;
	}
	return true;
}

/** A Secret, or a List holding one: its data is not copied into the extension's storage. */
function holdsSecret(object: Record<string, unknown>): boolean {
	if (object.kind === 'Secret') return true;
	return Array.isArray(object.items)
		? object.items.some(
				(item: unknown) =>
					typeof item === 'object' && item !== null && holdsSecret(item as Record<string, unknown>),
			)
		: false;
}

function isEntry(value: unknown): value is CacheEntry {
	if (typeof value !== 'object' || value === null) return false;
	const entry = value as Partial<Record<keyof CacheEntry, unknown>>;
	return (
		typeof entry.size === 'number' &&
		typeof entry.mtimeMs === 'number' &&
		typeof entry.ctimeMs === 'number' &&
		typeof entry.ino === 'number' &&
		Array.isArray(entry.objects) &&
		entry.objects.every(
			(item: unknown) =>
				typeof item === 'object' &&
				item !== null &&
				typeof (item as { line?: unknown }).line === 'number' &&
				typeof (item as { object?: unknown }).object === 'object' &&
				(item as { object?: unknown }).object !== null,
		) &&
		Array.isArray(entry.problems) &&
		entry.problems.every(
			(item: unknown) =>
				typeof item === 'object' &&
				item !== null &&
				typeof (item as { line?: unknown }).line === 'number' &&
				typeof (item as { message?: unknown }).message === 'string',
		)
	);
}

/**
 * The cache of one workspace, in one JSON file. `key` names the parser that wrote it (the engine bundle's own stat):
 * another key's cache is ignored. Nothing here throws: a missing, damaged or unwritable cache means parsing as usual.
 */
export class ParseCache {
	private readonly path: string;
	private readonly key: string;
	private loaded: Map<string, CacheEntry> | undefined;
	private readonly remembered = new Map<string, CacheEntry>();
	/** Entries given back by lookup this run. */
	hits = 0;

	constructor(path: string, key: string) {
		this.path = path;
		this.key = key;
	}

	/** Reads the cache file once; later calls wait for the same read. */
	async load(): Promise<void> {
		if (this.loaded) return;
		const entries = new Map<string, CacheEntry>();
		this.loaded = entries;
		try {
			const parsed = JSON.parse(await readFile(this.path, 'utf8')) as Partial<CacheFile>;
			if (parsed.key !== this.key || typeof parsed.files !== 'object' || parsed.files === null) {
				return;
			}
			for (const [path, entry] of Object.entries(parsed.files)) {
				if (isEntry(entry)) entries.set(path, entry);
			}
		} catch {
			// No cache yet, or one that cannot be read: every file is parsed.
		}
	}

	/** What the file parsed to when it had this stamp, or undefined. */
	lookup(path: string, stamp: FileStamp): ParsedObjects | undefined {
		const entry = this.loaded?.get(path);
		if (!entry || !sameStamp(entry, stamp)) return undefined;
		this.hits++;
		this.remembered.set(path, entry);
		return { objects: entry.objects, problems: entry.problems };
	}

	/** Keeps what a file parsed to, stamped as it was before it was read, for the next start. */
	remember(path: string, stamp: FileStamp, parsed: ParsedObjects, now = Date.now()): void {
		const changedAt = Math.max(stamp.mtimeMs, stamp.ctimeMs);
		const objects = parsed.objects.map((item) => item.object);
		if (now - changedAt < settledMs || objects.some(holdsSecret) || !survivesJson(objects)) {
			this.remembered.delete(path);
			return;
		}
		this.remembered.set(path, {
			...stamp,
			objects: parsed.objects.map(({ object, line }) => ({ object, line })),
			problems: parsed.problems.map(({ line, message }) => ({ line, message })),
		});
	}

	/** Drops a file (deleted, or no longer read). */
	forget(path: string): void {
		this.remembered.delete(path);
	}

	/** True when the next start would find something this run did not: a file parsed, changed or gone. */
	get changed(): boolean {
		const loaded = this.loaded ?? new Map<string, CacheEntry>();
		if (loaded.size !== this.remembered.size) return true;
		for (const [path, entry] of this.remembered) {
			if (loaded.get(path) !== entry) return true;
		}
		return false;
	}

	/**
	 * Writes what was remembered, aside and renamed (a window starting meanwhile reads all or none); true if written.
	 * It is made a file at a time, giving the thread back every 10 ms: a big workspace's cache takes hundreds of ms to
	 * write out, and the extension host's thread also answers the view.
	 */
	async save(): Promise<boolean> {
		if (!this.changed) return false;
		const entries = [...this.remembered];
		try {
			const parts = [`{"key":${JSON.stringify(this.key)},"files":{`];
			let length = parts[0]?.length ?? 0;
			let sliceStart = Date.now();
			for (const [index, [path, entry]] of entries.entries()) {
				const part = `${index === 0 ? '' : ','}${JSON.stringify(path)}:${JSON.stringify(entry)}`;
				length += part.length;
				if (length > maxCacheBytes) return false;
				parts.push(part);
				if (Date.now() - sliceStart >= 10) {
					await new Promise((resolve) => setImmediate(resolve));
					sliceStart = Date.now();
				}
			}
			parts.push('}}');
			await mkdir(dirname(this.path), { recursive: true });
			const partial = `${this.path}.${process.pid}.partial`;
			await writeFile(partial, parts.join(''));
			await rename(partial, this.path);
			this.loaded = new Map(entries);
			return true;
		} catch {
			return false;
		}
	}
}
