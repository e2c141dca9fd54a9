// Tree nodes built from vertices: the label (which depends on the place), the description with its counts, the
// roll-up, and the flags commands need. A built node is cached on its vertex until the vertex's display changes.
import { heldFor, leadingConditionSince } from '../explain/objectFacts.ts';
import { rowFinalizersLimit, terminatingWords, terminationOf } from '../explain/termination.ts';
import { getPath, getString } from '../model/object.ts';
import { readResourceCounts } from '../status/fleetSummary.ts';
import { isOciHelmRepository } from '../status/flux.ts';
import { fluxReportSummaryOf } from '../status/fluxReport.ts';
import { toneRank, tones, type StatusResult, type Tone } from '../status/result.ts';
import { rowTextLimit, truncate } from '../text/limits.ts';
import { fleetRowRollupOf, hasFleetRollup, resultOf } from './derivation.ts';
import {
	childrenDisagreementOf,
	fleetCountsOf,
	fleetDisagreementOf,
	fleetRollupSize,
	groupDescriptionOf,
	harborCountsOf,
	harborDisagreementOf,
	isDeclaredOnly,
	nameOrPlaceholder,
	stateWordOf,
} from './describe.ts';
import {
	isBindingPolicy,
	isFleet,
	isWorkStatus,
	rootCountsText,
	type Entry,
	type ObjectRow,
	type Root,
	type Vertex,
} from './graphState.ts';
import { indexedSize } from './indexes.ts';
import { bundleDeploymentQueryOf } from './linking.ts';
import type { ContextFlags, NodeRollup, NodeSource, StateSince, TreeNode } from './treeNode.ts';
import { childCount, isProblemTone } from './update.ts';

/** Counts of a vertex's children by tone, or undefined without children. */
function rollupOf(vertex: Vertex): NodeRollup | undefined {
	const counts = vertex.counts;
	if (!counts || childCount(vertex) === 0) return undefined;
	const byTone = {} as Record<Tone, number>;
	let worst: Tone = 'ok';
	for (const tone of tones) {
		const count = counts[toneRank(tone)] ?? 0;
		byTone[tone] = count;
		if (count > 0) worst = tone;
	}
	return {
		tone: worst,
		total: childCount(vertex),
		ok: byTone.ok,
		problems: byTone.warning + byTone.error,
		byTone,
	};
}

/** The node of a vertex at one place (id), built once per display. */
export function buildNode(
	root: Root,
	vertex: Vertex,
	id: string,
	parentId: string | undefined,
	parent: Vertex | undefined,
): TreeNode {
	const cached = vertex.nodes?.get(id);
	if (cached) return cached;
	const node = vertex.entry
		? objectNode(root, vertex.entry, id, parentId, parent)
		: otherNode(root, vertex, id, parentId);
	(vertex.nodes ??= new Map()).set(id, node);
	return node;
}

/** What commands need to know about a node. */
function flagsOf(
	root: Root,
	vertex: Vertex,
	entry: Entry | undefined,
	result: StatusResult | undefined,
): ContextFlags {
	const object = entry?.object;
	return {
		origin: root.origin,
		system: entry ? entry.system : (vertex.info?.system ?? 'none'),
		objectKind: entry?.kind ?? '',
		state: result?.state ?? '',
		declared: result ? isDeclaredOnly(result) : false,
		suspended: entry?.system === 'flux' && getPath(object, 'spec', 'suspend') === true,
		paused: entry?.system === 'fleet' && getPath(object, 'spec', 'paused') === true,
		oci: entry ? isOciHelmRepository(object) : false,
		inFile: entry ? entry.copies.some((copy) => copy.line !== undefined) : false,
		// Of a file root, only an archive's entries are read without a line.
		inArchive:
			root.origin === 'file' && entry
				? entry.copies.some((copy) => copy.line === undefined)
				: false,
		problem: isProblemTone(vertex.tone),
	};
}

/**
 * An object's label at a place, and the namespace when the label leaves out one its parent does not already say. The
 * label is the name alone, so the state (the first thing in the description) is not cut off in a narrow side bar;
 * the namespace goes last in the description.
 */
