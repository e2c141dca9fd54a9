// The layer boundaries of ARCHITECTURE.md as one lint rule: each folder of src/ lists the folders and packages it may
// import, as an allow-list, so a new dependency has to be added here on purpose (and the diagram with it).
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
		const from = folderOf(filename);
		const layer = from && layers[from];
		if (!layer) return {};
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
				if (node.source.type === 'Literal') {
					check(node, node.source.value, { typeOnly: false, lazy: true });
				}
			},
			TSImportType(node) {
				const literal = node.argument?.literal ?? node.argument;
				if (literal?.type === 'Literal') {
					check(node, literal.value, { typeOnly: true, lazy: false });
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
		forbiddenPaths: ['src/core/status', 'src/core/merge'],
		whyForbiddenPaths:
			"the demo's stand-in controllers write what the real controllers would, by their own code, so that tests compare the engine with something other than itself.",
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
