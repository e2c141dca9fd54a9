// The indexes that answer "who links to this?" without a scan: where an entry is registered (its memberships, as
// linking.ts reads them) and the lookups. Most watch events leave an object's links, and so its registrations, as
// they were.
import { getString, labelsOf } from '../model/object.ts';
import {
	isBinding,
	isBindingPolicy,
	isKubestellar,
	type Entry,
	type IndexName,
	type Root,
} from './graphState.ts';
import { noteAggregateMembers } from './fleetAggregates.ts';
import { ownerKeysOf, pairOf, workloadNameKey } from './linking.ts';

const noEntries: readonly Entry[] = [];

/** Where the entry is indexed, as a flat list: index name, key, index name, key... */
function membershipsOf(root: Root, entry: Entry): string[] {
	const keys: string[] = [];
	const object = entry.object;
	for (const owner of ownerKeysOf(object)) keys.push('owner', owner);
	// What a BindingPolicy may select is indexed only once the root has one (most roots never do).
	if (root.workloadsIndexed && !isKubestellar(entry)) {
		keys.push(
			'cand',
			'',
			'candNs',
			entry.namespace,
			'gnn',
			workloadNameKey(entry.group, entry.namespace, entry.name),
		);
	}
	if (entry.system === 'fleet') {
		switch (entry.kind) {
			case 'BundleDeployment': {
				const links = entry.bdLinks;
				if (!links) break;
				keys.push('bdSlot', links.slot);
				if (links.repo) keys.push('bdRepo', links.repo);
				if (links.helmOp) keys.push('bdHelm', links.helmOp);
				if (links.cluster) keys.push('bdCluster', links.cluster);
				else keys.push('bdNs', links.namespace);
				keys.push('bdAnyNs', links.namespace);
				break;
			}
			case 'Bundle': {
				const labels = labelsOf(object);
				const repo = labels['fleet.cattle.io/repo-name'];
				const helmOp = labels['fleet.cattle.io/fleet-helm-name'];
				if (repo) keys.push('bundleRepo', pairOf(entry.namespace, repo));
				if (helmOp) keys.push('bundleHelm', pairOf(entry.namespace, helmOp));
				break;
			}
			case 'Cluster': {
				keys.push('clusterNs', entry.namespace);
				const statusNamespace = getString(object, 'status', 'namespace');
				if (statusNamespace) keys.push('clusterStatusNs', statusNamespace);
				break;
			}
			case 'ClusterGroup':
				keys.push('groupNs', entry.namespace);
				break;
		}
	}
	if (isBindingPolicy(entry)) keys.push('policy', entry.name, 'policies', '');
	if (isBinding(entry)) {
		keys.push('binding', entry.name);
		for (const ref of entry.bindingRefs ?? []) {
			keys.push('bindingRef', workloadNameKey(ref.group, ref.namespace, ref.name));
		}
	}
	if (entry.wsSource) {
		keys.push(
			'wsSource',
			entry.wsSource.key,
			'wsGnn',
			workloadNameKey(entry.wsSource.group, entry.wsSource.namespace, entry.wsSource.name),
		);
	}
	return keys;
}

/** Registers an entry under the keys its object has now (and takes it off those it no longer has). */
export function reindex(root: Root, entry: Entry): void {
	if (!root.workloadsIndexed && isBindingPolicy(entry)) indexWorkloads(root);
	const keys = membershipsOf(root, entry);
	const previous = entry.memberships;
	// The aggregates of Fleet parents take in every change of a BD, whether or not it moves.
	noteAggregateMembers(root, entry, previous);
	const same =
		previous.length === keys.length && previous.every((key, index) => key === keys[index]);
	// A status update keeps the labels and so every membership (the slot owners derive from them too): most
	// watch events leave the index as it is.
	if (same) return;
	unindex(root, entry);
	// Buckets keep their entries in registration order; the aggregates order ties by it.
	entry.registered = ++root.registrations;
	for (let position = 0; position < keys.length; position += 2) {
		const index = root.index[keys[position] as IndexName];
		const key = keys[position + 1] ?? '';
		const bucket = index.get(key);
		if (bucket === undefined) index.set(key, entry);
		else if (bucket instanceof Set) bucket.add(entry);
		else if (bucket !== entry) index.set(key, new Set([bucket, entry]));
	}
	entry.memberships = keys;
	noteAggregateMembers(root, entry, keys);
	const links = entry.bdLinks;
	if (links) {
		const owners = root.slotOwners.get(links.slot) ?? new Map<string, number>();
		for (const key of links.ownerKeys) owners.set(key, (owners.get(key) ?? 0) + 1);
		root.slotOwners.set(links.slot, owners);
		entry.slotRegistration = links;
	}
}

/**
 * The first BindingPolicy of a root: index every object it could select. This one event scans the root; every
 * later one is incremental.
 */
function indexWorkloads(root: Root): void {
	root.workloadsIndexed = true;
	for (const entry of root.entries.values()) {
		if (!isKubestellar(entry)) reindex(root, entry);
	}
}

/** Takes an entry off every index. */
export function unindex(root: Root, entry: Entry): void {
	const keys = entry.memberships;
	noteAggregateMembers(root, entry, keys);
	for (let position = 0; position < keys.length; position += 2) {
		const index = root.index[keys[position] as IndexName];
		const key = keys[position + 1] ?? '';
		const bucket = index.get(key);
		if (bucket === entry) index.delete(key);
		else if (bucket instanceof Set) {
			bucket.delete(entry);
			if (bucket.size === 1) for (const only of bucket) index.set(key, only);
		}
	}
	entry.memberships = [];
	const previous = entry.slotRegistration;
	if (previous) {
		const owners = root.slotOwners.get(previous.slot);
		if (owners) {
			for (const key of previous.ownerKeys) {
				const count = (owners.get(key) ?? 0) - 1;
				if (count > 0) owners.set(key, count);
				else owners.delete(key);
			}
			if (owners.size === 0) root.slotOwners.delete(previous.slot);
		}
		entry.slotRegistration = undefined;
	}
}

/** The entries an index holds under a key. */
export function indexed(
	root: Root,
	name: IndexName,
	key: string,
): ReadonlySet<Entry> | readonly Entry[] {
	const bucket = root.index[name].get(key);
	return bucket === undefined ? noEntries : bucket instanceof Set ? bucket : [bucket];
}

/** How many entries an index holds under a key. */
export function indexedSize(root: Root, name: IndexName, key: string): number {
	const bucket = root.index[name].get(key);
	return bucket === undefined ? 0 : bucket instanceof Set ? bucket.size : 1;
}
