import { explain } from '../catalog/explanations.ts';
import { readConditions, type Condition } from '../model/condition.ts';
import { refOf } from '../model/object.ts';
import { noHealthSentence } from '../status/argocdHealth.ts';
import type { StatusResult } from '../status/result.ts';
import { hoverTextLimit } from '../text/limits.ts';
import { escapeMarkdown } from '../text/markdown.ts';
import { conditionSince, revisionOf } from './objectFacts.ts';
import { terminatingWords, terminationOf } from './termination.ts';

/** Where an object was read from, for display. */
export interface SourceLabel {
	readonly label: string;
	readonly line: number;
}

const toneWords = {
	ok: 'ok',
	progressing: 'in progress',
	warning: 'warning',
	error: 'error',
	suspended: 'suspended',
	unknown: 'unknown',
} as const;

/** A short human phrase for a result's state, e.g. "ErrApplied (error)" or "declared, no status". */
export function stateLabel(result: StatusResult): string {
	if (!result.observed && result.tone === 'unknown') return 'declared, no status';
	return `${result.state} (${toneWords[result.tone]})`;
}

function upperFirst(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Whether `text` says nothing `shown` does not: the same words or a part of them, the whole of `shown` with a few
 * words around it, or a short lead-in ("Ready is False: ", "Deployment message: ") before a part of it.
 */
export function repeats(text: string, shown: string): boolean {
	const trimmed = text.trim();
	if (trimmed === '' || shown === '') return false;
	if (shown.includes(trimmed)) return true;
	if (shown.length >= 20 && trimmed.includes(shown) && trimmed.length - shown.length <= 40) {
		return true;
	}
	for (
		let colon = trimmed.indexOf(': ');
		colon >= 0 && colon <= 60;
		colon = trimmed.indexOf(': ', colon + 1)
	) {
		const rest = trimmed.slice(colon + 2);
		if (rest.length >= 20 && shown.includes(rest)) return true;
	}
	return false;
}

// One line of conditions, worst news first to the reader's eye: type, status and reason, no messages (the key
// message is shown once above; the rest is in Explain).
function conditionsLine(conditions: readonly Condition[], max: number): string {
	const parts = conditions.slice(0, max).map((condition) => {
		const reason = condition.reason ? ` (${condition.reason})` : '';
		const severity = condition.severity ? `, ${condition.severity}` : '';
		return escapeMarkdown(`${condition.type} ${condition.status}${reason}${severity}`, 120);
	});
	if (conditions.length > max) parts.push(`… ${conditions.length - max} more`);
	return `Conditions: ${parts.join(' · ')}`;
}

/**
 * The tooltip of an object, short enough to scan: what it is and its state, "Terminating …" while it is being
 * deleted, what it waits for (`waitingFor`, the cause chain's words), the key message once and whole (up to
 * the hover limit), what the state means, one more reason when it says something else, then the facts: conditions,
 * what kstatus and Argo CD will show, and where it was read. Every string from the object is escaped.
 */
export function objectTooltipMarkdown(
	object: unknown,
	result: StatusResult,
	sources: readonly SourceLabel[] = [],
	now?: number,
	readFrom?: string,
	readFromLink?: string,
	waitingFor?: string,
): string {
	const ref = refOf(object);
	const lines: string[] = [];
	lines.push(
		`**${escapeMarkdown(ref.kind || 'Object')}** ${escapeMarkdown(ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name)}`,
	);
	const { conditions } = readConditions(object);
	const rated = result.system === 'kubernetes';
	// A plain Kubernetes kind is rated by kstatus alone: say the rule that fired, not kstatus's general definition
	// ("Stalled is True or a kind-specific failure") for an object that has no Stalled condition.
	const firedRule = rated ? kstatusRuleOf(result, conditions, ref.kind) : undefined;
	const meaning = firedRule
		? { meaning: firedRule }
		: explain(rated ? 'kstatus' : result.system, 'state', result.state, ref.kind);
	lines.push(
		'',
		`**${escapeMarkdown(stateLabel(result))}**${meaning ? ` — ${escapeMarkdown(meaning.meaning)}` : ''}`,
	);
	const termination = terminationOf(object);
	if (termination) lines.push('', escapeMarkdown(terminatingWords(termination, now)));
	if (waitingFor) lines.push('', escapeMarkdown(upperFirst(waitingFor)));
	const key = result.message || result.reasons[0] || '';
	if (key) lines.push('', escapeMarkdown(key, hoverTextLimit));
	const otherReason = result.reasons.find(
		(reason) =>
			!repeats(reason, key) &&
			!(firedRule !== undefined && result.kstatus.reason && reason.endsWith(result.kstatus.reason)),
	);
	if (otherReason) lines.push('', escapeMarkdown(otherReason));
	if (conditions.length > 0) lines.push('', conditionsLine(conditions, 6));
	const facts = [now === undefined ? undefined : conditionSince(object, now), revisionOf(object)];
	const known = facts.filter((fact) => fact !== undefined);
	if (known.length > 0) lines.push('', known.map((fact) => escapeMarkdown(fact)).join(' · '));
	const kstatusMessage =
		result.kstatus.message && !repeats(result.kstatus.message, key)
			? ` — ${escapeMarkdown(result.kstatus.message, 300)}`
			: '';
	const health = result.health
		? `Argo CD: ${escapeMarkdown(result.health.status)}${result.health.message && !repeats(result.health.message, key) ? ` — ${escapeMarkdown(result.health.message, 300)}` : ''}`
		: `Argo CD: ${noHealthSentence(object)}`;
	// For a kind kstatus rates, the state above is kstatus's: only Argo CD remains to be said.
	lines.push(
		'',
		rated
			? health
			: `kstatus: ${escapeMarkdown(result.kstatus.status)}${kstatusMessage} · ${health}`,
	);
	// The link is the caller's (a command of the extension's own, with an opaque argument), never built from data.
	const linked = (text: string): string =>
		readFromLink === undefined ? text : `[${text}](${readFromLink})`;
	if (readFrom !== undefined) {
		lines.push('', linked(escapeMarkdown(readFrom)));
	} else if (sources.length > 0) {
		const first = sources[0];
		const more = sources.length > 1 ? ` (+${sources.length - 1} more)` : '';
		if (first) {
			lines.push('', `${linked(`From ${escapeMarkdown(`${first.label}:${first.line}`)}`)}${more}`);
		}
	}
	return lines.join('\n');
}

/**
 * The kstatus rule that decided a plain Kubernetes object's state, in words: "kstatus's Deployment rule: Progressing
 * False (ProgressDeadlineExceeded)". Undefined when kstatus gave no reason, or when a Stalled condition decided (its
 * general definition then says it).
 */
function kstatusRuleOf(
	result: StatusResult,
	conditions: readonly Condition[],
	kind: string,
): string | undefined {
	const reason = result.kstatus.reason;
	if (!reason || result.state === 'Current') return undefined;
	if (conditions.some((condition) => condition.type === 'Stalled' && condition.status === 'True')) {
		return undefined;
	}
	const from = conditions.find((condition) => condition.reason === reason);
	const what = from ? `${from.type} ${from.status} (${reason})` : reason;
	return `kstatus's ${kind || 'object'} rule: ${what}`;
}
