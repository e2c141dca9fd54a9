// The block read (values taken from the line reader's trees) against the js-yaml path it stands in for: the same
// objects, ranges, problems and skipped documents on generated texts of every style, broken ones included.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import jsyaml from 'js-yaml';
import { stringify } from 'yaml';
import {
	parseManifests,
	parseManifestsWithTrees,
	type ParseResult,
} from '../../../../src/core/manifest/parse.ts';
import { blockTreeOf, lineStartsOf } from '../../../../src/core/manifest/yamlTree.ts';

/** A small seeded generator, so that a failure names its seed. */
function random(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let value = state;
		value = Math.imul(value ^ (value >>> 15), value | 1);
		value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
		return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
	};
}

const trickyStrings = [
	'',
	' ',
	'plain words',
	'null',
	'Null',
	'~',
	'true',
	'False',
	'yes',
	'0',
	'-0',
	'012',
	'0x1F',
	'0o17',
	'0b101',
	'1_000',
	'1e3',
	'.5',
	'-.inf',
	'.NaN',
	'1.0',
	'+12',
	'9007199254740993',
	'2026-11-22T08:00:00Z',
	'a: b',
	'a:b',
	'ends with colon:',
	'a #b',
	'a#b',
	'# hash',
	'- dash',
	'-dash',
	'? q',
	'?q',
	':colon',
	'[x]',
	'{x}',
	'x, y',
	"it's",
	'"quoted"',
	'back\\slash',
	'tab\there',
	'line\nbreak',
	'two\n\nbreaks',
	'trailing\n',
	'  leading',
	'trailing  ',
	'*star',
	'&amp',
	'!bang',
	'|pipe',
	'>fold',
	'%percent',
	'@at',
	'`tick',
	'ünïcödé ✓',
	'\u00a0nbsp',
	'__proto__',
	'<<',
	'=',
	'1:2',
	'x'.repeat(120),
	`${'word '.repeat(30)}end`,
];

function pick<T>(next: () => number, list: readonly T[]): T {
	return list[Math.floor(next() * list.length)] as T;
}

function scalar(next: () => number): unknown {
	const roll = next();
	if (roll < 0.5) return pick(next, trickyStrings);
	if (roll < 0.6) return Math.floor(next() * 2000) - 1000;
	if (roll < 0.65) return next() * 100;
	if (roll < 0.7) return next() < 0.5;
	if (roll < 0.75) return null;
	if (roll < 0.78) return 2 ** 60 + 1;
	return `w${Math.floor(next() * 1000)}`;
}

function value(next: () => number, depth: number): unknown {
	const roll = next();
	if (depth > 3 || roll < 0.5) return scalar(next);
	if (roll < 0.75) {
		const result: Record<string, unknown> = {};
		const count = Math.floor(next() * 4);
		for (let index = 0; index < count; index++) {
			const key = next() < 0.8 ? `k${Math.floor(next() * 6)}` : String(pick(next, trickyStrings));
			result[key] = value(next, depth + 1);
		}
		return result;
	}
	return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
}

function manifest(next: () => number, index: number): Record<string, unknown> {
	const conditions = Array.from({ length: Math.floor(next() * 3) }, () => ({
		type: pick(next, ['Ready', 'Stalled', 'Reconciling', 'Deployed']),
		status: pick(next, ['True', 'False', 'Unknown', true, '']),
		reason: pick(next, ['Succeeded', 'not camel', '', 'Failed']),
		...(next() < 0.5 ? { lastTransitionTime: '2026-11-22T08:00:00Z' } : {}),
		...(next() < 0.3 ? { observedGeneration: Math.floor(next() * 4) } : {}),
	}));
	const kind = pick(next, [
		['helm.toolkit.fluxcd.io/v2', 'HelmRelease'],
		['source.toolkit.fluxcd.io/v1', 'HelmRepository'],
		['fleet.cattle.io/v1alpha1', 'BundleDeployment'],
		['apps/v1', 'Deployment'],
		['v1', 'ConfigMap'],
		['v1', 'List'],
		['', 'NoApiVersion'],
	]);
	return {
		apiVersion: kind[0],
		kind: kind[1],
		metadata: {
			name: `object-${index}`,
			generation: Math.floor(next() * 4),
			...(next() < 0.5 ? { annotations: { note: scalar(next), more: value(next, 1) } } : {}),
		},
		spec: value(next, 1),
		...(next() < 0.8 ? { status: { observedGeneration: 1, conditions } } : {}),
	};
}

