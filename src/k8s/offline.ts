// A folder of `kubectl get -o yaml` dumps read into the same store a live session fills, so a cluster can be
// looked at without access to it. Each file is one source (its path), as each watched resource is one live.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
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

async function dumpFilesIn(folder: string, limit: number): Promise<string[]> {
	const found: string[] = [];
	const walk = async (directory: string): Promise<void> => {
		const entries = await readdir(directory, { withFileTypes: true });
		entries.sort((a, b) => a.name.localeCompare(b.name));
		for (const entry of entries) {
			if (found.length >= limit) return;
			if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
			const full = path.join(directory, entry.name);
			if (entry.isDirectory()) await walk(full);
			else if (entry.isFile() && dumpExtensions.has(path.extname(entry.name).toLowerCase())) {
				found.push(full);
			}
		}
	};
	await walk(folder);
	return found;
}

/** Reads every .yaml, .yml and .json file under a folder into a store. Never throws: problems are data. */
export async function loadDumpFolder(folder: string, options: DumpOptions = {}): Promise<DumpLoad> {
	const maxFileBytes = options.maxFileBytes ?? 64 * 1024 * 1024;
	const maxFiles = options.maxFiles ?? 10_000;
	const problems: DumpProblem[] = [];
	let paths: string[];
	try {
		paths = await dumpFilesIn(folder, maxFiles);
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
			const info = await stat(file);
			if (info.size > maxFileBytes) {
				problems.push({
					path: file,
					message: `skipped: ${Math.round(info.size / 1024 / 1024)} MiB is larger than ${Math.round(maxFileBytes / 1024 / 1024)} MiB`,
				});
				continue;
			}
			texts.push({ path: file, text: await readFile(file, 'utf8') });
		} catch (error) {
			problems.push({ path: file, message: `cannot read: ${String(error)}` });
		}
	}
	const loaded = loadDumpTexts(texts);
	return { ...loaded, problems: [...problems, ...loaded.problems] };
}
