// The local API server under hostile requests. It ships in the demo (behind a token), so a request must never take
// the process down, poison it for later requests, or make it build something huge: prototype keys in bodies and
// JSON pointers, patches that grow an object without bound, bodies nested too deep, selectors and query parameters
// that do not parse, oversized headers. Known bad input is a 4xx Status; the server answers the next request.
//
// The fuzz section replays random patches and bodies (seeded; the seed is printed). KSL_SEED=n replays one seed,
// KSL_HOSTILE_LONG=1 runs many more requests.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { maxObjectBytes } from '../../src/apiserver/limits.ts';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { envNumber } from '../support/seeds.ts';
import { configMap, metaOf, send, watch, type Response } from './client.ts';

const configMaps = '/api/v1/namespaces/default/configmaps';
const deployments = '/apis/apps/v1/namespaces/default/deployments';
const jsonPatch = 'application/json-patch+json';
const mergePatch = 'application/merge-patch+json';
const strategicPatch = 'application/strategic-merge-patch+json';
const applyPatch = 'application/apply-patch+yaml';

// The built-in prototypes as they are before any request: a request that reaches one changes what every object of
// the process inherits.
const prototypes = [Object.prototype, Array.prototype, Function.prototype] as const;
const pristine = prototypes.map(
	(prototype) =>
		new Map(
			Reflect.ownKeys(prototype).map((key) => [
				key,
				Object.getOwnPropertyDescriptor(prototype, key),
			]),
		),
);

function assertPrototypesUntouched(context = ''): void {
	for (const [index, prototype] of prototypes.entries()) {
		const before = pristine[index];
		const keys = Reflect.ownKeys(prototype);
		assert.deepEqual(
			keys.map(String).sort(),
			[...(before?.keys() ?? [])].map(String).sort(),
			`a built-in prototype gained or lost a property ${context}`,
		);
		for (const key of keys) {
			const now = Object.getOwnPropertyDescriptor(prototype, key);
			const then = before?.get(key);
			assert.ok(
				now?.value === then?.value && now?.get === then?.get && now?.set === then?.set,
				`a built-in prototype's ${String(key)} changed ${context}`,
			);
		}
	}
	assert.equal(
		({} as Record<string, unknown>).polluted,
		undefined,
		`{}.polluted is set ${context}`,
	);
}

/** A failure answer: a well-formed Status whose code is the HTTP status. */
function assertStatus(response: Response, code: number, reason?: string): void {
	assert.equal(response.status, code, response.text.slice(0, 500));
	assert.equal(response.body.kind, 'Status', response.text.slice(0, 500));
	assert.equal(response.body.code, code);
	if (reason !== undefined) assert.equal(response.body.reason, reason);
}

function deployment(name: string, spec: unknown = { replicas: 1 }): Record<string, unknown> {
	return {
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: { name, namespace: 'default' },
		spec,
	};
}

