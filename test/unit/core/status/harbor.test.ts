import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeHarborStatus, harborOverallStatusOf } from '../../../../src/core/status/harbor.ts';

function cluster(
	conditions: Record<string, string>,
	written?: string,
	extra: Record<string, unknown> = {},
): Record<string, unknown> {
	return {
		apiVersion: 'goharbor.io/v1beta1',
		kind: 'HarborCluster',
		metadata: { name: 'harbor', namespace: 'h', generation: 4 },
		status: {
			observedGeneration: 4,
			...(written ? { status: written } : {}),
			conditions: Object.entries(conditions).map(([type, status]) => ({ type, status })),
			...extra,
		},
	};
}

const allTrue = {
	StorageReady: 'True',
	DatabaseReady: 'True',
	CacheReady: 'True',
	ServiceReady: 'True',
};

describe('Harbor status', () => {
	it('is healthy when all four dependency conditions are True', () => {
		assert.equal(harborOverallStatusOf(cluster(allTrue)), 'healthy');
		assert.equal(computeHarborStatus(cluster(allTrue)).tone, 'ok');
	});

	it('is unhealthy when any of the four is False', () => {
		const result = computeHarborStatus(cluster({ ...allTrue, CacheReady: 'False' }));
		assert.equal(result.state, 'unhealthy');
		assert.equal(result.tone, 'error');
		assert.match(result.message, /CacheReady/);
	});

	it('does not count ConfigurationReady', () => {
		const result = computeHarborStatus(cluster({ ...allTrue, ConfigurationReady: 'False' }));
		assert.equal(result.state, 'healthy');
		assert.ok(result.reasons.some((reason) => reason.includes('does not count')));
	});

	it('is creating otherwise, naming the dependencies not yet True', () => {
		const result = computeHarborStatus(cluster({ StorageReady: 'True', DatabaseReady: 'Unknown' }));
		assert.equal(result.state, 'creating');
		assert.equal(result.tone, 'progressing');
		assert.match(result.message, /DatabaseReady, CacheReady, ServiceReady/);
	});

	it('counts condition entries as the operator does: four True entries are healthy, before any False', () => {
		const duplicated = cluster({});
		(duplicated.status as { conditions: unknown[] }).conditions = [
			{ type: 'StorageReady', status: 'False' },
			{ type: 'StorageReady', status: 'True' },
			{ type: 'DatabaseReady', status: 'True' },
			{ type: 'CacheReady', status: 'True' },
			{ type: 'ServiceReady', status: 'True' },
		];
		assert.equal(harborOverallStatusOf(duplicated), 'healthy');
	});

	it('does not call every dependency ready when the operator wrote healthy but one is False', () => {
		const result = computeHarborStatus(cluster({ ...allTrue, StorageReady: 'False' }, 'healthy'));
		assert.equal(result.state, 'healthy');
		assert.equal(result.message, 'The operator reports healthy, but StorageReady is not True');
	});

	it('shows the operator word provisioning as creating', () => {
		assert.equal(computeHarborStatus(cluster({}, 'provisioning')).state, 'creating');
	});

	it('starts a HarborCluster without status in creating', () => {
		const result = computeHarborStatus({
			apiVersion: 'goharbor.io/v1beta1',
			kind: 'HarborCluster',
			metadata: { name: 'h' },
		});
		assert.deepEqual([result.state, result.observed], ['creating', false]);
		assert.deepEqual(result.computed, { status: 'creating' });
	});

	it('says so when the written status disagrees with the conditions', () => {
		const result = computeHarborStatus(cluster({ ...allTrue, StorageReady: 'False' }, 'healthy'));
		assert.equal(result.state, 'healthy');
		assert.deepEqual(result.computed, { status: 'unhealthy' });
		assert.ok(result.reasons.some((reason) => reason.includes('stale')));
	});

	it('ignores observedGeneration, which the operator bumps at the start of a reconcile', () => {
		const object = cluster(allTrue, 'healthy');
		(object.metadata as Record<string, unknown>).generation = 9;
		assert.equal(computeHarborStatus(object).state, 'healthy');
	});
});
