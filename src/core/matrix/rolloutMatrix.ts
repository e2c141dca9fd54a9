// The rollout matrix: a root's Fleet rollout (GitRepos and HelmOps over their Bundles, by Cluster) or KubeStellar
// workloads (by WEC) as a grid of cells, each one object's state in words. Built from the objects of one graph root;
// cells name the object they stand for (its graph key), which the adapter turns into a tree place when asked.
import { getRecord, getString, isRecord, labelsOf, type K8sObject } from '../model/object.ts';
import { computeFleetStatus } from '../status/fleet.ts';
import { computeStatuses } from '../status/registry.ts';
import {
	fleetLabels,
	modifiedStatusString,
	nonReadyStatusString,
	readBundleDeployment,
} from '../status/fleetSummary.ts';
import { toneRank, type Tone } from '../status/result.ts';
import {
	clusterGroupMatcherOf,
	fleetApiGroup,
	fleetOwnerCandidatesOf,
	fleetOwnerKeyOf,
	objectKey,
	objectKeyOf,
	pairOf,
	workStatusSourceOf,
} from '../tree/linking.ts';

export type MatrixSystem = 'fleet' | 'kubestellar';

/** One cell: the state of the object at a row and column, in words first. */
export interface MatrixCell {
	readonly state: string;
	/** Two or three letters shown in the cell; the full word is its accessible name. */
	readonly abbreviation: string;
	readonly tone: Tone;
	readonly message: string;
	/** The resources that are not ready or modified, one line each (at most ten). */
	readonly notReady: readonly string[];
	/** The object the cell stands for (a BundleDeployment or a WorkStatus); objectKeyOf names its tree places. */
	readonly object: K8sObject;
}

/** A row: a GitRepo or HelmOp (a heading over its Bundles), a Bundle, or a KubeStellar workload. */
export interface MatrixRow {
	readonly id: string;
	readonly label: string;
	readonly kind: string;
	/** The heading row this row sits under (a Bundle under its GitRepo, a workload under its BindingPolicy). */
	readonly groupId: string;
	readonly heading: boolean;
	/** The graph key of the object of this row, when the root holds it. */
	readonly objectKey?: string;
}

/** A column: a Fleet Cluster or a KubeStellar WEC, with its group and labels for filtering. */
export interface MatrixColumn {
	readonly id: string;
	readonly label: string;
	/** The ClusterGroup (first by name) that selects the cluster, or "" when none does. */
	readonly group: string;
	readonly labels: Readonly<Record<string, string>>;
	readonly objectKey?: string;
}

export interface RolloutMatrix {
	readonly system: MatrixSystem;
	readonly rows: readonly MatrixRow[];
	readonly columns: readonly MatrixColumn[];
	/** Cells by row id, then column id; a missing cell means nothing is deployed there. */
	readonly cells: ReadonlyMap<string, ReadonlyMap<string, MatrixCell>>;
	/** What this build read, for the next build of the same root. */
	readonly readings: MatrixReadings;
}

function setCell(
	cells: Map<string, Map<string, MatrixCell>>,
	rowId: string,
	columnId: string,
	cell: MatrixCell,
): void {
	let row = cells.get(rowId);
	if (!row) {
		row = new Map();
		cells.set(rowId, row);
	}
	row.set(columnId, cell);
}

const knownAbbreviations: Readonly<Record<string, string>> = {
	Ready: 'OK',
	NotReady: 'NR',
	Pending: 'PD',
	OutOfSync: 'OOS',
	Modified: 'MOD',
	WaitApplied: 'WA',
	ErrApplied: 'ERR',
	Unknown: '?',
};

/** A short form of a state word: a known one, else the capitals of a CamelCase word (at most three), else its start. */
function abbreviationOf(state: string): string {
	if (Object.hasOwn(knownAbbreviations, state)) return knownAbbreviations[state] ?? state;
	const capitals = state.replace(/[^A-Z]/g, '');
	if (capitals.length >= 2) return capitals.slice(0, 3);
	return state.slice(0, 3) || '?';
}

