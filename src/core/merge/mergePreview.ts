import { Document, isMap, isSeq, type Node } from 'yaml';
import { getRecord, getString, groupOf, isRecord } from '../model/object.ts';
import { isKubestellarGroup } from '../status/kubestellar.ts';
import { reportedStateRequestOf, workloadIdentityOf } from './mergeMode.ts';
import type { FieldProvenance } from './mergeRules.ts';
import { mergeWecStatuses, wecCopiesOf, type MergeRules, type WecMergeResult } from './wecMerge.ts';

/** What a merge of one workload reads from a set of objects (a workspace or a live ITS/WDS pair). */
export interface MergeInputs {
	readonly perWec: readonly unknown[];
	/** BindingPolicies, Bindings, ManagedClusters and Namespaces; null when none is among the objects. */
	readonly policies: readonly unknown[] | null;
	/** Why this workload is a merge candidate, in words; undefined when it is not one. */
	readonly because?: string;
}

const policyKinds = new Set(['BindingPolicy', 'Binding']);

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

/**
 * The merge inputs of a workload among other objects: its WorkStatus objects, and the policies, bindings, clusters
 * and namespaces that decide the mode. `because` is set only when a BindingPolicy or Binding selects the workload or
 * a WorkStatus refers to it, so the preview is offered on those workloads and not on every Deployment.
 */
export function mergeInputsFrom(workload: unknown, objects: readonly unknown[]): MergeInputs {
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
	for (const object of objects) {
		const objectKind = getString(object, 'kind') ?? '';
		const group = groupOf(getString(object, 'apiVersion') ?? '');
		if (objectKind === 'WorkStatus' && isKubestellarGroup(group)) {
			if (refersTo(object, workload)) perWec.push(object);
		} else if (policyKinds.has(objectKind) && isKubestellarGroup(group)) {
			policies.push(object);
			hasPolicy = true;
		} else if (objectKind === 'ManagedCluster' || (objectKind === 'Namespace' && group === '')) {
			policies.push(object);
		}
	}
	const identity = workloadIdentityOf(workload);
	const request = hasPolicy ? reportedStateRequestOf(identity, [], policies) : undefined;
	const selecting = request?.selectingPolicies ?? [];
	const reasons: string[] = [];
	if (selecting.length > 0) reasons.push(`selected by ${selecting.join(', ')}`);
	if (perWec.length > 0) reasons.push(`${perWec.length} WorkStatus object(s) refer to it`);
	const inputs: MergeInputs = { perWec, policies: hasPolicy ? policies : null };
	return reasons.length > 0 ? { ...inputs, because: reasons.join('; ') } : inputs;
}

type PathStep = string | { readonly key: string; readonly value: string };

// Provenance paths look like `replicas`, `conditions[type=Available].reason` or `containerStatuses[name=web].ready`.
function pathSteps(path: string): PathStep[] {
	const steps: PathStep[] = [];
	for (const part of path.split('.')) {
		const match = /^([^[]+)\[([^=\]]+)=([^\]]*)\]$/.exec(part);
		if (match) {
			steps.push(match[1] ?? '', { key: match[2] ?? '', value: match[3] ?? '' });
		} else steps.push(part);
	}
	return steps;
}

function nodeAt(root: Node | null | undefined, steps: readonly PathStep[]): Node | undefined {
	let node: unknown = root;
	for (const step of steps) {
		if (typeof step === 'string') {
			if (!isMap(node)) return undefined;
			node = node.get(step, true);
		} else {
			if (!isSeq(node)) return undefined;
			node = node.items.find((item) => isMap(item) && String(item.get(step.key)) === step.value);
		}
	}
	return node as Node | undefined;
}

function provenanceComment(provenance: FieldProvenance): string {
	const wecs = provenance.wecs.length > 0 ? ` from ${provenance.wecs.join(', ')}` : '';
	const absent = provenance.absentIn?.length ? `; absent in ${provenance.absentIn.join(', ')}` : '';
	const proposal = provenance.proposalPick
		? `; the proposal's literal rule would take ${provenance.proposalPick.wec}`
		: '';
	return ` ${provenance.rule}${wecs}${absent}${proposal}`;
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
	const fieldWidth = Math.max(5, ...[...rows.keys()].map((field) => field.length));
	const widths = wecs.map((wec) =>
		Math.max(wec.length, ...[...rows.values()].map((row) => cell(row.get(wec)).length)),
	);
	const line = (first: string, cells: readonly string[]) =>
		`#   ${first.padEnd(fieldWidth)}  ${cells.map((text, index) => text.padEnd(widths[index] ?? 0)).join('  ')}`.trimEnd();
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

/**
 * The preview document: the merged `.status` as YAML with a comment on each field naming its rule and source WECs,
 * a table of per-WEC values, the mode, whether an update would be written, and what kstatus and Argo CD will show.
 * Text from files or clusters only ever lands in YAML comments or as YAML values, never as markup.
 */
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
	const statusNode = isMap(document.contents)
		? (document.contents.get('status', true) as Node | undefined)
		: undefined;
	for (const [path, provenance] of Object.entries(result.provenance)) {
		const node = nodeAt(statusNode, pathSteps(path));
		if (node) node.comment = provenanceComment(provenance);
	}
	const kind = getString(workload, 'kind') ?? '?';
	const name = getString(workload, 'metadata', 'name') ?? '?';
	const namespace = getString(workload, 'metadata', 'namespace');
	const header = [
		oneLine(`# Multi-WEC status merge preview: ${kind} ${namespace ? `${namespace}/` : ''}${name}`),
		`# Rules: ${rules}${rules === 'proposal' ? ' (the multi-WEC status proposal, in full)' : ' (what the released KubeStellar controller writes)'}`,
		oneLine(`# Mode: ${result.mode}${inputs.because ? ` (${inputs.because})` : ''}`),
		`# Changed: ${result.changed ? 'yes, KubeStellar would write this status' : 'no, it equals the current .status (no update would be written)'}`,
		oneLine(
			`# kstatus: ${result.kstatus.status}${result.kstatus.message ? `: ${result.kstatus.message}` : ''}`,
		),
		oneLine(
			`# Argo CD health: ${result.health ? `${result.health.status}${result.health.message ? `: ${result.health.message}` : ''}` : 'no health check for this kind'}`,
		),
	];
	if (JSON.stringify(other.status) !== JSON.stringify(result.status)) {
		header.push(
			`# With --rules ${otherRules} the status differs: kstatus ${other.kstatus.status}, Argo CD ${other.health?.status ?? 'none'} (see the notes and the diff).`,
		);
	}
	header.push('#', '# Per-WEC values:', ...perWecTable(workload, inputs.perWec));
	if (result.notes.length > 0) {
		header.push('#', '# Notes:');
		for (const note of result.notes) header.push(`#   - ${oneLine(note)}`);
	}
	header.push('');
	return { text: `${header.join('\n')}\n${document.toString({ lineWidth: 0 })}`, result, other };
}

/** The workload's current `.status` as YAML, the left side of the diff. */
export function currentStatusYaml(workload: unknown): string {
	const status = isRecord(workload) ? (workload.status ?? {}) : {};
	return new Document({ status }).toString({ lineWidth: 0 });
}
