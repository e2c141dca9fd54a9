// What each target of a manifest matches, for a CodeLens above it (issue 31): each entry of a GitRepo's or HelmOp's
// spec.targets ("matches 3 clusters of fleet-mgmt: eu-1, eu-3, us-1"), each targetCustomizations entry of a
// fleet.yaml ("customizes …"), and each BindingPolicy ("selects 2 of 3 clusters …"), against the clusters of an
// inventory: the root of the tree (a live context, a dump, the workspace) that holds the most of them.
import { parse } from 'yaml';
import { analyzeManifest } from '../manifest/analysis.ts';
import { getArray, getPath, getString, groupOf, isRecord } from '../model/object.ts';
import { bindingPolicyTargetsOf } from './bindingPolicyTargets.ts';
import { fleetTargetsOf } from './fleetTargets.ts';

/** One lens: the line it stands above, its title and tooltip. */
export interface TargetLens {
	readonly line: number;
	readonly title: string;
	readonly tooltip: string;
}

/** Clusters to match against: a root of the tree, by its label, with its objects. */
export interface TargetInventory {
	readonly label: string;
	readonly objects: readonly unknown[];
}

const shownNames = 4;

function namesText(names: readonly string[]): string {
	if (names.length === 0) return '';
	const shown = names.slice(0, shownNames).join(', ');
	return names.length > shownNames
		? `: ${shown}, +${names.length - shownNames} more`
		: `: ${shown}`;
}

