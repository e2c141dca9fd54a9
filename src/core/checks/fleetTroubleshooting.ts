// Fleet's own troubleshooting classes, found on the objects of one input (a dump, a live context, a folder of files).
// Read from rancher/fleet pkg/troubleshooting/collector.go (the detect*/count* functions and getOrphanedSecrets,
// checkContentIssues) at commit 3b2c622ce176b11644abc7fb768f87c3ffb5a3ab. Departures, on purpose:
// - `fleet monitor` lists Clusters and ClusterGroups in one namespace; here every namespace of the input is checked.
// - `fleet analyze` prints a commit mismatch as "polling: <webhookCommit>, webhook: <pollingCommit>"; here each label
//   names its own field. A GitRepo with neither a polling nor a webhook commit (written by a release before those
//   fields) is not compared.
// - A class runs only on objects that carry a status (a GitOps repository of manifests gets nothing), and a class
//   that compares two kinds only when the input holds the other kind; otherwise a note says once why not.
// - secretsWithValuesHashMismatch hashes the Secrets' data, which is never read here: it is never run.
// - Ages are measured from the clock the caller passes (see newestTimestampOf), not from the wall clock.
import { readKubeEvent } from '../model/kubeEvent.ts';
import { getInt64 } from '../model/int64.ts';
import {
	getArray,
	getPath,
	getRecord,
	getString,
	groupOf,
	isRecord,
	labelsOf,
	refOf,
	type ObjectRef,
} from '../model/object.ts';
import type { Range } from '../model/range.ts';
import { fleetCheckRules, type FleetCheckCode } from './fleetCodes.ts';
import {
	pendingDependenciesOf,
	pendingDependencySentence,
} from '../status/fleetDependencyMessage.ts';

/** One object of an input and where it came from (a file and range, an archive entry, a live context). */
export interface InputObject<Source> {
	readonly object: Readonly<Record<string, unknown>>;
	readonly source: Source;
}

/** What the checks need besides the objects. */
export interface FleetCheckOptions {
	/** The time ages are measured from, in ms since the epoch; without it the age checks are not run. */
	readonly now: number | undefined;
	/**
	 * Kinds the input is known to hold every object of (a dump or a live context lists them whole). Any other kind
	 * counts as held when the input holds one object of it.
	 */
	readonly completeKinds?: ReadonlySet<string>;
}

/** A Fleet troubleshooting finding on one object of the input. */
export interface FleetFinding<Source> {
	readonly object: ObjectRef;
	readonly source: Source;
	readonly code: FleetCheckCode;
	readonly severity: 'error' | 'warning';
	readonly message: string;
	/** The Secret or Content the finding is about, when it is shown on the Bundle or BundleDeployment referring to it. */
	readonly via?: ObjectRef;
}

/** A class that was not run on this input, and why. */
export interface FleetCheckNote {
	readonly code: FleetCheckCode;
	readonly message: string;
}

/** The findings of one input and the notes on what was not checked. */
export interface FleetCheckResult<Source> {
	readonly findings: FleetFinding<Source>[];
	readonly notes: FleetCheckNote[];
}

// Names from rancher/fleet pkg/apis/fleet.cattle.io/v1alpha1 (gitrepo_types.go, bundle_types.go,
// bundledeployment_types.go).
const commitLabel = 'fleet.cattle.io/commit';
const repoLabel = 'fleet.cattle.io/repo-name';
const bundleLabel = 'fleet.cattle.io/bundle-name';
const bundleNamespaceLabel = 'fleet.cattle.io/bundle-namespace';
const bundleSecretTypes = new Set([
	'fleet.cattle.io/bundle-values/v1alpha1',
	'fleet.cattle.io/bundle-deployment/v1alpha1',
]);
/** Fleet's gitjob controller polls every 15 s when spec.pollingInterval is unset or zero (defaultPollingSyncInterval). */
const defaultPollingIntervalMs = 15_000;
const agentSilenceMs = 24 * 60 * 60 * 1000;
const largeBundleBytes = 1024 * 1024;

type FleetKind = 'GitRepo' | 'Bundle' | 'BundleDeployment' | 'Cluster' | 'ClusterGroup' | 'Content';
const fleetKinds: readonly string[] = [
	'GitRepo',
	'Bundle',
	'BundleDeployment',
	'Cluster',
	'ClusterGroup',
	'Content',
];

interface Item<Source> {
	readonly object: Readonly<Record<string, unknown>>;
	readonly source: Source;
	readonly ref: ObjectRef;
	readonly key: string;
	readonly hasStatus: boolean;
}

function keyOf(namespace: string, name: string): string {
	return `${namespace}/${name}`;
}

function hasStatus(object: unknown): boolean {
	const status = getRecord(object, 'status');
	return status !== undefined && Object.keys(status).length > 0;
}

function fleetKindOf(object: unknown): FleetKind | 'Secret' | undefined {
	const kind = getString(object, 'kind') ?? '';
	const apiVersion = getString(object, 'apiVersion') ?? '';
	if (kind === 'Secret' && (apiVersion === 'v1' || apiVersion === '')) {
		return bundleSecretTypes.has(getString(object, 'type') ?? '') ? 'Secret' : undefined;
	}
	if (groupOf(apiVersion) !== 'fleet.cattle.io' || !fleetKinds.includes(kind)) return undefined;
	return kind as FleetKind;
}