function labelFor(
	entry: Entry,
	parent: Vertex | undefined,
): { readonly label: string; readonly namespace?: string | undefined } {
	const parentEntry = parent?.entry;
	if (isFleet(entry, 'BundleDeployment')) {
		if (parentEntry && isFleet(parentEntry, 'Cluster')) {
			return { label: nameOrPlaceholder(entry.name) };
		}
		return { label: entry.bdLinks?.clusterName || nameOrPlaceholder(entry.namespace) };
	}
	if (isWorkStatus(entry)) {
		const source = entry.wsSource;
		if (parent?.kind === 'placeholder' && parent.info?.link === entry.namespace) {
			return source
				? {
						label: `${source.kind || source.resource || 'object'} ${nameOrPlaceholder(source.name)}`,
						namespace: source.namespace || undefined,
					}
				: { label: nameOrPlaceholder(entry.name), namespace: entry.namespace || undefined };
		}
		return { label: nameOrPlaceholder(entry.namespace) };
	}
	const name = nameOrPlaceholder(entry.name);
	const namespace = entry.namespace || undefined;
	if (!parent || parent.kind === 'category') return { label: name, namespace };
	if (parentEntry) {
		if (entry.system === 'fleet' && parentEntry.system === 'fleet') return { label: name };
		const kind = entry.kind || 'object';
		return parentEntry.namespace === entry.namespace
			? { label: `${kind} ${name}` }
			: { label: `${kind} ${name}`, namespace };
	}
	return { label: name, namespace };
}

/** The node of an object at one place: its label there, and the row all its places share. */
function objectNode(
	root: Root,
	entry: Entry,
	id: string,
	parentId: string | undefined,
	parent: Vertex | undefined,
): TreeNode {
	const vertex = entry.vertex;
	const row = (vertex.row ??= objectRowOf(root, entry));
	const place = labelFor(entry, parent);
	const label = truncate(place.label, rowTextLimit);
	const description =
		place.namespace === undefined
			? row.description
			: truncate(`${row.description} · ${place.namespace}`, rowTextLimit);
	const { details } = row;
	let node: { -readonly [K in keyof TreeNode]: TreeNode[K] };
	if (details) {
		// Accessors written in the literal keep one object shape (defining them afterwards makes a slow dictionary).
		node = {
			id,
			rootId: root.id,
			kind: 'object',
			label,
			description,
			tone: vertex.tone,
			objectKey: entry.key,
			ref: row.ref,
			get result() {
				return details().result;
			},
			get disagreement() {
				return details().disagreement;
			},
			sources: row.sources,
			contextFlags: row.contextFlags,
			hasChildren: row.hasChildren,
		};
	} else {
		node = {
			id,
			rootId: root.id,
			kind: 'object',
			label,
			description,
			tone: vertex.tone,
			objectKey: entry.key,
			ref: row.ref,
			sources: row.sources,
			contextFlags: row.contextFlags,
			hasChildren: row.hasChildren,
		};
		if (row.result) node.result = row.result;
		if (row.disagreement) node.disagreement = row.disagreement;
	}
	if (row.listOnDemand) node.listOnDemand = row.listOnDemand;
	if (row.stateSince) node.stateSince = row.stateSince;
	node.stateEnd = row.stateEnd;
	if (row.terminating) node.terminating = row.terminating;
	if (parentId !== undefined) node.parentId = parentId;
	if (row.rollup) node.rollup = row.rollup;
	return node;
}

