// The Flux Operator's kinds (fluxcd.controlplane.io/v1): read by Flux's Ready/Reconciling/Stalled rules, disabled by
// the annotation fluxcd.controlplane.io/reconcile (they have no spec.suspend), a FluxReport read for what it reports
// rather than for its Ready (which only says the report ran), and a FluxInstance's or ResourceSet's inventory as the
// rows of what it applied.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { liveActions } from '../../../../src/core/actions/liveActions.ts';
import { computeStatus } from '../../../../src/core/status/registry.ts';
import type { ContextFlags } from '../../../../src/core/tree/treeNode.ts';
import { exampleGraph } from '../../causes/fixtures.ts';

const ready = (reason: string, message: string) => ({
	type: 'Ready',
	status: 'True',
	reason,
	message,
	lastTransitionTime: '2026-11-30T10:00:00Z',
});

function report(spec: Record<string, unknown>): Record<string, unknown> {
	return {
		apiVersion: 'fluxcd.controlplane.io/v1',
		kind: 'FluxReport',
		metadata: { name: 'flux', namespace: 'flux-system' },
		spec,
		status: { conditions: [ready('Succeeded', 'Reporting finished in 62ms')] },
	};
}

const healthy = {
	distribution: { entitlement: 'Unlicensed', status: 'Installed', version: 'v2.7.3' },
	components: [
		{
			name: 'source-controller',
			ready: true,
			status: 'Current Deployment is available. Replicas: 1',
		},
		{
			name: 'kustomize-controller',
			ready: true,
			status: 'Current Deployment is available. Replicas: 1',
		},
	],
	reconcilers: [
		{
			apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
			kind: 'Kustomization',
			stats: { running: 4, failing: 0, suspended: 1 },
		},
	],
	sync: {
		id: 'kustomization/flux-system',
		ready: true,
		status: 'Applied revision: main@sha1:4b1d8e2f',
	},
};

