// kubectl against the local API server: the proof that the server speaks the wire protocol a real client expects
// (discovery, aggregated discovery, Table fallback, watch, client-side and server-side apply, patch, delete).
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { createCertificates } from '../../src/apiserver/certificates.ts';
import { demoExamplesFolder } from '../../src/apiserver/demo.ts';
import { reconcileFleet } from '../../src/apiserver/fleetController.ts';
import { kubeconfigText } from '../../src/apiserver/kubeconfig.ts';
import { loadObjects, readObjects } from '../../src/apiserver/scenario.ts';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { reportPendingWaits, until, type Trigger } from '../support/wait.ts';
import { metaOf, send } from './client.ts';

afterEach(reportPendingWaits);

function findKubectl(): string | undefined {
	for (const folder of (process.env.PATH ?? '').split(delimiter)) {
		const candidate = join(folder, 'kubectl');
		if (folder !== '' && existsSync(candidate)) return candidate;
	}
	return undefined;
}

const kubectlPath = findKubectl();
const missing = 'kubectl is not on PATH: install it with `apt-get install kubernetes-client`';
// npm test installs kubectl where it can; CI requires it (KSL_REQUIRE_KUBECTL=1), so the fidelity proof is never
// skipped there.
if (kubectlPath === undefined && process.env.KSL_REQUIRE_KUBECTL === '1') throw new Error(missing);
const skip = kubectlPath === undefined ? missing : false;

interface Run {
	readonly code: number;
	readonly stdout: string;
	readonly stderr: string;
}

