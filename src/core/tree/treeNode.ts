// What the graph hands to adapters: a tree node ready to display and the types it is made of. They live apart from
// the graph because its internal state caches built nodes, and the graph's own file imports that state.
import type { Termination } from '../explain/termination.ts';
import type { ObjectRef } from '../model/object.ts';
import type { StatusResult, SystemId, Tone } from '../status/result.ts';
import type { BundleDeploymentQuery } from './linking.ts';

/** What a tree node stands for. */
export type NodeKind =
	'root' | 'system' | 'category' | 'object' | 'resource' | 'dependency' | 'placeholder';

/** Where a root's objects come from: workspace files or a live cluster. */
export type RootOrigin = 'file' | 'live';

/** A state shown on a root itself, e.g. "cannot reach" for a kube context. */
export interface RootState {
	readonly tone: Tone;
	/** Short: shown in the root's description. */
	readonly message: string;
	/** Longer: shown in its tooltip instead of the message. */
	readonly detail?: string;
	/**
	 * The root holds only part of its objects yet (its first read or sync runs): the description says so and leaves
	 * out the counts, which would be false ("0 objects").
	 */
	readonly partial?: boolean;
}

/** One place an object was read from. */
export interface NodeSource {
	readonly sourceId: string;
	readonly line?: number;
	readonly label?: string;
}

/** Counts of a node's direct children by tone, recomputed from the children (not from what a controller wrote). */
export interface NodeRollup {
	/** The worst tone among the children. */
	readonly tone: Tone;
	readonly total: number;
	readonly ok: number;
	/** Children with tone warning or error. */
	readonly problems: number;
	readonly byTone: Readonly<Record<Tone, number>>;
}

/** What commands need to know about a node; the adapter turns it into a contextValue in one place. */
export interface ContextFlags {
	readonly origin: RootOrigin;
	readonly system: SystemId | 'none';
	/** The object's kind, or "" for nodes that are not objects. */
	readonly objectKind: string;
	readonly state: string;
	/** A manifest with no status ("declared, no status"). */
	readonly declared: boolean;
	/** Flux spec.suspend is true. */
	readonly suspended: boolean;
	/** Fleet spec.paused is true. */
	readonly paused: boolean;
	/** A Flux HelmRepository of type oci. */
	readonly oci: boolean;
	/** The object was read from a file, at a known line. */
	readonly inFile: boolean;
	/** The object was read from an entry of an archive (a `fleet dump`): no file to open, an entry to show. */
	readonly inArchive: boolean;
	readonly problem: boolean;
}

/** A node of the tree, ready to display. */
/** When an object's leading condition last changed, and where its state word ends in the description. */
export interface StateSince {
	/** Milliseconds since the epoch, from lastTransitionTime (or Fleet's lastUpdateTime). */
	readonly at: number;
	readonly wordEnd: number;
}

export interface TreeNode {
	/** Stable per place: "<parent id>/<segment>"; the same object under two parents has two ids. */
	readonly id: string;
	readonly parentId?: string;
	readonly rootId: string;
	readonly kind: NodeKind;
	readonly label: string;
	/** The state word and counts, e.g. "NotReady · 3/5 clusters"; text, never colour alone. */
	readonly description: string;
	/** Since when the state in the description holds, for rows whose state is not plain ready: the view adds "for 12 min". */
	readonly stateSince?: StateSince;
	/**
	 * Where the state ends in an object's description (its word, or the children's count that leads it): what the
	 * view adds at display time ("Terminating 3 h · finalizers: …", "waiting for …") goes there, before the counts.
	 */
	readonly stateEnd?: number;
	/** Set while metadata.deletionTimestamp is: the view adds "Terminating 3 h · finalizers: …" (age at display time). */
	readonly terminating?: Termination;
	readonly tone: Tone;
	readonly objectKey?: string;
	/** The object (or the resource a BundleDeployment reports) this node stands for. */
	readonly ref?: ObjectRef;
	readonly result?: StatusResult;
	readonly rollup?: NodeRollup;
	/** Where what the controller wrote disagrees with what the children say, in words. */
	readonly disagreement?: string | undefined;
	/** For nodes without a result (resources, dependencies, placeholders): the one-line explanation. */
	readonly message?: string;
	readonly sources?: readonly NodeSource[];
	readonly contextFlags: ContextFlags;
	readonly hasChildren: boolean;
	/** Children that are not watched and must be listed when the node is expanded (roll-ups-only live roots). */
	readonly listOnDemand?: BundleDeploymentQuery;
}
