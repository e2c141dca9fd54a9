// "What happened, in order": the condition transitions of the objects Explain walks, merged with their Kubernetes
// Events, oldest first, so "the HelmRepository failed to fetch 10:41, then the HelmRelease, then the BundleDeployment
// 10:43" reads top-down. The clock and the locale's time format are passed in (the core reads no clock).
import { readConditions } from '../model/condition.ts';
import type { KubeEvent } from '../model/kubeEvent.ts';
import { getArray, getInt, getString, groupOf, isRecord } from '../model/object.ts';
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

function fluxKindOf(object: unknown): 'Kustomization' | 'HelmRelease' | undefined {
	const kind = getString(object, 'kind');
	const group = groupOf(getString(object, 'apiVersion') ?? '');
	if (kind === 'Kustomization' && group === 'kustomize.toolkit.fluxcd.io') return kind;
	if (kind === 'HelmRelease' && group === 'helm.toolkit.fluxcd.io') return kind;
	return undefined;
}

/** "took 2.1s": metav1.Duration as Flux wrote it. */
function tookText(duration: string | undefined): string {
	return duration ? `, took ${escapeMarkdown(duration, 40)}` : '';
}

/**
 * A Kustomization's reconcile history (fluxcd/pkg `apis/meta` History: one snapshot per digest and status, newest
 * first, at most 5): an entry when a snapshot was first reconciled and, when it was reconciled again, one when it was
 * last, with the count and how long the last one took. The revision is the snapshot's `metadata.revision`.
 */
function kustomizationHistoryEntries(
	title: string,
	snapshots: readonly unknown[],
	order: () => number,
): Entry[] {
	const entries: Entry[] = [];
	for (const snapshot of snapshots) {
		const first = timeOf(getString(snapshot, 'firstReconciled'));
		const last = timeOf(getString(snapshot, 'lastReconciled'));
		if (first === undefined && last === undefined) continue;
		const revision = getString(snapshot, 'metadata', 'revision');
		const digest = getString(snapshot, 'digest');
		const what = revision
			? `revision ${inlineCode(revision, 120)}`
			: digest
				? `digest ${inlineCode(digest, 80)}`
				: 'an unnamed revision';
		const status = getString(snapshot, 'lastReconciledStatus');
		const statusText = status ? ` · ${inlineCode(status, 60)}` : '';
		const total = getInt(snapshot, 'totalReconciliations') ?? 1;
		const took = tookText(getString(snapshot, 'lastReconciledDuration'));
		const again = total > 1 && last !== undefined && last !== first;
		if (first !== undefined) {
			entries.push({
				at: first,
				order: order(),
				text: again
					? `${title}: reconciled ${what} (history: first of ${total})${statusText}`
					: `${title}: reconciled ${what} (history)${statusText}${took}`,
			});
		}
		if (last !== undefined && (again || first === undefined)) {
			entries.push({
				at: last,
				order: order(),
				text: `${title}: reconciled ${what} (history: ${total > 1 ? `last of ${total}` : 'last'})${statusText}${took}`,
			});
		}
	}
	return entries;
}

/**
 * A HelmRelease's release snapshots (helm-controller `api/v2` Snapshot: one per Helm release version, up to the last
 * successful one): an entry when each version was deployed (Helm's lastDeployed; its firstDeployed is the first
 * version's, carried along), one when a version was deleted, and one for the release's first deployment when no
 * snapshot of that version is left.
 */
function helmReleaseHistoryEntries(
	title: string,
	snapshots: readonly unknown[],
	order: () => number,
): Entry[] {
	const entries: Entry[] = [];
	let firstDeployed: number | undefined;
	let releaseName: string | undefined;
	const deployedAt = new Set<number>();
	for (const snapshot of snapshots) {
		const name = getString(snapshot, 'name');
		const version = getInt(snapshot, 'version');
		const release = inlineCode(
			`${name ?? 'release'}${version === undefined ? '' : `.v${version}`}`,
			120,
		);
		const chartName = getString(snapshot, 'chartName');
		const chartVersion = getString(snapshot, 'chartVersion');
		const appVersion = getString(snapshot, 'appVersion');
		const chart = chartName
			? ` · chart ${inlineCode(chartName, 80)}${chartVersion ? ` ${escapeMarkdown(chartVersion, 60)}` : ''}${appVersion ? ` (app ${escapeMarkdown(appVersion, 60)})` : ''}`
			: '';
		const status = getString(snapshot, 'status');
		const statusText = status ? ` · now ${inlineCode(status, 60)}` : '';
		const last = timeOf(getString(snapshot, 'lastDeployed'));
		if (last !== undefined) {
			deployedAt.add(last);
			entries.push({
				at: last,
				order: order(),
				text: `${title}: release ${release} deployed (history)${chart}${statusText}`,
			});
		}
		const deleted = timeOf(getString(snapshot, 'deleted'));
		if (deleted !== undefined) {
			entries.push({
				at: deleted,
				order: order(),
				text: `${title}: release ${release} deleted (history)`,
			});
		}
		const first = timeOf(getString(snapshot, 'firstDeployed'));
		if (first !== undefined && (firstDeployed === undefined || first < firstDeployed)) {
			firstDeployed = first;
			releaseName = name;
		}
	}
	if (firstDeployed !== undefined && !deployedAt.has(firstDeployed)) {
		entries.push({
			at: firstDeployed,
			order: order(),
			text: `${title}: release ${inlineCode(releaseName ?? 'release', 120)} first deployed (history)`,
		});
	}
	return entries;
}

function historyEntries(subject: TimelineObject, order: () => number): Entry[] {
	const kind = fluxKindOf(subject.object);
	if (kind === undefined) return [];
	const snapshots = (getArray(subject.object, 'status', 'history') ?? []).filter(isRecord);
	if (snapshots.length === 0) return [];
	const title = `**${escapeMarkdown(subject.title, 200)}**`;
	return kind === 'Kustomization'
		? kustomizationHistoryEntries(title, snapshots, order)
		: helmReleaseHistoryEntries(title, snapshots, order);
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
 * The section's Markdown lines: a heading, then one list item per condition transition, Flux history snapshot
 * (`status.history` of a Kustomization or HelmRelease) and Event of the objects,
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
		for (const entry of historyEntries(subject, order)) entries.push(entry);
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
