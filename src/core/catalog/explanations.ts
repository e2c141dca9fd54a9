import type { SystemId } from '../status/result.ts';

// The explanation catalog: what each state word, condition type, reason, severity and status field of the supported
// systems means, and what a platform engineer can do about it. The rows are data; hovers, tree tooltips and the docs/
// pages read the same facts. Every row names the upstream document section or source file it was written from.

/** The systems the catalog covers: the engine's systems plus the two generic verdicts, kstatus and Argo CD health. */
export type ExplanationSystem = SystemId | 'kstatus' | 'argocd';

/** The kinds of term the catalog explains. */
export type ExplanationCategory = 'state' | 'condition' | 'reason' | 'severity' | 'field';

/** One catalog row: a term of one system, what it means and what to do about it. */
export interface Explanation {
	readonly system: ExplanationSystem;
	readonly category: ExplanationCategory;
	readonly term: string;
	/** Object kinds the row applies to; absent = all kinds of the system. */
	readonly kinds?: readonly string[];
	readonly meaning: string;
	/** Conditions only: positive = True is healthy, negative = the condition is abnormal while True. */
	readonly polarity?: 'positive' | 'negative';
	/** What the user can do; '' when there is nothing to do. */
	readonly action: string;
	readonly source: string;
}

/** The term of the ASO row that explains any Azure error code used as the Ready reason. */
export const azureErrorCodeTerm = '<Azure error code>';

/** The term of the ASO severity row for an empty severity (ASO's ConditionSeverityNone is ""). */
export const noSeverityTerm = 'None';

// Kind groups reused by several rows.
const clusterKinds = ['Cluster', 'ClusterGroup'] as const;
const repoKinds = ['GitRepo', 'HelmOp'] as const;
const bindingKinds = ['BindingPolicy', 'Binding'] as const;

// The upstream sources the rows cite, one short form each. Documents are named by title and section:
// - Fleet docs "Status Fields": rancher/fleet-docs docs/ref-status-fields.md.
// - KubeStellar multi-WEC status proposal: "Multi-WEC Aggregated Status Controller Enhancement", kubestellar/kubestellar
//   issue #2809.
// - harbor-operator docs "Harbor cluster controller": goharbor/harbor-operator docs/LCM/cluster-controller.md.
// - Flux HelmRepository spec: fluxcd/source-controller docs/spec/v1/helmrepositories.md.
// - ASO status proposal: "Proposal for reporting resource Status", Azure/azure-service-operator design docs.
// Code is named by repository and file. rancher/fleet files: summary.go (internal/cmd/controller/summary), target.go
// (internal/cmd/controller/target), status_controller.go and gitjob_controller.go (internal/cmd/controller/gitops/
// reconciler), helmop_status.go (internal/cmd/controller/helmops/reconciler), cluster_controller.go,
// clustergroup_controller.go and the controller's bundledeployment_controller.go (internal/cmd/controller/reconciler),
// the agent's bundledeployment_controller.go (internal/cmd/agent/controller), deployer.go, monitor/updatestatus.go and
// monitor/condition.go (internal/cmd/agent/deployer), resourcekey.go (internal/resourcestatus).

/** A section of the Fleet docs "Status Fields" page. */
const fleetDocs = (section: string): string => `Fleet docs "Status Fields", "${section}"`;
/** A section of the KubeStellar multi-WEC status proposal. */
const kubestellarProposal = (section: string): string =>
	`KubeStellar multi-WEC status proposal (kubestellar#2809), "${section}"`;
/** A section of the Flux HelmRepository spec. */
const fluxSpec = (section: string): string =>
	`Flux HelmRepository spec (fluxcd/source-controller), "${section}"`;
/** A section of the ASO status proposal. */
const asoProposal = (section: string): string =>
	`Azure Service Operator status proposal, "${section}"`;

const fleetBundleStatesSource = `${fleetDocs('Bundle Statuses')}; rancher/fleet summary.go`;
const fleetClusterStatesSource = `${fleetDocs('States from Bundles')}; rancher/fleet cluster_controller.go, clustergroup_controller.go`;
const fleetRepoStatesSource = `${fleetDocs('status.display')}; rancher/fleet status_controller.go, helmop_status.go`;
const fleetResourceCountsSource = `${fleetDocs('Resource Counts')}; rancher/fleet updatestatus.go, resourcekey.go`;
const kstatusSource = 'kstatus (kubernetes-sigs/cli-utils pkg/kstatus/status)';
const workStatusSource = `kubestellar/ocm-status-addon workstatus_types.go; ${kstatusSource}`;
const harborOverallSource =
	'harbor-operator docs "Harbor cluster controller", "Overall status"; goharbor/harbor-operator harborcluster/status.go';
const harborConditionsSource =
	'harbor-operator docs "Harbor cluster controller", "Conditions"; goharbor/harbor-operator harborcluster_types.go';
/** HarborCluster .status.status as the code writes it (controllers/goharbor/harborcluster/status.go overallStatus). */
const harborStatusCode = 'goharbor/harbor-operator harborcluster/status.go';
/** The legacy InProgress/Failed conditions every harbor-operator controller writes. */
const harborComponentCode = 'goharbor/harbor-operator pkg/controller/status.go';
const asoConditionsCode = 'Azure/azure-service-operator v2/pkg/genruntime/conditions';
const argocdSource =
	'Argo CD health (argoproj/argo-cd gitops-engine/pkg/health, controller/health.go)';

const fleetAgentAction =
	'Check the agent on the downstream cluster: status.agent.lastSeen on the Cluster, then kubectl -n cattle-fleet-system logs deploy/fleet-agent (cattle-fleet-local-system for the local cluster).';
const fleetBdYaml = 'kubectl get bundledeployment -n <cluster namespace> <bundle> -o yaml';
const fleetWaitingSource = `${fleetDocs('Bundle Statuses')}; rancher/fleet#5549 (Fleet 0.16, Rancher 2.15.3): summary.go GetDeploymentState, deployer.go checkDependency`;
const fleetDependencyAction =
	'Usually temporary: it clears once the dependency reaches an accepted state. If it does not, make the dependency reach one (Explain it: it is the root cause), or widen spec.dependsOn[].acceptedStates in fleet.yaml (e.g. add Modified) where that state is good enough.';
const fleetRolloutAction =
	'Check spec.paused and rolloutStrategy (maxUnavailable, partitions) on the Bundle or its GitRepo/HelmOp; the controller releases the change once earlier partitions are ready.';
const fleetDriftAction = `Read modifiedStatus with ${fleetBdYaml}; revert the manual change, enable correctDrift on the GitRepo, or declare expected differences with diff.comparePatches in fleet.yaml.`;

