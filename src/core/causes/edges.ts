// The edges one object has to what it waits for, read from the object itself (and, for Fleet, from the
// BundleDeployments of the same cluster). Field definitions: fluxcd/kustomize-controller api/v1 (Kustomization
// dependsOn, sourceRef), fluxcd/helm-controller api/v2 (HelmRelease dependsOn, chart.spec.sourceRef, chartRef,
// status.helmChart, GetHelmChartName), rancher/fleet pkg/apis/fleet.cattle.io/v1alpha1 (BundleRef) and
// internal/cmd/agent/deployer/deployer.go (checkDependency, isDependencyReady), Azure Service Operator (spec.owner,
// the WaitingForOwner condition).
import { findCondition, readConditions } from '../model/condition.ts';
import { getArray, getPath, getString, groupOf, isRecord, labelsOf } from '../model/object.ts';
import { labelSelectorMatcherOf } from '../model/labelSelector.ts';
import { compareBytewise, fleetLabels } from '../status/fleetSummary.ts';
import type { CauseEdge, CauseRef, CauseWorld, WorldObject } from './types.ts';

const kustomizeGroup = 'kustomize.toolkit.fluxcd.io';
const helmGroup = 'helm.toolkit.fluxcd.io';
const sourceGroup = 'source.toolkit.fluxcd.io';
const fleetGroup = 'fleet.cattle.io';
const asoResourceGroup = { group: 'resources.azure.com', kind: 'ResourceGroup' } as const;

/** Where an edge leads: an object of the world, or a reference to one that is not there. */
export type EdgeTarget =
	| {
			readonly edge: CauseEdge;
			readonly found: WorldObject;
			/** The cluster of a Fleet BundleDeployment the edge leads to. */
			readonly cluster?: string;
	  }
	| { readonly edge: CauseEdge; readonly missing: CauseRef; readonly cluster?: string };

