import { Document, isMap, isScalar, isSeq } from 'yaml';
import { getRecord, getString, groupOf, isRecord } from '../model/object.ts';
import { isKubestellarGroup } from '../status/kubestellar.ts';
import { reportedStateRequestOf, workloadIdentityOf } from './mergeMode.ts';
import {
	canonicalJson,
	fieldPath,
	itemPath,
	namesList,
	type FieldProvenance,
} from './mergeRules.ts';
import {
	mergeWecStatuses,
	wecCopiesOf,
	type MergeRules,
	type WecInput,
	type WecMergeResult,
} from './wecMerge.ts';

/** What a merge of one workload reads from a set of objects (a workspace or a live ITS/WDS pair). */
export interface MergeInputs {
	readonly perWec: readonly unknown[];
	/** BindingPolicies, Bindings, ManagedClusters and Namespaces; null when none is among the objects. */
	readonly policies: readonly unknown[] | null;
	/** Why this workload is a merge candidate, in words; undefined when it is not one. */
	readonly because?: string;
}

/** The documents given as one WEC's copy of a workload, with that WEC's name (the command line's `--wec NAME=FILE`). */
export interface WecDocuments {
	readonly wec: string;
	/** WorkStatus objects, the workload as read from that WEC, or its bare status (`{status: ...}` or the fields). */
	readonly documents: readonly unknown[];
}

/** Inputs a caller names explicitly, besides the objects it read. */
export interface GivenMergeInputs {
	/** Per-WEC copies whose WEC names the caller gives, not read from a WorkStatus namespace. */
	readonly wecs?: readonly WecDocuments[];
}

/** The outcome of looking for the workload a set of objects is a merge of. */
export type MergeWorkloadChoice =
	| { readonly kind: 'found'; readonly workload: Record<string, unknown> }
	| { readonly kind: 'none' }
	| { readonly kind: 'several'; readonly candidates: readonly Record<string, unknown>[] };

const policyKinds = new Set(['BindingPolicy', 'Binding']);

function isWorkStatus(object: unknown): boolean {
	return (
		getString(object, 'kind') === 'WorkStatus' &&
		isKubestellarGroup(groupOf(getString(object, 'apiVersion') ?? ''))
	);
}

function refersTo(workStatus: unknown, workload: unknown): boolean {
	const sourceRef = getRecord(workStatus, 'spec', 'sourceRef');
	if (!sourceRef) return false;
	return (
		sourceRef.kind === getString(workload, 'kind') &&
		sourceRef.name === getString(workload, 'metadata', 'name') &&
		(sourceRef.namespace ?? '') === (getString(workload, 'metadata', 'namespace') ?? '') &&
		(sourceRef.group ?? '') === groupOf(getString(workload, 'apiVersion') ?? '')
	);
}

// A document given for a WEC: a Kubernetes object (a WorkStatus, or the workload as read from that WEC) is taken as
// it is; anything else is that WEC's status, bare or under a `status` key.
function wecInputOf(wec: string, document: unknown): WecInput {
	if (
		isRecord(document) &&
		typeof document.kind === 'string' &&
		typeof document.apiVersion === 'string'
	) {
		return { wec, object: document };
	}
	const status = isRecord(document) && isRecord(document.status) ? document.status : document;
	return { wec, object: { status } };
}

/**
 * The merge inputs of a workload among other objects: its WorkStatus objects, and the policies, bindings, clusters
 * and namespaces that decide the mode; `given.wecs` adds per-WEC copies under the WEC names the caller gives.
 * `because` is set only when a BindingPolicy or Binding selects the workload, a WorkStatus refers to it or copies
 * were given for it, so the preview is offered on those workloads and not on every Deployment.
 */
