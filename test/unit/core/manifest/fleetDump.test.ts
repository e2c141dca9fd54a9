// The entries of a `fleet dump` archive as rancher/fleet's dump.go writes them: names told apart (and hostile ones
// refused), typed-list items given their kind, Secrets kept without data, Events read and attached to their objects.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	classifyDumpEntry,
	eventsByObject,
	isDumpEntryName,
	readDumpEntry,
} from '../../../../src/core/manifest/fleetDump.ts';

describe('fleet dump entry names', () => {
	it('reads the shapes dump.go writes', () => {
		assert.deepEqual(
			classifyDumpEntry('bundledeployments_cluster-fleet-local-local-1a3d67d0a899_simple'),
			{
				kind: 'object',
				apiVersion: 'fleet.cattle.io/v1alpha1',
				objectKind: 'BundleDeployment',
				namespace: 'cluster-fleet-local-local-1a3d67d0a899',
				name: 'simple',
			},
		);
		assert.deepEqual(classifyDumpEntry('events_fleet-local'), {
			kind: 'events',
			namespace: 'fleet-local',
		});
		assert.deepEqual(classifyDumpEntry('secrets_fleet-local_helm-auth'), {
			kind: 'secret',
			namespace: 'fleet-local',
			name: 'helm-auth',
		});
		assert.deepEqual(classifyDumpEntry('contents_s-0a1b2c'), { kind: 'content', name: 's-0a1b2c' });
		assert.deepEqual(classifyDumpEntry('metrics_cattle-fleet-system_monitoring-fleet-controller'), {
			kind: 'metrics',
			namespace: 'cattle-fleet-system',
			service: 'monitoring-fleet-controller',
		});
		// Fleet before 0.16 (rancher/fleet#5188 added the namespace): only cattle-fleet-system's services.
		assert.deepEqual(classifyDumpEntry('metrics_monitoring-gitjob'), {
			kind: 'metrics',
			namespace: 'cattle-fleet-system',
			service: 'monitoring-gitjob',
		});
		assert.equal(classifyDumpEntry('helmops_fleet-default_app.v2').kind, 'object');
	});

	it('refuses paths, parent references, odd characters and unknown resources', () => {
		for (const name of [
			'../x',
			'/etc/passwd',
			'gitrepos_fleet-local_../../x',
			'gitrepos_fleet-local_a/b',
			'gitrepos_fleet-local_..',
			'gitrepos_fleet-local_a_b',
			'gitrepos_Fleet_A',
			'gitrepos_fleet-local_a\u0000',
			'gitrepos_fleet-local_a\nb',
			'deployments_default_web',
			'mychart/Chart.yaml',
			'events_',
			'',
		]) {
			assert.equal(isDumpEntryName(name), false, JSON.stringify(name));
		}
	});
});

