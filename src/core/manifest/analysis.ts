// One reading of a manifest text shared by diagnostics, hovers and quick fixes: the objects, which of them the
// extension recognises, their statuses, and each object's syntax tree for exact ranges.
//
// Reading order, chosen for speed (a 1 MiB, 2,000-document file): plain block-style documents are read once, by
// `blockTreeOf` (a line reader for block-style YAML), and their values taken from its trees (blockValues.ts); a run
// of documents that reader is not sure of is read by js-yaml (`parseManifests`, about 10 MB/s here; the `yaml`
// package parses about 1 MB/s), and its trees are built only for the objects that need one. An object the line
// reader cannot read (anchors, tags, multi-line flow) is parsed alone with the `yaml` package. Texts the fast path
// refuses (syntax errors, templates, anchors) arrive with `yaml` nodes already, which are used directly.
import { parseManifestsWithTrees, type ParsedObject, type ParseResult } from './parse.ts';
import {
	blockTreeOf,
	lineStartsOf,
	locatePath,
	rangeOf,
	treeOfYamlNode,
	yamlTreeOf,
	type LineStarts,
	type Located,
	type ObjectPath,
	type TreeNode,
} from './yamlTree.ts';
import { getRecord, getString, groupOf } from '../model/object.ts';
import type { Range } from '../model/range.ts';
import { reportedStateRequestOf, workloadIdentityOf } from '../merge/mergeMode.ts';
import { isKubestellarGroup } from '../status/kubestellar.ts';
import { computeStatuses, systemOf } from '../status/registry.ts';
import type { StatusResult, SystemId } from '../status/result.ts';

/** One object of the text, with what the extension makes of it. */
export interface AnalyzedObject {
	/** Position in `ManifestAnalysis.objects`. */
	readonly index: number;
	readonly parsed: ParsedObject;
	readonly object: Record<string, unknown>;
	readonly system: SystemId;
	/** A kind of the five systems, or a workload that a BindingPolicy, Binding or WorkStatus of the text refers to. */
	readonly recognised: boolean;
}

/** A manifest text read once; trees and statuses are computed on first use and kept. */
export interface ManifestAnalysis {
	readonly text: string;
	readonly lineStarts: LineStarts;
	readonly parse: ParseResult;
	readonly objects: readonly AnalyzedObject[];
	/** The syntax tree of an object (fast reader, else the `yaml` package); undefined if neither can read it. */
	treeOf(entry: AnalyzedObject): TreeNode | undefined;
	/** Where a path of an object stands; undefined when the path is not in the text. */
	locate(entry: AnalyzedObject, path: ObjectPath): Located | undefined;
	/** The engine's verdicts, by object index, for the recognised objects read together (roll-ups, lookups). */
	statuses(now: number | undefined): readonly (StatusResult | undefined)[];
	/** The range between two offsets. */
	range(start: number, end: number): Range;
}

function workloadKey(group: string, kind: string, namespace: string, name: string): string {
	return `${group}\u0000${kind}\u0000${namespace}\u0000${name}`;
}

/** Which `kubernetes` objects are workloads some WorkStatus, BindingPolicy or Binding of the same text refers to. */
function referencedWorkloads(objects: readonly Record<string, unknown>[]): Set<number> {
	const sources = new Set<string>();
	const policies: Record<string, unknown>[] = [];
	for (const object of objects) {
		const group = groupOf(getString(object, 'apiVersion') ?? '');
		const kind = getString(object, 'kind') ?? '';
		if (isKubestellarGroup(group)) {
			if (kind === 'WorkStatus') {
				const sourceRef = getRecord(object, 'spec', 'sourceRef');
				if (sourceRef) {
					sources.add(
						workloadKey(
							typeof sourceRef.group === 'string' ? sourceRef.group : '',
							typeof sourceRef.kind === 'string' ? sourceRef.kind : '',
							typeof sourceRef.namespace === 'string' ? sourceRef.namespace : '',
							typeof sourceRef.name === 'string' ? sourceRef.name : '',
						),
					);
				}
			} else if (kind === 'BindingPolicy' || kind === 'Binding') policies.push(object);
		} else if (
			(kind === 'Namespace' && group === '') ||
			(kind === 'ManagedCluster' && group.endsWith('open-cluster-management.io'))
		) {
			policies.push(object);
		}
	}
	const referenced = new Set<number>();
	const hasPolicies = policies.some((object) =>
		isKubestellarGroup(groupOf(getString(object, 'apiVersion') ?? '')),
	);
	if (sources.size === 0 && !hasPolicies) return referenced;
	objects.forEach((object, index) => {
		if (systemOf(object) !== 'kubernetes') return;
		const kind = getString(object, 'kind') ?? '';
		const key = workloadKey(
			groupOf(getString(object, 'apiVersion') ?? ''),
			kind,
			getString(object, 'metadata', 'namespace') ?? '',
			getString(object, 'metadata', 'name') ?? '',
		);
		if (sources.has(key)) {
			referenced.add(index);
			return;
		}
		if (hasPolicies && kind !== 'Namespace' && kind !== 'ManagedCluster') {
			const request = reportedStateRequestOf(workloadIdentityOf(object), [], policies);
			if (request.selectingPolicies.length > 0) referenced.add(index);
		}
	});
	return referenced;
}

