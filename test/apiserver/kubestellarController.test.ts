import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { demoExamplesFolder } from '../../src/apiserver/demo.ts';
import { reconcileKubestellarStatus } from '../../src/apiserver/kubestellarController.ts';
import { loadObjects, readObjects } from '../../src/apiserver/scenario.ts';
import { ObjectStore, type KubeObject } from '../../src/apiserver/store.ts';

async function demoStores(): Promise<{ wds: ObjectStore; its: ObjectStore }> {
	const stores = { wds: new ObjectStore(), its: new ObjectStore() };
	for (const [name, store] of Object.entries(stores)) {
		const read = await readObjects([join(demoExamplesFolder, `kubestellar-${name}`)]);
		assert.deepEqual(loadObjects(store, read.objects).problems, []);
	}
	return stores;
}

function deploymentOf(wds: ObjectStore): KubeObject {
	const type = wds.typeOf('apps/v1', 'Deployment');
	assert.ok(type);
	const deployment = wds.get(type, 'nginx', 'nginx');
	assert.ok(deployment);
	return deployment;
}

describe("the demo's stand-in for KubeStellar's status controller", () => {
	it('writes the multi-WEC aggregation the released controller would write into the WDS workload', async () => {
		const { wds, its } = await demoStores();
		assert.equal(deploymentOf(wds).status, undefined);
		assert.equal(reconcileKubestellarStatus(wds, its), 1);
		const deployment = deploymentOf(wds);
		const status = deployment.status as Record<string, unknown>;
		// Min of the counters over the three WECs; no Available condition, as the released rules drop it.
		assert.equal(status.replicas, 2);
		assert.equal(status.readyReplicas, 2);
		assert.equal(status.availableReplicas, 2);
		assert.deepEqual(status.conditions, []);
		const managers = (deployment.metadata as { managedFields?: { manager?: string }[] })
			.managedFields;
		assert.ok(managers?.some((entry) => entry.manager === 'kubestellar-controller-manager'));
		// Nothing new to write: no second update.
		assert.equal(reconcileKubestellarStatus(wds, its), 0);
	});

	it('follows a WEC whose copy changes', async () => {
		const { wds, its } = await demoStores();
		reconcileKubestellarStatus(wds, its);
		const type = its.typeOf('control.kubestellar.io/v1alpha1', 'WorkStatus');
		assert.ok(type);
		const [first] = its.all(type, 'cluster1');
		assert.ok(first);
		its.put({
			...first,
			status: { ...(first.status as Record<string, unknown>), readyReplicas: 0 },
		});
		assert.equal(reconcileKubestellarStatus(wds, its), 1);
		assert.equal((deploymentOf(wds).status as Record<string, unknown>).readyReplicas, 0);
	});
});