/** Fleet rows: display states per perspective, conditions, the Ready reason and resource-count buckets. */
const fleetExplanations: readonly Explanation[] = [
	// States from the BundleDeployment and Bundle perspective (a Bundle shows the worst of its BundleDeployments).
	{
		system: 'fleet',
		category: 'state',
		term: 'Ready',
		meaning:
			'Every resource is applied, ready and unmodified; on a Bundle, every BundleDeployment is Ready.',
		action: '',
		source: fleetBundleStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'NotReady',
		meaning:
			'The agent applied the current version, but some resources are not ready yet, for example images still pulling or readiness probes failing.',
		action:
			'Read the Ready condition message for the first non-ready resource, then inspect it on the downstream cluster with kubectl describe and kubectl get events.',
		source: fleetBundleStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'Pending',
		meaning:
			'A targeted cluster has no BundleDeployment yet and none was applied before: the controller has not created it, often because the rollout is paused.',
		action: fleetRolloutAction,
		source: `${fleetDocs('Bundle Statuses')}; rancher/fleet target.go`,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'OutOfSync',
		meaning:
			'The Bundle changed, and the new version is staged but not yet released to the agent (spec.deploymentID differs from spec.stagedDeploymentID), usually because a paused or partitioned rollout holds it.',
		action: fleetRolloutAction,
		source: fleetBundleStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'Modified',
		meaning:
			'The resources are applied and ready, but the live objects differ from the bundle: changed outside Fleet, deleted (missing) or left over (extra).',
		action: fleetDriftAction,
		source: fleetBundleStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'WaitApplied',
		meaning:
			'The agent has not applied the current version yet (status.appliedDeploymentID differs from spec.deploymentID) and reports no deploy error. If it persists, the cluster or its agent is unreachable.',
		action: fleetAgentAction,
		source: fleetBundleStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'WaitingForDependency',
		meaning:
			'Fleet 0.16 and later: the agent holds the current version back because a bundle in spec.dependsOn is not in one of its acceptedStates (Ready unless set) on the same cluster. Nothing failed; the Deployed condition names each dependency with its state. An older Fleet reports the same wait as ErrApplied ("dependent bundle(s) are not ready").',
		action: fleetDependencyAction,
		source: fleetWaitingSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'ErrApplied',
		meaning:
			'The agent tried to apply the current version and failed (the Deployed condition is False), for example a Helm template or install error.',
		action: `Read the Deployed condition message with ${fleetBdYaml}, fix the manifests, chart or values at the source and push.`,
		source: fleetBundleStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'Unknown',
		meaning:
			'The state cannot be read from the status (fields missing or malformed); for a resource in status.resources, the agent reported an incomplete list.',
		action:
			'Look at the raw status with kubectl get -o yaml and check that the Fleet controller and agents run the version matching the CRDs.',
		source: 'rancher/fleet resourcekey.go',
	},
	// States from the Cluster and ClusterGroup perspective: the worst state of the bundles deployed there.
	{
		system: 'fleet',
		category: 'state',
		term: 'Ready',
		kinds: clusterKinds,
		meaning:
			'All bundles deployed to this cluster (for a ClusterGroup, to every cluster of the group) are ready.',
		action: '',
		source: fleetClusterStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'NotReady',
		kinds: clusterKinds,
		meaning:
			'The worst bundle on this cluster (or group) is NotReady: deployed, but some of its resources are not ready yet.',
		action:
			'The Ready condition message names the first such BundleDeployment; inspect its resources on the downstream cluster with kubectl describe.',
		source: fleetClusterStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'Pending',
		kinds: clusterKinds,
		meaning:
			'The worst bundle on this cluster (or group) is Pending: the controller has not created its BundleDeployment yet.',
		action: fleetRolloutAction,
		source: fleetClusterStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'OutOfSync',
		kinds: clusterKinds,
		meaning:
			'The worst bundle on this cluster (or group) is OutOfSync: a newer version is staged but held back by the rollout.',
		action: fleetRolloutAction,
		source: fleetClusterStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'Modified',
		kinds: clusterKinds,
		meaning:
			'The worst bundle on this cluster (or group) is Modified: its resources were changed, deleted or added outside Fleet.',
		action: fleetDriftAction,
		source: fleetClusterStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'WaitApplied',
		kinds: clusterKinds,
		meaning:
			'The worst bundle on this cluster (or group) is WaitApplied: the agent has not applied its current version. When every bundle of a cluster waits, the agent is usually down or cut off.',
		action: fleetAgentAction,
		source: fleetClusterStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'Active',
		kinds: ['Policy'],
		meaning:
			'A Fleet Policy keeps no status: it restricts the GitRepos, HelmOps and Bundles of its namespace (service accounts, repositories, secrets, charts) from the moment it exists, joined with the other Policies there. A GitRepo or HelmOp it rejects gets Accepted False, a Bundle Ready False, each with a PolicyViolation Warning Event.',
		action:
			'To see what it refused, look for objects of this namespace whose Accepted (GitRepo, HelmOp) or Ready (Bundle) condition names a disallowed value; kubectl get events --field-selector reason=PolicyViolation -n <namespace>.',
		source:
			'rancher/fleet policy_types.go, gitops and helmops restrictions.go, bundle_policy.go (#5152)',
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'WaitingForDependency',
		kinds: clusterKinds,
		meaning:
			'The worst bundle on this cluster (or group) is WaitingForDependency: a bundle it depends on is not in an accepted state here yet. It may be temporary.',
		action: `Open the bundle named in the Ready condition message; ${fleetDependencyAction}`,
		source: fleetWaitingSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'ErrApplied',
		kinds: clusterKinds,
		meaning:
			'The worst bundle on this cluster (or group) is ErrApplied: the agent failed to deploy it.',
		action: `Open the BundleDeployment named in the Ready condition message and read its Deployed condition (${fleetBdYaml}).`,
		source: fleetClusterStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'WaitCheckIn',
		kinds: ['Cluster'],
		meaning:
			'The agent of this cluster has never reported back (status.agent.lastSeen is unset), so nothing is known about its bundles yet.',
		action:
			'Check that fleet-agent is installed and running on the downstream cluster and can reach the upstream API server; kubectl get clusterregistrations -n <namespace> shows whether it registered.',
		source: `${fleetDocs('Cluster specific states')}; rancher/fleet cluster_controller.go`,
	},
	// States from the GitRepo and HelmOp perspective: the worst state of the BundleDeployments they created.
	{
		system: 'fleet',
		category: 'state',
		term: 'Ready',
		kinds: repoKinds,
		meaning:
			'Every BundleDeployment created from this source is Ready; status.display.state is then empty.',
		action: '',
		source: fleetRepoStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'NotReady',
		kinds: repoKinds,
		meaning:
			'The worst BundleDeployment of this source is NotReady: applied, but resources are not ready on at least one cluster.',
		action:
			'status.display.message and the Ready condition name the first affected bundle; check its resources on that cluster with kubectl describe.',
		source: fleetRepoStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'Pending',
		kinds: repoKinds,
		meaning:
			'The worst BundleDeployment of this source is Pending: a targeted cluster has not received its BundleDeployment yet.',
		action: fleetRolloutAction,
		source: fleetRepoStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'OutOfSync',
		kinds: repoKinds,
		meaning:
			'The worst BundleDeployment of this source is OutOfSync: the new commit or chart version is staged but not yet released to some clusters.',
		action: fleetRolloutAction,
		source: fleetRepoStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'Modified',
		kinds: repoKinds,
		meaning:
			'The worst BundleDeployment of this source is Modified: deployed resources drifted from what the source declares.',
		action: fleetDriftAction,
		source: fleetRepoStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'WaitApplied',
		kinds: repoKinds,
		meaning:
			'The worst BundleDeployment of this source is WaitApplied: at least one cluster has not applied the current version.',
		action: `Find the cluster named in the Ready condition message. ${fleetAgentAction}`,
		source: fleetRepoStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'WaitingForDependency',
		kinds: repoKinds,
		meaning:
			"The worst BundleDeployment of this source is WaitingForDependency: on at least one cluster a bundle it depends on is not in an accepted state yet, so the new version waits. Fleet still sets status.display.error, as the message is the Deployed condition's.",
		action: `Find the cluster named in the Ready condition message. ${fleetDependencyAction}`,
		source: fleetWaitingSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'ErrApplied',
		kinds: repoKinds,
		meaning:
			'The worst BundleDeployment of this source is ErrApplied: deploying failed on at least one cluster; status.display.message carries the error.',
		action:
			'Read status.display.message, fix the manifests, chart or values at the source and push.',
		source: fleetRepoStatesSource,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'GitUpdating',
		kinds: ['GitRepo'],
		meaning:
			'The job that clones the repository and builds the Bundles has not finished successfully (status.gitJobStatus is not Current); this state hides the bundle states until it does.',
		action:
			'Check the GitPolling and Stalled conditions, then the git job and its pod logs in the GitRepo namespace (URL, branch, credentials in clientSecretName, fleet.yaml errors).',
		source: `${fleetDocs('status.display')}; rancher/fleet status_controller.go`,
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'Orphaned',
		kinds: repoKinds,
		meaning:
			'A resource in status.resources still exists on a cluster although the bundle no longer contains it.',
		action: fleetDriftAction,
		source: 'rancher/fleet resourcekey.go',
	},
	{
		system: 'fleet',
		category: 'state',
		term: 'Missing',
		kinds: repoKinds,
		meaning:
			'A resource in status.resources is part of the bundle but does not exist on a cluster, for example because it was deleted by hand.',
		action: fleetDriftAction,
		source: 'rancher/fleet resourcekey.go',
	},
	// Conditions.
	{
		system: 'fleet',
		category: 'condition',
		term: 'Ready',
		polarity: 'positive',
		meaning:
			'True when every BundleDeployment behind the object is Ready. When False, the message lists each non-Ready state with its count and the first affected cluster or bundle, for example WaitApplied(1) [Cluster fleet-default/downstream4].',
		action:
			'Read the message: the state word says what is wrong, the bracket names where to look next.',
		source: `${fleetDocs('Ready Condition')}; rancher/fleet summary.go`,
	},
	{
		system: 'fleet',
		category: 'condition',
		term: 'Ready',
		kinds: ['GitRepo'],
		polarity: 'positive',
		meaning:
			'True when the desired state is the current state. When False, the message holds a git job error, a Bundle error such as a failed template, or the aggregated states of the non-Ready bundles.',
		action:
			'If the message is an error, fix the repository or its credentials; if it lists states, follow the named bundle.',
		source: `${fleetDocs('GitRepo')}; rancher/fleet status_controller.go`,
	},
	{
		system: 'fleet',
		category: 'condition',
		term: 'Ready',
		kinds: ['BundleDeployment'],
		polarity: 'positive',
		meaning:
			'Set by the agent: True when all resources are ready and unmodified; otherwise False with reason Error and the first non-ready or modified resource in the message.',
		action:
			'Inspect the named resource on the downstream cluster with kubectl describe, or read modifiedStatus for drift.',
		source: 'rancher/fleet updatestatus.go',
	},
	{
		system: 'fleet',
		category: 'condition',
		term: 'GitPolling',
		kinds: ['GitRepo'],
		polarity: 'positive',
		meaning:
			'Polling the remote repository for new commits (or the initial clone) works. Also True when polling is disabled; False carries the polling error.',
		action:
			'Check the repository URL, branch or revision, and the credentials secret named in clientSecretName.',
		source: fleetDocs('GitRepo'),
	},
	{
		system: 'fleet',
		category: 'condition',
		term: 'Reconciling',
		kinds: ['GitRepo'],
		polarity: 'negative',
		meaning:
			'True while the controller works on the latest change, for example while the git job runs.',
		action: '',
		source: `${fleetDocs('GitRepo')}; rancher/fleet gitjob_controller.go`,
	},
	{
		system: 'fleet',
		category: 'condition',
		term: 'Stalled',
		kinds: ['GitRepo'],
		polarity: 'negative',
		meaning:
			'True when reconciling failed or made no progress in time, for example a failed git job; the message carries the job or pod error.',
		action:
			'Read the message, then the git job pod logs in the GitRepo namespace; fix the repository, path or credentials.',
		source: `${fleetDocs('GitRepo')}; rancher/fleet gitjob_controller.go`,
	},
	{
		system: 'fleet',
		category: 'condition',
		term: 'Accepted',
		kinds: repoKinds,
		polarity: 'positive',
		meaning:
			'The object passed validation: GitRepo restrictions apply and referenced Helm secrets exist; for a HelmOp, the Helm options are valid, a chart version resolves, polling could be scheduled and the Bundle was created.',
		action:
			'Read the message; check GitRepoRestrictions in the namespace, the referenced secrets, and the chart, repo and version in spec.helm.',
		source: `${fleetDocs('GitRepo')}, "HelmOp Conditions"`,
	},
	{
		system: 'fleet',
		category: 'condition',
		term: 'Polled',
		kinds: ['HelmOp'],
		polarity: 'positive',
		meaning:
			'True when polling is enabled and the last poll of the Helm repository succeeded; False carries the polling error.',
		action:
			'Check the chart repository URL, its credentials and that it is reachable from the cluster.',
		source: fleetDocs('HelmOp Conditions'),
	},
	{
		system: 'fleet',
		category: 'condition',
		term: 'Processed',
		kinds: ['Cluster'],
		polarity: 'positive',
		meaning:
			'The controller computed the Cluster status fields (bundle summary, resource counts) without error; False carries the error.',
		action:
			'Read the message and the fleet-controller logs in cattle-fleet-system on the upstream cluster.',
		source: 'rancher/fleet cluster_controller.go',
	},
	{
		system: 'fleet',
		category: 'condition',
		term: 'Deployed',
		kinds: ['BundleDeployment'],
		polarity: 'positive',
		meaning:
			'The agent handled the BundleDeployment without error. False while the applied version differs from the desired one makes the state ErrApplied.',
		action: `Read the message (${fleetBdYaml}) and fix the bundle at its source.`,
		source: 'rancher/fleet agent bundledeployment_controller.go; summary.go',
	},
	{
		system: 'fleet',
		category: 'condition',
		term: 'Installed',
		kinds: ['BundleDeployment'],
		polarity: 'positive',
		meaning:
			'The Helm release for the current version was installed or upgraded. While it is False the agent stops refreshing resource status, so the last install error stays visible.',
		action:
			'Read the message (often a Helm error or wait timeout) and run helm history on the downstream cluster for the release.',
		source: 'rancher/fleet deployer.go, updatestatus.go',
	},
	{
		system: 'fleet',
		category: 'condition',
		term: 'Monitored',
		kinds: ['BundleDeployment'],
		polarity: 'positive',
		meaning:
			'The agent could read the live state of the deployed resources; status.display.monitored shows Error: <message> when it could not.',
		action: 'Check the fleet-agent logs and its RBAC on the downstream cluster.',
		source: 'rancher/fleet agent and controller bundledeployment_controller.go',
	},
	// Reasons.
	{
		system: 'fleet',
		category: 'reason',
		term: 'Error',
		kinds: ['BundleDeployment'],
		meaning:
			'The reason the agent gives a False Ready, Deployed or Monitored condition; the message carries the detail.',
		action: 'Read the condition message.',
		source: 'rancher/fleet monitor/condition.go, updatestatus.go',
	},
	// Resource-count buckets (status.resourceCounts).
	{
		system: 'fleet',
		category: 'field',
		term: 'desiredReady',
		meaning:
			'Number of resources that should exist: those the bundle renders plus missing ones, summed over the BundleDeployments.',
		action: '',
		source: fleetResourceCountsSource,
	},
	{
		system: 'fleet',
		category: 'field',
		term: 'ready',
		meaning: 'Resources that exist, are unmodified and are ready.',
		action: '',
		source: fleetResourceCountsSource,
	},
	{
		system: 'fleet',
		category: 'field',
		term: 'notReady',
		meaning: 'Resources that exist and are unmodified but are not ready yet.',
		action:
			'Find them in status.resources and inspect them on their cluster with kubectl describe.',
		source: fleetResourceCountsSource,
	},
	{
		system: 'fleet',
		category: 'field',
		term: 'waitApplied',
		meaning: 'Resources of BundleDeployments whose current version the agent has not applied yet.',
		action: fleetAgentAction,
		source: fleetResourceCountsSource,
	},
	{
		system: 'fleet',
		category: 'field',
		term: 'waitingForDependency',
		meaning:
			'In status.summary (Fleet 0.16 and later): how many BundleDeployments wait for a bundle in spec.dependsOn to reach an accepted state.',
		action: fleetDependencyAction,
		source: fleetWaitingSource,
	},
	{
		system: 'fleet',
		category: 'field',
		term: 'modified',
		meaning: 'Resources that exist but differ from what the bundle declares.',
		action: fleetDriftAction,
		source: fleetResourceCountsSource,
	},
	{
		system: 'fleet',
		category: 'field',
		term: 'orphaned',
		meaning: 'Resources still on a cluster that the bundle no longer contains.',
		action: fleetDriftAction,
		source: fleetResourceCountsSource,
	},
	{
		system: 'fleet',
		category: 'field',
		term: 'missing',
		meaning: 'Resources the bundle contains that do not exist on the cluster.',
		action: fleetDriftAction,
		source: fleetResourceCountsSource,
	},
	{
		system: 'fleet',
		category: 'field',
		term: 'unknown',
		meaning:
			'Resources whose state could not be determined, for example because the agent report was incomplete.',
		action: 'Wait for the next agent report; if the count stays, check the fleet-agent logs.',
		source: fleetResourceCountsSource,
	},
	{
		system: 'fleet',
		category: 'field',
		term: 'gitJobStatus',
		kinds: ['GitRepo'],
		meaning:
			'The kstatus status of the job that clones the repository; anything but Current shows the GitRepo as GitUpdating. Fleet releases that do not write this field never force GitUpdating, so without it the state is what their controller wrote.',
		action: '',
		source: 'rancher/fleet gitjob_controller.go, status_controller.go',
	},
	{
		system: 'fleet',
		category: 'field',
		term: 'agent.lastSeen',
		kinds: ['Cluster'],
		meaning:
			'When the agent of this cluster last reported; unset means it never checked in (WaitCheckIn).',
		action: fleetAgentAction,
		source: 'rancher/fleet cluster_controller.go',
	},
];

