// Which statuses a reader may compute as it reads: computeStatuses gives most objects the status they would have on
// their own; only the objects whose controllers summarize other objects read the rest of the input. A reader that
// computes each such standalone object as it comes (the CLI on a big dump) never holds the whole input.
import { groupOf, isRecord } from '../model/object.ts';
import { bundleDeploymentRollupReader } from './fleet.ts';
import { computeStatus, systemOf, type StatusOptions } from './registry.ts';
import type { StatusResult } from './result.ts';

/** The Fleet kinds computeFleetRollups computes from other objects (BundleDeployments, Bundles, Clusters). */
const fleetParentKinds = new Set(['Bundle', 'GitRepo', 'HelmOp', 'Cluster', 'ClusterGroup']);

/**
 * Whether computeStatuses gives the object the same status whatever it is read with: false for Fleet's parents and
 * for KubeStellar's objects (which look up their workloads), and for anything that is not a plain object or is a List
 * (whose items computeFleetRollups reads).
 */
export function statusStandsAlone(object: unknown): boolean {
	if (!isRecord(object)) return false;
	const { apiVersion, kind } = object;
	if (typeof apiVersion !== 'string' || typeof kind !== 'string' || kind.endsWith('List')) {
		return false;
	}
	if (groupOf(apiVersion) === 'fleet.cattle.io') return !fleetParentKinds.has(kind);
	return systemOf(object) !== 'kubestellar';
}

/**
 * Computes, one object at a time, what computeStatuses gives an object whose status stands alone (statusStandsAlone)
 * among any others: its status, and for a BundleDeployment the roll-up (`computed`) its controller writes.
 */
export function standaloneStatusReader(options: StatusOptions): (object: unknown) => StatusResult {
	const bundleDeploymentRollup = bundleDeploymentRollupReader();
	return (object) => {
		if (
			isRecord(object) &&
			object.kind === 'BundleDeployment' &&
			typeof object.apiVersion === 'string' &&
			groupOf(object.apiVersion) === 'fleet.cattle.io'
		) {
			const { view, computed } = bundleDeploymentRollup(object);
			return { ...computeStatus(object, options, view), computed };
		}
		return computeStatus(object, options);
	};
}
