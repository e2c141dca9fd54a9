// Rancher Fleet's per-BundleDeployment rules and its summary arithmetic, as plain functions over untrusted JSON.
// Sources: rancher/fleet @ 3b2c622ce176 internal/cmd/controller/summary/summary.go,
// with WaitingForDependency from rancher/fleet#5549 (Fleet 0.16, Rancher 2.15.3: backport #5691),
// pkg/apis/fleet.cattle.io/v1alpha1/{bundle_types,bundledeployment_types,summary/summary}.go,
// internal/cmd/agent/deployer/monitor/updatestatus.go, reconciler/bundledeployment_controller.go.
import type { Condition } from '../model/condition.ts';
import { isRecord } from '../model/object.ts';

// ---------------------------------------------------------------------------------------------------------------
// States and rank

/**
 * Fleet's bundle states, best to worst (bundle_types.go StateRank: Ready 1 ... ErrApplied 8). WaitingForDependency
 * came with Fleet 0.16 (rancher/fleet#5549), ranked between WaitApplied and ErrApplied.
 */
export const fleetStates = [
	'Ready',
	'NotReady',
	'Pending',
	'OutOfSync',
	'Modified',
	'WaitApplied',
	'WaitingForDependency',
	'ErrApplied',
] as const;
/** A Fleet bundle state. */
export type FleetState = (typeof fleetStates)[number];

/** Rank of each state, higher is worse (bundle_types.go StateRank); "" and unknown words rank 0. */
const fleetStateRank: Readonly<Record<FleetState, number>> = {
	Ready: 1,
	NotReady: 2,
	Pending: 3,
	OutOfSync: 4,
	Modified: 5,
	WaitApplied: 6,
	WaitingForDependency: 7,
	ErrApplied: 8,
} as const;

/** True when the word is one of Fleet's eight bundle states. */
export function isFleetState(value: string): value is FleetState {
	return (fleetStates as readonly string[]).includes(value);
}

