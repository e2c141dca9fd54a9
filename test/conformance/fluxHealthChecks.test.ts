// One test per vector in test/conformance/vectors/flux-health: the cases of fluxcd/pkg runtime/cel
// status_evaluator_test.go and status_reader_test.go, Flux's own tests of a Kustomization's custom health checks
// (spec.healthCheckExprs), run against src/core/status/fluxHealthChecks.ts. Each vector names the upstream function
// it exercises (call.function); the table below maps it to ours:
// - NewStatusEvaluator and NewStatusReader: healthChecksOf, an upstream error being a problem it reports;
// - StatusEvaluator.Evaluate: the entry of the vector's health check, rated by evaluateHealthCheck;
// - StatusReader.ReadStatus and ReadStatusForObject: the entry healthCheckFor finds by the object's apiVersion and kind;
// - StatusReader.Supports: whether healthCheckFor finds an entry for the GroupKind.
// An error of Evaluate is status Unknown here, as kustomize-controller's poller reports it. The error text is compared
// where the engine words it as cel-go does; where it cannot (cel-es words its errors otherwise), the vector's
// compare.messagePrefix says up to where, and its notes why.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { celLanguage } from '../../src/cel/celLanguage.ts';
import {
	evaluateHealthCheck,
	healthCheckFor,
	healthChecksOf,
	useCelLanguage,
	type HealthCheck,
	type HealthChecks,
} from '../../src/core/status/fluxHealthChecks.ts';
import { getString, groupOf, isRecord } from '../../src/core/model/object.ts';
import { loadVectors, type Vector } from '../support/conformance.ts';

/** What the engine answers, shaped like the vectors' `expected`. */
interface Actual {
	readonly status?: string;
	readonly supports?: boolean;
	readonly error?: boolean;
	/** The error text: the problems of healthChecksOf, or the message of an Unknown status. */
	readonly messages?: readonly string[];
}

/**
 * Vectors where the engine answers otherwise than the upstream test asserts, with the reason; their tests assert
 * today's output. None today: where cel-es words an evaluation error otherwise than cel-go, the status is the same
 * and the vector compares its text only up to compare.messagePrefix.
 */
const deviations: Readonly<Record<string, { readonly reason: string; readonly actual: Actual }>> =
	{};

// CEL (cel-es through src/cel), as the extension's engine and the CLI hand it in.
useCelLanguage(() => celLanguage);

function inputOf(vector: Vector): Record<string, unknown> {
	assert.ok(isRecord(vector.input), 'input is a mapping');
	return vector.input;
}

/** The vector's healthCheckExprs entries: `healthChecks`, or the one `healthCheck`. */
function entriesOf(input: Record<string, unknown>): unknown[] {
	if (Array.isArray(input.healthChecks)) return input.healthChecks;
	assert.ok(isRecord(input.healthCheck), 'input has healthCheck or healthChecks');
	return [input.healthCheck];
}

function checksOf(input: Record<string, unknown>): HealthChecks {
	const health = healthChecksOf({
		apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
		kind: 'Kustomization',
		spec: { healthCheckExprs: entriesOf(input) },
	});
	assert.equal(health.withoutCel, false, 'the CEL language is handed in');
	return health;
}

/** Go's schema.GroupKind String, as ReadStatusForObject words a GroupKind it does not support. */
function groupKindString(apiVersion: string, kind: string): string {
	const group = groupOf(apiVersion);
	return group === '' ? kind : `${kind}.${group}`;
}

function evaluated(check: HealthCheck, object: unknown): Actual {
	const result = evaluateHealthCheck(check, object);
	return result.status === 'Unknown'
		? { status: result.status, error: true, messages: [result.message] }
		: { status: result.status };
}

function parsed(input: Record<string, unknown>): Actual {
	const { checks, problems } = checksOf(input);
	if (problems.length > 0) return { error: true, messages: problems.map((p) => p.message) };
	assert.equal(checks.size, entriesOf(input).length, 'every entry is kept');
	return { error: false };
}

