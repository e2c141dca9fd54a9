// Where KubeStellar objects belong, and what a KubeStellar change re-places: Bindings under their BindingPolicy,
// the objects a policy selects under it, WorkStatus objects under the workload they report and under their WEC, and
// placeholders for what a Binding lists that is not in the input.
import { getPath, labelsOf } from '../model/object.ts';
import { qualified } from './describe.ts';
import {
	createVertex,
	isBinding,
	isBindingPolicy,
	isKubestellar,
	type Entry,
	type IndexName,
	type Root,
	type Vertex,
	type Work,
} from './graphState.ts';
import { indexed, indexedSize } from './indexes.ts';
import {
	clauseSelects,
	objectKey,
	resourceNamesKind,
	workloadNameKey,
	type WorkloadRef,
} from './linking.ts';
import { categoryVertex, groupInfo } from './systemVertices.ts';
import { killVertex, sameJson, setDesiredParents } from './update.ts';

const noParents: readonly Vertex[] = [];

/** Where a KubeStellar object belongs: a Binding under its policy, a WorkStatus under its WEC and its workload. */
export function kubestellarParents(work: Work, entry: Entry, parents: Vertex[]): void {
	const { root } = work;
	switch (entry.kind) {
		case 'BindingPolicy':
			parents.push(categoryVertex(root, 'kubestellar', 'BindingPolicies', 'BindingPolicies', 0));
			break;
		case 'Binding':
			for (const policy of indexed(root, 'policy', entry.name)) parents.push(policy.vertex);
			break;
		case 'WorkStatus': {
			if (entry.namespace) parents.push(wecVertex(root, entry.namespace));
			const source = entry.wsSource;
			if (!source) break;
			const workload = workloadOf(root, entry);
			if (workload) {
				parents.push(workload.vertex);
				break;
			}
			const placeholder = root.groups.get(
				`ph:wl:${source.group}|${source.resource}|${source.namespace}|${source.name}`,
			);
			if (placeholder) parents.push(placeholder);
			break;
		}
	}
}

/** The placeholder of a WEC (the namespace its WorkStatus objects are in), created on first use. */
function wecVertex(root: Root, wec: string): Vertex {
	const id = `ph:wec:${wec}`;
	let vertex = root.groups.get(id);
	if (!vertex) {
		vertex = createVertex(id, 'placeholder', { autoHide: true, order: 10 });
		vertex.info = groupInfo(wec, 'kubestellar', {
			message: `Workload execution cluster ${wec}: the WorkStatus objects in namespace ${wec} report its workloads.`,
			link: wec,
		});
		vertex.desired = [categoryVertex(root, 'kubestellar', 'WECs', 'WECs', 1)];
		root.groups.set(id, vertex);
	}
	return vertex;
}

/** The workload a WorkStatus reports on, when the root has it. */
export function workloadOf(root: Root, entry: Entry): Entry | undefined {
	const source = entry.wsSource;
	if (!source) return undefined;
	const workload = root.entries.get(source.key);
	return workload && !isKubestellar(workload) ? workload : undefined;
}

/** The BindingPolicies that select an object: by their Binding when it exists, else by their downsync clauses. */
export function selectingPolicies(root: Root, entry: Entry): readonly Vertex[] {
	if (indexedSize(root, 'policies', '') === 0 || entry.kind === '' || entry.name === '') {
		return noParents;
	}
	const policies = indexed(root, 'policies', '');
	const result: Vertex[] = [];
	const nameKey = workloadNameKey(entry.group, entry.namespace, entry.name);
	for (const binding of indexed(root, 'bindingRef', nameKey)) {
		const listed = binding.bindingRefs?.some(
			(ref) =>
				ref.group === entry.group &&
				ref.namespace === entry.namespace &&
				ref.name === entry.name &&
				resourceNamesKind(ref.resource, entry.kind),
		);
		if (!listed) continue;
		for (const policy of indexed(root, 'policy', binding.name)) result.push(policy.vertex);
	}
	const candidate = {
		group: entry.group,
		kind: entry.kind,
		namespace: entry.namespace,
		name: entry.name,
		labels: () => labelsOf(entry.object),
	};
	const namespaceLabels = (namespace: string) =>
		labelsOf(root.entries.get(objectKey('', 'Namespace', '', namespace))?.object);
	for (const policy of policies) {
		if (bindingOf(root, policy)) continue;
		if (policy.clauses?.some((clause) => clauseSelects(clause, candidate, namespaceLabels))) {
			result.push(policy.vertex);
		}
	}
	return result;
}

