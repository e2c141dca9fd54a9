import { readConditions, type ConditionList } from '../model/condition.ts';
import { getInt64 } from '../model/int64.ts';
import { getArray, getInt, getPath, getRecord, getString, isRecord } from '../model/object.ts';
import { computeKstatus } from './kstatus.ts';
import { type KstatusResult, type SystemVerdict, type Tone, verdictOf } from './result.ts';

/**
 * The KubeStellar API groups: the released `control.kubestellar.io`, and `policies.kubestellar.io` as the multi-WEC
 * status proposal (kubestellar#2809) writes it.
 */
const kubestellarGroups = ['control.kubestellar.io', 'policies.kubestellar.io'] as const;

/** True for a KubeStellar API group. */
export function isKubestellarGroup(group: string): boolean {
	return (kubestellarGroups as readonly string[]).includes(group);
}

/** Finds the WDS workload a WorkStatus refers to, when the caller has it (its spec and generation make the verdict exact). */
export type WorkloadLookup = (sourceRef: Readonly<Record<string, unknown>>) => unknown;

const kstatusTones: Readonly<Record<KstatusResult['status'], Tone>> = {
	Current: 'ok',
	InProgress: 'progressing',
	Failed: 'error',
	Terminating: 'progressing',
	Unknown: 'unknown',
};

/** The tone of a kstatus status word. */
export function toneOfKstatus(status: KstatusResult['status']): Tone {
	return kstatusTones[status];
}

/**
 * The object a WorkStatus stands for: the WEC's copy of the workload's status on the workload's identity. Without
 * the WDS workload the spec is unknown, so the desired replica count is taken from the copy itself.
 */
function wecCopyOf(workStatus: unknown, workload?: unknown): Record<string, unknown> {
	const sourceRef = getRecord(workStatus, 'spec', 'sourceRef') ?? {};
	const group = typeof sourceRef.group === 'string' ? sourceRef.group : '';
	const version = typeof sourceRef.version === 'string' ? sourceRef.version : 'v1';
	const status = getPath(workStatus, 'status');
	const metadata: Record<string, unknown> = {
		name: sourceRef.name,
		namespace: sourceRef.namespace,
	};
	// No generation: the copy's observedGeneration counts the WEC object's generations, while
	// statusDetails.lastGeneration is the WDS object's, so comparing the two would say nothing.
	const copy: Record<string, unknown> = {
		apiVersion: group ? `${group}/${version}` : version,
		kind: sourceRef.kind,
		metadata,
		status,
	};
	if (isRecord(workload)) {
		copy.spec = workload.spec;
	} else {
		const replicas = getInt(status, 'replicas');
		if (replicas !== undefined) copy.spec = { replicas };
	}
	return copy;
}

const verdict = verdictOf.bind(undefined, 'kubestellar');

function computeWorkStatusStatus(object: unknown, lookup?: WorkloadLookup): SystemVerdict {
	const sourceRef = getRecord(object, 'spec', 'sourceRef');
	const wec = getString(object, 'metadata', 'namespace') ?? '?';
	if (!sourceRef) {
		return verdict(
			'Unknown',
			'unknown',
			'spec.sourceRef is missing',
			['A WorkStatus must name its source object in spec.sourceRef.'],
			getPath(object, 'status') !== undefined,
		);
	}
	const text = (value: unknown, fallback: string): string =>
		typeof value === 'string' && value ? value : fallback;
	const target = `${text(sourceRef.kind, '?')} ${typeof sourceRef.namespace === 'string' && sourceRef.namespace ? `${sourceRef.namespace}/` : ''}${text(sourceRef.name, '?')}`;
	const status = getPath(object, 'status');
	if (status === undefined || status === null) {
		return verdict(
			'Pending',
			'progressing',
			`No status reported yet for ${target} in WEC ${wec}`,
			[`WEC ${wec} has not returned the status of ${target} yet.`],
			false,
		);
	}
	if (!isRecord(status)) {
		return verdict(
			'Unknown',
			'unknown',
			'status is not an object',
			[`The status copied from WEC ${wec} is not an object.`],
			true,
		);
	}
	const workload = lookup?.(sourceRef);
	const kstatus = computeKstatus(wecCopyOf(object, workload));
	const reasons = [`The state of ${target} as WEC ${wec} reports it (kstatus).`];
	if (workload === undefined) {
		reasons.push(
			'The WDS workload is not in the input: its desired replica count is taken from the WEC copy.',
		);
	}
	if (getPath(object, 'statusDetails', 'lastGenerationIsApplied') === false) {
		const generation = getInt64(object, 'statusDetails', 'lastGeneration');
		reasons.push(
			`WEC ${wec} has not applied ${generation !== undefined && generation > 0n ? `generation ${generation} of the WDS object` : 'the latest WDS generation'} yet (statusDetails.lastGenerationIsApplied is false).`,
		);
	}
	return verdict(kstatus.status, toneOfKstatus(kstatus.status), kstatus.message, reasons, true);
}

