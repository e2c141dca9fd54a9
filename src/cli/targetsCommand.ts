// `kube-status-lens targets`: where each Fleet Bundle and KubeStellar BindingPolicy of the input goes, and why not
// elsewhere (src/core/targeting). It reads what `status` reads; the JSON is a contract other tools check: an array
// with one record per Bundle and per BindingPolicy, in input order.
import { bindingPolicyTargetsOf } from '../core/targeting/bindingPolicyTargets.ts';
import { fleetTargetsOf } from '../core/targeting/fleetTargets.ts';
import { visibleLine } from '../core/text/visible.ts';
import {
	archiveLimitsUsage,
	maxFileSizeOption,
	readEachManifest,
	readingDumpArchives,
	readLimitsOf,
	type DumpArchives,
} from './files.ts';
import { optionsOrExit, usageError, type OptionSpec } from './options.ts';
import { jsonArrayLines, writeLines } from './output.ts';
import type { CommandIo } from './statusCommand.ts';

const usage = `Usage: kube-status-lens targets PATH... [--json] [--max-file-size SIZE]

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
Exit codes: 0 read; 2 bad usage, or an input could not be read or parsed (what could be read is reported).
`;

const spec: OptionSpec = {
	choices: {},
	flags: ['json'],
	texts: { ...maxFileSizeOption },
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

function runTargetsCommand(argv: readonly string[], io: CommandIo, dumps?: DumpArchives): number {
	const parsed = optionsOrExit(argv, spec, usage, io);
	if (typeof parsed === 'number') return parsed;
	const limits = readLimitsOf(parsed.values);
	if (typeof limits === 'string') return usageError(limits, usage, io);
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
