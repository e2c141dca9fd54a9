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

/**
 * What a row adds for its findings, worst first: "fleet analyze: stuck bundle deployments", "+2" when there are more;
 * undefined when there is none.
 */
export function fleetFindingsRowText(findings: readonly ObjectFleetFinding[]): string | undefined {
	const [first] = [...findings].sort((a, b) =>
		a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1,
	);
	if (!first) return undefined;
	const words = first.code.replace(/^fleet-/, '').replace(/-/g, ' ');
	return `fleet analyze: ${words}${findings.length > 1 ? ` +${findings.length - 1}` : ''}`;
}
