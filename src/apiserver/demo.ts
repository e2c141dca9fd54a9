// The demo cluster: one local API server per demo "cluster" (consecutive ports from a base port), each loaded
// with its objects from examples/cluster/ and playing its timeline in a loop, plus a kubeconfig with a context for
// each. Stand-ins for Flux and Fleet answer reconcile requests and force updates on every cluster (fluxController.ts,
// fleetController.ts), timeline or not.
// `npm run demo-cluster` runs it on its own (src/apiserver/main.ts); `npm start` can start it next to VS Code.

import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedCertificates } from './certificates.ts';
import { demoClusters, demoRoundMs, type DemoCluster } from './demoScenario.ts';
import { startFleetController } from './fleetController.ts';
import { startFluxController } from './fluxController.ts';
import { kubeconfigText } from './kubeconfig.ts';
import { withTimesRelativeTo } from './demoTimes.ts';
import { loadObjects, playScenario, readObjects, type ScenarioPlayback } from './scenario.ts';
import { startApiServer, type ApiServer } from './server.ts';
import type { ObjectStore } from './store.ts';

/** The repository's examples/cluster folder. */
export const demoExamplesFolder = join(
	dirname(fileURLToPath(import.meta.url)),
	'..',
	'..',
	'examples',
	'cluster',
);

/** How to start the demo. */
export interface DemoOptions {
	/** The first cluster's port; the others follow (default 0: free ports). */
	readonly basePort?: number;
	/** Where to write the kubeconfig. */
	readonly kubeconfigPath: string;
	/** Play the timelines (default true). */
	readonly play?: boolean;
	/** Time multiplier for the timelines. */
	readonly speed?: number;
	/** The bearer token of every cluster (random when absent). */
	readonly token?: string;
	readonly log?: (line: string) => void;
	/** Per-request log lines. */
	readonly requestLog?: (cluster: string, line: string) => void;
	/** Only these clusters (by name). */
	readonly clusters?: readonly string[];
	/** Move the examples' times so the newest is a few minutes before this (the demo's start); fixed when absent. */
	readonly timesRelativeTo?: Date;
}

/** A running demo. */
export interface Demo {
	readonly servers: ReadonlyMap<string, ApiServer>;
	readonly kubeconfigPath: string;
	stop(): Promise<void>;
}

/** Starts the demo clusters, writes their kubeconfig and plays their timelines. */
export async function startDemo(options: DemoOptions): Promise<Demo> {
	const log = options.log ?? (() => {});
	const certificates = sharedCertificates();
	const chosen: readonly DemoCluster[] =
		options.clusters === undefined
			? demoClusters
			: demoClusters.filter((cluster) => options.clusters?.includes(cluster.name) === true);
	const servers = new Map<string, ApiServer>();
	// Controllers run whether or not the timelines play: a user's reconcile request is answered either way.
	const controllers: (() => void)[] = [];
	const initial = new Map<string, Awaited<ReturnType<typeof readObjects>>['objects']>();
	const basePort = options.basePort ?? 0;
	const examples = new Map<string, Awaited<ReturnType<typeof readObjects>>>();
	for (const cluster of chosen) {
		examples.set(cluster.name, await readObjects([join(demoExamplesFolder, cluster.folder)]));
	}
	const objectsOf = (cluster: string) => examples.get(cluster)?.objects ?? [];
	const timed =
		options.timesRelativeTo === undefined
			? undefined
			: withTimesRelativeTo(
					new Map(chosen.map((cluster) => [cluster.name, objectsOf(cluster.name)])),
					options.timesRelativeTo,
				);
	try {
		for (const [index, cluster] of chosen.entries()) {
			const server = await startApiServer({
				port: basePort === 0 ? 0 : basePort + index,
				certificates,
				groups: cluster.groups,
				...(options.token === undefined ? {} : { token: options.token }),
				...(options.requestLog === undefined
					? {}
					: { log: (line: string) => options.requestLog?.(cluster.name, line) }),
			});
			servers.set(cluster.name, server);
			const problems = examples.get(cluster.name)?.problems ?? [];
			const objects = timed?.get(cluster.name) ?? objectsOf(cluster.name);
			const loaded = loadObjects(server.store, objects);
			cluster.settle?.(server.store);
			controllers.push(
				startFluxController(server.store, { log: (line) => log(`${cluster.name}: ${line}`) }),
				startFleetController(server.store, { log: (line) => log(`${cluster.name}: ${line}`) }),
			);
			initial.set(cluster.name, objects);
			for (const problem of [...problems, ...loaded.problems]) {
				log(`${cluster.name}: ${problem}`);
			}
			log(`${cluster.name}: ${server.url} (${loaded.loaded} objects)`);
		}
	} catch (error) {
		for (const stop of controllers) stop();
		await Promise.all([...servers.values()].map((server) => server.close()));
		throw error;
	}
	await mkdir(dirname(options.kubeconfigPath), { recursive: true });
	// Written aside and renamed: scripts wait for the file to appear and must never read half of it.
	const partialPath = `${options.kubeconfigPath}.${process.pid}.partial`;
	await writeFile(
		partialPath,
		kubeconfigText(
			chosen.flatMap((cluster) => {
				const server = servers.get(cluster.name);
				return server === undefined
					? []
					: [{ name: cluster.name, server, token: server.token, namespace: cluster.namespace }];
			}),
		),
		{ mode: 0o600 },
	);
	await rename(partialPath, options.kubeconfigPath);
	const playbacks: ScenarioPlayback[] = [];
	if (options.play !== false) {
		const stores = new Map<string, ObjectStore>(
			[...servers].map(([name, server]) => [name, server.store]),
		);
		for (const cluster of chosen) {
			const server = servers.get(cluster.name);
			if (server === undefined) continue;
			const objects = initial.get(cluster.name) ?? [];
			playbacks.push(
				playScenario(server, cluster.timeline(stores), {
					loop: true,
					roundMs: demoRoundMs,
					initial: objects,
					...(options.speed === undefined ? {} : { speed: options.speed }),
					onStep: (step) => log(`${cluster.name}: ${step.description ?? step.action.kind}`),
					onError: (step, error) =>
						log(
							`${cluster.name}: step "${step.description ?? step.action.kind}" failed: ${error.message}`,
						),
				}),
			);
		}
	}
	return {
		servers,
		kubeconfigPath: options.kubeconfigPath,
		async stop() {
			for (const playback of playbacks) playback.stop();
			for (const stop of controllers) stop();
			await Promise.all([...servers.values()].map((server) => server.close()));
		},
	};
}
