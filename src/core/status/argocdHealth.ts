// Argo CD resource health (`health.GetResourceHealth`, argoproj/argo-cd gitops-engine/pkg/health/health.go): the deletion check, the built-in Lua health
// checks Argo CD ships in resource_customizations/, then the Go checks of argo-cd/gitops-engine/pkg/health.
// The Lua scripts and the Go checks are re-expressed here; where their runtime would fail (a Lua error, a failed
// conversion to the typed API object) the result is Unknown with the reason, as Argo CD reports it.
import { int64Field } from '../model/int64.ts';
import { isRecord } from '../model/object.ts';
import type { HealthResult, HealthStatus } from './result.ts';
import { goKindOf, stringConversionWords } from './goValues.ts';
import type { GoCondition } from './goConditions.ts';
import { KindTable } from './kindTable.ts';
import { errorText } from '../text/errorText.ts';

/** Which Argo CD code to follow: argo-cd HEAD (default) or the standalone gitops-engine library it grew out of. */
export type HealthEngine = 'argo-cd' | 'gitops-engine';

/** How to evaluate health. */
export interface HealthOptions {
	/**
	 * `argo-cd` (default) follows argo-cd HEAD (gitops-engine vendored at 37ee0097); `gitops-engine` follows the
	 * standalone argoproj/gitops-engine (5baed560): HPA autoscaling/v2beta1 and v2beta2, first-match HPA conditions,
	 * an empty message for suspended Jobs, no `ignore-restart-policy` Pod annotation.
	 */
	readonly engine?: HealthEngine;
	/**
	 * Whether Argo CD's built-in Lua checks run before the Go checks (default true). False is
	 * `GetResourceHealth(obj, nil)`.
	 */
	readonly overrides?: boolean;
}

interface Gvk {
	readonly group: string;
	readonly version: string;
	readonly kind: string;
}

/** The error a Go health check returns; GetResourceHealth turns it into Unknown with this text. */
class CheckError extends Error {}
/** A failed runtime.DefaultUnstructuredConverter.FromUnstructured into the typed object. */
class ConversionError extends Error {}
/** A Lua runtime error in a health script. */
class LuaError extends Error {}

const emptyGvk: Gvk = { group: '', version: '', kind: '' };
// metav1.Time parses RFC 3339 only; any other text decodes to the zero time.
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
// Go's zero time.Time (0001-01-01T00:00:00Z), which IsZero treats as unset.
const goZeroTimeMs = -62_135_596_800_000;
// gitops-engine pkg/sync/hook HookFinalizer: hooks keep their health while Argo CD deletes them.
const hookFinalizer = 'argocd.argoproj.io/hook-finalizer';
const healthCodes: ReadonlySet<string> = new Set<HealthStatus>([
	'Healthy',
	'Suspended',
	'Progressing',
	'Missing',
	'Degraded',
	'Unknown',
]);

function health(status: HealthStatus, message = ''): HealthResult {
	return { status, message };
}

// -------------------------------------------------------------------------------------------------
// Reading the object the way Go does.

// apimachinery ParseGroupVersion as Unstructured.GroupVersionKind uses it: more than one slash gives an empty GVK.
function gvkOf(object: Record<string, unknown>): Gvk {
	const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
	const kind = typeof object.kind === 'string' ? object.kind : '';
	if (apiVersion === '' || apiVersion === '/') return { group: '', version: '', kind };
	const slash = apiVersion.indexOf('/');
	if (slash < 0) return { group: '', version: apiVersion, kind };
	// The kind goes too: Unstructured.GroupVersionKind returns the zero GVK when the apiVersion does not parse.
	if (apiVersion.indexOf('/', slash + 1) >= 0) return emptyGvk;
	return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), kind };
}

function gvkText(gvk: Gvk): string {
	return `${gvk.group}/${gvk.version}, Kind=${gvk.kind}`;
}

// Unstructured.GetDeletionTimestamp: set only when it parses as a non-zero RFC 3339 time.
function hasDeletionTimestamp(metadata: unknown): boolean {
	if (!isRecord(metadata)) return false;
	const text = metadata.deletionTimestamp;
	if (typeof text !== 'string' || !rfc3339.test(text)) return false;
	const ms = Date.parse(text);
	return !Number.isNaN(ms) && ms !== goZeroTimeMs;
}

// Unstructured.GetFinalizers: a list with any non-string entry reads as no finalizers.
function hasHookFinalizer(metadata: unknown): boolean {
	const finalizers = isRecord(metadata) ? metadata.finalizers : undefined;
	if (!Array.isArray(finalizers)) return false;
	let found = false;
	for (const finalizer of finalizers as readonly unknown[]) {
		if (typeof finalizer !== 'string') return false;
		if (finalizer === hookFinalizer) found = true;
	}
	return found;
}

// Typed reads: FromUnstructured leaves absent or null fields at Go's zero value and fails on a wrong JSON type.

function typedRecord(parent: Record<string, unknown> | undefined, key: string, path: string) {
	return typedEntry(parent?.[key], path);
}

// The converter's own words name no field; the field follows in brackets so a reader can find it.
function conversionError(words: string, path: string): ConversionError {
	return new ConversionError(`${words} (at ${path})`);
}

function typedIntOrUndefined(
	parent: Record<string, unknown> | undefined,
	key: string,
	path: string,
) {
	const value = parent?.[key];
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'number' && Number.isInteger(value)) return value;
	// Generations are int64 in every API; the counters these checks read are int32.
	const goType = key.endsWith('eneration') ? 'int64' : 'int32';
	throw conversionError(
		typeof value === 'number'
			? `cannot convert float64 to ${goType}`
			: `unrecognized type: ${goType}`,
		path,
	);
}

function typedInt(parent: Record<string, unknown> | undefined, key: string, path: string): number {
	return typedIntOrUndefined(parent, key, path) ?? 0;
}

/** A generation (int64): exact beyond 2^53, as Go compares it. */
function typedInt64(
	parent: Record<string, unknown> | undefined,
	key: string,
	path: string,
): bigint {
	return typedIntOrUndefined(parent, key, path) === undefined
		? 0n
		: (int64Field(parent, key) ?? 0n);
}