const kubestellarPolicyAction =
	'Read status.errors with kubectl get bindingpolicy <name> -o yaml (or the Binding of the same name) and fix the policy.';
const kubestellarControllerAction =
	'If it stays, check the kubestellar-controller-manager of this WDS and its logs.';

/** KubeStellar rows: BindingPolicy/Binding states and conditions, WorkStatus and CombinedStatus states, spec fields. */
const kubestellarExplanations: readonly Explanation[] = [
	{
		system: 'kubestellar',
		category: 'state',
		term: 'Ready',
		meaning:
			'The controller processed the latest spec: observedGeneration is current, status.errors is empty and no condition is False.',
		action: '',
		source: 'kubestellar/kubestellar api/control/v1alpha1/types.go',
	},
	{
		system: 'kubestellar',
		category: 'state',
		term: 'Error',
		meaning:
			'status.errors lists problems or a condition is False, for example singleton status requested for objects that go to more or fewer than one WEC.',
		action: `${kubestellarPolicyAction} For the singleton error, narrow clusterSelectors so the object lands on exactly one WEC, or switch to wantMultiWECReportedState.`,
		source: 'kubestellar/kubestellar api/control/v1alpha1/types.go, pkg/binding/binding.go',
	},
	{
		system: 'kubestellar',
		category: 'state',
		term: 'Pending',
		meaning:
			'The controller has not processed the latest spec: there is no status yet, or status.observedGeneration is behind metadata.generation.',
		action: kubestellarControllerAction,
		source: 'kubestellar/kubestellar api/control/v1alpha1/types.go',
	},
	{
		system: 'kubestellar',
		category: 'state',
		term: 'Unknown',
		meaning: 'The status cannot be read (not an object, or malformed conditions or errors).',
		action: 'Look at the raw object with kubectl get -o yaml.',
		source: 'kubestellar/kubestellar api/control/v1alpha1/types.go',
	},
	{
		system: 'kubestellar',
		category: 'state',
		term: 'Ready',
		kinds: ['CombinedStatus'],
		meaning: 'The status collectors produced their results without row or aggregation errors.',
		action: '',
		source: 'kubestellar/kubestellar api/control/v1alpha1/types.go',
	},
	{
		system: 'kubestellar',
		category: 'state',
		term: 'Error',
		kinds: ['CombinedStatus'],
		meaning:
			'Some results carry rowErrors or aggregationErrors: a StatusCollector expression failed.',
		action:
			'Read the errors in results[] and fix the CEL expressions (filter, groupBy, combinedFields, select) of the StatusCollector.',
		source: 'kubestellar/kubestellar api/control/v1alpha1/types.go, pkg/status/combinedstatus.go',
	},
	{
		system: 'kubestellar',
		category: 'state',
		term: 'Pending',
		kinds: ['WorkStatus'],
		meaning:
			'The WEC has not returned the status of the workload yet: the WorkStatus has no status.',
		action:
			'Check that the workload reached the WEC (kubectl get manifestwork -n <wec> in the ITS) and that the status add-on agent runs on that WEC.',
		source: 'kubestellar/ocm-status-addon workstatus_types.go',
	},
	{
		system: 'kubestellar',
		category: 'state',
		term: 'Current',
		kinds: ['WorkStatus'],
		meaning: "The WEC's copy of the workload is ready by kstatus rules.",
		action: '',
		source: workStatusSource,
	},
	{
		system: 'kubestellar',
		category: 'state',
		term: 'InProgress',
		kinds: ['WorkStatus'],
		meaning: "The WEC's copy of the workload is still rolling out by kstatus rules.",
		action: 'Wait; if it stays, inspect the workload on that WEC with kubectl describe.',
		source: workStatusSource,
	},
	{
		system: 'kubestellar',
		category: 'state',
		term: 'Failed',
		kinds: ['WorkStatus'],
		meaning:
			"The WEC's copy of the workload failed by kstatus rules, for example a crash-looping Pod or an exceeded progress deadline.",
		action: 'Inspect the workload on that WEC with kubectl describe and kubectl get events.',
		source: workStatusSource,
	},
	{
		system: 'kubestellar',
		category: 'state',
		term: 'Terminating',
		kinds: ['WorkStatus'],
		meaning: "The WEC's copy of the workload is being deleted.",
		action: 'If it hangs, look for finalizers on the object in that WEC.',
		source: workStatusSource,
	},
	{
		system: 'kubestellar',
		category: 'state',
		term: 'Unknown',
		kinds: ['WorkStatus'],
		meaning:
			"kstatus could not rate the WEC's copy, for example an unknown Pod phase, or spec.sourceRef is missing.",
		action:
			'Look at the WorkStatus with kubectl get workstatus -n <wec> <name> -o yaml in the ITS.',
		source: workStatusSource,
	},
	{
		system: 'kubestellar',
		category: 'condition',
		term: 'Ready',
		kinds: bindingKinds,
		polarity: 'positive',
		meaning:
			'Defined by the API for BindingPolicy and Binding, but no controller in the analysed release sets it, so its absence means nothing.',
		action: '',
		source: 'kubestellar/kubestellar api/control/v1alpha1/conditions.go',
	},
	{
		system: 'kubestellar',
		category: 'condition',
		term: 'Synced',
		kinds: bindingKinds,
		polarity: 'positive',
		meaning:
			'Defined by the API for BindingPolicy and Binding, but no controller in the analysed release sets it, so its absence means nothing.',
		action: '',
		source: 'kubestellar/kubestellar api/control/v1alpha1/conditions.go',
	},
	{
		system: 'kubestellar',
		category: 'condition',
		term: 'StatusCollectorsAvailable',
		kinds: ['Binding'],
		polarity: 'positive',
		meaning:
			'True when every StatusCollector named in the downsync clauses exists; when False the message lists the missing ones.',
		action:
			'Create the missing StatusCollector objects in the WDS or remove their names from statusCollectors.',
		source: 'kubestellar/kubestellar pkg/status/binding.go',
	},
	{
		system: 'kubestellar',
		category: 'field',
		term: 'clusterSelectors',
		kinds: ['BindingPolicy'],
		meaning:
			'Label selectors that choose the destination WECs; a cluster matching any one of them is a destination.',
		action:
			'Compare them with the labels of the inventory clusters (kubectl get managedclusters --show-labels in the ITS).',
		source: 'kubestellar/kubestellar api/control/v1alpha1/types.go',
	},
	{
		system: 'kubestellar',
		category: 'field',
		term: 'downsync',
		kinds: ['BindingPolicy'],
		meaning:
			'Clauses that choose which WDS objects go to the selected WECs: every criterion of a clause must match, any entry of a list may match; each clause also carries the modulation flags.',
		action: '',
		source: 'kubestellar/kubestellar api/control/v1alpha1/types.go',
	},
	{
		system: 'kubestellar',
		category: 'field',
		term: 'createOnly',
		meaning:
			'When true, the object is created in the WEC and never updated afterwards, so later WDS changes do not reach it.',
		action: '',
		source: 'kubestellar/kubestellar api/control/v1alpha1/types.go',
	},
	{
		system: 'kubestellar',
		category: 'field',
		term: 'statusCollectors',
		meaning:
			'Names of StatusCollector objects whose results are combined, per workload, into a CombinedStatus object.',
		action: '',
		source: 'kubestellar/kubestellar api/control/v1alpha1/types.go',
	},
	{
		system: 'kubestellar',
		category: 'field',
		term: 'wantSingletonReportedState',
		meaning:
			"When true and the object goes to exactly one WEC, that WEC's .status is copied verbatim into the WDS object, labelled managed-by.kubestellar.io/singletonstatus=true. With any other number of WECs the status is cleared and the BindingPolicy reports an error.",
		action: '',
		source: `${kubestellarProposal('Current Scenario')}; kubestellar/kubestellar pkg/status/singletonstatus.go`,
	},
	{
		system: 'kubestellar',
		category: 'field',
		term: 'wantMultiWECReportedState',
		meaning:
			'When true, the statuses from all qualifying WECs are written into the WDS object: one WEC is copied verbatim; several are merged for Deployment, ReplicaSet and DaemonSet (smallest counts, worst failure condition); other kinds are left untouched.',
		action:
			'Expect merged Deployments without Available/Progressing conditions: Argo CD rates them by counts, kstatus keeps them InProgress.',
		source: `${kubestellarProposal('Solution Approach')}; kubestellar/kubestellar pkg/status/multiwec-status.go`,
	},
	{
		system: 'kubestellar',
		category: 'field',
		term: 'WorkStatus',
		meaning:
			"An object in the ITS, in the namespace named after a WEC, holding a copy of one workload's .status as that WEC reports it; spec.sourceRef names the WDS object.",
		action: '',
		source: `${kubestellarProposal('Goal')}; kubestellar/ocm-status-addon workstatus_types.go`,
	},
	{
		system: 'kubestellar',
		category: 'field',
		term: 'errors',
		kinds: bindingKinds,
		meaning:
			'status.errors: problems the controller found while processing the policy, one line each.',
		action: kubestellarPolicyAction,
		source: 'kubestellar/kubestellar pkg/binding/binding.go',
	},
	{
		system: 'kubestellar',
		category: 'field',
		term: 'managed-by.kubestellar.io/singletonstatus',
		meaning:
			'Label on a WDS object whose .status is a verbatim copy of the status from a single WEC.',
		action: '',
		source: 'kubestellar/kubestellar pkg/status/singletonstatus.go, workstatus.go',
	},
	{
		system: 'kubestellar',
		category: 'field',
		term: 'managed-by.kubestellar.io/multiwecstatus',
		meaning: 'Label on a WDS object whose .status was merged from several WECs.',
		action: '',
		source: 'kubestellar/kubestellar pkg/status/multiwec-status.go, workstatus.go',
	},
];

