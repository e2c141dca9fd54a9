import * as vscode from 'vscode';
import {
	cancelled,
	confirmChange,
	describeTarget,
	liveTargetOf,
	loadK8sActions,
	showFailure,
	succeeded,
	type Confirmation,
	type K8sActions,
	type LiveCommandDeps,
	type LiveTarget,
	type Outcome,
} from './liveTarget.ts';

/** A change a command makes to a live object after the user confirmed it. */
interface Change {
	/** What the user is asked to confirm; a failure is named by it too. */
	readonly asked: string;
	readonly run: (
		actions: K8sActions,
		target: LiveTarget,
	) => Promise<{ ok: true } | { ok: false; kind: string; message: string }>;
	/** What the status bar says once it is done. */
	readonly done: (target: LiveTarget) => string;
}

/** Registers the commands that change live objects: Flux reconcile, suspend, resume; Fleet force update, pause, unpause. */
export function registerLiveActionCommands(
	context: vscode.ExtensionContext,
	deps: LiveCommandDeps,
): void {
	context.subscriptions.push(
		vscode.commands.registerCommand(
			'kubeStatusLens.flux.reconcile',
			(id?: string, confirmation?: Confirmation) => fluxReconcileCommand(deps, id, confirmation),
		),
		mutation('kubeStatusLens.flux.suspend', deps, {
			asked: 'Suspend reconciliation (spec.suspend: true)',
			run: (api, t) => api.setFluxSuspended(t.kubeconfig, t.context, t.ref, true),
			done: (t) => `Suspended ${describeTarget(t)}`,
		}),
		mutation('kubeStatusLens.flux.resume', deps, {
			asked: 'Resume reconciliation (spec.suspend: false)',
			run: (api, t) => api.setFluxSuspended(t.kubeconfig, t.context, t.ref, false),
			done: (t) => `Resumed ${describeTarget(t)}`,
		}),
		mutation('kubeStatusLens.fleet.forceUpdate', deps, {
			asked: 'Force an update (increment spec.forceSyncGeneration)',
			run: (api, t) => api.fleetForceUpdate(t.kubeconfig, t.context, t.ref),
			done: (t) => `Forced an update of ${describeTarget(t)}`,
		}),
		mutation('kubeStatusLens.fleet.pause', deps, {
			asked: 'Pause the rollout (spec.paused: true)',
			run: (api, t) => api.setFleetPaused(t.kubeconfig, t.context, t.ref, true),
			done: (t) => `Paused ${describeTarget(t)}`,
		}),
		mutation('kubeStatusLens.fleet.unpause', deps, {
			asked: 'Unpause the rollout (spec.paused: false)',
			run: (api, t) => api.setFleetPaused(t.kubeconfig, t.context, t.ref, false),
			done: (t) => `Unpaused ${describeTarget(t)}`,
		}),
	);
}

/** Registers a command that confirms, makes the change and says in the status bar that it is done. */
function mutation(command: string, deps: LiveCommandDeps, change: Change): vscode.Disposable {
	return vscode.commands.registerCommand(
		command,
		async (id?: string, confirmation?: Confirmation): Promise<Outcome> => {
			const target = liveTargetOf(deps, id);
			if (!target || !(await confirmChange(deps.graph, target, change.asked, confirmation))) {
				return cancelled;
			}
			const result = await change.run(await loadK8sActions(), target);
			if (!result.ok) return { ok: false, message: showFailure(deps.log, change.asked, result) };
			void vscode.window.setStatusBarMessage(change.done(target), 5000);
			return succeeded;
		},
	);
}

/** Annotates a Flux object for a reconcile, then waits (with a cancellable notification) until Flux handles it. */
async function fluxReconcileCommand(
	deps: LiveCommandDeps,
	id?: string,
	confirmation?: Confirmation,
): Promise<Outcome> {
	const target = liveTargetOf(deps, id);
	if (
		!target ||
		!(await confirmChange(
			deps.graph,
			target,
			'Request a reconcile (annotate reconcile.fluxcd.io/requestedAt)',
			confirmation,
		))
	) {
		return cancelled;
	}
	const api = await loadK8sActions();
	const result = await api.requestFluxReconcile(
		target.kubeconfig,
		target.context,
		target.ref,
		new Date(),
	);
	if (!result.ok) {
		return {
			ok: false,
			message: showFailure(deps.log, `Reconciling ${describeTarget(target)}`, result),
		};
	}
	return vscode.window.withProgress(
		{
			location: vscode.ProgressLocation.Notification,
			title: `Reconciling ${describeTarget(target)}`,
			cancellable: true,
		},
		(_progress, token) => reconcileHandled(deps, api, target, result.requestedAt, token),
	);
}

/** Watches the graph's copy of the object until Flux reports the request handled, the user cancels or time is up. */
async function reconcileHandled(
	deps: LiveCommandDeps,
	api: K8sActions,
	target: LiveTarget,
	requestedAt: string,
	token: vscode.CancellationToken,
): Promise<Outcome> {
	const until = Date.now() + 60_000;
	while (!token.isCancellationRequested && Date.now() < until) {
		const object = deps.graph.objectOf(target.node.rootId, target.node.objectKey ?? '');
		if (api.fluxReconcileHandled(object, requestedAt)) {
			void vscode.window.setStatusBarMessage(`Reconciled ${describeTarget(target)}`, 5000);
			return succeeded;
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	if (token.isCancellationRequested) return cancelled;
	const message = `${describeTarget(target)}: the controller has not handled the reconcile request within 60 s. Is Flux running?`;
	void vscode.window.showWarningMessage(message);
	return { ok: false, message };
}
