// Runs the extension in a real VS Code (code-server) on loopback, with throwaway user data.
//   node scripts/vscode.mjs serve  --workspace DIR [--port N] [--env K=V]        npm start: prints the URL, runs until Ctrl+C
//   (every mode: --contexts all|a,b, --setting KEY=JSON, --theme NAME, --also-extension DIR,
//    --extension DIR: the extension's own folder instead of this clone, e.g. a copy of a build that stays put)
//   node scripts/vscode.mjs test   --workspace DIR --tests FILE [--env K=V]...   in-host suite; exit code from the host
//     [--runs N]: opens the window N times in the same profile (a user's later starts); the last run's code counts
//   node scripts/vscode.mjs shots  --workspace DIR --out DIR                      e2e page-object stories + screenshots
//   node scripts/vscode.mjs smoke  --workspace DIR --installed --extensions DIR   the installed .vsix activates
// --installed: load the extension from an extensions dir (the .vsix route) instead of the development path.
// Must run on Node 24 (scripts/node24): code-server's own runtime.
import { spawn, execFileSync } from 'node:child_process';
import {
	cpSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
	existsSync,
} from 'node:fs';
import { get as httpGet } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import util from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [mode, ...rest] = process.argv.slice(2);
const options = { env: [], installed: false, settings: {} };
for (let index = 0; index < rest.length; index++) {
	const key = rest[index].replace(/^--/, '');
	if (key === 'installed') options.installed = true;
	else if (key === 'env') options.env.push(rest[++index]);
	else if (key === 'setting') {
		// --setting key=JSON: a user setting, e.g. the demo's KubeStellar context pairs.
		const [name, ...value] = rest[++index].split('=');
		options.settings[name] = JSON.parse(value.join('='));
	} else if (key === 'also-extension') (options.also ??= []).push(resolve(rest[++index]));
	else options[key] = rest[++index];
}

const codeServer = execFileSync(join(root, 'scripts/install-vscode-host.sh'), {
	encoding: 'utf8',
	stdio: ['ignore', 'pipe', 'inherit'],
}).trim();

function freePort() {
	return new Promise((done, fail) => {
		const server = createServer();
		server.once('error', fail);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => done(port));
		});
	});
}

// --contexts all|a,b: the kube contexts the extension shows (all: every context of $KUBECONFIG from --env).
function contextSettings() {
	if (!options.contexts) return {};
	let contexts = options.contexts.split(',').filter(Boolean);
	if (options.contexts === 'all') {
		const path = envOf(options.env).KUBECONFIG;
		const text = path && existsSync(path) ? readFileSync(path, 'utf8') : '';
		const section = /^contexts:\n((?:[ \t-].*\n?)*)/m.exec(text)?.[1] ?? '';
		contexts = [...section.matchAll(/^ *- name: (\S+)/gm)].map((match) => match[1]);
	}
	return contexts.length ? { 'kubeStatusLens.clusters.contexts': contexts } : {};
}

/** Starts code-server in its own process group; resolves once /healthz answers. */
/**
 * Starts code-server on `port`, or on a free port when none is given (tried again on another one if code-server
 * exits before it answers, e.g. because a run beside this one took the port in between).
 */
export async function startCodeServer({ port, work, extensionsFrom }) {
	for (let attempt = 1; ; attempt++) {
		const chosen = port ?? (await freePort());
		try {
			return await startCodeServerOn({ port: chosen, work, extensionsFrom, served: false });
		} catch (error) {
			if (port !== undefined || attempt === 3) throw error;
		}
	}
}

/**
 * `npm start`'s workbench: code-server on a Unix socket in the run's own folder, reached only through the gate on the
 * loopback port (a local Host header and this run's secret), with the extension installed as a user has it (no
 * development path, no smoke-test driver: notifications show) and the clusters' KUBECONFIG in its environment.
 */
