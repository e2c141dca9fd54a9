// README's main command as a user runs it: `npm start` (scripts/start.sh) builds, starts the demo cluster and serves
// the workbench. The workbench must be one a user would use (the extension installed, no test driver, the clusters'
// kubeconfig reaching the extension host) and must let in only this machine's browser holding the printed secret:
// a web page that rebinds its own name to 127.0.0.1 must not get a WebSocket (a terminal as the user).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
let run;
let printed;
let port;

function freePort() {
	return new Promise((done, fail) => {
		const server = createServer();
		server.once('error', fail);
		server.listen(0, '127.0.0.1', () => {
			const chosen = server.address().port;
			server.close(() => done(chosen));
		});
	});
}

/** One raw HTTP exchange; `upgrade` asks for a WebSocket. Resolves with the status, headers and body. */
function exchange({ path, host, headers = {}, upgrade = false }) {
	return new Promise((done, fail) => {
		const req = request({
			host: '127.0.0.1',
			port,
			path,
			headers: {
				host: host ?? `127.0.0.1:${port}`,
				...(upgrade
					? {
							connection: 'Upgrade',
							upgrade: 'websocket',
							'sec-websocket-version': '13',
							'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
						}
					: {}),
				...headers,
			},
		});
		req.on('upgrade', (res, socket) => {
			socket.destroy();
			done({ status: res.statusCode, headers: res.headers, body: '' });
		});
		req.on('response', (res) => {
			let body = '';
			res.setEncoding('utf8');
			res.on('data', (chunk) => (body += chunk));
			res.on('end', () => done({ status: res.statusCode, headers: res.headers, body }));
		});
		req.on('error', fail);
		req.end();
	});
}

before(async () => {
	port = await freePort();
	const started = Date.now();
	run = spawn('bash', [join(root, 'scripts/start.sh')], {
		cwd: root,
		detached: true,
		env: { ...process.env, PORT: String(port) },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	printed = await new Promise((done, fail) => {
		const onData = (chunk) => {
			output += chunk;
			const match = /(http:\/\/127\.0\.0\.1:\d+\/\?\S*tkn=\S+)/.exec(output);
			if (match) done(match[1]);
		};
		run.stdout.on('data', onData);
		run.stderr.on('data', (chunk) => (output += chunk));
		run.on('exit', (code) =>
			fail(new Error(`npm start exited (${code}) before printing a URL:\n${output}`)),
		);
	});
	console.log(`npm start printed its URL after ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

after(async () => {
	if (!run || run.exitCode !== null) return;
	const exited = new Promise((done) => run.on('exit', done));
	process.kill(-run.pid, 'SIGINT');
	await exited;
});

test('the printed address is on loopback and carries a secret', () => {
	const url = new URL(printed);
	assert.equal(url.hostname, '127.0.0.1');
	assert.equal(Number(url.port), port);
	assert.ok((url.searchParams.get('tkn') ?? '').length >= 24, 'a token of at least 24 characters');
	assert.ok(url.searchParams.get('folder')?.endsWith('examples/workspace'));
});

test('a request without the secret is refused, and says what to open', async () => {
	const answer = await exchange({ path: '/' });
	assert.equal(answer.status, 401);
	assert.match(answer.body, /npm start/);
	const wrong = await exchange({ path: '/?tkn=not-the-secret' });
	assert.equal(wrong.status, 401);
});

test('the secret in the address opens the workbench and leaves an HttpOnly cookie for the rest', async () => {
	const url = new URL(printed);
	const first = await exchange({ path: `${url.pathname}${url.search}` });
	assert.equal(first.status, 302);
	assert.doesNotMatch(
		first.headers.location,
		/tkn=/,
		'the secret does not stay in the address bar',
	);
	const cookie = String(first.headers['set-cookie']);
	assert.match(cookie, /HttpOnly/);
	const page = await exchange({
		path: first.headers.location,
		headers: { cookie: cookie.split(';')[0] },
	});
	assert.equal(page.status, 200);
	assert.match(page.body, /<html/i);
});

test('a foreign Host (a rebound name) is refused, with the secret and a matching Origin, for pages and WebSockets', async () => {
	const url = new URL(printed);
	const host = `rebound.example:${port}`;
	const page = await exchange({ path: `${url.pathname}${url.search}`, host });
	assert.equal(page.status, 403);
	const first = await exchange({ path: `${url.pathname}${url.search}` });
	const cookie = String(first.headers['set-cookie']).split(';')[0];
	const socket = await exchange({
		path: '/?reconnectionToken=x&reconnection=false&skipWebSocketFrames=false',
		host,
		upgrade: true,
		headers: { origin: `http://${host}`, cookie },
	});
	assert.equal(socket.status, 403);
});

test('a WebSocket without the secret is refused, and one with it reaches code-server', async () => {
	const path = '/?reconnectionToken=x&reconnection=false&skipWebSocketFrames=false';
	const origin = `http://127.0.0.1:${port}`;
	const without = await exchange({ path, upgrade: true, headers: { origin } });
	assert.equal(without.status, 401);
	const url = new URL(printed);
	const first = await exchange({ path: `${url.pathname}${url.search}` });
	const cookie = String(first.headers['set-cookie']).split(';')[0];
	const withSecret = await exchange({ path, upgrade: true, headers: { origin, cookie } });
	assert.equal(withSecret.status, 101);
});

test('the workbench is one a user would use: the extension installed, no test driver, the live contexts read', async () => {
	const { chromium } = await import('playwright-core');
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
	});
	try {
		const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		await page.goto(printed);
		await page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
		// The walkthrough opens as the startup editor and points at the view.
		await page
			.locator('.editor-instance', { hasText: 'Is it really ready? Kube Status Lens' })
			.first()
			.waitFor({ timeout: 60_000 });
		assert.equal(
			await page.evaluate(() => typeof globalThis.driver),
			'undefined',
			'no smoke-test driver',
		);
		const icon = page.locator('.activitybar [aria-label^="Kube Status Lens"]').first();
		await icon.waitFor({ timeout: 60_000 });
		await icon.click();
		// A live root counting its objects: KUBECONFIG reached the extension host through code-server's environment.
		await page
			.locator('.sidebar .monaco-list-row', { hasText: /fleet-mgmt.*objects/ })
			.first()
			.waitFor({ timeout: 90_000 });
		await page.screenshot({ path: join(root, '.artifacts/start-workbench.png') }).catch(() => {});
	} finally {
		await browser.close();
	}
});
