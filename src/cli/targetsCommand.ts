// `kube-status-lens targets`: where each Fleet Bundle and KubeStellar BindingPolicy of the input goes, and why not
// elsewhere (src/core/targeting). It reads what `status` reads; the JSON is a contract other tools check: an array
// with one record per Bundle and per BindingPolicy, in input order.
import { relative, sep } from 'node:path';
import { parseManifests } from '../core/manifest/parse.ts';
import { bindingPolicyTargetsOf } from '../core/targeting/bindingPolicyTargets.ts';
import { checkoutObjects, planOf, type PlanEntry } from '../core/targeting/fleetPlan.ts';
import { fleetTargetsOf } from '../core/targeting/fleetTargets.ts';
import { visibleLine } from '../core/text/visible.ts';
import {
	archiveLimitsUsage,
	maxFileSizeOption,
	readEachManifest,
	readingDumpArchives,
	readLimitsOf,
	readManifestTexts,
	type DumpArchives,
	type ReadLimits,
} from './files.ts';
import { ResourceGraph } from '../core/tree/model.ts';
import { contextsUnavailable, McpContexts } from './mcpContexts.ts';
import { optionsOrExit, usageError, type OptionSpec } from './options.ts';
import { jsonArrayLines, writeLines } from './output.ts';
import type { CommandIo } from './statusCommand.ts';

const usage = `Usage: kube-status-lens targets PATH... [--json] [--max-file-size SIZE]
       kube-status-lens targets --plan BASE HEAD (--clusters INVENTORY | --context NAME)... [--json | --format sarif]

Where each Fleet Bundle and KubeStellar BindingPolicy goes, and why not elsewhere: every Cluster a Bundle
could reach (its namespace, and those a BundleNamespaceMapping maps it to) with the target and customization
the Fleet controller would use, or the reason it does not deploy there; every inventory cluster
(ManagedCluster) and workload object a BindingPolicy selects or not. PATH: manifests, kubectl dumps, folders
and fleet dump archives, as status reads them; the clusters, ClusterGroups, mappings and Namespaces must be
in the input.

  --json               print an array of records: {"kind":"Bundle","namespace","name","clusters":[{"namespace",
                       "name","deployed","target","customization","doNotDeploy","why"}]} and {"kind":
                       "BindingPolicy","name","clusters":[{"name","deployed","why"}],"objects":[{"apiVersion",
                       "kind","namespace","name","selected"}]}
  --max-file-size SIZE read no file (or archive entry) larger than SIZE (bytes, or with K, M or G; default 64M)
${archiveLimitsUsage}
With --plan, BASE and HEAD are two checkouts of a GitOps repository (GitRepo manifests and the fleet.yaml files
under their paths, or BindingPolicies): each Bundle is built as fleet apply builds it, placed against the
clusters of INVENTORY (a dump, a folder, kubectl output) or of a kube context read live (--context, of the
kubeconfig KUBECONFIG names, else ~/.kube/config; Node 22 or later); either may be given more than once. The plan
says per Bundle and BindingPolicy which clusters it gains and loses and whose customization changes, like
terraform plan. A Bundle that would reach no cluster is a finding (--format sarif: one result each; exit 1).

Exit codes: 0 read (with --plan: no Bundle reaches no cluster); 1 with --plan, a Bundle or BindingPolicy of
HEAD reaches no cluster; 2 bad usage, or an input could not be read or parsed (what could be read is reported).
`;

const spec: OptionSpec = {
	choices: { format: ['text', 'json', 'sarif'] },
	flags: ['json', 'plan'],
	texts: { ...maxFileSizeOption, clusters: 'INVENTORY', context: 'NAME' },
};

/** The records of the input, Bundles then BindingPolicies. */
function recordsOf(
	objects: readonly unknown[],
): (
	ReturnType<typeof fleetTargetsOf>[number] | ReturnType<typeof bindingPolicyTargetsOf>[number]
)[] {
	const bundles = fleetTargetsOf(objects).map(({ kind, namespace, name, clusters }) => ({
		kind,
		namespace,
		name,
		clusters,
	}));
	const policies = bindingPolicyTargetsOf(objects).map(({ kind, name, clusters, objects }) => ({
		kind,
		name,
		clusters,
		objects,
	}));
	return [...bundles, ...policies];
}

