// `npm run demo-cluster` as users run it: two runs side by side pick their own free ports and write kubeconfigs of
// their own, so neither repoints the other's contexts, and each removes its kubeconfig when it stops.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { repoRoot } from '../support/conformance.ts';

interface DemoRun {
	readonly child: ChildProcess;
	readonly kubeconfig: string;
	readonly exited: Promise<number | null>;
}

/** Starts the demo (one cluster, no scenario) in `cwd` and resolves once it printed its kubeconfig. */
function startDemo(cwd: string): Promise<DemoRun> {
	const child = spawn(
		process.execPath,
		[join(repoRoot, 'src/apiserver/main.ts'), '--cluster', 'platform', '--no-scenario'],
		{ cwd, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
	return new Promise((resolve, reject) => {
		let output = '';
		child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
			output += chunk;
			const match = /^kubeconfig: (.+)$/m.exec(output);
			if (match?.[1]) resolve({ child, kubeconfig: match[1], exited });
		});
		child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
		void exited.then((code) =>
			reject(new Error(`the demo exited (${code}) before it started:\n${output}`)),
		);
	});
}

function serverOf(kubeconfig: string): string {
	const config = parse(readFileSync(kubeconfig, 'utf8')) as {
		clusters: { cluster: { server: string } }[];
	};
	return config.clusters[0]?.cluster.server ?? '';
}

describe('the demo cluster, twice side by side', () => {
	const folder = mkdtempSync(join(tmpdir(), 'ksl-demo-runs-'));
	const runs: DemoRun[] = [];
	after(async () => {
		for (const run of runs) run.child.kill('SIGTERM');
		await Promise.all(runs.map((run) => run.exited));
		rmSync(folder, { recursive: true, force: true });
	});

	it('gives each run its own ports and kubeconfig, and each removes its own when it stops', async () => {
		runs.push(...(await Promise.all([startDemo(folder), startDemo(folder)])));
		const [first, second] = runs;
		assert.ok(first && second);
		assert.notEqual(first.kubeconfig, second.kubeconfig);
		assert.ok(first.kubeconfig.startsWith(join(folder, '.artifacts/demo-cluster/')));
		const servers = [serverOf(first.kubeconfig), serverOf(second.kubeconfig)];
		assert.notEqual(servers[0], servers[1]);
		for (const server of servers) assert.match(server, /^https:\/\/127\.0\.0\.1:\d+$/);
		first.child.kill('SIGTERM');
		assert.equal(await first.exited, 0);
		assert.equal(existsSync(first.kubeconfig), false, 'the stopped run removed its kubeconfig');
		assert.equal(existsSync(second.kubeconfig), true, 'the other run kept its own');
		assert.equal(serverOf(second.kubeconfig), servers[1]);
	});
});

describe("the demo's pace", () => {
	function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
		const result = spawnSync(process.execPath, [join(repoRoot, 'src/apiserver/main.ts'), ...args], {
			encoding: 'utf8',
		});
		return { status: result.status, stdout: result.stdout, stderr: result.stderr };
	}
	/** The minute:second of the step whose description matches, in `--timeline`'s output. */
	function at(stdout: string, step: RegExp): string | undefined {
		return stdout
			.split('\n')
			.find((line) => step.test(line))
			?.trim()
			.split(/\s+/)[0];
	}

	it('plays minutes-long phases by default: prod-us-1 rejects the upgrade at 2:00 of a 6-minute round', () => {
		const { status, stdout } = run('--timeline');
		assert.equal(status, 0);
		assert.match(stdout, /^A round lasts 6:00/);
		assert.equal(at(stdout, /prod-us-1 rejects the frontend upgrade/), '2:00');
		assert.equal(at(stdout, /Harbor: configured and healthy/), '2:00');
	});

	it('plays the 45-second round with --pace fast, and refuses a pace it does not know', () => {
		const fast = run('--timeline', '--pace', 'fast');
		assert.match(fast.stdout, /^A round lasts 0:45/);
		assert.equal(at(fast.stdout, /prod-us-1 rejects the frontend upgrade/), '0:15');
		const unknown = run('--pace', 'glacial');
		assert.equal(unknown.status, 2);
		assert.match(unknown.stderr, /invalid --pace "glacial"/);
	});
});
