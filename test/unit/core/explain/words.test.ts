import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { explainNodeMarkdown } from '../../../../src/core/explain/explainDocument.ts';
import { objectTooltipMarkdown } from '../../../../src/core/explain/tooltip.ts';
import { parseManifests } from '../../../../src/core/manifest/parse.ts';
import { escapeMarkdown } from '../../../../src/core/text/markdown.ts';
import { objectKeyOf } from '../../../../src/core/tree/linking.ts';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';
import type { TreeNode } from '../../../../src/core/tree/treeNode.ts';
import { repoRoot } from '../../../support/conformance.ts';

// The Fleet example: GitRepo shop -> Bundle shop-frontend -> BundleDeployment on prod-us-1, failing with a long error.
const fleetFolder = join(repoRoot, 'examples/workspace/fleet');
const cpuError =
	'failed to upgrade "shop-frontend": cannot patch "frontend" with kind Deployment: Deployment.apps "frontend" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "4": must be less than or equal to cpu limit of 2';
const prodUs = 'cluster-fleet-default-prod-us-1-04523fc383a2';
const prodEu = 'cluster-fleet-default-prod-eu-1-eb998a50c712';

type FleetObject = Record<string, unknown>;

function fleetObjects(): { file: string; objects: FleetObject[] }[] {
	const files = [
		'dump.yaml',
		...readdirSync(join(fleetFolder, 'manifests')).map((name) => `manifests/${name}`),
	];
	return files.map((file) => ({
		file,
		objects: parseManifests(readFileSync(join(fleetFolder, file), 'utf8')).objects.map(
			(entry) => entry.object,
		),
	}));
}

function isBd(object: FleetObject, namespace: string, name: string): boolean {
	const metadata = object.metadata as { namespace?: string; name?: string } | undefined;
	return (
		object.kind === 'BundleDeployment' &&
		metadata?.namespace === namespace &&
		metadata.name === name
	);
}

/** The Fleet example in a graph, read from `file:///repo/fleet/...`; `change` may rewrite its objects first. */
function fleetGraph(change: (objects: FleetObject[]) => void = () => {}): ResourceGraph {
	const graph = new ResourceGraph();
	graph.addRoot('ws', 'Workspace manifests');
	const read = fleetObjects();
	change(read.flatMap((entry) => entry.objects));
	for (const { file, objects } of read) {
		graph.setSourceObjects(
			'ws',
			`file:///repo/fleet/${file}`,
			objects.map((object, index) => ({ object, line: index, label: `fleet/${file}` })),
		);
	}
	return graph;
}

function nodeOf(graph: ResourceGraph, object: Record<string, unknown>, under = ''): TreeNode {
	const ids = graph.findNodesForObject('ws', objectKeyOf(object));
	const id = ids.find((entry) => entry.includes(under)) ?? ids[0];
	const node = id === undefined ? undefined : graph.node(id);
	assert.ok(node, `a node for ${objectKeyOf(object)}`);
	return node;
}

function occurrences(text: string, part: string): number {
	return text.split(part).length - 1;
}

const gitRepo = {
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'GitRepo',
	metadata: { name: 'shop', namespace: 'fleet-default' },
};
const failingBd = {
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'BundleDeployment',
	metadata: { name: 'shop-frontend', namespace: prodUs },
};
const shownError = escapeMarkdown(cpuError, 10_000);

/** Paths below file:///repo/, as the editor gives them for files in its first workspace folder. */
function inRepo(sourceId: string): string | undefined {
	return sourceId.startsWith('file:///repo/')
		? decodeURIComponent(sourceId.slice('file:///repo/'.length))
		: undefined;
}

describe('the tooltip of a failing object', () => {
	const graph = fleetGraph();

	it('shows the whole error once, not three cut copies', () => {
		const node = nodeOf(graph, failingBd, 'GitRepo');
		const object = graph.objectOf('ws', objectKeyOf(failingBd));
		assert.ok(node.result && object);
		const tooltip = objectTooltipMarkdown(object, node.result, [
			{ label: 'fleet/dump.yaml', line: 3 },
		]);
		assert.equal(occurrences(tooltip, shownError), 1, tooltip);
		assert.equal(occurrences(tooltip, 'must be less than or equal'), 1, tooltip);
		assert.doesNotMatch(tooltip, /more characters/);
		assert.match(tooltip, /^\*\*ErrApplied \\\(error\\\)\*\* — The agent tried/m);
		assert.match(tooltip, /^kstatus: Current — Resource is Ready · Argo CD: no health check/m);
		assert.match(tooltip, /^From fleet\/dump\\\.yaml\\:3$/m);
		assert.ok(tooltip.split('\n').length <= 16, `a short tooltip:\n${tooltip}`);
	});

	it('shows a GitRepo roll-up message whole, once, with the reason that adds something', () => {
		const node = nodeOf(graph, gitRepo);
		const object = graph.objectOf('ws', objectKeyOf(gitRepo));
		assert.ok(node.result && object);
		const tooltip = objectTooltipMarkdown(object, node.result);
		assert.equal(occurrences(tooltip, 'must be less than or equal'), 1, tooltip);
		assert.match(tooltip, /Modified\\\(1\\\) \\\[Cluster fleet\\-default\/staging\\-1\\\]/);
		assert.match(tooltip, /^2 of 3 clusters not ready$/m);
	});

	it('cuts a longer message at the hover limit of 1,000 characters, saying how much it left out', () => {
		const message = `boom ${'x'.repeat(1_500)}`;
		const object = {
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'GitRepository',
			metadata: { name: 'repo', namespace: 'flux-system', generation: 1 },
			status: {
				observedGeneration: 1,
				conditions: [{ type: 'Ready', status: 'False', reason: 'Failed', message }],
			},
		};
		const one = new ResourceGraph();
		one.addRoot('ws', 'Workspace manifests');
		one.setSourceObjects('ws', 'file:///repo.yaml', [{ object, line: 0 }]);
		const node = nodeOf(one, object);
		assert.ok(node.result);
		const tooltip = objectTooltipMarkdown(object, node.result);
		assert.equal(occurrences(tooltip, 'boom'), 1, tooltip);
		assert.match(
			tooltip,
			new RegExp(`x{995}… \\\\\\(${message.length - 1_000} more characters\\\\\\)`),
		);
	});
});

