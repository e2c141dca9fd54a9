import { explain } from '../catalog/explanations.ts';
import {
	causeChainOf,
	causeEdgeOf,
	causeRefOf,
	worldFromGraph,
	type CauseChain,
	type CauseEdge,
	type CauseWorld,
} from '../causes/causeChain.ts';
import { readConditions } from '../model/condition.ts';
import { getString } from '../model/object.ts';
import { noHealthSentence } from '../status/argocdHealth.ts';
import { refusingPolicyLines, rejectionOfObject } from '../status/fleetPolicy.ts';
import { bindingDifferencesOf } from '../targeting/bindingComparison.ts';
import { bindingPolicyTargetsOf } from '../targeting/bindingPolicyTargets.ts';
import { policiesAskedOfCluster } from '../targeting/whyNotHere.ts';
import { fleetTargetsOf } from '../targeting/fleetTargets.ts';
import { toneRank } from '../status/result.ts';
import type { ResourceGraph } from '../tree/model.ts';
import type { TreeNode } from '../tree/treeNode.ts';
import { documentTextLimit, truncate } from '../text/limits.ts';
import { escapeMarkdown, escapeTableCell } from '../text/markdown.ts';
import { visibleLine } from '../text/visible.ts';
import type { KubeEvent } from '../model/kubeEvent.ts';
import { timelineLines, type TimelineClock, type TimelineObject } from './timeline.ts';
import { repeats, stateLabel } from './tooltip.ts';

const maxDepth = 8;
/** How long a chain that follows dependency, source and owner edges may grow. */
const maxChainLength = 16;

/** An untrusted string in the document: escaped, cut at the document's limit per string. */
function field(text: string): string {
	return escapeMarkdown(text, documentTextLimit);
}

function titleOf(node: TreeNode): string {
	const kind =
		node.ref?.kind ??
		(node.kind === 'dependency' ? 'Dependency' : node.kind === 'resource' ? 'Resource' : '');
	return kind && !node.label.startsWith(kind) ? `${kind} ${node.label}` : node.label;
}

/**
 * The titles of a chain's steps, a title that two different objects share told apart by the object's name: a
 * BundleDeployment row is labelled with its cluster, so "BundleDeployment local (tickets-api) → BundleDeployment
 * local (tickets-db)" where one waits for the other on the same cluster.
 */
function chainTitles(chain: readonly TreeNode[]): string[] {
	const titles = chain.map(titleOf);
	const objectsByTitle = new Map<string, Set<string>>();
	chain.forEach((node, index) => {
		const title = titles[index] ?? '';
		const objects = objectsByTitle.get(title) ?? new Set<string>();
		objects.add(node.objectKey ?? node.id);
		objectsByTitle.set(title, objects);
	});
	return chain.map((node, index) => {
		const title = titles[index] ?? '';
		const ref = node.ref;
		if ((objectsByTitle.get(title)?.size ?? 0) < 2 || !ref) return title;
		const name = ref.name !== node.label ? ref.name : `${ref.namespace}/${ref.name}`;
		return `${title} (${name})`;
	});
}

function stateOf(node: TreeNode): string {
	return node.result ? stateLabel(node.result) : node.description || node.tone;
}

/** The worst child, the one that explains why its parent is not ready; ties go to the first (already sorted). */
function blockingChild(graph: ResourceGraph, node: TreeNode): TreeNode | undefined {
	let worst: TreeNode | undefined;
	for (const child of graph.children(node.id)) {
		if (child.tone === 'ok') continue;
		if (!worst || toneRank(child.tone) > toneRank(worst.tone)) worst = child;
	}
	return worst;
}

function meaningOf(node: TreeNode): { meaning: string; action: string } | undefined {
	const result = node.result;
	if (!result) return undefined;
	const system = result.system === 'kubernetes' ? 'kstatus' : result.system;
	const found = explain(system, 'state', result.state, node.ref?.kind);
	return found ? { meaning: found.meaning, action: found.action } : undefined;
}

function messageOf(node: TreeNode): string {
	return node.result?.message || node.message || '';
}

/** The messages a document has shown: a text is said once, and a text inside one already shown is not said again. */
class ShownMessages {
	private readonly texts: string[] = [];

