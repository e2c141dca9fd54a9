import { explain } from '../catalog/explanations.ts';
import { readConditions, type Condition } from '../model/condition.ts';
import { refOf } from '../model/object.ts';
import type { StatusResult } from '../status/result.ts';
import { escapeMarkdown, escapeTableCell, truncate } from '../text/markdown.ts';

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

function conditionRows(conditions: readonly Condition[], max: number): string[] {
	const rows = conditions.slice(0, max).map((condition) => {
		const severity = condition.severity ? ` · ${condition.severity}` : '';
		return `| ${escapeTableCell(condition.type, 40)} | ${escapeTableCell(condition.status + severity, 24)} | ${escapeTableCell(condition.reason ?? '', 40)} | ${escapeTableCell(condition.message ?? '', 90)} |`;
	});
	if (conditions.length > max) rows.push(`| … ${conditions.length - max} more | | | |`);
	return rows;
}

/**
 * The tooltip of an object: what it is, its state and message, its conditions as a small table, what the state
 * means and what to do, kstatus and Argo CD health, and where it was read. Every string from the object is escaped.
 */
export function objectTooltipMarkdown(
	object: unknown,
	result: StatusResult,
	sources: readonly SourceLabel[] = [],
): string {
	const ref = refOf(object);
	const lines: string[] = [];
	lines.push(
		`**${escapeMarkdown(ref.kind || 'Object')}** ${escapeMarkdown(ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name)}`,
	);
	lines.push('');
	lines.push(
		`**${escapeMarkdown(stateLabel(result))}**${result.message ? ` — ${escapeMarkdown(truncate(result.message, 200))}` : ''}`,
	);
	const { conditions } = readConditions(object);
	if (conditions.length > 0) {
		lines.push(
			'',
			'| Condition | Status | Reason | Message |',
			'| --- | --- | --- | --- |',
			...conditionRows(conditions, 8),
		);
	}
	const meaning = explain(
		result.system === 'kubernetes' ? 'kstatus' : result.system,
		'state',
		result.state,
		ref.kind,
	);
	if (meaning) {
		lines.push(
			'',
			`${escapeMarkdown(meaning.meaning)}${meaning.action ? ` *What to do:* ${escapeMarkdown(meaning.action)}` : ''}`,
		);
	}
	const firstReason = result.reasons.find((reason) => reason !== result.message);
	if (firstReason) lines.push('', escapeMarkdown(truncate(firstReason, 240)));
	const health = result.health
		? ` · Argo CD: ${result.health.status}${result.health.message ? ` — ${truncate(result.health.message, 80)}` : ''}`
		: '';
	lines.push(
		'',
		`kstatus: ${escapeMarkdown(`${result.kstatus.status}${result.kstatus.message ? ` — ${truncate(result.kstatus.message, 80)}` : ''}${health}`)}`,
	);
	if (sources.length > 0) {
		const first = sources[0];
		const more = sources.length > 1 ? ` (+${sources.length - 1} more)` : '';
		if (first) lines.push('', `From ${escapeMarkdown(`${first.label}:${first.line}`)}${more}`);
	}
	return lines.join('\n');
}