const harborDependencyAction =
	'Check the dependency whose condition is not True, in the HarborCluster namespace: kubectl get tenant (storage), postgresql (database), redisfailover (cache) or harbor (service); then the harbor-operator logs.';

/** Harbor rows: HarborCluster overall states, component states, conditions, legacy reasons and fields. */
const harborExplanations: readonly Explanation[] = [
	{
		system: 'harbor',
		category: 'state',
		term: 'healthy',
		kinds: ['HarborCluster'],
		meaning: 'StorageReady, DatabaseReady, CacheReady and ServiceReady are all True.',
		action: '',
		source: harborOverallSource,
	},
	{
		system: 'harbor',
		category: 'state',
		term: 'unhealthy',
		kinds: ['HarborCluster'],
		meaning: 'At least one of StorageReady, DatabaseReady, CacheReady and ServiceReady is False.',
		action: harborDependencyAction,
		source: harborOverallSource,
	},
	{
		system: 'harbor',
		category: 'state',
		term: 'provisioning',
		kinds: ['HarborCluster'],
		meaning:
			'None of the four dependency conditions is False, but not all are True yet; the operator\'s docs call this state "creating". Harbor itself is deployed only after storage, database and cache are ready.',
		action: `Wait. If it lasts: ${harborDependencyAction}`,
		source: `${harborStatusCode} (overallStatus); ${harborOverallSource}`,
	},
	{
		system: 'harbor',
		category: 'state',
		term: 'creating',
		kinds: ['HarborCluster'],
		meaning:
			"The word the operator's docs use for the state its code writes and kubectl get shows as provisioning.",
		action: `Wait. If it lasts: ${harborDependencyAction}`,
		source: harborOverallSource,
	},
	{
		system: 'harbor',
		category: 'state',
		term: 'Ready',
		meaning:
			'A Harbor component (Harbor, Core, Registry, JobService, Portal and so on) has neither InProgress nor Failed True.',
		action: '',
		source: harborComponentCode,
	},
	{
		system: 'harbor',
		category: 'state',
		term: 'InProgress',
		meaning:
			'A Harbor component has InProgress True: the operator is rolling out a new generation or retrying.',
		action:
			'Wait; if it stays, check the component Deployment with kubectl describe and the harbor-operator logs.',
		source: harborComponentCode,
	},
	{
		system: 'harbor',
		category: 'state',
		term: 'Failed',
		meaning: 'A Harbor component has Failed True: its last reconcile failed.',
		action: 'Read the Failed condition message and the harbor-operator logs.',
		source: harborComponentCode,
	},
	{
		system: 'harbor',
		category: 'state',
		term: 'Unknown',
		kinds: ['Harbor'],
		meaning:
			'The Harbor has neither a Failed nor an InProgress condition, whatever else it says: the HarborCluster controller reports "The ready condition of harbor.goharbor.io is empty" until the Harbor controller writes them.',
		action:
			'Wait a few minutes; if it stays, check that harbor-operator is running and read its logs.',
		source:
			'goharbor/harbor-operator pkg/cluster/controllers/harbor/harbor.go (harborClusterCRStatus)',
	},
	{
		system: 'harbor',
		category: 'state',
		term: 'Unknown',
		meaning: 'The status cannot be read, or a component has not been reconciled yet.',
		action:
			'Check that harbor-operator is running and look at the raw object with kubectl get -o yaml.',
		source: harborComponentCode,
	},
	{
		system: 'harbor',
		category: 'condition',
		term: 'StorageReady',
		kinds: ['HarborCluster'],
		polarity: 'positive',
		meaning:
			'The in-cluster MinIO storage is ready; always True when the HarborCluster uses external storage.',
		action: 'Check the MinIO tenant: kubectl get tenant -n <namespace> and its pods.',
		source: harborConditionsSource,
	},
	{
		system: 'harbor',
		category: 'condition',
		term: 'DatabaseReady',
		kinds: ['HarborCluster'],
		polarity: 'positive',
		meaning:
			'The in-cluster PostgreSQL database is ready; always True when the HarborCluster uses an external database.',
		action: 'Check the database: kubectl get postgresql -n <namespace> and its pods.',
		source: harborConditionsSource,
	},
	{
		system: 'harbor',
		category: 'condition',
		term: 'CacheReady',
		kinds: ['HarborCluster'],
		polarity: 'positive',
		meaning:
			'The in-cluster Redis cache is ready; always True when the HarborCluster uses an external cache.',
		action: 'Check the cache: kubectl get redisfailover -n <namespace> and its pods.',
		source: harborConditionsSource,
	},
	{
		system: 'harbor',
		category: 'condition',
		term: 'ServiceReady',
		kinds: ['HarborCluster'],
		polarity: 'positive',
		meaning:
			'Harbor itself is ready. The operator deploys Harbor only after the three dependencies are True, so this is the last to turn True.',
		action:
			'Check the Harbor CR and its components: kubectl get harbor -n <namespace>, then kubectl describe on the failing one.',
		source: harborConditionsSource,
	},
	{
		system: 'harbor',
		category: 'condition',
		term: 'ConfigurationReady',
		kinds: ['HarborCluster'],
		polarity: 'positive',
		meaning:
			'The day-2 configuration from the ConfigMap was applied. It does not count towards healthy/unhealthy, so a healthy cluster can carry a failed configuration.',
		action: 'Read the message, fix the configuration ConfigMap and check the harbor-operator logs.',
		source: harborConditionsSource,
	},
	{
		system: 'harbor',
		category: 'condition',
		term: 'Ready',
		polarity: 'positive',
		meaning:
			'General readiness written by the operator. For a HarborCluster the badge follows .status.status and the four dependency conditions instead.',
		action: '',
		source: harborComponentCode,
	},
	{
		system: 'harbor',
		category: 'condition',
		term: 'InProgress',
		polarity: 'negative',
		meaning:
			'Legacy kstatus-style condition: True while a reconcile handles a new generation or retries a recoverable error. On a HarborCluster it is written from a copy taken at reconcile start and may be stale.',
		action: '',
		source: harborComponentCode,
	},
	{
		system: 'harbor',
		category: 'condition',
		term: 'Failed',
		polarity: 'negative',
		meaning:
			'Legacy kstatus-style condition: True when the last reconcile failed. On a HarborCluster it may be stale, like InProgress.',
		action: 'Read the message and the harbor-operator logs.',
		source: harborComponentCode,
	},
	{
		system: 'harbor',
		category: 'reason',
		term: 'newGeneration',
		meaning: 'InProgress is True because the spec changed and the operator started reconciling it.',
		action: '',
		source: harborComponentCode,
	},
	{
		system: 'harbor',
		category: 'reason',
		term: 'recoverrableError',
		meaning:
			"InProgress is True because the operator hit an error it will retry (the spelling is the operator's own).",
		action: 'If it repeats, read the message and the harbor-operator logs.',
		source: harborComponentCode,
	},
	{
		system: 'harbor',
		category: 'field',
		term: 'status',
		kinds: ['HarborCluster'],
		meaning:
			'.status.status, the overall state the operator wrote: healthy, unhealthy or provisioning. It is rewritten only when the revision changes.',
		action: '',
		source: harborStatusCode,
	},
	{
		system: 'harbor',
		category: 'field',
		term: 'observedGeneration',
		kinds: ['HarborCluster'],
		meaning:
			'Copied from metadata.generation at the start of every reconcile, before any work is done, so a match says nothing about completion; the badge ignores it.',
		action: '',
		source: harborComponentCode,
	},
];

