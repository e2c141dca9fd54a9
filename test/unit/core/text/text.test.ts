import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeBlock, escapeMarkdown, inlineCode } from '../../../../src/core/text/markdown.ts';
import { visibleLine, visibleText } from '../../../../src/core/text/visible.ts';

// A name that would clear a terminal, retitle it, and reverse the rest of its line when shown raw.
const hostile = 'web\u001b[2J\u001b]0;pwned\u0007\u202eexe.txt';

describe('untrusted text shown to a user', () => {
	it('keeps one line and shows controls and direction overrides as \\uXXXX', () => {
		assert.equal(
			visibleLine(`${hostile}\nnext\tline`),
			'web\\u001b[2J\\u001b]0;pwned\\u0007\\u202eexe.txt next line',
		);
	});

	it('keeps line breaks and tabs where the layout needs them, and nothing else', () => {
		assert.equal(visibleText('a\n\tb\u0085c\u2067'), 'a\n\tb\\u0085c\\u2067');
	});

	it('escapes Markdown after making the controls visible, so no link or control survives', () => {
		assert.equal(escapeMarkdown('[x](command:evil)\u202e'), '\\[x\\]\\(command\\:evil\\)\\\\u202e');
		assert.equal(inlineCode('a`b\u001b'), '``a`b\\u001b``');
		assert.equal(codeBlock('```\n\u001b[31m'), '````\n```\n\\u001b[31m\n````');
	});
});
