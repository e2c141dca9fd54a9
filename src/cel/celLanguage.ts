// CEL for Flux's health check expressions, with @bufbuild/cel (cel-es): a well-kept evaluator of the CEL spec rather
// than one of ours. Bundled apart (dist/cel.cjs) and loaded by the front ends only when a Kustomization carries
// expressions: the library's module setup costs about 20 ms, which every start would otherwise pay.
// fluxcd/pkg runtime/cel runs cel-go with the standard macros and the strings extension (also sets and encoders,
// which cel-es lacks: an expression using them fails to evaluate here). Where cel-es answers otherwise than cel-go,
// this adapter makes it answer as cel-go does: has() of a field of a variable the object does not have is an error
// ("no such attribute(s)"), not false; the variable is bound to that error, so `||`, `&&` and `?:` absorb it where
// cel-go's do.
import { celEnv, celError, isCelError, parse, plan, type CelInput } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import type { CelLanguage, CompiledExpression } from '../core/status/fluxHealthChecks.ts';

const environment = celEnv({ funcs: strings });

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function at(value: unknown, key: string): unknown {
	return isRecord(value) ? value[key] : undefined;
}

/**
 * The variables `has()` selects a field of directly, outside a comprehension that binds the same name, each with the
 * first attribute it is tested for (`status.observedGeneration`), as cel-go names it in the error.
 */
function hasRootsOf(node: unknown, bound: ReadonlySet<string>, into: Map<string, string>): void {
	const kind = at(at(node, 'exprKind'), 'case');
	const value = at(at(node, 'exprKind'), 'value');
	const walk = (child: unknown, names: ReadonlySet<string> = bound): void =>
		hasRootsOf(child, names, into);
	const list = (items: unknown): unknown[] => (Array.isArray(items) ? items : []);
	switch (kind) {
		case 'selectExpr': {
			const operand = at(value, 'operand');
			const name = at(at(at(operand, 'exprKind'), 'value'), 'name');
			if (
				at(value, 'testOnly') === true &&
				at(at(operand, 'exprKind'), 'case') === 'identExpr' &&
				typeof name === 'string' &&
				!bound.has(name) &&
				!into.has(name)
			) {
				into.set(name, `${name}.${String(at(value, 'field'))}`);
			}
			walk(operand);
			return;
		}
		case 'comprehensionExpr': {
			walk(at(value, 'iterRange'));
			walk(at(value, 'accuInit'));
			const inner = new Set(bound);
			for (const variable of ['iterVar', 'iterVar2', 'accuVar']) {
				const name = at(value, variable);
				if (typeof name === 'string' && name !== '') inner.add(name);
			}
			for (const part of ['loopCondition', 'loopStep', 'result']) walk(at(value, part), inner);
			return;
		}
		case 'callExpr':
			walk(at(value, 'target'));
			for (const arg of list(at(value, 'args'))) walk(arg);
			return;
		case 'listExpr':
			for (const element of list(at(value, 'elements'))) walk(element);
			return;
		case 'structExpr':
			for (const entry of list(at(value, 'entries'))) {
				walk(at(entry, 'mapKey'));
				walk(at(entry, 'value'));
			}
			return;
	}
}

function compile(source: string): CompiledExpression | string {
	let parsed: ReturnType<typeof parse>;
	try {
		parsed = parse(source);
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
	const roots = new Map<string, string>();
	hasRootsOf(parsed.expr, new Set(), roots);
	const run = plan(environment, parsed);
	return {
		source,
		evaluate(variables) {
			let bindings = variables as Record<string, CelInput>;
			for (const [root, attribute] of roots) {
				if (Object.hasOwn(variables, root)) continue;
				// cel-es takes an error as a value and propagates it as CEL's logic says; its input type does not say so.
				const absent = celError(`no such attribute(s): ${attribute}`) as unknown as CelInput;
				bindings = { ...bindings, [root]: absent };
			}
			try {
				const value: unknown = run(bindings);
				return isCelError(value) ? { error: value.message } : { value };
			} catch (error) {
				return { error: error instanceof Error ? error.message : String(error) };
			}
		},
	};
}

/** The CEL language the core's health checks use (useCelLanguage). */
export const celLanguage: CelLanguage = { compile };
