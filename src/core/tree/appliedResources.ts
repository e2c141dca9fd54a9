// The rows of what an object applied (a BundleDeployment's status.resources, a Flux Kustomization's
// status.inventory), one level further: which cluster holds those resources, what a live read of one says (its
// kstatus), and the patch Fleet recorded for a modified one. Pure: the adapter reads and calls these.
import { getArray, getPath, getString, groupOf, isRecord } from '../model/object.ts';
import {
	evaluateHealthCheck,
	healthCheckFor,
	healthChecksOf,
	type HealthCheck,
} from '../status/fluxHealthChecks.ts';
import { computeKstatus } from '../status/kstatus.ts';
import type { KstatusStatus, Tone } from '../status/result.ts';
import { unescapeSegment } from './graphState.ts';

/**
 * What a row under a BundleDeployment or Kustomization stands for: a resource Fleet reports non-ready, one whose
 * apply failed, one Fleet reports modified, any other applied resource, or a Kustomization's inventory entry.
 */
export type AppliedRowRole = 'nonReady' | 'failed' | 'modified' | 'applied' | 'inventory';

const roleTokens: Readonly<Record<string, AppliedRowRole>> = {
	n: 'nonReady',
	a: 'failed',
	m: 'modified',
	ok: 'applied',
};

/** The vertex id of an applied-resource row: `r:<key>:<token>:...` under a BD, `i:<key>:...` under a Kustomization. */
export function appliedRowVertexId(
	parentKey: string,
	role: AppliedRowRole,
	resource: string,
): string {
	if (role === 'inventory') return `i:${parentKey}:${resource}`;
	const token = Object.keys(roleTokens).find((key) => roleTokens[key] === role) ?? 'ok';
	return `r:${parentKey}:${token}:${resource}`;
}

/** The role of the row at a tree place, from its place id and its parent object's key; undefined for other rows. */
export function appliedRowRoleOf(
	nodeId: string,
	parentKey: string | undefined,
): AppliedRowRole | undefined {
	if (parentKey === undefined) return undefined;
	const vertexId = unescapeSegment(nodeId.slice(nodeId.lastIndexOf('/') + 1));
	const inventory = `i:${parentKey}:`;
	if (vertexId.startsWith(inventory)) {
		return vertexId === `${inventory}more` ? undefined : 'inventory';
	}
	const applied = `r:${parentKey}:`;
	if (!vertexId.startsWith(applied)) return undefined;
	const rest = vertexId.slice(applied.length);
	const token = rest.slice(0, rest.indexOf(':'));
	return rest.includes(':') ? roleTokens[token] : undefined;
}

/** Where the resources an object applied are: a context to read them from, or why they are not read. */
export type AppliedPlace =
	| { readonly kind: 'context'; readonly context: string; readonly why: string }
	| { readonly kind: 'elsewhere'; readonly why: string };

/**
 * The Flux kinds that keep what they applied in status.inventory (entries `{id, v}`): the kustomize-controller's
 * Kustomization, and the Flux Operator's FluxInstance and ResourceSet (controlplaneio-fluxcd/flux-operator api/v1
 * ResourceInventory, the same shape).
 */
export function isInventoryKind(kind: string): boolean {
	return kind === 'Kustomization' || kind === 'FluxInstance' || kind === 'ResourceSet';
}

/** The namespace prefix of the BundleDeployments of Fleet's `local` cluster (the management cluster itself). */
const fleetLocalNamespacePrefix = 'cluster-fleet-local-local-';

/**
 * Which cluster holds what the object applied. A Kustomization's inventory is in its own cluster, unless
 * spec.kubeConfig sends it to another one. A BundleDeployment's resources are in its downstream cluster: the same
 * one for Fleet's `local` cluster (its BDs live in `cluster-fleet-local-local-*`), otherwise an open context named
 * as the Cluster (the `fleet.cattle.io/cluster` label).
 */
