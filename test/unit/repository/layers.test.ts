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
	],
});