describe('Explain', () => {
	it('says the error once, in separate paragraphs, with the real names in what to do', () => {
		const graph = fleetGraph();
		const markdown = explainNodeMarkdown(graph, nodeOf(graph, gitRepo).id);
		assert.equal(occurrences(markdown, 'must be less than or equal'), 1, markdown);
		// Each step of the chain is its own paragraph: its state ends a sentence, and the next text starts after a blank line.
		const lines = markdown.split('\n');
		lines.forEach((line, index) => {
			if (/^\d+\. \*\*/.test(line)) {
				assert.match(line, /\.$/, line);
				assert.equal(lines[index + 1], '', `a blank line after "${line}"`);
			}
		});
		assert.match(
			markdown,
			/kubectl get bundledeployment \\-n cluster\\-fleet\\-default\\-prod\\-us\\-1\\-04523fc383a2 shop\\-frontend \\-o yaml/,
		);
		assert.doesNotMatch(markdown, /\\<cluster namespace\\>|\\<bundle\\>/);
	});

	it('fills in the names of the object itself, escaped, where the catalog has placeholders', () => {
		const object = {
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'HelmRepository',
			metadata: { name: 'x_[y](command:z)', namespace: 'team-a', generation: 1 },
			spec: { url: 'https://charts.example.com' },
			status: {
				observedGeneration: 1,
				conditions: [
					{ type: 'Ready', status: 'False', reason: 'AuthenticationFailed', message: '401' },
				],
			},
		};
		const graph = new ResourceGraph();
		graph.addRoot('ws', 'Workspace manifests');
		graph.setSourceObjects('ws', 'file:///repo.yaml', [{ object, line: 0 }]);
		const markdown = explainNodeMarkdown(graph, nodeOf(graph, object).id);
		assert.ok(
			markdown.includes('flux reconcile source helm x\\_\\[y\\]\\(command\\:z\\) \\-n team\\-a'),
			markdown,
		);
		assert.doesNotMatch(markdown, /\\<name\\>|\]\(command/);
	});

	it('links each file it was read from to its line, by its path in the workspace folder', () => {
		const graph = fleetGraph();
		const markdown = explainNodeMarkdown(graph, nodeOf(graph, gitRepo).id, inRepo);
		assert.match(markdown, /^- \[fleet\/dump\\\.yaml\\:\d+\]\(\/fleet\/dump\.yaml#L\d+\)$/m);
		assert.match(
			markdown,
			/^- \[fleet\/manifests\/gitrepo\\\.yaml\\:\d+\]\(\/fleet\/manifests\/gitrepo\.yaml#L\d+\)$/m,
		);
	});

	it('keeps a link target from closing the link or adding Markdown, and names a cluster without a link', () => {
		const object = {
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'GitRepository',
			metadata: { name: 'repo', namespace: 'flux-system' },
		};
		const graph = new ResourceGraph();
		graph.addRoot('ws', 'Workspace manifests');
		graph.setSourceObjects('ws', 'file:///repo/my dir/a)[x](command:evil).yaml', [
			{ object, line: 4, label: 'a)[x](command:evil).yaml' },
		]);
		graph.setSourceObjects('ws', 'live:ctx/gitrepositories', [{ object }]);
		const markdown = explainNodeMarkdown(graph, nodeOf(graph, object).id, inRepo);
		assert.ok(
			markdown.includes(
				'- [a\\)\\[x\\]\\(command\\:evil\\)\\.yaml\\:5](/my%20dir/a%29%5Bx%5D%28command%3Aevil%29.yaml#L5)',
			),
			markdown,
		);
		assert.match(markdown, /^- live\\:ctx\/gitrepositories$/m);
	});

	it('says a message several clusters share once, naming the clusters', () => {
		const graph = fleetGraph((objects) => {
			const failing = objects.find((object) => isBd(object, prodUs, 'shop-frontend'));
			const healthy = objects.find((object) => isBd(object, prodEu, 'shop-frontend'));
			assert.ok(failing && healthy);
			healthy.status = structuredClone(failing.status);
		});
		const bundle = {
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'Bundle',
			metadata: { name: 'shop-frontend', namespace: 'fleet-default' },
		};
		const markdown = explainNodeMarkdown(graph, nodeOf(graph, bundle, 'GitRepo').id);
		assert.match(markdown, /On 2 clusters: prod\\-eu\\-1, prod\\-us\\-1/, markdown);
		assert.equal(occurrences(markdown, 'must be less than or equal'), 1, markdown);
	});
});
