// Where a Fleet Bundle goes, and why not elsewhere: which Clusters the Fleet controller gives a BundleDeployment,
// with which target and customization, as rancher/fleet main (3b2c622ce176, the same as v0.16.1) decides it:
// internal/cmd/controller/target/builder.go (Targets), target/matcher/bundlematch.go and clustermatcher.go,
// target/query.go (ClusterGroupsForCluster), target/mapping.go (BundleNamespaceMapping).
// - Candidates: every Cluster of the Bundle's namespace, and of the namespaces a BundleNamespaceMapping of that
//   namespace maps it to (both selectors set; bundleSelector against the Bundle's labels, namespaceSelector against
//   the Namespace objects' labels).
// - Within a target its criteria are ANDed: clusterName (the name, or the label
//   management.cattle.io/cluster-display-name), clusterGroup, clusterGroupSelector (a ClusterGroup's own labels),
//   clusterSelector (the Cluster's labels); a selector that is absent adds no criterion, `{}` matches everything, and a
//   target with no criterion matches nothing. Group criteria and the restrictions are met by one and the same
//   ClusterGroup of the cluster's namespace.
// - When spec.targetRestrictions is set, the first len(targets) - len(targetRestrictions) entries of spec.targets are
//   customizations (fleet.yaml's), the rest deployment targets (the GitRepo's); a deployment target counts only where
//   at least one restriction also matches. The first deployment target that matches decides; its doNotDeploy skips
//   the cluster. Then the customizations: the first match (FirstMatch, the default), or every match in order
//   (AllMatches); a doNotDeploy among those applied skips the cluster.
// - A malformed selector in targets or targetRestrictions fails the whole Bundle ("targeting error: …"); one of a
//   ClusterGroup or a mapping only leaves that object out.
import { getArray, getPath, getString, groupOf, isRecord, labelsOf } from '../model/object.ts';
import { labelSelectorMatcherOf, type LabelSelectorMatcher } from '../model/labelSelector.ts';
import { errorText } from '../text/errorText.ts';

const fleetGroup = 'fleet.cattle.io';
const displayNameLabel = 'management.cattle.io/cluster-display-name';

/** One candidate Cluster of a Bundle, as the `targets` command's contract writes it. */
export interface ClusterTargeting {
	readonly namespace: string;
	readonly name: string;
	/** The controller would create a BundleDeployment. */
	readonly deployed: boolean;
	/** The deployment target (spec.targets entry, not a customization) that matched; null when none did. */
	readonly target: string | null;
	/** The customization whose options apply (AllMatches: every one applied, joined by ", "); null when none. */
	readonly customization: string | null;
	/** Skipped because the target or an applied customization says doNotDeploy. */
	readonly doNotDeploy: boolean;
	/** Why, in one sentence. */
	readonly why: string;
}

/** Where one Bundle goes. */
export interface BundleTargeting {
	readonly kind: 'Bundle';
	readonly namespace: string;
	readonly name: string;
	readonly clusters: readonly ClusterTargeting[];
	/** The controller's targeting error when a selector of the Bundle is malformed: nothing is deployed then. */
	readonly error?: string;
}

interface Fleet {
	readonly clusters: readonly Record<string, unknown>[];
	readonly groups: readonly Record<string, unknown>[];
	readonly mappings: readonly Record<string, unknown>[];
	readonly namespaces: readonly Record<string, unknown>[];
}

interface Criterion {
	/** "clusterSelector env=prod" */
	readonly words: string;
	readonly test: (cluster: CandidateCluster, group: GroupOf | undefined) => boolean;
	/** Why a cluster fails it, when it does. */
	readonly whyNot: (cluster: CandidateCluster) => string;
}

interface TargetEntry {
	readonly index: number;
	readonly name: string;
	/** How a reason names it: its name, or its place when it has none (a GitRepo target need not be named). */
	readonly label: string;
	readonly customization: boolean;
	readonly doNotDeploy: boolean;
	readonly criteria: readonly Criterion[];
}

