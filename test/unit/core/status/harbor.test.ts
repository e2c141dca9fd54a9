import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectTooltipMarkdown } from '../../../../src/core/explain/tooltip.ts';
import { computeHarborStatus, harborOverallStatusOf } from '../../../../src/core/status/harbor.ts';
import { computeStatus } from '../../../../src/core/status/registry.ts';

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

	it('is provisioning otherwise (the word kubectl get shows), naming the dependencies not yet True', () => {
		const result = computeHarborStatus(cluster({ StorageReady: 'True', DatabaseReady: 'Unknown' }));
		assert.equal(result.state, 'provisioning');
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

	it('keeps the word the operator writes, provisioning, and reads the docs word creating as it', () => {
		const written = computeHarborStatus(cluster({}, 'provisioning'));
		assert.deepEqual(
			[written.state, written.computed],
			['provisioning', { status: 'provisioning' }],
		);
		assert.ok(!written.reasons.some((reason) => reason.includes('stale')));
		assert.equal(computeHarborStatus(cluster({}, 'creating')).state, 'provisioning');
	});

	it('says in the tooltip that the operator docs call provisioning "creating"', () => {
		const object = cluster({ StorageReady: 'True' }, 'provisioning');
		const tooltip = objectTooltipMarkdown(object, computeStatus(object));
		assert.match(tooltip, /\*\*provisioning \\\(in progress\\\)\*\*/);
		assert.match(tooltip, /docs call this state "creating"/);
	});

	it('starts a HarborCluster without status in provisioning', () => {
		const result = computeHarborStatus({
			apiVersion: 'goharbor.io/v1beta1',
			kind: 'HarborCluster',
			metadata: { name: 'h' },
		});
		assert.deepEqual([result.state, result.observed], ['provisioning', false]);
		assert.deepEqual(result.computed, { status: 'provisioning' });
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

describe('Harbor (goharbor.io Harbor) status, as the HarborCluster controller reads it', () => {
	const harbor = (conditions: Record<string, string>) => ({
		apiVersion: 'goharbor.io/v1beta1',
		kind: 'Harbor',
		metadata: { name: 'harbor', namespace: 'h' },
		status: {
			conditions: Object.entries(conditions).map(([type, status]) => ({ type, status })),
		},
	});

	it('is Unknown with the operator message when neither Failed nor InProgress is there, even beside Ready=True', () => {
		const result = computeHarborStatus(harbor({ Ready: 'True' }));
		assert.deepEqual(
			[result.state, result.tone, result.message],
			[
				'Unknown',
				'progressing',
				'The ready condition of harbor.goharbor.io is empty. Please wait for minutes.',
			],
		);
	});

	it('is Ready when Failed and InProgress are there and neither is True', () => {
		const result = computeHarborStatus(harbor({ Failed: 'False', InProgress: 'False' }));
		assert.equal(result.state, 'Ready');
	});

	it('reads a component other than Harbor as before: no InProgress or Failed True is Ready', () => {
		const core = { ...harbor({ Ready: 'True' }), kind: 'Core' };
		assert.equal(computeHarborStatus(core).state, 'Ready');
	});
});
