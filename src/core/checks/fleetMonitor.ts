// `fleet monitor` output, the input of `fleet analyze`: one JSON Snapshot per line (rancher/fleet
// pkg/troubleshooting types.go and analyzer.go ReadSnapshots, at commit 3b2c622ce176b11644abc7fb768f87c3ffb5a3ab).
// The latest snapshot's classes become findings on the objects it names; the changes between consecutive snapshots
// are counted as `fleet analyze --diff` counts them (PrintSnapshotDiff).
import { getArray, getPath, getString, isRecord } from '../model/object.ts';
import type { ObjectRef } from '../model/object.ts';
import { fleetCheckRules, type FleetCheckCode } from './fleetCodes.ts';

/** A finding named by a snapshot: the object, the class and what the snapshot says about it. */
export interface MonitorFinding {
	readonly object: ObjectRef;
	readonly code: FleetCheckCode;
	readonly severity: 'error' | 'warning';
	readonly message: string;
}

/** One count before and after, as `fleet analyze --diff` prints it. */
export interface CountChange {
	readonly label: string;
	readonly before: number;
	readonly after: number;
}

/** What changed between two consecutive snapshots. */
export interface SnapshotChange {
	/** 1-based numbers of the two snapshots, as `fleet analyze --diff` numbers them. */
	readonly from: number;
	readonly to: number;
	readonly fromTime: string;
	readonly toTime: string;
	readonly counts: readonly CountChange[];
	/** Bundles whose size changed (a Bundle new in the later snapshot is not a change). */
	readonly bundleSizes: readonly CountChange[];
}

/** What a `fleet monitor` text holds. */
export interface MonitorReading {
	readonly snapshotCount: number;
	/** The latest snapshot's timestamp and the (0-based) line it is on. */
	readonly latestTime: string;
	readonly latestLine: number;
	readonly findings: readonly MonitorFinding[];
	readonly changes: readonly SnapshotChange[];
	/** Lines that are not a snapshot, with why (0-based line numbers). */
	readonly problems: readonly { readonly line: number; readonly message: string }[];
}

const snapshotKeys = [
	'controller',
	'gitrepos',
	'bundles',
	'bundledeployments',
	'contents',
	'clusters',
	'clustergroups',
	'diagnostics',
	'apiConsistency',
];

function isSnapshot(value: unknown): value is Record<string, unknown> {
	return (
		isRecord(value) &&
		typeof value.timestamp === 'string' &&
		!('apiVersion' in value) &&
		!('kind' in value) &&
		snapshotKeys.some((key) => key in value)
	);
}

/** The first non-empty line of a text, cheaply (no split of the whole text). */
function firstLine(text: string): string {
	let start = 0;
	while (start < text.length) {
		let end = text.indexOf('\n', start);
		if (end < 0) end = text.length;
		const line = text.slice(start, end).trim();
		if (line !== '') return line;
		start = end + 1;
	}
	return '';
}

/** Whether a text is `fleet monitor` output: its first line is one JSON snapshot. */
export function isFleetMonitorOutput(text: string): boolean {
	const line = firstLine(text);
	if (!line.startsWith('{') || !line.includes('"timestamp"')) return false;
	try {
		return isSnapshot(JSON.parse(line));
	} catch {
		return false;
	}
}

const fleetApiVersion = 'fleet.cattle.io/v1alpha1';

function refOf(kind: string, entry: unknown): ObjectRef {
	return {
		apiVersion: kind === 'Secret' ? 'v1' : fleetApiVersion,
		kind,
		namespace: getString(entry, 'namespace') ?? '',
		name: getString(entry, 'name') ?? '',
	};
}

function entriesOf(snapshot: unknown, ...path: readonly string[]): Record<string, unknown>[] {
	return (getArray(snapshot, ...path) ?? []).filter(isRecord);
}

