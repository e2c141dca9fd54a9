import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { send } from './client.ts';

const aggregatedAccept =
	'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

describe('discovery', () => {
	let server: ApiServer;
	before(async () => {
		server = await startApiServer();
	});
	after(() => server.close());

	it('answers /version with a Kubernetes version', async () => {
		const response = await send(server, 'GET', '/version');
		assert.equal(response.status, 200);
		assert.equal(response.body.major, '1');
		assert.match(String(response.body.gitVersion), /^v1\.\d+\./);
	});

	it('lists the core version at /api and the named groups at /apis', async () => {
		const api = await send(server, 'GET', '/api');
		assert.equal(api.body.kind, 'APIVersions');
		assert.deepEqual(api.body.versions, ['v1']);
		const apis = await send(server, 'GET', '/apis');
		assert.equal(apis.body.kind, 'APIGroupList');
		const names = (apis.body.groups as { name: string }[]).map((group) => group.name);
		for (const group of [
			'apps',
			'fleet.cattle.io',
			'control.kubestellar.io',
			'goharbor.io',
			'source.toolkit.fluxcd.io',
			'kustomize.toolkit.fluxcd.io',
			'helm.toolkit.fluxcd.io',
			'resources.azure.com',
			'storage.azure.com',
			'azure.microsoft.com',
		]) {
			assert.ok(names.includes(group), group);
		}
	});

	it('describes every resource of a group version, with its status subresource', async () => {
		const response = await send(server, 'GET', '/apis/fleet.cattle.io/v1alpha1');
		assert.equal(response.body.kind, 'APIResourceList');
		assert.equal(response.body.groupVersion, 'fleet.cattle.io/v1alpha1');
		const resources = response.body.resources as {
			name: string;
			singularName: string;
			namespaced: boolean;
			kind: string;
			verbs: string[];
		}[];
		const names = resources.map((resource) => resource.name);
		for (const plural of [
			'gitrepos',
			'helmops',
			'bundles',
			'bundledeployments',
			'clusters',
			'clustergroups',
		]) {
			assert.ok(names.includes(plural), plural);
			assert.ok(names.includes(`${plural}/status`), `${plural}/status`);
		}
		const bd = resources.find((resource) => resource.name === 'bundledeployments');
		assert.deepEqual(
			{
				singular: bd?.singularName,
				namespaced: bd?.namespaced,
				kind: bd?.kind,
				watch: bd?.verbs.includes('watch'),
			},
			{ singular: 'bundledeployment', namespaced: true, kind: 'BundleDeployment', watch: true },
		);
	});

	it('publishes short names (ws, bp) in the core and named resource lists', async () => {
		const kubestellar = await send(server, 'GET', '/apis/control.kubestellar.io/v1alpha1');
		const resources = kubestellar.body.resources as {
			name: string;
			shortNames?: string[];
			namespaced: boolean;
		}[];
		assert.deepEqual(resources.find((r) => r.name === 'workstatuses')?.shortNames, ['ws']);
		assert.deepEqual(resources.find((r) => r.name === 'bindingpolicies')?.shortNames, ['bp']);
		assert.equal(resources.find((r) => r.name === 'bindingpolicies')?.namespaced, false);
		const core = await send(server, 'GET', '/api/v1');
		const namespaces = (core.body.resources as { name: string; namespaced: boolean }[]).find(
			(r) => r.name === 'namespaces',
		);
		assert.equal(namespaces?.namespaced, false);
	});

	it('answers /apis/<group> with the group and its preferred version', async () => {
		const response = await send(server, 'GET', '/apis/helm.toolkit.fluxcd.io');
		assert.equal(response.body.kind, 'APIGroup');
		assert.deepEqual(response.body.preferredVersion, {
			groupVersion: 'helm.toolkit.fluxcd.io/v2',
			version: 'v2',
		});
	});

	it('serves aggregated discovery v2 when asked for it, as kubectl asks', async () => {
		const response = await send(server, 'GET', '/apis', { accept: aggregatedAccept });
		assert.equal(
			response.headers['content-type'],
			'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
		);
		assert.equal(response.body.kind, 'APIGroupDiscoveryList');
		const items = response.body.items as {
			metadata: { name: string };
			versions: {
				version: string;
				resources: { resource: string; scope: string; subresources?: unknown[] }[];
			}[];
		}[];
		const fleet = items.find((item) => item.metadata.name === 'fleet.cattle.io');
		const gitrepos = fleet?.versions[0]?.resources.find(
			(resource) => resource.resource === 'gitrepos',
		);
		assert.equal(gitrepos?.scope, 'Namespaced');
		assert.equal(gitrepos?.subresources?.length, 1);
		const core = await send(server, 'GET', '/api', { accept: aggregatedAccept });
		assert.deepEqual(
			(core.body.items as { metadata: { name: string } }[]).map((item) => item.metadata.name),
			[''],
		);
	});

	it('falls back to the legacy documents for a plain JSON Accept', async () => {
		const response = await send(server, 'GET', '/apis', { accept: 'application/json' });
		assert.equal(response.body.kind, 'APIGroupList');
	});

	it('answers an unknown group or resource with a NotFound Status', async () => {
		for (const path of [
			'/apis/example.com/v1',
			'/apis/fleet.cattle.io/v1alpha1/namespaces/x/widgets',
			'/openapi/v2',
		]) {
			const response = await send(server, 'GET', path);
			assert.equal(response.status, 404, path);
			assert.equal(response.body.kind, 'Status');
			assert.equal(response.body.reason, 'NotFound');
		}
	});
});

describe('a server with only some groups served', () => {
	let server: ApiServer;
	before(async () => {
		server = await startApiServer({ groups: ['', 'apps', 'source.toolkit.fluxcd.io'] });
	});
	after(() => server.close());

	it('leaves the other groups out of discovery and answers their paths with 404 (not installed)', async () => {
		const apis = await send(server, 'GET', '/apis');
		const names = (apis.body.groups as { name: string }[]).map((group) => group.name);
		// Serving the core group serves the built-in events.k8s.io and apiextensions.k8s.io with it.
		assert.deepEqual(names, [
			'events.k8s.io',
			'apiextensions.k8s.io',
			'apps',
			'source.toolkit.fluxcd.io',
		]);
		const list = await send(server, 'GET', '/apis/fleet.cattle.io/v1alpha1/gitrepos');
		assert.equal(list.status, 404);
		assert.equal(list.body.reason, 'NotFound');
	});

	it('installs a group later, as if its CRDs were applied', async () => {
		server.setServedGroups(['', 'apps', 'source.toolkit.fluxcd.io', 'fleet.cattle.io']);
		const list = await send(server, 'GET', '/apis/fleet.cattle.io/v1alpha1/gitrepos');
		assert.equal(list.status, 200);
		assert.equal(list.body.kind, 'GitRepoList');
		server.setServedGroups(['']);
		assert.equal((await send(server, 'GET', '/apis/apps/v1/deployments')).status, 404);
	});
});
