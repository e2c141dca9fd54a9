// A folder of `kubectl get -o yaml` dumps read into the same store a live session fills, so a cluster can be
// looked at without access to it. Each file is one source (its path), as each watched resource is one live.
import { constants, type Stats } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { decodeManifestBytes } from '../core/manifest/decode.ts';
import { parseManifests } from '../core/manifest/parse.ts';
import { ObjectStore } from './store.ts';

/** A problem with one dump file, as data. */
export interface DumpProblem {
	readonly path: string;
	readonly message: string;
	/** Zero-based line, when the problem has a place in the file. */
	readonly line?: number;
}

/** What a dump folder held. */
export interface DumpLoad {
	readonly store: ObjectStore;
	/** The files read, with how many objects each gave. */
	readonly files: readonly { readonly path: string; readonly objects: number }[];
	readonly problems: readonly DumpProblem[];
}

/** Options for reading a dump folder. */
export interface DumpOptions {
	/** Files larger than this are skipped and reported. Default 64 MiB (a `kubectl get -A -o yaml` can be big). */
	readonly maxFileBytes?: number;
	/** At most this many files are read. Default 10,000. */
	readonly maxFiles?: number;
}

const dumpExtensions = new Set(['.yaml', '.yml', '.json']);

/** Reads dump texts into a store: every object of every document and `kind: List`, keyed per file. Pure. */
export function loadDumpTexts(
	files: readonly { readonly path: string; readonly text: string }[],
	store: ObjectStore = new ObjectStore(),
): DumpLoad {
	const problems: DumpProblem[] = [];
	const read: { path: string; objects: number }[] = [];
	for (const file of files) {
		const parsed = parseManifests(file.text, { fileName: file.path });
		for (const problem of parsed.problems) {
			problems.push({ path: file.path, message: problem.message, line: problem.range.start.line });
		}
		let objects = 0;
		for (const { object } of parsed.objects) {
			// upsert trims managedFields and Secret data, as for live objects.
			if (store.upsert(file.path, object)) objects++;
		}
		read.push({ path: file.path, objects });
	}
	return { store, files: read, problems };
}

function kindOf(stats: Stats): string {
	if (stats.isFIFO()) return 'a named pipe';
	if (stats.isSocket()) return 'a socket';
	if (stats.isCharacterDevice()) return 'a character device';
	if (stats.isBlockDevice()) return 'a block device';
	return 'not a regular file';
}

// Symbolic links are followed, each folder and file once by its real path (links to a parent folder end); what is
// not a regular file is reported, never opened (a named pipe would wait for a writer forever).
async function dumpFilesIn(
	folder: string,
	limit: number,
	problems: DumpProblem[],
): Promise<string[]> {
	const found: string[] = [];
	const visited = new Set([await realpath(folder)]);
	const walk = async (directory: string): Promise<void> => {
		const entries = await readdir(directory);
		entries.sort((a, b) => a.localeCompare(b));
		for (const name of entries) {
			if (found.length >= limit) return;
			if (name.startsWith('.') || name === 'node_modules') continue;
			const full = path.join(directory, name);
			let stats: Stats;
			let real: string;
			try {
				stats = await stat(full);
				if (!stats.isDirectory() && !dumpExtensions.has(path.extname(name).toLowerCase())) continue;
				real = await realpath(full);
			} catch (error) {
				problems.push({ path: full, message: `cannot read: ${String(error)}` });
				continue;
			}
			if (visited.has(real)) continue;
			visited.add(real);
			if (stats.isDirectory()) await walk(full);
			else if (stats.isFile()) found.push(full);
			else problems.push({ path: full, message: `skipped: ${kindOf(stats)}, not a regular file` });
		}
	};
	await walk(folder);
	return found;
}

/**
 * A regular file's bytes, at most `maxBytes`: opened without blocking, checked on the open descriptor, and read to
 * at most one byte past the limit, so a file that grows while it is read still ends the read.
 */
async function readBounded(file: string, maxBytes: number): Promise<Uint8Array | string> {
	const nonBlocking = (constants as Partial<Record<string, number>>).O_NONBLOCK ?? 0;
	const handle = await open(file, constants.O_RDONLY | nonBlocking);
	try {
		const info = await handle.stat();
		if (!info.isFile()) return `skipped: ${kindOf(info)}, not a regular file`;
		const tooLarge = (size: string): string =>
			`skipped: ${size} is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB`;
		if (info.size > maxBytes) return tooLarge(`${Math.round(info.size / 1024 / 1024)} MiB`);
		let buffer = Buffer.allocUnsafe(info.size + 1);
		let total = 0;
		for (;;) {
			if (total === buffer.length) {
				const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2 + 65536, maxBytes + 1));
				buffer.copy(grown, 0, 0, total);
				buffer = grown;
			}
			const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
			if (bytesRead === 0) break;
			total += bytesRead;
			if (total > maxBytes) return tooLarge('the file grew while it was read and');
		}
		return buffer.subarray(0, total);
	} finally {
		await handle.close();
	}
}

/** Reads every .yaml, .yml and .json file under a folder into a store. Never throws: problems are data. */
export async function loadDumpFolder(folder: string, options: DumpOptions = {}): Promise<DumpLoad> {
	const maxFileBytes = options.maxFileBytes ?? 64 * 1024 * 1024;
	const maxFiles = options.maxFiles ?? 10_000;
	const problems: DumpProblem[] = [];
	let paths: string[];
	try {
		paths = await dumpFilesIn(folder, maxFiles, problems);
	} catch (error) {
		return {
			store: new ObjectStore(),
			files: [],
			problems: [{ path: folder, message: `cannot read the folder: ${String(error)}` }],
		};
	}
	if (paths.length >= maxFiles) {
		problems.push({ path: folder, message: `only the first ${maxFiles} files were read` });
	}
	const texts: { path: string; text: string }[] = [];
	for (const file of paths) {
		try {
			const read = await readBounded(file, maxFileBytes);
			if (typeof read === 'string') {
				problems.push({ path: file, message: read });
				continue;
			}
			const decoded = decodeManifestBytes(read);
			if ('text' in decoded) texts.push({ path: file, text: decoded.text });
			else problems.push({ path: file, message: `cannot read: ${decoded.error}` });
		} catch (error) {
			problems.push({ path: file, message: `cannot read: ${String(error)}` });
		}
	}
	const loaded = loadDumpTexts(texts);
	return { ...loaded, problems: [...problems, ...loaded.problems] };
}
