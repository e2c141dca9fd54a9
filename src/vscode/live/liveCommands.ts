import * as vscode from 'vscode';
import { stringify } from 'yaml';
import { comparableObject } from '../../core/manifest/comparable.ts';
import { parseManifests } from '../../core/manifest/parse.ts';
import { objectKeyOf, type ResourceGraph, type TreeNode } from '../../core/tree/model.ts';
import type * as actionsModule from '../../k8s/index.ts';
import type { MergedKubeconfig } from '../../k8s/kubeconfig.ts';
import type { Log } from '../log.ts';
import { liveContextOf, type LiveClusters } from './liveClusters.ts';

/** The URI scheme of read-only live objects and their events. */
export const liveScheme = 'kube-status-lens-live';

/**
 * What a mutation command returns to a caller (tests, other commands): done, cancelled (no message), or failed with
 * the words the user was shown.
 */
type Outcome = { readonly ok: true } | { readonly ok: false; readonly message?: string };
const succeeded: Outcome = { ok: true };
const cancelled: Outcome = { ok: false };

/** A mutation asked for programmatically (tests, other commands) can say it is already confirmed. */
interface Confirmation {
	readonly confirmed?: boolean;
}

interface LiveTarget {
	readonly node: TreeNode;
	readonly context: string;
	readonly ref: { apiVersion: string; kind: string; name: string; namespace?: string };
	readonly kubeconfig: MergedKubeconfig;
}

type Actions = typeof actionsModule;

