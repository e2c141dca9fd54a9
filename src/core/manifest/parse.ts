import jsyaml from 'js-yaml';
import {
	isMap,
	isSeq,
	LineCounter,
	parseAllDocuments,
	visit,
	type Document,
	type Node,
} from 'yaml';
import { isRecord } from '../model/object.ts';
import type { Range } from '../model/range.ts';
import { exactIntegerLoad, noteExactIntegers } from './exactIntegers.ts';
import { looksLikeJson, readJsonText } from './jsonManifests.ts';
import { NotSure, valueOfTree } from './blockValues.ts';
import {
	blockTreeOf,
	lineStartsOf,
	positionAt,
	type LineStarts,
	type TreeNode,
} from './yamlTree.ts';
import { errorText } from '../text/errorText.ts';

/** One Kubernetes object found in a text, with where it stands. */
export interface ParsedObject {
	readonly object: Record<string, unknown>;
	/** Index of the YAML document it came from. */
	readonly documentIndex: number;
	/** Index inside a `kind: List`'s items, when it came from one. */
	readonly itemIndex?: number;
	readonly range: Range;
	/** The YAML node of the object, for finding keys inside it (absent for JSON input). */
	readonly node?: Node;
}

/** A problem found while parsing, as data (never thrown). */
export interface ParseProblem {
	readonly code: 'yaml-syntax' | 'json-syntax' | 'not-an-object' | 'too-large';
	readonly message: string;
	readonly range: Range;
}

/** The result of reading a text: the objects it holds and what went wrong. */
export interface ParseResult {
	readonly objects: readonly ParsedObject[];
	readonly problems: readonly ParseProblem[];
	/** Documents that are YAML but not Kubernetes objects (no apiVersion/kind); skipped quietly. */
	readonly skippedDocuments: number;
	/** The YAML documents with node ranges, from `parseManifestsWithNodes` only. */
	readonly documents?: readonly Document.Parsed[];
	readonly lineCounter?: LineCounter;
}

/** Where a part of a text starts: its character offset, line and the index of its first document. */
interface PartStart {
	readonly offset: number;
	readonly line: number;
	readonly document: number;
}

/** What one part of a text held; documentCount says where the next part's documents are numbered from. */
interface PartResult {
	readonly objects: ParsedObject[];
	readonly problems: ParseProblem[];
	readonly skippedDocuments: number;
	readonly documentCount: number;
}

const wholeText: PartStart = { offset: 0, line: 0, document: 0 };

/** The range of a character span in a text, using a LineCounter, moved down by `lineOffset` lines. */
function rangeOfSpan(lineCounter: LineCounter, start: number, end: number, lineOffset = 0): Range {
	const from = lineCounter.linePos(start);
	const to = lineCounter.linePos(end);
	return {
		start: { line: from.line - 1 + lineOffset, character: from.col - 1 },
		end: { line: to.line - 1 + lineOffset, character: to.col - 1 },
	};
}

function isKubernetesObject(value: unknown): value is Record<string, unknown> {
	return isRecord(value) && typeof value.kind === 'string' && typeof value.apiVersion === 'string';
}

function isList(value: Record<string, unknown>): boolean {
	return (
		typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)
	);
}

const zeroRange: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** Looks like a Helm or Go template: not Kubernetes YAML we can read. */
function isTemplate(text: string): boolean {
	return text.includes('{{');
}

