// Runs inside the extension host (as an extensionTestsPath): activates the empty extension and Kube Status Lens,
// waits for the full tree, and writes the timings to $KSL_BENCH_RESULT. Plain CommonJS: no build step.
const vscode = require('vscode');
const { appendFileSync } = require('node:fs');

/**
 * Wall time, and the CPU time the extension host process spent meanwhile (all its threads): on a machine shared with
 * other work the wall time grows with the load, the CPU time much less.
 */
async function time(run) {
	const start = process.hrtime.bigint();
	const cpu = process.cpuUsage();
	const value = await run();
	const spent = process.cpuUsage(cpu);
	return {
		ms: Number(process.hrtime.bigint() - start) / 1e6,
		cpuMs: (spent.user + spent.system) / 1000,
		value,
	};
}

/** With KSL_BENCH_PROFILE=<folder>: a CPU profile of the extension host from activation to the walked tree. */
async function profiled(run) {
	const folder = process.env.KSL_BENCH_PROFILE;
	if (!folder) return run();
	const { Session } = require('node:inspector/promises');
	const session = new Session();
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.setSamplingInterval', { interval: 200 });
	await session.post('Profiler.start');
	try {
		return await run();
	} finally {
		const { profile } = await session.post('Profiler.stop');
		require('node:fs').mkdirSync(folder, { recursive: true });
		require('node:fs').writeFileSync(
			require('node:path').join(folder, `host-${Date.now()}.cpuprofile`),
			JSON.stringify(profile),
		);
		session.disconnect();
	}
}

exports.run = () => profiled(measureStart);

/** Sums the pauses of garbage collection from now until `stop`: scavenges (minor) and the rest (major). */
function watchGarbageCollection() {
	const { PerformanceObserver, constants } = require('node:perf_hooks');
	const totals = { minor: 0, major: 0 };
	const observer = new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) {
			const minor = entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR;
			totals[minor ? 'minor' : 'major'] += entry.duration;
		}
	});
	observer.observe({ entryTypes: ['gc'] });
	return {
		// GC entries are delivered a moment after the pause.
		stop: () =>
			new Promise((resolve) =>
				setTimeout(() => {
					observer.disconnect();
					resolve(totals);
				}, 20),
			),
	};
}

async function measureStart() {
	const empty = vscode.extensions.getExtension('kube-status-lens-bench.empty-extension');
	const lens = vscode.extensions.getExtension('kube-status-lens.kube-status-lens');
	if (!empty || !lens) {
		const loaded = vscode.extensions.all
			.filter((e) => !e.id.startsWith('vscode.'))
			.map((e) => e.id);
		throw new Error(`both extensions must be loaded; loaded: ${loaded.join(', ')}`);
	}
	const emptyActivation = await time(() => empty.activate());
	const lensActivation = await time(() => lens.activate());
	const api = lensActivation.value;
	// The view showing, as a user opening it sees it: VS Code asks for the visible items as the tree changes.
	const shown = vscode.commands.executeCommand('workbench.view.extension.kubeStatusLens');
	// The tree is usable once the workspace root lists its first groups, which should come before the last file.
	let treeDone = false;
	let firstGroupsMs;
	const started = process.hrtime.bigint();
	const firstGroups = (async () => {
		while (!treeDone) {
			try {
				if (api.provider.getChildren('workspace').length > 0) {
					firstGroupsMs = Number(process.hrtime.bigint() - started) / 1e6;
					return;
				}
			} catch {
				// The engine is not loaded yet.
			}
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
	})();
	// Garbage collection meanwhile, by kind: a scavenge waits for its helper threads, which a busy machine starves.
	const gc = watchGarbageCollection();
	const threadCpu = process.threadCpuUsage?.();
	const tree = await time(() => api.ready());
	const threadSpent = threadCpu && process.threadCpuUsage(threadCpu);
	const collected = await gc.stop();
	treeDone = true;
	await firstGroups;
	await shown;
	// Walk the whole tree once, as a user expanding everything would make the provider do.
	const walk = await time(() => {
		let count = 0;
		const visit = (id, depth) => {
			if (depth > 8) return;
			for (const child of api.provider.getChildren(id)) {
				count++;
				api.provider.getTreeItem(child);
				visit(child, depth + 1);
			}
		};
		visit(undefined, 0);
		return count;
	});
	// The first start writes the engine's code cache once the tree is built; a later start reads it.
	const codeCache = await api.codeCache();
	// And the parse cache of the workspace's manifests, which a later start reads instead of parsing unchanged files.
	await api.manifests.parseCacheSaved;
	// One line per start: bench/vscode.ts opens the window twice, a first start and a later one.
	appendFileSync(
		process.env.KSL_BENCH_RESULT,
		`${JSON.stringify({
			emptyActivationMs: emptyActivation.ms,
			emptyActivationCpuMs: emptyActivation.cpuMs,
			activationMs: lensActivation.ms,
			activationCpuMs: lensActivation.cpuMs,
			activationToTreeMs: tree.ms,
			activationToTreeCpuMs: tree.cpuMs,
			activationToFirstGroupsMs: firstGroupsMs ?? tree.ms,
			...(threadSpent
				? { activationToTreeThreadCpuMs: (threadSpent.user + threadSpent.system) / 1000 }
				: {}),
			gcMinorMs: collected.minor,
			gcMajorMs: collected.major,
			objects: api.graph.objectCount(),
			treeItems: walk.value,
			walkMs: walk.ms,
			codeCache,
			parsedInWorker: api.manifests.parsedInWorker ?? 0,
			filesFromParseCache: api.manifests.filesFromParseCache ?? 0,
			...Object.fromEntries(
				Object.entries(api.startup ?? {}).map(([key, value]) => [`startup_${key}Ms`, value]),
			),
			...Object.fromEntries(
				Object.entries(api.manifests.timings).map(([key, value]) => [`scan_${key}Ms`, value]),
			),
		})}\n`,
	);
}
