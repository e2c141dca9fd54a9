// kstatus `status.Compute` and `status.Augment` (kubernetes-sigs/cli-utils pkg/kstatus/status: status.go, generic.go, core.go, util.go).
// Compute errors become status 'Unknown' with the error as the message, so callers never see an exception.
import { readConditionArray, type Condition } from '../model/condition.ts';
import { int64Field } from '../model/int64.ts';
import { getBool, getInt, getPath, getString, isRecord } from '../model/object.ts';
import type { KstatusResult, KstatusStatus } from './result.ts';
import { goKindOf, goTypeOf, goValueText, stringConversionWords } from './goValues.ts';
import { decodeGoConditions, type GoCondition } from './goConditions.ts';
import { KindTable } from './kindTable.ts';
import { errorText } from '../text/errorText.ts';

/** Inputs kstatus cannot read from the object itself. */
export interface KstatusOptions {
	/** The caller's clock in ms since epoch; only the Pod 15 s unschedulable window and Augment's timestamps use it. */
	readonly now?: number;
}

/** A condition as kstatus decodes it (util.go BasicCondition): every field a string, "" when absent. */
type BasicCondition = GoCondition;

/** What a rule decides; `reason` is set exactly when kstatus adds a Reconciling or Stalled condition. */
interface Verdict {
	readonly status: KstatusStatus;
	readonly message: string;
	readonly reason?: string;
	/** The synthetic condition's message when it differs from `message` (Deployment progress deadline). */
	readonly conditionMessage?: string;
}

type KindRule = (
	object: Record<string, unknown>,
	conditions: readonly BasicCondition[],
	now: number | undefined,
) => Verdict;

/** An error `status.Compute` would return; caught at the boundary and reported as Unknown. */
class ComputeError extends Error {}

// kstatus core.go ScheduleWindow: how long a Pod may stay unscheduled before it counts as Failed.
const scheduleWindowMs = 15_000;
// Go's time.RFC3339 layout as metav1.Time parses it; anything else decodes to the zero time.
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const maxInt32 = 2_147_483_647;
// The largest time a JavaScript Date can hold; anything beyond (or NaN) gets no timestamp.
const maxDateMs = 8.64e15;

function current(message: string): Verdict {
	return { status: 'Current', message };
}

// kstatus util.go newInProgressStatus: InProgress plus Reconciling=True(reason, message).
function inProgress(reason: string, message: string): Verdict {
	return { status: 'InProgress', message, reason };
}

// kstatus util.go newFailedStatus: Failed plus Stalled=True(reason, message).
function failed(reason: string, message: string): Verdict {
	return { status: 'Failed', message, reason };
}

function accessorError(
	fields: readonly string[],
	depth: number,
	value: unknown,
	expected: string,
): ComputeError {
	const path = '.' + fields.slice(0, depth).join('.');
	return new ComputeError(
		`${path} accessor error: ${goValueText(value)} is of the type ${goTypeOf(value)}, expected ${expected}`,
	);
}

const missing: unique symbol = Symbol('missing');

// apimachinery NestedFieldNoCopy: a nil step means "not found", a non-map step is an error.
function nestedField(root: Record<string, unknown>, fields: readonly string[]): unknown {
	let value: unknown = root;
	for (let i = 0; i < fields.length; i++) {
		if (value === null || value === undefined) return missing;
		if (!isRecord(value)) throw accessorError(fields, i + 1, value, 'map[string]interface{}');
		value = value[fields[i] as string];
		if (value === undefined) return missing;
	}
	return value;
}

// apimachinery NestedInt64: present but not an integer (null included) is an error. Exact beyond 2^53, as in Go.
// A safe integer is returned as it is: only numbers beyond 2^53 can carry a noted exact value.
function nestedInt64(
	root: Record<string, unknown>,
	fields: readonly [string, string],
	what: string,
): number | bigint | undefined {
	const value = nestedField(root, fields);
	if (value === missing) return undefined;
	if (Number.isSafeInteger(value)) return value as number;
	if (typeof value === 'number' && Number.isInteger(value)) {
		// nestedField found the value, so the first step is a mapping.
		return int64Field(root[fields[0]], fields[1]);
	}
	const error = accessorError(fields, fields.length, value, 'int64');
	throw new ComputeError(`looking up ${what} from resource: ${error.message}`);
}

