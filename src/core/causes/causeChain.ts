// What an object waits for, across the edges a user would follow (Flux dependsOn and sources, a HelmRelease's
// HelmChart, Fleet Bundle dependsOn per cluster, ASO owners), down to the root cause: the last object in the chain
// that is itself failing, or missing. Pure: a "world" supplies the objects and the engine's results.
//
// - causeChainOf(world, ref): { steps: {ref, state, message, edge, cluster?, title}[], end: cause | cycle | missing |
//   depth (16 steps), sentence } or undefined when the object waits on nothing. The sentence: "Kustomization
//   flux-system/apps waits for Kustomization flux-system/infra, whose source GitRepository flux-system/platform cannot
//   fetch: authentication required"; "Bundle fleet-default/app waits for Bundle fleet-default/db on cluster prod-us-1,
//   which is ErrApplied: <message>"; "..., which does not exist"; "<object> waits on a dependency cycle: A -> B -> A".
// - waitingForOf(world, ref): { target, words } for a tree row ("waiting for Kustomization flux-system/infra"); a
//   Fleet dependency's target is its Bundle, the words name the cluster.
// - causeEdgeOf(world, ref): the first edge when it leads to an object that is there, with that object's graph key.
// - worldFromGraph(graph, rootId): a root of the resource graph, with the results its rows show.
//   worldFromObjects(objects, options?): objects read together (computeStatuses over all of them): the CLI, MCP.
// - causeRefOf({apiVersion, kind, namespace, name}): the CauseRef of a TreeNode's ref or an object's.
// A CauseRef is {group, kind, namespace, name}; `${group}|${kind}|${namespace}|${name}` is the graph's object key.
import { findCondition, readConditions } from '../model/condition.ts';
import {
	bundleOfDeployment,
	clusterOfDeployment,
	nextEdge,
	refKey,
	refTitle,
	type EdgeTarget,
} from './edges.ts';
import type {
	CauseChain,
	CauseEdge,
	CauseEnd,
	CauseRef,
	CauseStep,
	CauseWorld,
	WaitingFor,
	WorldObject,
} from './types.ts';

export type {
	CauseChain,
	CauseEdge,
	CauseEnd,
	CauseRef,
	CauseStep,
	CauseWorld,
	WaitingFor,
	WorldObject,
} from './types.ts';
export { worldFromGraph, worldFromObjects } from './worlds.ts';

/** How many steps a chain follows before it says it goes on. */
const causeDepthLimit = 16;

function titleOf(entry: WorldObject): string {
	if (entry.ref.kind === 'BundleDeployment') {
		const bundle = bundleOfDeployment(entry.object);
		if (bundle) return `${refTitle(bundle)} on cluster ${clusterOfDeployment(entry.object)}`;
	}
	return refTitle(entry.ref);
}

function targetTitle(target: EdgeTarget): string {
	if ('found' in target) return titleOf(target.found);
	return `${refTitle(target.missing)}${target.cluster ? ` on cluster ${target.cluster}` : ''}`;
}

function stepOf(entry: WorldObject, edge: CauseEdge | undefined): CauseStep {
	const cluster =
		entry.ref.kind === 'BundleDeployment' ? clusterOfDeployment(entry.object) : undefined;
	return {
		ref: entry.ref,
		state: entry.status.state,
		message: entry.status.message,
		edge,
		...(cluster === undefined ? {} : { cluster }),
		title: titleOf(entry),
	};
}

/** Go's wrapped errors read "a: b: c"; the innermost part says why ("authentication required"). */
function innermostError(message: string): string {
	const parts = message.split(': ');
	const last = parts[parts.length - 1]?.trim();
	return last || message;
}

/** "cannot fetch: <why>" for a Flux source whose FetchFailed is True, else "is <state>: <message>". */
function causeWords(step: CauseStep, object: unknown): string {
	const fetch = findCondition(readConditions(object).conditions, 'FetchFailed');
	if (fetch?.status === 'True' && fetch.message) {
		return `cannot fetch: ${innermostError(fetch.message)}`;
	}
	return `is ${step.state}${step.message ? `: ${step.message}` : ''}`;
}

/** The phrase that leads to a step: "waits for X" first, then "which waits for X" / "whose source X". */
function leadTo(edge: CauseEdge, title: string, first: boolean): { text: string; whose: boolean } {
	switch (edge) {
		case 'source':
			return first
				? { text: ` waits for its source ${title}`, whose: false }
				: { text: `, whose source ${title}`, whose: true };
		case 'chart':
			return first
				? { text: ` waits for its ${title}`, whose: false }
				: { text: `, whose chart ${title}`, whose: true };
		case 'owner':
			return { text: `${first ? '' : ', which'} waits for its owner ${title}`, whose: false };
		case 'dependency':
		case 'bundle dependency':
			return { text: `${first ? '' : ', which'} waits for ${title}`, whose: false };
	}
}

