import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const loader = fileURLToPath(new URL('../../../src/files/moduleCodeCache.ts', import.meta.url));

/** Loads in a fresh Node, as a new extension host would: V8 skips the cache for code it compiled in this process. */
function load(
	path: string,
	cacheFolder: string,
	save = false,
): { cache: string; exports: Record<string, unknown> } {
	const script = `import { requireWithCodeCache } from ${JSON.stringify(loader)};
const loaded = requireWithCodeCache(${JSON.stringify(path)}, ${JSON.stringify(cacheFolder)});
${save ? 'await loaded.saveCache();' : ''}
console.log(JSON.stringify({ cache: loaded.cache, exports: loaded.exports }));`;
	const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
		encoding: 'utf8',
	});
	return JSON.parse(output) as { cache: string; exports: Record<string, unknown> };
}

function bundle(folder: string, body: string): string {
	const path = join(folder, 'bundle.cjs');
	writeFileSync(
		path,
		`const { join } = require('node:path');\nmodule.exports = { here: __filename, joined: join('a', 'b'), ${body} };\n`,
	);
	return path;
}

describe('a bundle loaded with its V8 code cache', () => {
	it('loads as require would, writes the cache once asked, and reads it on the next load', () => {
		const folder = mkdtempSync(join(tmpdir(), 'ksl-code-cache-'));
		const cacheFolder = join(folder, 'cache');
		const path = bundle(folder, `answer: (() => 6 * 7)()`);
		const first = load(path, cacheFolder, true);
		assert.equal(first.cache, 'absent');
		assert.deepEqual(first.exports, { here: path, joined: join('a', 'b'), answer: 42 });
		assert.equal(readdirSync(cacheFolder).length, 1);
		const second = load(path, cacheFolder);
		assert.equal(second.cache, 'used');
		assert.deepEqual(second.exports, first.exports);
	});

	it('never runs the cache of other code of the same length (V8 checks only the length)', () => {
		const folder = mkdtempSync(join(tmpdir(), 'ksl-code-cache-'));
		const cacheFolder = join(folder, 'cache');
		const path = bundle(folder, `answer: 'old'`);
		load(path, cacheFolder, true);
		bundle(folder, `answer: 'new'`);
		const changed = load(path, cacheFolder, true);
		assert.equal(changed.cache, 'absent');
		assert.equal(changed.exports.answer, 'new');
		assert.equal(readdirSync(cacheFolder).length, 1, 'the cache of the old code is removed');
	});

	it('compiles as usual when the cache file is damaged', () => {
		const folder = mkdtempSync(join(tmpdir(), 'ksl-code-cache-'));
		const cacheFolder = join(folder, 'cache');
		const path = bundle(folder, `answer: 1`);
		load(path, cacheFolder, true);
		const [name] = readdirSync(cacheFolder);
		writeFileSync(join(cacheFolder, name ?? ''), 'not a code cache');
		const damaged = load(path, cacheFolder);
		assert.equal(damaged.cache, 'rejected');
		assert.equal(damaged.exports.answer, 1);
	});
});
