// The `additionalPrinterColumns` of the CRDs the server serves, as the projects declare them, and the Table that
// kube-apiserver builds from them for `kubectl get` (apiextensions-apiserver's table converter): a Name column, then
// the declared columns (a CRD that declares none gets Age), each cell the first value its JSONPath reaches, typed by
// the column's `type`. Sources, each read at the commit named:
// - rancher/fleet 3b2c622ce176b11644abc7fb768f87c3ffb5a3ab `charts/fleet-crd/templates/crds.yaml` (generated from the
//   `+kubebuilder:printcolumn` markers of `pkg/apis/fleet.cattle.io/v1alpha1/*_types.go`)
// - fluxcd/source-controller 39b711b111fa906c3db0a424e252a5d12e48646d, fluxcd/kustomize-controller
//   186fb3b29138ce82ff61ba1a9370b96a3dd598fe, fluxcd/helm-controller 0f61a8607a62be64638f2f912d9487e653960a6e:
//   `config/crd/bases/*.yaml`, the storage versions
// - controlplaneio-fluxcd/flux-operator 17c6aeaddd8dacd5fbd4dd9e1bfe23a0a59df1fb
//   `config/crd/bases/fluxcd.controlplane.io_{fluxinstances,fluxreports,resourcesets,resourcesetinputproviders}.yaml`
// - kubestellar/kubestellar 1c28a8a1e3aebc918537b698149448152a968063 `config/crd/bases/control.kubestellar.io_*.yaml`
// - goharbor/harbor-operator b369ee6a0e39c9979993328e97b6aed6c61dd7dd `apis/goharbor.io/v1beta1/harborcluster_types.go`
// - open-cluster-management's ManagedCluster CRD (`0000_00_clusters.open-cluster-management.io_managedclusters.crd.yaml`)
// - Azure/azure-service-operator: the markers every v2 resource is generated with (Ready, Severity, Reason, Message of
//   the Ready condition) and those of the v1 kinds (`.status.provisioned`, `.status.message`)
// WorkStatus (kubestellar/ocm-status-addon) declares none, so it gets the default Age column as the real server gives.

import { evaluateJsonPath, parseJsonPath } from './jsonPath.ts';
import { isJsonObject, type JsonObject } from './patch.ts';
import type { ResourceType } from './resources.ts';
import type { KubeObject, StoredEntry } from './store.ts';

/** One `additionalPrinterColumns` entry of a CRD version. */
export interface PrinterColumn {
	readonly name: string;
	readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
	readonly jsonPath: string;
	readonly format?: string;
	readonly description?: string;
	readonly priority?: number;
}

const readyMessage = '.status.conditions[?(@.type=="Ready")].message';
const readyStatus = '.status.conditions[?(@.type=="Ready")].status';
const age: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };
const string = (
	name: string,
	jsonPath: string,
	extra: Partial<PrinterColumn> = {},
): PrinterColumn => ({
	name,
	type: 'string',
	jsonPath,
	...extra,
});
const fleetStatus = string('Status', readyMessage);
const fluxReadyAndStatus = [string('Ready', readyStatus), string('Status', readyMessage)];
const asoV2 = [
	string('Ready', ".status.conditions[?(@.type=='Ready')].status"),
	string('Severity', ".status.conditions[?(@.type=='Ready')].severity"),
	string('Reason', ".status.conditions[?(@.type=='Ready')].reason"),
	string('Message', ".status.conditions[?(@.type=='Ready')].message"),
];
const kubestellarLabel = (name: string, label: string): PrinterColumn =>
	string(name, `.metadata.labels['status\\.kubestellar\\.io/${label}']`);