/** A string field; an integer converts by Go's rules but not by JSON's, so the converter names the field's type. */
function typedString(
	parent: Record<string, unknown> | undefined,
	key: string,
	path: string,
	goType = 'string',
): string {
	const value = parent?.[key];
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value;
	throw stringConversionError(value, goType, path);
}

function stringConversionError(value: unknown, goType: string, path: string): ConversionError {
	return conversionError(stringConversionWords(value, goType), path);
}

function typedBool(
	parent: Record<string, unknown> | undefined,
	key: string,
	path: string,
): boolean {
	const value = parent?.[key];
	if (value === undefined || value === null) return false;
	if (typeof value === 'boolean') return value;
	throw conversionError('unrecognized type: bool', path);
}

function typedEntry(value: unknown, path: string) {
	if (value === undefined || value === null) return undefined;
	if (!isRecord(value)) {
		throw conversionError(`cannot restore struct from: ${goKindOf(value)}`, path);
	}
	return value;
}

function typedList(parent: Record<string, unknown> | undefined, key: string, path: string) {
	const value = parent?.[key];
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value)) {
		throw conversionError(`cannot restore slice from ${goKindOf(value)}`, path);
	}
	return value as readonly unknown[];
}

/** A map[string]string field: validates every value, so single keys can then be read without checks. */
function typedStringMap(parent: Record<string, unknown> | undefined, key: string, path: string) {
	const map = typedRecord(parent, key, path);
	if (map === undefined) return undefined;
	for (const name in map) {
		const value = map[name];
		if (value !== null && typeof value !== 'string') {
			throw stringConversionError(value, 'string', `${path}.${name}`);
		}
	}
	return map as Readonly<Record<string, string | null>>;
}

function mapValue(map: Readonly<Record<string, string | null>> | undefined, key: string) {
	if (map === undefined || !Object.hasOwn(map, key)) return undefined;
	return map[key] ?? '';
}

interface TypedCondition {
	readonly type: string;
	readonly status: string;
	readonly reason: string;
	readonly message: string;
}

function typedConditions(
	status: Record<string, unknown> | undefined,
	path: string,
): TypedCondition[] {
	const conditions: TypedCondition[] = [];
	for (const entry of typedList(status, 'conditions', `${path}.conditions`)) {
		const where = `${path}.conditions[]`;
		const condition = typedEntry(entry, where);
		conditions.push({
			type: typedString(condition, 'type', `${where}.type`),
			status: typedString(condition, 'status', `${where}.status`, 'v1.ConditionStatus'),
			reason: typedString(condition, 'reason', `${where}.reason`),
			message: typedString(condition, 'message', `${where}.message`),
		});
	}
	return conditions;
}

function firstCondition(
	conditions: readonly TypedCondition[],
	type: string,
): TypedCondition | undefined {
	for (const condition of conditions) if (condition.type === type) return condition;
	return undefined;
}

/** Go's %q for the names in rollout messages. */
function quoted(text: string): string {
	return JSON.stringify(text);
}

// -------------------------------------------------------------------------------------------------
// Go checks (argo-cd gitops-engine/pkg/health/health_*.go).

/** `decoded` holds the object's status.conditions when decodeGoConditions could read them. */
type GoCheck = (
	object: Record<string, unknown>,
	gvk: Gvk,
	engine: HealthEngine,
	decoded: readonly TypedCondition[] | undefined,
) => HealthResult;

interface GoCheckEntry {
	/** The name in "unsupported X GVK" and "failed to convert unstructured X to typed" errors. */
	readonly label: string;
	/** Versions the typed conversion accepts; undefined when the check reads the object untyped. */
	readonly versions?: (engine: HealthEngine) => readonly string[];
	readonly check: GoCheck;
}

// health_deployment.go getAppsv1DeploymentHealth (kubectl rollout status).
const deploymentHealth: GoCheck = (object, _gvk, _engine, decoded) => {
	const metadata = typedRecord(object, 'metadata', 'metadata');
	const spec = typedRecord(object, 'spec', 'spec');
	const status = typedRecord(object, 'status', 'status');
	const name = typedString(metadata, 'name', 'metadata.name');
	const generation = typedInt64(metadata, 'generation', 'metadata.generation');
	const paused = typedBool(spec, 'paused', 'spec.paused');
	const specReplicas = typedIntOrUndefined(spec, 'replicas', 'spec.replicas');
	const observed = typedInt64(status, 'observedGeneration', 'status.observedGeneration');
	const replicas = typedInt(status, 'replicas', 'status.replicas');
	const updated = typedInt(status, 'updatedReplicas', 'status.updatedReplicas');
	const available = typedInt(status, 'availableReplicas', 'status.availableReplicas');
	const conditions = decoded ?? typedConditions(status, 'status');
	if (paused) return health('Suspended', 'Deployment is paused');
	if (generation > observed) {
		return health(
			'Progressing',
			'Waiting for rollout to finish: observed deployment generation less than desired generation',
		);
	}
	if (firstCondition(conditions, 'Progressing')?.reason === 'ProgressDeadlineExceeded') {
		return health('Degraded', `Deployment ${quoted(name)} exceeded its progress deadline`);
	}
	if (specReplicas !== undefined && updated < specReplicas) {
		return health(
			'Progressing',
			`Waiting for rollout to finish: ${updated} out of ${specReplicas} new replicas have been updated...`,
		);
	}
	if (replicas > updated) {
		return health(
			'Progressing',
			`Waiting for rollout to finish: ${replicas - updated} old replicas are pending termination...`,
		);
	}
	if (available < updated) {
		return health(
			'Progressing',
			`Waiting for rollout to finish: ${available} of ${updated} updated replicas are available...`,
		);
	}
	return health('Healthy');
};