	has(text: string): boolean {
		return this.texts.some((shown) => repeats(text, shown));
	}

	add(text: string): void {
		if (text) this.texts.push(text);
	}
}

/**
 * The catalog's "what to do" with the object's own names in place of its placeholders (`<name>`, `<namespace>`,
 * `<cluster namespace> <bundle>`, `<wec>`, `<owner kind>`...). A namespaced object's `<name>` gains `-n <namespace>`
 * when the command names no namespace. Placeholders the object cannot fill stay as they are.
 */
export function actionFor(action: string, node: TreeNode, object: unknown): string {
	const ref = node.ref;
	if (!ref) return action;
	const values = new Map<string, string>();
	const group = ref.apiVersion.includes('/')
		? ref.apiVersion.slice(0, ref.apiVersion.indexOf('/'))
		: '';
	if (ref.kind === 'BundleDeployment') {
		if (ref.namespace) values.set('<cluster namespace>', ref.namespace);
		if (ref.name) values.set('<bundle>', ref.name);
	} else if (ref.kind === 'Bundle' && ref.name) {
		values.set('<bundle>', ref.name);
	}
	if (ref.kind === 'WorkStatus' && ref.namespace) values.set('<wec>', ref.namespace);
	// ASO's owner reference names no kind; its WaitingForOwner message does (`Owner "group/Kind, ns/name" ...`).
	const ownerInMessage = /^Owner "([^"/,]+)\/([^"/,]+), /.exec(node.result?.message ?? '');
	const ownerKind =
		getString(object, 'spec', 'owner', 'kind') ??
		(ownerInMessage ? `${ownerInMessage[2]?.toLowerCase()}.${ownerInMessage[1]}` : undefined);
	const ownerName = getString(object, 'spec', 'owner', 'name');
	if (ownerKind) values.set('<owner kind>', ownerKind);
	if (ownerName) values.set('<owner name>', ownerName);
	if (ref.kind) {
		values.set(
			'kubectl get <kind>',
			`kubectl get ${ref.kind.toLowerCase()}${group ? `.${group}` : ''}`,
		);
	}
	if (ref.namespace) values.set('<namespace>', ref.namespace);
	if (ref.name) {
		const namesNamespace = /-n </.test(action) || action.includes('<namespace>');
		values.set(
			'<name>',
			ref.namespace && !namesNamespace ? `${ref.name} -n ${ref.namespace}` : ref.name,
		);
	}
	if (values.size === 0) return action;
	// One pass, so a name that reads like a placeholder is not filled in again.
	const placeholders = new RegExp(
		[...values.keys()].map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
		'g',
	);
	return action.replace(placeholders, (placeholder) => values.get(placeholder) ?? placeholder);
}

/** The noun for several children of one parent that share a message: clusters for Fleet and KubeStellar placements. */
function placesNoun(node: TreeNode, parent: TreeNode, count: number): string {
	const kind = node.ref?.kind ?? '';
	const clusters =
		(kind === 'BundleDeployment' && parent.ref?.kind !== 'Cluster') || kind === 'WorkStatus';
	if (clusters) return count === 1 ? 'cluster' : 'clusters';
	if (kind === 'BundleDeployment') return count === 1 ? 'bundle' : 'bundles';
	return count === 1 ? 'object' : 'objects';
}

/**
 * The link of a chain item in the Explain document: a target the adapter made from a key of its own (never a name,
 * path or URL from the data), relative to the document. Anything else than letters, digits, `%`, `.`, `_` and `-` is
 * not linked.
 */
export type StepLinkOf = (node: TreeNode) => string | undefined;

const safeStepLink = /^[A-Za-z0-9%._-]+$/;

/**
 * Where a source can be linked to in the Explain document: its path below the folder the Markdown preview resolves
 * links starting with "/" against, or undefined when it has none (a cluster, a file elsewhere).
 */
export type SourcePathOf = (sourceId: string) => string | undefined;

/** `[fleet/dump.yaml:12](/fleet/dump.yaml#L12)` for a file with a path to link to; anything else as plain text. */
function sourceLine(
	source: { sourceId: string; label?: string; line?: number },
	pathOf: SourcePathOf,
): string {
	const text = field(
		`${source.label ?? source.sourceId}${source.line === undefined ? '' : `:${source.line + 1}`}`,
	);
	const path = pathOf(source.sourceId);
	if (path === undefined || path === '') return text;
	// Every character Markdown or a URL could read as syntax is percent-encoded, so the path cannot end the link.
	const target = path.replace(/[^A-Za-z0-9\-._~/@$&+,;=]/g, (character) =>
		encodeURIComponent(character).replace(
			/[!'()*]/g,
			(reserved) => `%${reserved.charCodeAt(0).toString(16).toUpperCase()}`,
		),
	);
	return `[${text}](/${target.replace(/^\/+/, '')}${source.line === undefined ? '' : `#L${source.line + 1}`})`;
}

/**
 * What the "What happened, in order" section needs: the clock and the locale's time format, the Events known for an
 * object of the chain (read live, or from a dump archive), and notes such as a context whose Events could not be read.
 */
export interface ExplainTimeline extends TimelineClock {
	readonly eventsOf?: (node: TreeNode, object: unknown) => readonly KubeEvent[] | undefined;
	readonly notes?: readonly string[];
}

/** A chain item past the first: the node, and the edge that led to it when it is not a child of the one before. */
interface ChainLink {
	readonly node: TreeNode;
	readonly edge?: CauseEdge;
	readonly cluster?: string;
}

/** The tree node of what an object waits for (a dependency, a source, an owner), where the edge leads to one. */
function edgeTarget(
	graph: ResourceGraph,
	world: CauseWorld,
	node: TreeNode,
): ChainLink | undefined {
	if (node.objectKey === undefined || !node.ref) return undefined;
	const found = causeEdgeOf(world, causeRefOf(node.ref));
	if (!found) return undefined;
	const id = graph.findNodesForObject(node.rootId, found.key)[0];
	const target = id === undefined ? undefined : graph.node(id);
	if (!target) return undefined;
	return { node: target, edge: found.edge, ...(found.cluster ? { cluster: found.cluster } : {}) };
}

/**
 * The chain Explain walks: the object, then at each step what blocks it: what it waits for through a dependency,
 * source, HelmChart, owner or Fleet Bundle dependency (a child that waits on one is taken first, so a Bundle's chain
 * goes through its BundleDeployment on that cluster), else the worst child. It stops at an object seen before.
 */
function explainLinks(graph: ResourceGraph, nodeId: string): ChainLink[] {
	const start = graph.node(nodeId);
	if (!start) return [];
	const world = worldFromGraph(graph, start.rootId);
	const links: ChainLink[] = [{ node: start }];
	const seen = new Set<string>();
	if (start.objectKey !== undefined) seen.add(start.objectKey);
	let childSteps = 0;
	for (let node = start; links.length < maxChainLength;) {
		const child = childSteps < maxDepth - 1 ? blockingChild(graph, node) : undefined;
		const childEdge = child ? edgeTarget(graph, world, child) : undefined;
		const next: ChainLink | undefined =
			child && childEdge
				? { node: child }
				: (edgeTarget(graph, world, node) ?? (child ? { node: child } : undefined));
		if (!next) break;
		if (next.node.objectKey !== undefined) {
			if (seen.has(next.node.objectKey)) break;
			seen.add(next.node.objectKey);
		}
		if (next.edge === undefined) childSteps++;
		links.push(next);
		node = next.node;
	}
	return links;
}

/** The chain Explain walks: the object, then down through what blocks it at each step (explainLinks). */
export function explainChain(graph: ResourceGraph, nodeId: string): TreeNode[] {
	return explainLinks(graph, nodeId).map((link) => link.node);
}

/** The words after a chain item reached through an edge: whose dependency, source, chart or owner it is. */
function edgeWords(link: ChainLink): string {
	switch (link.edge) {
		case undefined:
			return '';
		case 'dependency':
			return ' (the dependency of the step above)';
		case 'source':
			return ' (the source of the step above)';
		case 'chart':
			return ' (the HelmChart of the step above)';
		case 'owner':
			return ' (the owner of the step above)';
		case 'bundle dependency':
			return ` (the dependency of the step above${link.cluster ? ` on cluster ${link.cluster}` : ''})`;
	}
	return '';
}

/** The cause chain of the explained object itself, when it waits on another object. */
function startCause(graph: ResourceGraph, start: TreeNode): CauseChain | undefined {
	if (start.objectKey === undefined || !start.ref) return undefined;
	return causeChainOf(worldFromGraph(graph, start.rootId), causeRefOf(start.ref));
}

function timelineObjects(
	graph: ResourceGraph,
	chain: readonly TreeNode[],
	timeline: ExplainTimeline,
): TimelineObject[] {
	const seen = new Set<string>();
	const objects: TimelineObject[] = [];
	for (const node of chain) {
		if (node.objectKey === undefined) continue;
		const place = `${node.rootId}\u0000${node.objectKey}`;
		if (seen.has(place)) continue;
		seen.add(place);
		const object = graph.objectOf(node.rootId, node.objectKey);
		objects.push({
			title: titleOf(node),
			object,
			events: timeline.eventsOf?.(node, object) ?? [],
		});
	}
	return objects;
}

/**
 * "Explain status" as Markdown: the chain from the chosen object down to what blocks it (GitRepo -> Bundle ->
 * BundleDeployment -> resource, BindingPolicy -> workload -> WEC, HarborCluster -> dependency), each step with its
 * state and meaning; each distinct message once (with the clusters that share it), then what to do with the object's
 * own names, what happened in order (with `timeline`), the conditions, what kstatus and Argo CD say, and where it was
 * read (linked where `pathOf` gives a path). Every string from files or clusters is escaped.
 */
export function explainNodeMarkdown(
	graph: ResourceGraph,
	nodeId: string,
	pathOf: SourcePathOf = () => undefined,
	timeline?: ExplainTimeline,
	stepLinkOf?: StepLinkOf,
): string {
	const links = explainLinks(graph, nodeId);
	const chain = links.map((link) => link.node);
	const start = chain[0];
	if (!start) return '# Nothing to explain\n\nThe item is no longer in the tree.';
	const shown = new ShownMessages();
	const shownMeanings = new Set<string>();
	const lines: string[] = [];
	lines.push(`# ${field(titleOf(start))}`, '');
	const cause = start.tone === 'ok' ? undefined : startCause(graph, start);
	if (cause) lines.push(`${field(cause.sentence)}.`, '');
	const ready = start.tone === 'ok';
	const startMeaning = meaningOf(start)?.meaning;
	lines.push(`**${field(stateOf(start))}**${startMeaning ? `: ${field(startMeaning)}` : ''}`, '');
	if (startMeaning) shownMeanings.add(startMeaning);
	const startMessage = messageOf(start);
	if (startMessage) {
		lines.push(field(startMessage), '');
		shown.add(startMessage);
	}
	if (ready) {
		lines.push('Nothing blocks it: every part below it is ready.', '');
	} else if (chain.length > 1 || cause) {
		lines.push('## Why it is not ready', '');
		const titles = chainTitles(chain);
		lines.push(titles.map((title) => field(title)).join(' → '), '');
		links.forEach((link, index) => {
			const node = link.node;
			// An object has a state ("is ErrApplied (error)"); a resource or dependency row a description ("failed to apply").
			const state = node.result ? ` is ${field(stateOf(node))}` : `: ${field(stateOf(node))}`;
			const target = stepLinkOf?.(node);
			const title = field(titles[index] ?? titleOf(node));
			lines.push(
				`${index + 1}. **${target !== undefined && safeStepLink.test(target) ? `[${title}](${target})` : title}**${field(edgeWords(link))}${state}.`,
			);
			const meaning = meaningOf(node)?.meaning;
			if (meaning && !shownMeanings.has(meaning)) {
				lines.push('', `   ${field(meaning)}`);
				shownMeanings.add(meaning);
			}
			const parent = chain[index - 1];
			const message = messageOf(node);
			if (parent && message) {
				// Places that share a message are siblings: a step reached through an edge has none.
				const sharing =
					link.edge === undefined
						? graph.children(parent.id).filter((child) => messageOf(child) === message)
						: [];
				const places =
					sharing.length > 1
						? `On ${sharing.length} ${placesNoun(node, parent, sharing.length)}: ${sharing.map((child) => field(child.label)).join(', ')}`
						: '';
				if (!shown.has(message)) {
					lines.push('', `   ${places ? `${places} — ` : ''}${field(message)}`);
					shown.add(message);
				} else if (places) {
					lines.push('', `   ${places}, with the message above.`);
				}
			}
			lines.push('');
		});
		if (cause?.end.kind === 'missing' || cause?.end.kind === 'cycle') {
			lines.push(`${links.length + 1}. **${field(cause.end.words)}**.`, '');
		}
	}
	const startObject = start.objectKey ? graph.objectOf(start.rootId, start.objectKey) : undefined;
	const rejection =
		start.contextFlags.system === 'fleet' ? rejectionOfObject(startObject) : undefined;
	if (rejection) {
		const namespace = getString(startObject, 'metadata', 'namespace') ?? '';
		const policies = refusingPolicyLines(graph.objectsOf(start.rootId), namespace, rejection);
		lines.push('## The Policy that refused it', '');
		for (const line of policies.slice(0, 10)) lines.push(`- ${field(line)}`);
		if (policies.length > 10) lines.push(`- and ${policies.length - 10} more`);
		if (policies.length === 0) {
			lines.push(
				`- No Policy of namespace ${field(namespace)} that sets ${field(rejection.rule)} is in this input${rejection.alsoGitRepoRestriction ? ' (a GitRepoRestriction may set the same rule)' : ''}; kubectl get policies -n ${field(namespace)} lists them.`,
			);
		}
		lines.push('');
	}
	if (start.contextFlags.system === 'fleet' && start.ref?.kind === 'Bundle' && startObject) {
		whereItGoesLines(lines, graph, start.rootId, start.ref.namespace ?? '', start.ref.name);
	}
	if (
		start.contextFlags.system === 'fleet' &&
		(start.ref?.kind === 'GitRepo' || start.ref?.kind === 'HelmOp') &&
		startObject
	) {
		ownerReachLines(
			lines,
			graph,
			start.rootId,
			start.ref.kind,
			start.ref.namespace ?? '',
			start.ref.name,
		);
	}
	if (start.ref?.kind === 'BindingPolicy' && start.contextFlags.system === 'kubestellar') {
		policyReachLines(lines, graph, start.rootId, start.ref.name);
	}
	if (start.contextFlags.system === 'fleet' && start.ref?.kind === 'Cluster' && startObject) {
		whatItGetsLines(lines, graph, start.rootId, start.ref.namespace ?? '', start.ref.name);
	}
	const wec =
		start.kind === 'placeholder' ? /(?:^|\/)ph:wec:([^/]+)$/.exec(start.id)?.[1] : undefined;
	if (wec !== undefined) wecGetsLines(lines, graph, start.rootId, wec);
	if (start.disagreement) {
		lines.push('## The controller and the children disagree', '', field(start.disagreement), '');
	}
	const deepest = [...chain].reverse().find((node) => meaningOf(node)?.action);
	const action = deepest ? meaningOf(deepest)?.action : undefined;
	if (!ready && deepest && action) {
		const object = deepest.objectKey
			? graph.objectOf(deepest.rootId, deepest.objectKey)
			: undefined;
		lines.push('## What to do', '', field(actionFor(action, deepest, object)), '');
	}
	if (timeline) {
		for (const line of timelineLines(
			timelineObjects(graph, chain, timeline),
			timeline,
			timeline.notes,
			(message) => shown.has(message),
		)) {
			lines.push(line);
		}
	}
	const reasons: string[] = [];
	for (const reason of start.result?.reasons ?? []) {
		if (reasons.length >= 12 || shown.has(reason)) continue;
		reasons.push(reason);
		shown.add(reason);
	}
	if (reasons.length > 0) {
		lines.push('## Details', '');
		for (const reason of reasons) lines.push(`- ${field(reason)}`);
		lines.push('');
	}
	const object = start.objectKey ? graph.objectOf(start.rootId, start.objectKey) : undefined;
	const { conditions } = readConditions(object);
	if (conditions.length > 0) {
		lines.push(
			'## Conditions',
			'',
			'| Type | Status | Reason | Message |',
			'| --- | --- | --- | --- |',
		);
		for (const condition of conditions.slice(0, 20)) {
			const message = condition.message ?? '';
			const cell =
				message && shown.has(message) ? 'the message above' : escapeTableCell(message, 500);
			lines.push(
				`| ${escapeTableCell(condition.type, 40)} | ${escapeTableCell(condition.status + (condition.severity ? ` · ${condition.severity}` : ''), 30)} | ${escapeTableCell(condition.reason ?? '', 40)} | ${cell} |`,
			);
		}
		lines.push('');
	}
	if (start.result) {
		const { kstatus, health } = start.result;
		const said = (message: string): string =>
			message && !shown.has(message) ? ` — ${field(message)}` : '';
		lines.push('## What other tools will say', '');
		lines.push(`- kstatus: **${field(kstatus.status)}**${said(kstatus.message)}`);
		lines.push(
			health
				? `- Argo CD health: **${field(health.status)}**${said(health.message)}`
				: `- Argo CD: ${noHealthSentence(object)}.`,
		);
		lines.push('');
	}
	const sources = start.sources ?? [];
	if (sources.length > 0) {
		lines.push('## Read from', '');
		for (const source of sources.slice(0, 10)) lines.push(`- ${sourceLine(source, pathOf)}`);
		lines.push('');
	}
	return lines.join('\n');
}

/**
 * A Bundle's "Where it goes": the clusters of the input it reaches and those it does not, each with why (the Fleet
 * controller's targeting, src/core/targeting). Nothing when the input holds none of its candidate clusters.
 */
function whereItGoesLines(
	lines: string[],
	graph: ResourceGraph,
	rootId: string,
	namespace: string,
	name: string,
): void {
	const [targeting] = fleetTargetsOf(graph.objectsOf(rootId), { namespace, name });
	if (!targeting || targeting.clusters.length === 0) return;
	const reached = targeting.clusters.filter((cluster) => cluster.deployed);
	lines.push(
		'## Where it goes',
		'',
		`Reaches ${reached.length} of ${targeting.clusters.length} cluster${targeting.clusters.length === 1 ? '' : 's'} of this input${targeting.error ? ` (${field(targeting.error)})` : ''}.`,
		'',
	);
	const shown = targeting.clusters.slice(0, 20);
	for (const cluster of shown) {
		lines.push(
			`- ${cluster.deployed ? 'Yes' : 'No'}: **${field(`${cluster.namespace}/${cluster.name}`)}** — ${field(cluster.why)}`,
		);
	}
	if (targeting.clusters.length > shown.length) {
		lines.push(
			`- and ${targeting.clusters.length - shown.length} more (kube-status-lens targets lists them all)`,
		);
	}
	lines.push('');
}

/** A GitRepo's or HelmOp's Bundles, each with how many clusters it reaches and which it does not. */
function ownerReachLines(
	lines: string[],
	graph: ResourceGraph,
	rootId: string,
	kind: 'GitRepo' | 'HelmOp',
	namespace: string,
	name: string,
): void {
	const label =
		kind === 'GitRepo' ? 'fleet.cattle.io/repo-name' : 'fleet.cattle.io/fleet-helm-name';
	const objects = graph.objectsOf(rootId);
	const owned = new Set(
		objects
			.filter(
				(object) =>
					getString(object, 'kind') === 'Bundle' &&
					getString(object, 'metadata', 'namespace') === namespace &&
					getString(object, 'metadata', 'labels', label) === name,
			)
			.map((object) => getString(object, 'metadata', 'name') ?? ''),
	);
	if (owned.size === 0) return;
	const bundles = fleetTargetsOf(objects).filter(
		(bundle) => bundle.namespace === namespace && owned.has(bundle.name),
	);
	if (bundles.every((bundle) => bundle.clusters.length === 0)) return;
	lines.push('## Where its bundles go', '');
	for (const bundle of bundles.slice(0, 10)) {
		const reached = bundle.clusters.filter((cluster) => cluster.deployed).length;
		const missed = bundle.clusters.filter((cluster) => !cluster.deployed);
		lines.push(
			`- **${field(bundle.name)}** reaches ${reached} of ${bundle.clusters.length} cluster${bundle.clusters.length === 1 ? '' : 's'}${
				missed.length > 0
					? `; not ${missed
							.slice(0, 5)
							.map((cluster) => field(cluster.name))
							.join(', ')}${missed.length > 5 ? ', …' : ''} (explain the Bundle for why)`
					: ''
			}.`,
		);
	}
	lines.push('');
}

/**
 * The root whose objects of a kind a step of this root needs: this root when it holds one, else the root that holds
 * the most (a WDS's BindingPolicies are matched against the ITS beside it, and an ITS's WECs against the WDS's
 * policies).
 */
function rootHolding(
	graph: ResourceGraph,
	rootId: string,
	kind: string,
):
	| { readonly rootId: string; readonly label: string; readonly objects: readonly unknown[] }
	| undefined {
	const isWanted = (object: unknown): boolean => getString(object, 'kind') === kind;
	const own = graph.objectsOf(rootId);
	if (own.some(isWanted)) {
		return { rootId, label: graph.node(rootId)?.label ?? rootId, objects: own };
	}
	let best: { rootId: string; label: string; objects: readonly unknown[] } | undefined;
	let most = 0;
	for (const root of graph.roots()) {
		if (root.rootId === rootId) continue;
		const objects = graph.objectsOf(root.rootId);
		const count = objects.filter(isWanted).length;
		if (count > most) {
			best = { rootId: root.rootId, label: root.label, objects };
			most = count;
		}
	}
	return best;
}

/** The objects a BindingPolicy of this root is matched against: its own, plus the ManagedClusters of another root. */
function policyInventoryOf(
	graph: ResourceGraph,
	rootId: string,
): { objects: readonly unknown[]; from?: string } {
	const objects = graph.objectsOf(rootId);
	const inventory = rootHolding(graph, rootId, 'ManagedCluster');
	if (!inventory || inventory.rootId === rootId) return { objects };
	const clusters = inventory.objects.filter(
		(object) => getString(object, 'kind') === 'ManagedCluster',
	);
	return { objects: [...objects, ...clusters], from: inventory.label };
}

/** A BindingPolicy's inventory clusters and workload objects of this input: which it selects, and why not. */
function policyReachLines(
	lines: string[],
	graph: ResourceGraph,
	rootId: string,
	name: string,
): void {
	const inventory = policyInventoryOf(graph, rootId);
	const policy = bindingPolicyTargetsOf(inventory.objects).find(
		(candidate) => candidate.name === name,
	);
	if (!policy || policy.clusters.length + policy.objects.length === 0) return;
	const selected = policy.clusters.filter((cluster) => cluster.deployed).length;
	const objects = policy.objects.filter((object) => object.selected);
	const clusterWords = `${selected} of ${policy.clusters.length} inventory cluster${policy.clusters.length === 1 ? '' : 's'}${
		inventory.from === undefined ? '' : ` (of ${field(inventory.from)})`
	}`;
	lines.push(
		'## Where it goes',
		'',
		`Selects ${clusterWords} and ${objects.length} of ${policy.objects.length} object${policy.objects.length === 1 ? '' : 's'} of this input${policy.error ? ` (${field(policy.error)})` : ''}.`,
		'',
	);
	for (const cluster of policy.clusters.slice(0, 20)) {
		lines.push(
			`- ${cluster.deployed ? 'Yes' : 'No'}: **${field(cluster.name)}** — ${field(cluster.why)}`,
		);
	}
	for (const object of objects.slice(0, 20)) {
		lines.push(
			`- Places **${field(`${object.kind} ${object.namespace ? `${object.namespace}/` : ''}${object.name}`)}**`,
		);
	}
	lines.push('');
	const comparison = bindingDifferencesOf(policy, inventory.objects);
	if (comparison.binding === 'absent') {
		lines.push(
			'## Its Binding',
			'',
			'No Binding of this name in this input: the controller has not written one yet, or the input holds none.',
			'',
		);
	} else if (comparison.differences.length === 0) {
		lines.push(
			'## Its Binding',
			'',
			'The Binding the controller wrote agrees: the same destinations and the same objects.',
			'',
		);
	} else {
		lines.push(
			'## Its Binding',
			'',
			'The Binding the controller wrote differs from what the policy selects now:',
			'',
		);
		for (const difference of comparison.differences) lines.push(`- ${field(difference)}`);
		lines.push('');
	}
}

/** A Cluster's "What it gets": the Bundles of the input that reach it and those that do not, each with why. */
function whatItGetsLines(
	lines: string[],
	graph: ResourceGraph,
	rootId: string,
	namespace: string,
	name: string,
): void {
	const rows = fleetTargetsOf(graph.objectsOf(rootId)).flatMap((bundle) =>
		bundle.clusters
			.filter((cluster) => cluster.namespace === namespace && cluster.name === name)
			.map((cluster) => ({ bundle, cluster })),
	);
	if (rows.length === 0) return;
	const gets = rows.filter(({ cluster }) => cluster.deployed).length;
	lines.push(
		'## What it gets',
		'',
		`${gets} of the ${rows.length} bundle${rows.length === 1 ? '' : 's'} of this input that could reach it deploy here.`,
		'',
	);
	for (const { bundle, cluster } of rows.slice(0, 20)) {
		lines.push(
			`- ${cluster.deployed ? 'Yes' : 'No'}: **${field(`${bundle.namespace}/${bundle.name}`)}** — ${field(cluster.why)}`,
		);
	}
	if (rows.length > 20) lines.push(`- and ${rows.length - 20} more`);
	lines.push('');
}

/**
 * A WEC's "What it gets": each BindingPolicy (of this root, or of the root that holds the most: the WDS beside this
 * ITS) asked of the WEC's ManagedCluster, with why, and the objects of the policies that select it.
 */
function wecGetsLines(lines: string[], graph: ResourceGraph, rootId: string, wec: string): void {
	const policyRoot = rootHolding(graph, rootId, 'BindingPolicy');
	if (policyRoot === undefined) return;
	const policies = policyRoot.objects;
	const answers = policiesAskedOfCluster(policies, graph.objectsOf(rootId), wec);
	if (answers.length === 0) return;
	const gets = answers.filter((answer) => answer.deployed);
	const from = policyRoot.rootId === rootId ? '' : ` of ${field(policyRoot.label)}`;
	lines.push(
		'## What it gets',
		'',
		`${gets.length} of ${answers.length} BindingPolic${answers.length === 1 ? 'y' : 'ies'}${from} select${gets.length === 1 ? 's' : ''} this WEC.`,
		'',
	);
	for (const answer of answers.slice(0, 20)) {
		lines.push(
			`- ${answer.deployed ? 'Yes' : 'No'}: **${field(answer.name)}** — ${field(answer.why)}`,
		);
	}
	if (answers.length > 20) lines.push(`- and ${answers.length - 20} more`);
	const placed = bindingPolicyTargetsOf(policies)
		.filter((policy) => gets.some((answer) => answer.name === policy.name))
		.flatMap((policy) => policy.objects.filter((object) => object.selected));
	for (const object of placed.slice(0, 20)) {
		lines.push(
			`- Receives **${field(`${object.kind} ${object.namespace ? `${object.namespace}/` : ''}${object.name}`)}**`,
		);
	}
	lines.push('');
}

/** An untrusted string in the copied summary: on one line, controls and direction overrides visible, cut. */
function summaryValue(text: string): string {
	return visibleLine(truncate(text, documentTextLimit));
}

/**
 * A plain-text summary of a node for the clipboard: one line for it, one per blocking step. The line breaks are the
 * summary's own; a name or message cannot add lines, terminal controls or direction overrides.
 */
export function statusSummaryText(graph: ResourceGraph, nodeId: string): string {
	const node = graph.node(nodeId);
	if (!node) return '';
	const stepLine = (step: TreeNode, message: string | undefined): string =>
		`${summaryValue(titleOf(step))}: ${summaryValue(stateOf(step))}${message ? ` — ${summaryValue(message)}` : ''}`;
	const lines = [stepLine(node, node.result?.message)];
	for (
		let child = blockingChild(graph, node), depth = 1;
		child && depth < maxDepth;
		child = blockingChild(graph, child), depth++
	) {
		lines.push(`${'  '.repeat(depth)}└ ${stepLine(child, child.result?.message || child.message)}`);
	}
	if (node.result) {
		lines.push(
			`kstatus: ${summaryValue(node.result.kstatus.status)}; Argo CD: ${summaryValue(node.result.health?.status ?? 'no check')}`,
		);
	}
	return lines.join('\n');
}
