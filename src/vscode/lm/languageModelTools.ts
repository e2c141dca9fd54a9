import * as vscode from 'vscode';
import {
	runAssistantTool,
	type AssistantRoot,
	type AssistantWorld,
} from '../../core/assistant/assistantTools.ts';
import { objectsNamed, rootsInScope, type ToolInput } from '../../core/assistant/world.ts';
import type { KubeEvent } from '../../core/model/kubeEvent.ts';
import { objectKeyOf } from '../../core/tree/linking.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';
import type { TreeNode } from '../../core/tree/treeNode.ts';
import type { LiveFeed } from '../../live/liveFeed.ts';
import { contextOfLiveRoot } from '../../live/liveRoots.ts';
import type { Log } from '../log.ts';
import { workspaceRootId } from '../workspace/workspaceManifests.ts';
import { errorText } from '../../core/text/errorText.ts';

/** How long a call waits at most for the workspace's first read and its contexts' first sync. */
const firstSyncWaitMs = 10_000;

/** The consumer name a running call adds to the live watches (the status bar tooltip shows it). */
const toolConsumer = 'assistant tool';

/**
 * The language model tools behind the registrations activation made (extension.ts registers each contributed tool
 * and forwards here once the engine is loaded).
 */
export interface LanguageModelToolsHost {
	prepare(name: string, input: unknown): vscode.PreparedToolInvocation;
	invoke(
		name: string,
		input: unknown,
		token: vscode.CancellationToken | undefined,
	): Promise<vscode.LanguageModelToolResult>;
}

/** The tools answering from the extension's graph: the workspace, the open dumps and the live contexts. */
export function createLanguageModelTools(deps: {
	readonly graph: ResourceGraph;
	readonly live: LiveFeed;
	readonly log: Log;
	/** Starts the deferred work (the workspace read) and settles when the first read ended. */
	readonly ensureStarted: () => Promise<void>;
	/** When the workspace was last read, file or scan. */
	readonly workspaceReadAt: () => number | undefined;
	/** Counts a consumer of the live watches until the returned disposable is disposed. */
	readonly holdConsumer: (consumer: string) => vscode.Disposable;
	/** The Events a fleet dump archive holds about an object. */
	readonly dumpEventsOf: (rootId: string, object: unknown) => readonly KubeEvent[];
	/** The Events of a live object, read from its cluster. */
	readonly liveEventsOf: (node: TreeNode) => Promise<readonly KubeEvent[]>;
}): LanguageModelToolsHost {
	const { graph, live, log } = deps;
	const rootsNow = (): AssistantRoot[] =>
		graph.roots().map((root): AssistantRoot => {
			const context = contextOfLiveRoot(root.rootId);
			if (context !== undefined) {
				const freshness = live.freshnessOf(context);
				return {
					rootId: root.rootId,
					label: context,
					kind: 'context',
					...(freshness?.syncedAt === undefined ? {} : { syncedAt: freshness.syncedAt }),
					note: freshness?.state ?? 'closed',
				};
			}
			if (root.rootId === workspaceRootId) {
				const readAt = deps.workspaceReadAt();
				return {
					rootId: root.rootId,
					label: root.label,
					kind: 'workspace',
					...(readAt === undefined ? { note: 'still reading' } : { syncedAt: readAt }),
				};
			}
			return { rootId: root.rootId, label: root.label, kind: 'dump' };
		});
	return {
		// Text, not Markdown: the input is the model's, and may repeat what a cluster or file said.
		prepare: (name, input) => ({
			invocationMessage: new vscode.MarkdownString().appendText(invocationMessage(name, input)),
		}),
		invoke: async (name, input, token) => {
			const holding = deps.holdConsumer(toolConsumer);
			try {
				const waited = await waitForData(deps, requestedContext(input), token);
				if (waited === 'cancelled') return textResult('The call was cancelled before it answered.');
				const roots = rootsNow();
				const live =
					name === 'explain_kube_status'
						? await liveEventsOfTheObject(graph, roots, input, deps.liveEventsOf, token)
						: undefined;
				const world: AssistantWorld = {
					graph,
					roots,
					now: Date.now(),
					eventsOf: (rootId, object) =>
						live !== undefined && live.rootId === rootId && live.key === objectKeyOf(object)
							? live.events
							: deps.dumpEventsOf(rootId, object),
				};
				return textResult(runAssistantTool(name, input, world).text);
			} catch (error) {
				const message = errorText(error);
				log.warn(`Language model tool ${name}: ${message}`);
				return textResult(`${name} could not answer: ${message}`);
			} finally {
				holding.dispose();
			}
		},
	};
}

/**
 * The Events of the one live object an explain call names, read from its cluster (as Explain reads them, 5 s at
 * most); undefined when the input names no single live object (the core then answers with the candidates).
 */
