// Microsoft's SARIF Multitool (the npm package @microsoft/sarif-multitool-linux, an optional dependency: Linux x64
// only) is what code-scanning uploads are checked against; its warnings are what a user's pipeline shows.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const multitool = join(root, 'node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool');

/** Why the validator cannot run here (a test's `skip`), or false. */
export const multitoolMissing =
	process.platform !== 'linux' || process.arch !== 'x64'
		? `the SARIF Multitool ships for Linux x64 only (this is ${process.platform} ${process.arch})`
		: existsSync(multitool)
			? false
			: 'the optional dependency @microsoft/sarif-multitool-linux is not installed';

/** The Multitool's errors and warnings on a SARIF log's text, one line each ("SARIF2005: … [arguments]"). */
export function sarifProblems(text) {
	const folder = mkdtempSync(join(tmpdir(), 'ksl-sarif-validate-'));
	try {
		const input = join(folder, 'check.sarif');
		const output = join(folder, 'validation.sarif');
		writeFileSync(input, text);
		const run = spawnSync(
			multitool,
			['validate', input, '--output', output, '--level', 'Error;Warning'],
			{
				encoding: 'utf8',
				env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1' },
			},
		);
		if (run.status !== 0) {
			throw new Error(`the SARIF Multitool failed (${run.status}): ${run.stdout}${run.stderr}`);
		}
		const validation = JSON.parse(readFileSync(output, 'utf8'));
		return validation.runs[0].results.map(
			(result) =>
				`${result.ruleId}: ${result.message.id ?? result.message.text} ${JSON.stringify(result.message.arguments ?? [])}`,
		);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
