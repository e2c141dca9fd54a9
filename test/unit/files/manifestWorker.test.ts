// The worker thread that parses a workspace's files during a full read gives what parsing on the extension's own
// thread gives, says why a file was not read as that thread would, and hands back the text of a file whose integers
// go beyond 2^53 (their exact values cannot cross threads).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { parseManifests } from '../../../src/core/manifest/parse.ts';
import { ManifestWorker } from '../../../src/files/manifestWorkerClient.ts';
import { repoRoot } from '../../support/conformance.ts';

function holdsUnsafeInteger(value: unknown): boolean {
	if (typeof value === 'number') return !Number.isSafeInteger(value) && Number.isInteger(value);
	if (typeof value !== 'object' || value === null) return false;
	return Object.values(value).some(holdsUnsafeInteger);
}

const worker = new ManifestWorker(join(repoRoot, 'src/files/manifestWorker.ts'));
after(() => worker.dispose());

it('gives the objects, lines and problems parsing on this thread gives, for every example file', async () => {
	const folder = join(repoRoot, 'examples/workspace');
	const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) =>
		/\.(ya?ml|json)$/.test(name),
	);
	assert.ok(files.length > 10);
	const broken = join(mkdtempSync(join(tmpdir(), 'ksl-worker-')), 'broken.yaml');
	writeFileSync(
		broken,
		'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\nkind: [unclosed\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: b}\n',
	);
	let handedBack = 0;
	for (const path of [...files.map((name) => join(folder, name)), broken]) {
		const text = readFileSync(path, 'utf8');
		const parsed = parseManifests(text, { fileName: path });
		if (parsed.objects.some((entry) => holdsUnsafeInteger(entry.object))) {
			handedBack++;
			assert.deepEqual(await worker.read(path, 1024 * 1024, path), { text }, path);
			continue;
		}
		assert.deepEqual(
			await worker.read(path, 1024 * 1024, path),
			{
				objects: parsed.objects.map((entry) => ({
					object: entry.object,
					line: entry.range.start.line,
				})),
				problems: parsed.problems.map((problem) => ({
					line: problem.range.start.line,
					message: problem.message,
				})),
			},
			path,
		);
	}
	// The example HarborCluster's status.revision (a Unix time in nanoseconds) is beyond 2^53.
	assert.equal(handedBack, 1);
});

it('says why a file was not read, and hands back the text of one with integers beyond 2^53', async () => {
	const folder = mkdtempSync(join(tmpdir(), 'ksl-worker-'));
	const write = (name: string, content: string | Buffer): string => {
		writeFileSync(join(folder, name), content);
		return join(folder, name);
	};
	const big = write('big.yaml', 'x'.repeat(2000));
	const invalid = write('invalid.yaml', Buffer.from([0x6b, 0x3a, 0x20, 0xff, 0xfe, 0x0a]));
	const generation =
		'apiVersion: fleet.cattle.io/v1alpha1\nkind: Bundle\nmetadata: {name: b, generation: 9007199254740993}\n';
	const exact = write('exact.yaml', generation);
	mkdirSync(join(folder, 'sub.yaml'));
	const read = async (path: string, maxBytes = 1024) => {
		const answer = await worker.read(path, maxBytes, path);
		assert.ok(answer);
		return answer;
	};
	assert.deepEqual(await read(big), { tooLarge: 2000 });
	assert.deepEqual(await read(join(folder, 'sub.yaml')), { notRegular: 'a folder' });
	const decodeError = await read(invalid);
	assert.ok('decodeError' in decodeError && /UTF-8/i.test(String(decodeError.decodeError)));
	assert.deepEqual(await read(exact), { text: generation });
	const missing = await read(join(folder, 'missing.yaml'));
	assert.ok('failed' in missing && /ENOENT/.test(String(missing.failed)));
});
