import { findCondition, readConditions, type ConditionList } from '../model/condition.ts';
import { getInt64, int64Field } from '../model/int64.ts';
import { getArray, getBool, getPath, getRecord, getString, isRecord } from '../model/object.ts';
import { type SystemVerdict, type Tone, verdictOf } from './result.ts';

/** True for Azure Service Operator groups: v2 `*.azure.com`, v1 `azure.microsoft.com`. */
export function isAsoGroup(group: string): boolean {
	return group === 'azure.microsoft.com' || group.endsWith('.azure.com');
}

// ASO v2 alpha kept operator state in annotations before the Ready condition existed (Azure Service Operator status
// proposal "Proposal for reporting resource Status", "ASO v2").
const alphaStateAnnotation = 'resource-state.infra.azure.com';
const alphaErrorAnnotation = 'resource-error.infra.azure.com';

const verdict = verdictOf.bind(undefined, 'aso');

// ASO status proposal, "Severity meaning in the context of the Ready condition"; issue 3 adds: no severity on
// False -> warning.
const severityTones: Readonly<Record<string, Tone>> = {
	Error: 'error',
	Warning: 'warning',
	Info: 'progressing',
};

/** Status of an ASO v1 (handcrafted, azure.microsoft.com) resource: provisioning / provisioned / failedProvisioning. */
function computeAsoV1Status(object: unknown, observed: boolean): SystemVerdict {
	const state = getString(object, 'status', 'state') ?? '';
	const message = getString(object, 'status', 'message') ?? '';
	if (getBool(object, 'status', 'failedProvisioning') === true) {
		return verdict(
			state || 'Failed',
			'error',
			message || 'Provisioning failed',
			[
				'status.failedProvisioning is true: the operator could not provision the resource in Azure.',
			],
			true,
		);
	}
	if (getBool(object, 'status', 'provisioning') === true) {
		return verdict(
			state || 'Provisioning',
			'progressing',
			message || 'Provisioning',
			['status.provisioning is true: a request to Azure is in progress.'],
			true,
		);
	}
	if (getBool(object, 'status', 'provisioned') === true) {
		return verdict(
			state || 'Succeeded',
			'ok',
			message || 'Provisioned',
			['status.provisioned is true: the resource exists in Azure as specified.'],
			true,
		);
	}
	if (!observed) {
		return verdict(
			'Unknown',
			'unknown',
			'No status: the operator has not seen this resource yet',
			[
				'The object carries no status (a manifest not yet applied, or not yet seen by the operator).',
			],
			false,
		);
	}
	return verdict(
		state || 'Unknown',
		'unknown',
		message || 'No provisioning flag is set',
		['None of provisioning, provisioned or failedProvisioning is true.'],
		true,
	);
}

/** Status of an ASO v2 alpha resource that carries its state in annotations. */
function computeAsoAlphaStatus(state: string, error: string | undefined): SystemVerdict {
	// The armclient deployment states: Succeeded, Failed, Deleting, Accepted (ASO status proposal, "ASO v2").
	const tones: Readonly<Record<string, Tone>> = {
		Succeeded: 'ok',
		Failed: 'error',
		Deleting: 'progressing',
		Accepted: 'progressing',
	};
	const tone = tones[state] ?? 'unknown';
	return verdict(
		state,
		tone,
		error || state,
		[
			`Annotation ${alphaStateAnnotation} is ${state} (ASO v2 alpha keeps its state in annotations).`,
			...(error ? [`Annotation ${alphaErrorAnnotation}: ${error}`] : []),
		],
		false,
	);
}

/**
 * The state of an ASO resource: the Ready condition's reason (ASO status proposal, "The Reason field"), with the
 * tone from its severity; v1 resources by their provisioning flags; alpha resources by annotation.
 */
export function computeAsoStatus(
	object: unknown,
	conditionList: ConditionList = readConditions(object),
): SystemVerdict {
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
	const group = (getString(object, 'apiVersion') ?? '').split('/')[0] ?? '';
	if (group === 'azure.microsoft.com') return computeAsoV1Status(object, observed);

	const { conditions, problems } = conditionList;
	if (problems.length > 0) {
		return verdict('Unknown', 'unknown', problems.join('; '), [...problems], observed);
	}
	const ready = findCondition(conditions, 'Ready');
	if (!ready) {
		const annotations = getRecord(object, 'metadata', 'annotations');
		const alphaState = annotations?.[alphaStateAnnotation];
		if (typeof alphaState === 'string' && alphaState) {
			const alphaError = annotations?.[alphaErrorAnnotation];
			return computeAsoAlphaStatus(
				alphaState,
				typeof alphaError === 'string' ? alphaError : undefined,
			);
		}
		return verdict(
			'Unknown',
			'unknown',
			'No Ready condition: the operator has not seen this resource yet',
			[
				observed
					? 'The status has no Ready condition: the operator has not reconciled this resource yet.'
					: 'The object carries no status: the operator has not seen it yet (or it is a manifest not yet applied).',
			],
			observed,
		);
	}

	const reason = ready.reason ?? '';
	const reasons: string[] = [];
	let tone: Tone;
	let state = reason;
	if (ready.status === 'True') {
		tone = 'ok';
		state ||= 'Succeeded';
		reasons.push('Ready is True: the spec has been applied in Azure.');
	} else if (ready.status === 'False') {
		const severity = ready.severity ?? '';
		const severityTone = severityTones[severity];
		if (severityTone) {
			tone = severityTone;
			reasons.push(`Ready is False with severity ${severity}.`);
		} else if (severity) {
			tone = 'warning';
			reasons.push(
				`Ready is False with severity "${severity}", which is not one of Error, Warning or Info.`,
			);
		} else {
			tone = 'warning';
			reasons.push(
				'Ready is False but has no severity: ASO always sets one on False, so the severity is missing.',
			);
		}
	} else {
		tone = 'progressing';
		reasons.push(`Ready is ${ready.status || 'empty'}: the operator is still working.`);
	}
	if (!reason) {
		state = ready.status === 'True' ? 'Succeeded' : 'Unknown';
		reasons.push('The Ready condition has no reason; a reason is required.');
	}

	const generation = getInt64(object, 'metadata', 'generation');
	// The raw condition, not the model's copy: its noted exact value is keyed by the map the parser built.
	const readyEntry = getArray(object, 'status', 'conditions')?.find(
		(entry) => isRecord(entry) && entry.type === 'Ready',
	);
	const conditionGeneration =
		ready.observedGeneration === undefined
			? undefined
			: int64Field(readyEntry, 'observedGeneration');
	if (
		generation !== undefined &&
		conditionGeneration !== undefined &&
		conditionGeneration < generation
	) {
		reasons.unshift(
			`Stale: Ready describes generation ${conditionGeneration}, but the spec is at generation ${generation}; the operator has not processed the latest change yet.`,
		);
		if (tone === 'ok') tone = 'progressing';
	}
	const message = ready.message || (ready.status === 'True' ? 'Ready' : state);
	return verdict(state, tone, message, reasons, observed);
}
