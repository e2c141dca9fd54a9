import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	actionLogLine,
	confirmationOf,
	finishedText,
	forceUpdateProgress,
	liveActions,
	reconcileProgress,
	stillWaitingText,
} from '../../../../src/core/actions/liveActions.ts';
import type { ContextFlags } from '../../../../src/core/tree/treeNode.ts';

const apps = { kind: 'Kustomization', namespace: 'flux-system', name: 'apps', context: 'platform' };
const podinfo = { kind: 'HelmRelease', namespace: 'apps', name: 'podinfo', context: 'platform' };
const shop = { kind: 'GitRepo', namespace: 'fleet-default', name: 'shop', context: 'fleet-mgmt' };

function kustomization(status: Record<string, unknown>): Record<string, unknown> {
	return {
		apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
		kind: 'Kustomization',
		metadata: { name: 'apps', namespace: 'flux-system', generation: 1 },
		spec: { interval: '10m' },
		status: { observedGeneration: 1, ...status },
	};
}

const ready = {
	type: 'Ready',
	status: 'True',
	reason: 'ReconciliationSucceeded',
	message: 'Applied revision: main@sha1:4b1d8e2f',
};

function flags(overrides: Partial<ContextFlags>): ContextFlags {
	return {
		origin: 'live',
		system: 'flux',
		objectKind: 'Kustomization',
		state: 'Ready',
		declared: false,
		suspended: false,
		paused: false,
		oci: false,
		inFile: false,
		inArchive: false,
		problem: false,
		...overrides,
	};
}

describe('live actions', () => {
	it('confirm with a question that names the action and the object, and a button named by the action', () => {
		const asked = confirmationOf(liveActions['flux.suspend'], podinfo);
		assert.equal(asked.message, 'Suspend HelmRelease apps/podinfo in context platform?');
		assert.equal(asked.button, 'Suspend');
		assert.match(asked.detail, /spec\.suspend: true/);
		const force = confirmationOf(liveActions['fleet.forceUpdate'], shop, 'Fleet deployed this…');
		assert.equal(force.button, 'Force Update');
		assert.match(force.detail, /forceSyncGeneration[\s\S]*Fleet deployed this…$/);
	});

	it('apply to the live objects the tree offers them on', () => {
		assert.ok(liveActions['flux.reconcile'].appliesTo(flags({})));
		assert.ok(!liveActions['flux.reconcile'].appliesTo(flags({ suspended: true })));
		assert.ok(!liveActions['flux.reconcile'].appliesTo(flags({ origin: 'file' })));
		assert.ok(!liveActions['flux.suspend'].appliesTo(flags({ oci: true })));
		assert.ok(liveActions['flux.resume'].appliesTo(flags({ suspended: true })));
		const gitRepo = flags({ system: 'fleet', objectKind: 'GitRepo' });
		assert.ok(liveActions['fleet.forceUpdate'].appliesTo(gitRepo));
		assert.ok(!liveActions['fleet.forceUpdate'].appliesTo({ ...gitRepo, objectKind: 'Cluster' }));
		assert.ok(liveActions['fleet.pause'].appliesTo(gitRepo));
		assert.ok(!liveActions['fleet.unpause'].appliesTo(gitRepo));
		assert.ok(liveActions['fleet.unpause'].appliesTo({ ...gitRepo, paused: true }));
	});

	it('call a reconcile done only once status.lastHandledReconcileAt equals the request, with the Ready message', () => {
		const requestedAt = '2026-11-24T18:00:00.000Z';
		const pending = reconcileProgress(
			kustomization({ lastHandledReconcileAt: '2026-11-24T17:00:00.000Z', conditions: [ready] }),
			requestedAt,
		);
		assert.equal(pending.done, false);
		const handled = reconcileProgress(
			kustomization({ lastHandledReconcileAt: requestedAt, conditions: [ready] }),
			requestedAt,
		);
		assert.ok(handled.done && handled.ok);
		assert.equal(
			finishedText(liveActions['flux.reconcile'], apps, handled, '17:01:02'),
			'Reconciled Kustomization flux-system/apps in context platform (generation 1, as of 17:01:02): Applied revision: main@sha1:4b1d8e2f',
		);
		const failed = reconcileProgress(
			kustomization({
				lastHandledReconcileAt: requestedAt,
				conditions: [
					{
						type: 'Ready',
						status: 'False',
						reason: 'BuildFailed',
						message: 'kustomize build failed',
					},
				],
			}),
			requestedAt,
		);
		assert.ok(failed.done && !failed.ok);
		assert.match(
			finishedText(liveActions['flux.reconcile'], apps, failed, '17:01:02'),
			/, and it is still failing \(generation 1, as of 17:01:02\): Failed: kustomize build failed$/,
		);
	});

	it('call a GitRepo force update done once status.updateGeneration has the new forceSyncGeneration', () => {
		const repo = (updateGeneration: number | undefined): Record<string, unknown> => ({
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'GitRepo',
			metadata: { name: 'shop', namespace: 'fleet-default', generation: 3 },
			spec: { forceSyncGeneration: 2 },
			status: {
				observedGeneration: 3,
				...(updateGeneration === undefined ? {} : { updateGeneration }),
				conditions: [{ type: 'Ready', status: 'True' }],
			},
		});
		const request = { forceSyncGeneration: 2, generation: 3 };
		const waiting = forceUpdateProgress(repo(1), request);
		assert.ok(!waiting.done);
		assert.match(waiting.waitingFor, /status\.updateGeneration is 1, spec\.forceSyncGeneration 2/);
		const taken = forceUpdateProgress(repo(2), request);
		assert.ok(taken.done && taken.ok);
		assert.match(
			finishedText(liveActions['fleet.forceUpdate'], shop, taken),
			/^Fleet took the force update of GitRepo fleet-default\/shop in context fleet-mgmt \(generation 3\): /,
		);
	});

	it('call a Bundle force update done once the patched generation is observed', () => {
		const bundle = (observedGeneration: number): Record<string, unknown> => ({
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'Bundle',
			metadata: { name: 'shop-web', namespace: 'fleet-default', generation: 5 },
			status: { observedGeneration },
		});
		assert.ok(!forceUpdateProgress(bundle(4), { forceSyncGeneration: 1, generation: 5 }).done);
		assert.ok(forceUpdateProgress(bundle(5), { forceSyncGeneration: 1, generation: 5 }).done);
	});

	it('say how to follow a request the controller has not handled in time', () => {
		const text = stillWaitingText(
			liveActions['flux.reconcile'],
			apps,
			120_000,
			'status.lastHandledReconcileAt is not set',
		);
		assert.match(
			text,
			/^Flux has not handled the reconcile of Kustomization flux-system\/apps in context platform after 2 min \(status\.lastHandledReconcileAt is not set\)\./,
		);
		assert.match(text, /Show Events/);
	});

	it('log what was asked, on which object and context, the result and the time it took', () => {
		assert.equal(
			actionLogLine(liveActions['flux.suspend'], podinfo, 'done', 420),
			'Suspend HelmRelease apps/podinfo in context platform: done (0.4 s)',
		);
		assert.match(actionLogLine(liveActions['flux.suspend'], podinfo, 'done', 12_400), /\(12 s\)$/);
		assert.match(
			actionLogLine(liveActions['fleet.forceUpdate'], shop, 'still not handled', 125_000),
			/^Force Update GitRepo fleet-default\/shop in context fleet-mgmt: still not handled \(2 min 5 s\)$/,
		);
	});
});
