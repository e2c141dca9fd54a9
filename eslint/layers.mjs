// The layer boundaries of ARCHITECTURE.md as one lint rule: each folder of src/ lists the folders and packages it may
// import, as an allow-list, so a new dependency has to be added here on purpose (and the diagram with it). Every file
// of src/ belongs to a folder of the table; an import() names its module as a string, so the rule can check it; a
// require by path (createRequire, the global require) is allowed only where an entry lists the file; and a folder's
// entry may bar the clock and randomness (`noClockOrRandomness`).
import { dirname, relative, resolve, sep } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');

function folderOf(path) {
	const inside = relative(root, path).split(sep);
	return inside[0] === 'src' && inside.length > 2 ? `src/${inside[1]}` : undefined;
}

function packageOf(specifier) {
	if (specifier.startsWith('node:')) return 'node:';
	const parts = specifier.split('/');
	return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The string an expression spells when it is a constant (a string literal, or a template without expressions). */
function constantString(node) {
	if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
	if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) {
		return node.quasis[0].value.cooked;
	}
	return undefined;
}

/** The name of a member expression's property when it is written out (`a.b`, `a['b']`), else undefined. */
function propertyName(member) {
	if (!member.computed && member.property.type === 'Identifier') return member.property.name;
	return constantString(member.property);
}

const whyRequire =
	"createRequire and require load a module by a path the layer rule cannot follow, so only the files a layer's `createRequire` entry lists may use them";

/** The globals that read the clock or draw random numbers, for layers with `noClockOrRandomness`. */
const clockGlobals = new Set(['Date', 'Math', 'process', 'performance', 'crypto', 'globalThis']);

/** Why a reference to one of clockGlobals is refused, or undefined when it is allowed (Date.parse, new Date(ms)). */
function clockUse(reference) {
	const node = reference.identifier;
	const parent = node.parent;
	const member =
		parent?.type === 'MemberExpression' && parent.object === node
			? propertyName(parent)
			: undefined;
	switch (node.name) {
		case 'Date':
			if (member !== undefined) return member === 'now' ? 'Date.now() reads the clock' : undefined;
			if (parent?.type === 'NewExpression' && parent.callee === node) {
				return parent.arguments.length > 0
					? undefined
					: 'new Date() with no argument reads the clock';
			}
			if (
				parent?.type === 'BinaryExpression' &&
				parent.operator === 'instanceof' &&
				parent.right === node
			) {
				return undefined;
			}
			return parent?.type === 'CallExpression' && parent.callee === node
				? 'Date() reads the clock'
				: 'Date is used only as Date.parse, Date.UTC and the like, new Date(value) and instanceof Date';
		case 'Math':
			if (member !== undefined) {
				return member === 'random' ? 'Math.random() draws random numbers' : undefined;
			}
			return 'Math is used only through its named functions (not Math.random)';
		case 'process':
			return "process reads the running program's clock, environment and arguments";
		case 'performance':
			return 'performance reads the clock';
		case 'crypto':
			return 'crypto draws random numbers';
		default:
			return 'globalThis reaches the clock and randomness by other names';
	}
}

/** Whether a reference is to the global of its name: unresolved, or resolved to an implicit (library) variable. */
function isGlobal(reference) {
	return reference.resolved === null || reference.resolved.defs.length === 0;
}