/** What every place of an object's node shows alike: result, counts, disagreement, sources and flags. */
function objectRowOf(root: Root, entry: Entry): ObjectRow {
	const vertex = entry.vertex;
	const fleet = hasFleetRollup(entry);
	// A Fleet roll-up's own words and fields wait until something reads them (see fleetRowRollupOf); the row needs
	// only the object's own result, which they do not change.
	const result = fleet ? entry.base : resultOf(root, entry);
	const rollup = rollupOf(vertex);
	let counts: string | undefined;
	let disagreement: string | undefined;
	if (fleet) {
		counts = fleetCountsOf(entry.kind, entry.object, fleetRowRollupOf(root, entry));
		if (entry.kind === 'BundleDeployment' && result.state !== 'Ready' && result.message) {
			// "ErrApplied · 3/3 resources" read as healthy (the old release still runs): the reason says more.
			const resources = readResourceCounts(getPath(entry.object, 'status', 'resourceCounts'));
			if (resources.ready === resources.desiredReady) {
				counts = result.message.split('\n', 1)[0]?.trim() || counts;
			}
		}
	} else if (entry.system === 'flux' && entry.kind === 'FluxReport') {
		// Its Ready says the report ran; the row says what it found.
		counts = fluxReportSummaryOf(entry.object).counts || undefined;
	} else if (entry.system === 'harbor' && entry.kind === 'HarborCluster') {
		counts = harborCountsOf(entry.object);
		disagreement = harborDisagreementOf(entry.object, result.computed);
	} else if (rollup) {
		const unit =
			indexedSize(root, 'wsSource', entry.key) > 0 && !isBindingPolicy(entry) ? 'WECs' : 'ready';
		counts = `${rollup.ok}/${rollup.total} ${unit}`;
		disagreement = childrenDisagreementOf(entry.kind, result, rollup.total, rollup.problems);
	}
	if (
		!counts &&
		entry.system === 'flux' &&
		result.state === 'Suspended' &&
		isProblemTone(result.tone)
	) {
		// "Suspended · Failed: <reason>": suspending stops the retries, not the failure.
		counts = result.message.split('\n', 1)[0];
	}
	const word = stateWordOf(result, root.origin === 'live');
	let description = counts ? `${word} · ${counts}` : word;
	// An object being deleted keeps its state word; "Terminating …" (and "waiting for …") go right after it and its
	// age, before the counts, so a narrow side bar still shows them.
	let stateEnd = word.length;
	let stateSince: StateSince | undefined;
	if (result.tone !== 'ok' && result.tone !== 'unknown') {
		const at = leadingConditionSince(entry.object);
		if (at !== undefined) stateSince = { at, wordEnd: word.length };
	}
	if (rollup && disagreement && !fleet && entry.kind !== 'HarborCluster') {
		stateSince = undefined;
		// Its own status reads fine while its icon shows the children's problems: the row leads with those.
		const failing = rollup.byTone.error;
		description =
			failing > 0
				? `${failing} of ${rollup.total} failing · ${word}`
				: `${rollup.byTone.warning} of ${rollup.total} with warnings · ${word}`;
		stateEnd = description.length;
	}
	const sources: NodeSource[] = [];
	for (const copy of entry.copies) {
		const source: { -readonly [K in keyof NodeSource]: NodeSource[K] } = {
			sourceId: copy.sourceId,
		};
		if (copy.line !== undefined) source.line = copy.line;
		if (copy.label !== undefined) source.label = copy.label;
		sources.push(source);
	}
	const listOnDemand =
		root.rollupsFromController && entry.system === 'fleet'
			? bundleDeploymentQueryOf(entry.kind, entry.object)
			: undefined;
	return {
		description: truncate(description, rowTextLimit),
		stateSince,
		stateEnd,
		terminating: terminationOf(entry.object),
		ref: {
			apiVersion: getString(entry.object, 'apiVersion') ?? '',
			kind: entry.kind,
			namespace: entry.namespace,
			name: entry.name,
		},
		result: fleet ? undefined : result,
		details: fleet ? fleetDetailsOf(root, entry, rollup) : undefined,
		disagreement,
		sources,
		contextFlags: flagsOf(root, vertex, entry, result),
		hasChildren: listOnDemand !== undefined || childCount(vertex) > 0,
		rollup,
		listOnDemand,
	};
}

/** A Fleet node's result and disagreement, from the whole roll-up built on first read and then kept. */
function fleetDetailsOf(
	root: Root,
	entry: Entry,
	rollup: NodeRollup | undefined,
): () => { readonly result: StatusResult; readonly disagreement: string | undefined } {
	let details: { result: StatusResult; disagreement: string | undefined } | undefined;
	return () => {
		if (details) return details;
		const result = resultOf(root, entry);
		let disagreement = fleetDisagreementOf(entry.kind, entry.object, result.computed);
		if (!disagreement && fleetRollupSize(entry.kind, result.computed) === 0 && rollup) {
			disagreement = childrenDisagreementOf(entry.kind, result, rollup.total, rollup.problems);
		}
		details = { result, disagreement };
		return details;
	};
}

/**
 * A system's counts are its objects', summed over its categories: counting the categories themselves read as
 * "Flux 1 · 1 problem" over six HelmRepositories.
 */
function systemRollupOf(vertex: Vertex): NodeRollup | undefined {
	const byTone = {} as Record<Tone, number>;
	for (const tone of tones) byTone[tone] = 0;
	let total = 0;
	for (const child of vertex.children?.values() ?? []) {
		if (child.dead) continue;
		const counts = child.kind === 'category' ? rollupOf(child)?.byTone : undefined;
		if (counts) {
			for (const tone of tones) byTone[tone] += counts[tone];
			total += childCount(child);
		} else if (child.kind !== 'category') {
			byTone[child.tone]++;
			total++;
		}
	}
	if (total === 0) return undefined;
	let worst: Tone = 'ok';
	for (const tone of tones) if (byTone[tone] > 0) worst = tone;
	return { tone: worst, total, ok: byTone.ok, problems: byTone.warning + byTone.error, byTone };
}