/** The declared columns by `group/Kind`. */
const declaredColumns: ReadonlyMap<string, readonly PrinterColumn[]> = new Map([
	[
		'fleet.cattle.io/GitRepo',
		[
			string('Repo', '.spec.repo'),
			string('Commit', '.status.commit'),
			string('BundleDeployments-Ready', '.status.display.readyBundleDeployments'),
			fleetStatus,
		],
	],
	[
		'fleet.cattle.io/HelmOp',
		[
			string('Repo', '.spec.helm.repo'),
			string('Chart', '.spec.helm.chart'),
			string('Version', '.status.version'),
			string('BundleDeployments-Ready', '.status.display.readyBundleDeployments'),
			fleetStatus,
		],
	],
	[
		'fleet.cattle.io/Bundle',
		[string('BundleDeployments-Ready', '.status.display.readyClusters'), fleetStatus],
	],
	[
		'fleet.cattle.io/BundleDeployment',
		[
			string('Deployed', '.status.display.deployed'),
			string('Monitored', '.status.display.monitored'),
			fleetStatus,
		],
	],
	[
		'fleet.cattle.io/Cluster',
		[
			string('Bundles-Ready', '.status.display.readyBundles'),
			string('Last-Seen', '.status.agent.lastSeen'),
			fleetStatus,
		],
	],
	[
		'fleet.cattle.io/ClusterGroup',
		[
			string('Clusters-Ready', '.status.display.readyClusters'),
			string('Bundles-Ready', '.status.display.readyBundles'),
			fleetStatus,
		],
	],
	[
		'control.kubestellar.io/BindingPolicy',
		[
			string('SYNCED', ".status.conditions[?(@.type=='Synced')].status"),
			string('READY', ".status.conditions[?(@.type=='Ready')].status"),
			string('TYPE', '.spec.type'),
			{ ...age, name: 'AGE' },
		],
	],
	[
		'control.kubestellar.io/CombinedStatus',
		[
			kubestellarLabel('SUBJECT_GROUP', 'api-group'),
			kubestellarLabel('SUBJECT_RSC', 'resource'),
			kubestellarLabel('SUBJECT_NS', 'namespace'),
			kubestellarLabel('SUBJECT_NAME', 'name'),
			kubestellarLabel('BINDINGPOLICY', 'binding-policy'),
		],
	],
	[
		'cluster.open-cluster-management.io/ManagedCluster',
		[
			{ name: 'Hub Accepted', type: 'boolean', jsonPath: '.spec.hubAcceptsClient' },
			string('Managed Cluster URLs', '.spec.managedClusterClientConfigs[*].url'),
			string('Joined', '.status.conditions[?(@.type=="ManagedClusterJoined")].status'),
			string(
				'Available',
				'.status.conditions[?(@.type=="ManagedClusterConditionAvailable")].status',
			),
			age,
		],
	],
	[
		'goharbor.io/HarborCluster',
		[
			string('Public URL', '.spec.externalURL', {
				description: 'The public URL to the Harbor application',
			}),
			string('Status', '.status.status', {
				description: 'The overall status of the Harbor cluster',
			}),
			string('Operator Version', '.status.operator.controllerVersion', {
				description: 'The operator version ',
				priority: 30,
			}),
			string('Operator Git Commit', '.status.operator.controllerGitCommit', {
				description: 'The operator git commit',
				priority: 30,
			}),
		],
	],
	[
		'source.toolkit.fluxcd.io/GitRepository',
		[string('URL', '.spec.url'), age, ...fluxReadyAndStatus],
	],
	[
		'source.toolkit.fluxcd.io/HelmRepository',
		[string('URL', '.spec.url'), age, ...fluxReadyAndStatus],
	],
	[
		'source.toolkit.fluxcd.io/OCIRepository',
		[string('URL', '.spec.url'), ...fluxReadyAndStatus, age],
	],
	[
		'source.toolkit.fluxcd.io/HelmChart',
		[
			string('Chart', '.spec.chart'),
			string('Version', '.spec.version'),
			string('Source Kind', '.spec.sourceRef.kind'),
			string('Source Name', '.spec.sourceRef.name'),
			age,
			...fluxReadyAndStatus,
		],
	],
	[
		'source.toolkit.fluxcd.io/Bucket',
		[string('Endpoint', '.spec.endpoint'), age, ...fluxReadyAndStatus],
	],
	['kustomize.toolkit.fluxcd.io/Kustomization', [age, ...fluxReadyAndStatus]],
	['helm.toolkit.fluxcd.io/HelmRelease', [age, ...fluxReadyAndStatus]],
	[
		'fluxcd.controlplane.io/FluxInstance',
		[age, ...fluxReadyAndStatus, string('Revision', '.status.lastAttemptedRevision')],
	],
	[
		'fluxcd.controlplane.io/FluxReport',
		[
			string('Entitlement', '.spec.distribution.entitlement', { priority: 10 }),
			age,
			...fluxReadyAndStatus,
			string('LastUpdated', '.status.conditions[?(@.type=="Ready")].lastTransitionTime'),
		],
	],
	['fluxcd.controlplane.io/ResourceSet', [age, ...fluxReadyAndStatus]],
	['fluxcd.controlplane.io/ResourceSetInputProvider', [age, ...fluxReadyAndStatus]],
	[
		'azure.microsoft.com/StorageAccount',
		[string('Provisioned', '.status.provisioned'), string('Message', '.status.message')],
	],
]);

