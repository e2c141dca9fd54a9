// `check --format sarif`: SARIF 2.1.0 (OASIS), as code-scanning views read it. Every rule carries its documentation
// (the section of docs/diagnostics.md for its code) and a helpUri: that section on the web when the package names its
// repository, else the source system's own page on what the rule checks; no absolute path of the machine is written.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
	findingCodes,
	findingRules,
	type Finding,
	type FindingCode,
	type FindingSeverity,
} from '../core/manifest/diagnose.ts';
import type { ObjectRef } from '../core/model/object.ts';

/** What the build (esbuild.mjs) puts into the bundled CLI from package.json and docs/diagnostics.md. */
interface BuildFacts {
	readonly version?: unknown;
	readonly homepage?: unknown;
	readonly repository?: unknown;
	readonly diagnosticsDoc?: unknown;
}

/** BuildFacts as JSON text. */
declare const KUBE_STATUS_LENS_BUILD: string | undefined;

// Run from source (the unit tests), nothing is defined: no version, no documentation beyond the rules' summaries.
function buildFacts(): BuildFacts {
	return typeof KUBE_STATUS_LENS_BUILD === 'undefined'
		? {}
		: (JSON.parse(KUBE_STATUS_LENS_BUILD) as BuildFacts);
}

const docPath = 'docs/diagnostics.md';

/**
 * Where each rule's source system documents what the finding is about: the page a code-scanning view's "learn more"
 * opens when the package names no home of its own, and a line of every rule's help either way.
 */
const upstreamReferences: readonly {
	readonly codes: RegExp;
	readonly title: string;
	readonly uri: string;
}[] = [
	{ codes: /^yaml-/, title: 'YAML 1.2.2 specification', uri: 'https://yaml.org/spec/1.2.2/' },
	{
		codes: /^flux-health-check-invalid$/,
		title: 'Flux Kustomization API reference: health check expressions',
		uri: 'https://fluxcd.io/flux/components/kustomize/kustomizations/#health-check-expressions',
	},
	{
		codes: /^flux-/,
		title: 'Flux HelmRepository API reference',
		uri: 'https://fluxcd.io/flux/components/source/helmrepositories/',
	},
	{
		codes: /^kubestellar-/,
		title: 'KubeStellar documentation',
		uri: 'https://docs.kubestellar.io/',
	},
	{
		codes: /^(condition-|stale-observed-generation$)/,
		title: 'Kubernetes API conventions: typical status properties',
		uri: 'https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#typical-status-properties',
	},
	{
		codes: /^status-(stalled|failed)$/,
		title: 'kstatus (sigs.k8s.io/cli-utils)',
		uri: 'https://github.com/kubernetes-sigs/cli-utils/tree/master/pkg/kstatus',
	},
	{
		codes: /^status-(err-applied|modified|out-of-sync|wait-applied|waiting-for-dependency)$/,
		title: 'Fleet status fields',
		uri: 'https://fleet.rancher.io/ref-status-fields',
	},
	{
		codes: /^status-unhealthy$/,
		title: 'Harbor operator',
		uri: 'https://github.com/goharbor/harbor-operator',
	},
	{
		codes: /^status-(severity-error|waiting-for-owner)$/,
		title: 'Azure Service Operator conditions',
		uri: 'https://azure.github.io/azure-service-operator/guide/conditions/',
	},
	{
		codes: /^fleet-target-/,
		title: 'Fleet: mapping to downstream clusters',
		uri: 'https://fleet.rancher.io/gitrepo-targets',
	},
	{
		codes: /^fleet-depends-on-invalid$/,
		title: 'Fleet: dependsOn in fleet.yaml',
		uri: 'https://fleet.rancher.io/ref-fleet-yaml',
	},
	{
		codes: /^fleet-/,
		title: 'Fleet troubleshooting',
		uri: 'https://fleet.rancher.io/troubleshooting',
	},
];

function upstreamReferenceOf(
	code: string,
): { readonly title: string; readonly uri: string } | undefined {
	return upstreamReferences.find((reference) => reference.codes.test(code));
}

const sarifLevels: Readonly<Record<FindingSeverity, 'error' | 'warning' | 'note'>> = {
	error: 'error',
	warning: 'warning',
	information: 'note',
	hint: 'note',
};

/**
 * The web address of the project's repository from package.json's `repository` (npm's forms: `github:owner/name`,
 * `owner/name`, a git URL, `{ url }`), on GitHub or GitLab, where a file has a known address; undefined otherwise.
 */
