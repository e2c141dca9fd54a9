// How the Binding the KubeStellar controller wrote for a BindingPolicy differs from what the policy selects in this
// input, as kubestellar/kubestellar (1c28a8a1e3ae) shapes and writes it: api/control/v1alpha1/types.go (Binding,
// BindingSpec: spec.destinations[].clusterId and spec.workload.clusterScope[] / namespaceScope[], each entry a
// group, version, resource, [namespace,] name and resourceVersion plus the clause's createOnly, statusCollectors,
// wantSingletonReportedState and wantMultiWECReportedState); pkg/binding/binding.go (the Binding is named as its
// policy and owned by it); pkg/binding/bindingpolicy-resolution.go toBindingSpec (one entry per selected object, by
// GVR, namespace and name); pkg/binding/bindingpolicy.go syncBindingPolicy (a malformed cluster selector stops the
// reconcile before the destinations are set); pkg/binding/binding-controller.go excludedGroups and
// excludedGroupResources (kinds the controller never watches, so never places).
import { getArray, getString, groupOf, isRecord } from '../model/object.ts';
import { resourceOfKind } from '../model/resourceNames.ts';
import { isKubestellarGroup } from '../status/kubestellar.ts';
import type { BindingPolicyTargeting } from './bindingPolicyTargets.ts';
import { withoutLists } from './fleetTargets.ts';

/** Whether the input holds the policy's Binding and, if it does, each way the two disagree, one sentence each. */
export type BindingComparison =
	| { readonly binding: 'absent' }
	| { readonly binding: 'present'; readonly differences: readonly string[] };

const shownDifferences = 20;

interface ObjectId {
	readonly group: string;
	readonly resource: string;
	readonly namespace: string;
	readonly name: string;
}

function keyOf(id: ObjectId): string {
	return JSON.stringify([id.group, id.resource, id.namespace, id.name]);
}

function placeOf(id: ObjectId): string {
	return id.namespace === '' ? `\`${id.name}\`` : `\`${id.namespace}/${id.name}\``;
}

function bindingOf(objects: readonly unknown[], name: string): Record<string, unknown> | undefined {
	return withoutLists(objects).find(
		(object): object is Record<string, unknown> =>
			isRecord(object) &&
			object.kind === 'Binding' &&
			isKubestellarGroup(groupOf(getString(object, 'apiVersion') ?? '')) &&
			getString(object, 'metadata', 'name') === name,
	);
}

/** The Binding's workload entries, cluster-scoped ones with an empty namespace, without repeats. */
function workloadOf(binding: Record<string, unknown>): ObjectId[] {
	const entries = [
		...(getArray(binding, 'spec', 'workload', 'clusterScope') ?? []).map((entry) => ({
			entry,
			namespace: '',
		})),
		...(getArray(binding, 'spec', 'workload', 'namespaceScope') ?? []).map((entry) => ({
			entry,
			namespace: getString(entry, 'namespace') ?? '',
		})),
	];
	const seen = new Set<string>();
	const ids: ObjectId[] = [];
	for (const { entry, namespace } of entries) {
		const id = {
			group: getString(entry, 'group') ?? '',
			resource: getString(entry, 'resource') ?? '',
			namespace,
			name: getString(entry, 'name') ?? '',
		};
		if (seen.has(keyOf(id))) continue;
		seen.add(keyOf(id));
		ids.push(id);
	}
	return ids;
}

function destinationsOf(binding: Record<string, unknown>): string[] {
	const ids = (getArray(binding, 'spec', 'destinations') ?? [])
		.map((destination) => getString(destination, 'clusterId'))
		.filter((id): id is string => id !== undefined);
	return [...new Set(ids)];
}

function clusterDifferences(
	policy: BindingPolicyTargeting,
	destinations: readonly string[],
): string[] {
	if (policy.error !== undefined) {
		// The reconcile fails before it sets the destinations, so whatever the Binding lists is from before.
		return [
			`the policy's clusterSelectors are malformed, so the controller does not update the Binding's destinations: ${policy.error}`,
		];
	}
	if (policy.clusters.length === 0) {
		return destinations.length === 0
			? []
			: [
					`this input has no ManagedCluster, so the Binding's ${destinations.length === 1 ? 'destination' : `${destinations.length} destinations`} cannot be checked`,
				];
	}
	const wanted = new Set(destinations);
	const known = new Map(policy.clusters.map((cluster) => [cluster.name, cluster.deployed]));
	const differences: string[] = [];
	for (const cluster of policy.clusters) {
		if (cluster.deployed && !wanted.has(cluster.name)) {
			differences.push(
				`cluster \`${cluster.name}\` is selected, but the Binding has no such destination (the controller has not written it yet)`,
			);
		} else if (!cluster.deployed && wanted.has(cluster.name)) {
			differences.push(
				`cluster \`${cluster.name}\` is a destination of the Binding, but the policy's selectors do not select it now`,
			);
		}
	}
	for (const destination of destinations) {
		if (!known.has(destination)) {
			differences.push(
				`cluster \`${destination}\` is a destination of the Binding, but this input has no ManagedCluster \`${destination}\``,
			);
		}
	}
	return differences;
}

function objectDifferences(
	policy: BindingPolicyTargeting,
	workload: readonly ObjectId[],
): string[] {
	const inputs = policy.objects.map((object) => ({
		id: {
			group: groupOf(object.apiVersion),
			resource: resourceOfKind(object.kind),
			namespace: object.namespace,
			name: object.name,
		},
		kind: object.kind,
		selected: object.selected,
	}));
	const byKey = new Map(inputs.map((input) => [keyOf(input.id), input]));
	const placed = new Set<(typeof inputs)[number]>();
	const differences: string[] = [];
	const unplaced: string[] = [];
	for (const id of workload) {
		// A manifest may leave the namespace to whoever applies it: take it as the Binding's namespace then.
		const input = byKey.get(keyOf(id)) ?? byKey.get(keyOf({ ...id, namespace: '' }));
		if (input === undefined) {
			const resource = id.group === '' ? id.resource : `${id.resource}.${id.group}`;
			unplaced.push(`the Binding places ${resource} ${placeOf(id)}, which is not in this input`);
			continue;
		}
		placed.add(input);
		if (!input.selected) {
			differences.push(
				`the Binding places ${input.kind} ${placeOf(input.id)}, which the policy does not select now`,
			);
		}
	}
	for (const input of inputs) {
		if (!input.selected || placed.has(input)) continue;
		differences.push(
			`${input.kind} ${placeOf(input.id)} is selected, but not in the Binding's workload`,
		);
	}
	return [...differences, ...unplaced];
}

/**
 * How the policy's Binding in the input (the Binding of the same name) differs from the clusters and workload
 * objects the policy selects in that input: destinations against selected clusters, workload entries against
 * selected objects (by group, resource, namespace and name; versions and resourceVersions aside).
 */
export function bindingDifferencesOf(
	policy: BindingPolicyTargeting,
	objects: readonly unknown[],
): BindingComparison {
	const binding = bindingOf(objects, policy.name);
	if (binding === undefined) return { binding: 'absent' };
	const all = [
		...clusterDifferences(policy, destinationsOf(binding)),
		...objectDifferences(policy, workloadOf(binding)),
	];
	const differences =
		all.length > shownDifferences
			? [...all.slice(0, shownDifferences), `and ${all.length - shownDifferences} more`]
			: all;
	return { binding: 'present', differences };
}
