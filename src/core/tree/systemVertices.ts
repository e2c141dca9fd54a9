// The vertices that group objects: one per system under the root, one per category within a system. Both hide
// while they have no children. Also the info every vertex that is not an object shows.
import type { SystemId } from '../status/result.ts';
import { createVertex, type DerivedInfo, type Root, type Vertex } from './graphState.ts';

const systemLabels: Readonly<Record<SystemId, string>> = {
	fleet: 'Fleet',
	kubestellar: 'KubeStellar',
	harbor: 'Harbor',
	flux: 'Flux',
	aso: 'Azure Service Operator',
	kubernetes: 'Kubernetes',
};

/** The vertex of a system under the root, created on first use. */
function systemVertex(root: Root, system: SystemId): Vertex {
	const id = `sys:${system}`;
	let vertex = root.groups.get(id);
	if (!vertex) {
		vertex = createVertex(id, 'system', {
			autoHide: true,
			order: ['fleet', 'kubestellar', 'harbor', 'flux', 'aso'].indexOf(system),
		});
		vertex.info = groupInfo(systemLabels[system], system);
		vertex.desired = [root.vertex];
		root.groups.set(id, vertex);
	}
	return vertex;
}

/** The vertex of a category within a system ("GitRepos", "BindingPolicies"), created on first use. */
export function categoryVertex(
	root: Root,
	system: SystemId,
	name: string,
	label: string,
	order: number,
): Vertex {
	const id = `cat:${system}:${name}`;
	let vertex = root.groups.get(id);
	if (!vertex) {
		vertex = createVertex(id, 'category', { autoHide: true, order });
		vertex.info = groupInfo(label, system);
		vertex.desired = [systemVertex(root, system)];
		root.groups.set(id, vertex);
	}
	return vertex;
}

/** What a vertex that is not an object shows: a label, the system, and what `extra` sets. */
export function groupInfo(
	label: string,
	system: SystemId,
	extra: Partial<DerivedInfo> = {},
): DerivedInfo {
	return {
		label,
		description: undefined,
		message: undefined,
		ref: undefined,
		system,
		namespace: '',
		link: '',
		unit: 'ready',
		...extra,
	};
}