interface GroupOf {
	readonly name: string;
	readonly labels: Readonly<Record<string, string>>;
}

interface CandidateCluster {
	readonly namespace: string;
	readonly name: string;
	readonly labels: Readonly<Record<string, string>>;
	readonly groups: readonly GroupOf[];
}

function isFleet(object: unknown, kind: string): object is Record<string, unknown> {
	return (
		isRecord(object) &&
		object.kind === kind &&
		groupOf(getString(object, 'apiVersion') ?? '') === fleetGroup
	);
}

function quoted(text: string): string {
	return `\`${text}\``;
}

/** A selector in words: `env=prod,tier in (a,b),!legacy`; `{}` reads "everything". */
export function selectorWords(selector: unknown): string {
	if (!isRecord(selector)) return 'nothing';
	const parts: string[] = [];
	const matchLabels = getPath(selector, 'matchLabels');
	if (isRecord(matchLabels)) {
		for (const [key, value] of Object.entries(matchLabels)) parts.push(`${key}=${String(value)}`);
	}
	for (const expression of getArray(selector, 'matchExpressions') ?? []) {
		const key = getString(expression, 'key') ?? '';
		const values = (getArray(expression, 'values') ?? []).map(String).join(',');
		switch (getString(expression, 'operator')) {
			case 'In':
				parts.push(`${key} in (${values})`);
				break;
			case 'NotIn':
				parts.push(`${key} notin (${values})`);
				break;
			case 'Exists':
				parts.push(key);
				break;
			case 'DoesNotExist':
				parts.push(`!${key}`);
				break;
			default:
				parts.push(`${key} ${getString(expression, 'operator') ?? '?'}`);
		}
	}
	return parts.length > 0 ? parts.join(',') : 'everything';
}

/** The keys a selector reads, so a reason can say what the cluster has of them. */
function selectorKeys(selector: unknown): string[] {
	const keys = new Set<string>();
	const matchLabels = getPath(selector, 'matchLabels');
	if (isRecord(matchLabels)) for (const key of Object.keys(matchLabels)) keys.add(key);
	for (const expression of getArray(selector, 'matchExpressions') ?? []) {
		const key = getString(expression, 'key');
		if (key) keys.add(key);
	}
	return [...keys];
}

function labelsWords(labels: Readonly<Record<string, string>>, keys: readonly string[]): string {
	const words = keys.map((key) =>
		Object.hasOwn(labels, key) ? `${key}=${labels[key] ?? ''}` : `no ${key} label`,
	);
	return words.length > 0 ? words.join(', ') : 'its labels';
}

/** A selector of a target or restriction that LabelSelectorAsSelector refuses: the whole Bundle fails. */
class TargetingError extends Error {
	readonly where: string;
	constructor(message: string, where: string) {
		super(message);
		this.where = where;
	}
}

function matcherOrThrow(selector: unknown, where: string): LabelSelectorMatcher & { ok: true } {
	const matcher = labelSelectorMatcherOf(selector);
	if (!matcher.ok) throw new TargetingError(matcher.error, where);
	return matcher;
}