describe('fleet dump entry contents', () => {
	it('gives an object without apiVersion and kind those of its prefix, on the entry’s own lines', () => {
		const read = readDumpEntry(
			'bundles_fleet-local_simple',
			'metadata:\n  name: simple\n  namespace: fleet-local\nstatus:\n  summary: {}\n',
		);
		assert.equal(read.objects.length, 1);
		assert.equal(read.objects[0]?.object.kind, 'Bundle');
		assert.equal(read.objects[0]?.object.apiVersion, 'fleet.cattle.io/v1alpha1');
		assert.equal(read.objects[0]?.range.start.line, 0);
		assert.deepEqual(read.problems, []);
	});

	it('keeps the kind an object says it is', () => {
		const read = readDumpEntry(
			'gitrepos_fleet-local_a',
			'apiVersion: fleet.cattle.io/v1alpha1\nkind: GitRepo\nmetadata: {name: a, namespace: fleet-local}\n',
		);
		assert.equal(read.objects[0]?.object.kind, 'GitRepo');
	});

	it('keeps a Secret’s metadata and type only: no data, and no copy of it in the last-applied annotation', () => {
		const read = readDumpEntry(
			'secrets_fleet-local_helm-auth',
			[
				'data:',
				'  password: c2VjcmV0LXZhbHVl',
				'stringData:',
				'  token: plain-secret-value',
				'metadata:',
				'  name: helm-auth',
				'  namespace: fleet-local',
				'  annotations:',
				'    kubectl.kubernetes.io/last-applied-configuration: \'{"data":{"password":"c2VjcmV0LXZhbHVl"}}\'',
				'    team: platform',
				'type: kubernetes.io/basic-auth',
				'',
			].join('\n'),
		);
		const secret = read.objects[0]?.object;
		assert.deepEqual(secret, {
			apiVersion: 'v1',
			kind: 'Secret',
			metadata: { name: 'helm-auth', namespace: 'fleet-local', annotations: { team: 'platform' } },
			type: 'kubernetes.io/basic-auth',
		});
		assert.ok(!read.text.includes('c2VjcmV0LXZhbHVl') && !read.text.includes('plain-secret-value'));
	});

	it('keeps a Content’s metadata and status, not its manifests', () => {
		const read = readDumpEntry(
			'contents_s-abc',
			'apiVersion: fleet.cattle.io/v1alpha1\nkind: Content\ncontent: H4sIAAAAAAAA\nsha256sum: abc\nmetadata:\n  name: s-abc\n  finalizers: [fleet.cattle.io/content-finalizer]\nstatus:\n  referenceCount: 0\n',
		);
		assert.deepEqual(read.objects[0]?.object, {
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'Content',
			metadata: { name: 's-abc', finalizers: ['fleet.cattle.io/content-finalizer'] },
			status: { referenceCount: 0 },
		});
	});

	it('reads Events one JSON object per line, and names a line that is not one', () => {
		const read = readDumpEntry(
			'events_fleet-local',
			'{"reason":"Applied","type":"Normal","involvedObject":{"kind":"Bundle","namespace":"fleet-local","name":"a"}}\nnot json\n\n',
		);
		assert.equal(read.events.length, 1);
		assert.equal(read.events[0]?.reason, 'Applied');
		assert.deepEqual(
			read.problems.map((problem) => [problem.message, problem.range.start.line]),
			[['events_fleet-local line 2: not a JSON Event', 1]],
		);
		assert.deepEqual(read.objects, []);
	});

	it('skips metrics with a reason', () => {
		const read = readDumpEntry(
			'metrics_cattle-fleet-system_monitoring-fleet-controller',
			'# HELP x\nx 1\n',
		);
		assert.deepEqual(read.objects, []);
		assert.equal(read.skipped, 'Prometheus metrics, not interpreted');
	});
});

describe('events attached to objects', () => {
	const event = (subject: Record<string, string>, reason: string, lastTimestamp: string) =>
		readDumpEntry(
			'events_fleet-local',
			JSON.stringify({ reason, type: 'Warning', lastTimestamp, involvedObject: subject }),
		).events[0]!;

	it('by uid when both have one, else by kind, namespace and name; newest first', () => {
		const bundle = {
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'Bundle',
			metadata: { name: 'a', namespace: 'fleet-local', uid: 'u-1' },
		};
		const events = [
			event(
				{ kind: 'Bundle', namespace: 'fleet-local', name: 'a', uid: 'u-1' },
				'Older',
				'2024-01-01T00:00:00Z',
			),
			event(
				{ kind: 'Bundle', namespace: 'fleet-local', name: 'a' },
				'Newer',
				'2024-01-02T00:00:00Z',
			),
			// The same name, a former object: another uid.
			event(
				{ kind: 'Bundle', namespace: 'fleet-local', name: 'a', uid: 'u-0' },
				'Former',
				'2024-01-03T00:00:00Z',
			),
			event(
				{ kind: 'GitRepo', namespace: 'fleet-local', name: 'a' },
				'OtherKind',
				'2024-01-03T00:00:00Z',
			),
		];
		const eventsOf = eventsByObject(events);
		assert.deepEqual(
			eventsOf(bundle).map((found) => found.reason),
			['Newer', 'Older'],
		);
		const { uid: _uid, ...withoutUid } = bundle.metadata;
		assert.deepEqual(
			eventsOf({ ...bundle, metadata: withoutUid }).map((found) => found.reason),
			['Former', 'Newer', 'Older'],
		);
		assert.deepEqual(eventsOf({ kind: 'Cluster', metadata: { name: 'a' } }), []);
	});
});
