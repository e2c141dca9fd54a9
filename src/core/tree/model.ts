// The resource graph behind the status tree: objects from several sources (files, later clusters) under one root
// each, linked in the hierarchies users think in, every node carrying the engine's result and a roll-up of its
// children. Updates are incremental: an object event re-places the object and the few objects whose links it
// changes (found through indexes), and returns the tree ids whose display changed. Pure: no vscode, no I/O, no clock.
// This file is the facade: ResourceGraph holds the roots and calls the modules beside it, which are functions over
// the state in graphState.ts.
import { getString } from '../model/object.ts';
import { hasFleetRollup, resultOf } from './derivation.ts';
import { objectsIn, replaceCopies, settle } from './entries.ts';
import { indexed } from './indexes.ts';
import {
	isFilterActive,
	isKeptByFilter,
	keptMemoFor,
	matchesFilterText,
	type KeptMemo,
	type TreeFilter,
} from './filter.ts';
import {
	newChangeSet,
	newRoot,
	newWork,
	unescapeSegment,
	type ChangeSet,
	type Copy,
	type Root,
	type Vertex,
	type Work,
	copiedSourcePrefix,
} from './graphState.ts';
import { hasStatus, objectKeyOf, pairOf } from './linking.ts';
import { listedChildren, listedRows } from './listing.ts';
import { buildNode } from './presentation.ts';
import type { StatusResult, Tone } from '../status/result.ts';
import type { RootOrigin, RootState, TreeNode } from './treeNode.ts';
import {
	expandChanges,
	markDisplay,
	markStructure,
	placeIdCalculator,
	refreshTone,
} from './update.ts';

/** An object that may need attention: where its row is, its own tone, and since when it is being deleted. */
export interface AttentionCandidate {
	readonly nodeId: string;
	readonly rootId: string;
	readonly rootLabel: string;
	readonly tone: Tone;
	readonly deletion: string | undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Public types

/** One object read from a source, with the zero-based line it starts at (files). */
export interface SourceObject {
	readonly object: unknown;
	readonly line?: number;
	/** How to name the source to a user (e.g. a workspace-relative path). */
	readonly label?: string;
}

/**
 * The tree ids an operation changed: `changed` shows differently, `structureChanged` has a different list of
 * children (refresh it with its subtree). Ids below a structure-changed node are left out: its refresh covers them.
 * `rootsChanged` says the list of roots itself changed.
 */
export interface ChangedNodes {
	readonly changed: readonly string[];
	readonly structureChanged: readonly string[];
	readonly rootsChanged: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// The graph

/** The resource graph: roots of objects, linked by system, with incremental updates that report changed tree ids. */
export class ResourceGraph {
	private readonly rootsById = new Map<string, Root>();
	/** Roots the caller has been told about (added explicitly or reported in rootsChanged). */
	private readonly announced = new WeakSet<Root>();
	private seq = 0;
	private version = 0;
	private keptMemo: KeptMemo | undefined;

	// -- Roots --------------------------------------------------------------------------------------------------

	/** Adds a root (or relabels an existing one). */
	addRoot(rootId: string, label: string, origin: RootOrigin = 'file'): ChangedNodes {
		const existing = this.rootsById.get(rootId);
		const changes = newChangeSet();
		if (existing) {
			if (existing.label !== label) {
				existing.label = label;
				markDisplay(existing.vertex, changes);
			}
			return this.finishChanges(changes);
		}
		this.announced.add(this.createRoot(rootId, label, origin));
		changes.rootsChanged = true;
		return this.finishChanges(changes);
	}

	/** Removes a root and everything in it. */
	removeRoot(rootId: string): ChangedNodes {
		const changes = newChangeSet();
		const root = this.rootsById.get(rootId);
		if (root) {
			this.rootsById.delete(rootId);
			root.vertex.dead = true;
			changes.rootsChanged = true;
		}
		return this.finishChanges(changes);
	}

