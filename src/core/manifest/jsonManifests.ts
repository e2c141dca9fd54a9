// JSON input (`kubectl get -o json`) read with JSON.parse instead of a YAML reader: values first, then one scan of the
// text for the only positions the callers use, the line of the document and of each item of a List (a List laid out
// as pretty-printers write it is read a piece at a time, see readListInPieces). The result is what the YAML reader
// gives for the same text (a differential test holds them together); anything this reader is unsure of returns
// undefined and takes the YAML path. A reader that wants each item as soon as it is parsed, from the file's bytes
// (the CLI on a big dump), uses visitJsonListItems.
import { parseJsonKeepingIntegers } from '../model/int64.ts';
import { isRecord } from '../model/object.ts';

/** The value of a JSON text and where its parts start. */
export interface JsonManifestText {
	readonly value: unknown;
	/** The line of the first character of the value. */
	readonly documentLine: number;
	/** The line each element of the top-level `items` array starts on (the last `items` key, as JSON.parse keeps). */
	readonly itemLines: readonly number[] | undefined;
	/** The number of line feeds in the text. */
	readonly lineFeeds: number;
}

let reviverSeesSource: boolean | undefined;

// Node 21 and later hand the reviver each number's source text, which exact integers need.
function reviverHasSourceText(): boolean {
	if (reviverSeesSource === undefined) {
		let seen = false;
		JSON.parse('1', (_key: string, value: unknown, context?: { readonly source?: string }) => {
			if (context?.source === '1') seen = true;
			return value;
		});
		reviverSeesSource = seen;
	}
	return reviverSeesSource;
}

/** A run of digits too long for a safe integer (2^53 has 16 digits). */
const longDigitRun = /\d{16}/;

function isWhitespace(code: number): boolean {
	return code === 32 || code === 10 || code === 13 || code === 9;
}

/** Whether the text is meant as JSON: it starts with `{` or `[` after white space. */
export function looksLikeJson(text: string): boolean {
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (isWhitespace(code)) continue;
		return code === 123 || code === 91;
	}
	return false;
}

/** The index of the quote that closes the string opening at `open`, or -1. */
function closingQuote(text: string, open: number): number {
	let close = text.indexOf('"', open + 1);
	while (close >= 0) {
		let backslashes = 0;
		while (text.charCodeAt(close - 1 - backslashes) === 92) backslashes++;
		if (backslashes % 2 === 0) return close;
		close = text.indexOf('"', close + 1);
	}
	return -1;
}

/** The value of a JSON string literal's contents, or undefined when they are not valid JSON. */
function jsonStringOrUndefined(raw: string): string | undefined {
	try {
		return JSON.parse(`"${raw}"`) as string;
	} catch {
		return undefined;
	}
}

/**
 * What one pass over a JSON text finds of its top level: where the text's value starts, the top-level `items` keys
 * and array, and where the elements of that array start and end. Line feeds only occur between tokens in JSON, so
 * counting them outside strings counts them all.
 */
class TopLevelScan {
	line = 0;
	depth = 0;
	documentLine = -1;
	expectKey = false;
	lastKeyIsItems = false;
	/** Inside the top-level `items` array (at depth 2). */
	collecting = false;
	wantElement = false;
	/** An element must come next (after a separator), so `]` may not. */
	elementRequired = false;
	/** How many top-level keys named `items` were read. */
	itemsKeys = 0;
	/** The `[` of the last top-level `items` array, and its `]`. */
	arrayOpen = -1;
	arrayClose = -1;
	/** Where each element of that array starts, its line, and the `,` or `]` after it. */
	starts: number[] = [];
	startLines: number[] = [];
	ends: number[] = [];
	/** An element missing between separators (`[,` or `,]`): the text is not JSON. */
	malformed = false;