function integerText(object: unknown, ...path: readonly string[]): string {
	return String(getInt64(object, ...path) ?? 0n);
}

function hasField(object: unknown, ...path: readonly string[]): boolean {
	const value = getPath(object, ...path);
	return value !== undefined && value !== null && value !== '';
}

function readyCondition(object: unknown): Record<string, unknown> | undefined {
	return getArray(object, 'status', 'conditions')
		?.filter(isRecord)
		.find((condition) => condition.type === 'Ready');
}

/** Content names are "s-" and the resources' SHA-256, cut to 63 characters (collector.go). */
function contentNameOfSum(sum: string): string {
	return `s-${sum}`.slice(0, 63);
}

/** A deploymentID is "s-<sha256>:<options hash>" or "s-<sha256>"; the Content is named by the part before ":". */
function contentNameOfDeploymentId(deploymentId: string): string {
	const colon = deploymentId.indexOf(':');
	return colon < 0 ? deploymentId : deploymentId.slice(0, colon);
}

const goDurationUnitsMs: Readonly<Record<string, number>> = {
	ns: 1e-6,
	us: 1e-3,
	'\u00b5s': 1e-3,
	'\u03bcs': 1e-3,
	ms: 1,
	s: 1e3,
	m: 60e3,
	h: 3600e3,
};

/** A Go duration (metav1.Duration) in ms, or undefined when it is not one. */
function goDurationMs(text: string): number | undefined {
	const body = text.replace(/^[+-]/, '');
	if (body === '0') return 0;
	let total = 0;
	let rest = body;
	if (rest === '') return undefined;
	while (rest !== '') {
		const match = /^(\d+(?:\.\d*)?|\.\d+)([^\d.]+)/.exec(rest);
		const unit = match?.[2];
		const scale = unit !== undefined ? goDurationUnitsMs[unit] : undefined;
		if (!match || scale === undefined) return undefined;
		total += Number(match[1]) * scale;
		rest = rest.slice(match[0].length);
	}
	return text.startsWith('-') ? -total : total;
}

/** A duration for a message: "3d4h", "2h5m", "40s". */
function ageText(ms: number): string {
	const seconds = Math.max(0, Math.floor(ms / 1000));
	const days = Math.floor(seconds / 86_400);
	const hours = Math.floor((seconds % 86_400) / 3600);
	const minutes = Math.floor((seconds % 3600) / 60);
	if (days > 0) return `${days}d${hours > 0 ? `${hours}h` : ''}`;
	if (hours > 0) return `${hours}h${minutes > 0 ? `${minutes}m` : ''}`;
	if (minutes > 0) return `${minutes}m${seconds % 60 > 0 ? `${seconds % 60}s` : ''}`;
	return `${seconds}s`;
}

function quoted(text: string): string {
	return JSON.stringify(text);
}

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function timeOf(text: unknown): number | undefined {
	if (typeof text !== 'string' || text === '') return undefined;
	const time = Date.parse(text);
	return Number.isFinite(time) ? time : undefined;
}

/**
 * The clock a user sets for Fleet's checks (`--now`, KUBE_STATUS_LENS_NOW): an RFC 3339 time in ms, undefined when none
 * is given, or 'invalid' for text that is not one (Date.parse alone takes "2026", "March 1" and other loose forms).
 */
export function explicitClockOf(text: string | undefined): number | undefined | 'invalid' {
	if (text === undefined || text === '') return undefined;
	const time = Date.parse(text);
	return Number.isFinite(time) && /^\d{4}-\d{2}-\d{2}T/.test(text) ? time : 'invalid';
}

/**
 * The clock of Fleet's checks on a root: the one the user set, else the wall clock for a live context, else undefined
 * (the checks then measure from the newest timestamp the objects hold: a dump's ages are those of when it was taken).
 */
export function fleetChecksClockOf(
	explicit: string | undefined,
	live: boolean,
	wallClock: number,
): number | undefined {
	const set = explicitClockOf(explicit);
	if (typeof set === 'number') return set;
	return live ? wallClock : undefined;
}

/**
 * The newest timestamp the objects hold (conditions, a Cluster's `status.agent.lastSeen`, a GitRepo's
 * `status.lastPollingTriggered`, Events), in ms since the epoch: the clock of a dump or a folder of files, whose ages are
 * measured from the time the objects were written rather than from now.
 */
export function newestTimestampOf(
	objects: Iterable<Readonly<Record<string, unknown>>>,
): number | undefined {
	let newest: number | undefined;
	const see = (text: unknown): void => {
		const time = timeOf(text);
		if (time !== undefined && (newest === undefined || time > newest)) newest = time;
	};
	for (const object of objects) {
		if (getString(object, 'kind') === 'Event') {
			const event = readKubeEvent(object);
			see(event?.lastSeen);
			continue;
		}
		for (const condition of getArray(object, 'status', 'conditions') ?? []) {
			if (!isRecord(condition)) continue;
			see(condition.lastTransitionTime);
			see(condition.lastUpdateTime);
		}
		see(getPath(object, 'status', 'agent', 'lastSeen'));
		see(getPath(object, 'status', 'lastPollingTriggered'));
	}
	return newest;
}

/** The objects of one input, indexed as the classes read them. */
class FleetInput<Source> {
	readonly byKind = new Map<FleetKind | 'Secret', Item<Source>[]>();
	readonly byKey = new Map<string, Item<Source>>();

