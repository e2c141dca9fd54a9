// What a user reads on a row, in a group's tooltip and in the palette's object picker: the state before anything a
// narrow side bar cuts, counts that count objects, and where each object to pick comes from.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';
import { objectPicksOf } from '../../../../src/core/tree/objectPicks.ts';
import { groupCountsSentence } from '../../../../src/core/tree/presentation.ts';
import type { TreeNode } from '../../../../src/core/tree/treeNode.ts';
import { gitRepo, kustomization, readyCondition } from '../../../support/objects.ts';

const longName = 'payments-platform-production-eu-west-kustomization';

function stalledKustomization(name: string) {
	return kustomization(name, {
		status: {
			observedGeneration: 1,
			conditions: [
				{
					type: 'Ready',
					status: 'False',
					reason: 'BuildFailed',
					message: 'kustomize build failed',
				},
				{
					type: 'Stalled',
					status: 'True',
					reason: 'BuildFailed',
					message: 'kustomize build failed',
				},
			],
		},
	});
}

const updatingRepo = gitRepo('shop', {
	status: {
		gitJobStatus: 'InProgress',
		readyClusters: 1,
		desiredReadyClusters: 3,
		conditions: [readyCondition('False', 'GitUpdating')],
	},
});

function graphWith(objects: readonly unknown[]): ResourceGraph {
	const graph = new ResourceGraph();
	graph.addRoot('ws', 'Workspace manifests');
	graph.setSourceObjects(
		'ws',
		'file:///ws/objects.yaml',
		objects.map((object, index) => ({ object, line: index * 20, label: 'objects.yaml' })),
	);
	return graph;
}

/** The first object row of each category, depth first. */
function objectRows(graph: ResourceGraph): TreeNode[] {
	const rows: TreeNode[] = [];
	const visit = (nodes: readonly TreeNode[]): void => {
		for (const node of nodes) {
			if (node.kind === 'object') rows.push(node);
			visit(graph.children(node.id));
		}
	};
	visit(graph.roots());
	return rows;
}

describe('a row a narrow side bar cuts after a few words', () => {
	it('is labelled by the name and starts its description with the state; the namespace comes last', () => {
		const graph = graphWith([stalledKustomization(longName), updatingRepo]);
		const [kustomizationRow, repoRow] = [longName, 'shop'].map((name) => {
			const row = objectRows(graph).find((node) => node.ref?.name === name);
			assert.ok(row, name);
			return row;
		});
		assert.equal(kustomizationRow?.label, longName);
		assert.match(kustomizationRow?.description ?? '', /^Stalled\b/);
		assert.match(kustomizationRow?.description ?? '', / · flux-system$/);
		assert.equal(repoRow?.label, 'shop');
		assert.match(repoRow?.description ?? '', /^GitUpdating · 1\/3 clusters · fleet-default$/);
	});
});

describe('the count sentence of a group tooltip', () => {
	it('counts the objects a system or category holds, and adds nothing to a root that already counts them', () => {
		const graph = graphWith([stalledKustomization('apps'), stalledKustomization('infra')]);
		const [root] = graph.roots();
		assert.ok(root);
		assert.match(root.description, /^2 objects · 2 in error$/);
		// The root's children are system groups: counting them read "1 item(s): 0 ready, 1 with problems".
		assert.equal(groupCountsSentence(root), undefined);
		const [flux] = graph.children(root.id);
		assert.ok(flux);
		assert.equal(groupCountsSentence(flux), '2 objects: 0 ready, 2 with problems');
		const [category] = graph.children(flux.id);
		assert.ok(category);
		assert.equal(groupCountsSentence(category), '2 objects: 0 ready, 2 with problems');
	});

	it('accounts for every object, naming the suspended ones too', () => {
		const suspended = kustomization('paused', {
			spec: { interval: '5m', path: './apps', prune: true, suspend: true },
			status: {
				observedGeneration: 1,
				conditions: [readyCondition('True', 'ReconciliationSucceeded')],
			},
		});
		const graph = graphWith([stalledKustomization('apps'), suspended]);
		const [root] = graph.roots();
		const [flux] = graph.children(root?.id ?? '');
		assert.ok(flux);
		assert.equal(groupCountsSentence(flux), '2 objects: 0 ready, 1 suspended, 1 with problems');
	});
});

describe('the object picker of a command run from the palette', () => {
	it('groups the objects by root and says which file or context each comes from', () => {
		const graph = graphWith([updatingRepo]);
		graph.addRoot('kind-dev', 'kind-dev', 'live');
		graph.upsertObject('kind-dev', 'watch:gitrepos', updatingRepo);
		const groups = objectPicksOf(graph);
		assert.deepEqual(
			groups.map((group) => group.title),
			['Workspace manifests', 'kind-dev (live context)'],
		);
		assert.deepEqual(
			groups.map((group) => group.picks.map((pick) => [pick.label, pick.description])),
			[
				[['fleet-default/shop', 'GitRepo · objects.yaml:1 · GitUpdating · 1/3 clusters']],
				[['fleet-default/shop', 'GitRepo · context kind-dev · GitUpdating · 1/3 clusters']],
			],
		);
		assert.equal(graph.node(groups[1]?.picks[0]?.id ?? '')?.rootId, 'kind-dev');
	});
});
