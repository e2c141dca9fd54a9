// The table `status` prints: a row per object with where it was read, messages wrapped at the terminal's width (or
// whole with --wide), and a summary that says why the exit code is what it is.
import { isAbsolute, relative } from 'node:path';
import type { Tone } from '../core/status/result.ts';
import { visibleLine } from '../core/text/visible.ts';
import type { StatusRecord } from './statusRecords.ts';

/** The width when the output is not a terminal and COLUMNS says nothing: room for a CI log's lines. */
export const defaultTableWidth = 160;

/** Below this many characters beside the other columns, messages go on lines of their own under their row. */
const narrowestMessage = 30;
const messageIndent = '    ';

const toneColours: Readonly<Record<Tone, string>> = {
	ok: '\u001b[32m',
	progressing: '\u001b[36m',
	warning: '\u001b[33m',
	error: '\u001b[31m',
	suspended: '\u001b[90m',
	unknown: '\u001b[35m',
};

/** How the table is laid out. */
interface TableLayout {
	/** The terminal's width in characters. */
	readonly width: number;
	/** Messages and every other cell whole, on one line per object. */
	readonly wide: boolean;
	readonly colour: boolean;
	/** The folder paths are shown relative to when they lie under it (the working directory). */
	readonly cwd?: string;
}

function flat(text: string): string {
	return visibleLine(text).replace(/\s+/g, ' ').trim();
}