// health_statefulset.go getAppsv1StatefulSetHealth.
const statefulSetHealth: GoCheck = (object) => {
	const metadata = typedRecord(object, 'metadata', 'metadata');
	const spec = typedRecord(object, 'spec', 'spec');
	const status = typedRecord(object, 'status', 'status');
	const strategy = typedRecord(spec, 'updateStrategy', 'spec.updateStrategy');
	const rollingUpdate = typedRecord(strategy, 'rollingUpdate', 'spec.updateStrategy.rollingUpdate');
	const generation = typedInt64(metadata, 'generation', 'metadata.generation');
	const specReplicas = typedIntOrUndefined(spec, 'replicas', 'spec.replicas');
	const strategyType = typedString(strategy, 'type', 'spec.updateStrategy.type');
	const partition = typedIntOrUndefined(
		rollingUpdate,
		'partition',
		'spec.updateStrategy.rollingUpdate.partition',
	);
	const observed = typedInt64(status, 'observedGeneration', 'status.observedGeneration');
	const ready = typedInt(status, 'readyReplicas', 'status.readyReplicas');
	const updated = typedInt(status, 'updatedReplicas', 'status.updatedReplicas');
	const currentReplicas = typedInt(status, 'currentReplicas', 'status.currentReplicas');
	const updateRevision = typedString(status, 'updateRevision', 'status.updateRevision');
	const currentRevision = typedString(status, 'currentRevision', 'status.currentRevision');
	if (observed === 0n || generation > observed) {
		return health('Progressing', 'Waiting for statefulset spec update to be observed...');
	}
	if (specReplicas !== undefined && ready < specReplicas) {
		return health('Progressing', `Waiting for ${specReplicas - ready} pods to be ready...`);
	}
	if (strategyType === 'RollingUpdate' && rollingUpdate !== undefined) {
		if (
			specReplicas !== undefined &&
			partition !== undefined &&
			updated < specReplicas - partition
		) {
			return health(
				'Progressing',
				`Waiting for partitioned roll out to finish: ${updated} out of ${specReplicas - partition} new pods have been updated...`,
			);
		}
		return health(
			'Healthy',
			`partitioned roll out complete: ${updated} new pods have been updated...`,
		);
	}
	if (strategyType === 'OnDelete') return health('Healthy', `statefulset has ${ready} ready pods`);
	if (updateRevision !== currentRevision) {
		return health(
			'Progressing',
			`waiting for statefulset rolling update to complete ${updated} pods at revision ${updateRevision}...`,
		);
	}
	return health(
		'Healthy',
		`statefulset rolling update complete ${currentReplicas} pods at revision ${currentRevision}...`,
	);
};

// health_daemonset.go getAppsv1DaemonSetHealth.
const daemonSetHealth: GoCheck = (object) => {
	const metadata = typedRecord(object, 'metadata', 'metadata');
	const spec = typedRecord(object, 'spec', 'spec');
	const status = typedRecord(object, 'status', 'status');
	const strategy = typedRecord(spec, 'updateStrategy', 'spec.updateStrategy');
	const name = typedString(metadata, 'name', 'metadata.name');
	const generation = typedInt64(metadata, 'generation', 'metadata.generation');
	const strategyType = typedString(strategy, 'type', 'spec.updateStrategy.type');
	const observed = typedInt64(status, 'observedGeneration', 'status.observedGeneration');
	const desired = typedInt(status, 'desiredNumberScheduled', 'status.desiredNumberScheduled');
	const updated = typedInt(status, 'updatedNumberScheduled', 'status.updatedNumberScheduled');
	const available = typedInt(status, 'numberAvailable', 'status.numberAvailable');
	if (generation > observed) {
		return health(
			'Progressing',
			'Waiting for rollout to finish: observed daemon set generation less than desired generation',
		);
	}
	if (strategyType === 'OnDelete') {
		return health('Healthy', `daemon set ${updated} out of ${desired} new pods have been updated`);
	}
	if (updated < desired) {
		return health(
			'Progressing',
			`Waiting for daemon set ${quoted(name)} rollout to finish: ${updated} out of ${desired} new pods have been updated...`,
		);
	}
	if (available < desired) {
		return health(
			'Progressing',
			`Waiting for daemon set ${quoted(name)} rollout to finish: ${available} of ${desired} updated pods are available...`,
		);
	}
	return health('Healthy');
};

// health_replicaset.go getAppsv1ReplicaSetHealth: ReplicaFailure is Degraded here (kstatus says InProgress).
const replicaSetHealth: GoCheck = (object, _gvk, _engine, decoded) => {
	const metadata = typedRecord(object, 'metadata', 'metadata');
	const spec = typedRecord(object, 'spec', 'spec');
	const status = typedRecord(object, 'status', 'status');
	const generation = typedInt64(metadata, 'generation', 'metadata.generation');
	const specReplicas = typedIntOrUndefined(spec, 'replicas', 'spec.replicas');
	const observed = typedInt64(status, 'observedGeneration', 'status.observedGeneration');
	const available = typedInt(status, 'availableReplicas', 'status.availableReplicas');
	const conditions = decoded ?? typedConditions(status, 'status');
	if (generation > observed) {
		return health(
			'Progressing',
			'Waiting for rollout to finish: observed replica set generation less than desired generation',
		);
	}
	const failure = firstCondition(conditions, 'ReplicaFailure');
	if (failure !== undefined && failure.status === 'True') {
		return health('Degraded', failure.message);
	}
	if (specReplicas !== undefined && available < specReplicas) {
		return health(
			'Progressing',
			`Waiting for rollout to finish: ${available} out of ${specReplicas} new replicas are available...`,
		);
	}
	return health('Healthy');
};

// health_job.go getBatchv1JobHealth: Failed and Complete count whatever their status; a running Job is Progressing.
const jobHealth: GoCheck = (object, _gvk, engine, decoded) => {
	const status = typedRecord(object, 'status', 'status');
	let failed = false;
	let failMessage = '';
	let complete = false;
	let message = '';
	let suspended = false;
	for (const condition of decoded ?? typedConditions(status, 'status')) {
		if (condition.type === 'Failed') {
			failed = true;
			complete = true;
			failMessage = condition.message;
		} else if (condition.type === 'Complete') {
			complete = true;
			message = condition.message;
		} else if (condition.type === 'Suspended') {
			complete = true;
			message = condition.message;
			if (condition.status === 'True') suspended = true;
		}
	}
	if (!complete) return health('Progressing', message);
	if (failed) return health('Degraded', failMessage);
	// The standalone gitops-engine reported the (empty) failure message for a suspended Job.
	if (suspended) return health('Suspended', engine === 'argo-cd' ? message : failMessage);
	return health('Healthy', message);
};

// gitops-engine pkg/sync/common NewHookType: the Argo CD hook types.
const argoHookTypes: ReadonlySet<string> = new Set([
	'PreSync',
	'Sync',
	'PostSync',
	'SyncFail',
	'Skip',
]);