function* tableLines(objects: readonly unknown[]): Generator<string> {
	for (const bundle of fleetTargetsOf(objects)) {
		const reached = bundle.clusters.filter((cluster) => cluster.deployed).length;
		yield `Bundle ${visibleLine(`${bundle.namespace}/${bundle.name}`)}: reaches ${reached} of ${bundle.clusters.length} cluster${bundle.clusters.length === 1 ? '' : 's'}${bundle.error ? ` (${visibleLine(bundle.error)})` : ''}`;
		for (const cluster of bundle.clusters) {
			yield `  ${cluster.deployed ? '+' : '-'} ${visibleLine(`${cluster.namespace}/${cluster.name}`)}: ${visibleLine(cluster.why)}`;
		}
	}
	for (const policy of bindingPolicyTargetsOf(objects)) {
		const reached = policy.clusters.filter((cluster) => cluster.deployed).length;
		const selected = policy.objects.filter((object) => object.selected);
		yield `BindingPolicy ${visibleLine(policy.name)}: selects ${reached} of ${policy.clusters.length} cluster${policy.clusters.length === 1 ? '' : 's'} and ${selected.length} of ${policy.objects.length} object${policy.objects.length === 1 ? '' : 's'}`;
		for (const cluster of policy.clusters) {
			yield `  ${cluster.deployed ? '+' : '-'} ${visibleLine(cluster.name)}: ${visibleLine(cluster.why)}`;
		}
		for (const object of selected) {
			yield `  = ${visibleLine(`${object.kind} ${object.namespace ? `${object.namespace}/` : ''}${object.name}`)}`;
		}
	}
}

/** `kube-status-lens targets` as the command line runs it, fleet dump archives read first. */
export function runTargetsCommandLine(
	argv: readonly string[],
	io: CommandIo,
): number | Promise<number> {
	return readingDumpArchives(argv, spec, io.stderr, (dumps) => runTargetsCommand(argv, io, dumps));
}

function runTargetsCommand(
	argv: readonly string[],
	io: CommandIo,
	dumps?: DumpArchives,
): number | Promise<number> {
	const parsed = optionsOrExit(argv, spec, usage, io);
	if (typeof parsed === 'number') return parsed;
	const limits = readLimitsOf(parsed.values);
	if (typeof limits === 'string') return usageError(limits, usage, io);
	if (parsed.flags.has('plan')) {
		const [base, head, ...extra] = parsed.paths;
		const inventory = parsed.lists.clusters ?? [];
		const contexts = parsed.lists.context ?? [];
		if (base === undefined || head === undefined || extra.length > 0) {
			return usageError('--plan takes two checkouts, BASE and HEAD', usage, io);
		}
		if (inventory.length + contexts.length === 0) {
			return usageError('--plan needs --clusters INVENTORY or --context NAME', usage, io);
		}
		const format = parsed.flags.has('json') ? 'json' : (parsed.values.format ?? 'text');
		if (contexts.length === 0) return runPlan(base, head, inventory, [], format, limits, io, dumps);
		return contextObjects(contexts, io).then((live) =>
			live === undefined ? 2 : runPlan(base, head, inventory, live, format, limits, io, dumps),
		);
	}
	if ((parsed.lists.context ?? []).length > 0) {
		return usageError('--context reads an inventory for --plan only', usage, io);
	}
	const objects: unknown[] = [];
	const failed = readEachManifest(
		parsed.paths,
		io.stderr,
		limits,
		(file) => {
			for (const entry of file.parsed.objects) objects.push(entry.object);
		},
		(dumps?.archives ?? []).flatMap((archive) => archive.entries),
	);
	if (parsed.flags.has('json')) writeLines(jsonArrayLines(recordsOf(objects)), io.stdout);
	else writeLines(tableLines(objects), io.stdout);
	return failed > 0 || dumps?.inputError === true ? 2 : 0;
}

/** The objects of paths (dump archives among them) and whether one could not be read or parsed. */
function objectsUnder(
	paths: readonly string[],
	limits: ReadLimits,
	io: CommandIo,
	dumps?: DumpArchives,
): { objects: unknown[]; failed: boolean } {
	const objects: unknown[] = [];
	const archives = (dumps?.archives ?? []).filter((archive) => paths.includes(archive.path));
	const failed = readEachManifest(
		paths,
		io.stderr,
		limits,
		(file) => {
			for (const entry of file.parsed.objects) objects.push(entry.object);
		},
		archives.flatMap((archive) => archive.entries),
	);
	return { objects, failed: failed > 0 };
}

/** A checkout's files (relative, '/'-separated) and its manifests; fleet.yaml files are not Kubernetes objects. */
function checkoutOf(root: string, limits: ReadLimits, io: CommandIo, problems: string[]) {
	const read = readManifestTexts([root], io.stderr, limits);
	const files = read.texts.map(({ file, text }) => ({
		path: relative(root, file).split(sep).join('/'),
		text,
	}));
	const manifests = read.texts.flatMap(({ file, text }) =>
		/(^|[\\/])fleet\.ya?ml$/.test(file) && !/^\s*apiVersion:/m.test(text)
			? []
			: parseManifests(text, { fileName: file }).objects.map((entry) => entry.object),
	);
	return { objects: checkoutObjects(files, manifests, problems), inputError: read.inputError };
}