/**
 * The state of a KubeStellar object: Error (status.errors or a False condition), Pending (generation not yet
 * observed), Ready; a WorkStatus takes the state of the WEC's copy it carries (issue 3).
 */
export function computeKubestellarStatus(
	object: unknown,
	lookup?: WorkloadLookup,
	conditionList?: ConditionList,
): SystemVerdict {
	const kind = getString(object, 'kind') ?? '';
	if (kind === 'WorkStatus') return computeWorkStatusStatus(object, lookup);
	const status = getPath(object, 'status');
	const observed = status !== undefined && status !== null;
	if (observed && !isRecord(status)) {
		return verdict(
			'Unknown',
			'unknown',
			'status is not an object',
			['status is not an object'],
			true,
		);
	}
	const { conditions, problems } = conditionList ?? readConditions(object);
	if (problems.length > 0) {
		return verdict('Unknown', 'unknown', problems.join('; '), [...problems], observed);
	}
	const errorsValue = getPath(object, 'status', 'errors');
	const errors = (getArray(object, 'status', 'errors') ?? []).filter(
		(entry): entry is string => typeof entry === 'string',
	);
	const reasons: string[] = [];
	if (errorsValue !== undefined && errorsValue !== null && !Array.isArray(errorsValue)) {
		return verdict(
			'Unknown',
			'unknown',
			'status.errors is not a list',
			['status.errors is not a list'],
			observed,
		);
	}
	const falseConditions = conditions.filter((condition) => condition.status === 'False');
	if (errors.length > 0 || falseConditions.length > 0) {
		for (const error of errors) reasons.push(`Error: ${error}`);
		for (const condition of falseConditions) {
			reasons.push(
				`${condition.type} is False${condition.reason ? ` (${condition.reason})` : ''}${condition.message ? `: ${condition.message}` : ''}`,
			);
		}
		const message =
			errors[0] ??
			falseConditions[0]?.message ??
			`${falseConditions[0]?.type ?? 'A condition'} is False`;
		return verdict('Error', 'error', message, reasons, observed);
	}
	if (kind === 'CombinedStatus') {
		const rowErrors = (getArray(object, 'results') ?? []).some(
			(result) =>
				(getArray(result, 'rowErrors')?.length ?? 0) > 0 ||
				(getArray(result, 'aggregationErrors')?.length ?? 0) > 0,
		);
		if (rowErrors) {
			return verdict(
				'Error',
				'error',
				'Some status collector rows or aggregations failed',
				['results[] carry rowErrors or aggregationErrors.'],
				true,
			);
		}
		return verdict(
			'Ready',
			'ok',
			'Combined status collected',
			['The combined status has no row or aggregation errors.'],
			true,
		);
	}
	const generation = getInt64(object, 'metadata', 'generation');
	const observedGeneration = getInt64(object, 'status', 'observedGeneration');
	if (!observed) {
		return verdict(
			'Pending',
			'progressing',
			'No status: not yet processed by the KubeStellar controller',
			[
				'The object carries no status (a manifest not yet applied, or not yet seen by the controller).',
			],
			false,
		);
	}
	if (
		generation !== undefined &&
		(observedGeneration === undefined || observedGeneration < generation)
	) {
		return verdict(
			'Pending',
			'progressing',
			`Generation ${generation} not yet observed`,
			[
				`metadata.generation is ${generation} but status.observedGeneration is ${observedGeneration ?? 'absent'}: the controller has not processed the latest spec.`,
			],
			true,
		);
	}
	return verdict(
		'Ready',
		'ok',
		'Processed without errors',
		['status.errors is empty and no condition is False.'],
		true,
	);
}
