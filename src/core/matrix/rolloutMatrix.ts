// The rollout matrix: a root's Fleet rollout (GitRepos and HelmOps over their Bundles, by Cluster) or KubeStellar
// workloads (by WEC) as a grid of cells, each one object's state in words. Built from the objects of one graph root
// and the results the graph computed for them when they arrived (a cell never computes a status again). Cells are
// kept in typed arrays, one slot per row and column, so 200,000 cells are a few arrays rather than 200,000 objects;
// cellAt makes the object of one cell when something asks for it.
import {
	getArray,
	getRecord,
	getString,
	isRecord,
	labelsOf,
	type K8sObject,
} from '../model/object.ts';
import { toneOfState } from '../status/fleet.ts';
import {
	fleetLabels,
	modifiedStatusString,
	nonReadyStatusString,
	readBundleDeployment,
	readBundleSummary,
	type BundleSummary,
} from '../status/fleetSummary.ts';
import { toneRank, type StatusResult, type Tone } from '../status/result.ts';
import { fleetTargetsOf } from '../targeting/fleetTargets.ts';
import {
	clusterGroupMatcherOf,
	fleetApiGroup,
	fleetOwnerCandidatesOf,
	fleetOwnerKeyOf,
	objectKey,
	objectKeyOf,
	pairOf,
	workStatusSourceOf,
	type WorkStatusSource,
} from '../tree/linking.ts';

export type MatrixSystem = 'fleet' | 'kubestellar';

/** Every object of a root with the engine's result for it (the graph's forEachObjectStatus). */
export type MatrixSource = (visit: (object: K8sObject, status: StatusResult) => void) => void;

/** How a cell looks: its state word, the abbreviation shown, its tone. */
export interface MatrixStyle {
	readonly state: string;
	/** Two or three letters shown in the cell; the full word is its accessible name. */
	readonly abbreviation: string;
	readonly tone: Tone;
	/** False for a cell that stands for no deployment (not targeted): row and column summaries leave it out. */
	readonly counted?: false;
}

/** The state word of a cell the Bundle's targets do not reach (issue 31): in words, never counted. */
const notTargetedState = 'not targeted';
/** The state word of a cell the targets reach where Fleet has no BundleDeployment yet: the controller is behind. */
const noBundleDeploymentState = 'no BundleDeployment yet';

/** One cell: the state of the object at a row and column, in words first. */
export interface MatrixCell extends MatrixStyle {
	readonly message: string;
	/** The resources that are not ready or modified, one line each (at most ten). */
	readonly notReady: readonly string[];
	/** The object the cell stands for (a BundleDeployment, a WorkStatus, or a Bundle whose status names the cluster). */
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

/**
 * The styles and texts cells point into. One table lives as long as the panel's matrix and every rebuild adds to it,
 * so the same index means the same thing in two builds and comparing two builds compares numbers.
 */
export class MatrixTables {
	readonly styles: MatrixStyle[] = [];
	readonly texts: string[] = [''];
	private readonly styleIndex = new Map<string, Map<Tone, number>>();
	private readonly textIndex = new Map<string, number>([['', 0]]);

	/** A cell style's index; `shown` is the word in the cell (Fleet's abbreviations unless told). */
	style(state: string, tone: Tone, counted = true, shown = abbreviationOf(state)): number {
		const key = `${state}\u0000${shown}`;
		let byTone = this.styleIndex.get(key);
		if (!byTone) {
			byTone = new Map();
			this.styleIndex.set(key, byTone);
		}
		let index = byTone.get(tone);
		if (index === undefined) {
			index = this.styles.length;
			this.styles.push({
				state,
				abbreviation: shown,
				tone,
				...(counted ? {} : { counted: false as const }),
			});
			byTone.set(tone, index);
		}
		return index;
	}

