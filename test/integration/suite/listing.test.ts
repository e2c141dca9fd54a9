// The workspace listing reads local folders with Node (src/files/listFolder.ts) instead of VS Code's file search:
// here both run on the same folder and globs inside the real extension host, and must find the same files.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { globMatcher } from '../../../src/files/glob.ts';
import { listFolderFiles } from '../../../src/files/listFolder.ts';
import { eventually, extensionApi } from './support.ts';

const defaultExcludes = [
	'**/node_modules/**',
	'**/.git/**',
	'**/.git',
	'**/.svn',
	'**/.hg',
	'**/.DS_Store',
	'**/Thumbs.db',
	'**/node_modules',
	'**/bower_components',
	'**/*.code-search',
];

function writeTree(root: string, files: readonly string[]): void {
	for (const file of files) {
		mkdirSync(join(root, file, '..'), { recursive: true });
		writeFileSync(join(root, file), 'a: 1\n');
	}
}

/** A folder with excluded folders at several depths, odd names, and links: inside, outside, looping, dangling. */
function makeFolder(base: string): string {
	const folder = join(base, 'ws');
	const outside = join(base, 'outside');
	writeTree(folder, [
		'a.yaml',
		'b.yml',
		'c.json',
		'd.txt',
		'build/x.yaml',
		'src/build/y.yaml',
		'src/builder/z.yaml',
		'node_modules/m.yaml',
		'sub/node_modules/n.yaml',
		'.git/config.yaml',
		'.hidden/h.yaml',
		'deep/a/b/c/v1.yaml',
		'deep/a/b/c/v22.yaml',
		'deep/a/b/c/va.json',
		'charts/app/templates/t.yaml',
		'charts/app/values.yaml',
		'we ird [1] {x}.yaml',
		'ünï/çødé.yml',
		'ignored.yaml',
		'Upper/U.yaml',
	]);
	writeFileSync(join(folder, '.gitignore'), 'ignored.yaml\n');
	writeTree(outside, ['o.yaml', 'nested/p.yaml']);
	symlinkSync(join(folder, 'deep', 'a'), join(folder, 'linked'));
	symlinkSync(folder, join(folder, 'deep', 'a', 'b', 'loop'));
	symlinkSync(outside, join(folder, 'outside'));
	symlinkSync(join(folder, 'a.yaml'), join(folder, 'file-link.yaml'));
	symlinkSync(join(folder, 'missing.yaml'), join(folder, 'dangling.yaml'));
	return folder;
}

async function viaFileSearch(
	folder: string,
	includes: readonly string[],
	excludes: readonly string[],
): Promise<string[]> {
	const base = vscode.Uri.file(folder);
	const exclude = new vscode.RelativePattern(
		base,
		excludes.length === 1 ? (excludes[0] ?? '') : `{${excludes.join(',')}}`,
	);
	const found = await Promise.all(
		includes.map((include) =>
			vscode.workspace.findFiles(new vscode.RelativePattern(base, include), exclude),
		),
	);
	return [...new Set(found.flat().map((uri) => uri.fsPath))];
}

const realPaths = (paths: readonly string[]): string[] =>
	[...new Set(paths.map((path) => realpathSync(path)))].sort();

