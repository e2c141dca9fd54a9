import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { explainNodeMarkdown } from '../../../../src/core/explain/explainDocument.ts';
import { objectTooltipMarkdown } from '../../../../src/core/explain/tooltip.ts';
import { parseManifests } from '../../../../src/core/manifest/parse.ts';
import { computeStatus } from '../../../../src/core/status/registry.ts';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';
import type { TreeNode } from '../../../../src/core/tree/treeNode.ts';
import { repoRoot } from '../../../support/conformance.ts';

/** The Fleet example dump in a graph; `rename` may rewrite the failing GitRepo's name first. */
function fleetGraph(rename?: string): ResourceGraph {
	const graph = new ResourceGraph();
	graph.addRoot('ws', 'Workspace manifests');
	const text = readFileSync(join(repoRoot, 'examples/workspace/fleet/dump.yaml'), 'utf8');
	const objects = parseManifests(text).objects.map((entry) => entry.object);
	graph.setSourceObjects(
		'ws',
		'file:///repo/fleet/dump.yaml',
		objects.map((object, index) => ({ object, line: index, label: 'fleet/dump.yaml' })),
	);
	if (rename !== undefined) {
		const metadata = (
			objects.find((object) => object.kind === 'GitRepo') as { metadata: { name: string } }
		).metadata;
		metadata.name = rename;
		graph.setSourceObjects(
			'ws',
			'file:///repo/fleet/dump.yaml',
			objects.map((object, index) => ({ object, line: index, label: 'fleet/dump.yaml' })),
		);
	}
	return graph;
}

function failingGitRepo(graph: ResourceGraph): TreeNode {
	const visit = (id: string | undefined): TreeNode | undefined => {
		for (const node of graph.children(id)) {
			if (node.ref?.kind === 'GitRepo' && node.tone === 'error') return node;
			const found = visit(node.id);
			if (found) return found;
		}
		return undefined;
	};
	const found = visit(undefined);
	assert.ok(found, 'a failing GitRepo in the example');
	return found;
}

describe('links in Explain and tooltips', () => {
	it("links each chain item of Explain through the adapter's key, and nothing else", () => {
		const graph = fleetGraph();
		const start = failingGitRepo(graph);
		const keys = new Map<string, string>();
		const markdown = explainNodeMarkdown(graph, start.id, undefined, undefined, (node) => {
			const key = keys.get(node.id) ?? `Explain%20step%20%23s${keys.size + 1}.md`;
			keys.set(node.id, key);
			return key;
		});
		const items = markdown.split('\n').filter((line) => /^\d+\. \*\*/.test(line));
		assert.ok(items.length >= 2, markdown);
		items.forEach((line, index) => {
			assert.match(
				line,
				new RegExp(
					`^${index + 1}\\. \\*\\*\\[[^\\]]+\\]\\(Explain%20step%20%23s\\d+\\.md\\)\\*\\*`,
				),
				line,
			);
		});
		assert.match(items[0] ?? '', /^1\. \*\*\[GitRepo /);
		// Only the chain items link (and the Read-from lines, to workspace files, which this graph has no path for).
		assert.equal(markdown.split('](').length - 1, items.length, markdown);
	});

	it('links nothing a step link could break out of, and no name from the data', () => {
		const graph = fleetGraph();
		const unsafe = explainNodeMarkdown(
			graph,
			failingGitRepo(graph).id,
			undefined,
			undefined,
			() => 'x)(command:y',
		);
		assert.doesNotMatch(unsafe, /\]\(/, 'an unsafe link is shown as text');
		const hostile = fleetGraph('evil](command:workbench.action.terminal.new)');
		const linked = explainNodeMarkdown(
			hostile,
			failingGitRepo(hostile).id,
			undefined,
			undefined,
			() => 'Explain%20step%20%23s1.md',
		);
		assert.doesNotMatch(linked, /\]\(command/);
		assert.match(linked, /^# GitRepo evil\\\]\\\(command\\:workbench/m);
	});

	it("makes a tooltip's Read-from line the caller's link, its text escaped", () => {
		const object = {
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'GitRepository',
			metadata: { name: 'app', namespace: 'flux-system' },
		};
		const link = 'command:kubeStatusLens.readFrom.open?%5B%22r1%22%5D';
		const tooltip = objectTooltipMarkdown(
			object,
			computeStatus(object),
			[{ label: 'repo [x](y).yaml', line: 3 }],
			undefined,
			undefined,
			link,
		);
		assert.ok(tooltip.endsWith(`[From repo \\[x\\]\\(y\\)\\.yaml\\:3](${link})`), tooltip);
		const live = objectTooltipMarkdown(
			object,
			computeStatus(object),
			[],
			undefined,
			'Read from context platform at 10:02',
			link,
		);
		assert.ok(live.endsWith(`[Read from context platform at 10\\:02](${link})`), live);
		assert.doesNotMatch(
			objectTooltipMarkdown(object, computeStatus(object), [{ label: 'a.yaml', line: 1 }]),
			/\]\(/,
		);
	});
});
