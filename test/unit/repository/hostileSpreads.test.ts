// An array spread into a call's arguments puts every element on the stack: past about 125,000 elements (one object's
// conditions, a cluster's objects, a table's rows) it throws RangeError. This test finds such spreads in src/ into the
// calls that take any number of arguments; only spreads of helpers whose results are bounded by construction pass.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { repoRoot } from '../../support/conformance.ts';

/** Calls that take any number of arguments, by the end of their callee's text. */
const variadicCallees = [
	/^Math\.(max|min)$/,
	/^String\.fromCharCode$/,
	/^String\.fromCodePoint$/,
	/\.(push|unshift|splice|concat)$/,
];

// Spreads of results that are short whatever the input: the rows of a tooltip's first conditions (at most `max` and a
// "more" line), a condition's two targets, a catalog sentence, the counts of one Fleet object, a pair of field names,
// and a Fleet summary's non-ready resources (capped at maxNonReadyResources).
const boundedSpreads = [
	/^conditionRows\(/,
	/^conditionTarget\(/,
	/^sentence\(/,
	/^countReasons\(/,
	/^fields$/,
	/^right\.nonReadyResources$/,
];

function sourceFiles(folder: string): string[] {
	const files: string[] = [];
	for (const entry of readdirSync(folder, { withFileTypes: true })) {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) {
			for (const file of sourceFiles(path)) files.push(file);
		} else if (entry.name.endsWith('.ts')) files.push(path);
	}
	return files;
}

function unboundedSpreads(): string[] {
	const found: string[] = [];
	for (const path of sourceFiles(join(repoRoot, 'src'))) {
		const source = ts.createSourceFile(
			path,
			readFileSync(path, 'utf8'),
			ts.ScriptTarget.Latest,
			true,
		);
		const visit = (node: ts.Node): void => {
			if (ts.isCallExpression(node)) {
				const callee = node.expression.getText(source);
				if (variadicCallees.some((pattern) => pattern.test(callee))) {
					for (const argument of node.arguments) {
						if (!ts.isSpreadElement(argument)) continue;
						const spread = argument.expression.getText(source);
						if (boundedSpreads.some((pattern) => pattern.test(spread))) continue;
						const { line } = source.getLineAndCharacterOfPosition(argument.getStart(source));
						found.push(`${relative(repoRoot, path)}:${line + 1}: ${callee}(...${spread})`);
					}
				}
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return found;
}

describe('no array of unbounded length is spread into a call', () => {
	it('src/ spreads only bounded arrays into Math.max, push and the other variadic calls', () => {
		assert.deepEqual(unboundedSpreads(), []);
	});
});
