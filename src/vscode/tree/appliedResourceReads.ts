import * as vscode from 'vscode';
import {
	appliedResourcesPlace,
	appliedRowRoleOf,
	appliedRowShown,
	isInventoryKind,
	readingOfObject,
	type AppliedPlace,
	type AppliedReading,
	type AppliedRowRole,
	type ReadFailure,
} from '../../core/tree/appliedResources.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';
import type { TreeNode } from '../../core/tree/treeNode.ts';
import type { ActionFailureKind } from '../../k8s/actions.ts';
import type { MergedKubeconfig } from '../../k8s/kubeconfig.ts';
import { contextOfLiveRoot, liveContextOf } from '../../live/liveRoots.ts';
import { loadK8sActions } from '../live/k8sActions.ts';
import { iconOf } from './treeItems.ts';
import { errorText } from '../../core/text/errorText.ts';

/** An applied-resource row: its role, its parent (the BundleDeployment or Kustomization) and where it lives. */
export interface AppliedRowTarget {
	readonly role: AppliedRowRole;
	readonly parent: TreeNode;
	readonly place: AppliedPlace | undefined;
}

/** The contexts open as live roots. */
function openContextsOf(graph: ResourceGraph): string[] {
	return graph.roots().flatMap((root) => {
		const context = contextOfLiveRoot(root.id);
		return context === undefined ? [] : [context];
	});
}

/**
 * What an applied-resource row stands for, or undefined for any other row. `place` is undefined outside a live
 * root: a file's or a dump's BundleDeployment has no cluster to read from.
 */
export function appliedRowTargetOf(
	graph: ResourceGraph,
	node: TreeNode,
): AppliedRowTarget | undefined {
	if (node.kind !== 'resource' || node.parentId === undefined) return undefined;
	const parent = graph.node(node.parentId);
	const role = parent ? appliedRowRoleOf(node.id, parent.objectKey) : undefined;
	if (!parent || !role) return undefined;
	const context = liveContextOf(parent);
	const object = parent.objectKey ? graph.objectOf(parent.rootId, parent.objectKey) : undefined;
	const place =
		context === undefined || !parent.ref
			? undefined
			: appliedResourcesPlace(
					{ kind: parent.ref.kind, namespace: parent.ref.namespace ?? '', object },
					context,
					openContextsOf(graph),
				);
	return { role, parent, place };
}

// At most this many reads at once, each given up after the deadline (the request's own timeout is shorter).
const concurrentReads = 4;
const readDeadlineMs = 8_000;
const requestTimeoutMs = 6_000;

const failureOfKind: Readonly<Record<ActionFailureKind, ReadFailure>> = {
	forbidden: 'forbidden',
	'not-found': 'not-found',
	conflict: 'error',
	'cannot-reach': 'cannot-reach',
	'login-required': 'error',
	error: 'error',
};

function formatTime(ms: number): string {
	return new Date(ms).toLocaleTimeString(vscode.env.language || undefined);
}

/**
 * Reads what a BundleDeployment or Kustomization applied when its row opens: a GET per row (never a watch), a few at
 * a time, each ending in a state or a word on the row. Readings are kept per tree place until the parent collapses;
 * opening it again reads afresh.
 */
export class AppliedResourceReads {
	private readonly readings = new Map<string, AppliedReading>();
	private readonly waiting: (() => Promise<void>)[] = [];
	private running = 0;
	private readonly graph: ResourceGraph;
	private readonly kubeconfigOf: () => MergedKubeconfig | undefined;
	private readonly redraw: (ids: string[]) => void;

	constructor(
		graph: ResourceGraph,
		kubeconfigOf: () => MergedKubeconfig | undefined,
		redraw: (ids: string[]) => void,
	) {
		this.graph = graph;
		this.kubeconfigOf = kubeconfigOf;
		this.redraw = redraw;
	}

	/** The parent's rows are shown: reads those not read since it opened. */
	childrenShown(parent: TreeNode, children: readonly TreeNode[]): void {
		const kind = parent.ref?.kind;
		if (kind !== 'BundleDeployment' && !isInventoryKind(kind ?? '')) return;
		if (liveContextOf(parent) === undefined) return;
		for (const child of children) {
			if (this.readings.has(child.id) || !child.ref) continue;
			const target = appliedRowTargetOf(this.graph, child);
			if (!target?.place) continue;
			const { place } = target;
			if (place.kind === 'elsewhere') {
				this.readings.set(child.id, { kind: 'elsewhere', why: place.why });
				continue;
			}
			if (child.ref.kind === 'Secret' && child.ref.apiVersion === 'v1') {
				this.readings.set(child.id, { kind: 'elsewhere', why: 'Secrets are not read.' });
				continue;
			}
			const reading: AppliedReading = { kind: 'reading', context: place.context };
			this.readings.set(child.id, reading);
			this.enqueue(() => this.read(child, place.context, reading));
		}
	}