/** NewClusterMatcher: the criteria of one target or restriction, ANDed; none means it matches nothing. */
function criteriaOf(entry: unknown, where: string): Criterion[] {
	const criteria: Criterion[] = [];
	const clusterName = getString(entry, 'clusterName') ?? '';
	if (clusterName !== '') {
		criteria.push({
			words: `clusterName ${quoted(clusterName)}`,
			test: (cluster) =>
				cluster.name === clusterName || cluster.labels[displayNameLabel] === clusterName,
			whyNot: () => `wants clusterName ${quoted(clusterName)}`,
		});
	}
	const clusterGroup = getString(entry, 'clusterGroup') ?? '';
	if (clusterGroup !== '') {
		criteria.push({
			words: `clusterGroup ${quoted(clusterGroup)}`,
			test: (_, group) => group?.name === clusterGroup,
			whyNot: (cluster) =>
				`wants clusterGroup ${quoted(clusterGroup)}; the cluster is in ${groupsWords(cluster)}`,
		});
	}
	const groupSelector = getPath(entry, 'clusterGroupSelector');
	if (groupSelector !== undefined && groupSelector !== null) {
		const matcher = matcherOrThrow(groupSelector, `${where}.clusterGroupSelector`);
		criteria.push({
			words: `clusterGroupSelector ${selectorWords(groupSelector)}`,
			test: (_, group) => matcher.matches(group?.labels ?? {}),
			whyNot: (cluster) =>
				`wants a ClusterGroup labelled ${selectorWords(groupSelector)}; the cluster is in ${groupsWords(cluster)}`,
		});
	}
	const clusterSelector = getPath(entry, 'clusterSelector');
	if (clusterSelector !== undefined && clusterSelector !== null) {
		const matcher = matcherOrThrow(clusterSelector, `${where}.clusterSelector`);
		const keys = selectorKeys(clusterSelector);
		criteria.push({
			words: `clusterSelector ${selectorWords(clusterSelector)}`,
			test: (cluster) => matcher.matches(cluster.labels),
			whyNot: (cluster) =>
				`wants ${selectorWords(clusterSelector)}; cluster ${quoted(cluster.name)} has ${labelsWords(cluster.labels, keys)}`,
		});
	}
	return criteria;
}

function groupsWords(cluster: CandidateCluster): string {
	return cluster.groups.length === 0
		? 'no ClusterGroup'
		: `ClusterGroup ${cluster.groups.map((group) => quoted(group.name)).join(', ')}`;
}

/** Match of one target or restriction's criteria for one group (the same group for every criterion). */
function matchesWith(
	criteria: readonly Criterion[],
	cluster: CandidateCluster,
	group: GroupOf | undefined,
): boolean {
	return criteria.length > 0 && criteria.every((criterion) => criterion.test(cluster, group));
}

/** The groups a match is tried with: each of the cluster's, or none. */
function groupsToTry(cluster: CandidateCluster): (GroupOf | undefined)[] {
	return cluster.groups.length === 0 ? [undefined] : [...cluster.groups];
}

function whyTargetMisses(target: TargetEntry, cluster: CandidateCluster, what: string): string {
	if (target.criteria.length === 0) {
		return `${what} ${target.label} names no cluster, group or selector, so it matches none`;
	}
	const failing = target.criteria.find(
		(criterion) => !groupsToTry(cluster).some((group) => criterion.test(cluster, group)),
	);
	return failing
		? `${what} ${target.label} ${failing.whyNot(cluster)}`
		: `${what} ${target.label} needs ${target.criteria.map((criterion) => criterion.words).join(' and ')} of one ClusterGroup, which no group of the cluster meets`;
}

function clusterGroupsOf(
	cluster: Record<string, unknown>,
	namespace: string,
	fleet: Fleet,
): GroupOf[] {
	const labels = labelsOf(cluster);
	const groups: GroupOf[] = [];
	for (const group of fleet.groups) {
		if ((getString(group, 'metadata', 'namespace') ?? '') !== namespace) continue;
		const matcher = labelSelectorMatcherOf(getPath(group, 'spec', 'selector'));
		// A group without a selector holds no cluster; one with a malformed selector is left out.
		if (matcher.ok && matcher.matches(labels)) {
			groups.push({ name: getString(group, 'metadata', 'name') ?? '', labels: labelsOf(group) });
		}
	}
	return groups;
}

