// A Kustomization's spec.healthCheckExprs (kustomize-controller, Flux 2.5 and later, RFC 0009): CEL expressions per
// API group and kind that rate an applied custom resource instead of kstatus. Evaluated as fluxcd/pkg runtime/cel
// does it (status_reader.go, status_evaluator.go, expression.go at e2cfd1a2d181):
// - an entry matches by the group of its apiVersion (the version is ignored) and its kind; an entry without a kind
//   covers the whole group, and an entry for the exact kind wins over it; two entries for one group and kind are an
//   error;
// - when status.observedGeneration and metadata.generation are both integers and differ, the object is InProgress
//   and no expression runs;
// - then inProgress, failed and current, in that order: the first that is true decides (InProgress, Failed,
//   Current); none true is InProgress; an expression that errs or is not a boolean makes the status Unknown with the
//   error, and the later ones do not run;
// - the object's top-level fields are the variables (no `self`); whole JSON numbers are CEL ints, as Go decodes them.
// The expressions are parsed when the Kustomization reconciles: one that does not parse stalls it
// (InvalidCELExpression). CEL itself is a language the front end hands in (useCelLanguage: src/cel, cel-es), loaded
// only when a Kustomization has expressions, so the engine and the CLI do not pay for it otherwise.
import { getArray, getPath, getString, groupOf, isRecord } from '../model/object.ts';
import type { KstatusStatus } from './result.ts';

/** An expression the CEL language compiled. */
export interface CompiledExpression {
	readonly source: string;
	/**
	 * Its value for these variables (JSON as Go's unstructured decoding gives it: whole numbers as bigint), or an
	 * error as `{ error }` (an evaluation error, cel-go's "no such attribute(s)" for has() of an absent variable).
	 */
	evaluate(variables: Readonly<Record<string, unknown>>): { value: unknown } | { error: string };
}

/** CEL as Flux's health checks use it: parse (a message when it does not), then evaluate. */
export interface CelLanguage {
	compile(source: string): CompiledExpression | string;
}

let loadLanguage: (() => CelLanguage) | undefined;
let language: CelLanguage | undefined;

/** Hands in how to load CEL; called by each front end (the extension's engine, the CLI) and by tests. */
export function useCelLanguage(load: () => CelLanguage): void {
	loadLanguage = load;
	language = undefined;
}

function celLanguage(): CelLanguage | undefined {
	if (language === undefined && loadLanguage !== undefined) language = loadLanguage();
	return language;
}

/** One healthCheckExprs entry, parsed. */
export interface HealthCheck {
	/** Its place in spec.healthCheckExprs. */
	readonly index: number;
	readonly group: string;
	/** "" for a group-wide entry. */
	readonly kind: string;
	readonly current: CompiledExpression;
	readonly inProgress?: CompiledExpression;
	readonly failed?: CompiledExpression;
}

/** A problem the controller would stall on, with the field it is in (for a diagnostic at that line). */
export interface HealthCheckProblem {
	readonly path: readonly (string | number)[];
	readonly message: string;
}

/** The health checks of one Kustomization, by `group/kind` (kind "" for group-wide), and what does not parse. */
export interface HealthChecks {
	readonly checks: ReadonlyMap<string, HealthCheck>;
	readonly problems: readonly HealthCheckProblem[];
	/** No CEL language was handed in: nothing is parsed, no object is rated by an expression. */
	readonly withoutCel: boolean;
}

/** What a health check says of one object: kstatus' words, and which entry said it. */
export interface HealthCheckResult {
	readonly status: KstatusStatus;
	readonly message: string;
	/** `spec.healthCheckExprs[0]` */
	readonly rule: string;
}

const fields = ['inProgress', 'failed', 'current'] as const;
const goFieldNames = { current: 'Current', inProgress: 'InProgress', failed: 'Failed' } as const;

/** Go's schema.GroupKind String: "Kind.group", "Kind" for the core group, ".group" for a group-wide entry. */
function groupKindString(group: string, kind: string): string {
	return group === '' ? kind : `${kind}.${group}`;
}

/**
 * Reads a Kustomization's spec.healthCheckExprs as NewStatusReader does: each entry's expressions parsed, an entry
 * without `current` or with one that does not parse, and a second entry for the same group and kind, reported with
 * the words the controller stalls with.
 */
