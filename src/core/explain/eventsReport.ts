// The Events of one object as a document, the way `kubectl events --for kind/name` prints them (newest first here,
// since a user arrives asking what went wrong last), with the age beside each time and who recorded it.
import { newestEventsFirst, type KubeEvent } from '../model/kubeEvent.ts';
import { documentTextLimit, truncate } from '../text/limits.ts';
import { visibleLine } from '../text/visible.ts';
import { heldFor } from './objectFacts.ts';

const columnLimit = 40;

function minuteText(ms: number): string {
	return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function cell(text: string): string {
	return truncate(visibleLine(text), columnLimit);
}

/**
 * The report: a heading naming the object and where its Events were read, a count of the warnings, then one line per
 * Event (time, age, type, reason, count, who recorded it, the whole message).
 */
export function eventsReport(
	subject: string,
	where: string,
	events: readonly KubeEvent[],
	now: number,
): string {
	const lines = [`Events of ${visibleLine(subject)} ${visibleLine(where)}`];
	const warnings = events.filter((event) => event.type === 'Warning').length;
	const counted =
		events.length === 0
			? 'no events'
			: `${events.length} event${events.length === 1 ? '' : 's'}, ${warnings} Warning`;
	lines.push(`Read ${minuteText(now)} · ${counted} · newest first`, '');
	if (events.length === 0) {
		lines.push(
			'The cluster holds no Event about this object now. Kubernetes keeps Events for one hour by default',
			"(kube-apiserver --event-ttl): what happened earlier is only in the object's conditions and the controller's log.",
		);
		return lines.join('\n');
	}
	const rows = newestEventsFirst(events).map((event) => {
		const at = event.lastSeen === undefined ? NaN : Date.parse(event.lastSeen);
		const known = Number.isFinite(at);
		return [
			known ? minuteText(at) : '(no time)',
			known ? (heldFor(now - at) ?? 'in the future') : '',
			cell(event.type || '(no type)'),
			cell(event.reason || '(no reason)'),
			String(event.count),
			cell(event.reporter ?? ''),
			truncate(visibleLine(event.message), documentTextLimit),
		];
	});
	const header = ['LAST SEEN', 'AGE', 'TYPE', 'REASON', 'COUNT', 'FROM', 'MESSAGE'];
	const widths = header.map((title, column) =>
		column === header.length - 1
			? 0
			: rows.reduce((widest, row) => Math.max(widest, row[column]?.length ?? 0), title.length),
	);
	const format = (row: readonly string[]): string =>
		row
			.map((text, column) => (column === row.length - 1 ? text : text.padEnd(widths[column] ?? 0)))
			.join('  ')
			.trimEnd();
	lines.push(format(header));
	for (const row of rows) lines.push(format(row));
	return lines.join('\n');
}
