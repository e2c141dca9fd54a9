// The multi-WEC status merge: from a WDS workload, its WECs' copies and the policies that place it, the `.status`
// KubeStellar would write (released rules) or the proposal would write (KubeStellar multi-WEC status proposal,
// kubestellar/kubestellar issue #2809), with per-field provenance and what kstatus and Argo CD will make of it. Pure
// and deterministic: WECs are taken in name order.
import { getRecord, getString, groupOf, isRecord } from '../model/object.ts';
import { computeHealth } from '../status/argocdHealth.ts';
import { computeKstatus } from '../status/kstatus.ts';
import type { HealthResult, KstatusResult } from '../status/result.ts';
import { mergeKubestellarStatuses } from './kubestellarRules.ts';
import {
	compareNames,
	reportedStateRequestOf,
	returnLabelsOf,
	statusReturnLabels,
	workloadIdentityOf,
	type MergeMode,
	type WorkloadIdentity,
} from './mergeMode.ts';
import {
	canonicalJson,
	mergeProposalStatuses,
	namesList,
	proposalStatusProblemsOf,
	zeroOmittedCountersOf,
	type FieldProvenance,
	type WecStatus,
} from './mergeRules.ts';

/** The rule sets: the multi-WEC status proposal (default) or what the released KubeStellar controller writes. */
export const mergeRuleSets = ['proposal', 'kubestellar'] as const;
/** A rule set. */
export type MergeRules = (typeof mergeRuleSets)[number];

/** A WEC's copy given with an explicit WEC name: a WorkStatus, or the workload object as read from that WEC. */
export interface WecInput {
	readonly wec: string;
	readonly object: unknown;
}

/** Options of a merge. */
export interface MergeOptions {
	/** The caller's clock for kstatus (ms since epoch); the merge itself never reads a clock. */
	readonly now?: number;
}

/** Everything a merge says: the status KubeStellar would write, where each field came from, and its effects. */
export interface WecMergeResult {
	readonly mode: MergeMode;
	readonly rules: MergeRules;
	/** The `.status` the WDS object ends up with (its current status when nothing would be written). */
	readonly status: Record<string, unknown>;
	/** For every merged field path, the rule and the WEC(s) that decided it. */
	readonly provenance: Readonly<Record<string, FieldProvenance>>;
	/** False when no update would be written: the status equals the current one once normalised. */
	readonly changed: boolean;
	/** kstatus of the workload (metadata and spec from the WDS) with that status. */
	readonly kstatus: KstatusResult;
	/** Argo CD health of the same object, null for kinds Argo CD has no check for. */
	readonly health: HealthResult | null;
	readonly notes: readonly string[];
}

/** One WEC's copy of the workload's status, as read from the inputs. */
export interface WecCopy {
	readonly wec: string;
	/** The copy's `.status` as given: undefined or null while the WEC has reported none. */
	readonly status: unknown;
	readonly from: 'WorkStatus' | 'object';
}

/** The WEC copies read from the inputs, with a note for each input left out and the plural a WorkStatus names. */
export interface WecCopies {
	readonly copies: readonly WecCopy[];
	readonly notes: readonly string[];
	/** `spec.sourceRef.resource` of the first matching WorkStatus, the plural KubeStellar matches clauses with. */
	readonly resource?: string;
}

function describeIdentity(group: string, kind: string, namespace: string, name: string): string {
	const gk = group === '' ? kind : `${group}/${kind}`;
	return `${gk} ${namespace === '' ? name : `${namespace}/${name}`}`;
}

