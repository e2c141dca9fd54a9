import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { assistantTools } from '../../../src/core/assistant/definitions.ts';
import { invokeText } from './lmToolsSupport.ts';
import { extensionApi } from './support.ts';

// The language model tools, called without any model through the real extension host, on the example workspace.
describe('language model tools', () => {
	it('answers from the workspace, reading it on the way when nothing has yet', async () => {
		// Run alone (KSL_TEST_GREP), the call itself activates the extension and reads the workspace.
		const text = await invokeText('list_kube_status_problems', {});
		assert.match(text, /GitRepo fleet-default\/shop\b/, text);
		assert.match(text, /Data: "Workspace manifests" read \d+ (s|min) ago/, text);
	});

	it('lists the five tools with the names and input schemas of the core', () => {
		for (const tool of assistantTools) {
			const listed = vscode.lm.tools.find((candidate) => candidate.name === tool.name);
			assert.ok(listed, `${tool.name} is in vscode.lm.tools`);
			assert.equal(listed.description, tool.description);
			assert.deepEqual(listed.inputSchema, JSON.parse(JSON.stringify(tool.inputSchema)));
		}
	});

	it("explains GitRepo shop down to the failing resource on the failing cluster, in Fleet's words", async () => {
		const text = await invokeText('explain_kube_status', { kind: 'GitRepo', name: 'shop' });
		assert.match(text, /GitRepo fleet-default\/shop/, text);
		assert.match(text, /prod-us-1/, text);
		assert.match(text, /must be less than or equal to cpu limit of 2/, text);
	});

	it('lists the example workspace objects that are not ready, with their state words', async () => {
		const text = await invokeText('list_kube_status_problems', {});
		for (const expected of [
			/GitRepo fleet-default\/shop\b.*ErrApplied/,
			/Bundle fleet-default\/shop-frontend\b/,
		]) {
			assert.match(text, expected, text);
		}
		assert.doesNotMatch(text, /GitRepo fleet-default\/[a-z-]+ .*: Ready/, text);
	});

	it('returns the candidates for a name that fits several objects instead of guessing', async () => {
		const text = await invokeText('explain_kube_status', { name: 'shop-frontend' });
		assert.match(text, /objects are named "shop-frontend"/, text);
		assert.match(text, /- Bundle fleet-default\/shop-frontend/, text);
		assert.match(text, /- BundleDeployment [^\n]*\/shop-frontend/, text);
	});

	it('answers bad input with a sentence saying what is wrong, not a throw', async () => {
		assert.match(await invokeText('explain_kube_status', { name: 42 }), /name must be a string/);
		assert.match(await invokeText('explain_kube_status', {}), /explain_kube_status needs name/);
		assert.match(
			await invokeText('list_kube_status_problems', { context: 'no-such-context' }),
			/No kube context "no-such-context" is open/,
		);
	});

	it('gives the watches back when a call ends', async () => {
		const api = await extensionApi();
		await invokeText('run_fleet_checks', {});
		assert.ok(!api.live.consumers.includes('assistant tool'), api.live.consumers.join(', '));
	});
});
