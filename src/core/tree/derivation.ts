// What the graph derives rather than reads: the children of a BundleDeployment (its non-ready and modified
// resources) and of a HarborCluster (its dependencies), and, for Fleet parents, the status Fleet's controllers would
// write, recomputed from the indexed children. The roll-ups are lazy: a row reads counters, the whole roll-up waits
// until a node's result is read.
import { findCondition, readConditions } from '../model/condition.ts';
import { getArray, getPath, getString, isRecord } from '../model/object.ts';
import {
	bundleStatusFrom,
	bundleStatusOf,
	clusterGroupMembersOf,
	clusterGroupStatusOf,
	clusterStatusFrom,
	clusterStatusOf,
	fleetStatusFrozen,
	gitRepoStatusFrom,
	gitRepoStatusOf,
	helmOpStatusFrom,
	helmOpStatusOf,
	statusBaseFrom,
	writtenClusterSummary,
	type StatusBaseComputed,
	type SummaryParts,
} from '../status/fleetRollup.ts';
import {
	bdDisplayOf,
	isSummaryReady,
	modifiedStatusString,
	nonReadyStatusString,
	readBundleDeployment,
	readBundleSummary,
	readResourceCounts,
} from '../status/fleetSummary.ts';
import { resourceOfApplyError } from '../status/fleetApplyError.ts';
import { harborDependencyConditions } from '../status/harbor.ts';
import { appliedRowVertexId, isInventoryKind } from './appliedResources.ts';
import type { StatusResult, Tone } from '../status/result.ts';
import { qualified } from './describe.ts';
import {
	createVertex,
	isFleet,
	type DerivedInfo,
	type Entry,
	type Root,
	type Vertex,
	type Work,
} from './graphState.ts';
import {
	aggregateOf,
	bdViewOf,
	clusterPartsOf,
	clusterReadinessOf,
	resourcesOf,
	summaryOf,
	unavailableOf,
	type BdAggregate,
} from './fleetAggregates.ts';
import { indexed } from './indexes.ts';
import { pairOf } from './linking.ts';
import { groupInfo } from './systemVertices.ts';
import { killVertex, markDisplay, sameJson, setDesiredParents, setOwnTone } from './update.ts';

const fleetRollupKinds = new Set([
	'BundleDeployment',
	'Bundle',
	'GitRepo',
	'HelmOp',
	'Cluster',
	'ClusterGroup',
]);

/**
 * True for the Fleet objects whose computed status the graph recomputes: what a BundleDeployment displays, and what
 * the controllers would write for its parents.
 */
export function hasFleetRollup(entry: Entry): boolean {
	return entry.system === 'fleet' && fleetRollupKinds.has(entry.kind);
}

/** Fleet cuts nonReadyStatus and modifiedStatus at this length (resourcesDetailsMaxLength). */
const fleetDetailsCutOff = 10;

/** At most this many applied resources or inventory entries show as rows under their object. */
const appliedRowsShown = 100;

interface InventoryEntry {
	readonly namespace: string;
	readonly name: string;
	readonly group: string;
	readonly kind: string;
	readonly version: string;
}

/**
 * A Flux Kustomization's status.inventory entries; an id reads `<namespace>_<name>_<group>_<kind>` (Flux's
 * ObjMetadata string; a cluster-scoped object has an empty namespace, a core one an empty group).
 */
function inventoryOf(object: unknown): InventoryEntry[] {
	const entries = getArray(object, 'status', 'inventory', 'entries') ?? [];
	const read: InventoryEntry[] = [];
	for (const item of entries) {
		const id = getString(item, 'id');
		if (!id) continue;
		const parts = id.split('_');
		if (parts.length < 4) continue;
		const kind = parts.at(-1) ?? '';
		const group = parts.at(-2) ?? '';
		const namespace = parts[0] ?? '';
		const name = parts.slice(1, -2).join('_');
		if (!kind || !name) continue;
		read.push({ namespace, name, group, kind, version: getString(item, 'v') ?? '' });
	}
	return read;
}

