// The finding codes of targeting. They are judged against a cluster inventory (src/core/targeting/targetLenses.ts), so
// `diagnoseManifest` never gives them on a text alone.

export const targetingCodes = [
	'fleet-target-matches-no-cluster',
	'fleet-target-shadowed',
	'kubestellar-policy-selects-no-cluster',
] as const;

export type TargetingCode = (typeof targetingCodes)[number];

export const targetingRules: Readonly<
	Record<TargetingCode, { readonly summary: string; readonly severity: 'warning' }>
> = {
	'fleet-target-matches-no-cluster': {
		summary:
			"A GitRepo or HelmOp target, or a fleet.yaml targetCustomizations entry, matches none of the inventory's Clusters.",
		severity: 'warning',
	},
	'fleet-target-shadowed': {
		summary:
			'A target or customization never applies: every cluster it matches matches an earlier entry first.',
		severity: 'warning',
	},
	'kubestellar-policy-selects-no-cluster': {
		summary: "A BindingPolicy's clusterSelectors select none of the inventory's ManagedClusters.",
		severity: 'warning',
	},
};
