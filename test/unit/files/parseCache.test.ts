// The parse cache gives the next start what an unchanged file parsed to, and nothing for a file that changed, for
// another engine, or from a damaged cache.
import * as assert from 'node:assert/strict';
import {
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	utimesSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseManifests } from '../../../src/core/manifest/parse.ts';
import { ParseCache, stampOf, type ParsedObjects } from '../../../src/files/parseCache.ts';

const example = fileURLToPath(new URL('../../../examples/workspace', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'ksl-parse-cache-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** Later than any file here was written: the cache takes only files that have not changed for a while. */
const settledNow = () => Date.now() + 60_000;

function parsedAsTheExtensionDoes(path: string): ParsedObjects {
	const parsed = parseManifests(readFileSync(path, 'utf8'), { fileName: path });
	return {
		objects: parsed.objects.map((entry) => ({
			object: entry.object,
			line: entry.range.start.line,
		})),
		problems: parsed.problems.map((problem) => ({
			line: problem.range.start.line,
			message: problem.message,
		})),
	};
}

function manifestsUnder(root: string): string[] {
	return readdirSync(root, { recursive: true, encoding: 'utf8' })
		.filter((name) => /\.(ya?ml|json)$/.test(name))
		.map((name) => join(root, name))
		.filter((path) => statSync(path).isFile());
}

async function rememberAndSave(cachePath: string, key: string, path: string): Promise<void> {
	const cache = new ParseCache(cachePath, key);
	await cache.load();
	const stamp = await stampOf(path);
	assert.ok(stamp);
	cache.remember(path, stamp, parsedAsTheExtensionDoes(path), settledNow());
	assert.equal(await cache.save(), true);
}

async function lookUp(
	cachePath: string,
	key: string,
	path: string,
): Promise<ParsedObjects | undefined> {
	const cache = new ParseCache(cachePath, key);
	await cache.load();
	const stamp = await stampOf(path);
	return stamp ? cache.lookup(path, stamp) : undefined;
}

describe('the parse cache of workspace manifests', () => {
	it('gives the next start what every example workspace file parses to', async () => {
		const cachePath = join(folder, 'example.json');
		const files = manifestsUnder(example);
		assert.ok(files.length > 10, `${files.length} example files`);
		const first = new ParseCache(cachePath, 'engine-1');
		await first.load();
		for (const path of files) {
			const stamp = await stampOf(path);
			assert.ok(stamp);
			first.remember(path, stamp, parsedAsTheExtensionDoes(path), settledNow());
		}
		assert.equal(await first.save(), true);
		const next = new ParseCache(cachePath, 'engine-1');
		await next.load();
		const parsedAgain: string[] = [];
		for (const path of files) {
			const stamp = await stampOf(path);
			assert.ok(stamp);
			const cached = next.lookup(path, stamp);
			if (cached) assert.deepEqual(cached, parsedAsTheExtensionDoes(path), relative(example, path));
			else parsedAgain.push(relative(example, path));
		}
		// Only a file with an integer beyond 2^53 (its exact value is kept beside the objects, not in JSON) is parsed
		// again: the Harbor dump's revision in nanoseconds.
		assert.ok(parsedAgain.includes('harbor/dump.yaml'), parsedAgain.join(', '));
		for (const name of parsedAgain) {
			assert.match(readFileSync(join(example, name), 'utf8'), /\b\d{16,}\b/, name);
		}
		assert.equal(next.hits, files.length - parsedAgain.length);
		// Nothing new: the cache is not written again.
		assert.equal(await next.save(), false);
	});

	it('writes a cache of many files in slices that reads back whole', async () => {
		const cachePath = join(folder, 'many.json');
		const path = join(folder, 'one.yaml');
		writeFileSync(path, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: one}\n');
		const stamp = await stampOf(path);
		assert.ok(stamp);
		const parsed = (index: number) => ({
			objects: Array.from({ length: 20 }, (_, item) => ({
				object: {
					apiVersion: 'v1',
					kind: 'ConfigMap',
					metadata: { name: `map-${index}-${item}` },
					data: { text: 'x'.repeat(200) },
				},
				line: item * 6,
			})),
			problems: [],
		});
		const files = 3000;
		const cache = new ParseCache(cachePath, 'engine-1');
		await cache.load();
		for (let index = 0; index < files; index++) {
			cache.remember(`/w/file-${index}.yaml`, stamp, parsed(index), settledNow());
		}
		assert.equal(await cache.save(), true);
		const next = new ParseCache(cachePath, 'engine-1');
		await next.load();
		for (const index of [0, 1, 1500, files - 1]) {
			assert.deepEqual(next.lookup(`/w/file-${index}.yaml`, stamp), parsed(index));
		}
	});

	it('parses a file again once it was rewritten, even to the same size and modification time', async () => {
		const cachePath = join(folder, 'rewritten.json');
		const path = join(folder, 'repository.yaml');
		const manifest = (name: string) =>
			`apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: ${name}, namespace: flux-system}\n`;
		writeFileSync(path, manifest('aaaa'));
		const past = new Date(Date.now() - 3_600_000);
		utimesSync(path, past, past);
		await rememberAndSave(cachePath, 'engine-1', path);
		assert.ok(await lookUp(cachePath, 'engine-1', path), 'unchanged: taken from the cache');
		// Same size, modification time set back (as cp -p or an archive would): the change time still moved.
		writeFileSync(path, manifest('bbbb'));
		utimesSync(path, past, past);
		assert.equal(await lookUp(cachePath, 'engine-1', path), undefined);
	});

	it("ignores another engine's cache and a damaged one", async () => {
		const cachePath = join(folder, 'other.json');
		const path = join(folder, 'kept.yaml');
		writeFileSync(path, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kept}\n');
		await rememberAndSave(cachePath, 'engine-1', path);
		assert.equal(await lookUp(cachePath, 'engine-2', path), undefined);
		for (const damaged of [
			'{"key": "engine-1", "files": {',
			'[]',
			'{"key": "engine-1", "files": {"x": 1}}',
		]) {
			writeFileSync(cachePath, damaged);
			assert.equal(await lookUp(cachePath, 'engine-1', path), undefined, damaged);
		}
		assert.equal(await lookUp(join(folder, 'missing', 'cache.json'), 'engine-1', path), undefined);
	});

	it('keeps no file that changed a moment ago, no Secret, and no objects JSON would not give back as they are', async () => {
		const cachePath = join(folder, 'unkept.json');
		const path = join(folder, 'fresh.yaml');
		writeFileSync(path, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fresh}\n');
		const stamp = await stampOf(path);
		assert.ok(stamp);
		const cache = new ParseCache(cachePath, 'engine-1');
		await cache.load();
		cache.remember(path, stamp, parsedAsTheExtensionDoes(path));
		assert.equal(
			await cache.save(),
			false,
			'written just now: a second write could keep its stamp',
		);
		const object = (value: unknown) => ({
			objects: [{ object: { apiVersion: 'v1', kind: 'ConfigMap', data: { value } }, line: 0 }],
			problems: [],
		});
		// 2^53 + 2: a double, but beyond the integers JSON readers agree on.
		for (const value of [2 ** 53 + 2, Number.POSITIVE_INFINITY, Number.NaN]) {
			cache.remember(path, stamp, object(value), settledNow());
			assert.equal(await cache.save(), false, String(value));
		}
		// A Secret's data is not copied out of the workspace, alone or in a List.
		const secret = {
			apiVersion: 'v1',
			kind: 'Secret',
			metadata: { name: 'token' },
			data: { token: 'c2VjcmV0' },
		};
		for (const held of [secret, { apiVersion: 'v1', kind: 'List', items: [secret] }]) {
			cache.remember(
				path,
				stamp,
				{ objects: [{ object: held, line: 0 }], problems: [] },
				settledNow(),
			);
			assert.equal(await cache.save(), false, String(held.kind));
		}
		cache.remember(path, stamp, object(42), settledNow());
		assert.equal(await cache.save(), true);
		assert.ok(!readFileSync(cachePath, 'utf8').includes('c2VjcmV0'));
	});
});
