import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startDemo, type Demo } from '../../src/apiserver/demo.ts';
import {
	reconcileRequestAnnotation,
	startFluxController,
} from '../../src/apiserver/fluxController.ts';
import type { JsonObject } from '../../src/apiserver/patch.ts';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { metaOf, send, watch } from './client.ts';

const kustomizations = '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations';
const readySince = '2025-11-20T09:00:00Z';

function kustomization(name: string, suspend = false): JsonObject {
	return {
		apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
		kind: 'Kustomization',
		metadata: { name, namespace: 'flux-system' },
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
	};
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

async function eventually<T>(read: () => Promise<T>, test: (value: T) => boolean): Promise<T> {
	const until = Date.now() + 5000;
	for (;;) {
		const value = await read();
		if (test(value) || Date.now() > until) return value;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
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

	it('records a reconcile request as handled in status, seen by a watch, leaving Ready alone', async () => {
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
	});

	it('waits while the object is suspended and handles the request once it is resumed', async () => {
		const requestedAt = '2025-06-01T13:00:00.000Z';
		await requestReconcile(server, `${kustomizations}/paused`, requestedAt);
		await new Promise((resolve) => setTimeout(resolve, 300));
		const waiting = await send(server, 'GET', `${kustomizations}/paused`);
		assert.equal(statusOf(waiting.body).lastHandledReconcileAt, undefined);
		await send(server, 'PATCH', `${kustomizations}/paused`, {
			contentType: 'application/merge-patch+json',
			body: { spec: { suspend: false } },
		});
		const resumed = await eventually(
			() => send(server, 'GET', `${kustomizations}/paused`),
			(response) => statusOf(response.body).lastHandledReconcileAt !== undefined,
		);
		assert.equal(statusOf(resumed.body).lastHandledReconcileAt, requestedAt);
	});
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

	it('answers a Flux reconcile request', async () => {
		const platform = demo.servers.get('platform');
		assert.ok(platform);
		const requestedAt = new Date().toISOString();
		assert.equal(
			(await requestReconcile(platform, `${kustomizations}/apps`, requestedAt)).status,
			200,
		);
		const handled = await eventually(
			() => send(platform, 'GET', `${kustomizations}/apps`),
			(response) => statusOf(response.body).lastHandledReconcileAt === requestedAt,
		);
		assert.equal(statusOf(handled.body).lastHandledReconcileAt, requestedAt);
		assert.equal(statusOf(handled.body).conditions?.[0]?.lastTransitionTime, readySince);
	});
});
