// `fleet dump` archives through the bundled CLI, run as a user runs it: the archives are written here, in dump.go's
// format (a gzipped tar of regular files named <resource>_<namespace>_<name>, events_<namespace>, ...) and broken in
// the ways an untrusted archive can be: truncated, a decompression bomb, too many entries, hostile names and links.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { multitoolMissing, sarifProblems } from './sarifMultitool.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'dist/cli.cjs');
const folder = mkdtempSync(join(tmpdir(), 'ksl-fleet-dump-'));
after(() => rmSync(folder, { recursive: true, force: true }));

function run(...args) {
	const result = spawnSync(process.execPath, [cli, ...args], {
		encoding: 'utf8',
		cwd: folder,
		env: { ...process.env, NO_COLOR: '1' },
		timeout: 60_000,
		maxBuffer: 64 * 1024 * 1024,
	});
	assert.equal(result.signal, null, `the CLI was stopped: ${result.error}`);
	return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** One 512-byte ustar header; `size` may lie about the body that follows. */
function tarHeader({ name, size, type = '0', linkname = '' }) {
	const header = Buffer.alloc(512);
	const put = (text, offset, length) => header.write(text, offset, length, 'utf8');
	const octal = (value, length) => put(`${value.toString(8).padStart(length - 1, '0')}\0`, 0, 0);
	put(name, 0, 100);
	put('0000644\0', 100, 8);
	put('0000000\0', 108, 8);
	put('0000000\0', 116, 8);
	put(`${size.toString(8).padStart(11, '0')}\0`, 124, 12);
	put('00000000000\0', 136, 12);
	put('        ', 148, 8);
	put(type, 156, 1);
	put(linkname, 157, 100);
	put('ustar\0', 257, 6);
	put('00', 263, 2);
	void octal;
	let sum = 0;
	for (const byte of header) sum += byte;
	put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
	return header;
}

/** A tar of the entries ({name, body, type, linkname, size}), ended by two empty blocks. */
function tar(entries) {
	const parts = [];
	for (const entry of entries) {
		const body = Buffer.from(entry.body ?? '');
		parts.push(tarHeader({ ...entry, size: entry.size ?? body.length }));
		parts.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
	}
	parts.push(Buffer.alloc(1024));
	return Buffer.concat(parts);
}

function archive(name, entries) {
	const path = join(folder, name);
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, gzipSync(tar(entries)));
	return path;
}

const bundle = `apiVersion: fleet.cattle.io/v1alpha1
kind: Bundle
metadata:
  name: simple
  namespace: fleet-local
  uid: 5e0f0f0a-bundle
  generation: 2
spec: {}
status:
  observedGeneration: 2
  summary: {desiredReady: 1, ready: 0, errApplied: 1}
  conditions:
  - {type: Ready, status: "False", message: "ErrApplied(1) [Cluster fleet-local/local: boom]", lastUpdateTime: "2026-01-01T00:00:00Z"}
`;
// From a typed list (as dump.go marshals Secrets), so without apiVersion and kind; data never read.
const secret = `data:
  password: c3VwZXItc2VjcmV0LXZhbHVl
metadata:
  name: helm-auth
  namespace: fleet-local
type: kubernetes.io/basic-auth
`;
// A GitRepo written without apiVersion and kind: the prefix says what it is.
const gitRepo = `metadata:
  name: simple
  namespace: fleet-local
spec: {repo: "https://github.com/rancher/fleet-examples"}
`;
// Fleet records through the events.k8s.io recorder: no lastTimestamp, no count; eventTime and series instead.
const events = [
	{
		metadata: { name: 'simple.1', namespace: 'fleet-local' },
		involvedObject: {
			kind: 'Bundle',
			namespace: 'fleet-local',
			name: 'simple',
			uid: '5e0f0f0a-bundle',
		},
		reason: 'ErrApplied',
		message: 'helm install failed',
		type: 'Warning',
		eventTime: '2026-01-01T00:05:00.000000Z',
		series: { count: 7, lastObservedTime: '2026-01-01T00:09:00.000000Z' },
		reportingController: 'fleet-controller',
	},
	{
		metadata: { name: 'simple.2', namespace: 'fleet-local' },
		involvedObject: { kind: 'Bundle', namespace: 'fleet-local', name: 'simple' },
		reason: 'Created',
		message: 'bundle created',
		type: 'Normal',
		lastTimestamp: '2026-01-01T00:00:00Z',
		count: 1,
	},
	{
		metadata: { name: 'other.1', namespace: 'fleet-local' },
		involvedObject: { kind: 'GitRepo', namespace: 'fleet-local', name: 'other' },
		reason: 'Elsewhere',
		message: 'not about these objects',
		type: 'Warning',
		lastTimestamp: '2026-01-01T00:00:00Z',
	},
]
	.map((event) => JSON.stringify(event))
	.join('\n');

