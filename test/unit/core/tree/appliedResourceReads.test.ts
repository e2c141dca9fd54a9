import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	appliedResourcesPlace,
	appliedRowRoleOf,
	appliedRowShown,
	readingOfObject,
	recordedPatchOf,
} from '../../../../src/core/tree/appliedResources.ts';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';
import type { TreeNode } from '../../../../src/core/tree/treeNode.ts';
import { celLanguage } from '../../../../src/cel/celLanguage.ts';
import { useCelLanguage } from '../../../../src/core/status/fluxHealthChecks.ts';

// CEL as the front ends hand it in (dist/cel.cjs): health check expressions are parsed and evaluated.
useCelLanguage(() => celLanguage);

function rowOf(graph: ResourceGraph, kind: string, name: string): TreeNode | undefined {
	const visit = (id: string | undefined): TreeNode | undefined => {
		for (const node of graph.children(id)) {
			if (node.kind === 'object' && node.ref?.kind === kind && node.ref.name === name) return node;
			const found = visit(node.id);
			if (found) return found;
		}
		return undefined;
	};
	return visit(undefined);
}

const patch = '{"data":{"color":"red"}}';

const modifiedBd = {
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'BundleDeployment',
	metadata: {
		name: 'shop',
		namespace: 'cluster-fleet-default-staging-1-ab9dec26139f',
		generation: 1,
		labels: { 'fleet.cattle.io/cluster': 'staging-1' },
	},
	spec: { deploymentID: 'd1' },
	status: {
		appliedDeploymentID: 'd1',
		ready: false,
		nonModified: false,
		conditions: [
			{ type: 'Ready', status: 'False' },
			{ type: 'Deployed', status: 'True' },
			{ type: 'Monitored', status: 'True' },
		],
		resources: [
			{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings' },
			{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
			{ apiVersion: 'v1', kind: 'Service', namespace: 'shop', name: 'web' },
		],
		nonReadyStatus: [
			{
				apiVersion: 'apps/v1',
				kind: 'Deployment',
				namespace: 'shop',
				name: 'web',
				summary: { state: 'in-progress', transitioning: true },
			},
		],
		modifiedStatus: [
			{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings', patch },
		],
	},
};

const kustomization = {
	apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
	kind: 'Kustomization',
	metadata: { name: 'apps', namespace: 'flux-system', generation: 1 },
	spec: {
		interval: '5m',
		path: './apps',
		sourceRef: { kind: 'GitRepository', name: 'flux-system' },
	},
	status: {
		observedGeneration: 1,
		conditions: [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded' }],
		inventory: { entries: [{ id: 'apps_podinfo_helm.toolkit.fluxcd.io_HelmRelease', v: 'v2' }] },
	},
};

describe('applied-resource rows read live', () => {
	it('tells a non-ready, a modified, an applied and an inventory row apart by their place', () => {
		const graph = new ResourceGraph();
		graph.addRoot('ws', 'Workspace manifests', 'file');
		graph.upsertObject('ws', 'bd.yaml', modifiedBd);
		graph.upsertObject('ws', 'ks.yaml', kustomization);
		const bd = rowOf(graph, 'BundleDeployment', 'shop');
		assert.ok(bd?.objectKey);
		const roles = graph
			.children(bd.id)
			.map((child) => `${child.label}: ${appliedRowRoleOf(child.id, bd.objectKey)}`);
		assert.deepEqual(roles.sort(), [
			'ConfigMap shop/settings: modified',
			'Deployment shop/web: nonReady',
			'Service shop/web: applied',
		]);
		const ks = rowOf(graph, 'Kustomization', 'apps');
		assert.ok(ks?.objectKey);
		const [entry] = graph.children(ks.id);
		assert.ok(entry);
		assert.equal(appliedRowRoleOf(entry.id, ks.objectKey), 'inventory');
		// A row under another parent, or the parent itself, is not one of them.
		assert.equal(appliedRowRoleOf(entry.id, bd.objectKey), undefined);
		assert.equal(appliedRowRoleOf(bd.id, bd.objectKey), undefined);
	});

	it('reads a BundleDeployment of Fleet’s local cluster from its own context', () => {
		const place = appliedResourcesPlace(
			{ kind: 'BundleDeployment', namespace: 'cluster-fleet-local-local-1a3d67d0a899', object: {} },
			'fleet-mgmt',
			['fleet-mgmt'],
		);
		assert.equal(place?.kind, 'context');
		assert.equal(place.kind === 'context' ? place.context : '', 'fleet-mgmt');
	});

	it('reads a downstream BundleDeployment from the open context named as its Cluster, and says when none is', () => {
		const parent = {
			kind: 'BundleDeployment',
			namespace: modifiedBd.metadata.namespace,
			object: modifiedBd,
		};
		const found = appliedResourcesPlace(parent, 'fleet-mgmt', ['fleet-mgmt', 'staging-1']);
		assert.deepEqual(found?.kind === 'context' ? found.context : found, 'staging-1');
		const missing = appliedResourcesPlace(parent, 'fleet-mgmt', ['fleet-mgmt']);
		assert.equal(missing?.kind, 'elsewhere');
		assert.match(
			missing?.why ?? '',
			/downstream cluster staging-1: no open context is named staging-1/,
		);
	});

	it('reads a Kustomization’s inventory from its own context unless spec.kubeConfig sends it elsewhere', () => {
		const own = appliedResourcesPlace(
			{ kind: 'Kustomization', namespace: 'flux-system', object: kustomization },
			'platform',
			['platform'],
		);
		assert.equal(own?.kind === 'context' ? own.context : undefined, 'platform');
		const remote = appliedResourcesPlace(
			{
				kind: 'Kustomization',
				namespace: 'flux-system',
				object: {
					...kustomization,
					spec: { ...kustomization.spec, kubeConfig: { secretRef: { name: 'prod' } } },
				},
			},
			'platform',
			['platform'],
		);
		assert.equal(remote?.kind, 'elsewhere');
		assert.match(remote?.why ?? '', /another cluster \(spec\.kubeConfig/);
	});

	it('shows the live kstatus first, and lets it replace the tone only where the controller says nothing', () => {
		const time = (ms: number) => new Date(ms).toISOString();
		const rolling = readingOfObject(
			{
				apiVersion: 'apps/v1',
				kind: 'Deployment',
				metadata: { name: 'web', namespace: 'shop', generation: 2 },
				spec: { replicas: 3 },
				status: {
					observedGeneration: 2,
					replicas: 3,
					updatedReplicas: 1,
					readyReplicas: 1,
					availableReplicas: 1,
				},
			},
			'staging-1',
			0,
		);
		const applied = appliedRowShown(
			rolling,
			{ description: 'applied · ready', tone: 'ok', role: 'applied' },
			time,
		);
		assert.equal(applied.description, 'InProgress (live) · applied · ready');
		assert.equal(applied.tone, 'progressing');
		assert.match(
			applied.detail,
			/^Live in context staging-1, read at 1970-01-01T00:00:00\.000Z: kstatus InProgress — /,
		);
		const current = readingOfObject(
			{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } },
			'staging-1',
			0,
		);
		const modified = appliedRowShown(
			current,
			{ description: 'modified', tone: 'warning', role: 'modified' },
			time,
		);
		assert.equal(modified.description, 'Current (live) · modified');
		assert.equal(modified.tone, 'warning', 'a live Current does not hide the drift Fleet recorded');
	});

	it('says a failed read in a word on the row, never as a reading that stays', () => {
		const time = String;
		const row = {
			description: 'applied',
			tone: 'progressing' as const,
			role: 'inventory' as const,
		};
		const forbidden = appliedRowShown(
			{
				kind: 'failed',
				context: 'platform',
				failure: 'forbidden',
				message: 'You may not get helmreleases',
			},
			row,
			time,
		);
		assert.equal(forbidden.description, 'forbidden · applied');
		assert.match(forbidden.detail, /Could not read it from context platform \(forbidden\)/);
		const gone = appliedRowShown(
			{
				kind: 'failed',
				context: 'platform',
				failure: 'not-found',
				message: 'helmreleases apps/podinfo not found',
			},
			row,
			time,
		);
		assert.equal(gone.description, 'NotFound · applied');
		assert.equal(gone.tone, 'warning');
		const slow = appliedRowShown(
			{ kind: 'failed', context: 'platform', failure: 'timeout', message: 'no answer within 8 s' },
			row,
			time,
		);
		assert.equal(slow.description, 'timed out · applied');
	});

	it('finds the patch Fleet recorded for a modified resource, indented', () => {
		assert.equal(
			recordedPatchOf(modifiedBd, {
				apiVersion: 'v1',
				kind: 'ConfigMap',
				namespace: 'shop',
				name: 'settings',
			}),
			'{\n  "data": {\n    "color": "red"\n  }\n}\n',
		);
		assert.equal(
			recordedPatchOf(modifiedBd, {
				apiVersion: 'apps/v1',
				kind: 'Deployment',
				namespace: 'shop',
				name: 'web',
			}),
			undefined,
		);
	});
});

describe('a live row under a Kustomization with spec.healthCheckExprs', () => {
	const kustomization = {
		apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
		kind: 'Kustomization',
		metadata: { name: 'registries', namespace: 'flux-system' },
		spec: {
			healthCheckExprs: [
				{
					apiVersion: 'goharbor.io/v1beta1',
					kind: 'HarborCluster',
					inProgress: "status.status == 'provisioning'",
					failed: "status.status == 'unhealthy'",
					current: "status.status == 'healthy'",
				},
			],
		},
	};
	const harbor = (state: string) => ({
		apiVersion: 'goharbor.io/v1beta1',
		kind: 'HarborCluster',
		metadata: { name: 'harbor-dr', namespace: 'harbor-dr', generation: 1 },
		status: { observedGeneration: 1, status: state },
	});
	const formatTime = () => '10:00';

	it('is rated by the expression, as the kustomize-controller rates it, and says so', () => {
		const reading = readingOfObject(harbor('unhealthy'), 'platform', 0, kustomization);
		assert.equal(reading.kind === 'read' && reading.status, 'Failed');
		const shown = appliedRowShown(
			reading,
			{ description: 'applied · goharbor.io/v1beta1', tone: 'ok', role: 'inventory' },
			formatTime,
		);
		assert.equal(shown.description, 'Failed (live, CEL) · applied · goharbor.io/v1beta1');
		assert.equal(shown.tone, 'error');
		assert.match(shown.detail, /Failed by the Kustomization's spec\.healthCheckExprs\[0\]/);
		// kstatus has nothing to go on (no Ready condition): it calls the same object Current.
		const byKstatus = readingOfObject(harbor('unhealthy'), 'platform', 0);
		assert.equal(byKstatus.kind === 'read' && byKstatus.status, 'Current');
		assert.match(
			appliedRowShown(byKstatus, { description: '', tone: 'ok', role: 'inventory' }, formatTime)
				.detail,
			/: kstatus Current/,
		);
	});

	it('falls back to kstatus for a kind no entry names, and is Unknown when an expression errs', () => {
		const deployment = {
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			metadata: { name: 'web', namespace: 'shop', generation: 1 },
			spec: { replicas: 1 },
			status: {
				observedGeneration: 1,
				replicas: 1,
				updatedReplicas: 1,
				readyReplicas: 1,
				availableReplicas: 1,
			},
		};
		const byKstatus = readingOfObject(deployment, 'platform', 0, kustomization);
		assert.equal(byKstatus.kind === 'read' && byKstatus.rule, 'kstatus');
		const noStatus = { ...harbor('x'), status: undefined };
		const erring = readingOfObject(noStatus, 'platform', 0, kustomization);
		assert.equal(erring.kind === 'read' && erring.status, 'Unknown');
		assert.match(
			erring.kind === 'read' ? erring.message : '',
			/^failed to evaluate the CEL expression 'status\.status == 'provisioning'': /,
		);
	});
});
