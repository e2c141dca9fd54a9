// Objects as the Flux, Fleet and ASO controllers write them, for the cause chain tests.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseManifests } from '../../../src/core/manifest/parse.ts';
import { ResourceGraph } from '../../../src/core/tree/model.ts';

export type K8s = Record<string, unknown>;

export const at = '2026-11-24T10:00:00Z';

function ready(status: string, reason: string, message: string): K8s {
	return { type: 'Ready', status, reason, message, lastTransitionTime: at };
}

export function source(
	kind: string,
	name: string,
	failure?: { reason: string; message: string },
	namespace = 'flux-system',
): K8s {
	const conditions = failure
		? [
				ready('False', failure.reason, failure.message),
				{ type: 'FetchFailed', status: 'True', ...failure, lastTransitionTime: at },
			]
		: [ready('True', 'Succeeded', `stored artifact for revision 'main@sha1:abc'`)];
	return {
		apiVersion: 'source.toolkit.fluxcd.io/v1',
		kind,
		metadata: { name, namespace, generation: 1 },
		spec: { interval: '1m' },
		status: { observedGeneration: 1, conditions },
	};
}

export function kustomization(
	name: string,
	spec: K8s,
	readyCondition: { status: string; reason: string; message: string } = {
		status: 'True',
		reason: 'ReconciliationSucceeded',
		message: 'Applied revision: main@sha1:abc',
	},
	namespace = 'flux-system',
): K8s {
	return {
		apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
		kind: 'Kustomization',
		metadata: { name, namespace, generation: 1 },
		spec: {
			interval: '10m',
			path: './',
			sourceRef: { kind: 'GitRepository', name: 'flux-system' },
			...spec,
		},
		status: {
			observedGeneration: 1,
			conditions: [ready(readyCondition.status, readyCondition.reason, readyCondition.message)],
		},
	};
}

export function dependencyNotReady(namespace: string, name: string) {
	return {
		status: 'False',
		reason: 'DependencyNotReady',
		message: `dependency '${namespace}/${name}' is not ready`,
	};
}

export function helmRelease(
	name: string,
	spec: K8s,
	readyCondition: { status: string; reason: string; message: string },
	status: K8s = {},
	namespace = 'apps',
): K8s {
	return {
		apiVersion: 'helm.toolkit.fluxcd.io/v2',
		kind: 'HelmRelease',
		metadata: { name, namespace, generation: 1 },
		spec: { interval: '10m', ...spec },
		status: {
			observedGeneration: 1,
			...status,
			conditions: [ready(readyCondition.status, readyCondition.reason, readyCondition.message)],
		},
	};
}

export const chartFromRepository = {
	chart: {
		spec: {
			chart: 'podinfo',
			sourceRef: { kind: 'HelmRepository', name: 'podinfo', namespace: 'flux-system' },
		},
	},
};

export function helmChart(
	name: string,
	namespace: string,
	sourceRef: K8s,
	failure?: { reason: string; message: string },
): K8s {
	const object = source('HelmChart', name, failure, namespace);
	return { ...object, spec: { chart: 'podinfo', sourceRef } };
}

/** A BundleDeployment of a Bundle in fleet-default on a cluster, Ready or failing with a Deployed message. */
export function bundleDeployment(
	bundle: string,
	cluster: string,
	deployed?: string,
	dependsOn?: unknown[],
): K8s {
	const id = 's-1:1';
	return {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'BundleDeployment',
		metadata: {
			name: bundle,
			namespace: `cluster-fleet-default-${cluster}-0123456789ab`,
			labels: {
				'fleet.cattle.io/bundle-name': bundle,
				'fleet.cattle.io/bundle-namespace': 'fleet-default',
				'fleet.cattle.io/cluster': cluster,
				'fleet.cattle.io/cluster-namespace': 'fleet-default',
				tier: bundle.endsWith('db') ? 'data' : 'app',
			},
		},
		spec: { deploymentID: id, stagedDeploymentID: id, ...(dependsOn ? { dependsOn } : {}) },
		status:
			deployed === undefined
				? {
						appliedDeploymentID: id,
						ready: true,
						nonModified: true,
						conditions: [
							{ type: 'Deployed', status: 'True' },
							{ type: 'Ready', status: 'True' },
						],
					}
				: {
						conditions: [{ type: 'Deployed', status: 'False', reason: 'Error', message: deployed }],
					},
	};
}

export function bundle(name: string, dependsOn?: unknown[]): K8s {
	return {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'Bundle',
		metadata: { name, namespace: 'fleet-default', generation: 1 },
		spec: { ...(dependsOn ? { dependsOn } : {}) },
		status: { observedGeneration: 1 },
	};
}

export function asoResource(
	apiVersion: string,
	kind: string,
	name: string,
	owner: K8s,
	waiting?: string,
): K8s {
	return {
		apiVersion,
		kind,
		metadata: { name, namespace: 'team-a', generation: 1 },
		spec: { owner },
		status: {
			conditions: [
				waiting === undefined
					? { type: 'Ready', status: 'True', observedGeneration: 1, lastTransitionTime: at }
					: {
							type: 'Ready',
							status: 'False',
							severity: 'Warning',
							reason: 'WaitingForOwner',
							message: waiting,
							observedGeneration: 1,
							lastTransitionTime: at,
						},
			],
		},
	};
}

export const repoRoot = join(import.meta.dirname, '..', '..', '..');

/** Every object of the example workspace's Flux and Fleet folders, with the file it came from. */
export function exampleObjects(): { file: string; object: unknown; line: number }[] {
	const files: string[] = [];
	for (const folder of ['examples/workspace/flux', 'examples/workspace/fleet']) {
		const walk = (dir: string): void => {
			for (const item of readdirSync(dir, { withFileTypes: true })) {
				const path = join(dir, item.name);
				if (item.isDirectory()) walk(path);
				else if (/\.ya?ml$/.test(item.name)) files.push(path);
			}
		};
		walk(join(repoRoot, folder));
	}
	return files.flatMap((file) =>
		parseManifests(readFileSync(file, 'utf8')).objects.map((entry) => ({
			file,
			object: entry.object,
			line: entry.range.start.line,
		})),
	);
}

/** The example workspace's Flux and Fleet objects in a graph root "ws", a source per file. */
export function exampleGraph(): ResourceGraph {
	const graph = new ResourceGraph();
	graph.addRoot('ws', 'Workspace manifests');
	const byFile = new Map<string, { object: unknown; line: number }[]>();
	for (const { file, object, line } of exampleObjects()) {
		byFile.set(file, [...(byFile.get(file) ?? []), { object, line }]);
	}
	graph.setSourcesObjects(
		'ws',
		[...byFile].map(([sourceId, objects]) => ({ sourceId, objects })),
	);
	return graph;
}