// gitops-engine pkg/sync/hook IsHook: an Argo CD hook annotation (unless it only says Skip) or a Helm hook.
function isHook(annotations: Readonly<Record<string, string | null>> | undefined): boolean {
	const argoHook = mapValue(annotations, 'argocd.argoproj.io/hook');
	if (argoHook !== undefined) {
		const types = new Set<string>();
		for (const part of argoHook.split(',')) {
			const type = part.trim();
			if (argoHookTypes.has(type)) types.add(type);
		}
		return !(types.size === 1 && types.has('Skip'));
	}
	const helmHook = mapValue(annotations, 'helm.sh/hook');
	// Helm marks CRDs with the same annotation; they are not hooks.
	return helmHook !== undefined && helmHook !== 'crd-install';
}

interface ContainerView {
	readonly name: string;
	readonly waitingReason?: string;
	readonly waitingMessage: string;
	readonly terminated?: {
		readonly message: string;
		readonly reason: string;
		readonly exitCode: number;
	};
	readonly lastTerminated: boolean;
}

function containerViews(status: Record<string, unknown> | undefined, key: string): ContainerView[] {
	const views: ContainerView[] = [];
	const path = `status.${key}[]`;
	for (const entry of typedList(status, key, `status.${key}`)) {
		const container = typedEntry(entry, path);
		const state = typedRecord(container, 'state', `${path}.state`);
		const waiting = typedRecord(state, 'waiting', `${path}.state.waiting`);
		const terminated = typedRecord(state, 'terminated', `${path}.state.terminated`);
		const lastState = typedRecord(container, 'lastState', `${path}.lastState`);
		const lastTerminated = typedRecord(lastState, 'terminated', `${path}.lastState.terminated`);
		const view: { -readonly [K in keyof ContainerView]: ContainerView[K] } = {
			name: typedString(container, 'name', `${path}.name`),
			waitingMessage: typedString(waiting, 'message', `${path}.state.waiting.message`),
			lastTerminated: lastTerminated !== undefined,
		};
		if (waiting !== undefined) {
			view.waitingReason = typedString(waiting, 'reason', `${path}.state.waiting.reason`);
		}
		if (terminated !== undefined) {
			view.terminated = {
				message: typedString(terminated, 'message', `${path}.state.terminated.message`),
				reason: typedString(terminated, 'reason', `${path}.state.terminated.reason`),
				exitCode: typedInt(terminated, 'exitCode', `${path}.state.terminated.exitCode`),
			};
		}
		views.push(view);
	}
	return views;
}

// health_pod.go getFailMessage.
function failMessageOf(container: ContainerView): string {
	const terminated = container.terminated;
	if (terminated === undefined) return '';
	if (terminated.message !== '') return terminated.message;
	if (terminated.reason === 'OOMKilled') return terminated.reason;
	if (terminated.exitCode !== 0) {
		return `container ${quoted(container.name)} failed with exit code ${terminated.exitCode}`;
	}
	return '';
}

// health_pod.go getCorev1PodHealth. A missing restartPolicy is "" (no API defaulting), so it is not Always.
const podHealth: GoCheck = (object, _gvk, engine, decoded) => {
	const metadata = typedRecord(object, 'metadata', 'metadata');
	const spec = typedRecord(object, 'spec', 'spec');
	const status = typedRecord(object, 'status', 'status');
	const annotations = typedStringMap(metadata, 'annotations', 'metadata.annotations');
	const policy = typedString(spec, 'restartPolicy', 'spec.restartPolicy');
	const phase = typedString(status, 'phase', 'status.phase');
	const message = typedString(status, 'message', 'status.message');
	const containers = containerViews(status, 'containerStatuses');
	const initContainers = containerViews(status, 'initContainerStatuses');
	const ready =
		firstCondition(decoded ?? typedConditions(status, 'status'), 'Ready')?.status === 'True';
	// argo-cd HEAD only: the annotation makes a finite Pod count as long-running, except on hooks.
	const ignoreRestartPolicy =
		engine === 'argo-cd' &&
		mapValue(annotations, 'argocd.argoproj.io/ignore-restart-policy') === 'true' &&
		!isHook(annotations);
	const longRunning = policy === 'Always' || ignoreRestartPolicy;

	// Only long-running Pods: a hook Pod marked Degraded for ImagePullBackOff would fail its sync too early.
	if (longRunning) {
		const messages: string[] = [];
		for (const container of containers) {
			const reason = container.waitingReason;
			if (
				reason !== undefined &&
				(reason.startsWith('Err') || reason.endsWith('Error') || reason.endsWith('BackOff'))
			) {
				messages.push(container.waitingMessage);
			}
		}
		if (messages.length > 0) return health('Degraded', messages.join(', '));
	}
	switch (phase) {
		case 'Pending':
			return health('Progressing', message);
		case 'Succeeded':
			return health('Healthy', message);
		case 'Failed': {
			if (message !== '') return health('Degraded', message);
			for (const container of [...initContainers, ...containers]) {
				const failMessage = failMessageOf(container);
				if (failMessage !== '') return health('Degraded', failMessage);
			}
			return health('Degraded', '');
		}
		case 'Running':
			if (longRunning) {
				if (ready) return health('Healthy', message);
				if (containers.some((container) => container.lastTerminated)) {
					return health('Degraded', message);
				}
				return health('Progressing', message);
			}
			// Finite Pods are usually hooks, so they stay Progressing until they finish.
			if (policy === 'OnFailure' || policy === 'Never') return health('Progressing', message);
			break;
	}
	return health('Unknown', message);
};

// health_pvc.go getCorev1PVCHealth.
const pvcHealth: GoCheck = (object) => {
	const status = typedRecord(object, 'status', 'status');
	switch (typedString(status, 'phase', 'status.phase')) {
		case 'Lost':
			return health('Degraded');
		case 'Pending':
			return health('Progressing');
		case 'Bound':
			return health('Healthy');
		default:
			return health('Unknown');
	}
};

// health_service.go getCorev1ServiceHealth: only LoadBalancer Services wait, for an ingress point.
const serviceHealth: GoCheck = (object) => {
	const spec = typedRecord(object, 'spec', 'spec');
	const status = typedRecord(object, 'status', 'status');
	const loadBalancer = typedRecord(status, 'loadBalancer', 'status.loadBalancer');
	const ingress = typedList(loadBalancer, 'ingress', 'status.loadBalancer.ingress');
	if (typedString(spec, 'type', 'spec.type') !== 'LoadBalancer') return health('Healthy');
	return health(ingress.length > 0 ? 'Healthy' : 'Progressing');
};