export function mergeInputsFrom(
	workload: unknown,
	objects: readonly unknown[],
	given: GivenMergeInputs = {},
): MergeInputs {
	const kind = getString(workload, 'kind') ?? '';
	if (
		!isRecord(workload) ||
		kind === '' ||
		isKubestellarGroup(groupOf(getString(workload, 'apiVersion') ?? ''))
	) {
		return { perWec: [], policies: null };
	}
	const perWec: unknown[] = [];
	const policies: unknown[] = [];
	let hasPolicy = false;
	let referring = 0;
	for (const object of objects) {
		const objectKind = getString(object, 'kind') ?? '';
		const group = groupOf(getString(object, 'apiVersion') ?? '');
		if (isWorkStatus(object)) {
			if (refersTo(object, workload)) {
				perWec.push(object);
				referring++;
			}
		} else if (policyKinds.has(objectKind) && isKubestellarGroup(group)) {
			policies.push(object);
			hasPolicy = true;
		} else if (objectKind === 'ManagedCluster' || (objectKind === 'Namespace' && group === '')) {
			policies.push(object);
		}
	}
	// Copies given for a named WEC are all kept: the merge's notes say which of them it leaves out, and why.
	const copiesFor: string[] = [];
	for (const { wec, documents } of given.wecs ?? []) {
		for (const document of documents) {
			const input = wecInputOf(wec, document);
			perWec.push(input);
			if (isWorkStatus(input.object) && refersTo(input.object, workload)) referring++;
			else if (!copiesFor.includes(wec)) copiesFor.push(wec);
		}
	}
	const identity = workloadIdentityOf(workload);
	const request = hasPolicy ? reportedStateRequestOf(identity, [], policies) : undefined;
	const selecting = request?.selectingPolicies ?? [];
	const reasons: string[] = [];
	if (selecting.length > 0) reasons.push(`selected by ${selecting.join(', ')}`);
	if (referring > 0) reasons.push(`${referring} WorkStatus object(s) refer to it`);
	if (copiesFor.length > 0) reasons.push(`copies given for ${namesList(copiesFor)}`);
	const inputs: MergeInputs = { perWec, policies: hasPolicy ? policies : null };
	return reasons.length > 0 ? { ...inputs, because: reasons.join('; ') } : inputs;
}

/** The objects a merge can be about: every Kubernetes object but KubeStellar's own, ManagedClusters and Namespaces. */
export function mergeWorkloadsIn(objects: readonly unknown[]): Record<string, unknown>[] {
	return objects.filter((object): object is Record<string, unknown> => {
		const kind = getString(object, 'kind') ?? '';
		const group = groupOf(getString(object, 'apiVersion') ?? '');
		return (
			isRecord(object) &&
			kind !== '' &&
			!isKubestellarGroup(group) &&
			kind !== 'ManagedCluster' &&
			!(kind === 'Namespace' && group === '')
		);
	});
}

/**
 * Which workload a set of objects is a merge of: the one a BindingPolicy selects or WorkStatus objects refer to (the
 * workloads the editor offers the preview on), else the only workload among them; several or none are for the
 * caller to resolve.
 */
export function mergeWorkloadOf(objects: readonly unknown[]): MergeWorkloadChoice {
	const workloads = mergeWorkloadsIn(objects);
	const offered = workloads.filter((object) => mergeInputsFrom(object, objects).because);
	if (offered.length === 1 && offered[0]) return { kind: 'found', workload: offered[0] };
	if (offered.length > 1) return { kind: 'several', candidates: offered };
	if (workloads.length === 1 && workloads[0]) return { kind: 'found', workload: workloads[0] };
	return workloads.length === 0 ? { kind: 'none' } : { kind: 'several', candidates: workloads };
}

