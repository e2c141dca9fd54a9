import * as vscode from 'vscode';
import {
	actionLogLine,
	confirmationOf,
	finishedText,
	forceUpdateProgress,
	liveActions,
	reconcileProgress,
	stillWaitingText,
	subjectText,
	type ActionProgress,
	type ActionSubject,
	type LiveAction,
	type LiveActionId,
} from '../../core/actions/liveActions.ts';
import { getInt } from '../../core/model/object.ts';
import { objectKeyOf } from '../../core/tree/linking.ts';
import { contextOfLiveRoot } from '../../live/liveRoots.ts';
import { waitFor } from '../../live/waitFor.ts';
import {
	cancelled,
	liveTargetOf,
	succeeded,
	type LiveCommandDeps,
	type LiveTarget,
	type Outcome,
} from './liveTarget.ts';
import { loadK8sActions, type K8sActions } from './k8sActions.ts';

/** How long a reconcile or a force update is waited for before the user is told how to follow it. */
const waitLimitMs = 120_000;

/**
 * How a caller other than the menus (tests, other commands) runs an action: already confirmed, and with the words
 * the user was shown and the lines logged in the answer.
 */
interface Invocation {
	readonly confirmed?: boolean;
	readonly details?: boolean;
}

/** What a command answers; with `details`, also the words the user was shown and the lines logged. */
type Answer =
	Outcome | { readonly ok: boolean; readonly message: string; readonly log: readonly string[] };

/** What a change answers: done (with what the controller must still do), or failed with the cluster's words. */
type ChangeResult =
	| { readonly ok: true; readonly progress?: (object: unknown) => ActionProgress }
	| { readonly ok: false; readonly message: string };

/** The request of each action, and how a failure is named. */
interface Change {
	/** Names a failure: "Pause the rollout (spec.paused: true) failed: ...". */
	readonly asked: string;
	readonly run: (api: K8sActions, target: LiveTarget) => Promise<ChangeResult>;
	/** What the status bar says once a change that needs no waiting is made ("Suspended ..."). */
	readonly done?: string;
}

const changes: Readonly<Record<LiveActionId, Change>> = {
	'flux.reconcile': {
		asked: 'Request a reconcile (annotate reconcile.fluxcd.io/requestedAt)',
		run: async (api, t) => {
			const result = await api.requestFluxReconcile(t.kubeconfig, t.context, t.ref, new Date());
			if (!result.ok) return result;
			return { ok: true, progress: (object) => reconcileProgress(object, result.requestedAt) };
		},
	},
	'flux.suspend': {
		asked: 'Suspend reconciliation (spec.suspend: true)',
		run: (api, t) => api.setFluxSuspended(t.kubeconfig, t.context, t.ref, true),
		done: 'Suspended',
	},
	'flux.resume': {
		asked: 'Resume reconciliation (spec.suspend: false)',
		run: (api, t) => api.setFluxSuspended(t.kubeconfig, t.context, t.ref, false),
		done: 'Resumed',
	},
	'fleet.forceUpdate': {
		asked: 'Force an update (increment spec.forceSyncGeneration)',
		run: async (api, t) => {
			const result = await api.fleetForceUpdate(t.kubeconfig, t.context, t.ref);
			if (!result.ok) return result;
			const request = {
				forceSyncGeneration: result.forceSyncGeneration,
				generation: getInt(result.object, 'metadata', 'generation'),
			};
			return { ok: true, progress: (object) => forceUpdateProgress(object, request) };
		},
	},
	'fleet.pause': {
		asked: 'Pause the rollout (spec.paused: true)',
		run: (api, t) => api.setFleetPaused(t.kubeconfig, t.context, t.ref, true),
		done: 'Paused',
	},
	'fleet.unpause': {
		asked: 'Unpause the rollout (spec.paused: false)',
		run: (api, t) => api.setFleetPaused(t.kubeconfig, t.context, t.ref, false),
		done: 'Unpaused',
	},
};

