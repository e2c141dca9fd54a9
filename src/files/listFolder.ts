// Listing a local folder for the extension: what VS Code's file search (workspace.findFiles) would list for the same
// include and exclude globs, read with Node directly (findFiles is a round trip through the search service, most of
// a second under code-server even for a few files).
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExcludeMatcher, PathMatcher } from './glob.ts';
import { errorText } from '../core/text/errorText.ts';

/** A folder or link that could not be listed, with why. */
export interface UnlistedPath {
	readonly path: string;
	readonly message: string;
}

/** The files found (absolute paths, sorted), and what could not be listed. */
export interface FolderListing {
	readonly files: string[];
	readonly unlisted: UnlistedPath[];
}

function messageOf(error: unknown): string {
	return errorText(error);
}

/**
 * The files under `folder` whose folder-relative path `include` matches, skipping every file and folder `exclude`
 * matches (an excluded folder is not entered). Symbolic links are followed, and each real folder and file is listed
 * once: folders and files under their own path are taken first, so a link to something the folder already holds
 * adds nothing, and links that loop end.
 */
export async function listFolderFiles(
	folder: string,
	include: PathMatcher,
	exclude: ExcludeMatcher,
): Promise<FolderListing> {
	const files: string[] = [];
	const unlisted: UnlistedPath[] = [];
	const visited = new Set<string>();
	const links: { path: string; relative: string }[] = [];
	// Computed at most once per folder, for the entries with a `when` clause.
	const siblingsOf = (entries: readonly Dirent[]): ((name: string) => boolean) => {
		let names: Set<string> | undefined;
		return (name) => (names ??= new Set(entries.map((entry) => entry.name))).has(name);
	};
	// `real` is the folder's real path: below a real folder, an entry that is not a link is its own real path.
	const walk = async (directory: string, real: string, prefix: string): Promise<void> => {
		let entries: Dirent[];
		try {
			entries = await readdir(directory, { withFileTypes: true });
		} catch (error) {
			unlisted.push({ path: directory, message: messageOf(error) });
			return;
		}
		const folders: Promise<void>[] = [];
		const hasSibling = siblingsOf(entries);
		for (const entry of entries) {
			const relative = prefix + entry.name;
			if (exclude(relative, hasSibling)) continue;
			const path = join(directory, entry.name);
			const realPath = join(real, entry.name);
			if (entry.isSymbolicLink()) {
				links.push({ path, relative });
			} else if (entry.isDirectory()) {
				if (visited.has(realPath)) continue;
				visited.add(realPath);
				folders.push(walk(path, realPath, `${relative}/`));
			} else if (include(relative) && !visited.has(realPath)) {
				visited.add(realPath);
				files.push(path);
			}
		}
		await Promise.all(folders);
	};
	let realFolder: string;
	try {
		realFolder = await realpath(folder);
	} catch (error) {
		return { files, unlisted: [{ path: folder, message: messageOf(error) }] };
	}
	visited.add(realFolder);
	await walk(folder, realFolder, '');
	// Links after everything reached without one, in name order; those found under a linked folder in the next round.
	for (let round = links.splice(0); round.length > 0; round = links.splice(0)) {
		round.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
		for (const link of round) {
			let real: string;
			let isDirectory: boolean;
			try {
				real = await realpath(link.path);
				isDirectory = (await stat(real)).isDirectory();
			} catch (error) {
				// A dangling link lists nothing, as in VS Code's search.
				if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
					unlisted.push({ path: link.path, message: messageOf(error) });
				}
				continue;
			}
			if ((!isDirectory && !include(link.relative)) || visited.has(real)) continue;
			visited.add(real);
			if (isDirectory) await walk(link.path, real, `${link.relative}/`);
			else files.push(link.path);
		}
	}
	files.sort();
	return { files, unlisted };
}
