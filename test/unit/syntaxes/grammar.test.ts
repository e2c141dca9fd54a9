import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type * as Textmate from 'vscode-textmate';
import type * as Oniguruma from 'vscode-oniguruma';

// vscode-textmate and vscode-oniguruma are CommonJS; the wasm ships inside vscode-oniguruma.
const require = createRequire(import.meta.url);
const textmate = require('vscode-textmate') as typeof Textmate;
const oniguruma = require('vscode-oniguruma') as typeof Oniguruma;

const root = join(import.meta.dirname, '../../..');
const injectionPath = join(root, 'syntaxes/kube-status-lens.injection.json');
const injectionScope = 'status.injection.kube-status-lens';
const vscodeYaml = join(root, 'test/fixtures/syntaxes/vscode-yaml');
const vscodeYamlFiles: Readonly<Record<string, string>> = {
	'source.yaml': 'yaml.tmLanguage.json',
	'source.yaml.1.0': 'yaml-1.0.tmLanguage.json',
	'source.yaml.1.1': 'yaml-1.1.tmLanguage.json',
	'source.yaml.1.2': 'yaml-1.2.tmLanguage.json',
	'source.yaml.1.3': 'yaml-1.3.tmLanguage.json',
	'source.yaml.embedded': 'yaml-embedded.tmLanguage.json',
};
const classicYaml = join(root, 'node_modules/tm-grammars/grammars/yaml.json');

type YamlGrammar = 'vscode' | 'classic';

/** One character of a line with the scopes on it. */
type Scopes = readonly string[];

let onigReady: Promise<void> | undefined;

async function grammarFor(yaml: YamlGrammar, injected: boolean): Promise<Textmate.IGrammar> {
	onigReady ??= oniguruma.loadWASM(
		readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer,
	);
	await onigReady;
	const registry = new textmate.Registry({
		onigLib: Promise.resolve({
			createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
			createOnigString: (text: string) => new oniguruma.OnigString(text),
		}),
		loadGrammar: (scopeName: string) => {
			let path: string | undefined;
			if (scopeName === injectionScope) path = injectionPath;
			else if (yaml === 'vscode') {
				const file = vscodeYamlFiles[scopeName];
				if (file) path = join(vscodeYaml, file);
			} else if (scopeName === 'source.yaml') path = classicYaml;
			return Promise.resolve(
				path ? textmate.parseRawGrammar(readFileSync(path, 'utf8'), path) : null,
			);
		},
		getInjections: (scopeName: string) =>
			injected && scopeName === 'source.yaml' ? [injectionScope] : undefined,
	});
	const grammar = await registry.loadGrammar('source.yaml');
	assert.ok(grammar, `the ${yaml} YAML grammar loads`);
	return grammar;
}

/** The scopes of every character of every line. */
function tokenize(grammar: Textmate.IGrammar, text: string): Scopes[][] {
	let stack = textmate.INITIAL;
	return text.split('\n').map((line) => {
		const result = grammar.tokenizeLine(line, stack);
		stack = result.ruleStack;
		const scopes: Scopes[] = [];
		for (const token of result.tokens) {
			for (let index = token.startIndex; index < Math.min(token.endIndex, line.length); index++) {
				scopes[index] = token.scopes;
			}
		}
		return scopes;
	});
}

const text = readFileSync(join(root, 'test/fixtures/syntaxes/status.yaml'), 'utf8');
const lines = text.split('\n');

/** The scopes on the last appearance of `word` on the first line that is exactly `lineText`. */
function scopesAt(tokens: Scopes[][], lineText: string, word: string): Scopes {
	const line = lines.indexOf(lineText);
	assert.ok(line >= 0, `a line ${JSON.stringify(lineText)}`);
	const column = lineText.lastIndexOf(word);
	assert.ok(column >= 0, `${word} on line ${line + 1}`);
	return tokens[line]?.[column] ?? [];
}

function marked(scopes: Scopes): string | undefined {
	return scopes.find((scope) => scope.endsWith('.kube-status-lens') && !scope.startsWith('meta.'));
}

