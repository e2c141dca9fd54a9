// What a change to a GitOps repository deploys where, like `terraform plan` for targeting: the Bundles Fleet would make
// of two checkouts (their fleet.yaml files under the paths of their GitRepos, or the BindingPolicies), each placed
// against one cluster inventory, and the difference. A checkout's Bundles are built as fleet apply builds them
// (rancher/fleet internal/bundlereader/read.go bundleFromDir at 3b2c622ce176): spec.targets = fleet.yaml's own targets,
// then its targetCustomizations (unnamed ones named target000, target001, …), then the GitRepo's targets, or
// overrideTargets instead of them; the GitRepo's targets (or overrideTargets) are the targetRestrictions too; no
// targets at all is the default target (clusterGroup default); targetCustomizationMode comes from fleet.yaml.
import { parse } from 'yaml';
import { getArray, getPath, getString, groupOf, isRecord } from '../model/object.ts';
import { bindingPolicyTargetsOf } from './bindingPolicyTargets.ts';
import { fleetTargetsOf } from './fleetTargets.ts';
import { errorText } from '../text/errorText.ts';

/** A file of a checkout: its path relative to the checkout's root ('/'-separated), and its text. */
export interface CheckoutFile {
	readonly path: string;
	readonly text: string;
}

/** A GitRepo manifest of a checkout, or one given for it. */
type GitRepoObject = Readonly<Record<string, unknown>>;

function isGitRepo(object: unknown): object is GitRepoObject {
	return (
		isRecord(object) &&
		object.kind === 'GitRepo' &&
		groupOf(getString(object, 'apiVersion') ?? '') === 'fleet.cattle.io'
	);
}

const defaultTarget = { name: 'default', clusterGroup: 'default' };

function dirOf(path: string): string {
	const slash = path.lastIndexOf('/');
	return slash < 0 ? '' : path.slice(0, slash);
}

