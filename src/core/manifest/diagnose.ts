// Diagnostics for manifests: the mistakes a schema cannot see (issue 6), as data. Rules, each with its source:
// - Flux HelmRepository spec misuse (Flux HelmRepository spec, fluxcd/source-controller docs/spec/v1/
//   helmrepositories.md, "Writing a HelmRepository spec": Type, Provider, Insecure, Interval, URL, Timeout, Secret
//   reference, Cert secret reference, Pass credentials, Suspend).
// - KubeStellar BindingPolicy: the reported-state flags belong in downsync clauses (KubeStellar multi-WEC status
//   proposal, kubestellar#2809, §1 "Extend BindingPolicy CRD"), a policy needs clusterSelectors, a clause needs a
//   criterion that discriminates (kubestellar/kubestellar api/control/v1alpha1/types.go, DownsyncObjectTest: "At least
//   one of the fields must make some discrimination").
// - Condition hygiene for ASO, Flux and standard Kubernetes conditions, not Fleet's (Azure Service Operator status
//   proposal "Proposal for reporting resource Status", "More on conditions": reason required and CamelCase,
//   lastTransitionTime, severity omitted on a healthy True; Azure/azure-service-operator v2/pkg/genruntime/conditions:
//   observedGeneration older than metadata.generation is stale).
// - Status problems in dumps, judged by the engine (src/core/status) and put on the condition or field that says so.
//
// Performance (goal: a 1 MiB, 2,000-document file in <= 100 ms): plain block-style documents are read once, by the
// line-based tree reader (yamlTree.ts), values and ranges together; others take the js-yaml fast path, with trees
// built only for the objects that need one; the `yaml` package (about 1 s for 1 MiB) runs only on single objects the
// line reader cannot read, and on whole texts the fast path refuses (syntax errors, templates, anchors). See
// analysis.ts and bench/diagnostics.ts.
import { analyzeManifest, type AnalyzedObject, type ManifestAnalysis } from './analysis.ts';
import { moveEntryFix, removeEntryFix, renameKeyFix, setScalarFix, type Fix } from './fixes.ts';
import type { Located, ObjectPath, TreeNode } from './yamlTree.ts';
import { explain } from '../catalog/explanations.ts';
import { fleetCheckCodes, fleetCheckRules } from '../checks/fleetCodes.ts';
import { targetingCodes, targetingRules } from '../targeting/targetingCodes.ts';
import { getArray, getPath, getRecord, getString, groupOf, isRecord } from '../model/object.ts';
import { getInt64, int64Field } from '../model/int64.ts';
import type { Range } from '../model/range.ts';
import type { StatusResult } from '../status/result.ts';
import { fleetStates } from '../status/fleetSummary.ts';
import { healthChecksOf } from '../status/fluxHealthChecks.ts';
import { hoverTextLimit, rowTextLimit, truncate } from '../text/limits.ts';

/** How bad a finding is, in the editor's four levels. */
export type FindingSeverity = 'error' | 'warning' | 'information' | 'hint';

/** Every finding code; docs/diagnostics.md explains each one. */
export const findingCodes = [
	'yaml-syntax',
	'flux-provider-without-oci',
	'flux-insecure-without-oci',
	'flux-invalid-duration',
	'flux-oci-field-not-applicable',
	'flux-oci-interval-ignored',
	'flux-url-scheme-mismatch',
	'flux-pass-credentials',
	'flux-secret-ref-tls',
	'flux-health-check-invalid',
	'fleet-depends-on-invalid',
	'kubestellar-flag-outside-downsync',
	'kubestellar-no-cluster-selectors',
	'kubestellar-clause-without-criterion',
	'condition-empty-reason',
	'condition-reason-not-camel-case',
	'condition-severity-on-true',
	'condition-severity-on-unknown',
	'condition-invalid-status',
	'condition-duplicate-type',
	'condition-missing-last-transition-time',
	'condition-invalid-last-transition-time',
	'stale-observed-generation',
	'status-stalled',
	'status-failed',
	'status-err-applied',
	'status-unhealthy',
	'status-severity-error',
	'status-modified',
	'status-out-of-sync',
	'status-waiting-for-owner',
	'status-wait-applied',
	'status-waiting-for-dependency',
	...fleetCheckCodes,
	...targetingCodes,
] as const;

/** A finding code: links a diagnostic to its documentation and its quick fixes. */
export type FindingCode = (typeof findingCodes)[number];

/** What each code is about, in one line, and its severity (for SARIF rules, the docs and the explain view). */
export const findingRules: Readonly<
	Record<FindingCode, { readonly summary: string; readonly severity: FindingSeverity }>
