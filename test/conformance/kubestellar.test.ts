// One test per KubeStellar vector in test/conformance/vectors/kubestellar: the released controller's aggregation
// functions (rules: 'kubestellar') and the reported-state dispatch of its e2e tests and docs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	aggregateKubestellarStatus,
	kubestellarMax,
	kubestellarMin,
} from '../../src/core/merge/kubestellarRules.ts';
import {
	labelSelectorVerdict,
	singletonErrorText,
	workloadIdentityOf,
} from '../../src/core/merge/mergeMode.ts';
import { mergeWecStatuses } from '../../src/core/merge/wecMerge.ts';
import { labelsOf } from '../../src/core/model/object.ts';
import { loadVectors, type Vector } from '../support/conformance.ts';

/**
 * Vectors whose `expected` (documentation, not a test) or `derived` values we believe are wrong, with the reason;
 * their tests assert today's output instead.
 */
const deviations: Readonly<Record<string, string>> = {
	'docs-multiwec-deployment-two-wecs':
		'expected.documentedWdsStatus is what the docs promise, not what the code writes (the vector notes the ' +
		'CONFLICT): rules kubestellar gives derived.implementationWdsStatus; rules proposal gives every documented ' +
		'field, except that the message names the WEC it came from (issue 7 decision).',
	'e2e-singleton-status-cleared-when-no-wec':
		'derived bindingPolicy.status.errors is [], but pkg/binding/binding.go (syncBinding) appends the "wrong ' +
		'number of associated WECs" error for every object in the resolution whose singleton request has NumWECs != 1, ' +
		'and the object stays in the resolution (selectors.go matches by object labels, not clusters), so NumWECs 0 ' +
		'yields the error; we report it in notes.',
};

interface E2eInput {
	readonly wds: {
		readonly deployment: Record<string, unknown>;
		readonly bindingPolicies: readonly unknown[];
	};
	readonly its: {
		readonly inventory: readonly unknown[];
		readonly workStatuses: readonly unknown[];
	};
}

function statusesOf(vector: Vector): readonly unknown[] {
	const input = vector.input as { readonly statuses?: readonly unknown[] | null };
	return input.statuses ?? [];
}

const kindOfFunction: Readonly<Record<string, string>> = {
	'aggregation.AggregateDeploymentStatus': 'Deployment',
	'aggregation.AggregateReplicaSetStatus': 'ReplicaSet',
	'aggregation.AggregateDaemonSetStatus': 'DaemonSet',
};

function checkGetMinMax(vector: Vector): void {
	const field = String(vector.call.field);
	const compute = vector.call.function === 'aggregation.GetMin' ? kubestellarMin : kubestellarMax;
	assert.equal(compute(statusesOf(vector), field), vector.expected.result);
}

function checkAggregation(vector: Vector): void {
	const kind = kindOfFunction[vector.call.function] ?? '';
	const statuses = statusesOf(vector);
	const aggregated = aggregateKubestellarStatus(kind, statuses);
	assert.ok(aggregated, `a rule for ${kind}`);
	const expected = vector.expected;
	if (expected.aggregatedStatus !== undefined) {
		assert.deepEqual(aggregated, expected.aggregatedStatus);
	}
	if (expected.fields !== undefined) {
		for (const [field, value] of Object.entries(expected.fields as Record<string, unknown>)) {
			assert.equal(aggregated[field], value, field);
		}
	}
	const conditions = aggregated.conditions as readonly Record<string, unknown>[] | undefined;
	if (expected.conditionsLength !== undefined) {
		assert.equal(conditions?.length, expected.conditionsLength);
	}
	if (expected['conditions[0].type'] !== undefined) {
		assert.equal(conditions?.[0]?.type, expected['conditions[0].type']);
	}
	const derived = vector.derived?.aggregatedStatus;
	if (derived !== undefined) assert.deepEqual(aggregated, derived);

	// The same statuses through the whole engine: several WECs, no policy (the multi-WEC flag on).
	if (statuses.length >= 2) {
		const workload = {
			apiVersion: 'apps/v1',
			kind,
			metadata: { name: 'w', namespace: 'default', generation: 1 },
			spec: {},
		};
		const perWec = statuses.map((status, index) => ({
			wec: `wec${index + 1}`,
			object: { status },
		}));
		const result = mergeWecStatuses(workload, perWec, null, 'kubestellar');
		assert.equal(result.mode, 'multi');
		assert.deepEqual(result.status, aggregated);
	}
}