const maxNotReadyLines = 10;

/** Where a BundleDeployment goes in the matrix (by the labels Fleet copies onto it, as the tree links it), and its cell. */
export interface PlacedBundleDeployment {
	/** The Bundle, "namespace/name", or "?<BundleDeployment name>" when the bundle-name label is missing. */
	readonly slot: string;
	readonly bundleNamespace: string;
	/** The Cluster, "namespace/name", when both cluster labels are set. */
	readonly cluster: string | undefined;
	readonly namespace: string;
	readonly cell: MatrixCell;
}

function labelText(labels: Record<string, unknown> | undefined, key: string): string {
	const value = labels?.[key];
	return typeof value === 'string' ? value : '';
}

function placeBundleDeployment(bd: K8sObject): PlacedBundleDeployment {
	const labels = getRecord(bd, 'metadata', 'labels');
	const bundleName = labelText(labels, fleetLabels.bundleName);
	const bundleNamespace = labelText(labels, fleetLabels.bundleNamespace);
	const cluster = labelText(labels, fleetLabels.cluster);
	const clusterNamespace = labelText(labels, fleetLabels.clusterNamespace);
	return {
		slot: bundleName ? pairOf(bundleNamespace, bundleName) : `?${nameOf(bd)}`,
		bundleNamespace,
		cluster: cluster && clusterNamespace ? pairOf(clusterNamespace, cluster) : undefined,
		namespace: namespaceOf(bd),
		cell: readFleetCell(bd),
	};
}

/**
 * What a build read, by the object it read it from: the graph hands back the same object while it is unchanged, so
 * a rebuild after a watch event reads only the BundleDeployments that changed. A plain Map, kept by the matrix and
 * replaced by each build (a WeakMap of 200,000 keys made every garbage collection slow).
 */
export type MatrixReadings = ReadonlyMap<K8sObject, PlacedBundleDeployment>;

function placementOf(
	bd: K8sObject,
	previous: MatrixReadings | undefined,
	readings: Map<K8sObject, PlacedBundleDeployment>,
): PlacedBundleDeployment {
	const placed = previous?.get(bd) ?? placeBundleDeployment(bd);
	readings.set(bd, placed);
	return placed;
}

function readFleetCell(bd: K8sObject): MatrixCell {
	const result = computeFleetStatus(bd);
	const notReady: string[] = [];
	const status = getRecord(bd, 'status');
	const listed = (value: unknown): boolean => Array.isArray(value) && value.length > 0;
	if (!listed(status?.nonReadyStatus) && !listed(status?.modifiedStatus)) {
		return {
			state: result.state,
			abbreviation: abbreviationOf(result.state),
			tone: result.tone,
			message: result.message,
			notReady,
			object: bd,
		};
	}
	const view = readBundleDeployment(bd);
	for (const item of view.nonReadyStatus) {
		if (notReady.length >= maxNotReadyLines) break;
		notReady.push(nonReadyStatusString(item));
	}
	for (const item of view.modifiedStatus) {
		if (notReady.length >= maxNotReadyLines) break;
		notReady.push(modifiedStatusString(item));
	}
	return {
		state: result.state,
		abbreviation: abbreviationOf(result.state),
		tone: result.tone,
		message: result.message,
		notReady,
		object: bd,
	};
}

function kindOf(object: K8sObject): string {
	return typeof object.kind === 'string' ? object.kind : '';
}

function groupKindOf(object: K8sObject): { group: string; kind: string } {
	const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
	const slash = apiVersion.indexOf('/');
	return { group: slash < 0 ? '' : apiVersion.slice(0, slash), kind: kindOf(object) };
}

function nameOf(object: unknown): string {
	return getString(object, 'metadata', 'name') ?? '';
}

function namespaceOf(object: unknown): string {
	return getString(object, 'metadata', 'namespace') ?? '';
}

const byLabel = (a: { label: string }, b: { label: string }): number =>
	a.label < b.label ? -1 : a.label > b.label ? 1 : 0;

