// Lint rules, including the layer boundaries that ARCHITECTURE.md states as invariants (eslint/layers.mjs).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { layers, layersPlugin } from './eslint/layers.mjs';

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
		files: ['src/**/*.ts'],
		plugins: { layers: layersPlugin },
		rules: { 'layers/allowed-imports': ['error', layers] },
	},
	{
		files: ['src/cli/**/*.ts'],
		rules: { 'no-console': 'off' },
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