function text(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function quoted(value: unknown): string {
	return JSON.stringify(text(value));
}

/** A Go time.Duration (JSON: integer nanoseconds) as Go prints it, roughly: "15s", "1m0s". */
function goDurationText(nanoseconds: unknown): string {
	if (typeof nanoseconds !== 'number' || !Number.isFinite(nanoseconds)) return text(nanoseconds);
	const seconds = nanoseconds / 1e9;
	const hours = Math.floor(seconds / 3600);
	const minutes = Math.floor((seconds % 3600) / 60);
	const rest = Number((seconds % 60).toFixed(3));
	if (hours > 0) return `${hours}h${minutes}m${rest}s`;
	if (minutes > 0) return `${minutes}m${rest}s`;
	return `${rest}s`;
}

type Describe = (entry: Record<string, unknown>) => string;

/** Each `Diagnostics` list field: its code, the kind of its entries, and what `fleet analyze` says of one. */
const diagnosticLists: readonly {
	readonly field: string;
	readonly code: FleetCheckCode;
	readonly kind: string | undefined;
	readonly describe: Describe;
}[] = [
	{
		field: 'stuckBundleDeployments',
		code: 'fleet-stuck-bundle-deployments',
		kind: 'BundleDeployment',
		describe: (entry) =>
			`Stuck BundleDeployment${entry.deploymentID !== entry.appliedDeploymentID ? ` (DeploymentID: ${text(entry.deploymentID)} != AppliedDeploymentID: ${text(entry.appliedDeploymentID)})` : ''}`,
	},
	{
		field: 'gitRepoBundleInconsistencies',
		code: 'fleet-git-repo-bundle-inconsistencies',
		kind: 'Bundle',
		describe: (entry) =>
			`GitRepo/Bundle inconsistency (commit ${quoted(entry.commit)}, forceSyncGeneration ${text(entry.forceSyncGeneration) || '0'})`,
	},
	{
		field: 'invalidSecretOwners',
		code: 'fleet-invalid-secret-owners',
		kind: 'Secret',
		describe: (entry) =>
			`Secret with an invalid owner (${text(entry.ownerKind)} ${text(entry.ownerName)}, UID ${quoted(entry.ownerUID)})`,
	},
	{
		field: 'resourcesWithMultipleFinalizers',
		code: 'fleet-resources-with-multiple-finalizers',
		kind: undefined,
		describe: (entry) =>
			`Resource with multiple finalizers (${(getArray(entry, 'finalizers') ?? []).map(text).join(', ')})`,
	},
	{
		field: 'largeBundles',
		code: 'fleet-large-bundles',
		kind: 'Bundle',
		describe: (entry) =>
			`Large Bundle (>1MB): ${Math.floor((typeof entry.sizeBytes === 'number' ? entry.sizeBytes : 0) / 1024)}KB`,
	},
	{
		field: 'bundlesWithMissingContent',
		code: 'fleet-bundles-with-missing-content',
		kind: 'Bundle',
		describe: (entry) =>
			`Bundle with missing Content (resourcesSHA256Sum ${quoted(entry.resourcesSHA256Sum)})`,
	},
	{
		field: 'bundlesWithNoDeployments',
		code: 'fleet-bundles-with-no-deployments',
		kind: 'Bundle',
		describe: () => 'Bundle with no deployments',
	},
	{
		field: 'gitReposWithNoBundles',
		code: 'fleet-git-repos-with-no-bundles',
		kind: 'GitRepo',
		describe: () => 'GitRepo with no Bundles',
	},
	{
		field: 'clustersWithAgentIssues',
		code: 'fleet-clusters-with-agent-issues',
		kind: 'Cluster',
		describe: (entry) => {
			const reasons: string[] = [];
			if (entry.ready !== true) reasons.push('not Ready');
			if (typeof entry.agentLastSeenAge === 'string' && entry.agentLastSeenAge !== '') {
				reasons.push(`agent last seen ${entry.agentLastSeenAge} ago`);
			} else if (entry.agentLastSeen === undefined) reasons.push('agent never seen');
			return `Cluster with agent issues (${reasons.join(', ')})`;
		},
	},
	{
		field: 'clusterGroupsWithNoClusters',
		code: 'fleet-cluster-groups-with-no-clusters',
		kind: 'ClusterGroup',
		describe: () => 'ClusterGroup with no clusters',
	},
	{
		field: 'bundlesWithMissingGitRepo',
		code: 'fleet-bundles-with-missing-git-repo',
		kind: 'Bundle',
		describe: (entry) => `Bundle with missing GitRepo ${text(entry.repoName)}`,
	},
	{
		field: 'bundleDeploymentsWithMissingBundle',
		code: 'fleet-bundle-deployments-with-missing-bundle',
		kind: 'BundleDeployment',
		describe: (entry) =>
			`BundleDeployment with missing Bundle ${text(entry.bundleNamespace)}/${text(entry.bundleName)}`,
	},
	{
		field: 'gitReposWithCommitMismatch',
		code: 'fleet-git-repos-with-commit-mismatch',
		kind: 'GitRepo',
		describe: (entry) =>
			`GitRepo with commit mismatch (polling: ${quoted(entry.pollingCommit)}, webhook: ${quoted(entry.webhookCommit)}, status commit: ${quoted(entry.commit)})`,
	},
	{
		field: 'gitReposWithGenerationMismatch',
		code: 'fleet-git-repos-with-generation-mismatch',
		kind: 'GitRepo',
		describe: (entry) =>
			`GitRepo with generation mismatch (gen: ${text(entry.generation) || '0'}, observed: ${text(entry.observedGeneration) || '0'})`,
	},
	{
		field: 'gitReposUnpolled',
		code: 'fleet-git-repos-unpolled',
		kind: 'GitRepo',
		describe: (entry) =>
			`GitRepo last polled too long ago (last polled: ${text(entry.lastPollingTime) || 'never'}, polling interval: ${goDurationText(entry.pollingInterval)})`,
	},
	{
		field: 'bundlesWithGenerationMismatch',
		code: 'fleet-bundles-with-generation-mismatch',
		kind: 'Bundle',
		describe: (entry) =>
			`Bundle with generation mismatch (gen: ${text(entry.generation) || '0'}, observed: ${text(entry.observedGeneration) || '0'})`,
	},
	{
		field: 'bundleDeploymentsWithSyncGenerationMismatch',
		code: 'fleet-bundle-deployments-with-sync-generation-mismatch',
		kind: 'BundleDeployment',
		describe: (entry) =>
			`BundleDeployment with its forced sync not applied (syncGeneration ${text(entry.syncGeneration) || 'absent'}, forceSyncGeneration ${text(entry.forceSyncGeneration)})`,
	},
	{
		field: 'secretsWithValuesHashMismatch',
		code: 'fleet-secrets-with-values-hash-mismatch',
		kind: 'Secret',
		describe: (entry) =>
			`Secret with ValuesHash mismatch (${text(entry.ownerKind)}; secret: ${text(entry.secretHash)}, spec: ${text(entry.specHash)})`,
	},
];

function snapshotFindings(snapshot: Record<string, unknown>): MonitorFinding[] {
	const findings: MonitorFinding[] = [];
	const said = `fleet monitor at ${text(snapshot.timestamp)}`;
	const add = (kind: string, entry: unknown, code: FleetCheckCode, what: string): void => {
		findings.push({
			object: refOf(kind, entry),
			code,
			severity: fleetCheckRules[code].severity,
			message: `${what} (${said}).`,
		});
	};
	for (const list of diagnosticLists) {
		for (const entry of entriesOf(snapshot, 'diagnostics', list.field)) {
			add(list.kind ?? text(entry.kind), entry, list.code, list.describe(entry));
		}
	}
	const deleting = (entry: Record<string, unknown>): boolean =>
		typeof entry.deletionTimestamp === 'string' && entry.deletionTimestamp !== '';
	for (const entry of entriesOf(snapshot, 'bundles').filter(deleting)) {
		add(
			'Bundle',
			entry,
			'fleet-bundles-with-deletion-timestamp',
			`Bundle being deleted since ${text(entry.deletionTimestamp)}`,
		);
	}
	for (const entry of entriesOf(snapshot, 'bundledeployments').filter(deleting)) {
		add(
			'BundleDeployment',
			entry,
			'fleet-bundle-deployments-with-deletion-timestamp',
			`BundleDeployment being deleted since ${text(entry.deletionTimestamp)}`,
		);
	}
	for (const entry of entriesOf(snapshot, 'contents')) {
		if (deleting(entry)) {
			add(
				'Content',
				entry,
				'fleet-contents-with-deletion-timestamp',
				`Content being deleted since ${text(entry.deletionTimestamp)}`,
			);
		} else if (!entry.referenceCount) {
			add(
				'Content',
				entry,
				'fleet-contents-with-zero-reference-count',
				'Content with a reference count of 0',
			);
		}
	}
	for (const entry of entriesOf(snapshot, 'orphanedSecrets')) {
		add('Secret', entry, 'fleet-orphaned-secrets', 'Orphaned bundle Secret');
	}
	for (const entry of entriesOf(snapshot, 'contentIssues')) {
		const issues = (getArray(entry, 'issues') ?? []).map(text).join(', ');
		add('BundleDeployment', entry, 'fleet-content-issues', `Content issues: ${issues}`);
	}
	return findings;
}

function countOf(snapshot: Record<string, unknown>, ...path: readonly string[]): number {
	return getArray(snapshot, ...path)?.length ?? 0;
}

function changeBetween(
	before: Record<string, unknown>,
	after: Record<string, unknown>,
	from: number,
): SnapshotChange {
	const counts: CountChange[] = [];
	const count = (label: string, ...path: readonly string[]): void => {
		counts.push({ label, before: countOf(before, ...path), after: countOf(after, ...path) });
	};
	count('GitRepos', 'gitrepos');
	count('Bundles', 'bundles');
	count('BundleDeployments', 'bundledeployments');
	count('Contents', 'contents');
	count('Clusters', 'clusters');
	if (isRecord(before.diagnostics) && isRecord(after.diagnostics)) {
		count('Stuck BundleDeployments', 'diagnostics', 'stuckBundleDeployments');
		count('GitRepo/Bundle Mismatches', 'diagnostics', 'gitRepoBundleInconsistencies');
		count('Bundles with No Deployments', 'diagnostics', 'bundlesWithNoDeployments');
		count('Agent Issues', 'diagnostics', 'clustersWithAgentIssues');
	}
	const sizes = (snapshot: Record<string, unknown>): Map<string, number> => {
		const map = new Map<string, number>();
		for (const bundle of entriesOf(snapshot, 'bundles')) {
			if (typeof bundle.sizeBytes !== 'number') continue;
			map.set(`${text(bundle.namespace)}/${text(bundle.name)}`, bundle.sizeBytes);
		}
		return map;
	};
	const beforeSizes = sizes(before);
	const bundleSizes: CountChange[] = [];
	for (const [label, size] of sizes(after)) {
		const previous = beforeSizes.get(label) ?? 0;
		if (previous !== size && previous !== 0) {
			bundleSizes.push({ label, before: previous, after: size });
		}
	}
	return {
		from,
		to: from + 1,
		fromTime: text(before.timestamp),
		toTime: text(after.timestamp),
		counts,
		bundleSizes,
	};
}

/** Reads `fleet monitor` output: the latest snapshot's findings and the changes between consecutive snapshots. */
export function readFleetMonitorOutput(monitorText: string): MonitorReading {
	const snapshots: { snapshot: Record<string, unknown>; line: number }[] = [];
	const problems: { line: number; message: string }[] = [];
	const lines = monitorText.split('\n');
	for (let index = 0; index < lines.length; index++) {
		const line = (lines[index] ?? '').trim();
		if (line === '') continue;
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch (error) {
			problems.push({
				line: index,
				message: `not a fleet monitor snapshot: ${(error as Error).message}`,
			});
			continue;
		}
		if (isSnapshot(value)) snapshots.push({ snapshot: value, line: index });
		else problems.push({ line: index, message: 'not a fleet monitor snapshot: no timestamp' });
	}
	const latest = snapshots[snapshots.length - 1];
	const changes: SnapshotChange[] = [];
	for (let index = 1; index < snapshots.length; index++) {
		const before = snapshots[index - 1];
		const after = snapshots[index];
		if (before && after) changes.push(changeBetween(before.snapshot, after.snapshot, index));
	}
	return {
		snapshotCount: snapshots.length,
		latestTime: text(getPath(latest?.snapshot, 'timestamp')),
		latestLine: latest?.line ?? 0,
		findings: latest ? snapshotFindings(latest.snapshot) : [],
		changes,
		problems,
	};
}

function arrow(change: CountChange): string {
	return change.after > change.before ? '↑' : change.after < change.before ? '↓' : '→';
}

/** The changes as lines, in `fleet analyze --diff`'s words and order (without its colours and tab alignment). */
export function snapshotChangeLines(changes: readonly SnapshotChange[]): string[] {
	const lines: string[] = [];
	for (const change of changes) {
		lines.push(
			`Snapshot ${change.from} → ${change.to} (Time: ${change.fromTime} → ${change.toTime})`,
		);
		const resources = change.counts.slice(0, 5);
		const diagnostics = change.counts.slice(5);
		lines.push('  RESOURCE COUNTS:');
		for (const count of resources) {
			lines.push(`    ${count.label}: ${count.before} → ${count.after} ${arrow(count)}`);
		}
		if (diagnostics.length > 0) {
			lines.push('  DIAGNOSTICS CHANGES:');
			for (const count of diagnostics) {
				lines.push(`    ${count.label}: ${count.before} → ${count.after} ${arrow(count)}`);
			}
		}
		if (change.bundleSizes.length > 0) {
			lines.push('  BUNDLE SIZE CHANGES:');
			for (const size of change.bundleSizes) {
				lines.push(
					`    ${size.label}: ${Math.floor(size.before / 1024)}KB → ${Math.floor(size.after / 1024)}KB ${size.after > size.before ? '⚠ GREW' : '✓ SHRUNK'}`,
				);
			}
		}
	}
	return lines;
}

/** A monitor finding placed in the text: on the object's name in the latest snapshot's line. */
export interface PlacedMonitorFinding {
	readonly range: {
		readonly start: { readonly line: number; readonly character: number };
		readonly end: { readonly line: number; readonly character: number };
	};
	readonly severity: 'error' | 'warning';
	readonly code: FleetCheckCode;
	readonly message: string;
	readonly subject: string;
}

/** What an editor shows on `fleet monitor` output: the findings where they are named, unreadable lines, the changes. */
export interface MonitorDocumentReport {
	readonly findings: readonly PlacedMonitorFinding[];
	readonly unreadableLines: readonly { readonly line: number; readonly message: string }[];
	/** The changes between snapshots as `fleet analyze --diff` prints them, said on the latest snapshot's line. */
	readonly changes: { readonly line: number; readonly text: string } | undefined;
}

function subjectOfRef(ref: ObjectRef): string {
	return `${ref.kind} ${ref.namespace === '' ? '' : `${ref.namespace}/`}${ref.name}`;
}

/** Reads `fleet monitor` output for an editor: each finding on its object's name, in the latest snapshot's line. */
export function monitorDocumentReport(monitorText: string): MonitorDocumentReport {
	const reading = readFleetMonitorOutput(monitorText);
	const line = reading.latestLine;
	let lineStart = 0;
	for (let index = 0; index < line; index++) {
		const next = monitorText.indexOf('\n', lineStart);
		if (next < 0) break;
		lineStart = next + 1;
	}
	const lineEnd = monitorText.indexOf('\n', lineStart);
	const latest = monitorText.slice(lineStart, lineEnd < 0 ? monitorText.length : lineEnd);
	const findings = reading.findings.map((finding): PlacedMonitorFinding => {
		const name = JSON.stringify(finding.object.name);
		// The name as a value ("name":"x"), else anywhere on the line, else the line's start.
		const asValue = latest.indexOf(`"name":${name}`);
		const at = asValue >= 0 ? asValue + 7 : latest.indexOf(name);
		const start = Math.max(at, 0);
		const end = at >= 0 ? at + name.length : 0;
		return {
			range: { start: { line, character: start }, end: { line, character: end } },
			severity: finding.severity,
			code: finding.code,
			message: finding.message,
			subject: subjectOfRef(finding.object),
		};
	});
	return {
		findings,
		unreadableLines: reading.problems,
		changes:
			reading.changes.length === 0
				? undefined
				: {
						line,
						text: [
							`fleet monitor: ${reading.snapshotCount} snapshots, changes as fleet analyze --diff counts them:`,
							...snapshotChangeLines(reading.changes),
						].join('\n'),
					},
	};
}
