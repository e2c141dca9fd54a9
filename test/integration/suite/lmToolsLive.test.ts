import * as assert from 'node:assert/strict';
import { invokeText } from './lmToolsSupport.ts';
import { demoRequest, eventually, extensionApi, walk } from './support.ts';

const bundleDeploymentStatus =
	'/apis/fleet.cattle.io/v1alpha1/namespaces/cluster-fleet-default-prod-us-1-04523fc383a2/bundledeployments/shop-frontend/status';
const upgradeError =
	'failed to upgrade "shop-frontend": cannot patch "frontend" with kind Deployment: Deployment.apps "frontend" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "4": must be less than or equal to cpu limit of 2';

async function patchStatus(status: Record<string, unknown>): Promise<void> {
	const answer = await demoRequest(
		'fleet-mgmt',
		'PATCH',
		bundleDeploymentStatus,
		{ status },
		'application/merge-patch+json',
	);
	assert.ok(answer.status === 200 || answer.status === 201, `${answer.status} ${answer.body}`);
}

// The language model tools on the demo cluster: a call opens the contexts and waits for their first sync itself.
describe('language model tools on live contexts', () => {
	it('explains GitRepo shop from the live cache of fleet-mgmt, down to the failing cluster, saying how old it is', async () => {
		const ask = (): Promise<string> =>
			invokeText('explain_kube_status', { kind: 'GitRepo', name: 'shop', context: 'fleet-mgmt' });
		const before = await ask();
		assert.match(before, /Data: context fleet-mgmt read \d+ (s|min) ago/, before);
		const original = JSON.parse(
			(await demoRequest('fleet-mgmt', 'GET', bundleDeploymentStatus)).body,
		) as {
			status: Record<string, unknown>;
		};
		// What the demo's scenario writes when prod-us-1 rejects the new commit (the Fleet agent's ErrApplied).
		const condition = (type: string, status: string, message?: string) => ({
			type,
			status,
			...(message === undefined ? {} : { reason: 'Error', message }),
			lastUpdateTime: new Date().toISOString(),
		});
		await patchStatus({
			ready: false,
			conditions: [
				condition('Installed', 'True'),
				condition('Deployed', 'False', upgradeError),
				condition('Monitored', 'True'),
				condition('Ready', 'False', upgradeError),
			],
			display: { deployed: `Error: ${upgradeError}`, monitored: 'True', state: 'ErrApplied' },
		});
		try {
			let last = '';
			const text = await eventually(
				() => `the answer to reach the failing cluster; last:\n${last}`,
				async () => {
					last = await ask();
					return /must be less than or equal to cpu limit of 2/.test(last) ? last : undefined;
				},
			);
			assert.match(text, /GitRepo fleet-default\/shop/, text);
			assert.match(text, /prod-us-1/, text);
			assert.match(text, /Deployment shop\/frontend|"frontend"/, text);
			assert.match(text, /Data: context fleet-mgmt read \d+ (s|min) ago \(ready\)/, text);
		} finally {
			await patchStatus({
				ready: original.status.ready,
				conditions: original.status.conditions,
				display: original.status.display,
			});
		}
	});

	it("gives a live object's recent Events, read from its cluster", async () => {
		await invokeText('list_kube_status_problems', { context: 'platform' });
		const api = await extensionApi();
		// kustomize-controller records ReconciliationSucceeded each time it reconciles (the stand-in on start).
		const node = await eventually('the Kustomization in the platform context', () =>
			walk(api).find(
				(found) =>
					found.rootId === 'live:platform' &&
					found.kind === 'object' &&
					found.ref?.kind === 'Kustomization',
			),
		);
		const text = await invokeText('explain_kube_status', {
			kind: 'Kustomization',
			namespace: node.ref?.namespace ?? '',
			name: node.ref?.name ?? '',
			context: 'platform',
		});
		assert.match(text, /Recent events, newest first:\n(- .*\n)*- .*ReconciliationSucceeded/, text);
	});
});
