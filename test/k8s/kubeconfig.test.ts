import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
	clientNodeOptions,
	LoginRequiredError,
	runExecPlugin,
	type ExecConfig,
	kubeConfigFor,
	kubeconfigLocation,
	mergeKubeconfigs,
	parseKubeconfig,
	type KubeconfigFileRead,
} from '../../src/k8s/kubeconfig.ts';
import { processGone } from '../support/wait.ts';

function file(path: string, text: string): KubeconfigFileRead {
	return { path, kind: 'text', text };
}

const first = `
apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: shared
  cluster:
    server: https://first.example:6443
    certificate-authority: certs/ca.pem
contexts:
- name: dev
  context: { cluster: shared, user: alice, namespace: fleet-local }
- name: both
  context: { cluster: shared, user: alice }
users:
- name: alice
  user:
    client-certificate: alice.crt
    client-key: ../keys/alice.key
`;

const second = `
current-context: prod
clusters:
- name: shared
  cluster:
    server: https://second.example:6443
- name: prod
  cluster:
    server: https://prod.example:6443/
contexts:
- name: both
  context: { cluster: prod, user: bob }
- name: prod
  context: { cluster: prod, user: bob }
users:
- name: alice
  user: { token: from-second }
- name: bob
  user:
    tokenFile: ./bob-token
    exec:
      command: ./bin/get-token
      args: [--cluster, prod]
      env: [{ name: A, value: b }]
- name: carol
  user:
    exec: { command: kubelogin, args: [get-token] }
`;

describe('kubeconfig: which files', () => {
	it('uses the explicit path alone, like kubectl --kubeconfig', () => {
		const location = kubeconfigLocation({
			explicitPath: 'configs/k.yaml',
			kubeconfigEnv: '/a:/b',
			home: '/home/u',
			cwd: '/work',
		});
		assert.deepEqual(location, { paths: ['/work/configs/k.yaml'], source: 'explicit' });
	});

	it('expands ~ in the setting, which no shell expands', () => {
		const location = kubeconfigLocation({
			explicitPath: '~/k.yaml',
			home: '/home/u',
			cwd: '/work',
		});
		assert.deepEqual(location.paths, ['/home/u/k.yaml']);
	});

	it('splits KUBECONFIG, dropping empty entries and repeated files', () => {
		const location = kubeconfigLocation({
			kubeconfigEnv: '/a/one::rel/two:/a/one:',
			home: '/home/u',
			cwd: '/work',
			delimiter: ':',
		});
		assert.deepEqual(location, { paths: ['/a/one', '/work/rel/two'], source: 'env' });
	});

	it('falls back to ~/.kube/config', () => {
		const location = kubeconfigLocation({ kubeconfigEnv: '', home: '/home/u', cwd: '/work' });
		assert.deepEqual(location, { paths: ['/home/u/.kube/config'], source: 'default' });
	});
});

