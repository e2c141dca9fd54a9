// A List read a window at a time gives the items, and the lines they start on, that the core's reader gives for the
// whole text (parseManifests, the truth), on generated Lists whose elements straddle windows of random sizes: long
// and short items, multi-byte characters cut in two at a window's end, text that looks like the separator inside
// strings, and broken ends. The seed of each case is printed on failure.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { visitJsonListItems } from '../../../src/core/manifest/jsonManifests.ts';
import { parseManifests } from '../../../src/core/manifest/parse.ts';
import { withJsonWindows } from '../../../src/files/jsonWindows.ts';

function generator(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

const notes = [
	'plain',
	'é ü 中文 🚀 ',
	'],\n        {',
	'",\n        {"',
	'quote " and \\ backslash',
];

function objectOf(random: () => number, index: number): Record<string, unknown> {
	const note = notes[Math.floor(random() * notes.length)] ?? '';
	return {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'BundleDeployment',
		metadata: {
			name: `bd-${index}`,
			namespace: 'cluster-ns',
			annotations: { note: note.repeat(1 + Math.floor(random() * (random() < 0.1 ? 2000 : 20))) },
		},
		status: { ready: random() < 0.5, conditions: [{ type: 'Ready', status: 'True' }] },
	};
}

function listText(random: () => number): string {
	const items = Array.from({ length: Math.floor(random() * 60) }, (_, index) =>
		objectOf(random, index),
	);
	const text = `${JSON.stringify({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } }, null, 4)}\n`;
	const pick = random();
	if (pick < 0.1) return text.slice(0, text.length - 1 - Math.floor(random() * 4));
	if (pick < 0.15) return text.replace(/}\n {4}\]/, '},\n    ]');
	return text;
}

describe('a List read a window at a time', () => {
	it('visits what the whole-text reader reads, item for item and line for line, over windows of random sizes', () => {
		const folder = mkdtempSync(join(tmpdir(), 'ksl-json-windows-'));
		let windowedLists = 0;
		let unlisted = 0;
		for (let seed = 1; seed <= 150; seed++) {
			const random = generator(seed);
			const text = listText(random);
			const path = join(folder, `${seed}.json`);
			writeFileSync(path, text);
			const truth = parseManifests(text, { fileName: path });
			const firstBytes = 1024 + Math.floor(random() * 16 * 1024);
			const read = (bytes: number): { listed: boolean | undefined; visited: unknown[] } => {
				const visited: { name: unknown; line: number }[] = [];
				const listed = withJsonWindows(
					path,
					64 * 1024 * 1024,
					(first) =>
						visitJsonListItems(first, (item, line) => {
							visited.push({ name: (item.metadata as { name?: unknown }).name, line });
							return true;
						}),
					bytes,
				);
				return { listed, visited };
			};
			const windowed = read(firstBytes);
			const whole = read(Buffer.byteLength(text) + 1);
			// Windows change nothing of the verdict: a List this reader leaves to the usual way is left either way.
			assert.equal(
				windowed.listed,
				whole.listed,
				`seed ${seed} (first window ${firstBytes} bytes)`,
			);
			if (windowed.listed) {
				assert.equal(truth.problems.length, 0, `seed ${seed}`);
				assert.deepEqual(
					windowed.visited,
					truth.objects.map((entry) => ({
						name: (entry.object as { metadata: { name: string } }).metadata.name,
						line: entry.range.start.line,
					})),
					`seed ${seed} (first window ${firstBytes} bytes)`,
				);
				if (Buffer.byteLength(text) > firstBytes) windowedLists++;
			} else if (truth.problems.length === 0) unlisted++;
		}
		// Most generated Lists are read so; the rest are broken or awkward ones the reader must leave.
		assert.ok(unlisted < 40, `${unlisted} whole Lists were left to the usual way`);
		assert.ok(windowedLists > 50, `${windowedLists} Lists were read over more than one window`);
	});
});
