// The merge rules of the KubeStellar proposal "Multi-WEC Aggregated Status Controller Enhancement" (kubestellar/
// kubestellar issue #2809, §3 "Status Aggregation Rules") plus the decisions issue 7 and docs/multi-wec-merge.md add
// where the proposal is silent. Every rule row names its source so a reader can check it against the spec rather than
// against this code.
import { isRecord } from '../model/object.ts';

/** The rules a merged field can come from; docs/multi-wec-merge.md has one section per rule. */
export type MergeRuleId =
	| 'min'
	| 'max'
	| 'latest'
	| 'all-true'
	| 'same-value'
	| 'omitted'
	| 'three-valued'
	| 'from-merged-status'
	| 'missing-in-wecs'
	| 'phase-priority'
	| 'matched-by-key'
	| 'verbatim'
	| 'first-matching-condition';

/** What the proposal's literal "reason and message of the most recent lastTransitionTime" would have picked. */
export interface ProposalPick {
	readonly wec: string;
	readonly reason?: string;
	readonly message?: string;
}

/** How one merged field got its value: the rule, where the rule is written, and the WECs that decided it. */
export interface FieldProvenance {
	readonly rule: MergeRuleId;
	/** The proposal section, issue decision or KubeStellar function the rule comes from. */
	readonly source: string;
	/** The WECs whose values decided the field (for `omitted`: every WEC that reports it). */
	readonly wecs: readonly string[];
	/** WECs that do not report the field, listed when they are no more than those that do (or the rule counts them). */
	readonly absentIn?: readonly string[];
	/** One sentence for what the rule did here, when the rule name alone does not say it. */
	readonly detail?: string;
	/** The proposal's literal reason/message pick, present only when it differs from the one taken. */
	readonly proposalPick?: ProposalPick;
}

/** One WEC's copy of the workload's `.status`. */
export interface WecStatus {
	readonly wec: string;
	readonly status: Readonly<Record<string, unknown>>;
}

/** A merged `.status` with the provenance of each field path and notes on what was left out. */
export interface MergedStatus {
	readonly status: Record<string, unknown>;
	readonly provenance: Record<string, FieldProvenance>;
	readonly notes: readonly string[];
}

/** The proposal section the merge rules come from, as provenance names it. */
const proposal = 'KubeStellar multi-WEC status proposal (kubestellar#2809) §3';

/** Per-kind rule row of the proposal (proposal §3 Case 1), with the issue 7 decisions folded in. */
interface KindRule {
	/** The API group the kind must be in for the row to apply. */
	readonly group: string;
	/** Fields the proposal lists for `min()`. */
	readonly min: readonly string[];
	/** Fields that take `max()`: the proposal's unavailableReplicas and issue 7's other bad-thing counters. */
	readonly max: readonly string[];
	/** Timestamps the proposal names explicitly (CronJob lastScheduleTime). */
	readonly latest: readonly string[];
	/** Counters Kubernetes omits when zero (`omitempty` int32): issue 7 counts them as 0 when absent. */
	readonly counters: readonly string[];
	/** Pod phase by priority (proposal §3 Pod). */
	readonly phase?: boolean;
}

/**
 * Proposal rule rows per kind (proposal §3 Case 1). Counters lists come from the k8s.io/api types: the int32
 * status fields that carry `omitempty` (or that a typed decode turns into 0 anyway), plus observedGeneration.
 */