const fluxReconcileAction =
	'Run flux reconcile source helm <name> (for other kinds, flux reconcile <kind> <name>) to retry now.';
const fluxFetchAction =
	'Read the message; check spec.url, the Secret in spec.secretRef and the TLS Secret in spec.certSecretRef, then flux reconcile source helm <name>.';

/** Flux rows: the badge states, the source-controller conditions (with polarity) and their reasons. */
const fluxExplanations: readonly Explanation[] = [
	{
		system: 'flux',
		category: 'state',
		term: 'Ready',
		meaning:
			'The latest spec is reconciled: Ready is True for the generation the controller last observed (for a source, its artifact is stored).',
		action: '',
		source: 'fluxcd/pkg apis/meta conditions.go (ReadyCondition)',
	},
	{
		system: 'flux',
		category: 'state',
		term: 'Ready',
		kinds: ['HelmRepository'],
		meaning:
			'The latest spec is reconciled: Ready is True and the artifact is stored. An oci HelmRepository has no status and counts as ready once it exists.',
		action: '',
		source: `${fluxSpec('Ready HelmRepository')}, "Helm OCI repository"`,
	},
	{
		system: 'flux',
		category: 'state',
		term: 'Reconciling',
		meaning:
			'The controller is working: Reconciling or ArtifactOutdated is True, Ready is Unknown, or the latest generation is not observed yet.',
		action: `Wait for the next reconcile. ${fluxReconcileAction}`,
		source: `${fluxSpec('Reconciling HelmRepository')}, "Observed Generation"`,
	},
	{
		system: 'flux',
		category: 'state',
		term: 'Stalled',
		meaning:
			'Stalled is True: the controller cannot succeed without a spec change and stopped retrying, for example a URL with an unsupported scheme.',
		action:
			'Fix the spec as the message says; the controller tries again as soon as the spec changes.',
		source: fluxSpec('Stalled HelmRepository'),
	},
	{
		system: 'flux',
		category: 'state',
		term: 'Failed',
		meaning:
			'Ready is False or FetchFailed/StorageOperationFailed is True: the last attempt failed and the controller retries with backoff.',
		action: fluxFetchAction,
		source: fluxSpec('Failed HelmRepository'),
	},
	{
		system: 'flux',
		category: 'state',
		term: 'Failed',
		kinds: ['GitRepository'],
		meaning:
			'Ready is False or FetchFailed is True: the last clone or checkout failed and the controller retries at spec.interval.',
		action:
			'Read the message; check spec.url, spec.ref and the credentials Secret in spec.secretRef, then flux reconcile source git <name>.',
		source: 'fluxcd/source-controller docs/spec/v1/gitrepositories.md, "Conditions"',
	},
	{
		system: 'flux',
		category: 'state',
		term: 'Ready',
		kinds: ['FluxReport'],
		meaning:
			'The Flux Operator finished its report (Ready True, reason Succeeded): Ready says the report ran, not that Flux is healthy. What it found is in spec: the distribution, each component, the failing and suspended reconcilers by kind, and the sync; the badge is a warning when any of those is not well.',
		action:
			'Read the lines the report gives; Explain the failing objects of each kind it counts (flux get all -A lists them).',
		source:
			'controlplaneio-fluxcd/flux-operator api/v1 FluxReport, internal/reporter (components, reconcilers, sync)',
	},
	{
		system: 'flux',
		category: 'state',
		term: 'Ready',
		kinds: ['FluxInstance', 'ResourceSet', 'ResourceSetInputProvider'],
		meaning:
			'Ready is True: the Flux Operator applied what the object generates (a FluxInstance: the Flux distribution and its controllers; a ResourceSet: its resources for each input) and its health checks passed (ReconciliationSucceeded), or reconciling is disabled by the annotation fluxcd.controlplane.io/reconcile (ReconciliationDisabled).',
		action: '',
		source:
			'controlplaneio-fluxcd/flux-operator internal/controller (FluxInstance, ResourceSet, ResourceSetInputProvider)',
	},
	{
		system: 'flux',
		category: 'state',
		term: 'Failed',
		kinds: ['Kustomization'],
		meaning:
			'Ready is False: the last reconcile failed, or waits for a dependency in spec.dependsOn (DependencyNotReady) or for its source artifact (ArtifactFailed), and is retried.',
		action:
			'Fix what the message names first (a dependency or source that is not ready: see the chain), then flux reconcile kustomization <name> --with-source.',
		source:
			'fluxcd/kustomize-controller docs/spec/v1/kustomizations.md, "Dependencies", "Kustomization Status"',
	},
	{
		system: 'flux',
		category: 'state',
		term: 'Failed',
		kinds: ['HelmRelease'],
		meaning:
			'Ready is False: the last install, upgrade or test failed, or it waits for a dependency in spec.dependsOn (DependencyNotReady) or for its chart, and is retried.',
		action:
			'Fix what the message names first (a dependency or chart source that is not ready: see the chain), then flux reconcile helmrelease <name> --with-source.',
		source:
			'fluxcd/helm-controller docs/spec/v2/helmreleases.md, "Dependencies", "HelmRelease Status"',
	},
	{
		system: 'flux',
		category: 'state',
		term: 'Suspended',
		meaning:
			'spec.suspend is true: the controller does not reconcile the object, and its status is from before the suspension.',
		action: 'Run flux resume source helm <name>, or remove spec.suspend in Git.',
		source: fluxSpec('Suspend'),
	},
	{
		system: 'flux',
		category: 'state',
		term: 'Unknown',
		meaning:
			'There is no status or no Ready condition yet: the controller has not reconciled the object.',
		action:
			'Run flux check and read the source-controller logs: kubectl -n flux-system logs deploy/source-controller.',
		source: fluxSpec('Conditions'),
	},
	{
		system: 'flux',
		category: 'condition',
		term: 'Ready',
		polarity: 'positive',
		meaning:
			'True (reason Succeeded) when the artifact is stored, exists in storage and matches the latest upstream revision; Unknown while reconciling; False after a failure.',
		action: '',
		source: fluxSpec('Ready HelmRepository'),
	},
	{
		system: 'flux',
		category: 'condition',
		term: 'Reconciling',
		polarity: 'negative',
		meaning:
			'Present and True while the controller works on the object: no artifact yet, a new generation, or a new upstream revision.',
		action: '',
		source: fluxSpec('Reconciling HelmRepository'),
	},
	{
		system: 'flux',
		category: 'condition',
		term: 'Stalled',
		polarity: 'negative',
		meaning: 'Present and True when the controller has given up until the spec changes.',
		action: 'Fix the spec as the message says.',
		source: fluxSpec('Stalled HelmRepository'),
	},
	{
		system: 'flux',
		category: 'condition',
		term: 'FetchFailed',
		polarity: 'negative',
		meaning:
			'Present and True when fetching the repository index failed: URL unreachable, missing Secret, wrong credentials or misconfiguration.',
		action: fluxFetchAction,
		source: fluxSpec('Failed HelmRepository'),
	},
	{
		system: 'flux',
		category: 'condition',
		term: 'ArtifactOutdated',
		polarity: 'negative',
		meaning: 'Present and True when upstream has a newer revision than the stored artifact.',
		action: '',
		source: fluxSpec('Reconciling HelmRepository'),
	},
	{
		system: 'flux',
		category: 'condition',
		term: 'ArtifactInStorage',
		polarity: 'positive',
		meaning: "True while the reported artifact exists in the controller's storage.",
		action: 'If it turns False, run flux reconcile source helm <name> to rebuild the artifact.',
		source: fluxSpec('Ready HelmRepository'),
	},
	{
		system: 'flux',
		category: 'condition',
		term: 'StorageOperationFailed',
		polarity: 'negative',
		meaning:
			"Present and True when writing or reading the artifact in the controller's storage failed.",
		action:
			'Check the source-controller storage volume and logs: kubectl -n flux-system logs deploy/source-controller.',
		source: fluxSpec('Failed HelmRepository'),
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'Succeeded',
		meaning: 'Ready or ArtifactInStorage is True: the artifact for the latest revision is stored.',
		action: '',
		source: fluxSpec('Ready HelmRepository'),
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'ReconciliationSucceeded',
		meaning: 'Ready is True: the last reconcile applied everything and the health checks passed.',
		action: '',
		source:
			'fluxcd/kustomize-controller internal/controller (kustomization_controller.go), fluxcd/pkg apis/meta',
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'ReconciliationFailed',
		meaning:
			'Ready is False: the last reconcile failed (an apply, a build or a health check error); the controller retries on its interval.',
		action:
			'Read the Ready message for the failing object or error; Explain follows a dependency or source it waits for.',
		source:
			'fluxcd/kustomize-controller internal/controller (kustomization_controller.go), fluxcd/pkg apis/meta',
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'BuildFailed',
		meaning:
			'Ready is False (and Stalled True for a terminal error): the manifests could not be built, e.g. a kustomize or template error.',
		action:
			'Fix the source (kustomization.yaml, the template or its inputs); the controller retries when the source or spec changes.',
		source:
			'fluxcd/kustomize-controller internal/controller (kustomization_controller.go), fluxcd/pkg apis/meta',
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'HealthCheckFailed',
		meaning:
			'Ready or Healthy is False: an applied object did not become ready within spec.timeout.',
		action:
			'Read which object the message names and inspect it on the cluster (kubectl describe); a custom resource is rated by spec.healthCheckExprs when its kind has an entry.',
		source:
			'fluxcd/kustomize-controller internal/controller (kustomization_controller.go), fluxcd/pkg apis/meta',
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'DependencyNotReady',
		meaning:
			'Ready is False: an object in spec.dependsOn is not Ready yet (or its readyExpr is false); the controller waits and retries.',
		action: 'Explain the object: the chain names the dependency and why it is not ready.',
		source:
			'fluxcd/kustomize-controller internal/controller (kustomization_controller.go), fluxcd/pkg apis/meta',
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'InvalidCELExpression',
		meaning:
			'Ready is False and Stalled True: a CEL expression (spec.healthCheckExprs, dependsOn readyExpr) does not parse; the controller stops until the spec changes.',
		action: 'Fix the expression the message quotes; the diagnostic on the manifest points at it.',
		source:
			'fluxcd/kustomize-controller internal/controller (kustomization_controller.go), fluxcd/pkg apis/meta (healthCheckExprs, RFC 0009)',
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'ReconciliationDisabled',
		meaning:
			'Flux Operator: Ready is True with this reason when the annotation fluxcd.controlplane.io/reconcile: disabled is set: the operator does not reconcile the object.',
		action:
			'Remove the annotation (or set it to enabled) to resume; flux-operator resume does the same.',
		source:
			'controlplaneio-fluxcd/flux-operator internal/controller (FluxInstance, ResourceSet, ResourceSetInputProvider)',
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'HealthCheckCanceled',
		meaning:
			'Flux Operator: Ready is False: the health checks of a FluxInstance were cancelled, usually by a newer reconcile.',
		action: 'Nothing, unless it repeats: then look at what keeps changing the FluxInstance.',
		source:
			'controlplaneio-fluxcd/flux-operator internal/controller (FluxInstance, ResourceSet, ResourceSetInputProvider)',
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'InvalidSchedule',
		meaning:
			'Flux Operator: Ready is False and Stalled True: a ResourceSetInputProvider schedule (cron) does not parse.',
		action: 'Fix spec.schedule.',
		source:
			'controlplaneio-fluxcd/flux-operator internal/controller (FluxInstance, ResourceSet, ResourceSetInputProvider)',
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'SkippedDueToSchedule',
		meaning:
			'Flux Operator: Ready is True: the ResourceSetInputProvider skipped this reconcile because its schedule window is closed.',
		action: '',
		source:
			'controlplaneio-fluxcd/flux-operator internal/controller (FluxInstance, ResourceSet, ResourceSetInputProvider)',
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'InvalidDefaultValues',
		meaning:
			'Flux Operator: Ready is False and Stalled True: spec.defaultValues of a ResourceSetInputProvider cannot be used.',
		action: 'Fix spec.defaultValues.',
		source:
			'controlplaneio-fluxcd/flux-operator internal/controller (FluxInstance, ResourceSet, ResourceSetInputProvider)',
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'InvalidExportedInputs',
		meaning:
			'Flux Operator: Ready is False and Stalled True: the inputs a ResourceSetInputProvider exported are invalid.',
		action: 'Read the message; fix the filter of the provider or the source it reads.',
		source:
			'controlplaneio-fluxcd/flux-operator internal/controller (FluxInstance, ResourceSet, ResourceSetInputProvider)',
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'InvalidSpec',
		meaning:
			'Flux Operator: Ready is False and Stalled True: the ResourceSetInputProvider spec is invalid for its type.',
		action: 'Fix the field the message names.',
		source:
			'controlplaneio-fluxcd/flux-operator internal/controller (FluxInstance, ResourceSet, ResourceSetInputProvider)',
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'Progressing',
		meaning: 'Reconciling is True on a normal pass.',
		action: '',
		source: fluxSpec('Reconciling HelmRepository'),
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'ProgressingWithRetry',
		meaning:
			'Reconciling is True again after a failed attempt: the controller retries with exponential backoff.',
		action: 'Read the FetchFailed or StorageOperationFailed message for the cause.',
		source: fluxSpec('Failed HelmRepository'),
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'NewRevision',
		meaning: 'ArtifactOutdated is True: upstream moved to a new revision that is not stored yet.',
		action: '',
		source: fluxSpec('Reconciling HelmRepository'),
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'AuthenticationFailed',
		meaning:
			'The credentials could not be used: the Secret in spec.secretRef is missing, incomplete or rejected by the server.',
		action:
			'Check the Secret named in spec.secretRef (username and password keys) and its namespace.',
		source: `${fluxSpec('Failed HelmRepository')}, "Secret reference"`,
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'IndexationFailed',
		meaning: 'The repository index could not be downloaded or parsed.',
		action:
			'Open spec.url plus /index.yaml from inside the cluster and check that it is a valid Helm index.',
		source: fluxSpec('Failed HelmRepository'),
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'Failed',
		meaning:
			'A generic failure, for example an unsupported URL scheme while building the Helm client.',
		action: 'Read the condition message.',
		source: `${fluxSpec('Failed HelmRepository')}, "Describe the HelmRepository"`,
	},
	{
		system: 'flux',
		category: 'reason',
		term: 'URLInvalid',
		meaning: 'Stalled is True because spec.url cannot work, for example an unsupported protocol.',
		action: 'Correct spec.url (http, https, or oci with spec.type oci).',
		source: fluxSpec('Stalled HelmRepository'),
	},
	{
		system: 'flux',
		category: 'field',
		term: 'suspend',
		meaning:
			'spec.suspend: when true the controller stops reconciling; kstatus does not see it, so the badge checks it. It does not apply to oci HelmRepositories.',
		action: 'flux suspend source helm <name> and flux resume source helm <name> toggle it.',
		source: `${fluxSpec('Suspend')}; fluxcd/source-controller helmrepository_controller.go`,
	},
	{
		system: 'flux',
		category: 'field',
		term: 'type',
		kinds: ['HelmRepository'],
		meaning:
			'spec.type: default for an HTTP/S repository with an index artifact; oci for a data container that never gets conditions.',
		action: '',
		source: `${fluxSpec('Type')}; fluxcd/source-controller helmrepository_controller.go`,
	},
];

