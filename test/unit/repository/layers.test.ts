// The layer rule of eslint/layers.mjs: what each folder of src/ may import (ARCHITECTURE.md's diagram).
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { repoRoot } from '../../support/conformance.ts';
// @ts-expect-error: a plain ESM module without type declarations.
import { layers, layersPlugin } from '../../../eslint/layers.mjs';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({
	languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' },
});
const file = (path: string): string => join(repoRoot, path);
const rule = (layersPlugin as { rules: { 'allowed-imports': Parameters<RuleTester['run']>[1] } })
	.rules['allowed-imports'];
const options = [layers] as never;

tester.run('layers/allowed-imports', rule, {
	valid: [
		{
			filename: file('src/core/status/fleet.ts'),
			code: "import { x } from '../model/object.ts';",
			options,
		},
		{
			filename: file('src/core/manifest/parse.ts'),
			code: "import { parse } from 'yaml';",
			options,
		},
		{ filename: file('src/cli/main.ts'), code: "import { readFileSync } from 'node:fs';", options },
		{
			filename: file('src/k8s/session.ts'),
			code: "import { KubeConfig } from '@kubernetes/client-node';",
			options,
		},
		{
			filename: file('src/vscode/live/liveFeedWiring.ts'),
			code: "import type { Session } from '../../k8s/session.ts';\nconst k8s = () => import('../../k8s/index.ts');",
			options,
		},
		{
			filename: file('src/vscode/live/liveFeedWiring.ts'),
			code: "import { LiveFeed } from '../../live/liveFeed.ts';",
			options,
		},
		{
			filename: file('src/live/liveFeed.ts'),
			code: "import { wdsContextsOf } from '../core/merge/contextPairing.ts';\nimport { ContextFeed } from './contextFeed.ts';",
			options,
		},
		{
			filename: file('src/live/feedDependencies.ts'),
			code: "import type * as k8s from '../k8s/index.ts';\nimport { type Session } from '../k8s/session.ts';",
			options,
		},
		{
			filename: file('src/cli/mcpContexts.ts'),
			code: "import { LiveFeed } from '../live/liveFeed.ts';\nconst k8s = () => import('../k8s/index.ts');",
			options,
		},
		{
			// import() with a string: a template without expressions is one too.
			filename: file('src/vscode/live/liveFeedWiring.ts'),
			code: 'const k8s = () => import(`../../k8s/index.ts`);',
			options,
		},
		{
			// The core reads time from its inputs: a Date of a value, parsing and arithmetic are not the clock.
			filename: file('src/core/explain/objectFacts.ts'),
			code: [
				'export const when = (at: number, text: string): string => new Date(at).toISOString() + Date.parse(text);',
				'export const utc = (year: number): number => Date.UTC(year, 0, 1) + Math.floor(year / 4);',
				'export const isDate = (value: unknown): value is Date => value instanceof Date;',
			].join('\n'),
			options,
		},
		{
			// A parameter named process is not the global.
			filename: file('src/core/tree/update.ts'),
			code: 'export const steps = (process: { readonly steps: number }): number => process.steps;',
			options,
		},
		{
			// The clock is barred in src/core only.
			filename: file('src/cli/main.ts'),
			code: 'const started = Date.now();\nprocess.exitCode = Math.random() > 2 ? 1 : 0;',
			options,
		},
		{
			filename: file('src/files/moduleCodeCache.ts'),
			code: "import Module, { createRequire } from 'node:module';\nexport const load = (path: string): unknown => createRequire(path)(path);",
			options,
		},
		{
			filename: file('src/files/celBundle.ts'),
			code: "import { createRequire } from 'node:module';\nexport const load = (path: string): unknown => createRequire(path)('./cel.cjs');",
			options,
		},
		{
			// Other parts of node:module are allowed where Node built-ins are.
			filename: file('src/cli/bin.ts'),
			code: "import { enableCompileCache } from 'node:module';\nenableCompileCache();",
			options,
		},
		{
			filename: file('src/apiserver/scenario.ts'),
			code: "import { parseManifests } from '../core/manifest/parse.ts';",
			options,
		},
	],
	invalid: [
		{
			filename: file('src/core/tree/model.ts'),
			code: "import { readFile } from 'node:fs/promises';",
			options,
			errors: 1,
		},
		{
			filename: file('src/core/tree/model.ts'),
			code: "import * as vscode from 'vscode';",
			options,
			errors: 1,
		},
		{
			filename: file('src/core/tree/model.ts'),
			code: "import { t } from '../../k8s/session.ts';",
			options,
			errors: 1,
		},
		{
			filename: file('src/core/tree/model.ts'),
			code: "import { t } from '../../apiserver/store.ts';",
			options,
			errors: 1,
		},
		{
			filename: file('src/cli/main.ts'),
			code: "import { KubeConfig } from '@kubernetes/client-node';",
			options,
			errors: 1,
		},
		{
			filename: file('src/cli/main.ts'),
			code: "import { s } from '../k8s/session.ts';",
			options,
			errors: 1,
		},
		{
			// Only `mcp` may load the cluster bundle: status, check and merge run on Node 20 without client-node.
			filename: file('src/cli/statusCommand.ts'),
			code: "const k8s = () => import('../k8s/index.ts');",
			options,
			errors: 1,
		},
		{
			filename: file('src/cli/mcp.ts'),
			code: "import { createSession } from '../k8s/index.ts';",
			options,
			errors: 1,
		},
		{
			filename: file('src/k8s/session.ts'),
			code: "import * as vscode from 'vscode';",
			options,
			errors: 1,
		},
		{
			filename: file('src/k8s/session.ts'),
			code: "import { t } from '../vscode/settings.ts';",
			options,
			errors: 1,
		},
		{
			filename: file('src/apiserver/server.ts'),
			code: "import { KubeConfig } from '@kubernetes/client-node';",
			options,
			errors: 1,
		},
		{
			filename: file('src/apiserver/server.ts'),
			code: "import { s } from '../k8s/session.ts';",
			options,
			errors: 1,
		},
		{
			filename: file('src/apiserver/fleetController.ts'),
			code: "import { gitRepoStatusOf } from '../core/status/fleetRollup.ts';",
			options,
			errors: 1,
		},
		{
			filename: file('src/vscode/live/liveFeedWiring.ts'),
			code: "import { createSession } from '../../k8s/index.ts';",
			options,
			errors: 1,
		},
		{
			filename: file('src/vscode/live/liveFeedWiring.ts'),
			code: "const s = () => import('../../k8s/session.ts');",
			options,
			errors: 1,
		},
		{
			filename: file('src/vscode/extension.ts'),
			code: "import { x } from '../apiserver/store.ts';",
			options,
			errors: 1,
		},
		{
			filename: file('src/live/liveFeed.ts'),
			code: "import * as vscode from 'vscode';",
			options,
			errors: 1,
		},
		{
			filename: file('src/live/liveFeed.ts'),
			code: "import { KubeConfig } from '@kubernetes/client-node';",
			options,
			errors: 1,
		},
		{
			filename: file('src/live/liveFeed.ts'),
			code: "import { setTimeout } from 'node:timers/promises';",
			options,
			errors: 1,
		},
		{
			filename: file('src/live/liveFeed.ts'),
			code: "import { createSession } from '../k8s/index.ts';",
			options,
			errors: [
				{
					message:
						/^src\/live may not import src\/k8s except as `import type`: src\/live feeds/ as never,
				},
			],
		},
		{
			filename: file('src/live/liveFeed.ts'),
			code: "const k8s = () => import('../k8s/index.ts');",
			options,
			errors: 1,
		},
		{
			filename: file('src/live/liveFeed.ts'),
			code: "import { readClusterSettings } from '../vscode/settings.ts';",
			options,
			errors: 1,
		},
		{
			filename: file('src/k8s/session.ts'),
			code: "import { LiveFeed } from '../live/liveFeed.ts';",
			options,
			errors: 1,
		},
		{
			filename: file('src/core/tree/model.ts'),
			code: "import type { LiveFeed } from '../../live/liveFeed.ts';",
			options,
			errors: 1,
		},
		{
			// Every file of src/ is in a layer: a folder without an entry is not a way around the table.
			filename: file('src/newLayer/thing.ts'),
			code: "import * as vscode from 'vscode';",
			options,
			errors: [{ message: /^src\/newLayer has no entry in the layers table/ as never }],
		},
		{
			filename: file('src/thing.ts'),
			code: "import { KubeConfig } from '@kubernetes/client-node';",
			options,
			errors: [{ message: /^src\/thing\.ts is at the root of src\/, in no layer/ as never }],
		},
		{
			// import() of a computed name hides what it loads, in every layer.
			filename: file('src/vscode/live/liveFeedWiring.ts'),
			code: 'export const load = (name: string): Promise<unknown> => import(name);',
			options,
			errors: [{ message: /import\(\) takes its module as a string literal/ as never }],
		},
		{
			filename: file('src/core/tree/model.ts'),
			code: 'export const load = (name: string): Promise<unknown> => import(`../../k8s/${name}.ts`);',
			options,
			errors: 1,
		},
		{
			// createRequire loads by a path: only the files of a layer's createRequire entry may use it.
			filename: file('src/cli/main.ts'),
			code: "import { createRequire } from 'node:module';\nconst load = createRequire(import.meta.url);\nload('@kubernetes/client-node');",
			options,
			errors: [{ message: /^src\/cli\/main\.ts may not use createRequire/ as never }],
		},
		{
			filename: file('src/files/fleetDump.ts'),
			code: "import Module from 'node:module';\nexport const load = (path: string): unknown => Module.createRequire(path)(path);",
			options,
			errors: 1,
		},
		{
			filename: file('src/vscode/live/liveFeedWiring.ts'),
			code: "export const k8s = (): unknown => require('../../k8s/index.ts');",
			options,
			errors: [{ message: /may not use the global require/ as never }],
		},
		{
			// The core has no clock and no randomness (ARCHITECTURE.md): time is a parameter.
			filename: file('src/core/status/kstatus.ts'),
			code: 'export const now = (): number => Date.now();',
			options,
			errors: [
				{
					message:
						/^src\/core may not use Date this way \(Date\.now\(\) reads the clock\)/ as never,
				},
			],
		},
		{
			filename: file('src/core/status/kstatus.ts'),
			code: 'export const now = (): string => new Date().toISOString();',
			options,
			errors: [{ message: /new Date\(\) with no argument reads the clock/ as never }],
		},
		{
			filename: file('src/core/tree/model.ts'),
			code: "export const debug = process.env['DEBUG'] === '1';",
			options,
			errors: [{ message: /^src\/core may not use process this way/ as never }],
		},
		{
			filename: file('src/core/tree/model.ts'),
			code: 'export const id = (): string => Math.random().toString(36);',
			options,
			errors: [{ message: /Math\.random\(\) draws random numbers/ as never }],
		},
		{
			// Other spellings of the same clock and randomness.
			filename: file('src/core/tree/model.ts'),
			code: [
				"export const a = Date['now']();",
				'export const b = Date();',
				'const clock = Date;',
				'export const c = globalThis.Date.now();',
				'export const d = performance.now();',
				'export const e = crypto.randomUUID();',
				'const { random } = Math;',
				'export const f = [clock, random];',
			].join('\n'),
			options,
			errors: 7,
		},
		{
			// src/core/tree is built on src/core/status: the stand-ins may not reach the rules through it.
			filename: file('src/apiserver/scenario.ts'),
			code: "import { ResourceGraph } from '../core/tree/model.ts';",
			options,
			errors: [
				{
					message:
						/^src\/apiserver may not import src\/core\/tree\/model\.ts \(in src\/core\/tree\)/ as never,
				},
			],
		},
		{
			filename: file('src/apiserver/scenario.ts'),
			code: "import type { TreeNode } from '../core/tree/treeNode.ts';",
			options,
			errors: 1,
		},
	],
});
