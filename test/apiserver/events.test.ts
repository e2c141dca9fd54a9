// Events in the demo server: one store behind both APIs (core v1 and events.k8s.io/v1), and the stand-in
// controllers recording them as the real ones do (Fleet through events.k8s.io, Flux through core v1).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { demoExamplesFolder } from '../../src/apiserver/demo.ts';
import { reconcileFleet } from '../../src/apiserver/fleetController.ts';
import {
	reconcileRequestAnnotation,
	startFluxController,
} from '../../src/apiserver/fluxController.ts';
import { loadObjects, readObjects } from '../../src/apiserver/scenario.ts';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { kustomization } from '../support/objects.ts';
import { reportPendingWaits, until } from '../support/wait.ts';
import { send, watch } from './client.ts';

afterEach(reportPendingWaits);

const coreEvents = '/api/v1/namespaces/fleet-default/events';
const newEvents = '/apis/events.k8s.io/v1/namespaces/fleet-default/events';
const shopCommit = '3f9c2a7e51b04d6a8c1e9f20b7d4a6c5e8f10b2d';

type Item = Record<string, unknown>;

async function items(server: ApiServer, path: string): Promise<Item[]> {
	const response = await send(server, 'GET', path);
	assert.equal(response.status, 200, response.text);
	return response.body.items ?? [];
}

