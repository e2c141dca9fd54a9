// What a session watches of what the cluster serves: the API groups of the watched systems, the resources of their
// preferred versions that can be listed and watched (never Secrets), and discovery over HTTP, run at the start and
// again every few minutes and after a 404, so CRDs installed or removed later are followed.
import { isRecord } from '../core/model/object.ts';
import { isAsoGroup } from '../core/status/aso.ts';
import { isFluxGroup } from '../core/status/flux.ts';
import { isKubestellarGroup } from '../core/status/kubestellar.ts';
import type { ConnectionState } from './connectionState.ts';
import { failureOf, getJson, type ClientSettings } from './requests.ts';

/** The systems a session watches; `workloads` are the apps/batch kinds KubeStellar places. */
export type WatchedSystem = 'fleet' | 'kubestellar' | 'harbor' | 'flux' | 'aso' | 'workloads';

/** The systems in display order. */
export const watchedSystems: readonly WatchedSystem[] = [
	'fleet',
	'kubestellar',
	'harbor',
	'flux',
	'aso',
	'workloads',
];

/** A resource the cluster serves and the session lists and watches. */
export interface WatchedResource {
	/** "group/version/plural" ("v1/plural" for the core group): the source id of its objects. */
	readonly id: string;
	readonly group: string;
	readonly version: string;
	readonly kind: string;
	readonly plural: string;
	readonly namespaced: boolean;
	readonly system: WatchedSystem;
}

// The groups watched and the system each belongs to (issue 5, "Discovery"). apps and batch only for the workload
// kinds KubeStellar places; OCM only for ManagedCluster, which the multi-WEC merge reads (core/merge/mergeMode.ts).
const workloadKinds: Readonly<Record<string, readonly string[]>> = {
	apps: ['Deployment', 'StatefulSet', 'DaemonSet'],
	batch: ['Job', 'CronJob'],
	'cluster.open-cluster-management.io': ['ManagedCluster'],
};

/** The system a served API group belongs to, or undefined when the session does not watch it. */
export function watchedSystemOf(group: string): WatchedSystem | undefined {
	if (group === 'fleet.cattle.io') return 'fleet';
	if (isKubestellarGroup(group) || group === 'cluster.open-cluster-management.io') {
		return 'kubestellar';
	}
	if (group === 'goharbor.io') return 'harbor';
	if (isFluxGroup(group)) return 'flux';
	if (isAsoGroup(group)) return 'aso';
	if (group === 'apps' || group === 'batch') return 'workloads';
	return undefined;
}

function isWatchedKind(group: string, kind: string): boolean {
	// Never Secrets, whatever group serves them.
	if (kind === 'Secret') return false;
	const kinds = workloadKinds[group];
	return kinds === undefined || kinds.includes(kind);
}

/** The id of a resource: "group/version/plural". */
function resourceIdOf(group: string, version: string, plural: string): string {
	return group === '' ? `${version}/${plural}` : `${group}/${version}/${plural}`;
}

/** How kubectl names a resource: "plural.group". */
export function displayNameOf(resource: WatchedResource): string {
	return resource.group === '' ? resource.plural : `${resource.plural}.${resource.group}`;
}

/** The apiVersion of a resource's objects. */
export function apiVersionOf(resource: WatchedResource): string {
	return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
}

/** The URL path of a resource's collection, across namespaces or in one. */
export function collectionPathOf(resource: WatchedResource, namespace?: string): string {
	const base =
		resource.group === ''
			? `/api/${resource.version}`
			: `/apis/${resource.group}/${resource.version}`;
	return namespace !== undefined && resource.namespaced
		? `${base}/namespaces/${encodeURIComponent(namespace)}/${resource.plural}`
		: `${base}/${resource.plural}`;
}

/**
 * The resources to watch from an APIResourceList of one group version: top-level resources (no subresources) that
 * can be listed and watched, of the kinds the session wants.
 */
export function resourcesOfGroupVersion(
	group: string,
	version: string,
	resourceList: unknown,
): WatchedResource[] {
	const system = watchedSystemOf(group);
	const resources = isRecord(resourceList) ? resourceList.resources : undefined;
	if (system === undefined || !Array.isArray(resources)) return [];
	const result: WatchedResource[] = [];
	for (const entry of resources) {
		if (!isRecord(entry)) continue;
		const { name, kind, namespaced, verbs } = entry;
		if (typeof name !== 'string' || name.includes('/') || typeof kind !== 'string') continue;
		if (!Array.isArray(verbs) || !verbs.includes('list') || !verbs.includes('watch')) continue;
		if (!isWatchedKind(group, kind)) continue;
		result.push({
			id: resourceIdOf(group, version, name),
			group,
			version,
			kind,
			plural: name,
			namespaced: namespaced === true,
			system,
		});
	}
	return result;
}

/**
 * Namespaces, whose labels a Fleet BundleNamespaceMapping's namespaceSelector and a KubeStellar downsync clause's
 * namespaceSelectors match: watched where those kinds are served, so targeting reads them as the controllers do. The
 * core group is always served at /api/v1, so it needs no discovery.
 */