/** The groups of Kubernetes' own types, which have compiled-in printers rather than CRD columns. */
const builtInGroups = new Set([
	'',
	'apps',
	'batch',
	'policy',
	'events.k8s.io',
	'apiextensions.k8s.io',
]);

/** The printer columns a CRD's served version declares (none: empty); undefined for a built-in type. */
export function declaredPrinterColumnsOf(type: ResourceType): readonly PrinterColumn[] | undefined {
	if (builtInGroups.has(type.group)) return undefined;
	const declared = declaredColumns.get(`${type.group}/${type.kind}`);
	if (declared !== undefined) return declared;
	return type.group.endsWith('.azure.com') ? asoV2 : [];
}

/**
 * The columns a CRD's objects print with: those declared, or Age when none are (apiextensions-apiserver's
 * `serveDefaultColumnsIfEmpty`); undefined for a built-in type.
 */
function printerColumnsOf(type: ResourceType): readonly PrinterColumn[] | undefined {
	const declared = declaredPrinterColumnsOf(type);
	if (declared === undefined) return undefined;
	return declared.length > 0 ? declared : [age];
}

/** Whether an Accept header asks for a meta.k8s.io/v1 Table (kubectl get lists it first). */
export function wantsTable(accept: string | undefined): boolean {
	if (accept === undefined) return false;
	return accept.split(',').some((part) => {
		const params = part.split(';').map((param) => param.trim());
		return (
			params.includes('as=Table') && params.includes('g=meta.k8s.io') && params.includes('v=v1')
		);
	});
}

/** kubectl's and kube-apiserver's short age (k8s.io/apimachinery `duration.HumanDuration`). */
function humanDuration(milliseconds: number): string {
	const seconds = Math.trunc(milliseconds / 1000);
	if (seconds < -1) return '<invalid>';
	if (seconds < 0) return '0s';
	if (seconds < 120) return `${seconds}s`;
	const minutes = Math.trunc(seconds / 60);
	const and = (big: number, unit: string, small: number, smallUnit: string): string =>
		small === 0 ? `${big}${unit}` : `${big}${unit}${small}${smallUnit}`;
	if (minutes < 10) return and(minutes, 'm', seconds % 60, 's');
	if (minutes < 180) return `${minutes}m`;
	const hours = Math.trunc(minutes / 60);
	if (hours < 8) return and(hours, 'h', minutes % 60, 'm');
	if (hours < 48) return `${hours}h`;
	const days = Math.trunc(hours / 24);
	if (hours < 24 * 8) return and(days, 'd', hours % 24, 'h');
	if (hours < 24 * 365 * 2) return `${days}d`;
	const years = Math.trunc(days / 365);
	if (hours < 24 * 365 * 8) return and(years, 'y', days % 365, 'd');
	return `${years}y`;
}

/** One cell: what the column's JSONPath reaches first, converted by the column's type; null when nothing. */
function cellOf(column: PrinterColumn, object: KubeObject, now: Date): unknown {
	const path = parseJsonPath(column.jsonPath);
	const value = path === undefined ? undefined : evaluateJsonPath(path, object)[0];
	if (value === undefined || value === null) return null;
	switch (column.type) {
		case 'string':
			return typeof value === 'string' ? value : JSON.stringify(value);
		case 'integer':
			return typeof value === 'number' ? Math.trunc(value) : null;
		case 'number':
			return typeof value === 'number' ? value : null;
		case 'boolean':
			return typeof value === 'boolean' ? value : null;
		case 'date': {
			if (typeof value !== 'string') return null;
			const time = Date.parse(value);
			return Number.isNaN(time) ? '<invalid>' : humanDuration(now.getTime() - time);
		}
	}
}

/** What a Table row carries of its object: `includeObject` None, Metadata (the default) or Object. */
type IncludeObject = 'None' | 'Metadata' | 'Object';

/** The `includeObject` parameter; anything else is the default. */
export function includeObjectOf(params: URLSearchParams): IncludeObject {
	const value = params.get('includeObject');
	return value === 'None' || value === 'Object' ? value : 'Metadata';
}

function rowObject(object: KubeObject, include: IncludeObject): JsonObject | undefined {
	if (include === 'None') return undefined;
	if (include === 'Object') return object;
	return {
		kind: 'PartialObjectMetadata',
		apiVersion: 'meta.k8s.io/v1',
		metadata: isJsonObject(object.metadata) ? object.metadata : {},
	};
}

/** How the rows of one kind print: its column definitions and each object's cells. */
export interface TablePrinter {
	readonly columnDefinitions: readonly object[];
	cells(object: KubeObject, now: Date): unknown[];
}

const nameDescription =
	'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