async function startServedWorkbench({ port, work, extensionPath, env }) {
	const manifest = JSON.parse(readFileSync(join(extensionPath, 'package.json'), 'utf8'));
	mkdirSync(join(work, 'exts'), { recursive: true });
	symlinkSync(
		extensionPath,
		join(work, 'exts', `${manifest.publisher}.${manifest.name}-${manifest.version}`),
		'dir',
	);
	const socketPath = join(work, 'code-server.sock');
	const host = await startCodeServerOn({ work, socketPath, served: true, env });
	const { startWorkbenchGate } = await import('./workbenchGate.mjs');
	try {
		const gate = await startWorkbenchGate({ port: port ?? 0, socketPath });
		return {
			gate,
			stop: async () => {
				await gate.close();
				await host.stop();
			},
		};
	} catch (error) {
		await host.stop();
		throw new Error(`the workbench could not listen on 127.0.0.1:${port} (${error.message})`);
	}
}

function healthy({ port, socketPath }) {
	return new Promise((done) => {
		const req = httpGet(
			socketPath ? { socketPath, path: '/healthz' } : `http://127.0.0.1:${port}/healthz`,
			(res) => {
				res.resume();
				done(res.statusCode === 200);
			},
		);
		req.on('error', () => done(false));
		req.setTimeout(2000, () => req.destroy());
	});
}

