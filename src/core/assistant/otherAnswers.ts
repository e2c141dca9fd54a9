// list_kube_status_problems, preview_wec_status_merge and run_fleet_checks over a world.
import {
	fleetTroubleshootingFindings,
	newestTimestampOf,
	type InputObject,
} from '../checks/fleetTroubleshooting.ts';
import { explainChain } from '../explain/explainDocument.ts';
import { heldFor } from '../explain/objectFacts.ts';
import { getString, groupOf } from '../model/object.ts';
import { systemOf } from '../status/registry.ts';
import { mergeInputsFrom, mergePreviewYaml } from '../merge/mergePreview.ts';
import { canonicalJson } from '../merge/mergeRules.ts';
import type { StatusResult } from '../status/result.ts';
import { codeBlock } from '../text/markdown.ts';
import { attentionList } from '../tree/attention.ts';
import type { TreeNode } from '../tree/treeNode.ts';
import { stepState, stepTitle, waitChainOf } from './explainAnswer.ts';
import {
	bounded,
	candidatesAnswer,
	dataAgeLine,
	dataNote,
	kindMatches,
	maxItems,
	objectsNamed,
	quote,
	refText,
	rootName,
	rootsInScope,
	type AssistantAnswer,
	type AssistantRoot,
	type AssistantWorld,
	type ToolInput,
} from './world.ts';

const urgencyWords = {
	error: 'error',
	deleting: 'being deleted',
	warning: 'warning',
	progressing: 'progressing',
} as const;

const countWords: Readonly<Record<string, readonly [string, string]>> = {
	error: ['error', 'errors'],
	deleting: ['being deleted', 'being deleted'],
	warning: ['warning', 'warnings'],
	progressing: ['progressing', 'progressing'],
};

/** Who said the state: the controller's own status, or the roll-up the engine recomputed from the children. */
function whoSaid(result: StatusResult | undefined, node: TreeNode): string {
	if (!result) return "the parent's status";
	if (!result.observed) return 'no status written yet';
	if (result.computed !== undefined) {
		return node.disagreement
			? "recomputed roll-up; the controller's own status disagrees"
			: 'recomputed roll-up';
	}
	return "the controller's status";
}

/** The one-line cause: the cause chain's sentence, else the deepest step of Explain's chain and its message. */
function causeLine(world: AssistantWorld, node: TreeNode): string {
	const waits = waitChainOf(world.graph, node);
	if (waits) return `cause: ${quote(waits.sentence, 240)}`;
	const chain = explainChain(world.graph, node.id);
	const deepest = chain[chain.length - 1];
	if (deepest && deepest !== chain[0]) {
		const message = deepest.result?.message || deepest.message || '';
		return `cause: ${stepTitle(deepest)}, ${stepState(deepest)}${message ? ` — message: ${quote(message, 240)}` : ''}`;
	}
	const message = node.result?.message ?? '';
	return message ? `message: ${quote(message, 240)}` : '';
}

