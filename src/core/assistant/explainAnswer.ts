// explain_kube_status: one object in the words of Explain, as compact text: the chain to the root cause (the tree's
// hierarchy, then the edges it waits on), each step's state, meaning and message, what to do, the conditions,
// recent Events where known, and what kstatus and Argo CD show.
import { explain } from '../catalog/explanations.ts';
import { causeChainOf, worldFromGraph, type CauseChain } from '../causes/causeChain.ts';
import { actionFor, explainChain } from '../explain/explainDocument.ts';
import { stateLabel } from '../explain/tooltip.ts';
import { readConditions } from '../model/condition.ts';
import { newestEventsFirst } from '../model/kubeEvent.ts';
import { groupOf } from '../model/object.ts';
import { noHealthSentence } from '../status/argocdHealth.ts';
import type { ResourceGraph } from '../tree/model.ts';
import type { TreeNode } from '../tree/treeNode.ts';
import {
	bounded,
	candidatesAnswer,
	dataAgeLine,
	dataNote,
	nameText,
	objectsNamed,
	quote,
	refText,
	rootName,
	rootsInScope,
	type AssistantAnswer,
	type AssistantWorld,
	type ToolInput,
} from './world.ts';

const maxConditions = 12;
const maxEvents = 6;

/** How a step is named: "BundleDeployment cluster-ns/shop-frontend", or a resource row's label. */
export function stepTitle(node: TreeNode): string {
	if (node.ref) return refText(node.ref.kind, node.ref.namespace, node.ref.name);
	const kind =
		node.kind === 'dependency' ? 'Dependency' : node.kind === 'resource' ? 'Resource' : '';
	return `${kind ? `${kind} ` : ''}${nameText(node.label)}`;
}

/** A step's state in Explain's words: "ErrApplied (error)", or a resource row's description. */
export function stepState(node: TreeNode): string {
	return node.result ? stateLabel(node.result) : node.description || node.tone;
}

function meaningOf(node: TreeNode): { meaning: string; action: string } | undefined {
	const result = node.result;
	if (!result) return undefined;
	const found = explain(
		result.system === 'kubernetes' ? 'kstatus' : result.system,
		'state',
		result.state,
		node.ref?.kind,
	);
	return found ? { meaning: found.meaning, action: found.action } : undefined;
}

function messageOf(node: TreeNode): string {
	return node.result?.message || node.message || '';
}

/** The chain of what an object waits on (Flux dependsOn and sources, Fleet dependsOn, ASO owners), when it waits. */
export function waitChainOf(graph: ResourceGraph, node: TreeNode): CauseChain | undefined {
	if (!node.ref) return undefined;
	return causeChainOf(worldFromGraph(graph, node.rootId), {
		group: groupOf(node.ref.apiVersion),
		kind: node.ref.kind,
		namespace: node.ref.namespace,
		name: node.ref.name,
	});
}

