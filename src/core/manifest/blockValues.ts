// The values of a block-style document read from the tree the line reader (yamlTree.ts) built for its positions, so
// that such a document is read once instead of twice (js-yaml for values, the line reader for ranges). The values
// are those js-yaml gives with the YAML 1.2 core schema and `json: true` (the fast path of parse.ts); whatever this
// reader is not sure to read the same way throws `NotSure`, and the caller takes the js-yaml path for the text. A
// differential test holds the two together (test/unit/core/manifest/blockValues.test.ts).
import jsyaml from 'js-yaml';
import type { TreeNode } from './yamlTree.ts';

/** Thrown where the tree's values might differ from js-yaml's; the caller falls back to js-yaml. */
export class NotSure extends Error {}

// js-yaml exports its types at run time; @types/js-yaml does not declare them.
const coreTypes = (
	jsyaml as unknown as {
		readonly types: {
			readonly null: jsyaml.Type;
			readonly bool: jsyaml.Type;
			readonly int: jsyaml.Type;
			readonly float: jsyaml.Type;
		};
	}
).types;

/** js-yaml stops at this depth (its maxDepth counts keys too); far deeper than any manifest. */
const deepestNesting = 40;

/** Whether a plain scalar starting with this character may be other than a string: `~`, n/N, t/T, f/F, digits, `+-.`. */
function mayResolve(first: number): boolean {
	return (
		first === 126 ||
		first === 110 ||
		first === 78 ||
		first === 116 ||
		first === 84 ||
		first === 102 ||
		first === 70 ||
		(first >= 48 && first <= 57) ||
		first === 43 ||
		first === 45 ||
		first === 46
	);
}

/** A plain scalar as the core schema reads it (null, bool, int, float, else string), in js-yaml's order. */
function plainValue(text: string): unknown {
	if (!mayResolve(text.charCodeAt(0))) return text;
	if (coreTypes.null.resolve(text)) return null;
	if (coreTypes.bool.resolve(text)) return coreTypes.bool.construct(text) as unknown;
	if (coreTypes.int.resolve(text)) {
		const number = coreTypes.int.construct(text) as number;
		// Integers beyond 2^53 keep their exact value beside them on the js-yaml path (exactIntegers.ts).
		if (Number.isSafeInteger(number) || !Number.isInteger(number)) return number;
		throw new NotSure('imprecise integer');
	}
	if (coreTypes.float.resolve(text)) return coreTypes.float.construct(text) as unknown;
	return text;
}

// Characters a plain scalar may not start with (YAML 1.2 §7.3.3; `:` too, to be safe).
const plainIndicators = new Set([...',[]{}#&*!|>\'"%@`:'].map((char) => char.charCodeAt(0)));