/** Registers the live-object commands: open as YAML, diff with the manifest, events, Flux and Fleet actions. */
export function registerLiveCommands(
	context: vscode.ExtensionContext,
	deps: { readonly graph: ResourceGraph; readonly live: LiveClusters; readonly log: Log },
): void {
	const { graph, live, log } = deps;
	const documents = new Map<string, string>();
	const emitter = new vscode.EventEmitter<vscode.Uri>();
	const provider: vscode.TextDocumentContentProvider = {
		onDidChange: emitter.event,
		provideTextDocumentContent: (uri) => documents.get(uri.toString()) ?? '# Not loaded.\n',
	};
	let actions: Promise<Actions> | undefined;
	const loadActions = (): Promise<Actions> => (actions ??= import('../../k8s/index.ts'));

	const targetOf = (id: unknown): LiveTarget | undefined => {
		const node = typeof id === 'string' ? graph.node(id) : undefined;
		const kubeconfig = live.kubeconfig;
		if (!node?.ref || !node.rootId.startsWith('live:') || !kubeconfig) {
			void vscode.window.showInformationMessage(
				'Choose a live object in the Kube Status Lens tree.',
			);
			return undefined;
		}
		const { apiVersion, kind, name, namespace } = node.ref;
		return {
			node,
			context: liveContextOf(node) ?? '',
			ref: { apiVersion, kind, name, ...(namespace ? { namespace } : {}) },
			kubeconfig,
		};
	};
	const describe = (target: LiveTarget): string =>
		`${target.ref.kind} ${target.ref.namespace ? `${target.ref.namespace}/` : ''}${target.ref.name} in ${target.context}`;
	/** Shows a failure in plain words and returns what was shown (commands return it, for tests and callers). */
	const failed = (what: string, result: { kind: string; message: string }): string => {
		const shown = `${what} failed: ${result.message}`;
		log.warn(`${what}: ${result.message}`);
		void vscode.window.showErrorMessage(shown);
		return shown;
	};
	/** The live object as the cluster has it now, or undefined once a failure was shown. */
	const readLive = async (target: LiveTarget): Promise<unknown> => {
		const result = await (
			await loadActions()
		).getObject(target.kubeconfig, target.context, target.ref);
		if (result.ok) return result.object;
		failed(`Reading ${describe(target)}`, result);
		return undefined;
	};
	const readOnlyUri = (name: string, text: string): vscode.Uri => {
		const uri = vscode.Uri.from({
			scheme: liveScheme,
			path: `/${name.replace(/[^A-Za-z0-9._ ()-]+/g, '-')}`,
		});
		documents.set(uri.toString(), text);
		emitter.fire(uri);
		return uri;
	};
	const openReadOnly = async (
		name: string,
		text: string,
		language: string,
	): Promise<vscode.Uri> => {
		const uri = readOnlyUri(name, text);
		const document = await vscode.workspace.openTextDocument(uri);
		await vscode.languages.setTextDocumentLanguage(document, language);
		await vscode.window.showTextDocument(document, { preview: true });
		return uri;
	};
	const confirm = async (
		target: LiveTarget,
		change: string,
		confirmation?: Confirmation,
	): Promise<boolean> => {
		if (confirmation?.confirmed) return true;
		const { managedFromGit } = await loadActions();
		const object = graph.objectOf(target.node.rootId, target.node.objectKey ?? '');
		const git = managedFromGit(object);
		const warning = git.managed ? ` ${git.message}` : '';
		const answer = await vscode.window.showWarningMessage(
			`${change} on ${describe(target)}?${warning}`,
			{ modal: true },
			'Yes',
		);
		return answer === 'Yes';
	};

	const mutation = (
		command: string,
		change: (target: LiveTarget) => string,
		run: (
			actions: Actions,
			target: LiveTarget,
		) => Promise<{ ok: true } | { ok: false; kind: string; message: string }>,
		done: (target: LiveTarget) => string,
	): vscode.Disposable =>
		vscode.commands.registerCommand(command, async (id?: string, confirmation?: Confirmation) => {
			const target = targetOf(id);
			if (!target || !(await confirm(target, change(target), confirmation))) return cancelled;
			const result = await run(await loadActions(), target);
			if (!result.ok) return { ok: false, message: failed(change(target), result) };
			void vscode.window.setStatusBarMessage(done(target), 5000);
			return succeeded;
		});

	context.subscriptions.push(
		emitter,
		vscode.workspace.registerTextDocumentContentProvider(liveScheme, provider),
		vscode.commands.registerCommand('kubeStatusLens.live.openYaml', async (id?: string) => {
			const target = targetOf(id);
			if (!target) return undefined;
			const object = await readLive(target);
			if (object === undefined) return undefined;
			return (
				await openReadOnly(
					`${target.context} ${target.ref.kind} ${target.ref.name}.yaml`,
					stringify(object),
					'yaml',
				)
			).toString();
		}),
		vscode.commands.registerCommand(
			'kubeStatusLens.live.diffWithManifest',
			async (id?: string, at?: { readonly uri: string; readonly line: number }) => {
				const target = targetOf(id);
				if (!target) return undefined;
				// From a CodeLens: the object at that place of that file; from the tree: the first file declaring it.
				const declaredAt =
					at ??
					graph
						.findNodesForObject('workspace', target.node.objectKey ?? '')
						.map((nodeId) => graph.node(nodeId)?.sources?.[0])
						.map((entry) =>
							entry?.line !== undefined ? { uri: entry.sourceId, line: entry.line } : undefined,
						)
						.find((entry) => entry !== undefined);
				const document = declaredAt
					? await vscode.workspace.openTextDocument(vscode.Uri.parse(declaredAt.uri))
					: undefined;
				const declared = document
					? objectAtLine(
							document.getText(),
							document.uri.path,
							declaredAt?.line ?? 0,
							target.node.objectKey ?? '',
						)
					: undefined;
				if (!document || !declared) {
					void vscode.window.showInformationMessage(
						`No workspace file declares ${describe(target)}.`,
					);
					return undefined;
				}
				const object = await readLive(target);
				if (object === undefined) return undefined;
				// Both sides are the one object, without what the server and controllers write, printed the same
				// way: the diff shows drift, not formatting, comments, the file's other documents or status.
				const file = vscode.workspace.asRelativePath(document.uri);
				const name = `${target.context} ${target.ref.kind} ${target.ref.name}`;
				const live = readOnlyUri(`${name} (live).yaml`, stringify(comparableObject(object)));
				const manifest = readOnlyUri(
					`${name} (${file.replace(/.*\//, '')}).yaml`,
					stringify(comparableObject(declared)),
				);
				await vscode.commands.executeCommand(
					'vscode.diff',
					live,
					manifest,
					`${target.ref.name}: live ↔ ${file}:${(declaredAt?.line ?? 0) + 1}`,
				);
				return live.toString();
			},
		),
		vscode.commands.registerCommand('kubeStatusLens.live.showEvents', async (id?: string) => {
			const target = targetOf(id);
			if (!target) return undefined;
			const result = await (
				await loadActions()
			).listEvents(target.kubeconfig, target.context, target.ref);
			if (!result.ok) {
				failed(`Listing the events of ${describe(target)}`, result);
				return undefined;
			}
			const field = (value: unknown): string => (typeof value === 'string' ? value : '');
			const lines = result.events.map((event) => {
				const time =
					field(event.lastTimestamp) || field(event.eventTime) || field(event.firstTimestamp);
				return `${time}  ${field(event.type)}  ${field(event.reason)}: ${field(event.message).replace(/\s+/g, ' ')}`;
			});
			const text = [
				`Events of ${describe(target)}`,
				'',
				...(lines.length ? lines : ['(no events)']),
			].join('\n');
			return (
				await openReadOnly(
					`${target.context} ${target.ref.kind} ${target.ref.name} events.log`,
					text,
					'log',
				)
			).toString();
		}),
		vscode.commands.registerCommand(
			'kubeStatusLens.flux.reconcile',
			async (id?: string, confirmation?: Confirmation) => {
				const target = targetOf(id);
				if (
					!target ||
					!(await confirm(
						target,
						'Request a reconcile (annotate reconcile.fluxcd.io/requestedAt)',
						confirmation,
					))
				) {
					return cancelled;
				}
				const api = await loadActions();
				const result = await api.requestFluxReconcile(
					target.kubeconfig,
					target.context,
					target.ref,
					new Date(),
				);
				if (!result.ok) {
					return { ok: false, message: failed(`Reconciling ${describe(target)}`, result) };
				}
				return vscode.window.withProgress(
					{
						location: vscode.ProgressLocation.Notification,
						title: `Reconciling ${describe(target)}`,
						cancellable: true,
					},
					async (_progress, token) => {
						const until = Date.now() + 60_000;
						while (!token.isCancellationRequested && Date.now() < until) {
							const object = graph.objectOf(target.node.rootId, target.node.objectKey ?? '');
							if (api.fluxReconcileHandled(object, result.requestedAt)) {
								void vscode.window.setStatusBarMessage(`Reconciled ${describe(target)}`, 5000);
								return succeeded;
							}
							await new Promise((resolve) => setTimeout(resolve, 500));
						}
						if (token.isCancellationRequested) return cancelled;
						const message = `${describe(target)}: the controller has not handled the reconcile request within 60 s. Is Flux running?`;
						void vscode.window.showWarningMessage(message);
						return { ok: false, message };
					},
				);
			},
		),
		mutation(
			'kubeStatusLens.flux.suspend',
			() => 'Suspend reconciliation (spec.suspend: true)',
			(api, t) => api.setFluxSuspended(t.kubeconfig, t.context, t.ref, true),
			(t) => `Suspended ${describe(t)}`,
		),
		mutation(
			'kubeStatusLens.flux.resume',
			() => 'Resume reconciliation (spec.suspend: false)',
			(api, t) => api.setFluxSuspended(t.kubeconfig, t.context, t.ref, false),
			(t) => `Resumed ${describe(t)}`,
		),
		mutation(
			'kubeStatusLens.fleet.forceUpdate',
			() => 'Force an update (increment spec.forceSyncGeneration)',
			(api, t) => api.fleetForceUpdate(t.kubeconfig, t.context, t.ref),
			(t) => `Forced an update of ${describe(t)}`,
		),
		mutation(
			'kubeStatusLens.fleet.pause',
			() => 'Pause the rollout (spec.paused: true)',
			(api, t) => api.setFleetPaused(t.kubeconfig, t.context, t.ref, true),
			(t) => `Paused ${describe(t)}`,
		),
		mutation(
			'kubeStatusLens.fleet.unpause',
			() => 'Unpause the rollout (spec.paused: false)',
			(api, t) => api.setFleetPaused(t.kubeconfig, t.context, t.ref, false),
			(t) => `Unpaused ${describe(t)}`,
		),
	);
}

/**
 * The object with this key in a document, the one nearest the line a CodeLens or tree source points at (the
 * document may have changed since: never another object that happens to sit there now).
 */
function objectAtLine(text: string, fileName: string, line: number, key: string): unknown {
	let found: { object: unknown; distance: number } | undefined;
	for (const entry of parseManifests(text, { fileName }).objects) {
		if (objectKeyOf(entry.object) !== key) continue;
		const distance = Math.abs(entry.range.start.line - line);
		if (!found || distance < found.distance) found = { object: entry.object, distance };
	}
	return found?.object;
}