/** Registers the commands that change live objects: Flux reconcile, suspend, resume; Fleet force update, pause, unpause. */
export function registerLiveActionCommands(
	context: vscode.ExtensionContext,
	deps: LiveCommandDeps,
): void {
	const run =
		(action: LiveActionId) =>
		(id?: unknown, invocation?: Invocation): Promise<Answer> =>
			runAction(deps, liveActions[action], id, invocation);
	context.subscriptions.push(
		vscode.commands.registerCommand('kubeStatusLens.flux.reconcile', run('flux.reconcile')),
		vscode.commands.registerCommand('kubeStatusLens.flux.suspend', run('flux.suspend')),
		vscode.commands.registerCommand('kubeStatusLens.flux.resume', run('flux.resume')),
		vscode.commands.registerCommand('kubeStatusLens.fleet.forceUpdate', run('fleet.forceUpdate')),
		vscode.commands.registerCommand('kubeStatusLens.fleet.pause', run('fleet.pause')),
		vscode.commands.registerCommand('kubeStatusLens.fleet.unpause', run('fleet.unpause')),
	);
}

function subjectOf(target: LiveTarget): ActionSubject {
	return {
		kind: target.ref.kind,
		...(target.ref.namespace ? { namespace: target.ref.namespace } : {}),
		name: target.ref.name,
		context: target.context,
	};
}

/**
 * Confirms, makes the change, and for a reconcile or a force update waits (with a cancellable notification) until
 * the controller has handled it. Every step goes to the output channel with the time it took.
 */
async function runAction(
	deps: LiveCommandDeps,
	action: LiveAction,
	id: unknown,
	invocation: Invocation = {},
): Promise<Answer> {
	const chosen = typeof id === 'string' ? id : await pickTarget(deps, action);
	if (chosen === undefined) return cancelled;
	const target = liveTargetOf(deps, chosen);
	if (!target) return cancelled;
	const subject = subjectOf(target);
	if (!invocation.confirmed && !(await confirm(deps, action, target, subject))) return cancelled;
	const logged: string[] = [];
	const startedAt = Date.now();
	const log = (result: string, warn = false): void => {
		const line = actionLogLine(action, subject, result, Date.now() - startedAt);
		logged.push(line);
		if (warn) deps.log.warn(line);
		else deps.log.info(line);
	};
	const answer = (ok: boolean, message: string): Answer =>
		invocation.details ? { ok, message, log: logged } : ok ? succeeded : { ok, message };
	const change = changes[action.id];
	const result = await change.run(await loadK8sActions(), target);
	if (!result.ok) {
		const shown = `${change.asked} failed: ${result.message}`;
		log(`failed: ${result.message}`, true);
		void vscode.window.showErrorMessage(shown);
		return answer(false, shown);
	}
	const progress = result.progress;
	if (!progress) {
		const shown = `${change.done ?? action.verb} ${subjectText(subject)}`;
		log('done');
		void vscode.window.setStatusBarMessage(shown, 5000);
		return answer(true, shown);
	}
	log('requested; waiting for the controller');
	const waited = await vscode.window.withProgress(
		{
			location: vscode.ProgressLocation.Notification,
			title: `${action.verb} ${subjectText(subject)}`,
			cancellable: true,
		},
		(report, token) => {
			report.report({ message: 'waiting for the controller…' });
			return waitForController(deps, target, progress, token);
		},
	);
	if (waited.kind === 'cancelled') {
		log('no longer waited for (the request stays on the object)');
		return cancelled;
	}
	if (waited.kind === 'timeout') {
		const shown = stillWaitingText(action, subject, waitLimitMs, waited.waitingFor);
		log(`still not handled: ${waited.waitingFor}`, true);
		void vscode.window.showWarningMessage(shown);
		return answer(false, shown);
	}
	const shown = finishedText(action, subject, waited.progress, new Date().toLocaleTimeString());
	log(`handled: ${shown}`, !waited.progress.ok);
	if (waited.progress.ok) void vscode.window.showInformationMessage(shown);
	else void vscode.window.showWarningMessage(shown);
	return answer(true, shown);
}

