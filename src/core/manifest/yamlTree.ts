// Where things stand in a manifest's text: a small syntax tree of one object with absolute character offsets, for
// diagnostics, hovers and quick fixes.
//
// Two builders feed the same tree. The fast one reads block-style YAML line by line (what people and
// `kubectl get -o yaml` write); it gives up (returns undefined) on anything it does not fully understand: anchors,
// aliases, tags, complex keys, flow collections spanning lines, tabs in indentation. The careful one converts the
// `yaml` package's nodes and understands everything, at about a tenth of the speed, so it runs only on the documents
// the fast one gave up on. Both are tested to agree (test/unit/core/manifest/yamlTree.test.ts).
import { isMap, isPair, isScalar, isSeq, parseAllDocuments, type Node } from 'yaml';
import type { Position, Range } from '../model/range.ts';

/** A step in an object: a mapping key or a sequence index. */
export type PathSegment = string | number;

/** A path from an object's root, e.g. `['status', 'conditions', 0, 'reason']`. */
export type ObjectPath = readonly PathSegment[];

/** A scalar, or a flow collection the fast builder did not open (`opaque`). Offsets are absolute, end exclusive. */
export interface ScalarNode {
	readonly kind: 'scalar';
	readonly start: number;
	readonly end: number;
	/** A flow collection (`{...}` or `[...]`) read as one piece: paths cannot go inside it. */
	readonly opaque?: boolean;
}

/** One `key: value` of a mapping. */
export interface MapEntry {
	readonly key: string;
	readonly keyStart: number;
	readonly keyEnd: number;
	/** Absent for an empty value (`key:` with nothing after it). */
	readonly value?: TreeNode;
}

/** A mapping, block or flow style. */
export interface MapNode {
	readonly kind: 'map';
	readonly start: number;
	readonly end: number;
	readonly flow: boolean;
	readonly entries: readonly MapEntry[];
}

/** One item of a sequence; `dash` is the offset of its `-` in block style. */
export interface SeqItem {
	readonly dash?: number;
	readonly node?: TreeNode;
}

/** A sequence, block or flow style. */
export interface SeqNode {
	readonly kind: 'seq';
	readonly start: number;
	readonly end: number;
	readonly flow: boolean;
	readonly items: readonly SeqItem[];
}

/** A node of the tree. */
export type TreeNode = ScalarNode | MapNode | SeqNode;

// ---------------------------------------------------------------------------------------------------------------
// Offsets and positions

/** The offset at which each line starts, in order. */
export type LineStarts = ArrayLike<number>;

/** The offset at which each line starts, for position conversions. */
export function lineStartsOf(text: string): LineStarts {
	// Counted first, then filled: a typed array of the right size costs a fifth of growing a JS array line by line.
	let count = 1;
	for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
	const starts = new Uint32Array(count);
	let line = 1;
	for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
		starts[line++] = at + 1;
	}
	return starts;
}

/** The position of an offset, by binary search over line starts. */
export function positionAt(lineStarts: LineStarts, offset: number): Position {
	let low = 0;
	let high = lineStarts.length - 1;
	while (low < high) {
		const middle = (low + high + 1) >> 1;
		if ((lineStarts[middle] ?? 0) <= offset) low = middle;
		else high = middle - 1;
	}
	return { line: low, character: offset - (lineStarts[low] ?? 0) };
}

/** The offset of a position (clamped to the line's start when the line does not exist). */
export function offsetAt(lineStarts: LineStarts, position: Position): number {
	const start = lineStarts[Math.min(Math.max(position.line, 0), lineStarts.length - 1)] ?? 0;
	return start + Math.max(position.character, 0);
}

/** The range between two offsets. */
export function rangeOf(lineStarts: LineStarts, start: number, end: number): Range {
	return { start: positionAt(lineStarts, start), end: positionAt(lineStarts, end) };
}

// ---------------------------------------------------------------------------------------------------------------
// The fast builder: block-style YAML, line by line

