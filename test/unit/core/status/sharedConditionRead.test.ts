// computeStatus decodes status.conditions once for kstatus and Argo CD health, reads them once for the system rule,
// and finds kstatus and Argo CD rules by group and kind without building a key. These tests compare that path with
// each rule reading the object on its own, over the conformance inputs and many mutated copies of them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeHealth } from '../../../../src/core/status/argocdHealth.ts';
import { computeAsoStatus } from '../../../../src/core/status/aso.ts';
import { computeFleetStatus } from '../../../../src/core/status/fleet.ts';
import { computeFluxStatus } from '../../../../src/core/status/flux.ts';
import { computeHarborStatus } from '../../../../src/core/status/harbor.ts';
import { KindTable } from '../../../../src/core/status/kindTable.ts';
import { computeKstatus } from '../../../../src/core/status/kstatus.ts';
import { computeKubestellarStatus } from '../../../../src/core/status/kubestellar.ts';
import { computeStatus, computeStatuses, systemOf } from '../../../../src/core/status/registry.ts';
import { loadVectors } from '../../../support/conformance.ts';

const hostileValues: readonly unknown[] = [
	null,
	0,
	1.5,
	2 ** 60,
	'',
	'True',
	'False',
	'Unknown',
	true,
	false,
	[],
	[null],
	[{}],
	{},
	{ type: 'Ready' },
	{ type: 'Ready', status: 'True' },
	{ type: 'Ready', status: false, reason: 'Failed' },
	{ type: 'Stalled', status: 'True', reason: 'Stuck', message: 'stuck' },
	{ type: 'Reconciling', status: 'True', reason: 'Progressing' },
	{ type: 5, status: 'True' },
	'apps/Deployment',
];

/** A small deterministic generator, so every run checks the same copies. */
function randomSource(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1103515245 + 12345) & 0x7fffffff;
		return state / 0x7fffffff;
	};
}

type Path = readonly (string | number)[];

function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
	if (typeof value !== 'object' || value === null) return out;
	for (const key of Object.keys(value)) {
		const path = [...prefix, Array.isArray(value) ? Number(key) : key];
		out.push(path);
		pathsOf((value as Record<string, unknown>)[key], path, out);
	}
	return out;
}

/** A copy of `value` with one to three fields replaced by hostile values or removed. */
function mutated(value: unknown, random: () => number): unknown {
	const copy: unknown = structuredClone(value);
	const paths = pathsOf(copy);
	if (paths.length === 0) return copy;
	const changes = 1 + Math.floor(random() * 3);
	for (let change = 0; change < changes; change++) {
		const path = paths[Math.floor(random() * paths.length)] ?? [];
		let holder: unknown = copy;
		for (const key of path.slice(0, -1)) {
			holder = (holder as Record<string | number, unknown> | undefined)?.[key];
		}
		if (typeof holder !== 'object' || holder === null) continue;
		const last = path[path.length - 1] as string | number;
		if (random() < 0.15) {
			if (Array.isArray(holder)) holder.splice(Number(last), 1);
			else delete (holder as Record<string | number, unknown>)[last];
		} else {
			(holder as Record<string | number, unknown>)[last] = structuredClone(
				hostileValues[Math.floor(random() * hostileValues.length)],
			);
		}
	}
	return copy;
}

function conformanceInputs(): unknown[] {
	const inputs: unknown[] = [];
	for (const folder of ['kstatus', 'argocd', 'fleet', 'kubestellar']) {
		for (const vector of loadVectors(folder)) {
			if (Array.isArray(vector.input)) inputs.push(...(vector.input as unknown[]));
			else inputs.push(vector.input);
		}
	}
	const systems: Record<string, unknown>[] = [
		{
			apiVersion: 'goharbor.io/v1beta1',
			kind: 'HarborCluster',
			metadata: { name: 'h', generation: 2 },
			status: {
				status: 'healthy',
				conditions: [
					{ type: 'StorageReady', status: 'True' },
					{ type: 'DatabaseReady', status: 'False', reason: 'Down', message: 'db down' },
					{ type: 'CacheReady', status: 'True' },
				],
			},
		},
		{
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'HelmRepository',
			metadata: { name: 'r', generation: 1 },
			spec: { url: 'https://charts.example.com', interval: '5m' },
			status: {
				observedGeneration: 1,
				conditions: [
					{ type: 'Ready', status: 'False', reason: 'AuthenticationFailed', message: 'denied' },
					{ type: 'ArtifactInStorage', status: 'True', reason: 'Succeeded' },
				],
			},
		},
		{
			apiVersion: 'resources.azure.com/v1api20200601',
			kind: 'ResourceGroup',
			metadata: { name: 'rg', generation: 3 },
			status: {
				conditions: [
					{
						type: 'Ready',
						status: 'False',
						severity: 'Warning',
						reason: 'WaitingForOwner',
						observedGeneration: 2,
					},
				],
			},
		},
		{
			apiVersion: 'control.kubestellar.io/v1alpha1',
			kind: 'BindingPolicy',
			metadata: { name: 'p', generation: 1 },
			status: { observedGeneration: 1, conditions: [{ type: 'Synced', status: 'True' }] },
		},
	];
	return [...inputs, ...systems];
}