/** Reads the per-WEC inputs: WorkStatus objects, `{ wec, object }` pairs. Never throws; bad inputs become notes. */
export function wecCopiesOf(workload: unknown, perWec: readonly unknown[]): WecCopies {
	const identity = workloadIdentityOf(workload);
	const copies: WecCopy[] = [];
	const notes: string[] = [];
	let resource: string | undefined;
	const wanted = describeIdentity(identity.group, identity.kind, identity.namespace, identity.name);
	perWec.forEach((input, index) => {
		let wec: string | undefined;
		let object: unknown = input;
		if (
			isRecord(input) &&
			typeof input.wec === 'string' &&
			'object' in input &&
			input.kind === undefined
		) {
			wec = input.wec;
			object = input.object;
			if (wec === '') {
				notes.push(`Input #${index} has an empty WEC name; it is left out.`);
				return;
			}
		}
		const label = wec ?? `Input #${index}`;
		if (!isRecord(object)) {
			notes.push(`${label}: the input is not an object; it is left out.`);
			return;
		}
		const kind = getString(object, 'kind');
		if (kind === 'WorkStatus') {
			const namespace = getString(object, 'metadata', 'namespace');
			const name = getString(object, 'metadata', 'name') ?? '(unnamed)';
			const wecName = wec ?? namespace;
			if (wecName === undefined || wecName === '') {
				notes.push(
					`${label}: WorkStatus ${name} has no metadata.namespace (the WEC name in the ITS); it is left out.`,
				);
				return;
			}
			if (wec !== undefined && namespace !== undefined && namespace !== wec) {
				notes.push(
					`${wec}: WorkStatus ${name} is in namespace ${namespace}; the given WEC name ${wec} is used.`,
				);
			}
			const sourceRef = getRecord(object, 'spec', 'sourceRef');
			if (!sourceRef) {
				notes.push(`${wecName}: WorkStatus ${name} has no spec.sourceRef; it is left out.`);
				return;
			}
			const refGroup = typeof sourceRef.group === 'string' ? sourceRef.group : '';
			const refKind = typeof sourceRef.kind === 'string' ? sourceRef.kind : '';
			const refNamespace = typeof sourceRef.namespace === 'string' ? sourceRef.namespace : '';
			const refName = typeof sourceRef.name === 'string' ? sourceRef.name : '';
			if (
				refGroup !== identity.group ||
				refKind !== identity.kind ||
				refNamespace !== identity.namespace ||
				refName !== identity.name
			) {
				notes.push(
					`${wecName}: WorkStatus ${name} is for ${describeIdentity(refGroup, refKind, refNamespace, refName)}, not ${wanted}; it is left out.`,
				);
				return;
			}
			if (typeof sourceRef.version === 'string' && sourceRef.version !== identity.version) {
				notes.push(
					`${wecName}: WorkStatus ${name} names version ${sourceRef.version}, the workload is ${identity.version}; its status is used anyway.`,
				);
			}
			if (
				resource === undefined &&
				typeof sourceRef.resource === 'string' &&
				sourceRef.resource !== ''
			) {
				resource = sourceRef.resource;
			}
			copies.push({ wec: wecName, status: object.status, from: 'WorkStatus' });
			return;
		}
		if (wec === undefined) {
			notes.push(
				`${label}: a ${kind ?? 'object'} that is not a WorkStatus needs a WEC name (give it as { wec, object }); it is left out.`,
			);
			return;
		}
		if (kind !== undefined || object.apiVersion !== undefined) {
			const copyGroup = groupOf(getString(object, 'apiVersion') ?? '');
			const copyNamespace = getString(object, 'metadata', 'namespace');
			const copyName = getString(object, 'metadata', 'name') ?? '';
			if (
				copyGroup !== identity.group ||
				kind !== identity.kind ||
				copyName !== identity.name ||
				(copyNamespace !== undefined && copyNamespace !== identity.namespace)
			) {
				notes.push(
					`${wec}: the object is ${describeIdentity(copyGroup, kind ?? '', copyNamespace ?? '', copyName)}, not ${wanted}; it is left out.`,
				);
				return;
			}
		}
		copies.push({ wec, status: object.status, from: 'object' });
	});
	return resource === undefined ? { copies, notes } : { copies, notes, resource };
}

/** Kinds whose status never comes back from WECs (pkg/util/authority.go WEC2WDSExceptions). */
function isReturnException(identity: WorkloadIdentity): boolean {
	return (
		(identity.group === '' && identity.kind === 'Namespace') ||
		(identity.group === 'apiextensions.k8s.io' && identity.kind === 'CustomResourceDefinition')
	);
}

function sortedConditions(value: unknown): unknown {
	if (!Array.isArray(value)) return value;
	return [...(value as readonly unknown[])].sort((a, b) => {
		const ta = isRecord(a) && typeof a.type === 'string' ? a.type : '';
		const tb = isRecord(b) && typeof b.type === 'string' ? b.type : '';
		return compareNames(ta, tb);
	});
}

