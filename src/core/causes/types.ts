// The shapes of the cause chain: what a world supplies, what the walker returns.
import type { StatusResult } from '../status/result.ts';

/** An object as the walker names it: API group ("" for the core group), kind, namespace and name. */
export interface CauseRef {
	readonly group: string;
	readonly kind: string;
	readonly namespace: string;
	readonly name: string;
}

/** An object of the world with the engine's result for it (computeStatus/computeStatuses, or the graph's). */
export interface WorldObject {
	readonly ref: CauseRef;
	readonly object: Readonly<Record<string, unknown>>;
	readonly status: StatusResult;
}

/**
 * What the walker reads: the graph, the CLI and the assistant tools each supply one (worldFromGraph,
 * worldFromObjects). Lookups are by group, kind, namespace and name; Fleet's by labels Fleet copies onto
 * BundleDeployments.
 */
export interface CauseWorld {
	objectOf(ref: CauseRef): WorldObject | undefined;
	/** The BundleDeployments of a Bundle (labels fleet.cattle.io/bundle-namespace and bundle-name), on every cluster. */
	bundleDeploymentsOf(bundleNamespace: string, bundleName: string): readonly WorldObject[];
	/** Every BundleDeployment in a namespace (a cluster's namespace), for dependsOn selectors. */
	bundleDeploymentsIn(namespace: string): readonly WorldObject[];
}

/** How one step leads to the next. */
export type CauseEdge = 'dependency' | 'source' | 'chart' | 'owner' | 'bundle dependency';

/** One object of the chain: its state and message as the engine says them, and the edge that led to it. */
export interface CauseStep {
	readonly ref: CauseRef;
	readonly state: string;
	readonly message: string;
	/** The edge from the previous step to this one; undefined for the first. */
	readonly edge: CauseEdge | undefined;
	/** The cluster a Fleet step is on (a BundleDeployment's). */
	readonly cluster?: string;
	/** The step in words: `Kustomization flux-system/infra`, `Bundle fleet-default/db on cluster prod-us-1`. */
	readonly title: string;
}

/** Where the chain ends. */
export type CauseEnd =
	| { readonly kind: 'cause' }
	| {
			readonly kind: 'cycle';
			readonly cycle: readonly CauseRef[];
			/** `dependency cycle: Kustomization a/x -> Kustomization a/y -> Kustomization a/x`. */
			readonly words: string;
	  }
	| {
			readonly kind: 'missing';
			readonly ref: CauseRef;
			readonly edge: CauseEdge;
			readonly cluster?: string;
			/** `Kustomization flux-system/infra does not exist` (on cluster ... for a Fleet dependency). */
			readonly words: string;
	  }
	| { readonly kind: 'depth'; readonly limit: number };

/** The chain from an object to the root cause, and the one sentence that says it. */
export interface CauseChain {
	readonly steps: readonly CauseStep[];
	readonly end: CauseEnd;
	readonly sentence: string;
}

/** The first thing an object waits for, and the words for its row ("waiting for Kustomization flux-system/infra"). */
export interface WaitingFor {
	readonly target: CauseRef;
	readonly words: string;
}
