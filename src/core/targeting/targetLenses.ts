// What each target of a manifest matches, for a CodeLens above it and a diagnostic where it is wrong (issue 31): each
// entry of a GitRepo's or HelmOp's spec.targets ("matches 3 clusters of fleet-mgmt: eu-1, eu-3, us-1"), each
// targetCustomizations entry of a fleet.yaml ("customizes …"), and each BindingPolicy ("selects 2 of 3 clusters …"),
// against the clusters of an inventory: the root of the tree (a live context, a dump, the workspace) the user chose, or
// else the one that holds the most of them. An entry is judged with the others of its list, as the controller reads
// them: the first matching deployment target decides a cluster, and so does the first matching customization unless
// targetCustomizationMode is AllMatches; an entry whose every cluster an earlier one takes never applies (shadowed).
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import {
	analyzeManifest,
	type AnalyzedObject,
	type ManifestAnalysis,
} from '../manifest/analysis.ts';
import { getArray, getPath, getString, groupOf, isRecord } from '../model/object.ts';
import type { Range } from '../model/range.ts';
import { bindingPolicyTargetsOf } from './bindingPolicyTargets.ts';
import { fleetTargetsOf, withoutLists, type ClusterTargeting } from './fleetTargets.ts';
import type { TargetingCode } from './targetingCodes.ts';

/** One lens: the line it stands above, its title and tooltip. */
export interface TargetLens {
	readonly line: number;
	readonly title: string;
	readonly tooltip: string;
}

/** A targeting diagnostic: where, which code, and the sentence. */
export interface TargetFinding {
	readonly range: Range;
	readonly code: TargetingCode;
	readonly message: string;
	readonly subject: string;
}

/** Clusters to match against: a root of the tree, by its label, with its objects. */
export interface TargetInventory {
	readonly label: string;
	readonly objects: readonly unknown[];
}