// The words beside each merged field, shared by the editor's preview and the command line: which WEC decided the
// value and how, in the words of someone who runs the clusters (the rule ids stay in `--json`'s provenance).
function provenanceComment(provenance: FieldProvenance, wecCount: number): string {
	const { rule, wecs, detail } = provenance;
	const names = namesList(wecs);
	const everyWec = wecCount > 1 && wecs.length === wecCount;
	const allWecs = wecCount === 2 ? 'both WECs' : `all ${wecCount} WECs`;
	const decided = (how: string): string =>
		wecs.length === 0 ? how : everyWec ? `the same in ${allWecs}` : `decided by ${names}: ${how}`;
	let words: string;
	switch (rule) {
		case 'min':
			words = decided('the lowest value of the WECs');
			break;
		case 'max':
			words = decided('the highest value of the WECs');
			break;
		case 'latest':
			words = decided('the most recent time of the WECs');
			break;
		case 'all-true':
			words = everyWec
				? `true in ${allWecs}`
				: decided('false there, and one false WEC makes it false');
			break;
		case 'same-value':
			words = everyWec
				? `the same in ${allWecs}`
				: `the same in every WEC that reports it (${names})`;
			break;
		case 'omitted':
			words = `left out: ${detail ?? 'the WECs disagree'}`;
			break;
		case 'three-valued':
			words = detail?.startsWith('True')
				? `True in ${everyWec ? allWecs : names}`
				: detail?.startsWith('False')
					? decided('False there, and one WEC reporting False makes it False')
					: decided('Unknown there, or not reported, so it is Unknown');
			break;
		case 'from-merged-status':
			words = `decided by ${names}: the most recent condition with this status`;
			break;
		case 'missing-in-wecs':
			words = `${names} ${wecs.length === 1 ? 'does' : 'do'} not report this condition, so it is Unknown`;
			break;
		case 'phase-priority':
			words = decided(
				'the most severe phase of the WECs (Failed, Unknown, Running, Succeeded, Pending)',
			);
			break;
		case 'matched-by-key':
			words = `the same item in ${names}`;
			break;
		case 'verbatim':
			words = `copied from ${names}`;
			break;
		case 'first-matching-condition':
			words = decided(detail ?? 'the first matching condition');
			break;
	}
	const absent =
		provenance.absentIn?.length && rule !== 'missing-in-wecs'
			? `; not reported by ${namesList(provenance.absentIn)}${detail?.includes('counts as 0') ? ' (an absent counter counts as 0)' : ''}`
			: '';
	const literal = provenance.proposalPick
		? `; the proposal read word for word would take ${provenance.proposalPick.wec}'s reason and message`
		: '';
	return ` ${oneLine(`${words}${absent}${literal}`)}`;
}

// The field a list's items were matched by, read from the provenance paths under the list (`conditions[type=...]`):
// the merge chose it across the WECs' lists, which the merged list alone cannot tell.
function keyFieldOf(listPath: string, paths: readonly string[]): string | undefined {
	const prefix = `${listPath}[`;
	for (const path of paths) {
		if (!path.startsWith(prefix)) continue;
		const equals = path.indexOf('=', prefix.length);
		if (equals > prefix.length) return path.slice(prefix.length, equals);
	}
	return undefined;
}

// Puts each field's provenance beside it, walking the document the way the merge built its paths (so a key value
// holding a dot, `example.com/Ready`, is still found): after a scalar, above a map or list.
function annotate(
	node: unknown,
	path: string,
	provenance: Readonly<Record<string, FieldProvenance>>,
	paths: readonly string[],
	wecCount: number,
): void {
	if (isMap(node)) {
		for (const pair of node.items) {
			const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
			const childPath = fieldPath(path, key);
			const entry = provenance[childPath];
			if (entry && isScalar(pair.value)) pair.value.comment = provenanceComment(entry, wecCount);
			else if (entry && isScalar(pair.key)) {
				pair.key.commentBefore = provenanceComment(entry, wecCount);
			}
			annotate(pair.value, childPath, provenance, paths, wecCount);
		}
	} else if (isSeq(node)) {
		const keyField = keyFieldOf(path, paths);
		if (keyField === undefined) return;
		for (const item of node.items) {
			const keyValue: unknown = isMap(item) ? item.get(keyField) : undefined;
			if (!isMap(item) || typeof keyValue !== 'string') continue;
			const itemAt = itemPath(path, keyField, keyValue);
			const entry = provenance[itemAt];
			if (entry) item.commentBefore = provenanceComment(entry, wecCount);
			annotate(item, itemAt, provenance, paths, wecCount);
		}
	}
}

function cell(value: unknown): string {
	if (value === undefined) return '-';
	if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
		return oneLine(String(value)).slice(0, 24);
	}
	return value === null ? 'null' : '…';
}

