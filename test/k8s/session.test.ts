// src/k8s against the project's local API server, through the real @kubernetes/client-node: HTTPS with the server's
// CA, bearer tokens, exec plugins. After every injected fault the cache is compared with the server's truth.
//
// No test sleeps: every wait is for something that happens (a session event, a request the server logged, a watch
// opening or closing), and node:test's per-test timeout is the hang guard.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, afterEach, before, describe, it as test } from 'node:test';
import { kubeconfigText } from '../../src/apiserver/kubeconfig.ts';
import type { FaultHandle } from '../../src/apiserver/faults.ts';
import type { JsonObject } from '../../src/apiserver/patch.ts';
import { resourceTypes } from '../../src/apiserver/resources.ts';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { toneOfState, type ConnectionState } from '../../src/k8s/connectionState.ts';
import { groupVersionsToDiscover, resourcesOfGroupVersion } from '../../src/k8s/discovery.ts';
import type { ObjectEvent } from '../../src/k8s/events.ts';
import type { MergedKubeconfig } from '../../src/k8s/kubeconfig.ts';
import { continueTokenOfPrefix } from '../../src/k8s/paging.ts';
import { createSession, type Session, type SessionOptions } from '../../src/k8s/session.ts';
import type { SessionStatus } from '../../src/k8s/sessionStatus.ts';
import { trimObject, type StoredObject } from '../../src/k8s/store.ts';
import { objectKeyOf } from '../../src/core/tree/linking.ts';
import {
	bundleDeployment,
	gitRepo as fleetGitRepo,
	kustomization as fluxKustomization,
	readyCondition,
	secret,
} from '../support/objects.ts';
import { processGone, reportPendingWaits, until, type Trigger } from '../support/wait.ts';
import { startLocalCluster, type LocalCluster } from './support.ts';

afterEach(reportPendingWaits);

// Every test here has a hang guard, as its waits have no deadline of their own.
function it(name: string, fn: () => void | Promise<void>): void {
	void test(name, { timeout: 30_000 }, fn);
}

// ---------------------------------------------------------------------------------------------------------------
// Fixtures

/** A GitRepo as `kubectl apply` leaves it: managedFields and the last-applied annotation, which the cache drops. */
function gitRepo(namespace: string, name: string, ready = 'True'): JsonObject {
	return fleetGitRepo(name, {
		namespace,
		labels: { team: 'a' },
		managedFields: [{ manager: 'kubectl', operation: 'Apply' }],
		annotations: {
			'kubectl.kubernetes.io/last-applied-configuration': '{"big":"json"}',
			keep: 'me',
		},
		spec: { repo: 'https://github.com/example/repo', paths: ['app'] },
		status: { conditions: [readyCondition(ready)] },
	});
}

function readyBundleDeployment(namespace: string, name: string): JsonObject {
	return bundleDeployment(name, {
		namespace,
		bundle: name,
		spec: { deploymentID: 's-1:abc' },
		status: { ready: true, nonModified: true, conditions: [readyCondition()] },
	});
}

function kustomizationNamed(name: string): JsonObject {
	return fluxKustomization(name, {
		status: { conditions: [readyCondition('True', 'ReconciliationSucceeded')] },
	});
}

const kustomization = kustomizationNamed('apps');

const seedObjects: JsonObject[] = [
	gitRepo('fleet-default', 'app'),
	gitRepo('fleet-default', 'web', 'False'),
	gitRepo('fleet-local', 'local'),
	gitRepo('other', 'hidden'),
	{
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'Bundle',
		metadata: { namespace: 'fleet-default', name: 'app-app' },
		spec: {},
		status: { summary: { desiredReady: 2, ready: 2 } },
	},
	readyBundleDeployment('cluster-fleet-default-c1', 'app-app'),
	readyBundleDeployment('cluster-fleet-default-c2', 'app-app'),
	readyBundleDeployment('cluster-fleet-default-c2', 'web-web'),
	kustomization,
	{
		apiVersion: 'goharbor.io/v1beta1',
		kind: 'HarborCluster',
		metadata: { namespace: 'harbor', name: 'harbor' },
		spec: {},
	},
	{
		apiVersion: 'control.kubestellar.io/v1alpha1',
		kind: 'BindingPolicy',
		metadata: { name: 'nginx' },
		spec: { clusterSelectors: [{ matchLabels: { location: 'edge' } }] },
	},
	{
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: { namespace: 'default', name: 'nginx' },
		spec: {
			replicas: 2,
			selector: { matchLabels: { app: 'nginx' } },
			template: {
				metadata: { labels: { app: 'nginx' } },
				spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
			},
		},
		status: { replicas: 2, readyReplicas: 2, observedGeneration: 1 },
	},
	secret('token'),
	{
		apiVersion: 'v1',
		kind: 'ConfigMap',
		metadata: { namespace: 'default', name: 'settings' },
		data: { a: 'b' },
	},
];

// Quick retries and small pages keep the suite quick. Requests and plugins keep their default bounds (10 s), so a
// loaded machine does not turn a slow answer into a failure; a test that waits for a timeout sets a short one.
const fast: Partial<SessionOptions> = {
	backoff: { initialMs: 20, maxMs: 200 },
	pageSize: 2,
	random: () => 0.5,
};

// ---------------------------------------------------------------------------------------------------------------
// Helpers

/** A session's events: a wait on its cache or its states is checked again after each of them. */
function eventsOf(session: Session): Trigger[] {
	return [(listener) => session.onObject(listener), (listener) => session.onState(listener)];
}

/** Waits until `condition` holds, checking it after each event of `session`. */
function sessionReaches(
	session: Session,
	condition: () => boolean,
	what: string | (() => string),
): Promise<void> {
	return until(condition, what, eventsOf(session));
}

