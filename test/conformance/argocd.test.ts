// One test per Argo CD health vector in test/conformance/vectors/argocd (gitops-engine tests, built-in Lua tests).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeHealth, type HealthOptions } from '../../src/core/status/argocdHealth.ts';
import { computeKstatus } from '../../src/core/status/kstatus.ts';
import type { HealthResult } from '../../src/core/status/result.ts';
import { loadVectors, type Vector } from '../support/conformance.ts';

/**
 * Vectors where the engine answers otherwise than the upstream test asserts, with the reason; their tests assert
 * today's output.
 */
const deviations: Readonly<Record<string, { readonly reason: string; readonly actual: unknown }>> =
	{
		'lua-CustomResourceDefinition-crd-v1-terminating-timestamp-progressing': {
			reason:
				'util/lua/health_test.go runs health.lua alone (vm.ExecuteHealthLua), so the script says "CRD is terminating"; ' +
				'Argo CD itself calls GetResourceHealth (gitops-engine pkg/health/health.go), which answers Progressing ' +
				'"Pending deletion" for any object with a deletionTimestamp before an override runs. The status agrees.',
			actual: { status: 'Progressing', message: 'Pending deletion' },
		},
	};

function isWorkflowCall(vector: Vector): boolean {
	return vector.call.function.startsWith('getArgoWorkflowHealth');
}

/** How the upstream test called Argo CD: Go checks only (gitops-engine tests pass no override) or with Lua. */
function optionsOf(vector: Vector): HealthOptions {
	const source = vector.raw.source as { readonly repo?: string } | undefined;
	const engine = source?.repo === 'argoproj/gitops-engine' ? 'gitops-engine' : 'argo-cd';
	const goOnly = vector.call.function === 'health.GetResourceHealth' || isWorkflowCall(vector);
	return goOnly ? { engine, overrides: false } : { engine };
}

/** The object as Argo CD would dispatch it; the workflow vectors call the check directly on a kind-less object. */
function inputOf(vector: Vector): unknown {
	if (!isWorkflowCall(vector)) return vector.input;
	return { apiVersion: 'argoproj.io/v1alpha1', kind: 'Workflow', ...(vector.input as object) };
}

function check(vector: Vector): void {
	const input = inputOf(vector);
	const result = computeHealth(input, optionsOf(vector));
	const expected = vector.expected.health as Partial<HealthResult> | null;
	const derived = vector.derived ?? {};
	if (expected === null) {
		assert.equal(result, null, 'no health');
	} else {
		assert.ok(result, 'has health');
		assert.equal(result.status, expected.status, 'status');
		if (expected.message !== undefined) assert.equal(result.message, expected.message, 'message');
		if (typeof derived.message === 'string') {
			assert.equal(result.message, derived.message, 'derived message');
		}
	}
	// gitops-engine-legacy-* vectors also record what argo-cd HEAD computes for the same object.
	if (derived.argoCdHeadResult !== undefined) {
		assert.deepEqual(
			computeHealth(input, { overrides: false }),
			derived.argoCdHeadResult,
			'argo-cd HEAD',
		);
	}
	const kstatus = derived.kstatus as
		{ readonly status: string; readonly message: string } | undefined;
	if (kstatus !== undefined) {
		const actual = computeKstatus(input);
		assert.deepEqual(
			{ status: actual.status, message: actual.message },
			{ status: kstatus.status, message: kstatus.message },
			'kstatus',
		);
	}
}

describe('Argo CD health conformance (gitops-engine, resource_customizations)', () => {
	for (const vector of loadVectors('argocd')) {
		it(vector.id, () => {
			const deviation = deviations[vector.id];
			if (deviation !== undefined) {
				// FIXME(deviation): asserted as today's output; see the reason in the table.
				assert.deepEqual(computeHealth(inputOf(vector), optionsOf(vector)), deviation.actual);
				return;
			}
			check(vector);
		});
	}
});
