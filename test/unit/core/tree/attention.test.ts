import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attentionList } from '../../../../src/core/tree/attention.ts';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';

function kustomization(
	name: string,
	condition: { type?: string; status: string; reason: string; at: string },
	metadata: Record<string, unknown> = {},
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
					type: condition.type ?? 'Ready',
					status: condition.status,
					reason: condition.reason,
					message: `${name}: ${condition.reason}`,
					lastTransitionTime: condition.at,
				},
			],
		},
	};
}

const now = Date.parse('2026-11-24T12:00:00Z');

describe('the list of what needs attention', () => {
	const graph = new ResourceGraph();
	graph.addRoot('ws', 'Workspace manifests', 'file');
	graph.addRoot('live:platform', 'platform', 'live');
	graph.upsertObject(
		'ws',
		'a.yaml',
		kustomization('apps', { status: 'False', reason: 'BuildFailed', at: '2026-11-24T11:00:00Z' }),
	);
	graph.upsertObject(
		'ws',
		'b.yaml',
		kustomization('infra', { status: 'True', reason: 'Succeeded', at: '2026-11-24T08:00:00Z' }),
	);
	graph.upsertObject(
		'ws',
		'c.yaml',
		kustomization(
			'old',
			{ status: 'True', reason: 'Succeeded', at: '2026-11-24T08:00:00Z' },
			{
				deletionTimestamp: '2026-11-24T10:00:00Z',
				finalizers: ['finalizers.fluxcd.io'],
			},
		),
	);
	graph.upsertObject(
		'ws',
		'd.yaml',
		kustomization('slow', { status: 'Unknown', reason: 'Progressing', at: '2026-11-24T11:30:00Z' }),
	);
	graph.upsertObject(
		'live:platform',
		'kustomizations',
		kustomization('apps', {
			status: 'False',
			reason: 'HealthCheckFailed',
			at: '2026-11-24T09:00:00Z',
		}),
	);

	const list = attentionList(graph, now);

	it('lists errors first, the longest failing first, then stuck deletions, then what is progressing; never what is ready', () => {
		assert.deepEqual(
			list.map((item) => [item.urgency, item.label, item.rootId]),
			[
				['error', 'Kustomization apps', 'live:platform'],
				['error', 'Kustomization apps', 'ws'],
				['deleting', 'Kustomization old', 'ws'],
				['progressing', 'Kustomization slow', 'ws'],
			],
		);
	});

	it('names the root of each row and how long it has been so', () => {
		assert.match(list[0]?.description ?? '', /^Failed for 3 h\b.* · context platform$/);
		assert.match(list[1]?.description ?? '', /^Failed for 1 h\b.* · Workspace manifests$/);
		assert.match(list[2]?.description ?? '', /^being deleted for 2 h · Ready\b/);
	});

	it('keeps the root named when the state is long', () => {
		const long = new ResourceGraph();
		long.addRoot('live:edge', 'edge', 'live');
		long.upsertObject(
			'live:edge',
			'k',
			kustomization(
				'apps',
				{ status: 'False', reason: 'BuildFailed', at: '2026-11-24T11:00:00Z' },
				{ namespace: `team-${'n'.repeat(150)}` },
			),
		);
		const [item] = attentionList(long, now);
		assert.match(item?.description ?? '', /… · context edge$/);
	});

	it('does not say "being deleted" beside a state that already says Deleting', () => {
		const aso = new ResourceGraph();
		aso.addRoot('ws', 'Workspace manifests', 'file');
		aso.upsertObject('ws', 'v.yaml', {
			apiVersion: 'keyvault.azure.com/v1api20230701',
			kind: 'Vault',
			metadata: {
				name: 'old-vault',
				namespace: 'default',
				deletionTimestamp: '2026-11-24T10:00:00Z',
			},
			status: {
				conditions: [
					{
						type: 'Ready',
						status: 'False',
						severity: 'Info',
						reason: 'Deleting',
						message: 'Deleting resource',
						lastTransitionTime: '2026-11-24T10:00:00Z',
					},
				],
			},
		});
		const [item] = attentionList(aso, now);
		assert.equal(item?.urgency, 'deleting');
		assert.doesNotMatch(item?.description ?? '', /being deleted/);
		assert.match(item?.description ?? '', /^Deleting for 2 h\b/);
	});

	it('points each row at the object in the tree', () => {
		for (const item of list) {
			const node = graph.node(item.nodeId);
			assert.equal(node?.kind, 'object');
			assert.equal(node?.rootId, item.rootId);
		}
	});

	it('follows the objects: one fixed leaves the list', () => {
		graph.upsertObject(
			'live:platform',
			'kustomizations',
			kustomization('apps', { status: 'True', reason: 'Succeeded', at: '2026-11-24T11:59:00Z' }),
		);
		assert.deepEqual(
			attentionList(graph, now).map((item) => item.rootId + ' ' + item.label),
			['ws Kustomization apps', 'ws Kustomization old', 'ws Kustomization slow'],
		);
	});
});
