import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseManifests, type ParseResult } from '../core/manifest/parse.ts';
import { visibleLine } from '../core/text/visible.ts';

const manifestExtensions = ['.yaml', '.yml', '.json'];
const skippedFolders = new Set(['node_modules', '.git']);

/** A path the user named that could not be read, with why. */
export interface UnreadablePath {
	readonly path: string;
	readonly message: string;
}

/** The manifest files under the given paths (files as given, folders recursively), sorted within each folder. */
function collectManifestFiles(paths: readonly string[]): {
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

/** The texts of the manifest files under the paths; what cannot be read is reported on stderr and flagged. */
export function readManifestTexts(
	paths: readonly string[],
	stderr: (text: string) => void,
): { texts: { file: string; text: string }[]; inputError: boolean } {
	let inputError = false;
	const { files, unreadable } = collectManifestFiles(paths);
	for (const entry of unreadable) {
		stderr(`${visibleLine(entry.path)}: cannot read: ${visibleLine(entry.message)}\n`);
		inputError = true;
	}
	const texts: { file: string; text: string }[] = [];
	for (const file of files) {
		try {
			texts.push({ file, text: readFileSync(file, 'utf8') });
		} catch (error) {
			stderr(`${visibleLine(file)}: cannot read: ${visibleLine((error as Error).message)}\n`);
			inputError = true;
		}
	}
	return { texts, inputError };
}

/** A manifest file as read and parsed by the core's reader. */
export interface ManifestFile {
	readonly file: string;
	readonly text: string;
	readonly parsed: ParseResult;
}

/**
 * The manifest files under the paths, parsed (YAML, `kind: List`, JSON) by the core's one reader; what cannot be read
 * or parsed is reported on stderr as `file:line:column: message` and flagged.
 */
export function readManifests(
	paths: readonly string[],
	stderr: (text: string) => void,
): { files: ManifestFile[]; inputError: boolean } {
	const read = readManifestTexts(paths, stderr);
	let inputError = read.inputError;
	const files = read.texts.map(({ file, text }) => {
		const parsed = parseManifests(text, { fileName: file });
		for (const problem of parsed.problems) {
			const { line, character } = problem.range.start;
			stderr(
				`${visibleLine(file)}:${line + 1}:${character + 1}: ${visibleLine(problem.message)}\n`,
			);
			inputError = true;
		}
		return { file, text, parsed };
	});
	return { files, inputError };
}
