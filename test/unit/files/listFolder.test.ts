import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { globMatcher } from '../../../src/files/glob.ts';
import { listFolderFiles } from '../../../src/files/listFolder.ts';

const base = mkdtempSync(join(tmpdir(), 'ksl-list-'));
after(() => rmSync(base, { recursive: true, force: true }));

function tree(root: string, files: readonly string[]): void {
	for (const file of files) {
		mkdirSync(join(root, file, '..'), { recursive: true });
		writeFileSync(join(root, file), 'a: 1\n');
	}
}

async function list(folder: string, include: string[], exclude: string[]): Promise<string[]> {
	const listing = await listFolderFiles(folder, globMatcher(include), globMatcher(exclude));
	assert.deepEqual(listing.unlisted, []);
	return listing.files.map((file) => relative(folder, file));
}

describe('listFolderFiles', () => {
	it('lists what the include matches, and never enters an excluded folder', async () => {
		const folder = join(base, 'plain');
		tree(folder, [
			'a.yaml',
			'b.txt',
			'sub/c.yml',
			'sub/deep/d.json',
			'out/e.yaml',
			'x/out/f.yaml',
			'.hidden/g.yaml',
		]);
		assert.deepEqual(await list(folder, ['**/*.{yaml,yml,json}'], ['out']), [
			'.hidden/g.yaml',
			'a.yaml',
			'sub/c.yml',
			'sub/deep/d.json',
			'x/out/f.yaml',
		]);
		assert.deepEqual(await list(folder, ['**/*.yaml'], ['**/out/**', '.*']), ['a.yaml']);
		assert.deepEqual(await list(folder, ['sub/**/*.json'], []), ['sub/deep/d.json']);
	});

	it('follows links, lists each real file once (its own path first), and ends on loops', async () => {
		const folder = join(base, 'links');
		const outside = join(base, 'outside');
		tree(folder, ['real/a.yaml', 'real/nested/b.yaml']);
		tree(outside, ['o.yaml']);
		symlinkSync(join(folder, 'real'), join(folder, 'a-link-to-real'));
		symlinkSync(folder, join(folder, 'real', 'loop'));
		symlinkSync(outside, join(folder, 'outside-link'));
		symlinkSync(join(folder, 'real', 'a.yaml'), join(folder, 'file-link.yaml'));
		symlinkSync(join(outside, 'o.yaml'), join(folder, 'other-link.yaml'));
		symlinkSync(join(folder, 'missing.yaml'), join(folder, 'dangling.yaml'));
		// Links in name order: other-link.yaml is taken before the folder outside-link holding the same file.
		assert.deepEqual(await list(folder, ['**/*.yaml'], []), [
			'other-link.yaml',
			'real/a.yaml',
			'real/nested/b.yaml',
		]);
		// Excluding the real folder lets the link's path stand for it.
		assert.deepEqual(await list(folder, ['**/*.yaml'], ['real', 'outside-link']), [
			'a-link-to-real/a.yaml',
			'a-link-to-real/nested/b.yaml',
			'other-link.yaml',
		]);
	});

	it('reports a folder it cannot list instead of throwing', async () => {
		const listing = await listFolderFiles(join(base, 'nope'), globMatcher(['**']), globMatcher([]));
		assert.deepEqual(listing.files, []);
		assert.equal(listing.unlisted.length, 1);
	});
});
