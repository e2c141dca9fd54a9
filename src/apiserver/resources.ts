// The kinds the local API server serves, as one table. A row is what a CRD or a built-in type registers with a
// real kube-apiserver: group, version, kind, plural, singular, scope, short names, categories and whether it has a
// status subresource. Add a row to serve a new kind; nothing else needs to change.

/** One served resource: the facts discovery publishes about it. */
export interface ResourceType {
	/** API group; '' for the core group (`/api/v1`). */
	readonly group: string;
	readonly version: string;
	readonly kind: string;
	readonly plural: string;
	readonly singular: string;
	readonly namespaced: boolean;
	readonly shortNames?: readonly string[];
	readonly categories?: readonly string[];
	/** PUT and PATCH of the main resource leave `.status` alone; `.../status` changes only `.status`. */
	readonly statusSubresource: boolean;
}

/** The verbs every served resource allows, in the order discovery lists them. */
export const resourceVerbs = [
	'create',
	'delete',
	'deletecollection',
	'get',
	'list',
	'patch',
	'update',
	'watch',
] as const;

/** The verbs of a `.../status` subresource. */
export const statusVerbs = ['get', 'patch', 'update'] as const;

function row(
	apiVersion: string,
	kind: string,
	plural: string,
	namespaced: boolean,
	statusSubresource: boolean,
	shortNames: readonly string[] = [],
	categories: readonly string[] = [],
): ResourceType {
	const slash = apiVersion.indexOf('/');
	const group = slash < 0 ? '' : apiVersion.slice(0, slash);
	const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
	return {
		group,
		version,
		kind,
		plural,
		singular: kind.toLowerCase(),
		namespaced,
		statusSubresource,
		...(shortNames.length > 0 ? { shortNames } : {}),
		...(categories.length > 0 ? { categories } : {}),
	};
}

/**
 * Every kind the server knows. Built-in rows follow `kubectl api-resources` of Kubernetes 1.32; the CRD rows follow
 * the CRDs the projects ship (Fleet `charts/fleet-crd`, KubeStellar `config/crds`, harbor-operator
 * `config/crd/bases`, Flux `*-controller/config/crd/bases`, ASO v2 `v2/config/crd` and ASO v1 `config/crd/bases`).
 */