// health_ingress.go getIngressHealth: read untyped; a malformed list counts as empty.
const ingressHealth: GoCheck = (object) => {
	const ingress = nestedUntyped(object, 'status', 'loadBalancer', 'ingress');
	return health(Array.isArray(ingress) && ingress.length > 0 ? 'Healthy' : 'Progressing');
};

function nestedUntyped(object: Record<string, unknown>, ...path: readonly string[]): unknown {
	let value: unknown = object;
	for (const key of path) {
		if (!isRecord(value)) return undefined;
		value = value[key];
	}
	return value;
}

// health_argo.go getArgoWorkflowHealth: NestedString errors read as "".
const workflowHealth: GoCheck = (object) => {
	const phase = nestedUntyped(object, 'status', 'phase');
	const text = nestedUntyped(object, 'status', 'message');
	const message = typeof text === 'string' ? text : '';
	switch (typeof phase === 'string' ? phase : '') {
		case '':
		case 'Pending':
		case 'Running':
			return health('Progressing', message);
		case 'Succeeded':
			return health('Healthy', message);
		case 'Failed':
		case 'Error':
			return health('Degraded', message);
		default:
			return health('Unknown', message);
	}
};

// health_apiservice.go: the first Available condition decides, its message is "reason: message".
const apiServiceHealth: GoCheck = (object, _gvk, _engine, decoded) => {
	const status = typedRecord(object, 'status', 'status');
	for (const condition of decoded ?? typedConditions(status, 'status')) {
		if (condition.type !== 'Available') continue;
		const message = `${condition.reason}: ${condition.message}`;
		return health(condition.status === 'True' ? 'Healthy' : 'Progressing', message);
	}
	return health('Progressing', 'Waiting to be processed');
};

// health_hpa.go: the degraded (type, reason) pairs; argo-cd HEAD knows more metric failures than gitops-engine.
const hpaDegradedReasons = {
	'argo-cd': new Set([
		'AbleToScale/FailedGetScale',
		'AbleToScale/FailedUpdateScale',
		'ScalingActive/FailedGetResourceMetric',
		'ScalingActive/FailedGetObjectMetric',
		'ScalingActive/FailedGetPodsMetric',
		'ScalingActive/FailedGetExternalMetric',
		'ScalingActive/FailedComputeMetricsReplicas',
		'ScalingActive/InvalidSelector',
	]),
	'gitops-engine': new Set([
		'AbleToScale/FailedGetScale',
		'AbleToScale/FailedUpdateScale',
		'ScalingActive/FailedGetResourceMetric',
		'ScalingActive/InvalidSelector',
	]),
} satisfies Record<HealthEngine, ReadonlySet<string>>;

// Shared by every waiting HPA, so frozen against a caller editing it.
const hpaWaiting: HealthResult = Object.freeze(health('Progressing', 'Waiting to Autoscale'));

function isHpaDegraded(condition: TypedCondition, engine: HealthEngine): boolean {
	return hpaDegradedReasons[engine].has(`${condition.type}/${condition.reason}`);
}

function isHpaHealthy(condition: TypedCondition): boolean {
	return (
		(condition.type === 'AbleToScale' || condition.type === 'ScalingLimited') &&
		condition.status === 'True'
	);
}

// health_hpa.go checkConditions: HEAD looks for any degraded condition first; gitops-engine took the first match.
function hpaHealthOf(conditions: readonly TypedCondition[], engine: HealthEngine): HealthResult {
	if (engine === 'gitops-engine') {
		for (const condition of conditions) {
			if (isHpaDegraded(condition, engine)) return health('Degraded', condition.message);
			if (isHpaHealthy(condition)) return health('Healthy', condition.message);
		}
		return hpaWaiting;
	}
	for (const condition of conditions) {
		if (isHpaDegraded(condition, engine)) return health('Degraded', condition.message);
	}
	for (const condition of conditions) {
		if (isHpaHealthy(condition)) return health('Healthy', condition.message);
	}
	return hpaWaiting;
}

const hpaConditionFields = ['type', 'status', 'reason', 'message'] as const;

// health_hpa.go getAutoScalingV1HPAHealth: json.Unmarshal into []hpaCondition (keys match case-insensitively).
function annotationError(detail: string): CheckError {
	return new CheckError(`failed to convert conditions annotation to typed: ${detail}`);
}

function hpaAnnotationConditions(text: string): TypedCondition[] {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw annotationError(error instanceof Error ? error.message : 'invalid JSON');
	}
	if (parsed === null) return [];
	if (!Array.isArray(parsed)) {
		const kind = jsonKindOf(parsed);
		throw annotationError(
			`json: cannot unmarshal ${kind} into Go value of type []health.hpaCondition`,
		);
	}
	const conditions: TypedCondition[] = [];
	for (const entry of parsed as readonly unknown[]) {
		const fields = { type: '', status: '', reason: '', message: '' };
		if (entry !== null) {
			if (!isRecord(entry)) {
				const kind = jsonKindOf(entry);
				throw annotationError(
					`json: cannot unmarshal ${kind} into Go value of type health.hpaCondition`,
				);
			}
			for (const key in entry) {
				const field = hpaConditionFields.find((name) => name === key.toLowerCase());
				if (field === undefined) continue;
				const value = entry[key];
				if (value === null) continue;
				if (typeof value !== 'string') {
					const kind = jsonKindOf(value);
					throw annotationError(
						`json: cannot unmarshal ${kind} into Go struct field hpaCondition.${field} of type string`,
					);
				}
				fields[field] = value;
			}
		}
		conditions.push(fields);
	}
	return conditions;
}

function jsonKindOf(value: unknown): string {
	if (Array.isArray(value)) return 'array';
	if (value === null) return 'null';
	return typeof value === 'object' ? 'object' : typeof value;
}