/** The node of a root, system, category, placeholder, resource or dependency. */
function otherNode(root: Root, vertex: Vertex, id: string, parentId: string | undefined): TreeNode {
	const info = vertex.info;
	const rollup = vertex.kind === 'system' ? systemRollupOf(vertex) : rollupOf(vertex);
	let label: string;
	let description: string;
	switch (vertex.kind) {
		case 'root': {
			label = root.label;
			const counts = rootCountsText(root);
			description = root.state
				? root.state.partial === true
					? root.state.message
					: `${root.state.message} · ${counts}`
				: counts;
			break;
		}
		case 'system':
		case 'category':
			label = info?.label ?? vertex.id;
			description = groupDescriptionOf(rollup?.total ?? 0, rollup?.problems ?? 0);
			break;
		case 'placeholder': {
			label = info?.label ?? vertex.id;
			const counts = rollup ? `${rollup.ok}/${rollup.total} ${info?.unit ?? 'ready'}` : undefined;
			description = [info?.description, counts]
				.filter((part) => part !== undefined && part !== '')
				.join(' · ');
			break;
		}
		default:
			label = info?.label ?? vertex.id;
			description = info?.description ?? '';
	}
	const node: { -readonly [K in keyof TreeNode]: TreeNode[K] } = {
		id,
		rootId: root.id,
		kind: vertex.kind,
		label: truncate(label, rowTextLimit),
		description: truncate(description, rowTextLimit),
		tone: vertex.tone,
		contextFlags: flagsOf(root, vertex, undefined, undefined),
		hasChildren: childCount(vertex) > 0,
	};
	if (parentId !== undefined) node.parentId = parentId;
	if (rollup) node.rollup = rollup;
	if (info?.ref) node.ref = info.ref;
	const message =
		vertex.kind === 'root' ? (root.state?.detail ?? root.state?.message) : info?.message;
	if (message) node.message = message;
	return node;
}

/**
 * The sentence a group's tooltip adds under its row: how many objects it holds, as the row counts them, and every
 * one of them in a part. A root says nothing more: its row already counts its objects ("42 objects · 9 in error"),
 * and counting its system groups read "1 item(s)" beside it.
 */
export function groupCountsSentence(node: TreeNode): string | undefined {
	const rollup = node.rollup;
	if (node.kind === 'root' || !rollup || rollup.total === 0) return undefined;
	const { byTone } = rollup;
	const parts = [
		`${rollup.ok} ready`,
		...(byTone.progressing > 0 ? [`${byTone.progressing} in progress`] : []),
		...(byTone.suspended > 0 ? [`${byTone.suspended} suspended`] : []),
		...(byTone.unknown > 0 ? [`${byTone.unknown} unknown`] : []),
		`${rollup.problems} with problems`,
	];
	return `${rollup.total} object${rollup.total === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/** How much of "waiting for …" a row shows: the whole words are in the tooltip. */
const rowWaitingLimit = 60;

/**
 * A row's description as shown at `now`: "ErrApplied for 12 min · …" when its state has a known start;
 * "Ready · Terminating 3 h · finalizers: a, b · …" while the object is being deleted ("Deleting for 3 h · …" after a
 * state word that says so already; the finalizers cut for the row; `termination: false` for a caller that says it its
 * own way); and "waiting for infra · Failed · …" when its
 * object waits for another (`waiting`, cut for the row): the row leads with what it waits for, as a row whose
 * children fail leads with them. A row that says either leaves out the state's age: in a 300 px side bar it would
 * push them out of sight, and the tooltip says since when.
 */
export function descriptionAt(
	node: TreeNode,
	now: number,
	{
		waiting,
		termination = true,
	}: { readonly waiting?: string | undefined; readonly termination?: boolean } = {},
): string {
	let { description } = node;
	const terminating = termination ? node.terminating : undefined;
	if (!terminating && !waiting) {
		const since = node.stateSince;
		const held = since ? heldFor(now - since.at) : undefined;
		if (!since || !held) return description;
		return `${description.slice(0, since.wordEnd)} for ${held}${description.slice(since.wordEnd)}`;
	}
	if (terminating) {
		const at = Math.min(node.stateEnd ?? description.length, description.length);
		const stateWord = description.slice(0, at);
		const words = terminatingWords(terminating, now, rowFinalizersLimit, stateWord);
		// After a state word that says it already: "Deleting for 2 days · finalizers: …".
		const joint = words.startsWith('for ') ? ' ' : ' · ';
		description = `${stateWord}${words === '' ? '' : `${joint}${words}`}${description.slice(at)}`;
	}
	if (waiting) {
		const words =
			waiting.length > rowWaitingLimit
				? `${waiting.slice(0, rowWaitingLimit).trimEnd()}…`
				: waiting;
		description = `${words} · ${description}`;
	}
	return description;
}
