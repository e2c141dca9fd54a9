import * as vscode from 'vscode';
import type { ObjectFleetFinding } from '../../core/checks/fleetTroubleshooting.ts';
import { fleetFindingLines } from '../../core/explain/fleetFindingLines.ts';
import { explainChain, explainNodeMarkdown } from '../../core/explain/explainDocument.ts';
import { readKubeEvents, type KubeEvent } from '../../core/model/kubeEvent.ts';
import { getString } from '../../core/model/object.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';
import type { TreeNode } from '../../core/tree/treeNode.ts';
import type { LiveFeed } from '../../live/liveFeed.ts';
import { contextOfLiveRoot, liveContextOf } from '../../live/liveRoots.ts';
import { loadK8sActions } from '../live/k8sActions.ts';
import { errorText } from '../../core/text/errorText.ts';

/**
 * The path of a workspace file below the first workspace folder. The Markdown preview refuses `file:` links, and
 * resolves a link starting with "/" against the first workspace folder (the Explain document belongs to none), so
 * only files there can be linked to.
 */
function pathInFirstFolder(sourceId: string): string | undefined {
	const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
	if (!folder || !sourceId.startsWith('file:')) return undefined;
	const file = vscode.Uri.parse(sourceId);
	const root = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
	if (file.scheme !== folder.scheme || file.authority !== folder.authority) return undefined;
	return file.path.startsWith(root) ? file.path.slice(root.length) : undefined;
}

/** Where the timeline finds Events besides the live clusters: those a dump archive holds about an object. */
export interface ExplainEventSources {
	readonly live: LiveFeed;
	readonly dumpEventsOf: (rootId: string, object: unknown) => readonly KubeEvent[];
	readonly fleetFindingsOf?: (rootId: string, object: unknown) => readonly ObjectFleetFinding[];
}

// A few objects of the chain, each read once per quarter minute however often the document refreshes, and a deadline
// after which the document shows without their Events and says so.
const maxLiveObjects = 4;
const liveEventsDeadlineMs = 5_000;
const liveEventsFreshMs = 15_000;

type LiveEventsAnswer =
	| { readonly ok: true; readonly events: readonly KubeEvent[] }
	| { readonly ok: false; readonly message: string };

function formatterOfLocale(): (ms: number) => string {
	let format: Intl.DateTimeFormat;
	try {
		format = new Intl.DateTimeFormat(vscode.env.language, {
			dateStyle: 'medium',
			timeStyle: 'medium',
		});
	} catch {
		format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
	}
	return (ms) => format.format(ms);
}

/**
 * The path of a document a chain item's link opens ends in its key: "/Explain Bundle shop-frontend #s12.md" (the name
 * is for the tab; only the key is read). The "#" is one uriFor never writes, so no object's own document reads as a step.
 */
const stepKeyAtEnd = / #(s\d+)\.md$/;
const keptStepLinks = 500;

/** A name for a document's path: the tab shows it; what it names is never read back from it. */
function safeName(text: string): string {
	return text.replace(/[^A-Za-z0-9._() -]+/g, '-').slice(0, 100) || 'item';
}

/** The URI scheme of the read-only "Explain status" documents. */
export const explainScheme = 'kube-status-lens-explain';

