// Which reported-state return KubeStellar applies to a workload, read from BindingPolicies and Bindings the way
// the released controller resolves it (kubestellar/kubestellar @ 1c28a8a1e3ae: pkg/binding/selectors.go
// `testObject`, pkg/binding/bindingpolicy-resolver.go `GetReportedStateRequestForObject`, pkg/status/
// singletonstatus.go `syncWorkloadObject`, pkg/binding/binding.go for the BindingPolicy error text).
import {
	getArray,
	getRecord,
	getString,
	groupOf,
	isRecord,
	labelsOf,
	versionOf,
} from '../model/object.ts';
import { namesList } from './mergeRules.ts';
import { resourceOfKind } from '../model/resourceNames.ts';

/** How the WDS object's `.status` is produced: merged, copied from one WEC, emptied, or left alone. */
export type MergeMode = 'multi' | 'singleton' | 'cleared' | 'none';

/** The labels KubeStellar's status controller puts on a WDS object whose status it returns (pkg/util). */
export const statusReturnLabels = {
	singleton: 'managed-by.kubestellar.io/singletonstatus',
	multiWec: 'managed-by.kubestellar.io/multiwecstatus',
} as const;

/** API groups of BindingPolicy and Binding: the released one and the one the proposal writes. */
const policyGroups = ['control.kubestellar.io', 'policies.kubestellar.io'] as const;

/** What identifies the workload to KubeStellar's selectors (its ObjectIdentifier plus labels). */
export interface WorkloadIdentity {
	readonly group: string;
	readonly version: string;
	readonly kind: string;
	/** Plural resource name, as downsync clauses' `resources` list it. */
	readonly resource: string;
	readonly namespace: string;
	readonly name: string;
	readonly labels: Readonly<Record<string, string>>;
}

export { resourceOfKind };

/** The identity of a workload object; `resource` overrides the plural guessed from the kind. */
export function workloadIdentityOf(workload: unknown, resource?: string): WorkloadIdentity {
	const apiVersion = getString(workload, 'apiVersion') ?? '';
	const kind = getString(workload, 'kind') ?? '';
	return {
		group: groupOf(apiVersion),
		version: versionOf(apiVersion),
		kind,
		resource: resource ?? resourceOfKind(kind),
		namespace: getString(workload, 'metadata', 'namespace') ?? '',
		name: getString(workload, 'metadata', 'name') ?? '',
		labels: labelsOf(workload),
	};
}

/** A Kubernetes label selector's verdict: matches, does not, or cannot be evaluated (invalid). */
type SelectorVerdict = 'match' | 'no-match' | 'invalid';

/** Evaluates a metav1.LabelSelector (matchLabels AND matchExpressions) against labels; empty matches all. */
export function labelSelectorVerdict(
	selector: unknown,
	labels: Readonly<Record<string, string>>,
): SelectorVerdict {
	if (!isRecord(selector)) return 'invalid';
	const matchLabels = selector.matchLabels;
	let verdict: SelectorVerdict = 'match';
	if (matchLabels !== undefined && matchLabels !== null) {
		if (!isRecord(matchLabels)) return 'invalid';
		for (const [key, value] of Object.entries(matchLabels)) {
			if (typeof value !== 'string') return 'invalid';
			if (labels[key] !== value) verdict = 'no-match';
		}
	}
	const expressions = selector.matchExpressions;
	if (expressions !== undefined && expressions !== null) {
		if (!Array.isArray(expressions)) return 'invalid';
		for (const expression of expressions as readonly unknown[]) {
			if (!isRecord(expression) || typeof expression.key !== 'string') return 'invalid';
			const values = expression.values ?? [];
			if (!Array.isArray(values) || values.some((value) => typeof value !== 'string')) {
				return 'invalid';
			}
			const has = Object.hasOwn(labels, expression.key);
			const value = labels[expression.key];
			switch (expression.operator) {
				case 'In':
					if (values.length === 0) return 'invalid';
					if (!has || !values.includes(value)) verdict = 'no-match';
					break;
				case 'NotIn':
					if (values.length === 0) return 'invalid';
					if (has && values.includes(value)) verdict = 'no-match';
					break;
				case 'Exists':
					if (values.length > 0) return 'invalid';
					if (!has) verdict = 'no-match';
					break;
				case 'DoesNotExist':
					if (values.length > 0) return 'invalid';
					if (has) verdict = 'no-match';
					break;
				default:
					return 'invalid';
			}
		}
	}
	return verdict;
}