const proposalKindRules: Readonly<Record<string, KindRule>> = {
	// proposal §3 Deployment: min of the four counts and observedGeneration, max of unavailableReplicas.
	Deployment: {
		group: 'apps',
		min: [
			'replicas',
			'updatedReplicas',
			'availableReplicas',
			'readyReplicas',
			'observedGeneration',
		],
		max: ['unavailableReplicas'],
		latest: [],
		counters: [
			'replicas',
			'updatedReplicas',
			'readyReplicas',
			'availableReplicas',
			'unavailableReplicas',
			'observedGeneration',
		],
	},
	// proposal §3 StatefulSet: min of replicas, readyReplicas, currentReplicas, updatedReplicas.
	StatefulSet: {
		group: 'apps',
		min: ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas'],
		max: [],
		latest: [],
		counters: [
			'replicas',
			'readyReplicas',
			'currentReplicas',
			'updatedReplicas',
			'availableReplicas',
			'observedGeneration',
		],
	},
	// proposal §3 DaemonSet: min of the four; issue 7: numberUnavailable and numberMisscheduled take max.
	DaemonSet: {
		group: 'apps',
		min: ['currentNumberScheduled', 'desiredNumberScheduled', 'numberAvailable', 'numberReady'],
		max: ['numberUnavailable', 'numberMisscheduled'],
		latest: [],
		counters: [
			'currentNumberScheduled',
			'numberMisscheduled',
			'desiredNumberScheduled',
			'numberReady',
			'updatedNumberScheduled',
			'numberAvailable',
			'numberUnavailable',
			'observedGeneration',
		],
	},
	// proposal §3 ReplicaSet: min of replicas, readyReplicas, availableReplicas.
	ReplicaSet: {
		group: 'apps',
		min: ['replicas', 'readyReplicas', 'availableReplicas'],
		max: [],
		latest: [],
		counters: [
			'replicas',
			'fullyLabeledReplicas',
			'readyReplicas',
			'availableReplicas',
			'observedGeneration',
		],
	},
	// proposal §3 Job: min of active, succeeded, failed ("min() for all numeric fields"), kept as the proposal says
	// although failed counts bad things; docs/multi-wec-merge.md explains.
	Job: {
		group: 'batch',
		min: ['active', 'succeeded', 'failed'],
		max: [],
		latest: [],
		counters: ['active', 'succeeded', 'failed'],
	},
	// proposal §3 CronJob: lastScheduleTime the latest.
	CronJob: { group: 'batch', min: [], max: [], latest: ['lastScheduleTime'], counters: [] },
	// proposal §3 Pod: phase by priority Failed > Unknown > Running > Succeeded > Pending.
	Pod: { group: '', min: [], max: [], latest: [], counters: [], phase: true },
};

/**
 * Counters of bad things take the max wherever they appear (issue 7 names unavailableReplicas, numberUnavailable
 * and numberMisscheduled; restartCount is this project's addition, docs/multi-wec-merge.md).
 */
const badThingCounters: ReadonlySet<string> = new Set([
	'unavailableReplicas',
	'numberUnavailable',
	'numberMisscheduled',
	'restartCount',
]);

/** Pod phases, highest priority first (proposal §3 Pod). */
const podPhasePriority = ['Failed', 'Unknown', 'Running', 'Succeeded', 'Pending'] as const;

/** Candidate key fields for matching list items across WECs, tried in order (proposal §3 "Slices and maps"). */
const listKeyCandidates = ['type', 'name', 'uid', 'ip'] as const;

const conditionOwnKeys: ReadonlySet<string> = new Set([
	'type',
	'status',
	'reason',
	'message',
	'lastTransitionTime',
	'lastUpdateTime',
]);

/** The proposal's rule row for a kind, or undefined when the generic rules apply. */
function kindRuleOf(group: string, kind: string): KindRule | undefined {
	const rule = Object.hasOwn(proposalKindRules, kind) ? proposalKindRules[kind] : undefined;
	return rule && rule.group === group ? rule : undefined;
}

/** The counters a typed API server omits when zero for a kind, used to normalise before comparing. */
export function zeroOmittedCountersOf(group: string, kind: string): readonly string[] {
	return kindRuleOf(group, kind)?.counters ?? ['observedGeneration'];
}

/** The path of a field under a parent path ("" for the status root). */
export function fieldPath(parent: string, key: string): string {
	return parent === '' ? key : `${parent}.${key}`;
}

/** The path of a list item matched by key, e.g. `conditions[type=Available]`. */
export function itemPath(listPath: string, keyField: string, keyValue: string): string {
	return `${listPath}[${keyField}=${keyValue}]`;
}