	/** The parent collapsed: its rows' readings go, and the next expansion reads afresh. */
	collapsed(parentId: string): void {
		const prefix = `${parentId}/`;
		for (const id of this.readings.keys()) {
			if (id.startsWith(prefix) && id.indexOf('/', prefix.length) === -1) this.readings.delete(id);
		}
	}

	/** The row as its reading changes it (description, icon, accessible label). */
	decorate(node: TreeNode, item: vscode.TreeItem): void {
		const shown = this.shownOf(node);
		if (!shown) return;
		item.description = shown.description;
		item.iconPath = iconOf({ ...node, tone: shown.tone });
		item.accessibilityInformation = {
			label: `${typeof item.label === 'string' ? item.label : node.label}, ${shown.description}`,
			role: 'treeitem',
		};
	}

	/** The tooltip's paragraph about the live read, or undefined when the row was not read. */
	detailOf(node: TreeNode): string | undefined {
		return this.shownOf(node)?.detail;
	}

	private shownOf(node: TreeNode): ReturnType<typeof appliedRowShown> | undefined {
		const reading = this.readings.get(node.id);
		if (!reading) return undefined;
		const target = appliedRowTargetOf(this.graph, node);
		if (!target) return undefined;
		return appliedRowShown(
			reading,
			{ description: node.description, tone: node.tone, role: target.role },
			formatTime,
		);
	}

	private enqueue(task: () => Promise<void>): void {
		this.waiting.push(task);
		this.next();
	}

	private next(): void {
		while (this.running < concurrentReads) {
			const task = this.waiting.shift();
			if (!task) return;
			this.running++;
			void task().finally(() => {
				this.running--;
				this.next();
			});
		}
	}

	private async read(row: TreeNode, context: string, started: AppliedReading): Promise<void> {
		// Collapsed before its turn came: nothing to read.
		if (this.readings.get(row.id) !== started) return;
		const reading = await this.readingOf(row, context);
		if (this.readings.get(row.id) !== started) return;
		this.readings.set(row.id, reading);
		this.redraw([row.id]);
	}

	private async readingOf(row: TreeNode, context: string): Promise<AppliedReading> {
		const kubeconfig = this.kubeconfigOf();
		// A Kustomization's healthCheckExprs rate some kinds instead of kstatus: the row reads as the controller does.
		const parent = row.parentId !== undefined ? this.graph.node(row.parentId) : undefined;
		const parentObject = parent?.objectKey
			? this.graph.objectOf(parent.rootId, parent.objectKey)
			: undefined;
		const ref = row.ref;
		if (!kubeconfig || !ref) {
			return { kind: 'failed', context, failure: 'error', message: 'no kubeconfig is loaded' };
		}
		let timer: ReturnType<typeof setTimeout> | undefined;
		const deadline = new Promise<AppliedReading>((resolve) => {
			timer = setTimeout(
				() =>
					resolve({
						kind: 'failed',
						context,
						failure: 'timeout',
						message: `no answer within ${readDeadlineMs / 1_000} s`,
					}),
				readDeadlineMs,
			);
		});
		const asked = (async (): Promise<AppliedReading> => {
			const actions = await loadK8sActions();
			const result = await actions.getObject(
				kubeconfig,
				context,
				{
					apiVersion: ref.apiVersion,
					kind: ref.kind,
					name: ref.name,
					...(ref.namespace ? { namespace: ref.namespace } : {}),
				},
				{ requestTimeoutMs },
			);
			if (result.ok) return readingOfObject(result.object, context, Date.now(), parentObject);
			const timedOut = /timed? ?out|no answer/i.test(result.message);
			return {
				kind: 'failed',
				context,
				failure: timedOut ? 'timeout' : failureOfKind[result.kind],
				message: result.message,
			};
		})().catch((error: unknown): AppliedReading => ({
			kind: 'failed',
			context,
			failure: 'error',
			message: errorText(error),
		}));
		try {
			return await Promise.race([asked, deadline]);
		} finally {
			clearTimeout(timer);
		}
	}
}
