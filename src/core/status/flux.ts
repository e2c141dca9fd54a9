import {
	findCondition,
	readConditions,
	type Condition,
	type ConditionList,
} from '../model/condition.ts';
import { getInt64 } from '../model/int64.ts';
import { getBool, getPath, getString, groupOf, isRecord } from '../model/object.ts';
import { fluxReportSummaryOf } from './fluxReport.ts';
import type { SystemVerdict, Tone } from './result.ts';

/** Flux's states as the badge names them. */
export type FluxState = 'Ready' | 'Reconciling' | 'Stalled' | 'Failed' | 'Suspended' | 'Unknown';

const fluxTones: Readonly<Record<FluxState, Tone>> = {
	Ready: 'ok',
	Reconciling: 'progressing',
	Stalled: 'error',
	Failed: 'error',
	Suspended: 'suspended',
	Unknown: 'unknown',
};

/** The Flux Operator's API group (controlplaneio-fluxcd/flux-operator: FluxInstance, FluxReport, ResourceSet, ...). */
const fluxOperatorGroup = 'fluxcd.controlplane.io';

/** True for the Flux toolkit API groups (source, kustomize, helm, notification, image) and the Flux Operator's. */
export function isFluxGroup(group: string): boolean {
	return group.endsWith('.toolkit.fluxcd.io') || group === fluxOperatorGroup;
}

/**
 * The Flux Operator stops reconciling an object with this annotation set to "disabled" (it has no spec.suspend); its
 * Ready then reads True with reason ReconciliationDisabled ("Initialized with reconciliation suspended").
 */
const operatorReconcileAnnotation = 'fluxcd.controlplane.io/reconcile';

function isOperatorDisabled(object: unknown): boolean {
	return (
		groupOf(getString(object, 'apiVersion') ?? '') === fluxOperatorGroup &&
		getString(object, 'metadata', 'annotations', operatorReconcileAnnotation) === 'disabled'
	);
}

/**
 * True for a HelmRepository of type oci: a data container with no status (Flux HelmRepository spec, "Helm OCI
 * repository").
 */
export function isOciHelmRepository(object: unknown): boolean {
	return (
		getString(object, 'kind') === 'HelmRepository' &&
		groupOf(getString(object, 'apiVersion') ?? '') === 'source.toolkit.fluxcd.io' &&
		getString(object, 'spec', 'type') === 'oci'
	);
}

/** Alert or Provider of notification.toolkit.fluxcd.io/v1beta3: configuration the controller writes no status for. */
function staticNotificationKindOf(object: unknown): 'Alert' | 'Provider' | undefined {
	const kind = getString(object, 'kind');
	if (kind !== 'Alert' && kind !== 'Provider') return undefined;
	return getString(object, 'apiVersion') === 'notification.toolkit.fluxcd.io/v1beta3'
		? kind
		: undefined;
}

function isFluxReport(object: unknown): boolean {
	return (
		getString(object, 'kind') === 'FluxReport' &&
		groupOf(getString(object, 'apiVersion') ?? '') === fluxOperatorGroup
	);
}

/**
 * A FluxReport's Ready only says the operator's report ran; the installation it describes is in its spec. The state
 * stays the operator's word, and the tone and message say what the report found wrong.
 */
function fluxReportVerdict(
	object: unknown,
	ready: Condition,
	typeProblems: readonly string[],
): SystemVerdict {
	const report = fluxReportSummaryOf(object);
	const reasons = [
		...report.problems.map((problem) => `The report says: ${problem}.`),
		...report.lines,
		describe(ready),
		...typeProblems,
	];
	const message = report.headline || ready.message || 'Ready';
	const base = verdict('Ready', message, reasons, true);
	return report.problems.length > 0 ? { ...base, tone: 'warning' } : base;
}

function verdict(
	state: FluxState,
	message: string,
	reasons: string[],
	observed: boolean,
): SystemVerdict {
	return { system: 'flux', state, tone: fluxTones[state], message, reasons, observed };
}

function describe(condition: Condition): string {
	const reason = condition.reason ? ` (${condition.reason})` : '';
	const message = condition.message ? `: ${condition.message}` : '';
	return `${condition.type} is ${condition.status}${reason}${message}`;
}

/** The failure the conditions report (Ready False, FetchFailed or StorageOperationFailed True), if any. */
function failureOf(
	conditions: readonly Condition[],
): { readonly message: string; readonly reasons: string[] } | undefined {
	const ready = findCondition(conditions, 'Ready');
	const failures = conditions.filter(
		(condition) =>
			(condition.type === 'FetchFailed' || condition.type === 'StorageOperationFailed') &&
			condition.status === 'True',
	);
	if (ready?.status !== 'False' && failures.length === 0) return undefined;
	const primary = failures[0] ?? ready;
	const reasons = failures.map(describe);
	if (ready?.status === 'False') reasons.unshift(describe(ready));
	return {
		message: primary?.message || ready?.message || primary?.reason || 'Reconciliation failed',
		reasons,
	};
}

/**
 * The state of a Flux object. Order decided in issue 3 from the Flux HelmRepository spec (fluxcd/source-controller
 * docs/spec/v1/helmrepositories.md), "Conditions": Stalled, then Suspended (spec.suspend; not for oci
 * HelmRepositories, where it does not apply), then Failed, then Reconciling, then Ready.
 */
