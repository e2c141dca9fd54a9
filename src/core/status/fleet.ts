// Rancher Fleet: the badge for one object from the status its controller wrote, and the roll-ups Fleet's
// controllers would write, recomputed from the other objects of an input. Rules live in fleetSummary.ts (per
// BundleDeployment, summaries) and fleetRollup.ts (parents); this file reads objects and links them.
// Sources: rancher/fleet @ 3b2c622ce176 and rancher/fleet-docs docs/ref-status-fields.md (Fleet docs "Status Fields").
import {
	findCondition,
	readConditions,
	type Condition,
	type ConditionList,
} from '../model/condition.ts';
import { getPath, getString, groupOf, isRecord } from '../model/object.ts';
import { pendingDependenciesOf, pendingDependencySentence } from './fleetDependencyMessage.ts';
import { helmCredentialsAdvice } from './fleetHelmCredentials.ts';
import { policyRejectionSentence, policyRulesOf, rejectionOfObject } from './fleetPolicy.ts';
import type { SystemVerdict, Tone } from './result.ts';
import { worseTone } from './result.ts';
import {
	bdDisplayOf,
	deploymentStateOf,
	fleetLabels,
	isFleetState,
	messageFromDeployment,
	modifiedStatusString,
	nonReadyStatusString,
	readBundleDeployment,
	readBundleSummary,
	type BundleDeploymentDisplay,
	type BundleDeploymentView,
	type FleetState,
} from './fleetSummary.ts';
import {
	bundleStatusOf,
	clusterGroupStatusOf,
	clusterStatusOf,
	fleetStatusFrozen,
	gitRepoStatusOf,
	helmOpStatusOf,
	isAgentLastSeenZero,
	writtenClusterSummary,
	type BundleComputed,
	type ClusterComputed,
	type ClusterGroupComputed,
	type GitRepoComputed,
	type HelmOpComputed,
	type SummaryParts,
} from './fleetRollup.ts';

/** The API group of every Fleet kind. */
const fleetGroup = 'fleet.cattle.io';

/** Fleet's own state words for one object: the bundle states plus WaitCheckIn (Cluster) and GitUpdating (GitRepo). */
export type FleetObjectState = FleetState | 'WaitCheckIn' | 'GitUpdating';

/**
 * Badge tone of each state (Fleet docs "Status Fields", "Display States"): ErrApplied failed; Modified and OutOfSync
 * drifted from the desired state; the waiting states are on their way.
 */
const fleetStateTones: Readonly<Record<FleetObjectState, Tone>> = {
	Ready: 'ok',
	NotReady: 'progressing',
	Pending: 'progressing',
	OutOfSync: 'warning',
	Modified: 'warning',
	WaitApplied: 'progressing',
	// Fleet 0.16: held back by a dependsOn entry, not failed (rancher/fleet#5549; the Rancher dashboard shows it as info).
	WaitingForDependency: 'progressing',
	ErrApplied: 'error',
	WaitCheckIn: 'progressing',
	GitUpdating: 'progressing',
} as const;

/** A table row by kind, never an Object.prototype member: kinds come from untrusted input ("constructor"). */
function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
	return Object.hasOwn(table, key) ? table[key] : undefined;
}

export function toneOfState(state: string): Tone {
	return Object.hasOwn(fleetStateTones, state)
		? fleetStateTones[state as FleetObjectState]
		: 'unknown';
}

// ---------------------------------------------------------------------------------------------------------------
// Input checks: wrong types make the verdict Unknown rather than a guess.

type FieldType = 'object' | 'list' | 'string' | 'boolean' | 'integer';

type FieldCheck = readonly [path: string, type: FieldType];

const summaryCounterChecks: readonly FieldCheck[] = [
	'notReady',
	'waitApplied',
	'errApplied',
	'waitingForDependency',
	'outOfSync',
	'modified',
	'ready',
	'pending',
	'desiredReady',
].map((key): FieldCheck => [`status.summary.${key}`, 'integer']);

const commonChecks: readonly FieldCheck[] = [
	['metadata', 'object'],
	['metadata.labels', 'object'],
	['spec', 'object'],
	['status', 'object'],
	['status.display', 'object'],
	['status.display.state', 'string'],
	['status.display.message', 'string'],
	['status.summary', 'object'],
	['status.summary.nonReadyResources', 'list'],
	...summaryCounterChecks,
];