function sameInteger(a: number | bigint, b: number | bigint): boolean {
	return typeof a === 'number' && typeof b === 'number' ? a === b : BigInt(a) === BigInt(b);
}

const deletionTimestampPath = ['metadata', 'deletionTimestamp'] as const;
const generationPath = ['metadata', 'generation'] as const;
const observedGenerationPath = ['status', 'observedGeneration'] as const;

// The condition fields of util.go BasicCondition with their Go types, decoded the way FromUnstructured would.
const conditionFields = [
	['type', 'string'],
	['status', 'v1.ConditionStatus'],
	['reason', 'string'],
	['message', 'string'],
] as const;

// The converter's own words, which name no field; the field follows in brackets so a reader can find it.
function conversionError(words: string, path: string): ComputeError {
	return new ComputeError(`${words} (at ${path})`);
}

function stringFieldError(value: unknown, goType: string, path: string): ComputeError {
	return conversionError(stringConversionWords(value, goType), path);
}

// kstatus util.go GetObjectWithConditions: FromUnstructured into {status: {conditions: []BasicCondition}}.
function readBasicConditions(object: Record<string, unknown>): readonly BasicCondition[] {
	const decoded = decodeGoConditions(object);
	if (decoded !== undefined) return decoded;
	// Some value does not decode: find the first one, in the order the converter meets them.
	const status = object.status;
	if (!isRecord(status)) {
		throw conversionError(`cannot restore struct from: ${goKindOf(status)}`, 'status');
	}
	const list = status.conditions;
	if (!Array.isArray(list)) {
		throw conversionError(`cannot restore slice from ${goKindOf(list)}`, 'status.conditions');
	}
	(list as readonly unknown[]).forEach((entry, index) => {
		if (entry === null || entry === undefined) return;
		if (!isRecord(entry)) {
			throw conversionError(
				`cannot restore struct from: ${goKindOf(entry)}`,
				`status.conditions[${index}]`,
			);
		}
		for (const [field, goType] of conditionFields) {
			const value = entry[field];
			if (value !== undefined && value !== null && typeof value !== 'string') {
				throw stringFieldError(value, goType, `status.conditions[${index}].${field}`);
			}
		}
	});
	throw new ComputeError('status.conditions do not decode');
}

function hasConditionWithStatus(
	conditions: readonly BasicCondition[],
	type: string,
	status: string,
): boolean {
	return conditionWithStatus(conditions, type, status) !== undefined;
}

function conditionWithStatus(
	conditions: readonly BasicCondition[],
	type: string,
	status: string,
): BasicCondition | undefined {
	for (const condition of conditions) {
		if (condition.type === type && condition.status === status) return condition;
	}
	return undefined;
}

function kindOf(object: Record<string, unknown>): string {
	return typeof object.kind === 'string' ? object.kind : '';
}

// apimachinery ParseGroupVersion: more than one slash is an error, which Unstructured turns into an empty GVK.
function groupOfApiVersion(apiVersion: unknown): string | undefined {
	if (typeof apiVersion !== 'string') return '';
	const slash = apiVersion.indexOf('/');
	if (slash < 0) return '';
	if (apiVersion.indexOf('/', slash + 1) >= 0) return undefined;
	return apiVersion.slice(0, slash);
}

// Unstructured.GetCreationTimestamp: an unparseable or absent timestamp is the zero time (long ago).
function creationTimeOf(object: Record<string, unknown>): number | undefined {
	const text = getString(object, 'metadata', 'creationTimestamp');
	if (text === undefined || !rfc3339.test(text)) return undefined;
	const ms = Date.parse(text);
	return Number.isNaN(ms) ? undefined : ms;
}

function recordIn(
	record: Record<string, unknown>,
	key: string,
): Record<string, unknown> | undefined {
	const value = record[key];
	return isRecord(value) ? value : undefined;
}

