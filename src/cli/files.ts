import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseManifests, type ParseResult } from '../core/manifest/parse.ts';
import { visibleLine } from '../core/text/visible.ts';
import { decodeFileBytes } from '../files/decodeFile.ts';
import { fileKindOf, readRegularFileSync } from '../files/regularFile.ts';

const manifestExtensions = ['.yaml', '.yml', '.json'];
const skippedFolders = new Set(['node_modules', '.git']);

/** The per-file limit when --max-file-size is not given: a `kubectl get -A -o yaml` of a big cluster fits. */
const defaultMaxFileBytes = 64 * 1024 * 1024;

/** How files are read. */
export interface ReadLimits {
	/** Files larger than this are not read (an input error). */
	readonly maxFileBytes: number;
}

/** The `--max-file-size SIZE` option every command takes. */
export const maxFileSizeOption = { 'max-file-size': 'SIZE' } as const;

/** The limits the options ask for, or why the --max-file-size value is not a size. */
export function readLimitsOf(values: Readonly<Record<string, string>>): ReadLimits | string {
	const given = values['max-file-size'];
	if (given === undefined) return { maxFileBytes: defaultMaxFileBytes };
	const match = /^(\d+(?:\.\d+)?)\s*(?:([kmg])(?:i?b)?|b)?$/i.exec(given.trim());
	const units = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 } as const;
	const unit = match?.[2]?.toLowerCase() as keyof typeof units | undefined;
	const bytes = match ? Math.floor(Number(match[1]) * (unit ? units[unit] : 1)) : NaN;
	if (!(bytes > 0) || !Number.isSafeInteger(bytes)) {
		return `--max-file-size takes a size such as 128M, 2G or 1048576, not ${given}`;
	}
	return { maxFileBytes: bytes };
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
	return `${exact ? sizeText(size) : `more than ${sizeText(limit)}`} is over the limit of ${sizeText(limit)} per file (raise it with --max-file-size ${suggestion}M)`;
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
	unreadable: UnreadablePath[];
} {
	const files: string[] = [];
	const unreadable: UnreadablePath[] = [];
	const visited = new Set<string>();
	const visit = (path: string, named: boolean): void => {
		let stats;
		try {
			stats = statSync(path);
			const wanted =
				stats.isDirectory() ||
				named ||
				manifestExtensions.some((extension) => path.endsWith(extension));
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
		} else if (stats.isFile()) files.push(path);
		else unreadable.push({ path, message: `${fileKindOf(stats)}, not a regular file: not read` });
	};
	for (const path of paths) visit(path, true);
	return { files, unreadable };
}

/**
 * Reads the manifest files under the paths one at a time, handing each text to `visit` (so no more than one file's
 * text need be held); what cannot be read is reported on stderr. Returns whether any input could not be read.
 */
function readEachManifestText(
	paths: readonly string[],
	stderr: (text: string) => void,
	limits: ReadLimits,
	visit: (file: string, text: string) => void,
): boolean {
	let inputError = false;
	const { files, unreadable } = collectManifestFiles(paths);
	for (const entry of unreadable) {
		stderr(`${visibleLine(entry.path)}: cannot read: ${visibleLine(entry.message)}\n`);
		inputError = true;
	}
	const scratch: { buffer: Buffer | undefined } = { buffer: undefined };
	for (const file of files) {
		let message: string;
		try {
			const read = readFileBytes(file, limits, scratch);
			const decoded = 'bytes' in read ? decodeFileBytes(read.bytes) : read;
			if ('text' in decoded) {
				visit(file, decoded.text);
				continue;
			}
			message = decoded.error;
		} catch (error) {
			message = (error as Error).message;
		}
		stderr(`${visibleLine(file)}: cannot read: ${visibleLine(message)}\n`);
		inputError = true;
	}
	return inputError;
}

/** The texts of the manifest files under the paths; what cannot be read is reported on stderr and flagged. */
export function readManifestTexts(
	paths: readonly string[],
	stderr: (text: string) => void,
	limits: ReadLimits,
): { texts: { file: string; text: string }[]; inputError: boolean } {
	const texts: { file: string; text: string }[] = [];
	const inputError = readEachManifestText(paths, stderr, limits, (file, text) =>
		texts.push({ file, text }),
	);
	return { texts, inputError };
}

/** A manifest file as read and parsed by the core's reader. */
export interface ManifestFile {
	readonly file: string;
	readonly text: string;
	readonly parsed: ParseResult;
}

/**
 * Reads and parses (YAML, `kind: List`, JSON) the manifest files under the paths one at a time, handing each to
 * `visit`; what cannot be read or parsed is reported on stderr as `file:line:column: message` (parse problems after
 * the read errors) and flagged. Returns whether any input could not be read or parsed.
 */
export function readEachManifest(
	paths: readonly string[],
	stderr: (text: string) => void,
	limits: ReadLimits,
	visit: (file: ManifestFile) => void,
): boolean {
	const problemLines: string[] = [];
	const readError = readEachManifestText(paths, stderr, limits, (file, text) => {
		const parsed = parseManifests(text, { fileName: file });
		for (const problem of parsed.problems) {
			const { line, character } = problem.range.start;
			problemLines.push(
				`${visibleLine(file)}:${line + 1}:${character + 1}: ${visibleLine(problem.message)}\n`,
			);
		}
		visit({ file, text, parsed });
	});
	for (const line of problemLines) stderr(line);
	return readError || problemLines.length > 0;
}

/** The manifest files under the paths, parsed by the core's one reader (see readEachManifest). */
export function readManifests(
	paths: readonly string[],
	stderr: (text: string) => void,
	limits: ReadLimits,
): { files: ManifestFile[]; inputError: boolean } {
	const files: ManifestFile[] = [];
	const inputError = readEachManifest(paths, stderr, limits, (file) => files.push(file));
	return { files, inputError };
}
