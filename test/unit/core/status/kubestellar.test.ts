import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeKubestellarStatus } from '../../../../src/core/status/kubestellar.ts';

const policy = (status?: unknown, generation = 1) => ({
	apiVersion: 'control.kubestellar.io/v1alpha1',
	kind: 'BindingPolicy',
	metadata: { name: 'nginx', generation },
	spec: { clusterSelectors: [{ matchLabels: { location: 'edge' } }] },
	...(status === undefined ? {} : { status }),
});

const workStatus = (status: unknown, wec = 'cluster1') => ({
	apiVersion: 'control.kubestellar.io/v1alpha1',
	kind: 'WorkStatus',
	metadata: { name: 'uid-appsv1-deployment-default-nginx', namespace: wec },
	spec: {
		sourceRef: {
			group: 'apps',
			version: 'v1',
			resource: 'deployments',
			kind: 'Deployment',
			name: 'nginx',
			namespace: 'default',
		},
	},
	...(status === undefined ? {} : { status }),
});

/** A WEC's copy of a Deployment with every replica available. */
const availableCopy = {
	replicas: 2,
	updatedReplicas: 2,
	readyReplicas: 2,
	availableReplicas: 2,
	observedGeneration: 1,
	conditions: [{ type: 'Available', status: 'True' }],
};

describe('KubeStellar status', () => {
	it('is Ready when the generation is observed and there are no errors', () => {
		assert.equal(computeKubestellarStatus(policy({ observedGeneration: 1 })).state, 'Ready');
	});

	it('is Error with the controller error as message', () => {
		const result = computeKubestellarStatus(
			policy({
				observedGeneration: 1,
				errors: [
					'Singleton reported status return is requested but some objects have the wrong number of associated WECs',
				],
			}),
		);
		assert.equal(result.state, 'Error');
		assert.match(result.message, /^Singleton reported status/);
	});

	it('is Error when a condition is False', () => {
		assert.equal(
			computeKubestellarStatus(
				policy({
					observedGeneration: 1,
					conditions: [{ type: 'Synced', status: 'False', reason: 'X' }],
				}),
			).state,
			'Error',
		);
	});

	it('is Pending while the generation is not observed', () => {
		assert.equal(computeKubestellarStatus(policy({ observedGeneration: 1 }, 2)).state, 'Pending');
	});

	it('accepts the policies.kubestellar.io group of the proposal', () => {
		const object = {
			...policy({ observedGeneration: 1 }),
			apiVersion: 'policies.kubestellar.io/v1alpha1',
		};
		assert.equal(computeKubestellarStatus(object).state, 'Ready');
	});

	it('gives a WorkStatus the state of the WEC copy it carries', () => {
		const ready = workStatus(availableCopy);
		assert.equal(computeKubestellarStatus(ready).state, 'Current');
		const notReady = workStatus({
			replicas: 2,
			updatedReplicas: 2,
			readyReplicas: 1,
			availableReplicas: 1,
			observedGeneration: 1,
		});
		const result = computeKubestellarStatus(notReady);
		assert.equal(result.state, 'InProgress');
		assert.equal(result.tone, 'progressing');
	});

	it("does not compare the WDS generation (statusDetails.lastGeneration) with the WEC's observedGeneration", () => {
		const ready = {
			...workStatus(availableCopy),
			statusDetails: { lastGeneration: 4, lastGenerationIsApplied: true },
		};
		const result = computeKubestellarStatus(ready);
		assert.equal(result.state, 'Current');
		assert.doesNotMatch(result.message, /generation/);
		const behind = computeKubestellarStatus({
			...ready,
			statusDetails: { lastGeneration: 5, lastGenerationIsApplied: false },
		});
		assert.ok(
			behind.reasons.some((line) =>
				/has not applied generation 5 of the WDS object yet/.test(line),
			),
		);
	});

	it('uses the WDS workload spec when the caller knows it', () => {
		const copy = workStatus({
			replicas: 2,
			updatedReplicas: 2,
			readyReplicas: 2,
			availableReplicas: 2,
			conditions: [{ type: 'Available', status: 'True' }],
		});
		const result = computeKubestellarStatus(copy, () => ({ spec: { replicas: 3 } }));
		assert.equal(result.state, 'InProgress');
	});

	it('says a WorkStatus without status has not reported yet, naming the WEC', () => {
		const result = computeKubestellarStatus(workStatus(undefined, 'cluster3'));
		assert.equal(result.state, 'Pending');
		assert.match(result.message, /cluster3/);
	});
});
