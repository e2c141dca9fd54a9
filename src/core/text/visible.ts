// Names and messages come from files and clusters, so they are untrusted: raw, they could carry terminal control
// sequences (colours, a window title, cursor moves that hide a line) or Unicode direction overrides that make a line
// read other than it is. Text shown in a terminal, a tree row or a hover goes through here first.

// C0 and C1 controls, DEL, and the bidirectional formatting characters (matching control characters is the point).
// eslint-disable-next-line no-control-regex
const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escaped(char: string): string {
	return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One line of text: whitespace runs (newlines too) become one space, other controls show escaped as \uXXXX. */
export function visibleLine(text: string): string {
	return text.replace(/[\t\n\v\f\r]+/g, ' ').replace(unsafe, escaped);
}

/** Text that keeps its line breaks and tabs; every other control shows escaped as \uXXXX. */
export function visibleText(text: string): string {
	return text.replace(unsafe, (char) => (char === '\n' || char === '\t' ? char : escaped(char)));
}