function perWecTable(workload: unknown, perWec: readonly unknown[]): string[] {
	const { copies } = wecCopiesOf(workload, perWec);
	if (copies.length === 0) return ['#   (no WEC has reported a status)'];
	const rows = new Map<string, Map<string, unknown>>();
	for (const copy of copies) {
		if (!isRecord(copy.status)) continue;
		for (const [field, value] of Object.entries(copy.status)) {
			if (field === 'conditions' && Array.isArray(value)) {
				for (const condition of value) {
					if (!isRecord(condition) || typeof condition.type !== 'string') continue;
					const row = rows.get(`condition ${condition.type}`) ?? new Map<string, unknown>();
					row.set(copy.wec, condition.status);
					rows.set(`condition ${condition.type}`, row);
				}
			} else if (!isRecord(value) && !Array.isArray(value)) {
				const row = rows.get(field) ?? new Map<string, unknown>();
				row.set(copy.wec, value);
				rows.set(field, row);
			}
		}
	}
	const wecs = copies.map((copy) => copy.wec).slice(0, 12);
	// WEC names, field names and condition types come from files or clusters too: one line each.
	const fieldWidth = [...rows.keys()].reduce(
		(widest, field) => Math.max(widest, oneLine(field).length),
		5,
	);
	const widths = wecs.map((wec) =>
		[...rows.values()].reduce(
			(widest, row) => Math.max(widest, cell(row.get(wec)).length),
			oneLine(wec).length,
		),
	);
	const line = (first: string, cells: readonly string[]) =>
		`#   ${oneLine(first).padEnd(fieldWidth)}  ${cells.map((text, index) => oneLine(text).padEnd(widths[index] ?? 0)).join('  ')}`.trimEnd();
	const lines = [line('field', wecs)];
	for (const [field, row] of [...rows.entries()].sort(([a], [b]) => a.localeCompare(b))) {
		lines.push(
			line(
				field,
				wecs.map((wec) => cell(row.get(wec))),
			),
		);
	}
	if (copies.length > wecs.length) lines.push(`#   … and ${copies.length - wecs.length} more WECs`);
	return lines;
}

// Values in the header come from files or clusters: one line each, so they cannot start a line of YAML.
function oneLine(text: string): string {
	return text.replace(/\s+/g, ' ').trim();
}

const ruleWords: Readonly<Record<MergeRules, string>> = {
	proposal: 'the multi-WEC status proposal, in full',
	kubestellar: 'what the released KubeStellar controller writes',
};

const otherRuleWords: Readonly<Record<MergeRules, string>> = {
	proposal: 'The multi-WEC status proposal in full',
	kubestellar: 'The released KubeStellar controller',
};

const modeWords: Readonly<Record<WecMergeResult['mode'], string>> = {
	multi: "KubeStellar merges the WECs' statuses",
	singleton: 'KubeStellar copies the status of the one WEC it runs on',
	cleared: 'KubeStellar empties the status',
	none: 'KubeStellar leaves the status as it is',
};

function workloadTitle(workload: unknown): string {
	const kind = getString(workload, 'kind') ?? '?';
	const name = getString(workload, 'metadata', 'name') ?? '?';
	const namespace = getString(workload, 'metadata', 'namespace');
	return oneLine(`${kind} ${namespace ? `${namespace}/` : ''}${name}`);
}

/**
 * The preview document: the merged `.status` as YAML with a comment on each field naming its rule and source WECs,
 * a table of per-WEC values, the mode, whether an update would be written, and what kstatus and Argo CD will show.
 * Text from files or clusters only ever lands in YAML comments or as YAML values, never as markup.
 */
/** The top-level fields of two statuses that hold different values (key order aside), in the first's order. */
function differingFields(status: unknown, other: unknown): string[] {
	const mine = isRecord(status) ? status : {};
	const theirs = isRecord(other) ? other : {};
	return [...new Set([...Object.keys(mine), ...Object.keys(theirs)])].filter(
		(key) => canonicalJson(mine[key]) !== canonicalJson(theirs[key]),
	);
}