describe('the workspace listing', () => {
	let base = '';
	let folder = '';
	before(() => {
		base = mkdtempSync(join(tmpdir(), 'ksl-listing-'));
		folder = makeFolder(base);
	});
	after(() => rmSync(base, { recursive: true, force: true }));

	const cases: readonly { includes: string[]; excludes: string[] }[] = [
		{ includes: ['**/*.{yaml,yml,json}'], excludes: defaultExcludes },
		{
			includes: ['**/*.{yaml,yml,json}'],
			excludes: [...defaultExcludes, 'build', 'charts/**/templates/**', '**/v[0-9].yaml'],
		},
		{ includes: ['deep/**/*.yaml', '*.json', '**/[!a-c].yaml'], excludes: ['**/build', '.*'] },
		{ includes: ['**/*.yaml', '**/*.yml'], excludes: ['**/b/**', 'outside', '**/*ird*'] },
		{ includes: ['**/?.y*ml', 'src/**'], excludes: ['**/c', 'src/build/**'] },
		{ includes: ['**'], excludes: ['**/node_modules/**', 'linked', '**/.git/**'] },
		{ includes: ['**/*.{yaml,yml}'], excludes: ['{build,src/build,**/c,**/upper}'] },
		{ includes: ['**/*.yaml'], excludes: ['**/v?.yaml', '**/[c]', '**/*[[]1]*'] },
	];
	for (const { includes, excludes } of cases) {
		it(`finds what findFiles finds for ${includes.join(' ')} without ${excludes.slice(-3).join(' ')}`, async () => {
			// findFiles applies files.exclude besides the exclude it is given; the extension passes both to the listing.
			const filesExclude = Object.entries(
				vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('exclude') ?? {},
			)
				.filter(([, on]) => on === true)
				.map(([glob]) => glob);
			const ours = await listFolderFiles(
				folder,
				globMatcher(includes),
				globMatcher([...excludes, ...filesExclude]),
			);
			const theirs = await viaFileSearch(folder, includes, excludes);
			// findFiles lists a file once per path that leads to it; the listing once per real file.
			assert.deepEqual(realPaths(ours.files), realPaths(theirs));
			assert.equal(ours.files.length, realPaths(ours.files).length);
			const listedByFileSearch = new Set(theirs);
			for (const path of ours.files) assert.ok(listedByFileSearch.has(path), path);
		});
	}

	it('skips what files.exclude, search.exclude and kubeStatusLens.workspace.exclude name', async () => {
		const api = await extensionApi();
		const workspace = vscode.workspace.workspaceFolders?.[0];
		assert.ok(workspace);
		const root = join(workspace.uri.fsPath, 'listing-check');
		const names = [
			'kept',
			'by-files',
			'by-search',
			'by-extension',
			'nested-kept',
			'by-when',
			'no-when',
		];
		const places = [
			'kept',
			'by-files',
			'by-search',
			'by-extension',
			'by-extension-not/deeper',
			'when',
			'when',
		];
		names.forEach((name, index) => {
			const dir = join(root, places[index] ?? '');
			mkdirSync(dir, { recursive: true });
			writeFileSync(
				join(dir, `${name}.yaml`),
				`apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: listing-${name}\n  namespace: default\nspec:\n  url: https://example.com\n`,
			);
		});
		writeFileSync(join(root, 'when', 'by-when.src'), '');
		const files = vscode.workspace.getConfiguration('files', workspace);
		const search = vscode.workspace.getConfiguration('search', workspace);
		const lens = vscode.workspace.getConfiguration('kubeStatusLens.workspace', workspace);
		const target = vscode.ConfigurationTarget.Workspace;
		const listed = (): string[] =>
			api.graph
				.objectsOf('workspace')
				.map((object) => String((object.metadata as { name?: unknown } | undefined)?.name))
				.filter((name) => name.startsWith('listing-'))
				.sort();
		try {
			await files.update(
				'exclude',
				{
					'**/by-files': true,
					'**/off': false,
					'listing-check/when/*.yaml': { when: '$(basename).src' },
				},
				target,
			);
			await search.update('exclude', { 'listing-check/by-search/**': true }, target);
			await lens.update('exclude', ['listing-check/by-extension'], target);
			await api.manifests.rescan();
			assert.deepEqual(listed(), ['listing-kept', 'listing-nested-kept', 'listing-no-when']);
		} finally {
			await files.update('exclude', undefined, target);
			await search.update('exclude', undefined, target);
			await lens.update('exclude', undefined, target);
			rmSync(root, { recursive: true, force: true });
			await api.manifests.rescan();
		}
		await eventually('the check files to leave the tree', () => listed().length === 0);
	});
});