/** The Fleet matrix of a root's objects: rows GitRepos/HelmOps with their Bundles, columns Clusters. */
function buildFleetMatrix(
	objects: readonly K8sObject[],
	previous: MatrixReadings | undefined,
): RolloutMatrix {
	const readings = new Map<K8sObject, PlacedBundleDeployment>();
	const owners = new Map<string, MatrixRow>();
	const bundles = new Map<string, MatrixRow>();
	const clusters = new Map<string, { object: K8sObject; key: string }>();
	const clusterByStatusNamespace = new Map<string, string>();
	const groups: {
		name: string;
		namespace: string;
		matches: (labels: Readonly<Record<string, string>>) => boolean;
	}[] = [];
	const bds: K8sObject[] = [];
	const bundleObjects: K8sObject[] = [];
	for (const object of objects) {
		const { group, kind } = groupKindOf(object);
		if (group !== fleetApiGroup) continue;
		if (kind === 'BundleDeployment') {
			bds.push(object);
			continue;
		}
		const namespace = namespaceOf(object);
		const name = nameOf(object);
		const key = objectKey(group, kind, namespace, name);
		switch (kind) {
			case 'GitRepo':
			case 'HelmOp':
				owners.set(key, {
					id: key,
					label: `${kind} ${pairOf(namespace, name)}`,
					kind,
					groupId: key,
					heading: true,
					objectKey: key,
				});
				break;
			case 'Bundle':
				bundleObjects.push(object);
				break;
			case 'Cluster': {
				const id = pairOf(namespace, name);
				clusters.set(id, { object, key });
				const statusNamespace = getString(object, 'status', 'namespace');
				if (statusNamespace) clusterByStatusNamespace.set(statusNamespace, id);
				break;
			}
			case 'ClusterGroup':
				groups.push({ name, namespace, matches: clusterGroupMatcherOf(object) });
				break;
		}
	}
	const noOwner = 'owner:none';
	const ownerOfBundle = (candidates: readonly string[]): string => {
		for (const candidate of candidates) {
			const key = fleetOwnerKeyOf(candidate);
			if (owners.has(key)) return key;
		}
		return noOwner;
	};
	for (const bundle of bundleObjects) {
		const namespace = namespaceOf(bundle);
		const name = nameOf(bundle);
		const key = objectKey(fleetApiGroup, 'Bundle', namespace, name);
		bundles.set(pairOf(namespace, name), {
			id: key,
			label: `Bundle ${pairOf(namespace, name)}`,
			kind: 'Bundle',
			groupId: ownerOfBundle(fleetOwnerCandidatesOf(bundle, namespace)),
			heading: false,
			objectKey: key,
		});
	}
	const cells = new Map<string, Map<string, MatrixCell>>();
	const extraClusters = new Set<string>();
	for (const bd of bds) {
		const links = placementOf(bd, previous, readings);
		let bundle = bundles.get(links.slot);
		if (!bundle) {
			// A Bundle the root does not hold: a row of its own, under the owner its labels name.
			const id = `bundle:${links.slot}`;
			bundle = {
				id,
				label: `Bundle ${links.slot.startsWith('?') ? links.slot.slice(1) : links.slot}`,
				kind: 'Bundle',
				groupId: ownerOfBundle(fleetOwnerCandidatesOf(bd, links.bundleNamespace)),
				heading: false,
			};
			bundles.set(links.slot, bundle);
		}
		const column =
			links.cluster ?? clusterByStatusNamespace.get(links.namespace) ?? `?${links.namespace}`;
		if (!clusters.has(column)) extraClusters.add(column);
		setCell(cells, bundle.id, column, links.cell);
	}

	const rows: MatrixRow[] = [];
	const bundlesByOwner = new Map<string, MatrixRow[]>();
	for (const bundle of bundles.values()) {
		const list = bundlesByOwner.get(bundle.groupId);
		if (list) list.push(bundle);
		else bundlesByOwner.set(bundle.groupId, [bundle]);
	}
	const ownerRows = [...owners.values()].sort(byLabel);
	if (bundlesByOwner.has(noOwner)) {
		ownerRows.push({
			id: noOwner,
			label: 'Bundles without a GitRepo or HelmOp',
			kind: '',
			groupId: noOwner,
			heading: true,
		});
	}
	for (const owner of ownerRows) {
		rows.push(owner);
		for (const bundle of (bundlesByOwner.get(owner.id) ?? []).sort(byLabel)) rows.push(bundle);
	}

	groups.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	const columns: MatrixColumn[] = [];
	for (const [id, { object, key }] of clusters) {
		const labels = labelsOf(object);
		const namespace = namespaceOf(object);
		const group = groups.find(
			(candidate) => candidate.namespace === namespace && candidate.matches(labels),
		);
		columns.push({ id, label: id, group: group?.name ?? '', labels, objectKey: key });
	}
	for (const id of extraClusters) {
		columns.push({
			id,
			label: id.startsWith('?') ? `cluster of namespace ${id.slice(1)}` : id,
			group: '',
			labels: {},
		});
	}
	columns.sort((a, b) => compareGroupThenLabel(a, b));
	return { system: 'fleet', rows, columns, cells, readings };
}

