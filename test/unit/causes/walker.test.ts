// The walker: down to the root cause, a dependency cycle named as such, a bound on the length; and the two worlds
// (the graph's root, a plain array) giving the same chains on the example workspace.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	causeChainOf,
	waitingForOf,
	worldFromGraph,
	worldFromObjects,
	type CauseRef,
} from '../../../src/core/causes/causeChain.ts';
import { ResourceGraph } from '../../../src/core/tree/model.ts';
import {
	dependencyNotReady,
	exampleGraph,
	exampleObjects,
	kustomization,
	source,
} from './fixtures.ts';

const ks = (name: string): CauseRef => ({
	group: 'kustomize.toolkit.fluxcd.io',
	kind: 'Kustomization',
	namespace: 'flux-system',
	name,
});

function waitingOn(name: string, dependency: string) {
	return kustomization(
		name,
		{ dependsOn: [{ name: dependency }] },
		dependencyNotReady('flux-system', dependency),
	);
}

void describe('the cause walker', () => {
	void it('names a dependency cycle as such', () => {
		const world = worldFromObjects([
			source('GitRepository', 'flux-system'),
			waitingOn('a', 'b'),
			waitingOn('b', 'c'),
			waitingOn('c', 'b'),
		]);
		const chain = causeChainOf(world, ks('a'));
		assert.ok(chain?.end.kind === 'cycle');
		assert.equal(
			chain.end.words,
			'dependency cycle: Kustomization flux-system/b -> Kustomization flux-system/c -> Kustomization flux-system/b',
		);
		assert.equal(
			chain.sentence,
			'Kustomization flux-system/a waits on a dependency cycle: Kustomization flux-system/b -> Kustomization flux-system/c -> Kustomization flux-system/b',
		);
		assert.deepEqual(
			chain.end.cycle.map((ref) => ref.name),
			['b', 'c', 'b'],
		);
	});

	void it('names an object that depends on itself', () => {
		const world = worldFromObjects([source('GitRepository', 'flux-system'), waitingOn('a', 'a')]);
		const chain = causeChainOf(world, ks('a'));
		assert.ok(chain?.end.kind === 'cycle');
		assert.equal(
			chain.end.words,
			'dependency cycle: Kustomization flux-system/a -> Kustomization flux-system/a',
		);
	});

	void it('stops at 16 steps and says the chain goes on', () => {
		const objects: unknown[] = [source('GitRepository', 'flux-system')];
		for (let index = 0; index < 30; index++) objects.push(waitingOn(`k${index}`, `k${index + 1}`));
		objects.push(
			kustomization('k30', {}, { status: 'False', reason: 'BuildFailed', message: 'bad' }),
		);
		const chain = causeChainOf(worldFromObjects(objects), ks('k0'));
		assert.equal(chain?.steps.length, 16);
		assert.deepEqual(chain?.end, { kind: 'depth', limit: 16 });
		assert.match(chain?.sentence ?? '', /, and more: the chain goes on beyond 16 steps$/);
	});

	void it('reports a missing source only when the object says it waits for its source', () => {
		const world = worldFromObjects([
			kustomization(
				'infra',
				{ sourceRef: { kind: 'GitRepository', name: 'platform' } },
				{
					status: 'False',
					reason: 'ArtifactFailed',
					message: 'Source artifact not found, retrying in 30s',
				},
			),
			kustomization(
				'apps',
				{ sourceRef: { kind: 'GitRepository', name: 'platform' } },
				{ status: 'False', reason: 'BuildFailed', message: 'kustomize build failed' },
			),
		]);
		const infra = causeChainOf(world, ks('infra'));
		assert.ok(infra?.end.kind === 'missing');
		assert.equal(infra.end.words, 'GitRepository flux-system/platform does not exist');
		assert.equal(causeChainOf(world, ks('apps')), undefined, 'it fails on its own');
	});

	void it('says nothing for a ready object, or one that is not there', () => {
		const world = worldFromObjects([
			source('GitRepository', 'flux-system'),
			kustomization('apps', {}),
		]);
		assert.equal(causeChainOf(world, ks('apps')), undefined);
		assert.equal(causeChainOf(world, ks('gone')), undefined);
		assert.equal(waitingForOf(world, ks('gone')), undefined);
	});
});

void describe('the worlds', () => {
	const starts: CauseRef[] = [
		ks('apps'),
		{ group: 'helm.toolkit.fluxcd.io', kind: 'HelmRelease', namespace: 'apps', name: 'frontend' },
		{ group: 'fleet.cattle.io', kind: 'Bundle', namespace: 'fleet-local', name: 'tickets-api' },
		{ group: 'fleet.cattle.io', kind: 'GitRepo', namespace: 'fleet-local', name: 'tickets' },
		{ group: 'fleet.cattle.io', kind: 'Bundle', namespace: 'fleet-default', name: 'shop-frontend' },
	];

	void it('give the same chains from a graph root as from the objects read together', () => {
		const fromGraph = worldFromGraph(exampleGraph(), 'ws');
		const fromObjects = worldFromObjects(exampleObjects().map((entry) => entry.object));
		for (const ref of starts) {
			assert.deepEqual(causeChainOf(fromGraph, ref), causeChainOf(fromObjects, ref), ref.name);
			assert.deepEqual(waitingForOf(fromGraph, ref), waitingForOf(fromObjects, ref), ref.name);
		}
		assert.ok(causeChainOf(fromGraph, ks('apps')), 'the example Kustomization waits');
	});

	void it('read the graph as it is now: a fixed source ends the wait', () => {
		const graph = new ResourceGraph();
		const failing = source('GitRepository', 'platform', {
			reason: 'GitOperationFailed',
			message: 'unable to clone: authentication required',
		});
		graph.setSourceObjects('ws', 'flux.yaml', [
			{ object: source('GitRepository', 'flux-system') },
			{ object: failing },
			{
				object: kustomization(
					'infra',
					{ sourceRef: { kind: 'GitRepository', name: 'platform' } },
					{ status: 'False', reason: 'ArtifactFailed', message: 'Source artifact not found' },
				),
			},
			{ object: waitingOn('apps', 'infra') },
		]);
		const world = worldFromGraph(graph, 'ws');
		assert.match(
			causeChainOf(world, ks('apps'))?.sentence ?? '',
			/cannot fetch: authentication required$/,
		);
		graph.upsertObject('ws', 'flux.yaml', source('GitRepository', 'platform'));
		assert.equal(
			causeChainOf(world, ks('apps'))?.sentence,
			'Kustomization flux-system/apps waits for Kustomization flux-system/infra, which is Failed: Source artifact not found',
		);
	});
});
