// The JSON reader reads a List laid out as pretty-printers write it a piece at a time, guessing where its items start
// from the layout. Here it is held to plain JSON.parse and a plain tokenizer written for this test on many generated
// texts: the layouts it guesses from, layouts that defeat the guess (white space that repeats the separator inside
// an item, items on one line, CRLF, tabs), strings holding brackets, quotes, escapes and separators, nested Lists,
// repeated `items` keys, and texts that are not JSON at all.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readJsonText } from '../../../../src/core/manifest/jsonManifests.ts';
import { parseManifests } from '../../../../src/core/manifest/parse.ts';
import { int64Field } from '../../../../src/core/model/int64.ts';

/** The lines of the first token and of each element of the last top-level `items` array, by a plain tokenizer. */
function expectedLines(text: string): {
	documentLine: number;
	itemLines: number[] | undefined;
	lineFeeds: number;
} {
	const tokens: { char: string; line: number; key?: string }[] = [];
	let line = 0;
	for (let index = 0; index < text.length; index++) {
		const char = text.charAt(index);
		if (char === '\n') line++;
		if (/\s/.test(char)) continue;
		if (char === '"') {
			let end = index + 1;
			while (text.charAt(end) !== '"') end += text.charAt(end) === '\\' ? 2 : 1;
			tokens.push({ char, line, key: JSON.parse(text.slice(index, end + 1)) as string });
			index = end;
			continue;
		}
		if (/[-0-9tfn]/.test(char)) {
			let end = index;
			while (/[-+.eE0-9a-z]/.test(text.charAt(end + 1))) end++;
			tokens.push({ char: 'scalar', line });
			index = end;
			continue;
		}
		tokens.push({ char, line });
	}
	let depth = 0;
	let itemLines: number[] | undefined;
	let inItems = false;
	for (let at = 0; at < tokens.length; at++) {
		const token = tokens[at];
		if (!token) continue;
		const previous = tokens[at - 1];
		if (inItems && depth === 2 && (previous?.char === '[' || previous?.char === ',')) {
			if (token.char !== ']') itemLines?.push(token.line);
		}
		if (token.char === '{' || token.char === '[') {
			const isItems =
				token.char === '[' &&
				depth === 1 &&
				tokens[at - 1]?.char === ':' &&
				tokens[at - 2]?.key === 'items' &&
				(tokens[at - 3]?.char === '{' || tokens[at - 3]?.char === ',');
			if (isItems) {
				itemLines = [];
				inItems = true;
			}
			depth++;
		} else if (token.char === '}' || token.char === ']') {
			depth--;
			if (depth === 1) inItems = false;
		}
	}
	return { documentLine: tokens[0]?.line ?? 0, itemLines, lineFeeds: line };
}

function generator(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

const awkwardStrings = [
	'plain',
	'{ "a": [1, 2] }',
	'],\n        {',
	',\n    ',
	'quote " and backslash \\ and \\"',
	'ends with backslash \\',
	'"items": [',
	'tab\tcr\r',
	'é ✓ 😀 \u2028',
	'',
];

function pick<T>(random: () => number, values: readonly T[]): T {
	return values[Math.floor(random() * values.length)] as T;
}

function randomValue(random: () => number, depth: number): unknown {
	const choice = random();
	if (depth > 3 || choice < 0.3) return pick(random, awkwardStrings);
	if (choice < 0.4) return Math.floor(random() * 2000) - 1000;
	if (choice < 0.45) return random() < 0.5 ? 1.5e-7 : -0.25;
	if (choice < 0.5) return random() < 0.5;
	if (choice < 0.55) return null;
	if (choice < 0.7) {
		return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
	}
	if (choice < 0.75) {
		return {
			kind: 'List',
			items: [randomValue(random, depth + 1), randomValue(random, depth + 1)],
		};
	}
	const object: Record<string, unknown> = {};
	for (let count = Math.floor(random() * 4); count > 0; count--) {
		object[random() < 0.2 ? 'items' : pick(random, awkwardStrings)] = randomValue(
			random,
			depth + 1,
		);
	}
	return object;
}

function randomItem(random: () => number, index: number): unknown {
	if (random() < 0.1) return random() < 0.5 ? `not an object ${index}` : [index];
	return {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'BundleDeployment',
		metadata: { name: `bd-${index}`, generation: Math.floor(random() * 5) },
		spec: randomValue(random, 1),
		status: { conditions: [{ type: 'Ready', status: 'True' }], extra: randomValue(random, 2) },
	};
}

/**
 * The value written with white space between tokens: pretty-printed with `indent`, and where `odd` says, white space
 * chosen to defeat the layout (the item separator inside an item, several lines, nothing at all).
 */
function write(
	value: unknown,
	indent: string,
	newline: string,
	random: () => number,
	odd: number,
	depth = 0,
): string {
	const gap = (level: number): string => {
		if (random() >= odd) return `${newline}${indent.repeat(level)}`;
		return pick(random, [
			'',
			' ',
			`${newline}${indent.repeat(2)}`,
			`${newline}${indent.repeat(level + 1)}`,
			`\t${newline}${newline} ${indent.repeat(level)}`,
		]);
	};
	if (Array.isArray(value) || (typeof value === 'object' && value !== null)) {
		const entries = Array.isArray(value)
			? value.map((child) => write(child, indent, newline, random, odd, depth + 1))
			: Object.entries(value).map(
					([key, child]) =>
						`${JSON.stringify(key)}:${random() < odd ? gap(depth + 1) : ' '}${write(child, indent, newline, random, odd, depth + 1)}`,
				);
		const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
		if (entries.length === 0) return `${open}${close}`;
		return `${open}${gap(depth + 1)}${entries.join(`,${gap(depth + 1)}`)}${gap(depth)}${close}`;
	}
	return JSON.stringify(value);
}

function randomText(random: () => number, round: number): string {
	const items = Array.from({ length: Math.floor(random() * 7) }, (_, index) =>
		randomItem(random, index),
	);
	const list: Record<string, unknown> = { apiVersion: 'v1', items, kind: 'List', metadata: {} };
	if (random() < 0.15) list.metadata = { resourceVersion: '', continue: 'x', items: [{}, {}] };
	if (random() < 0.1) list.items = items.map((item) => ({ items: [item] }));
	const value =
		random() < 0.1
			? { apiVersion: 'v1', kind: 'List', items: 'first', ...list, extra: [1, 2] }
			: list;
	const indent = pick(random, ['    ', '    ', '  ', '\t']);
	const newline = random() < 0.2 ? '\r\n' : '\n';
	const odd = random() < 0.5 ? 0 : pick(random, [0.02, 0.1, 0.5]);
	let text = write(value, indent, newline, random, odd);
	if (random() < 0.05) text = text.replace('"items": [', '"items": [1], "items": [');
	if (random() < 0.05) text = text.replace(/"kind": "List"/, '"items": 7, "kind": "List"');
	const breakage = random();
	if (breakage < 0.04) text = text.replace(/\}(\s*\]\s*,\s*"kind")/, '},$1');
	else if (breakage < 0.08) text = text.replace(/,(\s*\{\s*"apiVersion")/, '$1');
	else if (breakage < 0.1) text = text.slice(0, Math.floor(text.length * random()));
	else if (breakage < 0.12) text = text.replace('[', '[,');
	return `${round % 3 === 0 ? '\n  ' : ''}${text}${round % 2 === 0 ? newline : ''}`;
}

