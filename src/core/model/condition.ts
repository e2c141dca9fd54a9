import { getPath, isRecord } from './object.ts';

/** One entry of `status.conditions`, with every field a string (or absent) as the API serialises it. */
export interface Condition {
	readonly type: string;
	readonly status: string;
	readonly reason?: string;
	readonly message?: string;
	readonly severity?: string;
	readonly lastTransitionTime?: string;
	readonly lastUpdateTime?: string;
	readonly observedGeneration?: number;
}

/** Conditions read from an object, with a note for each entry that could not be read. */
export interface ConditionList {
	readonly conditions: readonly Condition[];
	/** True when `status.conditions` exists (even empty). */
	readonly present: boolean;
	readonly problems: readonly string[];
}

function optionalString(record: Record<string, unknown>, key: string): string | undefined {
	const value = record[key];
	return typeof value === 'string' ? value : undefined;
}

/** Reads a list of conditions (any value), never throwing; entries that are not objects with a string `type` are reported. */
export function readConditionArray(value: unknown, where = 'status.conditions'): ConditionList {
	if (value === undefined || value === null) {
		return { conditions: [], present: false, problems: [] };
	}
	if (!Array.isArray(value)) {
		return { conditions: [], present: true, problems: [`${where} is not a list`] };
	}
	const conditions: Condition[] = [];
	const problems: string[] = [];
	value.forEach((entry, index) => {
		if (!isRecord(entry) || typeof entry.type !== 'string') {
			problems.push(`${where}[${index}] has no type`);
			return;
		}
		const status = entry.status;
		const condition: {
			-readonly [K in keyof Condition]: Condition[K];
		} = {
			type: entry.type,
			status:
				typeof status === 'string'
					? status
					: typeof status === 'boolean'
						? status
							? 'True'
							: 'False'
						: '',
		};
		const reason = optionalString(entry, 'reason');
		if (reason !== undefined) condition.reason = reason;
		const message = optionalString(entry, 'message');
		if (message !== undefined) condition.message = message;
		const severity = optionalString(entry, 'severity');
		if (severity !== undefined) condition.severity = severity;
		const lastTransitionTime = optionalString(entry, 'lastTransitionTime');
		if (lastTransitionTime !== undefined) condition.lastTransitionTime = lastTransitionTime;
		const lastUpdateTime = optionalString(entry, 'lastUpdateTime');
		if (lastUpdateTime !== undefined) condition.lastUpdateTime = lastUpdateTime;
		const observedGeneration = entry.observedGeneration;
		if (typeof observedGeneration === 'number' && Number.isInteger(observedGeneration)) {
			condition.observedGeneration = observedGeneration;
		}
		conditions.push(condition);
	});
	return { conditions, present: true, problems };
}

/** Reads `status.conditions` of an object. */
export function readConditions(object: unknown): ConditionList {
	return readConditionArray(getPath(object, 'status', 'conditions'));
}

/** The first condition of a type, as kstatus and most controllers look it up. */
export function findCondition(
	conditions: readonly Condition[],
	type: string,
): Condition | undefined {
	return conditions.find((condition) => condition.type === type);
}