> = {
	'yaml-syntax': { summary: 'The YAML cannot be parsed.', severity: 'error' },
	'flux-provider-without-oci': {
		summary: 'HelmRepository spec.provider other than generic needs spec.type: oci.',
		severity: 'warning',
	},
	'flux-insecure-without-oci': {
		summary: 'HelmRepository spec.insecure applies only to spec.type: oci.',
		severity: 'warning',
	},
	'flux-invalid-duration': {
		summary: 'HelmRepository spec.interval or spec.timeout is not a Go duration.',
		severity: 'error',
	},
	'flux-oci-field-not-applicable': {
		summary:
			'spec.timeout, spec.suspend and spec.passCredentials do not apply to an OCI HelmRepository.',
		severity: 'information',
	},
	'flux-oci-interval-ignored': {
		summary: 'spec.interval is ignored on an OCI HelmRepository.',
		severity: 'information',
	},
	'flux-url-scheme-mismatch': {
		summary:
			'HelmRepository spec.url scheme does not fit spec.type (oci:// for oci, http(s):// otherwise).',
		severity: 'error',
	},
	'fleet-depends-on-invalid': {
		summary:
			'A Bundle dependsOn entry Fleet refuses: no name nor selector, or an acceptedStates word that is not a state it accepts.',
		severity: 'error',
	},
	'flux-health-check-invalid': {
		summary:
			'A Kustomization spec.healthCheckExprs entry that does not parse, lacks current, or repeats a group and kind: the controller stalls (InvalidCELExpression).',
		severity: 'error',
	},
	'flux-pass-credentials': {
		summary: 'HelmRepository spec.passCredentials sends credentials to other hosts.',
		severity: 'warning',
	},
	'flux-secret-ref-tls': {
		summary: 'HelmRepository spec.secretRef holds TLS data: deprecated, use spec.certSecretRef.',
		severity: 'warning',
	},
	'kubestellar-flag-outside-downsync': {
		summary:
			'wantSingletonReportedState / wantMultiWECReportedState outside a downsync clause is ignored.',
		severity: 'warning',
	},
	'kubestellar-no-cluster-selectors': {
		summary: 'A BindingPolicy without clusterSelectors selects no WEC.',
		severity: 'warning',
	},
	'kubestellar-clause-without-criterion': {
		summary: 'A downsync clause without a discriminating criterion selects nothing.',
		severity: 'warning',
	},
	'condition-empty-reason': { summary: 'A condition has an empty reason.', severity: 'warning' },
	'condition-reason-not-camel-case': {
		summary: 'A condition reason is not one CamelCase word.',
		severity: 'warning',
	},
	'condition-severity-on-true': {
		summary: 'A positive-polarity condition that is True carries a severity.',
		severity: 'warning',
	},
	'condition-severity-on-unknown': {
		summary: 'A condition whose status is Unknown carries a severity.',
		severity: 'warning',
	},
	'condition-invalid-status': {
		summary: 'A condition status is not the string True, False or Unknown.',
		severity: 'warning',
	},
	'condition-duplicate-type': {
		summary: 'Two conditions have the same type.',
		severity: 'warning',
	},
	'condition-missing-last-transition-time': {
		summary: 'A condition has no lastTransitionTime.',
		severity: 'warning',
	},
	'condition-invalid-last-transition-time': {
		summary: 'A condition lastTransitionTime is not an RFC 3339 time.',
		severity: 'warning',
	},
	'stale-observed-generation': {
		summary: 'A condition or status observedGeneration is older than metadata.generation.',
		severity: 'information',
	},
	'status-stalled': { summary: 'The controller reports Stalled.', severity: 'error' },
	'status-failed': { summary: 'The object failed.', severity: 'error' },
	'status-err-applied': { summary: 'Fleet reports ErrApplied.', severity: 'error' },
	'status-unhealthy': { summary: 'The HarborCluster is unhealthy.', severity: 'error' },
	'status-severity-error': {
		summary: 'ASO gave up: Ready is False with severity Error.',
		severity: 'error',
	},
	'status-modified': { summary: 'Fleet reports Modified (drift).', severity: 'warning' },
	'status-out-of-sync': { summary: 'Fleet reports OutOfSync.', severity: 'warning' },
	'status-waiting-for-owner': {
		summary: 'ASO waits for the owner of the resource.',
		severity: 'warning',
	},
	'status-wait-applied': {
		summary: 'Fleet has reported WaitApplied for longer than the threshold.',
		severity: 'warning',
	},
	'status-waiting-for-dependency': {
		summary:
			'Fleet reports WaitingForDependency: a bundle in dependsOn is not in an accepted state.',
		severity: 'information',
	},
	...fleetCheckRules,
	...targetingRules,
};

/** One diagnostic: where, how bad, which rule, what to read, and the mechanical fixes if any. */
export interface Finding {
	readonly range: Range;
	readonly severity: FindingSeverity;
	readonly code: FindingCode;
	readonly message: string;
	/** The object it is about, "GitRepo fleet-default/shop" (absent for a syntax error). */
	readonly subject?: string;
	readonly fixes?: readonly Fix[];
}

/** What the caller knows that the text does not say. */
export interface DiagnoseOptions {
	/** The caller's clock in ms since epoch; WaitApplied ages are judged only when it is given. */
	readonly now?: number;
	/** A WaitApplied state older than this is reported (default 600 s). */
	readonly waitAppliedThresholdSeconds?: number;
	/** Report YAML syntax errors (off by default: the YAML extension reports them). */
	readonly reportSyntaxErrors?: boolean;
	/** Key names of a Secret in the workspace, when there is one; values are never asked for. */
	readonly workspaceSecrets?: (namespace: string, name: string) => readonly string[] | undefined;
}

/** The default WaitApplied age before it is reported, in seconds. */
const defaultWaitAppliedThresholdSeconds = 600;

// ---------------------------------------------------------------------------------------------------------------
// Where a finding goes

/** What part of a located path a finding points at. */
type Part = 'key' | 'value' | 'head';

interface Target {
	readonly path: ObjectPath;
	readonly part: Part;
}

/**
 * The object a finding is about: "GitRepo fleet-default/shop". A dump holds a GitRepo, its Bundle, Clusters and
 * ClusterGroup with the same Fleet message; in the Problems panel only this tells them apart.
 */
function subjectOf(object: unknown): string {
	const kind = truncate(getString(object, 'kind') ?? '', rowTextLimit);
	const name = getString(object, 'metadata', 'name');
	if (!name) return kind;
	const namespace = getString(object, 'metadata', 'namespace');
	return `${kind} ${truncate(namespace ? `${namespace}/${name}` : name, rowTextLimit)}`;
}

/** Collects the findings of one object, resolving paths to ranges through the object's tree. */
class ObjectFindings {
	readonly findings: Finding[] = [];
	readonly analysis: ManifestAnalysis;
	readonly entry: AnalyzedObject;
	private subject: string | undefined;

	constructor(analysis: ManifestAnalysis, entry: AnalyzedObject) {
		this.analysis = analysis;
		this.entry = entry;
	}

	/** The range of the first target that resolves; the object's `kind` value (or first line) otherwise. */
	rangeOf(targets: readonly Target[]): Range {
		for (const target of targets) {
			const located = this.analysis.locate(this.entry, target.path);
			const range = located && this.partRange(located, target.part);
			if (range) return range;
		}
		const kind = this.analysis.locate(this.entry, ['kind']);
		const kindRange = kind && this.partRange(kind, 'value');
		if (kindRange) return kindRange;
		const line = this.entry.parsed.range.start.line;
		return { start: { line, character: 0 }, end: { line, character: 0 } };
	}