export function healthChecksOf(kustomization: unknown): HealthChecks {
	const checks = new Map<string, HealthCheck>();
	const seen = new Set<string>();
	const problems: HealthCheckProblem[] = [];
	const cel = celLanguage();
	(getArray(kustomization, 'spec', 'healthCheckExprs') ?? []).forEach((entry, index) => {
		const where = `failed to create custom status evaluator for healthchecks[${index}]`;
		const apiVersion = getString(entry, 'apiVersion') ?? '';
		const kind = getString(entry, 'kind') ?? '';
		const compiled: Partial<Record<(typeof fields)[number], CompiledExpression>> = {};
		let broken = false;
		for (const field of fields) {
			const source = getString(entry, field) ?? '';
			if (source === '') {
				if (field === 'current') {
					problems.push({
						path: ['spec', 'healthCheckExprs', index],
						message: `${where}: expression Current not specified`,
					});
					broken = true;
				}
				continue;
			}
			if (!cel) continue;
			const result = cel.compile(source);
			if (typeof result === 'string') {
				problems.push({
					path: ['spec', 'healthCheckExprs', index, field],
					message: `${where}: failed to parse the expression ${goFieldNames[field]}: failed to parse the CEL expression '${source}': ${result}`,
				});
				broken = true;
			} else {
				compiled[field] = result;
			}
		}
		const group = groupOf(apiVersion);
		const key = `${group}/${kind}`;
		if (seen.has(key)) {
			problems.push({
				path: ['spec', 'healthCheckExprs', index],
				message: `duplicate custom health check for GroupKind ${groupKindString(group, kind)} at healthchecks[${index}]`,
			});
			return;
		}
		seen.add(key);
		if (broken || !compiled.current) return;
		checks.set(key, {
			index,
			group,
			kind,
			current: compiled.current,
			...(compiled.inProgress ? { inProgress: compiled.inProgress } : {}),
			...(compiled.failed ? { failed: compiled.failed } : {}),
		});
	});
	return { checks, problems, withoutCel: cel === undefined };
}

/** The entry that rates an object of this apiVersion and kind: the exact kind's, else the group's. */
export function healthCheckFor(
	checks: HealthChecks,
	apiVersion: string,
	kind: string,
): HealthCheck | undefined {
	const group = groupOf(apiVersion);
	return checks.checks.get(`${group}/${kind}`) ?? checks.checks.get(`${group}/`);
}

/** JSON as Go's unstructured decoding gives it to CEL: whole numbers as int64 (bigint here), objects as maps. */
function celValueOf(value: unknown): unknown {
	if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
	if (Array.isArray(value)) return value.map(celValueOf);
	if (isRecord(value)) {
		const out: Record<string, unknown> = {};
		for (const [key, item] of Object.entries(value)) out[key] = celValueOf(item);
		return out;
	}
	return value;
}

function integerAt(object: unknown, ...path: string[]): number | undefined {
	const value = getPath(object, ...path);
	return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/** What a health check says of an object, as the controller's status reader decides it. */
export function evaluateHealthCheck(check: HealthCheck, object: unknown): HealthCheckResult {
	const rule = `spec.healthCheckExprs[${check.index}]`;
	const observedGeneration = integerAt(object, 'status', 'observedGeneration');
	const generation = integerAt(object, 'metadata', 'generation');
	if (
		observedGeneration !== undefined &&
		generation !== undefined &&
		observedGeneration !== generation
	) {
		return {
			status: 'InProgress',
			message: `Generation ${generation} is not yet observed (status.observedGeneration ${observedGeneration})`,
			rule,
		};
	}
	const variables: Record<string, unknown> = {};
	if (isRecord(object)) {
		for (const [key, item] of Object.entries(object)) variables[key] = celValueOf(item);
	}
	const outcome = { inProgress: 'InProgress', failed: 'Failed', current: 'Current' } as const;
	for (const field of fields) {
		const expression = check[field];
		if (!expression) continue;
		const answer = expression.evaluate(variables);
		if ('error' in answer) {
			return {
				status: 'Unknown',
				message: `failed to evaluate the CEL expression '${expression.source}': ${answer.error}`,
				rule,
			};
		}
		const { value } = answer;
		if (typeof value !== 'boolean') {
			return {
				status: 'Unknown',
				message: `failed to evaluate CEL expression as boolean: '${expression.source}'`,
				rule,
			};
		}
		if (value) {
			return { status: outcome[field], message: `${field} is true: ${expression.source}`, rule };
		}
	}
	return {
		status: 'InProgress',
		message: 'none of current, failed and inProgress is true yet',
		rule,
	};
}
