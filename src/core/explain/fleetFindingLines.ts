// Fleet's own troubleshooting findings on an object, as its tooltip and Explain show them: what `fleet analyze` would
// report about it (✗ for what it marks as an error), each with its code and message.
import type { ObjectFleetFinding } from '../checks/fleetTroubleshooting.ts';
import { escapeMarkdown, inlineCode } from '../text/markdown.ts';

/** Markdown lines for the findings (at most `max`, then how many more), or none. */
export function fleetFindingLines(findings: readonly ObjectFleetFinding[], max = 4): string[] {
	if (findings.length === 0) return [];
	const sorted = [...findings].sort((a, b) =>
		a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1,
	);
	const lines = ['**What `fleet analyze` would report:**'];
	for (const finding of sorted.slice(0, max)) {
		lines.push(
			`- ${finding.severity === 'error' ? '✗' : '⚠'} ${inlineCode(finding.code, 80)} ${escapeMarkdown(finding.message, 400)}`,
		);
	}
	if (sorted.length > max) lines.push(`- … ${sorted.length - max} more`);
	return lines;
}
