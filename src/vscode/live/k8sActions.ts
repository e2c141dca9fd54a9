import type * as k8sModule from '../../k8s/index.ts';

/** The cluster actions of src/k8s: get, events, Flux and Fleet patches. */
export type K8sActions = typeof k8sModule;

let k8sActions: Promise<K8sActions> | undefined;

/** The k8s bundle (dist/k8s.cjs, with client-node), loaded the first time a command needs a cluster. */
export function loadK8sActions(): Promise<K8sActions> {
	return (k8sActions ??= import('../../k8s/index.ts'));
}
