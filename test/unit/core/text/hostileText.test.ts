import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { documentTextLimit, hoverTextLimit, truncate } from '../../../../src/core/text/limits.ts';
import { escapeMarkdown, escapeTableCell, inlineCode } from '../../../../src/core/text/markdown.ts';

describe('untrusted text of any length', () => {
	it('is cut at a limit with the count of what was left out', () => {
		assert.equal(truncate('abcdef', 4), 'abcd… (2 more characters)');
		assert.equal(truncate('abcd', 4), 'abcd');
	});

	it('never splits a surrogate pair', () => {
		assert.equal(truncate('ab😀cd', 3), 'ab… (4 more characters)');
	});

	it('shows at most a hover line of it in Markdown, unless a document asks for more', () => {
		const megabyte = 'x'.repeat(1_000_000);
		const line = escapeMarkdown(megabyte);
		assert.ok(line.startsWith('x'.repeat(hoverTextLimit)));
		assert.ok(line.endsWith(`… \\(${1_000_000 - hoverTextLimit} more characters\\)`));
		assert.equal(
			escapeMarkdown(megabyte, documentTextLimit),
			`${'x'.repeat(documentTextLimit)}… \\(${1_000_000 - documentTextLimit} more characters\\)`,
		);
		assert.ok(inlineCode(megabyte).length < hoverTextLimit + 40);
		assert.ok(escapeTableCell(megabyte, 40).length < 80);
	});
});