/** Thrown inside the fast builder when the text is beyond it; caught at its entry point. */
class Unsupported extends Error {}

// Characters a plain key may not start with (besides white space and `-?:` before a space).
const plainKeyIndicators = new Set([...',[]{}#&*!|>\'"%@`'].map((char) => char.charCodeAt(0)));

/** White space as a regular expression's `\s` sees it. */
function isJsSpace(code: number): boolean {
	return (
		code === 32 ||
		(code >= 9 && code <= 13) ||
		code === 0xa0 ||
		code === 0x1680 ||
		(code >= 0x2000 && code <= 0x200a) ||
		code === 0x2028 ||
		code === 0x2029 ||
		code === 0x202f ||
		code === 0x205f ||
		code === 0x3000 ||
		code === 0xfeff
	);
}

/** The offset of the quote closing a quoted key that opens at `offset`, on its line; undefined if none. */
function quotedKeyEnd(text: string, offset: number, quote: number): number | undefined {
	for (let at = offset + 1; at < text.length; at++) {
		const char = text.charCodeAt(at);
		if (char === 10) return undefined;
		if (quote === 34 && char === 92) {
			const next = text.charCodeAt(at + 1);
			if (Number.isNaN(next) || next === 10 || next === 13 || next === 0x2028 || next === 0x2029) {
				return undefined;
			}
			at++;
		} else if (char === quote) {
			if (quote === 39 && text.charCodeAt(at + 1) === 39) at++;
			else return at;
		}
	}
	return undefined;
}

/** The offset of a `:` after spaces and tabs from `offset`, followed by white space or the end; else undefined. */
function colonAfter(text: string, offset: number): number | undefined {
	let at = offset;
	while (text.charCodeAt(at) === 32 || text.charCodeAt(at) === 9) at++;
	if (text.charCodeAt(at) !== 58) return undefined;
	const after = text.charCodeAt(at + 1);
	return after === 32 || after === 9 || after === 13 || after === 10 || Number.isNaN(after)
		? at
		: undefined;
}

interface LineView {
	readonly start: number;
	/** Offset after the last character of the line, before `\n` (and `\r`). */
	readonly end: number;
	/** Column of the first non-space character; -1 for a blank or comment-only line. */
	readonly indent: number;
}

/** Offset after the quote closing a quoted scalar, or undefined when `limit` comes first ('' escapes ', \\ escapes "). */
function quoteEnd(text: string, from: number, limit: number, quote: number): number | undefined {
	for (let at = from; at < limit; at++) {
		const char = text.charCodeAt(at);
		if (quote === 34 && char === 92) {
			at++;
			continue;
		}
		if (char === quote) {
			if (quote === 39 && text.charCodeAt(at + 1) === 39) {
				at++;
				continue;
			}
			return at + 1;
		}
	}
	return undefined;
}

class BlockReader {
	private readonly views: LineView[] = [];
	private readonly text: string;
	private readonly lineStarts: LineStarts;
	private readonly firstLine: number;
	private readonly lastLine: number;
	/** The line of the last character of the node read last (set by every reading method before it returns). */
	private endLine = 0;

	constructor(text: string, lineStarts: LineStarts, firstLine: number, lastLine: number) {
		this.text = text;
		this.lineStarts = lineStarts;
		this.firstLine = firstLine;
		this.lastLine = lastLine;
	}

	line(index: number): LineView | undefined {
		if (index < this.firstLine || index > this.lastLine) return undefined;
		const cached = this.views[index - this.firstLine];
		if (cached) return cached;
		const start = this.lineStarts[index] ?? this.text.length;
		let end =
			index + 1 < this.lineStarts.length ? (this.lineStarts[index + 1] ?? 0) - 1 : this.text.length;
		if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
		let column = 0;
		while (start + column < end && this.text.charCodeAt(start + column) === 32) column++;
		const next = this.text.charCodeAt(start + column);
		if (next === 9) throw new Unsupported('tab in indentation');
		const blank = start + column >= end || next === 35;
		const view = { start, end, indent: blank ? -1 : column };
		this.views[index - this.firstLine] = view;
		return view;
	}

