// A first read puts many files into the graph in one update (setSourcesObjects): the graph must be the one built from
// scratch from the same files, and the update must report every row it changed, whatever the graph held before.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';
import {
	applyOperation,
	applyToTruth,
	canonical,
	checkChangedNodes,
	describeDifference,
	describeOperation,
	differences,
	factsOf,
	mulberry32,
	newTruth,
	observe,
	randomOperation,
	rebuild,
	universeOf,
	type Operation,
} from '../../../support/graphOperations.ts';

type SetSource = Extract<Operation, { op: 'setSourceObjects' }>;

/** Random operations first (what the graph held before), then several files of one root for one batch. */
function scenario(seed: number): { before: Operation[]; batch: SetSource[] } {
	const rand = mulberry32(seed);
	const truth = newTruth();
	const before: Operation[] = [];
	for (let index = 0; index < Math.floor(rand() * 30); index++) {
		const operation = randomOperation(rand, truth);
		applyToTruth(truth, operation);
		before.push(operation);
	}
	const batch: SetSource[] = [];
	for (let tries = 0; batch.length < 6 && tries < 400; tries++) {
		const operation = randomOperation(rand, truth);
		if (operation.op !== 'setSourceObjects') continue;
		if (batch[0] && operation.root !== batch[0].root) continue;
		applyToTruth(truth, operation);
		batch.push(operation);
	}
	return { before, batch };
}

it('files put into the graph in one update give the graph built from scratch, and report every changed row', () => {
	for (let seed = 1; seed <= 60; seed++) {
		const { before, batch } = scenario(seed);
		const graph = new ResourceGraph();
		const truth = newTruth();
		for (const operation of before) {
			applyOperation(graph, operation);
			applyToTruth(truth, operation);
		}
		const first = batch[0];
		assert.ok(first, `seed ${seed} drew no file`);
		const observed = observe(graph);
		const changes = graph.setSourcesObjects(
			first.root,
			batch.map((operation) => ({
				sourceId: operation.source,
				objects: structuredClone(operation.items),
			})),
		);
		for (const operation of batch) applyToTruth(truth, operation);
		const context = () =>
			`seed ${seed}, batch ${batch.map(describeOperation).join('; ')} after ${before.length} operations`;
		const violations = checkChangedNodes(observed, observe(graph), changes);
		assert.deepEqual(
			violations.map((violation) => violation.message),
			[],
			`${context()}: ${canonical(changes)}`,
		);
		const universe = universeOf(truth);
		const found = differences(factsOf(graph, universe), factsOf(rebuild(truth, seed), universe));
		assert.deepEqual(found.map(describeDifference), [], context());
	}
});