function withoutNulls(value: unknown): unknown {
	if (Array.isArray(value)) return (value as readonly unknown[]).map(withoutNulls);
	if (!isRecord(value)) return value;
	const result: Record<string, unknown> = {};
	for (const [key, item] of Object.entries(value)) {
		if (item === null || item === undefined) continue;
		result[key] = key === 'conditions' ? sortedConditions(withoutNulls(item)) : withoutNulls(item);
	}
	return result;
}

/**
 * A status as the API server would store it, for comparing: nulls dropped, counters that are omitted when zero
 * dropped when 0, an empty condition list dropped, conditions ordered by type.
 */
export function normalisedStatusOf(
	status: unknown,
	group: string,
	kind: string,
): Record<string, unknown> {
	const clean = withoutNulls(isRecord(status) ? status : {}) as Record<string, unknown>;
	for (const counter of zeroOmittedCountersOf(group, kind)) {
		if (clean[counter] === 0) delete clean[counter];
	}
	if (Array.isArray(clean.conditions) && clean.conditions.length === 0) delete clean.conditions;
	return clean;
}

/** What the handler decided before labels and effects are worked out. */
interface Outcome {
	readonly mode: MergeMode;
	/** The status to write; null means "return nothing" (updateObjectStatus(nil)); `untouched`: no call at all. */
	readonly write: Readonly<Record<string, unknown>> | null | 'untouched';
	readonly isMultiWec: boolean;
	readonly provenance: Record<string, FieldProvenance>;
}

function verbatimProvenance(
	wec: string,
	status: Readonly<Record<string, unknown>>,
	source: string,
): Record<string, FieldProvenance> {
	const provenance: Record<string, FieldProvenance> = {};
	for (const key of Object.keys(status)) {
		provenance[key] = {
			rule: 'verbatim',
			source,
			wecs: [wec],
			detail: `copied as ${wec} reports it`,
		};
	}
	return provenance;
}

const singletonSource =
	'KubeStellar handleSingleton; KubeStellar multi-WEC status proposal (kubestellar#2809) §1, fallback for one WEC';

/** `handleSingleton`: exactly one WorkStatus in the WEC, copied verbatim; none or several clear the status. */
function singletonOutcome(
	wec: string,
	byWec: ReadonlyMap<string, readonly WecCopy[]>,
	notes: string[],
): Outcome {
	const copies = byWec.get(wec) ?? [];
	if (copies.length !== 1) {
		notes.push(
			`Singleton return needs exactly one WorkStatus of this workload in ${wec}; ${copies.length} given, so KubeStellar clears the status.`,
		);
		return { mode: 'cleared', write: null, isMultiWec: false, provenance: {} };
	}
	const status = copies[0]?.status;
	if (status === undefined || status === null) {
		notes.push(`${wec} has reported no status yet; KubeStellar leaves the WDS status as it is.`);
		return { mode: 'singleton', write: 'untouched', isMultiWec: false, provenance: {} };
	}
	if (!isRecord(status)) {
		notes.push(
			`${wec}: the status is not an object; KubeStellar fails to read it and leaves the WDS status as it is.`,
		);
		return { mode: 'singleton', write: 'untouched', isMultiWec: false, provenance: {} };
	}
	return {
		mode: 'singleton',
		write: status,
		isMultiWec: false,
		provenance: verbatimProvenance(wec, status, singletonSource),
	};
}