/** What the server holds of the resources a session watches, trimmed as the cache trims. */
function serverTruth(
	server: ApiServer,
	session: Session,
	namespaces?: readonly string[],
): Record<string, StoredObject> {
	const truth = new Map<string, StoredObject>();
	for (const status of session.status().resources) {
		if (!status.watched) continue;
		const { group, version, plural } = status.resource;
		const type = server.store.typeOfResource(group, version, plural);
		assert.ok(type, `the server serves ${status.resource.id}`);
		for (const object of server.store.all(type)) {
			const copy = JSON.parse(JSON.stringify(object)) as Record<string, unknown>;
			const trimmed = trimObject(copy);
			if (!trimmed) continue;
			const namespace = (trimmed.metadata as { namespace?: string }).namespace;
			// Resources listed namespace by namespace hold only what may be listed.
			if (namespaces && status.namespaces && !namespaces.includes(namespace ?? '')) {
				continue;
			}
			truth.set(objectKeyOf(trimmed), trimmed);
		}
	}
	return Object.fromEntries([...truth.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/** How the cache differs from the server's truth, by key; '' when it does not. */
function cacheDifference(
	server: ApiServer,
	session: Session,
	namespaces?: readonly string[],
): string {
	const cache = session.store.snapshot();
	const truth = serverTruth(server, session, namespaces);
	const keys = [...new Set([...Object.keys(cache), ...Object.keys(truth)])].sort();
	const differences: string[] = [];
	for (const key of keys) {
		if (!(key in truth)) differences.push(`only in the cache: ${key}`);
		else if (!(key in cache)) differences.push(`only on the server: ${key}`);
		else if (JSON.stringify(cache[key]) !== JSON.stringify(truth[key])) {
			try {
				assert.deepEqual(cache[key], truth[key]);
			} catch {
				differences.push(`different: ${key}`);
			}
		}
	}
	return differences.join('; ');
}

/** Waits until the cache equals the server's truth (checked after each of the session's events). */
async function assertCacheMatchesServer(
	server: ApiServer,
	session: Session,
	namespaces?: readonly string[],
): Promise<void> {
	await sessionReaches(
		session,
		() => cacheDifference(server, session, namespaces) === '',
		() =>
			`the cache of ${session.context} to equal the server (${cacheDifference(server, session, namespaces)})`,
	);
	assert.deepEqual(session.store.snapshot(), serverTruth(server, session, namespaces));
}

function stateOf(status: SessionStatus, plural: string): ConnectionState | undefined {
	return status.resources.find((entry) => entry.resource.plural === plural)?.state;
}

/** A port nothing listens on. */
async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

interface Harness extends LocalCluster {
	readonly kubeconfig: MergedKubeconfig;
	readonly sessions: Session[];
	open(context: string, options?: Partial<SessionOptions>): Session;
}

async function startHarness(): Promise<Harness> {
	const cluster = await startLocalCluster({
		objects: seedObjects,
		bookmarkIntervalMs: 200,
		users: [
			{
				name: 'limited',
				token: 'limited-token',
				forbidden: [
					// RBAC that lets this user list GitRepos in some namespaces but not across them.
					{
						verbs: ['list', 'watch'],
						group: 'fleet.cattle.io',
						resource: 'gitrepos',
						namespace: '',
					},
					{
						verbs: ['list', 'watch'],
						group: 'fleet.cattle.io',
						resource: 'gitrepos',
						namespace: 'other',
					},
				],
			},
		],
	});
	const { server, dir } = cluster;
	const closedPort = await freePort();
	await writeFile(path.join(dir, 'ca.pem'), server.caPem);
	await writeFile(path.join(dir, 'admin-token'), server.token);
	// A client certificate for the limited user, named by relative paths from a subfolder of the config's folder.
	const certificate = server.issueClientCertificate('limited');
	await mkdir(path.join(dir, 'certs'));
	await writeFile(path.join(dir, 'certs', 'limited.crt'), certificate.certPem);
	await writeFile(path.join(dir, 'certs', 'limited.key'), certificate.keyPem);
	const token = path.join(dir, 'token.sh');
	const credential = JSON.stringify({
		apiVersion: 'client.authentication.k8s.io/v1',
		kind: 'ExecCredential',
		status: { token: server.token },
	});
	await writeFile(token, `#!/bin/sh\necho '${credential}'\n`, { mode: 0o755 });
	// Written out rather than built: this file is itself under test (kubectl's merge rules, paths relative to the
	// file, tokenFile, client certificates, exec plugins). Two files in KUBECONFIG with a missing one between them;
	// "admin" and the cluster are defined in both, and only the first file's entries work.
	await writeFile(
		path.join(dir, 'config'),
		`apiVersion: v1
kind: Config
current-context: admin
clusters:
- name: local
  cluster: { server: ${server.url}, certificate-authority: ca.pem }
- name: nowhere
  cluster: { server: 'https://127.0.0.1:${closedPort}', certificate-authority: ca.pem }
users:
- name: admin
  user: { tokenFile: admin-token }
- name: limited
  user: { token: limited-token }
- name: limited-cert
  user: { client-certificate: certs/limited.crt, client-key: certs/limited.key }
- name: hanging
  user:
    exec: { apiVersion: client.authentication.k8s.io/v1, command: ./${path.basename(cluster.hangingPlugin)}, interactiveMode: Never }
- name: plugin
  user:
    exec: { apiVersion: client.authentication.k8s.io/v1, command: ./token.sh }
contexts:
- name: admin
  context: { cluster: local, user: admin }
- name: limited
  context: { cluster: local, user: limited }
- name: limited-ns
  context: { cluster: local, user: limited-cert, namespace: fleet-local }
- name: hanging
  context: { cluster: local, user: hanging }
- name: plugin
  context: { cluster: local, user: plugin }
- name: nowhere
  context: { cluster: nowhere, user: admin }
`,
	);
	await writeFile(
		path.join(dir, 'second'),
		`current-context: wrong
clusters:
- name: local
  cluster: { server: 'https://127.0.0.1:2' }
users:
- name: admin
  user: { token: wrong }
contexts:
- name: admin
  context: { cluster: local, user: admin }
`,
	);
	const kubeconfig = await cluster.load(['config', 'missing', 'second']);
	const sessions: Session[] = [];
	return {
		...cluster,
		kubeconfig,
		sessions,
		open(context, options = {}) {
			const session = createSession({ kubeconfig, context, ...fast, ...options });
			sessions.push(session);
			session.start();
			return session;
		},
	};
}

async function stopHarness(harness: Harness | undefined): Promise<void> {
	if (!harness) return;
	for (const session of harness.sessions) session.dispose();
	await harness.close();
}

// ---------------------------------------------------------------------------------------------------------------

describe('live session against the local API server', () => {
	let harness: Harness;
	let session: Session;
	const events: ObjectEvent[] = [];

	before(async () => {
		harness = await startHarness();
		session = harness.open('admin');
		session.onObject((event) => events.push(event));
		await session.synced();
	});
	after(() => stopHarness(harness));

	it('reads KUBECONFIG as kubectl: the first file wins, the missing one is reported', () => {
		assert.equal(harness.kubeconfig.currentContext, 'admin');
		assert.deepEqual(
			harness.kubeconfig.files.map((file) => file.status),
			['loaded', 'missing', 'loaded'],
		);
		assert.equal(
			harness.kubeconfig.clusters.find((entry) => entry.name === 'local')?.value.server,
			harness.server.url,
		);
	});

	it('discovers the served groups and watches only the kinds it needs', () => {
		const status = session.status();
		const ids = status.resources.map((entry) => entry.resource.id);
		assert.ok(ids.includes('fleet.cattle.io/v1alpha1/bundledeployments'));
		assert.ok(ids.includes('kustomize.toolkit.fluxcd.io/v1/kustomizations'));
		assert.ok(ids.includes('resources.azure.com/v1api20200601/resourcegroups'));
		assert.ok(ids.includes('azure.microsoft.com/v1alpha1/storageaccounts'));
		assert.ok(ids.includes('apps/v1/deployments'));
		assert.ok(ids.includes('batch/v1/cronjobs'));
		assert.ok(ids.includes('cluster.open-cluster-management.io/v1/managedclusters'));
		assert.ok(!ids.includes('apps/v1/replicasets'));
		assert.deepEqual(
			ids.filter((id) => id.startsWith('v1/')),
			['v1/namespaces'],
			'from the core group only Namespaces (BundleNamespaceMappings and BindingPolicies select them), never Secrets',
		);
		assert.ok(!ids.includes('policy/v1/poddisruptionbudgets'));
		assert.deepEqual(
			status.systems.map((system) => [system.system, system.state.kind]),
			[
				['fleet', 'ready'],
				['kubestellar', 'ready'],
				['harbor', 'ready'],
				['flux', 'ready'],
				['aso', 'ready'],
				['workloads', 'ready'],
			],
		);
		assert.equal(status.state.kind, 'ready');
		assert.deepEqual(status.bundleDeployments, { mode: 'watch-all', threshold: 20_000, count: 3 });
	});

	it('syncs every watched object, trimmed, and never a Secret', async () => {
		await assertCacheMatchesServer(harness.server, session);
		const snapshot = session.store.snapshot();
		assert.ok(Object.keys(snapshot).length >= 10);
		assert.ok(!Object.keys(snapshot).some((key) => key.includes('|Secret|')));
		const app = snapshot['fleet.cattle.io|GitRepo|fleet-default|app'];
		const metadata = app?.metadata as Record<string, unknown>;
		assert.equal(metadata.managedFields, undefined);
		assert.deepEqual(metadata.annotations, { keep: 'me' });
		// List items of built-in kinds carry no kind; the cache fills it in so the graph can key them.
		assert.equal(snapshot['apps|Deployment|default|nginx']?.kind, 'Deployment');
		assert.ok(events.some((event) => event.type === 'resync'));
	});

	it('follows creates, updates and deletes', async () => {
		const before = events.length;
		harness.server.store.put(gitRepo('fleet-default', 'new'));
		harness.server.store.patchObject(
			gitRepo('fleet-default', 'web'),
			'merge',
			{
				status: { conditions: [{ type: 'Ready', status: 'True' }] },
			},
			{ subresource: 'status' },
		);
		harness.server.store.deleteObject(gitRepo('fleet-default', 'app'));
		await assertCacheMatchesServer(harness.server, session);
		const later = events.slice(before);
		assert.ok(
			later.some(
				(event) =>
					event.type === 'upsert' && event.key === 'fleet.cattle.io|GitRepo|fleet-default|new',
			),
		);
		assert.ok(
			later.some(
				(event) =>
					event.type === 'upsert' && event.key === 'fleet.cattle.io|GitRepo|fleet-default|web',
			),
		);
		assert.ok(
			later.some(
				(event) =>
					event.type === 'remove' && event.key === 'fleet.cattle.io|GitRepo|fleet-default|app',
			),
		);
	});

	it('resumes a dropped watch from its resourceVersion without losing what changed meanwhile', async () => {
		const resyncs = events.filter((event) => event.type === 'resync').length;
		for (const mode of ['destroy', 'end'] as const) {
			assert.ok(harness.server.faults.dropWatches(mode) > 0);
			// The changes below are made in the same turn as the drop, so no watch is open to carry them.
			assert.equal(harness.server.openWatchCount(), 0);
			harness.server.store.put(gitRepo('fleet-local', `dropped-${mode}`));
			harness.server.store.deleteObject(gitRepo('fleet-default', 'new'));
			harness.server.store.put(gitRepo('fleet-default', 'new'));
			await assertCacheMatchesServer(harness.server, session);
		}
		assert.equal(
			events.filter((event) => event.type === 'resync').length,
			resyncs,
			'resumed from the resourceVersion, not listed again',
		);
		assert.equal(session.status().state.kind, 'ready');
	});

	it('relists after 410 Gone (history expired while the watch was down), removing what was deleted', async () => {
		const resyncs = events.filter((event) => event.type === 'resync').length;
		harness.server.faults.hang({ watch: true, count: 1000 });
		harness.server.faults.dropWatches('destroy');
		harness.server.store.deleteObject(gitRepo('fleet-local', 'dropped-end'));
		harness.server.store.put(gitRepo('fleet-local', 'after-expiry'));
		harness.server.faults.clear();
		harness.server.faults.expireHistory();
		await assertCacheMatchesServer(harness.server, session);
		await sessionReaches(
			session,
			() => events.filter((event) => event.type === 'resync').length > resyncs,
			'a relist',
		);
		// And a 410 answered as the HTTP status of a watch, not as an ERROR event.
		harness.server.faults.respond(410, { watch: true, path: /gitrepos$/, count: 1 });
		harness.server.faults.dropWatches('destroy');
		harness.server.store.put(gitRepo('fleet-local', 'after-410'));
		await assertCacheMatchesServer(harness.server, session);
	});

	for (const [code, kind] of [
		[500, 'server-error'],
		[403, 'forbidden'],
		[404, 'not-installed'],
	] as const) {
		it(`shows ${code} on the resource as "${kind}", then recovers to the server's truth`, async () => {
			const seen: ConnectionState[] = [];
			const listener = session.onState((status) => {
				const state = stateOf(status, 'gitrepos');
				if (state) seen.push(state);
			});
			const fault = harness.server.faults.respond(code, { path: /gitrepos$/ });
			harness.server.faults.dropWatches('destroy');
			harness.server.store.put(gitRepo('fleet-default', `during-${code}`));
			await sessionReaches(
				session,
				() => seen.some((state) => state.kind === kind),
				`state ${kind}`,
			);
			const state = seen.find((entry) => entry.kind === kind);
			if (code === 403) {
				assert.match(
					state?.message ?? '',
					/no permission to (list|watch) gitrepos\.fleet\.cattle\.io/,
				);
			}
			if (code === 404) assert.match(state?.message ?? '', /not installed/);
			// Other resources are not affected.
			assert.equal(stateOf(session.status(), 'bundles')?.kind, 'ready');
			fault.remove();
			await sessionReaches(
				session,
				() => stateOf(session.status(), 'gitrepos')?.kind === 'ready',
				'recovery',
			);
			listener.dispose();
			await assertCacheMatchesServer(harness.server, session);
		});
	}

	it('relists everything when resumed after a pause, keeping the cache meanwhile', async () => {
		session.pause();
		assert.equal(session.status().state.kind, 'paused');
		// Once the server has closed every watch of the paused session, nothing can carry it the changes below.
		await until(() => harness.server.openWatchCount() === 0, 'the watches to close', [
			(listener) => harness.server.onWatchesChanged(listener),
		]);
		const kept = session.store.snapshot();
		harness.server.store.put(gitRepo('fleet-default', 'while-paused'));
		harness.server.store.deleteObject(gitRepo('fleet-default', 'web'));
		assert.deepEqual(session.store.snapshot(), kept);
		session.start();
		await session.synced();
		await assertCacheMatchesServer(harness.server, session);
	});

	it('lists a node’s BundleDeployments on demand by label selector', async () => {
		const result = await session.listBundleDeployments('fleet.cattle.io/bundle-name=app-app');
		assert.equal(result.kind, 'ok');
		assert.deepEqual(
			(result.kind === 'ok' ? result.objects : []).map((object) => objectKeyOf(object)).sort(),
			[
				'fleet.cattle.io|BundleDeployment|cluster-fleet-default-c1|app-app',
				'fleet.cattle.io|BundleDeployment|cluster-fleet-default-c2|app-app',
			],
		);
	});

	it('turns a hung request into "cannot reach" after the request timeout, then recovers', async () => {
		const impatient = harness.open('admin', { requestTimeoutMs: 1000 });
		await impatient.synced();
		const hang = harness.server.faults.hang({ path: /bundles$/ });
		harness.server.faults.dropWatches('destroy');
		await sessionReaches(
			impatient,
			() => stateOf(impatient.status(), 'bundles')?.kind === 'cannot-reach',
			'cannot reach',
		);
		// What the user sees: the request's own timeout named, not a spinner.
		assert.match(stateOf(impatient.status(), 'bundles')?.message ?? '', /no answer within 1 s/);
		hang.remove();
		harness.server.store.put({
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'Bundle',
			metadata: { namespace: 'fleet-default', name: 'after-hang' },
			spec: {},
		});
		await sessionReaches(
			impatient,
			() => stateOf(impatient.status(), 'bundles')?.kind === 'ready',
			'recovery',
		);
		await assertCacheMatchesServer(harness.server, impatient);
	});
});

describe('contexts that cannot be used as they are', () => {
	let harness: Harness;
	before(async () => {
		harness = await startHarness();
	});
	after(() => stopHarness(harness));

	it('lists namespace by namespace when listing across namespaces is forbidden', async () => {
		const namespaces = ['fleet-default', 'fleet-local', 'other'];
		const session = harness.open('limited', { namespaces });
		await session.synced();
		await sessionReaches(
			session,
			() => stateOf(session.status(), 'gitrepos')?.kind === 'ready',
			'gitrepos ready',
		);
		const status = session.status().resources.find((entry) => entry.resource.plural === 'gitrepos');
		assert.deepEqual(status?.namespaces, namespaces);
		assert.match(
			status?.state.message ?? '',
			/fleet-default, fleet-local only.*\(and not in other\)/,
		);
		// Only what may be listed, and all of it.
		await assertCacheMatchesServer(harness.server, session, ['fleet-default', 'fleet-local']);
		harness.server.store.put(gitRepo('fleet-local', 'added-later'));
		harness.server.store.deleteObject(gitRepo('fleet-default', 'web'));
		await assertCacheMatchesServer(harness.server, session, ['fleet-default', 'fleet-local']);
		assert.equal(session.status().state.kind, 'ready');
	});

	it('falls back to the context’s namespace when no list is configured (client certificate auth)', async () => {
		const session = harness.open('limited-ns');
		await session.synced();
		await sessionReaches(
			session,
			() => stateOf(session.status(), 'gitrepos')?.kind === 'ready',
			'gitrepos ready',
		);
		await assertCacheMatchesServer(harness.server, session, ['fleet-local']);
	});

	it('says "no permission to list" when there is no namespace to fall back to', async () => {
		const session = harness.open('limited');
		await session.synced();
		const state = stateOf(session.status(), 'gitrepos');
		assert.equal(state?.kind, 'forbidden');
		assert.match(
			state?.message ?? '',
			/^no permission to list gitrepos\.fleet\.cattle\.io across namespaces/,
		);
		assert.equal(stateOf(session.status(), 'bundles')?.kind, 'ready');
	});

	it('turns a credential plugin that never answers into "login required" after its timeout, and stops it', async () => {
		const session = harness.open('hanging', { execTimeoutMs: 1000 });
		await session.synced();
		const state = session.status().state;
		assert.equal(state.kind, 'login-required');
		assert.match(state.message, /did not answer within 1 s/);
		await processGone(await harness.hangingPid());
	});

	it('authenticates with a credential plugin that answers', async () => {
		const session = harness.open('plugin');
		await session.synced();
		assert.equal(session.status().state.kind, 'ready');
		await assertCacheMatchesServer(harness.server, session);
	});

	it('says "cannot reach" for a server that is not there', async () => {
		const session = harness.open('nowhere');
		await session.synced();
		assert.equal(session.status().state.kind, 'cannot-reach');
		assert.match(session.status().state.message, /connection refused/);
	});

	it('says "cannot reach" after the request timeout when the server never answers', async () => {
		const hang = harness.server.faults.hang({ path: /^\/apis$/ });
		const session = harness.open('admin', { requestTimeoutMs: 1000 });
		await session.synced();
		assert.equal(session.status().state.kind, 'cannot-reach');
		assert.match(session.status().state.message, /no answer within 1 s/);
		hang.remove();
		await sessionReaches(session, () => session.status().state.kind === 'ready', 'recovery');
		await assertCacheMatchesServer(harness.server, session);
	});

	it('reports 401 as "login required" and starts over when asked to retry', async () => {
		const fault = harness.server.faults.respond(401, { path: /^\/apis$/, count: 1 });
		const session = harness.open('admin');
		await session.synced();
		assert.equal(session.status().state.kind, 'login-required');
		assert.equal(fault.hits, 1);
		// No retry on its own (that would run a login plugin again and again); the user's retry starts over.
		session.retry();
		await session.synced();
		assert.equal(session.status().state.kind, 'ready');
		await assertCacheMatchesServer(harness.server, session);
	});
});

describe('several contexts and scale', () => {
	let harness: Harness;
	let fluxOnly: ApiServer;
	before(async () => {
		harness = await startHarness();
		fluxOnly = await startApiServer({
			groups: ['', 'apps', 'batch', 'source.toolkit.fluxcd.io', 'kustomize.toolkit.fluxcd.io'],
			objects: seedObjects.filter(
				(object) => object === kustomization || object.kind === 'Deployment',
			),
		});
	});
	after(async () => {
		await stopHarness(harness);
		await fluxOnly.close();
	});

	it('keeps several contexts open side by side, each equal to its own server', async () => {
		await writeFile(
			path.join(harness.dir, 'flux'),
			kubeconfigText([{ name: 'flux', server: fluxOnly, token: fluxOnly.token }]),
		);
		const kubeconfig = await harness.load(['config', 'flux']);
		const fleet = createSession({ kubeconfig, context: 'admin', ...fast });
		const flux = createSession({ kubeconfig, context: 'flux', ...fast });
		harness.sessions.push(fleet, flux);
		fleet.start();
		flux.start();
		await Promise.all([fleet.synced(), flux.synced()]);
		await assertCacheMatchesServer(harness.server, fleet);
		await assertCacheMatchesServer(fluxOnly, flux);
		const systems = Object.fromEntries(
			flux.status().systems.map((system) => [system.system, system.state.kind]),
		);
		assert.deepEqual(systems, {
			fleet: 'not-installed',
			kubestellar: 'not-installed',
			harbor: 'not-installed',
			flux: 'ready',
			aso: 'not-installed',
			workloads: 'ready',
		});
		fluxOnly.store.put(kustomizationNamed('infra'));
		harness.server.store.put(gitRepo('fleet-default', 'side-by-side'));
		await assertCacheMatchesServer(harness.server, fleet);
		await assertCacheMatchesServer(fluxOnly, flux);
	});

	it('syncs a huge list page by page', async () => {
		const count = 20_000;
		const fault = harness.server.faults.hugeList(
			count,
			{ path: /bundledeployments$/ },
			{
				spec: { deploymentID: 's-1:abc' },
				status: { ready: true },
			},
		);
		const session = harness.open('admin', { pageSize: 500, bundleDeploymentThreshold: 50_000 });
		await session.synced();
		fault.remove();
		const status = session.status();
		assert.deepEqual(status.bundleDeployments, { mode: 'watch-all', threshold: 50_000, count });
		assert.equal(session.store.countOf('fleet.cattle.io/v1alpha1/bundledeployments'), count);
		assert.equal(status.state.kind, 'ready');
	});

	it('above the BundleDeployment threshold, watches roll-ups only and says so', async () => {
		const fault = harness.server.faults.hugeList(25_000, {
			path: /bundledeployments$/,
			query: /limit=1(&|$)/,
		});
		const session = harness.open('admin', { bundleDeploymentThreshold: 20_000 });
		await session.synced();
		fault.remove();
		const status = session.status();
		assert.deepEqual(status.bundleDeployments, {
			mode: 'roll-ups-only',
			threshold: 20_000,
			count: 25_000,
		});
		const bds = status.resources.find((entry) => entry.resource.kind === 'BundleDeployment');
		assert.equal(bds?.watched, false);
		assert.match(
			bds?.state.message ?? '',
			/roll-ups only: 25,000 BundleDeployments is above the threshold of 20,000/,
		);
		assert.equal(session.store.countOf('fleet.cattle.io/v1alpha1/bundledeployments'), 0);
		// Everything else is watched as usual.
		await assertCacheMatchesServer(harness.server, session);
		const listed = await session.listBundleDeployments('fleet.cattle.io/bundle-name=web-web');
		assert.equal(listed.kind === 'ok' ? listed.objects.length : -1, 1);
	});
});

describe('rediscovery while running', () => {
	let harness: Harness;
	const allGroups = [...new Set(resourceTypes.map((type) => type.group))];
	const groupsWithout = (removed: readonly string[]): string[] =>
		allGroups.filter((group) => !removed.includes(group));
	const fluxGroups = allGroups.filter(
		(group) => group.endsWith('.toolkit.fluxcd.io') || group === 'fluxcd.controlplane.io',
	);
	const kustomizations = 'kustomize.toolkit.fluxcd.io/v1/kustomizations';
	const bundleDeployments = 'fleet.cattle.io/v1alpha1/bundledeployments';

	before(async () => {
		harness = await startHarness();
	});
	after(() => stopHarness(harness));
	// A failed test must not leave a session rediscovering, or served groups and faults, to the next one.
	afterEach(() => {
		for (const session of harness.sessions) session.dispose();
		harness.server.setServedGroups(undefined);
		harness.server.faults.clear();
	});

	it('watches a CRD group installed after the session synced, and lets it go when removed', async () => {
		harness.server.setServedGroups(groupsWithout(fluxGroups));
		const session = harness.open('admin', { rediscoverMs: 100 });
		const fluxStates: string[] = [];
		session.onState((status) => {
			const flux = status.systems.find((system) => system.system === 'flux');
			if (flux) fluxStates.push(`${flux.state.kind} ${flux.groups.join(',')}`);
		});
		await session.synced();
		assert.equal(
			session.status().systems.find((system) => system.system === 'flux')?.state.kind,
			'not-installed',
		);
		assert.equal(stateOf(session.status(), 'kustomizations'), undefined);
		await assertCacheMatchesServer(harness.server, session);

		// Flux installed into the cluster being watched.
		harness.server.setServedGroups(undefined);
		await sessionReaches(
			session,
			() => stateOf(session.status(), 'kustomizations')?.kind === 'ready',
			'kustomizations to be watched',
		);
		await sessionReaches(
			session,
			() =>
				session.status().systems.find((system) => system.system === 'flux')?.state.kind === 'ready',
			'flux to be ready',
		);
		assert.ok(
			fluxStates.some((state) => state.startsWith('not-installed') && !state.includes('fluxcd')),
		);
		assert.ok(fluxStates.some((state) => state.includes('kustomize.toolkit.fluxcd.io')));
		await assertCacheMatchesServer(harness.server, session);
		assert.ok(session.store.get('kustomize.toolkit.fluxcd.io|Kustomization|flux-system|apps'));
		// Watched, not only listed once.
		harness.server.store.put(kustomizationNamed('later'));
		await assertCacheMatchesServer(harness.server, session);

		// Removed again: the local server keeps the open watch going, so only the next period can see it.
		harness.server.setServedGroups(groupsWithout(fluxGroups));
		await sessionReaches(
			session,
			() => stateOf(session.status(), 'kustomizations') === undefined,
			'kustomizations to be gone',
		);
		assert.equal(session.store.countOf(kustomizations), 0);
		assert.equal(
			session.status().systems.find((system) => system.system === 'flux')?.state.kind,
			'not-installed',
		);
		await assertCacheMatchesServer(harness.server, session);
	});

	it('drops a resource from the cache as soon as its watch answers 404, without waiting for the period', async () => {
		const session = harness.open('admin', { rediscoverMs: 60_000 });
		const events: ObjectEvent[] = [];
		session.onObject((event) => events.push(event));
		await session.synced();
		assert.ok(session.store.countOf(kustomizations) > 0);
		harness.server.setServedGroups(groupsWithout(['kustomize.toolkit.fluxcd.io']));
		// The watch reconnects and gets 404; that starts a rediscovery.
		harness.server.faults.dropWatches('destroy');
		await sessionReaches(
			session,
			() => stateOf(session.status(), 'kustomizations') === undefined,
			'kustomizations to be gone',
		);
		assert.equal(session.store.countOf(kustomizations), 0);
		assert.ok(
			events.some(
				(event) =>
					event.type === 'resync' &&
					event.resource === kustomizations &&
					event.objects.length === 0,
			),
		);
		// The rest of Flux is still there.
		const flux = session.status().systems.find((system) => system.system === 'flux');
		assert.equal(flux?.state.kind, 'ready');
		assert.ok(!flux.groups.includes('kustomize.toolkit.fluxcd.io'));
		await assertCacheMatchesServer(harness.server, session);
	});

	it('switches BundleDeployments to roll-ups only above the threshold, and back only below 90% of it', async () => {
		const session = harness.open('admin', { rediscoverMs: 100, bundleDeploymentThreshold: 100 });
		const modes: string[] = [];
		session.onState((status) => {
			const mode = status.bundleDeployments.mode;
			if (mode !== 'unknown' && modes.at(-1) !== mode) modes.push(mode);
		});
		const events: ObjectEvent[] = [];
		session.onObject((event) => events.push(event));
		await session.synced();
		assert.deepEqual(session.status().bundleDeployments, {
			mode: 'watch-all',
			threshold: 100,
			count: 3,
		});
		let fault: FaultHandle | undefined;
		// The count is a list of limit 1; the watch lists with the page size and is not affected.
		const countIs = async (count: number, mode: string): Promise<void> => {
			fault?.remove();
			fault = harness.server.faults.hugeList(count, {
				path: /bundledeployments$/,
				query: /limit=1(&|$)/,
			});
			await sessionReaches(
				session,
				() => session.status().bundleDeployments.count === count,
				`a count of ${count}`,
			);
			assert.equal(session.status().bundleDeployments.mode, mode, `mode at ${count}`);
		};

		await countIs(100, 'watch-all');
		await countIs(101, 'roll-ups-only');
		const unwatched = session
			.status()
			.resources.find((entry) => entry.resource.id === bundleDeployments);
		assert.equal(unwatched?.watched, false);
		assert.equal(session.store.countOf(bundleDeployments), 0);
		assert.ok(
			events.some(
				(event) =>
					event.type === 'resync' &&
					event.resource === bundleDeployments &&
					event.objects.length === 0,
			),
		);
		await assertCacheMatchesServer(harness.server, session);

		await countIs(95, 'roll-ups-only');
		await countIs(90, 'roll-ups-only');
		assert.match(
			stateOf(session.status(), 'bundledeployments')?.message ?? '',
			/roll-ups only: 90 BundleDeployments was above the threshold of 100; watched again below 90/,
		);
		await countIs(89, 'watch-all');
		fault?.remove();
		await sessionReaches(
			session,
			() => stateOf(session.status(), 'bundledeployments')?.kind === 'ready',
			'bundledeployments to be watched',
		);
		await assertCacheMatchesServer(harness.server, session);
		assert.equal(session.store.countOf(bundleDeployments), 3);
		assert.deepEqual(modes, ['watch-all', 'roll-ups-only', 'watch-all']);
	});

	it('keeps the cache and the watches when a rediscovery fails (500, a failing group, a timeout)', async () => {
		const logs: string[] = [];
		const logListeners = new Set<() => void>();
		// A short request timeout for the hung rediscovery below.
		const session = harness.open('admin', {
			rediscoverMs: 100,
			requestTimeoutMs: 1500,
			log: (line) => {
				logs.push(line);
				for (const listener of [...logListeners]) listener();
			},
		});
		const events: ObjectEvent[] = [];
		session.onObject((event) => events.push(event));
		await session.synced();
		await assertCacheMatchesServer(harness.server, session);
		const ids = session.status().resources.map((entry) => entry.resource.id);
		const faults = harness.server.faults;
		const cases: [string, () => FaultHandle][] = [
			['500 on /apis', () => faults.respond(500, { path: /^\/apis$/ })],
			[
				'500 on one group',
				() => faults.respond(500, { path: /^\/apis\/fleet\.cattle\.io\/v1alpha1$/ }),
			],
			['no answer to /apis', () => faults.hang({ path: /^\/apis$/ })],
		];
		for (const [index, [what, inject]] of cases.entries()) {
			const logged = logs.length;
			const resyncs = events.filter((event) => event.type === 'resync').length;
			const fault = inject();
			await until(
				() => logs.slice(logged).some((line) => line.startsWith('rediscovery of admin')),
				`a logged failure (${what})`,
				[
					(listener) => {
						logListeners.add(listener);
						return () => logListeners.delete(listener);
					},
				],
			);
			// The watches go on: changes still arrive, and nothing was listed again.
			harness.server.store.put(gitRepo('fleet-default', `failed-rediscovery-${index}`));
			await assertCacheMatchesServer(harness.server, session);
			assert.equal(events.filter((event) => event.type === 'resync').length, resyncs, what);
			const status = session.status();
			assert.deepEqual(
				status.resources.map((entry) => entry.resource.id),
				ids,
				what,
			);
			assert.equal(status.state.kind, 'ready', what);
			assert.ok(
				status.systems.every((system) => system.state.kind === 'ready'),
				what,
			);
			fault.remove();
		}
		assert.match(logs.join('\n'), /the server answered 500 to discover API groups/);
		assert.match(logs.join('\n'), /fleet\.cattle\.io kept as it was: the server answered 500/);
		assert.match(logs.join('\n'), /no answer within 1\.5 s/);
	});

	it('stops rediscovering when paused or disposed', async () => {
		// Its own user, so that only this session's discoveries are counted; each one starts with GET /apis.
		const session = harness.open('limited', { rediscoverMs: 50 });
		await session.synced();
		const discoveries = harness.server.faults.delay(0, { path: /^\/apis$/, user: 'limited' });
		await until(() => discoveries.hits >= 2, 'rediscoveries while running', [harness.onRequest]);
		// The clock of this test: an admin session that rediscovers every 100 ms, counted the same way.
		const clock = harness.open('admin', { rediscoverMs: 100 });
		const ticks = harness.server.faults.delay(0, { path: /^\/apis$/, user: 'admin' });
		await clock.synced();
		// A rediscovery ends with the BundleDeployment count (a list of limit 1).
		const counted =
			/^GET \/apis\/fleet\.cattle\.io\/v1alpha1\/bundledeployments\?limit=1 \d+ \d+ms limited$/;
		const noMoreAfter = async (end: () => void, what: string): Promise<void> => {
			// Ended as the server answers a rediscovery's last request, before the session can read that answer (one
			// process, one event loop): no GET /apis is on its way, and none may follow.
			const from = harness.requests.length;
			await until(
				() => harness.requests.slice(from).some((line) => counted.test(line)),
				`a rediscovery to end (${what})`,
				[harness.onRequest],
			);
			end();
			const ended = discoveries.hits;
			const ticked = ticks.hits;
			await until(() => ticks.hits >= ticked + 3, `three rediscoveries of the clock (${what})`, [
				harness.onRequest,
			]);
			// One still scheduled would come 50 ms after the end, 150 ms before the clock's third: it would be in.
			assert.equal(discoveries.hits, ended, what);
		};
		await noMoreAfter(() => session.pause(), 'paused');
		const paused = discoveries.hits;
		session.start();
		await session.synced();
		await until(() => discoveries.hits >= paused + 3, 'rediscoveries after resuming', [
			harness.onRequest,
		]);
		await noMoreAfter(() => session.dispose(), 'disposed');
	});
});

describe('session: pure parts', () => {
	it('finds the continue token at the start of a list, before its items arrive', () => {
		assert.deepEqual(
			continueTokenOfPrefix(
				'{"kind":"GitRepoList","apiVersion":"v1","metadata":{"resourceVersion":"9","continue":"abc="},"items":[{"me',
			),
			{ known: true, token: 'abc=' },
		);
		assert.deepEqual(
			continueTokenOfPrefix('{"kind":"L","metadata":{"resourceVersion":"9"},"items":['),
			{
				known: true,
				token: undefined,
			},
		);
		assert.deepEqual(continueTokenOfPrefix('{"kind":"L","metadata":{"resourceVer'), {
			known: false,
		});
		// Metadata after the items (not kube-apiserver's order): no guess, the parsed list decides.
		assert.deepEqual(continueTokenOfPrefix('{"items":[{"metadata":{"continue":"x"}}'), {
			known: true,
			token: undefined,
		});
	});

	it('discovers the preferred version of each watched group only', () => {
		const groups = groupVersionsToDiscover({
			groups: [
				{
					name: 'fleet.cattle.io',
					versions: [{ version: 'v1alpha1' }],
					preferredVersion: { version: 'v1alpha1' },
				},
				{
					name: 'helm.toolkit.fluxcd.io',
					versions: [{ version: 'v2' }, { version: 'v2beta2' }],
					preferredVersion: { version: 'v2' },
				},
				{ name: 'containerservice.azure.com', versions: [{ version: 'v1api20231001' }] },
				{ name: 'rbac.authorization.k8s.io', versions: [{ version: 'v1' }] },
				'garbage',
			],
		});
		assert.deepEqual(groups, [
			{ group: 'fleet.cattle.io', version: 'v1alpha1' },
			{ group: 'helm.toolkit.fluxcd.io', version: 'v2' },
			{ group: 'containerservice.azure.com', version: 'v1api20231001' },
		]);
	});

	it('watches listable resources, no subresources, and only the workload kinds of apps and batch', () => {
		const resources = resourcesOfGroupVersion('apps', 'v1', {
			resources: [
				{
					name: 'deployments',
					kind: 'Deployment',
					namespaced: true,
					verbs: ['list', 'watch', 'get'],
				},
				{ name: 'deployments/status', kind: 'Deployment', namespaced: true, verbs: ['get'] },
				{ name: 'replicasets', kind: 'ReplicaSet', namespaced: true, verbs: ['list', 'watch'] },
				{
					name: 'controllerrevisions',
					kind: 'ControllerRevision',
					namespaced: true,
					verbs: ['list', 'watch'],
				},
			],
		});
		assert.deepEqual(
			resources.map((resource) => resource.id),
			['apps/v1/deployments'],
		);
		const fleet = resourcesOfGroupVersion('fleet.cattle.io', 'v1alpha1', {
			resources: [{ name: 'contents', kind: 'Content', namespaced: false, verbs: ['get'] }],
		});
		assert.deepEqual(fleet, []);
	});

	it('gives each state a tone for the tree root', () => {
		assert.equal(toneOfState({ kind: 'ready', message: '' }), 'ok');
		assert.equal(toneOfState({ kind: 'login-required', message: '' }), 'warning');
		assert.equal(toneOfState({ kind: 'cannot-reach', message: '' }), 'error');
		assert.equal(toneOfState({ kind: 'not-installed', message: '' }), 'unknown');
	});
});
