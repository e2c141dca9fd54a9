// The codes of Fleet's own troubleshooting classes (rancher/fleet pkg/troubleshooting, types.go, read at commit
// 3b2c622ce176b11644abc7fb768f87c3ffb5a3ab): `fleet-` and the kebab case of a `Diagnostics` list field, the four
// count-only fields about deletion and references as per-object codes, and the Snapshot's orphaned secrets and
// content issues. The severities are those `fleet analyze --issues` prints: its ✗ (error) for stuck
// BundleDeployments, GitRepo/Bundle inconsistencies and clusters with agent issues, its ⚠ (warning) for the rest.

/** Every Fleet troubleshooting code, in the order of Fleet's `Diagnostics` type. */
export const fleetCheckCodes = [
	'fleet-stuck-bundle-deployments',
	'fleet-git-repo-bundle-inconsistencies',
	'fleet-invalid-secret-owners',
	'fleet-resources-with-multiple-finalizers',
	'fleet-large-bundles',
	'fleet-bundles-with-missing-content',
	'fleet-bundles-with-no-deployments',
	'fleet-git-repos-with-no-bundles',
	'fleet-clusters-with-agent-issues',
	'fleet-cluster-groups-with-no-clusters',
	'fleet-bundles-with-missing-git-repo',
	'fleet-bundle-deployments-with-missing-bundle',
	'fleet-git-repos-with-commit-mismatch',
	'fleet-git-repos-with-generation-mismatch',
	'fleet-git-repos-unpolled',
	'fleet-bundles-with-generation-mismatch',
	'fleet-bundle-deployments-with-sync-generation-mismatch',
	'fleet-secrets-with-values-hash-mismatch',
	'fleet-bundles-with-deletion-timestamp',
	'fleet-bundle-deployments-with-deletion-timestamp',
	'fleet-contents-with-deletion-timestamp',
	'fleet-contents-with-zero-reference-count',
	'fleet-orphaned-secrets',
	'fleet-content-issues',
] as const;

/** A Fleet troubleshooting code. */
export type FleetCheckCode = (typeof fleetCheckCodes)[number];

/** What each Fleet code is about, in one line, and its severity. */
export const fleetCheckRules: Readonly<
	Record<FleetCheckCode, { readonly summary: string; readonly severity: 'error' | 'warning' }>
> = {
	'fleet-stuck-bundle-deployments': {
		summary:
			'Fleet: the agent has not applied the BundleDeployment (deploymentID, forced sync or deletion pending).',
		severity: 'error',
	},
	'fleet-git-repo-bundle-inconsistencies': {
		summary: "Fleet: a Bundle's commit or forceSyncGeneration differs from its GitRepo's.",
		severity: 'error',
	},
	'fleet-invalid-secret-owners': {
		summary: 'Fleet: a bundle lifecycle Secret names an owner whose UID no longer matches.',
		severity: 'warning',
	},
	'fleet-resources-with-multiple-finalizers': {
		summary: 'Fleet: a GitRepo, Bundle or BundleDeployment has more than one finalizer.',
		severity: 'warning',
	},
	'fleet-large-bundles': {
		summary: 'Fleet: a Bundle is larger than 1 MiB (etcd performance threshold).',
		severity: 'warning',
	},
	'fleet-bundles-with-missing-content': {
		summary: "Fleet: no Content holds the Bundle's resources (status.resourcesSHA256Sum).",
		severity: 'warning',
	},
	'fleet-bundles-with-no-deployments': {
		summary: 'Fleet: a Bundle has no BundleDeployment (no cluster matched its targets).',
		severity: 'warning',
	},
	'fleet-git-repos-with-no-bundles': {
		summary: 'Fleet: a GitRepo has created no Bundle.',
		severity: 'warning',
	},
	'fleet-clusters-with-agent-issues': {
		summary: 'Fleet: a Cluster is not Ready, or its agent was not seen for 24 hours.',
		severity: 'error',
	},
	'fleet-cluster-groups-with-no-clusters': {
		summary: 'Fleet: a ClusterGroup matches no cluster.',
		severity: 'warning',
	},
	'fleet-bundles-with-missing-git-repo': {
		summary: 'Fleet: a Bundle names a GitRepo (fleet.cattle.io/repo-name) that does not exist.',
		severity: 'warning',
	},
	'fleet-bundle-deployments-with-missing-bundle': {
		summary: 'Fleet: a BundleDeployment names a Bundle that does not exist.',
		severity: 'warning',
	},
	'fleet-git-repos-with-commit-mismatch': {
		summary: "Fleet: a GitRepo's status commit matches neither its polling nor its webhook commit.",
		severity: 'warning',
	},
	'fleet-git-repos-with-generation-mismatch': {
		summary: "Fleet: a GitRepo's observedGeneration differs from its generation.",
		severity: 'warning',
	},
	'fleet-git-repos-unpolled': {
		summary: 'Fleet: a GitRepo was last polled longer ago than its polling interval.',
		severity: 'warning',
	},
	'fleet-bundles-with-generation-mismatch': {
		summary: "Fleet: a Bundle's observedGeneration differs from its generation.",
		severity: 'warning',
	},
	'fleet-bundle-deployments-with-sync-generation-mismatch': {
		summary: "Fleet: a BundleDeployment's forced sync (forceSyncGeneration) is not applied yet.",
		severity: 'warning',
	},
	'fleet-secrets-with-values-hash-mismatch': {
		summary: "Fleet: a bundle lifecycle Secret's values do not match its owner's valuesHash.",
		severity: 'warning',
	},
	'fleet-bundles-with-deletion-timestamp': {
		summary: 'Fleet: a Bundle is being deleted (deletionTimestamp set).',
		severity: 'warning',
	},
	'fleet-bundle-deployments-with-deletion-timestamp': {
		summary: 'Fleet: a BundleDeployment is being deleted (deletionTimestamp set).',
		severity: 'warning',
	},
	'fleet-contents-with-deletion-timestamp': {
		summary: 'Fleet: a Content is being deleted (deletionTimestamp set).',
		severity: 'warning',
	},
	'fleet-contents-with-zero-reference-count': {
		summary: 'Fleet: a Content that is not being deleted has a reference count of 0.',
		severity: 'warning',
	},
	'fleet-orphaned-secrets': {
		summary:
			'Fleet: a bundle lifecycle Secret has no live owner (none, gone, another UID, or deleted).',
		severity: 'warning',
	},
	'fleet-content-issues': {
		summary: 'Fleet: a Content a BundleDeployment needs is missing or being deleted.',
		severity: 'warning',
	},
};