	/** The next line at or after `index` that has content, or undefined at the end of the range or a document marker. */
	nextContent(index: number): number | undefined {
		for (let line = index; line <= this.lastLine; line++) {
			const view = this.line(line);
			if (!view) return undefined;
			if (view.indent < 0) continue;
			if (view.indent === 0 && this.isDocumentMarker(view)) return undefined;
			return line;
		}
		return undefined;
	}

	isDocumentMarker(view: LineView): boolean {
		const head = this.text.slice(view.start, view.start + 3);
		if (head !== '---' && head !== '...') return false;
		const after = this.text.charCodeAt(view.start + 3);
		return view.start + 3 >= view.end || after === 32 || after === 9;
	}

	/** Offset of the first non-space character at or after `offset` on its line (the line's end if none). */
	skipSpaces(offset: number, lineEnd: number): number {
		let at = offset;
		while (at < lineEnd && (this.text.charCodeAt(at) === 32 || this.text.charCodeAt(at) === 9)) {
			at++;
		}
		return at;
	}

	/** True when the rest of the line from `offset` is empty or a comment. */
	restIsEmpty(offset: number, lineEnd: number): boolean {
		const at = this.skipSpaces(offset, lineEnd);
		return at >= lineEnd || this.text.charCodeAt(at) === 35;
	}

	/**
	 * A key at `offset`, or undefined: double-quoted, single-quoted or plain, then `:` and a space or the end of the
	 * line. Plain keys may not start with an indicator (YAML 1.2 §7.3.3), except `-`, `?` and `:` before a non-space.
	 * Scanned by hand (this runs on every line of a document).
	 */
	keyAt(offset: number, lineEnd: number): { key: string; end: number; colon: number } | undefined {
		const text = this.text;
		const first = text.charCodeAt(offset);
		if (first === 34 || first === 39) {
			const close = quotedKeyEnd(text, offset, first);
			if (close === undefined) return undefined;
			const colon = colonAfter(text, close + 1);
			if (colon === undefined || colon + 1 > lineEnd) return undefined;
			const content = text.slice(offset + 1, close);
			let key: string;
			if (first === 34) {
				try {
					key = JSON.parse(`"${content}"`) as string;
				} catch {
					throw new Unsupported('escape in a double-quoted key');
				}
			} else key = content.replace(/''/g, "'");
			return { key, end: close + 1, colon };
		}
		if (isJsSpace(first) || Number.isNaN(first)) return undefined;
		if (first === 45 || first === 63 || first === 58) {
			const next = text.charCodeAt(offset + 1);
			if (Number.isNaN(next) || isJsSpace(next)) return undefined;
		} else if (plainKeyIndicators.has(first)) return undefined;
		for (let colon = text.indexOf(':', offset + 1); colon >= 0 && colon < lineEnd;) {
			const after = text.charCodeAt(colon + 1);
			if (after === 32 || after === 9 || after === 13 || after === 10 || Number.isNaN(after)) {
				let end = colon;
				while (
					end > offset &&
					(text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)
				) {
					end--;
				}
				const key = text.slice(offset, end);
				if (key.includes(' #')) return undefined;
				return { key, end, colon };
			}
			colon = text.indexOf(':', colon + 1);
		}
		return undefined;
	}

	/** Reads a block node whose first line is `line`, at `column`; `parentIndent` is the column of its parent's keys. */
	blockNode(line: number, column: number, parentIndent: number): TreeNode {
		const view = this.line(line);
		if (!view) throw new Unsupported('no line');
		const at = view.start + column;
		const char = this.text.charCodeAt(at);
		if (char === 45 && (at + 1 >= view.end || this.text.charCodeAt(at + 1) === 32)) {
			return this.sequence(line, column);
		}
		if (this.keyAt(at, view.end)) return this.mapping(line, column);
		return this.scalarValue(line, at, parentIndent);
	}

