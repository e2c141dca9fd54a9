// What a tree item says in words: the description (state word and counts), the label at each place, and the
// sentence that explains where a parent's written status disagrees with the roll-up recomputed from its children.
// Text only: colour comes from the tone, so nothing here may rely on it.
import { findCondition, readConditions } from '../model/condition.ts';
import { getInt, getPath, getString, isRecord } from '../model/object.ts';
import { harborDependencyConditions } from '../status/harbor.ts';
import { readBundleSummary, readResourceCounts } from '../status/fleetSummary.ts';
import { rejectionOfObject } from '../status/fleetPolicy.ts';
import type { StatusResult, Tone } from '../status/result.ts';

/** An object's name, or "(no name)" for an empty one. */
export function nameOrPlaceholder(name: string): string {
	return name === '' ? '(no name)' : name;
}

/** "namespace/name", or the name alone for cluster-scoped objects. */
export function qualified(namespace: string, name: string): string {
	return namespace ? `${namespace}/${nameOrPlaceholder(name)}` : nameOrPlaceholder(name);
}

/** What the description of an item with no status says. */
const declaredText = 'declared, no status';

/**
 * True for a manifest that only declares an object: no status at all, and the system does not define that case as
 * ready (an oci HelmRepository or a ConfigMap is ready as declared; a Deployment or a GitRepo is not).
 */
export function isDeclaredOnly(result: StatusResult): boolean {
	return !result.observed && result.tone !== 'ok';
}

/** The tone an object shows for its own status: "unknown" for declared-only objects, never ok. */
export function ownToneOf(result: StatusResult): Tone {
	return isDeclaredOnly(result) ? 'unknown' : result.tone;
}

/** What the description of a live object with no status says: nothing declared it, no controller has written yet. */
const noStatusYetText = 'no status yet';

/** The state word an item shows: the system's word, or that there is no status (in a file, or live). */
export function stateWordOf(result: StatusResult, live = false): string {
	if (!isDeclaredOnly(result)) return result.state;
	return live ? noStatusYetText : declaredText;
}

