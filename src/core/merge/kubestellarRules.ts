// What the released KubeStellar status controller writes for a multi-WEC workload (kubestellar/kubestellar
// @ 1c28a8a1e3ae, pkg/status/aggregation/*.go, called from pkg/status/multiwec-status.go `handleMultiWEC`).
// Narrower than the proposal on purpose: the preview shows both so users see what their WDS will really hold.
import { isRecord } from '../model/object.ts';
import {
	namesList,
	type FieldProvenance,
	type MergedStatus,
	type WecStatus,
} from './mergeRules.ts';

type Extreme = 'min' | 'max';

/** One released aggregation function: its numeric fields in write order and its condition pick. */
interface KubestellarRule {
	readonly function: string;
	readonly fields: readonly (readonly [string, Extreme])[];
	/** The condition type (and reason, when given) whose first occurrence is surfaced; absent: no conditions key. */
	readonly condition?: { readonly type: string; readonly reason?: string };
}

/** Rule rows of the released controller, apps group only (multiwec-status.go switches on group then kind). */
const kubestellarRules: Readonly<Record<string, KubestellarRule>> = {
	// aggregation/deployment.go AggregateDeploymentStatus + aggregateConditions.
	Deployment: {
		function: 'AggregateDeploymentStatus',
		fields: [
			['replicas', 'min'],
			['updatedReplicas', 'min'],
			['availableReplicas', 'min'],
			['readyReplicas', 'min'],
			['unavailableReplicas', 'max'],
			['observedGeneration', 'min'],
		],
		condition: { type: 'Progressing', reason: 'ProgressDeadlineExceeded' },
	},
	// aggregation/replicaset.go AggregateReplicaSetStatus + aggregateReplicaSetConditions.
	ReplicaSet: {
		function: 'AggregateReplicaSetStatus',
		fields: [
			['replicas', 'min'],
			['fullyLabeledReplicas', 'min'],
			['readyReplicas', 'min'],
			['availableReplicas', 'min'],
			['observedGeneration', 'min'],
		],
		condition: { type: 'ReplicaFailure' },
	},
	// aggregation/daemonset.go AggregateDaemonSetStatus (writes no conditions key).
	DaemonSet: {
		function: 'AggregateDaemonSetStatus',
		fields: [
			['currentNumberScheduled', 'min'],
			['numberMisscheduled', 'max'],
			['desiredNumberScheduled', 'min'],
			['numberReady', 'min'],
			['observedGeneration', 'min'],
			['updatedNumberScheduled', 'min'],
			['numberAvailable', 'min'],
		],
	},
};

/** True when the released controller aggregates this kind (apps Deployment, ReplicaSet, DaemonSet). */
function hasKubestellarRule(group: string, kind: string): boolean {
	return group === 'apps' && Object.hasOwn(kubestellarRules, kind);
}

function isInteger(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value);
}

/** GetMin/GetMax with the WECs that hold the extreme; only integers count, no integer at all gives 0. */
function extremeWithWecs(
	entries: readonly WecStatus[],
	field: string,
	which: Extreme,
): { value: number; wecs: string[]; skipped: string[]; wrongType: string[] } {
	let best: number | undefined;
	let wecs: string[] = [];
	const skipped: string[] = [];
	const wrongType: string[] = [];
	for (const entry of entries) {
		const value = entry.status[field];
		if (!isInteger(value)) {
			skipped.push(entry.wec);
			if (value !== undefined && value !== null) wrongType.push(entry.wec);
			continue;
		}
		if (best === undefined || (which === 'min' ? value < best : value > best)) {
			best = value;
			wecs = [entry.wec];
		} else if (value === best) {
			wecs.push(entry.wec);
		}
	}
	return { value: best ?? 0, wecs, skipped, wrongType };
}

function anonymous(statuses: readonly unknown[]): WecStatus[] {
	const entries: WecStatus[] = [];
	statuses.forEach((status, index) => {
		if (isRecord(status)) entries.push({ wec: `#${index}`, status });
	});
	return entries;
}