	/**
	 * Reads from `from` to the end, or when `stopAtElement` to the first element of the top-level `items` array;
	 * returns where it stopped.
	 */
	run(text: string, from: number, stopAtElement: boolean): number {
		const length = text.length;
		for (let index = from; index < length; index++) {
			const code = text.charCodeAt(index);
			if (code === 10) {
				this.line++;
				continue;
			}
			if (code === 32 || code === 13 || code === 9) continue;
			if (this.documentLine < 0) this.documentLine = this.line;
			if (this.wantElement) {
				this.wantElement = false;
				if (code === 93 || code === 44) {
					if (code === 44 || this.elementRequired) this.malformed = true;
				} else {
					if (stopAtElement) return index;
					this.starts.push(index);
					this.startLines.push(this.line);
				}
			}
			switch (code) {
				case 34: {
					const close = closingQuote(text, index);
					if (close < 0) return length;
					if (this.depth === 1 && this.expectKey) {
						const raw = text.slice(index + 1, close);
						const key = raw.includes('\\') ? jsonStringOrUndefined(raw) : raw;
						// An escape JSON lacks (YAML's \x41, \e): not JSON, left to the YAML reader.
						if (key === undefined) {
							this.malformed = true;
							return length;
						}
						this.lastKeyIsItems = key === 'items';
						if (this.lastKeyIsItems) this.itemsKeys++;
						this.expectKey = false;
					}
					index = close;
					break;
				}
				case 123:
				case 91:
					if (code === 91 && this.depth === 1 && this.lastKeyIsItems) {
						this.arrayOpen = index;
						this.arrayClose = -1;
						this.starts = [];
						this.startLines = [];
						this.ends = [];
						this.collecting = true;
						this.wantElement = true;
						this.elementRequired = false;
					}
					this.depth++;
					if (this.depth === 1) this.expectKey = code === 123;
					break;
				case 125:
				case 93:
					this.depth--;
					if (this.depth === 1 && this.collecting) {
						this.collecting = false;
						this.arrayClose = index;
						if (this.starts.length > this.ends.length) this.ends.push(index);
					}
					break;
				case 44:
					if (this.depth === 1) this.expectKey = true;
					else if (this.depth === 2 && this.collecting) {
						this.ends.push(index);
						this.wantElement = true;
						this.elementRequired = true;
					}
					break;
				default:
					break;
			}
		}
		return length;
	}
}

/** The lines of a valid JSON text's value and of the elements of its last top-level `items` array. */
function linesOf(text: string): Omit<JsonManifestText, 'value'> {
	const scan = new TopLevelScan();
	scan.run(text, 0, false);
	return {
		documentLine: Math.max(scan.documentLine, 0),
		itemLines: scan.arrayOpen < 0 ? undefined : scan.startLines,
		lineFeeds: scan.line,
	};
}

/** The line of each position (ascending, none before `from`, which is on line `line`). */
function linesAt(text: string, positions: readonly number[], from: number, line: number): number[] {
	const lines: number[] = [];
	let count = line;
	let next = text.indexOf('\n', from);
	for (const position of positions) {
		while (next >= 0 && next < position) {
			count++;
			next = text.indexOf('\n', next + 1);
		}
		lines.push(count);
	}
	return lines;
}

/**
 * A List as pretty-printers write it, read a piece at a time: after the careful scan finds the first element of the
 * top-level `items` array, the next elements are guessed from the layout (the separator is a comma followed by the
 * same white space as came between `[` and the first element, then a token), and each guess is proven by JSON.parse
 * of the piece before it: a piece that parses is one whole element followed by white space, so the comma after it
 * separates elements. The last element and the rest of the text are scanned carefully again, and the text around the
 * array is parsed with the array emptied, so every character is still read by JSON.parse. Undefined when the text
 * does not have that shape (then the whole text is parsed and scanned).
 */
function readListInPieces(text: string): JsonManifestText | undefined {
	const scan = new TopLevelScan();
	const first = scan.run(text, 0, true);
	if (first >= text.length || scan.itemsKeys !== 1) return undefined;
	const open = scan.arrayOpen;
	const separator = `,${text.slice(open + 1, first)}`;
	if (!separator.includes('\n')) return undefined;
	const items: unknown[] = [];
	const starts: number[] = [];
	let start = first;
	for (;;) {
		let comma = text.indexOf(separator, start);
		while (comma >= 0 && isWhitespace(text.charCodeAt(comma + separator.length))) {
			comma = text.indexOf(separator, comma + 1);
		}
		if (comma < 0) break;
		let item: unknown;
		try {
			item = parseJsonKeepingIntegers(text.slice(start, comma));
		} catch {
			break;
		}
		items.push(item);
		starts.push(start);
		start = comma + separator.length;
	}
	const lines = linesAt(text, [...starts, start], first, scan.line);
	const startLine = lines[lines.length - 1] ?? scan.line;
	lines.length = starts.length;
	// From the element at `start` on, carefully.
	scan.line = startLine;
	scan.depth = 2;
	scan.collecting = true;
	scan.wantElement = true;
	scan.elementRequired = true;
	scan.expectKey = false;
	scan.starts = [];
	scan.startLines = [];
	scan.ends = [];
	scan.run(text, start, false);
	if (scan.malformed || scan.itemsKeys !== 1 || scan.arrayOpen !== open || scan.arrayClose < 0) {
		return undefined;
	}
	let value: unknown;
	try {
		for (let index = 0; index < scan.starts.length; index++) {
			items.push(parseJsonKeepingIntegers(text.slice(scan.starts[index], scan.ends[index])));
		}
		value = parseJsonKeepingIntegers(text.slice(0, open + 1) + text.slice(scan.arrayClose));
	} catch {
		return undefined;
	}
	if (!isRecord(value) || !Array.isArray(value.items) || value.items.length > 0) {
		return undefined;
	}
	value.items = items;
	return {
		value,
		documentLine: Math.max(scan.documentLine, 0),
		itemLines: [...lines, ...scan.startLines],
		lineFeeds: scan.line,
	};
}

