// A dump folder holding what a folder should not: named pipes, links to itself and to devices, UTF-16 from
// PowerShell, binaries. Every file is read once or reported; nothing waits and nothing is dropped silently.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadDumpFolder } from '../../src/k8s/offline.ts';

const posix = process.platform !== 'win32';
const configMap = (name: string): string =>
	`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}, namespace: default}\n`;

describe('offline: a hostile dump folder', { skip: !posix }, () => {
	let folder: string;
	before(async () => {
		folder = await mkdtemp(path.join(tmpdir(), 'ksl-hostile-dumps-'));
		await writeFile(path.join(folder, 'plain.yaml'), configMap('plain'));
		await writeFile(
			path.join(folder, 'powershell.yaml'),
			Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(configMap('utf16'), 'utf16le')]),
		);
		await writeFile(path.join(folder, 'image.yaml'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]));
		execFileSync('mkfifo', [path.join(folder, 'pipe.yaml')]);
		await symlink('.', path.join(folder, 'again'));
		await symlink('.', path.join(folder, 'and-again'));
		await symlink('plain.yaml', path.join(folder, 'same.yaml'));
		if (existsSync('/dev/zero')) await symlink('/dev/zero', path.join(folder, 'zero.yaml'));
	});
	after(() => rm(folder, { recursive: true, force: true }));

	it('reads each real file once, decodes UTF-16, and reports what it cannot read', async () => {
		const loaded = await loadDumpFolder(folder);
		assert.deepEqual(Object.keys(loaded.store.snapshot()).sort(), [
			'|ConfigMap|default|plain',
			'|ConfigMap|default|utf16',
		]);
		assert.deepEqual(
			loaded.files.map((file) => path.basename(file.path)),
			['plain.yaml', 'powershell.yaml'],
		);
		const problems = Object.fromEntries(
			loaded.problems.map((problem) => [path.basename(problem.path), problem.message]),
		);
		assert.match(problems['image.yaml'] ?? '', /cannot read: binary data/);
		assert.match(problems['pipe.yaml'] ?? '', /skipped: a named pipe, not a regular file/);
		if (existsSync('/dev/zero')) {
			assert.match(problems['zero.yaml'] ?? '', /skipped: a character device, not a regular file/);
		}
	});
});
