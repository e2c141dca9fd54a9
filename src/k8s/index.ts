// What the extension loads the first time it needs a cluster: built into its own bundle (dist/k8s.cjs), which
// carries @kubernetes/client-node, so activation and workspace-only use never parse it.
export { loadKubeconfig } from './kubeconfig.ts';
export { toneOfState } from './connectionState.ts';
export { createSession } from './session.ts';
export * from './actions.ts';
