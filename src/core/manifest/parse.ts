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
	readonly documents: readonly Document.Parsed[];
	readonly lineCounter: LineCounter;
}

/** The range of a character span in a text, using a LineCounter. */
export function rangeOfSpan(lineCounter: LineCounter, start: number, end: number): Range {
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

/**
 * Reads every Kubernetes object from a YAML or JSON text: multi-document YAML, `kind: List` (kubectl get -o yaml),
 * JSON. Never throws: syntax errors come back as problems with positions.
 */
export function parseManifests(
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