describe('kubeconfig: merging as kubectl does', () => {
	const merged = mergeKubeconfigs([
		file('/cfg/one/config', first),
		{ path: '/cfg/missing', kind: 'missing' },
		file('/cfg/two/config', second),
	]);

	it('keeps the first file’s entry when a name is defined in several files (client-node would throw)', () => {
		const shared = merged.clusters.find((entry) => entry.name === 'shared');
		assert.equal(shared?.value.server, 'https://first.example:6443');
		assert.equal(shared?.origin, '/cfg/one/config');
		const alice = merged.users.find((entry) => entry.name === 'alice');
		// The whole entry wins, not field by field: no token from the second file.
		assert.equal(alice?.value.token, undefined);
		assert.equal(merged.contexts.find((entry) => entry.name === 'both')?.value.user, 'alice');
		assert.deepEqual(
			merged.contexts.map((entry) => entry.name),
			['dev', 'both', 'prod'],
		);
	});

	it('takes current-context from the first file that sets one', () => {
		assert.equal(merged.currentContext, 'dev');
		const later = mergeKubeconfigs([file('/a', 'clusters: []'), file('/b', second)]);
		assert.equal(later.currentContext, 'prod');
	});

	it('skips a missing file and reports it', () => {
		assert.deepEqual(
			merged.files.map((entry) => [entry.path, entry.status]),
			[
				['/cfg/one/config', 'loaded'],
				['/cfg/missing', 'missing'],
				['/cfg/two/config', 'loaded'],
			],
		);
		const problem = merged.problems.find((entry) => entry.code === 'missing-file');
		assert.equal(problem?.severity, 'warning');
		assert.equal(problem?.path, '/cfg/missing');
	});

	it('resolves relative paths against the folder of the file that holds them', () => {
		const shared = merged.clusters.find((entry) => entry.name === 'shared');
		assert.equal(shared?.value.certificateAuthority, '/cfg/one/certs/ca.pem');
		const alice = merged.users.find((entry) => entry.name === 'alice');
		assert.equal(alice?.value.clientCertificate, '/cfg/one/alice.crt');
		assert.equal(alice?.value.clientKey, '/cfg/keys/alice.key');
		const bob = merged.users.find((entry) => entry.name === 'bob');
		assert.equal(bob?.value.tokenFile, '/cfg/two/bob-token');
		assert.equal(bob?.value.exec?.command, '/cfg/two/bin/get-token');
		assert.deepEqual(bob?.value.exec?.args, ['--cluster', 'prod']);
		assert.deepEqual(bob?.value.exec?.env, [{ name: 'A', value: 'b' }]);
	});

	it('leaves an exec command without a path separator to be found on PATH', () => {
		const carol = merged.users.find((entry) => entry.name === 'carol');
		assert.equal(carol?.value.exec?.command, 'kubelogin');
	});

	it('reports a missing explicit file as an error', () => {
		const result = mergeKubeconfigs([{ path: '/nope', kind: 'missing' }], 'explicit');
		assert.equal(result.problems[0]?.severity, 'error');
		assert.equal(result.contexts.length, 0);
	});

	it('skips a file with bad YAML and keeps the others', () => {
		const result = mergeKubeconfigs([
			file('/bad', 'clusters: [\n  - name: x\n'),
			file('/good', first),
		]);
		assert.equal(result.problems.find((entry) => entry.code === 'yaml-syntax')?.path, '/bad');
		assert.equal(result.files[0]?.status, 'invalid');
		assert.equal(result.contexts.length, 2);
	});

	it('refuses a file that defines a name twice, as kubectl does, and keeps the others', () => {
		const twice =
			'clusters:\n- name: a\n  cluster: {server: https://x}\n- name: a\n  cluster: {server: https://y}\n';
		const parsed = parseKubeconfig('/twice', twice);
		assert.equal(parsed.file, undefined);
		assert.equal(parsed.problems[0]?.code, 'duplicate-name');
		const result = mergeKubeconfigs([file('/twice', twice), file('/cfg/one/config', first)]);
		assert.equal(result.clusters.length, 1);
		assert.equal(result.clusters[0]?.value.server, 'https://first.example:6443');
	});

	it('reads an empty file as an empty config and a scalar as not a kubeconfig', () => {
		assert.deepEqual(parseKubeconfig('/empty', '').file, { clusters: [], users: [], contexts: [] });
		assert.equal(parseKubeconfig('/scalar', 'hello').problems[0]?.code, 'not-a-kubeconfig');
	});

	it('ignores a mistyped field with a warning instead of failing', () => {
		const parsed = parseKubeconfig(
			'/typed',
			'clusters:\n- name: a\n  cluster: {server: https://x, insecure-skip-tls-verify: "yes"}\n',
		);
		assert.equal(parsed.file?.clusters[0]?.value.insecureSkipTlsVerify, undefined);
		assert.equal(parsed.problems[0]?.code, 'ignored-field');
	});
});