/** `handleMultiWEC`: the statuses of the qualified WECs, merged by the chosen rules. */
function multiOutcome(
	identity: WorkloadIdentity,
	wecs: readonly string[],
	byWec: ReadonlyMap<string, readonly WecCopy[]>,
	rules: MergeRules,
	notes: string[],
): Outcome {
	const entries: WecStatus[] = [];
	const missing: string[] = [];
	const noStatus: string[] = [];
	for (const wec of wecs) {
		const copies = byWec.get(wec);
		const first = copies?.[0];
		if (!copies || !first) {
			missing.push(wec);
			continue;
		}
		if (copies.length > 1) notes.push(`${wec}: ${copies.length} copies given; the first is used.`);
		const status = first.status;
		if (status === undefined || status === null) {
			noStatus.push(wec);
			continue;
		}
		if (!isRecord(status)) {
			notes.push(`${wec}: the status is not an object; ${wec} is left out.`);
			continue;
		}
		if (rules === 'proposal') {
			const problems = proposalStatusProblemsOf(identity.group, identity.kind, status);
			if (problems.length > 0) {
				notes.push(`${wec}: ${problems.join('; ')}; ${wec} is left out.`);
				continue;
			}
		}
		entries.push({ wec, status });
	}
	if (missing.length > 0) {
		notes.push(
			`${namesList(missing)} ${missing.length === 1 ? 'is' : 'are'} selected but no status was given; left out.`,
		);
	}
	if (noStatus.length > 0) {
		notes.push(
			`${namesList(noStatus)} reported no status yet; left out, as KubeStellar skips them.`,
		);
	}
	if (entries.length === 0) {
		notes.push('No WEC status to merge, so KubeStellar clears the status.');
		return { mode: 'cleared', write: null, isMultiWec: true, provenance: {} };
	}
	const only = entries.length === 1 ? entries[0] : undefined;
	if (only) {
		notes.push(
			`Only ${only.wec} has a status: it is copied verbatim, as the singleton fallback (KubeStellar then sets the singleton label).`,
		);
		return {
			mode: 'singleton',
			write: { ...only.status },
			isMultiWec: false,
			provenance: verbatimProvenance(only.wec, only.status, singletonSource),
		};
	}
	if (rules === 'kubestellar') {
		const merged = mergeKubestellarStatuses(identity.group, identity.kind, entries);
		if (!merged) {
			notes.push(
				`The released KubeStellar controller has no merge rule for ${identity.group === '' ? identity.kind : `${identity.group}/${identity.kind}`} (only apps Deployment, ReplicaSet, DaemonSet): it leaves the WDS object untouched.`,
			);
			return { mode: 'multi', write: 'untouched', isMultiWec: true, provenance: {} };
		}
		for (const note of merged.notes) notes.push(note);
		return { mode: 'multi', write: merged.status, isMultiWec: true, provenance: merged.provenance };
	}
	const merged = mergeProposalStatuses(identity.group, identity.kind, entries);
	for (const note of merged.notes) notes.push(note);
	return { mode: 'multi', write: merged.status, isMultiWec: true, provenance: merged.provenance };
}

/**
 * The multi-WEC status merge (issue 7). `perWec` holds WorkStatus objects (namespace = WEC) or `{ wec, object }`
 * pairs; `policies` holds BindingPolicies, Bindings, ManagedClusters and Namespaces, or null for "no policy:
 * the multi-WEC flag is on". Never throws: bad inputs are left out and named in `notes`.
 */
