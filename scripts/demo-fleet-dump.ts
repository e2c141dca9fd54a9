// Writes a `fleet dump` archive of the demo's Fleet cluster, in the format of rancher/fleet's
// internal/cmd/cli/dump/dump.go (the `fleet` binary is not available here): a gzipped tar of regular files, every
// mtime 0 and mode 0644, `<resource>_<namespace>_<name>` for each Fleet object (YAML, keys sorted as sigs.k8s.io/yaml
// writes them) in dump.go's order, and `events_<namespace>` for the namespaces dump.go collects Events from (one JSON
// Event per line, without apiVersion and kind, as items of a typed EventList). The demo's state is built in-process
// (objects loaded, the stand-in controllers settled), with whatever Events its controllers have recorded.
//
//   scripts/node24 scripts/demo-fleet-dump.ts [OUT.tgz] [--cluster NAME]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { stringify } from 'yaml';
import { startDemo } from '../src/apiserver/demo.ts';
import type { KubeObject, ObjectStore } from '../src/apiserver/store.ts';

/** The order dump.go adds them: GitRepos and Bundles, the other namespaced resources, BundleDeployments, HelmOps. */
const fleetResources = [
	'gitrepos',
	'bundles',
	'clusters',
	'clustergroups',
	'bundlenamespacemappings',
	'gitreporestrictions',
	'bundledeployments',
	'helmops',
];
/** The namespaces dump.go always reads Events from; each Cluster's namespace is added. */
const eventNamespaces = [
	'cattle-fleet-local-system',
	'cattle-fleet-system',
	'default',
	'kube-system',
];

function metadataOf(object: KubeObject): { namespace?: string; name?: string } {
	const metadata = object.metadata;
	return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)
		? metadata
		: {};
}

/** The entries of the dump: name and bytes, in dump.go's order. */
function dumpEntries(store: ObjectStore): { name: string; body: Buffer }[] {
	const entries: { name: string; body: Buffer }[] = [];
	const namespaces = new Set(eventNamespaces);
	for (const plural of fleetResources) {
		const type = store.typeOfResource('fleet.cattle.io', 'v1alpha1', plural);
		if (type === undefined) continue;
		for (const object of store.all(type)) {
			const { namespace = '', name = '' } = metadataOf(object);
			if (plural === 'clusters') namespaces.add(namespace);
			entries.push({
				name: `${plural}_${namespace}_${name}`,
				body: Buffer.from(stringify(object, { sortMapEntries: true })),
			});
		}
	}
	const eventType = store.typeOf('v1', 'Event');
	for (const namespace of [...namespaces].sort()) {
		const events = eventType === undefined ? [] : store.all(eventType, namespace);
		if (events.length === 0) continue;
		const lines = events.map((event) => {
			const { apiVersion: _apiVersion, kind: _kind, ...item } = event;
			return JSON.stringify(item);
		});
		entries.push({ name: `events_${namespace}`, body: Buffer.from(lines.join('\n')) });
	}
	return entries;
}

async function tarOf(entries: readonly { name: string; body: Buffer }[]): Promise<Buffer> {
	const archive = pack();
	const chunks: Buffer[] = [];
	archive.on('data', (chunk: unknown) => {
		chunks.push(chunk as Buffer);
	});
	const ended = new Promise<void>((done, fail) => {
		archive.on('end', () => done());
		archive.on('error', (error: Error) => fail(error));
	});
	for (const { name, body } of entries) {
		archive.entry({ name, mode: 0o644, mtime: new Date(0), type: 'file', size: body.length }, body);
	}
	archive.finalize();
	await ended;
	return Buffer.concat(chunks);
}

async function main(argv: readonly string[]): Promise<void> {
	const clusterAt = argv.indexOf('--cluster');
	const cluster = clusterAt >= 0 ? (argv[clusterAt + 1] ?? '') : 'fleet-mgmt';
	const out = resolve(
		argv.find(
			(argument, index) => !argument.startsWith('--') && (clusterAt < 0 || index !== clusterAt + 1),
		) ?? 'fleet-dump.tgz',
	);
	const scratch = await mkdtemp(join(tmpdir(), 'ksl-demo-dump-'));
	const demo = await startDemo({
		kubeconfigPath: join(scratch, 'kubeconfig'),
		play: false,
		clusters: [cluster],
	});
	try {
		const server = demo.servers.get(cluster);
		if (server === undefined) throw new Error(`no demo cluster named ${cluster}`);
		const entries = dumpEntries(server.store);
		await writeFile(out, gzipSync(await tarOf(entries)));
		const events = entries.filter((entry) => entry.name.startsWith('events_')).length;
		console.log(`${out}: ${entries.length - events} Fleet objects, Events of ${events} namespaces`);
	} finally {
		await demo.stop();
		await rm(scratch, { recursive: true, force: true });
	}
}

await main(process.argv.slice(2));