describe('kubeconfig: handed to client-node', () => {
	const merged = mergeKubeconfigs([
		file('/cfg/one/config', first),
		file('/cfg/two/config', second),
	]);

	it('gives client-node every entry once, in kubectl’s precedence', () => {
		const options = clientNodeOptions(merged);
		assert.deepEqual(
			options.clusters.map((cluster) => [cluster.name, cluster.server]),
			[
				['shared', 'https://first.example:6443'],
				['prod', 'https://prod.example:6443'],
			],
		);
		assert.equal(options.currentContext, 'dev');
		const bob = options.users.find((user) => user.name === 'bob');
		// Exec users are claimed by our own authenticator (with a timeout), not client-node's ExecAuth.
		assert.equal((bob?.authProvider as { name: string }).name, 'kube-status-lens-exec');
	});

	it('builds a KubeConfig per context with that context current', () => {
		const made = kubeConfigFor(merged, 'prod');
		assert.equal(made.kind, 'ok');
		if (made.kind !== 'ok') return;
		assert.equal(made.kubeConfig.getCurrentContext(), 'prod');
		assert.equal(made.kubeConfig.getCurrentCluster()?.server, 'https://prod.example:6443');
		const dev = kubeConfigFor(merged, 'dev');
		assert.equal(dev.kind === 'ok' ? dev.namespace : undefined, 'fleet-local');
	});

	it('says what is wrong with a context that cannot be used', () => {
		const missing = kubeConfigFor(merged, 'nope');
		assert.equal(missing.kind, 'invalid');
		const broken = mergeKubeconfigs([
			file('/x', 'contexts:\n- name: c\n  context: {cluster: gone, user: u}\n'),
		]);
		const made = kubeConfigFor(broken, 'c');
		assert.equal(
			made.kind === 'invalid' ? made.message : '',
			'cluster "gone" of context "c" is not in the kubeconfig',
		);
	});
});

describe('kubeconfig: exec credential plugins', () => {
	let dir: string;
	before(async () => {
		dir = await mkdtemp(path.join(tmpdir(), 'ksl-exec-'));
		await writeFile(
			path.join(dir, 'ok.sh'),
			`#!/bin/sh\n[ -n "$KUBERNETES_EXEC_INFO" ] || exit 3\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t-'"$TEAM"'"}}'\n`,
		);
		await writeFile(
			path.join(dir, 'fails.sh'),
			'#!/bin/sh\necho "error: you must log in first" >&2\nexit 1\n',
		);
		await chmod(path.join(dir, 'ok.sh'), 0o755);
		await chmod(path.join(dir, 'fails.sh'), 0o755);
	});
	after(() => rm(dir, { recursive: true, force: true }));

	const exec = (command: string, installHint?: string): ExecConfig => ({
		command,
		args: [],
		env: [{ name: 'TEAM', value: 'a' }],
		provideClusterInfo: false,
		...(installHint ? { installHint } : {}),
	});

	it('runs the plugin with KUBERNETES_EXEC_INFO and its env, and reads the token', async () => {
		const status = await runExecPlugin(exec(path.join(dir, 'ok.sh')), { server: 'https://x' });
		assert.equal(status.token, 't-a');
	});

	it('turns a failing plugin into "login required" with its message', async () => {
		await assert.rejects(runExecPlugin(exec(path.join(dir, 'fails.sh')), {}), (error: Error) => {
			assert.ok(error instanceof LoginRequiredError);
			assert.match(error.message, /failed \(exit 1\): error: you must log in first/);
			return true;
		});
	});

	it('says how to install a plugin that is missing', async () => {
		await assert.rejects(
			runExecPlugin(exec('ksl-no-such-plugin', 'Install it with brew install x.'), {}),
			/is not installed\. Install it with brew install x\./,
		);
	});

	it('stops a plugin that does not answer in time', { timeout: 30_000 }, async () => {
		// It writes its pid, then becomes `sleep`: that pid is the process the timeout must kill.
		const pidFile = path.join(dir, 'slow.pid');
		await writeFile(
			path.join(dir, 'slow.sh'),
			`#!/bin/sh\necho $$ > "${pidFile}"\nexec sleep 30\n`,
		);
		await chmod(path.join(dir, 'slow.sh'), 0o755);
		await assert.rejects(
			// Long enough for a loaded machine to start the script (it writes its pid first), short for a test.
			runExecPlugin(exec(path.join(dir, 'slow.sh')), {}, { timeoutMs: 3000 }),
			/did not answer within 3 s/,
		);
		await processGone(Number((await readFile(pidFile, 'utf8')).trim()));
	});
});