/** A chain of `depth` nested maps, `{"x":{"x":...}}`, as JSON text. */
function nestedText(depth: number, leaf = '1'): string {
	return `${'{"x":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;
}

describe('hostile requests: __proto__, constructor and prototype are plain keys', () => {
	let server: ApiServer;
	before(async () => {
		server = await startApiServer();
		await send(server, 'POST', configMaps, { body: configMap('target') });
	});
	after(() => server.close());

	it('a JSON patch into /__proto__/... is a missing path (422), and Object.prototype stays as it was', async () => {
		for (const path of [
			'/__proto__/polluted',
			'/__proto__/status',
			'/constructor/prototype/polluted',
			'/data/__proto__/polluted',
		]) {
			const response = await send(server, 'PATCH', `${configMaps}/target`, {
				body: [{ op: 'add', path, value: 'yes' }],
				contentType: jsonPatch,
			});
			assertStatus(response, 422, 'Invalid');
			assert.match(String(response.body.message), /does not exist/);
			assertPrototypesUntouched(`after add ${path}`);
		}
		// Later writes of any kind still work: a polluted `status` made every one of them fail with 500.
		assert.equal(
			(await send(server, 'POST', configMaps, { body: configMap('after-proto') })).status,
			201,
		);
		const patched = await send(server, 'PATCH', `${configMaps}/target`, {
			body: { data: { later: 'ok' } },
			contentType: mergePatch,
		});
		assert.equal(patched.status, 200, patched.text);
		assert.equal(Object.hasOwn(patched.body, 'polluted'), false);
	});

	it('a JSON patch that adds /__proto__ makes an own key of that name, as Go would, and can then patch inside it', async () => {
		const response = await send(server, 'PATCH', `${configMaps}/target`, {
			body: [
				{ op: 'add', path: '/data/__proto__', value: 'just a key' },
				{ op: 'add', path: '/__proto__', value: { polluted: 'no' } },
				{ op: 'add', path: '/__proto__/status', value: 'still a key' },
				{ op: 'copy', from: '/__proto__', path: '/data/constructor' },
				{ op: 'test', path: '/__proto__/polluted', value: 'no' },
			],
			contentType: jsonPatch,
		});
		assert.equal(response.status, 200, response.text);
		assert.match(response.text, /"__proto__":\{"polluted":"no","status":"still a key"\}/);
		assert.match(response.text, /"data":\{[^}]*"__proto__":"just a key"/);
		assert.match(response.text, /"constructor":\{"polluted":"no","status":"still a key"\}/);
		assertPrototypesUntouched();
		const got = await send(server, 'GET', `${configMaps}/target`);
		assert.match(got.text, /"__proto__":\{"polluted":"no","status":"still a key"\}/);
		const removed = await send(server, 'PATCH', `${configMaps}/target`, {
			body: [
				{ op: 'remove', path: '/__proto__' },
				{ op: 'remove', path: '/data/constructor' },
			],
			contentType: jsonPatch,
		});
		assert.equal(removed.status, 200, removed.text);
		assert.doesNotMatch(removed.text, /polluted/);
	});

	it('merge, strategic merge and apply patches and created objects keep __proto__ as a key', async () => {
		const merged = await send(server, 'PATCH', `${configMaps}/target`, {
			body: '{"data":{"__proto__":"m"},"__proto__":{"polluted":"merge"}}',
			contentType: mergePatch,
		});
		assert.equal(merged.status, 200, merged.text);
		assert.match(merged.text, /"__proto__":\{"polluted":"merge"\}/);
		assert.match(merged.text, /"__proto__":"m"/);
		const strategic = await send(server, 'PATCH', `${configMaps}/target`, {
			body: '{"__proto__":{"polluted":"strategic"},"constructor":{"a":"b"}}',
			contentType: strategicPatch,
		});
		assert.equal(strategic.status, 200, strategic.text);
		assert.match(strategic.text, /"__proto__":\{"polluted":"strategic"\}/);
		assert.match(strategic.text, /"constructor":\{"a":"b"\}/);
		const created = await send(server, 'POST', configMaps, {
			body: '{"metadata":{"name":"created-proto"},"data":{"__proto__":"c"},"__proto__":{"polluted":"create"}}',
		});
		assert.equal(created.status, 201, created.text);
		assert.match(created.text, /"__proto__":\{"polluted":"create"\}/);
		const applied = await send(
			server,
			'PATCH',
			`${configMaps}/applied-proto?fieldManager=hostile`,
			{
				body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied-proto\n__proto__:\n  polluted: apply\ndata:\n  __proto__: a\n',
				contentType: applyPatch,
			},
		);
		assert.equal(applied.status, 201, applied.text);
		assert.match(applied.text, /"__proto__":\{"polluted":"apply"\}/);
		assertPrototypesUntouched();
		const list = await send(server, 'GET', configMaps);
		assert.equal(list.status, 200);
		for (const item of list.body.items ?? []) {
			assert.equal(Object.getPrototypeOf(item), Object.prototype);
			assert.notEqual((item as { polluted?: unknown }).polluted, 'merge');
		}
	});
});

describe('hostile requests: what a request can make the server build is bounded', () => {
	let server: ApiServer;
	before(async () => {
		server = await startApiServer();
	});
	after(() => server.close());

	it('30 copy operations that each double the object (2.6 KB of patch) answer 413 long before memory grows', async () => {
		await send(server, 'POST', configMaps, {
			body: configMap('grow', 'default', { seed: 'x'.repeat(64) }),
		});
		const before = await send(server, 'GET', `${configMaps}/grow`);
		const operations = Array.from({ length: 30 }, (_, i) => ({
			op: 'copy',
			from: '/data',
			path: `/data/copy-number-${String(i).padStart(2, '0')}-of-the-whole-map`,
		}));
		const body = JSON.stringify(operations);
		assert.ok(body.length > 2000 && body.length < 3000);
		const heapBefore = process.memoryUsage().heapUsed;
		const response = await send(server, 'PATCH', `${configMaps}/grow`, {
			body,
			contentType: jsonPatch,
		});
		assertStatus(response, 413, 'RequestEntityTooLarge');
		assert.match(String(response.body.message), /1572864 bytes/);
		// The server stopped at the first copy past the limit: it never held more than a few times 1.5 MiB.
		assert.ok(process.memoryUsage().heapUsed - heapBefore < 256 * 1024 * 1024);
		const after = await send(server, 'GET', `${configMaps}/grow`);
		assert.deepEqual(after.body, before.body, 'the object is as it was');
	});

	it('copies add up: copying a large value again and again (removing it between) is refused with 413', async () => {
		await send(server, 'POST', configMaps, {
			body: configMap('copies', 'default', { big: 'y'.repeat(400_000) }),
		});
		const operations = Array.from({ length: 20 }, () => [
			{ op: 'copy', from: '/data/big', path: '/data/again' },
			{ op: 'remove', path: '/data/again' },
		]).flat();
		const response = await send(server, 'PATCH', `${configMaps}/copies`, {
			body: operations,
			contentType: jsonPatch,
		});
		assertStatus(response, 413, 'RequestEntityTooLarge');
		assert.match(String(response.body.message), /copies more than/);
	});

	it('a JSON patch of more than 10,000 operations is refused with 413, as kube-apiserver does', async () => {
		await send(server, 'POST', configMaps, { body: configMap('many-ops') });
		const operations = Array.from({ length: 10_001 }, () => ({
			op: 'test',
			path: '/data/a',
			value: '1',
		}));
		const response = await send(server, 'PATCH', `${configMaps}/many-ops`, {
			body: operations,
			contentType: jsonPatch,
		});
		assertStatus(response, 413, 'RequestEntityTooLarge');
		assert.match(
			String(response.body.message),
			/maximum operations in a JSON patch is 10000, got 10001/,
		);
	});

	it('an object that a merge patch or an update would take past 1.5 MiB is refused with 413, and stays as it was', async () => {
		const mib = 'z'.repeat(1024 * 1024);
		assert.equal(
			(
				await send(server, 'POST', configMaps, {
					body: configMap('large', 'default', { one: mib }),
				})
			).status,
			201,
		);
		const merged = await send(server, 'PATCH', `${configMaps}/large`, {
			body: { data: { two: mib } },
			contentType: mergePatch,
		});
		assertStatus(merged, 413, 'RequestEntityTooLarge');
		assert.match(
			String(merged.body.message),
			/configmaps "large" would be larger than the limit of 1572864 bytes/,
		);
		const updated = await send(server, 'PUT', `${configMaps}/large`, {
			body: configMap('large', 'default', { one: mib, two: mib.slice(0, 600_000) }),
		});
		assertStatus(updated, 413, 'RequestEntityTooLarge');
		const got = await send(server, 'GET', `${configMaps}/large`);
		assert.deepEqual(Object.keys(got.body.data as object), ['one']);
	});

	it('a body over 3 MiB is refused with 413 as kube-apiserver words it, and the server answers the next request', async () => {
		const response = await send(server, 'POST', configMaps, {
			body: configMap('huge-body', 'default', { a: 'q'.repeat(3 * 1024 * 1024) }),
		});
		assertStatus(response, 413, 'RequestEntityTooLarge');
		assert.equal(response.body.message, 'Request entity too large: limit is 3145728');
		assert.equal((await send(server, 'GET', configMaps)).status, 200);
	});

	it('YAML aliases that expand past the body limit are a 413, and a cycle of aliases is a 400', async () => {
		const laughs = [
			'apiVersion: v1',
			'kind: ConfigMap',
			'metadata: {name: laughs}',
			'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
			...'bcdefgh'
				.split('')
				.map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(', ')}]`),
		].join('\n');
		const expanded = await send(server, 'PATCH', `${configMaps}/laughs?fieldManager=hostile`, {
			body: laughs,
			contentType: applyPatch,
		});
		assertStatus(expanded, 413, 'RequestEntityTooLarge');
		const cyclic = await send(server, 'PATCH', `${configMaps}/cycle?fieldManager=hostile`, {
			body: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cycle}\ndata: &loop [*loop]\n',
			contentType: applyPatch,
		});
		assertStatus(cyclic, 400, 'BadRequest');
		assert.equal((await send(server, 'GET', configMaps)).status, 200);
	});

	it(
		'an applied YAML map of 40,000 keys is read key by key, not compared with every other key',
		{ timeout: 30_000 },
		async () => {
			const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: wide', 'data:'];
			for (let i = 0; i < 40_000; i++) lines.push(`  k${i}: v`);
			const response = await send(server, 'PATCH', `${configMaps}/wide?fieldManager=hostile`, {
				body: lines.join('\n'),
				contentType: applyPatch,
			});
			assert.equal(response.status, 201, response.text.slice(0, 300));
			assert.equal(Object.keys(response.body.data as object).length, 40_000);
			const duplicate = await send(server, 'PATCH', `${configMaps}/wide?fieldManager=hostile`, {
				body: [...lines, '  k7: again'].join('\n'),
				contentType: applyPatch,
			});
			assertStatus(duplicate, 400, 'BadRequest');
			assert.match(String(duplicate.body.message), /duplicated mapping key/);
		},
	);
});