export function computeFluxStatus(
	object: unknown,
	conditionList: ConditionList = readConditions(object),
): SystemVerdict {
	const status = getPath(object, 'status');
	const observed = status !== undefined && status !== null;
	const oci = isOciHelmRepository(object);
	if (observed && !isRecord(status)) {
		return verdict('Unknown', 'status is not an object', ['status is not an object'], true);
	}
	const { conditions, problems } = conditionList;
	if (problems.length > 0) return verdict('Unknown', problems.join('; '), [...problems], observed);

	const stalled = findCondition(conditions, 'Stalled');
	if (stalled?.status === 'True') {
		return verdict(
			'Stalled',
			stalled.message || stalled.reason || 'Stalled',
			[describe(stalled), 'The controller will not retry until the spec changes.'],
			observed,
		);
	}
	const suspendValue = getPath(object, 'spec', 'suspend');
	const operatorDisabled = isOperatorDisabled(object);
	if ((!oci && getBool(object, 'spec', 'suspend') === true) || operatorDisabled) {
		const suspendedReason = operatorDisabled
			? `The annotation ${operatorReconcileAnnotation}: disabled is set: the Flux Operator does not reconcile this object.`
			: 'spec.suspend is true: the controller does not reconcile this object.';
		// Suspending keeps the last outcome: `flux get` shows SUSPENDED True beside READY False and its message, so a
		// failure stays a failure (tone error, counted) while the state says why nothing changes.
		const failure = failureOf(conditions);
		if (failure) {
			return {
				...verdict(
					'Suspended',
					`Failed: ${failure.message}`,
					[suspendedReason, ...failure.reasons],
					observed,
				),
				tone: 'error',
			};
		}
		return verdict(
			'Suspended',
			operatorDisabled
				? `Reconciliation is disabled (${operatorReconcileAnnotation}: disabled)`
				: 'Reconciliation is suspended (spec.suspend: true)',
			[suspendedReason],
			observed,
		);
	}
	const typeProblems: string[] = [];
	if (suspendValue !== undefined && typeof suspendValue !== 'boolean') {
		typeProblems.push('spec.suspend is not a boolean');
	}
	if (oci) {
		const reasons = [
			'A HelmRepository of type oci is a data container: the controller writes no status and it is ready for use once it exists.',
		];
		if (getBool(object, 'spec', 'suspend') === true) {
			reasons.push('spec.suspend does not apply to oci repositories.');
		}
		return verdict('Ready', 'OCI repository: ready for use', reasons, observed);
	}
	const staticKind = staticNotificationKindOf(object);
	if (staticKind && !findCondition(conditions, 'Ready')) {
		return verdict(
			'Ready',
			`${staticKind} is Ready`,
			[
				`A notification.toolkit.fluxcd.io/v1beta3 ${staticKind} keeps no status: \`flux get\` prints it Ready once it exists (cmd/flux/get_${staticKind === 'Alert' ? 'alert' : 'alertprovider'}.go).`,
			],
			observed,
		);
	}

	const ready = findCondition(conditions, 'Ready');
	const reconciling = findCondition(conditions, 'Reconciling');
	const retrying = reconciling?.status === 'True' && reconciling.reason === 'ProgressingWithRetry';
	const failure = failureOf(conditions);
	if (failure) {
		const reasons = [...failure.reasons];
		if (retrying) {
			reasons.push('The controller is retrying with exponential backoff (ProgressingWithRetry).');
		}
		return verdict(
			'Failed',
			retrying ? `${failure.message} (retrying)` : failure.message,
			[...reasons, ...typeProblems],
			true,
		);
	}

	const generation = getInt64(object, 'metadata', 'generation');
	const observedGeneration = getInt64(object, 'status', 'observedGeneration');
	const outdated = findCondition(conditions, 'ArtifactOutdated');
	const notObserved =
		generation !== undefined && observedGeneration !== undefined && observedGeneration < generation;
	if (
		reconciling?.status === 'True' ||
		outdated?.status === 'True' ||
		notObserved ||
		ready?.status === 'Unknown'
	) {
		const reasons: string[] = [];
		if (reconciling?.status === 'True') reasons.push(describe(reconciling));
		if (outdated?.status === 'True') reasons.push(describe(outdated));
		if (notObserved) {
			reasons.push(
				`Generation ${generation} is not yet observed (status.observedGeneration is ${observedGeneration}).`,
			);
		}
		if (ready?.status === 'Unknown') reasons.push(describe(ready));
		const message =
			reconciling?.message ||
			outdated?.message ||
			(notObserved ? 'Waiting for the controller to observe the latest generation' : '') ||
			ready?.message ||
			'Reconciling';
		return verdict('Reconciling', message, [...reasons, ...typeProblems], true);
	}
	if (ready?.status === 'True') {
		if (isFluxReport(object)) return fluxReportVerdict(object, ready, typeProblems);
		return verdict('Ready', ready.message || 'Ready', [describe(ready), ...typeProblems], true);
	}
	if (!observed) {
		return verdict(
			'Unknown',
			'No status: the controller has not reconciled this object yet',
			[
				'The object carries no status (a manifest not yet applied, or not yet seen by the controller).',
			],
			false,
		);
	}
	return verdict(
		'Unknown',
		ready ? `Ready is ${ready.status || 'empty'}` : 'No Ready condition',
		[ready ? describe(ready) : 'The status has no Ready condition yet.', ...typeProblems],
		true,
	);
}
