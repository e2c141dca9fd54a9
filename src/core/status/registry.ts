import { readConditionArray, type ConditionList } from '../model/condition.ts';
import { getString, groupOf, isRecord, refOf } from '../model/object.ts';
import { computeHealth } from './argocdHealth.ts';
import { decodeGoConditions } from './goConditions.ts';
import { computeAsoStatus, isAsoGroup } from './aso.ts';
import { computeFleetRollups, computeFleetStatus } from './fleet.ts';
import type { BundleDeploymentView } from './fleetSummary.ts';
import { computeFluxStatus, isFluxGroup } from './flux.ts';
import { computeHarborStatus } from './harbor.ts';
import { computeKstatus } from './kstatus.ts';
import {
	computeKubestellarStatus,
	isKubestellarGroup,
	toneOfKstatus,
	type WorkloadLookup,
} from './kubestellar.ts';
import type { KstatusResult, StatusResult, SystemId, SystemVerdict } from './result.ts';
import { errorText } from '../text/errorText.ts';

/** Inputs the engine cannot read from the object itself. */
export interface StatusOptions {
	/** The caller's clock in ms since epoch (kstatus' 15 s unschedulable Pod grace); absent = long ago. */
	readonly now?: number;
	/** The WDS workload of a WorkStatus, when known. */
	readonly workloadLookup?: WorkloadLookup;
	/** BundleDeployments as the roll-ups of the same set read them (computeStatuses), so they are read once. */
	readonly bundleDeploymentViews?: ReadonlyMap<unknown, BundleDeploymentView>;
}

/** Which system's rules apply to an object, from its API group. */
export function systemOf(object: unknown): SystemId {
	const group = groupOf(getString(object, 'apiVersion') ?? '');
	if (group === 'fleet.cattle.io') return 'fleet';
	if (isKubestellarGroup(group)) return 'kubestellar';
	if (group === 'goharbor.io') return 'harbor';
	if (isFluxGroup(group)) return 'flux';
	if (isAsoGroup(group)) return 'aso';
	return 'kubernetes';
}

function computeKubernetesStatus(
	object: Record<string, unknown>,
	kstatus: KstatusResult,
): SystemVerdict {
	const observed = object.status !== undefined && object.status !== null;
	return {
		system: 'kubernetes',
		state: kstatus.status,
		tone: toneOfKstatus(kstatus.status),
		message: kstatus.message,
		reasons: kstatus.reason ? [`kstatus: ${kstatus.reason}`] : [],
		observed,
	};
}

function invalidObject(message: string): StatusResult {
	return {
		system: 'kubernetes',
		state: 'Unknown',
		tone: 'unknown',
		message,
		reasons: [message],
		observed: false,
		kstatus: { status: 'Unknown', message },
		health: null,
	};
}

// The system rules that read status.conditions get them read once here, in the model's form.
function systemVerdictOf(
	system: SystemId,
	object: Record<string, unknown>,
	kstatus: KstatusResult,
	options: StatusOptions,
	bundleDeploymentView: BundleDeploymentView | undefined,
): SystemVerdict {
	switch (system) {
		case 'fleet':
			return computeFleetStatus(
				object,
				conditionListOf(object),
				bundleDeploymentView ?? options.bundleDeploymentViews?.get(object),
			);
		case 'kubestellar':
			return computeKubestellarStatus(object, options.workloadLookup);
		case 'harbor':
			return computeHarborStatus(object, conditionListOf(object));
		case 'flux':
			return computeFluxStatus(object, conditionListOf(object));
		case 'aso':
			return computeAsoStatus(object, conditionListOf(object));
		case 'kubernetes':
			return computeKubernetesStatus(object, kstatus);
	}
}

function conditionListOf(object: Record<string, unknown>): ConditionList {
	const status = object.status;
	return readConditionArray(isRecord(status) ? status.conditions : undefined);
}

/**
 * The status of one object by its system's rules, with kstatus and Argo CD health beside it. Never throws.
 * `bundleDeploymentView`: the object as readBundleDeployment reads it, when the caller has read it already.
 */
export function computeStatus(
	object: unknown,
	options: StatusOptions = {},
	bundleDeploymentView?: BundleDeploymentView,
): StatusResult {
	if (!isRecord(object)) return invalidObject('Not a Kubernetes object: expected a mapping');
	const apiVersion = object.apiVersion;
	const kind = object.kind;
	if (typeof kind !== 'string' || kind === '') {
		return invalidObject('Not a Kubernetes object: kind is missing');
	}
	if (typeof apiVersion !== 'string' || apiVersion === '') {
		return invalidObject(`${kind} has no apiVersion`);
	}
	try {
		// One decode of status.conditions for kstatus and Argo CD health; each decodes alone only to report an error.
		const conditions = decodeGoConditions(object);
		const kstatus = computeKstatus(
			object,
			options.now === undefined ? {} : { now: options.now },
			conditions,
		);
		const system = systemOf(object);
		const verdict = systemVerdictOf(system, object, kstatus, options, bundleDeploymentView);
		return { ...verdict, kstatus, health: computeHealth(object, undefined, conditions) };
	} catch (error) {
		// The rules are written not to throw; this keeps one unforeseen input from taking down a whole listing.
		const ref = refOf(object);
		return invalidObject(`Could not evaluate ${ref.kind} ${ref.name}: ${errorText(error)}`);
	}
}

/** Statuses for a set of objects read together, so that parents get what their controllers would compute from the rest. */
export function computeStatuses(
	objects: readonly unknown[],
	options: StatusOptions = {},
): StatusResult[] {
	const bundleDeploymentViews = new Map<unknown, BundleDeploymentView>();
	const rollups = computeFleetRollups(objects, bundleDeploymentViews);
	// Built on the first WorkStatus that asks: most sets hold none.
	let workloads: Map<string, unknown> | undefined;
	const workloadsByKey = (): Map<string, unknown> => {
		if (workloads) return workloads;
		workloads = new Map();
		for (const object of objects) {
			if (!isRecord(object) || systemOf(object) === 'kubestellar') continue;
			const ref = refOf(object);
			workloads.set(`${groupOf(ref.apiVersion)}|${ref.kind}|${ref.namespace}|${ref.name}`, object);
		}
		return workloads;
	};
	const workloadLookup: WorkloadLookup =
		options.workloadLookup ??
		((sourceRef) =>
			workloadsByKey().get(
				`${typeof sourceRef.group === 'string' ? sourceRef.group : ''}|${String(sourceRef.kind)}|${typeof sourceRef.namespace === 'string' ? sourceRef.namespace : ''}|${String(sourceRef.name)}`,
			));
	const objectOptions: StatusOptions = { ...options, workloadLookup, bundleDeploymentViews };
	return objects.map((object) => {
		const result = computeStatus(object, objectOptions);
		const computed = rollups.get(object);
		return computed === undefined ? result : { ...result, computed };
	});
}
