import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { diagnoseManifest, type Finding, type FindingSeverity } from '../core/manifest/diagnose.ts';
import {
	fleetTroubleshootingFindings,
	explicitClockOf,
	newestTimestampOf,
	type InputObject,
} from '../core/checks/fleetTroubleshooting.ts';
import {
	isFleetMonitorOutput,
	readFleetMonitorOutput,
	snapshotChangeLines,
} from '../core/checks/fleetMonitor.ts';
import { parseManifests, type ParsedObject } from '../core/manifest/parse.ts';
import type { Range } from '../core/model/range.ts';
import { getRecord, getString, refOf, type ObjectRef } from '../core/model/object.ts';
import {
	archiveLimitsUsage,
	maxFileSizeOption,
	readingDumpArchives,
	readLimitsOf,
	readManifestTexts,
	type DumpArchives,
} from './files.ts';
import { optionsOrExit, usageError } from './options.ts';
import { jsonArrayLines, writeLines } from './output.ts';
import { formatSarif, type SourceRoot } from './sarif.ts';
import { visibleLine } from '../core/text/visible.ts';
import type { CommandIo } from './statusCommand.ts';

/** What `check` needs besides the common command I/O: the folder relative paths start from. */
export interface CheckIo extends CommandIo {
	readonly cwd?: string;
	/** The environment (KUBE_STATUS_LENS_NOW); process.env when not given. */
	readonly env?: Readonly<Record<string, string | undefined>>;
}

/** One finding in `--format json` output; lines and columns are 1-based, ends exclusive. */
export interface CheckRecord {
	readonly file: string;
	readonly line: number;
	readonly column: number;
	readonly endLine: number;
	readonly endColumn: number;
	readonly severity: FindingSeverity;
	readonly code: string;
	readonly message: string;
	readonly fixes: readonly string[];
	/** The object the finding is about (absent for a syntax error). */
	readonly object?: ObjectRef;
	/** The entry of the archive `file` the object came from. */
	readonly entry?: string;
}

const formats = ['text', 'json', 'sarif'] as const;
type Format = (typeof formats)[number];

const usage = `Usage: kube-status-lens check PATH... [--format text|json|sarif] [--now TIME] [--max-file-size SIZE]

Checks Kubernetes manifests and kubectl dumps in files and folders for the mistakes schemas cannot see (Flux
HelmRepository spec misuse, KubeStellar BindingPolicy flags and selectors, condition hygiene) and for status
problems in dumps (Stalled, Failed, ErrApplied, unhealthy, ...). Only Fleet, KubeStellar, Harbor, Flux and ASO
objects, and workloads a BindingPolicy or WorkStatus refers to, are checked; other YAML is left alone.

Each PATH is one input for Fleet's own troubleshooting checks (those of \`fleet monitor\` and \`fleet analyze\`):
stuck BundleDeployments, Bundles out of step with their GitRepo, Clusters with agent issues, and the rest, found on
the objects that carry a status. A check comparing two kinds runs only when the input holds both; a note says what
was not checked. \`fleet monitor\` output (one JSON snapshot per line) is read too: the latest snapshot's findings
on the objects it names, and what changed between snapshots.

  --format text      one line per finding: file:line:column: severity code: message (default)
  --format json      one JSON array, one record per finding
  --format sarif     SARIF 2.1.0, for code-scanning UIs
  --now TIME         measure ages (agent last seen, last poll, WaitApplied) from TIME (RFC 3339); also
                     KUBE_STATUS_LENS_NOW. Without it, Fleet's checks measure from the newest timestamp of
                     each input
  --max-file-size SIZE
                     read no file (or archive entry) larger than SIZE (bytes, or with K, M or G: 256M; default 64M)
${archiveLimitsUsage}
A fleet dump archive (.tgz, named or in a folder) is one input; its Secrets are read for metadata and type only.
Secrets found among the checked files are read for their key names only (spec.secretRef TLS check).

Exit codes: 0 no error-level finding; 1 an error-level finding; 2 an input could not be read or bad usage.
`;

const severityColours: Readonly<Record<FindingSeverity, string>> = {
	error: '\u001b[31m',
	warning: '\u001b[33m',
	information: '\u001b[36m',
	hint: '\u001b[90m',
};

/** A finding and the object it is about. */
type CheckFinding = Finding & { readonly object?: ObjectRef };

