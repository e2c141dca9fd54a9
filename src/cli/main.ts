import { runCheckCommandLine } from './checkCommand.ts';
import { runMergeCommand } from './mergeCommand.ts';
import { runStatusCommandLine } from './statusCommand.ts';

const usage = `Usage: kube-status-lens <command> [options]

Commands:
  status PATH... [--json] [--wide] [--fail-on error|warning]
                                                     status of every object in files and folders
  merge ...                                          preview the multi-WEC status merge (merge --help)
  check PATH... [--format text|json|sarif]           the editor diagnostics, for CI (exit 1 on errors)

Run a command with --help for its options.
`;

/** The terminal's width, else the COLUMNS variable when the output is not a terminal; nothing when neither says. */
function terminalColumns(): { columns?: number } {
	const columns = process.stdout.isTTY ? process.stdout.columns : Number(process.env.COLUMNS);
	return Number.isSafeInteger(columns) && columns > 0 ? { columns } : {};
}

function main(argv: readonly string[]): number | Promise<number> {
	const [command, ...rest] = argv;
	const io = {
		stdout: (text: string) => process.stdout.write(text),
		stdoutBytes: (bytes: Uint8Array) => process.stdout.write(bytes),
		stderr: (text: string) => process.stderr.write(text),
		isTty: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
		now: Date.now(),
		cwd: process.cwd(),
		...terminalColumns(),
	};
	switch (command) {
		case 'status':
			return runStatusCommandLine(rest, io);
		case 'check':
			return runCheckCommandLine(rest, io);
		case 'merge':
			return runMergeCommand(rest, io);
		case '--help':
		case '-h':
		case 'help':
			io.stdout(usage);
			return 0;
		default:
			io.stderr(command ? `kube-status-lens: unknown command ${command}\n${usage}` : usage);
			return 2;
	}
}

const code = main(process.argv.slice(2));
if (typeof code === 'number') process.exitCode = code;
// Fleet dump archives are read as streams.
else void code.then((value) => (process.exitCode = value));