interface EntryReport {
	readonly lens: TargetLens;
	readonly finding?: TargetFinding;
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

function quoted(text: string): string {
	return `\`${text}\``;
}

function isFleetCluster(object: unknown): boolean {
	return (
		getString(object, 'kind') === 'Cluster' &&
		groupOf(getString(object, 'apiVersion') ?? '') === 'fleet.cattle.io'
	);
}

function fleetClustersIn(inventory: TargetInventory, namespace?: string): number {
	return inventory.objects.filter(
		(object) =>
			isFleetCluster(object) &&
			(namespace === undefined || getString(object, 'metadata', 'namespace') === namespace),
	).length;
}

function managedClustersIn(inventory: TargetInventory): number {
	return inventory.objects.filter((item) => getString(item, 'kind') === 'ManagedCluster').length;
}

/**
 * The inventory to match against: the preferred one (by label) when it holds such clusters, else the one that holds
 * the most, the first of a tie; none when no inventory holds one.
 */
function inventoryFor(
	inventories: readonly TargetInventory[],
	clustersIn: (inventory: TargetInventory) => number,
	preferred?: string,
): TargetInventory | undefined {
	const chosen = inventories.find((inventory) => inventory.label === preferred);
	if (chosen && clustersIn(chosen) > 0) return chosen;
	let best: TargetInventory | undefined;
	let most = 0;
	for (const inventory of inventories) {
		const count = clustersIn(inventory);
		if (count > most) {
			best = inventory;
			most = count;
		}
	}
	return best;
}

/** How a list's entries name themselves in sentences: their name, or their place. */
function entryLabel(entry: unknown, place: string): string {
	const name = getString(entry, 'name');
	return name ? quoted(name) : place;
}

/** The lists' entries renamed to their places, so the controller's answer says which entry decided. */
function byPlace(entries: readonly unknown[]): Record<string, unknown>[] {
	return entries.map((entry, index) => ({ ...(isRecord(entry) ? entry : {}), name: `#${index}` }));
}

function placesOf(names: string | null): number[] {
	if (names === null) return [];
	return names.split(', ').map((name) => Number(name.slice(1)));
}

/** How each entry of a list fares against an inventory's clusters of some namespaces. */
interface ListOutcome {
	/** Per entry: the clusters its own criteria match. */
	readonly matched: readonly string[][];
	/** Per entry: the clusters it decides (deploys or skips; customizes or skips). */
	readonly decides: readonly string[][];
	/** Per entry: the earlier entries that take some of its matched clusters. */
	readonly takenBy: readonly Set<number>[];
	/** Per entry: why the first clusters are not matched, when none is. */
	readonly whyNot: readonly string[][];
	readonly error?: string;
}

function bundleOf(namespace: string, spec: Record<string, unknown>): Record<string, unknown> {
	return {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'Bundle',
		metadata: { name: 'lens', namespace },
		spec,
	};
}

function placedIn(
	inventory: TargetInventory,
	namespace: string,
	spec: Record<string, unknown>,
): { clusters: readonly ClusterTargeting[]; error?: string } {
	const [targeting] = fleetTargetsOf([...inventory.objects, bundleOf(namespace, spec)], {
		namespace,
		name: 'lens',
	});
	return targeting ?? { clusters: [] };
}

/**
 * A list of targets (deployment targets) or of customizations (behind a catch-all deployment target), each entry
 * alone and all of them together, over the given namespaces.
 */
function listOutcome(
	entries: readonly unknown[],
	inventory: TargetInventory,
	namespaces: readonly string[],
	as: 'targets' | 'customizations',
	allMatches = false,
	/** For customizations: the GitRepo's targets, which fleet apply makes deployment targets and restrictions. */
	deployedBy: readonly unknown[] = [{ name: 'all', clusterSelector: {} }],
): ListOutcome {
	const placed = byPlace(entries);
	const specOf = (list: readonly Record<string, unknown>[]): Record<string, unknown> =>
		as === 'targets'
			? { targets: list }
			: {
					targets: [...list, ...deployedBy],
					targetRestrictions: deployedBy,
					...(allMatches ? { targetCustomizationMode: 'AllMatches' } : {}),
				};
	const decidedBy = (cluster: ClusterTargeting): number[] =>
		as === 'targets'
			? placesOf(cluster.target)
			: cluster.target === null
				? []
				: placesOf(cluster.customization);
	const matched: string[][] = entries.map(() => []);
	const decides: string[][] = entries.map(() => []);
	const takenBy: Set<number>[] = entries.map(() => new Set<number>());
	const whyNot: string[][] = entries.map(() => []);
	let error: string | undefined;
	for (const namespace of namespaces) {
		const together = placedIn(inventory, namespace, specOf(placed));
		error ??= together.error;
		const decider = new Map(together.clusters.map((cluster) => [cluster.name, decidedBy(cluster)]));
		entries.forEach((entry, index) => {
			// Alone under its own name, so the reasons name it as the user wrote it.
			const alone = placedIn(inventory, namespace, specOf([isRecord(entry) ? entry : {}]));
			for (const cluster of alone.clusters) {
				const hit = as === 'targets' ? cluster.target !== null : cluster.customization !== null;
				if (cluster.target === null || !hit) {
					whyNot[index]?.push(cluster.why);
					continue;
				}
				matched[index]?.push(cluster.name);
				const places = decider.get(cluster.name) ?? [];
				if (places.includes(index)) decides[index]?.push(cluster.name);
				else for (const place of places) if (place < index) takenBy[index]?.add(place);
			}
		});
	}
	return { matched, decides, takenBy, whyNot, ...(error ? { error } : {}) };
}

function takenWords(
	entries: readonly unknown[],
	takers: ReadonlySet<number>,
	placeOf: (index: number) => string,
): string {
	return [...takers]
		.sort((a, b) => a - b)
		.map((index) => entryLabel(entries[index], placeOf(index)))
		.join(', ');
}

/** The reports of one list's entries: the lens title, and a finding for an entry that matches none or is shadowed. */
function listReports(
	entries: readonly unknown[],
	outcome: ListOutcome,
	place: {
		readonly placeOf: (index: number) => string;
		readonly noun: string;
		readonly inventory: string;
		readonly total: number;
		readonly rangeOf: (index: number) => { line: number; range: Range };
		readonly tooltipOf: (index: number) => string;
		readonly subject: string;
		readonly firstMatchWins: boolean;
	},
): EntryReport[] {
	return entries.map((entry, index) => {
		const { line, range } = place.rangeOf(index);
		const label = entryLabel(entry, place.placeOf(index));
		const tooltip = place.tooltipOf(index);
		const matched = outcome.matched[index] ?? [];
		const decides = outcome.decides[index] ?? [];
		const takers = outcome.takenBy[index] ?? new Set<number>();
		if (outcome.error) {
			return { lens: { line, title: `targets no cluster: ${outcome.error}`, tooltip } };
		}
		if (matched.length === 0) {
			const reasons = outcome.whyNot[index] ?? [];
			return {
				lens: {
					line,
					title: `matches none of the ${countOf(place.total, 'cluster')} of ${place.inventory}`,
					tooltip,
				},
				finding: {
					range,
					code: 'fleet-target-matches-no-cluster',
					subject: place.subject,
					message: `${place.noun} ${label} matches none of the ${countOf(place.total, 'Cluster')} of ${place.inventory}${
						reasons[0] === undefined
							? '.'
							: `: ${reasons[0].replace(/\.$/, '')}${reasons.length > 1 ? ` (and ${countOf(reasons.length - 1, 'other cluster')})` : ''}.`
					}`,
				},
			};
		}
		if (decides.length === 0 && place.firstMatchWins) {
			const earlier = takenWords(entries, takers, place.placeOf);
			return {
				lens: {
					line,
					title: `shadowed by ${earlier}, which ${takers.size === 1 ? 'matches' : 'match'} its ${countOf(matched.length, 'cluster')} of ${place.inventory} first`,
					tooltip,
				},
				finding: {
					range,
					code: 'fleet-target-shadowed',
					subject: place.subject,
					message: `${place.noun} ${label} never applies: every cluster it matches in ${place.inventory} (${matched.join(', ')}) matches the earlier ${earlier} first, and the first match decides.`,
				},
			};
		}
		const verb =
			getPath(entry, 'doNotDeploy') === true
				? 'skips'
				: place.noun === 'Target'
					? 'matches'
					: 'customizes';
		const taken = matched.length - decides.length;
		return {
			lens: {
				line,
				title: `${verb} ${countOf(decides.length, 'cluster')} of ${place.inventory}${namesText(decides)}${
					taken > 0 && place.firstMatchWins
						? ` (${taken} more taken by ${takenWords(entries, takers, place.placeOf)})`
						: ''
				}`,
				tooltip,
			},
		};
	});
}

function firstLineRange(
	analysis: ManifestAnalysis,
	start: number,
	text: string,
): { line: number; range: Range } {
	const end = text.indexOf('\n', start);
	const range = analysis.range(start, end < 0 ? text.length : end);
	return { line: range.start.line, range };
}

/** The reports of a Kubernetes manifest: GitRepo and HelmOp targets, and BindingPolicies. */
function manifestReports(
	text: string,
	inventories: readonly TargetInventory[],
	preferred: string | undefined,
): EntryReport[] {
	const analysis = analyzeManifest(text);
	const reports: EntryReport[] = [];
	for (const entry of analysis.objects) {
		const object = entry.object;
		const kind = getString(object, 'kind');
		const group = groupOf(getString(object, 'apiVersion') ?? '');
		if (group === 'fleet.cattle.io' && (kind === 'GitRepo' || kind === 'HelmOp')) {
			for (const report of fleetSourceReports(text, analysis, entry, inventories, preferred)) {
				reports.push(report);
			}
		}
		if (kind === 'BindingPolicy' && group.endsWith('kubestellar.io')) {
			const report = policyReport(entry, inventories, preferred);
			if (report) reports.push(report);
		}
	}
	return reports;
}

function fleetSourceReports(
	text: string,
	analysis: ManifestAnalysis,
	entry: AnalyzedObject,
	inventories: readonly TargetInventory[],
	preferred: string | undefined,
): EntryReport[] {
	const object = entry.object;
	const namespace = getString(object, 'metadata', 'namespace') ?? 'fleet-default';
	const inventory = inventoryFor(
		inventories,
		(candidate) => fleetClustersIn(candidate, namespace),
		preferred,
	);
	const targets = getArray(object, 'spec', 'targets') ?? [];
	if (!inventory || targets.length === 0) return [];
	const objectStart = entry.parsed.range.start;
	return listReports(targets, listOutcome(targets, inventory, [namespace], 'targets'), {
		placeOf: (index) => `spec.targets[${index}]`,
		noun: 'Target',
		inventory: inventory.label,
		total: fleetClustersIn(inventory, namespace),
		subject: `${getString(object, 'kind') ?? ''} ${namespace}/${getString(object, 'metadata', 'name') ?? ''}`,
		firstMatchWins: true,
		rangeOf: (index) => {
			const located = analysis.locate(entry, ['spec', 'targets', index]);
			const start = located?.item?.dash ?? located?.node?.start;
			if (start === undefined) {
				return { line: objectStart.line, range: { start: objectStart, end: objectStart } };
			}
			return firstLineRange(analysis, start, text);
		},
		tooltipOf: (index) =>
			`Target ${getString(targets[index], 'name') ?? `#${index}`} against the Clusters of namespace ${namespace} in ${inventory.label} (the clusters, ClusterGroups and BundleNamespaceMappings there), as the Fleet controller matches them: the first matching target decides. Click to choose the inventory.`,
	});
}

function policyReport(
	entry: AnalyzedObject,
	inventories: readonly TargetInventory[],
	preferred: string | undefined,
): EntryReport | undefined {
	const object = entry.object;
	const inventory = inventoryFor(inventories, managedClustersIn, preferred);
	if (!inventory) return undefined;
	const name = getString(object, 'metadata', 'name') ?? '';
	const [policy] = bindingPolicyTargetsOf([...inventory.objects, object]).filter(
		(candidate) => candidate.name === name,
	);
	if (!policy) return undefined;
	const names = policy.clusters
		.filter((cluster) => cluster.deployed)
		.map((cluster) => cluster.name);
	const { range } = entry.parsed;
	const line = range.start.line;
	const selectors = getArray(object, 'spec', 'clusterSelectors') ?? [];
	const lens = {
		line,
		title: `selects ${names.length} of ${countOf(policy.clusters.length, 'cluster')} of ${inventory.label}${namesText(names)}`,
		tooltip: `spec.clusterSelectors against the ManagedClusters of ${inventory.label}, as KubeStellar selects them (ORed; none selects none). Click to choose the inventory.`,
	};
	// No selector at all has its own diagnostic, which needs no inventory.
	if (names.length > 0 || selectors.length === 0) return { lens };
	const [first, ...others] = policy.clusters.map((cluster) => cluster.why.replace(/\.$/, ''));
	return {
		lens,
		finding: {
			range: { start: range.start, end: { line, character: range.start.character } },
			code: 'kubestellar-policy-selects-no-cluster',
			subject: `BindingPolicy ${name}`,
			message: `BindingPolicy ${quoted(name)} selects none of the ${countOf(policy.clusters.length, 'ManagedCluster')} of ${inventory.label}: ${first ?? 'none is there'}${others.length > 0 ? ` (and ${countOf(others.length, 'other cluster')})` : ''}.`,
		},
	};
}

/** A line and character of an offset. */
function rangeIn(lines: LineCounter, start: number, end: number): Range {
	const from = lines.linePos(start);
	const to = lines.linePos(end);
	return {
		start: { line: from.line - 1, character: from.col - 1 },
		end: { line: to.line - 1, character: to.col - 1 },
	};
}

/**
 * The GitRepo of the inventory that reads this fleet.yaml: one of whose spec.paths the file's folder ends with (the
 * repository's root is not known in the editor, so the path is matched as a suffix); the first such GitRepo.
 */
function gitRepoReading(
	fileName: string,
	inventory: TargetInventory,
): Record<string, unknown> | undefined {
	const folder = fileName.replace(/\\/g, '/').replace(/\/?fleet\.ya?ml$/, '');
	return inventory.objects.find(
		(object): object is Record<string, unknown> =>
			isRecord(object) &&
			object.kind === 'GitRepo' &&
			groupOf(getString(object, 'apiVersion') ?? '') === 'fleet.cattle.io' &&
			(getArray(object, 'spec', 'paths') ?? []).some((path) => {
				const clean = String(path).replace(/^\.?\/+|\/+$/g, '');
				return clean !== '' && (folder === clean || folder.endsWith(`/${clean}`));
			}),
	);
}

/** The reports of a fleet.yaml: each targetCustomizations entry, judged behind fleet.yaml's own targets. */
function fleetYamlReports(
	text: string,
	fileName: string,
	inventories: readonly TargetInventory[],
	preferred: string | undefined,
): EntryReport[] {
	const lines = new LineCounter();
	const document = parseDocument(text, { lineCounter: lines, keepSourceTokens: false });
	if (document.errors.length > 0) return [];
	const content = document.toJS() as unknown;
	if (!isRecord(content) || typeof content.apiVersion === 'string') return [];
	const customizations = getArray(content, 'targetCustomizations') ?? [];
	if (customizations.length === 0) return [];
	const inventory = inventoryFor(inventories, (candidate) => fleetClustersIn(candidate), preferred);
	if (!inventory) return [];
	const gitRepo = gitRepoReading(fileName, inventory);
	const namespaces = gitRepo
		? [getString(gitRepo, 'metadata', 'namespace') ?? '']
		: [
				...new Set(
					inventory.objects
						.filter(isFleetCluster)
						.map((item) => getString(item, 'metadata', 'namespace') ?? ''),
				),
			].sort();
	// fleet apply puts fleet.yaml's own targets before the customizations, where they are customizations too.
	const own = getArray(content, 'targets') ?? [];
	const all = [...own, ...customizations];
	const allMatches = getString(content, 'targetCustomizationMode') === 'AllMatches';
	const gitTargets = getArray(gitRepo, 'spec', 'targets') ?? [];
	const outcome = listOutcome(
		all,
		inventory,
		namespaces,
		'customizations',
		allMatches,
		gitRepo === undefined
			? undefined
			: gitTargets.length > 0
				? gitTargets
				: [{ name: 'default', clusterGroup: 'default' }],
	);
	const reading = gitRepo
		? ` as GitRepo ${getString(gitRepo, 'metadata', 'namespace') ?? ''}/${getString(gitRepo, 'metadata', 'name') ?? ''} deploys this path (its targets restrict it)`
		: ' (every namespace: no GitRepo of the inventory names this path)';
	const section = isMap(document.contents)
		? (document.contents.get('targetCustomizations', true) as Node | undefined)
		: undefined;
	const items = isSeq(section) ? section.items : [];
	const reports = listReports(all, outcome, {
		placeOf: (index) =>
			index < own.length ? `targets[${index}]` : `targetCustomizations[${index - own.length}]`,
		noun: 'Customization',
		inventory: inventory.label,
		total: namespaces.reduce((sum, namespace) => sum + fleetClustersIn(inventory, namespace), 0),
		subject: 'fleet.yaml',
		firstMatchWins: !allMatches,
		rangeOf: (index) => {
			const node = items[index - own.length] as Node | undefined;
			const start = node?.range?.[0] ?? 0;
			const lineEnd = text.indexOf('\n', start);
			const range = rangeIn(lines, start, lineEnd < 0 ? text.length : lineEnd);
			// The dash stands before the item's first key.
			const dashed = {
				...range,
				start: {
					line: range.start.line,
					character: Math.max(0, text.lastIndexOf('-', start) - text.lastIndexOf('\n', start) - 1),
				},
			};
			return { line: range.start.line, range: dashed };
		},
		tooltipOf: (index) =>
			`targetCustomizations entry ${getString(all[index], 'name') ?? `target${String(index).padStart(3, '0')}`} against the Clusters of ${inventory.label}${reading}; ${
				allMatches
					? 'targetCustomizationMode AllMatches applies every matching entry.'
					: 'the first matching entry decides (FirstMatch, the default).'
			} Click to choose the inventory.`,
	});
	return reports.slice(own.length);
}

/** Whether a text can hold targets at all: the others are not read (nor an inventory gathered for them). */
export function mayHoldTargets(text: string): boolean {
	return /\b(targets|targetCustomizations|clusterSelectors)\s*:/.test(text);
}

function reportsOf(
	text: string,
	fileName: string,
	inventories: readonly TargetInventory[],
	preferred: string | undefined,
): EntryReport[] {
	if (inventories.length === 0 || !mayHoldTargets(text)) return [];
	// Each entry is placed alone and with its list, in each namespace: against the few objects targeting reads, not
	// a live root's every object each time.
	const narrowed = inventories.map(targetingInputOf);
	if (/(^|[\\/])fleet\.ya?ml$/.test(fileName) && !/^\s*apiVersion:/m.test(text)) {
		return fleetYamlReports(text, fileName, narrowed, preferred);
	}
	return manifestReports(text, narrowed, preferred);
}

const fleetTargetingKinds = new Set([
	'Cluster',
	'ClusterGroup',
	'BundleNamespaceMapping',
	'GitRepo',
]);

/** An inventory with only what targeting reads: Fleet's clusters, groups, mappings and GitRepos, Namespaces, WECs. */
function targetingInputOf(inventory: TargetInventory): TargetInventory {
	return {
		label: inventory.label,
		objects: withoutLists(inventory.objects).filter((object) => {
			const kind = getString(object, 'kind') ?? '';
			const group = groupOf(getString(object, 'apiVersion') ?? '');
			return (
				(group === 'fleet.cattle.io' && fleetTargetingKinds.has(kind)) ||
				(group === '' && kind === 'Namespace') ||
				kind === 'ManagedCluster'
			);
		}),
	};
}

/** The lenses of a document: a fleet.yaml's customizations, or a manifest's targets and BindingPolicies. */
export function targetLensesOf(
	text: string,
	fileName: string,
	inventories: readonly TargetInventory[],
	preferred?: string,
): TargetLens[] {
	return reportsOf(text, fileName, inventories, preferred).map((report) => report.lens);
}

/** The targeting findings of a document: entries that match no cluster, shadowed ones, policies that select none. */
export function targetFindingsOf(
	text: string,
	fileName: string,
	inventories: readonly TargetInventory[],
	preferred?: string,
): TargetFinding[] {
	return reportsOf(text, fileName, inventories, preferred).flatMap((report) =>
		report.finding ? [report.finding] : [],
	);
}
