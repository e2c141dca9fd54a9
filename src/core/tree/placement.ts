// Where an object belongs in the tree right now: its system's place, plus the Harbor objects that own it and the
// BindingPolicies that select it.
import { isKubestellar, type Entry, type Vertex, type Work } from './graphState.ts';
import { fleetParents } from './fleetPlacement.ts';
import { harborOwners, harborParents } from './harborPlacement.ts';
import { kubestellarParents, selectingPolicies } from './kubestellarPlacement.ts';
import { pluralOfKind } from './linking.ts';
import { categoryVertex } from './systemVertices.ts';

/** Where an object belongs in the tree right now. */
export function parentsOf(work: Work, entry: Entry): Vertex[] {
	const { root } = work;
	const parents: Vertex[] = [];
	switch (entry.system) {
		case 'fleet':
			fleetParents(work, entry, parents);
			break;
		case 'kubestellar':
			kubestellarParents(work, entry, parents);
			break;
		case 'harbor':
			harborParents(root, entry, parents);
			break;
		case 'flux':
			if (entry.kind) {
				parents.push(categoryVertex(root, 'flux', entry.kind, pluralOfKind(entry.kind), 0));
			}
			break;
		case 'aso':
			parents.push(categoryVertex(root, 'aso', entry.group, entry.group, 0));
			break;
		case 'kubernetes':
			break;
	}
	if (entry.system !== 'harbor') for (const owner of harborOwners(root, entry)) parents.push(owner);
	if (!isKubestellar(entry)) {
		for (const policy of selectingPolicies(root, entry)) parents.push(policy);
	}
	return parents;
}