/** getInt of one field of a record that may be absent. */
function intIn(record: Record<string, unknown> | undefined, key: string): number | undefined {
	const value = record?.[key];
	return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

// kstatus core.go alwaysReady (Secret, ConfigMap, batch/CronJob).
const alwaysReady: KindRule = () => current('Resource is always ready');

// kstatus core.go serviceConditions: checks spec.clusterIP, not status.loadBalancer.
const serviceRule: KindRule = (object) => {
	const type = getString(object, 'spec', 'type') ?? 'ClusterIP';
	const clusterIP = getString(object, 'spec', 'clusterIP') ?? '';
	if (type === 'LoadBalancer' && clusterIP === '') {
		return inProgress('NoIPAssigned', 'ClusterIP not set. Service type: LoadBalancer');
	}
	return current('Service is ready');
};

// kstatus core.go pvcConditions.
const pvcRule: KindRule = (object) => {
	const phase = getString(object, 'status', 'phase') ?? 'unknown';
	if (phase !== 'Bound') return inProgress('NotBound', `PVC is not Bound. phase: ${phase}`);
	return current('PVC is Bound');
};

// kstatus core.go getCrashLoopingContainers; its unchecked type assertions would panic, reported here as errors.
function crashLoopingContainers(object: Record<string, unknown>): string[] {
	const names: string[] = [];
	const statuses = nestedField(object, ['status', 'containerStatuses']);
	if (statuses === missing) return names;
	if (!Array.isArray(statuses)) {
		throw accessorError(['status', 'containerStatuses'], 2, statuses, '[]interface{}');
	}
	for (const item of statuses as readonly unknown[]) {
		if (!isRecord(item)) throw new ComputeError('status.containerStatuses[] is not a mapping');
		if (!Object.hasOwn(item, 'name')) continue;
		const name = item.name;
		if (typeof name !== 'string') {
			throw new ComputeError('status.containerStatuses[].name is not a string');
		}
		if (!Object.hasOwn(item, 'state')) continue;
		const state = item.state;
		if (!isRecord(state)) {
			throw new ComputeError('status.containerStatuses[].state is not a mapping');
		}
		if (!Object.hasOwn(state, 'waiting')) continue;
		const waiting = state.waiting;
		if (!isRecord(waiting)) {
			throw new ComputeError('status.containerStatuses[].state.waiting is not a mapping');
		}
		if (!Object.hasOwn(waiting, 'reason')) continue;
		const reason = waiting.reason;
		if (typeof reason !== 'string') {
			throw new ComputeError('status.containerStatuses[].state.waiting.reason is not a string');
		}
		if (reason === 'CrashLoopBackOff') names.push(name);
	}
	return names;
}

// kstatus core.go podConditions.
const podRule: KindRule = (object, conditions, now) => {
	const phase = getString(object, 'status', 'phase') ?? '';
	switch (phase) {
		case 'Succeeded':
			return current('Pod has completed successfully');
		case 'Failed':
			return current('Pod has completed, but not successfully');
		case 'Running': {
			if (hasConditionWithStatus(conditions, 'Ready', 'True')) return current('Pod is Ready');
			const names = crashLoopingContainers(object);
			if (names.length > 0) {
				return failed('ContainerCrashLooping', `Containers in CrashLoop state: ${names.join(',')}`);
			}
			return inProgress('PodRunningNotReady', 'Pod is running but is not Ready');
		}
		case 'Pending': {
			const scheduled = conditionWithStatus(conditions, 'PodScheduled', 'False');
			if (scheduled?.reason === 'Unschedulable') {
				// The scheduler gets a grace window before an unschedulable Pod counts as Failed.
				const created = creationTimeOf(object);
				if (now !== undefined && created !== undefined && now - scheduleWindowMs < created) {
					return inProgress('PodNotScheduled', 'Pod has not been scheduled');
				}
				return failed('PodUnschedulable', 'Pod could not be scheduled');
			}
			return inProgress('PodPending', 'Pod is in the Pending phase');
		}
		case '':
			return inProgress('PodNotObserved', 'Pod phase not available');
		default:
			throw new ComputeError(`unknown phase ${phase}`);
	}
};

// kstatus core.go stsConditions (apps/StatefulSet only; extensions/StatefulSet is not registered).
const statefulSetRule: KindRule = (object) => {
	if (getString(object, 'spec', 'updateStrategy', 'type') === 'OnDelete') {
		return current('StatefulSet is using the ondelete update strategy');
	}
	const specReplicas = getInt(object, 'spec', 'replicas') ?? 1;
	const readyReplicas = getInt(object, 'status', 'readyReplicas') ?? 0;
	const currentReplicas = getInt(object, 'status', 'currentReplicas') ?? 0;
	const updatedReplicas = getInt(object, 'status', 'updatedReplicas') ?? 0;
	const statusReplicas = getInt(object, 'status', 'replicas') ?? 0;
	const partition = getInt(object, 'spec', 'updateStrategy', 'rollingUpdate', 'partition') ?? -1;
	if (specReplicas > statusReplicas) {
		return inProgress('LessReplicas', `Replicas: ${statusReplicas}/${specReplicas}`);
	}
	if (specReplicas > readyReplicas) {
		return inProgress('LessReady', `Ready: ${readyReplicas}/${specReplicas}`);
	}
	if (statusReplicas > specReplicas) {
		return inProgress('ExtraPods', `Pending termination: ${statusReplicas - specReplicas}`);
	}
	if (partition !== -1) {
		if (updatedReplicas < specReplicas - partition) {
			return inProgress(
				'PartitionRollout',
				`updated: ${updatedReplicas}/${specReplicas - partition}`,
			);
		}
		return current(`Partition rollout complete. updated: ${updatedReplicas}`);
	}
	if (specReplicas > currentReplicas) {
		return inProgress('LessCurrent', `current: ${currentReplicas}/${specReplicas}`);
	}
	const currentRevision = getString(object, 'status', 'currentRevision') ?? '';
	const updateRevision = getString(object, 'status', 'updateRevision') ?? '';
	if (currentRevision !== updateRevision) {
		return inProgress('RevisionMismatch', 'Waiting for updated revision to match current');
	}
	return current(`All replicas scheduled as expected. Replicas: ${statusReplicas}`);
};

// kstatus core.go deploymentConditions.
const deploymentRule: KindRule = (object, conditions) => {
	const spec = recordIn(object, 'spec');
	const status = recordIn(object, 'status');
	// Without a deadline the controller never sets Progressing, so the rollout counts as progressing.
	let progressing = (intIn(spec, 'progressDeadlineSeconds') ?? maxInt32) === maxInt32;
	let available = false;
	for (const condition of conditions) {
		if (condition.type === 'Progressing') {
			if (condition.reason === 'ProgressDeadlineExceeded') {
				return {
					status: 'Failed',
					message: 'Progress deadline exceeded',
					reason: condition.reason,
					conditionMessage: condition.message,
				};
			}
			if (condition.status === 'True' && condition.reason === 'NewReplicaSetAvailable') {
				progressing = true;
			}
		} else if (condition.type === 'Available' && condition.status === 'True') {
			available = true;
		}
	}
	const specReplicas = intIn(spec, 'replicas') ?? 1;
	const statusReplicas = intIn(status, 'replicas') ?? 0;
	const updatedReplicas = intIn(status, 'updatedReplicas') ?? 0;
	const readyReplicas = intIn(status, 'readyReplicas') ?? 0;
	const availableReplicas = intIn(status, 'availableReplicas') ?? 0;
	if (specReplicas > statusReplicas) {
		return inProgress('LessReplicas', `Replicas: ${statusReplicas}/${specReplicas}`);
	}
	if (specReplicas > updatedReplicas) {
		return inProgress('LessUpdated', `Updated: ${updatedReplicas}/${specReplicas}`);
	}
	if (statusReplicas > specReplicas) {
		return inProgress('ExtraPods', `Pending termination: ${statusReplicas - specReplicas}`);
	}
	if (updatedReplicas > availableReplicas) {
		return inProgress('LessAvailable', `Available: ${availableReplicas}/${updatedReplicas}`);
	}
	if (specReplicas > readyReplicas) {
		return inProgress('LessReady', `Ready: ${readyReplicas}/${specReplicas}`);
	}
	if (!progressing) return inProgress('ReplicaSetNotAvailable', 'ReplicaSet not Available');
	if (!available) return inProgress('DeploymentNotAvailable', 'Deployment not Available');
	return current(`Deployment is available. Replicas: ${statusReplicas}`);
};

// kstatus core.go replicasetConditions: ReplicaFailure is InProgress, never Failed.
const replicaSetRule: KindRule = (object, conditions) => {
	if (hasConditionWithStatus(conditions, 'ReplicaFailure', 'True')) {
		return inProgress('ReplicaFailure', 'Replica Failure condition. Check Pods');
	}
	const specReplicas = getInt(object, 'spec', 'replicas') ?? 1;
	const statusReplicas = getInt(object, 'status', 'replicas') ?? 0;
	const readyReplicas = getInt(object, 'status', 'readyReplicas') ?? 0;
	const availableReplicas = getInt(object, 'status', 'availableReplicas') ?? 0;
	const labelledReplicas = getInt(object, 'status', 'fullyLabeledReplicas') ?? 0;
	if (specReplicas > labelledReplicas) {
		return inProgress('LessLabelled', `Labelled: ${labelledReplicas}/${specReplicas}`);
	}
	if (specReplicas > availableReplicas) {
		return inProgress('LessAvailable', `Available: ${availableReplicas}/${specReplicas}`);
	}
	if (specReplicas > readyReplicas) {
		return inProgress('LessReady', `Ready: ${readyReplicas}/${specReplicas}`);
	}
	if (statusReplicas > specReplicas) {
		return inProgress('ExtraPods', `Pending termination: ${statusReplicas - specReplicas}`);
	}
	return current(`ReplicaSet is available. Replicas: ${statusReplicas}`);
};

// kstatus core.go daemonsetConditions, starting with checkGenerationSet (both generations must exist).
const daemonSetRule: KindRule = (object) => {
	const kind = kindOf(object);
	if (nestedInt64(object, generationPath, 'metadata.generation') === undefined) {
		return inProgress('NoGeneration', `${kind} metadata.generation not found`);
	}
	if (nestedInt64(object, observedGenerationPath, 'status.observedGeneration') === undefined) {
		return inProgress('NoObservedGeneration', `${kind} status.observedGeneration not found`);
	}
	const desired = getInt(object, 'status', 'desiredNumberScheduled') ?? -1;
	const currentNumber = getInt(object, 'status', 'currentNumberScheduled') ?? 0;
	const updated = getInt(object, 'status', 'updatedNumberScheduled') ?? 0;
	const availableNumber = getInt(object, 'status', 'numberAvailable') ?? 0;
	const ready = getInt(object, 'status', 'numberReady') ?? 0;
	if (desired === -1) {
		return inProgress('NoDesiredNumber', 'Missing .status.desiredNumberScheduled');
	}
	if (desired > currentNumber) {
		return inProgress('LessCurrent', `Current: ${currentNumber}/${desired}`);
	}
	if (desired > updated) return inProgress('LessUpdated', `Updated: ${updated}/${desired}`);
	if (desired > availableNumber) {
		return inProgress('LessAvailable', `Available: ${availableNumber}/${desired}`);
	}
	if (desired > ready) return inProgress('LessReady', `Ready: ${ready}/${desired}`);
	return current(`All replicas scheduled as expected. Replicas: ${desired}`);
};

// kstatus core.go pdbConditions: the generic generation check already proved the controller saw the spec.
const pdbRule: KindRule = () => current('AllowedDisruptions has been computed.');

// kstatus core.go jobConditions: a running Job is Current; the Suspended rule is missing in the fluxcd fork.
const jobRule: KindRule = (object, conditions) => {
	const parallelism = getInt(object, 'spec', 'parallelism') ?? 1;
	const completions = getInt(object, 'spec', 'completions') ?? parallelism;
	const succeeded = getInt(object, 'status', 'succeeded') ?? 0;
	const active = getInt(object, 'status', 'active') ?? 0;
	const failedCount = getInt(object, 'status', 'failed') ?? 0;
	const startTime = getString(object, 'status', 'startTime') ?? '';
	const suspend = getBool(object, 'spec', 'suspend') ?? false;
	for (const condition of conditions) {
		if (condition.status !== 'True') continue;
		if (condition.type === 'Complete') {
			return current(`Job Completed. succeeded: ${succeeded}/${completions}`);
		}
		if (condition.type === 'Failed') {
			return failed('JobFailed', `Job Failed. failed: ${failedCount}/${completions}`);
		}
		if (condition.type === 'Suspended' && suspend) return current('Job is suspended');
	}
	if (startTime === '') return inProgress('JobNotStarted', 'Job not started');
	return current(
		`Job in progress. success:${succeeded}, active: ${active}, failed: ${failedCount}`,
	);
};

// kstatus core.go CRDConditions.
const crdRule: KindRule = (_object, conditions) => {
	for (const condition of conditions) {
		if (condition.type === 'NamesAccepted' && condition.status === 'False') {
			return failed(condition.reason, condition.message);
		}
		if (condition.type === 'Established') {
			if (condition.status === 'False' && condition.reason !== 'Installing') {
				return failed(condition.reason, condition.message);
			}
			if (condition.status === 'True') return current('CRD is established');
		}
	}
	return inProgress('Installing', 'Install in progress');
};

// kstatus core.go legacyTypes, keyed by "group/Kind" ("Kind" for the core group).
const kindRules = new KindTable<KindRule>([
	['Service', serviceRule],
	['Pod', podRule],
	['Secret', alwaysReady],
	['PersistentVolumeClaim', pvcRule],
	['apps/StatefulSet', statefulSetRule],
	['apps/DaemonSet', daemonSetRule],
	['extensions/DaemonSet', daemonSetRule],
	['apps/Deployment', deploymentRule],
	['extensions/Deployment', deploymentRule],
	['apps/ReplicaSet', replicaSetRule],
	['extensions/ReplicaSet', replicaSetRule],
	['policy/PodDisruptionBudget', pdbRule],
	['batch/CronJob', alwaysReady],
	['ConfigMap', alwaysReady],
	['batch/Job', jobRule],
	['apiextensions.k8s.io/CustomResourceDefinition', crdRule],
]);

// Rules are keyed "group/Kind", core kinds by the kind alone, so a core kind spelled "apps/Deployment" has always
// found that group's rule; kept so that results stay as they were.
function coreKindRule(kind: string): KindRule | undefined {
	const slash = kind.lastIndexOf('/');
	if (slash < 0) return kindRules.get('', kind);
	return slash === 0 ? undefined : kindRules.get(kind.slice(0, slash), kind.slice(slash + 1));
}

// kstatus generic.go checkGenericProperties, core.go GetLegacyConditionsFn, status.go checkReadyCondition.
function evaluate(
	object: Record<string, unknown>,
	now: number | undefined,
	decoded: readonly GoCondition[] | undefined,
): Verdict {
	const deletionTimestamp = nestedField(object, deletionTimestampPath);
	if (deletionTimestamp !== missing) {
		if (typeof deletionTimestamp !== 'string') {
			const error = accessorError(
				['metadata', 'deletionTimestamp'],
				2,
				deletionTimestamp,
				'string',
			);
			throw new ComputeError(
				`looking up metadata.deletionTimestamp from resource: ${error.message}`,
			);
		}
		if (deletionTimestamp !== '') {
			return { status: 'Terminating', message: 'Resource scheduled for deletion' };
		}
	}

	// generic.go checkGeneration: skipped unless both generations are present.
	const generation = nestedInt64(object, generationPath, 'metadata.generation');
	if (generation !== undefined) {
		const observed = nestedInt64(object, observedGenerationPath, 'status.observedGeneration');
		if (observed !== undefined && !sameInteger(observed, generation)) {
			return inProgress(
				'LatestGenerationNotObserved',
				`${kindOf(object)} generation is ${generation}, but latest observed generation is ${observed}`,
			);
		}
	}

	// The abnormal-true conditions decide alone when a controller sets them.
	const conditions = decoded ?? readBasicConditions(object);
	for (const condition of conditions) {
		if (condition.status !== 'True') continue;
		if (condition.type === 'Reconciling') return inProgress(condition.reason, condition.message);
		if (condition.type === 'Stalled') return failed(condition.reason, condition.message);
	}

	const group = groupOfApiVersion(object.apiVersion);
	if (group !== undefined) {
		const kind = kindOf(object);
		const rule = group === '' ? coreKindRule(kind) : kindRules.get(group, kind);
		if (rule) return rule(object, conditions, now);
	}

	// status.go checkReadyCondition: Ready=False or Unknown is InProgress, never Failed.
	for (const condition of conditions) {
		if (condition.type !== 'Ready') continue;
		if (condition.status === 'True') return current('Resource is Ready');
		if (condition.status === 'False' || condition.status === 'Unknown') {
			return inProgress(condition.reason, condition.message);
		}
	}
	return current('Resource is current');
}

function verdictOf(
	object: unknown,
	options: KstatusOptions | undefined,
	decoded?: readonly GoCondition[],
): Verdict {
	if (!isRecord(object)) {
		return { status: 'Unknown', message: `Not a Kubernetes object: got ${describeValue(object)}` };
	}
	try {
		return evaluate(object, options?.now, decoded);
	} catch (error) {
		// A Compute error reads as kstatus prints it (err.Error(), no prefix); anything else would be a bug.
		const text = errorText(error);
		return {
			status: 'Unknown',
			message: error instanceof ComputeError ? text : `kstatus failed: ${text}`,
		};
	}
}

function describeValue(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	return `a ${typeof value}`;
}

/**
 * The kstatus result of an object (status.Compute); errors Compute would return become status Unknown. `conditions`
 * are the object's own, decoded by decodeGoConditions, when the caller has them.
 */
export function computeKstatus(
	object: unknown,
	options?: KstatusOptions,
	conditions?: readonly GoCondition[],
): KstatusResult {
	const verdict = verdictOf(object, options, conditions);
	if (verdict.conditionMessage === undefined) return verdict;
	return verdict.reason === undefined
		? { status: verdict.status, message: verdict.message }
		: { status: verdict.status, message: verdict.message, reason: verdict.reason };
}

/** The standard conditions (Reconciling or Stalled, status True) that status.Compute returns for an object. */
export function kstatusConditions(object: unknown, options?: KstatusOptions): Condition[] {
	return standardConditionsOf(verdictOf(object, options));
}

function standardConditionsOf(verdict: Verdict): Condition[] {
	if (verdict.reason === undefined) return [];
	if (verdict.status !== 'InProgress' && verdict.status !== 'Failed') return [];
	return [
		{
			type: verdict.status === 'InProgress' ? 'Reconciling' : 'Stalled',
			status: 'True',
			reason: verdict.reason,
			message: verdict.conditionMessage ?? verdict.message,
		},
	];
}

/** RFC 3339 in whole seconds, UTC, as Go's time.RFC3339 formats it. */
function formatTime(ms: number): string {
	return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * The object's `status.conditions` after status.Augment: the standard conditions merged in by type (updated in
 * place, else appended). Timestamps come from `options.now`; without it new conditions carry none and updated
 * ones keep theirs. When Augment would fail (Compute error, malformed conditions) the conditions are unchanged.
 */
export function augmentConditions(object: unknown, options?: KstatusOptions): Condition[] {
	const raw = getPath(object, 'status', 'conditions');
	const unchanged = (): Condition[] => [
		...readConditionArray(Array.isArray(raw) ? raw : undefined).conditions,
	];
	const verdict = verdictOf(object, options);
	if (verdict.status === 'Unknown') return unchanged();
	// status.go Augment reads the list with NestedSlice: present but not a list is an error.
	if (raw !== undefined && !Array.isArray(raw)) return unchanged();
	const entries: readonly unknown[] = raw ?? [];
	const added = standardConditionsOf(verdict);
	if (added.length === 0) return unchanged();
	// Augment rejects entries it cannot match by type, and a matching entry whose status is not a string.
	for (const entry of entries) {
		if (!isRecord(entry) || typeof entry.type !== 'string') return unchanged();
		for (const condition of added) {
			if (entry.type === condition.type && typeof entry.status !== 'string') return unchanged();
		}
	}
	const now = options?.now;
	const stamp = now !== undefined && Math.abs(now) <= maxDateMs ? formatTime(now) : undefined;
	const result = [...readConditionArray(entries).conditions];
	for (const condition of added) {
		let present = false;
		for (let i = 0; i < result.length; i++) {
			const existing = result[i] as Condition;
			if (existing.type !== condition.type) continue;
			present = true;
			const updated: { -readonly [K in keyof Condition]: Condition[K] } = {
				...existing,
				status: condition.status,
				reason: condition.reason ?? '',
				message: condition.message ?? '',
			};
			if (stamp !== undefined) {
				updated.lastUpdateTime = stamp;
				if (existing.status !== condition.status) updated.lastTransitionTime = stamp;
			}
			result[i] = updated;
		}
		if (!present) {
			result.push(
				stamp === undefined
					? condition
					: { ...condition, lastTransitionTime: stamp, lastUpdateTime: stamp },
			);
		}
	}
	return result;
}
