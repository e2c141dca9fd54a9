// The WorkStatus objects of an ITS context, copied into the roots of the WDS contexts they report to, so a WDS
// workload shows its per-WEC status under it (the graph links a WorkStatus to its source workload in one root).
import { objectKeyOf } from '../core/tree/linking.ts';
import type { ObjectEvent } from '../k8s/events.ts';
import type { GraphChanged, LiveGraph } from './feedDependencies.ts';
import { liveRootId, pairedSourceOf } from './liveRoots.ts';

/** Whether a session resource id names KubeStellar's WorkStatuses. */
export function isWorkStatusResource(resource: string): boolean {
	return resource.startsWith('control.kubestellar.io/') && resource.endsWith('/workstatuses');
}

/** Keeps the copies of one ITS context's WorkStatus objects in step with its session's events. */
export class WorkStatusMirror {
	private readonly graph: LiveGraph;
	private readonly onChanged: GraphChanged;
	private readonly source: string;
	private readonly targetsOf: (object: unknown) => readonly string[];
	/**
	 * Graph key -> the WDS contexts the object was copied to. Upserts, removals and lists all name an object by the
	 * graph's key: a session keys its events with objectKeyOf, as a list's objects are keyed here.
	 */
	private readonly copied = new Map<string, readonly string[]>();

	constructor(
		graph: LiveGraph,
		onChanged: GraphChanged,
		itsContext: string,
		targetsOf: (object: unknown) => readonly string[],
	) {
		this.graph = graph;
		this.onChanged = onChanged;
		this.source = pairedSourceOf(itsContext);
		this.targetsOf = targetsOf;
	}

	/** Applies one event of the WorkStatus resource. */
	apply(event: ObjectEvent): void {
		switch (event.type) {
			case 'upsert': {
				const targets = this.targetsOf(event.object);
				this.removeCopies(event.key, targets);
				for (const wds of targets) {
					this.onChanged(this.graph.upsertObject(liveRootId(wds), this.source, event.object));
				}
				if (targets.length > 0) this.copied.set(event.key, targets);
				else this.copied.delete(event.key);
				break;
			}
			case 'remove':
				this.removeCopies(event.key, []);
				this.copied.delete(event.key);
				break;
			case 'resync':
				this.replaceAll(event.objects);
				break;
		}
	}

	/** Takes the copies out of every WDS root. */
	clear(): void {
		const targets = new Set<string>();
		for (const copiedTo of this.copied.values()) for (const wds of copiedTo) targets.add(wds);
		for (const wds of targets) {
			this.onChanged(this.graph.removeSource(liveRootId(wds), this.source));
		}
		this.copied.clear();
	}

	/** A list replaces every copy: WDS roots that had copies and get none now are emptied. */
	private replaceAll(objects: readonly unknown[]): void {
		const byTarget = new Map<string, { object: unknown }[]>();
		for (const copiedTo of this.copied.values()) {
			for (const wds of copiedTo) byTarget.set(wds, []);
		}
		this.copied.clear();
		for (const object of objects) {
			const targets = this.targetsOf(object);
			if (targets.length === 0) continue;
			this.copied.set(objectKeyOf(object), targets);
			for (const wds of targets) {
				const list = byTarget.get(wds) ?? [];
				list.push({ object });
				byTarget.set(wds, list);
			}
		}
		for (const [wds, copies] of byTarget) {
			this.onChanged(this.graph.setSourceObjects(liveRootId(wds), this.source, copies));
		}
	}

	/** Removes an object's copies from the WDS roots it was copied to, except those in `keep`. */
	private removeCopies(key: string, keep: readonly string[]): void {
		for (const wds of this.copied.get(key) ?? []) {
			if (!keep.includes(wds)) {
				this.onChanged(this.graph.removeObject(liveRootId(wds), this.source, key));
			}
		}
	}
}
