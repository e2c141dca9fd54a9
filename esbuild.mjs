// The one build: the extension and the CLI, both CommonJS bundles for Node.
// --production minifies and drops source maps; --watch rebuilds on change.
import * as esbuild from 'esbuild';
import { readFileSync, statSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const bundleBudget = 2 * 1024 * 1024;

/**
 * The extension reaches src/k8s only through `import('../../k8s/index.ts')`, and the CLI (`mcp`, `targets --context`)
 * through src/cli/mcpContexts.ts's `import('../k8s/index.ts')`: that becomes dist/k8s.cjs.
 */
function clusterClientApart() {
	return {
		name: 'cluster-client-apart',
		setup(build) {
			build.onResolve({ filter: /[\\/]k8s[\\/]index\.ts$/ }, (args) =>
				args.importer.includes(`${'src'}/vscode/`) ||
				/[\\/]src[\\/]cli[\\/]mcp[^\\/]*\.ts$/.test(args.importer)
					? { path: './k8s.cjs', external: true }
					: undefined,
			);
		},
	};
}

/**
 * A bundle that reaches another only through a dynamic `import(specifier)` in `importer`: the import becomes a
 * require of the other bundle, `output`, beside it in dist/.
 */
function loadedApart(name, specifier, importer, output) {
	return {
		name,
		setup(build) {
			build.onResolve({ filter: specifier }, (args) =>
				args.importer.endsWith(importer) && args.kind === 'dynamic-import'
					? { path: output, external: true }
					: undefined,
			);
		},
	};
}

/** Activation (dist/extension.cjs) reaches the rest of the extension only through `import('./engine.ts')`. */
const engineApart = () =>
	loadedApart('engine-apart', /[\\/]engine\.ts$/, `${'src'}/vscode/extension.ts`, './engine.cjs');

/**
 * The CLI reaches `mcp` (the MCP SDK, half a megabyte) only through `import('./mcp.ts')`: that becomes dist/mcp.cjs,
 * so status, check and merge do not parse it.
 */
const mcpApart = () =>
	loadedApart('mcp-apart', /^\.\/mcp\.ts$/, `${'src'}/cli/main.ts`, './mcp.cjs');

/** The command's entry (src/cli/bin.ts, dist/cli.cjs) loads the command (src/cli/main.ts) as dist/command.cjs. */
const commandApart = () =>
	loadedApart('command-apart', /^\.\/main\.ts$/, `${'src'}/cli/bin.ts`, './command.cjs');

/** The package's version and home, and the rule documentation, as the CLI's SARIF output gives them. */
function cliBuildFacts() {
	const read = (path) => readFileSync(new URL(path, import.meta.url), 'utf8');
	const { version, homepage, repository } = JSON.parse(read('package.json'));
	const diagnosticsDoc = read('docs/diagnostics.md');
	return { version, homepage, repository, diagnosticsDoc };
}

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
	{
		entryPoints: { cli: 'src/cli/bin.ts' },
		banner: { js: '#!/usr/bin/env node' },
		target: 'node20',
		plugins: [commandApart()],
		supported: { 'dynamic-import': false },
	},
	{
		entryPoints: { command: 'src/cli/main.ts' },
		target: 'node20',
		// `targets --plan --context` reads contexts as mcp does: the cluster client stays in dist/k8s.cjs.
		plugins: [mcpApart(), clusterClientApart()],
		// What `check --format sarif` says of the tool and its rules, as JSON text (src/cli/sarif.ts reads it).
		define: { KUBE_STATUS_LENS_BUILD: JSON.stringify(JSON.stringify(cliBuildFacts())) },
	},
	// The worker thread `status --json` reads a big input's files with, beside the command's own (statusWorkerClient.ts).
	{ entryPoints: { statusWorker: 'src/cli/statusWorker.ts' }, target: 'node20' },
	// `kube-status-lens mcp`: the MCP server, loaded by the CLI when that command runs; the cluster client stays apart.
	{
		entryPoints: { mcp: 'src/cli/mcp.ts' },
		target: 'node20',
		plugins: [clusterClientApart()],
		define: { KUBE_STATUS_LENS_BUILD: JSON.stringify(JSON.stringify(cliBuildFacts())) },
	},
	{
		entryPoints: { extension: 'src/vscode/extension.ts' },
		target: 'node22',
		plugins: [engineApart()],
		// import() of the engine becomes require(): the extension host loads extensions as CommonJS.
		supported: { 'dynamic-import': false },
	},
	// Everything activation defers: the core, yaml, the tree and the editor features, loaded on first use.
	{
		entryPoints: { engine: 'src/vscode/engine.ts' },
		target: 'node22',
		plugins: [clusterClientApart()],
		supported: { 'dynamic-import': false },
	},
	// The cluster client and @kubernetes/client-node, loaded by the extension on first use of a live context.
	{ entryPoints: { k8s: 'src/k8s/index.ts' }, target: 'node22' },
	// CEL (@bufbuild/cel), loaded by the engine and the CLI when a Kustomization's health check expressions need it
	// (src/files/celBundle.ts): Node 20 for the CLI.
	{ entryPoints: { cel: 'src/cel/celLanguage.ts' }, target: 'node20' },
	// The worker thread that parses a workspace's manifests during a full read (src/files/manifestWorkerClient.ts).
	{ entryPoints: { manifestWorker: 'src/files/manifestWorker.ts' }, target: 'node22' },
	// The rollout matrix page, a script for the webview (a browser): plain .js, which the webview serves as script.
	{
		entryPoints: { matrixPage: 'src/vscode/matrix/webview/matrixPage.ts' },
		platform: 'browser',
		format: 'iife',
		target: 'es2022',
		outExtension: { '.js': '.js' },
	},
];
// The in-host test suites are bundled like the extension, into out/ (never shipped).
const testBuilds = [
	{
		entryPoints: { 'integration/index': 'test/integration/index.ts' },
		outdir: 'out/test',
		target: 'node22',
		external: ['vscode', 'mocha'],
		minify: false,
		sourcemap: 'inline',
	},
];
const withTests = !process.argv.includes('--no-tests') && !production;

const common = {
	bundle: true,
	format: 'cjs',
	platform: 'node',
	outdir: 'dist',
	outExtension: { '.js': '.cjs' },
	external: ['vscode'],
	minify: production,
	sourcemap: production ? false : 'linked',
	sourcesContent: false,
	metafile: true,
	logLevel: 'warning',
};

for (const build of [...builds, ...(withTests ? testBuilds : [])]) {
	const options = { ...common, ...build };
	if (watch) {
		const context = await esbuild.context(options);
		await context.watch();
	} else {
		await esbuild.build(options);
		if (build.outdir) continue;
		for (const name of Object.keys(build.entryPoints)) {
			const file = `dist/${name}${options.outExtension['.js']}`;
			const size = statSync(file).size;
			console.log(`${file} ${(size / 1024).toFixed(1)} KiB`);
			// The budget is for what ships: the production bundle (dev bundles carry unminified dependencies).
			if (production && size > bundleBudget) {
				console.error(`${file} is over the 2 MiB budget`);
				process.exitCode = 1;
			}
		}
	}
}