export function appliedResourcesPlace(
	parent: { readonly kind: string; readonly namespace: string; readonly object: unknown },
	parentContext: string,
	openContexts: readonly string[],
): AppliedPlace | undefined {
	if (isInventoryKind(parent.kind)) {
		// A Kustomization's spec.kubeConfig, a FluxInstance's spec.kubeconfig: applied to another cluster.
		const field = isRecord(getPath(parent.object, 'spec', 'kubeConfig'))
			? 'kubeConfig'
			: isRecord(getPath(parent.object, 'spec', 'kubeconfig'))
				? 'kubeconfig'
				: undefined;
		if (field) {
			return {
				kind: 'elsewhere',
				why: `Flux applied these to another cluster (spec.${field} names its kubeconfig): they are not read from this context.`,
			};
		}
		return {
			kind: 'context',
			context: parentContext,
			why: `In the ${parent.kind}’s own cluster (context ${parentContext}).`,
		};
	}
	if (parent.kind !== 'BundleDeployment') return undefined;
	if (parent.namespace.startsWith(fleetLocalNamespacePrefix)) {
		return {
			kind: 'context',
			context: parentContext,
			why: `Fleet’s local cluster is this cluster (context ${parentContext}).`,
		};
	}
	const cluster = getString(parent.object, 'metadata', 'labels', 'fleet.cattle.io/cluster') ?? '';
	if (!cluster) {
		return {
			kind: 'elsewhere',
			why: 'In the downstream cluster, which this BundleDeployment does not name (no fleet.cattle.io/cluster label).',
		};
	}
	if (openContexts.includes(cluster)) {
		return {
			kind: 'context',
			context: cluster,
			why: `In the downstream cluster ${cluster} (the open context of that name).`,
		};
	}
	return {
		kind: 'elsewhere',
		why: `In the downstream cluster ${cluster}: no open context is named ${cluster}. Open one with Choose Contexts to read them.`,
	};
}

/** Why a live read of a resource gave no object. */
export type ReadFailure = 'forbidden' | 'not-found' | 'timeout' | 'cannot-reach' | 'error';

/** What is known live about one applied resource. */
export type AppliedReading =
	| { readonly kind: 'reading'; readonly context: string }
	| {
			readonly kind: 'read';
			readonly context: string;
			readonly at: number;
			readonly status: KstatusStatus;
			readonly message: string;
			/** What rated it: `kstatus`, or the parent Kustomization's `spec.healthCheckExprs[i]`. */
			readonly rule: string;
	  }
	| {
			readonly kind: 'failed';
			readonly context: string;
			readonly failure: ReadFailure;
			readonly message: string;
	  }
	| { readonly kind: 'elsewhere'; readonly why: string };

/**
 * The reading of an object a GET answered: its kstatus, or, under a Kustomization whose spec.healthCheckExprs has an
 * entry for the object's group and kind, what that expression says (the kustomize-controller rates such objects by
 * their expression, not by kstatus).
 */
export function readingOfObject(
	object: unknown,
	context: string,
	now: number,
	parent?: unknown,
): AppliedReading {
	const check = healthCheckOfParent(parent, object);
	if (check) {
		const { status, message, rule } = evaluateHealthCheck(check, object);
		return { kind: 'read', context, at: now, status, message, rule };
	}
	const { status, message } = computeKstatus(object, { now });
	return { kind: 'read', context, at: now, status, message, rule: 'kstatus' };
}

function healthCheckOfParent(parent: unknown, object: unknown): HealthCheck | undefined {
	if (
		getString(parent, 'kind') !== 'Kustomization' ||
		groupOf(getString(parent, 'apiVersion') ?? '') !== 'kustomize.toolkit.fluxcd.io' ||
		(getArray(parent, 'spec', 'healthCheckExprs') ?? []).length === 0
	) {
		return undefined;
	}
	return healthCheckFor(
		healthChecksOf(parent),
		getString(object, 'apiVersion') ?? '',
		getString(object, 'kind') ?? '',
	);
}