function repositoryWebUrl(repository: unknown): string | undefined {
	const given =
		typeof repository === 'string'
			? repository
			: typeof repository === 'object' && repository !== null
				? (repository as { url?: unknown }).url
				: undefined;
	if (typeof given !== 'string') return undefined;
	const shorthand = /^(?:(github|gitlab):)?([\w.-]+\/[\w.-]+)$/.exec(given);
	const hosts = { github: 'github.com', gitlab: 'gitlab.com' } as const;
	const url = shorthand
		? `https://${hosts[(shorthand[1] ?? 'github') as keyof typeof hosts]}/${shorthand[2] ?? ''}`
		: given
				.replace(/^git\+/, '')
				.replace(/^git@([^:]+):/, 'https://$1/')
				.replace(/^(?:ssh|git):\/\/(?:git@)?/, 'https://');
	const match = /^https:\/\/(github\.com|gitlab\.com)\/([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(url);
	return match ? `https://${match[1] ?? ''}/${match[2] ?? ''}` : undefined;
}

/** Where the tool and its documentation are on the web, when the package says so. */
function webAddresses(facts: BuildFacts): { home?: string; docs?: string } {
	const repository = repositoryWebUrl(facts.repository);
	const homepage =
		typeof facts.homepage === 'string' && /^https?:\/\/\S+$/.test(facts.homepage)
			? facts.homepage
			: undefined;
	const home = homepage ?? repository;
	if (!repository) return home ? { home } : {};
	const blob = repository.startsWith('https://gitlab.com/') ? '/-/blob/HEAD/' : '/blob/HEAD/';
	return { ...(home ? { home } : {}), docs: `${repository}${blob}${docPath}` };
}

/** The section of the documentation under `### code`, its paragraphs each on one line; undefined when absent. */
function docSectionOf(doc: string, code: string): string | undefined {
	const lines = doc.split(/\r?\n/);
	const start = lines.indexOf(`### ${code}`);
	if (start < 0) return undefined;
	const body: string[] = [];
	for (const line of lines.slice(start + 1)) {
		if (line.startsWith('#')) break;
		body.push(line);
	}
	const paragraphs = body
		.join('\n')
		.split(/\n\s*\n/)
		.map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').trim())
		.filter((paragraph) => paragraph !== '');
	return paragraphs.length > 0 ? paragraphs.join('\n\n') : undefined;
}

/** Markdown as plain text: emphasis and code marks dropped. */
function plainText(markdown: string): string {
	return markdown.replace(/\*\*/g, '').replace(/`/g, '');
}

/** A rule's readable name: its id in PascalCase, `fleet-git-repos-unpolled` -> `FleetGitReposUnpolled`. */
function ruleNameOf(code: string): string {
	return code
		.split('-')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join('');
}

function ruleOf(code: FindingCode, facts: BuildFacts, docs: string | undefined): object {
	const { summary, severity } = findingRules[code];
	const section =
		typeof facts.diagnosticsDoc === 'string' ? docSectionOf(facts.diagnosticsDoc, code) : undefined;
	const description = section ?? summary;
	const where = `${docPath}#${code}`;
	const link = docs ? `[${where}](${docs}#${code})` : `\`${where}\``;
	const upstream = upstreamReferenceOf(code);
	const helpUri = docs ? `${docs}#${code}` : upstream?.uri;
	return {
		id: code,
		// SARIF 3.49.7: a name a person reads, which differs from the id (validators flag a name equal to it).
		name: ruleNameOf(code),
		shortDescription: { text: summary },
		fullDescription: { text: plainText(description), markdown: description },
		help: {
			text:
				`${plainText(description)}\n\nSee ${where} in the Kube Status Lens repository.` +
				(upstream ? `\nUpstream: ${upstream.title}, ${upstream.uri}` : ''),
			markdown:
				`${description}\n\nSee ${link}.` +
				(upstream ? ` Upstream: [${upstream.title}](${upstream.uri}).` : ''),
		},
		...(helpUri ? { helpUri } : {}),
		defaultConfiguration: { level: sarifLevels[severity] },
		properties: { documentation: where },
	};
}

/**
 * A file's location: a URI relative to %SRCROOT%, so that no path of this machine is written (`../` for a file outside
 * it, which a code-scanning service cannot place: the run says so); an absolute file URI only where no relative path
 * exists (another drive).
 */
function artifactLocation(file: string, root: SourceRoot): Record<string, unknown> {
	const absolute = resolve(root.cwd, file);
	const relativePath = relative(root.path, absolute);
	if (isAbsolute(relativePath)) return { uri: pathToFileURL(absolute).href };
	return {
		uri: relativePath === '' ? '.' : relativePath.split(sep).map(encodeURIComponent).join('/'),
		uriBaseId: '%SRCROOT%',
	};
}

function outsideRoot(file: string, root: SourceRoot): boolean {
	const relativePath = relative(root.path, resolve(root.cwd, file));
	return isAbsolute(relativePath) || relativePath === '..' || relativePath.startsWith(`..${sep}`);
}

/**
 * What %SRCROOT% stands for: the root of the git work tree that holds the working folder (what a code-scanning
 * service places results in), else the working folder.
 */
export interface SourceRoot {
	readonly path: string;
	readonly kind: 'git work tree' | 'working folder';
	/** The working folder, which relative input paths start from. */
	readonly cwd: string;
}

/**
 * The artifacts a log lists: only the entries of fleet dump archives, each nested in its archive (SARIF 3.24.3,
 * `parentIndex`), so that a result's lines are read in the entry and not in the compressed archive.
 */
class NestedArtifacts {
	readonly list: Record<string, unknown>[] = [];
	readonly #indexes = new Map<string, number>();

	readonly #root: SourceRoot;

	constructor(root: SourceRoot) {
		this.#root = root;
	}

	#add(key: string, artifact: Record<string, unknown>): number {
		const known = this.#indexes.get(key);
		if (known !== undefined) return known;
		this.list.push(artifact);
		this.#indexes.set(key, this.list.length - 1);
		return this.list.length - 1;
	}

	/** The location of `entry` inside the archive `file`. */
	entryLocation(file: string, entry: string): Record<string, unknown> {
		const archiveLocation = artifactLocation(file, this.#root);
		const parentIndex = this.#add(JSON.stringify([file]), {
			location: archiveLocation,
			mimeType: 'application/gzip',
			roles: ['analysisTarget'],
		});
		const uri = encodeURIComponent(entry);
		const index = this.#add(JSON.stringify([file, entry]), {
			location: { uri },
			parentIndex,
			roles: ['analysisTarget'],
		});
		return { uri, index };
	}
}