/** Workload placeholders: what a policy's Binding lists that is not in the input. */
export function syncPlaceholders(work: Work, policy: Entry): void {
	const { root, changes } = work;
	const wanted = new Map<string, WorkloadRef>();
	const binding = policy.removed ? undefined : bindingOf(root, policy);
	for (const ref of binding?.bindingRefs ?? []) {
		const present = [
			...indexed(root, 'gnn', workloadNameKey(ref.group, ref.namespace, ref.name)),
		].some((candidate) => resourceNamesKind(ref.resource, candidate.kind));
		if (!present) {
			wanted.set(`ph:wl:${ref.group}|${ref.resource}|${ref.namespace}|${ref.name}`, ref);
		}
	}
	const previous = policy.placeholders ?? new Set<string>();
	const touched = new Set<string>();
	for (const id of previous) {
		if (wanted.has(id)) continue;
		root.placeholderRefs.get(id)?.delete(policy);
		touched.add(id);
	}
	for (const [id, ref] of wanted) {
		if (previous.has(id)) continue;
		const refs = root.placeholderRefs.get(id) ?? new Set<Entry>();
		refs.add(policy);
		root.placeholderRefs.set(id, refs);
		touched.add(id);
		if (!root.groups.has(id)) {
			const vertex = createVertex(id, 'placeholder', { order: 10 });
			vertex.info = groupInfo(
				`${ref.resource || 'object'} ${qualified(ref.namespace, ref.name)}`,
				'kubestellar',
				{
					description: 'not in input',
					message: `The Binding lists ${ref.resource} ${qualified(ref.namespace, ref.name)}, which is not in this input.`,
					ref: {
						apiVersion: ref.group,
						kind: ref.resource,
						namespace: ref.namespace,
						name: ref.name,
					},
					namespace: ref.namespace,
					unit: 'WECs',
				},
			);
			root.groups.set(id, vertex);
			for (const workStatus of indexed(
				root,
				'wsGnn',
				workloadNameKey(ref.group, ref.namespace, ref.name),
			)) {
				work.replace.add(workStatus);
			}
		}
	}
	policy.placeholders = wanted.size > 0 ? new Set(wanted.keys()) : undefined;
	for (const id of touched) {
		const vertex = root.groups.get(id);
		if (!vertex) continue;
		const refs = root.placeholderRefs.get(id);
		if (!refs || refs.size === 0) {
			root.placeholderRefs.delete(id);
			root.groups.delete(id);
			for (const child of vertex.children?.values() ?? []) {
				if (child.entry) work.replace.add(child.entry);
			}
			killVertex(vertex, changes);
		} else {
			setDesiredParents(
				vertex,
				[...refs].filter((ref) => !ref.removed).map((ref) => ref.vertex),
				changes,
			);
		}
	}
}

/**
 * Collects what an object's change affects in KubeStellar terms: a BindingPolicy's or Binding's new selection, the
 * WorkStatus results that read a workload, the placeholders a workload that comes or goes replaces, and the objects
 * a policy selects by their Namespace's labels.
 */
export function collectKubestellarDependents(
	work: Work,
	entry: Entry,
	previous: unknown,
	next: unknown,
	existence: boolean,
): void {
	const { root } = work;
	const replaceAll = (name: IndexName, key: string) => {
		for (const dependent of indexed(root, name, key)) work.replace.add(dependent);
	};
	if (isBindingPolicy(entry)) {
		if (existence) replaceAll('binding', entry.name);
		if (existence || !sameJson(getPath(previous, 'spec'), getPath(next, 'spec'))) {
			reselect(work, entry);
		}
	}
	if (
		isBinding(entry) &&
		(existence || !sameJson(getPath(previous, 'spec'), getPath(next, 'spec')))
	) {
		for (const policy of indexed(root, 'policy', entry.name)) reselect(work, policy);
	}
	if (!isKubestellar(entry)) {
		for (const workStatus of indexed(root, 'wsSource', entry.key)) {
			work.rescore.add(workStatus);
		}
		if (existence) {
			const nameKey = workloadNameKey(entry.group, entry.namespace, entry.name);
			for (const binding of indexed(root, 'bindingRef', nameKey)) {
				for (const policy of indexed(root, 'policy', binding.name)) {
					work.policies.add(policy);
				}
			}
			replaceAll('wsGnn', nameKey);
		}
		if (
			entry.group === '' &&
			entry.kind === 'Namespace' &&
			!sameJson(getPath(previous, 'metadata', 'labels'), getPath(next, 'metadata', 'labels'))
		) {
			const selective = [...indexed(root, 'policies', '')].some((policy) =>
				policy.clauses?.some((clause) => clause.namespaceSelectors.length > 0),
			);
			if (selective) replaceAll('candNs', entry.name);
		}
	}
}

/** A policy's selection changed: its placeholders and every object it selected or may now select are placed again. */
function reselect(work: Work, policy: Entry): void {
	work.policies.add(policy);
	for (const child of policy.vertex.children?.values() ?? []) {
		if (child.entry) work.replace.add(child.entry);
	}
	if (policy.removed) return;
	for (const candidate of selectionCandidates(work.root, policy)) {
		work.replace.add(candidate);
	}
}

/** The Binding a policy's controller wrote, if the root has it. */
function bindingOf(root: Root, policy: Entry): Entry | undefined {
	for (const binding of indexed(root, 'binding', policy.name)) return binding;
	return undefined;
}

/** Objects a policy may select: those its Binding lists, or those in the namespaces its clauses name. */
function selectionCandidates(root: Root, policy: Entry): Entry[] {
	const binding = bindingOf(root, policy);
	const result: Entry[] = [];
	if (binding) {
		for (const ref of binding.bindingRefs ?? []) {
			const key = workloadNameKey(ref.group, ref.namespace, ref.name);
			for (const vertex of indexed(root, 'gnn', key)) result.push(vertex);
		}
		return result;
	}
	for (const clause of policy.clauses ?? []) {
		if (clause.onlyNamespaces) {
			for (const namespace of clause.onlyNamespaces) {
				for (const vertex of indexed(root, 'candNs', namespace)) result.push(vertex);
			}
		} else return [...indexed(root, 'cand', '')];
	}
	return result;
}