/** Up to `max` names joined, then "and N more", so notes stay readable for thousands of WECs. */
export function namesList(names: readonly string[], max = 5): string {
	if (names.length <= max) return names.join(', ');
	return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

function digitsAt(text: string, start: number, count: number): number {
	let value = 0;
	for (let index = start; index < start + count; index++) {
		const code = text.charCodeAt(index) - 48;
		if (code < 0 || code > 9) return -1;
		value = value * 10 + code;
	}
	return value;
}

/**
 * Milliseconds of an RFC 3339 timestamp (`2025-11-01T12:34:56Z`, fractions and offsets allowed), or undefined
 * when the value is not one. Hand-parsed because merges over thousands of WECs read many timestamps.
 */
export function timestampMillis(value: unknown): number | undefined {
	if (typeof value !== 'string' || value.length < 20) return undefined;
	const year = digitsAt(value, 0, 4);
	const month = digitsAt(value, 5, 2);
	const day = digitsAt(value, 8, 2);
	const hour = digitsAt(value, 11, 2);
	const minute = digitsAt(value, 14, 2);
	const second = digitsAt(value, 17, 2);
	if (
		value[4] !== '-' ||
		value[7] !== '-' ||
		(value[10] !== 'T' && value[10] !== 't') ||
		value[13] !== ':' ||
		value[16] !== ':' ||
		year < 0 ||
		month < 1 ||
		month > 12 ||
		day < 1 ||
		day > 31 ||
		hour < 0 ||
		hour > 23 ||
		minute < 0 ||
		minute > 59 ||
		second < 0 ||
		second > 60
	) {
		return undefined;
	}
	let index = 19;
	let fraction = 0;
	if (value[index] === '.') {
		let scale = 100;
		index++;
		const start = index;
		while (index < value.length) {
			const code = value.charCodeAt(index) - 48;
			if (code < 0 || code > 9) break;
			fraction += code * scale;
			scale /= 10;
			index++;
		}
		if (index === start) return undefined;
	}
	let offset = 0;
	const zone = value[index];
	if ((zone === 'Z' || zone === 'z') && index + 1 === value.length) {
		offset = 0;
	} else if (
		(zone === '+' || zone === '-') &&
		index + 6 === value.length &&
		value[index + 3] === ':'
	) {
		const hours = digitsAt(value, index + 1, 2);
		const minutes = digitsAt(value, index + 4, 2);
		if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return undefined;
		offset = (zone === '+' ? 1 : -1) * (hours * 60 + minutes) * 60000;
	} else {
		return undefined;
	}
	return Date.UTC(year, month - 1, day, hour, minute, second) + fraction - offset;
}

/** The field a list's items can be matched by in every WEC (unique per WEC), or undefined. */
function listKeyFieldOf(lists: readonly (readonly unknown[])[]): string | undefined {
	for (const candidate of listKeyCandidates) {
		let usable = true;
		for (const list of lists) {
			const seen = new Set<string>();
			for (const item of list) {
				const value = isRecord(item) ? item[candidate] : undefined;
				if (typeof value !== 'string' || seen.has(value)) {
					usable = false;
					break;
				}
				seen.add(value);
			}
			if (!usable) break;
		}
		if (usable) return candidate;
	}
	return undefined;
}

/** A JSON text with object keys sorted, so equal values compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (isRecord(value)) {
		const keys = Object.keys(value).sort();
		return `{${keys
			.filter((key) => value[key] !== undefined)
			.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
			.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

function typeNameOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'number') {
		return Number.isInteger(value) ? 'an integer' : 'a non-integer number';
	}
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}

/** The fields each rule row reads as integers, worked out once. */
const integerFields: ReadonlyMap<KindRule, readonly string[]> = new Map(
	Object.values(proposalKindRules).map((rule) => [
		rule,
		[...new Set([...rule.min, ...rule.max, ...rule.counters])],
	]),
);

function integerFieldsOf(rule: KindRule): readonly string[] {
	return integerFields.get(rule) ?? [];
}

/**
 * Why a WEC's status cannot take part in a proposal merge (fields the rules read have the wrong type); empty
 * when it can. Such a WEC is left out rather than guessed at.
 */
export function proposalStatusProblemsOf(
	group: string,
	kind: string,
	status: Readonly<Record<string, unknown>>,
): string[] {
	const problems: string[] = [];
	const rule = kindRuleOf(group, kind);
	if (rule) {
		for (const field of integerFieldsOf(rule)) {
			const value = status[field];
			if (value === undefined || value === null) continue;
			if (typeof value !== 'number' || !Number.isInteger(value)) {
				problems.push(`status.${field} is ${typeNameOf(value)}, expected an integer`);
			}
		}
		for (const field of rule.latest) {
			const value = status[field];
			if (value === undefined || value === null) continue;
			if (timestampMillis(value) === undefined) {
				problems.push(`status.${field} is not an RFC 3339 timestamp`);
			}
		}
		if (rule.phase && status.phase !== undefined && typeof status.phase !== 'string') {
			problems.push(`status.phase is ${typeNameOf(status.phase)}, expected a string`);
		}
	}
	const conditions = status.conditions;
	if (conditions !== undefined && conditions !== null) {
		if (!Array.isArray(conditions)) {
			problems.push(`status.conditions is ${typeNameOf(conditions)}, expected a list`);
		} else {
			conditions.forEach((condition: unknown, index) => {
				if (!isRecord(condition) || typeof condition.type !== 'string') {
					problems.push(`status.conditions[${index}] has no string type`);
				} else if (condition.status !== undefined && typeof condition.status !== 'string') {
					problems.push(
						`status.conditions[${index}].status is ${typeNameOf(condition.status)}, expected a string`,
					);
				}
			});
		}
	}
	return problems;
}

/** One WEC's value at a field, undefined when the WEC does not report it. */
interface Slot {
	readonly wec: string;
	readonly value: unknown;
}

/** Collects provenance and notes while merging. */
interface Sink {
	readonly provenance: Record<string, FieldProvenance>;
	readonly notes: string[];
}

/** Marks a field the rules leave out of the merged status. */
const omit: unique symbol = Symbol('omit');
/** A merged value, or `omit` for a field left out. */
type Merged = unknown;

type ValueClass = 'number' | 'boolean' | 'timestamp' | 'string' | 'list' | 'map';

function classOf(value: unknown): ValueClass | undefined {
	if (typeof value === 'number') return 'number';
	if (typeof value === 'boolean') return 'boolean';
	if (typeof value === 'string') {
		return timestampMillis(value) === undefined ? 'string' : 'timestamp';
	}
	if (Array.isArray(value)) return 'list';
	if (isRecord(value)) return 'map';
	return undefined;
}

function isAbsent(value: unknown): boolean {
	return value === undefined || value === null;
}

function record(
	sink: Sink,
	path: string,
	entry: {
		rule: MergeRuleId;
		source: string;
		wecs: readonly string[];
		absentIn?: readonly string[];
		detail?: string;
		proposalPick?: ProposalPick;
	},
): void {
	const provenance: {
		-readonly [K in keyof FieldProvenance]: FieldProvenance[K];
	} = { rule: entry.rule, source: entry.source, wecs: entry.wecs };
	if (entry.absentIn && entry.absentIn.length > 0) provenance.absentIn = entry.absentIn;
	if (entry.detail !== undefined) provenance.detail = entry.detail;
	if (entry.proposalPick) provenance.proposalPick = entry.proposalPick;
	sink.provenance[path] = provenance;
}

/** min or max of a number field; absent values count as 0 when the field is a zero-omitted counter. */
function extremeOf(
	path: string,
	slots: readonly Slot[],
	which: 'min' | 'max',
	absentAsZero: boolean,
	source: string,
	sink: Sink,
): Merged {
	let best: number | undefined;
	let wecs: string[] = [];
	const absentIn: string[] = [];
	for (const slot of slots) {
		let value: number;
		if (isAbsent(slot.value)) {
			absentIn.push(slot.wec);
			if (!absentAsZero) continue;
			value = 0;
		} else {
			value = slot.value as number;
		}
		if (best === undefined || (which === 'min' ? value < best : value > best)) {
			best = value;
			wecs = [slot.wec];
		} else if (value === best) {
			wecs.push(slot.wec);
		}
	}
	if (best === undefined) return omit;
	record(sink, path, {
		rule: which,
		source,
		wecs,
		absentIn,
		...(absentAsZero && absentIn.length > 0
			? { detail: 'Kubernetes omits this counter when it is 0, so an absent value counts as 0' }
			: {}),
	});
	return best;
}

/** The latest timestamp; WECs without the field do not take part. */
function latestOf(path: string, slots: readonly Slot[], source: string, sink: Sink): Merged {
	let best: { millis: number; value: string } | undefined;
	let wecs: string[] = [];
	const absentIn: string[] = [];
	for (const slot of slots) {
		const millis = timestampMillis(slot.value);
		if (millis === undefined) {
			absentIn.push(slot.wec);
			continue;
		}
		if (best === undefined || millis > best.millis) {
			best = { millis, value: slot.value as string };
			wecs = [slot.wec];
		} else if (millis === best.millis) {
			wecs.push(slot.wec);
		}
	}
	if (best === undefined) return omit;
	record(sink, path, { rule: 'latest', source, wecs, absentIn });
	return best.value;
}

/** Pod phase by the proposal's priority; unrecognised phases count as Unknown. */
function phaseOf(path: string, slots: readonly Slot[], sink: Sink): Merged {
	let bestRank: number = podPhasePriority.length;
	let wecs: string[] = [];
	const absentIn: string[] = [];
	const odd: string[] = [];
	for (const slot of slots) {
		if (isAbsent(slot.value)) {
			absentIn.push(slot.wec);
			continue;
		}
		let rank = podPhasePriority.indexOf(slot.value as (typeof podPhasePriority)[number]);
		if (rank < 0) {
			odd.push(slot.wec);
			rank = podPhasePriority.indexOf('Unknown');
		}
		if (rank < bestRank) {
			bestRank = rank;
			wecs = [slot.wec];
		} else if (rank === bestRank) {
			wecs.push(slot.wec);
		}
	}
	const phase: string | undefined = (podPhasePriority as readonly string[])[bestRank];
	if (phase === undefined) return omit;
	if (odd.length > 0) {
		sink.notes.push(`${path}: unrecognised phase in ${namesList(odd)}, counted as Unknown.`);
	}
	record(sink, path, {
		rule: 'phase-priority',
		source: `${proposal} Pod`,
		wecs,
		absentIn,
		detail: 'Failed > Unknown > Running > Succeeded > Pending',
	});
	return phase;
}

/** Three-valued status of one condition in one WEC: anything but True/False is Unknown. */
function truthOf(status: unknown): 'True' | 'False' | 'Unknown' {
	return status === 'True' || status === 'False' ? status : 'Unknown';
}

interface ConditionReport {
	readonly wec: string;
	readonly condition: Readonly<Record<string, unknown>>;
	readonly truth: 'True' | 'False' | 'Unknown';
	readonly millis: number | undefined;
}

/** The most recent report by lastTransitionTime; reports without one rank oldest; ties keep WEC-name order. */
function mostRecentOf(reports: readonly ConditionReport[]): ConditionReport | undefined {
	let best: ConditionReport | undefined;
	for (const report of reports) {
		if (best === undefined) {
			best = report;
			continue;
		}
		const a = report.millis ?? Number.NEGATIVE_INFINITY;
		const b = best.millis ?? Number.NEGATIVE_INFINITY;
		if (a > b) best = report;
	}
	return best;
}

function optionalText(value: unknown): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

/**
 * Merges condition lists by type (proposal §3 three-value logic). `slots` are every WEC taking part at this
 * level, including those whose list is absent: a WEC without the condition keeps it from being True.
 */
function conditionsOf(path: string, slots: readonly Slot[], sink: Sink): Merged {
	const byType = new Map<string, ConditionReport[]>();
	const duplicates: string[] = [];
	for (const slot of slots) {
		if (!Array.isArray(slot.value)) continue;
		const seenInWec = new Set<string>();
		for (const item of slot.value as readonly unknown[]) {
			if (!isRecord(item) || typeof item.type !== 'string') continue;
			if (seenInWec.has(item.type)) {
				duplicates.push(`${slot.wec} (${item.type})`);
				continue;
			}
			seenInWec.add(item.type);
			let reports = byType.get(item.type);
			if (!reports) {
				reports = [];
				byType.set(item.type, reports);
			}
			reports.push({
				wec: slot.wec,
				condition: item,
				truth: truthOf(item.status),
				millis: timestampMillis(item.lastTransitionTime),
			});
		}
	}
	if (duplicates.length > 0) {
		sink.notes.push(
			`${path}: a condition type appears twice in ${namesList(duplicates)}; the first of each is used.`,
		);
	}
	const merged: Record<string, unknown>[] = [];
	for (const [type, reports] of byType) {
		merged.push(conditionOf(path, type, reports, slots, sink));
	}
	if (merged.length === 0 && !slots.some((slot) => Array.isArray(slot.value))) return omit;
	return merged;
}

function conditionOf(
	listPath: string,
	type: string,
	reports: readonly ConditionReport[],
	slots: readonly Slot[],
	sink: Sink,
): Record<string, unknown> {
	const path = itemPath(listPath, 'type', type);
	const conditionsSource = `${proposal} three-value logic`;
	let lacking: string[] = [];
	if (reports.length < slots.length) {
		const reporting = new Set(reports.map((report) => report.wec));
		lacking = slots.filter((slot) => !reporting.has(slot.wec)).map((slot) => slot.wec);
	}
	const falseIn = reports.filter((report) => report.truth === 'False');
	let truth: 'True' | 'False' | 'Unknown';
	if (falseIn.length > 0) truth = 'False';
	else if (lacking.length === 0 && reports.every((report) => report.truth === 'True')) {
		truth = 'True';
	} else truth = 'Unknown';
	const agreeing = reports.filter((report) => report.truth === truth);
	record(sink, fieldPath(path, 'status'), {
		rule: 'three-valued',
		source: conditionsSource,
		wecs: (truth === 'Unknown'
			? reports.filter((report) => report.truth !== 'True')
			: agreeing
		).map((report) => report.wec),
		absentIn: lacking,
		detail:
			truth === 'False'
				? 'False because a WEC reports False'
				: truth === 'True'
					? 'True because every WEC reports True'
					: lacking.length > 0
						? 'Unknown because not every WEC reports the condition'
						: 'Unknown because a WEC reports Unknown',
	});
	const condition: Record<string, unknown> = { type, status: truth };

	// Fields other than the condition's own take the generic rules among the WECs that report the condition.
	const extraKeys: string[] = [];
	const seenExtra = new Set<string>();
	for (const report of reports) {
		for (const key of Object.keys(report.condition)) {
			if (conditionOwnKeys.has(key) || seenExtra.has(key)) continue;
			seenExtra.add(key);
			extraKeys.push(key);
		}
	}
	for (const key of extraKeys) {
		const value = genericFieldOf(
			path,
			key,
			reports.map((report) => ({ wec: report.wec, value: report.condition[key] })),
			sink,
		);
		if (value !== omit) condition[key] = value;
	}

	// proposal §3 Timestamps: the most recent across clusters, for lastTransitionTime and lastUpdateTime alike.
	for (const key of ['lastUpdateTime', 'lastTransitionTime']) {
		if (!reports.some((report) => report.condition[key] !== undefined)) continue;
		const value = latestOf(
			fieldPath(path, key),
			reports.map((report) => ({ wec: report.wec, value: report.condition[key] })),
			`${proposal} Timestamps`,
			sink,
		);
		if (value !== omit) condition[key] = value;
	}

	// Issue 7 narrows proposal §3 Strings: reason and message come from the most recent condition among the WECs
	// whose status equals the merged one, so a False condition never carries a True condition's reason.
	const pick = mostRecentOf(agreeing);
	const proposalLiteral = mostRecentOf(reports);
	if (pick) {
		const reason = optionalText(pick.condition.reason);
		const message = optionalText(pick.condition.message);
		if (reason !== undefined) condition.reason = reason;
		condition.message =
			message === undefined || message === '' ? `${pick.wec}` : `${pick.wec}: ${message}`;
		const differs =
			proposalLiteral !== undefined &&
			proposalLiteral.wec !== pick.wec &&
			(optionalText(proposalLiteral.condition.reason) !== reason ||
				optionalText(proposalLiteral.condition.message) !== message);
		const proposalPick: ProposalPick | undefined =
			differs && proposalLiteral
				? {
						wec: proposalLiteral.wec,
						...(typeof proposalLiteral.condition.reason === 'string'
							? { reason: proposalLiteral.condition.reason }
							: {}),
						...(typeof proposalLiteral.condition.message === 'string'
							? { message: proposalLiteral.condition.message }
							: {}),
					}
				: undefined;
		const entry = {
			rule: 'from-merged-status' as const,
			source: `${proposal} Strings, narrowed by issue 7`,
			wecs: [pick.wec],
			detail: `most recent ${truth} condition among the WECs reporting ${truth}`,
			...(proposalPick ? { proposalPick } : {}),
		};
		record(sink, fieldPath(path, 'reason'), entry);
		record(sink, fieldPath(path, 'message'), entry);
	} else {
		// No WEC reports the merged status: it is Unknown because some WECs lack the condition.
		const byTruth = new Map<string, string[]>();
		for (const report of reports) {
			const list = byTruth.get(report.truth) ?? [];
			list.push(report.wec);
			byTruth.set(report.truth, list);
		}
		const reported = [...byTruth]
			.map(([value, wecs]) => `${value} in ${namesList(wecs)}`)
			.join('; ');
		condition.reason = 'NotReportedByAllWECs';
		condition.message = `${type} is not reported by ${namesList(lacking)}; ${reported}`;
		const entry = {
			rule: 'missing-in-wecs' as const,
			source: 'issue 7: Unknown because a WEC lacks the condition',
			wecs: lacking,
			absentIn: lacking,
		};
		record(sink, fieldPath(path, 'reason'), entry);
		record(sink, fieldPath(path, 'message'), entry);
	}
	return condition;
}

function isConditionList(key: string, present: readonly Slot[]): boolean {
	return (
		key === 'conditions' &&
		present.every(
			(slot) =>
				Array.isArray(slot.value) &&
				(slot.value as readonly unknown[]).every(
					(item) => isRecord(item) && typeof item.type === 'string',
				),
		)
	);
}

/** Generic rules for one field (proposal §3 Case 2), recursing into maps and keyed lists. */
function genericFieldOf(parent: string, key: string, slots: readonly Slot[], sink: Sink): Merged {
	const path = fieldPath(parent, key);
	const present = slots.filter((slot) => !isAbsent(slot.value));
	if (present.length === 0) return omit;
	const absentIn = slots.filter((slot) => isAbsent(slot.value)).map((slot) => slot.wec);
	if (isConditionList(key, present)) return conditionsOf(path, slots, sink);

	const classes = new Map<ValueClass, string[]>();
	for (const slot of present) {
		const kind = classOf(slot.value) ?? 'string';
		const list = classes.get(kind) ?? [];
		list.push(slot.wec);
		classes.set(kind, list);
	}
	// A timestamp next to a plain string is compared as a string: timestamps only take "latest" when all are.
	if (classes.size === 2 && classes.has('timestamp') && classes.has('string')) {
		classes.set('string', [...(classes.get('string') ?? []), ...(classes.get('timestamp') ?? [])]);
		classes.delete('timestamp');
	}
	if (classes.size > 1) {
		const described = [...classes]
			.map(([kind, wecs]) => `${kind} in ${namesList(wecs)}`)
			.join('; ');
		sink.notes.push(`${path} has different types across WECs (${described}); it is left out.`);
		record(sink, path, {
			rule: 'omitted',
			source: 'docs/multi-wec-merge.md: shapes must match',
			wecs: present.map((slot) => slot.wec),
			absentIn,
			detail: `different types: ${described}`,
		});
		return omit;
	}
	const [valueClass] = classes.keys();
	switch (valueClass) {
		case 'number':
			return badThingCounters.has(key)
				? extremeOf(path, slots, 'max', false, 'issue 7: counters of bad things take the max', sink)
				: extremeOf(
						path,
						slots,
						'min',
						key === 'observedGeneration',
						`${proposal} Case 2 numeric fields`,
						sink,
					);
		case 'timestamp':
			return latestOf(path, slots, 'issue 7: every timestamp takes the latest', sink);
		case 'boolean': {
			const falseIn = present.filter((slot) => slot.value === false).map((slot) => slot.wec);
			const value = falseIn.length === 0;
			record(sink, path, {
				rule: 'all-true',
				source: 'docs/multi-wec-merge.md: booleans (KubeStellar multi-WEC docs)',
				wecs: value ? present.map((slot) => slot.wec) : falseIn,
				absentIn,
			});
			return value;
		}
		case 'string':
			return sameValueOf(path, present, absentIn, sink);
		case 'map':
			return mapOf(path, present, sink);
		case 'list':
			return listOf(path, present, absentIn, sink);
		default:
			return omit;
	}
}

/** A value kept only when every WEC that reports it agrees; otherwise left out. */
function sameValueOf(
	path: string,
	present: readonly Slot[],
	absentIn: readonly string[],
	sink: Sink,
): Merged {
	const first = present[0];
	if (first === undefined) return omit;
	const text = canonicalJson(first.value);
	const differing = present.filter((slot) => canonicalJson(slot.value) !== text);
	if (differing.length === 0) {
		record(sink, path, {
			rule: 'same-value',
			source: 'docs/multi-wec-merge.md: strings and unkeyed lists',
			wecs: present.map((slot) => slot.wec),
			absentIn,
		});
		return first.value;
	}
	record(sink, path, {
		rule: 'omitted',
		source: 'docs/multi-wec-merge.md: strings and unkeyed lists',
		wecs: present.map((slot) => slot.wec),
		absentIn,
		detail: `WECs disagree (${namesList(differing.map((slot) => slot.wec))} ${differing.length === 1 ? 'differs' : 'differ'} from ${first.wec})`,
	});
	return omit;
}

/** Merges maps key by key (proposal §3 "Slices and maps"); only WECs that have the map take part. */
function mapOf(path: string, present: readonly Slot[], sink: Sink): Merged {
	const maps = present.map((slot) => ({
		wec: slot.wec,
		map: slot.value as Record<string, unknown>,
	}));
	return mapFieldsOf(path, maps, sink);
}

/** Each key of the maps with the WECs that have it, keys in first-appearance order; one pass over all maps. */
function presentByKey(
	maps: readonly { readonly wec: string; readonly map: Readonly<Record<string, unknown>> }[],
): Map<string, Slot[]> {
	const index = new Map<string, Slot[]>();
	for (const { wec, map } of maps) {
		for (const [key, value] of Object.entries(map)) {
			if (value === undefined) continue;
			let slots = index.get(key);
			if (!slots) {
				slots = [];
				index.set(key, slots);
			}
			slots.push({ wec, value });
		}
	}
	return index;
}

/**
 * The slots of one key: every WEC when the rule needs the absent ones (counters, conditions) or when they are no
 * more than those present; otherwise only the present ones. Keys unique to each WEC (a map keyed by pod name)
 * would otherwise make the merge grow with the square of the WEC count.
 */
function slotsOf(
	key: string,
	present: readonly Slot[],
	maps: readonly { readonly wec: string; readonly map: Readonly<Record<string, unknown>> }[],
	needsAbsent: boolean,
): readonly Slot[] {
	if (present.length === maps.length) return present;
	if (!needsAbsent && present.length * 2 < maps.length) return present;
	return maps.map(({ wec, map }) => ({ wec, value: map[key] }));
}

function mapFieldsOf(
	path: string,
	maps: readonly { readonly wec: string; readonly map: Readonly<Record<string, unknown>> }[],
	sink: Sink,
): Record<string, unknown> {
	const merged: Record<string, unknown> = {};
	for (const [key, present] of presentByKey(maps)) {
		const needsAbsent = key === 'conditions' || key === 'observedGeneration';
		const value = genericFieldOf(path, key, slotsOf(key, present, maps, needsAbsent), sink);
		if (value !== omit) merged[key] = value;
	}
	return merged;
}

/** Lists: items matched by a key field when one exists, otherwise kept only when identical everywhere. */
function listOf(
	path: string,
	present: readonly Slot[],
	absentIn: readonly string[],
	sink: Sink,
): Merged {
	const lists = present.map((slot) => slot.value as readonly unknown[]);
	const keyField = lists.some((list) => list.length > 0) ? listKeyFieldOf(lists) : undefined;
	if (keyField === undefined) return sameValueOf(path, present, absentIn, sink);
	const byKey = new Map<string, { wec: string; map: Record<string, unknown> }[]>();
	for (const slot of present) {
		for (const item of slot.value as readonly Record<string, unknown>[]) {
			const keyValue = item[keyField] as string;
			const holders = byKey.get(keyValue) ?? [];
			holders.push({ wec: slot.wec, map: item });
			byKey.set(keyValue, holders);
		}
	}
	const merged: Record<string, unknown>[] = [];
	for (const [keyValue, holders] of byKey) {
		const at = itemPath(path, keyField, keyValue);
		// The WECs lacking an item are listed only when they are no more than those having it: items unique to
		// each WEC (Pod IPs) would otherwise make the provenance grow with the square of the WEC count.
		let lacking: string[] = [];
		if (holders.length < present.length && holders.length * 2 >= present.length) {
			const having = new Set(holders.map((holder) => holder.wec));
			lacking = present.filter((slot) => !having.has(slot.wec)).map((slot) => slot.wec);
		}
		record(sink, at, {
			rule: 'matched-by-key',
			source: `${proposal} Slices and maps`,
			wecs: holders.map((holder) => holder.wec),
			absentIn: lacking,
			detail: `items matched by ${keyField}; in ${holders.length} of ${present.length} WECs`,
		});
		merged.push(mapFieldsOf(at, holders, sink));
	}
	return merged;
}

/** One top-level field of a kind with a rule row; fields the row does not name take the generic rules. */
function kindFieldOf(
	key: string,
	slots: readonly Slot[],
	kind: string,
	row: KindRule,
	sink: Sink,
): Merged {
	const source = `${proposal} ${kind}`;
	if (row.min.includes(key)) {
		return extremeOf(key, slots, 'min', row.counters.includes(key), source, sink);
	}
	if (row.max.includes(key)) {
		const maxSource =
			key === 'unavailableReplicas' ? source : 'issue 7: counters of bad things take the max';
		return extremeOf(key, slots, 'max', row.counters.includes(key), maxSource, sink);
	}
	if (row.latest.includes(key)) return latestOf(key, slots, source, sink);
	if (row.phase && key === 'phase') return phaseOf(key, slots, sink);
	if (key === 'conditions') return conditionsOf(key, slots, sink);
	if (row.counters.includes(key)) {
		// A counter the proposal does not list (e.g. fullyLabeledReplicas): generic min, absent counting as 0.
		const which = badThingCounters.has(key) ? 'max' : 'min';
		return extremeOf(key, slots, which, true, `${proposal} Case 2 numeric fields`, sink);
	}
	return genericFieldOf('', key, slots, sink);
}

/**
 * The proposal's merge of several WECs' statuses (proposal §3 with issue 7's decisions): per-kind rows for
 * Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob and Pod, generic rules for every other kind.
 * Entries must be sorted by WEC name and already checked with `proposalStatusProblemsOf`.
 */
export function mergeProposalStatuses(
	group: string,
	kind: string,
	entries: readonly WecStatus[],
): MergedStatus {
	const sink: Sink = { provenance: {}, notes: [] };
	const row = kindRuleOf(group, kind);
	const maps = entries.map((entry) => ({ wec: entry.wec, map: entry.status }));
	const status: Record<string, unknown> = {};
	for (const [key, present] of presentByKey(maps)) {
		const needsAbsent =
			key === 'conditions' ||
			key === 'observedGeneration' ||
			(row !== undefined &&
				(row.counters.includes(key) || row.min.includes(key) || row.max.includes(key)));
		const slots = slotsOf(key, present, maps, needsAbsent);
		const value = row
			? kindFieldOf(key, slots, kind, row, sink)
			: key === 'conditions'
				? conditionsOf(key, slots, sink)
				: genericFieldOf('', key, slots, sink);
		if (value !== omit) status[key] = value;
	}
	return { status, provenance: sink.provenance, notes: sink.notes };
}
