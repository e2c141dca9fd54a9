// Everything shown as Markdown comes through here: text from files and clusters is untrusted and must not become
// links, images, HTML, headings or table structure.

import { visibleLine, visibleText } from './visible.ts';

const markdownSpecial = /[\\`*_{}[\]()#+\-.!|<>~$&:]/g;

/** Escapes untrusted text for use in Markdown prose, on one line, with controls and direction overrides visible. */
export function escapeMarkdown(text: string): string {
	return visibleLine(text).replace(markdownSpecial, (character) => `\\${character}`);
}

/** Escapes untrusted text for a table cell, shortened to `max` characters. */
export function escapeTableCell(text: string, max = 120): string {
	return escapeMarkdown(truncate(text.replace(/\s+/g, ' ').trim(), max));
}

/** Shortens text to at most `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
}

/** Untrusted text as inline code, with a fence longer than any run of backticks inside it. */
export function inlineCode(text: string): string {
	const flat = visibleLine(text);
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
