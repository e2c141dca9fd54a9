// The repository stands on its own: no source, test, doc or script cites files that exist only beside it (the
// working notes and copies of upstream documents a checkout does not have). Upstream sources are cited by their
// own name and place instead, e.g. Fleet docs "Status Fields" or kubernetes-sigs/cli-utils pkg/kstatus/status.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../../support/conformance.ts';

/** The folders and files checked, relative to the repository root. */
const folders = ['src', 'test', 'docs', 'syntaxes', 'examples', 'bench', 'scripts'];
const rootFiles = ['README.md', 'ARCHITECTURE.md', 'package.json'];

/** This file names the patterns, so it is the one file not checked. */
const self = 'test/unit/repository/selfContained.test.ts';

/**
 * Citations of files outside the repository (case-insensitive). Spelled in pieces, so that a plain grep of the tree
 * for them finds no hit here either.
 */
const forbidden: readonly RegExp[] = [
	['seed', ' 00'],
	['seeds', ' 00'],
	['status', '-rules'],
	['rule', ' book'],
	['\\.\\.', '\\/shared'],
	['KSL_', 'SHARED_DIR'],
	['\\/work', '\\/shared'],
].map((parts) => new RegExp(parts.join(''), 'i'));

/** Folders a directory walk never enters (build output, dependencies, test artefacts). */
const skippedDirs = new Set(['node_modules', '.git', 'dist', 'out', '.vscode-test', '.artifacts']);

/** Files that are not text. */
const binaryExtension = /\.(png|jpe?g|gif|ico|webp|woff2?|ttf|vsix|zip|gz|tgz|wasm)$/i;

function inScope(path: string): boolean {
	return rootFiles.includes(path) || folders.some((folder) => path.startsWith(`${folder}/`));
}

/** The files git knows (tracked, plus new files not ignored), or null when git cannot answer. */
function gitFiles(): string[] | null {
	try {
		const out = execFileSync(
			'git',
			[
				'ls-files',
				'-z',
				'--cached',
				'--others',
				'--exclude-standard',
				'--',
				...folders,
				...rootFiles,
			],
			{
				cwd: repoRoot,
				encoding: 'utf8',
				maxBuffer: 64 * 1024 * 1024,
				stdio: ['ignore', 'pipe', 'ignore'],
			},
		);
		return [...new Set(out.split('\0').filter((path) => path.length > 0))];
	} catch {
		return null;
	}
}

function walk(dir: string, out: string[]): void {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		if (entry.isDirectory()) {
			if (!skippedDirs.has(entry.name)) walk(join(dir, entry.name), out);
		} else if (entry.isFile()) {
			out.push(relative(repoRoot, join(dir, entry.name)).split(sep).join('/'));
		}
	}
}

/** Every file in scope, relative to the repository root with forward slashes. */
function filesInScope(): string[] {
	const fromGit = gitFiles();
	if (fromGit) return fromGit.filter(inScope);
	const out: string[] = [];
	for (const folder of folders) {
		const dir = join(repoRoot, folder);
		if (existsSync(dir)) walk(dir, out);
	}
	for (const file of rootFiles) if (existsSync(join(repoRoot, file))) out.push(file);
	return out;
}

/** `file:line: text` for every line that cites something outside the repository. */
function findCitations(files: readonly string[]): string[] {
	const hits: string[] = [];
	for (const file of files) {
		if (file === self || binaryExtension.test(file)) continue;
		const path = join(repoRoot, file);
		// git lists tracked files deleted in the working tree too.
		if (!existsSync(path) || !statSync(path).isFile()) continue;
		const text = readFileSync(path, 'utf8');
		if (text.includes('\0')) continue;
		text.split('\n').forEach((line, index) => {
			if (forbidden.some((pattern) => pattern.test(line))) {
				hits.push(`${file}:${index + 1}: ${line.trim().slice(0, 160)}`);
			}
		});
	}
	return hits;
}

void describe('self-contained repository', () => {
	void it('finds the files it checks', () => {
		const files = filesInScope();
		assert.ok(files.includes('package.json'), 'package.json not found');
		assert.ok(
			files.some((file) => file.startsWith('src/')),
			'no file under src/ found',
		);
	});

	void it('cites no file outside the repository (the seed documents, the rules notes, the shared folder)', () => {
		const hits = findCitations(filesInScope());
		assert.deepEqual(
			hits,
			[],
			`cite the upstream source by its own name and place instead:\n${hits.join('\n')}`,
		);
	});
});
