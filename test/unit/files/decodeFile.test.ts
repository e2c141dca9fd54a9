// The fast decode of local files (ASCII copied as Latin-1, UTF-8 through Buffer) gives what the core's checked decoder
// gives, for every kind of bytes a manifest file may hold.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeManifestBytes } from '../../../src/core/manifest/decode.ts';
import { decodeFileBytes } from '../../../src/files/decodeFile.ts';

function generator(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

const pieces: readonly Uint8Array[] = [
	Buffer.from('apiVersion: v1\nkind: ConfigMap\n'),
	Buffer.from('{"a": [1, 2], "b": "x"}\r\n'),
	Buffer.from('\t \n'),
	Buffer.from('é ✓ 😀'),
	Buffer.from([0x07]),
	Buffer.from([0x0b, 0x0c]),
	Buffer.from([0x7f]),
	Buffer.from([0xe9]),
	Buffer.from([0xc3]),
	Buffer.from([0xed, 0xa0, 0x80]),
	Buffer.from([0x00]),
];
const starts: readonly Uint8Array[] = [
	new Uint8Array(),
	Buffer.from([0xef, 0xbb, 0xbf]),
	Buffer.from([0xff, 0xfe]),
	Buffer.from([0xfe, 0xff]),
];

describe('decodeFileBytes', () => {
	it('decodes as the core decoder does, or refuses with its words', () => {
		const random = generator(20);
		let ascii = 0;
		for (let round = 0; round < 2000; round++) {
			const parts = [starts[round % 8 < 5 ? 0 : round % 4] ?? new Uint8Array()];
			for (let count = Math.floor(random() * 6); count > 0; count--) {
				const piece =
					random() < 0.6
						? pieces[Math.floor(random() * 3)]
						: pieces[Math.floor(random() * pieces.length)];
				if (piece) parts.push(piece);
			}
			const bytes = Buffer.concat(parts);
			if (bytes.every((byte) => byte < 0x80)) ascii++;
			assert.deepEqual(decodeFileBytes(bytes), decodeManifestBytes(bytes), bytes.toString('hex'));
			const copy = new Uint8Array(bytes);
			assert.deepEqual(decodeFileBytes(copy), decodeManifestBytes(copy), bytes.toString('hex'));
		}
		assert.ok(ascii > 300, `only ${ascii} ASCII inputs`);
	});
});
