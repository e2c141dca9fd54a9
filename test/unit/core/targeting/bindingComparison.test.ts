// The Binding the KubeStellar controller wrote for a BindingPolicy against what the policy selects in the input
// (api/control/v1alpha1/types.go and pkg/binding/bindingpolicy-resolution.go @ 1c28a8a1e3ae), on the demo's WDS and ITS.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseManifests } from '../../../../src/core/manifest/parse.ts';
import { bindingDifferencesOf } from '../../../../src/core/targeting/bindingComparison.ts';
import {
	bindingPolicyTargetsOf,
	type BindingPolicyTargeting,
} from '../../../../src/core/targeting/bindingPolicyTargets.ts';
import { repoRoot } from '../../../support/conformance.ts';

function read(file: string): Record<string, unknown>[] {
	return parseManifests(readFileSync(join(repoRoot, 'examples/cluster', file), 'utf8')).objects.map(
		(entry) => entry.object,
	);
}

const demo = [...read('kubestellar-wds/workload.yaml'), ...read('kubestellar-its/inventory.yaml')];

/** A copy of the demo with its Binding's spec replaced, and these objects added. */
function withBinding(spec: Record<string, unknown>, ...extra: unknown[]): unknown[] {
	return [
		...structuredClone(demo).map((object) =>
			object.kind === 'Binding' ? { ...object, spec } : object,
		),
		...extra,
	];
}

const nginx = {
	group: 'apps',
	version: 'v1',
	resource: 'deployments',
	namespace: 'nginx',
	name: 'nginx',
	resourceVersion: '1',
};
const allClusters = [
	{ clusterId: 'cluster1' },
	{ clusterId: 'cluster2' },
	{ clusterId: 'cluster3' },
];

function differences(objects: readonly unknown[]): readonly string[] | undefined {
	const [policy] = bindingPolicyTargetsOf(objects);
	assert.ok(policy);
	const comparison = bindingDifferencesOf(policy, objects);
	assert.equal(comparison.binding, 'present');
	return comparison.binding === 'present' ? comparison.differences : undefined;
}

describe('Binding against its BindingPolicy', () => {
	it('finds no difference in the demo, whose Binding is what the controller writes', () => {
		assert.deepEqual(differences(demo), []);
	});

	it('says the Binding is absent when the input does not hold it', () => {
		const objects = demo.filter((object) => object.kind !== 'Binding');
		const [policy] = bindingPolicyTargetsOf(objects);
		assert.ok(policy);
		assert.deepEqual(bindingDifferencesOf(policy, objects), { binding: 'absent' });
	});

	it('names a destination the selectors no longer select', () => {
		const objects = withBinding({
			destinations: allClusters,
			workload: { namespaceScope: [nginx] },
		});
		const cluster3 = objects.find(
			(object) =>
				(object as { metadata?: { name?: string } }).metadata?.name === 'cluster3' &&
				(object as { kind?: string }).kind === 'ManagedCluster',
		) as { metadata: Record<string, unknown> };
		cluster3.metadata = { name: 'cluster3', labels: { 'location-group': 'core' } };
		assert.deepEqual(differences(objects), [
			"cluster `cluster3` is a destination of the Binding, but the policy's selectors do not select it now",
		]);
	});

	it('names a selected cluster the Binding has no destination for, and a destination not in the inventory', () => {
		assert.deepEqual(
			differences(
				withBinding({
					destinations: [
						{ clusterId: 'cluster1' },
						{ clusterId: 'cluster3' },
						{ clusterId: 'wec9' },
					],
					workload: { namespaceScope: [nginx] },
				}),
			),
			[
				'cluster `cluster2` is selected, but the Binding has no such destination (the controller has not written it yet)',
				'cluster `wec9` is a destination of the Binding, but this input has no ManagedCluster `wec9`',
			],
		);
	});

	it('names a selected object missing from the workload and a placed object no longer selected', () => {
		const app = {
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			metadata: { namespace: 'nginx', name: 'app', labels: { 'app.kubernetes.io/name': 'nginx' } },
		};
		const config = {
			apiVersion: 'v1',
			kind: 'ConfigMap',
			metadata: { namespace: 'nginx', name: 'x' },
		};
		assert.deepEqual(
			differences(
				withBinding(
					{
						destinations: allClusters,
						workload: {
							namespaceScope: [
								{ ...nginx, version: 'v1beta1', resourceVersion: '7' },
								{ group: '', version: 'v1', resource: 'configmaps', namespace: 'nginx', name: 'x' },
							],
						},
					},
					app,
					config,
				),
			),
			[
				'the Binding places ConfigMap `nginx/x`, which the policy does not select now',
				"Deployment `nginx/app` is selected, but not in the Binding's workload",
			],
		);
	});

	it('says a placed object the input does not hold is not in this input', () => {
		assert.deepEqual(
			differences(
				withBinding({
					destinations: allClusters,
					workload: {
						clusterScope: [{ group: '', version: 'v1', resource: 'namespaces', name: 'nginx' }],
						namespaceScope: [nginx],
					},
				}),
			),
			['the Binding places namespaces `nginx`, which is not in this input'],
		);
	});

	it('says a malformed cluster selector stops the destinations, and still compares the workload', () => {
		const objects = withBinding({ destinations: allClusters, workload: {} });
		const policy = objects.find(
			(object) => (object as { kind?: string }).kind === 'BindingPolicy',
		) as { spec: Record<string, unknown> };
		policy.spec = {
			...policy.spec,
			clusterSelectors: [
				{ matchExpressions: [{ key: 'location-group', operator: 'In', values: [] }] },
			],
		};
		const [targeting] = bindingPolicyTargetsOf(objects);
		assert.ok(targeting?.error);
		assert.deepEqual(differences(objects), [
			`the policy's clusterSelectors are malformed, so the controller does not update the Binding's destinations: ${targeting.error}`,
			"Deployment `nginx/nginx` is selected, but not in the Binding's workload",
		]);
	});

	it('takes a manifest without a namespace as the placed one, and expects no kind the controller never watches', () => {
		const labels = { 'app.kubernetes.io/name': 'nginx' };
		const web = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels } };
		const event = {
			apiVersion: 'v1',
			kind: 'Event',
			metadata: { namespace: 'nginx', name: 'e', labels },
		};
		assert.deepEqual(
			differences(
				withBinding(
					{
						destinations: allClusters,
						workload: { namespaceScope: [nginx, { ...nginx, name: 'web' }] },
					},
					web,
					event,
				),
			),
			[],
		);
	});

	it('shows 20 differences and counts the rest', () => {
		const policy: BindingPolicyTargeting = {
			kind: 'BindingPolicy',
			name: 'nginx-multiwec',
			clusters: Array.from({ length: 25 }, (_, index) => ({
				name: `wec${String(index).padStart(2, '0')}`,
				deployed: true,
				why: '',
			})),
			objects: [],
		};
		const result = bindingDifferencesOf(policy, demo);
		assert.equal(result.binding, 'present');
		const shown = result.binding === 'present' ? result.differences : [];
		assert.equal(shown.length, 21);
		assert.equal(shown[20], 'and 9 more');
	});
});