function sentenceOf(steps: readonly CauseStep[], end: CauseEnd, lastObject: unknown): string {
	const first = steps[0];
	if (!first) return '';
	if (end.kind === 'cycle') return `${first.title} waits on a ${end.words}`;
	let text = first.title;
	let whose = false;
	steps.slice(1).forEach((step, index) => {
		if (!step.edge) return;
		const lead = leadTo(step.edge, step.title, index === 0);
		text += lead.text;
		whose = lead.whose;
	});
	const last = steps[steps.length - 1];
	switch (end.kind) {
		case 'missing': {
			const lead = leadTo(
				end.edge,
				targetTitle({
					edge: end.edge,
					missing: end.ref,
					...(end.cluster ? { cluster: end.cluster } : {}),
				}),
				steps.length === 1,
			);
			return `${text}${lead.text}, which does not exist`;
		}
		case 'depth':
			return `${text}, and more: the chain goes on beyond ${end.limit} steps`;
		case 'cause':
			if (!last || steps.length === 1) return text;
			return `${text}${whose ? ' ' : ', which '}${causeWords(last, lastObject)}`;
	}
}

/** The chain from an object to what it ultimately waits on; undefined when it waits on nothing (or is not there). */
export function causeChainOf(world: CauseWorld, ref: CauseRef): CauseChain | undefined {
	const start = world.objectOf(ref);
	if (!start) return undefined;
	let target = nextEdge(world, start);
	if (!target) return undefined;
	const steps: CauseStep[] = [stepOf(start, undefined)];
	const seen = new Map<string, number>([[refKey(start.ref), 0]]);
	let current = start;
	let end: CauseEnd | undefined;
	while (!end) {
		if (!target) {
			end = { kind: 'cause' };
			break;
		}
		if ('missing' in target) {
			const where = target.cluster ? ` on cluster ${target.cluster}` : '';
			end = {
				kind: 'missing',
				ref: target.missing,
				edge: target.edge,
				...(target.cluster ? { cluster: target.cluster } : {}),
				words: `${refTitle(target.missing)} does not exist${where}`,
			};
			break;
		}
		const key = refKey(target.found.ref);
		const again = seen.get(key);
		if (again !== undefined) {
			const cycle = [...steps.slice(again).map((step) => step.ref), target.found.ref];
			end = {
				kind: 'cycle',
				cycle,
				words: `dependency cycle: ${[...steps.slice(again).map((step) => step.title), titleOf(target.found)].join(' -> ')}`,
			};
			break;
		}
		if (steps.length >= causeDepthLimit) {
			end = { kind: 'depth', limit: causeDepthLimit };
			break;
		}
		seen.set(key, steps.length);
		steps.push(stepOf(target.found, target.edge));
		current = target.found;
		target = nextEdge(world, current);
	}
	return { steps, end, sentence: sentenceOf(steps, end, current.object) };
}

/** The reference of an object as the graph and the engine name it (apiVersion, kind, namespace, name). */
export function causeRefOf(ref: {
	readonly apiVersion: string;
	readonly kind: string;
	readonly namespace: string;
	readonly name: string;
}): CauseRef {
	const slash = ref.apiVersion.indexOf('/');
	return {
		group: slash < 0 ? '' : ref.apiVersion.slice(0, slash),
		kind: ref.kind,
		namespace: ref.namespace,
		name: ref.name,
	};
}

/**
 * The object an object waits for first, when it is there: the edge, its ref, its graph key (group|kind|namespace|name,
 * as the resource graph keys objects) and, for a Fleet dependency, the cluster.
 */
export function causeEdgeOf(
	world: CauseWorld,
	ref: CauseRef,
):
	| {
			readonly edge: CauseEdge;
			readonly ref: CauseRef;
			readonly key: string;
			readonly cluster?: string;
	  }
	| undefined {
	const start = world.objectOf(ref);
	const target = start ? nextEdge(world, start) : undefined;
	if (!target || !('found' in target)) return undefined;
	return {
		edge: target.edge,
		ref: target.found.ref,
		key: refKey(target.found.ref),
		...(target.cluster ? { cluster: target.cluster } : {}),
	};
}

/** The first object an object waits for, and the words for its row; undefined when it waits on nothing. */
export function waitingForOf(world: CauseWorld, ref: CauseRef): WaitingFor | undefined {
	const start = world.objectOf(ref);
	if (!start) return undefined;
	const target = nextEdge(world, start);
	if (!target) return undefined;
	const title = targetTitle(target);
	if ('missing' in target) {
		return { target: target.missing, words: `waiting for ${title} (missing)` };
	}
	// A Fleet dependency is named by its Bundle, which is where a user goes.
	const bundle =
		target.found.ref.kind === 'BundleDeployment'
			? bundleOfDeployment(target.found.object)
			: undefined;
	const goTo = bundle && world.objectOf(bundle) ? bundle : target.found.ref;
	return { target: goTo, words: `waiting for ${title}` };
}