describe('hostile requests: deep bodies and unexpected failures', () => {
	let server: ApiServer;
	before(async () => {
		server = await startApiServer();
		await send(server, 'POST', configMaps, { body: configMap('target') });
		await send(server, 'POST', deployments, { body: deployment('web') });
	});
	after(() => server.close());

	it('a body nested 20,000 deep is a 400 BadRequest Status, for a create, an update and every patch type', async () => {
		const deep = nestedText(20_000);
		const requests: [string, string, string, string][] = [
			['POST', configMaps, `{"metadata":{"name":"deep"},"data":${deep}}`, 'application/json'],
			[
				'PUT',
				`${configMaps}/target`,
				`{"metadata":{"name":"target"},"data":${deep}}`,
				'application/json',
			],
			['PATCH', `${configMaps}/target`, `{"data":${deep}}`, mergePatch],
			[
				'PATCH',
				`${configMaps}/target`,
				`[{"op":"add","path":"/data/deep","value":${deep}}]`,
				jsonPatch,
			],
			['PATCH', `${deployments}/web`, `{"spec":${deep}}`, strategicPatch],
			[
				'PATCH',
				`${deployments}/web?fieldManager=hostile`,
				`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":${deep}}`,
				applyPatch,
			],
			['DELETE', `${configMaps}/target`, deep, 'application/json'],
		];
		for (const [method, path, body, contentType] of requests) {
			const response = await send(server, method, path, { body, contentType });
			assert.ok(
				response.status === 400,
				`${method} ${contentType}: ${response.status} ${response.text.slice(0, 300)}`,
			);
			assertStatus(response, 400, 'BadRequest');
		}
		assert.equal((await send(server, 'GET', `${configMaps}/target`)).status, 200);
	});

	it('a strategic merge patch nested deep through merged lists is a 400, not a stack overflow', async () => {
		let containers = '[{"name":"leaf"}]';
		for (let i = 0; i < 3000; i++) containers = `[{"name":"c${i}","containers":${containers}}]`;
		const response = await send(server, 'PATCH', `${deployments}/web`, {
			body: `{"spec":{"containers":${containers}}}`,
			contentType: strategicPatch,
		});
		assertStatus(response, 400, 'BadRequest');
		assert.match(String(response.body.message), /exceeded max depth/);
	});

	it('JSON patch moves that stack nested maps deeper than the limit are a 422', async () => {
		const chains = Array.from({ length: 6 }, (_, i) => `"c${i}":${nestedText(900)}`).join(',');
		const created = await send(server, 'POST', configMaps, {
			body: `{"metadata":{"name":"stack"},"data":{${chains}}}`,
		});
		assert.equal(created.status, 201, created.text.slice(0, 300));
		const operations = [1, 2, 3, 4, 5].map((i) => ({
			op: 'move',
			from: `/data/c${i}`,
			path: `/data/c0${'/x'.repeat(900 * i)}`,
		}));
		const response = await send(server, 'PATCH', `${configMaps}/stack`, {
			body: operations,
			contentType: jsonPatch,
		});
		assertStatus(response, 422, 'Invalid');
		assert.match(String(response.body.message), /deeper than/);
		assert.equal((await send(server, 'GET', `${configMaps}/stack`)).status, 200);
	});

	// The timeout guards against the old failure: the error handler itself threw, and no answer ever came.
	it(
		'a handler that throws something unexpected (not even an Error) answers a well-formed 500, and the server lives on',
		{ timeout: 10_000 },
		async () => {
			const store = server.store;
			const original = store.getOrThrow.bind(store);
			store.getOrThrow = () => {
				// eslint-disable-next-line @typescript-eslint/only-throw-error -- the case under test
				throw undefined;
			};
			try {
				const response = await send(server, 'GET', `${configMaps}/target`);
				assertStatus(response, 500, 'InternalError');
				assert.equal(response.body.message, 'Internal error occurred: undefined');
			} finally {
				store.getOrThrow = original;
			}
			assert.equal((await send(server, 'GET', `${configMaps}/target`)).status, 200);
		},
	);
});