export function mergeWecStatuses(
	workload: unknown,
	perWec: readonly unknown[],
	policies: readonly unknown[] | null = null,
	rules: MergeRules = 'proposal',
	options: MergeOptions = {},
): WecMergeResult {
	const notes: string[] = [];
	if (!isRecord(workload)) {
		notes.push('The workload is not an object; nothing can be merged into it.');
	}
	const read = wecCopiesOf(workload, perWec);
	const identity = workloadIdentityOf(workload, read.resource);
	for (const note of read.notes) notes.push(note);
	const byWec = new Map<string, WecCopy[]>();
	for (const copy of read.copies) {
		const list = byWec.get(copy.wec) ?? [];
		list.push(copy);
		byWec.set(copy.wec, list);
	}
	const wecsWithInputs = [...byWec.keys()].sort(compareNames);
	const rawCurrent = getRecord(workload, 'status');
	if (
		isRecord(workload) &&
		workload.status !== undefined &&
		workload.status !== null &&
		!rawCurrent
	) {
		notes.push("The workload's current .status is not an object; it is treated as empty.");
	}
	const current: Readonly<Record<string, unknown>> = rawCurrent ?? {};
	const labels = returnLabelsOf(workload);

	let outcome: Outcome;
	if (!isRecord(workload)) {
		outcome = { mode: 'none', write: 'untouched', isMultiWec: false, provenance: {} };
	} else if (isReturnException(identity)) {
		notes.push(`KubeStellar never returns status into a ${identity.kind} (WEC2WDSExceptions).`);
		outcome = { mode: 'none', write: 'untouched', isMultiWec: false, provenance: {} };
	} else {
		const request = reportedStateRequestOf(identity, wecsWithInputs, policies);
		for (const note of request.notes) notes.push(note);
		if (request.bindingPolicyError !== undefined) {
			const policyNames = request.selectingPolicies.join(', ');
			notes.push(
				`KubeStellar writes this error into status.errors of BindingPolicy ${policyNames}: "${request.bindingPolicyError}"`,
			);
		}
		const qualified = new Set(request.wecs);
		const unused = wecsWithInputs.filter((wec) => !qualified.has(wec));
		if (unused.length > 0 && request.handler !== 'clear') {
			notes.push(
				`${namesList(unused)}: not among the WECs of a policy requesting status return for this workload; left out.`,
			);
		}
		const [onlyWec] = request.wecs;
		if (request.handler === 'singleton' && onlyWec !== undefined) {
			outcome = singletonOutcome(onlyWec, byWec, notes);
		} else if (request.handler === 'multi') {
			outcome = multiOutcome(identity, request.wecs, byWec, rules, notes);
		} else {
			const requested = request.singletonRequested || request.multiRequested;
			if (request.singletonRequested) {
				notes.push(
					`wantSingletonReportedState is set but ${request.singletonWecs.length} WECs are selected (${namesList(request.singletonWecs) || 'none'}): KubeStellar clears the status.`,
				);
			} else if (request.multiRequested) {
				notes.push(
					'wantMultiWECReportedState is set but no WEC is selected: KubeStellar clears the status.',
				);
			}
			outcome = {
				mode: requested || labels.singleton || labels.multiWec ? 'cleared' : 'none',
				write: null,
				isMultiWec: false,
				provenance: {},
			};
			if (!requested && (labels.singleton || labels.multiWec)) {
				notes.push(
					'No policy requests status return, but the object carries a status-return label: KubeStellar clears the status it returned before.',
				);
			}
		}
	}

	// updateObjectStatus: "return nothing" leaves an unlabelled object alone; otherwise the status is written
	// ({} when nothing is returned) and the two labels are set to match.
	let status: Record<string, unknown>;
	if (outcome.write === 'untouched') {
		status = { ...current };
	} else if (
		outcome.write === null &&
		!labels.singleton &&
		!labels.multiWec &&
		(outcome.mode !== 'cleared' || rules === 'kubestellar')
	) {
		status = { ...current };
		if (outcome.mode === 'cleared') {
			notes.push(
				'The object carries no status-return label, so the released controller leaves its .status as it is instead of emptying it.',
			);
		}
	} else {
		// Issue 7: `cleared` means the status is emptied. The released controller skips that for an object it never
		// labelled; the proposal rules follow the issue and say so.
		if (
			outcome.mode === 'cleared' &&
			rules === 'proposal' &&
			!labels.singleton &&
			!labels.multiWec
		) {
			notes.push(
				'The object carries no status-return label (managed-by.kubestellar.io/singletonstatus or multiwecstatus): the released KubeStellar controller would leave its .status as it is.',
			);
		}
		status = outcome.write === null ? {} : { ...outcome.write };
		const wantSingleton = outcome.write !== null && !outcome.isMultiWec;
		const wantMulti = outcome.write !== null && outcome.isMultiWec;
		const labelNotes: string[] = [];
		if (wantSingleton && !labels.singleton) {
			labelNotes.push(`adds the label ${statusReturnLabels.singleton}=true`);
		}
		if (wantMulti && !labels.multiWec) {
			labelNotes.push(`adds the label ${statusReturnLabels.multiWec}=true`);
		}
		if (labels.singleton && !wantSingleton) {
			labelNotes.push(`removes the label ${statusReturnLabels.singleton}`);
		}
		if (labels.multiWec && !wantMulti) {
			labelNotes.push(`removes the label ${statusReturnLabels.multiWec}`);
		}
		if (labelNotes.length > 0) {
			notes.push(`On the WDS object, KubeStellar ${labelNotes.join(' and ')}.`);
		}
	}

	const changed =
		canonicalJson(normalisedStatusOf(status, identity.group, identity.kind)) !==
		canonicalJson(normalisedStatusOf(current, identity.group, identity.kind));
	const object = isRecord(workload) ? { ...workload, status } : { status };
	const kstatusOptions = options.now === undefined ? {} : { now: options.now };
	return {
		mode: outcome.mode,
		rules,
		status,
		provenance: outcome.provenance,
		changed,
		kstatus: computeKstatus(object, kstatusOptions),
		health: computeHealth(object),
		notes,
	};
}