/** KubeStellar `aggregation.GetMin`: the least integer value of a field, 0 when no status has an integer there. */
export function kubestellarMin(statuses: readonly unknown[], field: string): number {
	return extremeWithWecs(anonymous(statuses), field, 'min').value;
}

/** KubeStellar `aggregation.GetMax`: the greatest integer value of a field, 0 when no status has an integer there. */
export function kubestellarMax(statuses: readonly unknown[], field: string): number {
	return extremeWithWecs(anonymous(statuses), field, 'max').value;
}

/** The first condition of the rule's type (and reason) across the statuses in order, as the Go loop finds it. */
function firstConditionOf(
	entries: readonly WecStatus[],
	wanted: { readonly type: string; readonly reason?: string },
): { wec: string; condition: unknown } | undefined {
	for (const entry of entries) {
		const conditions = entry.status.conditions;
		if (!Array.isArray(conditions)) continue;
		for (const condition of conditions as readonly unknown[]) {
			if (!isRecord(condition)) continue;
			if (condition.type !== wanted.type) continue;
			if (wanted.reason !== undefined && condition.reason !== wanted.reason) continue;
			return { wec: entry.wec, condition };
		}
	}
	return undefined;
}

/**
 * The status the released controller writes for several WECs' statuses of a kind, with provenance; null when
 * it has no rule for the kind (it then leaves the WDS object untouched). Entries are taken in the given order,
 * which stands in for the Go set's arbitrary order.
 */
export function mergeKubestellarStatuses(
	group: string,
	kind: string,
	entries: readonly WecStatus[],
): MergedStatus | null {
	if (!hasKubestellarRule(group, kind)) return null;
	const rule = kubestellarRules[kind];
	if (!rule) return null;
	const status: Record<string, unknown> = {};
	const provenance: Record<string, FieldProvenance> = {};
	const notes: string[] = [];
	const ignored: string[] = [];
	for (const [field, which] of rule.fields) {
		const { value, wecs, skipped, wrongType } = extremeWithWecs(entries, field, which);
		status[field] = value;
		if (wrongType.length > 0) ignored.push(`${field} in ${namesList(wrongType)}`);
		provenance[field] = {
			rule: which,
			source: `KubeStellar aggregation.${rule.function} (Get${which === 'min' ? 'Min' : 'Max'})`,
			wecs,
			...(skipped.length > 0 ? { absentIn: skipped } : {}),
			...(wecs.length === 0
				? { detail: 'no WEC has an integer here, so GetMin/GetMax returns 0' }
				: {}),
		};
	}
	if (ignored.length > 0) {
		notes.push(
			`KubeStellar ignores values that are not integers: ${ignored.join('; ')} (those WECs still count for the other fields).`,
		);
	}
	if (rule.condition) {
		const found = firstConditionOf(entries, rule.condition);
		status.conditions = found ? [found.condition] : [];
		const wanted = rule.condition.reason
			? `${rule.condition.type} condition with reason ${rule.condition.reason}`
			: `${rule.condition.type} condition`;
		provenance.conditions = {
			rule: 'first-matching-condition',
			source: `KubeStellar aggregation.${rule.function}`,
			wecs: found ? [found.wec] : [],
			detail: found
				? `the first ${wanted} found; every other condition is dropped`
				: `no WEC has a ${wanted}, so conditions is empty`,
		};
		if (found) {
			const others = entries.filter(
				(entry) =>
					entry.wec !== found.wec && firstConditionOf([entry], rule.condition ?? { type: '' }),
			);
			if (others.length > 0) {
				notes.push(
					`Several WECs have a ${wanted} (${found.wec}, ${namesList(others.map((entry) => entry.wec))}); KubeStellar takes whichever its set yields first, here the first by WEC name.`,
				);
			}
		}
	}
	return { status, provenance, notes };
}

/** The status a released aggregation function returns for raw statuses (non-objects skipped), or null for other kinds. */
export function aggregateKubestellarStatus(
	kind: string,
	statuses: readonly unknown[],
): Record<string, unknown> | null {
	return mergeKubestellarStatuses('apps', kind, anonymous(statuses))?.status ?? null;
}