	partRange(located: Located, part: Part): Range | undefined {
		if (part === 'key' && located.entry) {
			return this.analysis.range(located.entry.keyStart, located.entry.keyEnd);
		}
		if (part === 'head') return this.headRange(located);
		if (located.node) return this.analysis.range(located.node.start, located.node.end);
		if (located.entry) return this.analysis.range(located.entry.keyStart, located.entry.keyEnd);
		return undefined;
	}

	/** A sequence item or mapping shown by its first line: from its dash (or start) to that line's end. */
	headRange(located: Located): Range | undefined {
		const node: TreeNode | undefined = located.node;
		const start = located.item?.dash ?? node?.start ?? located.entry?.keyStart;
		if (start === undefined) return undefined;
		const end = node ? node.end : start + 1;
		const lineEnd = this.analysis.text.indexOf('\n', start);
		const stop = lineEnd < 0 ? end : Math.min(end, lineEnd);
		let trimmed = stop;
		while (trimmed > start && /[\s]/.test(this.analysis.text.charAt(trimmed - 1))) trimmed--;
		return this.analysis.range(start, trimmed);
	}

	add(
		targets: Target | readonly Target[],
		severity: FindingSeverity,
		code: FindingCode,
		message: string,
		fixes: readonly (Fix | undefined)[] = [],
	): void {
		const list = Array.isArray(targets) ? (targets as readonly Target[]) : [targets as Target];
		const present = fixes.filter((fix): fix is Fix => fix !== undefined);
		this.subject ??= subjectOf(this.entry.object);
		const finding: Finding = {
			range: this.rangeOf(list),
			severity,
			code,
			message,
			subject: this.subject,
		};
		this.findings.push(present.length > 0 ? { ...finding, fixes: present } : finding);
	}
}

function key(...path: ObjectPath): Target {
	return { path, part: 'key' };
}

function value(...path: ObjectPath): Target {
	return { path, part: 'value' };
}

function head(...path: ObjectPath): Target {
	return { path, part: 'head' };
}

function quoted(text: unknown): string {
	return typeof text === 'string' ? `"${text}"` : (JSON.stringify(text) ?? String(text));
}

// ---------------------------------------------------------------------------------------------------------------
// Go durations (time.ParseDuration), for spec.interval and spec.timeout

const durationUnits: Readonly<Record<string, number>> = {
	ns: 1,
	us: 1e3,
	'\u00b5s': 1e3,
	'\u03bcs': 1e3,
	ms: 1e6,
	s: 1e9,
	m: 60e9,
	h: 3600e9,
};