/** @type {import('eslint').Rule.RuleModule} */
const allowedImports = {
	meta: {
		type: 'problem',
		docs: { description: 'Imports follow the layer diagram of ARCHITECTURE.md' },
		schema: [{ type: 'object', additionalProperties: true }],
	},
	create(context) {
		const layers = context.options[0] ?? {};
		const filename = context.filename;
		const path = relative(root, filename).split(sep);
		if (path[0] !== 'src' || path.length < 2) return {};
		const from = folderOf(filename);
		const layer = from && layers[from];
		if (!layer) {
			return {
				Program(node) {
					context.report({
						node,
						message: from
							? `${from} has no entry in the layers table of eslint/layers.mjs: add one, saying what it may import (and the folder to ARCHITECTURE.md's diagram).`
							: `${path.join('/')} is at the root of src/, in no layer: move it into a folder of the layers table of eslint/layers.mjs.`,
					});
				},
			};
		}
		const file = path.join('/');
		const check = (node, specifier, { typeOnly, lazy }) => {
			if (typeof specifier !== 'string') return;
			if (specifier.startsWith('.')) {
				const target = resolve(dirname(filename), specifier);
				const to = folderOf(target);
				const barred = layer.forbiddenPaths?.find((path) => {
					const inside = relative(resolve(root, path), target);
					return inside === '' || (!inside.startsWith('..') && !inside.startsWith(sep));
				});
				if (barred) {
					context.report({
						node,
						message: `${from} may not import ${relative(root, target)} (in ${barred}): ${layer.whyForbiddenPaths}`,
					});
					return;
				}
				if (to === from || layer.folders?.includes(to)) return;
				if (typeOnly && layer.typesFrom?.includes(to)) return;
				const lazyEntry = layer.lazyEntries?.find((entry) => resolve(root, entry) === target);
				const lazyImporter =
					layer.lazyImporters === undefined ||
					layer.lazyImporters.some((pattern) => pattern.test(relative(root, filename)));
				if (lazy && lazyEntry && lazyImporter) return;
				context.report({
					node,
					message: `${from} may not import ${to ?? relative(root, target)}${
						layer.typesFrom?.includes(to)
							? ` except as \`import type\`${layer.lazyEntries ? ` (or lazily through ${layer.lazyEntries.join(', ')})` : ''}`
							: ''
					}: ${layer.why}`,
				});
				return;
			}
			const name = packageOf(specifier);
			if (
				layer.packages === 'any' ? !layer.forbidden?.includes(name) : layer.packages.includes(name)
			) {
				return;
			}
			context.report({ node, message: `${from} may not import '${specifier}': ${layer.why}` });
		};
		const requireAllowed = layer.createRequire?.files.includes(file) ?? false;
		let requireReported = false;
		const reportRequire = (node, what) => {
			if (requireAllowed || requireReported) return;
			requireReported = true;
			context.report({ node, message: `${file} may not use ${what}: ${whyRequire}.` });
		};
		return {
			ImportDeclaration(node) {
				check(node, node.source.value, {
					typeOnly:
						node.importKind === 'type' ||
						(node.specifiers.length > 0 &&
							node.specifiers.every((specifier) => specifier.importKind === 'type')),
					lazy: false,
				});
			},
			ExportNamedDeclaration(node) {
				if (node.source) {
					check(node, node.source.value, { typeOnly: node.exportKind === 'type', lazy: false });
				}
			},
			ExportAllDeclaration(node) {
				check(node, node.source.value, { typeOnly: node.exportKind === 'type', lazy: false });
			},
			ImportExpression(node) {
				const specifier = constantString(node.source);
				if (specifier === undefined) {
					context.report({
						node,
						message: `${from}: import() takes its module as a string literal, so that the layer rule (and the bundler) can see what it loads.`,
					});
					return;
				}
				check(node, specifier, { typeOnly: false, lazy: true });
			},
			TSImportType(node) {
				const literal = node.argument?.literal ?? node.argument;
				if (literal?.type === 'Literal') {
					check(node, literal.value, { typeOnly: true, lazy: false });
				}
			},
			// createRequire under any spelling: its import, a call, a property (Module.createRequire), a
			// destructured name or a string (module['createRequire']); reported once per file.
			Identifier(node) {
				if (node.name === 'createRequire') reportRequire(node, 'createRequire');
			},
			Literal(node) {
				if (node.value === 'createRequire') reportRequire(node, 'createRequire');
			},
			'Program:exit'() {
				for (const scope of context.sourceCode.scopeManager.scopes) {
					for (const reference of scope.references) {
						if (!isGlobal(reference)) continue;
						const name = reference.identifier.name;
						if (name === 'require' && reference.isValueReference !== false) {
							reportRequire(reference.identifier, 'the global require');
						}
						if (!layer.noClockOrRandomness || !clockGlobals.has(name)) continue;
						if (reference.isValueReference === false) continue;
						const why = clockUse(reference);
						if (why) {
							context.report({
								node: reference.identifier,
								message: `${from} may not use ${name} this way (${why}): ${layer.noClockOrRandomness.why}`,
							});
						}
					}
				}
			},
		};
	},
};

export const layersPlugin = { rules: { 'allowed-imports': allowedImports } };

/** Who may import what: one entry per folder of src/. */
export const layers = {
	'src/core': {
		folders: [],
		packages: ['yaml', 'js-yaml'],
		why: 'src/core is pure (no vscode, no Node built-ins or I/O, no client-node): it imports itself, yaml and js-yaml only.',
		noClockOrRandomness: {
			why: 'src/core has no clock and no randomness: time is a parameter (StatusOptions.now), so the same objects give the same results.',
		},
	},
	'src/cel': {
		folders: [],
		typesFrom: ['src/core'],
		packages: ['@bufbuild/cel'],
		why: 'src/cel is CEL for the core (the language of Flux health checks), bundled apart as dist/cel.cjs: @bufbuild/cel, and the core only as types.',
	},
	'src/files': {
		folders: ['src/core'],
		packages: ['node:', 'tar-stream'],
		createRequire: {
			files: ['src/files/moduleCodeCache.ts', 'src/files/celBundle.ts'],
			why: 'both load a bundle of ours whose path is known only at run time: moduleCodeCache.ts the engine (dist/engine.cjs) with its V8 code cache, celBundle.ts dist/cel.cjs beside the running bundle.',
		},
		why: 'src/files reads local files for the CLI, the dump reader and the extension: Node built-ins, the core and tar-stream (fleet dump archives) only.',
	},
	'src/cli': {
		folders: ['src/core', 'src/files', 'src/live'],
		typesFrom: ['src/k8s'],
		// Only `mcp` loads the cluster bundle (dist/k8s.cjs), and only when a call asks for a context.
		lazyEntries: ['src/k8s/index.ts'],
		lazyImporters: [/^src\/cli\/mcp[^/]*\.ts$/],
		packages: ['node:', 'yaml', '@modelcontextprotocol/sdk'],
		why: "the CLI's status, check and merge run the core on Node 20 and never load client-node: no vscode, no client-node, no src/vscode; src/k8s only as types, or lazily from src/cli/mcp*.ts (the bundle dist/k8s.cjs, loaded when an assistant asks for a context).",
	},
	'src/k8s': {
		folders: ['src/core', 'src/files'],
		packages: 'any',
		forbidden: ['vscode'],
		why: 'src/k8s reads clusters for any front end: no vscode, no src/vscode.',
	},
	'src/apiserver': {
		folders: ['src/core'],
		// src/core/tree is built on src/core/status: importing it would reach the rules indirectly.
		forbiddenPaths: ['src/core/status', 'src/core/merge', 'src/core/tree'],
		whyForbiddenPaths:
			"the demo's stand-in controllers write what the real controllers would, by their own code, so that tests compare the engine with something other than itself (src/core/tree is barred with the rules because it is built on them).",
		packages: 'any',
		forbidden: ['vscode', '@kubernetes/client-node'],
		why: 'the local API server speaks the wire protocol itself: no vscode, no client-node, no src/k8s.',
	},
	'src/live': {
		folders: ['src/core'],
		typesFrom: ['src/k8s'],
		packages: [],
		why: 'src/live feeds live contexts into the graph for any front end: no vscode, no packages, and src/k8s only as types (the front end injects the client it loads lazily, dist/k8s.cjs).',
	},
	'src/vscode': {
		folders: ['src/core', 'src/live', 'src/files'],
		typesFrom: ['src/k8s'],
		lazyEntries: ['src/k8s/index.ts'],
		packages: 'any',
		forbidden: ['@kubernetes/client-node'],
		why: 'src/vscode reaches src/k8s only by type imports and the lazily loaded bundle (dist/k8s.cjs), so activation never parses client-node.',
	},
};