	/** Whether a root holds only part of its objects yet (its first read or sync runs: RootState.partial). */
	rootIsPartial(rootId: string): boolean {
		return this.rootsById.get(rootId)?.state?.partial === true;
	}

	/** Sets or clears the state shown on a root itself ("cannot reach", "login required"). */
	setRootState(rootId: string, state: RootState | undefined): ChangedNodes {
		const changes = newChangeSet();
		const root = this.rootsById.get(rootId);
		if (root) {
			root.state = state;
			root.vertex.stateTone = state?.tone;
			markDisplay(root.vertex, changes);
			refreshTone(root.vertex, changes);
		}
		return this.finishChanges(changes);
	}

	/**
	 * Whether Fleet parents in a root take their roll-ups from what the controllers wrote (a live root that watches
	 * no BundleDeployments) and list their BundleDeployments on demand, or recompute them from the children.
	 */
	setRollupsFromController(rootId: string, fromController: boolean): ChangedNodes {
		const changes = newChangeSet();
		const root = this.rootsById.get(rootId);
		if (!root || root.rollupsFromController === fromController) return this.finishChanges(changes);
		root.rollupsFromController = fromController;
		for (const entry of root.entries.values()) {
			if (!hasFleetRollup(entry)) continue;
			entry.computedDirty = true;
			entry.full = undefined;
			// Whether the node can be expanded changes too: its parent lists it again.
			markStructure(entry.vertex, changes);
		}
		return this.finishChanges(changes);
	}

	// -- Objects ------------------------------------------------------------------------------------------------

	/** Replaces everything one source (a file) contributed to a root with these objects. */
	setSourceObjects(
		rootId: string,
		sourceId: string,
		objects: readonly SourceObject[],
	): ChangedNodes {
		return this.setSourcesObjects(rootId, [{ sourceId, objects }]);
	}

	/**
	 * setSourceObjects for several sources at once (the files of a first read): the same graph as one call per source
	 * in this order, but the objects they share ancestors with (groups, Fleet parents) are settled once for all.
	 */
	setSourcesObjects(
		rootId: string,
		sources: readonly { readonly sourceId: string; readonly objects: readonly SourceObject[] }[],
	): ChangedNodes {
		const work = newWork(this.ensureRoot(rootId));
		const { root } = work;
		if (!this.announced.has(root)) {
			this.announced.add(root);
			work.changes.rootsChanged = true;
		}
		for (const { sourceId, objects } of sources) this.replaceSource(work, sourceId, objects);
		return this.finish(work);
	}

	private replaceSource(work: Work, sourceId: string, objects: readonly SourceObject[]): void {
		const { root } = work;
		const incoming = new Map<string, Copy[]>();
		for (const item of objects) {
			for (const object of objectsIn(item.object)) {
				const key = objectKeyOf(object);
				const copy: Copy = {
					sourceId,
					object,
					line: item.line,
					label: item.label,
					seq: ++this.seq,
					withStatus: hasStatus(object),
				};
				const list = incoming.get(key);
				if (list) list.push(copy);
				else incoming.set(key, [copy]);
			}
		}
		for (const key of root.sources.get(sourceId) ?? []) {
			if (!incoming.has(key)) replaceCopies(work, key, sourceId, []);
		}
		for (const [key, copies] of incoming) replaceCopies(work, key, sourceId, copies, true);
		if (incoming.size > 0) root.sources.set(sourceId, new Set(incoming.keys()));
		else root.sources.delete(sourceId);
		root.lines.delete(sourceId);
	}