	/** A block mapping whose keys stand at `column`, the first on `line`. */
	mapping(line: number, column: number): MapNode {
		const entries: MapEntry[] = [];
		let current: number | undefined = line;
		let end = 0;
		let endLine = line;
		const start = (this.line(line)?.start ?? 0) + column;
		while (current !== undefined) {
			const view = this.line(current);
			if (!view) break;
			const keyStart = view.start + column;
			const key = this.keyAt(keyStart, view.end);
			if (!key) throw new Unsupported('not a key');
			const valueStart = this.skipSpaces(key.colon + 1, view.end);
			let value: TreeNode | undefined;
			let nextLine: number | undefined;
			if (this.restIsEmpty(key.colon + 1, view.end)) {
				const next = this.nextContent(current + 1);
				const nextView = next === undefined ? undefined : this.line(next);
				if (next !== undefined && nextView && nextView.indent > column) {
					value = this.blockNode(next, nextView.indent, column);
				} else if (
					next !== undefined &&
					nextView &&
					nextView.indent === column &&
					this.isDash(nextView)
				) {
					value = this.sequence(next, column);
				}
				nextLine = value ? this.nextContent(this.endLine + 1) : next;
			} else {
				value = this.scalarValue(current, valueStart, column);
				nextLine = this.nextContent(this.endLine + 1);
			}
			entries.push(
				value
					? { key: key.key, keyStart, keyEnd: key.end, value }
					: { key: key.key, keyStart, keyEnd: key.end },
			);
			end = value ? value.end : key.colon + 1;
			endLine = value ? this.endLine : current;
			if (nextLine === undefined) break;
			const nextView = this.line(nextLine);
			if (!nextView || nextView.indent < column) break;
			if (nextView.indent > column) throw new Unsupported('unexpected indentation');
			if (this.isDash(nextView)) break;
			current = nextLine;
		}
		this.endLine = endLine;
		return { kind: 'map', start, end, flow: false, entries };
	}

	isDash(view: LineView): boolean {
		return this.isDashAt(view.start + view.indent, view.end);
	}

	isDashAt(at: number, lineEnd: number): boolean {
		return (
			this.text.charCodeAt(at) === 45 && (at + 1 >= lineEnd || this.text.charCodeAt(at + 1) === 32)
		);
	}

	/** A block sequence whose dashes stand at `column`, the first on `line`. */
	sequence(line: number, column: number): SeqNode {
		const items: SeqItem[] = [];
		let current: number | undefined = line;
		const start = (this.line(line)?.start ?? 0) + column;
		let end = start + 1;
		let endLine = line;
		let first = true;
		while (current !== undefined) {
			const view = this.line(current);
			// The first dash may follow another one on its line (`- - a`); later ones start their lines.
			if (
				!view ||
				(!first && view.indent !== column) ||
				!this.isDashAt(view.start + column, view.end)
			) {
				break;
			}
			first = false;
			const dash = view.start + column;
			const contentStart = this.skipSpaces(dash + 1, view.end);
			let node: TreeNode | undefined;
			let nextLine: number | undefined;
			if (this.restIsEmpty(dash + 1, view.end)) {
				const next = this.nextContent(current + 1);
				const nextView = next === undefined ? undefined : this.line(next);
				if (next !== undefined && nextView && nextView.indent > column) {
					node = this.blockNode(next, nextView.indent, column);
					nextLine = this.nextContent(this.endLine + 1);
				} else nextLine = next;
			} else {
				if (this.isDashAt(contentStart, view.end)) {
					node = this.sequence(current, contentStart - view.start);
				} else if (this.keyAt(contentStart, view.end)) {
					node = this.mapping(current, contentStart - view.start);
				} else {
					node = this.scalarValue(current, contentStart, column);
				}
				nextLine = this.nextContent(this.endLine + 1);
			}
			items.push(node ? { dash, node } : { dash });
			end = node ? node.end : dash + 1;
			endLine = node ? this.endLine : current;
			current = nextLine;
		}
		this.endLine = endLine;
		return { kind: 'seq', start, end, flow: false, items };
	}

