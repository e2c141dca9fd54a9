// Both YAML parsers read an integer beyond 2^53 as the nearest number, as JSON.parse does; Go reads it exactly as an
// int64. Here each parser notes the exact value beside the number (src/core/model/int64.ts), so generations compare
// as kubectl, kstatus and Argo CD compare them. Objects stay plain data: the noted value is only looked up.
import jsyaml from 'js-yaml';
import { isAlias, isMap, isScalar, isSeq, type Document, type Node } from 'yaml';
import { recordExactInteger } from '../model/int64.ts';

/** The exact value of a YAML integer literal (decimal, 0x, 0o, 0b; underscores as YAML 1.1 allows), or undefined. */
function integerOfLiteral(literal: string): bigint | undefined {
	const match = /^([-+]?)(0x[0-9a-f_]+|0o[0-7_]+|0b[01_]+|[0-9_]+)$/i.exec(literal);
	if (!match) return undefined;
	const [, sign, digits = ''] = match;
	try {
		const magnitude = BigInt(
			digits.replace(/_/g, '').replace(/^0([XOB])/, (_, base: string) => `0${base.toLowerCase()}`),
		);
		return sign === '-' ? -magnitude : magnitude;
	} catch {
		return undefined;
	}
}

function noteIfExact(holder: object, key: string, number: number, literal: string): void {
	const exact = integerOfLiteral(literal);
	// A literal read another way than ours (a YAML 1.1 octal, say) keeps its number only.
	if (exact !== undefined && Number(exact) === number) recordExactInteger(holder, key, exact);
}

// js-yaml: the integer type constructs a placeholder for an imprecise integer, and `settle` replaces it with the
// number once the document is built, noting the exact value on its map.

class ImpreciseInteger {
	readonly literal: string;
	readonly number: number;

	constructor(literal: string, number: number) {
		this.literal = literal;
		this.number = number;
	}

	// js-yaml turns a map key into a string: the same string as for the number.
	toString(): string {
		return String(this.number);
	}

	get [Symbol.toStringTag](): string {
		return 'ImpreciseInteger';
	}
}

/** A js-yaml schema for one load, and what settles the documents it loaded. */
export interface ExactIntegerLoad {
	/** js-yaml's YAML 1.2 core schema, but integers beyond 2^53 wait for `settle`. */
	readonly schema: jsyaml.Schema;
	/** A loaded document with its imprecise integers replaced by numbers, their exact values noted. */
	readonly settle: (document: unknown) => unknown;
}

// js-yaml exports its types at run time; @types/js-yaml does not declare them.
const coreInteger = (jsyaml as unknown as { readonly types: { readonly int: jsyaml.Type } }).types
	.int;

/** A schema and its settling step for one js-yaml load (js-yaml builds every document before handing out the first). */
export function exactIntegerLoad(): ExactIntegerLoad {
	let unsettled = 0;
	const integer = new jsyaml.Type('tag:yaml.org,2002:int', {
		kind: 'scalar',
		resolve: (data: string) => coreInteger.resolve(data),
		construct: (data: string): unknown => {
			const number = coreInteger.construct(data) as number;
			if (Number.isSafeInteger(number) || !Number.isInteger(number)) return number;
			unsettled++;
			return new ImpreciseInteger(data, number);
		},
	});
	const settle = (document: unknown): unknown => {
		if (unsettled === 0) return document;
		if (document instanceof ImpreciseInteger) {
			unsettled--;
			return document.number;
		}
		const seen = new Set<object>();
		const visit = (value: unknown): void => {
			if (typeof value !== 'object' || value === null || seen.has(value)) return;
			seen.add(value);
			const holder = value as Record<string, unknown>;
			for (const key of Object.keys(holder)) {
				const child = holder[key];
				if (child instanceof ImpreciseInteger) {
					unsettled--;
					holder[key] = child.number;
					noteIfExact(holder, key, child.number, child.literal);
				} else visit(child);
			}
		};
		visit(document);
		return document;
	};
	return { schema: jsyaml.CORE_SCHEMA.extend({ implicit: [integer] }), settle };
}

// The `yaml` package: its scalars keep their source text, so the exact value is read from the node beside the
// converted value. Aliases to collections share the converted object, so the anchored node's notes serve them too.

/** Notes the exact value of every imprecise integer of a `yaml` document on `value`, its `toJS()` result. */
export function noteExactIntegers(document: Document.Parsed, value: unknown): void {
	const seen = new Set<Node>();
	const visit = (node: unknown, converted: unknown): void => {
		if (typeof converted !== 'object' || converted === null) return;
		if (!isMap(node) && !isSeq(node)) return;
		if (seen.has(node)) return;
		seen.add(node);
		const holder = converted as Record<string, unknown>;
		node.items.forEach((item: unknown, index) => {
			let key: string;
			let child: unknown;
			if (isSeq(node)) {
				key = String(index);
				child = item;
			} else {
				const pair = item as { key: unknown; value: unknown };
				const keyValue: unknown = isScalar(pair.key) ? pair.key.value : undefined;
				if (keyValue === null) {
					key = '';
				} else if (typeof keyValue === 'string' || typeof keyValue === 'number') {
					key = String(keyValue);
				} else {
					return;
				}
				child = pair.value;
			}
			if (isAlias(child)) {
				const target = child.resolve(document);
				if (!isScalar(target)) return;
				child = target;
			}
			if (isScalar(child)) {
				const number = child.value;
				if (
					typeof number === 'number' &&
					Number.isInteger(number) &&
					!Number.isSafeInteger(number) &&
					typeof child.source === 'string' &&
					holder[key] === number
				) {
					noteIfExact(holder, key, number, child.source);
				}
				return;
			}
			visit(child, holder[key]);
		});
	};
	visit(document.contents, value);
}
