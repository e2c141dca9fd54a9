// Names and messages come from manifests and dumps, so they are untrusted: raw, they could carry terminal control
// sequences (colours, a window title, cursor moves that hide a line) or Unicode direction overrides that make a
// line read other than it is. The text formats print every such value through `terminalLine`.

// C0 and C1 controls, DEL, and the bidirectional formatting characters (matching control characters is the point).
// eslint-disable-next-line no-control-regex
const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escaped(char: string): string {
	return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One line of text for a terminal: whitespace runs (newlines too) become one space, other controls show escaped. */
export function terminalLine(text: string): string {
	return text.replace(/[\t\n\v\f\r]+/g, ' ').replace(unsafe, escaped);
}

/** Text for a terminal that keeps its line breaks and indentation; every other control shows escaped. */
export function terminalText(text: string): string {
	return text.replace(unsafe, (char) => (char === '\n' || char === '\t' ? char : escaped(char)));
}