function analyze(text: string): ManifestAnalysis {
	const lineStarts = lineStartsOf(text);
	const { parse, trees } = parseManifestsWithTrees(text, lineStarts);
	const values = parse.objects.map((entry) => entry.object);
	const referenced = referencedWorkloads(values);
	const objects: AnalyzedObject[] = parse.objects.map((parsed, index) => {
		const system = systemOf(parsed.object);
		return {
			index,
			parsed,
			object: parsed.object,
			system,
			recognised: system !== 'kubernetes' || referenced.has(index),
		};
	});
	// Trees the parse built on its way (block-style documents read once) are the ones `blockTreeOf` would build here.
	const fastTrees = new Map<number, TreeNode | null>();
	objects.forEach((entry) => {
		const tree = trees.get(entry.parsed);
		if (tree) fastTrees.set(entry.index, tree);
	});
	const carefulTrees = new Map<number, TreeNode | null>();
	const statusCache = new Map<number | undefined, readonly (StatusResult | undefined)[]>();

	const carefulTreeOf = (entry: AnalyzedObject): TreeNode | undefined => {
		const cached = carefulTrees.get(entry.index);
		if (cached !== undefined) return cached ?? undefined;
		const { parsed } = entry;
		const tree = parsed.node
			? treeOfYamlNode(parsed.node, 0, text)
			: yamlTreeOf(
					text,
					lineStarts,
					parsed.range.start.line,
					parsed.range.end.line,
					parsed.itemIndex !== undefined,
				);
		carefulTrees.set(entry.index, tree ?? null);
		return tree;
	};

	const treeOf = (entry: AnalyzedObject): TreeNode | undefined => {
		const cached = fastTrees.get(entry.index);
		if (cached !== undefined) return cached ?? carefulTreeOf(entry);
		const { parsed } = entry;
		const tree = parsed.node
			? undefined
			: blockTreeOf(
					text,
					lineStarts,
					parsed.range.start.line,
					parsed.range.end.line,
					parsed.itemIndex !== undefined,
				);
		fastTrees.set(entry.index, tree ?? null);
		return tree ?? carefulTreeOf(entry);
	};

	return {
		text,
		lineStarts,
		parse,
		objects,
		treeOf,
		locate(entry, path) {
			const tree = treeOf(entry);
			if (!tree) return undefined;
			const located = locatePath(tree, path);
			if (located !== 'opaque') return located;
			// The fast reader kept a flow collection whole; the careful tree opens it.
			const careful = carefulTreeOf(entry);
			if (!careful) return undefined;
			const again = locatePath(careful, path);
			return again === 'opaque' ? undefined : again;
		},
		statuses(now) {
			const cached = statusCache.get(now);
			if (cached) return cached;
			// Only recognised objects are rated: the others never show a status, and Fleet roll-ups and WorkStatus
			// lookups only read recognised objects.
			const recognised = objects.filter((entry) => entry.recognised);
			const rated = computeStatuses(
				recognised.map((entry) => entry.object),
				now === undefined ? {} : { now },
			);
			const results: (StatusResult | undefined)[] = new Array<StatusResult | undefined>(
				objects.length,
			);
			recognised.forEach((entry, index) => {
				results[entry.index] = rated[index];
			});
			statusCache.set(now, results);
			return results;
		},
		range(start, end) {
			return rangeOf(lineStarts, start, end);
		},
	};
}

// The last analysis is kept: the editor asks for diagnostics, hovers and code actions on the same text in a row.
// A string compare of an unchanged 1 MiB text costs well under a millisecond.
let lastAnalysis: ManifestAnalysis | undefined;

/** The analysis of a text, reusing the previous one when the text is the same. Never throws. */
export function analyzeManifest(text: string): ManifestAnalysis {
	if (lastAnalysis && lastAnalysis.text === text) return lastAnalysis;
	lastAnalysis = analyze(text);
	return lastAnalysis;
}
