// The JSON reader against the YAML reader on the same JSON texts: the same objects (exact int64 notes included), the
// same problems, the same ranges. Inputs: the repository's JSON files, its YAML examples written as JSON in several
// layouts, and generated texts with the awkward parts of JSON (escapes, brackets in strings, nested `items` keys).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import jsyaml from 'js-yaml';
import { readJsonText } from '../../../../src/core/manifest/jsonManifests.ts';
import {
	parseManifests,
	parseManifestsWithNodes,
	type ParseResult,
} from '../../../../src/core/manifest/parse.ts';
import type { Range } from '../../../../src/core/model/range.ts';
import { int64Field } from '../../../../src/core/model/int64.ts';

const root = join(import.meta.dirname, '../../../..');

function filesUnder(folder: string, extensions: readonly string[]): string[] {
	const found: string[] = [];
	for (const entry of readdirSync(folder).sort()) {
		const path = join(folder, entry);
		if (statSync(path).isDirectory()) found.push(...filesUnder(path, extensions));
		else if (extensions.some((extension) => entry.endsWith(extension))) found.push(path);
	}
	return found;
}

/** Every exact integer noted on the objects, by path. */
function exactIntegersOf(
	value: unknown,
	path = '',
	into = new Map<string, string>(),
): Map<string, string> {
	if (typeof value !== 'object' || value === null) return into;
	for (const key of Object.keys(value)) {
		const child = (value as Record<string, unknown>)[key];
		if (typeof child === 'number' && Number.isInteger(child) && !Number.isSafeInteger(child)) {
			into.set(`${path}/${key}`, String(int64Field(value, key)));
		} else exactIntegersOf(child, `${path}/${key}`, into);
	}
	return into;
}

function comparable(result: ParseResult): unknown {
	return {
		objects: result.objects.map((entry) => ({
			object: entry.object,
			exact: [...exactIntegersOf(entry.object)],
			documentIndex: entry.documentIndex,
			itemIndex: entry.itemIndex,
		})),
		problems: result.problems.map(({ code, message }) => ({ code, message })),
		skippedDocuments: result.skippedDocuments,
	};
}

/** The ranges of objects and problems, in the order of the items (a problem names its item). */
function rangesOf(result: ParseResult): Range[] {
	const ranked = [
		...result.objects.map((entry) => ({ at: entry.itemIndex ?? -1, range: entry.range })),
		...result.problems.map((entry) => ({
			at: Number(/^items\[(\d+)\]/.exec(entry.message)?.[1] ?? -1),
			range: entry.range,
		})),
	];
	return ranked.sort((a, b) => a.at - b.at).map((entry) => entry.range);
}

/**
 * Asserts both readers agree; returns whether the JSON reader took the text. The js-yaml reader gives every item of a
 * JSON List the document's line (it cannot pair its node events with JSON items); the items' own lines come from the
 * `yaml` package's nodes, and each item's range runs to the line before the next.
 */
function assertSameAsYaml(text: string, label: string): boolean {
	const viaJson = parseManifests(text, { fileName: 'dump.json' });
	const viaYaml = parseManifests(text, { fileName: 'dump.json', jsonAsYaml: true });
	assert.deepEqual(comparable(viaJson), comparable(viaYaml), label);
	const taken = readJsonText(text) !== undefined;
	if (!taken) {
		assert.deepEqual(rangesOf(viaJson), rangesOf(viaYaml), label);
		return false;
	}
	const isListOfItems =
		viaJson.objects.some((entry) => entry.itemIndex !== undefined) || viaJson.problems.length > 0;
	if (!isListOfItems) {
		assert.deepEqual(rangesOf(viaJson), rangesOf(viaYaml), label);
		return true;
	}
	const withNodes = parseManifestsWithNodes(text, { fileName: 'dump.json' });
	assert.deepEqual(comparable(withNodes), comparable(viaYaml), label);
	const lastLine = text.replace(/\r(?!\n)/g, '\n').split('\n').length - 1;
	const starts = rangesOf(withNodes).map((range) => range.start.line);
	assert.deepEqual(
		rangesOf(viaJson),
		starts.map((line, index) => ({
			start: { line, character: 0 },
			end: { line: Math.max(line, (starts[index + 1] ?? lastLine + 1) - 1), character: 0 },
		})),
		label,
	);
	return true;
}