/** One document written in one of the styles yaml and js-yaml have. */
function written(next: () => number, object: Record<string, unknown>): string {
	switch (Math.floor(next() * 7)) {
		case 0:
			return stringify(object);
		case 1:
			return stringify(object, { indentSeq: false, lineWidth: 30 });
		case 2:
			return stringify(object, {
				defaultStringType: pick(next, ['QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL'] as const),
				defaultKeyType: pick(next, ['PLAIN', 'QUOTE_DOUBLE'] as const),
			});
		case 3:
			return stringify(object, { collectionStyle: 'flow' });
		case 4:
			return jsyaml.dump(object, { lineWidth: -1 });
		case 5:
			return jsyaml.dump(object, { flowLevel: 2, quotingType: '"' });
		default:
			return jsyaml.dump(object, { forceQuotes: next() < 0.5, noCompatMode: true });
	}
}

const edits = [
	' ',
	':',
	'-',
	'#',
	'"',
	"'",
	'\t',
	'\n',
	'{',
	'[',
	']',
	'&',
	'*',
	'!',
	'|',
	'>',
	',',
	'?',
];

/** A few random edits: characters deleted or inserted, lines indented differently. */
function broken(next: () => number, text: string): string {
	let result = text;
	const count = 1 + Math.floor(next() * 3);
	for (let edit = 0; edit < count; edit++) {
		const at = Math.floor(next() * result.length);
		const roll = next();
		if (roll < 0.35) result = result.slice(0, at) + result.slice(at + 1);
		else if (roll < 0.7) result = result.slice(0, at) + pick(next, edits) + result.slice(at);
		else {
			const lineStart = result.lastIndexOf('\n', at) + 1;
			result =
				next() < 0.5
					? `${result.slice(0, lineStart)} ${result.slice(lineStart)}`
					: result.slice(0, lineStart) + result.slice(lineStart).replace(/^ /, '');
		}
	}
	return result;
}

/** A multi-document text: documents, separators and comments in the ways files have them. */
function generatedText(seed: number): string {
	const next = random(seed);
	const documents = Array.from({ length: 1 + Math.floor(next() * 5) }, (_, index) =>
		written(next, manifest(next, index)),
	);
	if (next() < 0.1) {
		const items = [manifest(next, 10), manifest(next, 11)];
		documents.push(written(next, { apiVersion: 'v1', kind: 'List', items }));
	}
	let text = '';
	if (next() < 0.2) text += '# a comment first\n';
	if (next() < 0.3) text += '---\n';
	documents.forEach((document, index) => {
		if (index > 0) {
			text += pick(next, ['---\n', '--- # next\n', '---\n\n# between\n', '...\n---\n']);
		}
		text += document;
	});
	if (next() < 0.15) text += '---\n';
	if (next() < 0.1) text += '# a comment last';
	if (next() < 0.1) text = text.replace(/\n/g, '\r\n');
	if (next() < 0.05) text = `\ufeff${text}`;
	if (next() < 0.05) text = text.replace('kind:', 'base: &anchor x\nkind:');
	if (next() < 0.3) text = broken(next, text);
	return text;
}

/** The parts of a parse result the callers read (the `yaml` nodes of the careful path compare by identity). */
function comparable(result: ParseResult): unknown {
	return {
		objects: result.objects.map(({ object, documentIndex, itemIndex, range }) => ({
			object,
			documentIndex,
			itemIndex,
			range,
		})),
		problems: result.problems,
		skippedDocuments: result.skippedDocuments,
	};
}

/** Checks one text; returns how many of its objects the block read took (the others took the js-yaml path). */
function agrees(text: string, label: string): number {
	const starts = lineStartsOf(text);
	const { parse, trees } = parseManifestsWithTrees(text, starts);
	assert.deepEqual(comparable(parse), comparable(parseManifests(text)), label);
	for (const [object, tree] of trees) {
		const { start, end } = object.range;
		assert.deepEqual(tree, blockTreeOf(text, starts, start.line, end.line), label);
	}
	return trees.size;
}

