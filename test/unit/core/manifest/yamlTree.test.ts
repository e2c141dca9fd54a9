import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import jsyaml from 'js-yaml';
import { stringify } from 'yaml';
import { parseManifests } from '../../../../src/core/manifest/parse.ts';
import {
	blockTreeOf,
	lineStartsOf,
	locatePath,
	nodeAtOffset,
	yamlTreeOf,
	type TreeNode,
} from '../../../../src/core/manifest/yamlTree.ts';

/** Every key and scalar of a tree as "path -> start-end", to compare two builders. */
function flatten(
	node: TreeNode | undefined,
	path = '',
	out = new Map<string, string>(),
): Map<string, string> {
	if (!node) return out;
	if (node.kind === 'scalar') out.set(path, `${node.start}-${node.end}`);
	else if (node.kind === 'map') {
		for (const entry of node.entries) {
			out.set(`${path}/${entry.key}#key`, `${entry.keyStart}-${entry.keyEnd}`);
			flatten(entry.value, `${path}/${entry.key}`, out);
		}
	} else node.items.forEach((item, index) => flatten(item.node, `${path}/${index}`, out));
	return out;
}

/** Builds both trees for every object of a text; returns how many the fast reader read and their differences. */
function compare(text: string): { objects: number; fast: number; differences: string[] } {
	const parsed = parseManifests(text);
	const starts = lineStartsOf(text);
	const differences: string[] = [];
	let fast = 0;
	for (const object of parsed.objects) {
		const { start, end } = object.range;
		const listItem = object.itemIndex !== undefined;
		const quick = blockTreeOf(text, starts, start.line, end.line, listItem);
		if (!quick) continue;
		fast++;
		const careful = flatten(yamlTreeOf(text, starts, start.line, end.line, listItem));
		const mine = flatten(quick);
		for (const [path, span] of careful) {
			if (mine.get(path) !== span) differences.push(`${path}: ${mine.get(path)} vs ${span}`);
		}
		for (const path of mine.keys()) if (!careful.has(path)) differences.push(`${path}: extra`);
	}
	return { objects: parsed.objects.length, fast, differences };
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

describe('blockTreeOf (the fast line reader)', () => {
	it('agrees with the yaml package on every key and scalar of the example workspace and fixtures', () => {
		for (const file of [
			...yamlFiles(join(root, 'examples')),
			...yamlFiles(join(root, 'test/fixtures')),
		]) {
			const result = compare(readFileSync(file, 'utf8'));
			assert.deepEqual(result.differences, [], file);
		}
	});

	it('agrees on what js-yaml and yaml write, in every style they have', () => {
		const objects = Array.from({ length: 40 }, (_, index) => ({
			apiVersion: 'v1',
			kind: 'ConfigMap',
			metadata: {
				name: `c${index}`,
				annotations: {
					long: `${'word '.repeat(index)}end: x # not a comment`,
					multi: 'line one\nline two\n  indented',
					quote: `it's "quoted"`,
					empty: '',
					hash: 'a #b',
					star: '*x',
					number: '012',
					truth: 'true',
				},
			},
			data: { list: [1, 'two', { three: 3 }], nested: { deep: [[1, 2], []] } },
		}));
		// [text, whether the fast reader should read every object]; js-yaml folds long flow collections over lines,
		// which the fast reader leaves to the yaml package.
		const texts: [string, boolean][] = [
			[objects.map((object) => stringify(object)).join('---\n'), true],
			[objects.map((object) => stringify(object, { lineWidth: 30 })).join('---\n'), true],
			[objects.map((object) => jsyaml.dump(object)).join('---\n'), true],
			[objects.map((object) => jsyaml.dump(object, { lineWidth: 30 })).join('---\n'), true],
			[objects.map((object) => jsyaml.dump(object, { flowLevel: 2 })).join('---\n'), false],
			[stringify({ apiVersion: 'v1', kind: 'List', items: objects }), true],
			[stringify({ apiVersion: 'v1', kind: 'List', items: objects }, { indentSeq: false }), true],
		];
		for (const [text, allFast] of texts) {
			const result = compare(text);
			assert.deepEqual(result.differences, []);
			if (allFast) assert.equal(result.fast, result.objects, 'the fast reader reads them all');
		}
	});

	it('leaves anchors, tags, multi-line flow collections and tabs to the yaml package', () => {
		for (const text of [
			'apiVersion: v1\nkind: A\nspec: &s {a: 1}\n',
			'apiVersion: v1\nkind: A\nspec: !!map {a: 1}\n',
			'apiVersion: v1\nkind: A\nspec: {a: 1,\n  b: 2}\n',
			'apiVersion: v1\nkind: A\nspec:\n\ta: 1\n',
			'apiVersion: v1\nkind: A\n? complex\n: key\n',
		]) {
			const starts = lineStartsOf(text);
			assert.equal(blockTreeOf(text, starts, 0, starts.length - 1), undefined, text);
			assert.ok(yamlTreeOf(text, starts, 0, starts.length - 1), text);
		}
	});
});

describe('locatePath and nodeAtOffset', () => {
	const text =
		'apiVersion: v1\nkind: A\nspec:\n  list:\n  - name: x\n    value: "y"\n  - {name: z}\n';
	const starts = lineStartsOf(text);
	const tree = blockTreeOf(text, starts, 0, starts.length - 1);

	it('finds keys and values by path, through block and flow collections', () => {
		assert.ok(tree);
		const located = locatePath(tree, ['spec', 'list', 1, 'name']);
		assert.ok(located && located !== 'opaque' && located.node);
		assert.equal(text.slice(located.node.start, located.node.end), 'z');
		assert.equal(locatePath(tree, ['spec', 'missing']), undefined);
	});

	it('finds the key or value under an offset, with its path', () => {
		assert.ok(tree);
		assert.deepEqual(nodeAtOffset(tree, text.indexOf('"y"') + 1), {
			path: ['spec', 'list', 0, 'value'],
			part: 'value',
			start: text.indexOf('"y"'),
			end: text.indexOf('"y"') + 3,
		});
		assert.equal(nodeAtOffset(tree, text.indexOf('value'))?.part, 'key');
	});
});
