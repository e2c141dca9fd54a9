// Keep-alive connections: the local API server keeps an idle connection as long as kube-apiserver does (90 s, its
// http.Server's IdleTimeout), and says so in the Keep-Alive header clients read. With Node's default of 5 s, a client
// busy parsing a large list page for longer than that sent its next request on a connection the server had just
// closed, and met a reset (the k8s benchmark died of it on a loaded machine).
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { bundleDeployment } from '../support/objects.ts';

function get(
	server: ApiServer,
	agent: Agent,
	path: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; reusedSocket: boolean }> {
	return new Promise((resolve, reject) => {
		const sent = request(
			{
				host: '127.0.0.1',
				port: server.port,
				path,
				agent,
				headers: { Authorization: `Bearer ${server.token}` },
			},
			(response) => {
				response.resume();
				response.on('error', reject);
				response.on('end', () =>
					resolve({
						status: response.statusCode ?? 0,
						headers: response.headers,
						reusedSocket: sent.reusedSocket,
					}),
				);
			},
		);
		sent.on('error', reject);
		sent.end();
	});
}

describe('keep-alive connections', () => {
	let server: ApiServer;
	let agent: Agent;
	before(async () => {
		server = await startApiServer({ objects: [bundleDeployment('web', { namespace: 'a' })] });
		agent = new Agent({ keepAlive: true, maxSockets: 1, ca: server.caPem });
	});
	after(async () => {
		agent.destroy();
		await server.close();
	});

	it('keeps an idle connection 90 s as kube-apiserver does, and tells the client so', async () => {
		const first = await get(server, agent, '/apis/fleet.cattle.io/v1alpha1/bundledeployments');
		assert.equal(first.status, 200);
		assert.equal(first.headers.connection, 'keep-alive');
		assert.equal(first.headers['keep-alive'], 'timeout=90');
		const second = await get(server, agent, '/apis/fleet.cattle.io/v1alpha1/bundledeployments');
		assert.equal(second.status, 200);
		assert.equal(second.reusedSocket, true);
	});
});
