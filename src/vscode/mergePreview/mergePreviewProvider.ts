import * as vscode from 'vscode';
import {
	currentStatusYaml,
	mergedStatusYaml,
	mergeInputsFrom,
	mergePreviewYaml,
} from '../../core/merge/mergePreview.ts';
import type { MergeRules } from '../../core/merge/wecMerge.ts';
import { type ResourceGraph } from '../../core/tree/model.ts';
import { objectKeyOf } from '../../core/tree/linking.ts';
import { visibleLine } from '../../core/text/visible.ts';
import { contextOfLiveRoot } from '../../live/liveRoots.ts';

/** The URI scheme of the read-only merge preview documents (merged status, and the current one for the diff). */
export const mergeScheme = 'kube-status-lens-merge';

/**
 * What a preview URI names: the root and object key of the workload, the rule set, and which document: the preview
 * (`merged`), or a side of the diff, each a bare `.status` (`current`, `merged-status`).
 */
export interface MergeTarget {
	readonly rootId: string;
	readonly key: string;
	readonly rules: MergeRules;
	readonly side: 'merged' | 'current' | 'merged-status';
}

const sideNames: Readonly<Record<MergeTarget['side'], string>> = {
	merged: 'merge preview',
	current: 'status now',
	'merged-status': 'merged status',
};

/** Builds the preview URI; the path carries a readable title, the query what to compute. */
export function mergeUriOf(target: MergeTarget, title: string): vscode.Uri {
	const safe = title.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'workload';
	return vscode.Uri.from({
		scheme: mergeScheme,
		path: `/${safe} (${sideNames[target.side]}).yaml`,
		query: new URLSearchParams({
			root: target.rootId,
			key: target.key,
			rules: target.rules,
			side: target.side,
		}).toString(),
	});
}

function targetOf(uri: vscode.Uri): MergeTarget {
	const query = new URLSearchParams(uri.query);
	return {
		rootId: query.get('root') ?? '',
		key: query.get('key') ?? '',
		rules: query.get('rules') === 'kubestellar' ? 'kubestellar' : 'proposal',
		side:
			query.get('side') === 'current'
				? 'current'
				: query.get('side') === 'merged-status'
					? 'merged-status'
					: 'merged',
	};
}

/** Serves the merge preview from the graph's objects; open previews refresh when the graph changes. */
export class MergePreviewProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
	/** Per open live preview: the per-WEC values it last showed, and since when. */
	private readonly liveValues = new Map<string, { values: string; changedAt: number }>();
	private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
	readonly onDidChange = this.emitter.event;
	private readonly graph: ResourceGraph;
	private timer: ReturnType<typeof setTimeout> | undefined;
	/** Inputs from files the user picked, by pseudo root id (`files:<n>`). */
	private readonly picked = new Map<string, readonly Readonly<Record<string, unknown>>[]>();

	/** Keeps the objects of picked files under a new pseudo root id, and returns it. */
	addPickedObjects(objects: readonly Readonly<Record<string, unknown>>[]): string {
		const rootId = `files:${this.picked.size + 1}`;
		this.picked.set(rootId, objects);
		return rootId;
	}

	/**
	 * The objects a preview reads: those of picked files, a workspace root's, or for a live WDS context its own plus
	 * the WorkStatus objects of the other live contexts (the ITS) that name it in
	 * `transport.kubestellar.io/originWdsName`, or all of them when none names it (a WDS context name and the WDS
	 * name KubeStellar writes usually differ).
	 */
	objectsOf(rootId: string): readonly Readonly<Record<string, unknown>>[] {
		const picked = this.picked.get(rootId);
		if (picked) return picked;
		// A live WDS root holds the WorkStatus objects of its paired ITS, copied there by the same pairing rule the tree
		// uses (kubeStatusLens.clusters.kubestellarPairs): the preview reads exactly what the tree shows.
		return this.graph.objectsOf(rootId);
	}

	constructor(graph: ResourceGraph) {
		this.graph = graph;
	}

	/**
	 * Reads a preview again now: one left open from an earlier look (the tabs stay) may show what the graph held then,
	 * e.g. "no longer in the workspace" while its context was reconnecting.
	 */
	refresh(uri: vscode.Uri): void {
		this.emitter.fire(uri);
	}

	/** Called on every graph change; refreshes the open previews once things settle. */
	graphChanged(): void {
		clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			for (const document of vscode.workspace.textDocuments) {
				if (document.uri.scheme === mergeScheme) this.emitter.fire(document.uri);
			}
		}, 300);
	}

	provideTextDocumentContent(uri: vscode.Uri): string {
		const target = targetOf(uri);
		const workload = this.picked.has(target.rootId)
			? this.objectsOf(target.rootId).find((object) => objectKeyOf(object) === target.key)
			: this.graph.objectOf(target.rootId, target.key);
		if (!workload) {
			const context = contextOfLiveRoot(target.rootId);
			return `# The workload is no longer in ${context === undefined ? 'the workspace' : `context ${visibleLine(context)}`}.\n`;
		}
		if (target.side === 'current') return currentStatusYaml(workload);
		const inputs = mergeInputsFrom(workload, this.objectsOf(target.rootId));
		if (target.side === 'merged-status') {
			return mergedStatusYaml(workload, inputs, target.rules, { now: Date.now() });
		}
		const text = mergePreviewYaml(workload, inputs, target.rules, { now: Date.now() }).text;
		const context = contextOfLiveRoot(target.rootId);
		if (context === undefined) return text;
		// A live preview follows the clusters: it says when the values it merges last changed.
		const values = JSON.stringify(inputs.perWec);
		const key = uri.toString();
		const seen = this.liveValues.get(key);
		const changedAt = seen && seen.values === values ? seen.changedAt : Date.now();
		this.liveValues.set(key, { values, changedAt });
		const time = new Date(changedAt).toISOString().slice(11, 19);
		const line = `# Live from context ${visibleLine(context)}: the WECs' values last changed at ${time} UTC`;
		const firstBreak = text.indexOf('\n');
		return `${text.slice(0, firstBreak)}\n${line}${text.slice(firstBreak)}`;
	}

	dispose(): void {
		this.liveValues.clear();
		clearTimeout(this.timer);
		this.emitter.dispose();
	}
}
