// The part of Fleet's agent the demo plays: holding a BundleDeployment back while a bundle in its dependsOn is not in
// an accepted state on the same cluster. Written from rancher/fleet's agent code, not from this project's engine:
// internal/cmd/agent/deployer/deployer.go checkDependency and NotReadyDependenciesError (Fleet 0.16, rancher/fleet
// #5549), internal/cmd/agent/controller/bundledeployment_controller.go deployedConditionReason.
import { deploymentState } from './fleetStatus.ts';
import { field, list, str } from './jsonFields.ts';
import { cloneJson, isJsonObject, type JsonObject } from './patch.ts';
import type { KubeObject, ObjectStore } from './store.ts';

const fleetApiVersion = 'fleet.cattle.io/v1alpha1';
const bundleLabel = 'fleet.cattle.io/bundle-name';
const bundleNamespaceLabel = 'fleet.cattle.io/bundle-namespace';

function label(object: unknown, key: string): string {
	return str(object, 'metadata', 'labels', key);
}

/** effectiveAcceptedStates: an empty list accepts Ready only. */
function acceptedStatesOf(entry: unknown): string[] {
	const states = list(entry, 'acceptedStates').filter(
		(state): state is string => typeof state === 'string',
	);
	return states.length > 0 ? states : ['Ready'];
}

/**
 * checkDependency for entries that name a bundle (the demo has no selectors): the pending dependencies as
 * PendingDependency.String writes them, or the error for a name no BundleDeployment of the cluster carries.
 */
function dependencyCheck(
	bd: KubeObject,
	clusterBds: readonly KubeObject[],
): { waiting: string[] } | { error: string } {
	const waiting: string[] = [];
	for (const entry of list(bd, 'spec', 'dependsOn')) {
		const name = str(entry, 'name');
		if (name === '') continue;
		const bundleNamespace = label(bd, bundleNamespaceLabel);
		const matches = clusterBds.filter(
			(other) =>
				label(other, bundleLabel) === name &&
				label(other, bundleNamespaceLabel) === bundleNamespace,
		);
		if (matches.length === 0) {
			return {
				error: `list bundledeployments: no bundles matching labels ${bundleLabel}=${name},${bundleNamespaceLabel}=${bundleNamespace} in namespace ${str(bd, 'metadata', 'namespace')}`,
			};
		}
		const accepted = acceptedStatesOf(entry);
		for (const dependency of matches) {
			const state = deploymentState(dependency);
			if (!accepted.includes(state)) {
				waiting.push(
					`${str(dependency, 'metadata', 'name')} (state: ${state}, accepted: ${accepted.join(', ')})`,
				);
			}
		}
	}
	return { waiting };
}

function setCondition(
	status: JsonObject,
	type: string,
	state: string,
	reason: string,
	message: string,
	stamp: string,
): void {
	const conditions = list(status, 'conditions').filter(
		(condition) => !(isJsonObject(condition) && condition.type === type),
	);
	conditions.push({
		type,
		status: state,
		...(reason === '' ? {} : { reason }),
		...(message === '' ? {} : { message }),
		lastUpdateTime: stamp,
	});
	status.conditions = conditions;
}

/** What the controller's BundleDeployment reconciler writes into status.display (conditionToMessage). */
function displayOf(status: JsonObject, state: string): JsonObject {
	const display: JsonObject = {};
	for (const condition of list(status, 'conditions')) {
		const type = str(condition, 'type');
		if (type !== 'Deployed' && type !== 'Monitored') continue;
		display[type === 'Deployed' ? 'deployed' : 'monitored'] =
			str(condition, 'reason') === 'Error'
				? `Error: ${str(condition, 'message')}`
				: str(condition, 'status');
	}
	return { ...display, state };
}

/**
 * Runs the agent's dependency check on every BundleDeployment with a dependsOn whose deployment is not applied: one
 * still held gets Deployed False with reason WaitingForDependency and the pending list; one whose dependencies are all
 * accepted is applied (its resources ready, as the demo's charts are). Returns how many it changed.
 */
export function checkFleetDependencies(store: ObjectStore, now: Date = new Date()): number {
	const bdType = store.typeOf(fleetApiVersion, 'BundleDeployment');
	if (!bdType) return 0;
	const stamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
	const bds = store.all(bdType);
	let changed = 0;
	for (const bd of bds) {
		if (list(bd, 'spec', 'dependsOn').length === 0) continue;
		const deploymentID = str(bd, 'spec', 'deploymentID');
		if (str(bd, 'status', 'appliedDeploymentID') === deploymentID) continue;
		const namespace = str(bd, 'metadata', 'namespace');
		const check = dependencyCheck(
			bd,
			bds.filter((other) => str(other, 'metadata', 'namespace') === namespace),
		);
		const next = cloneJson(bd);
		const status: JsonObject = isJsonObject(next.status) ? next.status : {};
		if ('error' in check) {
			setCondition(status, 'Deployed', 'False', 'Error', check.error, stamp);
		} else if (check.waiting.length > 0) {
			setCondition(
				status,
				'Deployed',
				'False',
				'WaitingForDependency',
				`waiting for dependent bundle(s) to reach an accepted state: ${check.waiting.join('; ')}`,
				stamp,
			);
		} else {
			status.appliedDeploymentID = deploymentID;
			status.ready = true;
			status.nonModified = true;
			for (const type of ['Installed', 'Deployed', 'Monitored', 'Ready']) {
				setCondition(status, type, 'True', '', '', stamp);
			}
		}
		status.display = displayOf(status, deploymentState({ ...next, status }));
		next.status = status;
		if (JSON.stringify(field(next, 'status')) !== JSON.stringify(field(bd, 'status'))) {
			store.put(next);
			changed++;
		}
	}
	return changed;
}
