// The worlds the cause chain reads: a root of the resource graph (the tree, Explain), or a plain array of objects
// (the CLI, the assistant tools), each object with the engine's result for it.
import { getString, groupOf, labelsOf } from '../model/object.ts';
import { computeStatuses, type StatusOptions } from '../status/registry.ts';
import type { StatusResult } from '../status/result.ts';
import { fleetLabels } from '../status/fleetSummary.ts';
import type { ResourceGraph } from '../tree/model.ts';
import { refKey } from './edges.ts';
import type { CauseRef, CauseWorld, WorldObject } from './types.ts';

function refOfObject(object: unknown): CauseRef {
	return {
		group: groupOf(getString(object, 'apiVersion') ?? ''),
		kind: getString(object, 'kind') ?? '',
		namespace: getString(object, 'metadata', 'namespace') ?? '',
		name: getString(object, 'metadata', 'name') ?? '',
	};
}

function worldObject(object: Readonly<Record<string, unknown>>, status: StatusResult): WorldObject {
	return { ref: refOfObject(object), object, status };
}

/** The world of one root of the graph, with the results its rows show (Fleet roll-ups included). */
export function worldFromGraph(graph: ResourceGraph, rootId: string): CauseWorld {
	const wrap = (
		found: { readonly object: Readonly<Record<string, unknown>>; readonly status: StatusResult }[],
	): WorldObject[] => found.map(({ object, status }) => worldObject(object, status));
	return {
		objectOf(ref) {
			const found = graph.objectStatusOf(rootId, refKey(ref));
			return found ? worldObject(found.object, found.status) : undefined;
		},
		bundleDeploymentsOf(namespace, name) {
			return wrap(graph.bundleDeploymentsOf(rootId, { bundle: { namespace, name } }));
		},
		bundleDeploymentsIn(namespace) {
			return wrap(graph.bundleDeploymentsOf(rootId, { namespace }));
		},
	};
}

function appendTo(map: Map<string, WorldObject[]>, key: string, entry: WorldObject): void {
	const list = map.get(key);
	if (list) list.push(entry);
	else map.set(key, [entry]);
}

/**
 * The world of a set of objects read together (computeStatuses over all of them, so Fleet parents get their
 * roll-ups); objects that are not mappings are left out.
 */
export function worldFromObjects(
	objects: readonly unknown[],
	options: StatusOptions = {},
): CauseWorld {
	const records = objects.filter(
		(object): object is Readonly<Record<string, unknown>> =>
			typeof object === 'object' && object !== null && !Array.isArray(object),
	);
	const statuses = computeStatuses(records, options);
	const byKey = new Map<string, WorldObject>();
	const bySlot = new Map<string, WorldObject[]>();
	const byNamespace = new Map<string, WorldObject[]>();
	records.forEach((object, index) => {
		const status = statuses[index];
		if (!status) return;
		const entry = worldObject(object, status);
		const key = refKey(entry.ref);
		// A manifest and a dump of the same object: the copy with a status is the one that says what happens.
		if (!byKey.get(key)?.status.observed || status.observed) byKey.set(key, entry);
		if (entry.ref.group !== 'fleet.cattle.io' || entry.ref.kind !== 'BundleDeployment') return;
		const labels = labelsOf(object);
		const bundleName = labels[fleetLabels.bundleName];
		if (bundleName) {
			const slot = `${labels[fleetLabels.bundleNamespace] ?? ''}/${bundleName}`;
			appendTo(bySlot, slot, entry);
		}
		appendTo(byNamespace, entry.ref.namespace, entry);
	});
	return {
		objectOf: (ref) => byKey.get(refKey(ref)),
		bundleDeploymentsOf: (namespace, name) => bySlot.get(`${namespace}/${name}`) ?? [],
		bundleDeploymentsIn: (namespace) => byNamespace.get(namespace) ?? [],
	};
}