const asoLogsAction =
	'kubectl logs -n azureserviceoperator-system deploy/azureserviceoperator-controller-manager';

/** ASO rows: the Ready condition, severities, reasons (including any Azure error code), v1 flags and states. */
const asoExplanations: readonly Explanation[] = [
	{
		system: 'aso',
		category: 'condition',
		term: 'Ready',
		polarity: 'positive',
		meaning:
			'The one condition every ASO resource reports. True (reason Succeeded) when the spec is applied in Azure; when False, severity and reason say whether the operator is working, retrying or has given up.',
		action: 'kubectl get <kind> <name> shows READY, SEVERITY, REASON and MESSAGE columns.',
		source: `${asoProposal('The Ready condition')}; ${asoConditionsCode}`,
	},
	{
		system: 'aso',
		category: 'severity',
		term: 'Error',
		meaning:
			'The operator has given up on this resource and will not retry until the object changes.',
		action:
			'Fix the spec (or the Azure side) as the message says; any change to the object starts a new attempt.',
		source: asoProposal('Severity meaning in the context of the Ready condition'),
	},
	{
		system: 'aso',
		category: 'severity',
		term: 'Warning',
		meaning:
			'Something is wrong but the operator keeps retrying: a transient Azure problem, or it waits for something you must provide.',
		action:
			'Read the reason and message; if it names a missing owner, Secret or reference, create it.',
		source: asoProposal('Severity meaning in the context of the Ready condition'),
	},
	{
		system: 'aso',
		category: 'severity',
		term: 'Info',
		meaning: 'Work in progress on the happy path, for example a request to Azure is running.',
		action: '',
		source: asoProposal('Severity meaning in the context of the Ready condition'),
	},
	{
		system: 'aso',
		category: 'severity',
		term: noSeverityTerm,
		meaning:
			'No severity: set when Ready is True or Unknown. A False Ready without severity is malformed.',
		action: '',
		source: `${asoProposal('The Ready condition')}; ${asoConditionsCode}`,
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'Succeeded',
		meaning: 'Ready is True: the spec was applied in Azure and nothing more is being changed.',
		action: '',
		source: asoProposal('The Reason field'),
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'Reconciling',
		meaning:
			'A request to Azure was submitted and the operator is waiting for the result (severity Info).',
		action: 'Wait; long-running Azure operations can take many minutes.',
		source: `${asoProposal('The Reason field')}; ${asoConditionsCode}`,
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'WaitingForOwner',
		meaning:
			'The owner named in spec.owner does not exist in Kubernetes yet; nothing happens until it does (severity Warning).',
		action:
			'Create the owner, or fix spec.owner: kubectl get <owner kind> <owner name> -n <namespace>.',
		source: `${asoProposal('The Reason field')}; ${asoConditionsCode}`,
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'Deleting',
		meaning: 'The resource is being deleted in Azure (severity Info).',
		action: `If it hangs, read the message and the operator logs: ${asoLogsAction}.`,
		source: `${asoProposal('The Reason field')}; ${asoConditionsCode}`,
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'SecretNotFound',
		meaning: 'A Secret the spec refers to does not exist; the operator retries quickly.',
		action: 'Create the Secret (and key) named in the message in the resource namespace.',
		source: asoConditionsCode,
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'ConfigMapNotFound',
		meaning: 'A ConfigMap the spec refers to does not exist; the operator retries quickly.',
		action: 'Create the ConfigMap (and key) named in the message in the resource namespace.',
		source: asoConditionsCode,
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'ReferenceNotFound',
		meaning:
			'Another ASO resource the spec refers to does not exist in the cluster; the operator retries quickly.',
		action: 'Create the referenced resource or fix the reference in the spec.',
		source: asoConditionsCode,
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'AzureResourceNotFound',
		meaning:
			'The resource could not be found in Azure when the operator read it back, for example it was deleted outside ASO or is adopted with reconcile-policy skip but does not exist.',
		action:
			'Check the resource in the Azure portal or with az resource show; recreate it or change the serviceoperator.azure.com/reconcile-policy annotation.',
		source: asoConditionsCode,
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'ReconciliationBlocked',
		meaning:
			'A resource-specific check blocks reconciling for now, for example while a dependent resource is in a state that forbids changes; retried later.',
		action: 'Read the message for what it waits on.',
		source: asoConditionsCode,
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'ReconciliationPostponed',
		meaning:
			'A resource-specific check decided nothing needs doing now; the next regular sync checks again.',
		action: '',
		source: asoConditionsCode,
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'PostReconciliationFailure',
		meaning:
			'Azure accepted the change, but a resource-specific check afterwards found the resource not in the expected state; retried later.',
		action: 'Read the message and check the resource in Azure.',
		source: asoConditionsCode,
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'FailedWritingAdditionalKubernetesObjects',
		meaning:
			'The Azure resource is fine, but exporting its secrets or config maps (spec.operatorSpec) failed, for example a key collision or a target Secret not owned by this resource.',
		action:
			'Fix spec.operatorSpec destinations so names and keys are unique and not owned by another object.',
		source: asoConditionsCode,
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'Failed',
		meaning: 'Catch-all failure without a more specific classification; retried slowly.',
		action: `Read the message; if unclear, the operator logs: ${asoLogsAction}.`,
		source: asoConditionsCode,
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'ReconciliationFailedPermanently',
		meaning: 'The operator gave up and will not retry (severity Error).',
		action: 'Fix the spec as the message says; any change to the object starts a new attempt.',
		source: asoConditionsCode,
	},
	{
		system: 'aso',
		category: 'reason',
		term: 'SubscriptionMismatch',
		meaning:
			'The Azure resource ID lies in a different subscription than the credential the operator uses for it.',
		action:
			'Fix the owner or ARM ID, or point the resource at a credential for that subscription (serviceoperator.azure.com/credential-from annotation).',
		source: asoConditionsCode,
	},
	{
		system: 'aso',
		category: 'reason',
		term: azureErrorCodeTerm,
		meaning:
			'When Azure rejects a request, its error code (for example BadRequest, AuthorizationFailed or InternalServerError) becomes the reason and the Azure message becomes the message; the severity says whether ASO retries.',
		action:
			'Look the code up in the Azure documentation for the resource provider; with severity Error fix the spec, with Warning the operator keeps retrying.',
		source: `${asoProposal('The Reason field')}; ${asoConditionsCode}`,
	},
	{
		system: 'aso',
		category: 'state',
		term: 'Unknown',
		meaning:
			'There is no Ready condition (or no reason) yet: the operator has not reconciled the resource, or the status cannot be read.',
		action: `Check that the operator runs and watches this namespace: ${asoLogsAction}.`,
		source: asoProposal('The Ready condition'),
	},
	{
		system: 'aso',
		category: 'state',
		term: 'Provisioning',
		meaning: 'ASO v1 resource with status.provisioning true: a request to Azure is in progress.',
		action: '',
		source: asoProposal('ASO v1 (handcrafted)'),
	},
	{
		system: 'aso',
		category: 'state',
		term: 'Accepted',
		meaning:
			'ASO v2 alpha resource whose state annotation says the Azure deployment was accepted and is running.',
		action: '',
		source: asoProposal('ASO v2 (auto-generated)'),
	},
	{
		system: 'aso',
		category: 'field',
		term: 'provisioning',
		meaning: 'ASO v1 flag: true while the operator provisions the resource in Azure.',
		action: '',
		source: asoProposal('ASO v1 (handcrafted)'),
	},
	{
		system: 'aso',
		category: 'field',
		term: 'provisioned',
		meaning: 'ASO v1 flag: true once the resource exists in Azure as specified.',
		action: '',
		source: asoProposal('ASO v1 (handcrafted)'),
	},
	{
		system: 'aso',
		category: 'field',
		term: 'failedProvisioning',
		meaning:
			'ASO v1 flag: true when provisioning in Azure failed; status.message carries the error.',
		action: 'Read status.message and fix the spec.',
		source: asoProposal('ASO v1 (handcrafted)'),
	},
	{
		system: 'aso',
		category: 'field',
		term: 'observedGeneration',
		meaning:
			'The generation the Ready condition describes; lower than metadata.generation means the latest change is not processed yet.',
		action: '',
		source: asoConditionsCode,
	},
];

