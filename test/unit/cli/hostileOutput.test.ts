// CLI output is written in pieces: a million records' JSON or table is longer than the longest string V8 makes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonArrayLines, writeLines } from '../../../src/cli/output.ts';

function written(lines: Iterable<string>): string[] {
	const pieces: string[] = [];
	writeLines(lines, (text) => pieces.push(text));
	return pieces;
}

describe('CLI output in pieces', () => {
	it('writes the same JSON as one JSON.stringify, strings with line breaks and empty arrays included', () => {
		const values = [
			{ name: 'a\nb', nested: { list: [1, 2], empty: [], none: {} } },
			'text',
			null,
			[{ deep: [[]] }],
		];
		assert.equal(written(jsonArrayLines(values)).join(''), `${JSON.stringify(values, null, 2)}\n`);
		assert.equal(written(jsonArrayLines([])).join(''), '[]\n');
	});

	it('never builds one string of the whole output', () => {
		const records = Array.from({ length: 20_000 }, (_, index) => ({
			name: `object-${index}`,
			pad: 'x'.repeat(200),
		}));
		const pieces = written(jsonArrayLines(records));
		assert.ok(pieces.length > 4, `${pieces.length} pieces`);
		assert.ok(pieces.every((piece) => piece.length < 1024 * 1024 + 1024));
		assert.deepEqual(JSON.parse(pieces.join('')), records);
	});
});