/** The namespaces a Bundle's clusters are taken from: its own, and those its BundleNamespaceMappings map it to. */
function namespacesOf(bundle: Record<string, unknown>, fleet: Fleet): string[] {
	const own = getString(bundle, 'metadata', 'namespace') ?? '';
	const names = new Set([own]);
	for (const mapping of fleet.mappings) {
		if ((getString(mapping, 'metadata', 'namespace') ?? '') !== own) continue;
		const bundleSelector = getPath(mapping, 'bundleSelector');
		const namespaceSelector = getPath(mapping, 'namespaceSelector');
		const absent = (value: unknown): boolean => value === undefined || value === null;
		if (absent(bundleSelector) || absent(namespaceSelector)) continue;
		const bundles = labelSelectorMatcherOf(bundleSelector);
		const namespaces = labelSelectorMatcherOf(namespaceSelector);
		if (!bundles.ok || !namespaces.ok || !bundles.matches(labelsOf(bundle))) continue;
		for (const namespace of fleet.namespaces) {
			if (namespaces.matches(labelsOf(namespace))) {
				names.add(getString(namespace, 'metadata', 'name') ?? '');
			}
		}
	}
	return [...names].filter((name) => name !== '').sort();
}

function targetsOf(bundle: Record<string, unknown>): {
	targets: TargetEntry[];
	restrictions: Criterion[][];
} {
	const targetList = getArray(bundle, 'spec', 'targets') ?? [];
	const restrictionList = getArray(bundle, 'spec', 'targetRestrictions') ?? [];
	const customizations = targetList.length - restrictionList.length;
	const targets = targetList.map((entry, index) => ({
		index,
		name: getString(entry, 'name') ?? '',
		label: getString(entry, 'name')
			? quoted(getString(entry, 'name') ?? '')
			: `spec.targets[${index}]`,
		customization: restrictionList.length > 0 && index < customizations,
		doNotDeploy: getPath(entry, 'doNotDeploy') === true,
		criteria: criteriaOf(entry, `spec.targets[${index}]`),
	}));
	const restrictions = restrictionList.map((entry, index) =>
		criteriaOf(entry, `spec.targetRestrictions[${index}]`),
	);
	return { targets, restrictions };
}

function targetingOf(bundle: Record<string, unknown>, fleet: Fleet): BundleTargeting {
	const namespace = getString(bundle, 'metadata', 'namespace') ?? '';
	const name = getString(bundle, 'metadata', 'name') ?? '';
	const candidates: CandidateCluster[] = [];
	for (const clusterNamespace of namespacesOf(bundle, fleet)) {
		for (const cluster of fleet.clusters) {
			if ((getString(cluster, 'metadata', 'namespace') ?? '') !== clusterNamespace) continue;
			candidates.push({
				namespace: clusterNamespace,
				name: getString(cluster, 'metadata', 'name') ?? '',
				labels: labelsOf(cluster),
				groups: clusterGroupsOf(cluster, clusterNamespace, fleet),
			});
		}
	}
	let parsed: ReturnType<typeof targetsOf>;
	try {
		parsed = targetsOf(bundle);
	} catch (error) {
		// As the bundle reconciler writes it on the Ready condition; where it is goes into the reason.
		const message = `targeting error: ${errorText(error)}`;
		const where = error instanceof TargetingError ? ` (${error.where})` : '';
		return {
			kind: 'Bundle',
			namespace,
			name,
			error: message,
			clusters: candidates.map((cluster) => ({
				namespace: cluster.namespace,
				name: cluster.name,
				deployed: false,
				target: null,
				customization: null,
				doNotDeploy: false,
				why: `The Fleet controller deploys this bundle nowhere: ${message}${where}.`,
			})),
		};
	}
	const allMatches = getString(bundle, 'spec', 'targetCustomizationMode') === 'AllMatches';
	const clusters = candidates
		.map((cluster) => clusterTargeting(cluster, parsed, allMatches))
		// Targets are sorted by cluster name (builder.go), across namespaces by the name only.
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	return { kind: 'Bundle', namespace, name, clusters };
}

