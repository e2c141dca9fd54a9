// Where Fleet objects belong, and what a Fleet object's change re-places or makes stale: GitRepos and HelmOps over
// their Bundles, Bundles over their BundleDeployments (which also show under their Cluster), ClusterGroups over the
// Clusters they select. A Bundle that is not in the input but has BundleDeployments here is a placeholder.
import { getPath, getString, labelsOf } from '../model/object.ts';
import { nameOrPlaceholder, qualified } from './describe.ts';
import {
	createVertex,
	isFleet,
	type ChangeSet,
	type Entry,
	type Root,
	type Vertex,
	type Work,
} from './graphState.ts';
import { indexed } from './indexes.ts';
import {
	fleetApiGroup,
	fleetOwnerCandidatesOf,
	fleetOwnerKeyOf,
	pairOf,
	type BundleDeploymentLinks,
} from './linking.ts';
import { categoryVertex, groupInfo } from './systemVertices.ts';
import { sameJson, setDesiredParents } from './update.ts';

const fleetCategories: Readonly<
	Record<string, { readonly label: string; readonly order: number }>
> = {
	GitRepo: { label: 'GitRepos', order: 0 },
	HelmOp: { label: 'HelmOps', order: 1 },
	Cluster: { label: 'Clusters', order: 2 },
	ClusterGroup: { label: 'ClusterGroups', order: 3 },
	Bundle: { label: 'Bundles', order: 4 },
	Policy: { label: 'Policies', order: 5 },
};

/** Where a Fleet object belongs: its category, its owner, or (a BundleDeployment) its Bundle and its Cluster. */
export function fleetParents(work: Work, entry: Entry, parents: Vertex[]): void {
	const { root } = work;
	const category = fleetCategories[entry.kind];
	switch (entry.kind) {
		case 'GitRepo':
		case 'HelmOp':
		case 'ClusterGroup':
		case 'Policy':
			if (category) {
				parents.push(categoryVertex(root, 'fleet', entry.kind, category.label, category.order));
			}
			break;
		case 'Cluster':
			if (category) {
				parents.push(categoryVertex(root, 'fleet', entry.kind, category.label, category.order));
			}
			for (const group of indexed(root, 'groupNs', entry.namespace)) {
				if (group.matcher?.(labelsOf(entry.object))) parents.push(group.vertex);
			}
			break;
		case 'Bundle': {
			const owner = fleetOwnerVertex(
				root,
				fleetOwnerCandidatesOf(entry.object, entry.namespace).map(fleetOwnerKeyOf),
			);
			const bundles = fleetCategories.Bundle;
			if (owner) parents.push(owner);
			else if (bundles) {
				parents.push(categoryVertex(root, 'fleet', 'Bundle', bundles.label, bundles.order));
			}
			break;
		}
		case 'BundleDeployment': {
			const links = entry.bdLinks;
			if (!links) break;
			const bundle = links.bundleKey ? root.entries.get(links.bundleKey) : undefined;
			parents.push(bundle ? bundle.vertex : bundlePlaceholder(work, links.slot));
			if (links.clusterKey) {
				const cluster = root.entries.get(links.clusterKey);
				if (cluster) parents.push(cluster.vertex);
			} else {
				for (const cluster of indexed(root, 'clusterStatusNs', links.namespace)) {
					parents.push(cluster.vertex);
				}
			}
			break;
		}
	}
}

/** The vertex of the first of these owners (GitRepo, HelmOp) that is in the root. */
function fleetOwnerVertex(root: Root, ownerKeys: Iterable<string>): Vertex | undefined {
	for (const key of ownerKeys) {
		const owner = root.entries.get(key);
		if (owner) return owner.vertex;
	}
	return undefined;
}

/** The placeholder standing for a Bundle that is not in the input but has BundleDeployments here. */
function bundlePlaceholder(work: Work, slot: string): Vertex {
	const { root } = work;
	const id = `ph:bundle:${slot}`;
	let vertex = root.groups.get(id);
	if (!vertex) {
		vertex = createVertex(id, 'placeholder', { autoHide: true, order: 10 });
		const unlabelled = slot.startsWith('?');
		const slash = slot.indexOf('/');
		const namespace = unlabelled ? '' : slot.slice(0, slash);
		const name = unlabelled ? slot.slice(1) : slot.slice(slash + 1);
		vertex.info = groupInfo(nameOrPlaceholder(name), 'fleet', {
			description: unlabelled ? 'no bundle label' : 'Bundle not in input',
			message: unlabelled
				? 'These BundleDeployments carry no fleet.cattle.io/bundle-name label, so their Bundle is unknown.'
				: `The Bundle ${qualified(namespace, name)} is not in this input; its BundleDeployments are.`,
			ref: { apiVersion: `${fleetApiGroup}/v1alpha1`, kind: 'Bundle', namespace, name },
			namespace,
			link: slot,
		});
		root.groups.set(id, vertex);
		placeBundlePlaceholder(root, vertex, work.changes);
	}
	return vertex;
}