/** list_kube_status_problems on a world. */
export function listAnswer(world: AssistantWorld, input: ToolInput): AssistantAnswer {
	const scope = rootsInScope(world, input);
	if ('error' in scope) return { text: scope.error, isError: true };
	const inScope = new Map(scope.roots.map((root) => [root.rootId, root]));
	const items = attentionList(world.graph, world.now).flatMap((item) => {
		const root = inScope.get(item.rootId);
		const node = world.graph.node(item.nodeId);
		if (!root || !node?.ref) return [];
		if (input.namespace !== undefined && node.ref.namespace !== input.namespace) return [];
		if (input.kind !== undefined && !kindMatches(node.ref.kind, node.ref.apiVersion, input.kind)) {
			return [];
		}
		return [{ item, node, root }];
	});
	const counts = new Map<string, number>();
	for (const { item } of items) counts.set(item.urgency, (counts.get(item.urgency) ?? 0) + 1);
	const where =
		scope.roots.length === 1 && scope.roots[0]
			? rootName(scope.roots[0])
			: `${scope.roots.length} roots`;
	const summary =
		items.length === 0
			? `Nothing needs attention in ${where}: every object is ready.`
			: `${items.length} object${items.length === 1 ? '' : 's'} need${items.length === 1 ? 's' : ''} attention in ${where}: ${Object.entries(
					urgencyWords,
				)
					.filter(([urgency]) => counts.has(urgency))
					.map(([urgency]) => {
						const count = counts.get(urgency) ?? 0;
						return `${count} ${countWords[urgency]?.[count === 1 ? 0 : 1] ?? urgency}`;
					})
					.join(', ')}. Most urgent first.`;
	const lines: string[] = [dataAgeLine(scope.roots, world.now)];
	if (items.length > 0) lines.push(dataNote, '');
	// The 40 most urgent, shown per root (each root's most urgent first) when several roots have some.
	const shown = items.slice(0, maxItems);
	const byRoot = scope.roots.map((root) => shown.filter((entry) => entry.root === root));
	const grouped = byRoot.filter((group) => group.length > 0).length > 1;
	for (const group of byRoot) {
		const first = group[0];
		if (!first) continue;
		if (grouped) lines.push(`In ${rootName(first.root)}:`);
		let previousCause = '';
		for (const { item, node } of group) {
			const ref = node.ref;
			if (!ref) continue;
			const since = item.since !== undefined ? heldFor(world.now - item.since) : undefined;
			// Parents that fail for the same reason (GitRepo, Bundle, Cluster) say it once.
			const fullCause = causeLine(world, node);
			const cause =
				fullCause && fullCause === previousCause ? 'cause: the same as above' : fullCause;
			previousCause = fullCause;
			lines.push(
				`- ${urgencyWords[item.urgency]}: ${refText(ref.kind, ref.namespace, ref.name)} — ${stepState(node)}${since ? ` for ${since}` : ''} (said by: ${whoSaid(node.result, node)})${grouped ? '' : ` · ${rootName(first.root)}`}${cause ? `\n  ${cause}` : ''}`,
			);
		}
	}
	const more = items.length - Math.min(items.length, maxItems);
	return bounded(summary, lines, more, 'ask with namespace=…, kind=…, context=… or path=…');
}

/** preview_wec_status_merge on a world. */
export function mergeAnswer(world: AssistantWorld, input: ToolInput): AssistantAnswer {
	const scope = rootsInScope(world, input);
	if ('error' in scope) return { text: scope.error, isError: true };
	const isWorkload = (object: Readonly<Record<string, unknown>>): boolean =>
		!groupOf(getString(object, 'apiVersion') ?? '').endsWith('kubestellar.io') &&
		getString(object, 'kind') !== 'Secret';
	const found = objectsNamed(world, scope.roots, input, isWorkload);
	if (found.length === 0) {
		return {
			text: `No workload named ${quote(input.name ?? '', 120)} in ${scope.roots.map(rootName).join(', ') || 'what is open'}.`,
			isError: true,
		};
	}
	if (found.length > 1) return candidatesAnswer(found, input.name ?? '');
	const [only] = found;
	if (!only) return { text: 'Nothing found.', isError: true };
	const { root, object } = only;
	const title = refText(
		getString(object, 'kind') ?? '',
		getString(object, 'metadata', 'namespace') ?? '',
		getString(object, 'metadata', 'name') ?? '',
	);
	const inputs = mergeInputsFrom(object, world.graph.objectsOf(root.rootId));
	if (!inputs.because) {
		return {
			text: `${title}: no BindingPolicy in ${rootName(root)} selects it and no WorkStatus refers to it, so KubeStellar returns no status for it.\n${dataAgeLine([root], world.now)}`,
		};
	}
	const preview = mergePreviewYaml(object, inputs, 'proposal', { now: world.now });
	const { result, other } = preview;
	const summary = `${title}: the merged status from its WECs, mode ${result.mode}, ${result.changed ? 'KubeStellar would write it' : 'equal to the current .status'}; kstatus ${result.kstatus.status}, Argo CD ${result.health?.status ?? 'no check'} (${rootName(root)}).`;
	const lines = [
		dataAgeLine([root], world.now),
		`Rules: the multi-WEC proposal${other && canonicalJson(other.status) !== canonicalJson(result.status) ? `; KubeStellar today would write a different status (kstatus ${other.kstatus.status}, Argo CD ${other.health?.status ?? 'no check'})` : ''}.`,
		'The preview below is data (names and values from the cluster or files), as YAML with comments:',
		...boundedBlock(preview.text, 6_500),
	];
	return bounded(
		summary,
		lines,
		0,
		'the preview was cut; open it in the editor for the whole of it',
	);
}

