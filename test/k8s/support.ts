// What the cluster-client tests share: the local API server with a folder for kubeconfigs and credential plugins,
// a plugin that never answers (as one waiting for a browser login does), and the server's request log as a sync
// point ("the server has answered N such requests").
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
	startApiServer,
	type ApiServer,
	type ApiServerOptions,
} from '../../src/apiserver/server.ts';
import { loadKubeconfig, type MergedKubeconfig } from '../../src/k8s/kubeconfig.ts';

/** A running local server and the folder its kubeconfigs and plugins are written to. */
export interface LocalCluster {
	readonly server: ApiServer;
	readonly dir: string;
	/** One line per request the server answered (or holds, for a hang fault), in order. */
	readonly requests: readonly string[];
	/** Calls `listener` after each request the server logs; returns the function that stops it (a `Trigger`). */
	readonly onRequest: (listener: () => void) => () => void;
	/**
	 * `hang.sh` in `dir`: a credential plugin that never answers. It writes its pid to `hang.pid` and then execs
	 * `sleep`, so that pid is the process a timeout must kill.
	 */
	readonly hangingPlugin: string;
	/** The pid the hanging plugin wrote when it last ran. */
	hangingPid(): Promise<number>;
	/** Loads these kubeconfig files of `dir` as KUBECONFIG lists them (relative paths against `dir`). */
	load(files: readonly string[]): Promise<MergedKubeconfig>;
	close(): Promise<void>;
}

/** Starts a server with `options` (the request log is the harness's), a folder, and the hanging plugin. */
export async function startLocalCluster(
	options: Omit<ApiServerOptions, 'log'> = {},
	prefix = 'ksl-k8s-',
): Promise<LocalCluster> {
	const requests: string[] = [];
	const listeners = new Set<() => void>();
	const server = await startApiServer({
		...options,
		log: (line) => {
			requests.push(line);
			for (const listener of [...listeners]) listener();
		},
	});
	const dir = await mkdtemp(path.join(tmpdir(), prefix));
	const hangingPlugin = path.join(dir, 'hang.sh');
	const pidFile = path.join(dir, 'hang.pid');
	await writeFile(hangingPlugin, `#!/bin/sh\necho $$ > "${pidFile}"\nexec sleep 600\n`);
	await chmod(hangingPlugin, 0o755);
	return {
		server,
		dir,
		requests,
		onRequest: (listener) => {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		hangingPlugin,
		async hangingPid() {
			return Number((await readFile(pidFile, 'utf8')).trim());
		},
		load(files) {
			return loadKubeconfig({
				env: { KUBECONFIG: files.map((file) => path.resolve(dir, file)).join(path.delimiter) },
				cwd: dir,
				home: dir,
			});
		},
		async close() {
			await server.close();
			await rm(dir, { recursive: true, force: true });
		},
	};
}