/** Why a string is not a Go duration, or undefined when `time.ParseDuration` accepts it. */
export function goDurationProblem(text: string): string | undefined {
	let rest = text;
	if (rest.startsWith('-') || rest.startsWith('+')) rest = rest.slice(1);
	if (rest === '0') return undefined;
	if (rest === '') return 'it is empty';
	let total = 0;
	while (rest !== '') {
		const match = /^(\d*)(?:\.(\d*))?/.exec(rest);
		const whole = match?.[1] ?? '';
		const fraction = match?.[2] ?? '';
		if (whole === '' && fraction === '') return 'a number is missing';
		rest = rest.slice(match?.[0].length ?? 0);
		const unit = /^[^\d.]*/.exec(rest)?.[0] ?? '';
		if (unit === '') return 'a unit is missing (ns, us, ms, s, m or h)';
		const scale = Object.hasOwn(durationUnits, unit) ? durationUnits[unit] : undefined;
		if (scale === undefined) {
			return unit === 'd'
				? 'Go durations have no d unit: write 24h for a day'
				: `"${unit}" is not a unit (ns, us, ms, s, m or h)`;
		}
		total += Number(`${whole || '0'}.${fraction || '0'}`) * scale;
		rest = rest.slice(unit.length);
	}
	return total > 9.223372036854775e18 ? 'it is too long (over 292 years)' : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Flux HelmRepository

const tlsKeyNames = ['tls.crt', 'tls.key', 'ca.crt', 'certFile', 'keyFile', 'caFile'];
const authKeyNames = ['username', 'password', '.dockerconfigjson'];

function isHelmRepository(object: unknown): boolean {
	return (
		getString(object, 'kind') === 'HelmRepository' &&
		groupOf(getString(object, 'apiVersion') ?? '') === 'source.toolkit.fluxcd.io'
	);
}

/** Key names of a Secret: from the same text first, then from the workspace through the caller. */
function secretKeysOf(
	analysis: ManifestAnalysis,
	namespace: string,
	name: string,
	options: DiagnoseOptions,
): readonly string[] | undefined {
	for (const candidate of analysis.objects) {
		const object = candidate.object;
		if (getString(object, 'kind') !== 'Secret' || getString(object, 'apiVersion') !== 'v1') {
			continue;
		}
		if (getString(object, 'metadata', 'name') !== name) continue;
		if ((getString(object, 'metadata', 'namespace') ?? '') !== namespace) continue;
		return [
			...Object.keys(getRecord(object, 'data') ?? {}),
			...Object.keys(getRecord(object, 'stringData') ?? {}),
		];
	}
	return options.workspaceSecrets?.(namespace, name);
}

function fluxHelmRepositoryFindings(
	out: ObjectFindings,
	analysis: ManifestAnalysis,
	options: DiagnoseOptions,
): void {
	const { object } = out.entry;
	const spec = getRecord(object, 'spec');
	if (!spec) return;
	const type = spec.type;
	const oci = type === 'oci';
	const url = typeof spec.url === 'string' ? spec.url : undefined;
	const ociUrl = url !== undefined && url.toLowerCase().startsWith('oci://');
	const setOci = (): Fix | undefined =>
		ociUrl
			? setScalarFix(analysis, out.entry, ['spec'], 'type', 'oci', 'Set spec.type: oci')
			: undefined;
	const remove = (field: string): Fix | undefined =>
		removeEntryFix(analysis, out.entry, ['spec', field], `Remove spec.${field}`);

	// Flux HelmRepository spec "Provider": "supported only for Helm OCI repositories"; generic is the default.
	if (typeof spec.provider === 'string' && spec.provider !== 'generic' && !oci) {
		out.add(
			value('spec', 'provider'),
			'warning',
			'flux-provider-without-oci',
			`spec.provider ${quoted(spec.provider)} applies only to OCI repositories (spec.type: oci); on this repository the controller ignores it and uses no cloud identity.`,
			[setOci(), remove('provider')],
		);
	}
	// Flux HelmRepository spec "Insecure": "supported only for Helm OCI repositories".
	if (spec.insecure === true && !oci) {
		out.add(
			value('spec', 'insecure'),
			'warning',
			'flux-insecure-without-oci',
			'spec.insecure applies only to OCI repositories (spec.type: oci); for an HTTP repository use an http:// URL instead.',
			[setOci(), remove('insecure')],
		);
	}
	// Flux HelmRepository spec "Interval" and "Timeout": "a Go recognized duration string format".
	for (const field of ['interval', 'timeout'] as const) {
		const raw = spec[field];
		if (raw === undefined || raw === null) continue;
		const problem =
			typeof raw === 'string' ? goDurationProblem(raw) : 'it is not a string (quote it, e.g. "5m")';
		if (problem) {
			out.add(
				value('spec', field),
				'error',
				'flux-invalid-duration',
				`spec.${field} ${quoted(raw)} is not a Go duration: ${problem}. Examples: 30s, 5m, 1h30m.`,
			);
		}
	}
	if (oci) {
		// Flux HelmRepository spec: timeout and suspend are "not applicable to OCI Helm Repositories"; passCredentials
		// "only applies to HTTP/S Helm repositories"; interval "is ignored for any value in oci Helm repository".
		for (const field of ['timeout', 'suspend', 'passCredentials'] as const) {
			if (spec[field] === undefined) continue;
			out.add(
				key('spec', field),
				'information',
				'flux-oci-field-not-applicable',
				`spec.${field} does not apply to an OCI repository (spec.type: oci): it is a data container the controller does not reconcile.`,
				[remove(field)],
			);
		}
		if (spec.interval !== undefined) {
			out.add(
				key('spec', 'interval'),
				'information',
				'flux-oci-interval-ignored',
				'spec.interval is ignored on an OCI repository (spec.type: oci): HelmCharts read the registry themselves.',
				[remove('interval')],
			);
		}
	}
	// Flux HelmRepository spec "URL": HTTP/S or OCI address depending on the type.
	if (url !== undefined) {
		const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
		if (oci && scheme !== 'oci') {
			out.add(
				value('spec', 'url'),
				'error',
				'flux-url-scheme-mismatch',
				`An OCI repository (spec.type: oci) needs an oci:// URL, e.g. oci://ghcr.io/org/charts; this one is ${quoted(url)}.`,
			);
		} else if (!oci && scheme === 'oci') {
			out.add(
				value('spec', 'url'),
				'error',
				'flux-url-scheme-mismatch',
				'An oci:// URL needs spec.type: oci; without it the controller expects an HTTP/S Helm repository and fails.',
				[setOci()],
			);
		} else if (!oci && scheme !== 'http' && scheme !== 'https') {
			out.add(
				value('spec', 'url'),
				'error',
				'flux-url-scheme-mismatch',
				`A Helm repository URL starts with http:// or https:// (or oci:// with spec.type: oci); ${quoted(url)} does not.`,
			);
		}
	}
	// Flux HelmRepository spec "Pass credentials": "can potentially result in credentials getting stolen".
	if (spec.passCredentials === true && !oci) {
		out.add(
			value('spec', 'passCredentials'),
			'warning',
			'flux-pass-credentials',
			'spec.passCredentials sends the credentials of spec.secretRef to every host the index points at, not only the host of spec.url; a man-in-the-middle could take them.',
		);
	}
	// Flux HelmRepository spec "Secret reference": TLS data in secretRef is deprecated in favour of certSecretRef.
	const secretName = getString(spec, 'secretRef', 'name');
	if (secretName) {
		const namespace = getString(object, 'metadata', 'namespace') ?? '';
		const keys = secretKeysOf(analysis, namespace, secretName, options);
		const tls = keys?.filter((name) => tlsKeyNames.includes(name)) ?? [];
		if (tls.length > 0) {
			const onlyTls = keys?.every((name) => !authKeyNames.includes(name)) ?? false;
			const rename =
				onlyTls && spec.certSecretRef === undefined
					? renameKeyFix(
							analysis,
							out.entry,
							['spec', 'secretRef'],
							'certSecretRef',
							'Rename spec.secretRef to spec.certSecretRef',
						)
					: undefined;
			out.add(
				value('spec', 'secretRef', 'name'),
				'warning',
				'flux-secret-ref-tls',
				`Secret ${quoted(secretName)} holds TLS data (${tls.join(', ')}): TLS through spec.secretRef is deprecated; put it in a Secret named by spec.certSecretRef.`,
				[rename],
			);
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// KubeStellar BindingPolicy

const reportedStateFlags = ['wantSingletonReportedState', 'wantMultiWECReportedState'] as const;

function isBindingPolicy(entry: AnalyzedObject): boolean {
	return entry.system === 'kubestellar' && getString(entry.object, 'kind') === 'BindingPolicy';
}

/** Every place in `value` (under `path`) where a key named like a reported-state flag stands. */
function flagPlaces(
	valueAt: unknown,
	path: readonly (string | number)[],
	out: (string | number)[][],
): void {
	if (Array.isArray(valueAt)) {
		valueAt.forEach((item, index) => flagPlaces(item, [...path, index], out));
		return;
	}
	if (!isRecord(valueAt)) return;
	for (const [name, child] of Object.entries(valueAt)) {
		if ((reportedStateFlags as readonly string[]).includes(name)) out.push([...path, name]);
		flagPlaces(child, [...path, name], out);
	}
}

/** A criterion discriminates unless it matches every object (DownsyncObjectTest comments). */
function clauseDiscriminates(clause: Record<string, unknown>): boolean {
	if (typeof clause.apiGroup === 'string') return true;
	const namesList = (list: unknown): boolean =>
		Array.isArray(list) && list.length > 0 && !list.includes('*');
	const selectors = (list: unknown): boolean =>
		Array.isArray(list) &&
		list.length > 0 &&
		!list.some(
			(selector) =>
				isRecord(selector) &&
				(!isRecord(selector.matchLabels) || Object.keys(selector.matchLabels).length === 0) &&
				(!Array.isArray(selector.matchExpressions) || selector.matchExpressions.length === 0),
		);
	return (
		namesList(clause.resources) ||
		namesList(clause.namespaces) ||
		namesList(clause.objectNames) ||
		selectors(clause.namespaceSelectors) ||
		selectors(clause.objectSelectors)
	);
}

/**
 * spec.dependsOn of a Bundle (or a BundleDeployment's copy) as fleet apply validates the fleet.yaml it comes from
 * (rancher/fleet internal/bundlereader/validate_fleetyaml.go; WaitingForDependency is refused since Fleet 0.16,
 * rancher/fleet#5549, as accepting it would release a dependent exactly when its dependency stopped progressing).
 */
function dependsOnFindings(out: ObjectFindings): void {
	const kind = getString(out.entry.object, 'kind');
	if (kind !== 'Bundle' && kind !== 'BundleDeployment') return;
	(getArray(out.entry.object, 'spec', 'dependsOn') ?? []).forEach((dependency, index) => {
		if (!isRecord(dependency)) return;
		if (!getString(dependency, 'name') && (getPath(dependency, 'selector') ?? null) === null) {
			out.add(
				head('spec', 'dependsOn', index),
				'error',
				'fleet-depends-on-invalid',
				`dependsOn[${index}]: must specify either 'name' or 'selector'`,
			);
		}
		(getArray(dependency, 'acceptedStates') ?? []).forEach((state, stateIndex) => {
			if (typeof state === 'string' && acceptableStates.includes(state)) return;
			out.add(
				value('spec', 'dependsOn', index, 'acceptedStates', stateIndex),
				'error',
				'fleet-depends-on-invalid',
				`dependsOn[${index}].acceptedStates[${stateIndex}]: invalid state ${JSON.stringify(state)}, valid values are: [${acceptableStates.join(' ')}]${state === 'WaitingForDependency' ? ' (WaitingForDependency is a state, but Fleet 0.16 refuses it here: it would release this bundle when its dependency stopped progressing)' : ''}`,
			);
		});
	});
}

/** The states a dependsOn entry may accept: every ranked state but WaitingForDependency, by rank. */
const acceptableStates: readonly string[] = fleetStates.filter(
	(state) => state !== 'WaitingForDependency',
);

/**
 * spec.healthCheckExprs as the kustomize-controller reads it at the start of each reconcile (fluxcd/pkg runtime/cel
 * NewStatusReader): what would stall the Kustomization with InvalidCELExpression, at the expression's line.
 */
function healthCheckFindings(out: ObjectFindings): void {
	if ((getArray(out.entry.object, 'spec', 'healthCheckExprs') ?? []).length === 0) return;
	for (const problem of healthChecksOf(out.entry.object).problems) {
		// An expression's problem sits on the expression; an entry's (no current, a duplicate) on its kind.
		const targets =
			problem.path.length > 3
				? [value(...problem.path)]
				: [
						key(...problem.path, 'kind'),
						key(...problem.path, 'apiVersion'),
						value(...problem.path),
					];
		out.add(
			targets,
			'error',
			'flux-health-check-invalid',
			`The kustomize-controller would stall this Kustomization (Ready False, Stalled True, reason InvalidCELExpression): Reconciliation failed terminally due to configuration error: ${problem.message}`,
		);
	}
}

function bindingPolicyFindings(out: ObjectFindings, analysis: ManifestAnalysis): void {
	const { object } = out.entry;
	const spec = getRecord(object, 'spec');
	const downsync = getArray(object, 'spec', 'downsync') ?? [];
	// KubeStellar multi-WEC status proposal §1 "Extend BindingPolicy CRD": the flags sit "under each
	// DownsyncModulation rule (not directly under BindingPolicy)"; anywhere else the API server drops them.
	const places: (string | number)[][] = [];
	flagPlaces(spec, ['spec'], places);
	for (const place of places) {
		const inClause = place.length === 4 && place[1] === 'downsync' && typeof place[2] === 'number';
		if (inClause) continue;
		const flag = String(place[place.length - 1]);
		const clauseIndex =
			place[1] === 'downsync' && typeof place[2] === 'number' ? place[2] : undefined;
		const clauses: ObjectPath[] = [];
		downsync.forEach((clause, index) => {
			if (isRecord(clause) && (clauseIndex === undefined || clauseIndex === index)) {
				clauses.push(['spec', 'downsync', index]);
			}
		});
		const title =
			clauses.length === 1
				? `Move ${flag} into the downsync clause`
				: `Move ${flag} into each downsync clause`;
		const fix =
			clauses.length > 0 ? moveEntryFix(analysis, out.entry, place, clauses, title) : undefined;
		out.add(
			key(...place),
			'warning',
			'kubestellar-flag-outside-downsync',
			`${flag} has effect only directly inside a spec.downsync clause; here (${place.join('.')}) KubeStellar ignores it, so no status is returned.`,
			[fix],
		);
	}
	// kubestellar/kubestellar api/control/v1alpha1/types.go: clusterSelectors are ORed; none selects no WEC.
	const selectors = getPath(object, 'spec', 'clusterSelectors');
	if (!Array.isArray(selectors) || selectors.length === 0) {
		out.add(
			[key('spec', 'clusterSelectors'), key('spec'), value('kind')],
			'warning',
			'kubestellar-no-cluster-selectors',
			'This BindingPolicy has no clusterSelectors, so it selects no WEC and nothing is delivered. Add a label selector, e.g. matchLabels: {location-group: edge}.',
		);
	}
	downsync.forEach((clause, index) => {
		if (!isRecord(clause) || clauseDiscriminates(clause)) return;
		out.add(
			head('spec', 'downsync', index),
			'warning',
			'kubestellar-clause-without-criterion',
			'This downsync clause has no criterion that discriminates (apiGroup, resources, namespaces, namespaceSelectors, objectNames, objectSelectors all match everything): KubeStellar rejects such a clause and it selects nothing.',
		);
	});
}

// ---------------------------------------------------------------------------------------------------------------
// Condition hygiene (ASO, Flux, standard Kubernetes conditions; not Fleet, whose conditions carry lastUpdateTime and
// often no reason by design)

const camelCase = /^[A-Z][A-Za-z0-9]*$/;
const rfc3339 =
	/^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** True for an RFC 3339 time as metav1.Time decodes it. */
export function isRfc3339(text: string): boolean {
	const match = rfc3339.exec(text);
	if (!match) return false;
	const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
	if (
		year === undefined ||
		month === undefined ||
		day === undefined ||
		hour === undefined ||
		minute === undefined ||
		second === undefined
	) {
		return false;
	}
	if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false;
	const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
	if (day < 1 || day > days) return false;
	const offsetHour = match[9] === undefined ? 0 : Number(match[9]);
	const offsetMinute = match[10] === undefined ? 0 : Number(match[10]);
	return offsetHour <= 23 && offsetMinute <= 59;
}

/** A condition's polarity: the catalog's word for this system and kind, else kstatus', else positive. */
function polarityOf(entry: AnalyzedObject, type: string): 'positive' | 'negative' {
	const kind = getString(entry.object, 'kind') ?? '';
	return (
		explain(entry.system, 'condition', type, kind)?.polarity ??
		explain('kstatus', 'condition', type)?.polarity ??
		'positive'
	);
}

function conditionHygieneFindings(out: ObjectFindings): void {
	const { entry } = out;
	const { object } = entry;
	const conditions = getArray(object, 'status', 'conditions');
	const generation = getInt64(object, 'metadata', 'generation');
	const strictReason = entry.system === 'aso' || entry.system === 'flux';
	const firstOfType = new Map<string, number>();
	conditions?.forEach((condition, index) => {
		if (!isRecord(condition)) return;
		const base = ['status', 'conditions', index] as const;
		const type = typeof condition.type === 'string' ? condition.type : undefined;
		const name = type ?? `conditions[${index}]`;
		const typeTargets = [value(...base, 'type'), head(...base)];
		if (type !== undefined) {
			const first = firstOfType.get(type);
			if (first === undefined) firstOfType.set(type, index);
			else {
				out.add(
					value(...base, 'type'),
					'warning',
					'condition-duplicate-type',
					`Condition type ${type} appears again (first at conditions[${first}]): readers take the first one and ignore this.`,
				);
			}
		}
		const reason = condition.reason;
		if (
			(reason === undefined || reason === null || reason === '') &&
			(strictReason || reason === '')
		) {
			out.add(
				reason === '' ? [value(...base, 'reason'), ...typeTargets] : typeTargets,
				'warning',
				'condition-empty-reason',
				`${name} has no reason: a reason is required, one CamelCase word saying why the condition is what it is.`,
			);
		} else if (typeof reason === 'string' && !camelCase.test(reason)) {
			out.add(
				value(...base, 'reason'),
				'warning',
				'condition-reason-not-camel-case',
				`Reason ${quoted(reason)} of ${name} is not one CamelCase word (e.g. ${suggestCamelCase(reason)}): tools and kubectl get columns expect that form.`,
			);
		}
		const severity = condition.severity;
		if (
			typeof severity === 'string' &&
			severity !== '' &&
			condition.status === 'True' &&
			type !== undefined &&
			polarityOf(entry, type) === 'positive'
		) {
			out.add(
				value(...base, 'severity'),
				'warning',
				'condition-severity-on-true',
				`${name} is True (its healthy state) but carries severity ${severity}: severity is omitted when a positive condition is True.`,
			);
		}
		if (typeof severity === 'string' && severity !== '' && condition.status === 'Unknown') {
			out.add(
				value(...base, 'severity'),
				'warning',
				'condition-severity-on-unknown',
				`${name} is Unknown but carries severity ${severity}: a condition whose status is Unknown has no severity.`,
			);
		}
		const status = condition.status;
		if (typeof status === 'boolean') {
			out.add(
				value(...base, 'status'),
				'warning',
				'condition-invalid-status',
				`Status ${String(status)} of ${name} is a YAML boolean, but Kubernetes expects the string "${status ? 'True' : 'False'}": quote it (the API server rejects a boolean here).`,
			);
		} else if (status === undefined || status === null) {
			out.add(
				typeTargets,
				'warning',
				'condition-invalid-status',
				`${name} has no status: every condition says True, False or Unknown.`,
			);
		} else if (status !== 'True' && status !== 'False' && status !== 'Unknown') {
			out.add(
				value(...base, 'status'),
				'warning',
				'condition-invalid-status',
				`Status ${quoted(status)} of ${name} is not True, False or Unknown (case matters): readers treat the condition as unknown.`,
			);
		}
		const time = condition.lastTransitionTime;
		if (time === undefined || time === null) {
			out.add(
				typeTargets,
				'warning',
				'condition-missing-last-transition-time',
				`${name} has no lastTransitionTime: it is required and says since when the condition has had this status.`,
			);
		} else if (typeof time !== 'string' || !isRfc3339(time)) {
			out.add(
				value(...base, 'lastTransitionTime'),
				'warning',
				'condition-invalid-last-transition-time',
				`lastTransitionTime ${quoted(time)} of ${name} is not an RFC 3339 time such as 2025-01-31T12:00:00Z.`,
			);
		}
		const observed = int64Field(condition, 'observedGeneration');
		if (generation !== undefined && observed !== undefined && observed < generation) {
			out.add(
				value(...base, 'observedGeneration'),
				'information',
				'stale-observed-generation',
				`${name} describes generation ${observed}, but the spec is at generation ${generation}: it is stale until the controller processes the change.`,
			);
		}
	});
	const statusGeneration = getInt64(object, 'status', 'observedGeneration');
	if (generation !== undefined && statusGeneration !== undefined && statusGeneration < generation) {
		out.add(
			value('status', 'observedGeneration'),
			'information',
			'stale-observed-generation',
			`status.observedGeneration is ${statusGeneration}, but the spec is at generation ${generation}: the status describes an older spec.`,
		);
	}
}

function suggestCamelCase(reason: string): string {
	const words = reason.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
	const joined = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
	return joined && camelCase.test(joined) ? joined : 'ReconciliationFailed';
}

// ---------------------------------------------------------------------------------------------------------------
// Status problems in dumps

interface ConditionEntry {
	readonly index: number;
	readonly type: string;
	readonly status: string;
	readonly record: Record<string, unknown>;
}

function conditionEntries(object: unknown): ConditionEntry[] {
	const entries: ConditionEntry[] = [];
	getArray(object, 'status', 'conditions')?.forEach((condition, index) => {
		if (!isRecord(condition) || typeof condition.type !== 'string') return;
		const status = condition.status;
		entries.push({
			index,
			type: condition.type,
			status:
				typeof status === 'string'
					? status
					: status === true
						? 'True'
						: status === false
							? 'False'
							: '',
			record: condition,
		});
	});
	return entries;
}

function conditionTarget(condition: ConditionEntry): Target[] {
	return [
		value('status', 'conditions', condition.index, 'type'),
		head('status', 'conditions', condition.index),
	];
}

const failureTypes = ['Failed', 'FetchFailed', 'StorageOperationFailed', 'ReplicaFailure'];
const readinessTypes = ['Ready', 'Available', 'Progressing', 'Deployed', 'Complete'];

/** The condition that says an object failed: a failure condition that is True, else a readiness one that is False. */
function failingCondition(conditions: readonly ConditionEntry[]): ConditionEntry | undefined {
	return (
		conditions.find((c) => failureTypes.includes(c.type) && c.status === 'True') ??
		conditions.find((c) => readinessTypes.includes(c.type) && c.status === 'False') ??
		conditions.find((c) => c.status === 'False')
	);
}

function timeOf(text: unknown): number | undefined {
	if (typeof text !== 'string' || !isRfc3339(text)) return undefined;
	const time = Date.parse(text);
	return Number.isNaN(time) ? undefined : time;
}

function minutes(ms: number): string {
	const total = Math.floor(ms / 60000);
	if (total < 120) return `${total} min`;
	const hours = Math.floor(total / 60);
	return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} days`;
}

/** Targets for a Fleet state: status.display.state when it says so, then the field of the BundleDeployment rule. */
function fleetStateTargets(
	object: unknown,
	state: string,
	conditions: readonly ConditionEntry[],
): Target[] {
	const targets: Target[] = [];
	if (getString(object, 'status', 'display', 'state') === state) {
		targets.push(value('status', 'display', 'state'));
	}
	if (getString(object, 'kind') === 'BundleDeployment') {
		if (state === 'ErrApplied' || state === 'WaitingForDependency') {
			const deployed = conditions.find((c) => c.type === 'Deployed' && c.status === 'False');
			if (deployed) targets.push(...conditionTarget(deployed));
		} else if (state === 'Modified') targets.push(value('status', 'nonModified'));
		else if (state === 'WaitApplied') targets.push(value('status', 'appliedDeploymentID'));
		else if (state === 'OutOfSync') targets.push(value('spec', 'stagedDeploymentID'));
	}
	const ready = conditions.find((c) => c.type === 'Ready' && c.status === 'False');
	if (ready) targets.push(...conditionTarget(ready));
	targets.push(key('status'));
	return targets;
}

function statusFindings(out: ObjectFindings, result: StatusResult, options: DiagnoseOptions): void {
	const { entry } = out;
	const { object } = entry;
	const conditions = conditionEntries(object);
	const kind = getString(object, 'kind') ?? '';
	const said = (word: string): string =>
		result.message === '' || result.message === word
			? word
			: result.message.startsWith(word)
				? result.message
				: `${word}: ${result.message}`;

	// Stalled, wherever a controller says it (Flux, Fleet GitRepo, kstatus): it stopped retrying.
	const stalled = conditions.find((c) => c.type === 'Stalled' && c.status === 'True');
	if (stalled) {
		out.add(
			conditionTarget(stalled),
			'error',
			'status-stalled',
			`${said('Stalled')} (the controller stopped retrying until the spec changes)`,
		);
		return;
	}
	switch (entry.system) {
		case 'fleet': {
			const state = result.state;
			if (state === 'ErrApplied') {
				out.add(
					fleetStateTargets(object, state, conditions),
					'error',
					'status-err-applied',
					said(state),
				);
			} else if (state === 'WaitingForDependency') {
				out.add(
					fleetStateTargets(object, state, conditions),
					'information',
					'status-waiting-for-dependency',
					said(state),
				);
			} else if (state === 'Modified') {
				out.add(
					fleetStateTargets(object, state, conditions),
					'warning',
					'status-modified',
					said(state),
				);
			} else if (state === 'OutOfSync') {
				out.add(
					fleetStateTargets(object, state, conditions),
					'warning',
					'status-out-of-sync',
					said(state),
				);
			} else if (state === 'WaitApplied' && options.now !== undefined) {
				const ready = conditions.find((c) => c.type === 'Ready');
				const since =
					timeOf(ready?.record.lastTransitionTime) ?? timeOf(ready?.record.lastUpdateTime);
				const threshold =
					(options.waitAppliedThresholdSeconds ?? defaultWaitAppliedThresholdSeconds) * 1000;
				if (since !== undefined && options.now - since > threshold) {
					out.add(
						fleetStateTargets(object, state, conditions),
						'warning',
						'status-wait-applied',
						`${said(state)} (waiting for ${minutes(options.now - since)}: the agent may be unreachable)`,
					);
				}
			}
			return;
		}
		case 'harbor': {
			if (kind === 'HarborCluster' && result.state === 'unhealthy') {
				const falseDependency = conditions.find(
					(c) =>
						['StorageReady', 'DatabaseReady', 'CacheReady', 'ServiceReady'].includes(c.type) &&
						c.status === 'False',
				);
				const targets: Target[] = [];
				if (getString(object, 'status', 'status') === 'unhealthy') {
					targets.push(value('status', 'status'));
				}
				if (falseDependency) targets.push(...conditionTarget(falseDependency));
				out.add([...targets, key('status')], 'error', 'status-unhealthy', said('unhealthy'));
			} else if (result.state === 'Failed') {
				const failed = failingCondition(conditions);
				out.add(
					[...(failed ? conditionTarget(failed) : []), key('status')],
					'error',
					'status-failed',
					said('Failed'),
				);
			}
			return;
		}
		case 'aso': {
			const ready = conditions.find((c) => c.type === 'Ready');
			if (ready?.status === 'False' && ready.record.severity === 'Error') {
				out.add(
					value('status', 'conditions', ready.index, 'severity'),
					'error',
					'status-severity-error',
					`${said(result.state)} (severity Error: the operator gave up; fix the spec)`,
				);
			} else if (ready?.status === 'False' && ready.record.reason === 'WaitingForOwner') {
				out.add(
					value('status', 'conditions', ready.index, 'reason'),
					'warning',
					'status-waiting-for-owner',
					said('WaitingForOwner'),
				);
			} else if (getPath(object, 'status', 'failedProvisioning') === true) {
				out.add(value('status', 'failedProvisioning'), 'error', 'status-failed', said('Failed'));
			}
			return;
		}
		case 'flux':
		case 'kubestellar':
		case 'kubernetes': {
			// Flux's Failed; a WorkStatus whose WEC copy failed; a workload kstatus rates Failed.
			const failed =
				entry.system === 'kubernetes'
					? result.kstatus.status === 'Failed'
					: result.state === 'Failed';
			if (!failed) return;
			const failing = failingCondition(conditions);
			out.add(
				[...(failing ? conditionTarget(failing) : []), key('status')],
				'error',
				'status-failed',
				said('Failed'),
			);
			return;
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// The pass

function compareFindings(a: Finding, b: Finding): number {
	return (
		a.range.start.line - b.range.start.line ||
		a.range.start.character - b.range.start.character ||
		a.code.localeCompare(b.code)
	);
}

/**
 * The findings of a manifest text: spec misuse, condition hygiene and status problems on the objects the extension
 * recognises (other YAML gives nothing), each with the exact range of the key or value it is about. Never throws.
 */
export function diagnoseManifest(text: string, options: DiagnoseOptions = {}): Finding[] {
	let analysis: ManifestAnalysis;
	try {
		analysis = analyzeManifest(text);
	} catch {
		// Parsing is written never to throw; this keeps an unforeseen input from breaking the editor.
		return [];
	}
	const findings: Finding[] = [];
	if (options.reportSyntaxErrors === true) {
		for (const problem of analysis.parse.problems) {
			if (problem.code !== 'yaml-syntax' && problem.code !== 'json-syntax') continue;
			findings.push({
				range: problem.range,
				severity: 'error',
				code: 'yaml-syntax',
				message: problem.message,
			});
		}
	}
	let statuses: readonly (StatusResult | undefined)[] | undefined;
	for (const entry of analysis.objects) {
		if (!entry.recognised) continue;
		const out = new ObjectFindings(analysis, entry);
		try {
			if (entry.system === 'flux' && isHelmRepository(entry.object)) {
				fluxHelmRepositoryFindings(out, analysis, options);
			}
			if (entry.system === 'fleet') dependsOnFindings(out);
			if (entry.system === 'flux' && getString(entry.object, 'kind') === 'Kustomization') {
				healthCheckFindings(out);
			}
			if (isBindingPolicy(entry)) bindingPolicyFindings(out, analysis);
			if (entry.system === 'aso' || entry.system === 'flux' || entry.system === 'kubernetes') {
				conditionHygieneFindings(out);
			}
			const status = entry.object.status;
			if (status !== undefined && status !== null) {
				statuses ??= analysis.statuses(options.now);
				const result = statuses[entry.index];
				if (result) statusFindings(out, result, options);
			}
		} catch {
			// A rule that trips over an unforeseen shape must not take the other objects' findings down with it.
		}
		for (const finding of out.findings) findings.push(finding);
	}
	return findings.sort(compareFindings);
}

/** A finding as the Problems panel lists it: once, however many places say the same, its message cut to fit. */
export interface ListedFinding {
	readonly finding: Finding;
	readonly message: string;
	/** The other places with the same finding, in order. */
	readonly alsoAt: readonly Range[];
}

/**
 * The findings as lines of the Problems panel, each message led by the object it is about ("GitRepo
 * fleet-default/shop: ErrApplied(1) [...]"): the same line said at several places is one line, pointing at the first
 * and naming the rest. Findings with a quick fix stay apart: each place has its own edit. What an object's status
 * says is cut at the hover limit (the file holds the whole text).
 */
export function listedFindings(findings: readonly Finding[]): ListedFinding[] {
	const listed: { finding: Finding; message: string; alsoAt: Range[] }[] = [];
	const byText = new Map<string, { alsoAt: Range[] }>();
	for (const finding of findings) {
		const said = truncate(finding.message, hoverTextLimit);
		const message = finding.subject === undefined ? said : `${finding.subject}: ${said}`;
		const text = `${finding.severity}\u0000${finding.code}\u0000${finding.subject ?? ''}\u0000${finding.message}`;
		const same = finding.fixes ? undefined : byText.get(text);
		if (same) {
			same.alsoAt.push(finding.range);
			continue;
		}
		const entry = { finding, message, alsoAt: [] };
		listed.push(entry);
		if (!finding.fixes) byText.set(text, entry);
	}
	return listed;
}
