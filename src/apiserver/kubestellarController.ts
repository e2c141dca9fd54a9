// A stand-in for KubeStellar's status controller in the demo, as fleetController.ts is for Fleet's: when the ITS's
// WorkStatus objects change, the WDS workloads that a BindingPolicy asks reported state for get the status the
// released controller would write (singleton copy or multi-WEC aggregation, src/core/merge with the `kubestellar`
// rules), through the status subresource so that watches see it. So the demo's WDS workload carries what a real
// WDS would show, including what those rules leave out (a merged Deployment has no Available condition).

import { mergeInputsFrom } from '../core/merge/mergePreview.ts';
import { mergeWecStatuses } from '../core/merge/wecMerge.ts';
import { isKubestellarGroup } from '../core/status/kubestellar.ts';
import { jsonEqual, type JsonObject } from './patch.ts';
import { metadataOf, type KubeObject, type ObjectStore } from './store.ts';

/** The field manager of the status writes, as KubeStellar's controller manager names itself. */
const fieldManager = 'kubestellar-controller-manager';

function objectsOf(
	store: ObjectStore,
	wanted: (group: string, kind: string) => boolean,
): KubeObject[] {
	return store.types
		.filter((type) => wanted(type.group, type.kind))
		.flatMap((type) => store.all(type));
}

/**
 * Writes the reported state of every WDS workload a BindingPolicy asks it for, from the ITS's WorkStatus objects;
 * returns how many workloads changed. A workload whose merge writes nothing is left as it is.
 */
export function reconcileKubestellarStatus(wds: ObjectStore, its: ObjectStore): number {
	const context = [
		...objectsOf(
			its,
			(group, kind) =>
				(isKubestellarGroup(group) && kind === 'WorkStatus') || kind === 'ManagedCluster',
		),
		...objectsOf(
			wds,
			(group, kind) => isKubestellarGroup(group) || (group === '' && kind === 'Namespace'),
		),
	];
	let changed = 0;
	for (const type of wds.types) {
		// Namespaces never get reported state back (KubeStellar's WEC2WDSExceptions); nor do its own objects.
		if (isKubestellarGroup(type.group) || (type.group === '' && type.kind === 'Namespace')) {
			continue;
		}
		for (const workload of wds.all(type)) {
			const inputs = mergeInputsFrom(workload, context);
			if (inputs.because === undefined) continue;
			const merged = mergeWecStatuses(workload, inputs.perWec, inputs.policies, 'kubestellar');
			if (!merged.changed || jsonEqual(workload.status, merged.status)) continue;
			const { name, namespace } = metadataOf(workload);
			if (typeof name !== 'string') continue;
			wds.update(
				type,
				typeof namespace === 'string' && namespace !== '' ? namespace : undefined,
				name,
				{ ...workload, status: merged.status as JsonObject },
				{ subresource: 'status', fieldManager },
			);
			changed++;
		}
	}
	return changed;
}
