// The door `npm start` puts in front of code-server. code-server runs with `auth: none` on a Unix socket only this
// user can reach; this gate listens on the loopback port and forwards to it, but only for a request that
//  - names this machine in its Host header (a web page that rebinds its own name to 127.0.0.1 sends its name, so a
//    WebSocket from it, which would be a terminal as the user, is refused), and
//  - carries this run's secret: once in the printed URL (`?tkn=…`), then in a cookie the gate sets.
// The cookie's name depends on the secret, so two runs side by side on one machine (cookies ignore the port) do not
// overwrite each other's.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, request } from 'node:http';
import { connect } from 'node:net';

const localNames = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a Host header names this machine (any port). */
export function isLocalHost(host) {
	if (!host) return false;
	try {
		return localNames.has(new URL(`http://${host}`).hostname.toLowerCase());
	} catch {
		return false;
	}
}

function sameSecret(given, token) {
	const a = Buffer.from(given ?? '');
	const b = Buffer.from(token);
	return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header, name) {
	for (const part of (header ?? '').split(';')) {
		const at = part.indexOf('=');
		if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
	}
	return undefined;
}

/**
 * Starts the gate on 127.0.0.1:`port` (0: a free one) in front of code-server's `socketPath`.
 * Resolves with the port it listens on, the secret, and `url(pathAndQuery)`, the address to print.
 */
export function startWorkbenchGate({
	port = 0,
	socketPath,
	token = randomBytes(24).toString('base64url'),
}) {
	const cookie = `ksl_gate_${createHash('sha256').update(token).digest('hex').slice(0, 12)}`;
	const verdict = (req) => {
		if (!isLocalHost(req.headers.host)) {
			return {
				status: 403,
				why: 'this workbench answers only to localhost, 127.0.0.1 or [::1] in the Host header',
			};
		}
		if (sameSecret(cookieValue(req.headers.cookie, cookie), token)) return { status: 0 };
		const url = new URL(req.url ?? '/', 'http://gate');
		if (sameSecret(url.searchParams.get('tkn') ?? undefined, token)) {
			url.searchParams.delete('tkn');
			return { status: 302, location: `${url.pathname}${url.search}` };
		}
		return {
			status: 401,
			why: 'open the address `npm start` printed: it carries this run’s token',
		};
	};

	const server = createServer((req, res) => {
		const { status, why, location } = verdict(req);
		if (status === 302) {
			res.writeHead(302, {
				location,
				'set-cookie': `${cookie}=${token}; Path=/; HttpOnly; SameSite=Lax`,
				'cache-control': 'no-store',
			});
			res.end();
			return;
		}
		if (status) {
			res.writeHead(status, {
				'content-type': 'text/plain; charset=utf-8',
				'cache-control': 'no-store',
			});
			res.end(`Kube Status Lens workbench: ${why}.\n`);
			return;
		}
		const upstream = request(
			{ socketPath, method: req.method, path: req.url, headers: req.headers },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
				answer.pipe(res);
			},
		);
		upstream.on('error', (error) => {
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
			res.end(`Kube Status Lens workbench: code-server did not answer (${error.message}).\n`);
		});
		req.pipe(upstream);
	});

	// Upgraded connections leave the HTTP server's bookkeeping: kept here so that closing the gate ends them.
	const upgraded = new Set();
	server.on('upgrade', (req, socket, head) => {
		upgraded.add(socket);
		socket.on('close', () => upgraded.delete(socket));
		socket.on('error', () => socket.destroy());
		const { status, why } = verdict(req);
		if (status !== 0) {
			const reason = status === 403 ? 'Forbidden' : 'Unauthorized';
			socket.end(
				`HTTP/1.1 ${status === 302 ? 401 : status} ${reason}\r\nConnection: close\r\n\r\n${why ?? ''}`,
			);
			return;
		}
		const upstream = connect(socketPath, () => {
			const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
			for (let index = 0; index < req.rawHeaders.length; index += 2) {
				lines.push(`${req.rawHeaders[index]}: ${req.rawHeaders[index + 1]}`);
			}
			upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
			if (head.length) upstream.write(head);
			upstream.pipe(socket);
			socket.pipe(upstream);
		});
		upstream.on('error', () => socket.destroy());
		socket.on('close', () => upstream.destroy());
		upstream.on('close', () => socket.destroy());
	});

	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			const bound = server.address().port;
			resolve({
				server,
				port: bound,
				token,
				cookie,
				url: (pathAndQuery) => {
					const url = new URL(pathAndQuery, `http://127.0.0.1:${bound}`);
					url.searchParams.set('tkn', token);
					return url.toString();
				},
				close: () =>
					new Promise((done) => {
						server.close(() => done());
						server.closeAllConnections();
						for (const socket of upgraded) socket.destroy();
					}),
			});
		});
	});
}
