// Discovery documents, built from the served resource types: the legacy ones (`/api`, `/apis`, `/apis/<group>`,
// `/apis/<group>/<version>`) that client-node and older clients read, and aggregated discovery
// (apidiscovery.k8s.io/v2 `APIGroupDiscoveryList`) that kubectl asks for first.

import { apiVersionOf, resourceVerbs, statusVerbs, type ResourceType } from './resources.ts';

/** The Content-Type of an aggregated discovery answer. */
export const aggregatedDiscoveryContentType =
	'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** Whether an Accept header asks for aggregated discovery v2 (kubectl lists it before plain JSON). */
export function wantsAggregatedDiscovery(accept: string | undefined): boolean {
	if (accept === undefined) return false;
	return accept.split(',').some((part) => {
		const params = part.split(';').map((param) => param.trim());
		return (
			params.includes('g=apidiscovery.k8s.io') &&
			params.includes('v=v2') &&
			params.includes('as=APIGroupDiscoveryList')
		);
	});
}

interface GroupVersions {
	readonly group: string;
	readonly versions: readonly string[];
}

/** The served groups and their versions, in table order (the first version is the preferred one). */
function groupsOf(types: readonly ResourceType[]): readonly GroupVersions[] {
	const groups = new Map<string, string[]>();
	for (const type of types) {
		const versions = groups.get(type.group) ?? [];
		if (!versions.includes(type.version)) versions.push(type.version);
		groups.set(type.group, versions);
	}
	return [...groups].map(([group, versions]) => ({ group, versions }));
}

/** `/version`: the server claims the Kubernetes minor version whose behaviour it follows. */
export function versionInfo(): Record<string, string> {
	return {
		major: '1',
		minor: '32',
		gitVersion: 'v1.32.0-kube-status-lens',
		gitCommit: '0000000000000000000000000000000000000000',
		gitTreeState: 'clean',
		buildDate: '2025-01-01T00:00:00Z',
		goVersion: 'go1.23.4',
		compiler: 'gc',
		platform: 'linux/amd64',
	};
}

/** `/api`: the core group's versions. */
export function apiVersions(serverAddress: string): object {
	return {
		kind: 'APIVersions',
		versions: ['v1'],
		serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
	};
}

function apiGroup(group: GroupVersions): object {
	const versions = group.versions.map((version) => ({
		groupVersion: `${group.group}/${version}`,
		version,
	}));
	return { name: group.group, versions, preferredVersion: versions[0] };
}

/** `/apis`: every served named group. */
export function apiGroupList(types: readonly ResourceType[]): object {
	return {
		kind: 'APIGroupList',
		apiVersion: 'v1',
		groups: groupsOf(types)
			.filter((group) => group.group !== '')
			.map(apiGroup),
	};
}

/** `/apis/<group>`, or undefined when the group is not served. */
export function apiGroupDocument(types: readonly ResourceType[], name: string): object | undefined {
	const group = groupsOf(types).find((candidate) => candidate.group === name && name !== '');
	return group === undefined
		? undefined
		: { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group) };
}

/** `/api/v1` or `/apis/<group>/<version>`, or undefined when nothing is served there. */
export function apiResourceList(
	types: readonly ResourceType[],
	group: string,
	version: string,
): object | undefined {
	const served = types.filter((type) => type.group === group && type.version === version);
	if (served.length === 0) return undefined;
	const resources: object[] = [];
	for (const type of served) {
		resources.push({
			name: type.plural,
			singularName: type.singular,
			namespaced: type.namespaced,
			kind: type.kind,
			verbs: resourceVerbs,
			...(type.shortNames === undefined ? {} : { shortNames: type.shortNames }),
			...(type.categories === undefined ? {} : { categories: type.categories }),
		});
		if (type.statusSubresource) {
			resources.push({
				name: `${type.plural}/status`,
				singularName: '',
				namespaced: type.namespaced,
				kind: type.kind,
				verbs: statusVerbs,
			});
		}
	}
	return {
		kind: 'APIResourceList',
		apiVersion: 'v1',
		groupVersion: apiVersionOf(served[0] as ResourceType),
		resources,
	};
}

function discoveryResource(type: ResourceType): object {
	const responseKind = { group: type.group, version: type.version, kind: type.kind };
	return {
		resource: type.plural,
		responseKind,
		scope: type.namespaced ? 'Namespaced' : 'Cluster',
		singularResource: type.singular,
		verbs: resourceVerbs,
		...(type.shortNames === undefined ? {} : { shortNames: type.shortNames }),
		...(type.categories === undefined ? {} : { categories: type.categories }),
		...(type.statusSubresource
			? { subresources: [{ subresource: 'status', responseKind, verbs: statusVerbs }] }
			: {}),
	};
}

/**
 * Aggregated discovery: `/api` (`core: true`, the core group only) or `/apis` (every named group), each group
 * with all of its versions and resources in one document.
 */
export function aggregatedDiscovery(types: readonly ResourceType[], core: boolean): object {
	const items = groupsOf(types)
		.filter((group) => (group.group === '') === core)
		.map((group) => ({
			metadata: { name: group.group, creationTimestamp: null },
			versions: group.versions.map((version) => ({
				version,
				resources: types
					.filter((type) => type.group === group.group && type.version === version)
					.map(discoveryResource),
				freshness: 'Current',
			})),
		}));
	return {
		kind: 'APIGroupDiscoveryList',
		apiVersion: 'apidiscovery.k8s.io/v2',
		metadata: {},
		items,
	};
}
