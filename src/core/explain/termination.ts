// An object being deleted: Kubernetes sets metadata.deletionTimestamp and keeps the object until its finalizers are
// gone, while its controller still writes the status. The state word stays the system's; these words go beside it.
import { getArray, getString } from '../model/object.ts';
import { hoverTextLimit, truncate } from '../text/limits.ts';
import { heldFor } from './objectFacts.ts';

/** What says an object is being deleted, as written. */
export interface Termination {
	/** metadata.deletionTimestamp as written (RFC 3339). */
	readonly deletionTimestamp: string;
	/** The same time in ms since the epoch, or undefined when it does not parse. */
	readonly since: number | undefined;
	/** metadata.finalizers in their order (strings only). */
	readonly finalizers: readonly string[];
}

/** The object's termination, or undefined when metadata.deletionTimestamp is not set. */
export function terminationOf(object: unknown): Termination | undefined {
	const deletionTimestamp = getString(object, 'metadata', 'deletionTimestamp');
	if (deletionTimestamp === undefined || deletionTimestamp === '') return undefined;
	const at = Date.parse(deletionTimestamp);
	const finalizers = (getArray(object, 'metadata', 'finalizers') ?? []).filter(
		(finalizer): finalizer is string => typeof finalizer === 'string' && finalizer !== '',
	);
	return { deletionTimestamp, since: Number.isFinite(at) ? at : undefined, finalizers };
}

function cutAt(text: string, max: number): string {
	const last = text.charCodeAt(max - 1);
	return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** How much of the finalizers a row shows before "…": the row is read in a narrow side bar. */
export const rowFinalizersLimit = 40;

/**
 * "Terminating 3 h · finalizers: a, b" (plain text: the caller escapes it for Markdown). The age runs from
 * deletionTimestamp to `now`, and is left out without a clock or for a time that does not parse or lies ahead.
 * `finalizersLimit` cuts the list with "…" (a row); without it the list is whole up to the hover limit (a tooltip).
 * `after`: the state word the words follow, when it already says the object is being deleted ("Deleting"): then
 * they say only how long and what holds it, "for 3 h · finalizers: a, b", rather than "Terminating" again.
 */
export function terminatingWords(
	termination: Termination,
	now: number | undefined,
	finalizersLimit?: number,
	after?: string,
): string {
	const age =
		now === undefined || termination.since === undefined
			? undefined
			: heldFor(now - termination.since);
	const saidAlready = after !== undefined && deletionWords.has(after);
	const words = saidAlready
		? age === undefined
			? ''
			: `for ${age}`
		: age === undefined
			? 'Terminating'
			: `Terminating ${age}`;
	if (termination.finalizers.length === 0) return words;
	const list = termination.finalizers.join(', ');
	const shown =
		finalizersLimit === undefined
			? truncate(list, hoverTextLimit)
			: list.length > finalizersLimit
				? `${cutAt(list, finalizersLimit).trimEnd()}…`
				: list;
	return words === '' ? `finalizers: ${shown}` : `${words} · finalizers: ${shown}`;
}

/** State words that already say an object is being deleted (ASO's Deleting, kstatus's Terminating). */
const deletionWords = new Set(['Deleting', 'Terminating']);
