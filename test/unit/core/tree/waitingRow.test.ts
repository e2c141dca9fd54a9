// A row whose object waits for another says so ("waiting for Kustomization infra"); the tooltip has the whole words.
// The row's flag and inline action are checked in the extension host (test/integration/suite/waitingRows.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectTooltipMarkdown } from '../../../../src/core/explain/tooltip.ts';
import { computeStatus } from '../../../../src/core/status/registry.ts';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';
import { descriptionAt } from '../../../../src/core/tree/presentation.ts';
import type { TreeNode } from '../../../../src/core/tree/treeNode.ts';
import { waitingOfNode } from '../../../../src/core/tree/waiting.ts';

const at = '2026-11-24T10:00:00Z';
const now = Date.parse(at) + 5 * 60_000;

function kustomization(
	name: string,
	namespace: string,
	spec: Record<string, unknown>,
	ready: { status: string; reason: string; message: string },
): Record<string, unknown> {
	return {
		apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
		kind: 'Kustomization',
		metadata: { name, namespace, generation: 1 },
		spec: { interval: '5m', sourceRef: { kind: 'GitRepository', name: 'platform' }, ...spec },
		status: {
			observedGeneration: 1,
			conditions: [{ type: 'Ready', lastTransitionTime: at, ...ready }],
		},
	};
}

const gitRepository = {
	apiVersion: 'source.toolkit.fluxcd.io/v1',
	kind: 'GitRepository',
	metadata: { name: 'platform', namespace: 'flux-system', generation: 1 },
	spec: { url: 'https://example.com/platform.git', interval: '1m' },
	status: {
		observedGeneration: 1,
		conditions: [
			{
				type: 'Ready',
				status: 'False',
				reason: 'GitOperationFailed',
				message: 'failed to checkout and determine revision: authentication required',
				lastTransitionTime: at,
			},
		],
	},
};

const waitingApps = kustomization(
	'apps',
	'flux-system',
	{ dependsOn: [{ name: 'infra' }] },
	{
		status: 'False',
		reason: 'DependencyNotReady',
		message: "dependency 'flux-system/infra' is not ready",
	},
);
const failingInfra = kustomization(
	'infra',
	'flux-system',
	{},
	{ status: 'False', reason: 'ArtifactFailed', message: 'Source artifact not found' },
);
const readyWeb = kustomization(
	'web',
	'flux-system',
	{},
	{ status: 'True', reason: 'ReconciliationSucceeded', message: 'Applied revision: main@sha1:abc' },
);
const orphan = kustomization(
	'shop',
	'flux-system',
	{ dependsOn: [{ name: 'gone' }] },
	{
		status: 'False',
		reason: 'DependencyNotReady',
		message: "dependency 'flux-system/gone' not found",
	},
);

function graphOf(objects: readonly unknown[]): ResourceGraph {
	const graph = new ResourceGraph();
	graph.addRoot('ws', 'workspace', 'file');
	objects.forEach((object, index) => graph.upsertObject('ws', `f${index}.yaml`, object));
	return graph;
}

function rowNamed(graph: ResourceGraph, name: string): TreeNode | undefined {
	const visit = (id: string | undefined): TreeNode | undefined => {
		for (const node of graph.children(id)) {
			if (node.kind === 'object' && node.ref?.name === name) return node;
			const found = visit(node.id);
			if (found) return found;
		}
		return undefined;
	};
	return visit(undefined);
}

describe('"waiting for" on a row', () => {
	const graph = graphOf([gitRepository, waitingApps, failingInfra, readyWeb, orphan]);

	it('leads the row with what the object waits for, short: the kind and namespace it shares left out', () => {
		const row = rowNamed(graph, 'apps');
		assert.ok(row);
		const waiting = waitingOfNode(graph, row);
		assert.ok(waiting);
		assert.equal(waiting.rowWords, 'waiting for infra');
		assert.equal(waiting.words, 'waiting for Kustomization flux-system/infra');
		assert.equal(waiting.targetKey, 'kustomize.toolkit.fluxcd.io|Kustomization|flux-system|infra');
		const description = descriptionAt(row, now, { waiting: waiting.rowWords });
		assert.equal(description, 'waiting for infra · Failed · flux-system');
	});

	it('puts the name first and the kind after it when the object waits for another kind', () => {
		const row = rowNamed(graph, 'infra');
		assert.ok(row);
		const waiting = waitingOfNode(graph, row);
		assert.ok(waiting);
		// What a 300 px side bar cuts is the end: the name stays in view.
		assert.equal(waiting.rowWords, 'waiting for platform (GitRepository)');
		assert.equal(waiting.words, 'waiting for GitRepository flux-system/platform');
	});

	it('leaves ready rows and rows that wait on nothing as they were', () => {
		const ready = rowNamed(graph, 'web');
		assert.ok(ready);
		assert.equal(waitingOfNode(graph, ready), undefined);
		const source = rowNamed(graph, 'platform');
		assert.ok(source);
		assert.equal(waitingOfNode(graph, source), undefined);
	});

	it('names a dependency that is not there as missing', () => {
		const row = rowNamed(graph, 'shop');
		assert.ok(row);
		const waiting = waitingOfNode(graph, row);
		assert.ok(waiting);
		assert.match(waiting.rowWords, /^waiting for gone\b.*missing/);
	});

	it('cuts long words on the row with "…" and keeps them whole in the tooltip, escaped', () => {
		const row = rowNamed(graph, 'apps');
		assert.ok(row);
		const long = `waiting for Kustomization ${'x'.repeat(80)}`;
		const description = descriptionAt(row, now, { waiting: long });
		assert.ok(description.includes(`${long.slice(0, 60)}…`), description);
		assert.ok(!description.includes(long));
		const tooltip = objectTooltipMarkdown(
			waitingApps,
			computeStatus(waitingApps),
			[],
			now,
			undefined,
			undefined,
			'waiting for Kustomization flux-system/infra_*x*',
		);
		assert.ok(tooltip.includes('Waiting for Kustomization flux\\-system/infra\\_\\*x\\*'), tooltip);
	});
});
