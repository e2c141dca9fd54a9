// "Why not here?" asked of one cluster: every Fleet Bundle of the input for a Fleet Cluster, every BindingPolicy for a
// KubeStellar WEC (an inventory ManagedCluster), each with whether it deploys there and why, in the words the
// targeting explanations use. A Bundle of another namespace that no BundleNamespaceMapping brings to the cluster's
// namespace is answered too: that is the most common "why not" of all.
import { getString, groupOf, isRecord } from '../model/object.ts';
import { bindingPolicyTargetsOf } from './bindingPolicyTargets.ts';
import { fleetTargetsOf, withoutLists } from './fleetTargets.ts';

/** One Bundle or BindingPolicy, asked of one cluster. */
export interface HereAnswer {
	readonly kind: 'Bundle' | 'BindingPolicy';
	/** Empty for a BindingPolicy (cluster-scoped). */
	readonly namespace: string;
	readonly name: string;
	readonly deployed: boolean;
	readonly why: string;
}

function byOutcomeThenName(a: HereAnswer, b: HereAnswer): number {
	if (a.deployed !== b.deployed) return a.deployed ? 1 : -1;
	const left = `${a.namespace}/${a.name}`;
	const right = `${b.namespace}/${b.name}`;
	return left < right ? -1 : left > right ? 1 : 0;
}

/** Every Fleet Bundle of the input asked of the Fleet Cluster `namespace/name`: not deployed first, then by name. */
export function bundlesAskedOfCluster(
	objects: readonly unknown[],
	namespace: string,
	name: string,
): HereAnswer[] {
	return fleetTargetsOf(objects)
		.map((bundle): HereAnswer => {
			const row = bundle.clusters.find(
				(cluster) => cluster.namespace === namespace && cluster.name === name,
			);
			const base = { kind: 'Bundle' as const, namespace: bundle.namespace, name: bundle.name };
			if (row) return { ...base, deployed: row.deployed, why: row.why };
			return {
				...base,
				deployed: false,
				why: `Cluster \`${name}\` is in namespace \`${namespace}\`: a Bundle of \`${bundle.namespace}\` reaches only the Clusters of its own namespace, and no BundleNamespaceMapping of \`${bundle.namespace}\` maps it to \`${namespace}\`.`,
			};
		})
		.sort(byOutcomeThenName);
}

/**
 * Every BindingPolicy of `policies` asked of the WEC `name`, its labels taken from the ManagedCluster of `inventory`
 * (the ITS, which may be another input than the WDS that holds the policies).
 */
export function policiesAskedOfCluster(
	policies: readonly unknown[],
	inventory: readonly unknown[],
	name: string,
): HereAnswer[] {
	const cluster = withoutLists(inventory).find(
		(object) =>
			isRecord(object) &&
			object.kind === 'ManagedCluster' &&
			groupOf(getString(object, 'apiVersion') ?? '') === 'cluster.open-cluster-management.io' &&
			getString(object, 'metadata', 'name') === name,
	);
	if (cluster === undefined) return [];
	const withoutOtherClusters = withoutLists(policies).filter(
		(object) => getString(object, 'kind') !== 'ManagedCluster',
	);
	return bindingPolicyTargetsOf([...withoutOtherClusters, cluster])
		.map((policy): HereAnswer => {
			const row = policy.clusters.find((candidate) => candidate.name === name);
			return {
				kind: 'BindingPolicy',
				namespace: '',
				name: policy.name,
				deployed: row?.deployed ?? false,
				why: row?.why ?? 'The policy selects no cluster.',
			};
		})
		.sort(byOutcomeThenName);
}