function checkDocsExample(vector: Vector): void {
	assert.ok(deviations[vector.id]);
	const input = vector.input as { readonly perWecStatuses: Record<string, unknown> };
	const workload = {
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: { name: 'nginx', namespace: 'default', generation: 1 },
		spec: { replicas: 3 },
	};
	const perWec = Object.entries(input.perWecStatuses).map(([wec, status]) => ({
		wec,
		object: { status },
	}));
	const released = mergeWecStatuses(workload, perWec, null, 'kubestellar');
	assert.equal(released.mode, 'multi');
	assert.deepEqual(released.status, vector.derived?.implementationWdsStatus);
	const label = Object.keys(vector.derived?.['wds label'] ?? {})[0] ?? '';
	assert.ok(released.notes.some((note) => note.includes(`adds the label ${label}=true`)));
	// The vector's consequences: Argo CD rates by numbers (Healthy), kstatus misses Available (InProgress).
	assert.equal(released.health?.status, 'Healthy');
	assert.equal(released.kstatus.status, 'InProgress');

	// FIXME(docs-multiwec-deployment-two-wecs): the documented status is the proposal's, message aside.
	const proposal = mergeWecStatuses(workload, perWec, null, 'proposal');
	const documented = vector.expected.documentedWdsStatus as Record<string, unknown>;
	const [documentedCondition] = documented.conditions as Record<string, unknown>[];
	for (const field of ['replicas', 'readyReplicas', 'availableReplicas']) {
		assert.equal(proposal.status[field], documented[field], field);
	}
	const [condition] = proposal.status.conditions as Record<string, unknown>[];
	assert.deepEqual(condition, {
		...documentedCondition,
		message: `cluster1: ${String(documentedCondition?.message)}`,
	});
	assert.equal(proposal.health?.status, 'Healthy');
}

/** WECs that receive the workload: selected by a BindingPolicy whose clauses select it (placement, not status). */
function placedWecs(input: E2eInput, policies: readonly unknown[]): Set<string> {
	const identity = workloadIdentityOf(input.wds.deployment);
	const wecs = new Set<string>();
	for (const policy of policies) {
		const spec = (
			policy as {
				spec: { clusterSelectors: unknown[]; downsync: { objectSelectors: unknown[] }[] };
			}
		).spec;
		const selects = spec.downsync.some((clause) =>
			clause.objectSelectors.some(
				(selector) => labelSelectorVerdict(selector, identity.labels) === 'match',
			),
		);
		if (!selects) continue;
		for (const cluster of input.its.inventory) {
			const name = (cluster as { metadata: { name: string } }).metadata.name;
			if (
				spec.clusterSelectors.some(
					(selector) => labelSelectorVerdict(selector, labelsOf(cluster)) === 'match',
				)
			) {
				wecs.add(name);
			}
		}
	}
	return wecs;
}

function withClusterSelector(policy: unknown, name: string): unknown {
	const object = policy as { spec: Record<string, unknown> };
	return { ...object, spec: { ...object.spec, clusterSelectors: [{ matchLabels: { name } }] } };
}

