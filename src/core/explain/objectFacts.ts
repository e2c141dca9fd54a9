// The facts the Flux and Kubernetes extensions and the Rancher and Argo CD dashboards show on every object: how long
// it has been in its condition, and which revision or commit it is at. Read from the object as written; `now` is
// passed in (the core reads no clock).
import { findCondition, readConditions, type Condition } from '../model/condition.ts';
import { getRecord, getString } from '../model/object.ts';
import { rowTextLimit, truncate } from '../text/limits.ts';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/** "12 min ago", "3 h ago", "5 days ago"; "just now" within a minute; undefined for a time in the future. */
function ago(ms: number): string | undefined {
	if (ms < 0) return undefined;
	if (ms < minute) return 'just now';
	if (ms < hour) return `${Math.floor(ms / minute)} min ago`;
	if (ms < day) return `${Math.floor(ms / hour)} h ago`;
	const days = Math.floor(ms / day);
	return `${days} day${days === 1 ? '' : 's'} ago`;
}

/** The condition a reader asks about first: Ready, else the one that changed last. */
function leadingCondition(conditions: readonly Condition[]): Condition | undefined {
	const ready = findCondition(conditions, 'Ready');
	if (ready) return ready;
	let latest: Condition | undefined;
	let latestAt = -Infinity;
	for (const condition of conditions) {
		const at = Date.parse(condition.lastTransitionTime ?? condition.lastUpdateTime ?? '');
		if (Number.isFinite(at) && at > latestAt) {
			latest = condition;
			latestAt = at;
		}
	}
	return latest;
}

/** When the leading condition last changed (ms since the epoch): lastTransitionTime, else Fleet's lastUpdateTime. */
export function leadingConditionSince(object: unknown): number | undefined {
	const condition = leadingCondition(readConditions(object).conditions);
	const stamp = condition?.lastTransitionTime ?? condition?.lastUpdateTime;
	if (!stamp) return undefined;
	const at = Date.parse(stamp);
	return Number.isFinite(at) ? at : undefined;
}

/** "12 min", "3 h", "5 days": how long a row's state has held, for "ErrApplied for 12 min"; undefined if in the future. */
export function heldFor(ms: number): string | undefined {
	if (ms < 0) return undefined;
	if (ms < minute) return '<1 min';
	if (ms < hour) return `${Math.floor(ms / minute)} min`;
	if (ms < day) return `${Math.floor(ms / hour)} h`;
	const days = Math.floor(ms / day);
	return `${days} day${days === 1 ? '' : 's'}`;
}

/**
 * Since when the leading condition holds ("Ready False since 2025-06-25 14:59 UTC, 12 min ago"), from its
 * lastTransitionTime; Fleet writes only lastUpdateTime, which says when it was last written, and is named so.
 */
export function conditionSince(object: unknown, now: number): string | undefined {
	const condition = leadingCondition(readConditions(object).conditions);
	if (!condition) return undefined;
	const transition = condition.lastTransitionTime;
	const stamp = transition ?? condition.lastUpdateTime;
	if (!stamp) return undefined;
	const at = Date.parse(stamp);
	if (!Number.isFinite(at)) return undefined;
	const when = new Date(at).toISOString().slice(0, 16).replace('T', ' ');
	const relative = ago(now - at);
	const what = `${truncate(condition.type, 60)} ${truncate(condition.status, 20)}`;
	return `${what} ${transition ? 'since' : 'last updated'} ${when} UTC${relative ? `, ${relative}` : ''}`;
}

/**
 * The revision or commit the object is at, in the words of its system: Flux's applied or stored revision, the
 * commit of a Fleet GitRepo, or the commit label Fleet puts on its Bundles and BundleDeployments.
 */
export function revisionOf(object: unknown): string | undefined {
	const applied = getString(object, 'status', 'lastAppliedRevision');
	if (applied) return `Revision ${truncate(applied, rowTextLimit)}`;
	const artifact = getString(object, 'status', 'artifact', 'revision');
	if (artifact) return `Revision ${truncate(artifact, rowTextLimit)}`;
	const commit =
		getString(object, 'status', 'commit') ??
		getString(getRecord(object, 'metadata', 'labels'), 'fleet.cattle.io/commit');
	if (commit) return `Commit ${truncate(commit, rowTextLimit)}`;
	return undefined;
}

/**
 * Where a live object was read, for its tooltip: "Live in context platform (ready) · last read 12:03:41 UTC, 2 min
 * ago", not a file-like "apps/v1/deployments:1".
 */
export function liveReadLine(
	context: string,
	state: string,
	readAt: number | undefined,
	now: number,
): string {
	const where = `Live in context ${context} (${state})`;
	if (readAt === undefined || !Number.isFinite(readAt)) return where;
	const time = new Date(readAt).toISOString().slice(11, 19);
	const relative = ago(now - readAt);
	return `${where} · last read ${time} UTC${relative ? `, ${relative}` : ''}`;
}
