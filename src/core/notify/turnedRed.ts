// Which objects just turned red, for opt-in notifications: the objects the user pinned, and anything in the contexts a
// setting names. An object notifies once per transition into error; the first read of a root (a workspace scan, a
// context's first list or a relist) only sets what counts as before, so opening a context full of failures is quiet.
import { rowTextLimit, truncate } from '../text/limits.ts';
import { visibleLine } from '../text/visible.ts';

/** An object in error, as the notifier names and finds it. */
export interface RedObject {
	/** The object's place across restarts: its root and graph key (`pinKeyOf`). */
	readonly key: string;
	readonly rootId: string;
	/** The kube context of a live root; undefined for the workspace and dump archives. */
	readonly context: string | undefined;
	/** A tree id of its row, for Explain and reveal. */
	readonly nodeId: string;
	/** "GitRepo fleet-local/shop". */
	readonly title: string;
	/** The state word, e.g. "ErrApplied". */
	readonly state: string;
}

/** What the user asked to be told about. */
export interface NotifyWatch {
	readonly pins: ReadonlySet<string>;
	/** Contexts in which anything that turns red notifies. */
	readonly contexts: readonly string[];
}

/** What the previous look saw: the objects in error, and the roots whose read was complete. */
export interface RedState {
	readonly red: ReadonlySet<string>;
	readonly settledRoots: ReadonlySet<string>;
}

export const nothingSeen: RedState = { red: new Set(), settledRoots: new Set() };

/** The persisted identity of an object for a pin: its root and its graph key. */
export function pinKeyOf(rootId: string, objectKey: string): string {
	return `${rootId}\u0000${objectKey}`;
}

function isWatched(object: RedObject, watch: NotifyWatch): boolean {
	return (
		watch.pins.has(object.key) ||
		(object.context !== undefined && watch.contexts.includes(object.context))
	);
}

/**
 * Compares the objects in error now (every one, watched or not) with the previous look: the watched ones that were
 * not red before, in a root already complete then, turned red. Returns them and the state for the next look.
 */
export function nextRedState(
	previous: RedState,
	redNow: readonly RedObject[],
	settledRoots: ReadonlySet<string>,
	watch: NotifyWatch,
): { readonly state: RedState; readonly turnedRed: readonly RedObject[] } {
	const turnedRed: RedObject[] = [];
	const red = new Set<string>();
	for (const object of redNow) {
		if (red.has(object.key)) continue;
		red.add(object.key);
		if (
			!previous.red.has(object.key) &&
			previous.settledRoots.has(object.rootId) &&
			settledRoots.has(object.rootId) &&
			isWatched(object, watch)
		) {
			turnedRed.push(object);
		}
	}
	return { state: { red, settledRoots: new Set(settledRoots) }, turnedRed };
}

function placeOf(object: RedObject): string {
	return object.context !== undefined ? ` in ${object.context}` : '';
}

/**
 * One notification for the objects that turned red within one debounce window (a rollout turns many at once): the
 * object, or the count and the first. Plain text on one line, names cut at a row's length.
 */
export function redNotification(batch: readonly RedObject[]):
	| {
			readonly message: string;
			readonly first: RedObject;
	  }
	| undefined {
	const first = batch[0];
	if (!first) return undefined;
	const count = new Set(batch.map((object) => object.key)).size;
	const named = visibleLine(
		truncate(`${first.title}${placeOf(first)}: ${first.state || 'error'}`, rowTextLimit),
	);
	const message =
		count === 1
			? `Kube Status Lens: ${named} turned red.`
			: `Kube Status Lens: ${count} objects turned red, the first ${named}.`;
	return { message, first };
}
