import {
	fleetFindingKeyOf,
	fleetChecksClockOf,
	fleetFindingsByObject,
	type ObjectFleetFinding,
} from '../../core/checks/fleetTroubleshooting.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';
import { contextOfLiveRoot } from '../../live/liveRoots.ts';

/**
 * Fleet's troubleshooting findings per tree root, for tooltips and Explain: computed for a root the first time one of
 * its objects is asked about, dropped on every graph change. A live root's ages count from now; a workspace's or an
 * archive's from the newest timestamp they hold (or KUBE_STATUS_LENS_NOW).
 */
export class FleetFindingsCache {
	private readonly graph: ResourceGraph;
	private readonly byRoot = new Map<string, Map<string, ObjectFleetFinding[]>>();

	constructor(graph: ResourceGraph) {
		this.graph = graph;
	}

	invalidate(): void {
		this.byRoot.clear();
	}

	findingsOf(rootId: string, object: unknown): readonly ObjectFleetFinding[] {
		let byObject = this.byRoot.get(rootId);
		if (!byObject) {
			const now = fleetChecksClockOf(
				process.env.KUBE_STATUS_LENS_NOW,
				contextOfLiveRoot(rootId) !== undefined,
				Date.now(),
			);
			byObject = fleetFindingsByObject(this.graph.objectsOf(rootId), now);
			this.byRoot.set(rootId, byObject);
		}
		return byObject.get(fleetFindingKeyOf(object)) ?? [];
	}
}