export const resourceTypes: readonly ResourceType[] = [
	// Core v1.
	row('v1', 'Namespace', 'namespaces', false, true, ['ns']),
	row('v1', 'ConfigMap', 'configmaps', true, false, ['cm']),
	row('v1', 'Secret', 'secrets', true, false),
	row('v1', 'Pod', 'pods', true, true, ['po'], ['all']),
	row('v1', 'Service', 'services', true, true, ['svc'], ['all']),
	row('v1', 'Event', 'events', true, false, ['ev']),
	// The same Events through the newer API (eventViews.ts): no short names, as in kube-apiserver.
	row('events.k8s.io/v1', 'Event', 'events', true, false),
	row('v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true, true, ['pvc']),
	// The CRDs of the custom resources below, generated from this table (customResourceDefinitions.ts).
	{
		...row(
			'apiextensions.k8s.io/v1',
			'CustomResourceDefinition',
			'customresourcedefinitions',
			false,
			true,
			['crd', 'crds'],
		),
		singular: 'customresourcedefinition',
	},
	// Workloads that KubeStellar places and Fleet deploys.
	row('apps/v1', 'Deployment', 'deployments', true, true, ['deploy'], ['all']),
	row('apps/v1', 'StatefulSet', 'statefulsets', true, true, ['sts'], ['all']),
	row('apps/v1', 'DaemonSet', 'daemonsets', true, true, ['ds'], ['all']),
	row('apps/v1', 'ReplicaSet', 'replicasets', true, true, ['rs'], ['all']),
	row('batch/v1', 'Job', 'jobs', true, true, [], ['all']),
	row('batch/v1', 'CronJob', 'cronjobs', true, true, ['cj'], ['all']),
	row('policy/v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true, true, ['pdb']),
	// Rancher Fleet (charts/fleet-crd): the short names are the ones the CRDs declare.
	row('fleet.cattle.io/v1alpha1', 'GitRepo', 'gitrepos', true, true, [], ['fleet']),
	row('fleet.cattle.io/v1alpha1', 'HelmOp', 'helmops', true, true, [], ['fleet']),
	row('fleet.cattle.io/v1alpha1', 'Bundle', 'bundles', true, true, [], ['fleet']),
	row(
		'fleet.cattle.io/v1alpha1',
		'BundleDeployment',
		'bundledeployments',
		true,
		true,
		[],
		['fleet'],
	),
	row('fleet.cattle.io/v1alpha1', 'Cluster', 'clusters', true, true, [], ['fleet']),
	row('fleet.cattle.io/v1alpha1', 'ClusterGroup', 'clustergroups', true, true, [], ['fleet']),
	// No status at all: the mapping is read by the Bundle's targeting only.
	row(
		'fleet.cattle.io/v1alpha1',
		'BundleNamespaceMapping',
		'bundlenamespacemappings',
		true,
		false,
		[],
		['fleet'],
	),
	// rancher/fleet#5152: no status subresource (a Policy keeps none), no short name, no category.
	row('fleet.cattle.io/v1alpha1', 'Policy', 'policies', true, false),
	// KubeStellar (config/crds): BindingPolicy and Binding are cluster-scoped; WorkStatus lives in the WEC's
	// namespace of the ITS.
	row('control.kubestellar.io/v1alpha1', 'BindingPolicy', 'bindingpolicies', false, true, ['bp']),
	row('control.kubestellar.io/v1alpha1', 'Binding', 'bindings', false, true, ['bdg']),
	row('control.kubestellar.io/v1alpha1', 'WorkStatus', 'workstatuses', true, true, ['ws']),
	row('control.kubestellar.io/v1alpha1', 'StatusCollector', 'statuscollectors', false, true, [
		'sc',
	]),
	row('control.kubestellar.io/v1alpha1', 'CombinedStatus', 'combinedstatuses', true, false, ['cs']),
	// OCM's inventory in the ITS, which BindingPolicy cluster selectors match.
	row('cluster.open-cluster-management.io/v1', 'ManagedCluster', 'managedclusters', false, true, [
		'mcl',
		'mcls',
	]),
	// Harbor operator.
	row('goharbor.io/v1beta1', 'HarborCluster', 'harborclusters', true, true, [], ['goharbor']),
	// Flux toolkit.
	row('source.toolkit.fluxcd.io/v1', 'GitRepository', 'gitrepositories', true, true, ['gitrepo']),
	row('source.toolkit.fluxcd.io/v1', 'HelmRepository', 'helmrepositories', true, true, [
		'helmrepo',
	]),
	row('source.toolkit.fluxcd.io/v1', 'OCIRepository', 'ocirepositories', true, true, ['ocirepo']),
	row('source.toolkit.fluxcd.io/v1', 'HelmChart', 'helmcharts', true, true, ['hc']),
	row('source.toolkit.fluxcd.io/v1', 'Bucket', 'buckets', true, true),
	row('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', 'kustomizations', true, true, ['ks']),
	row('helm.toolkit.fluxcd.io/v2', 'HelmRelease', 'helmreleases', true, true, ['hr']),
	// The Flux Operator (controlplaneio-fluxcd/flux-operator config/crd/bases): short names and categories as declared.
	row(
		'fluxcd.controlplane.io/v1',
		'FluxInstance',
		'fluxinstances',
		true,
		true,
		[],
		['fluxcd', 'fluxcd-appliers'],
	),
	row('fluxcd.controlplane.io/v1', 'FluxReport', 'fluxreports', true, true, [], ['fluxcd']),
	row(
		'fluxcd.controlplane.io/v1',
		'ResourceSet',
		'resourcesets',
		true,
		true,
		['rset'],
		['all', 'fluxcd', 'fluxcd-appliers'],
	),
	row(
		'fluxcd.controlplane.io/v1',
		'ResourceSetInputProvider',
		'resourcesetinputproviders',
		true,
		true,
		['rsip'],
		['all', 'fluxcd', 'fluxcd-sources'],
	),
	// Azure Service Operator v2: one group per Azure service, versions named after the Azure API version.
	row(
		'resources.azure.com/v1api20200601',
		'ResourceGroup',
		'resourcegroups',
		true,
		true,
		[],
		['azure', 'resources'],
	),
	row(
		'storage.azure.com/v1api20230101',
		'StorageAccount',
		'storageaccounts',
		true,
		true,
		[],
		['azure', 'storage'],
	),
	row(
		'dbforpostgresql.azure.com/v1api20221201',
		'FlexibleServer',
		'flexibleservers',
		true,
		true,
		[],
		['azure', 'dbforpostgresql'],
	),
	row('cache.azure.com/v1api20230801', 'Redis', 'redis', true, true, [], ['azure', 'cache']),
	row(
		'network.azure.com/v1api20201101',
		'VirtualNetwork',
		'virtualnetworks',
		true,
		true,
		[],
		['azure', 'network'],
	),
	row(
		'keyvault.azure.com/v1api20210401preview',
		'Vault',
		'vaults',
		true,
		true,
		[],
		['azure', 'keyvault'],
	),
	// Azure Service Operator v1.
	row('azure.microsoft.com/v1alpha1', 'StorageAccount', 'storageaccounts', true, true),
];

/** The `apiVersion` string of a resource type: `v1` for core, `group/version` otherwise. */
export function apiVersionOf(type: ResourceType): string {
	return type.group === '' ? type.version : `${type.group}/${type.version}`;
}

/** A stable key for a resource type: `plural.group/version`. */
export function resourceKeyOf(type: ResourceType): string {
	return `${type.plural}.${type.group}/${type.version}`;
}
