// Hostile manifest texts and bytes: one anchor or broken document in a long stream, line endings, encodings and
// binaries. Each input is generated here, small enough for CI.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeManifestBytes } from '../../../../src/core/manifest/decode.ts';
import { parseManifests } from '../../../../src/core/manifest/parse.ts';

function configMap(index: number, name = `cm-${index}`): string {
	return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  key: value-${index}\n`;
}

/** A stream of `count` documents, the one at `special` replaced. */
function stream(count: number, special: number, document: string): string {
	const documents: string[] = [];
	for (let index = 0; index < count; index++) {
		documents.push(index === special ? document : configMap(index));
	}
	return documents.join('---\n');
}

const documentLines = configMap(0).split('\n').length; // 8 lines and the separator

describe('one slow document in a long stream', () => {
	it('reads only the document with an anchor carefully: the others keep the fast path', () => {
		const anchored =
			'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: &name anchored\n  namespace: default\ndata:\n  key: *name\n';
		const text = stream(3000, 1500, anchored);
		const result = parseManifests(text);
		assert.equal(result.objects.length, 3000);
		// Only the careful path gives objects their `yaml` node.
		const careful = result.objects.filter((entry) => entry.node !== undefined);
		assert.deepEqual(
			careful.map((entry) => entry.object.data),
			[{ key: 'anchored' }],
		);
		const node = careful[0]?.node;
		assert.ok(node?.range);
		assert.ok(
			text
				.slice(node.range[0])
				.startsWith('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: &name'),
		);
		// Lines and document indexes run on across the three parts of the stream.
		assert.deepEqual(
			[1499, 1500, 1501, 2999].map((index) => {
				const entry = result.objects[index];
				return [entry?.documentIndex, entry?.range.start.line];
			}),
			[1499, 1500, 1501, 2999].map((index) => [index, index * documentLines]),
		);
	});

	it('reads only a broken document carefully, and points at it', () => {
		const text = stream(3000, 2000, 'apiVersion: v1\nkind: [broken\n');
		const result = parseManifests(text);
		assert.equal(result.objects.length, 2999);
		assert.equal(result.objects.filter((entry) => entry.node !== undefined).length, 0);
		assert.equal(result.problems[0]?.code, 'yaml-syntax');
		const line = result.problems[0]?.range.start.line ?? 0;
		assert.ok(
			line >= 2000 * documentLines && line < 2001 * documentLines,
			`the problem is on line ${line}`,
		);
		assert.equal(result.objects[2000]?.documentIndex, 2001);
	});

	it('still skips a Helm template quietly when one of its documents is templated', () => {
		const text = stream(
			50,
			10,
			'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n{{ include "x" . }}\n',
		);
		const result = parseManifests(text);
		assert.deepEqual([result.objects.length, result.problems.length], [0, 0]);
	});
});

describe('line endings', () => {
	const lines = [
		'apiVersion: v1',
		'kind: ConfigMap',
		'metadata:',
		'  name: cr',
		'data:',
		'  text: |',
		'    one',
		'    two',
	];
	const anchored = [
		...lines.slice(0, 3),
		'  name: &n cr',
		'data:',
		'  copy: *n',
		'  text: |',
		'    one',
		'    two',
	];

	for (const [name, ending] of [
		['carriage return', '\r'],
		['CRLF', '\r\n'],
		['line feed', '\n'],
	] as const) {
		it(`reads ${name} line endings the same with and without an anchor`, () => {
			const plain = parseManifests(`${lines.join(ending)}${ending}`);
			const careful = parseManifests(`${anchored.join(ending)}${ending}`);
			assert.deepEqual(plain.problems, []);
			assert.deepEqual(careful.problems, []);
			assert.deepEqual(plain.objects[0]?.object, {
				apiVersion: 'v1',
				kind: 'ConfigMap',
				metadata: { name: 'cr' },
				data: { text: 'one\ntwo\n' },
			});
			assert.deepEqual(careful.objects[0]?.object, {
				apiVersion: 'v1',
				kind: 'ConfigMap',
				metadata: { name: 'cr' },
				data: { copy: 'cr', text: 'one\ntwo\n' },
			});
		});
	}

	it('counts a lone carriage return as a line break in ranges, on both paths', () => {
		const second = ['---', ...lines.slice(0, 3), '  name: &n two'];
		const ranges = (ending: string) =>
			parseManifests(`${lines.join(ending)}${ending}${second.join(ending)}${ending}`).objects.map(
				(entry) => [entry.range.start.line, entry.node === undefined ? 'fast' : 'careful'],
			);
		assert.deepEqual(ranges('\r'), ranges('\n'));
		assert.deepEqual(ranges('\r'), [
			[0, 'fast'],
			[9, 'careful'],
		]);
	});
});

describe('decoding file bytes', () => {
	const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: café\n';
	const utf16le = (value: string): Uint8Array => {
		const bytes = new Uint8Array(value.length * 2);
		for (let index = 0; index < value.length; index++) {
			const code = value.charCodeAt(index);
			bytes[index * 2] = code & 0xff;
			bytes[index * 2 + 1] = code >> 8;
		}
		return bytes;
	};
	const utf16be = (value: string): Uint8Array => {
		const little = utf16le(value);
		const big = new Uint8Array(little.length);
		for (let index = 0; index < little.length; index += 2) {
			big[index] = little[index + 1] ?? 0;
			big[index + 1] = little[index] ?? 0;
		}
		return big;
	};
	const join = (...parts: Uint8Array[]): Uint8Array => {
		const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
		let at = 0;
		for (const part of parts) {
			bytes.set(part, at);
			at += part.length;
		}
		return bytes;
	};

	for (const [name, bytes] of [
		['UTF-8', new TextEncoder().encode(text)],
		[
			'UTF-8 with a byte-order mark',
			join(new Uint8Array([0xef, 0xbb, 0xbf]), new TextEncoder().encode(text)),
		],
		[
			'UTF-16 LE with a byte-order mark (PowerShell)',
			join(new Uint8Array([0xff, 0xfe]), utf16le(text)),
		],
		['UTF-16 BE with a byte-order mark', join(new Uint8Array([0xfe, 0xff]), utf16be(text))],
	] as const) {
		it(`reads ${name} as kubectl does`, () => {
			const decoded = decodeManifestBytes(bytes);
			assert.deepEqual(decoded, { text });
			assert.equal(parseManifests('text' in decoded ? decoded.text : '').objects.length, 1);
		});
	}

	for (const [name, bytes, message] of [
		[
			'a binary',
			new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0xd0, 0x0f]),
			/binary data.*NUL byte at offset 7/,
		],
		[
			'Latin-1 text',
			new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x20, 0xe9, 0x0a]),
			/not UTF-8 text: byte 0xe9 at offset 6/,
		],
		['UTF-16 without a byte-order mark', utf16le(text), /UTF-16 text without a byte-order mark/],
		[
			'UTF-8 holding a NUL',
			new TextEncoder().encode('a: 1\nb: \u0000\n'),
			/binary data.*NUL character on line 2/,
		],
		[
			'a control character',
			new TextEncoder().encode('a: \u0001\n'),
			/control character U\+0001 on line 1/,
		],
		[
			'UTF-16 with a lone surrogate',
			join(new Uint8Array([0xff, 0xfe]), new Uint8Array([0x00, 0xd8, 0x61, 0x00])),
			/not UTF-16 LE text/,
		],
		['UTF-16 with an odd byte count', new Uint8Array([0xff, 0xfe, 0x61]), /odd number of bytes/],
	] as const) {
		it(`says why ${name} is not read`, () => {
			const decoded = decodeManifestBytes(bytes);
			assert.ok('error' in decoded, `decoded as ${JSON.stringify(decoded)}`);
			assert.match(decoded.error, message);
		});
	}
});