describe('hostile requests: selectors and query parameters', () => {
	let server: ApiServer;
	before(async () => {
		server = await startApiServer();
		await send(server, 'POST', configMaps, { body: configMap('a=b') });
		await send(server, 'POST', configMaps, { body: configMap('plain') });
	});
	after(() => server.close());

	async function list(query: string): Promise<Response> {
		return send(server, 'GET', `${configMaps}?${query}`);
	}

	it("a field selector that does not parse is a 400 with kube-apiserver's message", async () => {
		const cases: [string, string][] = [
			['metadata.name===', 'invalid field selector: unescaped character in value: 61'],
			['metadata.name=a=b', 'invalid field selector: unescaped character in value: 61'],
			['metadata.name=a\\', 'invalid field selector: invalid escape sequence: \\'],
			['metadata.name=a\\x', 'invalid field selector: invalid escape sequence: \\x'],
			['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
			[
				'metadata.name=plain,oops',
				"invalid selector: 'metadata.name=plain,oops'; can't understand 'oops'",
			],
			['spec.nope=1', 'field label not supported: spec.nope'],
			[' metadata.name=plain', 'field label not supported:  metadata.name'],
		];
		for (const [selector, message] of cases) {
			const response = await list(`fieldSelector=${encodeURIComponent(selector)}`);
			assertStatus(response, 400, 'BadRequest');
			assert.equal(response.body.message, message, selector);
			const watched = await send(
				server,
				'GET',
				`${configMaps}?watch=1&fieldSelector=${encodeURIComponent(selector)}`,
			);
			assertStatus(watched, 400, 'BadRequest');
		}
		const escaped = await list(`fieldSelector=${encodeURIComponent('metadata.name!=a\\=b')}`);
		assert.equal(escaped.status, 200);
		assert.deepEqual(
			(escaped.body.items ?? []).map((item) => metaOf(item).name),
			['plain'],
		);
	});

	it('a label selector with a value that is no label value, or an empty set, is a 400', async () => {
		for (const selector of [
			'a=b=c',
			'a in ()',
			'a notin ( , )',
			'a!=b c',
			`a=${'v'.repeat(64)}`,
			'a>1.5',
			'a<1e3',
			'x/y/z=1',
		]) {
			const response = await list(`labelSelector=${encodeURIComponent(selector)}`);
			assertStatus(response, 400, 'BadRequest');
			assert.match(String(response.body.message), /unable to parse requirement/, selector);
		}
		for (const selector of ['a=b', 'a in (b, c)', '!a', 'a', 'a=', 'a>1', 'x.io/y notin (z)']) {
			assert.equal(
				(await list(`labelSelector=${encodeURIComponent(selector)}`)).status,
				200,
				selector,
			);
		}
	});

	it('limit, resourceVersion and timeoutSeconds that Go would not parse are a 400', async () => {
		for (const query of [
			'limit=abc',
			'limit=1.5',
			'limit=1e3',
			'limit=0x10',
			'limit=-1',
			'limit=99999999999999999999999',
			'resourceVersion=abc',
			'resourceVersion=-1',
			'resourceVersion=1.0',
			'timeoutSeconds=soon',
			'watch=1&resourceVersion=abc',
			'watch=1&resourceVersion=%201',
			'watch=1&timeoutSeconds=abc',
			'continue=garbage&limit=1',
		]) {
			const response = await list(query);
			assertStatus(response, 400, 'BadRequest');
		}
	});

	it('a watch with a timeout past what a timer holds stays open and delivers events', async () => {
		const stream = await watch(
			server,
			`${configMaps}?watch=1&resourceVersion=${server.store.resourceVersion}&timeoutSeconds=3000000`,
		);
		try {
			assert.equal(stream.status, 200);
			await send(server, 'POST', configMaps, { body: configMap('seen') });
			const events = await stream.waitFor(1);
			assert.equal(metaOf(events[0]?.object).name, 'seen');
		} finally {
			stream.close();
		}
	});
});

describe('hostile requests: headers', () => {
	let server: ApiServer;
	before(async () => {
		server = await startApiServer();
	});
	after(() => server.close());

	it("headers up to 1 MiB are read, as Go's server reads them; above, a 431 Status comes back and the server lives on", async () => {
		const large = await send(server, 'GET', configMaps, {
			headers: { 'X-Large': 'a'.repeat(200_000) },
		});
		assert.equal(large.status, 200);
		const huge = await send(server, 'GET', configMaps, {
			headers: { 'X-Huge': 'a'.repeat(2 * 1024 * 1024) },
		});
		assert.equal(huge.status, 431);
		assert.equal(huge.body.kind, 'Status');
		assert.equal(huge.body.code, 431);
		const longUrl = await send(
			server,
			'GET',
			`${configMaps}?labelSelector=${'k'.repeat(2 * 1024 * 1024)}`,
		);
		assert.equal(longUrl.status, 431);
		assert.equal((await send(server, 'GET', configMaps)).status, 200);
	});
});

// ---------------------------------------------------------------------------------------------------------------
// Fuzz: random patches and bodies against one running server.

const long = process.env.KSL_HOSTILE_LONG === '1';
const replaySeed = envNumber('KSL_SEED');
const requestCount = envNumber('KSL_STEPS') ?? (long ? 3000 : 120);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A seeded source of numbers in [0, 1) (splitmix32). */
type Rand = () => number;

function seededRandom(seed: number): Rand {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x9e3779b9) >>> 0;
		let z = state;
		z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
		z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
		return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
	};
}