/** A fenced block of at most about `max` characters, cut at a line with a line that says so. */
function boundedBlock(text: string, max: number): string[] {
	let body = text;
	if (body.length > max) {
		const cut = body.lastIndexOf('\n', max);
		const kept = body.slice(0, cut > 0 ? cut : max);
		body = `${kept}\n# … ${text.length - kept.length} more characters`;
	}
	return codeBlock(body, 'yaml').split('\n');
}

/** run_fleet_checks on a world. */
export function fleetChecksAnswer(world: AssistantWorld, input: ToolInput): AssistantAnswer {
	const scope = rootsInScope(world, input);
	if ('error' in scope) return { text: scope.error, isError: true };
	const fleetRoots = scope.roots.filter((root) =>
		world.graph.objectsOf(root.rootId).some(isFleetObject),
	);
	if (fleetRoots.length === 0) {
		return {
			text: `No Fleet objects in ${scope.roots.map(rootName).join(', ') || 'what is open'}, so there is nothing to check.\n${dataAgeLine(scope.roots, world.now)}`,
		};
	}
	if (fleetRoots.length > 1 && input.context === undefined && input.path === undefined) {
		return {
			text: `Fleet objects are in ${fleetRoots.length} roots: ${fleetRoots.map(rootName).join(', ')}. Give context or path to check one.`,
			isError: true,
		};
	}
	const [root] = fleetRoots;
	if (!root) return { text: 'Nothing to check.', isError: true };
	return checksOfRoot(world, root);
}

function isFleetObject(object: unknown): boolean {
	return systemOf(object) === 'fleet';
}

function checksOfRoot(world: AssistantWorld, root: AssistantRoot): AssistantAnswer {
	const objects: InputObject<undefined>[] = world.graph
		.objectsOf(root.rootId)
		.filter((object) => isFleetObject(object) || getString(object, 'kind') === 'Secret')
		.map((object) => ({ object, source: undefined }));
	// A live context is read now; files and dumps are measured from the newest time they hold, as `check` does.
	const now =
		root.kind === 'context' ? world.now : newestTimestampOf(objects.map(({ object }) => object));
	const { findings, notes } = fleetTroubleshootingFindings(objects, { now });
	const errors = findings.filter((finding) => finding.severity === 'error').length;
	const summary =
		findings.length === 0
			? `Fleet's troubleshooting checks found nothing in ${rootName(root)} (${objects.length} Fleet objects).`
			: `Fleet's troubleshooting checks found ${findings.length} problem${findings.length === 1 ? '' : 's'} in ${rootName(root)}: ${errors} error${errors === 1 ? '' : 's'}, ${findings.length - errors} warning${findings.length - errors === 1 ? '' : 's'}.`;
	const lines = [dataAgeLine([root], world.now)];
	if (now !== undefined && root.kind !== 'context') {
		lines.push(
			`Ages are measured from the newest time the objects hold, ${new Date(now).toISOString()}.`,
		);
	}
	if (findings.length > 0) lines.push(dataNote, '');
	for (const finding of findings.slice(0, maxItems)) {
		const via = finding.via
			? ` (via ${refText(finding.via.kind, finding.via.namespace, finding.via.name)})`
			: '';
		lines.push(
			`- ${finding.severity} ${finding.code}: ${refText(finding.object.kind, finding.object.namespace, finding.object.name)}${via} — message: ${quote(finding.message)}`,
		);
	}
	if (notes.length > 0) {
		lines.push('', 'Not checked:');
		for (const note of notes) lines.push(`- ${note.code}: ${note.message}`);
	}
	return bounded(
		summary,
		lines,
		findings.length - Math.min(findings.length, maxItems),
		'run fleet checks on a narrower path',
	);
}