function checkQualifiedWecs(vector: Vector): void {
	const input = vector.input as E2eInput;
	const policies = [...input.wds.bindingPolicies, ...input.its.inventory];
	const placed = placedWecs(input, input.wds.bindingPolicies);
	assert.equal(placed.has('cluster1') ? 1 : 0, vector.expected['wec1 deployments']);
	assert.equal(placed.has('cluster2') ? 1 : 0, vector.expected['wec2 deployments']);

	const result = mergeWecStatuses(
		input.wds.deployment,
		input.its.workStatuses,
		policies,
		'kubestellar',
	);
	assert.equal(result.mode, 'singleton');
	assert.equal(
		result.status.availableReplicas,
		vector.expected['wds deployment status.availableReplicas'],
	);
	// derived: the status comes from the WorkStatus in cluster1 only.
	const qualified = vector.derived?.qualifiedSingletonWECs as readonly string[];
	const fromCluster1 = (input.its.workStatuses[0] as { status: Record<string, unknown> }).status;
	assert.deepEqual(result.status, fromCluster1);
	assert.deepEqual(
		[...new Set(Object.values(result.provenance).flatMap((entry) => entry.wecs))],
		qualified,
	);
	assert.ok(result.notes.some((note) => note.includes('cluster2')));

	// After patching nginx-singleton to match no cluster, the status returned before is cleared.
	const patched = input.wds.bindingPolicies.map((policy) =>
		(policy as { metadata: { name: string } }).metadata.name === 'nginx-singleton'
			? withClusterSelector(policy, 'CelestialNexus')
			: policy,
	);
	const workload = input.wds.deployment;
	const returned = {
		...workload,
		metadata: {
			...(workload.metadata as Record<string, unknown>),
			labels: {
				...((workload.metadata as { labels: Record<string, string> }).labels ?? {}),
				'managed-by.kubestellar.io/singletonstatus': 'true',
			},
		},
		status: result.status,
	};
	const cleared = mergeWecStatuses(
		returned,
		input.its.workStatuses,
		[...patched, ...input.its.inventory],
		'kubestellar',
	);
	assert.equal(cleared.mode, 'cleared');
	assert.equal(
		cleared.status.conditions ?? null,
		vector.expected['after patching nginx-singleton to match no cluster: wds status.conditions'],
	);
	assert.equal(cleared.changed, true);
}

function checkClearedNoWec(vector: Vector): void {
	const input = vector.input as E2eInput;
	const placed = placedWecs(input, input.wds.bindingPolicies);
	assert.equal(placed.has('cluster1') ? 1 : 0, vector.expected['wec1 deployments']);
	assert.equal(placed.has('cluster2') ? 1 : 0, vector.expected['wec2 deployments']);
	const policies = [...input.wds.bindingPolicies, ...input.its.inventory];
	const result = mergeWecStatuses(
		input.wds.deployment,
		input.its.workStatuses,
		policies,
		'kubestellar',
	);
	assert.equal(result.mode, 'cleared');
	assert.equal(
		result.status.conditions ?? null,
		vector.expected['wds deployment status.conditions'],
	);
	assert.deepEqual(result.status, vector.derived?.['wds deployment status']);
	assert.equal(result.changed, true);
	for (const label of vector.derived?.['wds deployment labels remove'] as readonly string[]) {
		assert.ok(
			result.notes.some((note) => note.includes(`removes the label ${label}`)),
			label,
		);
	}
	// FIXME(e2e-singleton-status-cleared-when-no-wec): derived errors [] disagree with binding.go; see deviations.
	assert.ok(deviations[vector.id]);
	const error = singletonErrorText(workloadIdentityOf(input.wds.deployment), 0);
	assert.ok(result.notes.some((note) => note.includes(error) && note.includes('nginx-singleton')));
}

function check(vector: Vector): void {
	const name = vector.call.function;
	if (name === 'aggregation.GetMin' || name === 'aggregation.GetMax') return checkGetMinMax(vector);
	if (Object.hasOwn(kindOfFunction, name)) return checkAggregation(vector);
	if (name.startsWith('handleMultiWEC')) return checkDocsExample(vector);
	if (name.startsWith('syncWorkloadObject: qualified singleton')) return checkQualifiedWecs(vector);
	if (name.startsWith('status controller syncWorkloadObject (no qualified WEC)')) {
		return checkClearedNoWec(vector);
	}
	assert.fail(`no dispatcher for ${name}`);
}

describe('KubeStellar conformance (rules: kubestellar)', () => {
	const vectors = loadVectors('kubestellar');
	it('has vectors', () => assert.ok(vectors.length > 0));
	for (const vector of vectors) {
		it(vector.id, () => check(vector));
	}
	it('lists deviations only for vectors that exist', () => {
		const ids = new Set(vectors.map((vector) => vector.id));
		for (const id of Object.keys(deviations)) assert.ok(ids.has(id), id);
	});
});