/** Fields each kind's rules read, with the JSON type Fleet's Go structs give them (pkg/apis/fleet.cattle.io/v1alpha1). */
const kindChecks: Readonly<Record<string, readonly FieldCheck[]>> = {
	BundleDeployment: [
		['spec.deploymentID', 'string'],
		['spec.stagedDeploymentID', 'string'],
		['status.appliedDeploymentID', 'string'],
		['status.ready', 'boolean'],
		['status.nonModified', 'boolean'],
		['status.incompleteState', 'boolean'],
		['status.nonReadyStatus', 'list'],
		['status.modifiedStatus', 'list'],
		['status.resources', 'list'],
		['status.resourceCounts', 'object'],
	],
	GitRepo: [
		['status.gitJobStatus', 'string'],
		['status.readyClusters', 'integer'],
		['status.desiredReadyClusters', 'integer'],
	],
	HelmOp: [
		['status.readyClusters', 'integer'],
		['status.desiredReadyClusters', 'integer'],
	],
	Bundle: [['status.display.readyClusters', 'string']],
	Cluster: [
		['status.agent', 'object'],
		['status.agent.lastSeen', 'string'],
		['status.readyGitRepos', 'integer'],
		['status.desiredReadyGitRepos', 'integer'],
		['status.readyHelmOps', 'integer'],
		['status.desiredReadyHelmOps', 'integer'],
	],
	ClusterGroup: [
		['status.clusterCount', 'integer'],
		['status.nonReadyClusterCount', 'integer'],
		['status.nonReadyClusters', 'list'],
	],
};

const fieldTypeNames: Readonly<Record<FieldType, string>> = {
	object: 'an object',
	list: 'a list',
	string: 'a string',
	boolean: 'a boolean',
	integer: 'an integer',
};

function typeMatches(value: unknown, type: FieldType): boolean {
	switch (type) {
		case 'object':
			return isRecord(value);
		case 'list':
			return Array.isArray(value);
		case 'string':
			return typeof value === 'string';
		case 'boolean':
			return typeof value === 'boolean';
		case 'integer':
			return typeof value === 'number' && Number.isInteger(value);
	}
}

function typeName(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}

interface CompiledCheck {
	readonly path: string;
	readonly segments: readonly string[];
	readonly type: FieldType;
}

// The checks run for every Fleet object: paths are split once per kind, not once per object.
const compiledChecks = new Map<string, readonly CompiledCheck[]>();

function compiledChecksOf(kind: string): readonly CompiledCheck[] {
	let checks = compiledChecks.get(kind);
	if (!checks) {
		checks = [...commonChecks, ...(ownEntry(kindChecks, kind) ?? [])].map(([path, type]) => ({
			path,
			segments: path.split('.'),
			type,
		}));
		compiledChecks.set(kind, checks);
	}
	return checks;
}

