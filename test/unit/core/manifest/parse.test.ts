import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectAtLine, parseManifests } from '../../../../src/core/manifest/parse.ts';

describe('parseManifests', () => {
	it('reads every document of a multi-document file with its line', () => {
		const result = parseManifests(
			'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: b}\n',
		);
		assert.deepEqual(
			result.objects.map((entry) => [entry.object.kind, entry.range.start.line]),
			[
				['ConfigMap', 0],
				['Secret', 4],
			],
		);
	});

	it('expands kind: List from kubectl get -o yaml', () => {
		const result = parseManifests(
			'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: q}\n',
		);
		assert.deepEqual(
			result.objects.map((entry) => [entry.itemIndex, entry.range.start.line]),
			[
				[0, 3],
				[1, 6],
			],
		);
	});

	it('reads JSON output', () => {
		const result = parseManifests(
			'{"apiVersion":"v1","kind":"PodList","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}]}',
			{ fileName: 'x.json' },
		);
		assert.equal(result.objects.length, 1);
	});

	it('reports a syntax error with its line instead of throwing, keeping the good documents', () => {
		const result = parseManifests(
			'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n---\nkind: [broken\n',
		);
		assert.equal(result.objects.length, 1);
		assert.equal(result.problems[0]?.code, 'yaml-syntax');
		assert.ok(
			(result.problems[0]?.range.start.line ?? 0) >= 4,
			'the error points into the broken document',
		);
	});

	it('skips YAML that is not a Kubernetes object quietly', () => {
		const result = parseManifests('name: my-chart\nversion: 1.0.0\n---\n- a\n- b\n');
		assert.deepEqual(
			[result.objects.length, result.problems.length, result.skippedDocuments],
			[0, 0, 2],
		);
	});

	it('skips Helm templates quietly', () => {
		const result = parseManifests(
			'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n  labels:\n{{ include "x" . | indent 4 }}\n',
		);
		assert.equal(result.problems.length, 0);
	});

	it('keeps timestamps as strings, as Go decodes them', () => {
		const result = parseManifests(
			'apiVersion: v1\nkind: Pod\nmetadata: {name: p, creationTimestamp: 2024-01-01T00:00:00Z}\n',
		);
		assert.equal(
			typeof (result.objects[0]?.object.metadata as Record<string, unknown>).creationTimestamp,
			'string',
		);
	});

	it('survives an alias bomb', () => {
		const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]'];
		for (let i = 0; i < 8; i++) {
			bomb.push(
				`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`,
			);
		}
		const result = parseManifests(
			`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata:\n${bomb.map((line) => `  ${line}`).join('\n')}\n`,
		);
		assert.equal(result.objects.length, 0);
		assert.equal(result.problems[0]?.code, 'too-large');
	});
});

describe('the object at a cursor line', () => {
	const text = [
		'# a comment before the first document',
		'apiVersion: v1',
		'kind: ConfigMap',
		'metadata: {name: first}',
		'---',
		'apiVersion: v1',
		'kind: ConfigMap',
		'metadata: {name: second}',
		'',
	].join('\n');
	const { objects } = parseManifests(text);
	const nameAt = (line: number): unknown =>
		(objectAtLine(objects, line)?.object.metadata as { name?: string } | undefined)?.name;

	it('is the object that starts last at or before the line, the first above it, none without objects', () => {
		assert.equal(nameAt(0), 'first');
		assert.equal(nameAt(3), 'first');
		assert.equal(nameAt(5), 'second');
		assert.equal(nameAt(8), 'second');
		assert.equal(objectAtLine([], 3), undefined);
	});
});
