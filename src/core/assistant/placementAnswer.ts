// explain_kube_placement: where a Fleet Bundle (or a GitRepo's or HelmOp's Bundles) or a KubeStellar BindingPolicy
// goes, and why not on a cluster, in the words of `kube-status-lens targets` (src/core/targeting).
import { getString } from '../model/object.ts';
import { bindingPolicyTargetsOf } from '../targeting/bindingPolicyTargets.ts';
import { fleetTargetsOf, type BundleTargeting } from '../targeting/fleetTargets.ts';
import { visibleLine } from '../text/visible.ts';
import {
	dataAgeLine,
	maxItems,
	nameText,
	refText,
	rootName,
	rootsInScope,
	type AssistantAnswer,
	type AssistantWorld,
	type ToolInput,
} from './world.ts';

const ownerLabels: Readonly<Record<string, string>> = {
	GitRepo: 'fleet.cattle.io/repo-name',
	HelmOp: 'fleet.cattle.io/fleet-helm-name',
};

/** The Bundles a name stands for: Bundles of that name, and those a GitRepo or HelmOp of that name made. */
function bundlesNamed(objects: readonly unknown[], input: ToolInput): Set<string> {
	const wanted = new Set<string>();
	for (const object of objects) {
		const kind = getString(object, 'kind');
		const namespace = getString(object, 'metadata', 'namespace') ?? '';
		if (input.namespace !== undefined && namespace !== input.namespace) continue;
		if (kind === 'Bundle' && getString(object, 'metadata', 'name') === input.name) {
			wanted.add(`${namespace}/${input.name ?? ''}`);
		}
		for (const label of Object.values(ownerLabels)) {
			if (kind === 'Bundle' && getString(object, 'metadata', 'labels', label) === input.name) {
				wanted.add(`${namespace}/${getString(object, 'metadata', 'name') ?? ''}`);
			}
		}
	}
	return wanted;
}

function bundleLines(lines: string[], bundle: BundleTargeting, cluster: string | undefined): void {
	const clusters = bundle.clusters.filter(
		(entry) => cluster === undefined || entry.name === cluster,
	);
	const reached = bundle.clusters.filter((entry) => entry.deployed).length;
	lines.push(
		`${refText('Bundle', bundle.namespace, bundle.name)} reaches ${reached} of ${bundle.clusters.length} cluster${bundle.clusters.length === 1 ? '' : 's'}${bundle.error ? ` (${visibleLine(bundle.error)})` : ''}.`,
	);
	for (const entry of clusters.slice(0, maxItems)) {
		lines.push(
			`- ${entry.deployed ? 'on' : 'not on'} ${refText('Cluster', entry.namespace, entry.name)}: ${visibleLine(entry.why)}`,
		);
	}
	if (clusters.length > maxItems) lines.push(`- and ${clusters.length - maxItems} more clusters`);
	if (cluster !== undefined && clusters.length === 0) {
		lines.push(
			`- Cluster ${nameText(cluster)} is not one it could reach: not in its namespace, nor mapped to it by a BundleNamespaceMapping.`,
		);
	}
}

/** explain_kube_placement on a world. */
export function placementAnswer(world: AssistantWorld, input: ToolInput): AssistantAnswer {
	const scope = rootsInScope(world, input);
	if ('error' in scope) return { text: scope.error, isError: true };
	const lines: string[] = [];
	for (const root of scope.roots) {
		const objects = world.graph.objectsOf(root.rootId);
		const wanted = bundlesNamed(objects, input);
		for (const bundle of fleetTargetsOf(objects)) {
			if (!wanted.has(`${bundle.namespace}/${bundle.name}`)) continue;
			lines.push(`In ${rootName(root)}:`);
			bundleLines(lines, bundle, input.cluster);
		}
		for (const policy of bindingPolicyTargetsOf(objects)) {
			if (policy.name !== input.name) continue;
			const clusters = policy.clusters.filter(
				(entry) => input.cluster === undefined || entry.name === input.cluster,
			);
			const selected = policy.objects.filter((object) => object.selected);
			lines.push(
				`In ${rootName(root)}:`,
				`BindingPolicy ${nameText(policy.name)} selects ${policy.clusters.filter((entry) => entry.deployed).length} of ${policy.clusters.length} clusters and ${selected.length} of ${policy.objects.length} objects.`,
			);
			for (const entry of clusters.slice(0, maxItems)) {
				lines.push(
					`- ${entry.deployed ? 'selects' : 'does not select'} ${nameText(entry.name)}: ${visibleLine(entry.why)}`,
				);
			}
			for (const object of selected.slice(0, maxItems)) {
				lines.push(`- places ${refText(object.kind, object.namespace, object.name)}`);
			}
		}
	}
	const age = dataAgeLine(scope.roots, world.now);
	if (lines.length === 0) {
		return {
			text: `No Bundle, GitRepo, HelmOp or BindingPolicy named ${nameText(input.name ?? '')} with its clusters in ${scope.roots.map(rootName).join(', ') || 'what is open'}.\n${age}`,
			isError: true,
		};
	}
	return { text: [...lines, age].join('\n') };
}