function assertReadsAsJsonParse(text: string, label: string): boolean {
	const read = readJsonText(text);
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		assert.equal(read, undefined, `${label}: not JSON, yet read`);
		return false;
	}
	assert.ok(read, `${label}: JSON, yet not read`);
	assert.deepEqual(read.value, parsed, label);
	assert.deepEqual(
		{ documentLine: read.documentLine, itemLines: read.itemLines, lineFeeds: read.lineFeeds },
		expectedLines(text),
		label,
	);
	return true;
}

describe('the JSON reader of pretty-printed Lists', () => {
	it('gives JSON.parse values and the lines of each item on generated texts of every layout', () => {
		const random = generator(14);
		let read = 0;
		let notJson = 0;
		for (let round = 0; round < 3000; round++) {
			const text = randomText(random, round);
			if (assertReadsAsJsonParse(text, `round ${round}: ${JSON.stringify(text)}`)) read++;
			else notJson++;
		}
		assert.ok(read > 2000 && notJson > 100, `${read} read, ${notJson} not JSON`);
	});

	it('reads kubectl layouts whose strings hold what the separator looks like', () => {
		const item = (name: string): unknown => ({
			apiVersion: 'v1',
			kind: 'ConfigMap',
			metadata: { name },
			data: { a: '},\n        {', b: '\\",\n        {"x": 1}', c: ']' },
		});
		const list = { apiVersion: 'v1', items: [item('a'), item('b'), item('c')], kind: 'List' };
		for (const text of [
			`${JSON.stringify(list, null, 4)}\n`,
			JSON.stringify(list, null, 4).replace(/\n/g, '\r\n'),
			JSON.stringify(list, null, 4).replace('"b"\n', '"b",\n        "extra": 1\n'),
			JSON.stringify(list, null, 4).replace('"name": "b"', '"name": "b",\n        "x": {}'),
			JSON.stringify(list, null, 4).replace('},\n        {', '}, {'),
			JSON.stringify(list, null, 4).replace('},\n        {', '},\n\n        {'),
		]) {
			assert.ok(assertReadsAsJsonParse(text, text));
		}
	});

	it('leaves a YAML flow text whose keys hold escapes JSON lacks to the YAML reader, without throwing', () => {
		for (const text of [
			'{"a\\x41": 1}',
			'{"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "x"}, "n\\e": 1}\n',
			'{"items\\_": [\n  {"a": 1},\n  {"b": 2}\n]}',
		]) {
			assert.equal(readJsonText(text), undefined, text);
			const parsed = parseManifests(text);
			assert.equal(parsed.objects.length + parsed.skippedDocuments, 1, text);
			assert.deepEqual(parsed.problems, [], text);
		}
	});

	it('notes integers beyond 2^53 exactly in every item', () => {
		const text = JSON.stringify(
			{
				apiVersion: 'v1',
				items: [0, 1, 2].map((index) => ({
					apiVersion: 'apps/v1',
					kind: 'Deployment',
					metadata: { name: `d${index}`, generation: index },
				})),
				kind: 'List',
			},
			null,
			4,
		).replace(/"generation": (\d)/g, '"generation": 900719925474099$1');
		const read = readJsonText(text);
		const items = (read?.value as { items: { metadata: object }[] }).items;
		assert.deepEqual(
			items.map((entry) => int64Field(entry.metadata, 'generation')),
			[9007199254740990n, 9007199254740991n, 9007199254740992n],
		);
	});
});
