import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { startDemo, type Demo } from '../../src/apiserver/demo.ts';
import {
	reconcileRequestAnnotation,
	startFluxController,
} from '../../src/apiserver/fluxController.ts';
import type { JsonObject } from '../../src/apiserver/patch.ts';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { kustomization as fluxKustomization } from '../support/objects.ts';
import { reportPendingWaits, until } from '../support/wait.ts';
import { metaOf, send, watch } from './client.ts';

afterEach(reportPendingWaits);

// The hang guard of every test here: each waits on the stand-in's status writes.
const guard = { timeout: 30_000 };

const kustomizations = '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations';
const readySince = '2025-11-20T09:00:00Z';

function kustomization(name: string, suspend = false): JsonObject {
	return fluxKustomization(name, {
		spec: { interval: '10m', path: './apps', suspend },
		status: {
			observedGeneration: 1,
			conditions: [
				{
					type: 'Ready',
					status: 'True',
					reason: 'ReconciliationSucceeded',
					message: 'Applied revision: main@sha1:4b1d8e2f',
					lastTransitionTime: readySince,
				},
			],
		},
	});
}

function requestReconcile(
	server: Pick<ApiServer, 'port' | 'caPem' | 'token'>,
	path: string,
	requestedAt: string,
): ReturnType<typeof send> {
	return send(server, 'PATCH', `${path}?fieldManager=flux-client-side-apply`, {
		contentType: 'application/merge-patch+json',
		body: { metadata: { annotations: { [reconcileRequestAnnotation]: requestedAt } } },
	});
}

interface FluxStatus {
	readonly lastHandledReconcileAt?: string;
	readonly conditions?: readonly { readonly type: string; readonly lastTransitionTime: string }[];
}

function statusOf(object: unknown): FluxStatus {
	const status = (object as { status?: FluxStatus }).status;
	return status ?? {};
}

/** Waits until the store holds a Kustomization whose reconcile request `requestedAt` was handled. */
async function handled(server: ApiServer, name: string, requestedAt: string): Promise<void> {
	const type = server.store.typeOf('kustomize.toolkit.fluxcd.io/v1', 'Kustomization');
	assert.ok(type);
	await until(
		() =>
			statusOf(server.store.get(type, 'flux-system', name) ?? {}).lastHandledReconcileAt ===
			requestedAt,
		`${name} to have handled ${requestedAt}`,
		[(listener) => server.store.subscribe(listener)],
	);
}

describe('the Flux stand-in', () => {
	let server: ApiServer;
	let stop: () => void;
	before(async () => {
		server = await startApiServer({
			objects: [kustomization('apps'), kustomization('paused', true)],
		});
		stop = startFluxController(server.store, { delayMs: 100 });
	});
	after(async () => {
		stop();
		await server.close();
	});

	it(
		'records a reconcile request as handled in status, seen by a watch, leaving Ready alone',
		guard,
		async () => {
			const stream = await watch(
				server,
				`${kustomizations}?watch=1&resourceVersion=${server.store.resourceVersion}`,
			);
			try {
				const requestedAt = '2025-06-01T12:00:00.000Z';
				const patched = await requestReconcile(server, `${kustomizations}/apps`, requestedAt);
				assert.equal(patched.status, 200);
				assert.equal(statusOf(patched.body).lastHandledReconcileAt, undefined, 'not at once');
				const events = await stream.waitFor(2);
				const handled = events[1]?.object;
				assert.equal(events[1]?.type, 'MODIFIED');
				assert.equal(statusOf(handled).lastHandledReconcileAt, requestedAt);
				assert.equal(statusOf(handled).conditions?.[0]?.lastTransitionTime, readySince);
				const managedFields = metaOf(handled).managedFields as {
					manager: string;
					subresource?: string;
				}[];
				assert.ok(
					managedFields.some(
						(entry) => entry.manager === 'kustomize-controller' && entry.subresource === 'status',
					),
					JSON.stringify(managedFields),
				);
			} finally {
				stream.close();
			}
		},
	);

	it(
		'waits while the object is suspended and handles the request once it is resumed',
		guard,
		async () => {
			const requestedAt = '2025-06-01T13:00:00.000Z';
			await requestReconcile(server, `${kustomizations}/paused`, requestedAt);
			// The same request on an object that is not suspended, made after: the stand-in answers requests in order
			// (one delay each), so once this one is handled, one for the suspended object would have been too.
			await requestReconcile(server, `${kustomizations}/apps`, requestedAt);
			await handled(server, 'apps', requestedAt);
			const waiting = await send(server, 'GET', `${kustomizations}/paused`);
			assert.equal(statusOf(waiting.body).lastHandledReconcileAt, undefined);
			await send(server, 'PATCH', `${kustomizations}/paused`, {
				contentType: 'application/merge-patch+json',
				body: { spec: { suspend: false } },
			});
			await handled(server, 'paused', requestedAt);
		},
	);
});

describe('the demo cluster without its scenario', () => {
	let demo: Demo;
	let folder: string;
	before(async () => {
		folder = await mkdtemp(join(tmpdir(), 'ksl-demo-flux-'));
		demo = await startDemo({
			basePort: 0,
			kubeconfigPath: join(folder, 'kubeconfig'),
			play: false,
			clusters: ['platform'],
		});
	});
	after(async () => {
		await demo.stop();
		await rm(folder, { recursive: true, force: true });
	});

	it('answers a Flux reconcile request', guard, async () => {
		const platform = demo.servers.get('platform');
		assert.ok(platform);
		const requestedAt = new Date().toISOString();
		assert.equal(
			(await requestReconcile(platform, `${kustomizations}/apps`, requestedAt)).status,
			200,
		);
		await handled(platform, 'apps', requestedAt);
		const answered = await send(platform, 'GET', `${kustomizations}/apps`);
		assert.equal(statusOf(answered.body).lastHandledReconcileAt, requestedAt);
		assert.equal(statusOf(answered.body).conditions?.[0]?.lastTransitionTime, readySince);
	});
});
