// Flux edges: dependsOn (same kind, namespace defaulting to the object's own), a Kustomization's sourceRef, a
// HelmRelease's chart template through its HelmChart, and its chartRef.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	causeChainOf,
	waitingForOf,
	worldFromObjects,
} from '../../../src/core/causes/causeChain.ts';
import {
	chartFromRepository,
	dependencyNotReady,
	helmChart,
	helmRelease,
	kustomization,
	source,
} from './fixtures.ts';

const ks = (name: string, namespace = 'flux-system') => ({
	group: 'kustomize.toolkit.fluxcd.io',
	kind: 'Kustomization',
	namespace,
	name,
});
const hr = (name: string, namespace = 'apps') => ({
	group: 'helm.toolkit.fluxcd.io',
	kind: 'HelmRelease',
	namespace,
	name,
});
const authFailure = {
	reason: 'GitOperationFailed',
	message:
		"failed to checkout and determine revision: unable to clone 'https://github.com/example/platform': authentication required",
};
const sourceNotFound = {
	status: 'False',
	reason: 'ArtifactFailed',
	message: 'Source artifact not found, retrying in 30s',
};

void describe('Flux dependsOn and sources', () => {
	void it('follows a Kustomization dependency to the source that cannot fetch, in one sentence', () => {
		const world = worldFromObjects([
			source('GitRepository', 'flux-system'),
			source('GitRepository', 'platform', authFailure),
			kustomization(
				'infra',
				{ sourceRef: { kind: 'GitRepository', name: 'platform' } },
				sourceNotFound,
			),
			kustomization(
				'apps',
				{ dependsOn: [{ name: 'infra' }] },
				dependencyNotReady('flux-system', 'infra'),
			),
		]);
		const chain = causeChainOf(world, ks('apps'));
		assert.equal(
			chain?.sentence,
			'Kustomization flux-system/apps waits for Kustomization flux-system/infra, whose source GitRepository flux-system/platform cannot fetch: authentication required',
		);
		assert.deepEqual(
			chain?.steps.map((step) => [step.title, step.edge, step.state]),
			[
				['Kustomization flux-system/apps', undefined, 'Failed'],
				['Kustomization flux-system/infra', 'dependency', 'Failed'],
				['GitRepository flux-system/platform', 'source', 'Failed'],
			],
		);
		assert.equal(chain?.end.kind, 'cause');
		assert.deepEqual(waitingForOf(world, ks('apps')), {
			target: ks('infra'),
			words: 'waiting for Kustomization flux-system/infra',
		});
	});

	void it('reads a dependency in another namespace, and picks the one the message names', () => {
		const world = worldFromObjects([
			source('GitRepository', 'flux-system'),
			kustomization('crds', {}, undefined, 'platform'),
			kustomization(
				'infra',
				{},
				{
					status: 'False',
					reason: 'BuildFailed',
					message: 'kustomize build failed: missing resource',
				},
				'platform',
			),
			kustomization(
				'apps',
				{
					dependsOn: [
						{ name: 'crds', namespace: 'platform' },
						{ name: 'infra', namespace: 'platform' },
					],
				},
				dependencyNotReady('platform', 'infra'),
			),
		]);
		const chain = causeChainOf(world, ks('apps'));
		assert.deepEqual(chain?.steps[1]?.ref, ks('infra', 'platform'));
		assert.equal(
			chain?.sentence,
			'Kustomization flux-system/apps waits for Kustomization platform/infra, which is Failed: kustomize build failed: missing resource',
		);
	});

	void it('names a dependency that does not exist as missing', () => {
		const world = worldFromObjects([
			source('GitRepository', 'flux-system'),
			kustomization(
				'apps',
				{ dependsOn: [{ name: 'infra' }] },
				{
					status: 'False',
					reason: 'DependencyNotReady',
					message:
						'dependency \'flux-system/infra\' not found: kustomizations.kustomize.toolkit.fluxcd.io "infra" not found',
				},
			),
		]);
		const chain = causeChainOf(world, ks('apps'));
		assert.equal(chain?.end.kind, 'missing');
		assert.ok(chain?.end.kind === 'missing');
		assert.equal(chain.end.words, 'Kustomization flux-system/infra does not exist');
		assert.equal(
			chain.sentence,
			'Kustomization flux-system/apps waits for Kustomization flux-system/infra, which does not exist',
		);
		assert.equal(
			waitingForOf(world, ks('apps'))?.words,
			'waiting for Kustomization flux-system/infra (missing)',
		);
	});

	for (const kind of ['GitRepository', 'OCIRepository', 'Bucket', 'ExternalArtifact']) {
		void it(`follows a Kustomization's sourceRef to a ${kind} that is not ready`, () => {
			const world = worldFromObjects([
				source(kind, 'platform', { reason: 'AuthenticationFailed', message: 'secret not found' }),
				kustomization('infra', { sourceRef: { kind, name: 'platform' } }, sourceNotFound),
			]);
			const chain = causeChainOf(world, ks('infra'));
			assert.equal(chain?.steps[1]?.ref.kind, kind);
			assert.equal(chain?.steps[1]?.edge, 'source');
			assert.equal(
				chain?.sentence,
				`Kustomization flux-system/infra waits for its source ${kind} flux-system/platform, which cannot fetch: secret not found`,
			);
		});
	}

	void it('says nothing for an object that fails on its own, with a ready source', () => {
		const world = worldFromObjects([
			source('GitRepository', 'flux-system'),
			kustomization(
				'apps',
				{},
				{ status: 'False', reason: 'BuildFailed', message: 'bad kustomization' },
			),
		]);
		assert.equal(causeChainOf(world, ks('apps')), undefined);
		assert.equal(waitingForOf(world, ks('apps')), undefined);
	});

	void it('follows a HelmRelease dependency to the release that failed', () => {
		const world = worldFromObjects([
			source('HelmRepository', 'podinfo'),
			helmRelease('backend', chartFromRepository, {
				status: 'False',
				reason: 'InstallFailed',
				message:
					'Helm install failed for release apps/backend with chart podinfo@6.7.1: context deadline exceeded',
			}),
			helmRelease(
				'frontend',
				{ ...chartFromRepository, dependsOn: [{ name: 'backend' }] },
				dependencyNotReady('apps', 'backend'),
			),
		]);
		assert.equal(
			causeChainOf(world, hr('frontend'))?.sentence,
			'HelmRelease apps/frontend waits for HelmRelease apps/backend, which is Failed: Helm install failed for release apps/backend with chart podinfo@6.7.1: context deadline exceeded',
		);
	});

	void it('goes from a HelmRelease through the HelmChart its status names to the chart source', () => {
		const world = worldFromObjects([
			source('HelmRepository', 'podinfo', {
				reason: 'AuthenticationFailed',
				message: 'failed to fetch Helm repository index: 401 Unauthorized',
			}),
			helmChart(
				'apps-frontend',
				'flux-system',
				{ kind: 'HelmRepository', name: 'podinfo' },
				{
					reason: 'ChartPullFailed',
					message: 'chart pull error: failed to get chart version',
				},
			),
			helmRelease(
				'frontend',
				chartFromRepository,
				{ status: 'False', reason: 'ArtifactFailed', message: 'HelmChart is not ready' },
				{ helmChart: 'flux-system/apps-frontend' },
			),
		]);
		const chain = causeChainOf(world, hr('frontend'));
		assert.deepEqual(
			chain?.steps.map((step) => [step.ref.kind, step.edge]),
			[
				['HelmRelease', undefined],
				['HelmChart', 'chart'],
				['HelmRepository', 'source'],
			],
		);
		assert.equal(
			chain?.sentence,
			'HelmRelease apps/frontend waits for its HelmChart flux-system/apps-frontend, whose source HelmRepository flux-system/podinfo cannot fetch: 401 Unauthorized',
		);
	});

	void it("finds the HelmChart by the controller's name when the status does not say it", () => {
		const world = worldFromObjects([
			source('HelmRepository', 'podinfo'),
			helmChart(
				'apps-frontend',
				'flux-system',
				{ kind: 'HelmRepository', name: 'podinfo' },
				{
					reason: 'ChartPullFailed',
					message: 'chart pull error: no chart version found for podinfo-9.9.9',
				},
			),
			helmRelease('frontend', chartFromRepository, {
				status: 'False',
				reason: 'ArtifactFailed',
				message: 'HelmChart is not ready',
			}),
		]);
		assert.deepEqual(causeChainOf(world, hr('frontend'))?.steps[1]?.ref, {
			group: 'source.toolkit.fluxcd.io',
			kind: 'HelmChart',
			namespace: 'flux-system',
			name: 'apps-frontend',
		});
	});

	void it('goes to the chart source itself when the HelmChart is not in the input', () => {
		const world = worldFromObjects([
			source('HelmRepository', 'podinfo', {
				reason: 'AuthenticationFailed',
				message: 'failed to fetch Helm repository index: 401 Unauthorized',
			}),
			helmRelease('frontend', chartFromRepository, {
				status: 'False',
				reason: 'ArtifactFailed',
				message: 'HelmChart is not ready',
			}),
		]);
		const chain = causeChainOf(world, hr('frontend'));
		assert.equal(chain?.steps[1]?.ref.kind, 'HelmRepository');
		assert.equal(chain?.steps[1]?.edge, 'source');
	});

	for (const kind of ['OCIRepository', 'HelmChart', 'ExternalArtifact']) {
		void it(`follows a HelmRelease's chartRef to a ${kind}`, () => {
			const world = worldFromObjects([
				source(
					kind,
					'podinfo',
					{ reason: 'OCIPullFailed', message: 'failed to pull artifact' },
					'apps',
				),
				helmRelease(
					'frontend',
					{ chartRef: { kind, name: 'podinfo' } },
					{
						status: 'False',
						reason: 'ArtifactFailed',
						message: `${kind} 'apps/podinfo' is not ready`,
					},
				),
			]);
			const chain = causeChainOf(world, hr('frontend'));
			assert.equal(chain?.steps[1]?.ref.kind, kind);
			assert.equal(chain?.steps[1]?.ref.namespace, 'apps', "the release's own namespace");
			assert.equal(chain?.steps[1]?.edge, 'source');
		});
	}
});
