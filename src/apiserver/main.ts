// `npm run demo-cluster`: the demo clusters on their own, until Ctrl+C. Prints the kubeconfig path to use with
// kubectl or the extension (KUBECONFIG=<path>). By default each run listens on free ports and writes a kubeconfig of
// its own (removed when it stops), so two runs side by side never repoint each other's contexts.
//
//   scripts/node24 src/apiserver/main.ts [--port N] [--kubeconfig <path>] [--pace slow|fast|paused] [--speed 2]
//                                        [--timeline] [--cluster fleet-mgmt ...] [--verbose]

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startDemo } from './demo.ts';
import { isDemoPace, paceSpeed, timelineText, type DemoPace } from './demoPace.ts';
import { demoClusters, demoRoundMs } from './demoScenario.ts';

const usage =
	'usage: demo-cluster [--port N (default: free ports)] [--kubeconfig PATH (default: one per run under .artifacts/demo-cluster/)] [--pace slow|fast|paused (default slow: a 6-minute round; fast: 45 s; paused: the starting state, nothing plays)] [--speed N (instead of --pace)] [--timeline (print what plays when, and exit)] [--no-scenario (as --pace paused)] [--cluster NAME]... [--verbose]';

function print(line: string): void {
	process.stdout.write(`${line}\n`);
}

async function main(): Promise<number> {
	let values;
	try {
		({ values } = parseArgs({
			options: {
				port: { type: 'string', default: '0' },
				kubeconfig: { type: 'string' },
				'no-scenario': { type: 'boolean', default: false },
				pace: { type: 'string', default: 'slow' },
				speed: { type: 'string' },
				timeline: { type: 'boolean', default: false },
				cluster: { type: 'string', multiple: true },
				verbose: { type: 'boolean', default: false },
				help: { type: 'boolean', default: false },
			},
		}));
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n${usage}\n`);
		return 2;
	}
	if (values.help) {
		print(usage);
		return 0;
	}
	const port = Number(values.port);
	if (!isDemoPace(values.pace)) {
		process.stderr.write(`invalid --pace ${JSON.stringify(values.pace)}\n${usage}\n`);
		return 2;
	}
	const pace: DemoPace = values['no-scenario'] ? 'paused' : values.pace;
	const speed = values.speed === undefined ? paceSpeed(pace) : Number(values.speed);
	if (
		!Number.isInteger(port) ||
		port < 0 ||
		port > 65_535 ||
		(speed !== undefined && !(speed > 0))
	) {
		process.stderr.write(`invalid --port or --speed\n${usage}\n`);
		return 2;
	}
	if (values.timeline) {
		for (const line of timelineText(demoClusters, demoRoundMs, speed ?? 1)) print(line);
		return 0;
	}
	let runFolder: string | undefined;
	if (values.kubeconfig === undefined) {
		mkdirSync('.artifacts/demo-cluster', { recursive: true });
		runFolder = mkdtempSync(join(resolve('.artifacts/demo-cluster'), 'run-'));
	}
	const kubeconfigPath =
		values.kubeconfig === undefined
			? join(runFolder ?? '', 'kubeconfig')
			: resolve(values.kubeconfig);
	const demo = await startDemo({
		basePort: port,
		kubeconfigPath,
		// What a user reads is how long ago things happened: the examples' 2025 times move to just before now.
		timesRelativeTo: new Date(),
		play: speed !== undefined,
		...(speed === undefined ? {} : { speed }),
		log: (line) => print(line),
		...(values.cluster === undefined ? {} : { clusters: values.cluster }),
		...(values.verbose
			? { requestLog: (cluster: string, line: string) => print(`${cluster}: ${line}`) }
			: {}),
	});
	print(`kubeconfig: ${kubeconfigPath}`);
	print(`  export KUBECONFIG=${kubeconfigPath}`);
	print(`  contexts: ${[...demo.servers.keys()].join(', ')}`);
	print(
		speed === undefined
			? '  scenario: paused (the starting state; --pace slow or fast plays it)'
			: `  scenario: a round every ${Math.round(demoRoundMs / speed / 1000)} s${values.speed === undefined ? ` (--pace ${pace}; --timeline says what plays when)` : ''}`,
	);
	print('Ctrl+C stops the demo cluster.');
	await new Promise<void>((resolveStop) => {
		process.once('SIGINT', resolveStop);
		process.once('SIGTERM', resolveStop);
	});
	await demo.stop();
	if (runFolder !== undefined) rmSync(runFolder, { recursive: true, force: true });
	return 0;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		process.stderr.write(`demo-cluster: ${(error as Error).stack ?? String(error)}\n`);
		process.exit(1);
	},
);
