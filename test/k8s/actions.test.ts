// Cluster actions against the project's local API server, through the real @kubernetes/client-node: each action's
// effect on the server's object, the field manager sent, 403/404/409 in plain words, a hanging request and a hanging
// exec plugin bounded by their timeouts, Secrets refused.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubeconfigText } from '../../src/apiserver/kubeconfig.ts';
import type { JsonObject } from '../../src/apiserver/patch.ts';
import type { ApiServer } from '../../src/apiserver/server.ts';
import {
	fleetForceUpdate,
	fluxFieldManager,
	fluxReconcileAnnotation,
	getObject,
	listEvents,
	managedFromGit,
	requestFluxReconcile,
	setFleetPaused,
	setFluxSuspended,
	type ActionOptions,
	type ObjectRef,
} from '../../src/k8s/actions.ts';
import { reconcileProgress } from '../../src/core/actions/liveActions.ts';
import type { MergedKubeconfig } from '../../src/k8s/kubeconfig.ts';
import { gitRepo as fleetGitRepo, kustomization, secret } from '../support/objects.ts';
import { processGone } from '../support/wait.ts';
import { startLocalCluster, type LocalCluster } from './support.ts';

// The hang guard of the tests that wait on the server or a plugin.
const guard = { timeout: 30_000 };

// ---------------------------------------------------------------------------------------------------------------
// Fixtures

function gitRepo(name: string, spec: JsonObject = {}): JsonObject {
	return fleetGitRepo(name, {
		managedFields: [{ manager: 'kubectl', operation: 'Apply' }],
		spec: { repo: 'https://github.com/example/repo', ...spec },
	});
}

function event(name: string, involved: JsonObject, times: JsonObject, reason: string): JsonObject {
	return {
		apiVersion: 'v1',
		kind: 'Event',
		metadata: { namespace: 'fleet-default', name },
		involvedObject: involved,
		reason,
		message: reason,
		type: 'Normal',
		...times,
	};
}

const appInvolved = {
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'GitRepo',
	namespace: 'fleet-default',
	name: 'app',
	uid: 'uid-app',
};

const seedObjects: JsonObject[] = [
	gitRepo('app'),
	gitRepo('web', { forceSyncGeneration: 3, paused: false }),
	kustomization('apps'),
	secret('token'),
	event('app.3', appInvolved, { lastTimestamp: '2025-01-01T00:03:00Z' }, 'Third'),
	event('app.1', appInvolved, { lastTimestamp: '2025-01-01T00:01:00Z' }, 'First'),
	event('app.2', appInvolved, { eventTime: '2025-01-01T00:02:00.000000Z' }, 'Second'),
	event(
		'web.1',
		{ ...appInvolved, name: 'web', uid: 'uid-web' },
		{ lastTimestamp: '2025-01-01T00:00:00Z' },
		'Other',
	),
];

// Requests and plugins keep their default bounds (10 s), so a loaded machine does not turn a slow answer into a
// failure; the two tests that wait for a timeout set a short one.
const options: ActionOptions = {};
const impatient: ActionOptions = { requestTimeoutMs: 500, execTimeoutMs: 1000 };

const appRef: ObjectRef = {
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'GitRepo',
	namespace: 'fleet-default',
	name: 'app',
	plural: 'gitrepos',
};
const webRef: ObjectRef = { ...appRef, name: 'web' };
const kustomizationRef: ObjectRef = {
	apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
	kind: 'Kustomization',
	namespace: 'flux-system',
	name: 'apps',
	plural: 'kustomizations',
};

interface Harness extends LocalCluster {
	readonly kubeconfig: MergedKubeconfig;
}

async function startHarness(): Promise<Harness> {
	const cluster = await startLocalCluster(
		{
			objects: seedObjects,
			bookmarkIntervalMs: 0,
			users: [
				{
					name: 'limited',
					token: 'limited-token',
					forbidden: [
						{ verbs: ['patch'], group: 'fleet.cattle.io', resource: 'gitrepos' },
						{ verbs: ['get'], group: 'kustomize.toolkit.fluxcd.io', resource: 'kustomizations' },
						{ verbs: ['list'], group: '', resource: 'events', namespace: 'fleet-default' },
					],
				},
			],
		},
		'ksl-actions-',
	);
	const { server } = cluster;
	await writeFile(
		path.join(cluster.dir, 'config'),
		kubeconfigText([
			{ name: 'admin', server, token: server.token },
			{ name: 'limited', server, token: 'limited-token' },
			{ name: 'hanging', server, exec: { command: cluster.hangingPlugin } },
		]),
	);
	return { ...cluster, kubeconfig: await cluster.load(['config']) };
}