/** Reads the object through the entry its apiVersion and kind select, as the status reader does. */
function readStatus(input: Record<string, unknown>): Actual {
	const health = checksOf(input);
	assert.deepEqual(health.problems, [], 'the health checks parse');
	const apiVersion = getString(input.object, 'apiVersion') ?? '';
	const kind = getString(input.object, 'kind') ?? '';
	const check = healthCheckFor(health, apiVersion, kind);
	// The engine leaves such an object to kstatus; the upstream reader errs with these words.
	if (check === undefined) {
		return {
			error: true,
			messages: [`the GroupKind ${groupKindString(apiVersion, kind)} is not supported`],
		};
	}
	return evaluated(check, input.object);
}

const adapters: Readonly<Record<string, (input: Record<string, unknown>) => Actual>> = {
	'cel.NewStatusEvaluator': parsed,
	'cel.NewStatusReader': parsed,
	'cel.StatusEvaluator.Evaluate': (input) => {
		const health = checksOf(input);
		assert.deepEqual(health.problems, [], 'the health check parses');
		const entry = entriesOf(input)[0];
		const check = healthCheckFor(
			health,
			getString(entry, 'apiVersion') ?? '',
			getString(entry, 'kind') ?? '',
		);
		assert.ok(check, 'the entry is found by its own apiVersion and kind');
		return evaluated(check, input.object);
	},
	'cel.StatusReader.ReadStatus': readStatus,
	'cel.StatusReader.ReadStatusForObject': readStatus,
	'cel.StatusReader.Supports': (input) => {
		const group = getString(input.groupKind, 'group') ?? '';
		const apiVersion = group === '' ? 'v1' : `${group}/v1`;
		const kind = getString(input.groupKind, 'kind') ?? '';
		return { supports: healthCheckFor(checksOf(input), apiVersion, kind) !== undefined };
	},
};

function substringsOf(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	assert.ok(
		Array.isArray(value) && value.every((item) => typeof item === 'string'),
		'errorContains is a string or a list of strings',
	);
	return value;
}

/** Asserts the engine's error: each upstream substring in one message, or the text up to compare.messagePrefix. */
function assertError(vector: Vector, actual: Actual): void {
	assert.equal(actual.error, true, `an error (engine: ${JSON.stringify(actual)})`);
	if (vector.call.function === 'cel.StatusEvaluator.Evaluate') {
		assert.equal(actual.status, 'Unknown');
	}
	const messages = actual.messages ?? [];
	const prefix = getString(vector.raw.compare, 'messagePrefix');
	if (prefix !== undefined) {
		const [upstream] = substringsOf(vector.expected.errorContains);
		assert.ok(upstream?.startsWith(prefix), 'compare.messagePrefix begins the upstream error');
		assert.ok(
			messages.some((message) => message.startsWith(prefix)),
			`a message begins with ${JSON.stringify(prefix)}: ${JSON.stringify(messages)}`,
		);
		return;
	}
	const substrings = substringsOf(vector.expected.errorContains);
	assert.ok(
		messages.some((message) => substrings.every((substring) => message.includes(substring))),
		`a message contains ${JSON.stringify(substrings)}: ${JSON.stringify(messages)}`,
	);
}

describe('Flux custom health check conformance (fluxcd/pkg runtime/cel)', () => {
	for (const vector of loadVectors('flux-health')) {
		it(vector.id, () => {
			assert.equal(vector.system, 'flux-health');
			const adapter = adapters[vector.call.function];
			assert.ok(adapter, `no adapter for ${vector.call.function}`);
			const actual = adapter(inputOf(vector));
			const deviation = deviations[vector.id];
			if (deviation !== undefined) {
				// FIXME(deviation): asserted as today's output; see the reason in the table.
				assert.deepEqual(actual, deviation.actual);
				return;
			}
			const { expected } = vector;
			if (expected.error === true) {
				assertError(vector, actual);
				return;
			}
			if (expected.error === false) {
				assert.deepEqual(actual, { error: false });
				return;
			}
			if ('supports' in expected) {
				assert.deepEqual(actual, { supports: expected.supports });
				return;
			}
			assert.ok(typeof expected.status === 'string', 'expected has status, supports or error');
			assert.equal(
				actual.status,
				expected.status,
				`status (engine: ${JSON.stringify(actual.messages ?? [])})`,
			);
		});
	}

	it('has no stale deviations', () => {
		const ids = new Set(loadVectors('flux-health').map((vector) => vector.id));
		for (const id of Object.keys(deviations)) assert.ok(ids.has(id), `no vector ${id}`);
	});
});