/** Read-only Markdown documents that explain a tree item; they refresh when the item changes. */
export class ExplainProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
	private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
	readonly onDidChange = this.emitter.event;
	private readonly graph: ResourceGraph;
	/** The documents open per node: its own, and those a chain item's link opened. */
	private readonly open = new Map<string, Map<string, vscode.Uri>>();
	/** The chain items' links: an opaque key per node id, kept for the Explain documents (the latest few hundred). */
	private readonly stepKeys = new Map<string, string>();
	private readonly stepNodes = new Map<string, string>();
	private stepCounter = 0;
	/** Step documents already revealed in the tree: a refresh does not reveal them again. */
	private readonly revealed = new Set<string>();
	private readonly sources: ExplainEventSources | undefined;
	private readonly liveEvents = new Map<
		string,
		{ at: number; answer: Promise<LiveEventsAnswer> }
	>();

	constructor(graph: ResourceGraph, sources?: ExplainEventSources) {
		this.graph = graph;
		this.sources = sources;
	}

	/**
	 * The document URI for a node; the path carries a readable name with the root it is in (the tab then tells a
	 * manifest's Explain from a live context's), the query the node id.
	 */
	uriFor(nodeId: string, label: string): vscode.Uri {
		const node = this.graph.node(nodeId);
		const root = node ? this.graph.node(node.rootId)?.label : undefined;
		const named = root && root !== label ? `${label} (${root})` : label;
		const safe = safeName(named);
		const uri = vscode.Uri.from({
			scheme: explainScheme,
			path: `/Explain ${safe}.md`,
			query: new URLSearchParams({ node: nodeId }).toString(),
		});
		this.remember(nodeId, uri);
		return uri;
	}

	private remember(nodeId: string, uri: vscode.Uri): void {
		const uris = this.open.get(nodeId) ?? new Map<string, vscode.Uri>();
		uris.set(uri.toString(), uri);
		this.open.set(nodeId, uris);
	}

	/**
	 * The link of a chain item: `Explain%20<kind>%20<name>%20%23<key>.md`, relative to the document, so the Markdown
	 * preview (which runs no command links) opens it in place; what opens is found by the key, one this provider made.
	 */
	private stepLinkOf(node: TreeNode): string {
		let key = this.stepKeys.get(node.id);
		if (key === undefined) {
			key = `s${++this.stepCounter}`;
			this.stepKeys.set(node.id, key);
			this.stepNodes.set(key, node.id);
			if (this.stepNodes.size > keptStepLinks) {
				const [oldKey, oldNode] = this.stepNodes.entries().next().value ?? [];
				if (oldKey !== undefined && oldNode !== undefined) {
					this.stepNodes.delete(oldKey);
					this.stepKeys.delete(oldNode);
				}
			}
		}
		const named = safeName(`${node.ref?.kind ?? ''} ${node.label}`.trim());
		return encodeURIComponent(`Explain ${named} #${key}.md`);
	}

	/** The node a document explains: its query's, or for a chain item's link the node its key stands for. */
	private nodeOfDocument(uri: vscode.Uri): string | undefined {
		const step = stepKeyAtEnd.exec(uri.path)?.[1];
		if (step === undefined) return new URLSearchParams(uri.query).get('node') ?? '';
		const nodeId = this.stepNodes.get(step);
		if (nodeId === undefined) return undefined;
		this.remember(nodeId, uri);
		// Followed from a chain: the object is shown in the tree too (once, not on every refresh).
		if (!this.revealed.has(uri.path)) {
			this.revealed.add(uri.path);
			void vscode.commands.executeCommand('kubeStatusLens.attention.reveal', nodeId);
		}
		return nodeId;
	}

	/** Tells open previews that their node changed. */
	nodesChanged(ids: readonly string[]): void {
		for (const id of ids) {
			for (const uri of this.open.get(id)?.values() ?? []) this.emitter.fire(uri);
		}
	}

	async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
		const nodeId = this.nodeOfDocument(uri);
		if (nodeId === undefined) {
			return '# This link is out of date\n\nExplain the object again from the tree.\n';
		}
		const { events, notes } = await this.liveEventsOf(explainChain(this.graph, nodeId));
		const dumpEventsOf = this.sources?.dumpEventsOf;
		const markdown = explainNodeMarkdown(
			this.graph,
			nodeId,
			pathInFirstFolder,
			{
				now: Date.now(),
				formatTime: formatterOfLocale(),
				eventsOf: (node, object) =>
					events.get(node.id) ?? dumpEventsOf?.(node.rootId, object) ?? [],
				notes,
			},
			(node) => this.stepLinkOf(node),
		);
		// Fleet's own troubleshooting findings on the object explained, as `fleet analyze` would report them.
		const node = this.graph.node(nodeId);
		const object = node?.objectKey ? this.graph.objectOf(node.rootId, node.objectKey) : undefined;
		const findings =
			node && object ? (this.sources?.fleetFindingsOf?.(node.rootId, object) ?? []) : [];
		if (findings.length === 0) return markdown;
		const lines = fleetFindingLines(findings, 20);
		return `${markdown.trimEnd()}\n\n## Fleet's troubleshooting checks\n\n${lines.slice(1).join('\n')}\n`;
	}

	/** The Events of one live object as Explain reads them (5 s at most, kept 15 s); none for other objects. */
	async eventsOfLiveNode(node: TreeNode): Promise<readonly KubeEvent[]> {
		return (await this.liveEventsOf([node])).events.get(node.id) ?? [];
	}

	/** The Events of the chain's first few live objects, by node id, and a note per context that did not answer. */
	private async liveEventsOf(
		chain: readonly TreeNode[],
	): Promise<{ events: Map<string, readonly KubeEvent[]>; notes: string[] }> {
		const events = new Map<string, readonly KubeEvent[]>();
		const failures = new Map<string, string>();
		const kubeconfig = this.sources?.live.kubeconfig;
		const live = chain
			.filter((node) => node.ref && node.objectKey && contextOfLiveRoot(node.rootId) !== undefined)
			.slice(0, maxLiveObjects);
		if (!kubeconfig || live.length === 0) return { events, notes: [] };
		await Promise.all(
			live.map(async (node) => {
				const context = liveContextOf(node) ?? '';
				const answer = await this.liveEventsOfNode(node, context);
				if (answer.ok) events.set(node.id, answer.events);
				else if (!failures.has(context)) failures.set(context, answer.message);
			}),
		);
		const notes = [...failures].map(
			([context, message]) =>
				`Events could not be read from context ${context}: ${message}. The timeline shows the conditions only.`,
		);
		return { events, notes };
	}

	private liveEventsOfNode(node: TreeNode, context: string): Promise<LiveEventsAnswer> {
		const ref = node.ref;
		const kubeconfig = this.sources?.live.kubeconfig;
		if (!ref || !kubeconfig) return Promise.resolve({ ok: true, events: [] });
		const object = node.objectKey ? this.graph.objectOf(node.rootId, node.objectKey) : undefined;
		const uid = getString(object, 'metadata', 'uid');
		const key = [context, ref.apiVersion, ref.kind, ref.namespace ?? '', ref.name, uid ?? ''].join(
			'\u0000',
		);
		const now = Date.now();
		const cached = this.liveEvents.get(key);
		if (cached && now - cached.at < liveEventsFreshMs) return cached.answer;
		for (const [staleKey, stale] of this.liveEvents) {
			if (now - stale.at >= liveEventsFreshMs) this.liveEvents.delete(staleKey);
		}
		const asked = (async (): Promise<LiveEventsAnswer> => {
			const actions = await loadK8sActions();
			const result = await actions.listEvents(
				kubeconfig,
				context,
				{
					apiVersion: ref.apiVersion,
					kind: ref.kind,
					name: ref.name,
					...(ref.namespace ? { namespace: ref.namespace } : {}),
					...(uid ? { uid } : {}),
				},
				{ requestTimeoutMs: liveEventsDeadlineMs - 1_000 },
			);
			return result.ok
				? { ok: true, events: readKubeEvents(result.events) }
				: { ok: false, message: result.message };
		})().catch((error: unknown) => ({
			ok: false as const,
			message: errorText(error),
		}));
		let timer: ReturnType<typeof setTimeout> | undefined;
		const deadline = new Promise<LiveEventsAnswer>((resolve) => {
			timer = setTimeout(
				() =>
					resolve({
						ok: false,
						message: `no answer within ${liveEventsDeadlineMs / 1_000} s`,
					}),
				liveEventsDeadlineMs,
			);
		});
		const answer = Promise.race([asked, deadline]).finally(() => clearTimeout(timer));
		this.liveEvents.set(key, { at: now, answer });
		return answer;
	}

	dispose(): void {
		this.emitter.dispose();
	}
}