const describeAction = 'Run kubectl describe on the object and read its events.';
const waitThenDescribeAction =
	'Wait; if it stays, run kubectl describe on the object and read its events.';

/** kstatus rows: the four statuses (plus Unknown for a compute error), its standard conditions and its reasons. */
const kstatusExplanations: readonly Explanation[] = [
	{
		system: 'kstatus',
		category: 'state',
		term: 'Current',
		meaning: 'The object has reached its desired state and the latest generation is observed.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'state',
		term: 'InProgress',
		meaning:
			'The object is still moving towards its desired state: a new generation is not observed yet, Reconciling is True, Ready is not True, or a kind-specific count is short.',
		action: waitThenDescribeAction,
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'state',
		term: 'Failed',
		meaning:
			'The object cannot reach its desired state without help: Stalled is True or a kind-specific failure such as a crash loop or a failed Job.',
		action: describeAction,
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'state',
		term: 'Terminating',
		meaning: 'metadata.deletionTimestamp is set: the object is being deleted.',
		action: 'If it hangs, check metadata.finalizers and the controller that owns them.',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'state',
		term: 'Unknown',
		meaning:
			'kstatus could not compute a status, for example an unknown Pod phase or a generation that is not an integer.',
		action: 'Look at the raw object with kubectl get -o yaml.',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'condition',
		term: 'Reconciling',
		polarity: 'negative',
		meaning:
			'True while the controller works towards the desired state; kstatus then reports InProgress.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'condition',
		term: 'Stalled',
		polarity: 'negative',
		meaning:
			'True when the controller hit an error or made no progress; kstatus then reports Failed.',
		action: describeAction,
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'condition',
		term: 'Ready',
		polarity: 'positive',
		meaning:
			'Checked after the generic and kind-specific rules: True gives Current; False or Unknown gives InProgress, never Failed.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'LatestGenerationNotObserved',
		meaning:
			'status.observedGeneration is behind metadata.generation: the controller has not seen the latest spec.',
		action: 'Wait; if it stays, check that the controller for this kind is running.',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'NoIPAssigned',
		kinds: ['Service'],
		meaning: 'A LoadBalancer Service has no spec.clusterIP yet.',
		action: describeAction,
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'NotBound',
		kinds: ['PersistentVolumeClaim'],
		meaning: 'The claim is not Bound to a volume yet.',
		action: 'Check the StorageClass and provisioner; kubectl describe pvc <name> shows why.',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'PodRunningNotReady',
		kinds: ['Pod'],
		meaning: 'The Pod runs but its Ready condition is not True.',
		action: 'Check the readiness probes and container logs.',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'ContainerCrashLooping',
		kinds: ['Pod'],
		meaning: 'At least one container is in CrashLoopBackOff (kstatus Failed).',
		action: 'Run kubectl logs --previous for the named containers.',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'PodNotScheduled',
		kinds: ['Pod'],
		meaning: 'The Pod is unschedulable but was created less than 15 seconds ago.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'PodUnschedulable',
		kinds: ['Pod'],
		meaning: 'The scheduler cannot place the Pod (kstatus Failed).',
		action: 'kubectl describe pod shows why: resources, taints, affinity or volume topology.',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'PodPending',
		kinds: ['Pod'],
		meaning: 'The Pod is Pending, for example pulling images.',
		action: describeAction,
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'PodNotObserved',
		kinds: ['Pod'],
		meaning: 'The Pod has no phase yet.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'LessReplicas',
		kinds: ['Deployment', 'StatefulSet'],
		meaning: 'Fewer replicas exist than spec.replicas asks for.',
		action: describeAction,
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'LessReady',
		kinds: ['Deployment', 'StatefulSet', 'ReplicaSet', 'DaemonSet'],
		meaning: 'Fewer replicas are ready than desired.',
		action:
			'Check the Pods: kubectl get pods -l <selector> and kubectl describe on a non-ready one.',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'ExtraPods',
		kinds: ['Deployment', 'StatefulSet', 'ReplicaSet'],
		meaning: 'More replicas exist than desired: old Pods are still terminating.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'PartitionRollout',
		kinds: ['StatefulSet'],
		meaning: 'A partitioned rolling update has not updated all Pods above the partition yet.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'LessCurrent',
		kinds: ['StatefulSet', 'DaemonSet'],
		meaning: 'Not all Pods run the current revision or are scheduled yet.',
		action: describeAction,
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'RevisionMismatch',
		kinds: ['StatefulSet'],
		meaning: 'The rolling update is not finished: currentRevision differs from updateRevision.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'ProgressDeadlineExceeded',
		kinds: ['Deployment'],
		meaning: 'The rollout made no progress within spec.progressDeadlineSeconds (kstatus Failed).',
		action: 'Check the new ReplicaSet and its Pods: images, probes, quotas.',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'LessUpdated',
		kinds: ['Deployment', 'DaemonSet'],
		meaning: 'Not all replicas run the latest Pod template yet.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'LessAvailable',
		kinds: ['Deployment', 'ReplicaSet', 'DaemonSet'],
		meaning: 'Fewer replicas are available than desired or updated.',
		action: describeAction,
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'ReplicaSetNotAvailable',
		kinds: ['Deployment'],
		meaning: 'The Progressing condition does not yet report the new ReplicaSet as available.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'DeploymentNotAvailable',
		kinds: ['Deployment'],
		meaning: 'The Available condition is not True.',
		action: describeAction,
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'ReplicaFailure',
		kinds: ['ReplicaSet'],
		meaning:
			'The ReplicaSet could not create Pods, for example because of a quota (kstatus stays InProgress).',
		action: 'kubectl describe replicaset <name> shows the failure event.',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'LessLabelled',
		kinds: ['ReplicaSet'],
		meaning: 'Fewer Pods carry the full label set than desired.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'NoGeneration',
		kinds: ['DaemonSet'],
		meaning: 'metadata.generation is missing.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'NoObservedGeneration',
		kinds: ['DaemonSet'],
		meaning: 'status.observedGeneration is missing: the controller has not reported yet.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'NoDesiredNumber',
		kinds: ['DaemonSet'],
		meaning: 'status.desiredNumberScheduled is missing.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'JobFailed',
		kinds: ['Job'],
		meaning: 'The Job has a Failed condition (kstatus Failed).',
		action: 'Read the logs of the failed Pods: kubectl logs job/<name>.',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'JobNotStarted',
		kinds: ['Job'],
		meaning: 'The Job has no status.startTime yet.',
		action: '',
		source: kstatusSource,
	},
	{
		system: 'kstatus',
		category: 'reason',
		term: 'Installing',
		kinds: ['CustomResourceDefinition'],
		meaning: 'The CRD is not Established yet.',
		action: '',
		source: kstatusSource,
	},
];

