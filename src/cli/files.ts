import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const manifestExtensions = ['.yaml', '.yml', '.json'];
const skippedFolders = new Set(['node_modules', '.git']);

/** A path the user named that could not be read, with why. */
export interface UnreadablePath {
	readonly path: string;
	readonly message: string;
}

/** The manifest files under the given paths (files as given, folders recursively), sorted within each folder. */
export function collectManifestFiles(paths: readonly string[]): {
	files: string[];
	unreadable: UnreadablePath[];
} {
	const files: string[] = [];
	const unreadable: UnreadablePath[] = [];
	const visit = (path: string, named: boolean): void => {
		let stats;
		try {
			stats = statSync(path);
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
		} else if (named || manifestExtensions.some((extension) => path.endsWith(extension))) {
			files.push(path);
		}
	};
	for (const path of paths) visit(path, true);
	return { files, unreadable };
}