function countOf(count: number, unit: string): string {
	return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

function fleetClustersIn(inventory: TargetInventory, namespace: string): number {
	return inventory.objects.filter(
		(object) =>
			getString(object, 'kind') === 'Cluster' &&
			groupOf(getString(object, 'apiVersion') ?? '') === 'fleet.cattle.io' &&
			getString(object, 'metadata', 'namespace') === namespace,
	).length;
}

/** The inventory with the most Fleet Clusters of a namespace, or none when no inventory has one. */
function fleetInventoryFor(
	inventories: readonly TargetInventory[],
	namespace: string,
): TargetInventory | undefined {
	let best: TargetInventory | undefined;
	let most = 0;
	for (const inventory of inventories) {
		const count = fleetClustersIn(inventory, namespace);
		if (count > most) {
			best = inventory;
			most = count;
		}
	}
	return best;
}

/** The clusters one target entry reaches as a deployment target (its own restriction), or customizes. */
function matchedBy(
	entry: unknown,
	namespace: string,
	inventory: TargetInventory,
	asCustomization: boolean,
): { names: string[]; error?: string } {
	const bundle = {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'Bundle',
		metadata: { name: 'lens', namespace },
		spec: asCustomization
			? // A customization matches by its criteria alone: a catch-all deployment target, then the entry.
				{
					targets: [entry, { name: 'all', clusterSelector: {} }],
					targetRestrictions: [{ clusterSelector: {} }],
				}
			: { targets: [entry] },
	};
	const [targeting] = fleetTargetsOf([...inventory.objects, bundle], { namespace, name: 'lens' });
	if (!targeting) return { names: [] };
	if (targeting.error) return { names: [], error: targeting.error };
	const names = targeting.clusters
		.filter((cluster) =>
			asCustomization ? cluster.customization !== null : cluster.deployed || cluster.doNotDeploy,
		)
		.map((cluster) => cluster.name);
	return { names };
}

function entryLine(
	analysisRange: { start: { line: number } } | undefined,
	fallback: number,
): number {
	return analysisRange?.start.line ?? fallback;
}

/** The lenses of a Kubernetes manifest: GitRepo and HelmOp targets, and BindingPolicies. */
function manifestLenses(text: string, inventories: readonly TargetInventory[]): TargetLens[] {
	const analysis = analyzeManifest(text);
	const lenses: TargetLens[] = [];
	for (const entry of analysis.objects) {
		const object = entry.object;
		const kind = getString(object, 'kind');
		const group = groupOf(getString(object, 'apiVersion') ?? '');
		const objectLine = entry.parsed.range.start.line;
		if (group === 'fleet.cattle.io' && (kind === 'GitRepo' || kind === 'HelmOp')) {
			const namespace = getString(object, 'metadata', 'namespace') ?? 'fleet-default';
			const inventory = fleetInventoryFor(inventories, namespace);
			if (!inventory) continue;
			(getArray(object, 'spec', 'targets') ?? []).forEach((target, index) => {
				const located = analysis.locate(entry, ['spec', 'targets', index]);
				const start = located?.item?.dash ?? located?.node?.start;
				const line = entryLine(
					start === undefined ? undefined : analysis.range(start, start),
					objectLine,
				);
				const { names, error } = matchedBy(target, namespace, inventory, false);
				const total = fleetClustersIn(inventory, namespace);
				lenses.push({
					line,
					title: error
						? `targets no cluster: ${error}`
						: names.length === 0
							? `matches none of the ${countOf(total, 'cluster')} of ${inventory.label}`
							: `matches ${countOf(names.length, 'cluster')} of ${inventory.label}${namesText(names)}`,
					tooltip: `Target ${getString(target, 'name') ?? `#${index}`} against the Clusters of namespace ${namespace} in ${inventory.label} (the clusters, ClusterGroups and BundleNamespaceMappings there), as the Fleet controller matches them.`,
				});
			});
		}
		if (kind === 'BindingPolicy' && group.endsWith('kubestellar.io')) {
			const inventory = inventories.find((candidate) =>
				candidate.objects.some((item) => getString(item, 'kind') === 'ManagedCluster'),
			);
			if (!inventory) continue;
			const [policy] = bindingPolicyTargetsOf([...inventory.objects, object]).filter(
				(candidate) => candidate.name === (getString(object, 'metadata', 'name') ?? ''),
			);
			if (!policy) continue;
			const names = policy.clusters
				.filter((cluster) => cluster.deployed)
				.map((cluster) => cluster.name);
			lenses.push({
				line: objectLine,
				title: `selects ${names.length} of ${countOf(policy.clusters.length, 'cluster')} of ${inventory.label}${namesText(names)}`,
				tooltip: `spec.clusterSelectors against the ManagedClusters of ${inventory.label}, as KubeStellar selects them (ORed; none selects none).`,
			});
		}
	}
	return lenses;
}

/** The lenses of a fleet.yaml: each targetCustomizations entry, and fleet.yaml's own targets. */
function fleetYamlLenses(text: string, inventories: readonly TargetInventory[]): TargetLens[] {
	let document: unknown;
	try {
		document = parse(text, { keepSourceTokens: false }) as unknown;
	} catch {
		return [];
	}
	if (!isRecord(document) || typeof document.apiVersion === 'string') return [];
	const inventory = inventories
		.map((candidate) => ({
			candidate,
			count: candidate.objects.filter((item) => getString(item, 'kind') === 'Cluster').length,
		}))
		.filter(({ count }) => count > 0)
		.sort((a, b) => b.count - a.count)[0]?.candidate;
	if (!inventory) return [];
	const customizations = (getArray(document, 'targetCustomizations') ?? []).filter(isRecord);
	if (customizations.length === 0) return [];
	const namespaces = new Set(
		inventory.objects
			.filter((item) => getString(item, 'kind') === 'Cluster')
			.map((item) => getString(item, 'metadata', 'namespace') ?? ''),
	);
	const lines = text.split('\n');
	const headers = lines
		.map((line, index) => ({ line, index }))
		.filter(({ line }) => /^\s*-\s/.test(line));
	const section = lines.findIndex((line) => /^targetCustomizations\s*:/.test(line));
	const items = headers.filter(({ index }) => index > section);
	return customizations.map((customization, index) => {
		const names: string[] = [];
		for (const namespace of namespaces) {
			for (const name of matchedBy(customization, namespace, inventory, true).names) {
				names.push(name);
			}
		}
		const first = getPath(customization, 'doNotDeploy') === true ? 'skips' : 'customizes';
		return {
			line: items[index]?.index ?? Math.max(section, 0),
			title:
				names.length === 0
					? `matches no cluster of ${inventory.label}`
					: `${first} ${countOf(names.length, 'cluster')} of ${inventory.label}${namesText(names)}`,
			tooltip: `targetCustomizations entry ${getString(customization, 'name') ?? `target${String(index).padStart(3, '0')}`} against the Clusters of ${inventory.label}; with FirstMatch (the default) an earlier entry that matches a cluster wins there.`,
		};
	});
}

/** The lenses of a document: a fleet.yaml's customizations, or a manifest's targets and BindingPolicies. */
export function targetLensesOf(
	text: string,
	fileName: string,
	inventories: readonly TargetInventory[],
): TargetLens[] {
	if (inventories.length === 0) return [];
	if (/(^|[\\/])fleet\.ya?ml$/.test(fileName) && !/^\s*apiVersion:/m.test(text)) {
		return fleetYamlLenses(text, inventories);
	}
	return manifestLenses(text, inventories);
}