function cut(text: string, width: number, wide: boolean): string {
	return wide || text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

// A path's end says most (the file name, the line), so a long one loses its start.
function cutStart(text: string, width: number, wide: boolean): string {
	return wide || text.length <= width ? text : `…${text.slice(text.length - width + 1)}`;
}

/** Where a record was read: `file:line`, or `archive:entry` (with `:line` past an entry's first line). */
function sourceOf({ source }: StatusRecord, cwd: string | undefined): string {
	// A CI log reads `examples/app.yaml:5`, whatever folder the job was cloned into.
	const below = cwd === undefined ? undefined : relative(cwd, source.file);
	const file =
		below !== undefined && below !== '' && !below.startsWith('..') && !isAbsolute(below)
			? below
			: source.file;
	if (source.entry === undefined) return `${file}:${source.line}`;
	return source.line > 1 ? `${file}:${source.entry}:${source.line}` : `${file}:${source.entry}`;
}

/** The text in lines of at most `width` characters, broken between words (a longer word is cut). */
function wrapWords(text: string, width: number): string[] {
	const lines: string[] = [];
	let line = '';
	for (let word of text.split(' ')) {
		if (word === '') continue;
		if (line !== '' && line.length + 1 + word.length <= width) {
			line = `${line} ${word}`;
			continue;
		}
		if (line !== '') lines.push(line);
		while (word.length > width) {
			lines.push(word.slice(0, width));
			word = word.slice(width);
		}
		line = word;
	}
	if (line !== '' || lines.length === 0) lines.push(line);
	return lines;
}

/**
 * At most this many characters of one object's message in the table (--wide too): a 1 MB message printed 1.9 MiB of
 * table. --json keeps it whole.
 */
const rowMessageLimit = 2_000;

function rowMessage(message: string): string {
	if (message.length <= rowMessageLimit) return message;
	const more = message.length - rowMessageLimit;
	return `${message.slice(0, rowMessageLimit)}… (${more.toLocaleString('en-US')} more characters: --json prints it whole)`;
}

/** The table's lines: a header, then each object's row and the lines its message wraps onto. */
export function* tableLines(
	records: readonly StatusRecord[],
	{ width, wide, colour, cwd }: TableLayout,
): Generator<string> {
	const rows = records.map((record) => [
		cut(flat(record.kind), 100, wide),
		cut(flat(record.namespace ? `${record.namespace}/${record.name}` : record.name), 320, wide),
		cut(flat(record.observed ? record.state : `${record.state} (no status)`), 60, wide),
		cutStart(flat(sourceOf(record, cwd)), 120, wide),
	]);
	const header = ['KIND', 'NAMESPACE/NAME', 'STATE', 'SOURCE'];
	const widths = header.map((title) => title.length);
	for (const row of rows) {
		row.forEach((cell, column) => {
			widths[column] = Math.max(widths[column] ?? 0, cell.length);
		});
	}
	const padded = (cells: readonly string[]): string[] =>
		cells.map((cell, column) => cell.padEnd(widths[column] ?? 0));
	const besideWidth = width - widths.reduce((sum, cellWidth) => sum + cellWidth + 2, 0);
	const beside = wide || besideWidth >= narrowestMessage;
	yield [...padded(header), 'MESSAGE'].join('  ').trimEnd();
	for (let index = 0; index < rows.length; index++) {
		const cells = padded(rows[index] ?? []);
		const tone = records[index]?.tone ?? 'unknown';
		if (colour) cells[2] = `${toneColours[tone]}${cells[2] ?? ''}\u001b[0m`;
		const message = rowMessage(flat(records[index]?.message ?? ''));
		if (wide) {
			yield [...cells, message].join('  ').trimEnd();
		} else if (beside) {
			const [first = '', ...rest] = wrapWords(message, besideWidth);
			yield [...cells, first].join('  ').trimEnd();
			const indent = ' '.repeat(width - besideWidth);
			for (const line of rest) yield `${indent}${line}`;
		} else {
			yield cells.join('  ').trimEnd();
			if (message === '') continue;
			const lineWidth = Math.max(width - messageIndent.length, narrowestMessage);
			for (const line of wrapWords(message, lineWidth)) yield `${messageIndent}${line}`;
		}
	}
}

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? '' : 's'}`;
}

const tonesByUrgency: readonly Tone[] = [
	'error',
	'warning',
	'unknown',
	'progressing',
	'suspended',
	'ok',
];

/** What the exit code of `status` depends on. */
interface ExitFacts {
	/** Paths, files and archives that could not be read or parsed. */
	readonly failedInputs: number;
	readonly failOn: 'error' | 'warning' | undefined;
	/** Objects at or past the --fail-on level. */
	readonly failing: number;
}

/** The exit code of `status`. */
export function exitCodeOf({ failedInputs, failing }: ExitFacts): number {
	if (failedInputs > 0) return 2;
	return failing > 0 ? 1 : 0;
}

/** The summary under the table: the objects by tone, then why the exit code is what it is. */
export function summaryLines(records: readonly StatusRecord[], facts: ExitFacts): string[] {
	const counts = new Map<Tone, number>();
	for (const record of records) counts.set(record.tone, (counts.get(record.tone) ?? 0) + 1);
	const byTone = tonesByUrgency
		.filter((tone) => (counts.get(tone) ?? 0) > 0)
		.map((tone) => `${counts.get(tone) ?? 0} ${tone}`);
	const { failedInputs, failOn, failing } = facts;
	const level = failOn === 'warning' ? 'in warning or error' : 'in error';
	const matched =
		failOn === undefined
			? undefined
			: failing > 0
				? `${plural(failing, 'object')} ${level} (--fail-on ${failOn})`
				: `no object ${level} (--fail-on ${failOn})`;
	const code = exitCodeOf(facts);
	let why: string;
	if (failedInputs > 0) {
		why = `${failedInputs === 1 ? '1 input' : `${failedInputs} inputs`} could not be read or parsed (see the messages above)`;
		if (matched !== undefined && failing > 0) why = `${why}; ${matched}`;
	} else {
		why = matched ?? 'states set the exit code only with --fail-on error|warning';
	}
	return [
		`${plural(records.length, 'object')}${byTone.length > 0 ? `: ${byTone.join(', ')}` : ''}`,
		`${why}: exit ${code}`,
	];
}
