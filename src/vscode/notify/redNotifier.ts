import * as vscode from 'vscode';
import { visibleLine } from '../../core/text/visible.ts';
import {
	nextRedState,
	nothingSeen,
	pinKeyOf,
	redNotification,
	type RedObject,
	type RedState,
} from '../../core/notify/turnedRed.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';
import type { TreeNode } from '../../core/tree/treeNode.ts';
import type { LiveFeed } from '../../live/liveFeed.ts';
import { contextOfLiveRoot } from '../../live/liveRoots.ts';
import type { Log } from '../log.ts';
import { readNotificationSettings } from '../settings.ts';
import { pickObjectNode } from '../tree/treeCommands.ts';

const pinsKey = 'kubeStatusLens.notify.pins';
const hasPinsContext = 'kubeStatusLens.hasNotifyPins';
const matrixCommand = 'kubeStatusLens.matrix.show';
/** Objects turning red within this long of the first make one notification (a rollout turns many at once). */
const debounceMs = 3_000;
/** The graph is looked at most this often: each look walks every object in error. */
const lookEveryMs = 300;

/** A notification the notifier made, and whether it was shown (not while the window is unfocused, unless asked). */
export interface RedNotificationRecord {
	readonly message: string;
	readonly shown: boolean;
}

function titleOf(node: TreeNode): string {
	const ref = node.ref;
	if (!ref) return node.label;
	return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

/**
 * Opt-in notifications when an object turns red: the objects pinned with "Notify When It Turns Red" (kept per
 * workspace), and anything in the contexts of `kubeStatusLens.notifications.contexts`. Looks at the graph after its
 * changes, once the workspace has been read (`start`).
 */
export class RedNotifier implements vscode.Disposable {
	/** What was notified, for the in-host tests (a notification cannot be read back from the workbench). */
	readonly notified: RedNotificationRecord[] = [];
	private readonly graph: ResourceGraph;
	private readonly live: LiveFeed;
	private readonly log: Log;
	private readonly memento: vscode.Memento;
	private pins: Set<string>;
	private state: RedState = nothingSeen;
	private started = false;
	private pending: RedObject[] = [];
	private debounceTimer: ReturnType<typeof setTimeout> | undefined;
	private lookTimer: ReturnType<typeof setTimeout> | undefined;
	private readonly pinsEmitter = new vscode.EventEmitter<TreeNode>();
	/** A row's object was pinned or unpinned: its rows offer the other command now. */
	readonly onDidChangePins = this.pinsEmitter.event;

	constructor(deps: {
		readonly graph: ResourceGraph;
		readonly live: LiveFeed;
		readonly log: Log;
		readonly workspaceState: vscode.Memento;
	}) {
		this.graph = deps.graph;
		this.live = deps.live;
		this.log = deps.log;
		this.memento = deps.workspaceState;
		const saved = this.memento.get<unknown>(pinsKey);
		this.pins = new Set(
			Array.isArray(saved) ? saved.filter((key): key is string => typeof key === 'string') : [],
		);
		void vscode.commands.executeCommand('setContext', hasPinsContext, this.pins.size > 0);
	}

	/** The workspace has been read: from now on a change can be a transition. */
	start(): void {
		if (this.started) return;
		this.started = true;
		this.look();
	}

	/** The graph changed: look soon (at most every 300 ms). */
	graphChanged(): void {
		if (!this.started) return;
		this.lookTimer ??= setTimeout(() => {
			this.lookTimer = undefined;
			this.look();
		}, lookEveryMs);
	}

	/** Looks now and shows what is pending without waiting for the debounce window (tests). */
	flush(): void {
		clearTimeout(this.lookTimer);
		this.lookTimer = undefined;
		this.look();
		this.notifyPending();
	}

	/** Whether the object a row shows is pinned (its rows offer "Stop Notifying", the others "Notify When…"). */
	isPinned(node: TreeNode): boolean {
		return node.objectKey !== undefined && this.pins.has(pinKeyOf(node.rootId, node.objectKey));
	}

	/** Every pin, with a row that shows its object now (none while its root or the object is not in the tree). */
	pinned(): { readonly key: string; readonly node: TreeNode | undefined }[] {
		return [...this.pins].map((key) => {
			const [rootId = '', objectKey = ''] = key.split('\u0000');
			const [id] = this.graph.findNodesForObject(rootId, objectKey);
			return { key, node: id === undefined ? undefined : this.graph.node(id) };
		});
	}

	/**
	 * Lists every pin, each with the state its object shows now and where it is; the one chosen is revealed in the
	 * tree (or, for `unpin`, no longer notified about). Returns the chosen pin's key.
	 */
	async pickPin(
		placeHolder: string,
	): Promise<{ key: string; node: TreeNode | undefined } | undefined> {
		const pins = this.pinned();
		if (pins.length === 0) {
			void vscode.window.showInformationMessage(
				'No object is pinned. "Notify When It Turns Red" on a row of the tree pins it.',
			);
			return undefined;
		}
		const picked = await vscode.window.showQuickPick(
			pins.map((pin) => {
				const [rootId = '', objectKey = ''] = pin.key.split('\u0000');
				const [, kind = '', namespace = '', name = ''] = objectKey.split('|');
				const where =
					this.graph.roots().find((root) => root.rootId === rootId)?.label ??
					'a root that is not open';
				return {
					label: visibleLine(`${kind} ${namespace ? `${namespace}/` : ''}${name}`),
					description: visibleLine(
						pin.node ? `${pin.node.description ?? ''}`.slice(0, 80) : 'not in the tree now',
					),
					detail: visibleLine(where),
					pin,
				};
			}),
			{ placeHolder, matchOnDescription: true, matchOnDetail: true },
		);
		return picked?.pin;
	}

	async pin(id: unknown, pinned: boolean): Promise<string | undefined> {
		if (!pinned && typeof id !== 'string') {
			// From the palette: choose among the pins, not among every object.
			const chosen = await this.pickPin('Stop notifying about');
			if (!chosen) return undefined;
			if (chosen.node) return this.pin(chosen.node.id, false);
			this.pins.delete(chosen.key);
			await this.memento.update(pinsKey, [...this.pins]);
			void vscode.commands.executeCommand('setContext', hasPinsContext, this.pins.size > 0);
			return chosen.key;
		}
		const node =
			typeof id === 'string'
				? this.graph.node(id)
				: await pickObjectNode(this.graph, 'Notify when this object turns red');
		if (!node?.objectKey) return undefined;
		const key = pinKeyOf(node.rootId, node.objectKey);
		// What is red now is recorded before the pin counts, so pinning a red object does not notify at once.
		this.look();
		if (pinned) this.pins.add(key);
		else this.pins.delete(key);
		await this.memento.update(pinsKey, [...this.pins]);
		void vscode.commands.executeCommand('setContext', hasPinsContext, this.pins.size > 0);
		this.pinsEmitter.fire(node);
		this.look();
		void vscode.window.setStatusBarMessage(
			pinned
				? `Kube Status Lens: notifying when ${titleOf(node)} turns red`
				: `Kube Status Lens: no longer notifying about ${titleOf(node)}`,
			4_000,
		);
		return key;
	}

	private look(): void {
		if (!this.started) return;
		const watch = { pins: this.pins, contexts: readNotificationSettings().contexts };
		if (watch.pins.size === 0 && watch.contexts.length === 0) {
			// Nothing watched: nothing to remember; the next look after a pin starts from what is red then.
			this.state = nothingSeen;
			return;
		}
		const live = new Set(this.live.contexts);
		const syncing = new Set(this.live.syncingContexts);
		const settled = new Set<string>();
		for (const root of this.graph.roots()) {
			const context = contextOfLiveRoot(root.id);
			if (context === undefined || (live.has(context) && !syncing.has(context))) {
				settled.add(root.id);
			}
		}
		const redNow: RedObject[] = [];
		for (const candidate of this.graph.attentionCandidates()) {
			if (candidate.tone !== 'error') continue;
			const node = this.graph.node(candidate.nodeId);
			if (!node?.objectKey) continue;
			redNow.push({
				key: pinKeyOf(candidate.rootId, node.objectKey),
				rootId: candidate.rootId,
				context: contextOfLiveRoot(candidate.rootId),
				nodeId: node.id,
				title: titleOf(node),
				state: node.result?.state ?? node.description,
			});
		}
		const { state, turnedRed } = nextRedState(this.state, redNow, settled, watch);
		this.state = state;
		if (turnedRed.length === 0) return;
		for (const object of turnedRed) this.pending.push(object);
		this.debounceTimer ??= setTimeout(() => this.notifyPending(), debounceMs);
	}

	private notifyPending(): void {
		clearTimeout(this.debounceTimer);
		this.debounceTimer = undefined;
		const notification = redNotification(this.pending);
		this.pending = [];
		if (!notification) return;
		const shown = vscode.window.state.focused || readNotificationSettings().whenUnfocused;
		this.notified.push({ message: notification.message, shown });
		if (!shown) {
			this.log.info(`Not shown while the window is unfocused: ${notification.message}`);
			return;
		}
		const { first } = notification;
		void vscode.window
			.showWarningMessage(notification.message, 'Explain', 'Show in Matrix')
			.then(async (choice) => {
				const nodeId = this.currentNodeId(first);
				if (choice === 'Explain') {
					await vscode.commands.executeCommand('kubeStatusLens.resource.explain', nodeId);
				} else if (choice === 'Show in Matrix') {
					const commands = await vscode.commands.getCommands(true);
					await vscode.commands.executeCommand(
						commands.includes(matrixCommand) ? matrixCommand : 'kubeStatusLens.attention.reveal',
						nodeId,
					);
				}
			});
	}

	/** The object's row now (its place may have changed since it turned red). */
	private currentNodeId(object: RedObject): string {
		const objectKey = object.key.slice(object.key.indexOf('\u0000') + 1);
		return this.graph.findNodesForObject(object.rootId, objectKey)[0] ?? object.nodeId;
	}

	dispose(): void {
		this.pinsEmitter.dispose();
		clearTimeout(this.debounceTimer);
		clearTimeout(this.lookTimer);
	}
}

/** The commands "Notify When It Turns Red" and "Stop Notifying", and a fresh look when the settings change. */
export function registerRedNotifier(
	context: vscode.ExtensionContext,
	notifier: RedNotifier,
	ensureStarted: () => Promise<void>,
): void {
	context.subscriptions.push(
		notifier,
		vscode.commands.registerCommand('kubeStatusLens.notify.pin', async (id?: unknown) => {
			await ensureStarted();
			return notifier.pin(id, true);
		}),
		vscode.commands.registerCommand('kubeStatusLens.notify.unpin', async (id?: unknown) => {
			await ensureStarted();
			return notifier.pin(id, false);
		}),
		vscode.commands.registerCommand('kubeStatusLens.notify.showPins', async () => {
			await ensureStarted();
			const chosen = await notifier.pickPin('Objects pinned to notify when they turn red');
			if (chosen?.node) {
				await vscode.commands.executeCommand('kubeStatusLens.attention.reveal', chosen.node.id);
			}
			return chosen?.key;
		}),
		vscode.workspace.onDidChangeConfiguration((event) => {
			if (event.affectsConfiguration('kubeStatusLens.notifications')) notifier.graphChanged();
		}),
	);
}