async function startCodeServerOn({ port, work, extensionsFrom, socketPath, served, env }) {
	mkdirSync(join(work, 'ud/User'), { recursive: true });
	mkdirSync(join(work, 'exts'), { recursive: true });
	mkdirSync(join(work, 'tmp'), { recursive: true });
	mkdirSync(join(work, 'xdg'), { recursive: true });
	writeFileSync(
		join(work, 'ud/User/settings.json'),
		JSON.stringify(
			{
				// The served workbench opens on the extension's walkthrough, whose first step opens the view.
				'workbench.startupEditor': served ? 'welcomePage' : 'none',
				'workbench.tips.enabled': false,
				'workbench.secondarySideBar.defaultVisibility': 'hidden',
				// The tests turn chat off (its sign-in prompts cover the views); a user's workbench keeps it, and with it
				// the language model tools.
				...(served ? {} : { 'chat.disableAIFeatures': true }),
				'security.workspace.trust.enabled': false,
				'extensions.autoCheckUpdates': false,
				'extensions.autoUpdate': false,
				'extensions.ignoreRecommendations': true,
				'telemetry.telemetryLevel': 'off',
				'update.mode': 'none',
				'git.enabled': false,
				'workbench.colorTheme': options.theme ?? 'Default Dark Modern',
				...contextSettings(),
				...options.settings,
			},
			null,
			2,
		),
	);
	// Machine-scoped settings (the clusters' kubeconfig and contexts) are read from the server side's Machine settings.
	mkdirSync(join(work, 'ud/Machine'), { recursive: true });
	writeFileSync(join(work, 'ud/Machine/settings.json'), JSON.stringify(contextSettings(), null, 2));
	if (extensionsFrom) cpSync(extensionsFrom, join(work, 'exts'), { recursive: true });
	// The payload loads one development extension; others (the benchmark's empty baseline) are installed by copy.
	for (const path of options.also ?? []) {
		const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
		cpSync(path, join(work, 'exts', `${manifest.publisher}.${manifest.name}-${manifest.version}`), {
			recursive: true,
		});
	}
	writeFileSync(
		join(work, 'config.yaml'),
		socketPath
			? `auth: none\ncert: false\n`
			: `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`,
	);
	const args = [
		join(codeServer, 'out/node/entry.js'),
		'--config',
		join(work, 'config.yaml'),
		...(socketPath ? ['--socket', socketPath, '--socket-mode', '600'] : []),
		// The tests drive the window through VS Code's smoke-test driver; under it no notification toast shows.
		...(served ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
		'--disable-telemetry',
		'--disable-update-check',
		'--disable-workspace-trust',
		'--disable-getting-started-override',
		'--ignore-last-opened',
		'--idle-timeout-seconds',
		'900',
		'--user-data-dir',
		join(work, 'ud'),
		'--extensions-dir',
		join(work, 'exts'),
	];
	const child = spawn(process.execPath, args, {
		detached: true,
		stdio: ['ignore', 'ignore', 'ignore'],
		env: { ...process.env, ...env, TMPDIR: join(work, 'tmp'), XDG_DATA_HOME: join(work, 'xdg') },
	});
	const stop = async () => {
		try {
			process.kill(-child.pid, 'SIGTERM');
		} catch {
			return;
		}
		for (let index = 0; index < 50; index++) {
			try {
				process.kill(-child.pid, 0);
			} catch {
				return;
			}
			await new Promise((done) => setTimeout(done, 100));
		}
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {
			/* already gone */
		}
	};
	for (let index = 0; index < 300; index++) {
		if (await healthy({ port, socketPath })) return { stop, base: `http://127.0.0.1:${port}` };
		if (child.exitCode !== null) break;
		await new Promise((done) => setTimeout(done, 100));
	}
	await stop();
	throw new Error(
		socketPath
			? `code-server did not start on ${socketPath}`
			: `code-server did not start on 127.0.0.1:${port} (is the port taken?)`,
	);
}

/** The workbench URL that loads the extension under development (and a test suite) through the smoke-test payload. */
export function workbenchUrl(base, { workspace, extensionPath, testsPath, env }) {
	const authority = new URL(base).host;
	const payload = [];
	if (extensionPath) {
		payload.push(['extensionDevelopmentPath', `vscode-remote://${authority}${extensionPath}`]);
	}
	if (testsPath) payload.push(['extensionTestsPath', `vscode-remote://${authority}${testsPath}`]);
	if (env && Object.keys(env).length) payload.push(['extensionEnvironment', JSON.stringify(env)]);
	const folderParam = workspace.endsWith('.code-workspace') ? 'workspace' : 'folder';
	let url = `${base}/?${folderParam}=${encodeURIComponent(workspace)}`;
	if (payload.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
	return url;
}

const noise =
	/open-vsx|ENOTFOUND|ERR_NAME_NOT_RESOLVED|authentication provider 'github'|status of 404|vsda|An unknown error occurred/;

async function launchBrowser() {
	const { chromium } = await import('playwright-core');
	return chromium.launch({
		executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--disable-dev-shm-usage',
		],
	});
}

function envOf(list) {
	return Object.fromEntries(
		list.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
	);
}

async function serve({ workspace, port, work }) {
	const served = await startServedWorkbench({
		port,
		work,
		extensionPath: resolve(options.extension ?? root),
		env: envOf(options.env),
	});
	const stop = async (code) => {
		await served.stop();
		if (!process.env.KEEP_VSCODE_WORK) rmSync(work, { recursive: true, force: true });
		process.exit(code);
	};
	process.on('SIGINT', () => void stop(130));
	process.on('SIGTERM', () => void stop(143));
	const folderParam = workspace.endsWith('.code-workspace') ? 'workspace' : 'folder';
	const url = served.gate.url(`/?${folderParam}=${encodeURIComponent(workspace)}`);
	console.log(
		[
			'',
			'Kube Status Lens is running in VS Code (code-server) at:',
			'',
			`  ${url}`,
			'',
			'Open it in a browser on this machine. The address carries this run’s secret: keep it to yourself.',
			'The workbench opens on the extension’s walkthrough; the Kube Status Lens icon (a magnifier with a tick) in the',
			'activity bar on the left opens its view. Ctrl+C stops it.',
			'',
		].join('\n'),
	);
	await new Promise(() => {});
}

async function main() {
	const workspace = resolve(options.workspace ?? join(root, 'examples/workspace'));
	const port = options.port ? Number(options.port) : undefined;
	const work = mkdtempSync(join(tmpdir(), 'ksl-vscode-'));
	if (mode === 'serve') return serve({ workspace, port, work });
	let extensionsFrom;
	if (options.installed) extensionsFrom = options.extensions;
	const host = await startCodeServer({ port, work, extensionsFrom });
	const cleanup = async () => {
		await host.stop();
		if (!process.env.KEEP_VSCODE_WORK) rmSync(work, { recursive: true, force: true });
	};
	process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
	process.on('SIGTERM', () => void cleanup().then(() => process.exit(143)));
	const extensionPath = options.installed ? undefined : resolve(options.extension ?? root);
	try {
		const browser = await launchBrowser();
		const page = await browser.newPage({
			viewport: { width: Number(options.width ?? 1280), height: Number(options.height ?? 800) },
		});
		let exitCode = 1;
		try {
			if (mode === 'test') {
				let finish;
				const done = new Promise((resolveDone) => (finish = resolveDone));
				await page.exposeFunction('codeAutomationLog', (type, args) => {
					const line = util.format(...(args ?? []));
					if (
						process.env.VSCODE_VERBOSE ||
						(!noise.test(line) &&
							(type === 'error' ||
								/^\s*(✔|✓|ok|[0-9]+\)|passing|failing|pending| {2})|Error|\[ksl/.test(line)))
					) {
						console.log(line);
					}
				});
				await page.exposeFunction('codeAutomationExit', (code) => finish(code));
				const testsPath = resolve(options.tests);
				const runs = Math.max(1, Number(options.runs ?? 1));
				for (let run = 1; run <= runs; run++) {
					const exited = run === 1 ? done : new Promise((resolveDone) => (finish = resolveDone));
					// A later run navigates away from a window that may still be busy: give it time to unload.
					await page.goto(
						workbenchUrl(host.base, {
							workspace,
							extensionPath,
							testsPath,
							env: envOf(options.env),
						}),
						{ timeout: 120_000 },
					);
					const timeout = Number(options.timeout ?? 900) * 1000;
					const code = await Promise.race([
						exited,
						new Promise((resolveTimeout) => setTimeout(() => resolveTimeout('timeout'), timeout)),
					]);
					if (code === 'timeout') {
						console.error(`the in-host suite did not finish within ${timeout / 1000} s`);
						exitCode = 2;
						break;
					}
					exitCode = Number(code);
				}
			} else if (mode === 'smoke') {
				// The installed .vsix, loaded as a user would have it: no development path, no test payload.
				await page.goto(workbenchUrl(host.base, { workspace }));
				await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
				const icon = page.locator('.activitybar [aria-label^="Kube Status Lens"]').first();
				await icon.waitFor({ timeout: 60_000 });
				await icon.click();
				await page
					.locator('.sidebar .monaco-list-row', { hasText: 'Workspace manifests' })
					.first()
					.waitFor({ timeout: 60_000 });
				await page
					.locator('.sidebar .monaco-list-row', { hasText: 'Fleet' })
					.first()
					.waitFor({ timeout: 60_000 });
				if (options.contexts) {
					// A live root that counts its objects: the cluster client bundle (dist/k8s.cjs) loaded and synced.
					await page
						.locator('.sidebar .monaco-list-row', { hasText: /platform.*objects/ })
						.first()
						.waitFor({ timeout: 60_000 });
					console.log('[smoke] the installed extension reads the live context');
				}
				if (options.out) {
					mkdirSync(options.out, { recursive: true });
					await page.screenshot({ path: join(options.out, 'installed.png') });
				}
				console.log('[smoke] the installed extension activated and shows the tree');
				// A later start of the same window: the view shows from the start, and its own request for rows loads the
				// engine and fills it, with no click and no command.
				await page.reload();
				await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
				await page
					.locator('.sidebar .monaco-list-row', { hasText: 'Fleet' })
					.first()
					.waitFor({ timeout: 60_000 });
				console.log('[smoke] on a later start the view, showing at once, fills itself');
				exitCode = 0;
			} else if (mode === 'shots') {
				const stories = await import(join(root, 'test/e2e/stories.mjs'));
				const runStories = options.stories === 'live' ? stories.runLiveStories : stories.runStories;
				const out = resolve(options.out ?? join(root, '.artifacts/screenshots'));
				mkdirSync(out, { recursive: true });
				await page.goto(
					workbenchUrl(host.base, { workspace, extensionPath, env: envOf(options.env) }),
				);
				exitCode = await runStories(page, { out, base: host.base, workspace });
			} else {
				console.error('mode: serve | test | shots');
				exitCode = 64;
			}
		} catch (error) {
			console.error(`[vscode] ${error instanceof Error ? error.stack : String(error)}`);
			const shot = join(work, '..', `ksl-failure-${process.pid}.png`);
			await page.screenshot({ path: shot }).catch(() => {});
			console.error(`[vscode] screenshot of the failure: ${shot}`);
			exitCode = 1;
		}
		await browser.close();
		await cleanup();
		process.exit(exitCode);
	} catch (error) {
		await cleanup();
		throw error;
	}
}

if (
	!existsSync(join(resolve(options.extension ?? root), 'dist/extension.cjs')) &&
	mode !== 'serve'
) {
	console.error('dist/extension.cjs is missing: run the build first');
	process.exit(2);
}
await main();
