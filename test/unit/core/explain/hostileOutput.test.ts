import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import {
	explainNodeMarkdown,
	statusSummaryText,
} from '../../../../src/core/explain/explainDocument.ts';
import { objectTooltipMarkdown } from '../../../../src/core/explain/tooltip.ts';
import { hoverAt } from '../../../../src/core/manifest/hover.ts';
import { objectKeyOf } from '../../../../src/core/tree/linking.ts';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';
import type { TreeNode } from '../../../../src/core/tree/treeNode.ts';

// One megabyte in a name, a reason and a message: every view shows a bounded part and says how much it left out.
const megabyte = 1_000_000;
const hugeName = `web-${'n'.repeat(megabyte)}`;
const hugeReason = `Broken${'r'.repeat(megabyte)}`;
const hugeMessage = `clone failed: ${'m'.repeat(megabyte)}`;

function gitRepository(name: string, reason: string, message: string): Record<string, unknown> {
	return {
		apiVersion: 'source.toolkit.fluxcd.io/v1',
		kind: 'GitRepository',
		metadata: { name, namespace: 'flux-system', generation: 2 },
		spec: { url: 'https://example.com/repo.git' },
		status: {
			observedGeneration: 2,
			conditions: [
				{ type: 'Ready', status: 'False', reason, message },
				{ type: 'Stalled', status: 'True', reason, message },
			],
		},
	};
}

function graphWith(object: Record<string, unknown>): { graph: ResourceGraph; node: TreeNode } {
	const graph = new ResourceGraph();
	graph.addRoot('ws', 'Workspace manifests');
	graph.setSourceObjects('ws', 'file:///repo.yaml', [{ object, line: 0 }]);
	const [id] = graph.findNodesForObject('ws', objectKeyOf(object));
	const node = id === undefined ? undefined : graph.node(id);
	assert.ok(node);
	return { graph, node };
}

/** "… (N more characters)" as Markdown escapes it. */
function markdownNote(more: number): string {
	return `… \\(${more} more characters\\)`;
}

describe('a megabyte name, reason and message', () => {
	const object = gitRepository(hugeName, hugeReason, hugeMessage);
	const { graph, node } = graphWith(object);

	it('makes a tree row of a few hundred characters that says how much is cut', () => {
		assert.ok(node.label.length <= 250, `label of ${node.label.length} characters`);
		assert.ok(node.description.length <= 250, `description of ${node.description.length}`);
		const fullLabel = hugeName;
		assert.equal(
			node.label,
			`${fullLabel.slice(0, 200)}… (${fullLabel.length - 200} more characters)`,
		);
	});

	it('bounds a root row whose state message is huge', () => {
		graph.setRootState('ws', { tone: 'error', message: hugeMessage });
		const root = graph.roots()[0];
		assert.ok(root);
		assert.ok(root.description.length <= 250, `description of ${root.description.length}`);
		assert.match(root.description, /more characters\)/);
		graph.setRootState('ws', undefined);
	});

	it('makes a tooltip of a few kilobytes, the message cut with its count', () => {
		const result = node.result;
		assert.ok(result);
		const tooltip = objectTooltipMarkdown(object, result, [{ label: 'repo.yaml', line: 1 }]);
		assert.ok(tooltip.length <= 10_000, `tooltip of ${tooltip.length} characters`);
		assert.ok(tooltip.includes(markdownNote(hugeMessage.length - 1_000)), tooltip.slice(0, 2000));
	});

	it('makes hovers of a few kilobytes on the name, a reason, a huge kind and a huge Fleet state', () => {
		const text = stringify(object, { lineWidth: 0 });
		const lines = text.split('\n');
		const at = (needle: string, source = lines) => {
			const line = source.findIndex((entry) => entry.includes(needle));
			return { line, character: (source[line] ?? '').indexOf(needle) + 1 };
		};
		const fleetBundle = `apiVersion: fleet.cattle.io/v1alpha1
kind: Bundle${'k'.repeat(megabyte)}
metadata:
  name: b
status:
  display:
    state: Err${'s'.repeat(megabyte)}
  conditions:
  - type: Ready
    status: "False"
    message: not ready
`;
		const fleetLines = fleetBundle.split('\n');
		const hovers = [
			hoverAt(text, at('name: web')),
			hoverAt(text, at('reason: Broken')),
			hoverAt(fleetBundle, at('type: Ready', fleetLines)),
		];
		for (const hover of hovers) {
			assert.ok(hover, 'a hover');
			assert.ok(hover.markdown.length <= 5_000, `hover of ${hover.markdown.length} characters`);
		}
		assert.match(hovers[2]?.markdown ?? '', /more characters\\\)/);
	});

	it('makes an Explain document bounded per string, each cut saying how much it left out', () => {
		const markdown = explainNodeMarkdown(graph, node.id);
		assert.ok(markdown.length <= 200_000, `document of ${markdown.length} characters`);
		assert.ok(markdown.includes(markdownNote(hugeMessage.length - 10_000)));
	});

	it('makes a copied summary bounded per string', () => {
		const summary = statusSummaryText(graph, node.id);
		assert.ok(summary.length <= 50_000, `summary of ${summary.length} characters`);
		assert.ok(summary.includes(`… (${hugeMessage.length - 10_000} more characters)`));
	});
});

describe('the copied status summary', () => {
	it('keeps its own lines but shows controls, line breaks and direction overrides inside values escaped', () => {
		const name = 'evil\u001b]0;owned\u0007\u202egnp.exe';
		const message = 'first line\nsecond line \u001b[2J cleared\u202e';
		const { graph, node } = graphWith(gitRepository(name, 'Failed\u001b[31m', message));
		const summary = statusSummaryText(graph, node.id);
		const lines = summary.split('\n');
		assert.equal(lines.length, 2, summary);
		assert.doesNotMatch(
			summary,
			// Every control but the summary's own line feed, and the direction overrides (matching them is the point).
			// eslint-disable-next-line no-control-regex
			/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/,
		);
		assert.match(lines[0] ?? '', /evil\\u001b\]0;owned\\u0007\\u202egnp\.exe/);
		assert.match(lines[0] ?? '', /first line second line \\u001b\[2J cleared\\u202e$/);
		assert.match(lines[1] ?? '', /^kstatus: /);
	});
});
