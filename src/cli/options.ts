// The command line of `status`, `check` and `merge`: paths, flags, options whose value is one of a few words, and
// options whose value is text (a file, NAME=FILE), given as `--name value` or `--name=value`, as often as the command
// allows. Errors are sentences for stderr; the caller decides the exit code.
import { visibleLine } from '../core/text/visible.ts';

/** What a command accepts besides paths. */
export interface OptionSpec {
	/** Options with a value, and the values each accepts. */
	readonly choices: Readonly<Record<string, readonly string[]>>;
	/** Options without a value. */
	readonly flags: readonly string[];
	/**
	 * Options whose value is text, with the word usage names it by (`FILE`); a word holding `=` (`NAME=FILE`) asks
	 * for a non-empty name, `=`, and a non-empty text.
	 */
	readonly texts?: Readonly<Record<string, string>>;
	/** True when the command runs without paths (its options can name every input). */
	readonly pathsOptional?: boolean;
}

/** The parsed command line. */
export type ParsedOptions =
	| {
			readonly kind: 'ok';
			readonly paths: readonly string[];
			/** The value of each option that was given (the last one wins). */
			readonly values: Readonly<Record<string, string>>;
			readonly flags: ReadonlySet<string>;
			/** Every value of each option that was given, in order: options a command takes many times. */
			readonly lists: Readonly<Record<string, readonly string[]>>;
	  }
	| { readonly kind: 'help' }
	| { readonly kind: 'error'; readonly message: string };

/** The NAME and TEXT of a `NAME=TEXT` value (split at the first `=`). */
export function nameAndText(value: string): { readonly name: string; readonly text: string } {
	const equals = value.indexOf('=');
	return equals < 0
		? { name: '', text: value }
		: { name: value.slice(0, equals), text: value.slice(equals + 1) };
}

function listOf(words: readonly string[]): string {
	return words.length <= 1
		? (words[0] ?? '')
		: `${words.slice(0, -1).join(', ')} or ${words[words.length - 1] ?? ''}`;
}

// A text value has to be there and, for a NAME=TEXT word, hold both parts; a value starting with `-` is taken for a
// forgotten value followed by the next option (give `--name=-x` for a file named `-x`).
function textProblem(word: string, value: string | undefined, inline: boolean): boolean {
	if (value === undefined || value === '') return true;
	if (!inline && value.startsWith('-') && value !== '-') return true;
	if (!word.includes('=')) return false;
	const { name, text } = nameAndText(value);
	return name === '' || text === '';
}

/** Parses argv by the spec; `--help`/`-h` anywhere asks for help. */
export function parseOptions(argv: readonly string[], spec: OptionSpec): ParsedOptions {
	const paths: string[] = [];
	const values: Record<string, string> = {};
	const lists: Record<string, string[]> = {};
	const flags = new Set<string>();
	const keep = (name: string, value: string): void => {
		values[name] = value;
		(lists[name] ??= []).push(value);
	};
	for (let index = 0; index < argv.length; index++) {
		const argument = argv[index] ?? '';
		if (argument === '--help' || argument === '-h') return { kind: 'help' };
		if (!argument.startsWith('-') || argument === '-') {
			paths.push(argument);
			continue;
		}
		const equals = argument.indexOf('=');
		const name = (equals > 0 ? argument.slice(0, equals) : argument).replace(/^--/, '');
		const choices = spec.choices[name];
		const word = spec.texts?.[name];
		if (choices) {
			const value = equals > 0 ? argument.slice(equals + 1) : argv[++index];
			if (value === undefined || !choices.includes(value)) {
				return {
					kind: 'error',
					message: `--${name} takes ${listOf(choices)}, not ${value ?? 'nothing'}`,
				};
			}
			keep(name, value);
		} else if (word !== undefined) {
			const value = equals > 0 ? argument.slice(equals + 1) : argv[++index];
			if (textProblem(word, value, equals > 0)) {
				return {
					kind: 'error',
					message: `--${name} takes ${word}, not ${value === undefined || value === '' ? 'nothing' : value}`,
				};
			}
			keep(name, value ?? '');
		} else if (spec.flags.includes(name) && equals < 0) {
			flags.add(name);
		} else {
			return { kind: 'error', message: `unknown option ${argument}` };
		}
	}
	return { kind: 'ok', paths, values, flags, lists };
}

/** Says what is wrong with the command line, then the usage, on stderr: the exit code of bad usage (2). */
export function usageError(
	message: string,
	usage: string,
	io: { readonly stderr: (text: string) => void },
): number {
	io.stderr(`kube-status-lens: ${visibleLine(message)}\n${usage}`);
	return 2;
}

/**
 * Parses a command's options, answering `--help` (usage, exit 0) and a usage error (stderr, exit 2) itself: the
 * parsed options, or the exit code to return.
 */
export function optionsOrExit(
	argv: readonly string[],
	spec: OptionSpec,
	usage: string,
	io: { readonly stdout: (text: string) => void; readonly stderr: (text: string) => void },
): Extract<ParsedOptions, { kind: 'ok' }> | number {
	const parsed = parseOptions(argv, spec);
	if (parsed.kind === 'help') {
		io.stdout(usage);
		return 0;
	}
	if (parsed.kind === 'error') return usageError(parsed.message, usage, io);
	if (parsed.paths.length === 0 && spec.pathsOptional !== true) {
		io.stderr(usage);
		return 2;
	}
	return parsed;
}
