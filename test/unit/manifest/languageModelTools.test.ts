// The language model tools package.json contributes are the assistant tools of the core: the same names, the same
// descriptions for the model and the same input schemas, so what VS Code's chat reads cannot drift from what the
// tools do (or from what the MCP server says).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assistantTools } from '../../../src/core/assistant/definitions.ts';
import { repoRoot } from '../../support/conformance.ts';

interface ContributedTool {
	readonly name: string;
	readonly displayName: string;
	readonly modelDescription: string;
	readonly userDescription?: string;
	readonly canBeReferencedInPrompt?: boolean;
	readonly toolReferenceName?: string;
	readonly inputSchema: unknown;
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
	readonly contributes: { readonly languageModelTools?: readonly ContributedTool[] };
	readonly activationEvents: readonly string[];
};
const contributed = manifest.contributes.languageModelTools ?? [];

describe('package.json languageModelTools', () => {
	it('contributes the four assistant tools, in the same order', () => {
		assert.deepEqual(
			contributed.map((tool) => tool.name),
			assistantTools.map((tool) => tool.name),
		);
	});

	for (const tool of assistantTools) {
		it(`gives ${tool.name} the core's display name, description and input schema`, () => {
			const entry = contributed.find((candidate) => candidate.name === tool.name);
			assert.ok(entry, `${tool.name} is contributed`);
			assert.equal(entry.displayName, tool.displayName);
			assert.equal(entry.modelDescription, tool.description);
			assert.deepEqual(entry.inputSchema, JSON.parse(JSON.stringify(tool.inputSchema)));
		});
	}

	it('lets a user reference each tool in a prompt (VS Code refuses one without a reference name)', () => {
		for (const entry of contributed) {
			assert.equal(entry.canBeReferencedInPrompt, true, entry.name);
			assert.match(entry.toolReferenceName ?? '', /^[\w-]+$/, entry.name);
			assert.ok((entry.userDescription ?? '').length > 0, `${entry.name} has a userDescription`);
		}
		const references = contributed.map((entry) => entry.toolReferenceName);
		assert.equal(new Set(references).size, references.length, 'reference names are unique');
	});

	it('needs no activation event of its own: VS Code activates on onLanguageModelTool:<name> by itself', () => {
		assert.ok(
			!manifest.activationEvents.some((event) => event.startsWith('onLanguageModelTool:')),
			'an explicit onLanguageModelTool event duplicates the one VS Code derives from the contribution',
		);
	});
});