export function mergePreviewYaml(
	workload: unknown,
	inputs: MergeInputs,
	rules: MergeRules,
	options: { readonly now?: number } = {},
): { text: string; result: WecMergeResult; other?: WecMergeResult } {
	const result = mergeWecStatuses(workload, inputs.perWec, inputs.policies, rules, options);
	const otherRules: MergeRules = rules === 'proposal' ? 'kubestellar' : 'proposal';
	const other = mergeWecStatuses(workload, inputs.perWec, inputs.policies, otherRules, options);
	const document = new Document({ status: result.status });
	if (isMap(document.contents)) {
		const paths = Object.keys(result.provenance);
		const wecCount = wecCopiesOf(workload, inputs.perWec).copies.length;
		annotate(document.contents.get('status', true), '', result.provenance, paths, wecCount);
	}
	const header = [
		oneLine(`# The .status KubeStellar would write into ${workloadTitle(workload)}, from its WECs`),
		`# Rules: ${ruleWords[rules]}`,
		`# Mode: ${result.mode} (${modeWords[result.mode]})`,
	];
	if (inputs.because) header.push(oneLine(`# Why this workload: ${inputs.because}`));
	header.push(
		`# Changed: ${result.changed ? 'yes, KubeStellar would write this status' : 'no, it equals the current .status (no update would be written)'}`,
		oneLine(
			`# kstatus: ${result.kstatus.status}${result.kstatus.message ? `: ${result.kstatus.message}` : ''}`,
		),
		oneLine(
			`# Argo CD health: ${result.health ? `${result.health.status}${result.health.message ? `: ${result.health.message}` : ''}` : 'no health check for this kind'}`,
		),
	);
	const differing = differingFields(result.status, other.status);
	if (differing.length > 0) {
		header.push(
			oneLine(
				`# ${otherRuleWords[otherRules]} would write a different status (different ${differing.join(', ')}): kstatus ${other.kstatus.status}, Argo CD ${other.health?.status ?? 'no check'}.`,
			),
		);
	}
	header.push('#', '# Per-WEC values:');
	for (const line of perWecTable(workload, inputs.perWec)) header.push(line);
	const omitted = Object.entries(result.provenance).filter(([, entry]) => entry.rule === 'omitted');
	if (omitted.length > 0) {
		header.push('#', '# Left out:');
		for (const [path, entry] of omitted) {
			header.push(`#   - ${oneLine(`${path}: ${entry.detail ?? 'WECs disagree'}`)}`);
		}
	}
	if (result.notes.length > 0) {
		header.push('#', '# Notes:');
		for (const note of result.notes) header.push(`#   - ${oneLine(note)}`);
	}
	header.push('');
	return {
		text: `${header.flatMap((line) => wrappedComment(line)).join('\n')}\n${document.toString({ lineWidth: 0 })}`,
		result,
		other,
	};
}

/** Header lines longer than an editor shows are wrapped at spaces, continued under their first word. */
const headerWidth = 100;
const continued = '#     ';

function wrappedComment(line: string): string[] {
	// The per-WEC table's rows keep their columns.
	const tableRow = line.startsWith('#   ') && !line.startsWith('#   - ');
	if (line.length <= headerWidth || tableRow) return [line];
	const lines: string[] = [];
	let rest = line;
	while (rest.length > headerWidth) {
		const space = rest.lastIndexOf(' ', headerWidth);
		// A word longer than the line (a long name) is cut where the line ends.
		const cut = space > continued.length ? space : headerWidth;
		lines.push(rest.slice(0, cut));
		rest = `${continued}${rest.slice(cut === space ? cut + 1 : cut)}`;
	}
	lines.push(rest);
	return lines;
}

function hasStatus(workload: unknown): boolean {
	const status = isRecord(workload) ? workload.status : undefined;
	return isRecord(status) && Object.keys(status).length > 0;
}

/**
 * The workload's current `.status` as YAML, the left side of the diff; `status: {}` when it has none, so both sides
 * are a bare status and compare like with like.
 */
export function currentStatusYaml(workload: unknown): string {
	const status = isRecord(workload) && hasStatus(workload) ? workload.status : {};
	return new Document({ status }).toString({ lineWidth: 0 });
}

/** The merged `.status` as bare YAML, without the preview's comments: the right side of the diff. */
export function mergedStatusYaml(
	workload: unknown,
	inputs: MergeInputs,
	rules: MergeRules,
	options: { readonly now?: number } = {},
): string {
	const result = mergeWecStatuses(workload, inputs.perWec, inputs.policies, rules, options);
	return new Document({ status: result.status }).toString({ lineWidth: 0 });
}

/** The title of the diff: what each side is, and that there is no status yet when the workload has none. */
export function mergeDiffTitle(workload: unknown, rules: MergeRules): string {
	const now = hasStatus(workload) ? '.status now' : 'no .status yet';
	const merged = rules === 'proposal' ? 'merged by the proposal' : 'merged by KubeStellar today';
	return `${workloadTitle(workload)}: ${now} ↔ ${merged}`;
}