	/**
	 * A scalar (or one-line flow collection) starting at `at` on `line`, with its continuation lines: lines indented
	 * deeper than `indent` for plain and block scalars, up to the closing quote for quoted ones.
	 */
	scalarValue(line: number, at: number, indent: number): TreeNode {
		const view = this.line(line);
		if (!view) throw new Unsupported('no line');
		const char = this.text.charCodeAt(at);
		// Anchors, aliases, tags, complex keys and directives are left to the careful builder.
		if (
			char === 38 ||
			char === 42 ||
			char === 33 ||
			char === 63 ||
			char === 37 ||
			char === 64 ||
			char === 96
		) {
			throw new Unsupported('node property');
		}
		if (char === 124 || char === 62) {
			// A block scalar: the header, then every deeper or blank line.
			let lastLine = line;
			let end = this.trimComment(at, view.end);
			for (let next = line + 1; next <= this.lastLine; next++) {
				const nextView = this.line(next);
				if (!nextView) break;
				const raw = this.rawIndent(nextView);
				if (raw.blank) continue;
				if (raw.indent <= indent) break;
				lastLine = next;
				end = nextView.end;
			}
			this.endLine = lastLine;
			return { kind: 'scalar', start: at, end };
		}
		if (char === 123 || char === 91) {
			const close = this.flowEnd(at, view.end);
			if (close === undefined) throw new Unsupported('multi-line flow collection');
			if (!this.restIsEmpty(close, view.end)) throw new Unsupported('text after a flow collection');
			const flow = new FlowReader(this.text, close);
			const node = flow.node(at);
			if (flow.skip(node.end) !== close) throw new Unsupported('flow collection');
			this.endLine = line;
			return node;
		}
		if (char === 34 || char === 39) {
			let position = at + 1;
			let currentLine = line;
			let lineEnd = view.end;
			for (;;) {
				const close = quoteEnd(this.text, position, lineEnd, char);
				if (close !== undefined) {
					if (!this.restIsEmpty(close, lineEnd)) {
						throw new Unsupported('text after a quoted scalar');
					}
					this.endLine = currentLine;
					return { kind: 'scalar', start: at, end: close };
				}
				currentLine++;
				const nextView = this.line(currentLine);
				if (!nextView) throw new Unsupported('unclosed quote');
				position = nextView.start;
				lineEnd = nextView.end;
			}
		}
		// A plain scalar, possibly continued on deeper lines.
		let end = this.trimComment(at, view.end);
		let lastLine = line;
		for (let colon = at; colon + 2 <= end; colon++) {
			if (this.text.charCodeAt(colon) === 58 && this.text.charCodeAt(colon + 1) === 32) {
				throw new Unsupported('colon in a plain scalar');
			}
		}
		for (let next = line + 1; next <= this.lastLine; next++) {
			const nextView = this.line(next);
			if (!nextView) break;
			// A comment line ends the scalar; a line of spaces does not (line views mark both with indent -1).
			if (nextView.indent < 0) {
				if (this.rawIndent(nextView).blank) continue;
				break;
			}
			if (nextView.indent <= indent) break;
			if (this.isDocumentMarker(nextView)) break;
			lastLine = next;
			end = this.trimComment(nextView.start + nextView.indent, nextView.end);
		}
		this.endLine = lastLine;
		return { kind: 'scalar', start: at, end };
	}

	rawIndent(view: LineView): { indent: number; blank: boolean } {
		let column = 0;
		while (view.start + column < view.end && this.text.charCodeAt(view.start + column) === 32) {
			column++;
		}
		return { indent: column, blank: view.start + column >= view.end };
	}

	/** The end of a plain scalar's text on a line: before ` #` and trailing spaces. */
	trimComment(at: number, lineEnd: number): number {
		let end = lineEnd;
		// Searched on the line only: indexOf on the whole text would make a file without comments quadratic.
		for (let position = at + 1; position < lineEnd; position++) {
			if (this.text.charCodeAt(position) !== 35) continue;
			const before = this.text.charCodeAt(position - 1);
			if (before === 32 || before === 9) {
				end = position - 1;
				break;
			}
		}
		while (
			end > at &&
			(this.text.charCodeAt(end - 1) === 32 || this.text.charCodeAt(end - 1) === 9)
		) {
			end--;
		}
		return end;
	}

