import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeFluxStatus } from '../../../../src/core/status/flux.ts';

function helmRepository(
	spec: Record<string, unknown>,
	status?: unknown,
	generation = 1,
): Record<string, unknown> {
	const object: Record<string, unknown> = {
		apiVersion: 'source.toolkit.fluxcd.io/v1',
		kind: 'HelmRepository',
		metadata: { name: 'podinfo', namespace: 'flux-system', generation },
		spec,
	};
	if (status !== undefined) object.status = status;
	return object;
}

const readyTrue = {
	type: 'Ready',
	status: 'True',
	reason: 'Succeeded',
	message: 'stored artifact',
};

describe('Flux status', () => {
	it('is Ready when Ready is True and the generation is observed', () => {
		const result = computeFluxStatus(
			helmRepository({ url: 'https://x' }, { observedGeneration: 1, conditions: [readyTrue] }),
		);
		assert.equal(result.state, 'Ready');
		assert.equal(result.tone, 'ok');
		assert.equal(result.message, 'stored artifact');
	});

	it('puts Stalled before Suspended and Failed', () => {
		const result = computeFluxStatus(
			helmRepository(
				{ url: 'ftp://x', suspend: true },
				{
					conditions: [
						{
							type: 'Stalled',
							status: 'True',
							reason: 'URLInvalid',
							message: 'scheme not supported',
						},
						{
							type: 'Ready',
							status: 'False',
							reason: 'URLInvalid',
							message: 'scheme not supported',
						},
					],
				},
			),
		);
		assert.equal(result.state, 'Stalled');
		assert.equal(result.tone, 'error');
		assert.equal(result.message, 'scheme not supported');
	});

	it('shows a suspended repository that failed as Suspended and still failing, as flux get does (SUSPENDED True, READY False)', () => {
		const result = computeFluxStatus(
			helmRepository(
				{ url: 'https://x', suspend: true },
				{
					conditions: [
						{
							type: 'Ready',
							status: 'False',
							reason: 'Failed',
							message: 'failed to fetch index: 404',
						},
					],
				},
			),
		);
		assert.equal(result.state, 'Suspended');
		assert.equal(result.tone, 'error', 'the failure is not hidden by suspending');
		assert.equal(result.message, 'Failed: failed to fetch index: 404');
		assert.ok(result.reasons.some((reason) => /spec\.suspend is true/.test(reason)));
		assert.ok(result.reasons.some((reason) => /Ready is False \(Failed\)/.test(reason)));
	});

	it('shows a suspended repository that was ready as a grey Suspended', () => {
		const result = computeFluxStatus(
			helmRepository({ url: 'https://x', suspend: true }, { conditions: [readyTrue] }),
		);
		assert.equal(result.state, 'Suspended');
		assert.equal(result.tone, 'suspended');
	});

	it('ignores spec.suspend on an oci repository, where it does not apply', () => {
		const result = computeFluxStatus(
			helmRepository({ type: 'oci', url: 'oci://x', suspend: true }),
		);
		assert.equal(result.state, 'Ready');
		assert.equal(result.observed, false);
		assert.ok(result.reasons.some((reason) => reason.includes('does not apply')));
	});

	it('reports Failed with FetchFailed and says it is retrying on ProgressingWithRetry', () => {
		const result = computeFluxStatus(
			helmRepository(
				{ url: 'https://x' },
				{
					conditions: [
						{ type: 'Reconciling', status: 'True', reason: 'ProgressingWithRetry' },
						{
							type: 'FetchFailed',
							status: 'True',
							reason: 'AuthenticationFailed',
							message: '401 Unauthorized',
						},
						{
							type: 'Ready',
							status: 'False',
							reason: 'AuthenticationFailed',
							message: '401 Unauthorized',
						},
					],
				},
			),
		);
		assert.equal(result.state, 'Failed');
		assert.equal(result.message, '401 Unauthorized (retrying)');
	});

	it('reports Failed on StorageOperationFailed even while Ready is still True', () => {
		const result = computeFluxStatus(
			helmRepository(
				{ url: 'https://x' },
				{
					conditions: [
						readyTrue,
						{
							type: 'StorageOperationFailed',
							status: 'True',
							reason: 'Failed',
							message: 'disk full',
						},
					],
				},
			),
		);
		assert.equal(result.state, 'Failed');
		assert.equal(result.message, 'disk full');
	});

	it('is Reconciling when a new generation is not yet observed, even with Ready True', () => {
		const result = computeFluxStatus(
			helmRepository({ url: 'https://x' }, { observedGeneration: 1, conditions: [readyTrue] }, 2),
		);
		assert.equal(result.state, 'Reconciling');
		assert.equal(result.tone, 'progressing');
	});

	it('is Reconciling on ArtifactOutdated', () => {
		const result = computeFluxStatus(
			helmRepository(
				{ url: 'https://x' },
				{
					conditions: [
						readyTrue,
						{
							type: 'ArtifactOutdated',
							status: 'True',
							reason: 'NewRevision',
							message: 'new index revision',
						},
					],
				},
			),
		);
		assert.equal(result.state, 'Reconciling');
		assert.equal(result.message, 'new index revision');
	});

	it('never calls a declared repository without status Ready', () => {
		const result = computeFluxStatus(helmRepository({ url: 'https://x' }));
		assert.equal(result.observed, false);
		assert.equal(result.state, 'Unknown');
	});

	it('answers Unknown with a message when conditions is not a list', () => {
		const result = computeFluxStatus(helmRepository({ url: 'https://x' }, { conditions: 'Ready' }));
		assert.equal(result.state, 'Unknown');
		assert.match(result.message, /not a list/);
	});

	it('applies the same order to other Flux kinds', () => {
		const kustomization = {
			apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
			kind: 'Kustomization',
			metadata: { name: 'apps', generation: 1 },
			spec: { suspend: false },
			status: {
				conditions: [
					{
						type: 'Ready',
						status: 'False',
						reason: 'BuildFailed',
						message: 'kustomize build failed',
					},
				],
			},
		};
		assert.equal(computeFluxStatus(kustomization).state, 'Failed');
	});
});