	text(value: string): number {
		let index = this.textIndex.get(value);
		if (index === undefined) {
			index = this.texts.length;
			this.texts.push(value);
			this.textIndex.set(value, index);
		}
		return index;
	}
}

export interface RolloutMatrix {
	readonly system: MatrixSystem;
	readonly rows: readonly MatrixRow[];
	readonly columns: readonly MatrixColumn[];
	readonly tables: MatrixTables;
	/** Per cell (index row * columns.length + column): its style, -1 where nothing is deployed. */
	readonly cellStyles: Int32Array;
	/** Per cell: its message in the texts. */
	readonly cellTexts: Int32Array;
	/** The lines of resources not ready (text indexes) of the few cells that have them, by cell index. */
	readonly cellNotReady: ReadonlyMap<number, readonly number[]>;
	/** Per cell: the object it stands for. */
	readonly cellObjects: readonly (K8sObject | undefined)[];
	/**
	 * Per row index: the counts by style of a Bundle known only from its status summary (the BundleDeployments of a
	 * live context in roll-ups-only mode are not listed), which stand for the row instead of its few known cells.
	 */
	readonly rowCounts: ReadonlyMap<number, ReadonlyMap<number, number>>;
	/** Said above the grid when cells are missing or come from roll-ups, with what to do; "" when all is there. */
	readonly notice: string;
	/** The objects and results this build read (in order), so a rebuild over the same ones returns this build. */
	readonly read: readonly unknown[];
	/** Fleet: the cell of each BundleDeployment read, by its place in `read` (-1 for other objects). */
	readonly readCells?: Int32Array;
	/** Fleet: the cell a BundleDeployment goes to among this build's rows and columns, -1 when it would need new ones. */
	readonly placeCell?: (bd: K8sObject) => number;
	/** A build that replaced cells of the build that read `base`: those cells, so a diff looks at them only. */
	readonly patched?: { readonly base: readonly unknown[]; readonly cells: readonly number[] };
}

const knownAbbreviations: Readonly<Record<string, string>> = {
	Ready: 'OK',
	NotReady: 'NR',
	Pending: 'PD',
	OutOfSync: 'OOS',
	Modified: 'MOD',
	WaitApplied: 'WA',
	WaitingForDependency: 'WFD',
	ErrApplied: 'ERR',
	[notTargetedState]: '—',
	[noBundleDeploymentState]: 'NBD',
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

/** A row or column while a build places cells: its index is set once rows and columns are sorted. */
interface Draft<T> {
	readonly value: T;
	index: number;
}

/**
 * Cells as a build finds them, in parallel arrays (no object per cell), placed into the grid once the rows and
 * columns are sorted.
 */
class PendingCells {
	readonly rows: Draft<MatrixRow>[] = [];
	readonly columns: Draft<MatrixColumn>[] = [];
	readonly styles: number[] = [];
	readonly texts: number[] = [];
	readonly objects: K8sObject[] = [];
	readonly notReady = new Map<number, readonly number[]>();

	add(
		row: Draft<MatrixRow>,
		column: Draft<MatrixColumn>,
		style: number,
		text: number,
		object: K8sObject,
		notReady: readonly number[] | undefined,
	): void {
		if (notReady && notReady.length > 0) this.notReady.set(this.rows.length, notReady);
		this.rows.push(row);
		this.columns.push(column);
		this.styles.push(style);
		this.texts.push(text);
		this.objects.push(object);
	}
}

function byLabel(a: { label: string }, b: { label: string }): number {
	return a.label < b.label ? -1 : a.label > b.label ? 1 : 0;
}

function byValueLabel<T extends { label: string }>(a: Draft<T>, b: Draft<T>): number {
	return byLabel(a.value, b.value);
}

/** Columns grouped by ClusterGroup, clusters of no group last, then by name. */
function byGroupThenLabel(a: Draft<MatrixColumn>, b: Draft<MatrixColumn>): number {
	if (a.value.group !== b.value.group) {
		if (a.value.group === '') return 1;
		if (b.value.group === '') return -1;
		return a.value.group < b.value.group ? -1 : 1;
	}
	return byLabel(a.value, b.value);
}

/** The grid of sorted rows and columns with the pending cells in their slots. */
function gridOf(
	system: MatrixSystem,
	rows: readonly Draft<MatrixRow>[],
	columns: readonly Draft<MatrixColumn>[],
	pending: PendingCells,
	tables: MatrixTables,
	extra: {
		rowCounts: ReadonlyMap<Draft<MatrixRow>, ReadonlyMap<number, number>>;
		notice: string;
		read: readonly unknown[];
	},
): RolloutMatrix {
	rows.forEach((row, index) => (row.index = index));
	columns.forEach((column, index) => (column.index = index));
	const width = columns.length;
	const size = rows.length * width;
	const cellStyles = new Int32Array(size).fill(-1);
	const cellTexts = new Int32Array(size);
	const cellObjects = new Array<K8sObject | undefined>(size).fill(undefined);
	const cellNotReady = new Map<number, readonly number[]>();
	for (let at = 0; at < pending.rows.length; at++) {
		const row = pending.rows[at] as Draft<MatrixRow>;
		const column = pending.columns[at] as Draft<MatrixColumn>;
		const cell = row.index * width + column.index;
		cellStyles[cell] = pending.styles[at] ?? -1;
		cellTexts[cell] = pending.texts[at] ?? 0;
		cellObjects[cell] = pending.objects[at];
		const notReady = pending.notReady.get(at);
		if (notReady) cellNotReady.set(cell, notReady);
		else cellNotReady.delete(cell);
	}
	const rowCounts = new Map<number, ReadonlyMap<number, number>>();
	for (const [row, counts] of extra.rowCounts) rowCounts.set(row.index, counts);
	return {
		system,
		rows: rows.map((row) => row.value),
		columns: columns.map((column) => column.value),
		tables,
		cellStyles,
		cellTexts,
		cellNotReady,
		cellObjects,
		rowCounts,
		notice: extra.notice,
		read: extra.read,
	};
}

function labelText(labels: Record<string, unknown> | undefined, key: string): string {
	const value = labels?.[key];
	return typeof value === 'string' ? value : '';
}

function nameOf(object: unknown): string {
	return getString(object, 'metadata', 'name') ?? '';
}

function namespaceOf(object: unknown): string {
	return getString(object, 'metadata', 'namespace') ?? '';
}

/** A map of maps by namespace then name, so finding a row or column needs no "namespace/name" string per cell. */
class ByPair<T> {
	private readonly outer = new Map<string, Map<string, T>>();

	get(namespace: string, name: string): T | undefined {
		return this.outer.get(namespace)?.get(name);
	}

	set(namespace: string, name: string, value: T): void {
		let inner = this.outer.get(namespace);
		if (!inner) {
			inner = new Map();
			this.outer.set(namespace, inner);
		}
		inner.set(name, value);
	}
}

const fleetApiPrefix = `${fleetApiGroup}/`;

/** The lines of a BundleDeployment's resources that are not ready or modified, when it lists any. */
function notReadyLinesOf(bd: K8sObject, tables: MatrixTables): number[] | undefined {
	const status = isRecord(bd.status) ? bd.status : undefined;
	const listed = (value: unknown): boolean => Array.isArray(value) && value.length > 0;
	if (!listed(status?.nonReadyStatus) && !listed(status?.modifiedStatus)) return undefined;
	const view = readBundleDeployment(bd);
	const lines: number[] = [];
	for (const item of view.nonReadyStatus) {
		if (lines.length >= maxNotReadyLines) break;
		lines.push(tables.text(nonReadyStatusString(item)));
	}
	for (const item of view.modifiedStatus) {
		if (lines.length >= maxNotReadyLines) break;
		lines.push(tables.text(modifiedStatusString(item)));
	}
	return lines;
}

const summaryCounters: readonly (readonly [keyof BundleSummary, string])[] = [
	['ready', 'Ready'],
	['notReady', 'NotReady'],
	['pending', 'Pending'],
	['outOfSync', 'OutOfSync'],
	['modified', 'Modified'],
	['waitApplied', 'WaitApplied'],
	['waitingForDependency', 'WaitingForDependency'],
	['errApplied', 'ErrApplied'],
];

/** A Bundle's status summary as counts by style (what its row says when its BundleDeployments are not listed). */
function countsOfSummary(summary: BundleSummary, tables: MatrixTables): Map<number, number> {
	const counts = new Map<number, number>();
	for (const [field, state] of summaryCounters) {
		const count = summary[field];
		if (typeof count === 'number' && count > 0) {
			counts.set(tables.style(state, toneOfState(state)), count);
		}
	}
	return counts;
}

/**
 * What a build reads, checked against the previous build's as it goes: a list is made only once something differs
 * (a copy of the previous one, with the places that differ noted), so a rebuild over the same objects allocates
 * nothing per object and one over a few changed objects knows which.
 */
class Reading {
	private readonly before: readonly unknown[] | undefined;
	private at = 0;
	private list: unknown[] | undefined;
	/** The places whose value differs from the previous build's, and the results read with them. */
	readonly changed: number[] = [];
	readonly changedResults: StatusResult[] = [];

	constructor(previous: RolloutMatrix | undefined) {
		this.before = previous?.read;
		if (!this.before) this.list = [];
	}

	add(value: unknown, status?: StatusResult): void {
		const at = this.at++;
		const before = this.before;
		if (before?.[at] === value) return;
		if (!this.list) this.list = before ? before.slice() : [];
		if (at < this.list.length) this.list[at] = value;
		else this.list.push(value);
		if (before && at < before.length && status) {
			this.changed.push(at);
			this.changedResults.push(status);
		}
	}

	/** Whether the previous build read exactly as many values (so the places noted are all that differ). */
	get sameLength(): boolean {
		return this.at === this.before?.length;
	}

	/** What was read, or undefined when it is what the previous build read. */
	done(): readonly unknown[] | undefined {
		if (this.list) {
			if (this.list.length > this.at) this.list.length = this.at;
			return this.list;
		}
		return this.at === this.before?.length ? undefined : (this.before?.slice(0, this.at) ?? []);
	}
}

/**
 * The previous build with the cells of a few changed BundleDeployments replaced, when each stays in the cell it had
 * (the usual watch event: a state changes); undefined when anything else changed and the matrix is built anew.
 */
function patchedFleetMatrix(
	previous: RolloutMatrix,
	reading: Reading,
	read: readonly unknown[],
	tables: MatrixTables,
): RolloutMatrix | undefined {
	const { readCells, placeCell } = previous;
	if (!readCells || !placeCell || !reading.sameLength || reading.changed.length === 0) {
		return undefined;
	}
	// The cell of each changed BundleDeployment, and which of the reading's changes it is.
	const places: number[] = [];
	const changed: number[] = [];
	for (let index = 0; index < reading.changed.length; index++) {
		const at = reading.changed[index] ?? 0;
		const object = read[at] as K8sObject;
		// An object of another system, before and after, changes nothing here.
		if (!isFleetObject(object) && !isFleetObject(previous.read[at] as K8sObject)) continue;
		const cell = readCells[at] ?? -1;
		if (cell < 0 || object.kind !== 'BundleDeployment' || placeCell(object) !== cell) {
			return undefined;
		}
		places.push(cell);
		changed.push(index);
	}
	const cellStyles = previous.cellStyles.slice();
	const cellTexts = previous.cellTexts.slice();
	const cellObjects = previous.cellObjects.slice();
	const cellNotReady = new Map(previous.cellNotReady);
	changed.forEach((index, place) => {
		const object = read[reading.changed[index] ?? 0] as K8sObject;
		const status = reading.changedResults[index] as StatusResult;
		const cell = places[place] ?? -1;
		cellStyles[cell] = tables.style(status.state, status.tone);
		cellTexts[cell] = tables.text(status.message);
		cellObjects[cell] = object;
		const lines = notReadyLinesOf(object, tables);
		if (lines) cellNotReady.set(cell, lines);
		else cellNotReady.delete(cell);
	});
	return {
		...previous,
		cellStyles,
		cellTexts,
		cellObjects,
		cellNotReady,
		read,
		patched: { base: previous.read, cells: places },
	};
}

const rollupsNotice =
	'Some Bundles show only what their status says: this context lists Fleet roll-ups, not BundleDeployments ' +
	'(there are more than kubeStatusLens.clusters.bundleDeploymentThreshold). A Bundle row counts all its clusters; ' +
	'its cells are the clusters the status names as not ready (at most ten). Expand a Bundle in the tree to list its ' +
	'BundleDeployments, or raise the threshold.';

/** The Fleet matrix of a root's objects: rows GitRepos/HelmOps with their Bundles, columns Clusters. */
function buildFleetMatrix(
	source: MatrixSource,
	previous: RolloutMatrix | undefined,
	tables: MatrixTables,
): RolloutMatrix {
	// A rebuild first compares what the root holds with what the previous build read, object by object, without
	// reading into them: nothing changed, or a few BundleDeployments in the cells they had, and it stops there. A full
	// build reads the Fleet objects, the rows and columns BundleDeployments name that the root does not hold, and
	// places the cells.
	const reading = new Reading(previous);
	let read: readonly unknown[] | undefined;
	if (previous) {
		source((object, status) => reading.add(object, status));
		read = reading.done();
		if (!read) return previous;
		const patched = patchedFleetMatrix(previous, reading, read, tables);
		if (patched) return patched;
	}
	const owners = new Map<string, Draft<MatrixRow>>();
	const bundleObjects: K8sObject[] = [];
	const clusterObjects: K8sObject[] = [];
	const groupObjects: K8sObject[] = [];
	let bundleDeployments = 0;
	// The BundleDeployments, their results and their places in the reading.
	const bds: K8sObject[] = [];
	const bdResults: StatusResult[] = [];
	const bdReadAt: number[] = [];
	let at = -1;
	source((object, status) => {
		at++;
		// A BundleDeployment's result changes only with the object: the object says it all.
		if (!previous) reading.add(object);
		if (!isFleetObject(object)) return;
		switch (object.kind) {
			case 'BundleDeployment':
				bundleDeployments++;
				bds.push(object);
				bdResults.push(status);
				bdReadAt.push(at);
				break;
			case 'GitRepo':
			case 'HelmOp': {
				const kind = object.kind;
				const namespace = namespaceOf(object);
				const name = nameOf(object);
				const key = objectKey(fleetApiGroup, kind, namespace, name);
				owners.set(key, {
					value: {
						id: key,
						label: `${kind} ${pairOf(namespace, name)}`,
						kind,
						groupId: key,
						heading: true,
						objectKey: key,
					},
					index: -1,
				});
				break;
			}
			case 'Bundle':
				bundleObjects.push(object);
				break;
			case 'Cluster':
				clusterObjects.push(object);
				break;
			case 'ClusterGroup':
				groupObjects.push(object);
				break;
		}
	});
	read ??= reading.done() ?? [];

	const noOwner = 'owner:none';
	const ownerOf = (candidates: readonly string[]): string => {
		for (const candidate of candidates) {
			const key = fleetOwnerKeyOf(candidate);
			if (owners.has(key)) return key;
		}
		return noOwner;
	};
	const bundles = new ByPair<Draft<MatrixRow>>();
	const bundleRows: Draft<MatrixRow>[] = [];
	for (const bundle of bundleObjects) {
		const namespace = namespaceOf(bundle);
		const name = nameOf(bundle);
		const key = objectKey(fleetApiGroup, 'Bundle', namespace, name);
		const row: Draft<MatrixRow> = {
			value: {
				id: key,
				label: `Bundle ${pairOf(namespace, name)}`,
				kind: 'Bundle',
				groupId: ownerOf(fleetOwnerCandidatesOf(bundle, namespace)),
				heading: false,
				objectKey: key,
			},
			index: -1,
		};
		bundles.set(namespace, name, row);
		bundleRows.push(row);
	}

	const groups = groupObjects
		.map((group) => ({
			name: nameOf(group),
			namespace: namespaceOf(group),
			matches: clusterGroupMatcherOf(group),
		}))
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	const clusters = new ByPair<Draft<MatrixColumn>>();
	const clusterByStatusNamespace = new Map<string, Draft<MatrixColumn>>();
	const columns: Draft<MatrixColumn>[] = [];
	for (const cluster of clusterObjects) {
		const namespace = namespaceOf(cluster);
		const name = nameOf(cluster);
		const labels = labelsOf(cluster);
		const group = groups.find(
			(candidate) => candidate.namespace === namespace && candidate.matches(labels),
		);
		const id = pairOf(namespace, name);
		const column: Draft<MatrixColumn> = {
			value: {
				id,
				label: id,
				group: group?.name ?? '',
				labels,
				objectKey: objectKey(fleetApiGroup, 'Cluster', namespace, name),
			},
			index: -1,
		};
		clusters.set(namespace, name, column);
		const statusNamespace = getString(cluster, 'status', 'namespace');
		if (statusNamespace) clusterByStatusNamespace.set(statusNamespace, column);
		columns.push(column);
	}
	const extraColumns = new Map<string, Draft<MatrixColumn>>();
	const extraColumn = (id: string, label: string): Draft<MatrixColumn> => {
		let column = extraColumns.get(id);
		if (!column) {
			column = { value: { id, label, group: '', labels: {} }, index: -1 };
			extraColumns.set(id, column);
			columns.push(column);
		}
		return column;
	};

	// Where placeOf puts a BundleDeployment (no object per call).
	let placedRow: Draft<MatrixRow> | undefined;
	let placedColumn: Draft<MatrixColumn> | undefined;
	/**
	 * The row and column of a BundleDeployment (as the tree links it) into placedRow and placedColumn; with `create`,
	 * made when the root holds neither, else left undefined.
	 */
	const placeOf = (bd: K8sObject, create: boolean): void => {
		const metadata = bd.metadata;
		const labels = isRecord(metadata) && isRecord(metadata.labels) ? metadata.labels : undefined;
		const bundleName = labelText(labels, fleetLabels.bundleName);
		const bundleNamespace = labelText(labels, fleetLabels.bundleNamespace);
		// A BundleDeployment without the bundle-name label has a row of its own name.
		const rowNamespace = bundleName ? bundleNamespace : '?';
		const rowName = bundleName || nameOf(bd);
		let row = bundles.get(rowNamespace, rowName);
		placedRow = row;
		placedColumn = undefined;
		if (!row && !create) return;
		if (!row) {
			// A Bundle the root does not hold: a row of its own, under the owner its labels name.
			const slot = bundleName ? pairOf(bundleNamespace, bundleName) : `?${rowName}`;
			row = {
				value: {
					id: `bundle:${slot}`,
					label: `Bundle ${bundleName ? slot : rowName}`,
					kind: 'Bundle',
					groupId: ownerOf(fleetOwnerCandidatesOf(bd, bundleNamespace)),
					heading: false,
				},
				index: -1,
			};
			bundles.set(rowNamespace, rowName, row);
			bundleRows.push(row);
		}
		placedRow = row;
		const clusterName = labelText(labels, fleetLabels.cluster);
		const clusterNamespace = labelText(labels, fleetLabels.clusterNamespace);
		let column: Draft<MatrixColumn> | undefined;
		if (clusterName && clusterNamespace) {
			column = clusters.get(clusterNamespace, clusterName);
			if (!column && create) {
				const id = pairOf(clusterNamespace, clusterName);
				column = extraColumn(id, id);
				clusters.set(clusterNamespace, clusterName, column);
			}
		} else {
			const namespace = namespaceOf(bd);
			column =
				clusterByStatusNamespace.get(namespace) ??
				extraColumns.get(`?${namespace}`) ??
				(create ? extraColumn(`?${namespace}`, `cluster of namespace ${namespace}`) : undefined);
		}
		placedColumn = column;
	};
	const listedRows = new Set<Draft<MatrixRow>>();
	for (const bd of bds) {
		placeOf(bd, true);
		if (placedRow) listedRows.add(placedRow);
	}

	// Bundles whose BundleDeployments the root does not hold: what their status summary says.
	const rowCounts = new Map<Draft<MatrixRow>, ReadonlyMap<number, number>>();
	const summaryCells = new PendingCells();
	for (const bundle of bundleObjects) {
		const row = bundles.get(namespaceOf(bundle), nameOf(bundle));
		const raw = getRecord(bundle, 'status', 'summary');
		if (!row || listedRows.has(row) || !raw) continue;
		const summary = readBundleSummary(raw);
		const counts = countsOfSummary(summary, tables);
		if (counts.size === 0) continue;
		rowCounts.set(row, counts);
		for (const entry of summary.nonReadyResources) {
			const slash = entry.name.indexOf('/');
			if (slash < 0 || entry.bundleState === '') continue;
			const column =
				clusters.get(entry.name.slice(0, slash), entry.name.slice(slash + 1)) ??
				extraColumn(entry.name, entry.name);
			const lines: number[] = [];
			for (const item of entry.nonReadyStatus) lines.push(tables.text(nonReadyStatusString(item)));
			for (const item of entry.modifiedStatus) lines.push(tables.text(modifiedStatusString(item)));
			summaryCells.add(
				row,
				column,
				tables.style(entry.bundleState, toneOfState(entry.bundleState)),
				tables.text(entry.message || `${entry.bundleState} (from the Bundle's status)`),
				bundle,
				lines.slice(0, maxNotReadyLines),
			);
		}
	}

	const bundlesByOwner = new Map<string, Draft<MatrixRow>[]>();
	for (const bundle of bundleRows) {
		const list = bundlesByOwner.get(bundle.value.groupId);
		if (list) list.push(bundle);
		else bundlesByOwner.set(bundle.value.groupId, [bundle]);
	}
	const ownerRows = [...owners.values()].sort(byValueLabel);
	if (bundlesByOwner.has(noOwner)) {
		ownerRows.push({
			value: {
				id: noOwner,
				label: 'Bundles without a GitRepo or HelmOp',
				kind: '',
				groupId: noOwner,
				heading: true,
			},
			index: -1,
		});
	}
	const rows: Draft<MatrixRow>[] = [];
	for (const owner of ownerRows) {
		rows.push(owner);
		for (const bundle of (bundlesByOwner.get(owner.value.id) ?? []).sort(byValueLabel)) {
			rows.push(bundle);
		}
	}
	columns.sort(byGroupThenLabel);

	let notice = '';
	if (rows.length === 0) {
		notice =
			'No GitRepos, HelmOps, Bundles or BundleDeployments here yet. A live context lists them as it syncs: ' +
			'they appear here as they arrive.';
	} else if (rowCounts.size > 0) {
		notice = rollupsNotice;
	} else if (bundleDeployments === 0) {
		notice =
			bundleRows.length === 0
				? 'No Bundles yet: Fleet has not rendered these GitRepos or HelmOps into Bundles (see their state in ' +
					'the tree). Their Bundles and BundleDeployments show here once Fleet creates them.'
				: 'No BundleDeployments are listed for these Bundles, and their status names no cluster yet. In a ' +
					'live context still syncing they show as they arrive; in roll-ups-only mode, expand a Bundle in ' +
					'the tree to list its BundleDeployments.';
	}
	const grid = gridOf('fleet', rows, columns, summaryCells, tables, {
		rowCounts,
		notice,
		read,
	});
	const width = columns.length;
	const placeCell = (bd: K8sObject): number => {
		placeOf(bd, false);
		return placedRow && placedColumn ? placedRow.index * width + placedColumn.index : -1;
	};
	const readCells = new Int32Array(grid.read.length).fill(-1);
	const { cellStyles, cellTexts, cellObjects } = grid;
	const cellNotReady = grid.cellNotReady as Map<number, readonly number[]>;
	for (let index = 0; index < bds.length; index++) {
		const object = bds[index] as K8sObject;
		const status = bdResults[index] as StatusResult;
		const cell = placeCell(object);
		if (cell < 0) continue;
		readCells[bdReadAt[index] ?? 0] = cell;
		cellStyles[cell] = tables.style(status.state, status.tone);
		cellTexts[cell] = tables.text(status.message);
		(cellObjects as (K8sObject | undefined)[])[cell] = object;
		const lines = notReadyLinesOf(object, tables);
		if (lines) cellNotReady.set(cell, lines);
		else cellNotReady.delete(cell);
	}
	placeTargeting(grid, bundleObjects, read, bundles, clusters, tables, rowCounts);
	return { ...grid, readCells, placeCell };
}

/**
 * Where the Bundles' targets say they go (src/core/targeting), for the cells of real Bundles by real Clusters: an
 * empty cell the targets do not reach reads "not targeted" with the reason, one they reach "no BundleDeployment yet"
 * (the controller is behind); a BundleDeployment on a cluster the targets no longer reach is said to be stale.
 * Bundles known from their status summary only (roll-ups-only) are left as they are.
 */
function placeTargeting(
	grid: RolloutMatrix,
	bundleObjects: readonly K8sObject[],
	read: readonly unknown[],
	bundles: ByPair<Draft<MatrixRow>>,
	clusters: ByPair<Draft<MatrixColumn>>,
	tables: MatrixTables,
	rowCounts: ReadonlyMap<Draft<MatrixRow>, unknown>,
): void {
	if (bundleObjects.length === 0) return;
	const width = grid.columns.length;
	const { cellStyles, cellTexts } = grid;
	const cellObjects = grid.cellObjects as (K8sObject | undefined)[];
	const bundleOf = new Map(
		bundleObjects.map((object) => [pairOf(namespaceOf(object), nameOf(object)), object]),
	);
	const notTargeted = tables.style(notTargetedState, 'unknown', false);
	const behind = tables.style(noBundleDeploymentState, 'warning');
	for (const targeting of fleetTargetsOf(read)) {
		const row = bundles.get(targeting.namespace, targeting.name);
		const object = bundleOf.get(pairOf(targeting.namespace, targeting.name));
		// A Bundle without spec.targets is an extract (Fleet always writes them): where it goes is not known.
		if (!row || rowCounts.has(row) || (getArray(object, 'spec', 'targets') ?? []).length === 0) {
			continue;
		}
		for (const cluster of targeting.clusters) {
			const column = clusters.get(cluster.namespace, cluster.name);
			if (!column) continue;
			const cell = row.index * width + column.index;
			const style = cellStyles[cell] ?? -1;
			if (style < 0) {
				// The cell stands for the Bundle on that cluster: a click reveals the Bundle.
				cellObjects[cell] = object;
				cellStyles[cell] = cluster.deployed ? behind : notTargeted;
				cellTexts[cell] = tables.text(
					cluster.deployed
						? `${cluster.why} Fleet has no BundleDeployment here yet: the controller is behind.`
						: cluster.why,
				);
			} else if (!cluster.deployed) {
				cellTexts[cell] = tables.text(
					`${tables.texts[cellTexts[cell] ?? 0] ?? ''}\nStale: the Bundle's targets no longer reach this cluster. ${cluster.why}`,
				);
			}
		}
	}
}

function isFleetObject(object: K8sObject): boolean {
	return typeof object.apiVersion === 'string' && object.apiVersion.startsWith(fleetApiPrefix);
}

const bindingKeyLabel = 'transport.kubestellar.io/originOwnerReferenceBindingKey';

/**
 * The KubeStellar matrix of a root's objects: rows the workloads WorkStatuses report on, under the BindingPolicy that
 * placed them; columns the WECs (a WorkStatus's namespace, and ManagedClusters the root holds). A WorkStatus's result
 * is the graph's, computed with its workload.
 */
function buildKubestellarMatrix(
	source: MatrixSource,
	previous: RolloutMatrix | undefined,
	tables: MatrixTables,
): RolloutMatrix {
	const reading = new Reading(previous);
	const workStatuses: { object: K8sObject; status: StatusResult; source: WorkStatusSource }[] = [];
	const wecs = new Map<string, Draft<MatrixColumn>>();
	const addWec = (name: string, value: MatrixColumn): void => {
		wecs.set(name, { value, index: -1 });
	};
	source((object, status) => {
		if (object.kind === 'WorkStatus') {
			// A WorkStatus's result changes with its workload too.
			reading.add(object);
			reading.add(status);
			const from = workStatusSourceOf(object);
			if (from) workStatuses.push({ object, status, source: from });
		} else if (object.kind === 'ManagedCluster') {
			reading.add(object);
			const name = nameOf(object);
			addWec(name, {
				id: name,
				label: name,
				group: '',
				labels: labelsOf(object),
				objectKey: objectKeyOf(object),
			});
		}
	});
	const read = reading.done();
	if (previous && !read) return previous;
	const wantedKinds = new Set(workStatuses.map(({ source: from }) => from.kind));
	const wanted = new Set(workStatuses.map(({ source: from }) => from.key));
	const held = new Set<string>();
	if (wanted.size > 0) {
		source((object) => {
			if (typeof object.kind !== 'string' || !wantedKinds.has(object.kind)) return;
			const key = objectKeyOf(object);
			if (wanted.has(key)) held.add(key);
		});
	}
	const headings = new Map<string, Draft<MatrixRow>>();
	const rowsById = new Map<string, Draft<MatrixRow>>();
	const pending = new PendingCells();
	for (const { object, status, source: from } of workStatuses) {
		const policy = labelsOf(object)[bindingKeyLabel] ?? '';
		const headingId = `policy:${policy}`;
		if (!headings.has(headingId)) {
			headings.set(headingId, {
				value: {
					id: headingId,
					label: policy ? `BindingPolicy ${policy}` : 'Workloads of no BindingPolicy',
					kind: policy ? 'BindingPolicy' : '',
					groupId: headingId,
					heading: true,
					...(policy
						? { objectKey: objectKey('control.kubestellar.io', 'BindingPolicy', '', policy) }
						: {}),
				},
				index: -1,
			});
		}
		const rowId = `${headingId}\u0000${from.key}`;
		let row = rowsById.get(rowId);
		if (!row) {
			row = {
				value: {
					id: rowId,
					label: `${from.kind} ${from.namespace ? pairOf(from.namespace, from.name) : from.name}`,
					kind: from.kind,
					groupId: headingId,
					heading: false,
					...(held.has(from.key) ? { objectKey: from.key } : {}),
				},
				index: -1,
			};
			rowsById.set(rowId, row);
		}
		const wec = namespaceOf(object);
		if (!wecs.has(wec)) addWec(wec, { id: wec, label: wec, group: '', labels: {} });
		pending.add(
			row,
			wecs.get(wec) as Draft<MatrixColumn>,
			// KubeStellar's words (kstatus's Current, InProgress...) are shown whole: they have no abbreviations a
			// user knows, and a WEC column has room for them.
			tables.style(status.state, status.tone, true, status.state),
			tables.text(status.message),
			object,
			status.tone === 'ok'
				? undefined
				: status.reasons.slice(0, maxNotReadyLines).map((line) => tables.text(line)),
		);
	}
	const rows: Draft<MatrixRow>[] = [];
	const workloadRows = [...rowsById.values()].sort(byValueLabel);
	for (const heading of [...headings.values()].sort(byValueLabel)) {
		rows.push(heading);
		for (const row of workloadRows) if (row.value.groupId === heading.value.id) rows.push(row);
	}
	const notice =
		rows.length === 0
			? 'No WorkStatuses here yet. They live in the ITS: for a WDS context, pair it with its ITS ' +
				'(kubeStatusLens.clusters.kubestellarPairs) and they show here as the ITS reports them.'
			: '';
	return gridOf('kubestellar', rows, [...wecs.values()].sort(byValueLabel), pending, tables, {
		rowCounts: new Map(),
		notice,
		read: read ?? [],
	});
}

/**
 * The matrix of a system in a root's objects. Given the previous build of the same panel, it shares its tables, and
 * returns it as it is when the root's objects and results are the same ones.
 */
export function buildRolloutMatrix(
	system: MatrixSystem,
	source: MatrixSource,
	previous?: RolloutMatrix,
): RolloutMatrix {
	// The tables only grow: past a bound (messages that keep changing, over a long session) a build starts afresh,
	// with tables of its own, which the panel sends whole.
	const fresh =
		!previous ||
		previous.tables.texts.length > 4 * previous.cellStyles.length + maxTextsKept ||
		previous.tables.styles.length > maxStylesKept;
	const kept = fresh ? undefined : previous;
	const tables = kept?.tables ?? new MatrixTables();
	return system === 'fleet'
		? buildFleetMatrix(source, kept, tables)
		: buildKubestellarMatrix(source, kept, tables);
}

const maxTextsKept = 10_000;
const maxStylesKept = 1_000;

/** The cell at a row and column, or undefined where nothing is deployed. */
export function cellAt(matrix: RolloutMatrix, row: number, column: number): MatrixCell | undefined {
	if (row < 0 || column < 0 || row >= matrix.rows.length || column >= matrix.columns.length) {
		return undefined;
	}
	const at = row * matrix.columns.length + column;
	const style = matrix.tables.styles[matrix.cellStyles[at] ?? -1];
	const object = matrix.cellObjects[at];
	if (!style || !object) return undefined;
	const texts = matrix.tables.texts;
	return {
		...style,
		message: texts[matrix.cellTexts[at] ?? 0] ?? '',
		notReady: (matrix.cellNotReady.get(at) ?? []).map((index) => texts[index] ?? ''),
		object,
	};
}

/** Which matrices a root's objects can show, Fleet first. */
export function matrixSystemsOf(source: MatrixSource): MatrixSystem[] {
	let fleet = false;
	let kubestellar = false;
	source((object) => {
		if (!isRecord(object)) return;
		const kind = object.kind;
		if (
			kind === 'BundleDeployment' ||
			kind === 'Bundle' ||
			((kind === 'GitRepo' || kind === 'HelmOp') &&
				typeof object.apiVersion === 'string' &&
				object.apiVersion.startsWith(fleetApiPrefix))
		) {
			fleet = true;
		} else if (kind === 'WorkStatus') kubestellar = true;
	});
	return [
		...(fleet ? (['fleet'] as const) : []),
		...(kubestellar ? (['kubestellar'] as const) : []),
	];
}

// ---------------------------------------------------------------------------------------------------------------
// Summaries

/** Row and column summaries (`2/50 ErrApplied`) and how bad each row and column is, by index. */
export interface MatrixSummaries {
	readonly rows: readonly string[];
	readonly columns: readonly string[];
	readonly rowBadness: readonly number[];
	readonly columnBadness: readonly number[];
}

/** How bad a tone is for sorting by problems: one error outweighs any number of warnings in practice. */
function badnessOfTone(tone: Tone): number {
	return 10 ** toneRank(tone) - 1;
}

/**
 * "2/50 ErrApplied": how many cells are in the worst state among them, of all; "50/50 Ready" when all are fine. Of
 * two states equally bad, the one with more cells.
 */
function summaryText(
	counts: Int32Array | Float64Array,
	offset: number,
	styles: readonly MatrixStyle[],
): string {
	let total = 0;
	let worst = -1;
	for (let style = 0; style < styles.length; style++) {
		const count = counts[offset + style] ?? 0;
		if (count === 0) continue;
		total += count;
		if (worst < 0) {
			worst = style;
			continue;
		}
		const rank = toneRank((styles[style] as MatrixStyle).tone);
		const worstRank = toneRank((styles[worst] as MatrixStyle).tone);
		if (rank > worstRank || (rank === worstRank && count > (counts[offset + worst] ?? 0))) {
			worst = style;
		}
	}
	if (worst < 0) return '';
	return `${counts[offset + worst] ?? 0}/${total} ${(styles[worst] as MatrixStyle).state}`;
}

function badnessOf(
	counts: Int32Array | Float64Array,
	offset: number,
	styles: readonly MatrixStyle[],
): number {
	let badness = 0;
	for (let style = 0; style < styles.length; style++) {
		badness += (counts[offset + style] ?? 0) * badnessOfTone((styles[style] as MatrixStyle).tone);
	}
	return badness;
}

/** Row and column summaries of a matrix; a heading row sums the rows under it. Counts, never an object per cell. */
export function summariesOf(matrix: RolloutMatrix): MatrixSummaries {
	const styles = matrix.tables.styles;
	const kinds = styles.length;
	const width = matrix.columns.length;
	const height = matrix.rows.length;
	const rowCounts = new Float64Array(height * kinds);
	const columnCounts = new Float64Array(width * kinds);
	for (let row = 0; row < height; row++) {
		const rowOffset = row * kinds;
		const overridden = matrix.rowCounts.get(row);
		for (let column = 0; column < width; column++) {
			const style = matrix.cellStyles[row * width + column] ?? -1;
			if (style < 0 || styles[style]?.counted === false) continue;
			if (!overridden) rowCounts[rowOffset + style] = (rowCounts[rowOffset + style] ?? 0) + 1;
			columnCounts[column * kinds + style] = (columnCounts[column * kinds + style] ?? 0) + 1;
		}
		for (const [style, count] of overridden ?? []) rowCounts[rowOffset + style] = count;
	}
	const headingOf = new Map<string, number>();
	matrix.rows.forEach((row, index) => {
		if (row.heading) headingOf.set(row.id, index);
	});
	matrix.rows.forEach((row, index) => {
		const heading = headingOf.get(row.groupId);
		if (row.heading || heading === undefined) return;
		for (let style = 0; style < kinds; style++) {
			rowCounts[heading * kinds + style] =
				(rowCounts[heading * kinds + style] ?? 0) + (rowCounts[index * kinds + style] ?? 0);
		}
	});
	const rows: string[] = [];
	const rowBadness: number[] = [];
	for (let row = 0; row < height; row++) {
		rows.push(summaryText(rowCounts, row * kinds, styles));
		rowBadness.push(badnessOf(rowCounts, row * kinds, styles));
	}
	const columns: string[] = [];
	const columnBadness: number[] = [];
	for (let column = 0; column < width; column++) {
		columns.push(summaryText(columnCounts, column * kinds, styles));
		columnBadness.push(badnessOf(columnCounts, column * kinds, styles));
	}
	return { rows, columns, rowBadness, columnBadness };
}