const hpaHealth: GoCheck = (object, gvk, engine, decoded) => {
	if (gvk.version === 'v1') {
		const metadata = typedRecord(object, 'metadata', 'metadata');
		const annotations = typedStringMap(metadata, 'annotations', 'metadata.annotations');
		const text = mapValue(annotations, 'autoscaling.alpha.kubernetes.io/conditions');
		if (text === undefined) return hpaWaiting;
		const conditions = hpaAnnotationConditions(text);
		return conditions.length === 0 ? hpaWaiting : hpaHealthOf(conditions, engine);
	}
	const status = typedRecord(object, 'status', 'status');
	return hpaHealthOf(decoded ?? typedConditions(status, 'status'), engine);
};

const onlyV1: readonly string[] = ['v1'];
const appsV1 = (): readonly string[] => onlyV1;
const batchV1 = appsV1;
const coreV1 = appsV1;
const apiServiceVersions: readonly string[] = ['v1', 'v1beta1'];
const hpaVersions = {
	'argo-cd': ['v1', 'v2'],
	// argo-cd HEAD dropped autoscaling/v2beta1 and v2beta2.
	'gitops-engine': ['v1', 'v2', 'v2beta1', 'v2beta2'],
} as const satisfies Record<HealthEngine, readonly string[]>;

// health.go GetHealthCheckFunc, keyed by "group/Kind" ("/Kind" for the core group).
const goChecks = new KindTable<GoCheckEntry>([
	['apps/Deployment', { label: 'Deployment', versions: appsV1, check: deploymentHealth }],
	['apps/StatefulSet', { label: 'StatefulSet', versions: appsV1, check: statefulSetHealth }],
	['apps/ReplicaSet', { label: 'ReplicaSet', versions: appsV1, check: replicaSetHealth }],
	['apps/DaemonSet', { label: 'DaemonSet', versions: appsV1, check: daemonSetHealth }],
	['extensions/Ingress', { label: 'Ingress', check: ingressHealth }],
	['networking.k8s.io/Ingress', { label: 'Ingress', check: ingressHealth }],
	['argoproj.io/Workflow', { label: 'Workflow', check: workflowHealth }],
	[
		'apiregistration.k8s.io/APIService',
		{ label: 'APIService', versions: () => apiServiceVersions, check: apiServiceHealth },
	],
	['/Service', { label: 'Service', versions: coreV1, check: serviceHealth }],
	[
		'/PersistentVolumeClaim',
		{ label: 'PersistentVolumeClaim', versions: coreV1, check: pvcHealth },
	],
	['/Pod', { label: 'Pod', versions: coreV1, check: podHealth }],
	['batch/Job', { label: 'Job', versions: batchV1, check: jobHealth }],
	[
		'autoscaling/HorizontalPodAutoscaler',
		{ label: 'HPA', versions: (engine) => hpaVersions[engine], check: hpaHealth },
	],
]);

function goHealth(
	entry: GoCheckEntry,
	object: Record<string, unknown>,
	gvk: Gvk,
	engine: HealthEngine,
	decoded: readonly TypedCondition[] | undefined,
) {
	if (entry.versions !== undefined && !entry.versions(engine).includes(gvk.version)) {
		return health('Unknown', `unsupported ${entry.label} GVK: ${gvkText(gvk)}`);
	}
	try {
		return entry.check(object, gvk, engine, decoded);
	} catch (error) {
		if (error instanceof ConversionError) {
			return health(
				'Unknown',
				`failed to convert unstructured ${entry.label} to typed: ${error.message}`,
			);
		}
		if (error instanceof CheckError) return health('Unknown', error.message);
		throw error;
	}
}

// -------------------------------------------------------------------------------------------------
// Built-in Lua checks (argo-cd resource_customizations/<group>/<Kind>/health.lua), with Lua's semantics:
// JSON null is nil, indexing nil or a number is an error, `..` of nil is an error, counters compare with `==`.

type LuaCheck = (object: Record<string, unknown>) => HealthResult;

function luaTypeOf(value: unknown): string {
	if (value === undefined || value === null) return 'nil';
	if (Array.isArray(value) || typeof value === 'object') return 'table';
	return typeof value;
}

/** `value.key`: tables index, strings yield nil (their metatable has none of these keys), the rest fail. */
function luaIndex(value: unknown, key: string): unknown {
	if (isRecord(value)) {
		const field = value[key];
		return field === null ? undefined : field;
	}
	if (Array.isArray(value) || typeof value === 'string') return undefined;
	throw new LuaError(`attempt to index a non-table object(${luaTypeOf(value)}) with key '${key}'`);
}

// Argo CD hands JSON lists to Lua through gopher-lua's LTable.Append, which skips nil: a list's nulls are squeezed
// out, so `ipairs` and `#` see the other items rather than stopping at a hole.
function withoutNulls(list: readonly unknown[]): readonly unknown[] {
	return list.some((item) => item === null || item === undefined)
		? list.filter((item) => item !== null && item !== undefined)
		: list;
}

/** The elements `ipairs` visits: a JSON list without its nulls; a JSON object has no integer keys. */
function luaIpairs(value: unknown): readonly unknown[] {
	if (Array.isArray(value)) return withoutNulls(value);
	if (isRecord(value)) return [];
	throw new LuaError(`bad argument #1 to ipairs (table expected, got ${luaTypeOf(value)})`);
}

/** `#value` (and table.getn): a list's length without its nulls, 0 for a JSON object, a string's length. */
function luaLength(value: unknown): number {
	if (Array.isArray(value)) return withoutNulls(value).length;
	if (isRecord(value)) return 0;
	if (typeof value === 'string') return value.length;
	throw new LuaError(`attempt to get length of a ${luaTypeOf(value)} value`);
}

function luaConcat(left: unknown, right: unknown): string {
	const joinable = (value: unknown): value is string | number =>
		typeof value === 'string' || typeof value === 'number';
	if (!joinable(left) || !joinable(right)) {
		throw new LuaError(
			`cannot perform concat operation between ${luaTypeOf(left)} and ${luaTypeOf(right)}`,
		);
	}
	return `${left}${right}`;
}

function luaLessThan(left: unknown, right: unknown): boolean {
	if (typeof left === 'number' && typeof right === 'number') return left < right;
	if (typeof left === 'string' && typeof right === 'string') return left < right;
	throw new LuaError(`attempt to compare ${luaTypeOf(left)} with ${luaTypeOf(right)}`);
}

function checkLuaHealthField(field: 'status' | 'message', value: unknown): void {
	if (value !== undefined && typeof value !== 'string') {
		throw new LuaError(
			`json: cannot unmarshal ${jsonKindOf(value)} into Go struct field HealthStatus.${field} of type string`,
		);
	}
}