	constructor(objects: readonly InputObject<Source>[]) {
		for (const { object, source } of objects) {
			const kind = fleetKindOf(object);
			if (kind === undefined) continue;
			const ref = refOf(object);
			if (ref.name === '') continue;
			const item: Item<Source> = {
				object,
				source,
				ref: { ...ref, kind },
				key: keyOf(ref.namespace, ref.name),
				hasStatus: hasStatus(object),
			};
			let list = this.byKind.get(kind);
			if (!list) this.byKind.set(kind, (list = []));
			list.push(item);
			// A workspace may hold an object both as written (no status) and as dumped: the dumped one is looked up.
			const key = `${kind}\u0000${item.key}`;
			if (item.hasStatus || this.byKey.get(key)?.hasStatus !== true) this.byKey.set(key, item);
		}
	}

	/** The objects of a kind that carry a status (Secrets and Contents are taken as they are: Fleet writes them). */
	checked(kind: FleetKind | 'Secret'): Item<Source>[] {
		const items = this.byKind.get(kind) ?? [];
		return kind === 'Secret' || kind === 'Content' ? items : items.filter((item) => item.hasStatus);
	}

	find(kind: FleetKind, namespace: string, name: string): Item<Source> | undefined {
		return this.byKey.get(`${kind}\u0000${keyOf(namespace, name)}`);
	}
}

const kindPlurals: Readonly<Record<FleetKind | 'Secret', string>> = {
	GitRepo: 'GitRepos',
	Bundle: 'Bundles',
	BundleDeployment: 'BundleDeployments',
	Cluster: 'Clusters',
	ClusterGroup: 'ClusterGroups',
	Content: 'Contents',
	Secret: 'Secrets',
};

class FleetChecks<Source> {
	readonly findings: FleetFinding<Source>[] = [];
	readonly notes: FleetCheckNote[] = [];
	private readonly noted = new Set<FleetCheckCode>();
	readonly input: FleetInput<Source>;
	readonly options: FleetCheckOptions;

	constructor(input: FleetInput<Source>, options: FleetCheckOptions) {
		this.input = input;
		this.options = options;
	}

	add(item: Item<Source>, code: FleetCheckCode, message: string, via?: ObjectRef): void {
		const finding = {
			object: item.ref,
			source: item.source,
			code,
			severity: fleetCheckRules[code].severity,
			message,
		};
		this.findings.push(via ? { ...finding, via } : finding);
	}

	note(code: FleetCheckCode, message: string): void {
		if (this.noted.has(code)) return;
		this.noted.add(code);
		this.notes.push({ code, message: `${code} not checked: ${message}` });
	}

	/** Whether the input holds the kind a class compares with; when not, the class is noted as not checked. */
	holds(kind: FleetKind, code: FleetCheckCode, subjects: readonly Item<Source>[]): boolean {
		if (this.options.completeKinds?.has(kind) === true) return true;
		if ((this.input.byKind.get(kind) ?? []).length > 0) return true;
		if (subjects.length > 0) {
			this.note(
				code,
				`the input holds no ${kindPlurals[kind]} (a folder of files may hold only some of Fleet's objects)`,
			);
		}
		return false;
	}
}

/** The dependencies a Deployed condition with reason WaitingForDependency names, in a sentence; else undefined. */
function dependencyWaitOf(object: unknown): string | undefined {
	const deployed: unknown = (getArray(object, 'status', 'conditions') ?? []).find(
		(condition) => getString(condition, 'type') === 'Deployed',
	);
	if (getString(deployed, 'reason') !== 'WaitingForDependency') return undefined;
	const pending = pendingDependenciesOf(getString(deployed, 'message') ?? '');
	return pending && pending.length > 0
		? pending.map(pendingDependencySentence).join('; ')
		: 'a bundle it depends on is not in an accepted state';
}

function stuckBundleDeployments<S>(checks: FleetChecks<S>, items: readonly Item<S>[]): void {
	for (const item of items) {
		const reasons: string[] = [];
		if (hasField(item.object, 'metadata', 'deletionTimestamp')) {
			reasons.push('it is being deleted (metadata.deletionTimestamp is set) but is still there');
		}
		const wanted = getString(item.object, 'spec', 'deploymentID') ?? '';
		const applied = getString(item.object, 'status', 'appliedDeploymentID') ?? '';
		if (wanted !== applied) {
			reasons.push(
				`the agent has not applied spec.deploymentID ${quoted(wanted)} (status.appliedDeploymentID is ${applied === '' ? 'empty' : quoted(applied)})`,
			);
		}
		const force = integerText(item.object, 'spec', 'options', 'forceSyncGeneration');
		const sync = getInt64(item.object, 'status', 'syncGeneration');
		if (force !== '0' && !force.startsWith('-') && String(sync) !== force) {
			reasons.push(
				`the forced sync is not applied (status.syncGeneration ${sync === undefined ? 'is absent' : String(sync)}, spec.options.forceSyncGeneration ${force})`,
			);
		}
		if (reasons.length > 0) {
			// fleet analyze counts a BundleDeployment that Fleet 0.16 holds for its dependsOn as stuck too; the agent is
			// fine then, and what to look at is the dependency.
			const waiting = wanted !== applied ? dependencyWaitOf(item.object) : undefined;
			checks.add(
				item,
				'fleet-stuck-bundle-deployments',
				`Stuck BundleDeployment: ${reasons.join('; ')}. ${
					waiting
						? `The agent holds it for spec.dependsOn (WaitingForDependency): ${waiting}. Look at that bundle on the same cluster.`
						: 'Look at the fleet-agent on its cluster.'
				}`,
			);
		}
	}
}

