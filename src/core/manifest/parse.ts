import jsyaml from 'js-yaml';
import { isMap, isSeq, LineCounter, parseAllDocuments, type Document, type Node } from 'yaml';
import { isRecord } from '../model/object.ts';
import type { Range } from '../model/range.ts';

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

/** The range of a character span in a text, using a LineCounter. */
function rangeOfSpan(lineCounter: LineCounter, start: number, end: number): Range {
	const from = lineCounter.linePos(start);
	const to = lineCounter.linePos(end);
	return {
		start: { line: from.line - 1, character: from.col - 1 },
		end: { line: to.line - 1, character: to.col - 1 },
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

// Anchors make aliases, and aliases can multiply a small text into a huge object: such texts take the careful path,
// which caps alias expansion.
const anchorPattern = /(^|[\s[{,:-])&[^\s,[\]{}]+/m;

function lineRange(startLine: number, endLine: number): Range {
	return {
		start: { line: startLine, character: 0 },
		end: { line: Math.max(startLine, endLine), character: 0 },
	};
}

/**
 * The fast path: js-yaml (about ten times faster than the `yaml` package here) with the YAML 1.2 core schema, so
 * timestamps stay strings as Go decodes them; start lines come from its node listener. Returns undefined on any
 * syntax error, so the careful path can report every problem and keep the good documents.
 */
function parseManifestsFast(text: string): ParseResult | undefined {
	const documents: unknown[] = [];
	const documentLines: number[] = [];
	const sequenceItemLines = new Map<unknown, number[]>();
	const stack: { line: number; children: number[] }[] = [];
	try {
		jsyaml.loadAll(text, (document) => documents.push(document), {
			schema: jsyaml.CORE_SCHEMA,
			json: true,
			listener(event, state) {
				if (event === 'open') {
					if (stack.length === 0) documentLines.push(state.line);
					stack.push({ line: state.line, children: [] });
					return;
				}
				const closed = stack.pop();
				const parent = stack[stack.length - 1];
				if (!closed) return;
				parent?.children.push(closed.line);
				// Items of a top-level sequence (a List's items) need their own lines.
				if (stack.length === 1 && state.kind === 'sequence') {
					sequenceItemLines.set(state.result, closed.children);
				}
			},
		});
	} catch {
		return undefined;
	}
	const lineCount = text.split('\n').length;
	const objects: ParsedObject[] = [];
	const problems: ParseProblem[] = [];
	let skippedDocuments = 0;
	// An empty document fires no node events, so documents and their lines are paired from the end of the stream only
	// when counts agree; otherwise lines fall back to 0.
	const linesAgree = documentLines.length === documents.length;
	documents.forEach((value, documentIndex) => {
		const startLine = linesAgree ? (documentLines[documentIndex] ?? 0) : 0;
		const endLine = linesAgree
			? (documentLines[documentIndex + 1] ?? lineCount) - 1
			: lineCount - 1;
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
	return { objects, problems, skippedDocuments };
}

/**
 * Reads every Kubernetes object from a YAML or JSON text: multi-document YAML, `kind: List` (kubectl get -o yaml),
 * JSON. Never throws: syntax errors come back as problems with positions. Ranges are whole lines; use
 * `parseManifestsWithNodes` where exact node ranges matter (hovers, diagnostics).
 */
export function parseManifests(
	text: string,
	options: { readonly fileName?: string } = {},
): ParseResult {
	if (isTemplate(text) || anchorPattern.test(text)) return parseManifestsWithNodes(text, options);
	return parseManifestsFast(text) ?? parseManifestsWithNodes(text, options);
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
	const problems: ParseProblem[] = [];
	const objects: ParsedObject[] = [];
	let skippedDocuments = 0;
	const documents = parseAllDocuments(text, {
		lineCounter,
		uniqueKeys: false,
		prettyErrors: false,
		keepSourceTokens: false,
	});
	// parseAllDocuments returns an EmptyStream (no documents) for empty input.
	const list = Array.isArray(documents) ? documents : [];
	if (isTemplate(text) && list.some((document) => document.errors.length > 0)) {
		return { objects, problems, skippedDocuments: list.length, documents: list, lineCounter };
	}
	const looksJson = options.fileName?.endsWith('.json') ?? false;
	list.forEach((document, documentIndex) => {
		for (const error of document.errors) {
			const [start, end] = error.pos;
			problems.push({
				code: looksJson ? 'json-syntax' : 'yaml-syntax',
				message: error.message.split('\n')[0] ?? error.message,
				range: rangeOfSpan(lineCounter, start, Math.max(end, start)),
			});
		}
		if (document.errors.length > 0) return;
		let value: unknown;
		try {
			value = document.toJS({ maxAliasCount: 100 });
		} catch (error) {
			// An alias bomb or similar: report it on the document, keep the rest of the file.
			const [start, , end] = document.range;
			problems.push({
				code: 'too-large',
				message: error instanceof Error ? error.message : String(error),
				range: rangeOfSpan(lineCounter, start, end),
			});
			return;
		}
		if (value === null || value === undefined) return;
		const documentNode = document.contents;
		const documentRange = documentNode?.range
			? rangeOfSpan(lineCounter, documentNode.range[0], documentNode.range[1])
			: zeroRange;
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
				if (!isKubernetesObject(item)) {
					problems.push({
						code: 'not-an-object',
						message: `items[${itemIndex}] of the ${String(value.kind)} is not a Kubernetes object (apiVersion and kind are required)`,
						range: itemNode?.range
							? rangeOfSpan(lineCounter, itemNode.range[0], itemNode.range[1])
							: documentRange,
					});
					return;
				}
				objects.push({
					object: item,
					documentIndex,
					itemIndex,
					range: itemNode?.range
						? rangeOfSpan(lineCounter, itemNode.range[0], itemNode.range[1])
						: documentRange,
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
	return { objects, problems, skippedDocuments, documents: list, lineCounter };
}