// A small deterministic generator (no Math.random: a failure reproduces).
function generator(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

const awkwardStrings = [
	'plain',
	'with "quotes" and \\ backslash',
	'brackets [ { } ] , : in text',
	'ends with backslash \\',
	'"items"',
	'line\nbreak\r\nand\ttab',
	'unicode é ✓ 😀 \u2028 \u0085',
	'a&b',
	'',
	'\u001b[31mred',
];

function randomValue(random: () => number, depth: number): unknown {
	const pick = random();
	if (depth > 3 || pick < 0.3) return awkwardStrings[Math.floor(random() * awkwardStrings.length)];
	if (pick < 0.4) return Math.floor(random() * 1000) - 500;
	if (pick < 0.45) return random() * 10;
	if (pick < 0.5) return random() < 0.5;
	if (pick < 0.55) return null;
	if (pick < 0.75) {
		return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
	}
	const object: Record<string, unknown> = {};
	for (let index = Math.floor(random() * 4); index > 0; index--) {
		const key = random() < 0.2 ? 'items' : (awkwardStrings[Math.floor(random() * 6)] ?? 'k');
		object[key] = randomValue(random, depth + 1);
	}
	return object;
}

function randomObject(random: () => number, index: number): unknown {
	if (random() < 0.1) return random() < 0.5 ? `not an object ${index}` : { kind: 'NoApiVersion' };
	return {
		apiVersion: random() < 0.5 ? 'fleet.cattle.io/v1alpha1' : 'apps/v1',
		kind: random() < 0.5 ? 'BundleDeployment' : 'Deployment',
		metadata: {
			name: `object-${index}`,
			namespace: 'default',
			generation: Math.floor(random() * 5),
		},
		spec: randomValue(random, 1),
		status: {
			observedGeneration: Math.floor(random() * 5),
			conditions: [{ type: 'Ready', status: random() < 0.5 ? 'True' : 'False' }],
			extra: randomValue(random, 2),
		},
	};
}

/** A JSON text in one of kubectl's and other tools' layouts. */
function layout(value: unknown, random: () => number): string {
	const choice = Math.floor(random() * 6);
	let text = JSON.stringify(value, null, [0, 2, 4, '\t', 4, 2][choice]);
	if (choice === 4) text = text.replace(/\n/g, '\r\n');
	if (choice === 5) text = `\n\n  ${text}\n\n`;
	return random() < 0.5 ? `${text}\n` : text;
}

describe('the JSON reader', () => {
	it('reads the repository JSON files and YAML examples written as JSON as the YAML reader does', () => {
		let taken = 0;
		for (const file of filesUnder(join(root, 'test/fixtures/merge'), ['.json'])) {
			if (assertSameAsYaml(readFileSync(file, 'utf8'), file)) taken++;
		}
		const random = generator(7);
		for (const file of filesUnder(join(root, 'examples'), ['.yaml', '.yml'])) {
			let documents: unknown[];
			try {
				documents = jsyaml.loadAll(readFileSync(file, 'utf8')).filter((document) => document);
			} catch {
				continue;
			}
			const list = { apiVersion: 'v1', kind: 'List', metadata: {}, items: documents };
			for (const value of [list, ...documents.slice(0, 3)]) {
				if (assertSameAsYaml(layout(value, random), file)) taken++;
			}
		}
		assert.ok(taken > 20, `the JSON reader took only ${taken} texts`);
	});

	it('agrees with the YAML reader on generated Lists, objects and odd texts', () => {
		const random = generator(42);
		let taken = 0;
		for (let round = 0; round < 300; round++) {
			const items = Array.from({ length: Math.floor(random() * 6) }, (_, index) =>
				randomObject(random, index),
			);
			const kind = random() < 0.8 ? 'List' : 'DeploymentList';
			const list: Record<string, unknown> = { apiVersion: 'v1', kind, metadata: {}, items };
			if (random() < 0.2) list.items = items.map((item) => ({ items: [item] }));
			const value = random() < 0.8 ? list : randomObject(random, round);
			if (assertSameAsYaml(layout(value, random), `round ${round}`)) taken++;
		}
		assert.ok(taken > 250, `the JSON reader took only ${taken} texts`);
		const odd = [
			'null',
			'[]',
			'[{"apiVersion":"v1","kind":"Pod"}]',
			'{}',
			'{"kind":"List","apiVersion":"v1","items":[]}',
			'{"kind":"List","apiVersion":"v1","items":[ ] }',
			'{"kind":"List","apiVersion":"v1","items":5}',
			'{"kind":"List","apiVersion":"v1","it\\u0065ms":[\n{"apiVersion":"v1","kind":"Pod"}]}',
			'{"apiVersion":"v1","kind":"List","metadata":{"items":[1,2]},"items":[\n\n{"apiVersion":"v1","kind":"Pod","items":[[],{}]}\n,\n"x"]}',
			'{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a &b"}}',
			'{"apiVersion":"v1","kind":"Pod","metadata":{"name":"{{ .Values.name }}"}}',
			'{"apiVersion":"v1","kind":"Pod"}\n{"apiVersion":"v1","kind":"Pod"}',
			'{"apiVersion":"v1","kind":"Pod",}',
			'{"apiVersion":"v1","kind":"Pod","spec":{"a":"\\\\","b":"\\"]}"}}',
			'{"apiVersion":"v1","kind":"Pod","x":1e5,"y":1E+2,"z":1.0,"w":-1.5e-3}',
			'\r{"apiVersion":"v1",\r"kind":"List","items":[\r{"apiVersion":"v1","kind":"Pod"}]}',
		];
		for (const text of odd) assertSameAsYaml(text, text);
		// A repeated key: JSON.parse keeps the last, and so do the lines (the `yaml` package's nodes find the first).
		const repeated = parseManifests(
			'{"kind":"List","apiVersion":"v1","items":[1],"items":[{"apiVersion":"v1","kind":"Pod"},\n{"apiVersion":"v1","kind":"Pod"}]}',
		);
		assert.deepEqual(
			repeated.objects.map((entry) => [entry.itemIndex, entry.range.start.line]),
			[
				[0, 0],
				[1, 1],
			],
		);
	});

	it('notes integers beyond 2^53 exactly, as the YAML reader does', () => {
		const text = JSON.stringify(
			{
				apiVersion: 'v1',
				kind: 'List',
				items: [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { generation: 0 } }],
			},
			null,
			4,
		).replace('"generation": 0', '"generation": 9007199254740993');
		assertSameAsYaml(text, 'big generation');
		const [entry] = parseManifests(text).objects;
		assert.equal(int64Field(entry?.object.metadata, 'generation'), 9007199254740993n);
	});
});