function isEmptySelector(selector: unknown): boolean {
	if (!isRecord(selector)) return false;
	const labels = selector.matchLabels;
	const expressions = selector.matchExpressions;
	return (
		(!isRecord(labels) || Object.keys(labels).length === 0) &&
		(!Array.isArray(expressions) || expressions.length === 0)
	);
}

/** Reported-state flags a policy sets for the workload. */
interface Modulation {
	singleton: boolean;
	multi: boolean;
}

/** What one policy (a BindingPolicy, its Binding, or both under one name) says about the workload. */
interface PolicyVerdict {
	readonly name: string;
	readonly selects: boolean;
	readonly modulation: Modulation;
	readonly wecs: readonly string[];
}

/** The objects a merge reads besides the WEC statuses: policies, the cluster inventory, namespaces. */
interface PolicyInputs {
	readonly bindingPolicies: Map<string, Readonly<Record<string, unknown>>>;
	readonly bindings: Map<string, Readonly<Record<string, unknown>>>;
	readonly clusters: Map<string, Readonly<Record<string, string>>>;
	readonly namespaces: Map<string, Readonly<Record<string, string>>>;
}

function policyInputsOf(objects: readonly unknown[], notes: string[]): PolicyInputs {
	const inputs: PolicyInputs = {
		bindingPolicies: new Map(),
		bindings: new Map(),
		clusters: new Map(),
		namespaces: new Map(),
	};
	objects.forEach((object, index) => {
		if (!isRecord(object)) {
			notes.push(`Policy input #${index} is not an object; it is ignored.`);
			return;
		}
		const kind = getString(object, 'kind') ?? '';
		const group = groupOf(getString(object, 'apiVersion') ?? '');
		const name = getString(object, 'metadata', 'name') ?? '';
		if (kind === 'BindingPolicy' || kind === 'Binding') {
			if (name === '') {
				notes.push(`A ${kind} without metadata.name is ignored.`);
				return;
			}
			if (!(policyGroups as readonly string[]).includes(group)) {
				notes.push(
					`${kind} ${name} is in group "${group}", not ${policyGroups.join(' or ')}; it is ignored.`,
				);
				return;
			}
			const target = kind === 'BindingPolicy' ? inputs.bindingPolicies : inputs.bindings;
			if (target.has(name)) notes.push(`${kind} ${name} is given twice; the first one is used.`);
			else target.set(name, object);
		} else if (kind === 'ManagedCluster') {
			if (name !== '') inputs.clusters.set(name, labelsOf(object));
		} else if (kind === 'Namespace' && group === '') {
			if (name !== '') inputs.namespaces.set(name, labelsOf(object));
		}
	});
	return inputs;
}

/** `testObject` of selectors.go: does any downsync clause select the workload, and with which flags (ORed). */
function clausesVerdict(
	policyName: string,
	clauses: readonly unknown[],
	identity: WorkloadIdentity,
	namespaces: PolicyInputs['namespaces'],
	notes: string[],
): { selects: boolean; modulation: Modulation } {
	const modulation: Modulation = { singleton: false, multi: false };
	let selects = false;
	const listed = (value: unknown, wanted: string): boolean | undefined => {
		if (!Array.isArray(value) || value.length === 0) return undefined;
		return value.includes('*') || value.includes(wanted);
	};
	for (const clause of clauses) {
		if (!isRecord(clause)) continue;
		const apiGroup = clause.apiGroup;
		if (typeof apiGroup === 'string' && apiGroup !== identity.group) continue;
		if (listed(clause.resources, identity.resource) === false) continue;
		if (listed(clause.namespaces, identity.namespace) === false) continue;
		if (listed(clause.objectNames, identity.name) === false) continue;
		const objectSelectors = clause.objectSelectors;
		if (Array.isArray(objectSelectors) && objectSelectors.length > 0) {
			const verdicts = objectSelectors.map((selector) =>
				labelSelectorVerdict(selector, identity.labels),
			);
			if (verdicts.includes('invalid')) {
				notes.push(
					`BindingPolicy ${policyName} has an invalid objectSelector; KubeStellar skips it.`,
				);
			}
			if (!verdicts.includes('match')) continue;
		}
		const namespaceSelectors = clause.namespaceSelectors;
		if (
			Array.isArray(namespaceSelectors) &&
			namespaceSelectors.length > 0 &&
			!namespaceSelectors.some(isEmptySelector)
		) {
			const namespaceLabels = namespaces.get(identity.namespace);
			if (namespaceLabels === undefined) {
				notes.push(
					`BindingPolicy ${policyName} selects by namespaceSelectors, but no Namespace ${identity.namespace || '(cluster-scoped object)'} with labels is given, so that clause is taken not to match.`,
				);
				continue;
			}
			if (
				!namespaceSelectors.some(
					(selector) => labelSelectorVerdict(selector, namespaceLabels) === 'match',
				)
			) {
				continue;
			}
		}
		selects = true;
		modulation.singleton ||= clause.wantSingletonReportedState === true;
		modulation.multi ||= clause.wantMultiWECReportedState === true;
	}
	return { selects, modulation };
}