function pick<T>(rand: Rand, list: readonly T[]): T {
	return list[Math.floor(rand() * list.length)] as T;
}

const keys = [
	'__proto__',
	'constructor',
	'prototype',
	'toString',
	'hasOwnProperty',
	'polluted',
	'status',
	'$patch',
	'$retainKeys',
	'$setElementOrder/containers',
	'$deleteFromPrimitiveList/finalizers',
	'name',
	'containers',
	'finalizers',
	'ports',
	'containerPort',
	'labels',
	'data',
	'a',
	'b',
	'',
	'~',
	'a/b',
];
const strings = [
	'',
	'x',
	'replace',
	'delete',
	'merge',
	'retainKeys',
	'polluted',
	'0',
	'é',
	'\u0000',
];

function randomValue(rand: Rand, depth = 0): Json {
	const roll = rand();
	if (depth > 3 || roll < 0.45) {
		return pick(rand, [null, true, false, 0, -1, 1.5, 1e308, ...strings]);
	}
	if (roll < 0.47) return 'w'.repeat(Math.floor(rand() * 300_000));
	if (roll < 0.49) return JSON.parse(nestedText(990 + Math.floor(rand() * 30))) as Json;
	if (roll < 0.7) {
		return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
	}
	return randomObject(rand, depth + 1);
}

