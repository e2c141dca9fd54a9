// "What happened, in order": the condition transitions of the objects Explain walks, merged with their Kubernetes
// Events, oldest first, so "the HelmRepository failed to fetch 10:41, then the HelmRelease, then the BundleDeployment
// 10:43" reads top-down. The clock and the locale's time format are passed in (the core reads no clock).
import { readConditions } from '../model/condition.ts';
import type { KubeEvent } from '../model/kubeEvent.ts';
import { escapeMarkdown, inlineCode } from '../text/markdown.ts';
import { heldFor } from './objectFacts.ts';

/** One object of the chain: how the document names it, the object as read, and the Events known about it. */
export interface TimelineObject {
	readonly title: string;
	readonly object: unknown;
	readonly events?: readonly KubeEvent[];
}

/** The time now and how to print a time in the user's locale. */
export interface TimelineClock {
	readonly now: number;
	readonly formatTime: (ms: number) => string;
}

interface Entry {
	readonly at: number;
	readonly order: number;
	readonly text: string;
	/** Timed by lastUpdateTime, not by a transition. */
	readonly written?: boolean;
}

/** Whether the document has already shown a message (so an entry says "the message above" instead). */
type AlreadyShown = (message: string) => boolean;

const maxEntries = 40;
const messageLimit = 1_000;

function timeOf(stamp: string | undefined): number | undefined {
	if (stamp === undefined || stamp === '') return undefined;
	const at = Date.parse(stamp);
	return Number.isFinite(at) ? at : undefined;
}

function messageText(message: string | undefined, shown: AlreadyShown): string {
	if (!message) return '';
	return shown(message) ? ' — the message above' : ` — ${escapeMarkdown(message, messageLimit)}`;
}

function conditionEntries(
	subject: TimelineObject,
	order: () => number,
	shown: AlreadyShown,
): Entry[] {
	const entries: Entry[] = [];
	const title = `**${escapeMarkdown(subject.title, 200)}**`;
	for (const condition of readConditions(subject.object).conditions) {
		const transition = timeOf(condition.lastTransitionTime);
		// Fleet writes only lastUpdateTime: when the condition was last written, not when it changed; said so.
		const at = transition ?? timeOf(condition.lastUpdateTime);
		if (at === undefined) continue;
		const status = escapeMarkdown(condition.status || '(no status)', 20);
		const what =
			transition !== undefined
				? `${inlineCode(condition.type, 60)} became ${status}`
				: `${inlineCode(condition.type, 60)} was ${status} (written)`;
		const reason = condition.reason ? ` · ${inlineCode(condition.reason, 60)}` : '';
		entries.push({
			at,
			order: order(),
			text: `${title}: ${what}${reason}${messageText(condition.message, shown)}`,
			written: transition === undefined,
		});
	}
	return entries;
}

function eventEntries(subject: TimelineObject, order: () => number, shown: AlreadyShown): Entry[] {
	const entries: Entry[] = [];
	const title = `**${escapeMarkdown(subject.title, 200)}**`;
	for (const event of subject.events ?? []) {
		const at = timeOf(event.lastSeen);
		if (at === undefined) continue;
		const type = escapeMarkdown(event.type || 'Event', 20);
		const reason = inlineCode(event.reason || 'no reason', 60);
		const times = event.count > 1 ? ` ×${event.count}` : '';
		const from = event.reporter ? ` from ${escapeMarkdown(event.reporter, 60)}` : '';
		entries.push({
			at,
			order: order(),
			text: `${title}: ${type} event ${reason}${times}${from}${messageText(event.message, shown)}`,
		});
	}
	return entries;
}

function whenText(at: number, clock: TimelineClock): string {
	const age = heldFor(clock.now - at);
	return `${escapeMarkdown(clock.formatTime(at), 80)} (${age === undefined ? 'in the future' : `${age} ago`})`;
}

/**
 * The section's Markdown lines: a heading, then one list item per condition transition and Event of the objects,
 * oldest first (ties keep the chain's order, conditions before Events), each with its time in the user's format and
 * its age. At most the latest 40 are listed, saying how many earlier ones were left out. `notes` (e.g. a context
 * whose Events could not be read) follow the list. A message the document showed already is not repeated. Every
 * string from files or clusters is escaped.
 */
export function timelineLines(
	objects: readonly TimelineObject[],
	clock: TimelineClock,
	notes: readonly string[] = [],
	alreadyShown: AlreadyShown = () => false,
): string[] {
	let counter = 0;
	const order = (): number => counter++;
	const entries: Entry[] = [];
	for (const subject of objects) {
		for (const entry of conditionEntries(subject, order, alreadyShown)) entries.push(entry);
	}
	for (const subject of objects) {
		for (const entry of eventEntries(subject, order, alreadyShown)) entries.push(entry);
	}
	entries.sort((a, b) => a.at - b.at || a.order - b.order);
	const lines = ['## What happened, in order', ''];
	if (entries.length === 0) {
		lines.push(
			'No condition here records when it changed, and no Event about these objects is known.',
		);
	} else {
		const shown = entries.slice(Math.max(0, entries.length - maxEntries));
		if (shown.length < entries.length) {
			lines.push(`(${entries.length - shown.length} earlier entries left out)`, '');
		}
		for (const entry of shown) lines.push(`- ${whenText(entry.at, clock)} ${entry.text}`);
		if (shown.some((entry) => entry.written)) {
			lines.push(
				'',
				'"Written": Fleet records only lastUpdateTime, when a condition was last written, not when it changed.',
			);
		}
	}
	lines.push('');
	for (const note of notes) lines.push(`_${escapeMarkdown(note, messageLimit)}_`, '');
	return lines;
}