	/** Adds or replaces one object of a source (a watch event); returns what changed. */
	upsertObject(rootId: string, sourceId: string, object: unknown, line?: number): ChangedNodes {
		const work = newWork(this.ensureRoot(rootId));
		const { root } = work;
		if (!this.announced.has(root)) {
			this.announced.add(root);
			work.changes.rootsChanged = true;
		}
		for (const item of objectsIn(object)) {
			const key = objectKeyOf(item);
			replaceCopies(work, key, sourceId, [
				{
					sourceId,
					object: item,
					line,
					label: undefined,
					seq: ++this.seq,
					withStatus: hasStatus(item),
				},
			]);
			const keys = root.sources.get(sourceId) ?? new Set<string>();
			keys.add(key);
			root.sources.set(sourceId, keys);
			root.lines.delete(sourceId);
		}
		return this.finish(work);
	}

	/** Removes what one source said about an object (key as from objectKeyOf). */
	removeObject(rootId: string, sourceId: string, key: string): ChangedNodes {
		const root = this.rootsById.get(rootId);
		if (!root) return this.finishChanges(newChangeSet());
		const work = newWork(root);
		replaceCopies(work, key, sourceId, []);
		root.sources.get(sourceId)?.delete(key);
		root.lines.delete(sourceId);
		return this.finish(work);
	}

	/** Removes everything a source contributed (a deleted file, a closed watch); a root that is gone stays gone. */
	removeSource(rootId: string, sourceId: string): ChangedNodes {
		if (!this.rootsById.has(rootId)) return this.finishChanges(newChangeSet());
		return this.setSourceObjects(rootId, sourceId, []);
	}

	// -- Reading ------------------------------------------------------------------------------------------------

	/** The root nodes, in the order they were added. */
	roots(): TreeNode[] {
		return [...this.rootsById.values()].map((root) =>
			buildNode(root, root.vertex, root.vertex.segment, undefined, undefined),
		);
	}

	/** The node with this id, or undefined when that place no longer exists. */
	node(id: string): TreeNode | undefined {
		const found = this.resolve(id);
		if (!found) return undefined;
		const { root, path } = found;
		const vertex = path[path.length - 1];
		if (!vertex) return undefined;
		const slash = id.lastIndexOf('/');
		return buildNode(
			root,
			vertex,
			id,
			slash < 0 ? undefined : id.slice(0, slash),
			path[path.length - 2],
		);
	}

	/** The parent node of an id (for reveal), or undefined for roots and unknown ids. */
	parentOf(id: string): TreeNode | undefined {
		if (!this.resolve(id)) return undefined;
		const slash = id.lastIndexOf('/');
		return slash < 0 ? undefined : this.node(id.slice(0, slash));
	}

	/**
	 * The children of a node (the roots for undefined) in design order, then by label: never by state, so a row stays
	 * where it is while its state changes. With a filter, a child stays when it or any descendant matches; below a node that matches the namespace
	 * and name criteria itself, only "problems only" still applies.
	 */
	children(id: string | undefined, filter: TreeFilter = {}): TreeNode[] {
		const active = isFilterActive(filter);
		const memo = () => this.keptMemoOf(filter);
		if (id === undefined) {
			const roots = [...this.rootsById.values()].filter(
				(root) => !active || isKeptByFilter(root.vertex, filter, false, memo),
			);
			return roots.map((root) =>
				buildNode(root, root.vertex, root.vertex.segment, undefined, undefined),
			);
		}
		const found = this.resolve(id);
		if (!found) return [];
		const { root, path } = found;
		const vertex = path[path.length - 1];
		if (!vertex?.children) return [];
		// The order is kept per vertex and patched as children change (listing.ts): no sort per call.
		if (!active) return [...listedChildren(root, vertex, id)];
		const textSatisfied = path.some((step) => matchesFilterText(step, filter));
		const nodes: TreeNode[] = [];
		for (const child of listedRows(root, vertex, id)) {
			if (!isKeptByFilter(child, filter, textSatisfied, memo)) continue;
			nodes.push(buildNode(root, child, `${id}/${child.segment}`, id, vertex));
		}
		return nodes;
	}

