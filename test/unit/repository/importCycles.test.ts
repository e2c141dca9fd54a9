// No import cycles in src/: every module of src/ is read with the TypeScript compiler, its imports (type-only ones
// included, and import() of a literal) resolved to files, and the graph searched for cycles. A cycle of types costs
// nothing at run time, but it ties the modules of a folder into one knot that cannot be understood, tested or split
// apart one module at a time.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { repoRoot } from '../../support/conformance.ts';

/** More cycles than this are not listed one by one (their number grows fast in a knot): the knots are. */
const cycleLimit = 1000;

/** The module specifiers a file names: imports and re-exports (type-only too), import() and import types of a literal. */
function specifiersOf(fileName: string, text: string): string[] {
	const source = ts.createSourceFile(
		fileName,
		text,
		ts.ScriptTarget.Latest,
		false,
		ts.ScriptKind.TS,
	);
	const specifiers: string[] = [];
	const visit = (node: ts.Node): void => {
		if (
			(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
			node.moduleSpecifier !== undefined &&
			ts.isStringLiteral(node.moduleSpecifier)
		) {
			specifiers.push(node.moduleSpecifier.text);
		} else if (
			ts.isImportEqualsDeclaration(node) &&
			ts.isExternalModuleReference(node.moduleReference) &&
			ts.isStringLiteral(node.moduleReference.expression)
		) {
			specifiers.push(node.moduleReference.expression.text);
		} else if (
			ts.isCallExpression(node) &&
			node.expression.kind === ts.SyntaxKind.ImportKeyword &&
			node.arguments[0] !== undefined &&
			ts.isStringLiteralLike(node.arguments[0])
		) {
			specifiers.push(node.arguments[0].text);
		} else if (
			ts.isImportTypeNode(node) &&
			ts.isLiteralTypeNode(node.argument) &&
			ts.isStringLiteral(node.argument.literal)
		) {
			specifiers.push(node.argument.literal.text);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return specifiers;
}

function isFile(path: string): boolean {
	return existsSync(path) && statSync(path).isFile();
}

/** The file a relative specifier names: as written, a .js name for its .ts, or a folder's index.ts. */
function resolvedFile(from: string, specifier: string): string | undefined {
	const base = resolve(dirname(from), specifier);
	const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
	return candidates.find(isFile);
}

function typeScriptFilesIn(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return typeScriptFilesIn(path);
		return entry.isFile() && entry.name.endsWith('.ts') ? [path] : [];
	});
}

const repoPath = (path: string): string => relative(repoRoot, path).split(sep).join('/');

interface ImportGraph {
	/** Each file of src/ (repository-relative) and the files of src/ it imports. */
	readonly edges: ReadonlyMap<string, readonly string[]>;
	/** Relative specifiers that name no file, as `file: specifier`. */
	readonly unresolved: readonly string[];
}

function importGraphOf(folder: string): ImportGraph {
	const edges = new Map<string, string[]>();
	const unresolved: string[] = [];
	for (const path of typeScriptFilesIn(folder).sort()) {
		const targets = new Set<string>();
		for (const specifier of specifiersOf(path, readFileSync(path, 'utf8'))) {
			if (!specifier.startsWith('.')) continue;
			const target = resolvedFile(path, specifier);
			if (target === undefined) unresolved.push(`${repoPath(path)}: ${specifier}`);
			else if (target.endsWith('.ts') && !relative(folder, target).startsWith('..')) {
				targets.add(repoPath(target));
			}
		}
		edges.set(repoPath(path), [...targets].sort());
	}
	return { edges, unresolved };
}

/** The strongly connected components of more than one file, or of one file importing itself (Tarjan). */
function knotsOf(edges: ReadonlyMap<string, readonly string[]>): string[][] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const knots: string[][] = [];
	const connect = (file: string): void => {
		index.set(file, index.size);
		low.set(file, index.get(file)!);
		stack.push(file);
		onStack.add(file);
		for (const next of edges.get(file) ?? []) {
			if (!index.has(next)) {
				connect(next);
				low.set(file, Math.min(low.get(file)!, low.get(next)!));
			} else if (onStack.has(next)) {
				low.set(file, Math.min(low.get(file)!, index.get(next)!));
			}
		}
		if (low.get(file) !== index.get(file)) return;
		const knot: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			onStack.delete(member);
			knot.push(member);
		} while (member !== file);
		if (knot.length > 1 || (edges.get(file) ?? []).includes(file)) knots.push(knot.sort());
	};
	for (const file of edges.keys()) if (!index.has(file)) connect(file);
	return knots.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * Every elementary cycle, as `a.ts -> b.ts -> a.ts` from its smallest file, sorted; throws past `limit` cycles. Each
 * cycle lies inside one knot, and is found once: from its smallest file, through files no smaller.
 */
function cyclesOf(edges: ReadonlyMap<string, readonly string[]>, limit = cycleLimit): string[] {
	const cycles: string[] = [];
	for (const knot of knotsOf(edges)) {
		for (const [position, start] of knot.entries()) {
			const allowed = new Set(knot.slice(position));
			const path = [start];
			const onPath = new Set(path);
			const walk = (file: string): void => {
				for (const next of edges.get(file) ?? []) {
					if (next === start) {
						cycles.push([...path, start].join(' -> '));
						if (cycles.length > limit) {
							throw new Error(
								`More than ${limit} import cycles in src/, in these knots:\n${knotsOf(edges)
									.map((files) => files.join(', '))
									.join('\n')}`,
							);
						}
					} else if (allowed.has(next) && !onPath.has(next)) {
						path.push(next);
						onPath.add(next);
						walk(next);
						onPath.delete(next);
						path.pop();
					}
				}
			};
			walk(start);
		}
	}
	return cycles.sort();
}

describe('import cycles in src/', () => {
	it('reads type-only imports, re-exports, import() and import types of a literal', () => {
		const text = [
			"import type { A } from './a.ts';",
			"import { type B } from './b.ts';",
			"export type { C } from './c.ts';",
			"export * from './d.ts';",
			"const e = () => import('./e.ts');",
			"type F = import('./f.ts').F;",
			'const g = (name: string) => import(name);',
			"// import { H } from './h.ts';",
		].join('\n');
		assert.deepEqual(specifiersOf('probe.ts', text), [
			'./a.ts',
			'./b.ts',
			'./c.ts',
			'./d.ts',
			'./e.ts',
			'./f.ts',
		]);
	});

	it('finds each cycle once, from its smallest file', () => {
		const edges = new Map([
			['a.ts', ['b.ts']],
			['b.ts', ['a.ts', 'c.ts']],
			['c.ts', ['a.ts', 'c.ts']],
			['d.ts', ['a.ts']],
		]);
		assert.deepEqual(cyclesOf(edges), [
			'a.ts -> b.ts -> a.ts',
			'a.ts -> b.ts -> c.ts -> a.ts',
			'c.ts -> c.ts',
		]);
		assert.throws(() => cyclesOf(edges, 2), /More than 2 import cycles/);
	});

	const graph = importGraphOf(join(repoRoot, 'src'));
	const cycles = cyclesOf(graph.edges);

	it('resolves every relative import of src/ to a file', () => {
		assert.ok(graph.edges.size > 100, `only ${graph.edges.size} files read in src/`);
		assert.deepEqual(graph.unresolved, []);
	});

	it('has no import cycle', () => {
		assert.deepEqual(
			cycles,
			[],
			`Import cycles in src/ (type-only imports count: move the shared type down to a module both can import):\n${cycles.join('\n')}`,
		);
	});
});
