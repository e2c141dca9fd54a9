// An object being deleted keeps its system's state word; the row and the tooltip say since when it is being
// deleted and which finalizers hold it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { terminatingWords, terminationOf } from '../../../../src/core/explain/termination.ts';
import { objectTooltipMarkdown } from '../../../../src/core/explain/tooltip.ts';
import { computeStatus } from '../../../../src/core/status/registry.ts';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';
import { descriptionAt } from '../../../../src/core/tree/presentation.ts';
import type { TreeNode } from '../../../../src/core/tree/treeNode.ts';

const deletedAt = '2026-11-24T10:00:00Z';
const at = Date.parse(deletedAt);
const threeHoursLater = at + 3 * 3_600_000 + 60_000;

function kustomization(
	name: string,
	metadata: Record<string, unknown>,
	ready: 'True' | 'False' = 'True',
): Record<string, unknown> {
	return {
		apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
		kind: 'Kustomization',
		metadata: { name, namespace: 'flux-system', generation: 1, ...metadata },
		spec: { interval: '5m' },
		status: {
			observedGeneration: 1,
			conditions: [
				{
					type: 'Ready',
					status: ready,
					reason: ready === 'True' ? 'ReconciliationSucceeded' : 'BuildFailed',
					message: ready === 'True' ? 'Applied revision: main@sha1:abc' : 'kustomize build failed',
					lastTransitionTime: '2026-11-24T09:00:00Z',
				},
			],
		},
	};
}

function rowNamed(graph: ResourceGraph, name: string): TreeNode | undefined {
	const visit = (id: string | undefined): TreeNode | undefined => {
		for (const node of graph.children(id)) {
			if (node.ref?.name === name) return node;
			const found = visit(node.id);
			if (found) return found;
		}
		return undefined;
	};
	return visit(undefined);
}

describe('Terminating words', () => {
	it('reads deletionTimestamp and the finalizers as listed, and nothing for an object not being deleted', () => {
		const termination = terminationOf({
			metadata: { deletionTimestamp: deletedAt, finalizers: ['a', 'b'] },
		});
		assert.deepEqual(termination, {
			deletionTimestamp: deletedAt,
			since: at,
			finalizers: ['a', 'b'],
		});
		assert.equal(terminationOf({ metadata: { finalizers: ['a'] } }), undefined);
		assert.equal(terminationOf({}), undefined);
	});

	it('says the age from deletionTimestamp to now and the finalizers; without finalizers just the age', () => {
		const withFinalizers = terminationOf({
			metadata: { deletionTimestamp: deletedAt, finalizers: ['a', 'b'] },
		});
		assert.ok(withFinalizers);
		assert.equal(
			terminatingWords(withFinalizers, threeHoursLater),
			'Terminating 3 h · finalizers: a, b',
		);
		const bare = terminationOf({ metadata: { deletionTimestamp: deletedAt } });
		assert.ok(bare);
		assert.equal(terminatingWords(bare, threeHoursLater), 'Terminating 3 h');
		assert.equal(terminatingWords(bare, undefined), 'Terminating');
		const unreadable = terminationOf({ metadata: { deletionTimestamp: 'yesterday' } });
		assert.ok(unreadable);
		assert.equal(terminatingWords(unreadable, threeHoursLater), 'Terminating');
	});

	it('cuts a long finalizer list with "…" when asked (a row), and keeps it whole otherwise (a tooltip)', () => {
		const finalizers = [
			'finalizers.fluxcd.io',
			'kustomize.toolkit.fluxcd.io/finalizer',
			'example.com/cleanup',
		];
		const termination = terminationOf({ metadata: { deletionTimestamp: deletedAt, finalizers } });
		assert.ok(termination);
		const row = terminatingWords(termination, threeHoursLater, 40);
		assert.match(
			row,
			/^Terminating 3 h · finalizers: finalizers\.fluxcd\.io, kustomize\.toolkit.*…$/,
		);
		assert.ok(!row.includes('example.com'));
		assert.equal(
			terminatingWords(termination, threeHoursLater),
			`Terminating 3 h · finalizers: ${finalizers.join(', ')}`,
		);
	});
});

describe('a Terminating row', () => {
	const graph = new ResourceGraph();
	graph.addRoot('ws', 'workspace', 'file');
	graph.upsertObject(
		'ws',
		'a.yaml',
		kustomization('apps', { deletionTimestamp: deletedAt, finalizers: ['finalizers.fluxcd.io'] }),
	);
	graph.upsertObject(
		'ws',
		'b.yaml',
		kustomization('infra', { deletionTimestamp: deletedAt }, 'False'),
	);
	graph.upsertObject('ws', 'c.yaml', kustomization('plain', {}));

	it('keeps the state word first and adds "Terminating 3 h · finalizers: …" after it', () => {
		const row = rowNamed(graph, 'apps');
		assert.ok(row);
		assert.equal(
			descriptionAt(row, threeHoursLater),
			'Ready · Terminating 3 h · finalizers: finalizers.fluxcd.io · flux-system',
		);
	});

	it('says "Deleting for 3 h", not "Deleting · Terminating 3 h", after a state word that says it already', () => {
		const deletingGraph = new ResourceGraph();
		deletingGraph.addRoot('ws', 'Workspace', 'file');
		deletingGraph.upsertObject('ws', 'vault.yaml', {
			apiVersion: 'keyvault.azure.com/v1api20230701',
			kind: 'Vault',
			metadata: {
				name: 'team-vault',
				namespace: 'team-a',
				deletionTimestamp: deletedAt,
				finalizers: ['serviceoperator.azure.com/finalizer'],
			},
			status: {
				conditions: [
					{ type: 'Ready', status: 'False', severity: 'Info', reason: 'Deleting', message: '' },
				],
			},
		});
		const row = rowNamed(deletingGraph, 'team-vault');
		assert.ok(row);
		assert.match(
			descriptionAt(row, threeHoursLater),
			/^Deleting for 3 h · finalizers: serviceoperator\.azure\.com\/finalizer/,
		);
		assert.doesNotMatch(descriptionAt(row, threeHoursLater), /Terminating/);
	});

	it('leaves out the age of a failing state for them, and leaves a row not being deleted alone', () => {
		const failing = rowNamed(graph, 'infra');
		assert.ok(failing);
		assert.equal(descriptionAt(failing, threeHoursLater), 'Failed · Terminating 3 h · flux-system');
		const plain = rowNamed(graph, 'plain');
		assert.ok(plain);
		assert.equal(descriptionAt(plain, threeHoursLater), 'Ready · flux-system');
	});

	it('says it in the tooltip too, with the finalizers whole and escaped', () => {
		const object = kustomization('apps', {
			deletionTimestamp: deletedAt,
			finalizers: ['finalizers.fluxcd.io', '*bold*[link](x)'],
		});
		const tooltip = objectTooltipMarkdown(object, computeStatus(object), [], threeHoursLater);
		assert.match(
			tooltip,
			/Terminating 3 h · finalizers\\: finalizers\\\.fluxcd\\\.io, \\\*bold\\\*\\\[link\\\]\\\(x\\\)/,
		);
		const plain = kustomization('plain', {});
		assert.ok(
			!objectTooltipMarkdown(plain, computeStatus(plain), [], threeHoursLater).includes(
				'Terminating',
			),
		);
	});
});
