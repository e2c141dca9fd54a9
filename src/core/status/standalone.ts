// Which statuses a reader may compute as it reads: computeStatuses gives most objects the status they would have on
// their own; only the objects whose controllers summarize other objects read the rest of the input. A reader that
// computes each such standalone object as it comes (the CLI on a big dump) never holds the whole input.
import { groupOf, isRecord } from '../model/object.ts';
import {
	bundleDeploymentRollupReader,
	FleetRollupInput,
	fleetRollupsOf,
	type FleetComputed,
} from './fleet.ts';
import type { BundleDeploymentView } from './fleetSummary.ts';
import { computeStatus, systemOf, type StatusOptions } from './registry.ts';
import type { StatusResult } from './result.ts';
import { readBundleDeployment } from './fleetSummary.ts';

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

function isBundleDeployment(object: unknown): object is Record<string, unknown> {
	return (
		isRecord(object) &&
		object.kind === 'BundleDeployment' &&
		typeof object.apiVersion === 'string' &&
		groupOf(object.apiVersion) === 'fleet.cattle.io'
	);
}

/** Whether the object is one of Fleet's parents, whose roll-up computeFleetRollups reads from the others. */
export function isFleetParent(object: unknown): boolean {
	return (
		isRecord(object) &&
		typeof object.apiVersion === 'string' &&
		typeof object.kind === 'string' &&
		groupOf(object.apiVersion) === 'fleet.cattle.io' &&
		fleetParentKinds.has(object.kind)
	);
}

/**
 * Computes, one object at a time, what computeStatuses gives an object whose status stands alone (statusStandsAlone)
 * among any others: its status, and for a BundleDeployment the roll-up (`computed`) its controller writes.
 * `bundleDeploymentRead` is handed each BundleDeployment's view (the object it holds let go).
 */
export function standaloneStatusReader(
	options: StatusOptions,
	bundleDeploymentRead?: (view: BundleDeploymentView) => void,
): (object: unknown) => StatusResult {
	const bundleDeploymentRollup = bundleDeploymentRollupReader();
	return (object) => {
		if (isBundleDeployment(object)) {
			const { view, computed } = bundleDeploymentRollup(object);
			bundleDeploymentRead?.({ ...view, object: undefined });
			return { ...computeStatus(object, options, view), computed };
		}
		return computeStatus(object, options);
	};
}

/**
 * What computeStatuses gives each object of an input, for a reader that lets each object go once its record is
 * written: an object whose status stands alone is computed as it comes; a Fleet parent is held (an input has few) and
 * computed by `finish`, from the views of every BundleDeployment taken or `gathered`, before it or after. KubeStellar
 * objects and Lists are not taken: their statuses read whole objects of the input, which the caller must hold.
 */
export class StreamedStatuses<Origin> {
	private readonly input = new FleetRollupInput();
	private readonly parents: ({ object: Record<string, unknown>; origin: Origin } | undefined)[] =
		[];
	private readonly options: StatusOptions;
	private readonly standalone: (object: unknown) => StatusResult;

	constructor(options: StatusOptions) {
		this.options = options;
		this.standalone = standaloneStatusReader(options, (view) =>
			this.input.addBundleDeploymentView(view),
		);
	}

	/** Whether `take` takes the object. */
	static takes(object: unknown): boolean {
		return statusStandsAlone(object) || isFleetParent(object);
	}

	/** The object's status now; `held` for a Fleet parent (its status comes from `finish`). */
	take(object: unknown, origin: Origin): StatusResult | 'held' {
		if (isFleetParent(object)) {
			const parent = object as Record<string, unknown>;
			this.parents.push({ object: parent, origin });
			this.input.add(parent);
			return 'held';
		}
		return this.standalone(object);
	}

	/** How many BundleDeployments were taken: where those of a file written elsewhere go (`gather`). */
	get bundleDeploymentsTaken(): number {
		return this.input.bds.length;
	}

	/** What the parents' roll-ups read of the object, when it is a BundleDeployment (see `gather`). */
	static viewOf(object: unknown): BundleDeploymentView | undefined {
		return isBundleDeployment(object)
			? { ...readBundleDeployment(object), object: undefined }
			: undefined;
	}

	/**
	 * Adds the views (viewOf) of the BundleDeployments of a file whose records were written elsewhere (another thread)
	 * for the parents' roll-ups, as if they had been taken when `bundleDeploymentsTaken` was `at`. Files gathered last
	 * first, so that each `at` still holds.
	 */
	gather(at: number, views: readonly BundleDeploymentView[]): void {
		this.input.insertBundleDeploymentViews(at, views);
	}

	/** A mark to go back to: what was taken and gathered after it is forgotten (a file read again another way). */
	mark(): () => void {
		const parents = this.parents.length;
		const input = this.input.mark();
		return () => {
			this.parents.length = parents;
			input();
		};
	}

	/** Whether a Fleet parent is held. */
	get holdsParents(): boolean {
		return this.parents.length > 0;
	}

	/** The held parents' statuses, in the order taken; each parent is let go as it is handed over. */
	*finish(): Generator<{ object: unknown; origin: Origin; result: StatusResult }> {
		const rollups: Map<unknown, FleetComputed> = fleetRollupsOf(this.input, false);
		for (let index = 0; index < this.parents.length; index++) {
			const held = this.parents[index];
			if (!held) continue;
			const result = computeStatus(held.object, this.options);
			const computed = rollups.get(held.object);
			yield {
				object: held.object,
				origin: held.origin,
				result: computed === undefined ? result : { ...result, computed },
			};
			this.parents[index] = undefined;
		}
	}
}
