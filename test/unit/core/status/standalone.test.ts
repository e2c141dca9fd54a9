// A reader computes the statuses of standalone objects as it reads them (the CLI on a big dump): each must get on its
// own exactly what computeStatuses gives it among all the others. The examples hold Fleet's parents with their
// BundleDeployments and KubeStellar's reports with their workloads, so the objects that do read others are there too.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import jsyaml from 'js-yaml';
import { isRecord } from '../../../../src/core/model/object.ts';
import { computeStatuses } from '../../../../src/core/status/registry.ts';
import { statusStandsAlone } from '../../../../src/core/status/standalone.ts';

const examples = join(import.meta.dirname, '../../../../examples');

function yamlFilesUnder(folder: string): string[] {
	return readdirSync(folder)
		.sort()
		.flatMap((entry) => {
			const path = join(folder, entry);
			if (statSync(path).isDirectory()) return yamlFilesUnder(path);
			return /\.ya?ml$/.test(entry) ? [path] : [];
		});
}

function exampleObjects(): Record<string, unknown>[] {
	const objects: Record<string, unknown>[] = [];
	for (const file of yamlFilesUnder(examples)) {
		let documents: unknown[];
		try {
			documents = jsyaml.loadAll(readFileSync(file, 'utf8'));
		} catch {
			continue;
		}
		for (const document of documents) {
			if (!isRecord(document)) continue;
			if (Array.isArray(document.items)) objects.push(...document.items.filter(isRecord));
			else objects.push(document);
		}
	}
	return objects;
}

describe('statuses that stand alone', () => {
	it('are what computeStatuses gives among all the other objects', () => {
		const objects = exampleObjects();
		const together = computeStatuses(objects, { now: 0 });
		let alone = 0;
		let readOthers = 0;
		objects.forEach((object, index) => {
			const [own] = computeStatuses([object], { now: 0 });
			if (statusStandsAlone(object)) {
				alone++;
				assert.deepEqual(own, together[index], `${String(object.kind)} ${index}`);
			} else if (JSON.stringify(own) !== JSON.stringify(together[index])) readOthers++;
		});
		assert.ok(alone > 50, `only ${alone} standalone objects`);
		// The examples do exercise statuses computed from other objects (Fleet roll-ups, KubeStellar workloads).
		assert.ok(readOthers > 5, `only ${readOthers} objects read others`);
	});

	it('are not claimed for Fleet parents, KubeStellar objects or Lists', () => {
		for (const [apiVersion, kind] of [
			['fleet.cattle.io/v1alpha1', 'GitRepo'],
			['fleet.cattle.io/v1alpha1', 'Bundle'],
			['fleet.cattle.io/v1alpha1', 'HelmOp'],
			['fleet.cattle.io/v1alpha1', 'Cluster'],
			['fleet.cattle.io/v1alpha1', 'ClusterGroup'],
			['control.kubestellar.io/v1alpha1', 'WorkStatus'],
			['v1', 'List'],
		] as const) {
			assert.equal(statusStandsAlone({ apiVersion, kind, metadata: { name: 'x' } }), false, kind);
		}
		assert.equal(
			statusStandsAlone({ apiVersion: 'fleet.cattle.io/v1alpha1', kind: 'BundleDeployment' }),
			true,
		);
		assert.equal(statusStandsAlone({ apiVersion: 'apps/v1', kind: 'Deployment' }), true);
	});
});
