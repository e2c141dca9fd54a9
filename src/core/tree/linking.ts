// How objects point at each other, read from untrusted JSON: the links the resource graph indexes. Each function
// reads one object and never throws. Sources: rancher/fleet internal/cmd/controller/target/target.go (the labels a
// BundleDeployment carries), reconciler/cluster_controller.go (a Cluster's status.namespace) and
// reconciler/clustergroup_controller.go (ClusterGroup selectors); kubestellar/kubestellar api/control/v1alpha1/types.go
// (Binding, downsync clauses) and kubestellar/ocm-status-addon api/v1alpha1/workstatus_types.go (WorkStatus
// sourceRef); Kubernetes metadata.ownerReferences for Harbor.
import { getArray, getPath, getRecord, getString, groupOf, isRecord } from '../model/object.ts';
import { fleetLabels } from '../status/fleetSummary.ts';
import { labelSelectorMatcherOf } from '../model/labelSelector.ts';
import { resourceOfKind } from '../model/resourceNames.ts';

/** The Fleet API group. */
export const fleetApiGroup = 'fleet.cattle.io';

/** The identity of an object in the graph: "group|kind|namespace|name", with "" for what is missing. */
export function objectKey(group: string, kind: string, namespace: string, name: string): string {
	return `${group}|${kind}|${namespace}|${name}`;
}

/** The graph key of an object: group|kind|namespace|name (group "" for the core group). */
export function objectKeyOf(object: unknown): string {
	return objectKey(
		groupOf(getString(object, 'apiVersion') ?? ''),
		getString(object, 'kind') ?? '',
		getString(object, 'metadata', 'namespace') ?? '',
		getString(object, 'metadata', 'name') ?? '',
	);
}

/** True when an object carries a status worth preferring over a bare manifest (not absent, null or `{}`). */
export function hasStatus(object: unknown): boolean {
	const status = getPath(object, 'status');
	if (status === undefined || status === null) return false;
	if (!isRecord(status)) return true;
	for (const _key in status) return true;
	return false;
}