/** Creates, updates and removes the derived children of an entry (BD resources, HarborCluster dependencies). */
export function syncDerived(work: Work, entry: Entry): void {
	const wanted = new Map<
		string,
		{ info: DerivedInfo; tone: Tone; kind: 'resource' | 'dependency'; order: number }
	>();
	const view = isFleet(entry, 'BundleDeployment') ? readBundleDeployment(entry.object) : undefined;
	if (view) {
		const seen = new Map<string, number>();
		const add = (base: string, info: DerivedInfo, tone: Tone) => {
			const count = (seen.get(base) ?? 0) + 1;
			seen.set(base, count);
			wanted.set(count === 1 ? base : `${base}#${count}`, {
				info,
				tone,
				kind: 'resource',
				order: 10,
			});
		};
		for (const nonReady of view.nonReadyStatus) {
			const label = `${nonReady.kind || 'resource'} ${qualified(nonReady.namespace, nonReady.name)}`;
			add(
				appliedRowVertexId(
					entry.key,
					'nonReady',
					`${nonReady.apiVersion}:${nonReady.kind}:${nonReady.namespace}/${nonReady.name}`,
				),
				groupInfo(label, 'fleet', {
					description: nonReady.summary.state || 'not ready',
					message: nonReadyStatusString(nonReady),
					ref: {
						apiVersion: nonReady.apiVersion,
						kind: nonReady.kind,
						namespace: nonReady.namespace,
						name: nonReady.name,
					},
					namespace: nonReady.namespace,
				}),
				nonReady.summary.error ? 'error' : 'progressing',
			);
		}
		// An apply the agent could not do (ErrApplied) names its resource only in the Deployed message: the row of that
		// resource is where a user looks for it.
		const deployed = view.conditions.find((condition) => condition.type === 'Deployed');
		const failed =
			deployed?.status === 'False' && deployed.message
				? resourceOfApplyError(
						deployed.message,
						view.resources,
						getString(entry.object, 'spec', 'options', 'defaultNamespace') ?? '',
					)
				: undefined;
		const alsoNotReady = (resource: { kind: string; namespace: string; name: string }) =>
			view.nonReadyStatus.some(
				(nonReady) =>
					nonReady.kind === resource.kind &&
					nonReady.namespace === resource.namespace &&
					nonReady.name === resource.name,
			);
		if (failed && !alsoNotReady(failed)) {
			const label = `${failed.kind} ${qualified(failed.namespace, failed.name)}`;
			add(
				appliedRowVertexId(
					entry.key,
					'failed',
					`${failed.apiVersion}:${failed.kind}:${failed.namespace}/${failed.name}`,
				),
				groupInfo(label, 'fleet', {
					description: 'failed to apply',
					message: deployed?.message ?? '',
					ref: {
						apiVersion: failed.apiVersion,
						kind: failed.kind,
						namespace: failed.namespace,
						name: failed.name,
					},
					namespace: failed.namespace,
				}),
				'error',
			);
		}
		for (const modified of view.modifiedStatus) {
			const label = `${modified.kind || 'resource'} ${qualified(modified.namespace, modified.name)}`;
			const word = modified.missing
				? modified.exist
					? 'not owned by us'
					: 'missing'
				: modified.delete
					? 'extra'
					: 'modified';
			add(
				appliedRowVertexId(
					entry.key,
					'modified',
					`${modified.apiVersion}:${modified.kind}:${modified.namespace}/${modified.name}`,
				),
				groupInfo(label, 'fleet', {
					description: word,
					message: modifiedStatusString(modified),
					ref: {
						apiVersion: modified.apiVersion,
						kind: modified.kind,
						namespace: modified.namespace,
						name: modified.name,
					},
					namespace: modified.namespace,
				}),
				'warning',
			);
		}
		// Every other resource the agent applied, so the failing Deployment of a bundle is one click away and the
		// rest are seen to be there. Fleet lists a resource as non-ready or modified only up to its cut-off; past it,
		// an unlisted resource is not known to be ready.
		const listed = new Set(
			[...view.nonReadyStatus, ...view.modifiedStatus, ...(failed ? [failed] : [])].map(
				(resource) => `${resource.kind}\u0000${resource.namespace}\u0000${resource.name}`,
			),
		);
		const cut = view.nonReadyStatus.length >= fleetDetailsCutOff;
		// After a failed apply the resources listed are the release's, not known to be at this version.
		const applyFailed = deployed?.status === 'False';
		const [appliedWords, appliedMessage, appliedTone]: [string, string, Tone] = applyFailed
			? [
					'in the release · the last apply failed',
					'It belongs to the release, but the agent failed to apply the latest version (see the Deployed condition).',
					'progressing',
				]
			: cut
				? [
						'applied · not in the agent’s shortened report',
						'The agent applied it. Fleet reports at most 10 non-ready resources, so whether this one is ready is not known here.',
						'progressing',
					]
				: [
						'applied · ready',
						'The agent applied it and reports it neither non-ready nor modified.',
						'ok',
					];
		const applied = view.resources.filter(
			(resource) =>
				!listed.has(`${resource.kind}\u0000${resource.namespace}\u0000${resource.name}`),
		);
		for (const resource of applied.slice(0, appliedRowsShown)) {
			add(
				appliedRowVertexId(
					entry.key,
					'applied',
					`${resource.apiVersion}:${resource.kind}:${resource.namespace}/${resource.name}`,
				),
				groupInfo(
					`${resource.kind || 'resource'} ${qualified(resource.namespace, resource.name)}`,
					'fleet',
					{
						description: appliedWords,
						message: appliedMessage,
						ref: {
							apiVersion: resource.apiVersion,
							kind: resource.kind,
							namespace: resource.namespace,
							name: resource.name,
						},
						namespace: resource.namespace,
					},
				),
				appliedTone,
			);
		}
		if (applied.length > appliedRowsShown) {
			add(
				`r:${entry.key}:more`,
				groupInfo(`${applied.length - appliedRowsShown} more applied resources`, 'fleet', {
					description: 'not listed here',
					message: 'status.resources of the BundleDeployment lists them all.',
				}),
				'ok',
			);
		}
	}
	if (entry.system === 'flux' && isInventoryKind(entry.kind)) {
		// What the Kustomization applied (status.inventory): Flux keeps no state per entry, so the rows take the
		// Kustomization's own tone where it is settled and otherwise say nothing worse than in progress.
		const entries = inventoryOf(entry.object);
		const tone: Tone =
			entry.base.tone === 'ok' || entry.base.tone === 'suspended' ? entry.base.tone : 'progressing';
		for (const item of entries.slice(0, appliedRowsShown)) {
			wanted.set(
				appliedRowVertexId(
					entry.key,
					'inventory',
					`${item.group}:${item.kind}:${item.namespace}/${item.name}`,
				),
				{
					info: groupInfo(`${item.kind} ${qualified(item.namespace, item.name)}`, 'flux', {
						description: `applied${item.version ? ` · ${item.group ? `${item.group}/` : ''}${item.version}` : ''}`,
						message: `In the ${entry.kind}’s inventory (status.inventory): Flux applied it and garbage-collects it when it leaves ${entry.kind === 'Kustomization' ? 'the source' : 'what the object generates'}.`,
						ref: {
							apiVersion: item.group ? `${item.group}/${item.version}` : item.version,
							kind: item.kind,
							namespace: item.namespace,
							name: item.name,
						},
						namespace: item.namespace,
					}),
					tone,
					kind: 'resource',
					order: 10,
				},
			);
		}
		if (entries.length > appliedRowsShown) {
			wanted.set(`i:${entry.key}:more`, {
				info: groupInfo(`${entries.length - appliedRowsShown} more inventory entries`, 'flux', {
					description: 'not listed here',
					message: `status.inventory of the ${entry.kind} lists them all.`,
				}),
				tone,
				kind: 'resource',
				order: 11,
			});
		}
	}
	if (entry.system === 'harbor' && entry.kind === 'HarborCluster') {
		const { conditions } = readConditions(entry.object);
		harborDependencyConditions.forEach((type, index) => {
			const condition = findCondition(conditions, type);
			const tone: Tone =
				condition?.status === 'True'
					? 'ok'
					: condition?.status === 'False'
						? 'error'
						: entry.base.observed
							? 'progressing'
							: 'unknown';
			const description = condition
				? `${condition.status}${condition.reason ? ` · ${condition.reason}` : ''}`
				: 'not reported';
			wanted.set(`d:${entry.key}:${type}`, {
				info: groupInfo(type, 'harbor', {
					description,
					message:
						condition?.message ??
						(condition ? undefined : `The operator has not reported ${type} yet.`),
					namespace: entry.namespace,
				}),
				tone,
				kind: 'dependency',
				order: index,
			});
		});
	}
	const { changes } = work;
	const existing = entry.derived ?? new Map<string, Vertex>();
	for (const [id, vertex] of existing) {
		if (wanted.has(id)) continue;
		killVertex(vertex, changes);
		existing.delete(id);
	}
	for (const [id, want] of wanted) {
		let vertex = existing.get(id);
		if (!vertex) {
			vertex = createVertex(id, want.kind, { order: want.order, ownTone: want.tone });
			vertex.info = want.info;
			existing.set(id, vertex);
			setDesiredParents(vertex, [entry.vertex], changes);
			continue;
		}
		if (!sameJson(vertex.info, want.info)) {
			vertex.info = want.info;
			markDisplay(vertex, changes);
		}
		setOwnTone(vertex, want.tone, changes);
	}
	entry.derived = existing.size > 0 ? existing : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Results and Fleet roll-ups

/** The engine's result with, for Fleet parents, what the controller would write recomputed from the children. */
export function resultOf(root: Root, entry: Entry): StatusResult {
	if (entry.full && !entry.computedDirty) return entry.full;
	if (hasFleetRollup(entry)) {
		entry.full = { ...entry.base, computed: fleetComputed(root, entry) };
	} else {
		entry.full = entry.base;
	}
	return entry.full;
}

/**
 * The summary and resource counts behind each Cluster roll-up, for its ClusterGroups: reading them back from the
 * roll-up's JSON copied every non-ready entry of every Cluster whenever a group was computed.
 */
const clusterParts = new WeakMap<object, SummaryParts>();

/** StatusBase of a GitRepo or HelmOp from the aggregate of its BDs. */
function statusBaseOfAggregate(owner: unknown, bds: BdAggregate): StatusBaseComputed {
	return statusBaseFrom(owner, summaryOf(bds), clusterReadinessOf(bds), resourcesOf(bds));
}

/**
 * What a Fleet parent's row shows of its roll-up (the counters fleetCountsOf reads), from its aggregate's counts. The
 * whole roll-up (non-ready entries, the Ready message, per-cluster resource counts) is built only when a tooltip,
 * Explain or a CodeLens reads the node's result: building it for every changed row made one BD event cost more the
 * more clusters a rollout spans. The differential test checks these counters against the whole roll-up's.
 */
export function fleetRowRollupOf(root: Root, entry: Entry): unknown {
	// A BundleDeployment's row reads the object itself.
	if (entry.kind === 'BundleDeployment') return undefined;
	if (!entry.computedDirty) return entry.computed;
	if (fleetStatusFrozen(entry.kind, entry.object)) return undefined;
	const pair = pairOf(entry.namespace, entry.name);
	let bds: BdAggregate;
	switch (entry.kind) {
		case 'ClusterGroup':
			return clusterGroupRowOf(root, entry);
		case 'Bundle':
			bds = aggregateOf(root, 'bdSlot', pair);
			break;
		case 'GitRepo':
			bds = aggregateOf(root, 'bdRepo', pair);
			break;
		case 'HelmOp':
			bds = aggregateOf(root, 'bdHelm', pair);
			break;
		case 'Cluster':
			bds = clusterAggregateOf(root, entry);
			break;
		default:
			return undefined;
	}
	// From the controllers' own status, which holds no children's counts.
	if (root.rollupsFromController) return undefined;
	const ready = bds.stateCounts[0] ?? 0;
	const desiredReady = bds.members.size;
	return {
		summary: { ready, desiredReady },
		readyClusters: bds.readyClusters,
		desiredReadyClusters: bds.desiredReadyClusters,
		display: { readyBundles: `${ready}/${desiredReady}` },
	};
}

/**
 * Fleet's cluster controller counts every BD in the cluster's status.namespace, whatever their labels say; before the
 * cluster registered, the labels are the best guess (as computeFleetRollups does).
 */
function clusterAggregateOf(root: Root, cluster: Entry): BdAggregate {
	const statusNamespace = getString(cluster.object, 'status', 'namespace') ?? '';
	return statusNamespace
		? aggregateOf(root, 'bdAnyNs', statusNamespace)
		: aggregateOf(root, 'bdCluster', pairOf(cluster.namespace, cluster.name));
}

/** A ClusterGroup's cluster counts, each member Cluster read as the whole roll-up reads it (see the ClusterGroup case). */
function clusterGroupRowOf(
	root: Root,
	group: Entry,
): { clusterCount: number; nonReadyClusterCount: number } {
	const members = groupMembersOf(root, group);
	let nonReadyClusterCount = 0;
	for (const member of members) {
		const cluster = member.object;
		const bds =
			!root.rollupsFromController && !fleetStatusFrozen('Cluster', cluster)
				? clusterAggregateOf(root, member)
				: undefined;
		const summary =
			bds && bds.members.size > 0
				? { ready: bds.stateCounts[0] ?? 0, desiredReady: bds.members.size }
				: writtenClusterSummary(cluster).summary;
		if (!isSummaryReady(summary)) nonReadyClusterCount++;
	}
	return { clusterCount: members.length, nonReadyClusterCount };
}

/** A ClusterGroup's member Clusters in name order, selected again only after a Cluster changed. */
function groupMembersOf(root: Root, group: Entry): readonly Entry[] {
	const known = group.groupMembers;
	if (known && known.clusterChanges === root.clusterChanges) return known.members;
	const entries = [...indexed(root, 'clusterNs', group.namespace)];
	const byObject = new Map<unknown, Entry>(entries.map((member) => [member.object, member]));
	const members = clusterGroupMembersOf(
		group.object,
		entries.map((member) => member.object),
	).flatMap((cluster) => {
		const member = byObject.get(cluster);
		return member ? [member] : [];
	});
	group.groupMembers = { clusterChanges: root.clusterChanges, members };
	return members;
}

/** Fleet's roll-up for one parent from the indexed children, with the links computeFleetRollups uses. */
function fleetComputed(root: Root, entry: Entry): unknown {
	if (!entry.computedDirty) return entry.computed;
	entry.computedDirty = false;
	const object = entry.object;
	const pair = pairOf(entry.namespace, entry.name);
	if (fleetStatusFrozen(entry.kind, object)) {
		entry.clusterHasBds = false;
		entry.computed = undefined;
		return undefined;
	}
	switch (entry.kind) {
		case 'BundleDeployment': {
			const display = bdDisplayOf(bdViewOf(entry));
			entry.computed = { kind: 'BundleDeployment', state: display.state, display };
			break;
		}
		case 'Bundle': {
			if (root.rollupsFromController) {
				entry.computed = bundleStatusOf(object, []);
				break;
			}
			const bds = aggregateOf(root, 'bdSlot', pair);
			entry.computed = bundleStatusFrom(object, summaryOf(bds).summary, unavailableOf(bds));
			break;
		}
		case 'GitRepo': {
			const bundles = [...indexed(root, 'bundleRepo', pair)].map((bundle) => bundle.object);
			if (root.rollupsFromController) {
				entry.computed = gitRepoStatusOf(object, [], bundles, true);
				break;
			}
			const bds = aggregateOf(root, 'bdRepo', pair);
			entry.computed = gitRepoStatusFrom(
				object,
				statusBaseOfAggregate(object, bds),
				bundles,
				bundles.length > 0 || bds.members.size === 0,
			);
			break;
		}
		case 'HelmOp':
			entry.computed = root.rollupsFromController
				? helmOpStatusOf(object, [])
				: helmOpStatusFrom(statusBaseOfAggregate(object, aggregateOf(root, 'bdHelm', pair)));
			break;
		case 'Cluster': {
			if (root.rollupsFromController) {
				entry.clusterHasBds = false;
				entry.computed = clusterStatusOf(object, [], {
					gitRepos: new Set(),
					helmOps: new Set(),
				});
				break;
			}
			const bds = clusterAggregateOf(root, entry);
			const parts = clusterPartsOf(root, bds);
			const { summary } = summaryOf(bds);
			entry.clusterHasBds = bds.members.size > 0;
			const computed = clusterStatusFrom(object, summary, parts.resourceCounts, parts.owners);
			clusterParts.set(computed, { summary, resourceCounts: parts.resourceCounts });
			entry.computed = computed;
			break;
		}
		case 'ClusterGroup': {
			const members = [...indexed(root, 'clusterNs', entry.namespace)];
			const byObject = new Map<unknown, Entry>(members.map((member) => [member.object, member]));
			entry.computed = clusterGroupStatusOf(
				object,
				members.map((member) => member.object),
				(cluster): SummaryParts => {
					const member = byObject.get(cluster);
					if (member) {
						const computed = fleetComputed(root, member);
						if (member.clusterHasBds) {
							// What the JSON would read back as, without reading it (the round trip is exact).
							const known = isRecord(computed) ? clusterParts.get(computed) : undefined;
							if (known) return known;
							return {
								summary: readBundleSummary(getPath(computed, 'summary')),
								resourceCounts: readResourceCounts(getPath(computed, 'resourceCounts')),
							};
						}
					}
					return writtenClusterSummary(cluster);
				},
			);
			break;
		}
		default:
			entry.computed = undefined;
	}
	return entry.computed;
}
