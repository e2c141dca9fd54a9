// What the graph derives rather than reads: the children of a BundleDeployment (its non-ready and modified
// resources) and of a HarborCluster (its dependencies), and, for Fleet parents, the status Fleet's controllers would
// write, recomputed from the indexed children. The roll-ups are lazy: computed when a node is built, not per event.
import { findCondition, readConditions } from '../model/condition.ts';
import { getPath, getString } from '../model/object.ts';
import {
	bundleStatusOf,
	clusterGroupStatusOf,
	clusterStatusOf,
	fleetStatusFrozen,
	gitRepoStatusOf,
	helmOpStatusOf,
	writtenClusterSummary,
	type SummaryParts,
} from '../status/fleetRollup.ts';
import {
	bdDisplayOf,
	modifiedStatusString,
	nonReadyStatusString,
	readBundleDeployment,
	readBundleSummary,
	readResourceCounts,
	type BundleDeploymentView,
} from '../status/fleetSummary.ts';
import { harborDependencyConditions } from '../status/harbor.ts';
import type { StatusResult, Tone } from '../status/result.ts';
import { qualified } from './describe.ts';
import {
	createVertex,
	isFleet,
	type DerivedInfo,
	type Entry,
	type IndexName,
	type Root,
	type Vertex,
	type Work,
} from './graphState.ts';
import { indexed } from './indexes.ts';
import { pairOf, type BundleDeploymentLinks } from './linking.ts';
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
				`r:${entry.key}:n:${nonReady.apiVersion}:${nonReady.kind}:${nonReady.namespace}/${nonReady.name}`,
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
				`r:${entry.key}:m:${modified.apiVersion}:${modified.kind}:${modified.namespace}/${modified.name}`,
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

/** The engine's readings of the BDs an index holds under a key (none when the controllers' roll-ups are shown). */
function bdViews(
	root: Root,
	name: IndexName,
	key: string,
	accept: (links: BundleDeploymentLinks) => boolean = () => true,
): BundleDeploymentView[] {
	const views: BundleDeploymentView[] = [];
	if (root.rollupsFromController) return views;
	for (const bd of indexed(root, name, key)) {
		if (bd.bdLinks && accept(bd.bdLinks)) views.push(bdViewOf(bd));
	}
	return views;
}

/** The engine's reading of a BD, kept until the BD changes. */
function bdViewOf(entry: Entry): BundleDeploymentView {
	return (entry.bdView ??= readBundleDeployment(entry.object));
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
		case 'Bundle':
			entry.computed = bundleStatusOf(
				object,
				bdViews(root, 'bdSlot', pair, (links) => links.bundleKey !== undefined),
			);
			break;
		case 'GitRepo': {
			const bds = bdViews(root, 'bdRepo', pair);
			const bundles = [...indexed(root, 'bundleRepo', pair)].map((bundle) => bundle.object);
			entry.computed = gitRepoStatusOf(
				object,
				bds,
				bundles,
				bundles.length > 0 || bds.length === 0,
			);
			break;
		}
		case 'HelmOp':
			entry.computed = helmOpStatusOf(object, bdViews(root, 'bdHelm', pair));
			break;
		case 'Cluster': {
			const statusNamespace = getString(object, 'status', 'namespace') ?? '';
			// Fleet's cluster controller counts every BD in the cluster's status.namespace, whatever their labels
			// say; before the cluster registered, the labels are the best guess (as computeFleetRollups does).
			const members = root.rollupsFromController
				? []
				: statusNamespace
					? [...indexed(root, 'bdAnyNs', statusNamespace)]
					: [...indexed(root, 'bdCluster', pair)];
			const bds: BundleDeploymentView[] = [];
			const gitRepos = new Set<string>();
			const helmOps = new Set<string>();
			for (const bd of members) {
				if (!bd.bdLinks) continue;
				bds.push(bdViewOf(bd));
				for (const key of bd.bdLinks.ownerKeys) {
					const owner = root.entries.get(key);
					if (owner) {
						(owner.kind === 'GitRepo' ? gitRepos : helmOps).add(
							pairOf(owner.namespace, owner.name),
						);
					}
				}
			}
			entry.clusterHasBds = bds.length > 0;
			entry.computed = clusterStatusOf(object, bds, { gitRepos, helmOps });
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