for (const yaml of ['vscode', 'classic'] as const) {
	describe(`the status injection into the ${yaml === 'vscode' ? "VS Code's" : 'classic TextMate'} YAML grammar`, () => {
		let tokens: Scopes[][] = [];
		before(async () => {
			tokens = tokenize(await grammarFor(yaml, true), text);
		});

		it('marks condition status values in status blocks, quoted or not', () => {
			assert.equal(
				marked(scopesAt(tokens, '    status: "True"', 'True')),
				'markup.inserted.status.true.kube-status-lens',
			);
			assert.equal(
				marked(scopesAt(tokens, '    status: \'False\' # a comment: status: "True"', 'False')),
				'markup.deleted.status.false.kube-status-lens',
			);
			assert.equal(
				marked(scopesAt(tokens, '  - status: Unknown', 'Unknown')),
				'markup.changed.status.unknown.kube-status-lens',
			);
			assert.equal(
				marked(
					scopesAt(
						tokens,
						'  - {type: Ready, status: "False", lastUpdateTime: "2025-11-20T09:00:00Z"}',
						'False',
					),
				),
				undefined,
				'flow mappings are left as they are',
			);
		});

		it('marks Fleet, Flux, Harbor and kstatus state words with the scope of their tone', () => {
			assert.equal(
				marked(scopesAt(tokens, '    state: Modified', 'Modified')),
				'markup.changed.status.warning.kube-status-lens',
			);
			assert.equal(
				marked(scopesAt(tokens, '    - bundleState: ErrApplied', 'ErrApplied')),
				'invalid.illegal.status.error.kube-status-lens',
			);
			assert.equal(
				marked(scopesAt(tokens, '  gitJobStatus: Current', 'Current')),
				'markup.inserted.status.ok.kube-status-lens',
			);
			assert.equal(
				marked(scopesAt(tokens, '    type: Stalled', 'Stalled')),
				'invalid.illegal.status.error.kube-status-lens',
			);
			assert.equal(
				marked(scopesAt(tokens, '    type: Reconciling', 'Reconciling')),
				'markup.changed.status.progressing.kube-status-lens',
			);
			assert.equal(
				marked(scopesAt(tokens, '    status: unhealthy', 'unhealthy')),
				'invalid.illegal.status.error.kube-status-lens',
			);
		});

		it('finds status blocks indented in kind: List dumps, and ends them with the item', () => {
			assert.equal(
				marked(scopesAt(tokens, '      status: "True"', 'True')),
				'markup.inserted.status.true.kube-status-lens',
			);
			assert.equal(
				marked(scopesAt(tokens, '    state: Ready', 'Ready')),
				undefined,
				'the ConfigMap after the item is not a status',
			);
		});

		it('leaves spec fields, comments and block scalar text alone', () => {
			assert.equal(marked(scopesAt(tokens, '  status: "True"', 'True')), undefined);
			assert.equal(marked(scopesAt(tokens, '  state: ErrApplied', 'ErrApplied')), undefined);
			assert.equal(
				marked(scopesAt(tokens, '    status: \'False\' # a comment: status: "True"', 'True')),
				undefined,
			);
			assert.equal(marked(scopesAt(tokens, lines[0] ?? '', 'True')), undefined);
			assert.equal(
				marked(scopesAt(tokens, '        status: "True" inside a message is text', 'True')),
				undefined,
			);
			assert.ok(
				scopesAt(tokens, '        status: "True" inside a message is text', 'True').some((scope) =>
					scope.startsWith('string.unquoted.block'),
				),
			);
			assert.equal(marked(scopesAt(tokens, '        state: Ready too', 'Ready')), undefined);
		});
	});
}

const besideInputs = [
	'test/fixtures/syntaxes/status.yaml',
	'examples/workspace/fleet/dump.yaml',
	'examples/workspace/flux/dump.yaml',
	'examples/workspace/harbor/dump.yaml',
	'examples/workspace/aso/dump.yaml',
	'examples/workspace/kubestellar/its-workstatuses.yaml',
];

/** The colour-deciding part of a character's innermost scope: its first two segments. */
function kindOf(scopes: Scopes | undefined): string {
	const innermost = [...(scopes ?? [])].reverse().find((scope) => !scope.startsWith('meta.'));
	return innermost?.split('.').slice(0, 2).join('.') ?? '';
}

describe("the status injection beside VS Code's YAML grammar", () => {
	for (const input of besideInputs) {
		const source = readFileSync(join(root, input), 'utf8');
		const sourceLines = source.split('\n');

		it(`changes nothing outside status blocks in ${input}`, async () => {
			const plain = tokenize(await grammarFor('vscode', false), source);
			const injected = tokenize(await grammarFor('vscode', true), source);
			sourceLines.forEach((line, index) => {
				const inBlock = (injected[index] ?? []).some((scopes) =>
					scopes.includes('meta.status.kube-status-lens'),
				);
				if (!inBlock) assert.deepEqual(injected[index], plain[index], `line ${index + 1}: ${line}`);
			});
		});

		it(`inside status blocks of ${input}, gives every other character the kind of scope the YAML grammar gives it`, async () => {
			const plain = tokenize(await grammarFor('vscode', false), source);
			const injected = tokenize(await grammarFor('vscode', true), source);
			let checked = 0;
			sourceLines.forEach((line, index) => {
				for (let column = 0; column < line.length; column++) {
					if (/\s/.test(line.charAt(column))) continue;
					const mine = injected[index]?.[column];
					if (!mine?.includes('meta.status.kube-status-lens') || marked(mine)) continue;
					checked++;
					assert.equal(
						kindOf(mine),
						kindOf(plain[index]?.[column]),
						`line ${index + 1} column ${column + 1}: ${line}`,
					);
				}
			});
			assert.ok(checked > 0, 'the file has status blocks');
		});
	}
});
