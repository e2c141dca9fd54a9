// The latest Warning Events of an object as tooltip Markdown: how many there are, and for the newest few their
// reason, how often (`count`, else `series.count`), the message and the age (from `lastTimestamp`, else `eventTime`,
// else `series.lastObservedTime`: Fleet records through the events.k8s.io recorder, which leaves the first empty).
// Events come from clusters and archives: every word of theirs is escaped.
import { newestEventsFirst, type KubeEvent } from '../model/kubeEvent.ts';
import { escapeMarkdown, inlineCode } from '../text/markdown.ts';
import { heldFor } from './objectFacts.ts';

/** The tooltip lines of the newest `max` Warning Events (newest first), or none when there is no Warning. */
export function latestWarningEventLines(
	events: readonly KubeEvent[],
	now: number,
	max = 3,
): string[] {
	const warnings = newestEventsFirst(events.filter((event) => event.type === 'Warning'));
	if (warnings.length === 0) return [];
	const shown = warnings.slice(0, max);
	const lines = [
		warnings.length > shown.length
			? `**Warning events:** ${warnings.length} (the latest ${shown.length})`
			: `**Warning events:** ${warnings.length}`,
	];
	for (const event of shown) {
		const at = event.lastSeen === undefined ? NaN : Date.parse(event.lastSeen);
		const age = Number.isFinite(at) ? heldFor(now - at) : undefined;
		const times = event.count > 1 ? ` ×${event.count}` : '';
		const when = age === undefined ? '' : ` · ${age} ago`;
		lines.push(
			`- ${inlineCode(event.reason || 'no reason', 100)}${times}${when}: ${escapeMarkdown(event.message)}`,
		);
	}
	return lines;
}
