// Which inventory clusters a KubeStellar BindingPolicy selects and which workload objects its downsync clauses select,
// as kubestellar/kubestellar (1c28a8a1e3ae) decides them: pkg/ocm/ocm.go FindClustersBySelectors (spec.clusterSelectors
// ORed against the ManagedClusters' labels; none selects no cluster; a malformed one fails the reconcile) and
// pkg/binding/selectors.go testObject (a clause ANDs apiGroup, resources, namespaces, objectNames, objectSelectors and
// namespaceSelectors, each absent or empty matching everything and "*" anything; the selector lists are ORed; an object
// matches when any clause does; a malformed selector is skipped).
import { getArray, getPath, getString, groupOf, isRecord, labelsOf } from '../model/object.ts';
import { resourceOfKind } from '../model/resourceNames.ts';
import { labelSelectorMatcherOf } from '../model/labelSelector.ts';
import { isKubestellarGroup } from '../status/kubestellar.ts';
import { selectorWords, withoutLists } from './fleetTargets.ts';

/** Where one BindingPolicy goes, as the `targets` command's contract writes it. */
export interface BindingPolicyTargeting {
	readonly kind: 'BindingPolicy';
	readonly name: string;
	readonly clusters: readonly {
		readonly name: string;
		readonly deployed: boolean;
		readonly why: string;
	}[];
	readonly objects: readonly {
		readonly apiVersion: string;
		readonly kind: string;
		readonly namespace: string;
		readonly name: string;
		readonly selected: boolean;
	}[];
	/** The controller's error for a malformed cluster selector: no cluster is selected then. */
	readonly error?: string;
}

const inventoryGroup = 'cluster.open-cluster-management.io';

function isPolicy(object: unknown): object is Record<string, unknown> {
	return (
		isRecord(object) &&
		object.kind === 'BindingPolicy' &&
		isKubestellarGroup(groupOf(getString(object, 'apiVersion') ?? ''))
	);
}

function strings(value: unknown): string[] {
	return Array.isArray(value)
		? value.filter((item): item is string => typeof item === 'string')
		: [];
}

function listAllows(list: readonly string[], value: string): boolean {
	return list.length === 0 || list.includes('*') || list.includes(value);
}

/** Whether any of these selectors matches (malformed ones skipped, as labelsMatchAny does). */
function anyMatches(
	selectors: readonly unknown[],
	labels: Readonly<Record<string, string>>,
): boolean {
	return selectors.some((selector) => {
		const matcher = labelSelectorMatcherOf(selector);
		return matcher.ok && matcher.matches(labels);
	});
}

function isEmptySelector(selector: unknown): boolean {
	return (
		isRecord(selector) &&
		Object.keys(getPath(selector, 'matchLabels') ?? {}).length === 0 &&
		(getArray(selector, 'matchExpressions') ?? []).length === 0
	);
}

function clauseSelects(
	clause: unknown,
	object: Record<string, unknown>,
	namespaceLabels: ReadonlyMap<string, Readonly<Record<string, string>>>,
): boolean {
	const apiGroup = getPath(clause, 'apiGroup');
	const group = groupOf(getString(object, 'apiVersion') ?? '');
	if (typeof apiGroup === 'string' && apiGroup !== group) return false;
	const kind = getString(object, 'kind') ?? '';
	if (!listAllows(strings(getPath(clause, 'resources')), resourceOfKind(kind))) return false;
	const namespace = getString(object, 'metadata', 'namespace') ?? '';
	if (!listAllows(strings(getPath(clause, 'namespaces')), namespace)) return false;
	if (
		!listAllows(
			strings(getPath(clause, 'objectNames')),
			getString(object, 'metadata', 'name') ?? '',
		)
	) {
		return false;
	}
	const objectSelectors = getArray(clause, 'objectSelectors') ?? [];
	if (objectSelectors.length > 0 && !anyMatches(objectSelectors, labelsOf(object))) return false;
	const namespaceSelectors = getArray(clause, 'namespaceSelectors') ?? [];
	if (namespaceSelectors.length > 0 && !namespaceSelectors.some(isEmptySelector)) {
		const labels = namespaceLabels.get(namespace);
		// The controller gets the Namespace; without it (or for a cluster-scoped object) the clause does not match.
		if (labels === undefined || !anyMatches(namespaceSelectors, labels)) return false;
	}
	return true;
}

