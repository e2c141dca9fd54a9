import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCertificates } from '../../src/apiserver/certificates.ts';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { gitRepo } from '../support/objects.ts';
import { configMap, gitRepos, send } from './client.ts';

describe('TLS and authentication', () => {
	let server: ApiServer;
	before(async () => {
		server = await startApiServer({
			namespaces: ['fleet-default'],
			users: [
				{
					name: 'viewer',
					token: 'viewer-token',
					forbidden: [
						{ verbs: ['create', 'update', 'patch', 'delete'] },
						{ verbs: ['list', 'watch'], resource: 'bundledeployments', namespace: '' },
						{ resource: 'secrets' },
					],
				},
			],
		});
	});
	after(() => server.close());

	it('serves a certificate for 127.0.0.1 that verifies against its CA only', async () => {
		const ok = await send(server, 'GET', '/version');
		assert.equal(ok.status, 200);
		const otherCa = createCertificates().caPem;
		await assert.rejects(
			send(server, 'GET', '/version', { ca: otherCa }),
			/self-signed|unable to verify|certificate/i,
		);
	});

	it('answers 401 Unauthorized without a token and with a wrong one', async () => {
		for (const token of [null, 'wrong']) {
			const response = await send(server, 'GET', '/api/v1/namespaces', { token });
			assert.equal(response.status, 401);
			assert.deepEqual(
				{
					kind: response.body.kind,
					reason: response.body.reason,
					code: response.body.code,
					status: response.body.status,
				},
				{ kind: 'Status', reason: 'Unauthorized', code: 401, status: 'Failure' },
			);
		}
	});

	it('answers 403 Forbidden with kube-apiserver wording for a user who may not', async () => {
		const create = await send(server, 'POST', gitRepos(), {
			token: 'viewer-token',
			body: gitRepo('nope'),
		});
		assert.equal(create.status, 403);
		assert.equal(create.body.reason, 'Forbidden');
		assert.equal(
			create.body.message,
			'gitrepos.fleet.cattle.io is forbidden: User "viewer" cannot create resource "gitrepos" in API group "fleet.cattle.io" in the namespace "fleet-default"',
		);
		const secret = await send(server, 'GET', '/api/v1/namespaces/default/secrets/x', {
			token: 'viewer-token',
		});
		assert.equal(
			secret.body.message,
			'secrets "x" is forbidden: User "viewer" cannot get resource "secrets" in API group "" in the namespace "default"',
		);
	});

	it('forbids a cluster-wide list but allows the same list in a namespace', async () => {
		const wide = await send(server, 'GET', '/apis/fleet.cattle.io/v1alpha1/bundledeployments', {
			token: 'viewer-token',
		});
		assert.equal(wide.status, 403);
		assert.match(
			String(wide.body.message),
			/cannot list resource "bundledeployments" in API group "fleet.cattle.io" at the cluster scope$/,
		);
		const watchWide = await send(
			server,
			'GET',
			'/apis/fleet.cattle.io/v1alpha1/bundledeployments?watch=1',
			{ token: 'viewer-token' },
		);
		assert.equal(watchWide.status, 403);
		const narrow = await send(
			server,
			'GET',
			'/apis/fleet.cattle.io/v1alpha1/namespaces/cluster-a/bundledeployments',
			{ token: 'viewer-token' },
		);
		assert.equal(narrow.status, 200);
	});

	it('lets the viewer read what is not forbidden', async () => {
		assert.equal(
			(
				await send(server, 'POST', '/api/v1/namespaces/default/configmaps', {
					body: configMap('readable'),
				})
			).status,
			201,
		);
		const read = await send(server, 'GET', '/api/v1/namespaces/default/configmaps/readable', {
			token: 'viewer-token',
		});
		assert.equal(read.status, 200);
	});

	it('authenticates a client certificate signed by its CA, the user being the CN', async () => {
		const viewer = server.issueClientCertificate('viewer');
		const forbidden = await send(server, 'GET', '/api/v1/namespaces/default/secrets', {
			token: null,
			cert: viewer.certPem,
			key: viewer.keyPem,
		});
		assert.equal(forbidden.status, 403);
		assert.match(String(forbidden.body.message), /User "viewer"/);
		const someone = server.issueClientCertificate('someone');
		const allowed = await send(server, 'GET', '/api/v1/namespaces/default/secrets', {
			token: null,
			cert: someone.certPem,
			key: someone.keyPem,
		});
		assert.equal(allowed.status, 200);
	});

	it('refuses a client certificate from another CA', async () => {
		const other = await startApiServer({ certificates: createCertificates() });
		try {
			const foreign = other.issueClientCertificate('admin');
			const response = await send(server, 'GET', '/api/v1/namespaces', {
				token: null,
				cert: foreign.certPem,
				key: foreign.keyPem,
			});
			assert.equal(response.status, 401);
		} finally {
			await other.close();
		}
	});
});
