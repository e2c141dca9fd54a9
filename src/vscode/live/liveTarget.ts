import * as vscode from 'vscode';
import type { ResourceGraph } from '../../core/tree/model.ts';
import type { TreeNode } from '../../core/tree/treeNode.ts';
import type { MergedKubeconfig } from '../../k8s/kubeconfig.ts';
import type { Log } from '../log.ts';
import type { LiveFeed } from '../../live/liveFeed.ts';
import type { Trigger } from '../../live/waitFor.ts';
import { contextOfLiveRoot, liveContextOf } from '../../live/liveRoots.ts';
import { appliedRowTargetOf } from '../tree/appliedResourceReads.ts';

/** What the live commands work with. */
export interface LiveCommandDeps {
	readonly graph: ResourceGraph;
	readonly live: LiveFeed;
	readonly log: Log;
	/** Fires after every change of the graph. */
	readonly onGraphChanged: Trigger;
}

/** The live object a command acts on: its tree node, the context it lives in and how to reach it. */
export interface LiveTarget {
	readonly node: TreeNode;
	readonly context: string;
	readonly ref: { apiVersion: string; kind: string; name: string; namespace?: string };
	readonly kubeconfig: MergedKubeconfig;
}

/**
 * What a mutation command returns to a caller (tests, other commands): done, cancelled (no message), or failed with
 * the words the user was shown.
 */
export type Outcome = { readonly ok: true } | { readonly ok: false; readonly message?: string };
export const succeeded: Outcome = { ok: true };
export const cancelled: Outcome = { ok: false };

/** The live object a tree node id names, or undefined once the user was told to choose one. */
export function liveTargetOf(deps: LiveCommandDeps, id: unknown): LiveTarget | undefined {
	const node = typeof id === 'string' ? deps.graph.node(id) : undefined;
	const kubeconfig = deps.live.kubeconfig;
	if (!node?.ref || contextOfLiveRoot(node.rootId) === undefined || !kubeconfig) {
		void vscode.window.showInformationMessage('Choose a live object in the Kube Status Lens tree.');
		return undefined;
	}
	const { apiVersion, kind, name, namespace } = node.ref;
	// What a BundleDeployment or Kustomization applied lives where they applied it: the downstream cluster.
	const applied = appliedRowTargetOf(deps.graph, node);
	if (applied?.place?.kind === 'elsewhere') {
		void vscode.window.showInformationMessage(applied.place.why);
		return undefined;
	}
	return {
		node,
		context: applied?.place?.context ?? liveContextOf(node) ?? '',
		ref: { apiVersion, kind, name, ...(namespace ? { namespace } : {}) },
		kubeconfig,
	};
}

/** "Kind namespace/name in context", as messages name a target. */
export function describeTarget(target: LiveTarget): string {
	return `${target.ref.kind} ${target.ref.namespace ? `${target.ref.namespace}/` : ''}${target.ref.name} in ${target.context}`;
}

/**
 * Shows a failure in plain words (a 403 reads "You may not ..."), and returns what was shown: commands return it,
 * for tests and callers.
 */
export function showFailure(log: Log, what: string, result: { message: string }): string {
	const shown = `${what} failed: ${result.message}`;
	log.warn(`${what}: ${result.message}`);
	void vscode.window.showErrorMessage(shown);
	return shown;
}