/** The rank of any state word: Fleet's rank, or 0 for "" and words Fleet does not rank (a Go map miss). */
export function stateRankOf(state: string): number {
	return isFleetState(state) ? fleetStateRank[state] : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Go string order

/**
 * Compares two strings by their UTF-8 bytes, as Go's `sort.Strings` and `<` on strings do. JavaScript compares UTF-16
 * code units, which disagrees only when a surrogate pair meets a character from U+E000 to U+FFFF.
 */
export function compareBytewise(a: string, b: string): number {
	const length = Math.min(a.length, b.length);
	for (let i = 0; i < length; i++) {
		let x = a.charCodeAt(i);
		let y = b.charCodeAt(i);
		if (x === y) continue;
		// Moving surrogates above U+E000..U+FFFF turns UTF-16 order into code point order, which is UTF-8 byte order.
		if (x >= 0xd800) x = x <= 0xdfff ? x + 0x2000 : x - 0x800;
		if (y >= 0xd800) y = y <= 0xdfff ? y + 0x2000 : y - 0x800;
		return x - y;
	}
	return a.length - b.length;
}

// ---------------------------------------------------------------------------------------------------------------
// Status pieces of a BundleDeployment, read from JSON

/** What identifies a deployed resource (v1alpha1 ResourceKey / BundleDeploymentResource). */
export interface ResourceKey {
	readonly kind: string;
	readonly apiVersion: string;
	readonly namespace: string;
	readonly name: string;
}

/** A resource the agent found changed, missing or extra (bundledeployment_types.go ModifiedStatus; JSON `missing` is Create). */
export interface ModifiedStatus extends ResourceKey {
	readonly missing: boolean;
	readonly exist: boolean;
	readonly delete: boolean;
	readonly patch: string;
}

/** The agent's summary of one resource (pkg/apis/.../summary/summary.go Summary). */
export interface ResourceSummary {
	readonly state: string;
	readonly error: boolean;
	readonly transitioning: boolean;
	readonly message: readonly string[];
}

/** A resource the agent found not ready (bundledeployment_types.go NonReadyStatus). */
export interface NonReadyStatus extends ResourceKey {
	readonly uid: string;
	readonly summary: ResourceSummary;
}

/** Resource counts per state (resource_types.go ResourceCounts); every field is always written. */
export interface ResourceCounts {
	ready: number;
	desiredReady: number;
	waitApplied: number;
	modified: number;
	orphaned: number;
	missing: number;
	unknown: number;
	notReady: number;
}

// Readers below access properties by name rather than through a key parameter: a roll-up reads 100k
// BundleDeployments, and keyed loads through one shared helper are far slower than direct ones.

function str(value: unknown): string {
	return typeof value === 'string' ? value : '';
}

function int(value: unknown): number {
	return typeof value === 'number' && Number.isInteger(value) ? value : 0;
}

const noRecord: Readonly<Record<string, unknown>> = Object.freeze({});

function recordOf(value: unknown): Readonly<Record<string, unknown>> {
	return isRecord(value) ? value : noRecord;
}

const noRecords: readonly Readonly<Record<string, unknown>>[] = Object.freeze([]);

function recordsOf(value: unknown): readonly Readonly<Record<string, unknown>>[] {
	// Absent lists share one frozen empty array: a roll-up reads three lists on each of 100k BDs.
	return Array.isArray(value) && value.length > 0 ? value.filter(isRecord) : noRecords;
}

/** A resource key read from JSON, with "" for what is missing. */
export function readResourceKey(value: unknown): ResourceKey {
	const record = recordOf(value);
	return {
		kind: str(record.kind),
		apiVersion: str(record.apiVersion),
		namespace: str(record.namespace),
		name: str(record.name),
	};
}

/** A ModifiedStatus read from JSON. */
export function readModifiedStatus(value: unknown): ModifiedStatus {
	const record = recordOf(value);
	return {
		kind: str(record.kind),
		apiVersion: str(record.apiVersion),
		namespace: str(record.namespace),
		name: str(record.name),
		missing: record.missing === true,
		exist: record.exist === true,
		delete: record.delete === true,
		patch: str(record.patch),
	};
}

/** A NonReadyStatus read from JSON. */
export function readNonReadyStatus(value: unknown): NonReadyStatus {
	const record = recordOf(value);
	const summary = recordOf(record.summary);
	const message = Array.isArray(summary.message)
		? summary.message.filter((m): m is string => typeof m === 'string')
		: [];
	return {
		kind: str(record.kind),
		apiVersion: str(record.apiVersion),
		namespace: str(record.namespace),
		name: str(record.name),
		uid: str(record.uid),
		summary: {
			state: str(summary.state),
			error: summary.error === true,
			transitioning: summary.transitioning === true,
			message,
		},
	};
}

/** All-zero resource counts. */
export function emptyResourceCounts(): ResourceCounts {
	return {
		ready: 0,
		desiredReady: 0,
		waitApplied: 0,
		modified: 0,
		orphaned: 0,
		missing: 0,
		unknown: 0,
		notReady: 0,
	};
}

/** Resource counts read from JSON; absent or non-integer fields are 0, as Go decodes them. */
export function readResourceCounts(value: unknown): ResourceCounts {
	const record = recordOf(value);
	return {
		ready: int(record.ready),
		desiredReady: int(record.desiredReady),
		waitApplied: int(record.waitApplied),
		modified: int(record.modified),
		orphaned: int(record.orphaned),
		missing: int(record.missing),
		unknown: int(record.unknown),
		notReady: int(record.notReady),
	};
}

/** Adds the right counts into the left ones (summary.go IncrementResourceCounts). */
export function addResourceCounts(left: ResourceCounts, right: Readonly<ResourceCounts>): void {
	left.ready += right.ready;
	left.desiredReady += right.desiredReady;
	left.waitApplied += right.waitApplied;
	left.modified += right.modified;
	left.orphaned += right.orphaned;
	left.missing += right.missing;
	left.unknown += right.unknown;
	left.notReady += right.notReady;
}

// ---------------------------------------------------------------------------------------------------------------
// BundleDeployment

/** Labels Fleet puts on BundleDeployments and Bundles to link them (pkg/apis/.../labels, target.go BundleDeploymentLabels). */
export const fleetLabels = {
	repoName: 'fleet.cattle.io/repo-name',
	helmOpName: 'fleet.cattle.io/fleet-helm-name',
	bundleName: 'fleet.cattle.io/bundle-name',
	bundleNamespace: 'fleet.cattle.io/bundle-namespace',
	cluster: 'fleet.cattle.io/cluster',
	clusterNamespace: 'fleet.cattle.io/cluster-namespace',
} as const;

/** The values of the linking labels of one object (fleetLabels), "" when absent. */
export interface FleetLinks {
	readonly repoName: string;
	readonly helmOpName: string;
	readonly bundleName: string;
	readonly bundleNamespace: string;
	readonly cluster: string;
	readonly clusterNamespace: string;
}

/** The linking labels of an object; reads six keys instead of copying every label (roll-ups read 100k BDs). */
function fleetLinksOf(object: unknown): FleetLinks {
	const labels = recordOf(recordOf(recordOf(object).metadata).labels);
	return {
		repoName: str(labels['fleet.cattle.io/repo-name']),
		helmOpName: str(labels['fleet.cattle.io/fleet-helm-name']),
		bundleName: str(labels['fleet.cattle.io/bundle-name']),
		bundleNamespace: str(labels['fleet.cattle.io/bundle-namespace']),
		cluster: str(labels['fleet.cattle.io/cluster']),
		clusterNamespace: str(labels['fleet.cattle.io/cluster-namespace']),
	};
}

/** The fields of a BundleDeployment Fleet's rules read, decoded once the way Go decodes them (missing = zero value). */
export interface BundleDeploymentView {
	/** The object it was read from (the key of roll-up results). */
	readonly object: unknown;
	readonly name: string;
	readonly namespace: string;
	readonly uid: string;
	/** The linking labels, "" when absent (a Go map miss). */
	readonly links: FleetLinks;
	readonly deploymentID: string;
	readonly stagedDeploymentID: string;
	readonly appliedDeploymentID: string;
	readonly ready: boolean;
	readonly nonModified: boolean;
	readonly incompleteState: boolean;
	readonly conditions: readonly Condition[];
	readonly modifiedStatus: readonly ModifiedStatus[];
	readonly nonReadyStatus: readonly NonReadyStatus[];
	readonly resources: readonly ResourceKey[];
	readonly resourceCounts: ResourceCounts;
}

/** Reads a BundleDeployment object; never throws, wrong types read as Go's zero values. */
export function readBundleDeployment(object: unknown): BundleDeploymentView {
	const root = recordOf(object);
	const meta = recordOf(root.metadata);
	const spec = recordOf(root.spec);
	const status = recordOf(root.status);
	const links = fleetLinksOf(object);
	return {
		object,
		name: str(meta.name),
		namespace: str(meta.namespace),
		uid: str(meta.uid),
		links,
		deploymentID: str(spec.deploymentID),
		stagedDeploymentID: str(spec.stagedDeploymentID),
		appliedDeploymentID: str(status.appliedDeploymentID),
		ready: status.ready === true,
		nonModified: status.nonModified === true,
		incompleteState: status.incompleteState === true,
		conditions: wellTypedList(status.conditions, isConditionRecord, readBdCondition),
		modifiedStatus: recordsOf(status.modifiedStatus).map(readModifiedStatus),
		nonReadyStatus: recordsOf(status.nonReadyStatus).map(readNonReadyStatus),
		resources: wellTypedList(status.resources, isResourceKeyRecord, readResourceKey),
		resourceCounts: isResourceCountsRecord(status.resourceCounts)
			? status.resourceCounts
			: readResourceCounts(status.resourceCounts),
	};
}

/**
 * The input list itself when every entry already has the right field types, else a cleaned copy. Roll-ups read
 * 100k BDs; copying millions of well-formed conditions and resource keys only fed the garbage collector.
 */
function wellTypedList<T>(
	value: unknown,
	isWellTyped: (entry: unknown) => entry is T,
	read: (entry: unknown) => T | undefined,
): readonly T[] {
	if (!Array.isArray(value) || value.length === 0) return [];
	if (value.every(isWellTyped)) return value;
	const list: T[] = [];
	for (const entry of value) {
		const read1 = read(entry);
		if (read1 !== undefined) list.push(read1);
	}
	return list;
}

function optionalString(value: unknown): boolean {
	return value === undefined || typeof value === 'string';
}

/** A condition record whose fields have the types Condition promises (genericcondition: strings). */
function isConditionRecord(value: unknown): value is Condition {
	return (
		isRecord(value) &&
		typeof value.type === 'string' &&
		typeof value.status === 'string' &&
		optionalString(value.reason) &&
		optionalString(value.message) &&
		optionalString(value.severity) &&
		optionalString(value.lastTransitionTime) &&
		optionalString(value.lastUpdateTime) &&
		(value.observedGeneration === undefined || Number.isInteger(value.observedGeneration))
	);
}

/** A condition of a BundleDeployment cleaned to strings; entries without a string type are dropped. */
function readBdCondition(value: unknown): Condition | undefined {
	const record = recordOf(value);
	if (typeof record.type !== 'string') return undefined;
	return {
		type: record.type,
		// A YAML boolean (status: false, unquoted) reads as the word it stands for, as for every other condition.
		status:
			typeof record.status === 'boolean' ? (record.status ? 'True' : 'False') : str(record.status),
		reason: str(record.reason),
		message: str(record.message),
	};
}

function isResourceKeyRecord(value: unknown): value is ResourceKey {
	return (
		isRecord(value) &&
		typeof value.kind === 'string' &&
		typeof value.apiVersion === 'string' &&
		typeof value.namespace === 'string' &&
		typeof value.name === 'string'
	);
}

function isResourceCountsRecord(value: unknown): value is ResourceCounts {
	return (
		isRecord(value) &&
		Number.isInteger(value.ready) &&
		Number.isInteger(value.desiredReady) &&
		Number.isInteger(value.waitApplied) &&
		Number.isInteger(value.modified) &&
		Number.isInteger(value.orphaned) &&
		Number.isInteger(value.missing) &&
		Number.isInteger(value.unknown) &&
		Number.isInteger(value.notReady)
	);
}

function firstCondition(conditions: readonly Condition[], type: string): Condition | undefined {
	return conditions.find((condition) => condition.type === type);
}

/** The Deployed reason the agent writes when a dependsOn entry is not in an accepted state (Fleet 0.16). */
const waitingForDependencyReason = 'WaitingForDependency';

/**
 * The state of a BundleDeployment (summary.go GetDeploymentState), first hit wins. `deploymentID` stands in for the
 * spec's when a Bundle target wants a newer one (target.go effectiveDeployment). A Deployed condition that is False
 * with reason WaitingForDependency is WaitingForDependency (Fleet 0.16); any other False one is ErrApplied, which is
 * also what an older agent writes for a dependency ("dependent bundle(s) are not ready: [...]", reason Error).
 */
export function deploymentStateOf(
	bd: BundleDeploymentView,
	deploymentID: string = bd.deploymentID,
): FleetState {
	if (bd.appliedDeploymentID !== deploymentID) {
		// wrangler Cond.IsFalse and GetReason look at the first condition of the type.
		const deployed = firstCondition(bd.conditions, 'Deployed');
		if (deployed?.status !== 'False') return 'WaitApplied';
		return deployed.reason === waitingForDependencyReason ? 'WaitingForDependency' : 'ErrApplied';
	}
	if (!bd.ready) return 'NotReady';
	if (deploymentID !== bd.stagedDeploymentID) return 'OutOfSync';
	if (!bd.nonModified) return 'Modified';
	return 'Ready';
}

/** `status.display` of a BundleDeployment as JSON (omitempty: deployed/monitored only when set). */
export interface BundleDeploymentDisplay {
	readonly deployed?: string;
	readonly monitored?: string;
	readonly state: FleetState;
}

/**
 * What the BundleDeployment reconciler writes into `status.display` (bundledeployment_controller.go): the state, and
 * for Deployed/Monitored "Error: <message>" when the reason is Error, else the condition's status. The last condition
 * of each type wins, as the controller loops over all of them.
 */
export function bdDisplayOf(bd: BundleDeploymentView): BundleDeploymentDisplay {
	let deployed = '';
	let monitored = '';
	for (const condition of bd.conditions) {
		const text =
			condition.reason === 'Error' ? `Error: ${condition.message ?? ''}` : condition.status;
		if (condition.type === 'Deployed') deployed = text;
		else if (condition.type === 'Monitored') monitored = text;
	}
	// In the order Go marshals BundleDeploymentDisplay: deployed, monitored, state.
	return {
		...(deployed !== '' ? { deployed } : {}),
		...(monitored !== '' ? { monitored } : {}),
		state: deploymentStateOf(bd),
	};
}

function conditionMessage(conditions: readonly Condition[], type: string): string {
	return firstCondition(conditions, type)?.message ?? '';
}

/**
 * The message Fleet shows for a BundleDeployment (summary.go MessageFromDeployment): Deployed's message; else
 * Installed's, only when it belongs to the current deployment ID; else Monitored's.
 */
export function messageFromDeployment(
	bd: BundleDeploymentView | undefined,
	deploymentID?: string,
): string {
	if (!bd) return '';
	let message = conditionMessage(bd.conditions, 'Deployed');
	if (message === '' && bd.appliedDeploymentID === (deploymentID ?? bd.deploymentID)) {
		// An Installed message from a superseded apply attempt would be stale.
		message = conditionMessage(bd.conditions, 'Installed');
	}
	if (message === '') message = conditionMessage(bd.conditions, 'Monitored');
	return message;
}

// ---------------------------------------------------------------------------------------------------------------
// String formats (bundledeployment_types.go name/String, summary/summary.go Summary.String)

/** "<lower kind>.<apiVersion before '/'> [<namespace>/]<name>", or without the dot part when apiVersion is empty. */
export function resourceNameOf(
	apiVersion: string,
	kind: string,
	namespace: string,
	name: string,
): string {
	const head =
		apiVersion === ''
			? kind.toLowerCase()
			: `${kind.toLowerCase()}.${apiVersion.split('/', 1)[0] ?? ''}`;
	return namespace === '' ? `${head} ${name}` : `${head} ${namespace}/${name}`;
}

/** ModifiedStatus.String: "<name> missing", "<name> is not owned by us", "<name> extra" or "<name> modified <patch>". */
export function modifiedStatusString(modified: ModifiedStatus): string {
	const name = resourceNameOf(
		modified.apiVersion,
		modified.kind,
		modified.namespace,
		modified.name,
	);
	if (modified.missing) return modified.exist ? `${name} is not owned by us` : `${name} missing`;
	if (modified.delete) return `${name} extra`;
	return `${name} modified ${modified.patch}`;
}

/**
 * Summary.String: the bare state when neither flag is set, else "[progressing] m", "error] m" (upstream drops the
 * opening bracket when only error is set) or "[progressing,error] m", messages joined ", ".
 */
export function summaryString(summary: ResourceSummary): string {
	if (!summary.transitioning && !summary.error) return summary.state;
	let text = summary.transitioning ? '[progressing' : '';
	if (summary.error) text = text.length > 0 ? `${text},error]` : 'error]';
	else text += ']';
	return summary.message.length > 0 ? `${text} ${summary.message.join(', ')}` : text;
}

/** NonReadyStatus.String: "<name> <summary>". */
export function nonReadyStatusString(nonReady: NonReadyStatus): string {
	return `${resourceNameOf(nonReady.apiVersion, nonReady.kind, nonReady.namespace, nonReady.name)} ${summaryString(nonReady.summary)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Summaries (summary.go IncrementState, Increment, GetSummaryState, IsReady, ReadyMessage, SetReadyConditions)

/** One entry of `summary.nonReadyResources` (bundle_types.go NonReadyResource; JSON `bundleState` is the state). */
export interface NonReadyResource {
	readonly name: string;
	readonly bundleState: string;
	readonly message: string;
	readonly modifiedStatus: readonly ModifiedStatus[];
	readonly nonReadyStatus: readonly NonReadyStatus[];
}

/** A BundleSummary being accumulated (bundle_types.go BundleSummary). */
export interface BundleSummary {
	notReady: number;
	waitApplied: number;
	errApplied: number;
	/** Fleet 0.16 (`waitingForDependency,omitempty`); an older Fleet never writes it. */
	waitingForDependency: number;
	outOfSync: number;
	modified: number;
	ready: number;
	pending: number;
	desiredReady: number;
	nonReadyResources: NonReadyResource[];
}

/** The counter each state increments (summary.go IncrementState switch). */
const summaryCounters = {
	Ready: 'ready',
	NotReady: 'notReady',
	Pending: 'pending',
	OutOfSync: 'outOfSync',
	Modified: 'modified',
	WaitApplied: 'waitApplied',
	WaitingForDependency: 'waitingForDependency',
	ErrApplied: 'errApplied',
} as const satisfies Record<FleetState, keyof BundleSummary>;

/** Upstream keeps at most this many entries in nonReadyResources (summary.go IncrementState). */
export const maxNonReadyResources = 10;

/** A zero summary. */
export function emptySummary(): BundleSummary {
	return {
		notReady: 0,
		waitApplied: 0,
		errApplied: 0,
		waitingForDependency: 0,
		outOfSync: 0,
		modified: 0,
		ready: 0,
		pending: 0,
		desiredReady: 0,
		nonReadyResources: [],
	};
}

/** A BundleSummary read from JSON (absent counters are 0). */
export function readBundleSummary(value: unknown): BundleSummary {
	const record = recordOf(value);
	return {
		notReady: int(record.notReady),
		waitApplied: int(record.waitApplied),
		errApplied: int(record.errApplied),
		waitingForDependency: int(record.waitingForDependency),
		outOfSync: int(record.outOfSync),
		modified: int(record.modified),
		ready: int(record.ready),
		pending: int(record.pending),
		desiredReady: int(record.desiredReady),
		nonReadyResources: recordsOf(record.nonReadyResources).map((entry) => ({
			name: str(entry.name),
			bundleState: str(entry.bundleState),
			message: str(entry.message),
			modifiedStatus: recordsOf(entry.modifiedStatus).map(readModifiedStatus),
			nonReadyStatus: recordsOf(entry.nonReadyStatus).map(readNonReadyStatus),
		})),
	};
}

/**
 * Counts one deployment in a summary (summary.go IncrementState): bumps its state's counter and, for a named non-Ready
 * one, records it while fewer than 10 are recorded. Unknown state words count nowhere, as in the Go switch.
 */
export function incrementState(
	summary: BundleSummary,
	name: string,
	state: string,
	message: string,
	modified: readonly ModifiedStatus[],
	nonReady: readonly NonReadyStatus[],
): void {
	countState(summary, state);
	recordNonReadyResource(summary, name, state, message, modified, nonReady);
}

/** The counting half of IncrementState: bumps the state's counter by `by` (unknown words count nowhere). */
export function countState(summary: BundleSummary, state: string, by = 1): void {
	if (isFleetState(state)) summary[summaryCounters[state]] += by;
}

/** The recording half of IncrementState: a named non-Ready entry, while fewer than 10 are recorded. */
export function recordNonReadyResource(
	summary: BundleSummary,
	name: string,
	state: string,
	message: string,
	modified: readonly ModifiedStatus[],
	nonReady: readonly NonReadyStatus[],
): void {
	if (name !== '' && state !== 'Ready' && summary.nonReadyResources.length < maxNonReadyResources) {
		summary.nonReadyResources.push({
			name,
			bundleState: state,
			message,
			modifiedStatus: modified,
			nonReadyStatus: nonReady,
		});
	}
}

/**
 * Adds the right summary into the left (summary.go Increment, used by ClusterGroups): counters add up; when the left
 * holds fewer than 10 entries, ALL of the right's are appended, so the list can grow past 10.
 */
export function addSummaries(left: BundleSummary, right: BundleSummary): void {
	left.notReady += right.notReady;
	left.waitApplied += right.waitApplied;
	left.errApplied += right.errApplied;
	left.waitingForDependency += right.waitingForDependency;
	left.outOfSync += right.outOfSync;
	left.modified += right.modified;
	left.ready += right.ready;
	left.pending += right.pending;
	left.desiredReady += right.desiredReady;
	if (left.nonReadyResources.length < maxNonReadyResources) {
		left.nonReadyResources.push(...right.nonReadyResources);
	}
}

/** The worst state among nonReadyResources, "" when none (summary.go GetSummaryState; counters are ignored). */
export function summaryStateOf(summary: Pick<BundleSummary, 'nonReadyResources'>): FleetState | '' {
	let state: FleetState | '' = '';
	for (const entry of summary.nonReadyResources) {
		if (stateRankOf(entry.bundleState) > stateRankOf(state)) {
			state = entry.bundleState as FleetState;
		}
	}
	return state;
}

/** True when every desired deployment is ready (summary.go IsReady). */
export function isSummaryReady(summary: Pick<BundleSummary, 'ready' | 'desiredReady'>): boolean {
	return summary.desiredReady === summary.ready;
}

/** The states ReadyMessage reports, with their counters (summary.go ReadyMessage; order is irrelevant after the sort). */
const readyMessageStates = [
	['OutOfSync', 'outOfSync'],
	['NotReady', 'notReady'],
	['WaitApplied', 'waitApplied'],
	['ErrApplied', 'errApplied'],
	['WaitingForDependency', 'waitingForDependency'],
	['Pending', 'pending'],
	['Modified', 'modified'],
] as const;

/** Upstream lists at most this many modified and non-ready strings per state (summary.go ReadyMessage `i > 3`). */
const maxDetailsPerState = 4;

/**
 * The Ready condition message (summary.go ReadyMessage): per non-Ready state with a counter above 0, the first
 * recorded resource in that state as "<State>(<count>) [<kind> <name>]" or "... [<kind> <name>: <message>]", then up
 * to 4 modified and 4 non-ready strings of that resource; all strings sorted bytewise and joined by "; ".
 */
export function readyMessageOf(summary: BundleSummary, referencedKind: string): string {
	const messages: string[] = [];
	for (const [state, counter] of readyMessageStates) {
		const count = summary[counter];
		if (count <= 0) continue;
		const entry = summary.nonReadyResources.find((resource) => resource.bundleState === state);
		if (!entry) continue;
		messages.push(
			entry.message.length === 0
				? `${state}(${count}) [${referencedKind} ${entry.name}]`
				: `${state}(${count}) [${referencedKind} ${entry.name}: ${entry.message}]`,
		);
		for (const modified of entry.modifiedStatus.slice(0, maxDetailsPerState)) {
			messages.push(modifiedStatusString(modified));
		}
		for (const nonReady of entry.nonReadyStatus.slice(0, maxDetailsPerState)) {
			messages.push(nonReadyStatusString(nonReady));
		}
	}
	return messages.sort(compareBytewise).join('; ');
}

/** A condition as a Fleet controller writes it, without timestamps. */
export interface FleetCondition {
	readonly type: string;
	readonly status: 'True' | 'False';
	readonly reason?: string;
	readonly message: string;
}

/**
 * The Ready condition SetReadyConditions writes (summary.go): True iff ReadyMessage is empty. The reason is cleared
 * when True; when False wrangler keeps whatever reason the existing condition had (none on a new condition).
 */
export function readyConditionOf(
	summary: BundleSummary,
	referencedKind: string,
	previous?: Condition,
): FleetCondition {
	const message = readyMessageOf(summary, referencedKind);
	if (message === '') return { type: 'Ready', status: 'True', message };
	const reason = previous?.reason ?? '';
	return reason === ''
		? { type: 'Ready', status: 'False', message }
		: { type: 'Ready', status: 'False', reason, message };
}

// ---------------------------------------------------------------------------------------------------------------
// JSON as Go marshals it (omitempty)

/** ModifiedStatus as JSON, empty fields omitted. */
export function modifiedStatusJsonOf(modified: ModifiedStatus): Record<string, unknown> {
	const json: Record<string, unknown> = {};
	if (modified.kind) json.kind = modified.kind;
	if (modified.apiVersion) json.apiVersion = modified.apiVersion;
	if (modified.namespace) json.namespace = modified.namespace;
	if (modified.name) json.name = modified.name;
	if (modified.missing) json.missing = true;
	if (modified.exist) json.exist = true;
	if (modified.delete) json.delete = true;
	if (modified.patch) json.patch = modified.patch;
	return json;
}

/** NonReadyStatus as JSON, empty fields omitted. */
export function nonReadyStatusJsonOf(nonReady: NonReadyStatus): Record<string, unknown> {
	const json: Record<string, unknown> = {};
	if (nonReady.uid) json.uid = nonReady.uid;
	if (nonReady.kind) json.kind = nonReady.kind;
	if (nonReady.apiVersion) json.apiVersion = nonReady.apiVersion;
	if (nonReady.namespace) json.namespace = nonReady.namespace;
	if (nonReady.name) json.name = nonReady.name;
	const summary: Record<string, unknown> = {};
	if (nonReady.summary.state) summary.state = nonReady.summary.state;
	if (nonReady.summary.error) summary.error = true;
	if (nonReady.summary.transitioning) summary.transitioning = true;
	if (nonReady.summary.message.length > 0) summary.message = [...nonReady.summary.message];
	json.summary = summary;
	return json;
}

/** A BundleSummary as the API stores it: zero counters omitted except ready and desiredReady. */
export function summaryJsonOf(summary: BundleSummary): Record<string, unknown> {
	const json: Record<string, unknown> = {};
	for (const key of [
		'notReady',
		'waitApplied',
		'errApplied',
		'waitingForDependency',
		'outOfSync',
		'modified',
	] as const) {
		if (summary[key] !== 0) json[key] = summary[key];
	}
	json.ready = summary.ready;
	if (summary.pending !== 0) json.pending = summary.pending;
	json.desiredReady = summary.desiredReady;
	if (summary.nonReadyResources.length > 0) {
		json.nonReadyResources = summary.nonReadyResources.map((entry) => {
			const item: Record<string, unknown> = {};
			if (entry.name) item.name = entry.name;
			if (entry.bundleState) item.bundleState = entry.bundleState;
			if (entry.message) item.message = entry.message;
			if (entry.modifiedStatus.length > 0) {
				item.modifiedStatus = entry.modifiedStatus.map(modifiedStatusJsonOf);
			}
			if (entry.nonReadyStatus.length > 0) {
				item.nonReadyStatus = entry.nonReadyStatus.map(nonReadyStatusJsonOf);
			}
			return item;
		});
	}
	return json;
}

// ---------------------------------------------------------------------------------------------------------------
// Agent side (internal/cmd/agent/deployer/monitor/updatestatus.go)

/** Upstream truncates nonReadyStatus and modifiedStatus to this length (resourcesDetailsMaxLength). */
const maxResourceDetails = 10;

/** The BundleDeployment status fields the agent's updateFromResources sets. */
export interface AgentStatusUpdate {
	readonly ready: boolean;
	readonly nonModified: boolean;
	readonly incompleteState: boolean;
	readonly nonReadyStatus: readonly NonReadyStatus[];
	readonly modifiedStatus: readonly ModifiedStatus[];
	readonly resources: readonly ResourceKey[];
	readonly resourceCounts: ResourceCounts;
}

function keyOf(resource: ResourceKey): string {
	return `${resource.kind}\u0000${resource.apiVersion}\u0000${resource.namespace}\u0000${resource.name}`;
}

/**
 * Resource counts from the agent's view (updatestatus.go calculateResourceCounts): desiredReady = live plan objects
 * plus missing (Create) keys that are not live; each modified entry counts once as missing, orphaned (delete) or
 * modified and leaves the key set; a non-ready entry counts only if still in the set; the rest are ready.
 */
function resourceCountsOf(
	all: readonly ResourceKey[],
	nonReady: readonly ResourceKey[],
	modified: readonly ModifiedStatus[],
): ResourceCounts {
	const keys = new Set(all.map(keyOf));
	const counts = emptyResourceCounts();
	counts.desiredReady = keys.size;
	for (const entry of modified) {
		if (entry.missing && !keys.has(keyOf(entry))) counts.desiredReady++;
	}
	for (const entry of modified) {
		if (entry.missing) counts.missing++;
		else if (entry.delete) counts.orphaned++;
		else counts.modified++;
		keys.delete(keyOf(entry));
	}
	for (const entry of nonReady) {
		const key = keyOf(entry);
		if (keys.has(key)) {
			counts.notReady++;
			keys.delete(key);
		}
	}
	counts.ready = keys.size;
	return counts;
}

/**
 * The status fields the agent derives from its plan (updatestatus.go updateFromResources): ready and nonModified
 * from the full lists, lists cut to 10 with incompleteState set, counts from the full lists. Upstream never clears
 * incompleteState here, so a previous true survives; pass it in to reproduce that.
 */
export function updateFromResources(
	resources: readonly ResourceKey[],
	nonReady: readonly NonReadyStatus[],
	modified: readonly ModifiedStatus[],
	previousIncompleteState = false,
): AgentStatusUpdate {
	const incompleteState =
		previousIncompleteState ||
		nonReady.length > maxResourceDetails ||
		modified.length > maxResourceDetails;
	return {
		ready: nonReady.length === 0,
		nonModified: modified.length === 0,
		incompleteState,
		nonReadyStatus: nonReady.slice(0, maxResourceDetails),
		modifiedStatus: modified.slice(0, maxResourceDetails),
		resources: [...resources],
		resourceCounts: resourceCountsOf(resources, nonReady, modified),
	};
}

/**
 * The Ready condition the agent writes on a BundleDeployment (updatestatus.go readyError + wrangler SetError): True
 * with empty reason when ready and unmodified; else False, reason "Error", message the first non-ready string (or
 * "not ready"), or when only modified the first modified string (or "out of sync").
 */
export function bdReadyConditionOf(
	status: Pick<BundleDeploymentView, 'ready' | 'nonModified' | 'nonReadyStatus' | 'modifiedStatus'>,
): FleetCondition {
	if (status.ready && status.nonModified) return { type: 'Ready', status: 'True', message: '' };
	let message: string;
	if (!status.ready) {
		const first = status.nonReadyStatus[0];
		message = first ? nonReadyStatusString(first) : 'not ready';
	} else {
		const first = status.modifiedStatus[0];
		message = first ? modifiedStatusString(first) : 'out of sync';
	}
	return { type: 'Ready', status: 'False', reason: 'Error', message };
}
