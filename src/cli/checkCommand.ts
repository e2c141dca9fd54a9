import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
	diagnoseManifest,
	findingCodes,
	findingRules,
	type Finding,
	type FindingSeverity,
} from '../core/manifest/diagnose.ts';
import { parseManifests } from '../core/manifest/parse.ts';
import { getRecord, getString } from '../core/model/object.ts';
import { maxFileSizeOption, readLimitsOf, readManifestTexts } from './files.ts';
import { optionsOrExit, usageError } from './options.ts';
import { jsonArrayLines, writeLines } from './output.ts';
import { visibleLine } from '../core/text/visible.ts';
import type { CommandIo } from './statusCommand.ts';

/** What `check` needs besides the common command I/O: the folder relative paths start from. */
export interface CheckIo extends CommandIo {
	readonly cwd?: string;
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
}

const formats = ['text', 'json', 'sarif'] as const;
type Format = (typeof formats)[number];

const usage = `Usage: kube-status-lens check PATH... [--format text|json|sarif] [--max-file-size SIZE]

Checks Kubernetes manifests and kubectl dumps in files and folders for the mistakes schemas cannot see (Flux
HelmRepository spec misuse, KubeStellar BindingPolicy flags and selectors, condition hygiene) and for status
problems in dumps (Stalled, Failed, ErrApplied, unhealthy, ...). Only Fleet, KubeStellar, Harbor, Flux and ASO
objects, and workloads a BindingPolicy or WorkStatus refers to, are checked; other YAML is left alone.

  --format text      one line per finding: file:line:column: severity code: message (default)
  --format json      one JSON array, one record per finding
  --format sarif     SARIF 2.1.0, for code-scanning UIs
  --max-file-size SIZE
                     read no file larger than SIZE (bytes, or with K, M or G: 256M; default 64M)

Secrets found among the checked files are read for their key names only (spec.secretRef TLS check).

Exit codes: 0 no error-level finding; 1 an error-level finding; 2 an input could not be read or bad usage.
`;

const severityColours: Readonly<Record<FindingSeverity, string>> = {
	error: '\u001b[31m',
	warning: '\u001b[33m',
	information: '\u001b[36m',
	hint: '\u001b[90m',
};

const sarifLevels: Readonly<Record<FindingSeverity, 'error' | 'warning' | 'note'>> = {
	error: 'error',
	warning: 'warning',
	information: 'note',
	hint: 'note',
};

interface FileFindings {
	readonly file: string;
	readonly findings: readonly Finding[];
}

function recordOf(file: string, finding: Finding): CheckRecord {
	return {
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
}

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function formatText(results: readonly FileFindings[], colour: boolean): string {
	const lines: string[] = [];
	const counts: Record<FindingSeverity, number> = { error: 0, warning: 0, information: 0, hint: 0 };
	for (const { file, findings } of results) {
		for (const finding of findings) {
			counts[finding.severity]++;
			const { line, character } = finding.range.start;
			const severity = colour
				? `${severityColours[finding.severity]}${finding.severity}\u001b[0m`
				: finding.severity;
			lines.push(
				`${visibleLine(file)}:${line + 1}:${character + 1}: ${severity} ${finding.code}: ${visibleLine(finding.message)}`,
			);
		}
	}
	const files = results.filter((result) => result.findings.length > 0).length;
	lines.push(
		`${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.information} information in ${plural(files, 'file')} (${plural(results.length, 'file')} checked)`,
	);
	return `${lines.join('\n')}\n`;
}

/** The SARIF location of a file: relative to the working folder when inside it (with %SRCROOT% as file URI), else absolute. */
function artifactLocation(file: string, cwd: string): Record<string, unknown> {
	const absolute = resolve(cwd, file);
	const relativePath = relative(cwd, absolute);
	if (relativePath !== '' && !relativePath.startsWith('..') && !isAbsolute(relativePath)) {
		return {
			uri: relativePath.split(sep).map(encodeURIComponent).join('/'),
			uriBaseId: '%SRCROOT%',
		};
	}
	return { uri: pathToFileURL(absolute).href };
}

function formatSarif(results: readonly FileFindings[], cwd: string): string {
	const ruleIndex = new Map<string, number>(findingCodes.map((code, index) => [code, index]));
	const base = pathToFileURL(cwd.endsWith(sep) ? cwd : `${cwd}${sep}`).href;
	const sarif = {
		$schema: 'https://json.schemastore.org/sarif-2.1.0.json',
		version: '2.1.0',
		runs: [
			{
				tool: {
					driver: {
						name: 'kube-status-lens',
						rules: findingCodes.map((code) => ({
							id: code,
							shortDescription: { text: findingRules[code].summary },
							help: { text: `${findingRules[code].summary} See docs/diagnostics.md#${code}.` },
							defaultConfiguration: { level: sarifLevels[findingRules[code].severity] },
						})),
					},
				},
				originalUriBaseIds: { '%SRCROOT%': { uri: base } },
				results: results.flatMap(({ file, findings }) =>
					findings.map((finding) => ({
						ruleId: finding.code,
						ruleIndex: ruleIndex.get(finding.code) ?? 0,
						level: sarifLevels[finding.severity],
						message: { text: finding.message },
						locations: [
							{
								physicalLocation: {
									artifactLocation: artifactLocation(file, cwd),
									region: {
										startLine: finding.range.start.line + 1,
										startColumn: finding.range.start.character + 1,
										endLine: finding.range.end.line + 1,
										endColumn: finding.range.end.character + 1,
									},
								},
							},
						],
					})),
				),
			},
		],
	};
	return `${JSON.stringify(sarif, null, 2)}\n`;
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

/** `kube-status-lens check`: returns the exit code. */
export function runCheckCommand(argv: readonly string[], io: CheckIo): number {
	const parsed = optionsOrExit(
		argv,
		{ choices: { format: formats }, flags: [], texts: maxFileSizeOption },
		usage,
		io,
	);
	if (typeof parsed === 'number') return parsed;
	const { paths } = parsed;
	const format = (parsed.values.format ?? 'text') as Format;
	const limits = readLimitsOf(parsed.values);
	if (typeof limits === 'string') return usageError(limits, usage, io);

	const read = readManifestTexts(paths, io.stderr, limits);
	const inputError = read.inputError;
	const texts = read.texts;
	const secrets = secretKeysOf(texts);
	const results: FileFindings[] = texts.map(({ file, text }) => ({
		file,
		// No YAML extension reports syntax errors in CI, so they are findings here.
		findings: diagnoseManifest(text, {
			now: io.now,
			reportSyntaxErrors: true,
			workspaceSecrets: (namespace, name) => secrets.get(`${namespace}/${name}`),
		}),
	}));

	const cwd = io.cwd ?? process.cwd();
	if (format === 'json') {
		const records = results.flatMap(({ file, findings }) =>
			findings.map((finding) => recordOf(file, finding)),
		);
		writeLines(jsonArrayLines(records), io.stdout);
	} else if (format === 'sarif') io.stdout(formatSarif(results, cwd));
	else io.stdout(formatText(results, io.isTty));

	if (inputError) return 2;
	return results.some(({ findings }) => findings.some((finding) => finding.severity === 'error'))
		? 1
		: 0;
}