	/** Offset after the bracket closing the flow collection that opens at `at`, on the same line. */
	flowEnd(at: number, lineEnd: number): number | undefined {
		let depth = 0;
		for (let position = at; position < lineEnd; position++) {
			const char = this.text.charCodeAt(position);
			if (char === 34 || char === 39) {
				const close = quoteEnd(this.text, position + 1, lineEnd, char);
				if (close === undefined) return undefined;
				position = close - 1;
			} else if (char === 123 || char === 91) depth++;
			else if (char === 125 || char === 93) {
				depth--;
				if (depth === 0) return position + 1;
			} else if (char === 35 && /\s/.test(this.text.charAt(position - 1))) return undefined;
		}
		return undefined;
	}
}

/** A flow collection on one line (`{ a: 1, b: [x, 'y'] }`), read by recursive descent up to `end`. */
class FlowReader {
	private readonly text: string;
	private readonly end: number;

	constructor(text: string, end: number) {
		this.text = text;
		this.end = end;
	}

	skip(at: number): number {
		let position = at;
		while (
			position < this.end &&
			(this.text.charCodeAt(position) === 32 || this.text.charCodeAt(position) === 9)
		) {
			position++;
		}
		return position;
	}

	node(at: number): TreeNode {
		const char = this.text.charCodeAt(at);
		if (char === 123) return this.collection(at, 125);
		if (char === 91) return this.collection(at, 93);
		return this.scalar(at, false);
	}

	collection(at: number, close: number): MapNode | SeqNode {
		const entries: MapEntry[] = [];
		const items: SeqItem[] = [];
		let position = this.skip(at + 1);
		while (this.text.charCodeAt(position) !== close) {
			if (position >= this.end) throw new Unsupported('unclosed flow collection');
			if (close === 125) {
				const key = this.scalar(position, true);
				let after = this.skip(key.end);
				if (this.text.charCodeAt(after) !== 58) throw new Unsupported('flow entry without value');
				after = this.skip(after + 1);
				const first = this.text.charCodeAt(key.start);
				const raw = this.text.slice(key.start, key.end);
				let name: string;
				if (first === 34) {
					try {
						name = JSON.parse(raw) as string;
					} catch {
						throw new Unsupported('escape in a flow key');
					}
				} else if (first === 39) name = raw.slice(1, -1).replace(/''/g, "'");
				else name = raw;
				const next = this.text.charCodeAt(after);
				if (next === 44 || next === close) {
					entries.push({ key: name, keyStart: key.start, keyEnd: key.end });
					position = after;
				} else {
					const value = this.node(after);
					entries.push({ key: name, keyStart: key.start, keyEnd: key.end, value });
					position = this.skip(value.end);
				}
			} else {
				const value = this.node(position);
				items.push({ node: value });
				position = this.skip(value.end);
			}
			const separator = this.text.charCodeAt(position);
			if (separator === 44) position = this.skip(position + 1);
			else if (separator !== close) throw new Unsupported('flow separator');
		}
		return close === 125
			? { kind: 'map', start: at, end: position + 1, flow: true, entries }
			: { kind: 'seq', start: at, end: position + 1, flow: true, items };
	}