function* planLines(entries: readonly PlanEntry[]): Generator<string> {
	const changed = entries.filter((entry) => entry.change !== 'unchanged');
	yield `${changed.length} of ${entries.length} bundles and policies change where they go.`;
	for (const entry of entries) {
		const title = `${entry.kind} ${visibleLine(entry.namespace ? `${entry.namespace}/${entry.name}` : entry.name)}`;
		const counts = `+${entry.gained.length} -${entry.lost.length} ~${entry.customizations.length}`;
		const none = entry.change !== 'removed' && entry.reaches === 0 ? ' · reaches no cluster' : '';
		if (entry.change === 'unchanged' && none === '') continue;
		yield `${title} (${entry.change}) ${counts}${none}`;
		for (const gained of entry.gained) {
			yield `  + ${visibleLine(gained.cluster)}: ${visibleLine(gained.why)}`;
		}
		for (const lost of entry.lost) {
			yield `  - ${visibleLine(lost.cluster)}: ${visibleLine(lost.why)}`;
		}
		for (const custom of entry.customizations) {
			yield `  ~ ${visibleLine(custom.cluster)}: customization ${visibleLine(custom.from ?? 'none')} -> ${visibleLine(custom.to ?? 'none')}`;
		}
	}
}

const noClusterRule = 'targets-reaches-no-cluster';

/** SARIF 2.1.0 with one result per Bundle or BindingPolicy of HEAD that reaches no cluster. */
function planSarif(entries: readonly PlanEntry[]): string {
	const results = entries
		.filter((entry) => entry.change !== 'removed' && entry.reaches === 0)
		.map((entry) => ({
			ruleId: noClusterRule,
			level: 'error',
			message: {
				text: `${entry.kind} ${entry.namespace ? `${entry.namespace}/` : ''}${entry.name} would reach no cluster of the inventory.`,
			},
		}));
	const log = {
		$schema: 'https://json.schemastore.org/sarif-2.1.0.json',
		version: '2.1.0',
		runs: [
			{
				tool: {
					driver: {
						name: 'kube-status-lens',
						rules: [
							{
								id: noClusterRule,
								name: 'TargetsReachesNoCluster',
								shortDescription: {
									text: 'A Bundle or BindingPolicy of the change would reach no cluster of the inventory.',
								},
								defaultConfiguration: { level: 'error' },
							},
						],
					},
				},
				results,
			},
		],
	};
	return `${JSON.stringify(log, null, 2)}\n`;
}

/**
 * The objects of kube contexts, read live once: each context's first sync, or what it holds when 10 s have passed
 * (said on stderr); undefined, said, when contexts cannot be read on this Node.
 */
async function contextObjects(
	contexts: readonly string[],
	io: CommandIo,
): Promise<unknown[] | undefined> {
	const unavailable = contextsUnavailable();
	if (unavailable) {
		io.stderr(`kube-status-lens targets: ${unavailable}\n`);
		return undefined;
	}
	const graph = new ResourceGraph();
	const reader = new McpContexts(graph, () => undefined);
	try {
		return await reader.using(contexts, (roots) =>
			roots.flatMap((root) => {
				if (root.note) {
					io.stderr(`context ${visibleLine(root.context)}: ${visibleLine(root.note)}\n`);
				}
				return graph.objectsOf(root.rootId);
			}),
		);
	} finally {
		reader.dispose();
	}
}

function runPlan(
	base: string,
	head: string,
	inventoryPaths: readonly string[],
	liveInventory: readonly unknown[],
	format: string,
	limits: ReadLimits,
	io: CommandIo,
	dumps?: DumpArchives,
): number {
	const problems: string[] = [];
	const before = checkoutOf(base, limits, io, problems);
	const after = checkoutOf(head, limits, io, problems);
	const inventory = objectsUnder(inventoryPaths, limits, io, dumps);
	for (const problem of problems) io.stderr(`${visibleLine(problem)}\n`);
	const entries = planOf(before.objects, after.objects, [...inventory.objects, ...liveInventory]);
	if (format === 'json') writeLines(jsonArrayLines(entries), io.stdout);
	else if (format === 'sarif') io.stdout(planSarif(entries));
	else writeLines(planLines(entries), io.stdout);
	if (before.inputError || after.inputError || inventory.failed || problems.length > 0) return 2;
	return entries.some((entry) => entry.change !== 'removed' && entry.reaches === 0) ? 1 : 0;
}