function gitRepoBundleInconsistencies<S>(
	checks: FleetChecks<S>,
	bundles: readonly Item<S>[],
): void {
	for (const bundle of bundles) {
		const labels = labelsOf(bundle.object);
		const repoName = labels[repoLabel];
		if (repoName === undefined) continue;
		const gitRepo = checks.input.find('GitRepo', bundle.ref.namespace, repoName);
		if (!gitRepo || !gitRepo.hasStatus) continue;
		const reasons: string[] = [];
		const bundleCommit = labels[commitLabel] ?? '';
		const repoCommit = getString(gitRepo.object, 'status', 'commit') ?? '';
		if (bundleCommit !== repoCommit) {
			reasons.push(
				`its commit ${quoted(bundleCommit)} (label ${commitLabel}) is not the GitRepo's ${quoted(repoCommit)}`,
			);
		}
		const bundleForce = integerText(bundle.object, 'spec', 'forceSyncGeneration');
		const repoForce = integerText(gitRepo.object, 'spec', 'forceSyncGeneration');
		if (bundleForce !== repoForce) {
			reasons.push(`its spec.forceSyncGeneration ${bundleForce} is not the GitRepo's ${repoForce}`);
		}
		if (reasons.length > 0) {
			checks.add(
				bundle,
				'fleet-git-repo-bundle-inconsistencies',
				`Bundle out of step with GitRepo ${repoName}: ${reasons.join('; ')}. The GitRepo's job has not updated it yet, or failed.`,
			);
		}
	}
}

function multipleFinalizers<S>(checks: FleetChecks<S>, items: readonly Item<S>[]): void {
	for (const item of items) {
		const finalizers = (getArray(item.object, 'metadata', 'finalizers') ?? []).filter(
			(finalizer): finalizer is string => typeof finalizer === 'string',
		);
		if (finalizers.length <= 1) continue;
		checks.add(
			item,
			'fleet-resources-with-multiple-finalizers',
			`${item.ref.kind} with ${plural(finalizers.length, 'finalizer')} (${finalizers.join(', ')}): Fleet sets one; more may block its deletion.`,
		);
	}
}

function utf8Length(text: string): number {
	let bytes = 0;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code < 0x80) bytes += 1;
		else if (code < 0x800) bytes += 2;
		else if (code >= 0xd800 && code <= 0xdbff) {
			bytes += 4;
			index++;
		} else bytes += 3;
	}
	return bytes;
}

function largeBundles<S>(checks: FleetChecks<S>, bundles: readonly Item<S>[]): void {
	for (const bundle of bundles) {
		const json = JSON.stringify(bundle.object);
		if (json.length * 3 <= largeBundleBytes) continue;
		const size = utf8Length(json);
		if (size <= largeBundleBytes) continue;
		checks.add(
			bundle,
			'fleet-large-bundles',
			`Large Bundle: ${Math.floor(size / 1024)} KiB as JSON, over 1 MiB (etcd's performance threshold). Split it, or leave large files out with .fleetignore.`,
		);
	}
}

function bundlesWithMissingContent<S>(checks: FleetChecks<S>, bundles: readonly Item<S>[]): void {
	const withSum = bundles.filter((bundle) =>
		hasField(bundle.object, 'status', 'resourcesSHA256Sum'),
	);
	if (!checks.holds('Content', 'fleet-bundles-with-missing-content', withSum)) return;
	for (const bundle of withSum) {
		const name = contentNameOfSum(getString(bundle.object, 'status', 'resourcesSHA256Sum') ?? '');
		if (checks.input.find('Content', '', name)) continue;
		checks.add(
			bundle,
			'fleet-bundles-with-missing-content',
			`Bundle with missing Content: no Content ${name} holds its resources (status.resourcesSHA256Sum).`,
		);
	}
}