const goodEntries = [
	{ name: 'gitrepos_fleet-local_simple', body: gitRepo },
	{ name: 'bundles_fleet-local_simple', body: bundle },
	{ name: 'secrets_fleet-local_helm-auth', body: secret },
	{ name: 'events_fleet-local', body: events },
	{
		name: 'metrics_cattle-fleet-system_monitoring-fleet-controller',
		body: 'fleet_bundle_ready 0\n',
	},
];

describe('fleet dump archives in the CLI', () => {
	it('status reads each object with its Events, a kind from the entry name, and never a Secret’s data', () => {
		const path = archive('dump.tgz', goodEntries);
		const { code, stdout, stderr } = run('status', '--json', path);
		assert.equal(code, 0, stderr);
		assert.match(
			stderr,
			/metrics_cattle-fleet-system_monitoring-fleet-controller.*not interpreted/,
		);
		const records = JSON.parse(stdout);
		assert.deepEqual(
			records.map(
				(record) => `${record.kind} ${record.namespace}/${record.name} ${record.source.entry}`,
			),
			// Fleet's parents last, as status writes them (their roll-ups read every BundleDeployment).
			[
				'Secret fleet-local/helm-auth secrets_fleet-local_helm-auth',
				'GitRepo fleet-local/simple gitrepos_fleet-local_simple',
				'Bundle fleet-local/simple bundles_fleet-local_simple',
			],
		);
		const bundleRecord = records.find((record) => record.kind === 'Bundle');
		assert.equal(bundleRecord.state, 'NotReady');
		assert.equal(bundleRecord.source.file, path);
		assert.deepEqual(bundleRecord.events, [
			{
				type: 'Warning',
				reason: 'ErrApplied',
				message: 'helm install failed',
				count: 7,
				lastSeen: '2026-01-01T00:05:00.000000Z',
				firstSeen: '2026-01-01T00:05:00.000000Z',
				reporter: 'fleet-controller',
			},
			{
				type: 'Normal',
				reason: 'Created',
				message: 'bundle created',
				count: 1,
				lastSeen: '2026-01-01T00:00:00Z',
				firstSeen: '2026-01-01T00:00:00Z',
				reporter: null,
			},
		]);
		assert.deepEqual(records.find((record) => record.kind === 'GitRepo').events, []);
		assert.ok(
			!stdout.includes('c3VwZXItc2VjcmV0LXZhbHVl') && !stdout.includes('super-secret-value'),
		);
	});

	it('status names the archive entry each row was read from', () => {
		const path = archive('table/dump.tgz', goodEntries);
		const { code, stdout, stderr } = run('status', '--wide', path);
		assert.equal(code, 0, stderr);
		const rows = stdout.split('\n').filter((line) => line.includes('fleet-local/simple'));
		assert.equal(rows.length, 2, stdout);
		// The CLI runs in the archive's folder: the path is shown relative to it.
		assert.match(rows[0], /^GitRepo .* table\/dump\.tgz:gitrepos_fleet-local_simple /);
		assert.match(rows[1], /^Bundle .* NotReady +table\/dump\.tgz:bundles_fleet-local_simple /);
	});

	it('check reads a dump as one input: findings name the archive, the entry and the object', () => {
		const path = archive('check/dump.tgz', goodEntries);
		const { code, stdout, stderr } = run('check', '--format', 'json', path);
		assert.equal(code, 0, stderr);
		// A dump lists every BundleDeployment: a Bundle without any is found.
		assert.deepEqual(
			JSON.parse(stdout).map((finding) => [
				finding.file,
				finding.entry,
				finding.code,
				finding.object,
			]),
			[
				[
					path,
					'bundles_fleet-local_simple',
					'fleet-bundles-with-no-deployments',
					{
						apiVersion: 'fleet.cattle.io/v1alpha1',
						kind: 'Bundle',
						namespace: 'fleet-local',
						name: 'simple',
					},
				],
			],
		);
		assert.ok(!stdout.includes('c3VwZXItc2VjcmV0LXZhbHVl'));
		const truncated = join(folder, 'check', 'truncated.tgz');
		writeFileSync(truncated, gzipSync(tar(goodEntries)).subarray(0, 200));
		const broken = run('check', truncated);
		assert.equal(broken.code, 2);
		assert.match(
			broken.stderr,
			/truncated\.tgz: the archive ends early or is corrupt: reading stopped/,
		);
	});

	it('status finds a dump in a folder it scans and leaves a Helm chart archive alone', () => {
		archive('scan/dump.tar.gz', goodEntries);
		archive('scan/charts/mychart-0.1.0.tgz', [
			{ name: 'mychart/Chart.yaml', body: 'apiVersion: v2\nname: mychart\nversion: 0.1.0\n' },
			{ name: 'mychart/templates/bundle.yaml', body: bundle },
		]);
		const { code, stdout, stderr } = run('status', join(folder, 'scan'));
		assert.equal(code, 0, stderr);
		assert.match(stdout, /Bundle\s+fleet-local\/simple\s+NotReady/);
		assert.doesNotMatch(stderr, /mychart/);
		assert.equal(stdout.match(/fleet-local\/simple/g)?.length, 2, stdout);
	});

	it('a named archive that is not a dump is an input error', () => {
		const chart = archive('chart.tgz', [{ name: 'mychart/Chart.yaml', body: 'name: mychart\n' }]);
		const { code, stderr } = run('status', chart);
		assert.equal(code, 2);
		assert.match(
			stderr,
			/chart\.tgz: cannot read: not a fleet dump archive: its first entry, "mychart\/Chart\.yaml"/,
		);
	});

	it('a truncated archive shows what was read and says where it stopped (exit 2)', () => {
		const whole = gzipSync(
			tar(
				goodEntries
					.slice(0, 2)
					.concat([{ name: 'bundles_fleet-local_big', body: 'x'.repeat(200_000) }]),
			),
			{
				level: 0,
			},
		);
		const path = join(folder, 'truncated.tgz');
		writeFileSync(path, whole.subarray(0, 100_000));
		const { code, stdout, stderr } = run('status', path);
		assert.equal(code, 2);
		assert.match(stdout, /Bundle\s+fleet-local\/simple/);
		assert.match(
			stderr,
			/truncated\.tgz: the archive ends early or is corrupt: reading stopped after 3 entries \(the last "bundles_fleet-local_big"\)/,
		);
	});

	it('a decompression bomb stops at the limit after decompression, naming --max-archive-size (exit 2)', () => {
		const path = archive('bomb.tgz', [
			{ name: 'bundles_fleet-local_simple', body: bundle },
			{ name: 'events_fleet-local', body: Buffer.alloc(16 * 1024 * 1024, 0x20) },
		]);
		const { code, stdout, stderr } = run(
			'status',
			'--max-archive-size',
			'1M',
			'--max-file-size',
			'64M',
			path,
		);
		assert.equal(code, 2);
		assert.match(
			stderr,
			/more than 1 MiB after decompression, the limit per archive \(raise it with --max-archive-size\): reading stopped after 2 entries/,
		);
		assert.match(stdout, /Bundle\s+fleet-local\/simple/);
	});

	it('an entry over the per-entry limit is not read, naming --max-file-size; the others are (exit 2)', () => {
		const path = archive('big-entry.tgz', [
			{ name: 'bundles_fleet-local_simple', body: bundle },
			{ name: 'bundles_fleet-local_huge', body: `${bundle}# ${'x'.repeat(4096)}\n` },
		]);
		const { code, stdout, stderr } = run('status', '--max-file-size', '2K', path);
		assert.equal(code, 2);
		assert.match(
			stderr,
			/"bundles_fleet-local_huge": 4\.\d KiB is over the limit of 2 KiB per entry \(raise it with --max-file-size\): not read/,
		);
		assert.match(stdout, /fleet-local\/simple/);
	});

	it('too many entries stop the read, naming --max-archive-entries (exit 2)', () => {
		const path = archive('many.tgz', goodEntries);
		const { code, stderr } = run('status', '--max-archive-entries', '2', path);
		assert.equal(code, 2);
		assert.match(
			stderr,
			/more than 2 entries, the limit per archive \(raise it with --max-archive-entries\)/,
		);
	});

	it('hostile names, links and other non-regular entries are skipped with a note naming them; nothing is written', () => {
		const path = archive('hostile/dump.tgz', [
			{ name: 'bundles_fleet-local_simple', body: bundle },
			{ name: '../x', body: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: escaped}\n' },
			{ name: '/etc/passwd', body: 'root:x:0:0\n' },
			{ name: 'gitrepos_fleet-local_link', type: '2', linkname: '/etc/passwd' },
			{ name: 'gitrepos_fleet-local_hard', type: '1', linkname: 'bundles_fleet-local_simple' },
			{ name: 'clusters_fleet-local_dir', type: '5' },
			{ name: 'gitrepos_fleet-local_a\u001b[31mred', body: gitRepo },
		]);
		const { code, stdout, stderr } = run('status', path);
		assert.equal(code, 0, stderr);
		assert.match(stderr, /"\.\.\/x": not a name fleet dump writes: skipped/);
		assert.match(stderr, /"\/etc\/passwd": not a name fleet dump writes: skipped/);
		assert.match(
			stderr,
			/"gitrepos_fleet-local_link": a symlink to "\/etc\/passwd", not a regular file: skipped/,
		);
		assert.match(
			stderr,
			/"gitrepos_fleet-local_hard": a link to "bundles_fleet-local_simple", not a regular file: skipped/,
		);
		assert.match(stderr, /"clusters_fleet-local_dir": a directory, not a regular file: skipped/);
		assert.match(
			stderr,
			/gitrepos_fleet-local_a\\u001b\[31mred": not a name fleet dump writes: skipped/,
		);
		assert.ok(!stderr.includes('\u001b'), stderr);
		assert.doesNotMatch(stdout, /escaped|root:x/);
		assert.equal(existsSync(join(folder, 'x')), false);
		assert.equal(existsSync(join(folder, 'hostile', 'x')), false);
	});
});

// The script is TypeScript, run with type stripping: on the Node 24 run only.
const stripsTypes = Number(process.versions.node.split('.')[0]) >= 23;

describe(
	'the demo cluster as a fleet dump',
	{ skip: !stripsTypes && 'needs Node 24 (type stripping)' },
	() => {
		it('scripts/demo-fleet-dump.ts writes the demo’s Fleet objects and Events, which status reads with their Events', () => {
			const out = join(folder, 'demo', 'fleet-dump.tgz');
			mkdirSync(dirname(out), { recursive: true });
			const script = spawnSync(process.execPath, [join(root, 'scripts/demo-fleet-dump.ts'), out], {
				encoding: 'utf8',
				timeout: 60_000,
			});
			assert.equal(script.status, 0, script.stderr);
			const { code, stdout, stderr } = run('status', '--json', out);
			assert.equal(code, 0, stderr);
			const records = JSON.parse(stdout);
			const kinds = new Set(records.map((record) => record.kind));
			for (const kind of ['GitRepo', 'Bundle', 'BundleDeployment', 'Cluster']) {
				assert.ok(kinds.has(kind), kind);
			}
			assert.ok(
				records.every((record) => record.source.file === out && record.source.entry.length > 0),
				'every record names its entry',
			);
			assert.ok(
				records.some((record) => record.events.length > 0),
				'the Events the stand-in controllers recorded are attached',
			);
		});
	},
);

describe('check --format sarif on a fleet dump', () => {
	it('places a result in its entry, an artifact nested in the archive, not at a line of the compressed file', () => {
		const path = archive('sarif/dump.tgz', goodEntries);
		const result = spawnSync(process.execPath, [cli, 'check', '--format', 'sarif', path], {
			encoding: 'utf8',
			cwd: join(folder, 'sarif'),
		});
		const [sarifRun] = JSON.parse(result.stdout).runs;
		const inEntry = sarifRun.results.filter(
			(entry) => entry.properties?.entry === 'bundles_fleet-local_simple',
		);
		assert.ok(inEntry.length > 0, 'a finding on the ErrApplied Bundle');
		const location = inEntry[0].locations[0].physicalLocation.artifactLocation;
		const entryArtifact = sarifRun.artifacts[location.index];
		assert.deepEqual(entryArtifact.location, { uri: 'bundles_fleet-local_simple' });
		assert.equal(location.uri, 'bundles_fleet-local_simple');
		assert.deepEqual(sarifRun.artifacts[entryArtifact.parentIndex].location, {
			uri: 'dump.tgz',
			uriBaseId: '%SRCROOT%',
		});
	});

	it(
		'writes a log the SARIF Multitool accepts without a warning',
		{ skip: multitoolMissing },
		() => {
			const path = archive('sarif/dump.tgz', goodEntries);
			const result = spawnSync(process.execPath, [cli, 'check', '--format', 'sarif', path], {
				encoding: 'utf8',
				cwd: join(folder, 'sarif'),
			});
			assert.deepEqual(sarifProblems(result.stdout), []);
		},
	);
});
