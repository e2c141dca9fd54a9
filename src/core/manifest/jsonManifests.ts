// JSON input (`kubectl get -o json`) read with JSON.parse instead of a YAML reader: values first, then one scan of the
// text for the only positions the callers use, the line of the document and of each item of a List. The result is
// what the YAML reader gives for the same text (a differential test holds them together); anything this reader is
// unsure of returns undefined and takes the YAML path.
import { parseJsonKeepingIntegers } from '../model/int64.ts';

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

/**
 * The lines of a valid JSON text's value and of the elements of its top-level `items` array. Line feeds only occur
 * between tokens in JSON, so counting them outside strings counts them all.
 */
function linesOf(text: string): Omit<JsonManifestText, 'value'> {
	let line = 0;
	let depth = 0;
	let documentLine = -1;
	let expectKey = false;
	let lastKeyIsItems = false;
	let collecting = false;
	let wantElement = false;
	let itemLines: number[] | undefined;
	const length = text.length;
	for (let index = 0; index < length; index++) {
		const code = text.charCodeAt(index);
		if (code === 10) {
			line++;
			continue;
		}
		if (code === 32 || code === 13 || code === 9) continue;
		if (documentLine < 0) documentLine = line;
		if (wantElement) {
			if (code !== 93) itemLines?.push(line);
			wantElement = false;
		}
		switch (code) {
			case 34: {
				const close = closingQuote(text, index);
				if (depth === 1 && expectKey) {
					const raw = text.slice(index + 1, close);
					const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
					lastKeyIsItems = key === 'items';
					expectKey = false;
				}
				index = close;
				break;
			}
			case 123:
			case 91:
				if (code === 91 && depth === 1 && lastKeyIsItems) {
					itemLines = [];
					collecting = true;
					wantElement = true;
				}
				depth++;
				if (depth === 1) expectKey = code === 123;
				break;
			case 125:
			case 93:
				depth--;
				if (depth === 1) collecting = false;
				break;
			case 44:
				if (depth === 1) expectKey = true;
				else if (depth === 2 && collecting) wantElement = true;
				break;
			default:
				break;
		}
	}
	return { documentLine: Math.max(documentLine, 0), itemLines, lineFeeds: line };
}

/**
 * A JSON text's value (integers beyond 2^53 noted exactly) and lines, or undefined when it is not valid JSON or its
 * exact integers cannot be read on this runtime (Node 20 without the reviver's source text).
 */
export function readJsonText(text: string): JsonManifestText | undefined {
	if (!reviverHasSourceText() && longDigitRun.test(text)) return undefined;
	let value: unknown;
	try {
		value = parseJsonKeepingIntegers(text);
	} catch {
		return undefined;
	}
	return { value, ...linesOf(text) };
}