/** util/lua ExecuteHealthLua: the returned table goes through JSON into HealthStatus, whose status must be a code. */
function luaHealth(status: unknown, message: unknown): HealthResult {
	checkLuaHealthField('status', status);
	checkLuaHealthField('message', message);
	if (typeof status !== 'string' || !healthCodes.has(status)) {
		return health('Unknown', 'Lua returned an invalid health status');
	}
	return health(status as HealthStatus, (message as string | undefined) ?? '');
}

// resource_customizations/batch/CronJob/health.lua. A suspended CronJob is Healthy on purpose (argo-cd#24428).
const cronJobLua: LuaCheck = (object) => {
	if (luaIndex(luaIndex(object, 'spec'), 'suspend') === true) {
		return health('Healthy', 'CronJob is Suspended');
	}
	const status = luaIndex(object, 'status');
	if (status === undefined) return health('Progressing', 'Waiting for CronJob');
	const lastSchedule = luaIndex(status, 'lastScheduleTime');
	if (lastSchedule === undefined) return health('Healthy', 'CronJob has not been scheduled yet');
	const lastSuccess = luaIndex(status, 'lastSuccessfulTime');
	if (lastSuccess === undefined) {
		return health('Healthy', 'The CronJob never completed successfully. It may not be healthy');
	}
	const active = luaIndex(status, 'active');
	if (active !== undefined && luaLength(active) > 0) {
		return health('Healthy', 'The job is running. Its last execution may not have been successful');
	}
	// RFC 3339 strings in one zone compare in time order as plain strings.
	if (luaLessThan(lastSuccess, lastSchedule)) {
		return health('Degraded', 'CronJob has not completed its last execution successfully');
	}
	return health('Healthy', 'CronJob has completed its last execution successfully');
};

// resource_customizations/policy/PodDisruptionBudget/health.lua: InsufficientPods is allowed (argo-cd#20171).
const pdbLua: LuaCheck = (object) => {
	let result = health('Progressing', 'Waiting for status');
	const status = luaIndex(object, 'status');
	if (status === undefined) return result;
	const conditions = luaIndex(status, 'conditions');
	if (conditions === undefined) return result;
	for (const condition of luaIpairs(conditions)) {
		const reason = luaIndex(condition, 'reason');
		if (luaIndex(condition, 'status') === 'False' && reason !== 'InsufficientPods') {
			return health('Degraded', luaConcat('PodDisruptionBudget has ', reason));
		}
		result = health('Healthy', luaConcat('PodDisruptionBudget has ', reason));
	}
	return result;
};

// resource_customizations/apiextensions.k8s.io/CustomResourceDefinition/health.lua.
const crdLua: LuaCheck = (object) => {
	if (luaIndex(luaIndex(object, 'metadata'), 'deletionTimestamp') !== undefined) {
		return health('Progressing', 'CRD is terminating');
	}
	const conditions = luaIndex(luaIndex(object, 'status'), 'conditions');
	if (conditions === undefined || luaLength(conditions) === 0) {
		return health('Progressing', 'Status conditions not found');
	}
	if (!Array.isArray(conditions)) {
		throw new LuaError(`bad argument #1 to pairs (table expected, got ${luaTypeOf(conditions)})`);
	}
	let established = false;
	for (const condition of conditions as readonly unknown[]) {
		// `pairs` skips nil entries rather than stopping at them.
		if (condition === null) continue;
		const type = luaIndex(condition, 'type');
		const status = luaIndex(condition, 'status');
		if (type === 'Terminating' && status === 'True') {
			return health(
				'Progressing',
				luaConcat('CRD is terminating: ', luaIndex(condition, 'message')),
			);
		}
		if (type === 'NamesAccepted' && status === 'False') {
			return health(
				'Degraded',
				luaConcat('CRD names have not been accepted: ', luaIndex(condition, 'message')),
			);
		}
		if (type === 'NonStructuralSchema' && status === 'True') {
			return health(
				'Degraded',
				luaConcat('Schema violations found: ', luaIndex(condition, 'message')),
			);
		}
		if (type === 'Established') {
			if (status === 'True') established = true;
			else if (luaIndex(condition, 'reason') === 'Installing') {
				return health('Progressing', 'CRD is being installed');
			}
		}
	}
	if (!established) return health('Degraded', 'CRD is not established');
	return health('Healthy', 'CRD is healthy');
};

/** How one Flux toolkit health.lua counts its conditions; the scripts share one skeleton. */
interface FluxLuaRule {
	/** Whether the script starts with the spec.suspend check (ImagePolicy has none). */
	readonly suspend: boolean;
	/** HelmRepository: type "oci" keeps no status, so it is Healthy. */
	readonly oci: boolean;
	/** The Ready status that counts as progressing: Unknown, or False for the image kinds and Receiver. */
	readonly readyProgressing: 'Unknown' | 'False';
	/** Reconciling=True counts only with one of these reasons; undefined = any reason. */
	readonly reconcilingReasons?: ReadonlySet<string>;
	/** Source kinds: ArtifactOutdated appends its reason to the message, ArtifactInStorage=True succeeds. */
	readonly artifact: boolean;
	/** HelmRelease: Released=True and TestSuccess=True succeed too. */
	readonly release: boolean;
	/** Healthy needs exactly this many successes (`==`, so more is Degraded). */
	readonly succeeded: 1 | 2;
	/** The status when exactly two conditions progress (Receiver calls them failing). */
	readonly whenTwoProgressing: 'Progressing' | 'Degraded';
}

const sourceRule: FluxLuaRule = {
	suspend: true,
	oci: false,
	readyProgressing: 'Unknown',
	artifact: true,
	release: false,
	succeeded: 2,
	whenTwoProgressing: 'Progressing',
};

