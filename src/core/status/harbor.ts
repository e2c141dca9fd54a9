import {
	findCondition,
	readConditions,
	type Condition,
	type ConditionList,
} from '../model/condition.ts';
import { getPath, getString, isRecord } from '../model/object.ts';
import { type SystemVerdict, type Tone, verdictOf } from './result.ts';

/**
 * HarborCluster overall states, the words the operator writes into `.status.status` and `kubectl get` shows
 * (harbor-operator controllers/goharbor/harborcluster/status.go). Its docs call `provisioning` "creating".
 */
export type HarborState = 'healthy' | 'unhealthy' | 'provisioning';

/** The four dependency conditions that decide the overall status; ConfigurationReady is deliberately not one. */
export const harborDependencyConditions = [
	'StorageReady',
	'DatabaseReady',
	'CacheReady',
	'ServiceReady',
] as const;

const harborTones: Readonly<Record<HarborState, Tone>> = {
	healthy: 'ok',
	unhealthy: 'error',
	provisioning: 'progressing',
};

const verdict = verdictOf.bind(undefined, 'harbor');

// harbor-operator pkg/cluster/controllers/harbor/harbor.go harborClusterCRStatus, word for word.
const harborEmptyStatusMessage =
	'The ready condition of harbor.goharbor.io is empty. Please wait for minutes.';

/** What harbor-operator would write into `.status.status` for these conditions (harborcluster/status.go overallStatus). */
export function harborOverallStatusOf(object: unknown): HarborState {
	return overallStateOf(readConditions(object).conditions);
}

function overallStateOf(conditions: readonly Condition[]): HarborState {
	// The operator counts condition entries, not types: four True entries are healthy, checked before any False.
	let trueCount = 0;
	let anyFalse = false;
	for (const condition of conditions) {
		if (!(harborDependencyConditions as readonly string[]).includes(condition.type)) continue;
		if (condition.status === 'True') trueCount++;
		else if (condition.status === 'False') anyFalse = true;
	}
	if (trueCount >= harborDependencyConditions.length) return 'healthy';
	return anyFalse ? 'unhealthy' : 'provisioning';
}

/**
 * The state of a HarborCluster from its four dependency conditions and `.status.status` (harbor-operator docs
 * "Harbor cluster controller"; goharbor/harbor-operator controllers/goharbor/harborcluster/status.go). The operator's
 * observedGeneration is copied at the start of every reconcile, so it is never used here.
 */
export function computeHarborStatus(
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
	const kind = getString(object, 'kind');
	if (kind !== 'HarborCluster') return computeHarborComponentStatus(kind, conditionList, observed);
	const { conditions, problems } = conditionList;
	if (problems.length > 0) {
		return verdict('Unknown', 'unknown', problems.join('; '), [...problems], observed);
	}
	const computed = overallStateOf(conditions);
	const written = getString(object, 'status', 'status');
	// The operator's docs say "creating" where its code writes "provisioning": both mean the same state.
	const writtenState: HarborState | undefined =
		written === 'healthy' || written === 'unhealthy' || written === 'provisioning'
			? written
			: written === 'creating'
				? 'provisioning'
				: undefined;
	const state = writtenState ?? computed;
	const reasons: string[] = [];
	const falseOnes = harborDependencyConditions.filter(
		(type) => findCondition(conditions, type)?.status === 'False',
	);
	const pending = harborDependencyConditions.filter(
		(type) => findCondition(conditions, type)?.status !== 'True',
	);
	let message: string;
	if (state === 'healthy' && computed !== 'healthy' && pending.length > 0) {
		message = `The operator reports healthy, but ${pending.join(', ')} ${pending.length === 1 ? 'is' : 'are'} not True`;
	} else if (state === 'healthy') {
		message = 'All four dependencies (storage, database, cache, Harbor service) are ready';
	} else if (state === 'unhealthy') {
		const first = falseOnes[0] ? findCondition(conditions, falseOnes[0]) : undefined;
		message = falseOnes.length
			? `${falseOnes.join(', ')} False${first?.message ? `: ${first.message}` : ''}`
			: 'The operator reports unhealthy';
	} else {
		const dependencies = pending.filter((type) => type !== 'ServiceReady');
		message = pending.length
			? dependencies.length
				? `Waiting for ${pending.join(', ')}; the Harbor service is deployed only after ${dependencies.join(', ')}`
				: 'Waiting for ServiceReady: the dependencies are ready and Harbor itself is being deployed'
			: 'Provisioning';
	}
	for (const type of harborDependencyConditions) {
		const condition = findCondition(conditions, type);
		if (!condition) reasons.push(`${type} is not reported yet.`);
		else if (condition.status !== 'True') {
			reasons.push(
				`${type} is ${condition.status}${condition.reason ? ` (${condition.reason})` : ''}${condition.message ? `: ${condition.message}` : ''}`,
			);
		}
	}
	if (writtenState && writtenState !== computed) {
		reasons.push(
			`The operator wrote "${written}", but the conditions say "${computed}": the status may be stale.`,
		);
	}
	const configuration = findCondition(conditions, 'ConfigurationReady');
	if (configuration && configuration.status !== 'True') {
		reasons.push(
			`ConfigurationReady is ${configuration.status}; it does not count towards the overall status.`,
		);
	}
	if (!observed) {
		reasons.unshift('The object carries no status: the operator starts in "provisioning".');
	}
	return {
		system: 'harbor',
		state,
		tone: harborTones[state],
		message,
		reasons,
		observed,
		computed: { status: computed },
	};
}

/** Harbor component CRs (Harbor, Core, Registry, ...) carry kstatus-style InProgress/Failed conditions. */
function computeHarborComponentStatus(
	kind: string | undefined,
	conditionList: ConditionList,
	observed: boolean,
): SystemVerdict {
	const { conditions, problems } = conditionList;
	if (problems.length > 0) {
		return verdict('Unknown', 'unknown', problems.join('; '), [...problems], observed);
	}
	const failed = findCondition(conditions, 'Failed');
	if (failed?.status === 'True') {
		return verdict(
			'Failed',
			'error',
			failed.message || failed.reason || 'Failed',
			['Failed is True.'],
			observed,
		);
	}
	const inProgress = findCondition(conditions, 'InProgress');
	if (inProgress?.status === 'True') {
		return verdict(
			'InProgress',
			'progressing',
			inProgress.message || inProgress.reason || 'In progress',
			['InProgress is True.'],
			observed,
		);
	}
	if (!observed) {
		return verdict(
			'Unknown',
			'unknown',
			'No status yet',
			['The object carries no status.'],
			observed,
		);
	}
	if (kind === 'Harbor' && !failed && !inProgress) {
		return verdict(
			'Unknown',
			'progressing',
			harborEmptyStatusMessage,
			[
				'The Harbor has neither a Failed nor an InProgress condition: the HarborCluster controller reports its service as Unknown until the Harbor controller writes them.',
			],
			observed,
		);
	}
	return verdict('Ready', 'ok', 'Reconciled', ['Neither InProgress nor Failed is True.'], observed);
}
