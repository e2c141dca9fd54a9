// Hovers for manifests: what a condition, a Flux HelmRepository spec field, a Fleet state or message, or a KubeStellar
// flag means where the reader sees it, and the engine's badge on `kind:` and `metadata.name`. Short by design: a
// heading line, two to five short lines, at most one small table. Every string taken from the file goes through
// src/core/text/markdown.ts; the adapter shows the result untrusted, without HTML.
import { analyzeManifest, type AnalyzedObject, type ManifestAnalysis } from './analysis.ts';
import { nodeAtOffset, offsetAt, type NodeAtPosition, type PathSegment } from './yamlTree.ts';
import { explain, type Explanation, type ExplanationSystem } from '../catalog/explanations.ts';
import { stateLabel } from '../explain/tooltip.ts';
import {
	getArray,
	getRecord,
	getString,
	isRecord,
	refOf,
	type ObjectRef,
} from '../model/object.ts';
import type { Position, Range } from '../model/range.ts';
import { fleetStates, isFleetState } from '../status/fleetSummary.ts';
import { harborDependencyConditions } from '../status/harbor.ts';
import type { StatusResult } from '../status/result.ts';
import { hoverTextLimit } from '../text/limits.ts';
import { escapeMarkdown, escapeTableCell, inlineCode, truncate } from '../text/markdown.ts';

/** What the editor knows beyond the text. */
export interface HoverContext {
	/** The engine's verdict on the live object with this identity, when connected and it exists live. */
	readonly liveStatus?: (ref: ObjectRef) => StatusResult | undefined;
	/** The caller's clock (kstatus' Pod grace), in ms since epoch. */
	readonly now?: number;
}

/** A hover: the range it is about and its Markdown. */
export interface Hover {
	readonly range: Range;
	readonly markdown: string;
}

const systemNames: Readonly<Record<string, string>> = {
	fleet: 'Fleet',
	kubestellar: 'KubeStellar',
	harbor: 'Harbor',
	flux: 'Flux',
	aso: 'ASO',
	kubernetes: 'Kubernetes',
};

/** An untrusted word shown in prose: escaped, shortened. */
function text(value: string, max = 160): string {
	return escapeMarkdown(truncate(value, max));
}

function sentence(explanation: Explanation | undefined): string[] {
	if (!explanation) return [];
	const lines = [escapeMarkdown(explanation.meaning)];
	if (explanation.action) lines.push(`*What to do:* ${escapeMarkdown(explanation.action)}`);
	return lines;
}

function kindOf(entry: AnalyzedObject): string {
	return getString(entry.object, 'kind') ?? '';
}

function heading(title: string, subtitle: string): string {
	return `**${title}** · ${subtitle}`;
}

// ---------------------------------------------------------------------------------------------------------------
// The badge on kind: and metadata.name

