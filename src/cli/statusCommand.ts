import { refOf } from '../core/model/object.ts';
import { computeStatuses } from '../core/status/registry.ts';
import { toneRank, type StatusResult, type Tone } from '../core/status/result.ts';
import { maxFileSizeOption, readEachManifest, readLimitsOf } from './files.ts';
import { optionsOrExit, usageError } from './options.ts';
import { jsonArrayLines, writeLines } from './output.ts';
import { visibleLine } from '../core/text/visible.ts';

/** Where the command writes, so tests can capture it. */
export interface CommandIo {
	readonly stdout: (text: string) => void;
	readonly stderr: (text: string) => void;
	readonly isTty: boolean;
	readonly now: number;
}

/** One object's record in `--json` output. */
export interface StatusRecord {
	readonly apiVersion: string;
	readonly kind: string;
	readonly namespace: string;
	readonly name: string;
	readonly system: string;
	readonly state: string;
	readonly tone: Tone;
	readonly message: string;
	readonly reasons: readonly string[];
	readonly observed: boolean;
	readonly kstatus: { readonly status: string; readonly message: string };
	readonly health: { readonly status: string; readonly message: string } | null;
	readonly computed: unknown;
	readonly source: { readonly file: string; readonly line: number };
}

const usage = `Usage: kube-status-lens status PATH... [--json] [--fail-on error|warning] [--max-file-size SIZE]

Reads Kubernetes objects from YAML/JSON files and folders (multi-document YAML, kind: List,
kubectl get -o yaml/json output) and prints the status each system would report.

  --json               one JSON array, one record per object
  --fail-on LEVEL      exit 1 when an object has tone LEVEL or worse (error, or warning and error)
  --max-file-size SIZE read no file larger than SIZE (bytes, or with K, M or G: 256M; default 64M)

Exit codes: 0 fine; 1 --fail-on matched; 2 an input could not be read or parsed (other files are still reported).
`;

const toneColours: Readonly<Record<Tone, string>> = {
	ok: '\u001b[32m',
	progressing: '\u001b[36m',
	warning: '\u001b[33m',
	error: '\u001b[31m',
	suspended: '\u001b[90m',
	unknown: '\u001b[35m',
};

function oneLine(text: string, width: number): string {
	const flat = visibleLine(text).replace(/\s+/g, ' ').trim();
	return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function* tableLines(records: readonly StatusRecord[], colour: boolean): Generator<string> {
	const rows = records.map((record) => [
		oneLine(record.kind, 100),
		oneLine(record.namespace ? `${record.namespace}/${record.name}` : record.name, 320),
		oneLine(record.observed ? record.state : `${record.state} (no status)`, 60),
		oneLine(record.message, 100),
	]);
	const header = ['KIND', 'NAMESPACE/NAME', 'STATE', 'MESSAGE'];
	const widths = header.map((title) => title.length);
	for (const row of rows) {
		row.forEach((cell, column) => {
			widths[column] = Math.max(widths[column] ?? 0, cell.length);
		});
	}
	const pad = (cells: readonly string[]): string[] =>
		cells.map((cell, column) =>
			column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0),
		);
	yield pad(header).join('  ').trimEnd();
	for (let index = 0; index < rows.length; index++) {
		const cells = pad(rows[index] ?? []);
		const tone = records[index]?.tone ?? 'unknown';
		if (colour) cells[2] = `${toneColours[tone]}${cells[2] ?? ''}\u001b[0m`;
		yield cells.join('  ').trimEnd();
	}
}

function recordOf(result: StatusResult, object: unknown, file: string, line: number): StatusRecord {
	const ref = refOf(object);
	return {
		apiVersion: ref.apiVersion,
		kind: ref.kind,
		namespace: ref.namespace,
		name: ref.name,
		system: result.system,
		state: result.state,
		tone: result.tone,
		message: result.message,
		reasons: result.reasons,
		observed: result.observed,
		kstatus: { status: result.kstatus.status, message: result.kstatus.message },
		health: result.health ? { status: result.health.status, message: result.health.message } : null,
		computed: result.computed ?? null,
		source: { file, line },
	};
}

const quoted = (text: string): string => JSON.stringify(text);

function isText(value: unknown): value is string {
	return typeof value === 'string';
}

function isStatusPair(value: unknown): value is { status: string; message: string } {
	return (
		typeof value === 'object' &&
		value !== null &&
		isText((value as { status?: unknown }).status) &&
		isText((value as { message?: unknown }).message)
	);
}

