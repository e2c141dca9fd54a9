import { isRecord } from '../core/model/object.ts';
// The JSONPath of a CRD's printer columns, as kube-apiserver evaluates it for a Table (k8s.io/client-go
// util/jsonpath): fields (`.a.b`, with `\.` for a dot inside a name), `['key']`, `[n]`, `[*]` and filters
// `[?(@.path=="value")]` with `==` or `!=`. What it cannot read yields no results, as a missing key does.

type Step =
	| { readonly kind: 'field'; readonly name: string }
	| { readonly kind: 'index'; readonly index: number }
	| { readonly kind: 'all' }
	| {
			readonly kind: 'filter';
			readonly path: readonly Step[];
			readonly equal: boolean;
			readonly value: string | number | boolean;
	  };

/** A parsed path, or undefined when it uses syntax this reader does not know. */
export type JsonPath = readonly Step[];

function unescapeName(text: string): string {
	return text.replace(/\\(.)/g, '$1');
}

/** The end of a field name starting at `from`: the next unescaped `.` or `[`. */
function fieldEnd(text: string, from: number): number {
	let at = from;
	while (at < text.length) {
		const char = text[at];
		if (char === '\\') at += 2;
		else if (char === '.' || char === '[') break;
		else at++;
	}
	return Math.min(at, text.length);
}

function literalOf(text: string): string | number | boolean | undefined {
	const quoted = /^(['"])(.*)\1$/.exec(text);
	if (quoted) return quoted[2];
	if (text === 'true' || text === 'false') return text === 'true';
	const number = Number(text);
	return text !== '' && Number.isFinite(number) ? number : undefined;
}

function parseBracket(inner: string): Step | undefined {
	if (inner === '*') return { kind: 'all' };
	if (/^-?\d+$/.test(inner)) return { kind: 'index', index: Number(inner) };
	const key = /^(['"])(.*)\1$/.exec(inner);
	if (key) return { kind: 'field', name: unescapeName(key[2] ?? '') };
	const filter = /^\?\(@((?:\.[^=!]*)?)\s*(==|!=)\s*(.+)\)$/.exec(inner);
	if (!filter) return undefined;
	const path = parseJsonPath(filter[1]?.trim() ?? '');
	const value = literalOf(filter[3]?.trim() ?? '');
	if (path === undefined || value === undefined) return undefined;
	return { kind: 'filter', path, equal: filter[2] === '==', value };
}

/** Parses a column's path (`.status.conditions[?(@.type=="Ready")].message`); `{...}` around it is allowed. */
export function parseJsonPath(source: string): JsonPath | undefined {
	const text = source.startsWith('{') && source.endsWith('}') ? source.slice(1, -1) : source;
	const steps: Step[] = [];
	let at = 0;
	while (at < text.length) {
		const char = text[at];
		if (char === '.') {
			const end = fieldEnd(text, at + 1);
			if (end === at + 1) return undefined;
			steps.push({ kind: 'field', name: unescapeName(text.slice(at + 1, end)) });
			at = end;
		} else if (char === '[') {
			const close = closingBracket(text, at);
			if (close < 0) return undefined;
			const step = parseBracket(text.slice(at + 1, close).trim());
			if (step === undefined) return undefined;
			steps.push(step);
			at = close + 1;
		} else {
			return undefined;
		}
	}
	return steps;
}

/** The `]` that closes the `[` at `open`, skipping quoted text; -1 when there is none. */
function closingBracket(text: string, open: number): number {
	let quote: string | undefined;
	for (let at = open + 1; at < text.length; at++) {
		const char = text[at];
		if (quote !== undefined) {
			if (char === '\\') at++;
			else if (char === quote) quote = undefined;
		} else if (char === "'" || char === '"') quote = char;
		else if (char === ']') return at;
	}
	return -1;
}

function step(values: readonly unknown[], next: Step): unknown[] {
	const out: unknown[] = [];
	for (const value of values) {
		switch (next.kind) {
			case 'field':
				if (isRecord(value) && Object.hasOwn(value, next.name)) out.push(value[next.name]);
				break;
			case 'index':
				if (Array.isArray(value)) {
					const index = next.index < 0 ? value.length + next.index : next.index;
					if (index >= 0 && index < value.length) out.push(value[index]);
				}
				break;
			case 'all':
				if (Array.isArray(value) || isRecord(value)) {
					for (const item of Object.values(value)) out.push(item);
				}
				break;
			case 'filter':
				if (!Array.isArray(value)) break;
				for (const item of value) {
					const found = evaluateJsonPath(next.path, item);
					const matches = found.some((candidate) => candidate === next.value);
					if (matches === next.equal && (found.length > 0 || !next.equal)) out.push(item);
				}
				break;
		}
	}
	return out;
}

/** Every value the path reaches in `root`, in document order. */
export function evaluateJsonPath(path: JsonPath, root: unknown): unknown[] {
	let values: unknown[] = [root];
	for (const next of path) {
		values = step(values, next);
		if (values.length === 0) break;
	}
	return values;
}