const segments = [
	'metadata',
	'labels',
	'data',
	'spec',
	'containers',
	'finalizers',
	'0',
	'1',
	'-',
	'__proto__',
	'constructor',
	'prototype',
	'polluted',
	'a',
	'~0',
	'~1',
	'',
	'x',
];

/** A map with hostile keys; now and then a wide one (tens of thousands of keys). */
function randomObject(rand: Rand, depth = 0): { [key: string]: Json } {
	const object: { [key: string]: Json } = {};
	const wide = depth === 0 && rand() < 0.005;
	const size = wide ? 10_000 + Math.floor(rand() * 30_000) : Math.floor(rand() * 4);
	for (let i = 0; i < size; i++) {
		Object.defineProperty(object, wide ? `k${i}` : pick(rand, keys), {
			value: wide ? 'v' : randomValue(rand, depth + 1),
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return object;
}

// Pointers start where the objects have something more often than not, so that many operations apply.
const prefixes = ['/data', '/metadata/labels', '/metadata', '/spec', '/spec/containers/0', ''];

function randomPointer(rand: Rand): string {
	if (rand() < 0.05) return pick(rand, ['', 'no-slash', '/']);
	const prefix = rand() < 0.6 ? pick(rand, prefixes) : '';
	const length = prefix === '' ? 1 + Math.floor(rand() * 4) : Math.floor(rand() * 2);
	return prefix + Array.from({ length }, () => `/${pick(rand, segments)}`).join('');
}

function randomOperation(rand: Rand): Json {
	if (rand() < 0.03) {
		return pick(rand, [null, 'add', [], {}, { op: 'bogus', path: '/a' }, { op: 7 }]);
	}
	const op = pick(rand, ['add', 'add', 'remove', 'replace', 'move', 'copy', 'test']);
	const operation: { [key: string]: Json } = { op, path: randomPointer(rand) };
	if (op !== 'remove' && op !== 'move' && op !== 'copy') operation.value = randomValue(rand);
	if (op === 'move' || op === 'copy') operation.from = randomPointer(rand);
	return operation;
}

interface FuzzRequest {
	readonly method: string;
	readonly path: string;
	readonly body?: string;
	readonly contentType?: string;
}

const queryValues = [
	'',
	'abc',
	'1',
	'-1',
	'1e3',
	'=',
	'a in (',
	'metadata.name===',
	'!',
	',',
	'a\\',
];

/** The YAML of an object to apply: as JSON (kubectl's way) or block YAML, with aliases now and then. */
function applyBody(rand: Rand, object: { [key: string]: Json }): string {
	const roll = rand();
	if (roll < 0.5) return JSON.stringify(object);
	const lines = Object.entries(object).map(
		([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`,
	);
	if (roll < 0.6) lines.push('extra: &loop [*loop]');
	else if (roll < 0.7) lines.push('shared: &one {a: [x, y, z]}', 'again: [*one, *one, *one]');
	else if (roll < 0.75) lines.push('"metadata": {"name": "duplicated"}');
	return lines.join('\n');
}

function randomRequest(rand: Rand): FuzzRequest {
	const isConfigMap = rand() < 0.6;
	const target = isConfigMap ? `${configMaps}/target` : `${deployments}/web`;
	const roll = rand();
	if (roll < 0.3) {
		const doubling = Array.from({ length: 30 }, (_, i) => ({
			op: 'copy',
			from: '/metadata',
			path: `/metadata/c${i}`,
		}));
		const operations =
			rand() < 0.05
				? doubling
				: Array.from({ length: 1 + Math.floor(rand() * 6) }, () => randomOperation(rand));
		return {
			method: 'PATCH',
			path: target,
			body: JSON.stringify(operations),
			contentType: jsonPatch,
		};
	}
	if (roll < 0.5) {
		const patch =
			rand() < 0.1
				? randomValue(rand)
				: {
						data: randomObject(rand),
						metadata: { labels: randomValue(rand) },
						...randomObject(rand),
					};
		return { method: 'PATCH', path: target, body: JSON.stringify(patch), contentType: mergePatch };
	}
	if (roll < 0.65) {
		const patch = {
			spec: {
				containers: [randomValue(rand), { name: 'app', ...randomObject(rand) }],
				...randomObject(rand),
			},
			metadata: { finalizers: randomValue(rand), ...randomObject(rand) },
			...randomObject(rand),
		};
		return {
			method: 'PATCH',
			path: target,
			body: JSON.stringify(patch),
			contentType: strategicPatch,
		};
	}
	if (roll < 0.75) {
		const object = {
			...randomObject(rand),
			apiVersion: isConfigMap ? 'v1' : 'apps/v1',
			kind: isConfigMap ? 'ConfigMap' : 'Deployment',
			metadata: { name: isConfigMap ? 'target' : 'web', labels: randomValue(rand) },
		};
		return {
			method: 'PATCH',
			path: `${target}?fieldManager=m${Math.floor(rand() * 20)}&force=${rand() < 0.5}`,
			body: applyBody(rand, object),
			contentType: applyPatch,
		};
	}
	if (roll < 0.85) {
		const create = rand() < 0.5;
		const name = create ? pick(rand, ['fuzz', 'target', '', 'Bad_Name', '__proto__']) : 'target';
		return {
			method: create ? 'POST' : 'PUT',
			path: create ? configMaps : `${configMaps}/target`,
			body: JSON.stringify({ ...randomObject(rand), metadata: { ...randomObject(rand), name } }),
		};
	}
	const params = new URLSearchParams();
	for (const name of [
		'limit',
		'continue',
		'resourceVersion',
		'labelSelector',
		'fieldSelector',
		'timeoutSeconds',
	]) {
		if (rand() < 0.4) {
			params.set(name, pick(rand, [...queryValues, JSON.stringify(randomValue(rand))]));
		}
	}
	return { method: 'GET', path: `${configMaps}?${params.toString()}` };
}

describe('hostile requests: fuzz', () => {
	let server: ApiServer;
	before(async () => {
		server = await startApiServer();
	});
	after(() => server.close());

	/** Both targets as new: finalizers the fuzz added would keep a deleted object. */
	async function reset(): Promise<void> {
		for (const path of [`${configMaps}/target`, `${deployments}/web`]) {
			await send(server, 'PATCH', path, {
				body: { metadata: { finalizers: null } },
				contentType: mergePatch,
			});
			await send(server, 'DELETE', path);
		}
		assert.equal(
			(await send(server, 'POST', configMaps, { body: configMap('target') })).status,
			201,
		);
		assert.equal(
			(await send(server, 'POST', deployments, { body: deployment('web') })).status,
			201,
		);
	}

	it(`random patches and bodies: no 5xx, prototypes untouched, the server answers, no object over the limit (${requestCount} requests)`, async (t) => {
		const seed = replaySeed ?? Math.floor(Math.random() * 2 ** 31);
		t.diagnostic(
			`seed=${seed} (replay: KSL_SEED=${seed} node --test test/apiserver/hostileRequests.test.ts)`,
		);
		const rand = seededRandom(seed);
		await reset();
		for (let step = 0; step < requestCount; step++) {
			const request = randomRequest(rand);
			const where = `seed=${seed} step=${step} ${request.method} ${request.path} ${request.contentType ?? ''} ${(request.body ?? '').slice(0, 300)}`;
			const response = await send(server, request.method, request.path, {
				...(request.body === undefined ? {} : { body: request.body }),
				...(request.contentType === undefined ? {} : { contentType: request.contentType }),
			});
			assert.ok(
				response.status < 500,
				`${where}\n=> ${response.status} ${response.text.slice(0, 300)}`,
			);
			if (response.status >= 400) {
				assert.equal(response.body.kind, 'Status', where);
				assert.equal(response.body.code, response.status, where);
			}
			assertPrototypesUntouched(where);
			for (const path of [`${configMaps}/target`, `${deployments}/web`]) {
				const got = await send(server, 'GET', path);
				assert.ok(
					got.status === 200 || got.status === 404,
					`${where}\n=> GET ${path}: ${got.status}`,
				);
			}
			for (const type of server.store.types) {
				for (const object of server.store.all(type)) {
					const bytes = Buffer.byteLength(JSON.stringify(object));
					assert.ok(
						bytes <= maxObjectBytes,
						`${where}\n=> ${type.plural} ${String(metaOf(object).name)} holds ${bytes} bytes`,
					);
				}
			}
			if (step % 10 === 9) await reset();
		}
	});
});