describe('Flux Operator kinds', () => {
	it('reads a FluxInstance, ResourceSet and ResourceSetInputProvider by their Ready, Reconciling and Stalled', () => {
		const instance = computeStatus({
			apiVersion: 'fluxcd.controlplane.io/v1',
			kind: 'FluxInstance',
			metadata: { name: 'flux', namespace: 'flux-system', generation: 2 },
			status: {
				observedGeneration: 2,
				conditions: [
					{
						type: 'Ready',
						status: 'False',
						reason: 'BuildFailed',
						message: 'build failed: distribution v9.9.x not found',
					},
					{
						type: 'Stalled',
						status: 'True',
						reason: 'BuildFailed',
						message: 'build failed: distribution v9.9.x not found',
					},
				],
			},
		});
		assert.equal(instance.system, 'flux');
		assert.equal(instance.state, 'Stalled');
		assert.equal(instance.tone, 'error');
		const provider = computeStatus({
			apiVersion: 'fluxcd.controlplane.io/v1',
			kind: 'ResourceSetInputProvider',
			metadata: { name: 'prs', namespace: 'flux-system', generation: 1 },
			status: {
				observedGeneration: 1,
				conditions: [
					{
						type: 'Ready',
						status: 'Unknown',
						reason: 'Progressing',
						message: 'Reconciliation in progress',
					},
					{
						type: 'Reconciling',
						status: 'True',
						reason: 'Progressing',
						message: 'Reconciliation in progress',
					},
				],
			},
		});
		assert.equal(provider.state, 'Reconciling');
	});

	it('shows an object the operator was told not to reconcile as Suspended, by its annotation', () => {
		const status = computeStatus({
			apiVersion: 'fluxcd.controlplane.io/v1',
			kind: 'ResourceSet',
			metadata: {
				name: 'preview-envs',
				namespace: 'flux-system',
				annotations: { 'fluxcd.controlplane.io/reconcile': 'disabled' },
			},
			status: {
				conditions: [ready('ReconciliationDisabled', 'Initialized with reconciliation suspended')],
			},
		});
		assert.equal(status.state, 'Suspended');
		assert.match(status.message, /fluxcd\.controlplane\.io\/reconcile: disabled/);
		// The annotation means nothing on a toolkit kind.
		const kustomization = computeStatus({
			apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
			kind: 'Kustomization',
			metadata: {
				name: 'apps',
				namespace: 'flux-system',
				annotations: { 'fluxcd.controlplane.io/reconcile': 'disabled' },
			},
			status: { conditions: [ready('ReconciliationSucceeded', 'Applied revision: main@sha1:1')] },
		});
		assert.equal(kustomization.state, 'Ready');
	});

	it('reads a FluxReport for the installation it reports: components, failing reconcilers, the sync', () => {
		const fine = computeStatus(report(healthy));
		assert.equal(fine.state, 'Ready');
		assert.equal(fine.tone, 'ok');
		assert.equal(fine.message, 'Flux v2.7.3 · 2/2 components ready · 1 suspended · sync ready');
		assert.ok(fine.reasons.includes('Kustomization: 4 running, 0 failing, 1 suspended.'));
		const broken = computeStatus(
			report({
				...healthy,
				components: [
					...healthy.components,
					{
						name: 'helm-controller',
						ready: false,
						status: 'InProgress Deployment does not have minimum availability.',
					},
				],
				reconcilers: [
					{
						apiVersion: 'helm.toolkit.fluxcd.io/v2',
						kind: 'HelmRelease',
						stats: { running: 3, failing: 2, suspended: 0 },
					},
				],
				sync: {
					id: 'kustomization/flux-system',
					ready: false,
					status: 'kustomization path not found\nmore',
				},
			}),
		);
		// Ready is the operator's word (the report ran); the tone and message say what it found.
		assert.equal(broken.state, 'Ready');
		assert.equal(broken.tone, 'warning');
		assert.equal(broken.message, 'Flux v2.7.3 · 2/3 components ready · 2 failing · sync not ready');
		assert.deepEqual(
			broken.reasons.filter((reason) => reason.startsWith('The report says')),
			[
				'The report says: component helm-controller is not ready: InProgress Deployment does not have minimum availability..',
				'The report says: 2 HelmRelease failing.',
				'The report says: sync kustomization/flux-system is not ready: kustomization path not found.',
			],
		);
	});

	it('lists what a FluxInstance and a ResourceSet applied under them, from status.inventory', () => {
		const graph = exampleGraph();
		// The FluxReport's row says what the report found, not only that it ran.
		const [reportRow] = graph.findNodesForObject(
			'ws',
			'fluxcd.controlplane.io|FluxReport|flux-system|flux',
		);
		assert.equal(
			graph.node(reportRow ?? '')?.description,
			'Ready · 4/4 components · 3 failing · flux-system',
		);
		const [instance] = graph.findNodesForObject(
			'ws',
			'fluxcd.controlplane.io|FluxInstance|flux-system|flux',
		);
		assert.ok(instance);
		const rows = graph
			.children(instance)
			.map((node) => `${node.label} · ${node.description ?? ''}`);
		assert.ok(
			rows.includes('Deployment flux-system/helm-controller · applied · apps/v1'),
			rows.join('\n'),
		);
		assert.ok(rows.includes('Namespace flux-system · applied · v1'), rows.join('\n'));
		const [set] = graph.findNodesForObject(
			'ws',
			'fluxcd.controlplane.io|ResourceSet|flux-system|preview-envs',
		);
		assert.ok(set);
		assert.deepEqual(
			graph.children(set).map((node) => node.label),
			['Namespace preview-pr-101', 'Namespace preview-pr-102'],
		);
	});

	it('offers Reconcile on the operator kinds, but not Suspend or Resume, which set a spec.suspend they lack', () => {
		const flags = (overrides: Partial<ContextFlags>): ContextFlags => ({
			origin: 'live',
			system: 'flux',
			objectKind: 'FluxInstance',
			state: 'Ready',
			declared: false,
			suspended: false,
			paused: false,
			oci: false,
			inFile: false,
			inArchive: false,
			problem: false,
			...overrides,
		});
		assert.ok(liveActions['flux.reconcile'].appliesTo(flags({})));
		assert.ok(!liveActions['flux.suspend'].appliesTo(flags({})));
		assert.ok(
			!liveActions['flux.resume'].appliesTo(flags({ suspended: true, objectKind: 'ResourceSet' })),
		);
		assert.ok(liveActions['flux.suspend'].appliesTo(flags({ objectKind: 'Kustomization' })));
	});
});
