import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeAsoStatus } from '../../../../src/core/status/aso.ts';

function resource(
	ready?: Record<string, unknown>,
	generation = 1,
	extra: Record<string, unknown> = {},
): Record<string, unknown> {
	return {
		apiVersion: 'resources.azure.com/v1api20200601',
		kind: 'ResourceGroup',
		metadata: { name: 'rg', namespace: 'default', generation, ...extra },
		spec: { location: 'westus' },
		...(ready ? { status: { conditions: [{ type: 'Ready', ...ready }] } } : {}),
	};
}

describe('ASO status', () => {
	it('takes the state from the Ready reason', () => {
		const result = computeAsoStatus(
			resource({ status: 'True', reason: 'Succeeded', observedGeneration: 1 }),
		);
		assert.deepEqual([result.state, result.tone], ['Succeeded', 'ok']);
	});

	it('maps severities Error, Warning and Info to error, warning and progressing', () => {
		const tones = ['Error', 'Warning', 'Info'].map(
			(severity) =>
				computeAsoStatus(
					resource({ status: 'False', severity, reason: 'SomeAzureCode', message: 'm' }),
				).tone,
		);
		assert.deepEqual(tones, ['error', 'warning', 'progressing']);
	});

	it('uses an Azure error code reason as the state', () => {
		const result = computeAsoStatus(
			resource({
				status: 'False',
				severity: 'Error',
				reason: 'InvalidResourceGroupLocation',
				message: 'bad location',
			}),
		);
		assert.equal(result.state, 'InvalidResourceGroupLocation');
		assert.equal(result.message, 'bad location');
	});

	it('keeps the severity tone whatever the reason: Warning while Reconciling or Deleting is a warning', () => {
		const tones = ['Reconciling', 'Deleting'].map(
			(reason) => computeAsoStatus(resource({ status: 'False', severity: 'Warning', reason })).tone,
		);
		assert.deepEqual(tones, ['warning', 'warning']);
	});

	it('names a severity that is not one of Error, Warning or Info rather than calling it missing', () => {
		const result = computeAsoStatus(
			resource({ status: 'False', severity: 'Critical', reason: 'X' }),
		);
		assert.equal(result.tone, 'warning');
		assert.ok(result.reasons.some((reason) => reason.includes('"Critical", which is not one of')));
	});

	it('treats Ready False without severity as a warning and says the severity is missing', () => {
		const result = computeAsoStatus(resource({ status: 'False', reason: 'Oops' }));
		assert.equal(result.tone, 'warning');
		assert.ok(result.reasons.some((reason) => reason.includes('severity is missing')));
	});

	it('says the operator has not seen a resource without a Ready condition', () => {
		const result = computeAsoStatus(resource());
		assert.equal(result.state, 'Unknown');
		assert.equal(result.observed, false);
		assert.match(result.message, /not seen/);
	});

	it('flags a Ready condition older than the spec as stale', () => {
		const result = computeAsoStatus(
			resource({ status: 'True', reason: 'Succeeded', observedGeneration: 1 }, 3),
		);
		assert.equal(result.tone, 'progressing');
		assert.match(result.reasons[0] ?? '', /Stale/);
	});

	it('reads v1 provisioning flags', () => {
		const v1 = (status: Record<string, unknown>) =>
			computeAsoStatus({
				apiVersion: 'azure.microsoft.com/v1alpha1',
				kind: 'StorageAccount',
				metadata: { name: 's' },
				status,
			});
		assert.deepEqual(
			[
				v1({ failedProvisioning: true, message: 'quota' }).tone,
				v1({ failedProvisioning: true, message: 'quota' }).message,
			],
			['error', 'quota'],
		);
		assert.equal(v1({ provisioning: true }).state, 'Provisioning');
		assert.equal(v1({ provisioned: true, state: 'Succeeded' }).tone, 'ok');
	});

	it('reads v2 alpha state annotations', () => {
		const result = computeAsoStatus(
			resource(undefined, 1, {
				annotations: {
					'resource-state.infra.azure.com': 'Failed',
					'resource-error.infra.azure.com': 'quota exceeded',
				},
			}),
		);
		assert.deepEqual(
			[result.state, result.tone, result.message],
			['Failed', 'error', 'quota exceeded'],
		);
	});
});