/** "namespace/name", the way Fleet pairs are written in labels and messages. */
export function pairOf(namespace: string, name: string): string {
	return `${namespace}/${name}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Fleet

/** The graph key of the GitRepo that made a Fleet Bundle: its repo-name label, in the Bundle's namespace. */
export function bundleGitRepoKeyOf(bundle: unknown): string | undefined {
	const repoName = getString(bundle, 'metadata', 'labels', 'fleet.cattle.io/repo-name');
	return repoName
		? objectKey(
				fleetApiGroup,
				'GitRepo',
				getString(bundle, 'metadata', 'namespace') ?? '',
				repoName,
			)
		: undefined;
}

/** Where a BundleDeployment belongs, by the labels Fleet copies onto it (target.go BundleDeploymentLabels). */
export interface BundleDeploymentLinks {
	/** The Bundle slot: "ns/name" from bundle-namespace + bundle-name, or "?<bd name>" when the label is missing. */
	readonly slot: string;
	/** Key of the Bundle, only when the bundle-name label is set (computeFleetRollups links only those). */
	readonly bundleKey?: string;
	/** "ns/name" of the GitRepo (fleet.cattle.io/repo-name in the bundle namespace). */
	readonly repo?: string;
	/** "ns/name" of the HelmOp (fleet.cattle.io/fleet-helm-name in the bundle namespace). */
	readonly helmOp?: string;
	/** "ns/name" of the Cluster when both cluster labels are set; otherwise the BD namespace links it. */
	readonly cluster?: string;
	/** Key of that Cluster. */
	readonly clusterKey?: string;
	/** The fleet.cattle.io/cluster label ("" when absent): how a BD is named under its Bundle. */
	readonly clusterName: string;
	/** The fleet.cattle.io/bundle-namespace label ("" when absent). */
	readonly bundleNamespace: string;
	/** Everything the links were read from, to reuse them when an update leaves it unchanged. */
	readonly source: string;
	readonly namespace: string;
	/** Keys of the GitRepo and HelmOp the labels name (repo first): the owner of a Bundle that is not in the input. */
	readonly ownerKeys: readonly string[];
}

function labelOf(labels: Record<string, unknown> | undefined, key: string): string {
	const value = labels?.[key];
	return typeof value === 'string' ? value : '';
}

/** The links of a BundleDeployment: same rules as computeFleetRollups (fleet.ts); `previous` is reused if still right. */
export function bundleDeploymentLinksOf(
	object: unknown,
	previous?: BundleDeploymentLinks,
): BundleDeploymentLinks {
	// Six lookups rather than a copy of every label: this runs for each BundleDeployment event, and most events
	// (status updates) leave them as they were, so the previous links are reused.
	const labels = getRecord(object, 'metadata', 'labels');
	const bundleNamespace = labelOf(labels, fleetLabels.bundleNamespace);
	const bundleName = labelOf(labels, fleetLabels.bundleName);
	const repo = labelOf(labels, fleetLabels.repoName);
	const helmOp = labelOf(labels, fleetLabels.helmOpName);
	const cluster = labelOf(labels, fleetLabels.cluster);
	const clusterNamespace = labelOf(labels, fleetLabels.clusterNamespace);
	const namespace = getString(object, 'metadata', 'namespace') ?? '';
	const name = getString(object, 'metadata', 'name') ?? '';
	const source = [
		bundleNamespace,
		bundleName,
		repo,
		helmOp,
		cluster,
		clusterNamespace,
		namespace,
		name,
	].join('\u0000');
	if (previous?.source === source) return previous;

	const links: {
		-readonly [K in keyof BundleDeploymentLinks]: BundleDeploymentLinks[K];
	} = {
		slot: bundleName ? pairOf(bundleNamespace, bundleName) : `?${name}`,
		namespace,
		ownerKeys: fleetOwnerCandidatesOf(object, bundleNamespace).map(fleetOwnerKeyOf),
		clusterName: cluster,
		bundleNamespace,
		source,
	};
	if (bundleName) links.bundleKey = objectKey(fleetApiGroup, 'Bundle', bundleNamespace, bundleName);
	if (repo) links.repo = pairOf(bundleNamespace, repo);
	if (helmOp) links.helmOp = pairOf(bundleNamespace, helmOp);
	if (cluster && clusterNamespace) {
		links.cluster = pairOf(clusterNamespace, cluster);
		links.clusterKey = objectKey(fleetApiGroup, 'Cluster', clusterNamespace, cluster);
	}
	return links;
}

function isLabelValue(value: string): boolean {
	return value.length <= 63 && /^(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/.test(value);
}

function isDnsLabel(value: string): boolean {
	return value.length <= 63 && /^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$/.test(value);
}

/** How to list the BundleDeployments under a Fleet node that are not watched: a label selector, a namespace, or both. */
export interface BundleDeploymentQuery {
	readonly labelSelector: string;
	readonly namespace?: string;
}

/**
 * The BundleDeployments of a Bundle (by the bundle labels Fleet copies onto them) or of a Cluster (its status
 * namespace holds exactly its BundleDeployments; else by the cluster labels); undefined for other kinds.
 */
export function bundleDeploymentQueryOf(
	kind: string,
	object: unknown,
): BundleDeploymentQuery | undefined {
	const name = getString(object, 'metadata', 'name') ?? '';
	const namespace = getString(object, 'metadata', 'namespace') ?? '';
	// Names from a cluster are untrusted: only values a label selector can hold, so none can add a term.
	if (!isLabelValue(name) || !isLabelValue(namespace) || name === '') return undefined;
	if (kind === 'Bundle') {
		return {
			labelSelector: `${fleetLabels.bundleName}=${name},${fleetLabels.bundleNamespace}=${namespace}`,
		};
	}
	if (kind === 'Cluster') {
		const statusNamespace = getString(object, 'status', 'namespace') ?? '';
		// A namespace that is not a DNS label (say "..") could widen the list to every namespace.
		return isDnsLabel(statusNamespace)
			? { labelSelector: '', namespace: statusNamespace }
			: {
					labelSelector: `${fleetLabels.cluster}=${name},${fleetLabels.clusterNamespace}=${namespace}`,
				};
	}
	return undefined;
}

/** The GitRepo or HelmOp that owns a Bundle (or BD), as "repo:ns/name" / "helm:ns/name" candidates, repo first. */
export function fleetOwnerCandidatesOf(object: unknown, namespace: string): string[] {
	const labels = getRecord(object, 'metadata', 'labels');
	const candidates: string[] = [];
	const repo = labelOf(labels, fleetLabels.repoName);
	if (repo) candidates.push(`repo:${namespace}\u0000${repo}`);
	const helmOp = labelOf(labels, fleetLabels.helmOpName);
	if (helmOp) candidates.push(`helm:${namespace}\u0000${helmOp}`);
	return candidates;
}

/** The object key an owner candidate ("repo:..." or "helm:...") stands for. */
export function fleetOwnerKeyOf(candidate: string): string {
	const kind = candidate.startsWith('repo:') ? 'GitRepo' : 'HelmOp';
	const [namespace = '', name = ''] = candidate.slice(5).split('\u0000');
	return objectKey(fleetApiGroup, kind, namespace, name);
}

/** A ClusterGroup's cluster predicate: nil or invalid selector selects nothing, an empty one all (clustergroup_controller.go). */
export function clusterGroupMatcherOf(
	group: unknown,
): (labels: Readonly<Record<string, string>>) => boolean {
	const matcher = labelSelectorMatcherOf(getPath(group, 'spec', 'selector'));
	return matcher.ok ? matcher.matches : () => false;
}

// ---------------------------------------------------------------------------------------------------------------
// KubeStellar

/** A workload a Binding lists (spec.workload.clusterScope / namespaceScope). */
export interface WorkloadRef {
	readonly group: string;
	readonly resource: string;
	readonly namespace: string;
	readonly name: string;
}

/** "group|namespace|name": what a Binding entry, a WorkStatus and an object share, whatever the kind spelling. */
export function workloadNameKey(group: string, namespace: string, name: string): string {
	return `${group}|${namespace}|${name}`;
}

/** The workloads a Binding lists. */
export function bindingWorkloadRefsOf(binding: unknown): WorkloadRef[] {
	const refs: WorkloadRef[] = [];
	const read = (entries: readonly unknown[] | undefined, namespaced: boolean) => {
		for (const entry of entries ?? []) {
			const name = getString(entry, 'name');
			if (!name) continue;
			refs.push({
				group: getString(entry, 'group') ?? '',
				resource: getString(entry, 'resource') ?? '',
				namespace: namespaced ? (getString(entry, 'namespace') ?? '') : '',
				name,
			});
		}
	};
	read(getArray(binding, 'spec', 'workload', 'clusterScope'), false);
	read(getArray(binding, 'spec', 'workload', 'namespaceScope'), true);
	return refs;
}

/** True when a resource name (plural, singular or "*") names this kind. */
export function resourceNamesKind(resource: string, kind: string): boolean {
	const lower = resource.toLowerCase();
	return lower === '*' || lower === resourceOfKind(kind) || lower === kind.toLowerCase();
}

/** A label selector (metav1.LabelSelector) as a predicate; nil or invalid selects nothing, empty selects all. */
function labelSelectorOf(selector: unknown): (labels: Readonly<Record<string, string>>) => boolean {
	const matcher = labelSelectorMatcherOf(selector);
	return matcher.ok ? matcher.matches : () => false;
}

/** One BindingPolicy downsync clause, read once (kubestellar types.go DownsyncObjectTest: criteria ANDed, each list ORed, empty = all). */
export interface DownsyncClause {
	readonly apiGroup: string | undefined;
	readonly resources: readonly string[];
	readonly namespaces: readonly string[];
	readonly namespaceSelectors: readonly ((labels: Readonly<Record<string, string>>) => boolean)[];
	readonly objectNames: readonly string[];
	readonly objectSelectors: readonly ((labels: Readonly<Record<string, string>>) => boolean)[];
	/** Namespaces the clause can only match in, or undefined when it can match anywhere. */
	readonly onlyNamespaces: readonly string[] | undefined;
}

function strings(value: unknown): string[] {
	return Array.isArray(value)
		? value.filter((entry): entry is string => typeof entry === 'string')
		: [];
}

/** The downsync clauses of a BindingPolicy; a clause with no discriminating criterion is dropped (it matches nothing). */
export function downsyncClausesOf(policy: unknown): DownsyncClause[] {
	const clauses: DownsyncClause[] = [];
	for (const entry of getArray(policy, 'spec', 'downsync') ?? []) {
		if (!isRecord(entry)) continue;
		const apiGroupValue = entry.apiGroup;
		const apiGroup = typeof apiGroupValue === 'string' ? apiGroupValue : undefined;
		const resources = strings(entry.resources);
		const namespaces = strings(entry.namespaces);
		const namespaceSelectorValues = Array.isArray(entry.namespaceSelectors)
			? entry.namespaceSelectors
			: [];
		const objectNames = strings(entry.objectNames);
		const objectSelectorValues = Array.isArray(entry.objectSelectors) ? entry.objectSelectors : [];
		const discriminates =
			apiGroup !== undefined ||
			resources.length > 0 ||
			namespaces.length > 0 ||
			namespaceSelectorValues.length > 0 ||
			objectNames.length > 0 ||
			objectSelectorValues.length > 0;
		if (!discriminates) continue;
		const namespaceSelectors = namespaceSelectorValues.map(labelSelectorOf);
		clauses.push({
			apiGroup,
			resources,
			namespaces,
			namespaceSelectors,
			objectNames,
			objectSelectors: objectSelectorValues.map(labelSelectorOf),
			onlyNamespaces:
				namespaces.length > 0 && !namespaces.includes('*') && namespaceSelectors.length === 0
					? namespaces
					: undefined,
		});
	}
	return clauses;
}

/** What a downsync clause looks at in a candidate object. */
export interface DownsyncCandidate {
	readonly group: string;
	readonly kind: string;
	readonly namespace: string;
	readonly name: string;
	/** Read only when a clause selects by labels. */
	readonly labels: () => Readonly<Record<string, string>>;
}

/**
 * True when a clause selects the object. Namespaces: "*" matches all, a cluster-scoped object needs "*"; with no
 * namespaces and no namespace selectors any namespace matches. Namespace selectors read the labels of the Namespace
 * objects the caller knows (none known = no labels).
 */
export function clauseSelects(
	clause: DownsyncClause,
	candidate: DownsyncCandidate,
	namespaceLabels: (namespace: string) => Readonly<Record<string, string>>,
): boolean {
	if (clause.apiGroup !== undefined && clause.apiGroup !== candidate.group) return false;
	if (
		clause.resources.length > 0 &&
		!clause.resources.some((resource) => resourceNamesKind(resource, candidate.kind))
	) {
		return false;
	}
	if (candidate.namespace === '') {
		if (!clause.namespaces.includes('*')) return false;
	} else if (clause.namespaces.length > 0 || clause.namespaceSelectors.length > 0) {
		const byName =
			clause.namespaces.includes('*') || clause.namespaces.includes(candidate.namespace);
		if (!byName) {
			const labels = namespaceLabels(candidate.namespace);
			if (!clause.namespaceSelectors.some((matches) => matches(labels))) return false;
		}
	}
	if (
		clause.objectNames.length > 0 &&
		!clause.objectNames.includes('*') &&
		!clause.objectNames.includes(candidate.name)
	) {
		return false;
	}
	if (clause.objectSelectors.length > 0) {
		const labels = candidate.labels();
		if (!clause.objectSelectors.some((matches) => matches(labels))) return false;
	}
	return true;
}

/** What a WorkStatus says it reports on (spec.sourceRef). */
export interface WorkStatusSource {
	readonly group: string;
	readonly kind: string;
	readonly resource: string;
	readonly namespace: string;
	readonly name: string;
	/** The graph key of the WDS object, as computeStatuses looks it up. */
	readonly key: string;
}

/** The source of a WorkStatus, or undefined when spec.sourceRef is missing. */
export function workStatusSourceOf(workStatus: unknown): WorkStatusSource | undefined {
	const sourceRef = getRecord(workStatus, 'spec', 'sourceRef');
	if (!sourceRef) return undefined;
	const text = (value: unknown) => (typeof value === 'string' ? value : '');
	const group = text(sourceRef.group);
	const kind = text(sourceRef.kind);
	const namespace = text(sourceRef.namespace);
	const name = text(sourceRef.name);
	return {
		group,
		kind,
		resource: text(sourceRef.resource),
		namespace,
		name,
		key: objectKey(group, kind, namespace, name),
	};
}

// ---------------------------------------------------------------------------------------------------------------
// Owners

/** Graph keys of the owners an object names in metadata.ownerReferences (owners in the object's namespace). */
export function ownerKeysOf(object: unknown): string[] {
	const namespace = getString(object, 'metadata', 'namespace') ?? '';
	const keys: string[] = [];
	for (const reference of getArray(object, 'metadata', 'ownerReferences') ?? []) {
		const kind = getString(reference, 'kind');
		const name = getString(reference, 'name');
		if (!kind || !name) continue;
		keys.push(objectKey(groupOf(getString(reference, 'apiVersion') ?? ''), kind, namespace, name));
	}
	return keys;
}

/** English plural of a kind for category labels: HelmRepository -> HelmRepositories, Kustomization -> Kustomizations. */
export function pluralOfKind(kind: string): string {
	if (/[^aeiouAEIOU]y$/.test(kind)) return `${kind.slice(0, -1)}ies`;
	if (/(s|x|z|ch|sh)$/.test(kind)) return `${kind}es`;
	return `${kind}s`;
}
