// Lint rules, including the layer boundaries that ARCHITECTURE.md states as invariants.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const coreBoundary = {
	patterns: [
		{ group: ['vscode'], message: 'src/core is pure: no vscode.' },
		{
			group: ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'https', 'net', 'crypto'],
			message: 'src/core is pure: no Node built-ins, no I/O.',
		},
		{ group: ['@kubernetes/*'], message: 'src/core is pure: no client-node.' },
		{
			group: [
				'../k8s/*',
				'../../k8s/*',
				'../vscode/*',
				'../../vscode/*',
				'../cli/*',
				'../../cli/*',
			],
			message: 'Dependencies point vscode -> k8s -> core; core imports only itself and yaml.',
		},
	],
};

export default tseslint.config(
	{ ignores: ['node_modules/', 'dist/', 'out/', '.vscode-test/', '**/*.cjs'] },
	js.configs.recommended,
	...tseslint.configs.recommendedTypeChecked,
	{
		languageOptions: {
			parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
		},
		rules: {
			'@typescript-eslint/no-floating-promises': [
				'error',
				{
					allowForKnownSafeCalls: [
						{
							from: 'package',
							name: [
								'describe',
								'it',
								'suite',
								'test',
								'before',
								'after',
								'beforeEach',
								'afterEach',
							],
							package: 'node:test',
						},
					],
				},
			],
			'@typescript-eslint/consistent-type-imports': 'error',
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
			eqeqeq: ['error', 'always'],
			curly: ['error', 'multi-line'],
			'no-console': 'error',
		},
	},
	{
		files: ['src/core/**/*.ts'],
		rules: { 'no-restricted-imports': ['error', coreBoundary] },
	},
	{
		files: ['src/cli/**/*.ts'],
		rules: {
			'no-console': 'off',
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{ group: ['vscode'], message: 'The CLI never loads vscode.' },
						{
							group: ['@kubernetes/*', '../k8s/*'],
							message: 'The CLI never loads client-node: it must run on Node 20.',
						},
						{ group: ['../vscode/*'], message: 'The CLI never loads the extension.' },
					],
				},
			],
		},
	},
	{
		files: [
			'test/**/*.ts',
			'test/**/*.mjs',
			'bench/**/*.ts',
			'scripts/**/*.mjs',
			'scripts/**/*.ts',
			'esbuild.mjs',
		],
		rules: { 'no-console': 'off' },
	},
	{
		files: ['test/unit/**/*.ts', 'test/conformance/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							group: ['vscode'],
							message: 'No vscode mocks: VS Code tests live in test/integration.',
						},
					],
				},
			],
		},
	},
	{
		files: ['**/*.mjs'],
		...tseslint.configs.disableTypeChecked,
		languageOptions: {
			...tseslint.configs.disableTypeChecked.languageOptions,
			globals: { ...globals.node },
		},
	},
);