// resource_customizations/<flux group>/<Kind>/health.lua, one row per script.
const fluxLuaRules = {
	'source.toolkit.fluxcd.io/HelmRepository': { ...sourceRule, oci: true },
	'source.toolkit.fluxcd.io/GitRepository': sourceRule,
	'source.toolkit.fluxcd.io/Bucket': sourceRule,
	'source.toolkit.fluxcd.io/HelmChart': sourceRule,
	'source.toolkit.fluxcd.io/OCIRepository': sourceRule,
	'helm.toolkit.fluxcd.io/HelmRelease': { ...sourceRule, artifact: false, release: true },
	'kustomize.toolkit.fluxcd.io/Kustomization': { ...sourceRule, artifact: false, succeeded: 1 },
	'image.toolkit.fluxcd.io/ImageUpdateAutomation': { ...sourceRule, artifact: false, succeeded: 1 },
	'image.toolkit.fluxcd.io/ImagePolicy': {
		...sourceRule,
		suspend: false,
		readyProgressing: 'False',
		reconcilingReasons: new Set(['NewGeneration', 'AccessingRepository', 'ApplyingPolicy']),
		artifact: false,
		succeeded: 1,
	},
	'image.toolkit.fluxcd.io/ImageRepository': {
		...sourceRule,
		readyProgressing: 'False',
		reconcilingReasons: new Set(['NewGeneration', 'Scanning']),
		artifact: false,
		succeeded: 1,
	},
	'notification.toolkit.fluxcd.io/Receiver': {
		...sourceRule,
		readyProgressing: 'False',
		artifact: false,
		succeeded: 1,
		whenTwoProgressing: 'Degraded',
	},
} as const satisfies Record<string, FluxLuaRule>;

function fluxLua(rule: FluxLuaRule): LuaCheck {
	return (object) => {
		if (rule.suspend || rule.oci) {
			const spec = luaIndex(object, 'spec');
			if (rule.suspend && luaIndex(spec, 'suspend') === true) {
				return health('Suspended', luaConcat(luaIndex(object, 'kind'), ' is suspended'));
			}
			if (rule.oci && luaIndex(spec, 'type') === 'oci') {
				return health(
					'Healthy',
					"Helm repositories of type 'oci' do not contain any information in the status.",
				);
			}
		}
		const status = luaIndex(object, 'status');
		const conditions = status === undefined ? undefined : luaIndex(status, 'conditions');
		if (conditions === undefined) return health('Progressing', 'Status unknown');
		let progressing = 0;
		let succeeded = 0;
		let message: unknown = '';
		for (const condition of luaIpairs(conditions)) {
			const type = luaIndex(condition, 'type');
			const conditionStatus = luaIndex(condition, 'status');
			if (type === 'Ready') {
				if (conditionStatus === 'True') succeeded++;
				else if (conditionStatus === rule.readyProgressing) progressing++;
				message = luaIndex(condition, 'reason');
			} else if (type === 'Reconciling' && conditionStatus === 'True') {
				const reason = luaIndex(condition, 'reason');
				if (
					rule.reconcilingReasons === undefined ||
					rule.reconcilingReasons.has(reason as string)
				) {
					progressing++;
				}
			} else if (rule.artifact && type === 'ArtifactOutdated' && conditionStatus === 'True') {
				message = luaConcat(message, luaConcat(' ', luaIndex(condition, 'reason')));
			} else if (rule.artifact && type === 'ArtifactInStorage' && conditionStatus === 'True') {
				succeeded++;
			} else if (rule.release && (type === 'Released' || type === 'TestSuccess')) {
				if (conditionStatus === 'True') succeeded++;
			}
		}
		if (progressing === 2) return luaHealth(rule.whenTwoProgressing, message);
		if (succeeded === rule.succeeded) return luaHealth('Healthy', message);
		return luaHealth('Degraded', message);
	};
}

// The built-in health.lua scripts this engine carries, keyed by "group/Kind" (lua.GetConfigMapKey).
const luaChecks = new KindTable<LuaCheck>([
	['batch/CronJob', cronJobLua],
	['policy/PodDisruptionBudget', pdbLua],
	['apiextensions.k8s.io/CustomResourceDefinition', crdLua],
	...Object.entries(fluxLuaRules).map(([key, rule]): [string, LuaCheck] => [key, fluxLua(rule)]),
]);

// util/lua GetHealthScript: the built-in health override for a kind, if any runs at all.
function overrideFor(gvk: Gvk, options: HealthOptions | undefined): LuaCheck | undefined {
	if (!(options?.overrides ?? true)) return undefined;
	return luaChecks.get(gvk.group, gvk.kind);
}

// Argo CD shows a Lua runtime error as the interpreter words it, with nothing before it.
function luaHealthOf(check: LuaCheck, object: Record<string, unknown>): HealthResult {
	try {
		return check(object);
	} catch (error) {
		if (error instanceof LuaError) {
			return health('Unknown', error.message);
		}
		throw error;
	}
}

/**
 * What to say where Argo CD assesses no health for an object (computeHealth returned null). Argo CD 1.8 removed the
 * Application check (docs operator-manual/upgrading/1.7-1.8.md); only a resource customization in argocd-cm brings
 * it back, so a default Argo CD gives an Application no health of its own.
 */
export function noHealthSentence(object: unknown): string {
	const gvk = isRecord(object) ? gvkOf(object) : emptyGvk;
	return gvk.group === 'argoproj.io' && gvk.kind === 'Application'
		? 'a default Argo CD (1.8 and later) assesses no health for an Application'
		: 'no health check for this kind';
}

/**
 * The Argo CD health of an object (GetResourceHealth with Argo CD's built-in Lua checks), or null when Argo CD
 * has no check for its kind. Never throws. `conditions` are the object's own, decoded by decodeGoConditions, when
 * the caller has them.
 */
export function computeHealth(
	object: unknown,
	options?: HealthOptions,
	conditions?: readonly GoCondition[],
): HealthResult | null {
	if (!isRecord(object)) return null;
	try {
		// health.go GetResourceHealth: a deleted object is Progressing unless it is a hook Argo CD holds on to.
		const metadata = object.metadata;
		if (hasDeletionTimestamp(metadata) && !hasHookFinalizer(metadata)) {
			return health('Progressing', 'Pending deletion');
		}
		const gvk = gvkOf(object);
		const lua = overrideFor(gvk, options);
		if (lua !== undefined) {
			return luaHealthOf(lua, object);
		}
		const entry = goChecks.get(gvk.group, gvk.kind);
		return entry === undefined
			? null
			: goHealth(entry, object, gvk, options?.engine ?? 'argo-cd', conditions);
	} catch (error) {
		// Only a bug lands here; it is still reported as data, never thrown.
		return health('Unknown', `health check failed: ${errorText(error)}`);
	}
}