function compareGroupThenLabel(a: MatrixColumn, b: MatrixColumn): number {
	// Columns of no group come last.
	if (a.group !== b.group) {
		if (a.group === '') return 1;
		if (b.group === '') return -1;
		return a.group < b.group ? -1 : 1;
	}
	return byLabel(a, b);
}

const bindingKeyLabel = 'transport.kubestellar.io/originOwnerReferenceBindingKey';

/**
 * The KubeStellar matrix of a root's objects: rows the workloads WorkStatuses report on, under the BindingPolicy that
 * placed them; columns the WECs (a WorkStatus's namespace, and ManagedClusters the root holds).
 */
function buildKubestellarMatrix(objects: readonly K8sObject[]): RolloutMatrix {
	const workStatuses: K8sObject[] = [];
	const workloads = new Map<string, K8sObject>();
	const wecs = new Map<string, MatrixColumn>();
	for (const object of objects) {
		const { kind } = groupKindOf(object);
		if (kind === 'WorkStatus') workStatuses.push(object);
		else if (kind === 'ManagedCluster') {
			const name = nameOf(object);
			wecs.set(name, {
				id: name,
				label: name,
				group: '',
				labels: labelsOf(object),
				objectKey: objectKeyOf(object),
			});
		}
	}
	const sources = workStatuses.map((workStatus) => workStatusSourceOf(workStatus));
	const wanted = new Set(sources.map((source) => source?.key));
	for (const object of objects) {
		const key = objectKeyOf(object);
		if (wanted.has(key)) workloads.set(key, object);
	}
	// WorkStatus states look up their workload: computed together.
	const results = computeStatuses([...workStatuses, ...workloads.values()]);
	const headings = new Map<string, MatrixRow>();
	const rowsById = new Map<string, MatrixRow>();
	const cells = new Map<string, Map<string, MatrixCell>>();
	workStatuses.forEach((workStatus, index) => {
		const source = sources[index];
		const result = results[index];
		if (!source || !result) return;
		const policy = labelsOf(workStatus)[bindingKeyLabel] ?? '';
		const headingId = `policy:${policy}`;
		if (!headings.has(headingId)) {
			headings.set(headingId, {
				id: headingId,
				label: policy ? `BindingPolicy ${policy}` : 'Workloads of no BindingPolicy',
				kind: policy ? 'BindingPolicy' : '',
				groupId: headingId,
				heading: true,
				...(policy
					? { objectKey: objectKey('control.kubestellar.io', 'BindingPolicy', '', policy) }
					: {}),
			});
		}
		const rowId = `${headingId}\u0000${source.key}`;
		if (!rowsById.has(rowId)) {
			rowsById.set(rowId, {
				id: rowId,
				label: `${source.kind} ${source.namespace ? pairOf(source.namespace, source.name) : source.name}`,
				kind: source.kind,
				groupId: headingId,
				heading: false,
				...(workloads.has(source.key) ? { objectKey: source.key } : {}),
			});
		}
		const wec = namespaceOf(workStatus);
		if (!wecs.has(wec)) wecs.set(wec, { id: wec, label: wec, group: '', labels: {} });
		setCell(cells, rowId, wec, {
			state: result.state,
			abbreviation: abbreviationOf(result.state),
			tone: result.tone,
			message: result.message,
			notReady: result.tone === 'ok' ? [] : result.reasons.slice(0, maxNotReadyLines),
			object: workStatus,
		});
	});
	const rows: MatrixRow[] = [];
	const workloadRows = [...rowsById.values()].sort(byLabel);
	for (const heading of [...headings.values()].sort(byLabel)) {
		rows.push(heading);
		for (const row of workloadRows) if (row.groupId === heading.id) rows.push(row);
	}
	return {
		system: 'kubestellar',
		rows,
		columns: [...wecs.values()].sort(byLabel),
		cells,
		readings: new Map(),
	};
}