	scalar(at: number, key: boolean): ScalarNode {
		const char = this.text.charCodeAt(at);
		if (char === 34 || char === 39) {
			const end = quoteEnd(this.text, at + 1, this.end, char);
			if (end === undefined) throw new Unsupported('unclosed quote in flow');
			return { kind: 'scalar', start: at, end };
		}
		if (char === 38 || char === 42 || char === 33 || char === 63 || char === 123 || char === 91) {
			throw new Unsupported('flow node property');
		}
		let position = at;
		let last = at;
		while (position < this.end) {
			const current = this.text.charCodeAt(position);
			if (current === 44 || current === 93 || current === 125) break;
			if (current === 58) {
				const next = this.text.charCodeAt(position + 1);
				if (key || next === 32 || next === 44 || next === 93 || next === 125) break;
			}
			if (current !== 32 && current !== 9) last = position + 1;
			position++;
		}
		if (last === at) throw new Unsupported('empty flow scalar');
		return { kind: 'scalar', start: at, end: last };
	}
}

/**
 * The tree of the object that starts on `firstLine` (at most to `lastLine`), read from block-style YAML; undefined when
 * the text uses something the fast reader leaves to `yaml`. `listItem` says the object is an item of a `kind: List`
 * (its first line starts with `- `).
 */
export function blockTreeOf(
	text: string,
	lineStarts: LineStarts,
	firstLine: number,
	lastLine: number,
	listItem = false,
): TreeNode | undefined {
	const reader = new BlockReader(text, lineStarts, firstLine, lastLine);
	try {
		const first = reader.nextContent(firstLine);
		if (first === undefined) return undefined;
		const view = reader.line(first);
		if (!view) return undefined;
		if (listItem) {
			if (!reader.isDash(view)) return undefined;
			const contentStart = reader.skipSpaces(view.start + view.indent + 1, view.end);
			if (reader.restIsEmpty(contentStart, view.end)) return undefined;
			return reader.mapping(first, contentStart - view.start);
		}
		if (text.charCodeAt(view.start + view.indent) === 123) return undefined;
		return reader.blockNode(first, view.indent, -1);
	} catch (error) {
		if (error instanceof Unsupported) return undefined;
		throw error;
	}
}

// ---------------------------------------------------------------------------------------------------------------
// The careful builder: the `yaml` package's nodes