	/** Every tree id where an object appears in a root (for "reveal the item for this manifest"). */
	findNodesForObject(rootId: string, key: string): string[] {
		const entry = this.rootsById.get(rootId)?.entries.get(key);
		if (!entry) return [];
		return placeIdCalculator((vertex) => vertex.kind === 'root')(entry.vertex);
	}

	/** The tree ids of the object that a line of a source (file) belongs to: the last object starting at or before it. */
	nodesFor(sourceId: string, line: number): string[] {
		const ids: string[] = [];
		for (const root of this.rootsById.values()) {
			const key = this.keyAtLine(root, sourceId, line);
			if (key !== undefined) for (const id of this.findNodesForObject(root.id, key)) ids.push(id);
		}
		return ids;
	}

	/** Number of objects shown in the tree whose own status is an error (for the view badge). */
	problemCount(): number {
		let count = 0;
		for (const root of this.rootsById.values()) count += root.errors.size;
		return count;
	}

	/** Per root, how many of its objects are in error (what problemCount adds up), in the tree's root order. */
	problemCountsByRoot(): {
		readonly rootId: string;
		readonly label: string;
		readonly count: number;
	}[] {
		return [...this.rootsById.values()].map((root) => ({
			rootId: root.id,
			label: root.label,
			count: root.errors.size,
		}));
	}

	/**
	 * Every object whose own state asks for attention (error, warning, progressing) or that is being deleted, in every
	 * root, with the tree id of its first place. Copies from other contexts are left to the context they belong to.
	 */
	attentionCandidates(): AttentionCandidate[] {
		const found: AttentionCandidate[] = [];
		for (const root of this.rootsById.values()) {
			for (const entry of root.entries.values()) {
				const { vertex } = entry;
				if (entry.removed || vertex.parents.length === 0) continue;
				const tone = vertex.ownTone;
				const deletion = getString(entry.object, 'metadata', 'deletionTimestamp');
				if (tone !== 'error' && tone !== 'warning' && tone !== 'progressing' && !deletion) continue;
				if (entry.copies.every((copy) => copy.sourceId.startsWith(copiedSourcePrefix))) continue;
				const nodeId = this.findNodesForObject(root.id, entry.key)[0];
				if (nodeId === undefined) continue;
				found.push({ nodeId, rootId: root.id, rootLabel: root.label, tone, deletion });
			}
		}
		return found;
	}

	/** Number of objects in a root, or in all roots. */
	objectCount(rootId?: string): number {
		if (rootId !== undefined) return this.rootsById.get(rootId)?.entries.size ?? 0;
		let count = 0;
		for (const root of this.rootsById.values()) count += root.entries.size;
		return count;
	}

	/** The object a root holds under a key (the winning copy), for explain and "open". */
	objectOf(rootId: string, key: string): Readonly<Record<string, unknown>> | undefined {
		return this.rootsById.get(rootId)?.entries.get(key)?.object;
	}

	/** Every object of a root (the winning copy of each), e.g. to find a workload's merge inputs. */
	objectsOf(rootId: string): Readonly<Record<string, unknown>>[] {
		const entries = this.rootsById.get(rootId)?.entries;
		return entries ? [...entries.values()].map((entry) => entry.object) : [];
	}

	/**
	 * Every object of a root (the winning copy of each) with the engine's result for it, computed once when the object
	 * arrived: the rollout matrix reads its cells here rather than computing 200,000 statuses again.
	 */
	forEachObjectStatus(
		rootId: string,
		visit: (object: Readonly<Record<string, unknown>>, status: StatusResult) => void,
	): void {
		for (const entry of this.rootsById.get(rootId)?.entries.values() ?? []) {
			visit(entry.object, entry.base);
		}
	}