/** A Binding's verdict: the workload listed in spec.workload, with that entry's flags. */
function bindingWorkloadVerdict(
	binding: Readonly<Record<string, unknown>>,
	identity: WorkloadIdentity,
): { selects: boolean; modulation: Modulation } {
	const modulation: Modulation = { singleton: false, multi: false };
	let selects = false;
	const scope = identity.namespace === '' ? 'clusterScope' : 'namespaceScope';
	for (const entry of getArray(binding, 'spec', 'workload', scope) ?? []) {
		if (!isRecord(entry)) continue;
		if ((entry.group ?? '') !== identity.group) continue;
		if (entry.resource !== identity.resource) continue;
		if (entry.name !== identity.name) continue;
		if (identity.namespace !== '' && entry.namespace !== identity.namespace) continue;
		selects = true;
		modulation.singleton ||= entry.wantSingletonReportedState === true;
		modulation.multi ||= entry.wantMultiWECReportedState === true;
	}
	return { selects, modulation };
}

function destinationsOf(binding: Readonly<Record<string, unknown>>): string[] {
	const wecs: string[] = [];
	for (const destination of getArray(binding, 'spec', 'destinations') ?? []) {
		const id = getString(destination, 'clusterId');
		if (id !== undefined && id !== '') wecs.push(id);
	}
	return wecs;
}

/** `ocm.FindClustersBySelectors`: clusters matching any selector (an empty selector matches every cluster). */
function clustersSelectedBy(
	policyName: string,
	selectors: readonly unknown[],
	clusters: PolicyInputs['clusters'],
	notes: string[],
): string[] {
	const selected: string[] = [];
	for (const selector of selectors) {
		for (const [name, labels] of clusters) {
			const verdict = labelSelectorVerdict(selector, labels);
			if (verdict === 'invalid') {
				notes.push(
					`BindingPolicy ${policyName} has an invalid clusterSelector; KubeStellar selects no WEC for it.`,
				);
				return [];
			}
			if (verdict === 'match') selected.push(name);
		}
	}
	return selected;
}

function sortedUnique(names: Iterable<string>): string[] {
	return [...new Set(names)].sort(compareNames);
}