/** The tree of a `yaml` node; `offset` is added to its positions (when it was parsed from a slice of the text). */
export function treeOfYamlNode(node: unknown, offset = 0, source?: string): TreeNode | undefined {
	if (isMap(node)) {
		const entries: MapEntry[] = [];
		for (const pair of node.items) {
			if (!isPair(pair)) continue;
			const key = pair.key;
			if (!isScalar(key) || !key.range) continue;
			const value = treeOfYamlNode(pair.value, offset, source);
			const keyText = typeof key.value === 'string' ? key.value : String(key.value);
			const entry = {
				key: keyText,
				keyStart: key.range[0] + offset,
				keyEnd: key.range[1] + offset,
			};
			entries.push(value ? { ...entry, value } : entry);
		}
		const range = node.range ?? [0, 0, 0];
		return {
			kind: 'map',
			start: range[0] + offset,
			end: range[1] + offset,
			flow: node.flow === true,
			entries,
		};
	}
	if (isSeq(node)) {
		const items: SeqItem[] = [];
		for (const item of node.items) {
			const tree = treeOfYamlNode(item, offset, source);
			items.push(tree ? { node: tree } : {});
		}
		const range = node.range ?? [0, 0, 0];
		return {
			kind: 'seq',
			start: range[0] + offset,
			end: range[1] + offset,
			flow: node.flow === true,
			items,
		};
	}
	if (isScalar(node) && node.range) {
		// An empty value (`key:`) is a null scalar with an empty range: treat it as absent.
		if (node.range[0] === node.range[1] && node.value === null) return undefined;
		let end = node.range[1];
		// Block scalars end after their last line break; the range stops at the last character, as the fast builder's.
		if (source !== undefined && (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED')) {
			while (end > node.range[0] && /\s/.test(source.charAt(end - 1))) end--;
		}
		return { kind: 'scalar', start: node.range[0] + offset, end: end + offset };
	}
	const range = (node as Node | undefined)?.range;
	if (range) return { kind: 'scalar', start: range[0] + offset, end: range[1] + offset };
	return undefined;
}

/**
 * The tree of the object on lines `firstLine`..`lastLine`, parsed with the `yaml` package from that slice only. For a
 * `kind: List` item the slice is the item, parsed as a one-item sequence.
 */
export function yamlTreeOf(
	text: string,
	lineStarts: LineStarts,
	firstLine: number,
	lastLine: number,
	listItem = false,
): TreeNode | undefined {
	const start = lineStarts[firstLine] ?? 0;
	const end =
		lastLine + 1 < lineStarts.length ? (lineStarts[lastLine + 1] ?? text.length) : text.length;
	const slice = text.slice(start, end);
	const documents = parseAllDocuments(slice, { uniqueKeys: false, prettyErrors: false });
	const list = Array.isArray(documents) ? documents : [];
	for (const document of list) {
		const contents = document.contents;
		if (!contents) continue;
		if (listItem) {
			if (!isSeq(contents)) return undefined;
			return treeOfYamlNode(contents.items[0], start, slice);
		}
		return treeOfYamlNode(contents, start, slice);
	}
	return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the tree

/** What a path leads to: the node, and the mapping entry or sequence item that holds it. */
export interface Located {
	readonly node?: TreeNode;
	/** The entry when the last step is a key. */
	readonly entry?: MapEntry;
	/** The item when the last step is an index. */
	readonly item?: SeqItem;
	/** The mapping or sequence holding the last step. */
	readonly parent?: MapNode | SeqNode;
}

/**
 * Follows a path through the tree. Returns undefined when a step is missing, and `'opaque'` when the path goes into a
 * flow collection the fast builder did not open (the caller then asks the careful builder).
 */
export function locatePath(root: TreeNode, path: ObjectPath): Located | 'opaque' | undefined {
	let node: TreeNode | undefined = root;
	let located: Located = { node: root };
	for (const step of path) {
		if (!node) return undefined;
		if (node.kind === 'scalar') return node.opaque ? 'opaque' : undefined;
		if (typeof step === 'number') {
			if (node.kind !== 'seq') return undefined;
			const item: SeqItem | undefined = node.items[step];
			if (!item) return undefined;
			located = item.node ? { node: item.node, item, parent: node } : { item, parent: node };
			node = item.node;
		} else {
			if (node.kind !== 'map') return undefined;
			let entry: MapEntry | undefined;
			for (const candidate of node.entries) {
				if (candidate.key === step) {
					entry = candidate;
					break;
				}
			}
			if (!entry) return undefined;
			located = entry.value ? { node: entry.value, entry, parent: node } : { entry, parent: node };
			node = entry.value;
		}
	}
	return located;
}

/** What a position falls on: the path to it and whether it is a key or a value. */
export interface NodeAtPosition {
	readonly path: readonly PathSegment[];
	readonly part: 'key' | 'value';
	readonly start: number;
	readonly end: number;
}

/** The key or scalar value under an offset, with its path; undefined between nodes. */
export function nodeAtOffset(root: TreeNode, offset: number): NodeAtPosition | undefined {
	const path: PathSegment[] = [];
	let node: TreeNode | undefined = root;
	while (node) {
		if (node.kind === 'scalar') {
			return offset >= node.start && offset <= node.end
				? { path, part: 'value', start: node.start, end: node.end }
				: undefined;
		}
		if (node.kind === 'map') {
			let next: TreeNode | undefined;
			for (const entry of node.entries) {
				if (offset >= entry.keyStart && offset <= entry.keyEnd) {
					return {
						path: [...path, entry.key],
						part: 'key',
						start: entry.keyStart,
						end: entry.keyEnd,
					};
				}
				if (entry.value && offset >= entry.value.start && offset <= entry.value.end) {
					path.push(entry.key);
					next = entry.value;
					break;
				}
			}
			node = next;
		} else {
			let next: TreeNode | undefined;
			for (let index = 0; index < node.items.length; index++) {
				const item = node.items[index];
				if (item?.node && offset >= item.node.start && offset <= item.node.end) {
					path.push(index);
					next = item.node;
					break;
				}
			}
			node = next;
		}
	}
	return undefined;
}