type Waited =
	| { readonly kind: 'done'; readonly progress: Extract<ActionProgress, { done: true }> }
	| { readonly kind: 'timeout'; readonly waitingFor: string }
	| { readonly kind: 'cancelled' };

/** Reads the object as the context's watch brings it into the graph until the controller has handled the request. */
async function waitForController(
	deps: LiveCommandDeps,
	target: LiveTarget,
	progressOf: (object: unknown) => ActionProgress,
	token: vscode.CancellationToken,
): Promise<Waited> {
	let waitingFor = 'the object is no longer in the tree';
	const progress = await waitFor(
		() => {
			const object = deps.graph.objectOf(target.node.rootId, target.node.objectKey ?? '');
			if (object === undefined) return undefined;
			const now = progressOf(object);
			if (now.done) return now;
			waitingFor = now.waitingFor;
			return undefined;
		},
		[deps.onGraphChanged],
		{ timeoutMs: waitLimitMs, cancelled: (listener) => token.onCancellationRequested(listener) },
	);
	if (progress) return { kind: 'done', progress };
	return token.isCancellationRequested ? { kind: 'cancelled' } : { kind: 'timeout', waitingFor };
}

/** Asks before a change, naming it and the object, and says so when the object is managed from Git. */
async function confirm(
	deps: LiveCommandDeps,
	action: LiveAction,
	target: LiveTarget,
	subject: ActionSubject,
): Promise<boolean> {
	const { managedFromGit } = await loadK8sActions();
	const git = managedFromGit(deps.graph.objectOf(target.node.rootId, target.node.objectKey ?? ''));
	const asked = confirmationOf(action, subject, git.managed ? git.message : undefined);
	const answer = await vscode.window.showWarningMessage(
		asked.message,
		{ modal: true, detail: asked.detail },
		asked.button,
	);
	return answer === asked.button;
}

interface TargetItem extends vscode.QuickPickItem {
	readonly id: string;
	readonly context: string;
}

/** From the command palette: the live objects the action applies to, to choose from. */
async function pickTarget(deps: LiveCommandDeps, action: LiveAction): Promise<string | undefined> {
	const items: TargetItem[] = [];
	const system = action.id.startsWith('flux.') ? 'Flux' : 'Fleet';
	const group = system === 'Flux' ? /\.toolkit\.fluxcd\.io\// : /^fleet\.cattle\.io\//;
	for (const root of deps.graph.roots()) {
		const context = contextOfLiveRoot(root.id);
		if (context === undefined) continue;
		for (const object of deps.graph.objectsOf(root.id)) {
			if (typeof object.apiVersion !== 'string' || !group.test(object.apiVersion)) continue;
			const id = deps.graph.findNodesForObject(root.id, objectKeyOf(object))[0];
			const node = id === undefined ? undefined : deps.graph.node(id);
			if (!node?.ref || !action.appliesTo(node.contextFlags)) continue;
			const namespace = node.ref.namespace ? `${node.ref.namespace}/` : '';
			items.push({
				id: node.id,
				context,
				label: `${node.ref.kind} ${namespace}${node.ref.name}`,
				description: `context ${context} · ${node.description}`,
			});
		}
	}
	if (items.length === 0) {
		void vscode.window.showInformationMessage(
			`No live ${system} object to ${action.verb.toLowerCase()} in the open contexts (Kube Status Lens: Choose Contexts… opens others).`,
		);
		return undefined;
	}
	items.sort((a, b) => a.context.localeCompare(b.context) || a.label.localeCompare(b.label));
	const picked = await vscode.window.showQuickPick(items, {
		title: `${system}: ${action.verb}`,
		placeHolder: `The live ${system} object to ${action.verb.toLowerCase()}`,
		matchOnDescription: true,
	});
	return picked?.id;
}