describe('Events: one store, two APIs', () => {
	let server: ApiServer;
	let clock = new Date('2025-06-25T15:10:00Z');
	before(async () => {
		server = await startApiServer({ namespaces: ['fleet-default'], now: () => clock });
		const read = await readObjects([
			join(demoExamplesFolder, '..', 'workspace', 'fleet', 'dump.yaml'),
		]);
		assert.deepEqual(loadObjects(server.store, read.objects).problems, []);
	});
	after(() => server.close());

	it('the Fleet stand-in records GotNewCommit through events.k8s.io, as rancher/fleet does', async () => {
		reconcileFleet(server.store, clock);
		const [event, ...others] = (await items(server, newEvents)).filter(
			(item) => item.reason === 'GotNewCommit',
		);
		assert.equal(others.length, 0);
		assert.ok(event);
		assert.equal(event.apiVersion, 'events.k8s.io/v1');
		assert.equal(event.note, shopCommit);
		assert.equal(event.action, 'GetNewCommit');
		assert.equal(event.type, 'Normal');
		assert.equal(event.reportingController, 'fleet-gitops');
		assert.equal(event.eventTime, '2025-06-25T15:10:00.000000Z');
		assert.equal(event.deprecatedCount, undefined);
		assert.equal(event.deprecatedLastTimestamp, null);
		assert.deepEqual(
			{ ...(event.regarding as Item), uid: undefined, resourceVersion: undefined },
			{
				apiVersion: 'fleet.cattle.io/v1alpha1',
				kind: 'GitRepo',
				namespace: 'fleet-default',
				name: 'shop',
				uid: undefined,
				resourceVersion: undefined,
			},
		);
		// The same Event through core v1: the old names, no count and no lastTimestamp.
		const name = (event.metadata as Item).name as string;
		const core = await send(server, 'GET', `${coreEvents}/${name}`);
		assert.equal(core.status, 200);
		assert.equal(core.body.apiVersion, 'v1');
		assert.equal(core.body.message, shopCommit);
		assert.equal(core.body.reportingComponent, 'fleet-gitops');
		assert.equal(core.body.count, undefined);
		assert.equal(core.body.lastTimestamp, null);
		assert.deepEqual(core.body.involvedObject, event.regarding);
	});

	it('a repeat within minutes becomes a series; a new commit is a new Event', async () => {
		const before = (await items(server, newEvents)).length;
		const type = server.store.typeOf('fleet.cattle.io/v1alpha1', 'GitRepo');
		assert.ok(type);
		// The same commit announced again two minutes later (a restored GitRepo): the series counts it.
		const gitRepo = server.store.get(type, 'fleet-default', 'shop');
		assert.ok(gitRepo);
		const status = gitRepo.status as Item;
		clock = new Date('2025-06-25T15:11:00Z');
		server.store.update(
			type,
			'fleet-default',
			'shop',
			{ ...gitRepo, status: { ...status, commit: 'b'.repeat(40) } },
			{ subresource: 'status' },
		);
		reconcileFleet(server.store, clock);
		clock = new Date('2025-06-25T15:12:00Z');
		const changed = server.store.get(type, 'fleet-default', 'shop');
		assert.ok(changed);
		server.store.update(
			type,
			'fleet-default',
			'shop',
			{ ...changed, status: { ...(changed.status as Item), commit: shopCommit } },
			{ subresource: 'status' },
		);
		reconcileFleet(server.store, clock);
		const after = (await items(server, newEvents)).filter((item) => item.reason === 'GotNewCommit');
		assert.equal(
			after.length,
			before + 1,
			'one new Event for the other commit, none for the repeat',
		);
		const repeated = after.find((item) => item.note === shopCommit);
		assert.deepEqual(repeated?.series, {
			count: 2,
			lastObservedTime: '2025-06-25T15:12:00.000000Z',
		});
		// Nothing changed: nothing recorded.
		reconcileFleet(server.store, clock);
		assert.equal((await items(server, newEvents)).length, after.length);
	});

	it('an Event written to events.k8s.io reads through core v1, by field selector too, and the reverse', async () => {
		const created = await send(server, 'POST', newEvents, {
			body: {
				apiVersion: 'events.k8s.io/v1',
				kind: 'Event',
				metadata: { name: 'written-new', namespace: 'fleet-default' },
				eventTime: '2025-06-25T15:12:30.000000Z',
				regarding: { kind: 'Bundle', namespace: 'fleet-default', name: 'shop-cache' },
				reason: 'PolicyViolation',
				action: 'ApplyPolicyRestrictions',
				note: 'Bundle in namespace fleet-default violates Policy: denied',
				type: 'Warning',
				reportingController: 'fleet-bundle-ctrl',
				reportingInstance: 'fleet-bundle-ctrl-x',
			},
		});
		assert.equal(created.status, 201, created.text);
		assert.equal(created.body.note, 'Bundle in namespace fleet-default violates Policy: denied');
		const selected = await items(
			server,
			`${coreEvents}?fieldSelector=involvedObject.name%3Dshop-cache`,
		);
		assert.deepEqual(
			selected.map((item) => [item.reason, item.message, item.reportingComponent]),
			[
				[
					'PolicyViolation',
					'Bundle in namespace fleet-default violates Policy: denied',
					'fleet-bundle-ctrl',
				],
			],
		);
		const sameThroughNew = await items(
			server,
			`${newEvents}?fieldSelector=regarding.name%3Dshop-cache`,
		);
		assert.deepEqual(
			sameThroughNew.map((item) => item.note),
			[selected[0]?.message],
		);
		// A core Event (an old recorder's) shows its count and timestamps under the deprecated names.
		const old = await send(server, 'POST', coreEvents, {
			body: {
				apiVersion: 'v1',
				kind: 'Event',
				metadata: { name: 'written-old' },
				involvedObject: { kind: 'GitRepo', namespace: 'fleet-default', name: 'shop' },
				reason: 'Failed',
				message: 'old style',
				count: 3,
				firstTimestamp: '2025-06-25T15:00:00Z',
				lastTimestamp: '2025-06-25T15:05:00Z',
				source: { component: 'someone' },
				type: 'Warning',
			},
		});
		assert.equal(old.status, 201, old.text);
		const asNew = await send(server, 'GET', `${newEvents}/written-old`);
		assert.equal(asNew.body.deprecatedCount, 3);
		assert.equal(asNew.body.deprecatedLastTimestamp, '2025-06-25T15:05:00Z');
		assert.deepEqual(asNew.body.deprecatedSource, { component: 'someone' });
		assert.equal(asNew.body.eventTime, null);
	});

	it('a watch on events.k8s.io sees a core write in its own API', async () => {
		const stream = await watch(
			server,
			`${newEvents}?watch=1&resourceVersion=${server.store.resourceVersion}`,
		);
		try {
			const created = await send(server, 'POST', coreEvents, {
				body: {
					metadata: { name: 'watched' },
					involvedObject: { kind: 'GitRepo', namespace: 'fleet-default', name: 'shop' },
					reason: 'Watched',
					message: 'seen',
					type: 'Normal',
				},
			});
			assert.equal(created.status, 201);
			const [event] = await stream.waitFor(1);
			assert.equal(event?.type, 'ADDED');
			const object = event?.object as Item;
			assert.equal(object.apiVersion, 'events.k8s.io/v1');
			assert.equal(object.note, 'seen');
		} finally {
			stream.close();
		}
	});
});