function bundlesWithNoDeployments<S>(checks: FleetChecks<S>, bundles: readonly Item<S>[]): void {
	if (!checks.holds('BundleDeployment', 'fleet-bundles-with-no-deployments', bundles)) return;
	const counts = new Map<string, number>();
	for (const deployment of checks.input.byKind.get('BundleDeployment') ?? []) {
		const labels = labelsOf(deployment.object);
		const name = labels[bundleLabel] ?? '';
		const namespace = labels[bundleNamespaceLabel] ?? '';
		if (name === '' || namespace === '') continue;
		const key = keyOf(namespace, name);
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	for (const bundle of bundles) {
		if ((counts.get(bundle.key) ?? 0) > 0) continue;
		checks.add(
			bundle,
			'fleet-bundles-with-no-deployments',
			'Bundle with no BundleDeployments: no cluster matches its targets. Check the targets of the GitRepo or fleet.yaml and the labels of the Clusters.',
		);
	}
}

function gitReposWithNoBundles<S>(checks: FleetChecks<S>, gitRepos: readonly Item<S>[]): void {
	if (!checks.holds('Bundle', 'fleet-git-repos-with-no-bundles', gitRepos)) return;
	const counts = new Map<string, number>();
	for (const bundle of checks.input.byKind.get('Bundle') ?? []) {
		const repoName = labelsOf(bundle.object)[repoLabel] ?? '';
		if (repoName === '') continue;
		const key = keyOf(bundle.ref.namespace, repoName);
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	for (const gitRepo of gitRepos) {
		if ((counts.get(gitRepo.key) ?? 0) > 0) continue;
		checks.add(
			gitRepo,
			'fleet-git-repos-with-no-bundles',
			"GitRepo with no Bundles: its job created none. Check the job's log, spec.paths and the repository's fleet.yaml.",
		);
	}
}

function clustersWithAgentIssues<S>(checks: FleetChecks<S>, clusters: readonly Item<S>[]): void {
	const now = checks.options.now;
	for (const cluster of clusters) {
		const reasons: string[] = [];
		const ready = readyCondition(cluster.object);
		if (ready?.status !== 'True') {
			const said =
				typeof ready?.message === 'string' && ready.message !== ''
					? `: ${quoted(ready.message)}`
					: '';
			const state =
				ready === undefined ? 'has no Ready condition' : `is Ready=${String(ready.status)}${said}`;
			reasons.push(
				`not Ready: it ${state} (a Cluster's Ready comes from its bundles: look at its BundleDeployments that are not ready)`,
			);
		}
		const lastSeenText = getString(cluster.object, 'status', 'agent', 'lastSeen');
		const lastSeen = timeOf(lastSeenText);
		if (lastSeen === undefined) {
			reasons.push(
				'its agent was never seen (no status.agent.lastSeen): the fleet-agent has not registered or reported',
			);
		} else if (now === undefined) {
			checks.note(
				'fleet-clusters-with-agent-issues',
				"the agent's last-seen age (the input holds no timestamp to measure it from; give --now)",
			);
		} else if (lastSeen < now - agentSilenceMs) {
			reasons.push(
				`its agent was last seen ${ageText(now - lastSeen)} ago (${lastSeenText ?? ''}), more than 24 hours: check the fleet-agent on that cluster and its connection to the Fleet controller`,
			);
		}
		if (reasons.length > 0) {
			checks.add(
				cluster,
				'fleet-clusters-with-agent-issues',
				`Cluster with agent issues: ${reasons.join('; ')}.`,
			);
		}
	}
}

function clusterGroupsWithNoClusters<S>(checks: FleetChecks<S>, groups: readonly Item<S>[]): void {
	if (!checks.holds('Cluster', 'fleet-cluster-groups-with-no-clusters', groups)) return;
	for (const group of groups) {
		if (integerText(group.object, 'status', 'clusterCount') !== '0') continue;
		checks.add(
			group,
			'fleet-cluster-groups-with-no-clusters',
			"ClusterGroup with no clusters: status.clusterCount is 0. Check spec.selector against the Clusters' labels.",
		);
	}
}

function bundlesWithMissingGitRepo<S>(checks: FleetChecks<S>, bundles: readonly Item<S>[]): void {
	const labelled = bundles.filter((bundle) => (labelsOf(bundle.object)[repoLabel] ?? '') !== '');
	if (!checks.holds('GitRepo', 'fleet-bundles-with-missing-git-repo', labelled)) return;
	for (const bundle of labelled) {
		const repoName = labelsOf(bundle.object)[repoLabel] ?? '';
		if (checks.input.find('GitRepo', bundle.ref.namespace, repoName)) continue;
		checks.add(
			bundle,
			'fleet-bundles-with-missing-git-repo',
			`Bundle with missing GitRepo: it names GitRepo ${repoName} (label ${repoLabel}), which is not there in namespace ${bundle.ref.namespace}.`,
		);
	}
}

function bundleDeploymentsWithMissingBundle<S>(
	checks: FleetChecks<S>,
	deployments: readonly Item<S>[],
): void {
	const labelled = deployments.filter((deployment) => {
		const labels = labelsOf(deployment.object);
		return (labels[bundleLabel] ?? '') !== '' && (labels[bundleNamespaceLabel] ?? '') !== '';
	});
	if (!checks.holds('Bundle', 'fleet-bundle-deployments-with-missing-bundle', labelled)) return;
	for (const deployment of labelled) {
		const labels = labelsOf(deployment.object);
		const namespace = labels[bundleNamespaceLabel] ?? '';
		const name = labels[bundleLabel] ?? '';
		if (checks.input.find('Bundle', namespace, name)) continue;
		checks.add(
			deployment,
			'fleet-bundle-deployments-with-missing-bundle',
			`BundleDeployment with missing Bundle: its Bundle ${namespace}/${name} is not there; it is left over.`,
		);
	}
}

function gitRepoFindings<S>(checks: FleetChecks<S>, gitRepos: readonly Item<S>[]): void {
	const now = checks.options.now;
	for (const gitRepo of gitRepos) {
		const commit = getString(gitRepo.object, 'status', 'commit') ?? '';
		const polling = getString(gitRepo.object, 'status', 'pollingCommit') ?? '';
		const webhook = getString(gitRepo.object, 'status', 'webhookCommit') ?? '';
		// Fleet releases before pollingCommit and webhookCommit existed leave both out: nothing to compare with.
		const comparable =
			hasField(gitRepo.object, 'status', 'pollingCommit') ||
			hasField(gitRepo.object, 'status', 'webhookCommit');
		if (comparable && commit !== polling && commit !== webhook) {
			checks.add(
				gitRepo,
				'fleet-git-repos-with-commit-mismatch',
				`GitRepo with commit mismatch (polling: ${quoted(polling)}, webhook: ${quoted(webhook)}, status commit: ${quoted(commit)}): the deployed commit is neither the polled nor the webhook one.`,
			);
		}
		const generation = integerText(gitRepo.object, 'metadata', 'generation');
		const observed = integerText(gitRepo.object, 'status', 'observedGeneration');
		if (generation !== observed) {
			checks.add(
				gitRepo,
				'fleet-git-repos-with-generation-mismatch',
				`GitRepo with generation mismatch (gen: ${generation}, observed: ${observed}): the controller has not processed its latest spec.`,
			);
		}
		const intervalText = getString(gitRepo.object, 'spec', 'pollingInterval');
		const given = intervalText === undefined ? undefined : goDurationMs(intervalText);
		const interval = given === undefined || given === 0 ? defaultPollingIntervalMs : given;
		// Fleet's GitRepoStatus.LastPollingTime is written as `lastPollingTriggered` (its JSON tag); only the
		// collector's own report names it lastPollingTime.
		const lastPolledText = getString(gitRepo.object, 'status', 'lastPollingTriggered');
		const lastPolled = timeOf(lastPolledText);
		if (lastPolled !== undefined && now === undefined) {
			checks.note(
				'fleet-git-repos-unpolled',
				'the input holds no timestamp to measure the last poll from (give --now)',
			);
		} else if (lastPolled === undefined || (now !== undefined && lastPolled < now - interval)) {
			const when =
				lastPolled === undefined || now === undefined
					? 'never (no status.lastPollingTriggered)'
					: `${ageText(now - lastPolled)} ago (${lastPolledText ?? ''})`;
			checks.add(
				gitRepo,
				'fleet-git-repos-unpolled',
				`GitRepo last polled too long ago: ${when}, polling interval ${ageText(interval)}. Check the gitjob controller.`,
			);
		}
	}
}

function bundleGenerations<S>(checks: FleetChecks<S>, bundles: readonly Item<S>[]): void {
	for (const bundle of bundles) {
		const generation = integerText(bundle.object, 'metadata', 'generation');
		const observed = integerText(bundle.object, 'status', 'observedGeneration');
		if (generation === observed) continue;
		checks.add(
			bundle,
			'fleet-bundles-with-generation-mismatch',
			`Bundle with generation mismatch (gen: ${generation}, observed: ${observed}): the Fleet controller has not processed its latest spec.`,
		);
	}
}

function syncGenerations<S>(checks: FleetChecks<S>, deployments: readonly Item<S>[]): void {
	for (const deployment of deployments) {
		const force = integerText(deployment.object, 'spec', 'options', 'forceSyncGeneration');
		if (force === '0' || force.startsWith('-')) continue;
		const sync = getInt64(deployment.object, 'status', 'syncGeneration');
		if (String(sync) === force) continue;
		checks.add(
			deployment,
			'fleet-bundle-deployments-with-sync-generation-mismatch',
			`BundleDeployment with its forced sync not applied: status.syncGeneration ${sync === undefined ? 'is absent' : String(sync)}, spec.options.forceSyncGeneration ${force}.`,
		);
	}
}

function deletionTimestamps<S>(
	checks: FleetChecks<S>,
	items: readonly Item<S>[],
	code: FleetCheckCode,
): void {
	for (const item of items) {
		const when = getString(item.object, 'metadata', 'deletionTimestamp');
		if (when === undefined || when === '') continue;
		checks.add(item, code, `${item.ref.kind} being deleted since ${when}: a finalizer holds it.`);
	}
}

/** Shows a Content finding also on the Bundles and BundleDeployments that need that Content. */
function showOnContentUsers<S>(
	checks: FleetChecks<S>,
	content: Item<S>,
	code: FleetCheckCode,
	message: string,
): void {
	for (const bundle of checks.input.checked('Bundle')) {
		const sum = getString(bundle.object, 'status', 'resourcesSHA256Sum');
		if (sum && contentNameOfSum(sum) === content.ref.name) {
			checks.add(bundle, code, `Its Content ${content.ref.name}: ${message}`, content.ref);
		}
	}
	for (const deployment of checks.input.checked('BundleDeployment')) {
		const ids = [
			getString(deployment.object, 'spec', 'deploymentID'),
			getString(deployment.object, 'spec', 'stagedDeploymentID'),
			getString(deployment.object, 'status', 'appliedDeploymentID'),
		];
		if (ids.some((id) => id && contentNameOfDeploymentId(id) === content.ref.name)) {
			checks.add(deployment, code, `Its Content ${content.ref.name}: ${message}`, content.ref);
		}
	}
}

function contentFindings<S>(checks: FleetChecks<S>, contents: readonly Item<S>[]): void {
	for (const content of contents) {
		const deleting = getString(content.object, 'metadata', 'deletionTimestamp');
		if (deleting) {
			const message = `Content being deleted since ${deleting}: a finalizer holds it.`;
			checks.add(content, 'fleet-contents-with-deletion-timestamp', message);
			showOnContentUsers(checks, content, 'fleet-contents-with-deletion-timestamp', message);
		} else if (integerText(content.object, 'status', 'referenceCount') === '0') {
			const message =
				'Content with a reference count of 0 that is not being deleted: no BundleDeployment uses it, yet it stays.';
			checks.add(content, 'fleet-contents-with-zero-reference-count', message);
			showOnContentUsers(checks, content, 'fleet-contents-with-zero-reference-count', message);
		}
	}
}

function contentIssues<S>(checks: FleetChecks<S>, deployments: readonly Item<S>[]): void {
	const withIds = deployments.filter(
		(deployment) =>
			hasField(deployment.object, 'spec', 'deploymentID') ||
			hasField(deployment.object, 'spec', 'stagedDeploymentID') ||
			hasField(deployment.object, 'status', 'appliedDeploymentID'),
	);
	if (!checks.holds('Content', 'fleet-content-issues', withIds)) return;
	for (const deployment of withIds) {
		const issues: string[] = [];
		const id = getString(deployment.object, 'spec', 'deploymentID') ?? '';
		const name = id === '' ? '' : contentNameOfDeploymentId(id);
		if (name !== '') {
			const content = checks.input.find('Content', '', name);
			if (!content) {
				issues.push(`content_not_found: its Content ${name} (spec.deploymentID) is not there`);
			} else if (hasField(content.object, 'metadata', 'deletionTimestamp')) {
				issues.push(`content_has_deletion_timestamp: its Content ${name} is being deleted`);
			}
		}
		const staged = getString(deployment.object, 'spec', 'stagedDeploymentID') ?? '';
		const stagedName = staged === '' ? '' : contentNameOfDeploymentId(staged);
		if (stagedName !== '' && stagedName !== name && !checks.input.find('Content', '', stagedName)) {
			issues.push(`staged_content_not_found: its staged Content ${stagedName} is not there`);
		}
		const applied = getString(deployment.object, 'status', 'appliedDeploymentID') ?? '';
		const appliedName = applied === '' ? '' : contentNameOfDeploymentId(applied);
		if (
			appliedName !== '' &&
			appliedName !== name &&
			!checks.input.find('Content', '', appliedName)
		) {
			issues.push(`applied_content_not_found: its applied Content ${appliedName} is not there`);
		}
		if (issues.length > 0) {
			checks.add(deployment, 'fleet-content-issues', `Content issues: ${issues.join('; ')}.`);
		}
	}
}

function secretFindings<S>(checks: FleetChecks<S>, secrets: readonly Item<S>[]): void {
	const ownerKinds: readonly FleetKind[] = ['Bundle', 'BundleDeployment'];
	for (const secret of secrets) {
		const owner = (getArray(secret.object, 'metadata', 'ownerReferences') ?? []).find(isRecord);
		const deleting = getString(secret.object, 'metadata', 'deletionTimestamp');
		let why: string | undefined;
		let invalidOwner = false;
		let ownerItem: Item<S> | undefined;
		if (deleting) why = `it is being deleted (since ${deleting})`;
		else if (!owner) why = 'it has no owner reference';
		else {
			const ownerKind = typeof owner.kind === 'string' ? owner.kind : '';
			const ownerName = typeof owner.name === 'string' ? owner.name : '';
			const known = ownerKinds.find((kind) => kind === ownerKind);
			if (known && !checks.holds(known, 'fleet-orphaned-secrets', [secret])) continue;
			ownerItem = known ? checks.input.find(known, secret.ref.namespace, ownerName) : undefined;
			const expectedUid = getString(ownerItem?.object, 'metadata', 'uid') ?? '';
			if (expectedUid === '' || expectedUid !== owner.uid) {
				invalidOwner = true;
				why = !known
					? `its owner is a ${ownerKind || 'resource of no kind'}, not a Bundle or BundleDeployment`
					: !ownerItem
						? `its owner ${ownerKind} ${ownerName} is not there`
						: `its owner ${ownerKind} ${ownerName} has another UID (${quoted(expectedUid)}, the reference says ${quoted(typeof owner.uid === 'string' ? owner.uid : '')}): it was deleted and created again`;
			}
		}
		if (why === undefined) continue;
		const message = `Orphaned bundle Secret: ${why}.`;
		checks.add(secret, 'fleet-orphaned-secrets', message);
		if (ownerItem) {
			checks.add(
				ownerItem,
				'fleet-orphaned-secrets',
				`Its Secret ${secret.ref.name}: ${message}`,
				secret.ref,
			);
		}
		if (invalidOwner) {
			const invalid = `Bundle Secret with an invalid owner: ${why}.`;
			checks.add(secret, 'fleet-invalid-secret-owners', invalid);
			if (ownerItem) {
				checks.add(
					ownerItem,
					'fleet-invalid-secret-owners',
					`Its Secret ${secret.ref.name}: ${invalid}`,
					secret.ref,
				);
			}
		}
	}
}

/**
 * Fleet's troubleshooting classes on the objects of one input: each finding on the object it is about (a Secret's or
 * Content's also on the Bundle or BundleDeployment referring to it), and a note for each class that could not run.
 * Objects without a status get no finding. Never throws on odd shapes: fields of the wrong type read as absent.
 */
export function fleetTroubleshootingFindings<Source>(
	objects: readonly InputObject<Source>[],
	options: FleetCheckOptions,
): FleetCheckResult<Source> {
	const input = new FleetInput(objects);
	const checks = new FleetChecks(input, options);
	const gitRepos = input.checked('GitRepo');
	const bundles = input.checked('Bundle');
	const deployments = input.checked('BundleDeployment');
	const clusters = input.checked('Cluster');
	const groups = input.checked('ClusterGroup');
	const contents = input.checked('Content');
	const secrets = input.checked('Secret');

	stuckBundleDeployments(checks, deployments);
	gitRepoBundleInconsistencies(checks, bundles);
	multipleFinalizers(checks, [...gitRepos, ...bundles, ...deployments]);
	largeBundles(checks, bundles);
	bundlesWithMissingContent(checks, bundles);
	bundlesWithNoDeployments(checks, bundles);
	gitReposWithNoBundles(checks, gitRepos);
	clustersWithAgentIssues(checks, clusters);
	clusterGroupsWithNoClusters(checks, groups);
	bundlesWithMissingGitRepo(checks, bundles);
	bundleDeploymentsWithMissingBundle(checks, deployments);
	gitRepoFindings(checks, gitRepos);
	bundleGenerations(checks, bundles);
	syncGenerations(checks, deployments);
	deletionTimestamps(checks, bundles, 'fleet-bundles-with-deletion-timestamp');
	deletionTimestamps(checks, deployments, 'fleet-bundle-deployments-with-deletion-timestamp');
	contentFindings(checks, contents);
	contentIssues(checks, deployments);
	secretFindings(checks, secrets);
	if (bundles.length > 0 || deployments.length > 0) {
		checks.note(
			'fleet-secrets-with-values-hash-mismatch',
			"it hashes the values in the bundle Secrets' data, which Kube Status Lens never reads",
		);
	}
	return { findings: checks.findings, notes: checks.notes };
}

/** A finding on an object of an open document, placed at the object's first line. */
export interface DocumentFleetFinding {
	readonly range: Range;
	readonly severity: 'error' | 'warning';
	readonly code: FleetCheckCode;
	readonly message: string;
	readonly subject: string;
}

function subjectOf(object: ObjectRef): string {
	return `${object.kind} ${object.namespace === '' ? '' : `${object.namespace}/`}${object.name}`;
}

/**
 * Fleet's troubleshooting findings on the objects of one document, the rest of its input (a workspace) given as
 * `others`: the document's own objects replace their copies among the others. Ages are measured from `now` when given,
 * else from the newest timestamp of the whole input.
 */
export function documentFleetFindings(
	own: readonly { readonly object: Readonly<Record<string, unknown>>; readonly range: Range }[],
	others: readonly Readonly<Record<string, unknown>>[],
	now: number | undefined,
): DocumentFleetFinding[] {
	const identity = (object: unknown): string => {
		const ref = refOf(object);
		return `${ref.kind}\u0000${ref.namespace}\u0000${ref.name}`;
	};
	const ownIdentities = new Set(own.map(({ object }) => identity(object)));
	const objects: InputObject<Range | undefined>[] = own.map(({ object, range }) => ({
		object,
		source: range,
	}));
	for (const object of others) {
		if (fleetKindOf(object) !== undefined && !ownIdentities.has(identity(object))) {
			objects.push({ object, source: undefined });
		}
	}
	const clock = now ?? newestTimestampOf(objects.map(({ object }) => object));
	const findings: DocumentFleetFinding[] = [];
	for (const finding of fleetTroubleshootingFindings(objects, { now: clock }).findings) {
		if (finding.source === undefined) continue;
		const start = finding.source.start;
		findings.push({
			range: { start, end: start },
			severity: finding.severity,
			code: finding.code,
			message: finding.message,
			subject: subjectOf(finding.object),
		});
	}
	return findings;
}

/** A finding as an object's tooltip and Explain show it. */
export interface ObjectFleetFinding {
	readonly code: FleetCheckCode;
	readonly severity: 'error' | 'warning';
	readonly message: string;
}

/** The key `fleetFindingsByObject` files findings under: kind, namespace and name. */
export function fleetFindingKeyOf(object: unknown): string {
	const ref = refOf(object);
	return `${ref.kind}\u0000${ref.namespace}\u0000${ref.name}`;
}

/**
 * Fleet's troubleshooting findings of one input (a tree root's objects), filed by the object each is about (see
 * `fleetFindingKeyOf`). Ages count from `now`, else from the newest timestamp of the input.
 */
export function fleetFindingsByObject(
	objects: readonly Readonly<Record<string, unknown>>[],
	now: number | undefined,
): Map<string, ObjectFleetFinding[]> {
	const fleet = objects
		.filter((object) => fleetKindOf(object) !== undefined)
		.map((object) => ({ object, source: undefined }));
	const byObject = new Map<string, ObjectFleetFinding[]>();
	if (fleet.length === 0) return byObject;
	const clock = now ?? newestTimestampOf(fleet.map(({ object }) => object));
	for (const finding of fleetTroubleshootingFindings(fleet, { now: clock }).findings) {
		const key = `${finding.object.kind}\u0000${finding.object.namespace}\u0000${finding.object.name}`;
		const list = byObject.get(key) ?? [];
		list.push({ code: finding.code, severity: finding.severity, message: finding.message });
		byObject.set(key, list);
	}
	return byObject;
}
