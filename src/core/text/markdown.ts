// Everything shown as Markdown comes through here: text from files and clusters is untrusted and must not become
// links, images, HTML, headings or table structure. Every string is also cut at a length (limits.ts), so one huge
// field cannot make a huge tooltip, hover or document.

import { hoverTextLimit, truncate } from './limits.ts';
import { visibleLine, visibleText } from './visible.ts';

export { truncate } from './limits.ts';

const markdownSpecial = /[\\`*_{}[\]()#+\-.!|<>~$&:]/g;

/**
 * Escapes untrusted text for use in Markdown prose, on one line, with controls and direction overrides visible, cut
 * at `max` characters (a tooltip or hover line's limit unless told).
 */
export function escapeMarkdown(text: string, max = hoverTextLimit): string {
	return visibleLine(truncate(text, max)).replace(markdownSpecial, (character) => `\\${character}`);
}

/** Escapes untrusted text for a table cell, shortened to `max` characters. */
export function escapeTableCell(text: string, max = 120): string {
	return escapeMarkdown(text.replace(/\s+/g, ' ').trim(), max);
}

/** Untrusted text as inline code, with a fence longer than any run of backticks inside it. */
export function inlineCode(text: string, max = hoverTextLimit): string {
	const flat = visibleLine(truncate(text, max));
	let fence = '`';
	while (flat.includes(fence)) fence += '`';
	const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
	return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Untrusted multi-line text as a fenced code block that it cannot close early. */
export function codeBlock(untrusted: string, language = ''): string {
	const text = visibleText(untrusted);
	let fence = '```';
	while (text.includes(fence)) fence += '`';
	return `${fence}${language}\n${text}\n${fence}`;
}
