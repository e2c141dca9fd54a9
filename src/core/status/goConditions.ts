// status.conditions as Go's runtime.DefaultUnstructuredConverter decodes them into {type, status, reason, message}
// (kstatus BasicCondition, the typed conditions Argo CD's health checks read). Decoded once per object by the
// registry and shared by kstatus and Argo CD health.
import { isRecord } from '../model/object.ts';

/** One decoded condition: every field a string, "" when absent or null. */
export interface GoCondition {
	readonly type: string;
	readonly status: string;
	readonly reason: string;
	readonly message: string;
}

function decodesAsString(value: unknown): value is string | null | undefined {
	return typeof value === 'string' || value === undefined || value === null;
}

/**
 * The decoded conditions of an object, or undefined when some value would not decode: each reader then decodes on
 * its own and reports the error in its own words, at the point its Go code would.
 */
export function decodeGoConditions(object: Record<string, unknown>): GoCondition[] | undefined {
	const status = object.status;
	if (status === undefined || status === null) return [];
	if (!isRecord(status)) return undefined;
	const list = status.conditions;
	if (list === undefined || list === null) return [];
	if (!Array.isArray(list)) return undefined;
	const conditions: GoCondition[] = [];
	for (const entry of list as readonly unknown[]) {
		if (entry === null || entry === undefined) {
			conditions.push({ type: '', status: '', reason: '', message: '' });
			continue;
		}
		if (!isRecord(entry)) return undefined;
		const { type, status: conditionStatus, reason, message } = entry;
		if (
			!decodesAsString(type) ||
			!decodesAsString(conditionStatus) ||
			!decodesAsString(reason) ||
			!decodesAsString(message)
		) {
			return undefined;
		}
		conditions.push({
			type: type ?? '',
			status: conditionStatus ?? '',
			reason: reason ?? '',
			message: message ?? '',
		});
	}
	return conditions;
}
