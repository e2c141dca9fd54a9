// The command line of `status` and `check`: paths, flags, and options whose value is one of a few words, given as
// `--name value` or `--name=value`. Errors are sentences for stderr; the caller decides the exit code.

/** What a command accepts besides paths. */
export interface OptionSpec {
	/** Options with a value, and the values each accepts. */
	readonly choices: Readonly<Record<string, readonly string[]>>;
	/** Options without a value. */
	readonly flags: readonly string[];
}

/** The parsed command line. */
export type ParsedOptions =
	| {
			readonly kind: 'ok';
			readonly paths: readonly string[];
			/** The value of each option that was given (the last one wins). */
			readonly values: Readonly<Record<string, string>>;
			readonly flags: ReadonlySet<string>;
	  }
	| { readonly kind: 'help' }
	| { readonly kind: 'error'; readonly message: string };

function listOf(words: readonly string[]): string {
	return words.length <= 1
		? (words[0] ?? '')
		: `${words.slice(0, -1).join(', ')} or ${words[words.length - 1] ?? ''}`;
}

/** Parses argv by the spec; `--help`/`-h` anywhere asks for help. */
export function parseOptions(argv: readonly string[], spec: OptionSpec): ParsedOptions {
	const paths: string[] = [];
	const values: Record<string, string> = {};
	const flags = new Set<string>();
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
		if (choices) {
			const value = equals > 0 ? argument.slice(equals + 1) : argv[++index];
			if (value === undefined || !choices.includes(value)) {
				return {
					kind: 'error',
					message: `--${name} takes ${listOf(choices)}, not ${value ?? 'nothing'}`,
				};
			}
			values[name] = value;
		} else if (spec.flags.includes(name) && equals < 0) {
			flags.add(name);
		} else {
			return { kind: 'error', message: `unknown option ${argument}` };
		}
	}
	return { kind: 'ok', paths, values, flags };
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
	if (parsed.kind === 'error') {
		io.stderr(`kube-status-lens: ${parsed.message}\n${usage}`);
		return 2;
	}
	if (parsed.paths.length === 0) {
		io.stderr(usage);
		return 2;
	}
	return parsed;
}