/** Argo CD health rows: the six health codes, best to worst. */
const argocdExplanations: readonly Explanation[] = [
	{
		system: 'argocd',
		category: 'state',
		term: 'Healthy',
		meaning: 'Argo CD rates the resource healthy by its health check for this kind.',
		action: '',
		source: argocdSource,
	},
	{
		system: 'argocd',
		category: 'state',
		term: 'Suspended',
		meaning:
			'The resource is paused or suspended on purpose, for example a paused Deployment or spec.suspend on a Flux object.',
		action: 'Resume it when intended (unpause, or flux resume).',
		source: argocdSource,
	},
	{
		system: 'argocd',
		category: 'state',
		term: 'Progressing',
		meaning:
			'The resource is not healthy yet but may get there: a rollout, a pending Pod, or deletion pending.',
		action: waitThenDescribeAction,
		source: argocdSource,
	},
	{
		system: 'argocd',
		category: 'state',
		term: 'Missing',
		meaning:
			'The resource does not exist in the cluster; an Application with no live resources is Missing too.',
		action: 'Sync the Application, or apply the manifest.',
		source: argocdSource,
	},
	{
		system: 'argocd',
		category: 'state',
		term: 'Degraded',
		meaning:
			'The health check found a failure, for example an exceeded progress deadline, a failed Job or a crash-looping Pod.',
		action: describeAction,
		source: argocdSource,
	},
	{
		system: 'argocd',
		category: 'state',
		term: 'Unknown',
		meaning: 'The health check failed or could not decide, for example an unsupported API version.',
		action: 'Look at the raw object with kubectl get -o yaml.',
		source: argocdSource,
	},
];

/** Every catalog row, grouped by system. */
export const explanations: readonly Explanation[] = [
	...fleetExplanations,
	...kubestellarExplanations,
	...harborExplanations,
	...fluxExplanations,
	...asoExplanations,
	...kstatusExplanations,
	...argocdExplanations,
];

function keyOf(system: string, category: string, term: string, kind?: string): string {
	return kind === undefined
		? `${system}\u0000${category}\u0000${term}`
		: `${system}\u0000${category}\u0000${term}\u0000${kind}`;
}

// Three indexes built once at load: system-wide rows, kind-specific rows per kind, and the first kind-specific row
// of a term (used only when the caller gives no kind), so that every lookup is a constant number of Map reads.
const systemWide = new Map<string, Explanation>();
const perKind = new Map<string, Explanation>();
const firstKindSpecific = new Map<string, Explanation>();
const bySystem = new Map<ExplanationSystem, Explanation[]>();

for (const row of explanations) {
	const key = keyOf(row.system, row.category, row.term);
	if (row.kinds === undefined) {
		if (!systemWide.has(key)) systemWide.set(key, row);
	} else {
		if (!firstKindSpecific.has(key)) firstKindSpecific.set(key, row);
		for (const kind of row.kinds) {
			const kindKey = keyOf(row.system, row.category, row.term, kind);
			if (!perKind.has(kindKey)) perKind.set(kindKey, row);
		}
	}
	const list = bySystem.get(row.system);
	if (list) list.push(row);
	else bySystem.set(row.system, [row]);
}

// The `kubernetes` system is rated by kstatus alone, so its words are kstatus words.
function catalogSystem(system: ExplanationSystem): ExplanationSystem {
	return system === 'kubernetes' ? 'kstatus' : system;
}

function lookup(
	system: ExplanationSystem,
	category: ExplanationCategory,
	term: string,
	kind: string | undefined,
): Explanation | undefined {
	if (kind !== undefined) {
		return (
			perKind.get(keyOf(system, category, term, kind)) ??
			systemWide.get(keyOf(system, category, term))
		);
	}
	const key = keyOf(system, category, term);
	return systemWide.get(key) ?? firstKindSpecific.get(key);
}

/**
 * The explanation of a term: the row for `kind` if there is one, else the system-wide row; without a kind, a
 * kind-specific row is used when no system-wide row exists. For ASO, a state word falls back to the reason of the same
 * name (the engine's state is the Ready reason), an empty severity reads as `None`, and any unlisted non-empty reason
 * or state gets the generic Azure-error-code row. `kubernetes` is looked up as `kstatus`.
 */
export function explain(
	system: ExplanationSystem,
	category: ExplanationCategory,
	term: string,
	kind?: string,
): Explanation | undefined {
	const catalog = catalogSystem(system);
	if (catalog !== 'aso') return lookup(catalog, category, term, kind);
	if (category === 'severity') {
		return lookup(catalog, category, term === '' ? noSeverityTerm : term, kind);
	}
	const direct = lookup(catalog, category, term, kind);
	if (direct || term === '') return direct;
	if (category === 'state') {
		return (
			lookup(catalog, 'reason', term, kind) ??
			lookup(catalog, 'reason', azureErrorCodeTerm, undefined)
		);
	}
	if (category === 'reason') return lookup(catalog, 'reason', azureErrorCodeTerm, undefined);
	return undefined;
}

const noExplanations: readonly Explanation[] = [];

/** Every row of one system, in catalog order (`kubernetes` gives the kstatus rows). */
export function explanationsFor(system: ExplanationSystem): readonly Explanation[] {
	return bySystem.get(catalogSystem(system)) ?? noExplanations;
}