/** Byte-order comparison, so WEC order never depends on a locale. */
export function compareNames(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** Which handler KubeStellar's `syncWorkloadObject` calls, and on which WECs. */
export type ReturnHandler = 'singleton' | 'multi' | 'clear';

/** The reported-state request for a workload, resolved from policies the way KubeStellar does. */
export interface ReportedStateRequest {
	readonly handler: ReturnHandler;
	/** The qualified WECs the handler reads, sorted. */
	readonly wecs: readonly string[];
	readonly singletonRequested: boolean;
	readonly singletonWecs: readonly string[];
	readonly multiRequested: boolean;
	readonly multiWecs: readonly string[];
	/** Policies whose downsync clauses select the workload, sorted. */
	readonly selectingPolicies: readonly string[];
	/** The error KubeStellar writes into those BindingPolicies' status.errors, when it writes one. */
	readonly bindingPolicyError?: string;
	readonly notes: readonly string[];
}

/** The error text pkg/binding/binding.go writes when a singleton request has a number of WECs other than 1. */
export function singletonErrorText(identity: WorkloadIdentity, numWecs: number): string {
	// Go marshals util.ObjectIdentifier without json tags, so the field names are the Go ones.
	const example = JSON.stringify([
		{
			ObjectID: {
				GVK: { Group: identity.group, Version: identity.version, Kind: identity.kind },
				Resource: identity.resource,
				ObjectName: { Namespace: identity.namespace, Name: identity.name },
			},
			NumWECs: numWecs,
		},
	]);
	return `Singleton reported status return is requested but some objects have the wrong number of associated WECs, for example: ${example}`;
}

/**
 * The reported-state request for a workload. `policies` holds BindingPolicies, Bindings, ManagedClusters and
 * Namespaces; null means no policy was given and the multi-WEC flag is taken to be on for `wecsWithInputs`.
 */
export function reportedStateRequestOf(
	identity: WorkloadIdentity,
	wecsWithInputs: readonly string[],
	policies: readonly unknown[] | null,
): ReportedStateRequest {
	const notes: string[] = [];
	const inputs = policyInputsOf(policies ?? [], notes);
	const names = sortedUnique([...inputs.bindingPolicies.keys(), ...inputs.bindings.keys()]);
	if (policies === null || names.length === 0) {
		const wecs = sortedUnique(wecsWithInputs);
		notes.unshift(
			`No BindingPolicy or Binding given: wantMultiWECReportedState is taken to be set, for the WECs with inputs (${namesList(wecs) || 'none'}).`,
		);
		return resolvedRequest(identity, false, [], true, wecs, [], notes);
	}
	let assumedInputs = false;
	const verdicts: PolicyVerdict[] = [];
	for (const name of names) {
		const policy = inputs.bindingPolicies.get(name);
		const binding = inputs.bindings.get(name);
		const { selects, modulation } = policy
			? clausesVerdict(
					name,
					getArray(policy, 'spec', 'downsync') ?? [],
					identity,
					inputs.namespaces,
					notes,
				)
			: binding
				? bindingWorkloadVerdict(binding, identity)
				: { selects: false, modulation: { singleton: false, multi: false } };
		let wecs: string[];
		if (binding) {
			wecs = destinationsOf(binding);
		} else if (inputs.clusters.size > 0) {
			wecs = clustersSelectedBy(
				name,
				getArray(policy, 'spec', 'clusterSelectors') ?? [],
				inputs.clusters,
				notes,
			);
		} else {
			wecs = [...wecsWithInputs];
			if (selects) assumedInputs = true;
		}
		verdicts.push({ name, selects, modulation, wecs: sortedUnique(wecs) });
	}
	if (assumedInputs) {
		notes.push(
			'No ManagedCluster objects or Binding destinations tell which WECs a BindingPolicy selects, so the WECs with inputs are taken.',
		);
	}
	const selecting = verdicts.filter((verdict) => verdict.selects);
	// GetReportedStateRequestForObject: flags and qualified WECs add up over every policy selecting the workload.
	const singletonWecs = new Set<string>();
	const multiWecs = new Set<string>();
	let singletonRequested = false;
	let multiRequested = false;
	for (const verdict of selecting) {
		if (verdict.modulation.singleton) {
			singletonRequested = true;
			for (const wec of verdict.wecs) singletonWecs.add(wec);
		}
		if (verdict.modulation.multi) {
			multiRequested = true;
			for (const wec of verdict.wecs) multiWecs.add(wec);
		}
	}
	if (selecting.length === 0) {
		notes.push('No BindingPolicy or Binding given selects this workload.');
	}
	return resolvedRequest(
		identity,
		singletonRequested,
		sortedUnique(singletonWecs),
		multiRequested,
		sortedUnique(multiWecs),
		selecting.map((verdict) => verdict.name),
		notes,
	);
}

/** `syncWorkloadObject`'s dispatch on the two flags and their qualified WECs. */
function resolvedRequest(
	identity: WorkloadIdentity,
	singletonRequested: boolean,
	singletonWecs: readonly string[],
	multiRequested: boolean,
	multiWecs: readonly string[],
	selectingPolicies: readonly string[],
	notes: string[],
): ReportedStateRequest {
	let handler: ReturnHandler;
	let wecs: readonly string[];
	if (singletonRequested && multiRequested) {
		// Both requested: decided on the union of their WECs.
		wecs = sortedUnique([...singletonWecs, ...multiWecs]);
		handler = wecs.length === 1 ? 'singleton' : 'multi';
	} else if (multiRequested && multiWecs.length === 1) {
		wecs = multiWecs;
		handler = 'singleton';
	} else if (singletonRequested && singletonWecs.length === 1) {
		wecs = singletonWecs;
		handler = 'singleton';
	} else if (multiRequested && multiWecs.length > 0) {
		wecs = multiWecs;
		handler = 'multi';
	} else {
		wecs = [];
		handler = 'clear';
	}
	const request = {
		handler,
		wecs,
		singletonRequested,
		singletonWecs,
		multiRequested,
		multiWecs,
		selectingPolicies,
		notes,
	};
	if (singletonRequested && singletonWecs.length !== 1) {
		return { ...request, bindingPolicyError: singletonErrorText(identity, singletonWecs.length) };
	}
	return request;
}

/** The status-return labels the workload carries now. */
export function returnLabelsOf(workload: unknown): { singleton: boolean; multiWec: boolean } {
	const labels = getRecord(workload, 'metadata', 'labels') ?? {};
	return {
		singleton: Object.hasOwn(labels, statusReturnLabels.singleton),
		multiWec: Object.hasOwn(labels, statusReturnLabels.multiWec),
	};
}
