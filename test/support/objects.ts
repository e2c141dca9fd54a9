// Builders of the objects the server and cluster-client tests hold and create, one per kind, so that a test states
// only what matters to it (a namespace, a label, a status) and the shape of each kind is written once.
import type { JsonObject } from '../../src/apiserver/patch.ts';

/** What a test may set on an object; everything else takes the kind's defaults. */
export interface ObjectOptions {
	readonly namespace?: string;
	readonly labels?: Readonly<Record<string, string>>;
	readonly annotations?: Readonly<Record<string, string>>;
	/** As a client that wrote the object leaves them (the cache must drop them). */
	readonly managedFields?: readonly JsonObject[];
	/** Replaces the kind's default spec. */
	readonly spec?: JsonObject;
	readonly status?: JsonObject;
}

function build(
	apiVersion: string,
	kind: string,
	name: string,
	defaults: { readonly namespace: string; readonly spec?: JsonObject },
	options: ObjectOptions,
): JsonObject {
	const metadata: JsonObject = { name, namespace: options.namespace ?? defaults.namespace };
	if (options.labels !== undefined) metadata.labels = { ...options.labels };
	if (options.annotations !== undefined) metadata.annotations = { ...options.annotations };
	if (options.managedFields !== undefined) metadata.managedFields = [...options.managedFields];
	const spec = options.spec ?? defaults.spec;
	return {
		apiVersion,
		kind,
		metadata,
		...(spec === undefined ? {} : { spec: structuredClone(spec) }),
		...(options.status === undefined ? {} : { status: structuredClone(options.status) }),
	};
}

/** A Ready condition with this status ('True', 'False', 'Unknown'). */
export function readyCondition(status = 'True', reason?: string): JsonObject {
	return { type: 'Ready', status, ...(reason === undefined ? {} : { reason }) };
}

/** A Fleet GitRepo, in fleet-default unless told. */
export function gitRepo(name: string, options: ObjectOptions = {}): JsonObject {
	return build(
		'fleet.cattle.io/v1alpha1',
		'GitRepo',
		name,
		{ namespace: 'fleet-default', spec: { repo: 'https://github.com/example/repo' } },
		options,
	);
}

/** A Fleet BundleDeployment of `bundle` (in fleet-default), labelled as Fleet labels them. */
export function bundleDeployment(
	name: string,
	options: ObjectOptions & { readonly bundle?: string } = {},
): JsonObject {
	const { bundle, ...rest } = options;
	const labels =
		bundle === undefined
			? rest.labels
			: {
					'fleet.cattle.io/bundle-name': bundle,
					'fleet.cattle.io/bundle-namespace': 'fleet-default',
					...rest.labels,
				};
	return build(
		'fleet.cattle.io/v1alpha1',
		'BundleDeployment',
		name,
		{ namespace: 'cluster-fleet-default-c1', spec: {} },
		{ ...rest, ...(labels === undefined ? {} : { labels }) },
	);
}

/** A Flux Kustomization, in flux-system unless told. */
export function kustomization(name: string, options: ObjectOptions = {}): JsonObject {
	return build(
		'kustomize.toolkit.fluxcd.io/v1',
		'Kustomization',
		name,
		{ namespace: 'flux-system', spec: { interval: '5m', path: './apps', prune: true } },
		options,
	);
}

/** A Secret with data in it: what the client must never read or keep. */
export function secret(
	name: string,
	options: { readonly namespace?: string; readonly data?: Readonly<Record<string, string>> } = {},
): JsonObject {
	return {
		apiVersion: 'v1',
		kind: 'Secret',
		metadata: { name, namespace: options.namespace ?? 'default' },
		type: 'Opaque',
		data: { ...(options.data ?? { password: 'c2VjcmV0' }) },
	};
}