const kstatusTones: Readonly<Record<KstatusStatus, Tone>> = {
	Current: 'ok',
	InProgress: 'progressing',
	Terminating: 'progressing',
	Failed: 'error',
	Unknown: 'unknown',
};

const failureWords: Readonly<Record<ReadFailure, string>> = {
	forbidden: 'forbidden',
	'not-found': 'NotFound',
	timeout: 'timed out',
	'cannot-reach': 'cannot reach',
	error: 'read failed',
};

const toneRank: Readonly<Record<Tone, number>> = {
	ok: 0,
	suspended: 1,
	progressing: 2,
	unknown: 3,
	warning: 4,
	error: 5,
};

/** What an applied-resource row shows with a live reading: its description, tone and a tooltip paragraph. */
export interface AppliedRowShown {
	readonly description: string;
	readonly tone: Tone;
	readonly detail: string;
}

/**
 * The row as a reading changes it. The live word comes first ("Current (live) · applied · ready"). For a resource
 * the controller says nothing about (applied, inventory) the live tone replaces the row's; for one it reports
 * non-ready, modified or failed, the worse of the two stays, so a live Current does not hide a recorded drift.
 */
export function appliedRowShown(
	reading: AppliedReading,
	row: { readonly description: string; readonly tone: Tone; readonly role: AppliedRowRole },
	formatTime: (ms: number) => string,
): AppliedRowShown {
	const after = row.description ? ` · ${row.description}` : '';
	const worse = (tone: Tone): Tone =>
		row.role === 'applied' || row.role === 'inventory'
			? tone
			: toneRank[tone] > toneRank[row.tone]
				? tone
				: row.tone;
	switch (reading.kind) {
		case 'reading':
			return {
				description: `reading…${after}`,
				tone: row.tone,
				detail: `Reading it from context ${reading.context}…`,
			};
		case 'read': {
			const byExpression = reading.rule !== 'kstatus';
			return {
				description: `${reading.status} (live${byExpression ? ', CEL' : ''})${after}`,
				tone: worse(kstatusTones[reading.status]),
				detail: `Live in context ${reading.context}, read at ${formatTime(reading.at)}: ${
					byExpression
						? `${reading.status} by the Kustomization's ${reading.rule}, as the kustomize-controller rates this kind`
						: `kstatus ${reading.status}`
				}${reading.message ? ` — ${reading.message}` : ''}`,
			};
		}
		case 'failed': {
			const word = failureWords[reading.failure];
			return {
				description: `${word}${after}`,
				tone: reading.failure === 'not-found' ? worse('warning') : row.tone,
				detail:
					reading.failure === 'not-found'
						? `Not found in context ${reading.context}: ${reading.message}`
						: `Could not read it from context ${reading.context} (${word}): ${reading.message}`,
			};
		}
		case 'elsewhere':
			return { description: `not read here${after}`, tone: row.tone, detail: reading.why };
	}
}

/**
 * The patch Fleet recorded for a modified resource (status.modifiedStatus[].patch of the BundleDeployment), as
 * indented JSON when it parses, else as written; undefined when the BD records none for it.
 */
export function recordedPatchOf(
	bundleDeployment: unknown,
	ref: {
		readonly apiVersion: string;
		readonly kind: string;
		readonly namespace?: string;
		readonly name: string;
	},
): string | undefined {
	for (const item of getArray(bundleDeployment, 'status', 'modifiedStatus') ?? []) {
		if (
			getString(item, 'kind') !== ref.kind ||
			getString(item, 'name') !== ref.name ||
			(getString(item, 'namespace') ?? '') !== (ref.namespace ?? '') ||
			(getString(item, 'apiVersion') ?? ref.apiVersion) !== ref.apiVersion
		) {
			continue;
		}
		const patch = getString(item, 'patch');
		if (!patch) return undefined;
		try {
			return `${JSON.stringify(JSON.parse(patch), null, 2)}\n`;
		} catch {
			return `${patch}\n`;
		}
	}
	return undefined;
}