/** Places a Bundle placeholder under the GitRepo or HelmOp its BundleDeployments name, else under Bundles. */
export function placeBundlePlaceholder(root: Root, vertex: Vertex, changes: ChangeSet): void {
	const slot = vertex.info?.link ?? '';
	const owner = fleetOwnerVertex(root, root.slotOwners.get(slot)?.keys() ?? []);
	const bundles = fleetCategories.Bundle;
	const parent =
		owner ??
		(bundles ? categoryVertex(root, 'fleet', 'Bundle', bundles.label, bundles.order) : undefined);
	setDesiredParents(vertex, parent ? [parent] : [], changes);
}

/**
 * Collects what a Fleet object's change affects: the objects to place again, the Fleet parents whose roll-up is now
 * stale, and the Bundle placeholders that may move.
 */
export function collectFleetDependents(
	work: Work,
	entry: Entry,
	objects: readonly unknown[],
	existence: boolean,
	previousLinks: BundleDeploymentLinks | undefined,
): void {
	const { root } = work;
	const dirty = (key: string | undefined) => {
		const target = key === undefined ? undefined : root.entries.get(key);
		if (target) work.computedDirty.add(target);
	};
	const pair = pairOf(entry.namespace, entry.name);
	switch (entry.kind) {
		case 'BundleDeployment': {
			const both =
				entry.removed || previousLinks === entry.bdLinks
					? [previousLinks]
					: [previousLinks, entry.bdLinks];
			for (const links of both) {
				if (!links) continue;
				dirty(links.bundleKey);
				for (const key of links.ownerKeys) dirty(key);
				// The Cluster its labels name (where it shows) and every Cluster whose namespace holds it (what
				// Fleet's cluster controller counts).
				const clusters = new Set(indexed(root, 'clusterStatusNs', links.namespace));
				const labelled = links.clusterKey ? root.entries.get(links.clusterKey) : undefined;
				if (labelled) clusters.add(labelled);
				for (const cluster of clusters) {
					if (!cluster) continue;
					work.computedDirty.add(cluster);
					for (const parent of cluster.vertex.desired) {
						if (parent.entry && isFleet(parent.entry, 'ClusterGroup')) {
							work.computedDirty.add(parent.entry);
						}
					}
				}
				// The placeholder's owner comes from its BDs' labels: only a BD that comes, goes or relabels moves it.
				const relinked =
					existence ||
					previousLinks?.slot !== entry.bdLinks?.slot ||
					previousLinks?.ownerKeys.join() !== entry.bdLinks?.ownerKeys.join();
				const placeholder = relinked ? root.groups.get(`ph:bundle:${links.slot}`) : undefined;
				if (placeholder) work.replaceVertices.add(placeholder);
			}
			break;
		}
		case 'Bundle':
			if (existence) for (const bd of indexed(root, 'bdSlot', pair)) work.replace.add(bd);
			for (const object of objects) {
				for (const candidate of fleetOwnerCandidatesOf(object, entry.namespace)) {
					dirty(fleetOwnerKeyOf(candidate));
				}
			}
			break;
		case 'GitRepo':
		case 'HelmOp': {
			if (!existence) break;
			const gitRepo = entry.kind === 'GitRepo';
			for (const bundle of indexed(root, gitRepo ? 'bundleRepo' : 'bundleHelm', pair)) {
				work.replace.add(bundle);
			}
			for (const bd of indexed(root, gitRepo ? 'bdRepo' : 'bdHelm', pair)) {
				const placeholder = bd.bdLinks
					? root.groups.get(`ph:bundle:${bd.bdLinks.slot}`)
					: undefined;
				if (placeholder) work.replaceVertices.add(placeholder);
				// The Cluster controller counts only GitRepos and HelmOps that exist: the Cluster the BD's labels name
				// and every Cluster whose status.namespace holds the BD (what the controller lists) recount.
				const cluster = bd.bdLinks?.clusterKey
					? root.entries.get(bd.bdLinks.clusterKey)
					: undefined;
				if (cluster) work.computedDirty.add(cluster);
				for (const holder of indexed(root, 'clusterStatusNs', bd.namespace)) {
					work.computedDirty.add(holder);
				}
			}
			break;
		}
		case 'Cluster': {
			const statusNamespaces = new Set(
				objects.map((object) => getString(object, 'status', 'namespace') ?? ''),
			);
			if (existence || statusNamespaces.size > 1) {
				for (const bd of indexed(root, 'bdCluster', pair)) work.replace.add(bd);
				for (const namespace of statusNamespaces) {
					if (namespace) {
						for (const bd of indexed(root, 'bdNs', namespace)) work.replace.add(bd);
					}
				}
			}
			for (const group of indexed(root, 'groupNs', entry.namespace)) {
				work.computedDirty.add(group);
			}
			break;
		}
		case 'ClusterGroup': {
			const selectors = objects.map((object) => getPath(object, 'spec', 'selector'));
			if (existence || !sameJson(selectors[0], selectors[1])) {
				for (const cluster of indexed(root, 'clusterNs', entry.namespace)) {
					work.replace.add(cluster);
				}
			}
			break;
		}
	}
}
