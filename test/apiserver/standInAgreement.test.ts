// The demo's stand-in controllers compute what they write from the upstream controllers' code (fleetStatus.ts,
// kubestellarController.ts), not with the extension's engine. So the tree, which recomputes every Fleet parent from
// its children and says where the written status disagrees, is checked here against another implementation: on
// every step of the demo's Fleet story, and on BundleDeployments put in random states (seeded), no node of the tree
// may disagree with what the stand-in wrote, and each parent's state word is the one written.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ResourceGraph } from '../../src/core/tree/model.ts';
import type { TreeNode } from '../../src/core/tree/treeNode.ts';
import { demoExamplesFolder } from '../../src/apiserver/demo.ts';
import { demoClusters } from '../../src/apiserver/demoScenario.ts';
import { reconcileFleet } from '../../src/apiserver/fleetController.ts';
import { loadObjects, readObjects } from '../../src/apiserver/scenario.ts';
import { ObjectStore, type KubeObject } from '../../src/apiserver/store.ts';
import { mulberry32 } from '../support/graphOperations.ts';

function treeOf(store: ObjectStore): ResourceGraph {
	const graph = new ResourceGraph();
	graph.addRoot('demo', 'fleet-mgmt');
	const objects = store.types
		.filter((type) => type.group === 'fleet.cattle.io')
		.flatMap((type) => store.all(type));
	graph.setSourceObjects(
		'demo',
		'demo:fleet-mgmt',
		objects.map((object, index) => ({ object, line: index })),
	);
	return graph;
}

function allNodes(graph: ResourceGraph): TreeNode[] {
	const out: TreeNode[] = [];
	const walk = (nodes: readonly TreeNode[]): void => {
		for (const node of nodes) {
			out.push(node);
			walk(graph.children(node.id));
		}
	};
	walk(graph.roots());
	return out;
}

/** Every disagreement the tree finds between what the stand-in wrote and the children, as `label: words`. */
function disagreements(store: ObjectStore): string[] {
	return allNodes(treeOf(store))
		.filter((node) => node.disagreement !== undefined && node.disagreement !== '')
		.map((node) => `${node.label}: ${node.disagreement ?? ''}`);
}

function writtenState(object: KubeObject): string | undefined {
	const display = (object.status as { display?: { state?: string } } | undefined)?.display;
	return display?.state;
}

async function fleetStore(): Promise<ObjectStore> {
	const store = new ObjectStore({ now: () => new Date('2025-06-25T16:00:00Z') });
	const read = await readObjects([join(demoExamplesFolder, 'fleet-mgmt')]);
	assert.deepEqual(loadObjects(store, read.objects).problems, []);
	return store;
}

