// Which WDS context a WorkStatus of an ITS context reports to. KubeStellar keeps the workload in the WDS and the
// WorkStatus objects (one per WEC) in the ITS; a user opens both contexts side by side and expects the WDS workload
// to show its per-WEC status. The WorkStatus label names the WDS by its KubeStellar name (the ControlPlane, e.g.
// wds1), which is also the kube context name that kflex writes; a setting pairs contexts named otherwise.

import { getString } from '../model/object.ts';

/** The label KubeStellar's status propagation puts on a WorkStatus: the name of the WDS it reports to. */
const originWdsLabel = 'transport.kubestellar.io/originWdsName';

/** A pairing from the settings: the WDS context, its ITS context, and optionally the WDS's KubeStellar name. */
export interface ContextPair {
	readonly wds: string;
	readonly its: string;
	/** Only WorkStatus objects whose originWdsName is this; every WorkStatus of the ITS when absent. */
	readonly wdsName?: string;
}

/**
 * The WDS contexts a WorkStatus read from `itsContext` belongs to. Pairs set for that ITS decide alone; without
 * any, the WorkStatus goes to the open context whose name is its originWdsName label.
 */
export function wdsContextsOf(
	workStatus: unknown,
	itsContext: string,
	pairs: readonly ContextPair[],
	openContexts: readonly string[],
): string[] {
	const origin = getString(workStatus, 'metadata', 'labels', originWdsLabel);
	const explicit = pairs.filter((pair) => pair.its === itsContext && pair.wds !== itsContext);
	if (explicit.length > 0) {
		return [
			...new Set(
				explicit
					.filter((pair) => pair.wdsName === undefined || pair.wdsName === origin)
					.map((pair) => pair.wds)
					.filter((wds) => openContexts.includes(wds)),
			),
		];
	}
	return origin !== undefined && origin !== itsContext && openContexts.includes(origin)
		? [origin]
		: [];
}

/** Reads the pairs setting: an array of `{ wds, its, wdsName? }`; entries of another shape are left out. */
export function contextPairsOf(value: unknown): ContextPair[] {
	if (!Array.isArray(value)) return [];
	const pairs: ContextPair[] = [];
	for (const entry of value) {
		const wds = getString(entry, 'wds');
		const its = getString(entry, 'its');
		const wdsName = getString(entry, 'wdsName');
		if (!wds || !its) continue;
		pairs.push(wdsName ? { wds, its, wdsName } : { wds, its });
	}
	return pairs;
}

/**
 * Reads one pair as a command line gives it, `wds=CONTEXT,its=CONTEXT[,wdsName=NAME]` (the keys of the setting);
 * a sentence saying what is wrong otherwise.
 */
export function contextPairOfFlag(text: string): ContextPair | string {
	const fields = new Map<string, string>();
	for (const part of text.split(',')) {
		const equals = part.indexOf('=');
		const key = equals > 0 ? part.slice(0, equals).trim() : '';
		if (!['wds', 'its', 'wdsName'].includes(key)) {
			return `${JSON.stringify(part)} is not wds=…, its=… or wdsName=…`;
		}
		fields.set(key, part.slice(equals + 1).trim());
	}
	const [pair] = contextPairsOf([Object.fromEntries(fields)]);
	return pair ?? 'a pair needs both wds=CONTEXT and its=CONTEXT';
}
