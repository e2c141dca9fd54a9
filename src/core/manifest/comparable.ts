// What to compare when a user diffs a live object with the manifest that declares it: the fields a person writes.
// The API server adds identity and bookkeeping (uid, resourceVersion, managedFields...) and controllers add status;
// shown in a diff, they bury the one changed field under noise that no manifest could ever match.

import { isRecord } from '../model/object.ts';

const serverMetadata = new Set([
	'uid',
	'resourceVersion',
	'generation',
	'creationTimestamp',
	'deletionTimestamp',
	'deletionGracePeriodSeconds',
	'managedFields',
	'selfLink',
]);

const serverAnnotations = new Set([
	'kubectl.kubernetes.io/last-applied-configuration',
	'deployment.kubernetes.io/revision',
]);

/**
 * The object without what the server and controllers write: status, identity and bookkeeping metadata, and the
 * annotations kubectl and controllers keep for themselves. Empty maps left behind are dropped.
 */
export function comparableObject(object: unknown): Record<string, unknown> {
	if (!isRecord(object)) return {};
	const result: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(object)) {
		if (key === 'status') continue;
		if (key === 'metadata' && isRecord(value)) {
			const metadata: Record<string, unknown> = {};
			for (const [field, item] of Object.entries(value)) {
				if (serverMetadata.has(field)) continue;
				if (field === 'annotations' && isRecord(item)) {
					const kept = Object.entries(item).filter(([name]) => !serverAnnotations.has(name));
					if (kept.length > 0) metadata.annotations = Object.fromEntries(kept);
					continue;
				}
				metadata[field] = item;
			}
			result.metadata = metadata;
			continue;
		}
		result[key] = value;
	}
	return result;
}