describe('kubectl against the local API server', { skip }, () => {
	let server: ApiServer;
	let folder: string;
	let env: NodeJS.ProcessEnv;

	// Asynchronous on purpose: the server runs in this process and must answer while kubectl waits.
	const kubectl = (
		args: readonly string[],
		kubeconfig = join(folder, 'kubeconfig'),
	): Promise<Run> =>
		new Promise((resolve) => {
			execFile(
				kubectlPath ?? 'kubectl',
				[`--kubeconfig=${kubeconfig}`, '--request-timeout=10s', ...args],
				{ env, timeout: 20_000 },
				(error, stdout, stderr) => {
					const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
					resolve({ code, stdout, stderr });
				},
			);
		});
	const ok = async (args: readonly string[]): Promise<string> => {
		const run = await kubectl(args);
		assert.equal(run.code, 0, `kubectl ${args.join(' ')} failed: ${run.stderr}`);
		return run.stdout;
	};

	before(async () => {
		folder = await mkdtemp(join(tmpdir(), 'ksl-kubectl-'));
		// kubectl caches discovery under $HOME/.kube/cache; a fresh HOME keeps runs apart.
		env = { PATH: process.env.PATH ?? '', HOME: folder };
		server = await startApiServer({ namespaces: ['fleet-default', 'flux-system'] });
		const read = await readObjects([
			join(demoExamplesFolder, '..', 'workspace', 'fleet', 'dump.yaml'),
			join(demoExamplesFolder, 'kubestellar-its'),
		]);
		assert.deepEqual(loadObjects(server.store, read.objects).problems, []);
		await writeFile(
			join(folder, 'kubeconfig'),
			kubeconfigText([{ name: 'local', server, token: server.token }]),
		);
	});
	after(async () => {
		await server.close();
		await rm(folder, { recursive: true, force: true });
	});

	it("kubectl get gitrepos -A prints the columns Fleet's CRD declares", async () => {
		const out = await ok(['get', 'gitrepos', '-A']);
		// Fleet's GitRepo declares its columns, so the server adds no AGE (as kube-apiserver does).
		assert.match(out, /^NAMESPACE\s+NAME\s+REPO\s+COMMIT\s+BUNDLEDEPLOYMENTS-READY\s+STATUS$/m);
		assert.match(
			out,
			/^fleet-default\s+shop\s+https:\/\/github\.com\/example\/shop-fleet\s+3f9c2a7e\S*\s+4\/6\s+ErrApplied\(1\) \[Cluster fleet-default\/prod-us-1: /m,
		);
	});

	it("kubectl get clusters, bundledeployments and kustomizations: their CRDs' columns and cells", async () => {
		const clusters = await ok(['get', 'clusters.fleet.cattle.io', '-n', 'fleet-default']);
		assert.match(clusters, /^NAME\s+BUNDLES-READY\s+LAST-SEEN\s+STATUS$/m);
		assert.match(clusters, /^prod-eu-1\s+3\/3\s+2025-06-25T15:01:02Z\s*$/m);
		const bds = await ok(['get', 'bundledeployments', '-A']);
		assert.match(bds, /^NAMESPACE\s+NAME\s+DEPLOYED\s+MONITORED\s+STATUS$/m);
		assert.match(bds, /\sshop-frontend\s+Error: failed to upgrade "shop-frontend"/);
		server.store.put({
			apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
			kind: 'Kustomization',
			metadata: { name: 'apps', namespace: 'default' },
			spec: { interval: '10m', prune: true, sourceRef: { kind: 'GitRepository', name: 'apps' } },
			status: {
				conditions: [
					{
						type: 'Ready',
						status: 'False',
						reason: 'ArtifactFailed',
						message: 'Source artifact not found, retrying in 30s',
						lastTransitionTime: '2025-06-25T15:00:00Z',
					},
				],
			},
		});
		const ks = await ok(['get', 'ks', '-n', 'default']);
		// Flux declares AGE itself, before READY and STATUS; the age counts from the creation timestamp.
		assert.match(ks, /^NAME\s+AGE\s+READY\s+STATUS$/m);
		assert.match(ks, /^apps\s+\d+s\s+False\s+Source artifact not found, retrying in 30s$/m);
		// WorkStatus's CRD declares no columns: the server's default AGE.
		assert.match(await ok(['get', 'ws', '-n', 'cluster1']), /^NAME\s+AGE$/m);
	});

	it("kubectl get fluxreports, fluxinstances and rset: the Flux Operator CRDs' columns", async () => {
		const read = await readObjects([join(demoExamplesFolder, 'platform', 'flux-operator.yaml')]);
		assert.deepEqual(loadObjects(server.store, read.objects).problems, []);
		const reports = await ok(['get', 'fluxreports', '-n', 'flux-system']);
		// Entitlement has priority 10: only with -o wide.
		assert.match(reports, /^NAME\s+AGE\s+READY\s+STATUS\s+LASTUPDATED$/m);
		assert.match(
			reports,
			/^flux\s+\S+\s+True\s+Reporting finished in 62ms\s+2025-11-20T09:00:00Z$/m,
		);
		const wide = await ok(['get', 'fluxreports', '-n', 'flux-system', '-o', 'wide']);
		assert.match(wide, /^NAME\s+ENTITLEMENT\s+AGE\s+READY\s+STATUS\s+LASTUPDATED$/m);
		assert.match(wide, /^flux\s+Unlicensed\s/m);
		const instances = await ok(['get', 'fluxinstances', '-n', 'flux-system']);
		assert.match(instances, /^NAME\s+AGE\s+READY\s+STATUS\s+REVISION$/m);
		assert.match(
			instances,
			/^flux\s+\S+\s+True\s+Reconciliation finished in 8s\s+v2\.7\.3@sha256:8f2c/m,
		);
		// rset is the short name the ResourceSet CRD declares.
		assert.match(
			await ok(['get', 'rset', '-n', 'flux-system']),
			/^preview-envs\s+\S+\s+True\s+Reconciliation finished in 1s$/m,
		);
	});

	it('kubectl get events: the Event columns, for an Event of the events.k8s.io recorder too', async () => {
		reconcileFleet(server.store);
		const out = await ok(['get', 'events', '-n', 'fleet-default']);
		assert.match(out, /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/m);
		// No lastTimestamp or count: the last time seen is the eventTime, the count 1.
		assert.match(
			out,
			/^\d+s\s+Normal\s+GotNewCommit\s+gitrepo\/shop\s+3f9c2a7e51b04d6a8c1e9f20b7d4a6c5e8f10b2d$/m,
		);
		const wide = await ok(['get', 'events.events.k8s.io', '-n', 'fleet-default', '-o', 'wide']);
		assert.match(
			wide,
			/\sfleet-gitops, fleet-gitops-\S+\s+3f9c2a7e\S+\s+\d+s\s+1\s+shop\.[0-9a-f]+$/m,
		);
	});

	it('kubectl get harborclusters: priority columns only with -o wide', async () => {
		server.store.put({
			apiVersion: 'goharbor.io/v1beta1',
			kind: 'HarborCluster',
			metadata: { name: 'registry', namespace: 'default' },
			spec: { externalURL: 'https://harbor.example.com', version: '2.10.0' },
			status: {
				status: 'provisioning',
				operator: { controllerVersion: 'v1.4.0', controllerGitCommit: 'abc1234' },
			},
		});
		const plain = await ok(['get', 'harborclusters', '-n', 'default']);
		assert.match(plain, /^NAME\s+PUBLIC URL\s+STATUS$/m);
		assert.match(plain, /^registry\s+https:\/\/harbor\.example\.com\s+provisioning$/m);
		const wide = await ok(['get', 'harborclusters', '-n', 'default', '-o', 'wide']);
		assert.match(wide, /^NAME\s+PUBLIC URL\s+STATUS\s+OPERATOR VERSION\s+OPERATOR GIT COMMIT$/m);
		assert.match(wide, /^registry\s+\S+\s+provisioning\s+v1\.4\.0\s+abc1234$/m);
	});

	it('kubectl get --raw /apis', async () => {
		const out = JSON.parse(await ok(['get', '--raw', '/apis'])) as {
			kind: string;
			groups: { name: string }[];
		};
		assert.equal(out.kind, 'APIGroupList');
		assert.ok(out.groups.some((group) => group.name === 'fleet.cattle.io'));
	});

	it('kubectl api-resources', async () => {
		const out = await ok(['api-resources']);
		assert.match(
			out,
			/^bundledeployments\s+fleet\.cattle\.io\/v1alpha1\s+true\s+BundleDeployment$/m,
		);
		assert.match(
			out,
			/^workstatuses\s+ws\s+control\.kubestellar\.io\/v1alpha1\s+true\s+WorkStatus$/m,
		);
		assert.match(
			out,
			/^bindingpolicies\s+bp\s+control\.kubestellar\.io\/v1alpha1\s+false\s+BindingPolicy$/m,
		);
		assert.match(out, /^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
	});

	it('kubectl get ws -n cluster1 (short names)', async () => {
		const out = await ok(['get', 'ws', '-n', 'cluster1']);
		assert.match(out, /^6f1c2a4e-5b7d-4c1e-9a3f-0d2b8e7c6a51-appsv1-deployment-nginx-nginx\s/m);
	});

	it('kubectl get -o json shows the stored object', async () => {
		const out = JSON.parse(
			await ok(['get', 'gitrepo', 'shop', '-n', 'fleet-default', '-o', 'json']),
		) as Record<string, unknown>;
		const stored = await send(
			server,
			'GET',
			'/apis/fleet.cattle.io/v1alpha1/namespaces/fleet-default/gitrepos/shop',
		);
		assert.deepEqual(out, stored.body);
	});

	it(
		'kubectl get bundledeployments -A -w sees a change made on the server',
		{ timeout: 60_000 },
		async () => {
			const child = spawn(
				kubectlPath ?? 'kubectl',
				[`--kubeconfig=${join(folder, 'kubeconfig')}`, 'get', 'bundledeployments', '-A', '-w'],
				{ env },
			);
			try {
				let out = '';
				let err = '';
				const listeners = new Set<() => void>();
				const changed = (): void => {
					for (const listener of [...listeners]) listener();
				};
				child.stdout.setEncoding('utf8');
				child.stderr.setEncoding('utf8');
				child.stdout.on('data', (chunk: string) => {
					out += chunk;
					changed();
				});
				child.stderr.on('data', (chunk: string) => {
					err += chunk;
				});
				child.on('exit', changed);
				const printed: Trigger = (listener) => {
					listeners.add(listener);
					return () => listeners.delete(listener);
				};
				// kubectl writes a table cell by cell, one write each, so a read can end inside a row: only rows that
				// are complete count.
				const lines = (): string[] => {
					if (child.exitCode !== null) assert.fail(`kubectl -w ended:\n${out}\n${err}`);
					return out
						.slice(0, out.lastIndexOf('\n') + 1)
						.split('\n')
						.filter((line) => line.trim() !== '');
				};
				const count = server.store.count(
					server.store.typeOf('fleet.cattle.io/v1alpha1', 'BundleDeployment')!,
				);
				await until(
					() => lines().length >= count + 1,
					() => `the list (printed:\n${out})`,
					[printed],
				);
				// kubectl watches from the list's resourceVersion after printing it; change once that watch is open.
				await until(() => server.openWatchCount() > 0, "kubectl's watch to open", [
					(listener) => server.onWatchesChanged(listener),
				]);
				const patched = await send(
					server,
					'PATCH',
					'/apis/fleet.cattle.io/v1alpha1/namespaces/cluster-fleet-default-staging-1-ab9dec26139f/bundledeployments/shop-cache',
					{
						contentType: 'application/merge-patch+json',
						body: { metadata: { labels: { touched: 'yes' } } },
					},
				);
				assert.equal(patched.status, 200);
				await until(
					() => lines().length >= count + 2,
					() => `the change (printed:\n${out})`,
					[printed],
				);
				assert.match(
					lines()[count + 1] ?? '',
					/^cluster-fleet-default-staging-1-ab9dec26139f\s+shop-cache\s+True\s+True\s*$/,
				);
			} finally {
				child.kill();
			}
		},
	);

	it('kubectl apply --validate=false -f <file>: created, then configured, then unchanged', async () => {
		const file = join(folder, 'apply.yaml');
		const manifest = (branch: string, level: string, image: string): string => `apiVersion: v1
kind: ConfigMap
metadata:
  name: demo-config
  namespace: default
data:
  LOG_LEVEL: ${level}
---
apiVersion: fleet.cattle.io/v1alpha1
kind: GitRepo
metadata:
  name: demo
  namespace: fleet-default
spec:
  repo: https://github.com/example/demo
  branch: ${branch}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: 1
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - name: web
          image: ${image}
        - name: log
          image: busybox
`;
		await writeFile(file, manifest('main', 'info', 'nginx:1.27'));
		const created = await ok(['apply', '--validate=false', '-f', file]);
		assert.match(created, /configmap\/demo-config created/);
		assert.match(created, /gitrepo\.fleet\.cattle\.io\/demo created/);
		assert.match(created, /deployment\.apps\/web created/);
		await writeFile(file, manifest('dev', 'debug', 'nginx:1.28'));
		const configured = await ok(['apply', '--validate=false', '-f', file]);
		assert.match(configured, /configmap\/demo-config configured/);
		assert.match(configured, /gitrepo\.fleet\.cattle\.io\/demo configured/);
		assert.match(configured, /deployment\.apps\/web configured/);
		const gitRepo = await send(
			server,
			'GET',
			'/apis/fleet.cattle.io/v1alpha1/namespaces/fleet-default/gitrepos/demo',
		);
		assert.equal((gitRepo.body.spec as { branch: string }).branch, 'dev');
		assert.equal(metaOf(gitRepo.body).generation, 2);
		const deployment = await send(
			server,
			'GET',
			'/apis/apps/v1/namespaces/default/deployments/web',
		);
		const containers = (
			deployment.body.spec as {
				template: { spec: { containers: { name: string; image: string }[] } };
			}
		).template.spec.containers;
		assert.deepEqual(
			containers.map((container) => [container.name, container.image]),
			[
				['web', 'nginx:1.28'],
				['log', 'busybox'],
			],
		);
		const unchanged = await ok(['apply', '--validate=false', '-f', file]);
		assert.match(unchanged, /configmap\/demo-config unchanged/);
	});

	it('kubectl apply --server-side --validate=false', async () => {
		const file = join(folder, 'ssa.yaml');
		await writeFile(
			file,
			'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\n  namespace: default\ndata:\n  a: "1"\n',
		);
		assert.match(
			await ok(['apply', '--server-side', '--validate=false', '-f', file]),
			/configmap\/ssa serverside-applied/,
		);
		await writeFile(
			file,
			'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\n  namespace: default\ndata:\n  b: "2"\n',
		);
		assert.match(
			await ok(['apply', '--server-side', '--validate=false', '-f', file]),
			/configmap\/ssa serverside-applied/,
		);
		const stored = await send(server, 'GET', '/api/v1/namespaces/default/configmaps/ssa');
		assert.deepEqual(stored.body.data, { b: '2' });
	});

	it('kubectl patch --type merge and --type json, and the default strategic patch on a built-in kind', async () => {
		assert.match(
			await ok([
				'patch',
				'gitrepo',
				'demo',
				'-n',
				'fleet-default',
				'--type',
				'merge',
				'-p',
				'{"spec":{"paused":true}}',
			]),
			/gitrepo\.fleet\.cattle\.io\/demo patched/,
		);
		await ok([
			'patch',
			'gitrepo',
			'demo',
			'-n',
			'fleet-default',
			'--type',
			'json',
			'-p',
			'[{"op":"replace","path":"/spec/branch","value":"release"}]',
		]);
		const gitRepo = await send(
			server,
			'GET',
			'/apis/fleet.cattle.io/v1alpha1/namespaces/fleet-default/gitrepos/demo',
		);
		assert.deepEqual(gitRepo.body.spec, {
			repo: 'https://github.com/example/demo',
			branch: 'release',
			paused: true,
		});
		await ok(['patch', 'configmap', 'demo-config', '-p', '{"data":{"EXTRA":"x"}}']);
		const cm = await send(server, 'GET', '/api/v1/namespaces/default/configmaps/demo-config');
		assert.deepEqual(cm.body.data, { LOG_LEVEL: 'debug', EXTRA: 'x' });
		const strategicOnCrd = await kubectl([
			'patch',
			'gitrepo',
			'demo',
			'-n',
			'fleet-default',
			'-p',
			'{"spec":{"paused":false}}',
		]);
		assert.notEqual(
			strategicOnCrd.code,
			0,
			'custom resources refuse strategic merge patch, as on a real cluster',
		);
		assert.match(strategicOnCrd.stderr, /strategic-merge-patch\+json is not supported/);
	});

	it('kubectl delete', async () => {
		assert.match(
			await ok(['delete', 'gitrepo', 'demo', '-n', 'fleet-default']),
			/gitrepo\.fleet\.cattle\.io "demo" deleted/,
		);
		assert.equal(
			(
				await send(
					server,
					'GET',
					'/apis/fleet.cattle.io/v1alpha1/namespaces/fleet-default/gitrepos/demo',
				)
			).status,
			404,
		);
		const missing = await kubectl(['delete', 'gitrepo', 'demo', '-n', 'fleet-default']);
		assert.notEqual(missing.code, 0);
		assert.match(
			missing.stderr,
			/Error from server \(NotFound\): gitrepos\.fleet\.cattle\.io "demo" not found/,
		);
	});

	it('kubectl refuses the server when the kubeconfig names another CA, and a wrong token gets Unauthorized', async () => {
		const otherCa = join(folder, 'other-ca');
		await writeFile(
			otherCa,
			kubeconfigText([
				{
					name: 'local',
					server: { url: server.url, caPem: createCertificates().caPem },
					token: server.token,
				},
			]),
		);
		const untrusted = await kubectl(['get', 'ns'], otherCa);
		assert.notEqual(untrusted.code, 0);
		assert.match(untrusted.stderr, /x509|certificate/);
		const wrongToken = join(folder, 'wrong-token');
		await writeFile(wrongToken, kubeconfigText([{ name: 'local', server, token: 'nope' }]));
		const unauthorized = await kubectl(['get', 'ns'], wrongToken);
		assert.notEqual(unauthorized.code, 0);
		assert.match(unauthorized.stderr, /Unauthorized|provide credentials/);
	});
});