function isUnder(dir: string, root: string): boolean {
	const clean = root.replace(/^\.?\/*/, '').replace(/\/+$/, '');
	return clean === '' || dir === clean || dir.startsWith(`${clean}/`);
}

/** Fleet's bundle name for a path of a GitRepo: `<gitrepo>-<path>`, '/' and other characters as '-', lowercase. */
function bundleNameOf(gitRepo: string, dir: string): string {
	const tail = dir
		.toLowerCase()
		.replace(/[^a-z0-9-]+/g, '-')
		.replace(/^-+|-+$/g, '');
	return tail === '' ? gitRepo : `${gitRepo}-${tail}`;
}

function gitTargetsOf(gitRepo: GitRepoObject | undefined): Record<string, unknown>[] {
	const targets = (getArray(gitRepo, 'spec', 'targets') ?? []).filter(isRecord);
	return targets.length > 0 ? targets : [defaultTarget];
}

/** A Bundle object as fleet apply would build it from one fleet.yaml and its GitRepo. */
function bundleOf(
	fleetYaml: Readonly<Record<string, unknown>>,
	gitRepo: GitRepoObject | undefined,
	dir: string,
): Record<string, unknown> {
	const own = (getArray(fleetYaml, 'targets') ?? []).filter(isRecord);
	const customizations = (getArray(fleetYaml, 'targetCustomizations') ?? []).filter(isRecord);
	const named = [...own, ...customizations].map((target, index) =>
		getString(target, 'name')
			? target
			: { ...target, name: `target${String(index).padStart(3, '0')}` },
	);
	const override = getPath(fleetYaml, 'overrideTargets');
	const restrictions = Array.isArray(override)
		? override.filter(isRecord)
		: gitRepo
			? gitTargetsOf(gitRepo)
			: [];
	let targets = [...named, ...restrictions];
	if (targets.length === 0) targets = [defaultTarget];
	const gitRepoName = getString(gitRepo, 'metadata', 'name') ?? 'bundle';
	const mode = getString(fleetYaml, 'targetCustomizationMode');
	return {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'Bundle',
		metadata: {
			name: getString(fleetYaml, 'name') ?? bundleNameOf(gitRepoName, dir),
			namespace: getString(gitRepo, 'metadata', 'namespace') ?? 'fleet-default',
			labels: {
				...(isRecord(getPath(gitRepo, 'metadata', 'labels'))
					? (getPath(gitRepo, 'metadata', 'labels') as Record<string, unknown>)
					: {}),
				...(isRecord(fleetYaml.labels) ? fleetYaml.labels : {}),
				...(gitRepo ? { 'fleet.cattle.io/repo-name': gitRepoName } : {}),
			},
		},
		spec: {
			targets,
			...(restrictions.length > 0 ? { targetRestrictions: restrictions } : {}),
			...(mode ? { targetCustomizationMode: mode } : {}),
		},
	};
}

/** The objects a checkout means for placement: the Bundles of its fleet.yaml files, and its BindingPolicies. */
export function checkoutObjects(
	files: readonly CheckoutFile[],
	manifests: readonly unknown[],
	problems: string[],
): unknown[] {
	const gitRepos = manifests.filter(isGitRepo);
	const objects: unknown[] = manifests.filter(
		(object) => isRecord(object) && object.kind === 'BindingPolicy',
	);
	for (const file of files) {
		if (!/(^|\/)fleet\.ya?ml$/.test(file.path)) continue;
		let fleetYaml: unknown;
		try {
			fleetYaml = parse(file.text) as unknown;
		} catch (error) {
			problems.push(`${file.path}: reading fleet.yaml: ${errorText(error)}`);
			continue;
		}
		// A file named fleet.yaml that holds Kubernetes objects is a manifest, not a bundle's fleet.yaml.
		if (!isRecord(fleetYaml) || typeof fleetYaml.apiVersion === 'string') continue;
		const dir = dirOf(file.path);
		const owners = gitRepos.filter((gitRepo) => {
			const paths = (getArray(gitRepo, 'spec', 'paths') ?? []).filter(
				(path): path is string => typeof path === 'string',
			);
			return (paths.length > 0 ? paths : ['']).some((path) => isUnder(dir, path));
		});
		if (owners.length === 0) objects.push(bundleOf(fleetYaml, undefined, dir));
		for (const gitRepo of owners) objects.push(bundleOf(fleetYaml, gitRepo, dir));
	}
	return objects;
}

/** What a change does to one Bundle's or BindingPolicy's placement. */
export interface PlanEntry {
	readonly kind: 'Bundle' | 'BindingPolicy';
	readonly namespace: string;
	readonly name: string;
	/** Only in the head checkout, only in the base one, or in both. */
	readonly change: 'added' | 'removed' | 'changed' | 'unchanged';
	readonly gained: readonly { readonly cluster: string; readonly why: string }[];
	readonly lost: readonly { readonly cluster: string; readonly why: string }[];
	readonly customizations: readonly {
		readonly cluster: string;
		readonly from: string | null;
		readonly to: string | null;
	}[];
	/** How many clusters it reaches with the head checkout: 0 is a finding. */
	readonly reaches: number;
}

interface Placement {
	readonly kind: 'Bundle' | 'BindingPolicy';
	readonly namespace: string;
	readonly name: string;
	readonly clusters: ReadonlyMap<
		string,
		{ deployed: boolean; customization: string | null; why: string }
	>;
}

function placementsOf(objects: readonly unknown[]): Map<string, Placement> {
	const out = new Map<string, Placement>();
	for (const bundle of fleetTargetsOf(objects)) {
		out.set(`Bundle/${bundle.namespace}/${bundle.name}`, {
			kind: 'Bundle',
			namespace: bundle.namespace,
			name: bundle.name,
			clusters: new Map(
				bundle.clusters.map((cluster) => [`${cluster.namespace}/${cluster.name}`, cluster]),
			),
		});
	}
	for (const policy of bindingPolicyTargetsOf(objects)) {
		out.set(`BindingPolicy//${policy.name}`, {
			kind: 'BindingPolicy',
			namespace: '',
			name: policy.name,
			clusters: new Map(
				policy.clusters.map((cluster) => [cluster.name, { ...cluster, customization: null }]),
			),
		});
	}
	return out;
}

/**
 * The plan: for every Bundle and BindingPolicy of either checkout (placed against the same inventory), the clusters it
 * gains and loses and the customizations that change, in the head checkout's order, then what it removes.
 */
export function planOf(
	base: readonly unknown[],
	head: readonly unknown[],
	inventory: readonly unknown[],
): PlanEntry[] {
	// The inventory gives the clusters (and their groups, mappings and namespaces); its own Bundles and policies are
	// what is deployed now, not what either checkout would deploy.
	const clusters = inventory.filter(
		(object) =>
			!(isRecord(object) && (object.kind === 'Bundle' || object.kind === 'BindingPolicy')),
	);
	const before = placementsOf([...clusters, ...base]);
	const after = placementsOf([...clusters, ...head]);
	const entries: PlanEntry[] = [];
	const keys = [...after.keys(), ...[...before.keys()].filter((key) => !after.has(key))];
	for (const key of keys) {
		const old = before.get(key);
		const now = after.get(key);
		const some = (now ?? old) as Placement;
		const gained: { cluster: string; why: string }[] = [];
		const lost: { cluster: string; why: string }[] = [];
		const customizations: { cluster: string; from: string | null; to: string | null }[] = [];
		const clusters = new Set([...(old?.clusters.keys() ?? []), ...(now?.clusters.keys() ?? [])]);
		for (const cluster of [...clusters].sort()) {
			const was = old?.clusters.get(cluster);
			const is = now?.clusters.get(cluster);
			const wasDeployed = was?.deployed === true;
			const isDeployed = is?.deployed === true;
			if (!wasDeployed && isDeployed) gained.push({ cluster, why: is?.why ?? '' });
			else if (wasDeployed && !isDeployed) {
				lost.push({ cluster, why: is?.why ?? 'The bundle is gone from the checkout.' });
			} else if (wasDeployed && isDeployed && was.customization !== is.customization) {
				customizations.push({ cluster, from: was.customization, to: is.customization });
			}
		}
		const reaches = now
			? [...now.clusters.values()].filter((cluster) => cluster.deployed).length
			: 0;
		entries.push({
			kind: some.kind,
			namespace: some.namespace,
			name: some.name,
			change: !old
				? 'added'
				: !now
					? 'removed'
					: gained.length + lost.length + customizations.length > 0
						? 'changed'
						: 'unchanged',
			gained,
			lost,
			customizations,
			reaches,
		});
	}
	return entries;
}