/** The matrix of a system in a root's objects. */
export function buildRolloutMatrix(
	system: MatrixSystem,
	objects: readonly K8sObject[],
	previous?: RolloutMatrix,
): RolloutMatrix {
	return system === 'fleet'
		? buildFleetMatrix(objects, previous?.readings)
		: buildKubestellarMatrix(objects);
}

/** Which matrices a root's objects can show, Fleet first. */
export function matrixSystemsOf(objects: readonly unknown[]): MatrixSystem[] {
	let fleet = false;
	let kubestellar = false;
	for (const object of objects) {
		if (!isRecord(object)) continue;
		const kind = object.kind;
		if (kind === 'BundleDeployment' || kind === 'Bundle') fleet = true;
		else if (kind === 'WorkStatus') kubestellar = true;
	}
	return [
		...(fleet ? (['fleet'] as const) : []),
		...(kubestellar ? (['kubestellar'] as const) : []),
	];
}

// ---------------------------------------------------------------------------------------------------------------
// Summaries, sorting, filtering

/** "2/50 ErrApplied": how many cells are in the worst state among them, of all; "50/50 Ready" when all are fine. */
function summaryOf(cells: Iterable<MatrixCell>): string {
	let total = 0;
	let worst: MatrixCell | undefined;
	const counts = new Map<string, number>();
	for (const cell of cells) {
		total++;
		counts.set(cell.state, (counts.get(cell.state) ?? 0) + 1);
		if (!worst || toneRank(cell.tone) > toneRank(worst.tone)) worst = cell;
	}
	if (!worst) return '';
	return `${counts.get(worst.state) ?? 0}/${total} ${worst.state}`;
}

/** Row and column summaries of a matrix, by row id and column id; a heading row sums the rows under it. */
export function summariesOf(matrix: RolloutMatrix): {
	readonly rows: ReadonlyMap<string, string>;
	readonly columns: ReadonlyMap<string, string>;
} {
	const byColumn = new Map<string, MatrixCell[]>();
	const byHeading = new Map<string, MatrixCell[]>();
	const rows = new Map<string, string>();
	for (const row of matrix.rows) {
		if (row.heading) continue;
		const cells = matrix.cells.get(row.id);
		if (!cells) {
			rows.set(row.id, '');
			continue;
		}
		rows.set(row.id, summaryOf(cells.values()));
		let heading = byHeading.get(row.groupId);
		if (!heading) {
			heading = [];
			byHeading.set(row.groupId, heading);
		}
		for (const [columnId, cell] of cells) {
			heading.push(cell);
			const column = byColumn.get(columnId);
			if (column) column.push(cell);
			else byColumn.set(columnId, [cell]);
		}
	}
	for (const row of matrix.rows) {
		if (row.heading) rows.set(row.id, summaryOf(byHeading.get(row.id) ?? []));
	}
	const columns = new Map<string, string>();
	for (const column of matrix.columns) {
		columns.set(column.id, summaryOf(byColumn.get(column.id) ?? []));
	}
	return { rows, columns };
}