/** What is wrong with the fields Fleet's rules read, one sentence each; empty when the object reads cleanly. */
function fleetInputProblemsOf(
	object: unknown,
	kind: string,
	conditionList: ConditionList,
): string[] {
	const problems: string[] = [];
	for (const { path, segments, type } of compiledChecksOf(kind)) {
		// getPath's steps, without spreading the segments into a new arguments list for every check of every object.
		let value: unknown = object;
		for (const segment of segments) {
			value = isRecord(value) ? value[segment] : undefined;
			if (value === undefined) break;
		}
		// Go decodes null into the zero value, so null is as good as absent.
		if (value === undefined || value === null) continue;
		if (!typeMatches(value, type)) {
			problems.push(`${path} should be ${fieldTypeNames[type]}, not ${typeName(value)}`);
		}
	}
	for (const problem of conditionList.problems) problems.push(problem);
	return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// Verdicts

function verdict(
	state: string,
	tone: Tone,
	message: string,
	reasons: readonly string[],
	observed: boolean,
): SystemVerdict {
	return { system: 'fleet', state, tone, message, reasons, observed };
}

function unknownVerdict(
	message: string,
	reasons: readonly string[],
	observed: boolean,
): SystemVerdict {
	return verdict('Unknown', 'unknown', message, reasons.length > 0 ? reasons : [message], observed);
}

function plural(count: number, unit: string): string {
	return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

function conditionSentence(condition: Condition): string {
	const head = `${condition.type} is ${condition.status}`;
	return condition.message
		? `${head}: ${condition.message}`
		: condition.reason
			? `${head} (${condition.reason})`
			: head;
}

function bundleDeploymentVerdict(
	object: unknown,
	observed: boolean,
	bd: BundleDeploymentView = readBundleDeployment(object),
): SystemVerdict {
	const state = deploymentStateOf(bd);
	const reasons: string[] = [];
	const deployed = findCondition(bd.conditions, 'Deployed');
	const applied = bd.appliedDeploymentID === '' ? 'nothing yet' : bd.appliedDeploymentID;
	// One explanation per GetDeploymentState branch (summary.go), in the same order.
	switch (state) {
		case 'ErrApplied': {
			if (deployed) reasons.push(conditionSentence(deployed));
			const dependencies = pendingDependenciesOf(deployed?.message ?? '');
			if (dependencies) {
				// An agent older than Fleet 0.16 reports a dependency that is not ready as an apply error.
				reasons.push(
					`Held back by spec.dependsOn: ${dependencies.map(pendingDependencySentence).join('; ')}. This Fleet reports the wait as ErrApplied; Fleet 0.16 and later call it WaitingForDependency.`,
				);
			}
			reasons.push(
				`Deployment ${bd.deploymentID} failed to apply; the cluster still runs ${applied}.`,
			);
			break;
		}
		case 'WaitingForDependency': {
			const dependencies = pendingDependenciesOf(deployed?.message ?? '') ?? [];
			reasons.push(
				dependencies.length > 0
					? `Waits for spec.dependsOn: ${dependencies.map(pendingDependencySentence).join('; ')}.`
					: `Waits for a bundle in spec.dependsOn to reach an accepted state${deployed?.message ? `: ${deployed.message}` : '.'}`,
			);
			reasons.push(
				`Deployment ${bd.deploymentID} is not applied until then; the cluster runs ${applied}.`,
			);
			break;
		}
		case 'WaitApplied':
			reasons.push(
				observed
					? `The agent has not applied deployment ${bd.deploymentID} yet; the cluster runs ${applied}.`
					: 'No status yet: the agent on the cluster has not picked this BundleDeployment up.',
			);
			break;
		case 'NotReady': {
			const counts = bd.resourceCounts;
			if (counts.desiredReady > 0) {
				reasons.push(`${counts.ready} of ${plural(counts.desiredReady, 'resource')} ready.`);
			}
			for (const nonReady of bd.nonReadyStatus.slice(0, 4)) {
				reasons.push(`Not ready: ${nonReadyStatusString(nonReady)}`);
			}
			if (bd.nonReadyStatus.length === 0) {
				reasons.push('The agent reports resources that are not ready.');
			}
			break;
		}
		case 'OutOfSync':
			reasons.push(
				`Deployment ${bd.stagedDeploymentID} is staged but not released to the agent yet (rollout paused or partitioned); the agent has ${bd.deploymentID}.`,
			);
			break;
		case 'Modified':
			for (const modified of bd.modifiedStatus.slice(0, 4)) {
				reasons.push(`Drift: ${modifiedStatusString(modified)}`);
			}
			if (bd.modifiedStatus.length === 0) {
				reasons.push('The agent reports resources that differ from the desired state.');
			}
			break;
		case 'Ready':
			break;
	}
	if (bd.incompleteState) {
		reasons.push(
			'More than 10 resources are not ready or modified; Fleet lists only the first 10.',
		);
	}
	const ready = findCondition(bd.conditions, 'Ready');
	const agentReady = ready?.status === 'False' && ready.message ? ready.message : '';
	const message =
		messageFromDeployment(bd) ||
		agentReady ||
		(state === 'Ready'
			? bd.resourceCounts.desiredReady > 0
				? `Deployed and ready (${plural(bd.resourceCounts.desiredReady, 'resource')})`
				: 'Deployed and ready'
			: (reasons[0] ?? state));
	return verdict(state, toneOfState(state), message, reasons, observed);
}

/**
 * A condition that overrides badge tone and message when it has a given status (Fleet docs "Status Fields", "GitRepo"
 * and "HelmOp Conditions").
 */
interface ConditionRule {
	readonly type: string;
	readonly status: 'True' | 'False';
	readonly tone: Tone;
}

/** Conditions that colour the badge beyond the bundle state, per kind; first hit gives the message. */
const conditionRules: Readonly<Record<string, readonly ConditionRule[]>> = {
	// Fleet docs "Status Fields", "GitRepo": Accepted (restrictions, helm secrets), GitPolling (clone/poll errors),
	// Stalled (git job failed, wrangler kstatus.SetError), Reconciling (job running, kstatus.SetTransitioning).
	GitRepo: [
		{ type: 'Accepted', status: 'False', tone: 'error' },
		{ type: 'GitPolling', status: 'False', tone: 'error' },
		{ type: 'Stalled', status: 'True', tone: 'error' },
		{ type: 'Reconciling', status: 'True', tone: 'progressing' },
	],
	// Fleet docs "Status Fields", "HelmOp Conditions": Accepted False (bad options, unresolved version, bundle
	// creation), Polled False.
	HelmOp: [
		{ type: 'Accepted', status: 'False', tone: 'error' },
		{ type: 'Polled', status: 'False', tone: 'error' },
		{ type: 'Stalled', status: 'True', tone: 'error' },
		{ type: 'Reconciling', status: 'True', tone: 'progressing' },
	],
	// cluster_controller.go / clustergroup_controller.go setCondition: Processed False carries a reconcile error.
	Cluster: [{ type: 'Processed', status: 'False', tone: 'error' }],
	ClusterGroup: [{ type: 'Processed', status: 'False', tone: 'error' }],
};

/** How each parent kind reads before any controller wrote status (Fleet docs; the controllers' first reconcile). */
const freshStates: Readonly<
	Record<string, { readonly state: FleetObjectState; readonly message: string }>
> = {
	Bundle: {
		state: 'Pending',
		message: 'Waiting for the Fleet controller to target clusters with this bundle',
	},
	HelmOp: {
		state: 'Pending',
		message: 'Waiting for the Fleet controller to create the bundle for this chart',
	},
	ClusterGroup: {
		state: 'Pending',
		message: 'Waiting for the Fleet controller to count the clusters of this group',
	},
	GitRepo: {
		state: 'GitUpdating',
		message: 'Waiting for the Fleet controller to clone the repository',
	},
	Cluster: {
		state: 'WaitCheckIn',
		message: 'Waiting for the Fleet agent to register and check in',
	},
};

/** What a summary counts, per kind: a Bundle counts clusters, a Cluster/ClusterGroup bundles, a GitRepo/HelmOp BDs. */
const summaryUnits: Readonly<Record<string, string>> = {
	Bundle: 'cluster',
	Cluster: 'bundle',
	ClusterGroup: 'bundle',
	GitRepo: 'bundle deployment',
	HelmOp: 'bundle deployment',
};

function ratio(text: string | undefined): { ready: number; total: number } | undefined {
	const match = /^(\d+)\/(\d+)/.exec(text ?? '');
	return match ? { ready: Number(match[1]), total: Number(match[2]) } : undefined;
}

function intAt(object: unknown, ...path: string[]): number | undefined {
	const value = getPath(object, ...path);
	return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

function notReadySentence(
	ready: number | undefined,
	total: number | undefined,
	unit: string,
): string | undefined {
	if (ready === undefined || total === undefined || total <= ready) return undefined;
	return `${total - ready} of ${plural(total, unit)} not ready`;
}

/** Sentences about what is not ready, from the counts the controller wrote. */
function countReasons(object: unknown, kind: string): string[] {
	const reasons: string[] = [];
	const summary = readBundleSummary(getPath(object, 'status', 'summary'));
	const unit = ownEntry(summaryUnits, kind) ?? 'bundle deployment';
	switch (kind) {
		case 'GitRepo':
		case 'HelmOp': {
			const sentence = notReadySentence(
				intAt(object, 'status', 'readyClusters'),
				intAt(object, 'status', 'desiredReadyClusters'),
				'cluster',
			);
			if (sentence) reasons.push(sentence);
			break;
		}
		case 'Bundle': {
			const clusters = ratio(getString(object, 'status', 'display', 'readyClusters'));
			const sentence = clusters && notReadySentence(clusters.ready, clusters.total, 'cluster');
			if (sentence) reasons.push(sentence);
			break;
		}
		case 'Cluster': {
			const repos = notReadySentence(
				intAt(object, 'status', 'readyGitRepos'),
				intAt(object, 'status', 'desiredReadyGitRepos'),
				'GitRepo',
			);
			if (repos) reasons.push(repos);
			const ops = notReadySentence(
				intAt(object, 'status', 'readyHelmOps'),
				intAt(object, 'status', 'desiredReadyHelmOps'),
				'HelmOp',
			);
			if (ops) reasons.push(ops);
			break;
		}
		case 'ClusterGroup': {
			const count = intAt(object, 'status', 'clusterCount') ?? 0;
			const nonReady = intAt(object, 'status', 'nonReadyClusterCount') ?? 0;
			if (nonReady > 0) {
				const names = getPath(object, 'status', 'nonReadyClusters');
				const list = Array.isArray(names)
					? names.filter((n): n is string => typeof n === 'string')
					: [];
				reasons.push(
					`${nonReady} of ${plural(count, 'cluster')} not ready${list.length > 0 ? `: ${list.join(', ')}` : ''}`,
				);
			}
			break;
		}
	}
	// Worst state first, as Fleet ranks them.
	const counters = [
		['ErrApplied', summary.errApplied],
		['WaitingForDependency', summary.waitingForDependency],
		['WaitApplied', summary.waitApplied],
		['Modified', summary.modified],
		['OutOfSync', summary.outOfSync],
		['Pending', summary.pending],
		['NotReady', summary.notReady],
	] as const;
	for (const [state, count] of counters) {
		if (count > 0) reasons.push(`${plural(count, unit)} ${state}`);
	}
	return reasons;
}

/** The "all fine" line of each parent kind, from the display fields the controller wrote. */
function readyLine(object: unknown, kind: string): string {
	const display = (key: string) => getString(object, 'status', 'display', key);
	switch (kind) {
		case 'GitRepo':
		case 'HelmOp':
			return display('readyBundleDeployments')
				? `${display('readyBundleDeployments')} bundle deployments ready`
				: 'Ready';
		case 'Bundle':
			return display('readyClusters') ? `${display('readyClusters')} clusters ready` : 'Ready';
		case 'Cluster':
			return display('readyBundles') ? `${display('readyBundles')} bundles ready` : 'Ready';
		case 'ClusterGroup': {
			const count = intAt(object, 'status', 'clusterCount') ?? 0;
			const nonReady = intAt(object, 'status', 'nonReadyClusterCount') ?? 0;
			return `${count - nonReady}/${count} clusters ready`;
		}
		default:
			return 'Ready';
	}
}

/**
 * The verdict for a Bundle, GitRepo, HelmOp, Cluster or ClusterGroup from what its controller wrote: the kind's own
 * override (GitUpdating, WaitCheckIn), else status.display.state, else the Ready condition ("" with Ready True is
 * Ready; "" with Ready False is an error the controller set directly, e.g. a Bundle that failed to render).
 */
function parentVerdict(
	object: unknown,
	kind: string,
	observed: boolean,
	conditions: readonly Condition[],
): SystemVerdict {
	const fresh = ownEntry(freshStates, kind);
	if (!observed && fresh) {
		return verdict(fresh.state, toneOfState(fresh.state), fresh.message, [fresh.message], false);
	}

	const ready = findCondition(conditions, 'Ready');
	const readyFalseMessage = ready?.status === 'False' ? (ready.message ?? '') : '';
	const displayState = getString(object, 'status', 'display', 'state') ?? '';
	const reasons: string[] = [];
	let state: string;
	let tone: Tone;
	let stateMessage = '';
	const gitJobStatus = getString(object, 'status', 'gitJobStatus');
	// status_controller.go forces GitUpdating whenever the clone job is not Current. A release that writes no
	// gitJobStatus does not, so without the field the state stays what that controller wrote.
	if (kind === 'GitRepo' && gitJobStatus !== undefined && gitJobStatus !== 'Current') {
		state = 'GitUpdating';
		stateMessage =
			gitJobStatus === ''
				? 'The repository has not been cloned yet'
				: `The git job is ${gitJobStatus}`;
		reasons.push(`${stateMessage}.`);
	} else if (kind === 'Cluster' && isAgentLastSeenZero(object)) {
		// cluster_controller.go overrides display.state with WaitCheckIn while status.agent.lastSeen is zero.
		state = 'WaitCheckIn';
		stateMessage = 'Waiting for the Fleet agent to check in';
		reasons.push('The Fleet agent has not checked in yet (status.agent.lastSeen is empty).');
	} else if (displayState !== '') {
		state = displayState;
	} else if (ready?.status === 'True') {
		state = 'Ready';
	} else if (ready?.status === 'False') {
		state = 'NotReady';
	} else {
		state = 'Pending';
		stateMessage = 'The Fleet controller has not written a Ready condition yet';
		reasons.push(`${stateMessage}.`);
	}
	tone = toneOfState(state);
	if (displayState === '' && state === 'NotReady') tone = 'error';
	if (!isFleetState(state) && tone === 'unknown') {
		reasons.push(`Fleet reports the state "${state}", which this engine does not know.`);
	}

	reasons.push(...countReasons(object, kind));
	// The Policy's own name is not in the error (a namespace's Policies are aggregated); Explain names the ones that
	// set the rule.
	if (kind === 'GitRepo') {
		const messages = conditions.map((condition) => condition.message ?? '');
		const displayed = getString(object, 'status', 'display', 'message');
		const advice = helmCredentialsAdvice(object, displayed ? [...messages, displayed] : messages);
		if (advice) reasons.push(advice);
	}
	const rejection = rejectionOfObject(object);
	if (rejection) {
		reasons.push(
			policyRejectionSentence(rejection, getString(object, 'metadata', 'namespace') ?? ''),
		);
	}
	if (readyFalseMessage) reasons.push(`Ready is False: ${readyFalseMessage}`);
	const displayMessage = getString(object, 'status', 'display', 'message') ?? '';
	if (displayMessage && displayMessage !== readyFalseMessage) {
		reasons.push(`Deployment message: ${displayMessage}`);
	}

	let overrideMessage = '';
	let progressMessage = '';
	const overrideReasons: string[] = [];
	for (const rule of ownEntry(conditionRules, kind) ?? []) {
		const condition = findCondition(conditions, rule.type);
		if (condition?.status !== rule.status) continue;
		tone = worseTone(tone, rule.tone);
		overrideReasons.push(conditionSentence(condition));
		const text = condition.message || `${condition.type} is ${condition.status}`;
		if (rule.tone === 'error' && overrideMessage === '') overrideMessage = text;
		if (rule.tone !== 'error' && progressMessage === '') progressMessage = text;
	}
	// Condition overrides explain the badge colour, so they lead when they turned it to error.
	const allReasons = overrideMessage
		? [...overrideReasons, ...reasons]
		: [...reasons, ...overrideReasons];
	const message =
		overrideMessage ||
		readyFalseMessage ||
		displayMessage ||
		stateMessage ||
		progressMessage ||
		(state === 'Ready' ? readyLine(object, kind) : (allReasons[0] ?? state));
	return verdict(state, tone, message, allReasons, observed);
}

/**
 * A Policy keeps no status: it is in force once it exists (the controllers read it on every reconcile). The row says
 * what it enforces.
 */
function policyVerdict(object: unknown): SystemVerdict {
	const rules = policyRulesOf(object);
	const message =
		rules.length > 0 ? `Enforces: ${rules.join('; ')}` : 'Enforces nothing: every field is empty';
	return verdict(
		'Active',
		'ok',
		message,
		[
			'A Fleet Policy has no status: it applies to the GitRepos, HelmOps and Bundles of its namespace from the moment it exists, together with the other Policies there (their allow-lists are joined).',
			...rules.map((rule) => `Rule: ${rule}.`),
		],
		// Nothing will ever be written: the object itself is all there is to observe.
		true,
	);
}

/** Fleet kinds without bundle roll-ups (Content, GitRepoRestriction, ImageScan, ...): read Ready/Stalled/Reconciling. */
function otherKindVerdict(
	kind: string,
	observed: boolean,
	conditions: readonly Condition[],
): SystemVerdict {
	const stalled = findCondition(conditions, 'Stalled');
	if (stalled?.status === 'True') {
		return verdict(
			'NotReady',
			'error',
			stalled.message || 'Stalled',
			[conditionSentence(stalled)],
			observed,
		);
	}
	const ready = findCondition(conditions, 'Ready');
	if (ready?.status === 'False') {
		const tone: Tone = ready.reason === 'Error' ? 'error' : 'progressing';
		return verdict(
			'NotReady',
			tone,
			ready.message || 'Ready is False',
			[conditionSentence(ready)],
			observed,
		);
	}
	if (ready?.status === 'Unknown' || findCondition(conditions, 'Reconciling')?.status === 'True') {
		return verdict(
			'Pending',
			'progressing',
			ready?.message || 'Reconciling',
			ready ? [conditionSentence(ready)] : [],
			observed,
		);
	}
	const message = ready
		? ready.message || 'Ready'
		: `${kind} has no Ready condition; nothing to wait for`;
	return verdict('Ready', 'ok', message, [], observed);
}

/**
 * The status of one Fleet object from what its controller wrote: Fleet's own state word, a badge tone, a one-line
 * message and reasons. A BundleDeployment is judged by GetDeploymentState; parents by status.display.state and
 * their conditions. Never throws: wrong types give state "Unknown" with tone "unknown".
 */
export function computeFleetStatus(
	object: unknown,
	conditionList: ConditionList = readConditions(object),
	/** The object as readBundleDeployment reads it, when the caller has read it already. */
	bundleDeploymentView?: BundleDeploymentView,
): SystemVerdict {
	if (!isRecord(object)) {
		return unknownVerdict('Not a Kubernetes object: expected a mapping', [], false);
	}
	const kind = typeof object.kind === 'string' ? object.kind : '';
	const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
	const status = object.status;
	const observed = status !== undefined && status !== null;
	if (kind === '') return unknownVerdict('Not a Kubernetes object: kind is missing', [], observed);
	if (groupOf(apiVersion) !== fleetGroup) {
		return unknownVerdict(
			`${kind} is not a ${fleetGroup} object (apiVersion "${apiVersion}")`,
			[],
			observed,
		);
	}
	const problems = fleetInputProblemsOf(object, kind, conditionList);
	if (problems.length > 0) {
		return unknownVerdict(`Cannot read this ${kind}: ${problems.join('; ')}`, problems, observed);
	}
	switch (kind) {
		case 'BundleDeployment':
			return bundleDeploymentVerdict(object, observed, bundleDeploymentView);
		case 'Bundle':
		case 'GitRepo':
		case 'HelmOp':
		case 'Cluster':
		case 'ClusterGroup':
			return parentVerdict(object, kind, observed, conditionList.conditions);
		case 'Policy':
			return policyVerdict(object);
		default:
			return otherKindVerdict(kind, observed, conditionList.conditions);
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Roll-ups

/** What the BundleDeployment reconciler writes: its state, and status.display. */
export interface BundleDeploymentComputed {
	readonly kind: 'BundleDeployment';
	readonly state: FleetState;
	readonly display: BundleDeploymentDisplay;
}

/** What a Fleet controller would write for one object, in Fleet's JSON field names; `kind` tells which shape. */
export type FleetComputed =
	| BundleDeploymentComputed
	| BundleComputed
	| GitRepoComputed
	| HelmOpComputed
	| ClusterComputed
	| ClusterGroupComputed;

/** An index by (namespace, name) that reuses the label strings as keys instead of building "ns/name" per entry. */
class PairIndex<T> {
	private readonly outer = new Map<string, Map<string, T[]>>();

	add(namespace: string, name: string, value: T): void {
		let inner = this.outer.get(namespace);
		if (!inner) {
			inner = new Map();
			this.outer.set(namespace, inner);
		}
		const list = inner.get(name);
		if (list) list.push(value);
		else inner.set(name, [value]);
	}

	get(namespace: string, name: string): T[] {
		return this.outer.get(namespace)?.get(name) ?? [];
	}
}

function metaOf(object: unknown): { namespace: string; name: string } {
	return {
		namespace: getString(object, 'metadata', 'namespace') ?? '',
		name: getString(object, 'metadata', 'name') ?? '',
	};
}

function labelOf(object: unknown, label: string): string {
	return getString(object, 'metadata', 'labels', label) ?? '';
}

/**
 * BundleDeployment roll-ups, shared and frozen per (state, deployed, monitored): most of 100k BDs read the same, and
 * retaining one object each made garbage collection the largest cost of a roll-up.
 */
function bdComputedInterner(): (display: BundleDeploymentDisplay) => BundleDeploymentComputed {
	const byState = new Map<string, Map<string, Map<string, BundleDeploymentComputed>>>();
	return (display) => {
		let byDeployed = byState.get(display.state);
		if (!byDeployed) {
			byDeployed = new Map();
			byState.set(display.state, byDeployed);
		}
		const deployed = display.deployed ?? '';
		let byMonitored = byDeployed.get(deployed);
		if (!byMonitored) {
			byMonitored = new Map();
			byDeployed.set(deployed, byMonitored);
		}
		const monitored = display.monitored ?? '';
		let computed = byMonitored.get(monitored);
		if (!computed) {
			computed = Object.freeze({
				kind: 'BundleDeployment',
				state: display.state,
				display: Object.freeze(display),
			});
			byMonitored.set(monitored, computed);
		}
		return computed;
	};
}

/**
 * What computeFleetRollups gives a BundleDeployment (its roll-up reads nothing else), with the view it is computed
 * from; the roll-ups are shared over the calls of one reader, as within one computeFleetRollups.
 */
export function bundleDeploymentRollupReader(): (object: unknown) => {
	readonly view: BundleDeploymentView;
	readonly computed: BundleDeploymentComputed;
} {
	const internBdComputed = bdComputedInterner();
	return (object) => {
		const view = readBundleDeployment(object);
		return { view, computed: internBdComputed(bdDisplayOf(view)) };
	};
}

/**
 * For each Fleet object of the input, what its controller would write, computed from the OTHER objects: BDs link to
 * GitRepos by fleet.cattle.io/repo-name, to HelmOps by fleet.cattle.io/fleet-helm-name (both with
 * fleet.cattle.io/bundle-namespace), to Bundles by bundle-name + bundle-namespace, to Clusters by cluster +
 * cluster-namespace (or, lacking those labels, by living in the Cluster's status.namespace). A ClusterGroup reads
 * each selected Cluster's roll-up when the input holds BDs for it, else the status the Cluster carries. `kind: List`
 * items are included. Each index is built once, so cost grows linearly with the input (plus Fleet's own sorts).
 */
export function computeFleetRollups(
	objects: readonly unknown[],
	/** Where each BundleDeployment's view (readBundleDeployment) goes, for the caller to reuse. */
	bundleDeploymentViews?: Map<unknown, BundleDeploymentView>,
): Map<unknown, FleetComputed> {
	const input = new FleetRollupInput();
	for (const object of objects) input.add(object, bundleDeploymentViews);
	return fleetRollupsOf(input, true);
}

/**
 * The Fleet objects computeFleetRollups reads, gathered one at a time. A reader that lets each BundleDeployment go
 * once its record is written keeps only its view (addBundleDeploymentView, with no object), which is what the
 * parents' roll-ups read of it.
 */
export class FleetRollupInput {
	readonly bds: BundleDeploymentView[] = [];
	readonly bundles: Record<string, unknown>[] = [];
	readonly gitRepos: Record<string, unknown>[] = [];
	readonly helmOps: Record<string, unknown>[] = [];
	readonly clusters: Record<string, unknown>[] = [];
	readonly groups: Record<string, unknown>[] = [];

	/** Adds a Fleet object (a `kind: List`'s items); anything else is passed over. */
	add(object: unknown, bundleDeploymentViews?: Map<unknown, BundleDeploymentView>): void {
		if (!isRecord(object)) return;
		if (object.kind === 'List' && Array.isArray(object.items)) {
			for (const item of object.items) this.add(item, bundleDeploymentViews);
			return;
		}
		if (typeof object.apiVersion !== 'string' || groupOf(object.apiVersion) !== fleetGroup) return;
		switch (object.kind) {
			case 'BundleDeployment': {
				const view = readBundleDeployment(object);
				bundleDeploymentViews?.set(object, view);
				this.bds.push(view);
				break;
			}
			case 'Bundle':
				this.bundles.push(object);
				break;
			case 'GitRepo':
				this.gitRepos.push(object);
				break;
			case 'HelmOp':
				this.helmOps.push(object);
				break;
			case 'Cluster':
				this.clusters.push(object);
				break;
			case 'ClusterGroup':
				this.groups.push(object);
				break;
		}
	}

	addBundleDeploymentView(view: BundleDeploymentView): void {
		this.bds.push(view);
	}

	/** Puts views where the BundleDeployments came in the input: the order of a roll-up's lists follows it. */
	insertBundleDeploymentViews(at: number, views: readonly BundleDeploymentView[]): void {
		const after = this.bds.splice(at);
		for (const view of views) this.bds.push(view);
		for (const view of after) this.bds.push(view);
	}

	/** A mark to go back to: what was added after it is forgotten. */
	mark(): () => void {
		const lists = [this.bds, this.bundles, this.gitRepos, this.helmOps, this.clusters, this.groups];
		const lengths = lists.map((list) => list.length);
		return () => {
			lists.forEach((list, index) => {
				list.length = lengths[index] ?? 0;
			});
		};
	}
}

/**
 * The roll-ups of computeFleetRollups over what the input gathered; the BundleDeployments' own (keyed by their
 * views' objects) only when `bundleDeployments`.
 */
export function fleetRollupsOf(
	input: FleetRollupInput,
	bundleDeployments: boolean,
): Map<unknown, FleetComputed> {
	const result = new Map<unknown, FleetComputed>();
	const { bds, bundles, gitRepos, helmOps, clusters, groups } = input;

	// Build only the indexes some parent in the input will read.
	const byRepo = new PairIndex<BundleDeploymentView>();
	const byHelmOp = new PairIndex<BundleDeploymentView>();
	const byBundle = new PairIndex<BundleDeploymentView>();
	const byCluster = new PairIndex<BundleDeploymentView>();
	const bdsByNamespace = new Map<string, BundleDeploymentView[]>();
	const wantRepo = gitRepos.length > 0;
	const wantHelmOp = helmOps.length > 0;
	const wantBundle = bundles.length > 0;
	const wantCluster = clusters.length > 0;
	const internBdComputed = bdComputedInterner();
	for (const bd of bds) {
		if (bundleDeployments) result.set(bd.object, internBdComputed(bdDisplayOf(bd)));
		const links = bd.links;
		if (wantRepo && links.repoName) byRepo.add(links.bundleNamespace, links.repoName, bd);
		if (wantHelmOp && links.helmOpName) byHelmOp.add(links.bundleNamespace, links.helmOpName, bd);
		if (wantBundle && links.bundleName) byBundle.add(links.bundleNamespace, links.bundleName, bd);
		if (!wantCluster) continue;
		if (links.cluster && links.clusterNamespace) {
			byCluster.add(links.clusterNamespace, links.cluster, bd);
		}
		const list = bdsByNamespace.get(bd.namespace);
		if (list) list.push(bd);
		else bdsByNamespace.set(bd.namespace, [bd]);
	}

	const bundlesByRepo = new PairIndex<unknown>();
	for (const bundle of bundles) {
		const { namespace, name } = metaOf(bundle);
		result.set(bundle, bundleStatusOf(bundle, byBundle.get(namespace, name)));
		const repo = labelOf(bundle, fleetLabels.repoName);
		if (repo) bundlesByRepo.add(namespace, repo, bundle);
	}
	for (const gitRepo of gitRepos) {
		if (fleetStatusFrozen('GitRepo', gitRepo)) continue;
		const { namespace, name } = metaOf(gitRepo);
		const repoBds = byRepo.get(namespace, name);
		const repoBundles = bundlesByRepo.get(namespace, name);
		// BDs imply Bundles; if none of them is in the input, a failing Bundle's Ready could be missing too.
		result.set(
			gitRepo,
			gitRepoStatusOf(
				gitRepo,
				repoBds,
				repoBundles,
				repoBundles.length > 0 || repoBds.length === 0,
			),
		);
	}
	for (const helmOp of helmOps) {
		if (fleetStatusFrozen('HelmOp', helmOp)) continue;
		const { namespace, name } = metaOf(helmOp);
		result.set(helmOp, helmOpStatusOf(helmOp, byHelmOp.get(namespace, name)));
	}

	const existing = {
		gitRepos: new Set(gitRepos.map((repo) => `${metaOf(repo).namespace}/${metaOf(repo).name}`)),
		helmOps: new Set(helmOps.map((op) => `${metaOf(op).namespace}/${metaOf(op).name}`)),
	};
	const computedClusters = new Map<unknown, SummaryParts>();
	const clustersByNamespace = new Map<string, unknown[]>();
	const pushTo = (index: Map<string, unknown[]>, key: string, value: unknown) => {
		const list = index.get(key);
		if (list) list.push(value);
		else index.set(key, [value]);
	};
	for (const cluster of clusters) {
		const { namespace, name } = metaOf(cluster);
		pushTo(clustersByNamespace, namespace, cluster);
		if (fleetStatusFrozen('Cluster', cluster)) continue;
		// Fleet's cluster controller lists every BundleDeployment in the cluster's status.namespace, whatever their
		// labels say. Before the cluster registered (no status.namespace) Fleet writes nothing; the labels are then
		// the best guess at what it will count.
		const statusNamespace = getString(cluster, 'status', 'namespace') ?? '';
		const clusterBds = statusNamespace
			? (bdsByNamespace.get(statusNamespace) ?? [])
			: byCluster.get(namespace, name);
		const computed = clusterStatusOf(cluster, clusterBds, existing);
		result.set(cluster, computed);
		if (clusterBds.length > 0) {
			computedClusters.set(cluster, {
				summary: readBundleSummary(computed.summary),
				resourceCounts: computed.resourceCounts,
			});
		}
	}
	for (const group of groups) {
		const members = clustersByNamespace.get(metaOf(group).namespace) ?? [];
		result.set(
			group,
			clusterGroupStatusOf(
				group,
				members,
				(cluster) => computedClusters.get(cluster) ?? writtenClusterSummary(cluster),
			),
		);
	}
	return result;
}
