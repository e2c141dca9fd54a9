// Kubernetes generations are int64, and Go compares them exactly; a JavaScript number holds integers exactly only up
// to 2^53, so 9007199254740993 and 9007199254740992 read as the same number. The parsers keep the value a number (the
// objects stay plain JSON data) and note the exact integer beside it, keyed by the map that holds it; the status
// rules read generations through `getInt64`, which prefers the noted value.
import { getPath, isRecord } from './object.ts';

const exactIntegers = new WeakMap<object, Map<string, bigint>>();

/** Notes the exact integer a parser read for `holder[key]`, whose number lost precision. */
export function recordExactInteger(holder: object, key: string, value: bigint): void {
	let values = exactIntegers.get(holder);
	if (!values) {
		values = new Map();
		exactIntegers.set(holder, values);
	}
	values.set(key, value);
}

/** The integer at `holder[key]` as written in the text it was read from, or undefined when it is not an integer. */
export function int64Field(holder: unknown, key: string): bigint | undefined {
	if (!isRecord(holder)) return undefined;
	const value = holder[key];
	if (typeof value !== 'number' || !Number.isInteger(value)) return undefined;
	const exact = exactIntegers.get(holder)?.get(key);
	// A value replaced after parsing no longer matches its note.
	return exact !== undefined && Number(exact) === value ? exact : BigInt(value);
}

/** The integer at a path, exact (see int64Field), or undefined when absent or not an integer. */
export function getInt64(value: unknown, ...path: readonly string[]): bigint | undefined {
	const last = path[path.length - 1];
	return last === undefined ? undefined : int64Field(getPath(value, ...path.slice(0, -1)), last);
}

/** The length of a run of digits too long for a safe integer (2^53 has 16 digits). */
const longRun = 16;

function isDigit(code: number): boolean {
	return code >= 48 && code <= 57;
}

/**
 * Whether the text holds a run of 16 digits: only then does JSON need the slower read. Any 16 consecutive characters
 * cover exactly one position that is a multiple of 16 (less one), so only those are looked at, and around them only
 * where they hold a digit: a sixteenth of what /\d{16}/ reads, which costs a tenth of JSON.parse on a list page.
 */
function hasLongDigitRun(text: string): boolean {
	for (let at = longRun - 1; at < text.length; at += longRun) {
		if (!isDigit(text.charCodeAt(at))) continue;
		let start = at;
		while (start > at - longRun + 1 && isDigit(text.charCodeAt(start - 1))) start--;
		let end = at + 1;
		while (end - start < longRun && end < text.length && isDigit(text.charCodeAt(end))) end++;
		if (end - start >= longRun) return true;
	}
	return false;
}

function leadingDigits(text: string): number {
	let count = 0;
	while (count < text.length && isDigit(text.charCodeAt(count))) count++;
	return count;
}

function trailingDigits(text: string): number {
	let count = 0;
	while (count < text.length && isDigit(text.charCodeAt(text.length - 1 - count))) count++;
	return count;
}

/**
 * Whether a text read in pieces holds a run of 16 digits (see hasLongDigitRun), one piece at a time as they arrive, a
 * run across pieces included: a reader of a long answer looks at each piece while it waits for the next.
 */
export class LongDigitRunWatch {
	/** A run of 16 digits was seen. */
	seen = false;
	/** The digits that end the text so far. */
	private trailing = 0;

	add(piece: string): void {
		if (this.seen || piece.length === 0) return;
		const leading = leadingDigits(piece);
		if (this.trailing + leading >= longRun || hasLongDigitRun(piece)) {
			this.seen = true;
			return;
		}
		this.trailing = leading === piece.length ? this.trailing + leading : trailingDigits(piece);
	}
}

/**
 * JSON.parse, noting integers beyond 2^53 exactly as recordExactInteger does (what a cluster sends is JSON). Needs the
 * reviver's source text (Node 21 and later); without it the numbers are JSON.parse's. `longDigitRun`: whether the
 * text holds a run of 16 digits, when the caller has looked already (LongDigitRunWatch).
 */
export function parseJsonKeepingIntegers(text: string, longDigitRun?: boolean): unknown {
	if (!(longDigitRun ?? hasLongDigitRun(text))) return JSON.parse(text);
	return JSON.parse(
		text,
		function (this: unknown, key: string, value: unknown, context?: { readonly source?: string }) {
			if (
				typeof value === 'number' &&
				!Number.isSafeInteger(value) &&
				Number.isInteger(value) &&
				typeof this === 'object' &&
				this !== null &&
				typeof context?.source === 'string' &&
				/^-?\d+$/.test(context.source)
			) {
				const exact = BigInt(context.source);
				if (Number(exact) === value) recordExactInteger(this, key, exact);
			}
			return value;
		},
	);
}