	/**
	 * The object under a key with the result its row shows (a Fleet parent's roll-up included), or undefined: how the
	 * cause chain (src/core/causes) reads a root.
	 */
	objectStatusOf(
		rootId: string,
		key: string,
	):
		| { readonly object: Readonly<Record<string, unknown>>; readonly status: StatusResult }
		| undefined {
		const root = this.rootsById.get(rootId);
		const entry = root?.entries.get(key);
		if (!root || !entry || entry.removed) return undefined;
		return { object: entry.object, status: resultOf(root, entry) };
	}

	/**
	 * The BundleDeployments of a root whose labels name a Bundle (`bundle`), or that are in a namespace, with their
	 * results: a Bundle's dependsOn is checked per cluster among these.
	 */
	bundleDeploymentsOf(
		rootId: string,
		by:
			| { readonly bundle: { readonly namespace: string; readonly name: string } }
			| { readonly namespace: string },
	): { readonly object: Readonly<Record<string, unknown>>; readonly status: StatusResult }[] {
		const root = this.rootsById.get(rootId);
		if (!root) return [];
		const found =
			'bundle' in by
				? indexed(root, 'bdSlot', pairOf(by.bundle.namespace, by.bundle.name))
				: indexed(root, 'bdAnyNs', by.namespace);
		const results: { object: Readonly<Record<string, unknown>>; status: StatusResult }[] = [];
		for (const entry of found) {
			if (!entry.removed) results.push({ object: entry.object, status: entry.base });
		}
		return results;
	}

	// -- Roots and work -----------------------------------------------------------------------------------------

	private createRoot(rootId: string, label: string, origin: RootOrigin): Root {
		const root = newRoot(rootId, label, origin);
		this.rootsById.set(rootId, root);
		return root;
	}

	private ensureRoot(rootId: string): Root {
		return this.rootsById.get(rootId) ?? this.createRoot(rootId, rootId, 'file');
	}

	private finishChanges(changes: ChangeSet): ChangedNodes {
		this.version++;
		const { changed, structureChanged } = expandChanges(
			changes,
			(vertex) => vertex.kind === 'root',
		);
		return { changed, structureChanged, rootsChanged: changes.rootsChanged };
	}

	/** Settles an operation, then expands its changes. */
	private finish(work: Work): ChangedNodes {
		settle(work);
		return this.finishChanges(work.changes);
	}

	// -- Places and filters -------------------------------------------------------------------------------------

	private resolve(id: string): { root: Root; path: Vertex[] } | undefined {
		const segments = id.split('/');
		const root = this.rootsById.get(unescapeSegment(segments[0] ?? ''));
		if (!root) return undefined;
		const path: Vertex[] = [root.vertex];
		let current = root.vertex;
		for (let index = 1; index < segments.length; index++) {
			const child = current.children?.get(unescapeSegment(segments[index] ?? ''));
			if (!child) return undefined;
			path.push(child);
			current = child;
		}
		return { root, path };
	}

	private keptMemoOf(filter: TreeFilter): Map<Vertex, boolean> {
		this.keptMemo = keptMemoFor(this.keptMemo, this.version, filter);
		return this.keptMemo.kept;
	}

	// -- Sources ------------------------------------------------------------------------------------------------

	private keyAtLine(root: Root, sourceId: string, line: number): string | undefined {
		let lines = root.lines.get(sourceId);
		if (!lines) {
			lines = [];
			for (const key of root.sources.get(sourceId) ?? []) {
				for (const copy of root.entries.get(key)?.copies ?? []) {
					if (copy.sourceId === sourceId && copy.line !== undefined) {
						lines.push({ line: copy.line, key });
					}
				}
			}
			lines.sort((a, b) => a.line - b.line);
			root.lines.set(sourceId, lines);
		}
		let low = 0;
		let high = lines.length - 1;
		let found: string | undefined;
		while (low <= high) {
			const middle = (low + high) >> 1;
			const candidate = lines[middle];
			if (!candidate) break;
			if (candidate.line <= line) {
				found = candidate.key;
				low = middle + 1;
			} else {
				high = middle - 1;
			}
		}
		return found;
	}
}