const namespacesResource: WatchedResource = {
	id: 'v1/namespaces',
	group: '',
	version: 'v1',
	kind: 'Namespace',
	plural: 'namespaces',
	namespaced: false,
	system: 'workloads',
};

function readsNamespaceLabels(resource: WatchedResource): boolean {
	return (
		(resource.group === 'fleet.cattle.io' && resource.kind === 'BundleNamespaceMapping') ||
		(resource.system === 'kubestellar' && resource.kind === 'BindingPolicy')
	);
}

/** The group versions to discover from an APIGroupList: the preferred version of each watched group. */
export function groupVersionsToDiscover(groupList: unknown): { group: string; version: string }[] {
	const groups = isRecord(groupList) ? groupList.groups : undefined;
	if (!Array.isArray(groups)) return [];
	const result: { group: string; version: string }[] = [];
	for (const entry of groups) {
		if (!isRecord(entry) || typeof entry.name !== 'string') continue;
		if (watchedSystemOf(entry.name) === undefined) continue;
		const preferred = isRecord(entry.preferredVersion) ? entry.preferredVersion.version : undefined;
		const first =
			Array.isArray(entry.versions) && isRecord(entry.versions[0])
				? entry.versions[0].version
				: undefined;
		const version = typeof preferred === 'string' ? preferred : first;
		if (typeof version === 'string') result.push({ group: entry.name, version });
	}
	return result;
}

/** What discovery found: the resources to watch, and each watched group with the state of its discovery. */
export interface Discovery {
	readonly resources: readonly WatchedResource[];
	readonly groups: ReadonlyMap<string, ConnectionState | undefined>;
}

/**
 * Discovers the preferred version of every watched group, a few groups at a time. A group that fails (403, 500)
 * gets that state; a context that cannot be reached or needs a login throws its RequestFailure.
 */
export async function discoverResources(
	client: ClientSettings,
	stop: AbortSignal,
): Promise<Discovery> {
	const groupList = await getJson(client, '/apis', {}, 'discover API groups', stop);
	const toDiscover = groupVersionsToDiscover(groupList);
	const groups = new Map<string, ConnectionState | undefined>();
	const resources: WatchedResource[] = [];
	// A few at a time: ASO alone serves dozens of groups.
	const queue = [...toDiscover];
	const worker = async (): Promise<void> => {
		for (let next = queue.shift(); next; next = queue.shift()) {
			const { group, version } = next;
			try {
				const list = await getJson(
					client,
					`/apis/${group}/${version}`,
					{},
					`discover ${group}/${version}`,
					stop,
				);
				for (const resource of resourcesOfGroupVersion(group, version, list)) {
					resources.push(resource);
				}
				groups.set(group, undefined);
			} catch (error) {
				const failure = failureOf(error, client.server, client.requestTimeoutMs);
				// Unreachable or no login: the whole context is, not one group.
				if (
					failure.kind === 'cannot-reach' ||
					failure.kind === 'login-required' ||
					failure.kind === 'stopped'
				) {
					throw failure;
				}
				const kind = failure.kind === 'gone' ? 'server-error' : failure.kind;
				groups.set(group, { kind, message: failure.message });
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
	if (resources.some(readsNamespaceLabels)) resources.push(namespacesResource);
	resources.sort((a, b) => a.id.localeCompare(b.id));
	return { resources, groups };
}

/**
 * Counts BundleDeployments with a list of limit 1 (the server's remainingItemCount), or by counting pages when
 * the server gives no count, stopping once above the threshold. Roll-ups-only mode ends only below 90% of the

/** Whether two discoveries serve the same resources and groups, in the same states. */
export function sameDiscovery(a: Discovery, b: Discovery): boolean {
	if (a.resources.length !== b.resources.length || a.groups.size !== b.groups.size) return false;
	if (a.resources.some((resource, index) => resource.id !== b.resources[index]?.id)) return false;
	for (const [group, state] of a.groups) {
		if (!b.groups.has(group)) return false;
		const other = b.groups.get(group);
		if (state?.kind !== other?.kind || state?.message !== other?.message) return false;
	}
	return true;
}

/**
 * A rediscovery in which some groups failed (500, 403): they keep what the previous discovery found, so their
 * watches go on. A group that answered 404 has gone and is not kept.
 */
export function withFailedGroupsKept(previous: Discovery, next: Discovery): Discovery {
	const kept = new Set<string>();
	for (const [group, state] of next.groups) {
		if (state !== undefined && state.kind !== 'not-installed' && previous.groups.has(group)) {
			kept.add(group);
		}
	}
	if (kept.size === 0) return next;
	const groups = new Map(next.groups);
	for (const group of kept) groups.set(group, previous.groups.get(group));
	const resources = [
		...next.resources.filter((resource) => !kept.has(resource.group)),
		...previous.resources.filter((resource) => kept.has(resource.group)),
	].sort((a, b) => a.id.localeCompare(b.id));
	return { resources, groups };
}