/** explain_kube_status on a world. */
export function explainAnswer(world: AssistantWorld, input: ToolInput): AssistantAnswer {
	const scope = rootsInScope(world, input);
	if ('error' in scope) return { text: scope.error, isError: true };
	const name = input.name ?? '';
	const found = objectsNamed(world, scope.roots, input);
	if (found.length === 0) {
		const what = `${input.kind !== undefined ? `${nameText(input.kind)} ` : ''}${input.namespace !== undefined ? `${nameText(input.namespace)}/` : ''}${quote(name, 120)}`;
		return {
			text: `No object ${what} in ${scope.roots.map(rootName).join(', ') || 'what is open'}. list_kube_status_problems lists what is not ready.`,
			isError: true,
		};
	}
	if (found.length > 1) return candidatesAnswer(found, name);
	const [only] = found;
	if (!only) return { text: 'Nothing found.', isError: true };
	const { root, object } = only;
	const { node } = only;
	const { graph } = world;
	const chain = only.placed ? explainChain(graph, node.id) : [node];
	const waits = waitChainOf(graph, node);
	const ready = node.tone === 'ok';
	const deepest = chain[chain.length - 1] ?? node;
	const summary = ready
		? `${stepTitle(node)} is ${stepState(node)}: nothing blocks it (${rootName(root)}).`
		: waits
			? `${stepTitle(node)} is ${stepState(node)}: ${quote(waits.sentence, 1_000)} (${rootName(root)}).`
			: chain.length > 1
				? `${stepTitle(node)} is ${stepState(node)}; the root cause is ${stepTitle(deepest)}, ${stepState(deepest)} (${rootName(root)}).`
				: `${stepTitle(node)} is ${stepState(node)} (${rootName(root)}).`;
	const lines: string[] = [dataAgeLine([root], world.now), dataNote, ''];
	const shownMessages = new Set<string>();
	if (!ready && chain.length > 0) {
		lines.push(chain.length > 1 ? 'Why it is not ready, step by step:' : 'Its state:');
		chain.forEach((step, index) => {
			const cluster =
				step.ref?.kind === 'BundleDeployment' && step.label !== step.ref.name
					? ` on ${nameText(step.label)}`
					: '';
			lines.push(`${index + 1}. ${stepTitle(step)}${cluster}: ${stepState(step)}`);
			const meaning = meaningOf(step)?.meaning;
			if (meaning) lines.push(`   meaning: ${meaning}`);
			const message = messageOf(step);
			if (message && !shownMessages.has(message)) {
				lines.push(`   message: ${quote(message)}`);
				shownMessages.add(message);
			}
		});
	} else {
		const message = messageOf(node);
		const meaning = meaningOf(node)?.meaning;
		if (meaning) lines.push(`meaning: ${meaning}`);
		if (message) lines.push(`message: ${quote(message)}`);
	}
	const inChain = new Set(
		chain.flatMap((step) =>
			step.ref ? [`${step.ref.kind}/${step.ref.namespace}/${step.ref.name}`] : [],
		),
	);
	const waitsBeyond = waits?.steps.some(
		(step) => !inChain.has(`${step.ref.kind}/${step.ref.namespace}/${step.ref.name}`),
	);
	// Explain's chain may already walk these edges; the steps are said once.
	if (waits && waits.steps.length > 1 && waitsBeyond) {
		lines.push('', 'What it waits on:');
		waits.steps.forEach((step, index) => {
			const edge = step.edge ? `${step.edge} → ` : '';
			const cluster = step.cluster ? ` on cluster ${nameText(step.cluster)}` : '';
			lines.push(
				`${index + 1}. ${edge}${refText(step.ref.kind, step.ref.namespace, step.ref.name)}${cluster}: ${nameText(step.state)}${step.message ? ` — message: ${quote(step.message)}` : ''}`,
			);
		});
		if (waits.end.kind === 'cycle') lines.push('The dependencies form a cycle.');
		if (waits.end.kind === 'missing') {
			lines.push(
				`The ${waits.end.edge} ${refText(waits.end.ref.kind, waits.end.ref.namespace, waits.end.ref.name)} is missing.`,
			);
		}
	}
	if (node.disagreement) {
		lines.push('', `The controller and the children disagree: ${quote(node.disagreement)}`);
	}
	const acting = [...chain].reverse().find((step) => meaningOf(step)?.action);
	const action = acting ? meaningOf(acting)?.action : undefined;
	if (!ready && acting && action) {
		const actingObject = acting.objectKey
			? graph.objectOf(acting.rootId, acting.objectKey)
			: undefined;
		// The catalog's words with the object's own names filled in; a name is data, so the line says whose it is.
		lines.push(
			'',
			`What to do (for ${stepTitle(acting)}): ${quoteNamesIn(actionFor(action, acting, actingObject), acting)}`,
		);
	}
	const { conditions } = readConditions(object);
	if (conditions.length > 0) {
		lines.push('', `Conditions of ${stepTitle(node)}:`);
		for (const condition of conditions.slice(0, maxConditions)) {
			const reason = condition.reason ? ` reason ${nameText(condition.reason)}` : '';
			const message =
				condition.message && !shownMessages.has(condition.message)
					? ` message: ${quote(condition.message)}`
					: condition.message
						? ' (the message above)'
						: '';
			lines.push(
				`- ${nameText(condition.type)}=${nameText(condition.status)}${condition.severity ? ` severity ${nameText(condition.severity)}` : ''}${reason}${message}`,
			);
		}
		if (conditions.length > maxConditions) {
			lines.push(`- ${conditions.length - maxConditions} more conditions`);
		}
	}
	const events = world.eventsOf ? newestEventsFirst(world.eventsOf(root.rootId, object)) : [];
	if (events.length > 0) {
		lines.push('', 'Recent events, newest first:');
		for (const event of events.slice(0, maxEvents)) {
			lines.push(
				`- ${event.lastSeen ? nameText(event.lastSeen) : 'time unknown'} ${nameText(event.type)} ${nameText(event.reason)}${event.count > 1 ? ` ×${event.count}` : ''} — message: ${quote(event.message)}`,
			);
		}
	}
	if (node.result) {
		const { kstatus, health } = node.result;
		const said = (message: string): string =>
			!message
				? ''
				: shownMessages.has(message)
					? ' — the message above'
					: ` — message: ${quote(message)}`;
		lines.push('', 'What other tools show:');
		lines.push(`- kstatus: ${kstatus.status}${said(kstatus.message)}`);
		lines.push(
			health
				? `- Argo CD health: ${health.status}${said(health.message)}`
				: `- Argo CD: ${noHealthSentence(object)}.`,
		);
	}
	const sources = node.sources ?? [];
	if (sources.length > 0) {
		lines.push(
			'',
			`Read from: ${sources
				.slice(0, 5)
				.map(
					(source) =>
						`${nameText(source.label ?? source.sourceId)}${source.line === undefined ? '' : `:${source.line + 1}`}`,
				)
				.join(', ')}`,
		);
	}
	return bounded(summary, lines, 0, 'ask about one of the steps by name');
}

/** The catalog's action with the object's names in it: names that do not read as Kubernetes names are quoted. */
function quoteNamesIn(action: string, node: TreeNode): string {
	const ref = node.ref;
	if (!ref) return action;
	let text = action;
	for (const value of [ref.name, ref.namespace]) {
		if (value && nameText(value) !== value) text = text.split(value).join(nameText(value));
	}
	return text;
}