interface FileFindings {
	readonly file: string;
	readonly entry?: string;
	readonly findings: readonly CheckFinding[];
}

function recordOf(file: string, entry: string | undefined, finding: CheckFinding): CheckRecord {
	const record: CheckRecord = {
		file,
		line: finding.range.start.line + 1,
		column: finding.range.start.character + 1,
		endLine: finding.range.end.line + 1,
		endColumn: finding.range.end.character + 1,
		severity: finding.severity,
		code: finding.code,
		message: finding.message,
		fixes: (finding.fixes ?? []).map((fix) => fix.title),
	};
	const object = finding.object;
	return {
		...record,
		...(object
			? {
					object: {
						apiVersion: object.apiVersion,
						kind: object.kind,
						namespace: object.namespace,
						name: object.name,
					},
				}
			: {}),
		...(entry !== undefined ? { entry } : {}),
	};
}

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Where a finding's line and column count from: the file, or the entry of an archive (`archive:entry`). */
function placeOf(file: string, entry: string | undefined): string {
	return entry === undefined ? visibleLine(file) : `${visibleLine(file)}:${visibleLine(entry)}`;
}

function formatText(
	results: readonly FileFindings[],
	colour: boolean,
	notes: readonly string[],
): string {
	const lines: string[] = [];
	const counts: Record<FindingSeverity, number> = { error: 0, warning: 0, information: 0, hint: 0 };
	for (const { file, entry, findings } of results) {
		for (const finding of findings) {
			counts[finding.severity]++;
			const { line, character } = finding.range.start;
			const severity = colour
				? `${severityColours[finding.severity]}${finding.severity}\u001b[0m`
				: finding.severity;
			lines.push(
				`${placeOf(file, entry)}:${line + 1}:${character + 1}: ${severity} ${finding.code}: ${visibleLine(finding.message)}`,
			);
		}
	}
	for (const note of notes) lines.push(note);
	const files = results.filter((result) => result.findings.length > 0).length;
	lines.push(
		`${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.information} information in ${plural(files, 'file')} (${plural(results.length, 'file')} checked)`,
	);
	return `${lines.join('\n')}\n`;
}