describe('the Flux stand-in records Events through core v1', () => {
	let server: ApiServer;
	let stop: () => void;
	before(async () => {
		server = await startApiServer({
			objects: [
				kustomization('apps', {
					spec: { interval: '10m', path: './apps' },
					status: {
						lastAppliedRevision: 'main@sha1:4b1d8e2f',
						conditions: [
							{
								type: 'Ready',
								status: 'True',
								reason: 'ReconciliationSucceeded',
								message: 'Applied revision: main@sha1:4b1d8e2f',
								lastTransitionTime: '2025-11-20T09:00:00Z',
							},
						],
					},
				}),
				kustomization('broken', {
					spec: { interval: '5m', path: './broken' },
					status: {
						conditions: [
							{
								type: 'Ready',
								status: 'False',
								reason: 'BuildFailed',
								message: 'kustomize build failed: accumulating resources',
								lastTransitionTime: '2025-11-20T09:00:00Z',
							},
						],
					},
				}),
			],
		});
		stop = startFluxController(server.store, { delayMs: 50 });
	});
	after(async () => {
		stop();
		await server.close();
	});

	it(
		'with the reason, message, source and count kustomize-controller gives them',
		{ timeout: 30_000 },
		async () => {
			const path = '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations';
			for (const name of ['apps', 'broken']) {
				const patched = await send(server, 'PATCH', `${path}/${name}`, {
					contentType: 'application/merge-patch+json',
					body: {
						metadata: { annotations: { [reconcileRequestAnnotation]: '2025-11-20T10:00:00Z' } },
					},
				});
				assert.equal(patched.status, 200);
			}
			const eventType = server.store.typeOf('v1', 'Event');
			assert.ok(eventType);
			// One Event each when the controller started (it reconciles everything then), counted again on the request.
			const counted = (): boolean =>
				server.store.all(eventType, 'flux-system').filter((event) => event.count === 2).length ===
				2;
			await until(counted, 'both Flux Events counted twice', [
				(listener) => server.store.subscribe(listener),
			]);
			const events = await items(server, '/api/v1/namespaces/flux-system/events');
			assert.equal(events.length, 2);
			const byObject = new Map(events.map((event) => [(event.involvedObject as Item).name, event]));
			const ok = byObject.get('apps');
			assert.equal(ok?.type, 'Normal');
			assert.equal(ok?.reason, 'ReconciliationSucceeded');
			assert.equal(ok?.message, 'Reconciliation finished in 50ms, next run in 10m0s');
			assert.deepEqual(ok?.source, { component: 'kustomize-controller' });
			assert.equal(typeof ok?.firstTimestamp, 'string');
			assert.equal(typeof ok?.lastTimestamp, 'string');
			assert.deepEqual((ok?.metadata as Item).annotations, {
				'kustomize.toolkit.fluxcd.io/revision': 'main@sha1:4b1d8e2f',
			});
			const failed = byObject.get('broken');
			assert.equal(failed?.type, 'Warning');
			assert.equal(failed?.reason, 'BuildFailed');
			assert.equal(failed?.message, 'kustomize build failed: accumulating resources');
		},
	);

	it(
		'records the Event of a reconciliation whose outcome a status write brings',
		{ timeout: 30_000 },
		async () => {
			const type = server.store.typeOf('kustomize.toolkit.fluxcd.io/v1', 'Kustomization');
			const eventType = server.store.typeOf('v1', 'Event');
			assert.ok(type && eventType);
			const apps = server.store.get(type, 'flux-system', 'apps');
			assert.ok(apps);
			const message =
				"health check failed after 30s: timeout waiting for: [Deployment/apps/web status: 'InProgress']";
			server.store.update(
				type,
				'flux-system',
				'apps',
				{
					...apps,
					status: {
						...(apps.status as Item),
						conditions: [
							{
								type: 'Ready',
								status: 'False',
								reason: 'HealthCheckFailed',
								message,
								lastTransitionTime: '2025-11-20T10:05:00Z',
							},
						],
					},
				},
				{ subresource: 'status' },
			);
			const warning = (): Item | undefined =>
				server.store
					.all(eventType, 'flux-system')
					.find((event) => event.reason === 'HealthCheckFailed');
			await until(() => warning() !== undefined, 'the HealthCheckFailed Event', [
				(listener) => server.store.subscribe(listener),
			]);
			assert.equal(warning()?.type, 'Warning');
			assert.equal(warning()?.message, message);
			assert.deepEqual(warning()?.source, { component: 'kustomize-controller' });
		},
	);
});