function serverObject(server: ApiServer, ref: ObjectRef): Record<string, unknown> {
	const type = server.store.typeOf(ref.apiVersion, ref.kind);
	assert.ok(type, `the server serves ${ref.kind}`);
	const object = server.store.get(type, ref.namespace, ref.name);
	assert.ok(object, `the server holds ${ref.kind} ${ref.name}`);
	return object;
}

function specOf(object: Record<string, unknown>): Record<string, unknown> {
	return object.spec as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------------------------

describe('cluster actions against the local API server', () => {
	let harness: Harness;

	before(async () => {
		harness = await startHarness();
	});
	after(() => harness.close());

	it('gets the live object without managedFields, finding its plural through discovery', async () => {
		const { plural: _plural, ...withoutPlural } = appRef;
		for (const ref of [appRef, withoutPlural]) {
			const result = await getObject(harness.kubeconfig, 'admin', ref, options);
			assert.ok(result.ok, JSON.stringify(result));
			const metadata = result.object.metadata as Record<string, unknown>;
			assert.equal(metadata.name, 'app');
			assert.equal(metadata.managedFields, undefined);
			assert.equal(specOf(result.object).repo, 'https://github.com/example/repo');
		}
	});

	it('refuses to read a Secret, without asking the server', async () => {
		const before = harness.requests.length;
		const result = await getObject(
			harness.kubeconfig,
			'admin',
			{ apiVersion: 'v1', kind: 'Secret', namespace: 'default', name: 'token' },
			options,
		);
		assert.equal(result.ok, false);
		assert.ok(!result.ok && result.kind === 'error');
		assert.match(result.message, /never reads the data of Secrets/);
		assert.doesNotMatch(JSON.stringify(result), /c2VjcmV0/);
		// The server logs a request before its answer leaves, so one made for this read would be logged by now.
		assert.equal(harness.requests.length, before, 'no request was made');
	});

	it('answers not-found for a missing object and for a resource the cluster does not serve', async () => {
		const missing = await getObject(
			harness.kubeconfig,
			'admin',
			{ ...appRef, name: 'gone' },
			options,
		);
		assert.deepEqual(missing, {
			ok: false,
			kind: 'not-found',
			message: 'GitRepo gone was not found in fleet-default (404 Not Found)',
		});
		const unserved = await getObject(
			harness.kubeconfig,
			'admin',
			{ apiVersion: 'example.com/v1', kind: 'Thing', name: 'x', namespace: 'default' },
			options,
		);
		assert.ok(!unserved.ok);
		assert.equal(unserved.kind, 'not-found');
		const patched = await setFleetPaused(
			harness.kubeconfig,
			'admin',
			{ ...appRef, name: 'gone' },
			true,
			options,
		);
		assert.ok(!patched.ok);
		assert.equal(patched.kind, 'not-found');
	});

	it('lists the events of an object by uid, else by kind, name and namespace, oldest first', async () => {
		const byUid = await listEvents(
			harness.kubeconfig,
			'admin',
			{ ...appRef, uid: 'uid-app' },
			options,
		);
		assert.ok(byUid.ok, JSON.stringify(byUid));
		assert.deepEqual(
			byUid.events.map((entry) => entry.reason),
			['First', 'Second', 'Third'],
		);
		const byName = await listEvents(harness.kubeconfig, 'admin', webRef, options);
		assert.ok(byName.ok, JSON.stringify(byName));
		assert.deepEqual(
			byName.events.map((entry) => entry.reason),
			['Other'],
		);
		const none = await listEvents(
			harness.kubeconfig,
			'admin',
			{ ...appRef, uid: 'other' },
			options,
		);
		assert.ok(none.ok);
		assert.deepEqual(none.events, []);
	});

	it('requests a Flux reconcile with the annotation and Flux field manager', async () => {
		const now = new Date('2025-06-01T12:00:00.000Z');
		const result = await requestFluxReconcile(
			harness.kubeconfig,
			'admin',
			kustomizationRef,
			now,
			options,
		);
		assert.ok(result.ok, JSON.stringify(result));
		assert.equal(result.requestedAt, '2025-06-01T12:00:00.000Z');
		const live = serverObject(harness.server, kustomizationRef);
		const annotations = (live.metadata as Record<string, unknown>).annotations as Record<
			string,
			unknown
		>;
		assert.equal(annotations[fluxReconcileAnnotation], '2025-06-01T12:00:00.000Z');
		// The annotation is owned by Flux's field manager, as `flux reconcile` leaves it.
		const owners = ((live.metadata as Record<string, unknown>).managedFields ?? []) as {
			manager?: string;
			fieldsV1?: unknown;
		}[];
		const owner = owners.find((entry) => entry.manager === fluxFieldManager);
		assert.ok(owner, JSON.stringify(owners));
		assert.match(JSON.stringify(owner.fieldsV1), /reconcile\.fluxcd\.io\/requestedAt/);
		assert.equal(reconcileProgress(live, result.requestedAt).done, false);
	});

	it('suspends and resumes a Flux object with the Flux field manager', async () => {
		const from = harness.requests.length;
		const suspended = await setFluxSuspended(
			harness.kubeconfig,
			'admin',
			kustomizationRef,
			true,
			options,
		);
		assert.ok(suspended.ok, JSON.stringify(suspended));
		assert.equal(specOf(serverObject(harness.server, kustomizationRef)).suspend, true);
		assert.equal(specOf(suspended.object).suspend, true);
		const resumed = await setFluxSuspended(
			harness.kubeconfig,
			'admin',
			kustomizationRef,
			false,
			options,
		);
		assert.ok(resumed.ok, JSON.stringify(resumed));
		assert.equal(specOf(serverObject(harness.server, kustomizationRef)).suspend, false);
		const patches = harness.requests.slice(from).filter((line) => line.startsWith('PATCH '));
		assert.equal(patches.length, 2);
		for (const line of patches) assert.ok(line.includes(`fieldManager=${fluxFieldManager}`), line);
		const notFlux = await setFluxSuspended(harness.kubeconfig, 'admin', appRef, true, options);
		assert.ok(!notFlux.ok);
		assert.equal(notFlux.kind, 'error');
	});

	it('forces a Fleet update: forceSyncGeneration + 1, or 1 when absent', async () => {
		const first = await fleetForceUpdate(harness.kubeconfig, 'admin', appRef, options);
		assert.ok(first.ok, JSON.stringify(first));
		assert.equal(first.forceSyncGeneration, 1);
		assert.equal(specOf(serverObject(harness.server, appRef)).forceSyncGeneration, 1);
		const second = await fleetForceUpdate(harness.kubeconfig, 'admin', appRef, options);
		assert.ok(second.ok);
		assert.equal(specOf(serverObject(harness.server, appRef)).forceSyncGeneration, 2);
		const web = await fleetForceUpdate(harness.kubeconfig, 'admin', webRef, options);
		assert.ok(web.ok);
		assert.equal(specOf(serverObject(harness.server, webRef)).forceSyncGeneration, 4);
	});

	it('reports a conflict when the object changed between the read and the patch', async () => {
		const fault = harness.server.faults.respond(409, { method: 'PATCH', count: 1 });
		try {
			const result = await fleetForceUpdate(harness.kubeconfig, 'admin', webRef, options);
			assert.ok(!result.ok);
			assert.equal(result.kind, 'conflict');
			assert.match(result.message, /GitRepo web changed on the cluster meanwhile; try again/);
		} finally {
			fault.remove();
		}
	});

	it('pauses and unpauses a Fleet object', async () => {
		const paused = await setFleetPaused(harness.kubeconfig, 'admin', appRef, true, options);
		assert.ok(paused.ok, JSON.stringify(paused));
		assert.equal(specOf(serverObject(harness.server, appRef)).paused, true);
		const unpaused = await setFleetPaused(harness.kubeconfig, 'admin', appRef, false, options);
		assert.ok(unpaused.ok);
		assert.equal(specOf(serverObject(harness.server, appRef)).paused, false);
	});

	it('reports 403 in plain words, and changes nothing', async () => {
		const before = specOf(serverObject(harness.server, appRef)).paused;
		const paused = await setFleetPaused(harness.kubeconfig, 'limited', appRef, true, options);
		assert.deepEqual(paused, {
			ok: false,
			kind: 'forbidden',
			message: 'You may not patch gitrepos.fleet.cattle.io in fleet-default (403 Forbidden)',
		});
		assert.equal(specOf(serverObject(harness.server, appRef)).paused, before);
		const forced = await fleetForceUpdate(harness.kubeconfig, 'limited', appRef, options);
		assert.ok(!forced.ok);
		assert.equal(forced.kind, 'forbidden');
		const read = await getObject(harness.kubeconfig, 'limited', kustomizationRef, options);
		assert.deepEqual(read, {
			ok: false,
			kind: 'forbidden',
			message:
				'You may not get kustomizations.kustomize.toolkit.fluxcd.io in flux-system (403 Forbidden)',
		});
		const events = await listEvents(harness.kubeconfig, 'limited', appRef, options);
		assert.deepEqual(events, {
			ok: false,
			kind: 'forbidden',
			message: 'You may not list events in fleet-default (403 Forbidden)',
		});
	});

	it('answers cannot-reach after the request timeout when the server hangs', guard, async () => {
		const hang = harness.server.faults.hang({ method: 'PATCH' });
		try {
			const result = await setFluxSuspended(
				harness.kubeconfig,
				'admin',
				kustomizationRef,
				true,
				impatient,
			);
			assert.ok(!result.ok);
			assert.equal(result.kind, 'cannot-reach');
			assert.match(
				result.message,
				/^Cannot reach https:\/\/127\.0\.0\.1:\d+: no answer within 0\.5 s/,
			);
		} finally {
			hang.remove();
		}
	});

	it(
		'answers login-required after the exec timeout when the plugin hangs, and stops the plugin',
		guard,
		async () => {
			const result = await getObject(harness.kubeconfig, 'hanging', appRef, impatient);
			assert.ok(!result.ok);
			assert.equal(result.kind, 'login-required');
			assert.match(result.message, /did not answer within 1 s/);
			await processGone(await harness.hangingPid());
		},
	);

	it('answers an error for a context the kubeconfig does not have', async () => {
		const result = await getObject(harness.kubeconfig, 'nowhere', appRef, options);
		assert.ok(!result.ok);
		assert.equal(result.kind, 'error');
		assert.match(result.message, /context "nowhere" is not in the kubeconfig/);
	});
});

describe('managedFromGit', () => {
	it('recognizes Flux, Fleet and Argo CD, and says which tool would undo a change', () => {
		const flux = managedFromGit({
			metadata: {
				labels: {
					'kustomize.toolkit.fluxcd.io/name': 'apps',
					'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
				},
			},
		});
		assert.ok(flux.managed);
		assert.equal(flux.tool, 'Flux');
		assert.match(flux.message, /Kustomization flux-system\/apps/);
		const fleet = managedFromGit({
			metadata: { labels: { 'objectset.rio.cattle.io/hash': 'abc' } },
		});
		assert.ok(fleet.managed);
		assert.equal(fleet.tool, 'Fleet');
		const argoLabel = managedFromGit({
			metadata: { labels: { 'argocd.argoproj.io/instance': 'guestbook' } },
		});
		assert.ok(argoLabel.managed);
		assert.equal(argoLabel.tool, 'Argo CD');
		assert.match(argoLabel.message, /Application guestbook/);
		const argoAnnotation = managedFromGit({
			metadata: {
				labels: { 'app.kubernetes.io/instance': 'guestbook' },
				annotations: {
					'argocd.argoproj.io/tracking-id': 'guestbook:apps/Deployment:default/guestbook',
				},
			},
		});
		assert.ok(argoAnnotation.managed);
		assert.equal(argoAnnotation.tool, 'Argo CD');
	});

	it('is false for objects without those marks, including a bare Helm instance label', () => {
		assert.deepEqual(managedFromGit({ metadata: { name: 'x' } }), { managed: false });
		assert.deepEqual(
			managedFromGit({ metadata: { labels: { 'app.kubernetes.io/instance': 'release' } } }),
			{ managed: false },
		);
		assert.deepEqual(managedFromGit(undefined), { managed: false });
	});
});
