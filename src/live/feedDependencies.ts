// What the live feed is given, as narrow interfaces a front end implements (vscode-eslint injects `Pick<>`s of the
// workspace API the same way): the part of the graph it writes, the cluster client, the settings, a log and a
// progress indicator. The cluster client is src/k8s itself, which the VS Code front end loads lazily
// (dist/k8s.cjs, with client-node), so this folder imports src/k8s only as types.
import type { ContextPair } from '../core/merge/contextPairing.ts';
import type { ChangedNodes, ResourceGraph } from '../core/tree/model.ts';
import type * as k8s from '../k8s/index.ts';

/** The graph operations the feed uses: roots, their states, and objects by source. */
export type LiveGraph = Pick<
	ResourceGraph,
	| 'addRoot'
	| 'removeRoot'
	| 'setRootState'
	| 'setRollupsFromController'
	| 'setSourceObjects'
	| 'upsertObject'
	| 'removeObject'
	| 'removeSource'
	| 'node'
>;

/** Where the feed reports what each graph operation changed. */
export type GraphChanged = (changes: ChangedNodes) => void;

/** The cluster client: src/k8s's kubeconfig loader, sessions, and how a connection state shows. */
export type ClusterClient = Pick<typeof k8s, 'loadKubeconfig' | 'createSession' | 'toneOfState'>;

/** The kubeStatusLens.clusters.* settings as they are now. */
export interface LiveSettings {
	readonly enabled: boolean;
	/** An explicit kubeconfig path, or "" for KUBECONFIG and ~/.kube/config. */
	readonly kubeconfig: string;
	/** The chosen contexts; none means the kubeconfig's current context. */
	readonly contexts: readonly string[];
	readonly namespaces: readonly string[];
	readonly bundleDeploymentThreshold: number;
	readonly kubestellarPairs: readonly ContextPair[];
	/** Larger answers from a cluster are refused (kubeStatusLens.clusters.maxResponseMB). */
	readonly maxResponseBytes?: number;
}

/** Where the feed writes what a user may want to read later. */
export interface FeedLog {
	info(message: string): void;
	warn(message: string): void;
}

/** Shows a task while it runs, with the messages it reports (VS Code's window progress). */
export type ShowProgress = (
	task: (report: (message: string) => void) => Promise<void>,
) => PromiseLike<void>;

/** Everything the feed is given. */
export interface FeedDependencies {
	readonly graph: LiveGraph;
	readonly onChanged: GraphChanged;
	/** The cluster client, loaded the first time a context opens. */
	readonly loadClient: () => Promise<ClusterClient>;
	readonly readSettings: () => LiveSettings;
	readonly log: FeedLog;
	readonly showProgress: ShowProgress;
}