/**
 * A JSON text's value (integers beyond 2^53 noted exactly) and lines, or undefined when it is not valid JSON or its
 * exact integers cannot be read on this runtime (Node 20 without the reviver's source text).
 */
export function readJsonText(text: string): JsonManifestText | undefined {
	if (!reviverHasSourceText() && longDigitRun.test(text)) return undefined;
	const inPieces = readListInPieces(text);
	if (inPieces) return inPieces;
	let value: unknown;
	try {
		value = parseJsonKeepingIntegers(text);
	} catch {
		return undefined;
	}
	return { value, ...linesOf(text) };
}

/** The UTF-8 bytes of a text, with what a reader of them needs from its platform (Node's Buffer does both fast). */
export interface JsonBytes {
	readonly bytes: Uint8Array;
	/** The text of bytes[start, end) (both ends at ASCII bytes, so no character is split). */
	readonly decode: (start: number, end: number) => string;
	/** Where `needle` next occurs from `from`, or -1. */
	readonly indexOf: (needle: Uint8Array, from: number) => number;
	/**
	 * For a file read a window at a time: the next window, which starts with these bytes from `from` on (those before
	 * are let go) and holds more of the file after them; undefined when the file has no more, or when it cannot be
	 * read on as such a List (then the caller reads it the usual way). Absent: `bytes` is the whole file.
	 */
	readonly more?: (from: number) => JsonBytes | undefined;
	/** Whether these are the file's last bytes (a window without `more` is). */
	readonly last?: boolean;
}

function asciiBytes(text: string): Uint8Array {
	return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

/** What sends a text down parseManifests' YAML path (a template, a lone carriage return, an anchor-like `&`). */
const yamlMarkers = [asciiBytes('{{'), asciiBytes('\r'), asciiBytes('&')];

/** How much of the text the top-level scan reads to find the first element of `items`. */
const headBytes = 64 * 1024;

function utf8LengthOf(text: string, end: number): number {
	let length = 0;
	for (let index = 0; index < end; index++) {
		const code = text.charCodeAt(index);
		if (code < 0x80) length += 1;
		else if (code < 0x800) length += 2;
		else if (code >= 0xd800 && code <= 0xdbff) {
			length += 4;
			index++;
		} else length += 3;
	}
	return length;
}

/** The line feeds in bytes[from, to): four bytes at a time where `words` (the same memory, or none) is aligned. */
function lineFeedsBetween(
	bytes: Uint8Array,
	words: Uint32Array | undefined,
	from: number,
	to: number,
): number {
	let count = 0;
	let index = from;
	if (words) {
		for (; index < to && (index & 3) !== 0; index++) if (bytes[index] === 10) count++;
		const lastWord = (to >>> 2) - 1;
		for (let word = index >>> 2; word <= lastWord; word++) {
			// A byte of `x` is 0 where the byte was a line feed; `zero` gets its top bit set there (and nowhere else).
			const x = (words[word] ?? 0) ^ 0x0a0a0a0a;
			const zero = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);
			if (zero !== 0) {
				count += (zero >>> 31) + ((zero >>> 23) & 1) + ((zero >>> 15) & 1) + ((zero >>> 7) & 1);
			}
		}
		index = Math.max(index, (lastWord + 1) << 2);
	}
	for (; index < to; index++) if (bytes[index] === 10) count++;
	return count;
}

function isKubernetesItem(value: unknown): value is Record<string, unknown> {
	return isRecord(value) && typeof value.kind === 'string' && typeof value.apiVersion === 'string';
}

/**
 * A `kind: List` laid out as pretty-printers write it (`kubectl get -o json`), read from its bytes an item at a time
 * the way readListInPieces reads it, handing each item and the line it starts on to `visit` as soon as it is parsed
 * (so a reader can be done with it before the next one is made), and never making the whole text one string. Returns
 * true when the text is such a List and every item was visited, each as `parseManifests` reads it (a Kubernetes object
 * on the line its range starts on); false when `visit` said stop, or the text is anything else or not sure (then
 * what was visited means nothing, and the caller reads the text the usual way).
 */