/** Whether js-yaml might read a plain scalar otherwise than as its text: an indicator first, or `: ` inside. */
function isOddPlain(raw: string, first: number): boolean {
	if (plainIndicators.has(first)) return true;
	if (first === 45 || first === 63) {
		const next = raw.charCodeAt(1);
		if (Number.isNaN(next) || next === 32 || next === 9) return true;
	}
	// A colon before a space, a tab or the end would make it a key.
	for (let colon = raw.indexOf(':'); colon >= 0; colon = raw.indexOf(':', colon + 1)) {
		const next = raw.charCodeAt(colon + 1);
		if (Number.isNaN(next) || next === 32 || next === 9) return true;
	}
	return false;
}
// The escapes YAML and JSON share, with the same meaning.
const foreignEscape = /\\(?![\\"/bfnrt]|u[0-9a-fA-F]{4})/;

/** Whether a character ends a plain scalar before it in a flow collection, after a `:` (js-yaml: white space or an indicator). */
function endsFlowKey(code: number): boolean {
	return (
		Number.isNaN(code) ||
		code === 32 ||
		code === 9 ||
		code === 13 ||
		code === 10 ||
		code === 44 ||
		code === 91 ||
		code === 93 ||
		code === 123 ||
		code === 125
	);
}

function scalarValue(text: string, start: number, end: number, inFlow: boolean): unknown {
	const raw = text.slice(start, end);
	if (raw.length === 0 || raw.includes('\n') || raw.includes('\r')) {
		throw new NotSure('empty or multi-line scalar');
	}
	const first = raw.charCodeAt(0);
	if (first === 34) {
		if (raw.length < 2 || raw.charCodeAt(raw.length - 1) !== 34) throw new NotSure('quote');
		const inner = raw.slice(1, -1);
		if (!inner.includes('\\')) return inner;
		if (foreignEscape.test(inner)) throw new NotSure('escape');
		try {
			return JSON.parse(raw) as unknown;
		} catch {
			throw new NotSure('escape');
		}
	}
	if (first === 39) {
		if (raw.length < 2 || raw.charCodeAt(raw.length - 1) !== 39) throw new NotSure('quote');
		return raw.slice(1, -1).replace(/''/g, "'");
	}
	if (isOddPlain(raw, first)) throw new NotSure('indicator');
	// The line reader splits flow scalars at `:` and brackets where js-yaml may not (`[a:b]` is one scalar to it).
	if (inFlow && /[:[{]/.test(raw)) throw new NotSure('flow scalar');
	return plainValue(raw);
}

function keyOf(text: string, key: string, keyStart: number): string {
	const first = text.charCodeAt(keyStart);
	if (first === 34 || first === 39) {
		if (key === '__proto__') throw new NotSure('__proto__');
		return key;
	}
	// A tab may start a comment (`a\t#b: c`) that the line reader keeps in the key.
	if (key.length === 0 || key.length > 1000 || key === '__proto__' || key.includes('\t')) {
		throw new NotSure('key');
	}
	// A plain key that resolves to another type becomes that value's string (`0x10` is "16", `~` is "null").
	if (mayResolve(first) && String(plainValue(key)) !== key) throw new NotSure('key');
	return key;
}

function valueOfNode(text: string, node: TreeNode, depth: number, inFlow: boolean): unknown {
	if (depth > deepestNesting) throw new NotSure('deep');
	if (node.kind === 'map') {
		const flow = inFlow || node.flow;
		const result: Record<string, unknown> = {};
		for (const entry of node.entries) {
			const key = keyOf(text, entry.key, entry.keyStart);
			if (flow) flowKeyEnd(text, entry.keyStart, entry.keyEnd, key);
			result[key] = entry.value ? valueOfNode(text, entry.value, depth + 1, flow) : null;
		}
		return result;
	}
	if (node.kind === 'seq') {
		const flow = inFlow || node.flow;
		const result: unknown[] = [];
		for (const item of node.items) {
			const child = item.node;
			// A sequence starting on its parent's dash line (`- - a`): js-yaml reads the next items into it when its
			// own item is empty (`- -`), the line reader does not.
			if (child?.kind === 'seq' && !child.flow && item.dash !== undefined) {
				if (!text.slice(item.dash, child.start).includes('\n')) {
					throw new NotSure('compact sequence');
				}
			}
			result.push(child ? valueOfNode(text, child, depth + 1, flow) : null);
		}
		return result;
	}
	if (node.opaque === true) throw new NotSure('opaque');
	const first = text.charCodeAt(node.start);
	if (first === 124 || first === 62) throw new NotSure('block scalar');
	return scalarValue(text, node.start, node.end, inFlow);
}

/**
 * Checks a flow mapping's plain key: js-yaml ends it at a `:` only before white space or an indicator (`{a:b}` is the
 * key `a:b` with no value), and reads no brackets inside it.
 */
function flowKeyEnd(text: string, keyStart: number, keyEnd: number, key: string): void {
	const first = text.charCodeAt(keyStart);
	if (first === 34 || first === 39) return;
	if (/[[{]/.test(key) || isOddPlain(key, first)) throw new NotSure('flow key');
	let colon = keyEnd;
	while (text.charCodeAt(colon) === 32 || text.charCodeAt(colon) === 9) colon++;
	if (text.charCodeAt(colon) === 58 && !endsFlowKey(text.charCodeAt(colon + 1))) {
		throw new NotSure('flow key');
	}
}

/** The value of a block mapping's tree as js-yaml reads it; throws `NotSure` where it might not be. */
export function valueOfTree(text: string, root: TreeNode): Record<string, unknown> {
	if (root.kind !== 'map' || root.flow) throw new NotSure('not a block mapping');
	return valueOfNode(text, root, 0, false) as Record<string, unknown>;
}