/** Key names of the Secrets among the texts, by "namespace/name" (values are never kept). */
function secretKeysOf(texts: readonly { file: string; text: string }[]): Map<string, string[]> {
	const secrets = new Map<string, string[]>();
	for (const { file, text } of texts) {
		if (!/^kind:\s*["']?Secret\b|"kind"\s*:\s*"Secret"/m.test(text)) continue;
		for (const entry of parseManifests(text, { fileName: file }).objects) {
			const object = entry.object;
			if (getString(object, 'kind') !== 'Secret' || getString(object, 'apiVersion') !== 'v1') {
				continue;
			}
			const key = `${getString(object, 'metadata', 'namespace') ?? ''}/${getString(object, 'metadata', 'name') ?? ''}`;
			secrets.set(key, [
				...Object.keys(getRecord(object, 'data') ?? {}),
				...Object.keys(getRecord(object, 'stringData') ?? {}),
			]);
		}
	}
	return secrets;
}

/**
 * One file of an input: its text (diagnosed as a manifest) and, inside an archive, the entry; objects already read
 * are given as `parsed` (an archive's entries, whose kind may come from the entry's name) and are not read again.
 */
interface CheckSource {
	readonly file: string;
	readonly entry?: string;
	readonly text: string;
	readonly parsed?: { readonly objects: readonly ParsedObject[] };
}

/**
 * One input of Fleet's troubleshooting checks: the files of a folder (or a file) named on the command line, or the
 * entries of a dump archive. `completeKinds` names the kinds it holds every object of (a dump lists them whole);
 * `clockObjects` are objects read for their timestamps only (a dump's Events).
 */
interface CheckInput {
	readonly name: string;
	readonly sources: readonly CheckSource[];
	readonly completeKinds?: ReadonlySet<string>;
	readonly clockObjects?: readonly Readonly<Record<string, unknown>>[];
}

/** What a check run needs besides the inputs. */
interface CheckRunOptions {
	readonly now: number;
	/** `--now` or KUBE_STATUS_LENS_NOW: the clock of every age. */
	readonly explicitNow: number | undefined;
	readonly secrets: ReadonlyMap<string, readonly string[]>;
}

/** What checking the inputs gave: the findings per file, the notes and summaries to print, and unreadable lines. */
interface CheckRun {
	readonly results: FileFindings[];
	readonly notes: string[];
	inputError: boolean;
}

function objectAt(objects: readonly ParsedObject[], range: Range): ObjectRef | undefined {
	const { line, character } = range.start;
	const found = objects.find(({ range: objectRange }) => {
		const { start, end } = objectRange;
		const afterStart = line > start.line || (line === start.line && character >= start.character);
		const beforeEnd = line < end.line || (line === end.line && character <= end.character);
		return afterStart && beforeEnd;
	});
	return found ? refOf(found.object) : undefined;
}

function byPlace(a: CheckFinding, b: CheckFinding): number {
	return (
		a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character
	);
}

/** The findings of one input: each file's own, Fleet's troubleshooting classes across its files, and notes. */
function checkInput(input: CheckInput, options: CheckRunOptions, run: CheckRun): void {
	const perSource: {
		source: CheckSource;
		findings: CheckFinding[];
		objects: readonly ParsedObject[];
	}[] = [];
	const objects: InputObject<{ index: number; range: Range }>[] = [];
	for (const source of input.sources) {
		const { file, entry, text } = source;
		if (isFleetMonitorOutput(text)) {
			const reading = readFleetMonitorOutput(text);
			const place = placeOf(file, entry);
			for (const problem of reading.problems) {
				run.notes.push(`${place}:${problem.line + 1}: ${visibleLine(problem.message)}`);
				run.inputError = true;
			}
			const line = reading.latestLine;
			const range = { start: { line, character: 0 }, end: { line, character: 0 } };
			const findings: CheckFinding[] = reading.findings.map((finding) => ({
				range,
				severity: finding.severity,
				code: finding.code,
				message: finding.message,
				subject: `${finding.object.kind} ${finding.object.namespace}/${finding.object.name}`,
				object: finding.object,
			}));
			perSource.push({ source, findings, objects: [] });
			if (reading.changes.length > 0) {
				run.notes.push(
					`${place}: fleet monitor: ${reading.snapshotCount} snapshots, changes as fleet analyze --diff counts them:`,
				);
				for (const line of snapshotChangeLines(reading.changes)) run.notes.push(`  ${line}`);
			}
			continue;
		}
		// No YAML extension reports syntax errors in CI, so they are findings here.
		const diagnosed: readonly Finding[] = diagnoseManifest(text, {
			now: options.explicitNow ?? options.now,
			reportSyntaxErrors: true,
			workspaceSecrets: (namespace, name) => options.secrets.get(`${namespace}/${name}`),
		});
		const needsObjects = diagnosed.length > 0 || text.includes('fleet.cattle.io');
		const parsedObjects =
			source.parsed?.objects ??
			(needsObjects ? parseManifests(text, { fileName: file }).objects : []);
		const index = perSource.length;
		for (const parsedObject of parsedObjects) {
			objects.push({ object: parsedObject.object, source: { index, range: parsedObject.range } });
		}
		perSource.push({
			source,
			findings: diagnosed.map((finding) => {
				const object = objectAt(parsedObjects, finding.range);
				return object ? { ...finding, object } : finding;
			}),
			objects: parsedObjects,
		});
	}
	const now =
		options.explicitNow ??
		newestTimestampOf([...objects.map(({ object }) => object), ...(input.clockObjects ?? [])]);
	const fleet = fleetTroubleshootingFindings(objects, {
		now,
		...(input.completeKinds ? { completeKinds: input.completeKinds } : {}),
	});
	for (const finding of fleet.findings) {
		const target = perSource[finding.source.index];
		if (!target) continue;
		const start = finding.source.range.start;
		target.findings.push({
			range: { start, end: start },
			severity: finding.severity,
			code: finding.code,
			message: finding.message,
			subject: `${finding.object.kind} ${finding.object.namespace === '' ? '' : `${finding.object.namespace}/`}${finding.object.name}`,
			object: finding.object,
		});
	}
	for (const note of fleet.notes) {
		run.notes.push(`${visibleLine(input.name)}: note: ${note.message}`);
	}
	for (const { source, findings } of perSource) {
		run.results.push({
			file: source.file,
			...(source.entry !== undefined ? { entry: source.entry } : {}),
			findings: [...findings].sort(byPlace),
		});
	}
}

/** The time `--now` or KUBE_STATUS_LENS_NOW names, undefined when neither is given, or why it is not a time. */
function explicitNowOf(
	values: Readonly<Record<string, string>>,
	env: Readonly<Record<string, string | undefined>>,
): number | undefined | string {
	const option = values.now;
	const given = option ?? env.KUBE_STATUS_LENS_NOW;
	const time = explicitClockOf(given);
	if (time !== 'invalid') return time;
	return `${option !== undefined ? '--now' : 'KUBE_STATUS_LENS_NOW'} takes an RFC 3339 time such as 2026-03-01T12:00:00Z, not ${given}`;
}

/** `kube-status-lens check`: returns the exit code. */
const checkOptions = {
	choices: { format: formats },
	flags: [],
	texts: { ...maxFileSizeOption, now: 'TIME' },
};

/** `kube-status-lens check` as the command line runs it, fleet dump archives read first (see readingDumpArchives). */
export function runCheckCommandLine(
	argv: readonly string[],
	io: CheckIo,
): number | Promise<number> {
	return readingDumpArchives(argv, checkOptions, io.stderr, (dumps) =>
		runCheckCommand(argv, io, dumps),
	);
}

/** `kube-status-lens check`: the exit code. `dumps`: the fleet dump archives among the paths, as read. */
export function runCheckCommand(
	argv: readonly string[],
	io: CheckIo,
	dumps?: DumpArchives,
): number {
	const parsed = optionsOrExit(argv, checkOptions, usage, io);
	if (typeof parsed === 'number') return parsed;
	const { paths } = parsed;
	const format = (parsed.values.format ?? 'text') as Format;
	const limits = readLimitsOf(parsed.values);
	if (typeof limits === 'string') return usageError(limits, usage, io);
	const explicitNow = explicitNowOf(parsed.values, io.env ?? process.env);
	if (typeof explicitNow === 'string') return usageError(explicitNow, usage, io);

	// Each path is one input of Fleet's checks; a file named twice is checked once.
	let readError = false;
	const inputs: { name: string; texts: { file: string; text: string }[] }[] = [];
	const seen = new Set<string>();
	for (const path of paths) {
		const read = readManifestTexts([path], io.stderr, limits);
		readError ||= read.inputError;
		const texts = read.texts.filter(({ file }) => !seen.has(file));
		for (const { file } of texts) seen.add(file);
		inputs.push({ name: path, texts });
	}
	const secrets = secretKeysOf(inputs.flatMap(({ texts }) => texts));
	const run: CheckRun = { results: [], notes: [], inputError: false };
	for (const { name, texts } of inputs) {
		checkInput({ name, sources: texts }, { now: io.now, explicitNow, secrets }, run);
	}
	// Each fleet dump archive is one input, which holds every object of the kinds it has.
	readError ||= dumps?.inputError ?? false;
	for (const archive of dumps?.archives ?? []) {
		checkInput(
			{
				name: archive.path,
				sources: archive.entries,
				completeKinds: archive.kinds,
				clockObjects: archive.events.map((event) => ({
					kind: 'Event',
					lastTimestamp: event.lastSeen,
				})),
			},
			{ now: io.now, explicitNow, secrets },
			run,
		);
	}
	const { results, notes } = run;

	const cwd = io.cwd ?? process.cwd();
	if (format === 'json') {
		const records = results.flatMap(({ file, entry, findings }) =>
			findings.map((finding) => recordOf(file, entry, finding)),
		);
		writeLines(jsonArrayLines(records), io.stdout);
		for (const note of notes) io.stderr(`${note}\n`);
	} else if (format === 'sarif') io.stdout(formatSarif(results, sourceRootOf(cwd), notes));
	else io.stdout(formatText(results, io.isTty, notes));

	if (readError || run.inputError) return 2;
	return results.some(({ findings }) => findings.some((finding) => finding.severity === 'error'))
		? 1
		: 0;
}

/** %SRCROOT% of a SARIF log: the git work tree holding `cwd` (a `.git` folder or file), else `cwd` itself. */
function sourceRootOf(cwd: string): SourceRoot {
	for (let folder = resolve(cwd); ; folder = dirname(folder)) {
		if (existsSync(join(folder, '.git'))) return { path: folder, kind: 'git work tree', cwd };
		if (dirname(folder) === folder) return { path: cwd, kind: 'working folder', cwd };
	}
}
