// cel-go's answers where cel-es (the CEL the engine runs) would answer otherwise: has() of a field of a variable the
// object lacks is an error, and CEL's logic absorbs that error where the other side decides, as cel-go's does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { celLanguage } from '../../../../src/cel/celLanguage.ts';
import {
	evaluateHealthCheck,
	healthCheckFor,
	healthChecksOf,
	useCelLanguage,
} from '../../../../src/core/status/fluxHealthChecks.ts';

function statusOf(current: string, object: Record<string, unknown>): string {
	const checks = healthChecksOf({
		apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
		kind: 'Kustomization',
		spec: { healthCheckExprs: [{ apiVersion: 'example.com/v1', kind: 'Widget', current }] },
	});
	const check = healthCheckFor(checks, 'example.com/v1', 'Widget');
	assert.ok(check, current);
	const result = evaluateHealthCheck(check, {
		apiVersion: 'example.com/v1',
		kind: 'Widget',
		...object,
	});
	return result.status === 'Unknown' ? `Unknown: ${result.message}` : result.status;
}

describe('CEL of health checks, as cel-go answers', () => {
	useCelLanguage(() => celLanguage);

	it('errs on has() of a field of an absent variable, naming the attribute', () => {
		assert.equal(
			statusOf('has(status.observedGeneration)', {}),
			"Unknown: failed to evaluate the CEL expression 'has(status.observedGeneration)': no such attribute(s): status.observedGeneration",
		);
		assert.equal(statusOf('has(status.ready)', { status: {} }), 'InProgress');
	});

	it('lets ||, && and ?: absorb that error where the other side decides', () => {
		assert.equal(statusOf('has(status.x) || true', {}), 'Current');
		assert.equal(statusOf('true || has(status.x)', {}), 'Current');
		assert.equal(statusOf('false ? has(status.x) : true', {}), 'Current');
		assert.match(
			statusOf('has(status.x) && true', {}),
			/^Unknown: .*no such attribute\(s\): status\.x$/,
		);
	});

	it('binds whole numbers as ints and keeps a comprehension variable of that name apart', () => {
		assert.equal(statusOf('type(spec.replicas) == int', { spec: { replicas: 3 } }), 'Current');
		assert.equal(
			statusOf('spec.items.all(status, has(status.ready))', { spec: { items: [{ ready: true }] } }),
			'Current',
		);
	});
});