function nameOf(object: KubeObject): string | null {
	const name = isJsonObject(object.metadata) ? object.metadata.name : undefined;
	return typeof name === 'string' ? name : null;
}

/** The printer of a CRD's columns: Name, then the columns. */
function crdPrinter(columns: readonly PrinterColumn[]): TablePrinter {
	return {
		columnDefinitions: [
			{ name: 'Name', type: 'string', format: 'name', description: nameDescription, priority: 0 },
			...columns.map((column) => ({
				name: column.name,
				type: column.type,
				format: column.format ?? '',
				description:
					column.description ??
					`Custom resource definition column (in JSONPath format): ${column.jsonPath}`,
				priority: column.priority ?? 0,
			})),
		],
		cells: (object, now) => [
			nameOf(object),
			...columns.map((column) => cellOf(column, object, now)),
		],
	};
}

function text(value: unknown): string {
	return typeof value === 'string' ? value : '';
}

/** An age as kubectl prints a timestamp's: `<unknown>` when it is absent. */
function ageSince(value: unknown, now: Date): string {
	const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	return Number.isNaN(time) ? '<unknown>' : humanDuration(now.getTime() - time);
}

/**
 * The columns kube-apiserver prints a (core v1) Event with (kubernetes `pkg/printers/internalversion` `printEvent`):
 * the last time seen comes from `lastTimestamp`, else the first time (`firstTimestamp`, else `eventTime`), and a
 * `series` gives both the last time and the count; an Event of the new API without either counts 1.
 */
const eventPrinter: TablePrinter = {
	columnDefinitions: [
		['Last Seen', 0],
		['Type', 0],
		['Reason', 0],
		['Object', 0],
		['Subobject', 1],
		['Source', 1],
		['Message', 0],
		['First Seen', 1],
		['Count', 1],
		['Name', 1],
	].map(([name, priority]) => ({
		name,
		type: 'string',
		format: name === 'Name' ? 'name' : '',
		description: '',
		priority,
	})),
	cells(event, now) {
		const firstSeen =
			event.firstTimestamp === undefined || event.firstTimestamp === null
				? ageSince(event.eventTime, now)
				: ageSince(event.firstTimestamp, now);
		let lastSeen =
			event.lastTimestamp === undefined || event.lastTimestamp === null
				? firstSeen
				: ageSince(event.lastTimestamp, now);
		let count = typeof event.count === 'number' ? event.count : 0;
		if (isJsonObject(event.series)) {
			lastSeen = ageSince(event.series.lastObservedTime, now);
			count = typeof event.series.count === 'number' ? event.series.count : 0;
		} else if (count === 0) {
			count = 1;
		}
		const involved = isJsonObject(event.involvedObject) ? event.involvedObject : {};
		const kind = text(involved.kind).toLowerCase();
		const target = text(involved.name) === '' ? kind : `${kind}/${text(involved.name)}`;
		const source = isJsonObject(event.source) ? event.source : {};
		const component = text(source.component) || text(event.reportingComponent);
		const instance = text(source.host) || text(event.reportingInstance);
		return [
			lastSeen,
			text(event.type),
			text(event.reason),
			target,
			text(involved.fieldPath),
			instance === '' ? component : `${component}, ${instance}`,
			text(event.message).trim(),
			firstSeen,
			count,
			nameOf(event),
		];
	},
};

/**
 * The printer of a type's Table: the Event columns for (core v1) Events, a CRD's columns for a CRD; undefined for
 * the other built-in types (the client then prints from the objects, as it does without a Table).
 */
export function tablePrinterOf(type: ResourceType): TablePrinter | undefined {
	if (type.group === '' && type.kind === 'Event') return eventPrinter;
	const columns = printerColumnsOf(type);
	return columns === undefined ? undefined : crdPrinter(columns);
}

/**
 * The Table of a list (or of one object), as `kubectl get` receives it. A watch sends the column definitions with
 * its first event only, as kube-apiserver does.
 */
export function tableOf(
	printer: TablePrinter,
	entries: readonly StoredEntry[],
	listMetadata: object,
	include: IncludeObject,
	now: Date,
	withColumnDefinitions = true,
): object {
	const rows = entries.map(({ object }) => {
		const cells = printer.cells(object, now);
		const rowObjectValue = rowObject(object, include);
		return rowObjectValue === undefined ? { cells } : { cells, object: rowObjectValue };
	});
	return {
		kind: 'Table',
		apiVersion: 'meta.k8s.io/v1',
		metadata: listMetadata,
		columnDefinitions: withColumnDefinitions ? printer.columnDefinitions : null,
		rows,
	};
}