function badgeHover(
	analysis: ManifestAnalysis,
	entry: AnalyzedObject,
	context: HoverContext,
): string {
	const ref = refOf(entry.object);
	const result = analysis.statuses(context.now)[entry.index];
	const name = ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
	const lines = [
		heading(
			text(ref.kind || 'Object', 80),
			`${systemNames[entry.system] ?? 'Kubernetes'} ${text(name, 120)}`,
		),
	];
	if (result) {
		lines.push(
			`**${escapeMarkdown(stateLabel(result))}**${result.message ? ` — ${text(result.message, hoverTextLimit)}` : ''}`,
		);
		const meaning = explain(entry.system, 'state', result.state, ref.kind);
		if (meaning && result.observed) lines.push(escapeMarkdown(truncate(meaning.meaning, 240)));
		const health = result.health
			? ` · Argo CD: ${text(result.health.status, 20)}${result.health.message ? ` — ${text(result.health.message, 80)}` : ''}`
			: '';
		lines.push(
			`kstatus: ${text(result.kstatus.status, 20)}${result.kstatus.message ? ` — ${text(result.kstatus.message, 80)}` : ''}${health}`,
		);
	}
	const live = context.liveStatus?.(ref);
	if (live) {
		lines.push(
			`**Live:** ${escapeMarkdown(stateLabel(live))}${live.message ? ` — ${text(live.message, hoverTextLimit)}` : ''}`,
		);
	}
	return lines.join('\n\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Conditions

/** Where a condition list's meanings come from: the object's system, or for a WorkStatus the workload's kstatus rules. */
function conditionSystem(entry: AnalyzedObject): { system: ExplanationSystem; kind: string } {
	if (entry.system === 'kubestellar' && kindOf(entry) === 'WorkStatus') {
		return { system: 'kstatus', kind: getString(entry.object, 'spec', 'sourceRef', 'kind') ?? '' };
	}
	return { system: entry.system === 'kubernetes' ? 'kstatus' : entry.system, kind: kindOf(entry) };
}

function conditionHover(
	entry: AnalyzedObject,
	index: number,
	field: PathSegment | undefined,
): string | undefined {
	const condition = getArray(entry.object, 'status', 'conditions')?.[index];
	if (!isRecord(condition) || typeof condition.type !== 'string') return undefined;
	const type = condition.type;
	const status = typeof condition.status === 'string' ? condition.status : '';
	const reason = typeof condition.reason === 'string' ? condition.reason : '';
	const severity = typeof condition.severity === 'string' ? condition.severity : '';
	const { system, kind } = conditionSystem(entry);
	const row = explain(system, 'condition', type, kind) ?? explain('kstatus', 'condition', type);
	const polarity = row?.polarity ?? 'positive';
	const lines = [
		heading(
			text(type, 60),
			`condition of ${escapeMarkdown(`${systemNames[entry.system] ?? ''} ${kind}`.trim())}`,
		),
	];

	if (entry.system === 'fleet' && type === 'Ready' && field === 'message') {
		if (typeof condition.message === 'string') {
			return fleetReadyMessageHover(condition.message, kind);
		}
	}
	if (row) lines.push(escapeMarkdown(row.meaning));
	else lines.push(`No catalog entry for ${inlineCode(truncate(type, 60))} on this kind.`);
	const polarityLine =
		polarity === 'negative'
			? entry.system === 'flux'
				? 'Negative polarity: abnormal while True, and Flux writes it only while it is True.'
				: 'Negative polarity: True means something is wrong.'
			: 'Positive polarity: True is the healthy state.';
	lines.push(polarityLine);
	if (entry.system === 'harbor' && kindOf(entry) === 'HarborCluster') {
		if ((harborDependencyConditions as readonly string[]).includes(type)) {
			lines.push(
				'One of the four conditions that decide status.status: healthy only when all four are True, unhealthy when one is False.',
			);
		} else if (type === 'ConfigurationReady') {
			lines.push(
				'Not one of the four that count (StorageReady, DatabaseReady, CacheReady, ServiceReady): a failed configuration leaves the cluster healthy.',
			);
		}
	}
	const healthy = polarity === 'positive' ? status === 'True' : status === 'False';
	const nowWord = status === '' ? 'no status' : status;
	const reasonRow = reason ? explain(system, 'reason', reason, kind) : undefined;
	let now = `Now: **${text(nowWord, 20)}**`;
	if (reason) now += ` (${inlineCode(truncate(reason, 60))})`;
	now += healthy
		? ' — healthy.'
		: status === 'Unknown'
			? ' — not decided yet.'
			: status
				? ' — needs attention.'
				: '.';
	if (reasonRow && (field === 'reason' || !healthy)) now += ` ${escapeMarkdown(reasonRow.meaning)}`;
	lines.push(now);
	if (severity || entry.system === 'aso') {
		const severityRow = explain('aso', 'severity', severity);
		if (severityRow) {
			lines.push(
				`Severity ${inlineCode(severity || 'none')}: ${escapeMarkdown(severityRow.meaning)}`,
			);
		}
	}
	const action = !healthy ? reasonRow?.action || row?.action : '';
	if (action) lines.push(`*What to do:* ${escapeMarkdown(action)}`);
	return lines.join('\n\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Fleet

const fleetStateWords = new Set<string>([
	...fleetStates,
	'WaitCheckIn',
	'GitUpdating',
	'Orphaned',
	'Missing',
]);

interface ReadyPart {
	readonly state: string;
	readonly count: string;
	readonly kind: string;
	readonly name: string;
	readonly message: string;
}

const statePart =
	/^(NotReady|Pending|OutOfSync|Modified|WaitApplied|WaitingForDependency|ErrApplied|Ready)\((\d+)\) \[(\S+) ([^\]:]*?)(?:: ([\s\S]*))?\]$/;
const partStart =
	/; (?=(?:NotReady|Pending|OutOfSync|Modified|WaitApplied|WaitingForDependency|ErrApplied|Ready)\(\d+\) \[|[a-z][a-z0-9]*\.[a-z0-9.-]+ \S)/g;

/** The parts of a Fleet Ready message (summary.go ReadyMessage): state parts and resource detail lines. */
export function fleetReadyMessageParts(message: string): {
	states: ReadyPart[];
	details: string[];
} {
	const states: ReadyPart[] = [];
	const details: string[] = [];
	const pieces: string[] = [];
	let last = 0;
	for (const match of message.matchAll(partStart)) {
		pieces.push(message.slice(last, match.index));
		last = match.index + 2;
	}
	pieces.push(message.slice(last));
	for (const piece of pieces) {
		const match = statePart.exec(piece);
		if (match) {
			states.push({
				state: match[1] ?? '',
				count: match[2] ?? '',
				kind: match[3] ?? '',
				name: match[4] ?? '',
				message: match[5] ?? '',
			});
		} else if (piece.trim() !== '') details.push(piece);
	}
	return { states, details };
}

function fleetReadyMessageHover(message: string, kind: string): string {
	const { states, details } = fleetReadyMessageParts(message);
	const lines = [heading('Ready message', `Fleet ${escapeMarkdown(kind)}`)];
	if (states.length === 0) {
		lines.push(
			`Not in Fleet's ${inlineCode('State(n) [Kind name: message]')} form: ${text(message, 200)}`,
		);
		return lines.join('\n\n');
	}
	lines.push(
		'Per non-Ready state: how many, and the first one in that state (Fleet names only the first).',
	);
	const rows = states.slice(0, 6).map((part) => {
		const meaning = explain('fleet', 'state', part.state, kind)?.meaning ?? '';
		return `| ${escapeTableCell(part.state, 20)} (${escapeTableCell(part.count, 6)}) | ${escapeTableCell(`${part.kind} ${part.name}`, 60)} | ${escapeTableCell(part.message || '—', 90)} | ${escapeTableCell(meaning, 90)} |`;
	});
	lines.push(
		['| State | First | Its message | Means |', '| --- | --- | --- | --- |', ...rows].join('\n'),
	);
	if (details.length > 0) {
		lines.push(
			`Details: ${details
				.slice(0, 3)
				.map((detail) => inlineCode(truncate(detail, 80)))
				.join(', ')}${details.length > 3 ? ` (+${details.length - 3} more)` : ''}`,
		);
	}
	return lines.join('\n\n');
}

/** Summary counters and perClusterState keys name states in camelCase. */
function stateOfCounterKey(name: string): string | undefined {
	const word = name.charAt(0).toUpperCase() + name.slice(1);
	return fleetStateWords.has(word) ? word : undefined;
}

function fleetHover(
	entry: AnalyzedObject,
	at: NodeAtPosition,
	valueAt: unknown,
): string | undefined {
	const kind = kindOf(entry);
	const { path } = at;
	const last = path[path.length - 1];
	const countsIndex = path.findIndex(
		(step) => step === 'resourceCounts' || step === 'perClusterResourceCounts',
	);
	if (countsIndex >= 0) {
		// Per-cluster counts are keyed by cluster id first.
		const depth =
			path[countsIndex] === 'perClusterResourceCounts' ? countsIndex + 2 : countsIndex + 1;
		const counts = valueAtPath(entry.object, path.slice(0, depth));
		const lines = [heading('resourceCounts', `Fleet ${escapeMarkdown(kind)}`)];
		lines.push(
			'Resources of the deployed bundles by state, summed over the BundleDeployments below this object.',
		);
		if (typeof last === 'string' && path.length > depth) {
			const row = explain('fleet', 'field', last, kind);
			if (row) lines.push(`${inlineCode(last)}: ${escapeMarkdown(row.meaning)}`);
		}
		if (isRecord(counts)) {
			const entries = Object.entries(counts)
				.filter(([, count]) => typeof count === 'number')
				.slice(0, 9);
			if (entries.length > 0) {
				lines.push(
					[
						`| ${entries.map(([name]) => escapeTableCell(name, 20)).join(' | ')} |`,
						`| ${entries.map(() => '---').join(' | ')} |`,
						`| ${entries.map(([, count]) => escapeTableCell(String(count), 10)).join(' | ')} |`,
					].join('\n'),
				);
			}
		}
		return lines.join('\n\n');
	}
	if (last === 'readyBundleDeployments' || last === 'readyClusters' || last === 'readyBundles') {
		const raw = valueAtPath(entry.object, path);
		const ratio = typeof raw === 'string' ? /^(\d+)\/(\d+)/.exec(raw) : null;
		const unit =
			last === 'readyBundleDeployments'
				? 'bundle deployments'
				: last === 'readyClusters'
					? 'clusters'
					: 'bundles';
		const lines = [heading(last, `Fleet ${escapeMarkdown(kind)}`)];
		lines.push(`"ready/desired" ${unit}: how many are Ready out of how many should be.`);
		if (ratio) {
			const missing = Number(ratio[2]) - Number(ratio[1]);
			lines.push(
				missing > 0
					? `Now: ${missing} of ${ratio[2]} not Ready; the Ready message names the first per state.`
					: `Now: all ${ratio[2]} Ready.`,
			);
		}
		return lines.join('\n\n');
	}
	const stateWord =
		at.part === 'value' && typeof valueAt === 'string' && fleetStateWords.has(valueAt)
			? valueAt
			: typeof last === 'string' && (path.includes('summary') || path.includes('perClusterState'))
				? stateOfCounterKey(last)
				: undefined;
	if (stateWord) {
		const row = explain('fleet', 'state', stateWord, kind);
		const lines = [
			heading(stateWord, `Fleet state${kind ? ` as a ${escapeMarkdown(kind)} shows it` : ''}`),
		];
		lines.push(...sentence(row));
		if (isFleetState(stateWord)) {
			lines.push(
				`Rank ${fleetStates.indexOf(stateWord) + 1} of ${fleetStates.length} (Ready best, ErrApplied worst): a parent shows its worst.`,
			);
		}
		if (at.part === 'key' && typeof valueAt === 'number') lines.push(`Count here: ${valueAt}.`);
		return lines.join('\n\n');
	}
	const field =
		typeof last === 'string'
			? explain('fleet', 'field', last === 'lastSeen' ? 'agent.lastSeen' : last, kind)
			: undefined;
	if (field && at.part === 'key') {
		return [
			heading(text(last as string, 40), `Fleet ${escapeMarkdown(kind)}`),
			...sentence(field),
		].join('\n\n');
	}
	return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Flux HelmRepository spec fields (fluxcd/source-controller docs/spec/v1/helmrepositories.md, "Writing a
// HelmRepository spec")

interface FluxField {
	readonly what: string;
	readonly defaultValue: string;
	/** Which repository types the field applies to. */
	readonly appliesTo: 'both' | 'default' | 'oci';
}

const fluxFields: Readonly<Record<string, FluxField>> = {
	type: {
		what: 'The repository type: default (HTTP/S repository with an index artifact) or oci (a data container for HelmCharts).',
		defaultValue: 'default',
		appliesTo: 'both',
	},
	provider: {
		what: 'The OIDC provider for registry authentication: generic, aws, azure or gcp.',
		defaultValue: 'generic',
		appliesTo: 'oci',
	},
	interval: {
		what: 'How often the index is fetched, as a Go duration (e.g. 10m0s); a spec change is handled at once.',
		defaultValue: '1m',
		appliesTo: 'default',
	},
	timeout: {
		what: 'Timeout of the index fetch, as a Go duration (e.g. 1m30s).',
		defaultValue: '1m',
		appliesTo: 'default',
	},
	url: {
		what: 'Required: the http(s):// address of the repository, or oci://registry/repository for type oci.',
		defaultValue: 'none (required)',
		appliesTo: 'both',
	},
	secretRef: {
		what: 'A Secret in the same namespace with credentials: username and password (basic auth), or a dockerconfigjson for OCI. TLS data here is deprecated.',
		defaultValue: 'none',
		appliesTo: 'both',
	},
	certSecretRef: {
		what: 'A Secret with TLS data: tls.crt and tls.key together (client certificate), ca.crt (the CA for a self-signed server).',
		defaultValue: 'none',
		appliesTo: 'both',
	},
	passCredentials: {
		what: 'Send the secretRef credentials also to hosts other than the URL’s (chart URLs in the index). Risky: a man-in-the-middle can take them.',
		defaultValue: 'false',
		appliesTo: 'default',
	},
	insecure: {
		what: 'Allow plain HTTP (no TLS) to the container registry.',
		defaultValue: 'false',
		appliesTo: 'oci',
	},
	suspend: {
		what: 'Stop reconciling: no new artifact until it is false or removed.',
		defaultValue: 'false',
		appliesTo: 'default',
	},
};

const certKeys: Readonly<Record<string, string>> = {
	'tls.crt': 'client certificate (needs tls.key)',
	'tls.key': 'client private key (needs tls.crt)',
	'ca.crt': 'CA certificate to verify the server',
};

function fluxSpecHover(entry: AnalyzedObject, path: readonly PathSegment[]): string | undefined {
	const name = path[1];
	if (typeof name !== 'string' || !Object.hasOwn(fluxFields, name)) return undefined;
	const field = fluxFields[name];
	if (!field) return undefined;
	const type = getString(entry.object, 'spec', 'type') ?? 'default';
	const oci = type === 'oci';
	const applies = field.appliesTo === 'both' || (field.appliesTo === 'oci') === oci;
	const lines = [heading(`spec.${name}`, 'Flux HelmRepository'), escapeMarkdown(field.what)];
	lines.push(`Default: ${inlineCode(field.defaultValue)}.`);
	lines.push(
		applies
			? `Applies to this repository (type ${inlineCode(truncate(type, 20))}).`
			: `**Does not apply** to this repository (type ${inlineCode(truncate(type, 20))}): ${field.appliesTo === 'oci' ? 'only to type oci' : name === 'interval' ? 'ignored for type oci' : 'only to HTTP/S repositories'}.`,
	);
	if (name === 'certSecretRef') {
		lines.push(
			`Keys: ${Object.entries(certKeys)
				.map(([key, what]) => `${inlineCode(key)} ${what}`)
				.join('; ')}.`,
		);
	}
	return lines.join('\n\n');
}

// ---------------------------------------------------------------------------------------------------------------
// KubeStellar

const flags = ['wantSingletonReportedState', 'wantMultiWECReportedState'];

function clauseCriteria(clause: Record<string, unknown>): string {
	const parts: string[] = [];
	if (typeof clause.apiGroup === 'string') {
		parts.push(`apiGroup ${inlineCode(truncate(clause.apiGroup || '(core)', 40))}`);
	}
	for (const name of ['resources', 'namespaces', 'objectNames'] as const) {
		const list = clause[name];
		if (Array.isArray(list) && list.length > 0) {
			parts.push(
				`${name} ${list
					.slice(0, 3)
					.map((item) => inlineCode(truncate(String(item), 40)))
					.join(', ')}${list.length > 3 ? ' …' : ''}`,
			);
		}
	}
	for (const name of ['namespaceSelectors', 'objectSelectors'] as const) {
		const list = clause[name];
		if (Array.isArray(list) && list.length > 0) parts.push(`${list.length} ${name}`);
	}
	return parts.length > 0
		? parts.join('; ')
		: 'none (a clause needs at least one that discriminates)';
}

function kubestellarHover(entry: AnalyzedObject, at: NodeAtPosition): string | undefined {
	const kind = kindOf(entry);
	const { path } = at;
	const last = path[path.length - 1];
	if (
		kind === 'WorkStatus' &&
		((path[0] === 'spec' && path[1] === 'sourceRef') ||
			(path[0] === 'metadata' && path[1] === 'namespace'))
	) {
		const source = getRecord(entry.object, 'spec', 'sourceRef') ?? {};
		const str = (value: unknown): string => (typeof value === 'string' ? value : '');
		const group = str(source.group);
		const target = `${str(source.kind) || '?'} ${str(source.namespace) ? `${str(source.namespace)}/` : ''}${str(source.name) || '?'}`;
		const wec = getString(entry.object, 'metadata', 'namespace') ?? '?';
		const lines = [heading('WorkStatus', 'KubeStellar')];
		lines.push(...sentence(explain('kubestellar', 'field', 'WorkStatus')).slice(0, 1));
		lines.push(
			`Source object (in the WDS): ${inlineCode(truncate(target, 120))}${group || str(source.version) ? ` of ${inlineCode(truncate(`${group ? `${group}/` : ''}${str(source.version)}`, 60))}` : ''}.`,
		);
		lines.push(
			`WEC: ${inlineCode(truncate(wec, 80))} (the namespace of this WorkStatus in the ITS).`,
		);
		return lines.join('\n\n');
	}
	if (kind !== 'BindingPolicy' && kind !== 'Binding') return undefined;
	const flagIndex = path.findIndex((step) => typeof step === 'string' && flags.includes(step));
	if (flagIndex >= 0) {
		const flag = String(path[flagIndex]);
		const inClause =
			flagIndex === 3 &&
			path[0] === 'spec' &&
			path[1] === 'downsync' &&
			typeof path[2] === 'number';
		const lines = [heading(flag, 'KubeStellar downsync flag')];
		lines.push(...sentence(explain('kubestellar', 'field', flag)).slice(0, 1));
		lines.push(
			inClause
				? `Placement: inside downsync clause ${String(path[2])}, where it belongs.`
				: '**Misplaced:** it belongs directly inside each spec.downsync clause; here KubeStellar ignores it.',
		);
		lines.push(
			flag === 'wantMultiWECReportedState'
				? 'One WEC: the singleton fallback copies its status verbatim. Several WECs: merged for Deployment, ReplicaSet, DaemonSet only.'
				: 'Exactly one WEC: its status is copied. Several (or none): the status is cleared and status.errors says so; use wantMultiWECReportedState.',
		);
		return lines.join('\n\n');
	}
	if (path[0] === 'spec' && path[1] === 'clusterSelectors') {
		const selectors = getArray(entry.object, 'spec', 'clusterSelectors') ?? [];
		const lines = [heading('clusterSelectors', 'KubeStellar BindingPolicy')];
		lines.push(...sentence(explain('kubestellar', 'field', 'clusterSelectors', 'BindingPolicy')));
		lines.push(
			selectors.length === 0
				? '**None:** this policy selects no WEC.'
				: `${selectors.length} selector${selectors.length === 1 ? '' : 's'}, ORed; an empty selector matches every cluster.`,
		);
		return lines.join('\n\n');
	}
	if (path[0] === 'spec' && path[1] === 'downsync') {
		const lines = [
			heading(
				typeof path[2] === 'number' ? `downsync clause ${path[2]}` : 'downsync',
				'KubeStellar BindingPolicy',
			),
		];
		lines.push(
			...sentence(explain('kubestellar', 'field', 'downsync', 'BindingPolicy')).slice(0, 1),
		);
		const clause =
			typeof path[2] === 'number'
				? getArray(entry.object, 'spec', 'downsync')?.[path[2]]
				: undefined;
		if (isRecord(clause)) {
			lines.push(`Criteria (all must match): ${clauseCriteria(clause)}.`);
			const set = flags.filter((flag) => clause[flag] === true);
			lines.push(
				set.length > 0
					? `Status return: ${set.map((flag) => inlineCode(flag)).join(', ')}.`
					: 'No status return requested (no wantSingletonReportedState / wantMultiWECReportedState).',
			);
		} else if (typeof last === 'string' && last === 'downsync') {
			const count = getArray(entry.object, 'spec', 'downsync')?.length ?? 0;
			lines.push(
				`${count} clause${count === 1 ? '' : 's'}; an object is selected when any clause matches.`,
			);
		}
		return lines.join('\n\n');
	}
	return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Dispatch

/** The object whose lines hold `line`: the last one starting at or before it. */
function objectAtLine(analysis: ManifestAnalysis, line: number): AnalyzedObject | undefined {
	let found: AnalyzedObject | undefined;
	for (const entry of analysis.objects) {
		const { start, end } = entry.parsed.range;
		if (start.line > line) break;
		if (end.line >= line) found = entry;
	}
	return found;
}

function hoverMarkdown(
	analysis: ManifestAnalysis,
	entry: AnalyzedObject,
	at: NodeAtPosition,
	context: HoverContext,
): string | undefined {
	const { path } = at;
	if (
		(path.length === 1 && path[0] === 'kind') ||
		(path.length === 2 && path[0] === 'metadata' && path[1] === 'name')
	) {
		return badgeHover(analysis, entry, context);
	}
	if (path[0] === 'status' && path[1] === 'conditions' && typeof path[2] === 'number') {
		const hover = conditionHover(entry, path[2], path[3]);
		if (hover) return hover;
	}
	const valueAt = valueAtPath(entry.object, path);
	switch (entry.system) {
		case 'flux':
			return kindOf(entry) === 'HelmRepository' && path[0] === 'spec'
				? fluxSpecHover(entry, path)
				: undefined;
		case 'fleet':
			return fleetHover(entry, at, valueAt);
		case 'kubestellar':
			return kubestellarHover(entry, at);
		case 'harbor': {
			if (
				kindOf(entry) === 'HarborCluster' &&
				path.length === 2 &&
				path[0] === 'status' &&
				path[1] === 'status'
			) {
				const word = getString(entry.object, 'status', 'status') ?? '';
				const row = explain('harbor', 'state', word, 'HarborCluster');
				return [
					heading(text(word || 'status', 40), 'HarborCluster overall status'),
					...sentence(row ?? explain('harbor', 'field', 'status', 'HarborCluster')),
				].join('\n\n');
			}
			return undefined;
		}
		default:
			return undefined;
	}
}

/** The value at a path that may hold indexes. */
function valueAtPath(object: unknown, path: readonly PathSegment[]): unknown {
	let current: unknown = object;
	for (const step of path) {
		if (typeof step === 'number') current = Array.isArray(current) ? current[step] : undefined;
		else current = isRecord(current) ? current[step] : undefined;
	}
	return current;
}

/**
 * The hover at a position of a manifest text: on a condition, a Flux HelmRepository spec field, a Fleet state, message
 * or count, a KubeStellar flag, selector or clause, or the object's `kind:`/`metadata.name` (the engine's badge).
 * Undefined elsewhere and on documents the extension does not recognise. Never throws.
 */
export function hoverAt(
	text: string,
	position: Position,
	context: HoverContext = {},
): Hover | undefined {
	try {
		const analysis = analyzeManifest(text);
		const entry = objectAtLine(analysis, position.line);
		if (!entry || !entry.recognised) return undefined;
		const tree = analysis.treeOf(entry);
		if (!tree) return undefined;
		const at = nodeAtOffset(tree, offsetAt(analysis.lineStarts, position));
		if (!at) return undefined;
		const markdown = hoverMarkdown(analysis, entry, at, context);
		return markdown ? { range: analysis.range(at.start, at.end), markdown } : undefined;
	} catch {
		return undefined;
	}
}