function plural(count: number, unit: string): string {
	return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

function rawRatioOf(text: string | undefined): string | undefined {
	const match = /^(\d+)\/(\d+)/.exec(text ?? '');
	return match ? `${match[1]}/${match[2]}` : undefined;
}

function ratioOf(text: string | undefined): string | undefined {
	const match = /^(\d+)\/(\d+)/.exec(text ?? '');
	// "0/0" says nothing a user can act on.
	return match && match[2] !== '0' ? `${match[1]}/${match[2]}` : undefined;
}

/** How many children a Fleet roll-up was computed from (its summary's desiredReady, or the group's cluster count). */
export function fleetRollupSize(kind: string, computed: unknown): number {
	if (!isRecord(computed)) return 0;
	if (kind === 'ClusterGroup') return getInt(computed, 'clusterCount') ?? 0;
	if (kind === 'BundleDeployment') return 0;
	// Only one counter is needed: reading the whole summary would copy its non-ready entries on every node build.
	return getInt(computed, 'summary', 'desiredReady') ?? 0;
}

/**
 * The counts after the state word for a Fleet object: recomputed from the children in the input when there are any,
 * else what the controller wrote. GitRepo/HelmOp count clusters, a Bundle its deployments, a Cluster its bundles.
 */
export function fleetCountsOf(
	kind: string,
	object: unknown,
	computed: unknown,
): string | undefined {
	// A Policy refused it: nothing was rolled out, and the row says why rather than counting nothing.
	if (rejectionOfObject(object)) return 'rejected by Policy';
	const derived = fleetRollupSize(kind, computed) > 0;
	switch (kind) {
		case 'GitRepo':
		case 'HelmOp': {
			const ready = derived
				? getInt(computed, 'readyClusters')
				: getInt(object, 'status', 'readyClusters');
			const desired = derived
				? getInt(computed, 'desiredReadyClusters')
				: getInt(object, 'status', 'desiredReadyClusters');
			return ready !== undefined && desired !== undefined && desired > 0
				? `${ready}/${desired} clusters`
				: undefined;
		}
		case 'Bundle': {
			if (derived) {
				const ready = getInt(computed, 'summary', 'ready') ?? 0;
				return `${ready}/${getInt(computed, 'summary', 'desiredReady') ?? 0} ready`;
			}
			const written = ratioOf(getString(object, 'status', 'display', 'readyClusters'));
			return written ? `${written} ready` : undefined;
		}
		case 'Cluster': {
			const ratio = ratioOf(
				getString(derived ? computed : getPath(object, 'status'), 'display', 'readyBundles'),
			);
			return ratio ? `${ratio} bundles` : undefined;
		}
		case 'ClusterGroup': {
			const source = derived ? computed : getPath(object, 'status');
			const count = getInt(source, 'clusterCount');
			if (count === undefined || count === 0) return undefined;
			return `${count - (getInt(source, 'nonReadyClusterCount') ?? 0)}/${count} clusters`;
		}
		case 'BundleDeployment': {
			const counts = readResourceCounts(getPath(object, 'status', 'resourceCounts'));
			return counts.desiredReady > 0
				? `${counts.ready}/${counts.desiredReady} resources`
				: undefined;
		}
		default:
			return undefined;
	}
}

/** "2/4 dependencies" for a HarborCluster: how many of its four dependency conditions are True. */
export function harborCountsOf(object: unknown): string {
	const { conditions } = readConditions(object);
	const ready = harborDependencyConditions.filter(
		(type) => findCondition(conditions, type)?.status === 'True',
	).length;
	return `${ready}/${harborDependencyConditions.length} dependencies`;
}

function readyStatusOf(object: unknown): string | undefined {
	return findCondition(readConditions(object).conditions, 'Ready')?.status;
}

function underivable(computed: unknown): readonly string[] {
	const value = getPath(computed, 'underivable');
	return Array.isArray(value)
		? value.filter((entry): entry is string => typeof entry === 'string')
		: [];
}

const childUnits: Readonly<Record<string, string>> = {
	Bundle: 'BundleDeployment',
	GitRepo: 'BundleDeployment',
	HelmOp: 'BundleDeployment',
	Cluster: 'BundleDeployment',
	ClusterGroup: 'Cluster',
};

/**
 * Where a Fleet parent's written status disagrees with what its controller would write from the children in the
 * input, in words; undefined when they agree, when nothing was written, or when no child is in the input (then the
 * input cannot tell). Fields the roll-up marks underivable are not compared.
 */
export function fleetDisagreementOf(
	kind: string,
	object: unknown,
	computed: unknown,
): string | undefined {
	const size = fleetRollupSize(kind, computed);
	const status = getPath(object, 'status');
	if (size === 0 || !isRecord(status) || !isRecord(computed)) return undefined;
	const skip = underivable(computed);
	const unit = childUnits[kind] ?? 'child';
	const sentences: string[] = [];
	const display = getPath(status, 'display');
	if (isRecord(display) && !skip.includes('display')) {
		const written = getString(display, 'state') ?? '';
		const recomputed = getString(computed, 'display', 'state') ?? '';
		if (written !== recomputed) {
			sentences.push(
				`the controller wrote ${written || 'Ready'}, but the ${plural(size, unit)} here say ${recomputed || 'Ready'}`,
			);
		}
	}
	const writtenReady = readyStatusOf(object);
	const recomputedReady = getString(computed, 'readyCondition', 'status');
	if (
		writtenReady !== undefined &&
		recomputedReady !== undefined &&
		writtenReady !== recomputedReady &&
		!skip.includes('readyCondition')
	) {
		const message = getString(computed, 'readyCondition', 'message');
		sentences.push(
			`Ready is ${writtenReady} but would be ${recomputedReady}${message ? ` (${message})` : ''}`,
		);
	}
	switch (kind) {
		case 'GitRepo':
		case 'HelmOp': {
			const wr = getInt(status, 'readyClusters');
			const wd = getInt(status, 'desiredReadyClusters');
			const cr = getInt(computed, 'readyClusters');
			const cd = getInt(computed, 'desiredReadyClusters');
			if (wr !== undefined && wd !== undefined && (wr !== cr || wd !== cd)) {
				sentences.push(`it counts ${wr}/${wd} clusters ready, recomputed ${cr ?? 0}/${cd ?? 0}`);
			}
			break;
		}
		case 'Bundle': {
			const written = getPath(status, 'summary');
			if (isRecord(written)) {
				const wr = readBundleSummary(written).ready;
				const cr = readBundleSummary(getPath(computed, 'summary')).ready;
				if (wr !== cr) sentences.push(`its summary counts ${wr} ready, recomputed ${cr}`);
			}
			break;
		}
		case 'Cluster': {
			const written = rawRatioOf(getString(status, 'display', 'readyBundles'));
			const recomputed = rawRatioOf(getString(computed, 'display', 'readyBundles'));
			if (written && recomputed && written !== recomputed) {
				sentences.push(`it counts ${written} bundles ready, recomputed ${recomputed}`);
			}
			break;
		}
		case 'ClusterGroup': {
			const count = getInt(status, 'clusterCount');
			if (count !== undefined && !skip.includes('clusterCount')) {
				const written = `${count - (getInt(status, 'nonReadyClusterCount') ?? 0)}/${count}`;
				const cc = getInt(computed, 'clusterCount') ?? 0;
				const recomputed = `${cc - (getInt(computed, 'nonReadyClusterCount') ?? 0)}/${cc}`;
				if (written !== recomputed) {
					sentences.push(`it counts ${written} clusters ready, recomputed ${recomputed}`);
				}
			}
			break;
		}
	}
	if (sentences.length === 0) return undefined;
	const text = sentences.join('; ');
	return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** Where a HarborCluster's written `.status.status` disagrees with its dependency conditions. */
export function harborDisagreementOf(object: unknown, computed: unknown): string | undefined {
	const written = getString(object, 'status', 'status');
	const recomputed = getString(computed, 'status');
	if (written === undefined || recomputed === undefined) return undefined;
	const normalized = written === 'creating' ? 'provisioning' : written;
	if (normalized === recomputed) return undefined;
	return `The operator wrote ${written}, but the dependency conditions say ${recomputed}.`;
}

/** The generic case: an object whose own status looks fine while items below it have problems. */
export function childrenDisagreementOf(
	kind: string,
	result: StatusResult,
	total: number,
	problems: number,
): string | undefined {
	if (!result.observed || problems === 0 || result.tone === 'warning' || result.tone === 'error') {
		return undefined;
	}
	// Waiting for a dependency is the state the problems below explain, not one they contradict.
	if (result.state === 'WaitingForDependency') return undefined;
	return `${kind || 'The object'} reports ${result.state}, but ${problems} of ${total} item${total === 1 ? '' : 's'} below ${problems === 1 ? 'has' : 'have'} problems.`;
}

/** The description of a grouping item: how many items and how many of them have problems. */
export function groupDescriptionOf(total: number, problems: number): string {
	return problems > 0 ? `${total} · ${plural(problems, 'problem')}` : `${total}`;
}
