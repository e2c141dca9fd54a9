// The CustomResourceDefinition objects of the served custom resources (apiextensions.k8s.io/v1), as a cluster with
// those CRDs installed lists them (`kubectl get crd`, `kubectl get crd gitrepos.fleet.cattle.io -o yaml`): built from
// the resource table and the printer columns the projects declare, so they change with the served groups. They
// are read-only here: the server's kinds are its table.
import type { ServerResponse } from 'node:http';
import { ApiError, notFound } from './errors.ts';
import { sendJson } from './http.ts';
import type { JsonObject } from './patch.ts';
import { declaredPrinterColumnsOf } from './printerColumns.ts';
import type { ResourceType } from './resources.ts';
import type { ObjectStore } from './store.ts';
import type { ResourceTarget, Verb } from './targets.ts';

/** Whether a type is apiextensions' CustomResourceDefinition. */
export function isCrdType(type: ResourceType): boolean {
	return type.group === 'apiextensions.k8s.io' && type.kind === 'CustomResourceDefinition';
}

/** The CRD object of the served versions of one group and kind (a row per version in the table). */
function crdOf(versions: readonly ResourceType[], created: string): JsonObject {
	const [first] = versions;
	if (first === undefined) return {};
	const name = `${first.plural}.${first.group}`;
	const names: JsonObject = {
		kind: first.kind,
		listKind: `${first.kind}List`,
		plural: first.plural,
		singular: first.singular,
		...(first.shortNames === undefined ? {} : { shortNames: [...first.shortNames] }),
		...(first.categories === undefined ? {} : { categories: [...first.categories] }),
	};
	return {
		apiVersion: 'apiextensions.k8s.io/v1',
		kind: 'CustomResourceDefinition',
		metadata: { name, creationTimestamp: created, generation: 1, resourceVersion: '1' },
		spec: {
			group: first.group,
			names,
			scope: first.namespaced ? 'Namespaced' : 'Cluster',
			versions: versions.map((type, index) => ({
				name: type.version,
				served: true,
				storage: index === 0,
				schema: {
					openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
				},
				...(type.statusSubresource ? { subresources: { status: {} } } : {}),
				...declaredColumns(type),
			})),
		},
		status: {
			acceptedNames: names,
			conditions: [
				{
					type: 'NamesAccepted',
					status: 'True',
					reason: 'NoConflicts',
					message: 'no conflicts found',
					lastTransitionTime: created,
				},
				{
					type: 'Established',
					status: 'True',
					reason: 'InitialNamesAccepted',
					message: 'the initial names have been accepted',
					lastTransitionTime: created,
				},
			],
			storedVersions: [first.version],
		},
	};
}

/** The columns as the CRD declares them (the server's default Age is not written into the CRD). */
function declaredColumns(type: ResourceType): JsonObject {
	const columns = declaredPrinterColumnsOf(type) ?? [];
	if (columns.length === 0) return {};
	return {
		additionalPrinterColumns: columns.map((column) => ({
			name: column.name,
			type: column.type,
			jsonPath: column.jsonPath,
			...(column.format === undefined ? {} : { format: column.format }),
			...(column.description === undefined ? {} : { description: column.description }),
			...(column.priority === undefined ? {} : { priority: column.priority }),
		})),
	};
}

/** Every served custom resource's CRD, by name. */
function crdsOf(served: readonly ResourceType[], created: string): JsonObject[] {
	const byName = new Map<string, ResourceType[]>();
	for (const type of served) {
		if (declaredPrinterColumnsOf(type) === undefined) continue;
		const name = `${type.plural}.${type.group}`;
		byName.set(name, [...(byName.get(name) ?? []), type]);
	}
	return [...byName.keys()].sort().map((name) => crdOf(byName.get(name) ?? [], created));
}

/** Answers a read of the CRDs; writes are refused (the demo server's kinds are fixed). */
export function serveCrds(
	store: ObjectStore,
	served: readonly ResourceType[],
	created: string,
	response: ServerResponse,
	target: ResourceTarget,
	verb: Verb,
): number {
	const crds = crdsOf(served, created);
	if (verb === 'get') {
		const crd = crds.find((candidate) => (candidate.metadata as JsonObject).name === target.name);
		if (crd === undefined) throw notFound(target.type, target.name ?? '');
		sendJson(response, 200, crd);
		return 200;
	}
	if (verb === 'list') {
		sendJson(response, 200, {
			kind: 'CustomResourceDefinitionList',
			apiVersion: 'apiextensions.k8s.io/v1',
			metadata: { resourceVersion: String(store.resourceVersion) },
			items: crds,
		});
		return 200;
	}
	throw new ApiError(
		405,
		'MethodNotAllowed',
		'the local API server serves a fixed set of kinds: its CustomResourceDefinitions are read-only',
	);
}