// A lone carriage return is a line break in YAML 1.2, js-yaml and kubectl's reader, but the `yaml` package reads it
// as part of a line: it becomes a line feed, which keeps every offset where it was.
function withLineFeeds(text: string): string {
	return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

function lineRange(startLine: number, endLine: number): Range {
	return {
		start: { line: startLine, character: 0 },
		end: { line: Math.max(startLine, endLine), character: 0 },
	};
}

/**
 * The fast path: js-yaml (about ten times faster than the `yaml` package here) with the YAML 1.2 core schema, so
 * timestamps stay strings as Go decodes them; start lines come from its node listener. Returns undefined on any
 * syntax error, so the careful path can report every problem and keep the good documents. `lineCount` is the
 * number of lines the part spans (the last document ends on the line before).
 */
function parseManifestsFast(
	text: string,
	at: PartStart,
	lineCount: number,
): PartResult | undefined {
	const documents: unknown[] = [];
	const documentLines: number[] = [];
	const sequenceItemLines = new Map<unknown, number[]>();
	// The listener runs for every node: it keeps a depth and the lines of the nodes two levels down only, allocating
	// nothing per node. A node at depth 1 that closes as a sequence (a List's items) keeps the lines of its children.
	let depth = 0;
	let childLines: number[] = [];
	const integers = exactIntegerLoad();
	try {
		jsyaml.loadAll(text, (document) => documents.push(integers.settle(document)), {
			schema: integers.schema,
			json: true,
			listener(event, state) {
				if (event === 'open') {
					if (depth === 0) documentLines.push(state.line + at.line);
					else if (depth === 1) {
						if (childLines.length > 0) childLines = [];
					} else if (depth === 2) childLines.push(state.line + at.line);
					depth++;
					return;
				}
				depth--;
				if (depth === 1 && state.kind === 'sequence') {
					sequenceItemLines.set(state.result, childLines);
					childLines = [];
				}
			},
		});
	} catch {
		return undefined;
	}
	const lastLine = at.line + lineCount;
	const objects: ParsedObject[] = [];
	const problems: ParseProblem[] = [];
	let skippedDocuments = 0;
	// An empty document fires no node events, so documents and their lines are paired from the end of the stream only
	// when counts agree; otherwise lines fall back to the start of the part.
	const linesAgree = documentLines.length === documents.length;
	documents.forEach((value, index) => {
		const documentIndex = at.document + index;
		const startLine = linesAgree ? (documentLines[index] ?? at.line) : at.line;
		const endLine = linesAgree ? (documentLines[index + 1] ?? lastLine) - 1 : lastLine - 1;
		if (value === null || value === undefined) return;
		if (!isRecord(value)) {
			skippedDocuments++;
			return;
		}
		if (isList(value)) {
			const items = value.items as unknown[];
			const lines = sequenceItemLines.get(items) ?? [];
			items.forEach((item, itemIndex) => {
				const itemLine =
					lines.length === items.length ? (lines[itemIndex] ?? startLine) : startLine;
				const nextLine =
					lines.length === items.length ? (lines[itemIndex + 1] ?? endLine + 1) - 1 : endLine;
				if (!isKubernetesObject(item)) {
					problems.push({
						code: 'not-an-object',
						message: `items[${itemIndex}] of the ${String(value.kind)} is not a Kubernetes object (apiVersion and kind are required)`,
						range: lineRange(itemLine, nextLine),
					});
					return;
				}
				objects.push({
					object: item,
					documentIndex,
					itemIndex,
					range: lineRange(itemLine, nextLine),
				});
			});
			return;
		}
		if (!isKubernetesObject(value)) {
			skippedDocuments++;
			return;
		}
		objects.push({ object: value, documentIndex, range: lineRange(startLine, endLine) });
	});
	return { objects, problems, skippedDocuments, documentCount: documents.length };
}

/**
 * A JSON text read with JSON.parse, with the ranges the js-yaml path gives it (whole lines: the document from its
 * first character to the end of the text, a List's items from their first line to the line before the next item).
 * Undefined where the YAML path must read it: not JSON, a template or an anchor-like `&` (which the YAML path reads
 * with node ranges), or lines it cannot pair with the items.
 */
function parseJsonManifests(source: string): ParseResult | undefined {
	if (!looksLikeJson(source) || source.includes('{{')) return undefined;
	for (let at = source.indexOf('&'); at >= 0; at = source.indexOf('&', at + 1)) {
		if (isAnchorAt(source, at)) return undefined;
	}
	const json = readJsonText(source);
	if (!json) return undefined;
	const { value, documentLine } = json;
	const endLine = json.lineFeeds;
	if (value === null) return { objects: [], problems: [], skippedDocuments: 0 };
	if (!isRecord(value)) return { objects: [], problems: [], skippedDocuments: 1 };
	if (!isList(value)) {
		return isKubernetesObject(value)
			? {
					objects: [{ object: value, documentIndex: 0, range: lineRange(documentLine, endLine) }],
					problems: [],
					skippedDocuments: 0,
				}
			: { objects: [], problems: [], skippedDocuments: 1 };
	}
	const items = value.items as unknown[];
	const lines = json.itemLines;
	if (lines?.length !== items.length) return undefined;
	const objects: ParsedObject[] = [];
	const problems: ParseProblem[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const item = items[itemIndex];
		const range = lineRange(
			lines[itemIndex] ?? documentLine,
			(lines[itemIndex + 1] ?? endLine + 1) - 1,
		);
		if (isKubernetesObject(item)) {
			objects.push({ object: item, documentIndex: 0, itemIndex, range });
		} else {
			problems.push({
				code: 'not-an-object',
				message: `items[${itemIndex}] of the ${String(value.kind)} is not a Kubernetes object (apiVersion and kind are required)`,
				range,
			});
		}
	}
	return { objects, problems, skippedDocuments: 0 };
}

/** One document of a stream: from a `---` at the start of a line (or the text's start) to the next. */
interface DocumentSpan {
	readonly start: number;
	readonly line: number;
	/** Holds an anchor or a template, so only the careful path may read it. */
	careful: boolean;
}

// Anchors make aliases, and aliases can multiply a small text into a huge object: such documents take the careful
// path, which caps alias expansion. An anchor is `&name` at the start of a node (after a space, `[{,:-` or a line
// start).
function isAnchorAt(text: string, index: number): boolean {
	const before = index === 0 ? '\n' : text.charAt(index - 1);
	const after = text.charAt(index + 1);
	return /[\s[{,:-]/.test(before) && after !== '' && !/[\s,[\]{}]/.test(after);
}

/**
 * The documents of a stream, split where YAML itself splits them: a line starting with `---` ends every node,
 * block scalars and quoted text included. A stream with directives (`%YAML`) stays whole.
 */
function documentSpansOf(text: string, lineStarts: LineStarts): DocumentSpan[] {
	const starts = [0];
	if (!/^%/m.test(text)) {
		for (let at = text.indexOf('\n---'); at >= 0; at = text.indexOf('\n---', at + 4)) {
			const after = text.charAt(at + 4);
			if (after === '' || after === ' ' || after === '\t' || after === '\n' || after === '\r') {
				starts.push(at + 1);
			}
		}
	}
	const spans: DocumentSpan[] = [];
	for (const start of starts) {
		spans.push({ start, line: positionAt(lineStarts, start).line, careful: false });
	}
	let span = 0;
	const markCareful = (index: number): void => {
		while (span + 1 < spans.length && (spans[span + 1]?.start ?? 0) <= index) span++;
		const holder = spans[span];
		if (holder) holder.careful = true;
	};
	for (let at = text.indexOf('&'); at >= 0; at = text.indexOf('&', at + 1)) {
		if (isAnchorAt(text, at)) markCareful(at);
	}
	span = 0;
	for (let at = text.indexOf('{{'); at >= 0; at = text.indexOf('{{', at + 2)) markCareful(at);
	return spans;
}

/**
 * Reads every Kubernetes object from a YAML or JSON text: multi-document YAML, `kind: List` (kubectl get -o yaml),
 * JSON. Never throws: syntax errors come back as problems with positions. Ranges are whole lines; use
 * `parseManifestsWithNodes` where exact node ranges matter (hovers, diagnostics). Each document takes the fast path
 * unless it holds an anchor, a template or a syntax error: one such document does not slow down the rest.
 */
export function parseManifests(
	text: string,
	options: {
		readonly fileName?: string;
		/** Read JSON with the YAML reader too (to compare the two readers). */
		readonly jsonAsYaml?: boolean;
	} = {},
): ParseResult {
	return readManifests(text, options, undefined);
}

/** What `parseManifestsWithTrees` gives: the same result as `parseManifests`, and the trees it built on the way. */
export interface ParseWithTrees {
	readonly parse: ParseResult;
	/** `blockTreeOf` of an object's lines, for the objects whose values were read from it. */
	readonly trees: ReadonlyMap<ParsedObject, TreeNode>;
}

/**
 * `parseManifests` for a caller that needs positions too (diagnostics, hovers): a run of plain block-style documents
 * is read once, with the line reader, and its values taken from the trees (blockValues.ts); anything that reader is
 * not sure of goes the `parseManifests` way. The result is the same as `parseManifests(text)`.
 */
export function parseManifestsWithTrees(text: string, lineStarts: LineStarts): ParseWithTrees {
	const trees = new Map<ParsedObject, TreeNode>();
	const parse = readManifests(text, { lineStarts }, trees);
	return { parse, trees };
}

function readManifests(
	text: string,
	options: {
		readonly fileName?: string;
		readonly jsonAsYaml?: boolean;
		/** The text's line starts (`lineStartsOf`), when the caller has them already. */
		readonly lineStarts?: LineStarts;
	},
	/** Where the trees of block-read objects go; undefined: values from js-yaml only. */
	trees: Map<ParsedObject, TreeNode> | undefined,
): ParseResult {
	const source = withLineFeeds(text);
	if (options.jsonAsYaml !== true) {
		const json = parseJsonManifests(source);
		if (json) return json;
	}
	const lineStarts =
		source === text && options.lineStarts ? options.lineStarts : lineStartsOf(source);
	const spans = documentSpansOf(source, lineStarts);
	const totalLines = lineStarts.length;
	const objects: ParsedObject[] = [];
	const problems: ParseProblem[] = [];
	let skippedDocuments = 0;
	let documentIndex = 0;
	const keep = (part: PartResult): void => {
		for (const object of part.objects) objects.push(object);
		for (const problem of part.problems) problems.push(problem);
		skippedDocuments += part.skippedDocuments;
		documentIndex += part.documentCount;
	};
	const startOf = (index: number): PartStart => {
		const span = spans[index];
		return { offset: span?.start ?? 0, line: span?.line ?? 0, document: documentIndex };
	};
	const endOf = (index: number): { offset: number; line: number } => {
		const next = spans[index + 1];
		return next
			? { offset: next.start, line: next.line }
			: { offset: source.length, line: totalLines };
	};
	// Reads one document carefully: false when it is a template that does not parse (the file is skipped).
	const readCarefully = (index: number): boolean => {
		const at = startOf(index);
		const part = parseCarefully(source.slice(at.offset, endOf(index).offset), options, at);
		if (part === 'template') return false;
		keep(part);
		return true;
	};
	// Reads documents first..last on the fast path; a syntax error halves the run until the broken document is alone,
	// and only that one is read carefully.
	const readFast = (first: number, last: number): boolean => {
		const at = startOf(first);
		const end = endOf(last);
		const part = parseManifestsFast(source.slice(at.offset, end.offset), at, end.line - at.line);
		if (part) {
			keep(part);
			return true;
		}
		if (first === last) return readCarefully(first);
		const middle = Math.floor((first + last) / 2);
		return readFast(first, middle) && readFast(middle + 1, last);
	};
	// Runs of documents without anchors or templates are read together; a template that does not parse skips the file.
	for (let first = 0; first < spans.length;) {
		let last = first;
		if (!spans[first]?.careful) {
			while (last + 1 < spans.length && !spans[last + 1]?.careful) last++;
		}
		const blockRead =
			trees && source === text && !spans[first]?.careful
				? readBlockRun(source, lineStarts, spans, first, last, startOf(first), trees)
				: undefined;
		if (blockRead) keep(blockRead);
		const read =
			blockRead !== undefined ||
			(spans[first]?.careful ? readCarefully(first) : readFast(first, last));
		if (!read) return { objects: [], problems: [], skippedDocuments: spans.length };
		first = last + 1;
	}
	return { objects, problems, skippedDocuments };
}

/** Whether the line from `from` to `to` holds nothing but spaces, tabs and a comment. */
function isBlankOrComment(text: string, from: number, to: number): boolean {
	for (let at = from; at < to; at++) {
		const char = text.charCodeAt(at);
		if (char === 35) {
			return at === from || text.charCodeAt(at - 1) === 32 || text.charCodeAt(at - 1) === 9;
		}
		if (char !== 32 && char !== 9 && char !== 13) return false;
	}
	return true;
}

// What js-yaml refuses in a scalar (control characters, lone surrogates), and more (every surrogate, U+FEFF, U+2028,
// U+2029): a text holding any of them is left to js-yaml.
const unreadable =
	// eslint-disable-next-line no-control-regex -- the control characters js-yaml refuses
	/[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\uD800-\uDFFF\uFEFF\uFFFE\uFFFF\u2028\u2029]/;

/**
 * Spans first..last read with the line reader, values from its trees: what the js-yaml path gives for them, or
 * undefined when any document is beyond the reader (then the caller reads the run with js-yaml). Each span must be one
 * block mapping after its `---` line (the first span may have none, or only comments before the next span's `---`).
 */
function readBlockRun(
	source: string,
	lineStarts: LineStarts,
	spans: readonly DocumentSpan[],
	first: number,
	last: number,
	at: PartStart,
	trees: Map<ParsedObject, TreeNode>,
): PartResult | undefined {
	const lineCount = lineStarts.length;
	const lineStart = (line: number): number =>
		line < lineCount ? (lineStarts[line] ?? 0) : source.length;
	const lineEnd = (line: number): number =>
		line + 1 < lineCount ? (lineStarts[line + 1] ?? 0) - 1 : source.length;
	const runEnd = last + 1 < spans.length ? (spans[last + 1]?.start ?? 0) : source.length;
	const lastLine = last + 1 < spans.length ? (spans[last + 1]?.line ?? 0) : lineCount;
	const runText = source.slice(at.offset, runEnd);
	if (unreadable.test(runText)) return undefined;
	// Every `---` at a line start must be a span's start, and no `...` may end a document early.
	if (runText.startsWith('...') || runText.includes('\n...')) return undefined;
	let markers = 0;
	for (
		let found = runText.indexOf('\n---');
		found >= 0;
		found = runText.indexOf('\n---', found + 4)
	) {
		markers++;
	}
	if (markers !== last - first) return undefined;
	// The line of each document's first node, as js-yaml's listener gives it.
	const documentLines: number[] = [];
	for (let index = first; index <= last; index++) {
		const span = spans[index];
		if (!span) return undefined;
		const spanEndLine = index + 1 < spans.length ? (spans[index + 1]?.line ?? 0) : lineCount;
		let line = span.line;
		if (source.startsWith('---', span.start)) {
			if (!isBlankOrComment(source, span.start + 3, lineEnd(line))) return undefined;
			line++;
		} else if (span.start !== 0) return undefined;
		while (line < spanEndLine && isBlankOrComment(source, lineStart(line), lineEnd(line))) line++;
		if (line >= spanEndLine) {
			// Only comments before the next span's `---`: no document of its own, at the start of the text only.
			if (span.start === 0 && !source.startsWith('---') && index < last) continue;
			return undefined;
		}
		const head = source.charCodeAt(lineStart(line));
		if (head === 32 || head === 9) return undefined;
		documentLines.push(line);
	}
	const objects: ParsedObject[] = [];
	let skippedDocuments = 0;
	for (let index = 0; index < documentLines.length; index++) {
		const startLine = documentLines[index] ?? 0;
		const endLine = (documentLines[index + 1] ?? lastLine) - 1;
		const tree = blockTreeOf(source, lineStarts, startLine, endLine);
		if (!tree) return undefined;
		// The tree must hold the whole document: after it, only blank lines, comments and the next `---` line.
		const treeEndLine = positionAt(lineStarts, Math.max(tree.end - 1, 0)).line;
		for (let line = treeEndLine + 1; line <= endLine; line++) {
			const from = lineStart(line);
			const to = lineEnd(line);
			if (isBlankOrComment(source, from, to)) continue;
			if (source.startsWith('---', from) && isBlankOrComment(source, from + 3, to)) continue;
			return undefined;
		}
		let value: Record<string, unknown>;
		try {
			value = valueOfTree(source, tree);
		} catch (error) {
			if (error instanceof NotSure) return undefined;
			throw error;
		}
		if (isList(value)) return undefined;
		if (!isKubernetesObject(value)) {
			skippedDocuments++;
			continue;
		}
		const parsed: ParsedObject = {
			object: value,
			documentIndex: at.document + index,
			range: lineRange(startLine, endLine),
		};
		trees.set(parsed, tree);
		objects.push(parsed);
	}
	return { objects, problems: [], skippedDocuments, documentCount: documentLines.length };
}

/**
 * The careful path: the `yaml` package with node ranges for every key and value, recovery after syntax errors (the
 * good documents are kept) and a cap on alias expansion.
 */
export function parseManifestsWithNodes(
	text: string,
	options: { readonly fileName?: string } = {},
): ParseResult {
	const lineCounter = new LineCounter();
	const list = parseDocuments(withLineFeeds(text), lineCounter);
	const part = partOfDocuments(list, lineCounter, options, wholeText, text);
	if (part === 'template') {
		return {
			objects: [],
			problems: [],
			skippedDocuments: list.length,
			documents: list,
			lineCounter,
		};
	}
	const { objects, problems, skippedDocuments } = part;
	return { objects, problems, skippedDocuments, documents: list, lineCounter };
}

function parseDocuments(text: string, lineCounter: LineCounter): Document.Parsed[] {
	const documents = parseAllDocuments(text, {
		lineCounter,
		uniqueKeys: false,
		prettyErrors: false,
		keepSourceTokens: false,
	});
	// parseAllDocuments returns an EmptyStream (no documents) for empty input.
	return Array.isArray(documents) ? documents : [];
}

/** One part of a longer text read carefully; its nodes' ranges are made offsets into the whole text. */
function parseCarefully(
	text: string,
	options: { readonly fileName?: string },
	at: PartStart,
): PartResult | 'template' {
	const lineCounter = new LineCounter();
	const list = parseDocuments(text, lineCounter);
	const part = partOfDocuments(list, lineCounter, options, at, text);
	if (part !== 'template' && at.offset > 0) {
		for (const document of list) {
			visit(document, {
				Node(_, node) {
					if (node.range) {
						const [start, valueEnd, end] = node.range;
						node.range = [start + at.offset, valueEnd + at.offset, end + at.offset];
					}
				},
			});
		}
	}
	return part;
}

/** The objects and problems of parsed documents; 'template' when a template text does not parse (skipped quietly). */
function partOfDocuments(
	list: readonly Document.Parsed[],
	lineCounter: LineCounter,
	options: { readonly fileName?: string },
	at: PartStart,
	text: string,
): PartResult | 'template' {
	if (isTemplate(text) && list.some((document) => document.errors.length > 0)) return 'template';
	const problems: ParseProblem[] = [];
	const objects: ParsedObject[] = [];
	let skippedDocuments = 0;
	const looksJson = options.fileName?.endsWith('.json') ?? false;
	const rangeOf = (start: number, end: number): Range =>
		rangeOfSpan(lineCounter, start, end, at.line);
	list.forEach((document, index) => {
		const documentIndex = at.document + index;
		for (const error of document.errors) {
			const [start, end] = error.pos;
			problems.push({
				code: looksJson ? 'json-syntax' : 'yaml-syntax',
				message: error.message.split('\n')[0] ?? error.message,
				range: rangeOf(start, Math.max(end, start)),
			});
		}
		if (document.errors.length > 0) return;
		let value: unknown;
		try {
			value = document.toJS({ maxAliasCount: 100 });
			noteExactIntegers(document, value);
		} catch (error) {
			// An alias bomb or similar: report it on the document, keep the rest of the file.
			const [start, , end] = document.range;
			problems.push({
				code: 'too-large',
				message: errorText(error),
				range: rangeOf(start, end),
			});
			return;
		}
		if (value === null || value === undefined) return;
		const documentNode = document.contents;
		const documentRange = documentNode?.range
			? rangeOf(documentNode.range[0], documentNode.range[1])
			: at.line === 0
				? zeroRange
				: lineRange(at.line, at.line);
		if (!isRecord(value)) {
			skippedDocuments++;
			return;
		}
		if (isList(value)) {
			const items = value.items as unknown[];
			const itemsNode = isMap(documentNode) ? documentNode.get('items', true) : undefined;
			items.forEach((item, itemIndex) => {
				const itemNode = isSeq(itemsNode)
					? (itemsNode.items[itemIndex] as Node | undefined)
					: undefined;
				const itemRange = itemNode?.range
					? rangeOf(itemNode.range[0], itemNode.range[1])
					: documentRange;
				if (!isKubernetesObject(item)) {
					problems.push({
						code: 'not-an-object',
						message: `items[${itemIndex}] of the ${String(value.kind)} is not a Kubernetes object (apiVersion and kind are required)`,
						range: itemRange,
					});
					return;
				}
				objects.push({
					object: item,
					documentIndex,
					itemIndex,
					range: itemRange,
					...(itemNode ? { node: itemNode } : {}),
				});
			});
			return;
		}
		if (!isKubernetesObject(value)) {
			skippedDocuments++;
			return;
		}
		objects.push({
			object: value,
			documentIndex,
			range: documentRange,
			...(documentNode ? { node: documentNode } : {}),
		});
	});
	return { objects, problems, skippedDocuments, documentCount: list.length };
}

/**
 * The object a cursor on `line` (zero-based) is in: the one that starts last at or before it (a YAML node's range runs
 * on to where the next one starts), else the first; undefined when there is none.
 */
export function objectAtLine(
	objects: readonly ParsedObject[],
	line: number,
): ParsedObject | undefined {
	let found = objects[0];
	for (const entry of objects) if (entry.range.start.line <= line) found = entry;
	return found;
}