function clusterTargeting(
	cluster: CandidateCluster,
	{ targets, restrictions }: ReturnType<typeof targetsOf>,
	allMatches: boolean,
): ClusterTargeting {
	const base = { namespace: cluster.namespace, name: cluster.name };
	const groups = groupsToTry(cluster);
	const allowedWith = (group: GroupOf | undefined): boolean =>
		restrictions.length === 0 ||
		restrictions.some((restriction) => matchesWith(restriction, cluster, group));
	const deployment = targets.filter((target) => !target.customization);
	const matched = deployment.find((target) =>
		groups.some((group) => allowedWith(group) && matchesWith(target.criteria, cluster, group)),
	);
	if (!matched) {
		const restricted = deployment.find((target) =>
			groups.some((group) => matchesWith(target.criteria, cluster, group)),
		);
		let why: string;
		if (deployment.length === 0) {
			why = 'The bundle has no deployment target (spec.targets holds only customizations)';
		} else if (restricted) {
			why = `Target ${restricted.label} matches, but no spec.targetRestrictions entry allows cluster ${quoted(cluster.name)} (excluded by targetRestrictions)`;
		} else {
			why = deployment.map((target) => whyTargetMisses(target, cluster, 'target')).join('; ');
		}
		return {
			...base,
			deployed: false,
			target: null,
			customization: null,
			doNotDeploy: false,
			why: `${why}.`,
		};
	}
	if (matched.doNotDeploy) {
		return {
			...base,
			deployed: false,
			target: matched.name,
			customization: null,
			doNotDeploy: true,
			why: `Matched target ${matched.label}, which says doNotDeploy.`,
		};
	}
	const customizations = targets.filter(
		(target) =>
			target.customization && groups.some((group) => matchesWith(target.criteria, cluster, group)),
	);
	const applied = allMatches ? customizations : customizations.slice(0, 1);
	const stopper = applied.find((target) => target.doNotDeploy);
	const names = applied.length > 0 ? applied.map((target) => target.name).join(', ') : null;
	const by = `target ${matched.label} (${matched.criteria.map((criterion) => criterion.words).join(' and ')})`;
	if (stopper) {
		return {
			...base,
			deployed: false,
			target: matched.name,
			customization: names,
			doNotDeploy: true,
			why: `Reached by ${by}, but matched customization ${stopper.label}, which says doNotDeploy${allMatches ? ' (AllMatches: any applied one skips the cluster)' : ' (the first matching customization decides)'}.`,
		};
	}
	return {
		...base,
		deployed: true,
		target: matched.name,
		customization: names,
		doNotDeploy: false,
		why: `Reached by ${by}${names ? `, with customization ${applied.map((target) => target.label).join(', ')}` : ''}.`,
	};
}

/** The objects, with the items of each `kind: List` in its place. */
export function withoutLists(objects: readonly unknown[]): unknown[] {
	const all: unknown[] = [];
	const visit = (object: unknown): void => {
		if (isRecord(object) && object.kind === 'List' && Array.isArray(object.items)) {
			for (const item of object.items) visit(item);
		} else all.push(object);
	};
	for (const object of objects) visit(object);
	return all;
}

/**
 * Where each Fleet Bundle of the input goes (or only the one named): every candidate Cluster with the controller's
 * decision and why.
 */
export function fleetTargetsOf(
	objects: readonly unknown[],
	only?: { readonly namespace: string; readonly name: string },
): BundleTargeting[] {
	const all = withoutLists(objects);
	const fleet: Fleet = {
		clusters: all.filter((object) => isFleet(object, 'Cluster')),
		groups: all.filter((object) => isFleet(object, 'ClusterGroup')),
		mappings: all.filter((object) => isFleet(object, 'BundleNamespaceMapping')),
		namespaces: all.filter(
			(object): object is Record<string, unknown> =>
				isRecord(object) && object.kind === 'Namespace' && object.apiVersion === 'v1',
		),
	};
	return all
		.filter(
			(object) =>
				isFleet(object, 'Bundle') &&
				(only === undefined ||
					(getString(object, 'metadata', 'namespace') === only.namespace &&
						getString(object, 'metadata', 'name') === only.name)),
		)
		.map((bundle) => targetingOf(bundle as Record<string, unknown>, fleet));
}