describe("the tree agrees with the Fleet stand-in's own implementation", () => {
	it('on every step of the demo story', async () => {
		const store = await fleetStore();
		const fleet = demoClusters.find((cluster) => cluster.name === 'fleet-mgmt');
		assert.ok(fleet);
		const steps = fleet.timeline(new Map([['fleet-mgmt', store]]));
		assert.ok(steps.length > 5);
		for (const step of steps) {
			if (step.action.kind !== 'run') continue;
			step.action.run(store);
			assert.deepEqual(disagreements(store), [], `after "${step.description ?? ''}"`);
		}
		// The story's end: the GitRepo's state word is the one the stand-in wrote.
		const gitRepoType = store.typeOf('fleet.cattle.io/v1alpha1', 'GitRepo');
		assert.ok(gitRepoType);
		const shop = store.get(gitRepoType, 'fleet-default', 'shop');
		assert.ok(shop);
		const node = allNodes(treeOf(store)).find(
			(candidate) => candidate.label === 'shop' && candidate.result !== undefined,
		);
		assert.equal(node?.result?.state, writtenState(shop) ?? 'Ready');
		// The comparison sees a difference when there is one: a count the stand-in did not write.
		const status = shop.status as { readyClusters: number };
		store.update(
			gitRepoType,
			'fleet-default',
			'shop',
			{ ...shop, status: { ...status, readyClusters: status.readyClusters + 1 } },
			{ subresource: 'status' },
		);
		assert.match(disagreements(store).join('\n'), /^shop: /m);
	});

	it('on the Fleet 0.16 dependency scene: tickets-api waits for tickets-db, then deploys once it is Ready', async () => {
		const store = await fleetStore();
		const fleet = demoClusters.find((cluster) => cluster.name === 'fleet-mgmt');
		assert.ok(fleet);
		const bdType = store.typeOf('fleet.cattle.io/v1alpha1', 'BundleDeployment');
		const bundleType = store.typeOf('fleet.cattle.io/v1alpha1', 'Bundle');
		assert.ok(bdType && bundleType);
		const localNamespace = 'cluster-fleet-local-local-1a3d67d0a899';
		const api = () => store.get(bdType, localNamespace, 'tickets-api');
		const apiBundle = () => store.get(bundleType, 'fleet-local', 'tickets-api');
		const deployed = () =>
			(api()?.status as { conditions?: { type: string; message?: string }[] }).conditions?.find(
				(condition) => condition.type === 'Deployed',
			);
		const seen: string[] = [];
		for (const step of fleet.timeline(new Map([['fleet-mgmt', store]]))) {
			if (step.action.kind !== 'run') continue;
			step.action.run(store);
			const bd = api();
			assert.ok(bd);
			seen.push(`${writtenState(bd) ?? ''} / ${writtenState(apiBundle() ?? bd) ?? ''}`);
			if (step.at === 0) {
				assert.equal(writtenState(bd), 'WaitingForDependency');
				assert.equal(
					deployed()?.message,
					'waiting for dependent bundle(s) to reach an accepted state: tickets-db (state: ErrApplied, accepted: Ready)',
				);
				// The Bundle's Ready message names it the way Fleet 0.16's ReadyMessage does.
				const ready = (
					apiBundle()?.status as { conditions?: { type: string; message?: string }[] }
				).conditions?.find((condition) => condition.type === 'Ready');
				assert.match(
					ready?.message ?? '',
					/^WaitingForDependency\(1\) \[Cluster fleet-local\/local: waiting for/,
				);
			}
			if (step.at === 30_000) {
				assert.match(deployed()?.message ?? '', /tickets-db \(state: NotReady, accepted: Ready\)$/);
			}
			assert.deepEqual(disagreements(store), [], `after "${step.description ?? ''}"`);
		}
		assert.equal(writtenState(api() ?? {}), 'Ready', seen.join('\n'));
		assert.equal(
			writtenState(apiBundle() ?? {}),
			undefined,
			'a Ready Bundle shows no display.state',
		);
	});

	it('on BundleDeployments in random states', async () => {
		const random = mulberry32(19);
		for (let round = 0; round < 12; round++) {
			const store = await fleetStore();
			const bdType = store.typeOf('fleet.cattle.io/v1alpha1', 'BundleDeployment');
			assert.ok(bdType);
			for (const bd of store.all(bdType)) {
				const status = { ...(bd.status as Record<string, unknown>) };
				const draw = random();
				if (draw < 0.2) status.ready = false;
				else if (draw < 0.3) status.appliedDeploymentID = 'an-older-one';
				else if (draw < 0.4) {
					status.appliedDeploymentID = 'an-older-one';
					status.conditions = [{ type: 'Deployed', status: 'False', message: `failed ${round}` }];
				} else if (draw < 0.45) {
					status.appliedDeploymentID = 'an-older-one';
					status.conditions = [
						{
							type: 'Deployed',
							status: 'False',
							reason: 'WaitingForDependency',
							message: `waiting for dependent bundle(s) to reach an accepted state: db${round} (state: NotReady, accepted: Ready)`,
						},
					];
				} else if (draw < 0.5) {
					status.nonModified = false;
					status.modifiedStatus = [
						{ kind: 'ConfigMap', apiVersion: 'v1', namespace: 'shop', name: 'config', patch: '{}' },
						{ kind: 'Secret', apiVersion: 'v1', namespace: 'shop', name: 'extra', delete: true },
					];
				} else if (draw < 0.6) {
					status.ready = false;
					status.nonReadyStatus = [
						{
							kind: 'Deployment',
							apiVersion: 'apps/v1',
							namespace: 'shop',
							name: 'frontend',
							summary: { state: 'updating', transitioning: true, message: ['rolling out'] },
						},
					];
				}
				store.update(
					bdType,
					(bd.metadata as { namespace: string }).namespace,
					(bd.metadata as { name: string }).name,
					{ ...bd, status } as KubeObject,
					{ subresource: 'status' },
				);
			}
			reconcileFleet(store, new Date('2025-06-25T16:00:00Z'));
			assert.deepEqual(disagreements(store), [], `round ${round}`);
		}
	});
});