/** API groups the controller does not watch for workload objects (binding-controller.go excludedGroups). */
const unwatchedGroups: ReadonlySet<string> = new Set([
	'flowcontrol.apiserver.k8s.io',
	'discovery.k8s.io',
	'apiregistration.k8s.io',
	'coordination.k8s.io',
	'control.kubestellar.io',
]);

/** group/resource pairs it does not watch either (binding-controller.go excludedGroupResources). */
const unwatchedResources: ReadonlySet<string> = new Set([
	'/events',
	'events.k8s.io/events',
	'/nodes',
	'storage.k8s.io/csistoragecapacities',
	'storage.k8s.io/csinodes',
	'/endpoints',
]);

/** An object a downsync clause can place: not KubeStellar's or OCM's own, nor of a kind the controller never watches. */
function isWorkload(object: unknown): object is Record<string, unknown> {
	if (!isRecord(object) || typeof object.kind !== 'string') return false;
	const group = groupOf(getString(object, 'apiVersion') ?? '');
	return (
		!isKubestellarGroup(group) &&
		group !== inventoryGroup &&
		object.kind !== 'List' &&
		!unwatchedGroups.has(group) &&
		!unwatchedResources.has(`${group}/${resourceOfKind(object.kind)}`)
	);
}

function policyTargeting(
	policy: Record<string, unknown>,
	inventory: readonly Record<string, unknown>[],
	workloads: readonly Record<string, unknown>[],
	namespaceLabels: ReadonlyMap<string, Readonly<Record<string, string>>>,
): BindingPolicyTargeting {
	const name = getString(policy, 'metadata', 'name') ?? '';
	const selectors = getArray(policy, 'spec', 'clusterSelectors') ?? [];
	const matchers = selectors.map((selector) => labelSelectorMatcherOf(selector));
	const broken = matchers.find((matcher) => !matcher.ok);
	const error =
		broken && !broken.ok
			? `failed to ocm.FindClustersBySelectors: failed to convert metav1.LabelSelector to labels.Selector: ${broken.error}`
			: undefined;
	const clusters = inventory
		.map((cluster) => {
			const clusterName = getString(cluster, 'metadata', 'name') ?? '';
			const labels = labelsOf(cluster);
			if (error) {
				return {
					name: clusterName,
					deployed: false,
					why: `The controller selects no cluster: ${error}.`,
				};
			}
			if (selectors.length === 0) {
				return {
					name: clusterName,
					deployed: false,
					why: 'spec.clusterSelectors is empty, which selects no cluster.',
				};
			}
			const index = matchers.findIndex((matcher) => matcher.ok && matcher.matches(labels));
			return index >= 0
				? {
						name: clusterName,
						deployed: true,
						why: `clusterSelectors[${index}] (${selectorWords(selectors[index])}) matches its labels.`,
					}
				: {
						name: clusterName,
						deployed: false,
						why: `No clusterSelectors entry matches: it wants ${selectors.map(selectorWords).join(' or ')}; cluster \`${clusterName}\` has ${
							Object.entries(labels)
								.map(([key, value]) => `${key}=${value}`)
								.join(', ') || 'no labels'
						}.`,
					};
		})
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	const clauses = getArray(policy, 'spec', 'downsync') ?? [];
	const objects = workloads.map((object) => ({
		apiVersion: getString(object, 'apiVersion') ?? '',
		kind: getString(object, 'kind') ?? '',
		namespace: getString(object, 'metadata', 'namespace') ?? '',
		name: getString(object, 'metadata', 'name') ?? '',
		selected: clauses.some((clause) => clauseSelects(clause, object, namespaceLabels)),
	}));
	return { kind: 'BindingPolicy', name, clusters, objects, ...(error ? { error } : {}) };
}

/** Every BindingPolicy of the input with the inventory clusters and workload objects it selects. */
export function bindingPolicyTargetsOf(objects: readonly unknown[]): BindingPolicyTargeting[] {
	const all = withoutLists(objects);
	const inventory = all.filter(
		(object): object is Record<string, unknown> =>
			isRecord(object) &&
			object.kind === 'ManagedCluster' &&
			groupOf(getString(object, 'apiVersion') ?? '') === inventoryGroup,
	);
	const namespaceLabels = new Map<string, Readonly<Record<string, string>>>();
	for (const object of all) {
		if (isRecord(object) && object.kind === 'Namespace' && object.apiVersion === 'v1') {
			namespaceLabels.set(getString(object, 'metadata', 'name') ?? '', labelsOf(object));
		}
	}
	const workloads = all.filter(isWorkload);
	return all
		.filter(isPolicy)
		.map((policy) => policyTargeting(policy, inventory, workloads, namespaceLabels));
}