/**
 * `JSON.stringify(record, null, 2)` as an element of the output array (every line indented by two more), written out
 * for the record's known shape: the generic pretty-printer is most of
 * the time of `status --json` on a big dump. A record of another shape (a field missing at run time) takes the generic
 * path, so the text is always the same.
 */
function statusRecordJson(record: StatusRecord): string | undefined {
	const { reasons, kstatus, health, computed, source } = record;
	if (
		!isText(record.apiVersion) ||
		!isText(record.kind) ||
		!isText(record.namespace) ||
		!isText(record.name) ||
		!isText(record.system) ||
		!isText(record.state) ||
		!isText(record.tone) ||
		!isText(record.message) ||
		!Array.isArray(reasons) ||
		!reasons.every(isText) ||
		typeof record.observed !== 'boolean' ||
		!isStatusPair(kstatus) ||
		(health !== null && !isStatusPair(health)) ||
		!isText(source.file) ||
		!Number.isSafeInteger(source.line)
	) {
		return undefined;
	}
	const computedText =
		computed === null ? 'null' : JSON.stringify(computed, null, 2).replace(/\n/g, '\n    ');
	const reasonsText =
		reasons.length === 0 ? '[]' : `[\n      ${reasons.map(quoted).join(',\n      ')}\n    ]`;
	const healthText =
		health === null
			? 'null'
			: `{\n      "status": ${quoted(health.status)},\n      "message": ${quoted(health.message)}\n    }`;
	return `  {
    "apiVersion": ${quoted(record.apiVersion)},
    "kind": ${quoted(record.kind)},
    "namespace": ${quoted(record.namespace)},
    "name": ${quoted(record.name)},
    "system": ${quoted(record.system)},
    "state": ${quoted(record.state)},
    "tone": ${quoted(record.tone)},
    "message": ${quoted(record.message)},
    "reasons": ${reasonsText},
    "observed": ${String(record.observed)},
    "kstatus": {
      "status": ${quoted(kstatus.status)},
      "message": ${quoted(kstatus.message)}
    },
    "health": ${healthText},
    "computed": ${computedText},
    "source": {
      "file": ${quoted(source.file)},
      "line": ${String(source.line)}
    }
  }`;
}

/** `kube-status-lens status`: returns the exit code. */
export function runStatusCommand(argv: readonly string[], io: CommandIo): number {
	const parsed = optionsOrExit(
		argv,
		{
			choices: { 'fail-on': ['error', 'warning'] },
			flags: ['json'],
			texts: maxFileSizeOption,
		},
		usage,
		io,
	);
	if (typeof parsed === 'number') return parsed;
	const { paths } = parsed;
	const json = parsed.flags.has('json');
	const failOn = parsed.values['fail-on'] as Tone | undefined;
	const limits = readLimitsOf(parsed.values);
	if (typeof limits === 'string') return usageError(limits, usage, io);

	const objects: unknown[] = [];
	const sources: { file: string; line: number }[] = [];
	const inputError = readEachManifest(paths, io.stderr, limits, ({ file, parsed }) => {
		for (const entry of parsed.objects) {
			objects.push(entry.object);
			sources.push({ file, line: entry.range.start.line + 1 });
		}
	});

	const results: (StatusResult | undefined)[] = computeStatuses(objects, { now: io.now });
	const threshold = failOn === undefined ? undefined : toneRank(failOn);
	const failed =
		threshold !== undefined &&
		results.some(
			(result) =>
				result !== undefined &&
				toneRank(result.tone) >= threshold &&
				(result.tone === 'warning' || result.tone === 'error'),
		);
	// Each object and its verdict are let go once written: a big dump's objects are most of the memory.
	function* recordsAsWritten(): Generator<StatusRecord> {
		for (let index = 0; index < results.length; index++) {
			const result = results[index];
			const source = sources[index];
			if (!result || !source) continue;
			yield recordOf(result, objects[index], source.file, source.line);
			results[index] = undefined;
			objects[index] = undefined;
		}
	}
	if (json) writeLines(jsonArrayLines(recordsAsWritten(), statusRecordJson), io.stdout);
	else writeLines(tableLines([...recordsAsWritten()], io.isTty), io.stdout);

	if (inputError) return 2;
	return failed ? 1 : 0;
}