/** A ref in the words users read: `Kind namespace/name` (no namespace for cluster-scoped objects). */
export function refTitle(ref: CauseRef): string {
	return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

export function refKey(ref: CauseRef): string {
	return `${ref.group}|${ref.kind}|${ref.namespace}|${ref.name}`;
}

/** The Bundle a BundleDeployment deploys (Fleet's labels), or undefined when the labels are missing. */
export function bundleOfDeployment(object: unknown): CauseRef | undefined {
	const labels = labelsOf(object);
	const name = labels[fleetLabels.bundleName];
	if (!name) return undefined;
	return {
		group: fleetGroup,
		kind: 'Bundle',
		namespace: labels[fleetLabels.bundleNamespace] ?? '',
		name,
	};
}

/** The cluster a BundleDeployment is on: its cluster label, else its namespace (the cluster's namespace). */
export function clusterOfDeployment(object: unknown): string {
	return (
		labelsOf(object)[fleetLabels.cluster] || (getString(object, 'metadata', 'namespace') ?? '')
	);
}

function isWaiting(entry: WorldObject): boolean {
	return entry.status.tone !== 'ok' && entry.status.tone !== 'suspended';
}

function readyReason(entry: WorldObject): { reason: string; message: string } {
	const ready = findCondition(readConditions(entry.object).conditions, 'Ready');
	return {
		reason: ready?.status === 'False' ? (ready.reason ?? '') : '',
		message: ready?.message ?? '',
	};
}

function lookup(world: CauseWorld, edge: CauseEdge, ref: CauseRef): EdgeTarget {
	const found = world.objectOf(ref);
	return found ? { edge, found } : { edge, missing: ref };
}

/** Flux `spec.dependsOn`: same kind, namespace defaulting to the object's own. */
function fluxDependencies(entry: WorldObject): CauseRef[] {
	const refs: CauseRef[] = [];
	for (const item of getArray(entry.object, 'spec', 'dependsOn') ?? []) {
		const name = getString(item, 'name');
		if (!name) continue;
		refs.push({
			group: entry.ref.group,
			kind: entry.ref.kind,
			namespace: getString(item, 'namespace') || entry.ref.namespace,
			name,
		});
	}
	return refs;
}

/**
 * The dependency a Flux object waits for: the one its DependencyNotReady message names ("dependency
 * 'flux-system/infra' is not ready", "... not found: ..."), else the first that is missing or not ready.
 */
function fluxDependencyEdge(world: CauseWorld, entry: WorldObject): EdgeTarget | undefined {
	const dependencies = fluxDependencies(entry);
	if (dependencies.length === 0) return undefined;
	const { reason, message } = readyReason(entry);
	const named = /^dependency '([^'/]*)\/([^']*)'/.exec(message);
	if (reason === 'DependencyNotReady' && named) {
		const ref = dependencies.find(
			(dependency) => dependency.namespace === named[1] && dependency.name === named[2],
		);
		if (ref) return lookup(world, 'dependency', ref);
	}
	for (const ref of dependencies) {
		const target = lookup(world, 'dependency', ref);
		if ('missing' in target || isWaiting(target.found)) return target;
	}
	return undefined;
}

function sourceRefOf(
	value: unknown,
	defaultNamespace: string,
	defaultGroup = sourceGroup,
): CauseRef | undefined {
	if (!isRecord(value)) return undefined;
	const kind = getString(value, 'kind');
	const name = getString(value, 'name');
	if (!kind || !name) return undefined;
	const apiVersion = getString(value, 'apiVersion');
	return {
		group: apiVersion ? groupOf(apiVersion) : defaultGroup,
		kind,
		namespace: getString(value, 'namespace') || defaultNamespace,
		name,
	};
}

/** The Ready reasons Flux writes when an object waits for its source (kustomize-controller, helm-controller). */
const sourceReasons: ReadonlySet<string> = new Set(['ArtifactFailed', 'SourceNotReady']);

function isFailing(entry: WorldObject): boolean {
	return entry.status.tone === 'error' || entry.status.tone === 'warning';
}

/**
 * A source edge: to a source that fails, or, when the object's Ready reason says it waits for its source, to a
 * source that is not ready or not there. A source that is merely reconciling does not explain an object's own failure.
 */
function sourceEdge(
	world: CauseWorld,
	entry: WorldObject,
	edge: CauseEdge,
	ref: CauseRef | undefined,
): EdgeTarget | undefined {
	if (!ref) return undefined;
	const waitsForSource = sourceReasons.has(readyReason(entry).reason);
	const target = lookup(world, edge, ref);
	if ('missing' in target) return waitsForSource ? target : undefined;
	if (isFailing(target.found) || (waitsForSource && isWaiting(target.found))) return target;
	return undefined;
}

/**
 * The HelmChart a HelmRelease's chart template makes: `status.helmChart` ("namespace/name"), else named
 * `<release namespace>-<release name>` in the source's namespace (helm-controller GetHelmChartName).
 */
function helmChartOf(entry: WorldObject, source: CauseRef): CauseRef {
	const written = getString(entry.object, 'status', 'helmChart');
	const slash = written ? written.indexOf('/') : -1;
	if (written && slash > 0) {
		return {
			group: sourceGroup,
			kind: 'HelmChart',
			namespace: written.slice(0, slash),
			name: written.slice(slash + 1),
		};
	}
	return {
		group: sourceGroup,
		kind: 'HelmChart',
		namespace: source.namespace,
		name: `${entry.ref.namespace}-${entry.ref.name}`,
	};
}

function helmReleaseSourceEdge(world: CauseWorld, entry: WorldObject): EdgeTarget | undefined {
	const chartRef = sourceRefOf(getPath(entry.object, 'spec', 'chartRef'), entry.ref.namespace);
	if (chartRef) return sourceEdge(world, entry, 'source', chartRef);
	const source = sourceRefOf(
		getPath(entry.object, 'spec', 'chart', 'spec', 'sourceRef'),
		entry.ref.namespace,
	);
	if (!source) return undefined;
	// The controller creates the HelmChart; a workspace may not hold it, then the edge goes to the source itself.
	const chart = world.objectOf(helmChartOf(entry, source));
	if (chart) return sourceEdge(world, entry, 'chart', chart.ref);
	return sourceEdge(world, entry, 'source', source);
}

function fleetDependsOn(world: CauseWorld, deployment: WorldObject): unknown[] {
	const own = getArray(deployment.object, 'spec', 'dependsOn');
	if (own) return [...own];
	const bundle = bundleOfDeployment(deployment.object);
	const fromBundle = bundle ? world.objectOf(bundle) : undefined;
	return [...(getArray(fromBundle?.object, 'spec', 'dependsOn') ?? [])];
}

function acceptedStatesOf(item: unknown): readonly string[] {
	const states = (getArray(item, 'acceptedStates') ?? []).filter(
		(state): state is string => typeof state === 'string',
	);
	return states.length > 0 ? states : ['Ready'];
}

/**
 * What holds one BundleDeployment back, as the agent checks it (checkDependency): for each dependsOn item, the
 * BundleDeployments in the same namespace (the same cluster) of the named Bundle or matching the selector; the
 * first one not in an accepted state, or the named Bundle when it has none there.
 */
function fleetDeploymentEdge(world: CauseWorld, deployment: WorldObject): EdgeTarget | undefined {
	const namespace = deployment.ref.namespace;
	const cluster = clusterOfDeployment(deployment.object);
	const bundleNamespace = labelsOf(deployment.object)[fleetLabels.bundleNamespace] ?? '';
	for (const item of fleetDependsOn(world, deployment)) {
		const name = getString(item, 'name') ?? '';
		const selector = getPath(item, 'selector');
		if (!name && (selector === undefined || selector === null)) continue;
		const matcher = labelSelectorMatcherOf(selector ?? {});
		if (!matcher.ok) continue;
		const candidates = (
			name ? world.bundleDeploymentsOf(bundleNamespace, name) : world.bundleDeploymentsIn(namespace)
		).filter(
			(candidate) =>
				candidate.ref.namespace === namespace && matcher.matches(labelsOf(candidate.object)),
		);
		if (candidates.length === 0) {
			if (!name) continue;
			return {
				edge: 'bundle dependency',
				missing: { group: fleetGroup, kind: 'Bundle', namespace: bundleNamespace, name },
				cluster,
			};
		}
		const accepted = acceptedStatesOf(item);
		const held = [...candidates]
			.sort((a, b) => compareBytewise(a.ref.name, b.ref.name))
			.find((candidate) => !accepted.includes(candidate.status.state));
		if (held) return { edge: 'bundle dependency', found: held, cluster };
	}
	return undefined;
}

/** A Bundle waits, per cluster, where one of its BundleDeployments is held by a dependency on that cluster. */
function fleetBundleEdge(world: CauseWorld, bundle: WorldObject): EdgeTarget | undefined {
	if ((getArray(bundle.object, 'spec', 'dependsOn') ?? []).length === 0) return undefined;
	const deployments = world
		.bundleDeploymentsOf(bundle.ref.namespace, bundle.ref.name)
		.filter(isWaiting)
		.sort((a, b) => compareBytewise(clusterOfDeployment(a.object), clusterOfDeployment(b.object)));
	for (const deployment of deployments) {
		const edge = fleetDeploymentEdge(world, deployment);
		if (edge) return edge;
	}
	return undefined;
}

/**
 * The owner an ASO resource waits for (Ready False, WaitingForOwner): `spec.owner.name` in its namespace; the group
 * and kind the message names (`Owner "group/Kind, namespace/name" cannot be found...`), else the parent kind its own
 * kind names (`VirtualNetworksSubnet` -> `VirtualNetwork`) when that object exists, else a ResourceGroup. An owner
 * given as an ARM ID lives in Azure only: no edge.
 */
function asoOwnerEdge(world: CauseWorld, entry: WorldObject): EdgeTarget | undefined {
	const { reason, message } = readyReason(entry);
	if (reason !== 'WaitingForOwner') return undefined;
	const name = getString(entry.object, 'spec', 'owner', 'name');
	if (!name) return undefined;
	const named = /^Owner "([^"/,]+)\/([^"/,]+), ([^"/]*)\/([^"]*)"/.exec(message);
	if (named?.[1] && named[2]) {
		return lookup(world, 'owner', {
			group: named[1],
			kind: named[2],
			namespace: named[3] || entry.ref.namespace,
			name: named[4] || name,
		});
	}
	const parentKind = /^(.*[a-z])s([A-Z][A-Za-z0-9]*)$/.exec(entry.ref.kind)?.[1];
	if (parentKind) {
		const parent = world.objectOf({
			group: entry.ref.group,
			kind: parentKind,
			namespace: entry.ref.namespace,
			name,
		});
		if (parent) return { edge: 'owner', found: parent };
	}
	return lookup(world, 'owner', { ...asoResourceGroup, namespace: entry.ref.namespace, name });
}

/** The first thing an object waits for, when it is not ready because of another object. */
export function nextEdge(world: CauseWorld, entry: WorldObject): EdgeTarget | undefined {
	if (!isWaiting(entry)) return undefined;
	const { group, kind } = entry.ref;
	if (group === kustomizeGroup && kind === 'Kustomization') {
		return (
			fluxDependencyEdge(world, entry) ??
			sourceEdge(
				world,
				entry,
				'source',
				sourceRefOf(getPath(entry.object, 'spec', 'sourceRef'), entry.ref.namespace),
			)
		);
	}
	if (group === helmGroup && kind === 'HelmRelease') {
		return fluxDependencyEdge(world, entry) ?? helmReleaseSourceEdge(world, entry);
	}
	if (group === sourceGroup && kind === 'HelmChart') {
		// A HelmChart's sourceRef is local: the chart's own namespace.
		return sourceEdge(
			world,
			entry,
			'source',
			sourceRefOf(getPath(entry.object, 'spec', 'sourceRef'), entry.ref.namespace),
		);
	}
	if (group === fleetGroup && kind === 'Bundle') return fleetBundleEdge(world, entry);
	if (group === fleetGroup && kind === 'BundleDeployment') return fleetDeploymentEdge(world, entry);
	if (entry.status.system === 'aso') return asoOwnerEdge(world, entry);
	return undefined;
}
