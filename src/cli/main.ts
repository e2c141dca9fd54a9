import { join } from 'node:path';
import { isatty } from 'node:tty';
import { useCelLanguage } from '../core/status/fluxHealthChecks.ts';
import { celBundleLoader } from '../files/celBundle.ts';
import { runCheckCommandLine } from './checkCommand.ts';
import { runMergeCommand } from './mergeCommand.ts';
import { OutputClosed, writeStderr, writeStdout } from './standardStreams.ts';
import { runStatusCommandLine } from './statusCommand.ts';
import { runTargetsCommandLine } from './targetsCommand.ts';
import { statusWorkerMinBytes, type StatusWorkerSetup } from './statusWorkerClient.ts';

const usage = `Usage: kube-status-lens <command> [options]

Commands:
  status PATH... [--json] [--wide] [--fail-on error|warning]
                                                     status of every object in files and folders
  merge ...                                          preview the multi-WEC status merge (merge --help)
  check PATH... [--format text|json|sarif]           the editor diagnostics, for CI (exit 1 on errors)
  targets PATH... [--json]                           where each Fleet Bundle and BindingPolicy goes, and why not
  mcp [PATH...] [--context NAME]                     serve the tools to an assistant over MCP (mcp --help)

Run a command with --help for its options.
`;

/** The terminal's width, else the COLUMNS variable when the output is not a terminal; nothing when neither says. */
function terminalColumns(stdoutIsTty: boolean): { columns?: number } {
	const columns = stdoutIsTty ? process.stdout.columns : Number(process.env.COLUMNS);
	return Number.isSafeInteger(columns) && columns > 0 ? { columns } : {};
}

/**
 * The worker thread `status --json` reads a big input with (dist/statusWorker.cjs, beside this bundle), unless
 * KUBE_STATUS_LENS_THREADS=1 keeps the command on one thread. Run from the sources, there is no bundle beside.
 */
function statusWorkerSetup(): { statusWorker?: StatusWorkerSetup } {
	if (process.env.KUBE_STATUS_LENS_THREADS === '1' || typeof __dirname !== 'string') return {};
	return {
		statusWorker: { script: join(__dirname, 'statusWorker.cjs'), minBytes: statusWorkerMinBytes },
	};
}

function main(argv: readonly string[]): number | Promise<number> {
	const [command, ...rest] = argv;
	// CEL (dist/cel.cjs) is read only when a Kustomization's health check expressions need it.
	if (typeof __dirname === 'string') useCelLanguage(celBundleLoader(__dirname));
	// Not process.stdout.isTTY: making the stream would leave a pipe non-blocking (see standardStreams.ts).
	const stdoutIsTty = isatty(1);
	const io = {
		stdout: writeStdout,
		stdoutBytes: writeStdout,
		stderr: writeStderr,
		isTty: stdoutIsTty && !process.env.NO_COLOR,
		now: Date.now(),
		cwd: process.cwd(),
		...terminalColumns(stdoutIsTty),
		...statusWorkerSetup(),
	};
	switch (command) {
		case 'status':
			return runStatusCommandLine(rest, io);
		case 'check':
			return runCheckCommandLine(rest, io);
		case 'merge':
			return runMergeCommand(rest, io);
		case 'targets':
			return runTargetsCommandLine(rest, io);
		case 'mcp':
			return import('./mcp.ts').then((mcp) => mcp.runMcpCommand(rest, io));
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

/** The exit code of a command whose reader closed stdout early, as a Unix tool stopped by SIGPIPE has (128 + 13). */
const outputClosedExitCode = 141;

function exitCodeOf(error: unknown): number {
	if (error instanceof OutputClosed) return outputClosedExitCode;
	throw error;
}

let code: number | Promise<number>;
try {
	code = main(process.argv.slice(2));
} catch (error) {
	code = exitCodeOf(error);
}
if (typeof code === 'number') process.exitCode = code;
else {
	// Fleet dump archives are read as streams.
	void code.then(
		(value) => (process.exitCode = value),
		(error: unknown) => (process.exitCode = exitCodeOf(error)),
	);
}