/** The object a SARIF result is about: `kind/namespace/name` (`kind/name` for a cluster-scoped object). */
function logicalLocationsOf(object: ObjectRef | undefined): Record<string, unknown> {
	if (!object) return {};
	const fullyQualifiedName = [object.kind, object.namespace, object.name]
		.filter((part) => part !== '')
		.join('/');
	return { logicalLocations: [{ name: object.name, fullyQualifiedName, kind: 'resource' }] };
}

/** The findings of one file (or one entry of a fleet dump archive), each with the object it is about. */
interface SarifFileFindings {
	readonly file: string;
	readonly entry?: string;
	readonly findings: readonly (Finding & { readonly object?: ObjectRef })[];
}

/** The SARIF log of a check run: one run, every rule, the results, and the notes as tool notifications. */
export function formatSarif(
	results: readonly SarifFileFindings[],
	root: SourceRoot,
	givenNotes: readonly string[],
): string {
	const facts = buildFacts();
	const artifacts = new NestedArtifacts(root);
	const outside = new Set(
		results
			.filter(({ file, findings }) => findings.length > 0 && outsideRoot(file, root))
			.map(({ file }) => file),
	);
	const notes =
		outside.size === 0
			? givenNotes
			: [
					...givenNotes,
					`${outside.size} file${outside.size === 1 ? ' is' : 's are'} outside %SRCROOT% (the ${root.kind}), so their results carry "../" paths that a code-scanning service cannot place: run check from inside the repository that holds them`,
				];
	const { home, docs } = webAddresses(facts);
	const ruleIndex = new Map<string, number>(findingCodes.map((code, index) => [code, index]));
	const sarifResults = results.flatMap(({ file, entry, findings }) =>
		findings.map((finding) => ({
			ruleId: finding.code,
			ruleIndex: ruleIndex.get(finding.code) ?? 0,
			level: sarifLevels[finding.severity],
			message: { text: finding.message },
			locations: [
				{
					physicalLocation: {
						artifactLocation:
							entry === undefined
								? artifactLocation(file, root)
								: artifacts.entryLocation(file, entry),
						region: {
							startLine: finding.range.start.line + 1,
							startColumn: finding.range.start.character + 1,
							endLine: finding.range.end.line + 1,
							endColumn: finding.range.end.character + 1,
						},
					},
					...logicalLocationsOf(finding.object),
				},
			],
			...(entry !== undefined ? { properties: { entry } } : {}),
		})),
	);
	const sarif = {
		$schema: 'https://json.schemastore.org/sarif-2.1.0.json',
		version: '2.1.0',
		runs: [
			{
				tool: {
					driver: {
						name: 'kube-status-lens',
						fullName: 'Kube Status Lens',
						...(typeof facts.version === 'string' ? { version: facts.version } : {}),
						...(home ? { informationUri: home } : {}),
						rules: findingCodes.map((code) => ruleOf(code, facts, docs)),
					},
				},
				originalUriBaseIds: {
					'%SRCROOT%': {
						description: {
							text:
								root.kind === 'git work tree'
									? 'The root of the git work tree kube-status-lens check ran in.'
									: 'The folder kube-status-lens check ran in.',
						},
					},
				},
				...(notes.length > 0
					? {
							invocations: [
								{
									executionSuccessful: true,
									toolExecutionNotifications: notes.map((note) => ({
										level: 'note',
										message: { text: note },
									})),
								},
							],
						}
					: {}),
				...(artifacts.list.length > 0 ? { artifacts: artifacts.list } : {}),
				results: sarifResults,
			},
		],
	};
	return `${JSON.stringify(sarif, null, 2)}\n`;
}
