// The five tools an assistant can call, as data: the same names, descriptions and input schemas serve VS Code's
// language model tools and the MCP server. Descriptions say what a tool does, when to use it and when not, and
// what it returns, as VS Code's tool guidelines ask.

/** A JSON Schema of a tool's input (a plain object: both VS Code and MCP take it as it is). */
export interface ToolInputSchema {
	readonly type: 'object';
	readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
	readonly required?: readonly string[];
	readonly additionalProperties: false;
}

/** One tool: its name ({verb}_{noun}), the name a person reads, what the model reads, and its input. */
export interface AssistantToolDefinition {
	readonly name: AssistantToolName;
	readonly displayName: string;
	readonly description: string;
	readonly inputSchema: ToolInputSchema;
}

export type AssistantToolName =
	| 'list_kube_status_problems'
	| 'explain_kube_status'
	| 'preview_wec_status_merge'
	| 'run_fleet_checks'
	| 'explain_kube_placement';

const kind = {
	type: 'string',
	description:
		'Kind of the object, e.g. GitRepo, Bundle, BundleDeployment, Kustomization, HelmRelease, Deployment (case does not matter). Optional: narrows the search when a name fits several objects.',
};
const namespace = {
	type: 'string',
	description:
		'Namespace of the object. Optional: narrows the search when a name fits several objects.',
};
const name = { type: 'string', description: 'metadata.name of the object.' };
const context = {
	type: 'string',
	description:
		'A kube context name (from the kubeconfig) to read from. Leave out to use what is already open.',
};
const path = {
	type: 'string',
	description:
		'A folder, manifest file or fleet dump archive that is open as a root (as given to the server or open in the workspace). Leave out to use every root.',
};

const cluster = {
	type: 'string',
	description:
		'Name of a Fleet Cluster or KubeStellar inventory cluster (WEC). Optional: answers for that cluster alone.',
};

/** The five tools, in the order a user meets them. */
export const assistantTools: readonly AssistantToolDefinition[] = [
	{
		name: 'list_kube_status_problems',
		displayName: 'List Kubernetes status problems',
		description:
			"Lists the Kubernetes objects that are not ready (errors, objects being deleted, warnings, then what is still progressing) for Fleet, KubeStellar, Harbor, Flux, Azure Service Operator and plain Kubernetes objects, in a workspace, a kube context, a fleet dump or a folder of manifests. Each line gives the kind, namespace and name, the state word, who said it (the controller's own status, or the roll-up Kube Status Lens recomputed from the children), a one-line cause and where it was read. Use it first, to find what is broken; then call explain_kube_status on one object. Do not use it to read an object's YAML. Filter with context or path. The answer starts with a one-line summary, says how old the data is, and lists at most 40 objects, saying how many more there are.",
		inputSchema: {
			type: 'object',
			properties: { context, path, namespace, kind },
			additionalProperties: false,
		},
	},
	{
		name: 'explain_kube_status',
		displayName: "Explain a Kubernetes object's status",
		description:
			"Explains why one Kubernetes object (a Fleet GitRepo, Bundle or BundleDeployment, a Flux Kustomization or HelmRelease, a KubeStellar workload or BindingPolicy, a HarborCluster, an ASO resource, or any object kstatus knows) is or is not ready: the chain from the object down to the root cause (e.g. GitRepo -> Bundle -> BundleDeployment on a cluster -> the failing resource), each step's state and message, the conditions, recent events where known, what to do, and what kstatus and Argo CD health would show. Use it after list_kube_status_problems, or when the user names an object. Give name, and kind or namespace when the name is common; when several objects fit, it returns the candidates (kind, namespace, name, root) to choose from instead of guessing. It never returns Secret data.",
		inputSchema: {
			type: 'object',
			properties: { name, kind, namespace, context, path },
			required: ['name'],
			additionalProperties: false,
		},
	},
	{
		name: 'preview_wec_status_merge',
		displayName: 'Preview a multi-WEC status merge',
		description:
			"Previews the .status KubeStellar would write back into a workload (e.g. a Deployment) that a BindingPolicy places on several workload execution clusters (WECs): the merged status as YAML with the rule and source WECs of each field, the per-WEC values, the mode (multi-WEC, singleton, none), whether KubeStellar would write an update, and what kstatus and Argo CD would show. Use it for KubeStellar workloads only; for why an object is not ready use explain_kube_status. Give the workload's name (kind and namespace when the name is common); when several objects fit, it returns the candidates.",
		inputSchema: {
			type: 'object',
			properties: { name, kind, namespace, context, path },
			required: ['name'],
			additionalProperties: false,
		},
	},
	{
		name: 'run_fleet_checks',
		displayName: 'Run Fleet troubleshooting checks',
		description:
			"Runs Fleet's own troubleshooting classes (those of rancher/fleet's fleet monitor and fleet analyze: stuck BundleDeployments, GitRepo and Bundle inconsistencies, missing Content, agents not seen, generations out of sync, objects stuck in deletion, and more) over the Fleet objects of one kube context, folder or fleet dump archive, and lists the findings with their code, severity, object and message, and the classes it could not run. Use it for Rancher Fleet questions; for a single object use explain_kube_status. Give context or path when more than one root is open.",
		inputSchema: {
			type: 'object',
			properties: { context, path },
			additionalProperties: false,
		},
	},
	{
		name: 'explain_kube_placement',
		displayName: 'Explain where a Bundle or BindingPolicy goes',
		description:
			"Says where a Fleet Bundle (or a GitRepo's or HelmOp's Bundles) or a KubeStellar BindingPolicy goes and why not elsewhere, as the controllers decide it: for each cluster of the input whether it gets the bundle, the target and customization that apply, doNotDeploy, and for a cluster not reached the criterion and the value that failed (e.g. target prod wants env=prod; cluster eu-2 has env=staging); for a BindingPolicy which inventory clusters and workload objects it selects. Use it for questions like 'why is my bundle not on cluster X' or 'which clusters does this policy pick'; for why an object is not ready use explain_kube_status. Give name (a Bundle, GitRepo, HelmOp or BindingPolicy), and cluster to ask about one cluster.",
		inputSchema: {
			type: 'object',
			properties: { name, namespace, cluster, context, path },
			required: ['name'],
			additionalProperties: false,
		},
	},
];
