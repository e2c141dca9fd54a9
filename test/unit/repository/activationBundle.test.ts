// What activation parses: dist/extension.cjs is the entry's static imports only: itself, the loader that reads the
// engine's code cache (Node built-ins only) and the load that retries after a failure (no imports). The rest of the extension (the core, yaml, the tree, the editor
// features) is the engine, loaded on first use.
import * as assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import { it } from 'node:test';
import * as esbuild from 'esbuild';
import { repoRoot } from '../../support/conformance.ts';

it('activation loads only its own module: everything else comes through import() on first use', async () => {
	const result = await esbuild.build({
		entryPoints: [join(repoRoot, 'src/vscode/extension.ts')],
		bundle: true,
		write: false,
		format: 'cjs',
		platform: 'node',
		external: ['vscode'],
		metafile: true,
		logLevel: 'silent',
		plugins: [
			{
				name: 'lazy-apart',
				setup(build) {
					build.onResolve({ filter: /.*/ }, (args) =>
						args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
					);
				},
			},
		],
	});
	const parsedAtActivation = Object.keys(result.metafile.inputs).map((input) =>
		relative(repoRoot, join(process.cwd(), input)),
	);
	assert.deepEqual(parsedAtActivation.sort(), [
		'src/files/moduleCodeCache.ts',
		'src/files/retryingLoad.ts',
		'src/vscode/extension.ts',
	]);
});