/** The system rule called on its own, reading status.conditions itself. */
function systemRuleAlone(object: Record<string, unknown>): unknown {
	switch (systemOf(object)) {
		case 'fleet':
			return computeFleetStatus(object);
		case 'harbor':
			return computeHarborStatus(object);
		case 'flux':
			return computeFluxStatus(object);
		case 'aso':
			return computeAsoStatus(object);
		case 'kubestellar':
			return computeKubestellarStatus(object);
		case 'kubernetes':
			return undefined;
	}
}

describe('status engine: one read of status.conditions per object', () => {
	it('gives each system rule the verdict it reaches reading the object alone, on conformance inputs and mutated copies', () => {
		const random = randomSource(14);
		let compared = 0;
		for (const input of conformanceInputs()) {
			for (let copy = 0; copy < 25; copy++) {
				const object = copy === 0 ? input : mutated(input, random);
				const result = computeStatus(object);
				if (typeof object !== 'object' || object === null || Array.isArray(object)) continue;
				const record = object as Record<string, unknown>;
				if (typeof record.kind !== 'string' || record.kind === '') continue;
				if (typeof record.apiVersion !== 'string' || record.apiVersion === '') continue;
				assert.deepEqual(result.kstatus, computeKstatus(object), JSON.stringify(object));
				assert.deepEqual(result.health, computeHealth(object), JSON.stringify(object));
				const alone = systemRuleAlone(record);
				if (alone === undefined) continue;
				const { kstatus: _kstatus, health: _health, ...verdict } = result;
				assert.deepEqual(verdict, alone, JSON.stringify(object));
				compared++;
			}
		}
		assert.ok(compared > 300, `compared ${compared} system verdicts`);
	});

	it('reads the object afresh on every call: a changed condition changes the answer', () => {
		const bundleDeployment = {
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'BundleDeployment',
			metadata: { name: 'b', namespace: 'cluster-ns' },
			spec: { deploymentID: 'd1', stagedDeploymentID: 'd1' },
			status: {
				appliedDeploymentID: 'd1',
				ready: true,
				nonModified: true,
				conditions: [{ type: 'Ready', status: 'True' }],
			},
		};
		assert.equal(computeStatus(bundleDeployment).state, 'Ready');
		bundleDeployment.status.conditions.push({ type: 7 } as never);
		const changed = computeStatus(bundleDeployment);
		assert.equal(changed.state, 'Unknown');
		assert.deepEqual(computeStatuses([bundleDeployment])[0], {
			...changed,
			computed: computeStatuses([structuredClone(bundleDeployment)])[0]?.computed,
		});

		const deployment: Record<string, unknown> = {
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			metadata: { name: 'web', generation: 1 },
			spec: { replicas: 1 },
			status: {
				observedGeneration: 1,
				replicas: 1,
				updatedReplicas: 1,
				readyReplicas: 1,
				availableReplicas: 1,
				conditions: [{ type: 'Available', status: 'True' }],
			},
		};
		assert.equal(computeStatus(deployment).kstatus.status, 'Current');
		(deployment.status as Record<string, unknown>).conditions = [
			{ type: 'Stalled', status: 'True', reason: 'Broken', message: 'broken' },
		];
		assert.deepEqual(computeStatus(deployment).kstatus, {
			status: 'Failed',
			message: 'broken',
			reason: 'Broken',
		});
	});
});

describe('rules found by group and kind', () => {
	const keys = ['apps/Deployment', '/Pod', 'Service', 'batch/Job', 'networking.k8s.io/Ingress'];
	const table = new KindTable(keys.map((key) => [key, key] as const));

	it('finds an entry only under its own group and kind', () => {
		assert.equal(table.get('apps', 'Deployment'), 'apps/Deployment');
		assert.equal(table.get('', 'Pod'), '/Pod');
		assert.equal(table.get('', 'Service'), 'Service');
		assert.equal(table.get('networking.k8s.io', 'Ingress'), 'networking.k8s.io/Ingress');
		assert.equal(table.get('', 'Deployment'), undefined);
		assert.equal(table.get('apps', 'Pod'), undefined);
		assert.equal(table.get('extensions', 'Ingress'), undefined);
		assert.equal(table.get('', 'apps/Deployment'), undefined);
		assert.equal(table.get('apps', 'x/Deployment'), undefined);
	});

	it('keeps kstatus and Argo CD rules per group: a core Deployment or an apps Pod gets no kind rule', () => {
		const pending = { conditions: [] };
		assert.equal(
			computeKstatus({ apiVersion: 'v1', kind: 'Deployment', status: pending }).message,
			'Resource is current',
		);
		assert.equal(
			computeKstatus({ apiVersion: 'apps/v1', kind: 'Pod', status: pending }).message,
			'Resource is current',
		);
		assert.equal(
			computeKstatus({ apiVersion: 'v1', kind: 'Pod', status: pending }).message,
			'Pod phase not available',
		);
		assert.equal(computeHealth({ apiVersion: 'apps/v1', kind: 'Pod' }), null);
		assert.equal(computeHealth({ apiVersion: 'v1', kind: 'Deployment' }), null);
		assert.equal(computeHealth({ apiVersion: 'v1', kind: '/Pod' }), null);
		assert.notEqual(computeHealth({ apiVersion: 'v1', kind: 'Pod' }), null);
	});
});
