// A folder of `kubectl get -o yaml` dumps read into the same store a live session fills, so a cluster can be
// looked at without access to it. Each file is one source (its path), as each watched resource is one live.
import type { Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseManifests } from '../core/manifest/parse.ts';
import { decodeFileBytes } from '../files/decodeFile.ts';
import { fileKindOf, readRegularFile } from '../files/regularFile.ts';
import { ObjectStore, trimInPlace } from './store.ts';

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
			// Trimmed of managedFields and Secret data, as live objects are.
			trimInPlace(object);
			if (store.upsert(file.path, object)) objects++;
		}
		read.push({ path: file.path, objects });
	}
	return { store, files: read, problems };
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
			else {
				problems.push({ path: full, message: `skipped: ${fileKindOf(stats)}, not a regular file` });
			}
		}
	};
	await walk(folder);
	return found;
}

/** A dump file's bytes, or why they were not read. */
async function readBounded(file: string, maxBytes: number): Promise<Uint8Array | string> {
	const read = await readRegularFile(file, maxBytes);
	if ('notRegular' in read) return `skipped: ${read.notRegular}, not a regular file`;
	if ('tooLarge' in read) {
		const size = read.grew
			? 'the file grew while it was read and'
			: `${Math.round(read.tooLarge / 1024 / 1024)} MiB`;
		return `skipped: ${size} is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB`;
	}
	return read.bytes;
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
			const decoded = decodeFileBytes(read);
			if ('text' in decoded) texts.push({ path: file, text: decoded.text });
			else problems.push({ path: file, message: `cannot read: ${decoded.error}` });
		} catch (error) {
			problems.push({ path: file, message: `cannot read: ${String(error)}` });
		}
	}
	const loaded = loadDumpTexts(texts);
	return { ...loaded, problems: [...problems, ...loaded.problems] };
}