function yamlFiles(folder: string): string[] {
	const files: string[] = [];
	for (const name of readdirSync(folder)) {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) files.push(...yamlFiles(path));
		else if (/\.ya?ml$/.test(name)) files.push(path);
	}
	return files;
}

const root = join(import.meta.dirname, '../../../..');
const generatedCount = process.env.KSL_HOSTILE_LONG === '1' ? 20000 : 600;

describe('the block read of plain documents', () => {
	it('gives what the js-yaml path gives on generated texts of every style, broken ones included', () => {
		let blockRead = 0;
		for (let seed = 1; seed <= generatedCount; seed++) {
			blockRead += agrees(generatedText(seed), `seed ${seed}`);
		}
		// Enough generated objects are plain enough for the block read that the comparison means something.
		assert.ok(blockRead > generatedCount / 4, `${blockRead} objects read as blocks`);
	});

	it('gives what the js-yaml path gives on the example workspace and the fixtures', () => {
		for (const file of [
			...yamlFiles(join(root, 'examples')),
			...yamlFiles(join(root, 'test/fixtures')),
		]) {
			agrees(readFileSync(file, 'utf8'), file);
		}
	});

	it('gives what the js-yaml path gives on texts written to catch it out', () => {
		const head = 'apiVersion: v1\nkind: ConfigMap\n';
		for (const text of [
			`${head}data:\n  a: b: c\n`,
			`${head}data:\n  a: b:\n`,
			`${head}data:\n  a: - b\n`,
			`${head}data:\n  0x10: a\n  ~: b\n  True: c\n  1.0: d\n`,
			`${head}data:\n  "__proto__": {a: 1}\n`,
			`${head}data:\n  big: 9007199254740993\n  small: -9007199254740991\n`,
			`${head}data:\n  x: "a\\x41"\n  y: "\\u00e9\\/\\t"\n`,
			`${head}data:\n  x: 'a''b'\n`,
			`${head}data:\n  x: |\n    one\n`,
			`${head}data:\n  x: >-\n    one\n    two\n`,
			`${head}data:\n  x: plain\n    continued\n`,
			`${head}data:\n  x: [a, {b: c}, "d"]\n  y: {}\n  z: []\n`,
			`${head}data:\n  x:\n  - a\n  -\n  - - b\n`,
			`${head}data:\n  a: 1\n a2: 2\n`,
			`${head}data:\n    a: 1\n  b: 2\n`,
			`${head}- item\n`,
			`${head}...\nkind: Other\n`,
			`${head}---\n---\n${head}`,
			`# only a comment\n---\n${head}`,
			`---\n# only a comment\n---\n${head}`,
			`--- # marker\n${head}--- {a: 1}\n`,
			`  ${head}`,
			`${head}data:\n  a: "unclosed\n`,
			`${head}data:\n  a: b\u0007\n`,
			`${head}data:\n  a: b\u2028c\n`,
			`${head}data:\n  a: b\r\n  c: d\r\n`,
			`${head}data:\n  a: b\rc: d\n`,
			`%YAML 1.2\n---\n${head}`,
			`${head}data:\n  a: b # comment\n  c: 'd' # comment\n  e: "f"#g\n`,
			`${head}data:\n  key with spaces : v\n  "quoted" : v\n`,
			`${head}metadata: {name: a, labels: {x: y}}\nstatus: {conditions: [{type: Ready, status: "False"}]}\n`,
			`${head}status: {conditions: [{type:Ready, status: "False"}, {"type":Ready}]}\n`,
			`${head}spec: [a:b, {c:[d]}, e[f], {g: h:i}, {j :k}]\n`,
			`${head}data:\n  a\t#b: c\n  d\te: f\n`,
			`${head}data:\n  - -\n  - -: x\n  - - a\n    - b\n`,
			`${head}data: { |x: y}\n`,
		]) {
			agrees(text, JSON.stringify(text));
		}
	});
});
