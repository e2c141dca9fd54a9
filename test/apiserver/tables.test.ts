// The Table format kubectl asks for (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`): a CRD's printer
// columns with their JSONPath cells, ages from the creation timestamp as kube-apiserver prints them, what a row
// carries of its object, one-row Tables on a watch, and the CRD objects that declare the columns.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { reportPendingWaits } from '../support/wait.ts';
import { send, watch } from './client.ts';

afterEach(reportPendingWaits);

const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const combined = '/apis/control.kubestellar.io/v1alpha1/namespaces/wds1/combinedstatuses';
const kustomizations = '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations';

interface Table {
	readonly kind: string;
	readonly columnDefinitions: { name: string; priority: number }[] | null;
	readonly rows: { cells: unknown[]; object?: Record<string, unknown> }[];
}

describe('Tables of custom resources', () => {
	let server: ApiServer;
	let clock = new Date('2025-06-25T15:00:00Z');
	before(async () => {
		server = await startApiServer({ namespaces: ['wds1', 'flux-system'], now: () => clock });
		server.store.put({
			apiVersion: 'control.kubestellar.io/v1alpha1',
			kind: 'CombinedStatus',
			metadata: {
				name: 'nginx-status',
				namespace: 'wds1',
				labels: {
					'status.kubestellar.io/api-group': 'apps',
					'status.kubestellar.io/resource': 'deployments',
					'status.kubestellar.io/namespace': 'nginx',
					'status.kubestellar.io/name': 'nginx',
					'status.kubestellar.io/binding-policy': 'nginx-bp',
				},
			},
		});
	});
	after(() => server.close());

	it("reads label keys with dots, as KubeStellar's CombinedStatus columns name them", async () => {
		const response = await send(server, 'GET', combined, { accept: tableAccept });
		assert.equal(response.status, 200);
		assert.match(String(response.headers['content-type']), /as=Table/);
		const table = response.body as unknown as Table;
		assert.equal(table.kind, 'Table');
		assert.deepEqual(
			table.columnDefinitions?.map((column) => column.name),
			['Name', 'SUBJECT_GROUP', 'SUBJECT_RSC', 'SUBJECT_NS', 'SUBJECT_NAME', 'BINDINGPOLICY'],
		);
		assert.deepEqual(table.rows[0]?.cells, [
			'nginx-status',
			'apps',
			'deployments',
			'nginx',
			'nginx',
			'nginx-bp',
		]);
		// By default a row carries its object's metadata only.
		assert.equal(table.rows[0]?.object?.kind, 'PartialObjectMetadata');
		const none = await send(server, 'GET', `${combined}?includeObject=None`, {
			accept: tableAccept,
		});
		assert.equal((none.body as unknown as Table).rows[0]?.object, undefined);
		// Without the Table Accept, the plain list as before.
		const plain = await send(server, 'GET', combined);
		assert.equal(plain.body.kind, 'CombinedStatusList');
	});

	it('prints the age of a date column as kube-apiserver does, and a watch sends one-row Tables', async () => {
		const created = await send(server, 'POST', kustomizations, {
			body: {
				apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
				kind: 'Kustomization',
				metadata: { name: 'apps' },
				spec: { interval: '10m', path: './apps', sourceRef: { kind: 'GitRepository', name: 'x' } },
			},
		});
		assert.equal(created.status, 201, created.text);
		const cells = async (): Promise<unknown[]> => {
			const response = await send(server, 'GET', kustomizations, { accept: tableAccept });
			return (response.body as unknown as Table).rows[0]?.cells ?? [];
		};
		// Name, Age, Ready, Status: Ready and Status have no value yet.
		clock = new Date('2025-06-25T15:07:30Z');
		assert.deepEqual(await cells(), ['apps', '7m30s', null, null]);
		clock = new Date('2025-06-25T18:20:00Z');
		assert.deepEqual(await cells(), ['apps', '3h20m', null, null]);
		clock = new Date('2025-06-28T19:00:00Z');
		assert.deepEqual(await cells(), ['apps', '3d4h', null, null]);

		const stream = await watch(server, `${kustomizations}?watch=1`, { accept: tableAccept });
		try {
			const [first] = await stream.waitFor(1);
			const firstTable = first?.object as unknown as Table;
			assert.equal(firstTable.kind, 'Table');
			assert.equal(firstTable.columnDefinitions?.length, 4);
			const patched = await send(server, 'PATCH', `${kustomizations}/apps/status`, {
				contentType: 'application/merge-patch+json',
				body: {
					status: {
						conditions: [
							{
								type: 'Ready',
								status: 'True',
								reason: 'ReconciliationSucceeded',
								message: 'Applied revision: main@sha1:4b1d8e2f',
								lastTransitionTime: '2025-06-28T19:00:00Z',
							},
						],
					},
				},
			});
			assert.equal(patched.status, 200, patched.text);
			const events = await stream.waitFor(2);
			const second = events[1]?.object as unknown as Table;
			assert.equal(
				second.columnDefinitions,
				null,
				'the column definitions come with the first only',
			);
			assert.deepEqual(second.rows[0]?.cells, [
				'apps',
				'3d4h',
				'True',
				'Applied revision: main@sha1:4b1d8e2f',
			]);
		} finally {
			stream.close();
		}
	});

	it('serves the CRDs, with the printer columns they declare', async () => {
		const crd = await send(
			server,
			'GET',
			'/apis/apiextensions.k8s.io/v1/customresourcedefinitions/harborclusters.goharbor.io',
		);
		assert.equal(crd.status, 200, crd.text);
		const spec = crd.body.spec as {
			scope: string;
			versions: {
				name: string;
				additionalPrinterColumns?: { name: string; priority?: number }[];
			}[];
		};
		assert.equal(spec.scope, 'Namespaced');
		assert.deepEqual(
			spec.versions[0]?.additionalPrinterColumns?.map((column) => [
				column.name,
				column.priority ?? 0,
			]),
			[
				['Public URL', 0],
				['Status', 0],
				['Operator Version', 30],
				['Operator Git Commit', 30],
			],
		);
		const list = await send(
			server,
			'GET',
			'/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
		);
		const names = (list.body.items ?? []).map((item) => (item.metadata as { name: string }).name);
		assert.ok(names.includes('gitrepos.fleet.cattle.io'));
		assert.ok(!names.some((name) => name.endsWith('.k8s.io') || name.startsWith('deployments.')));
		// A CRD that declares no columns has none in the object (the server's Age is not part of it).
		const workStatus = await send(
			server,
			'GET',
			'/apis/apiextensions.k8s.io/v1/customresourcedefinitions/workstatuses.control.kubestellar.io',
		);
		const versions = (workStatus.body.spec as { versions: Record<string, unknown>[] }).versions;
		assert.equal(versions[0]?.additionalPrinterColumns, undefined);
	});
});