async function liveEventsOfTheObject(
	graph: ResourceGraph,
	roots: readonly AssistantRoot[],
	input: unknown,
	read: (node: TreeNode) => Promise<readonly KubeEvent[]>,
	token: vscode.CancellationToken | undefined,
): Promise<{ rootId: string; key: string; events: readonly KubeEvent[] } | undefined> {
	if (typeof input !== 'object' || input === null) return undefined;
	const asked: { -readonly [K in keyof ToolInput]: ToolInput[K] } = {};
	for (const key of ['name', 'kind', 'namespace', 'context', 'path'] as const) {
		const value = (input as Record<string, unknown>)[key];
		if (typeof value === 'string' && (value !== '' || key === 'namespace')) asked[key] = value;
	}
	if (asked.name === undefined) return undefined;
	const world = { graph, roots, now: Date.now() };
	const scope = rootsInScope(world, asked);
	if ('error' in scope) return undefined;
	const found = objectsNamed(world, scope.roots, asked);
	const only = found.length === 1 ? found[0] : undefined;
	const node = only?.root.kind === 'context' ? only.node : undefined;
	if (!only || !node || node.objectKey === undefined) return undefined;
	const key = node.objectKey;
	let cancelled: vscode.Disposable | undefined;
	try {
		const events = await Promise.race([
			read(node),
			new Promise<readonly KubeEvent[]>((resolve) => {
				cancelled = token?.onCancellationRequested(() => resolve([]));
			}),
		]);
		return { rootId: only.root.rootId, key, events };
	} finally {
		cancelled?.dispose();
	}
}

function textResult(text: string): vscode.LanguageModelToolResult {
	return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** The context an input asks for, when it names one. */
function requestedContext(input: unknown): string | undefined {
	const context =
		typeof input === 'object' && input !== null
			? (input as Record<string, unknown>).context
			: undefined;
	return typeof context === 'string' && context !== '' ? context : undefined;
}

/**
 * Waits, at most `firstSyncWaitMs` in all and no longer than the token allows, for the workspace's first read, the
 * live contexts to open and the first sync of the contexts the call needs (the one it names, else every open one).
 * What is not there by then is answered as it is: each root's note says it is still syncing.
 */
async function waitForData(
	deps: {
		readonly live: LiveFeed;
		readonly log: Log;
		readonly ensureStarted: () => Promise<void>;
	},
	context: string | undefined,
	token: vscode.CancellationToken | undefined,
): Promise<'ready' | 'timed out' | 'cancelled'> {
	const deadline = Date.now() + firstSyncWaitMs;
	const steps: (() => Promise<unknown>)[] = [
		() => deps.ensureStarted(),
		// The engine starts the live contexts a little after the workspace read; a call needs them now.
		() =>
			deps.live
				.start()
				.catch((error: unknown) => deps.log.warn(`Live clusters: ${errorText(error)}`)),
		() => {
			const open = deps.live.contexts;
			return deps.live.synced(
				context === undefined ? open : open.filter((name) => name === context),
			);
		},
	];
	for (const step of steps) {
		const outcome = await within(step(), deadline, token);
		if (outcome !== 'ready') return outcome;
	}
	return 'ready';
}

/** Settles with the promise, at the deadline, or when the token is cancelled, whichever comes first. */
async function within(
	promise: Promise<unknown>,
	deadline: number,
	token: vscode.CancellationToken | undefined,
): Promise<'ready' | 'timed out' | 'cancelled'> {
	if (token?.isCancellationRequested) return 'cancelled';
	let timer: ReturnType<typeof setTimeout> | undefined;
	let cancellation: vscode.Disposable | undefined;
	try {
		return await Promise.race([
			promise.then(
				() => 'ready' as const,
				() => 'ready' as const,
			),
			new Promise<'timed out'>((resolve) => {
				timer = setTimeout(() => resolve('timed out'), Math.max(0, deadline - Date.now()));
			}),
			new Promise<'cancelled'>((resolve) => {
				cancellation = token?.onCancellationRequested(() => resolve('cancelled'));
			}),
		]);
	} finally {
		clearTimeout(timer);
		cancellation?.dispose();
	}
}

/** What the chat shows while a call runs: the tool's action and the object or place it was given. */
function invocationMessage(name: string, input: unknown): string {
	const record =
		typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
	const word = (key: string): string | undefined => {
		const value = record[key];
		return typeof value === 'string' && value.trim() !== ''
			? value.replace(/\s+/g, ' ').slice(0, 80)
			: undefined;
	};
	const object = [word('kind'), [word('namespace'), word('name')].filter(Boolean).join('/')]
		.filter(Boolean)
		.join(' ');
	const place = word('context')
		? ` in context ${word('context')}`
		: word('path')
			? ` in ${word('path')}`
			: '';
	switch (name) {
		case 'list_kube_status_problems':
			return `Listing what is not ready${place}`;
		case 'explain_kube_status':
			return `Explaining ${object || 'an object'}${place}`;
		case 'preview_wec_status_merge':
			return `Previewing the WEC status merge of ${object || 'a workload'}${place}`;
		case 'run_fleet_checks':
			return `Running Fleet's checks${place}`;
		case 'explain_kube_placement':
			return `Explaining where ${object || 'a bundle'} goes${word('cluster') ? `, and whether on ${word('cluster') ?? ''}` : ''}${place}`;
		default:
			return `Running ${name.slice(0, 80)}`;
	}
}