export function visitJsonListItems(
	first: JsonBytes,
	visit: (item: Record<string, unknown>, line: number) => boolean,
): boolean {
	let source = first;
	let { bytes, decode } = source;
	// A window that is not the file's last: more comes on asking, from an element's start on.
	const windowed = (): boolean => source.more !== undefined && source.last !== true;
	const nextWindow = (from: number): boolean => {
		const next = source.more?.(from);
		if (!next) return false;
		source = next;
		({ bytes, decode } = source);
		return true;
	};
	const hasYamlMarker = (): boolean => yamlMarkers.some((marker) => source.indexOf(marker, 0) >= 0);
	if (hasYamlMarker()) return false;
	// Node 20 reads long integers with the YAML reader (see readJsonText). Undefined: not JSON.
	const exactIntegers = reviverHasSourceText();
	const parse = (text: string): unknown => {
		if (!exactIntegers && longDigitRun.test(text)) return undefined;
		try {
			return parseJsonKeepingIntegers(text);
		} catch {
			return undefined;
		}
	};
	while (bytes.length < headBytes && windowed()) {
		if (!nextWindow(0) || hasYamlMarker()) return false;
	}
	let headEnd = Math.min(bytes.length, headBytes);
	while (headEnd < bytes.length && (bytes[headEnd] ?? 0) >= 0x80) headEnd--;
	const head = decode(0, headEnd);
	if (!looksLikeJson(head)) return false;
	const scan = new TopLevelScan();
	const firstElement = scan.run(head, 0, true);
	if (firstElement >= head.length || scan.itemsKeys !== 1 || scan.malformed) return false;
	const open = scan.arrayOpen;
	const separatorText = `,${head.slice(open + 1, firstElement)}`;
	if (!separatorText.includes('\n')) return false;
	const separator = asciiBytes(separatorText);
	const separatorAfter = (from: number): number => {
		let comma = source.indexOf(separator, from);
		while (comma >= 0 && isWhitespace(bytes[comma + separator.length] ?? 0)) {
			comma = source.indexOf(separator, comma + 1);
		}
		// In a window, a separator at its very end may be followed by white space not read yet.
		if (comma >= 0 && comma + separator.length >= bytes.length && windowed()) return -1;
		return comma;
	};
	let words: Uint32Array | undefined;
	const wordsOf = (): Uint32Array | undefined =>
		bytes.byteOffset % 4 === 0
			? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2)
			: undefined;
	words = wordsOf();
	let start = utf8LengthOf(head, firstElement);
	let line = scan.line;
	const listHead = head.slice(0, open + 1);
	// Any separator after which the piece parses ends the element (a piece that parses is one whole value), so the
	// search may start well inside the element: from three quarters of the shortest element so far. When the element
	// is shorter than that, the piece holds two elements and does not parse, and the search starts again at `start`.
	let skip = 0;
	let shortest = Number.POSITIVE_INFINITY;
	for (;;) {
		let comma = separatorAfter(start + skip);
		let item = comma < 0 ? undefined : parse(decode(start, comma));
		if (item === undefined && skip > 0) {
			comma = separatorAfter(start);
			item = comma < 0 ? undefined : parse(decode(start, comma));
		}
		if (item === undefined) {
			// The element may go on past the window: read on from its start.
			if (comma < 0 && windowed()) {
				if (!nextWindow(start) || hasYamlMarker()) return false;
				words = wordsOf();
				start = 0;
				continue;
			}
			break;
		}
		if (!isKubernetesItem(item) || !visit(item, line)) return false;
		const next = comma + separator.length;
		line += lineFeedsBetween(bytes, words, start, next);
		shortest = Math.min(shortest, comma - start);
		skip = (shortest * 3) >>> 2;
		start = next;
	}
	// From the element at `start` on, carefully: the rest of the file, read whole.
	while (windowed()) {
		if (!nextWindow(start) || hasYamlMarker()) return false;
		start = 0;
	}
	const tail = decode(start, bytes.length);
	const rest = new TopLevelScan();
	rest.line = line;
	rest.depth = 2;
	rest.collecting = true;
	rest.wantElement = true;
	rest.elementRequired = true;
	rest.run(tail, 0, false);
	if (rest.malformed || rest.itemsKeys !== 0 || rest.arrayOpen !== -1 || rest.arrayClose < 0) {
		return false;
	}
	for (let index = 0; index < rest.starts.length; index++) {
		const item = parse(tail.slice(rest.starts[index], rest.ends[index]));
		if (!isKubernetesItem(item) || !visit(item, rest.startLines[index] ?? 0)) return false;
	}
	const list = parse(listHead + tail.slice(rest.arrayClose));
	return (
		isRecord(list) &&
		typeof list.kind === 'string' &&
		list.kind.endsWith('List') &&
		Array.isArray(list.items) &&
		list.items.length === 0
	);
}
