// Cases transcribed from rancher/fleet at commit 3b2c622ce176b11644abc7fb768f87c3ffb5a3ab:
// integrationtests/cli/monitor/monitor_test.go ("should identify ..." cases) and integrationtests/cli/analyze/
// analyze_test.go ("with issues in monitor output", "with content size information"). Upstream creates the objects in
// a test API server and runs the collector; here the same objects are given as a dump would hold them. Each object a
// class looks at is given a status (upstream's test objects often have none: its collector looks at every object,
// this project only at objects that carry a status, as the issue asks).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	documentFleetFindings,
	explicitClockOf,
	fleetChecksClockOf,
	fleetTroubleshootingFindings,
	newestTimestampOf,
	type InputObject,
} from '../../../../src/core/checks/fleetTroubleshooting.ts';

const fleet = 'fleet.cattle.io/v1alpha1';
const namespace = 'fleet-local';
const clock = Date.parse('2026-03-01T12:00:00Z');

function input(...objects: Record<string, unknown>[]): InputObject<number>[] {
	return objects.map((object, index) => ({ object, source: index }));
}

function findingsOf(
	objects: readonly InputObject<number>[],
	options: { now?: number; complete?: readonly string[] } = {},
): ReturnType<typeof fleetTroubleshootingFindings<number>> {
	return fleetTroubleshootingFindings(objects, {
		now: options.now ?? clock,
		...(options.complete ? { completeKinds: new Set(options.complete) } : {}),
	});
}

/** "code Kind namespace/name" of each finding, for comparing lists. */
function said(
	objects: readonly InputObject<number>[],
	options?: Parameters<typeof findingsOf>[1],
): string[] {
	return findingsOf(objects, options).findings.map(
		(finding) =>
			`${finding.code} ${finding.object.kind} ${finding.object.namespace}/${finding.object.name}${finding.via ? ` via ${finding.via.kind} ${finding.via.name}` : ''}`,
	);
}

function gitRepo(name: string, spec: object, status: object): Record<string, unknown> {
	return {
		apiVersion: fleet,
		kind: 'GitRepo',
		metadata: { name, namespace, generation: 1 },
		spec: { repo: 'https://github.com/rancher/fleet-examples', branch: 'master', ...spec },
		status: { observedGeneration: 1, lastPollingTriggered: '2026-03-01T11:59:59Z', ...status },
	};
}

function bundle(
	name: string,
	metadata: object,
	spec: object,
	status: object,
): Record<string, unknown> {
	return {
		apiVersion: fleet,
		kind: 'Bundle',
		metadata: { name, namespace, generation: 1, ...metadata },
		spec,
		status: { observedGeneration: 1, ...status },
	};
}

function bundleDeployment(name: string, spec: object, status: object): Record<string, unknown> {
	return {
		apiVersion: fleet,
		kind: 'BundleDeployment',
		metadata: { name, namespace, generation: 1 },
		spec,
		status,
	};
}

describe("Fleet's troubleshooting classes, on upstream's own test cases", () => {
	it('names a Bundle whose observedGeneration lags (monitor_test: generation mismatch)', () => {
		assert.deepEqual(
			said(
				input(
					bundle('test-bundle', { generation: 1 }, { paused: true }, { observedGeneration: 0 }),
				),
			),
			['fleet-bundles-with-generation-mismatch Bundle fleet-local/test-bundle'],
		);
	});

	it('names a bundle Secret whose owner was created again, on the Secret and on the Bundle (monitor_test: invalid secret owners)', () => {
		const objects = input(bundle('test-bundle-invalid-secret', { uid: 'uid-new' }, {}, {}), {
			apiVersion: 'v1',
			kind: 'Secret',
			type: 'fleet.cattle.io/bundle-values/v1alpha1',
			metadata: {
				name: 'test-secret',
				namespace,
				ownerReferences: [
					{ apiVersion: fleet, kind: 'Bundle', name: 'test-bundle-invalid-secret', uid: 'uid-old' },
				],
			},
		});
		assert.deepEqual(said(objects, { complete: ['BundleDeployment'] }), [
			'fleet-bundles-with-no-deployments Bundle fleet-local/test-bundle-invalid-secret',
			'fleet-orphaned-secrets Secret fleet-local/test-secret',
			'fleet-orphaned-secrets Bundle fleet-local/test-bundle-invalid-secret via Secret test-secret',
			'fleet-invalid-secret-owners Secret fleet-local/test-secret',
			'fleet-invalid-secret-owners Bundle fleet-local/test-bundle-invalid-secret via Secret test-secret',
		]);
	});

	it('names a Bundle behind its GitRepo: an old forceSyncGeneration or a stale commit (monitor_test)', () => {
		const labels = (repo: string): object => ({
			labels: { 'fleet.cattle.io/repo-name': repo, 'fleet.cattle.io/commit': 'abc123' },
		});
		const objects = input(
			gitRepo(
				'test-gitrepo-forcesync',
				{ forceSyncGeneration: 5 },
				{ commit: 'abc123', pollingCommit: 'abc123' },
			),
			bundle(
				'test-bundle-forcesync',
				labels('test-gitrepo-forcesync'),
				{ forceSyncGeneration: 3 },
				{},
			),
			gitRepo('test-gitrepo-commit', {}, { commit: 'def456', pollingCommit: 'def456' }),
			bundle('test-bundle-commit', labels('test-gitrepo-commit'), {}, {}),
		);
		const result = findingsOf(objects, { complete: ['BundleDeployment', 'Content'] });
		const inconsistent = result.findings.filter(
			(finding) => finding.code === 'fleet-git-repo-bundle-inconsistencies',
		);
		assert.deepEqual(
			inconsistent.map((finding) => [finding.object.name, finding.severity]),
			[
				['test-bundle-forcesync', 'error'],
				['test-bundle-commit', 'error'],
			],
		);
		assert.match(inconsistent[0]?.message ?? '', /forceSyncGeneration 3 is not the GitRepo's 5/);
		assert.match(inconsistent[1]?.message ?? '', /"abc123" .* is not the GitRepo's "def456"/);
	});

	it('names a Bundle held by a finalizer (monitor_test: bundles with deletion timestamp)', () => {
		const objects = input(
			bundle(
				'test-bundle-deleting',
				{ finalizers: ['test-finalizer'], deletionTimestamp: '2026-03-01T11:00:00Z' },
				{},
				{},
			),
		);
		assert.deepEqual(said(objects, { complete: ['BundleDeployment'] }), [
			'fleet-bundles-with-no-deployments Bundle fleet-local/test-bundle-deleting',
			'fleet-bundles-with-deletion-timestamp Bundle fleet-local/test-bundle-deleting',
		]);
	});

	it('names a stuck BundleDeployment as an error (monitor_test: deployment ID mismatch)', () => {
		const result = findingsOf(
			input(
				bundleDeployment(
					'test-bd-deployment-id',
					{ deploymentID: 's-newcontent:options' },
					{ appliedDeploymentID: 's-oldcontent:options' },
				),
			),
		);
		const [stuck] = result.findings;
		assert.equal(stuck?.code, 'fleet-stuck-bundle-deployments');
		assert.equal(stuck?.severity, 'error');
		assert.match(stuck?.message ?? '', /has not applied spec.deploymentID "s-newcontent:options"/);
	});

	it('says a stuck BundleDeployment that Fleet 0.16 holds for its dependsOn waits for the dependency, not for the agent', () => {
		const result = findingsOf(
			input(
				bundleDeployment(
					'api',
					{ deploymentID: 's-new:options' },
					{
						appliedDeploymentID: 's-old:options',
						conditions: [
							{
								type: 'Deployed',
								status: 'False',
								reason: 'WaitingForDependency',
								message:
									'waiting for dependent bundle(s) to reach an accepted state: db (state: NotReady, accepted: Ready)',
							},
						],
					},
				),
			),
		);
		const [stuck] = result.findings;
		assert.equal(stuck?.code, 'fleet-stuck-bundle-deployments');
		assert.match(
			stuck?.message ?? '',
			/holds it for spec\.dependsOn \(WaitingForDependency\): db is NotReady \(accepted: Ready\)\. Look at that bundle/,
		);
		assert.doesNotMatch(stuck?.message ?? '', /fleet-agent/);
	});

	it('names a BundleDeployment whose Content is not there, when the input holds Contents (monitor_test: content issues)', () => {
		const deployment = bundleDeployment(
			'test-bd-missing-content',
			{ deploymentID: 's-nonexistent:options' },
			{ appliedDeploymentID: 's-nonexistent:options' },
		);
		const withContents = findingsOf(input(deployment), { complete: ['Content'] });
		const issue = withContents.findings.find((finding) => finding.code === 'fleet-content-issues');
		assert.match(issue?.message ?? '', /content_not_found: its Content s-nonexistent/);
		const withoutContents = findingsOf(input(deployment));
		assert.equal(
			withoutContents.findings.some((finding) => finding.code === 'fleet-content-issues'),
			false,
		);
		assert.deepEqual(
			withoutContents.notes.filter((note) => note.code === 'fleet-content-issues').length,
			1,
		);
	});

	it('names commit mismatches and unpolled GitRepos with their own labels (analyze_test: issues in monitor output)', () => {
		const objects = input(
			gitRepo(
				'test-gitrepo-1',
				{},
				{
					commit: 'b785d408903225ed0ff86d22a749779f200561d7',
					pollingCommit: 'cf70b2422b58c878b56c0b2a1ccce368a4a6ed33',
					lastPollingTriggered: '2026-03-01T11:59:00Z',
				},
			),
			gitRepo(
				'test-gitrepo-2',
				{},
				{
					commit: 'b785d408903225ed0ff86d22a749779f200561d7',
					webhookCommit: 'cf70b2422b58c878b56c0b2a1ccce368a4a6ed33',
					lastPollingTriggered: '2026-03-01T11:59:50Z',
				},
			),
			gitRepo(
				'test-gitrepo-unset',
				{},
				{ commit: 'a', pollingCommit: 'a', lastPollingTriggered: undefined },
			),
		);
		const result = findingsOf(objects, { complete: ['Bundle'] });
		const mismatches = result.findings.filter(
			(finding) => finding.code === 'fleet-git-repos-with-commit-mismatch',
		);
		assert.deepEqual(
			mismatches.map((finding) => finding.object.name),
			['test-gitrepo-1', 'test-gitrepo-2'],
		);
		// `fleet analyze` prints the webhook commit after "polling:" and the polling commit after "webhook:".
		assert.match(
			mismatches[0]?.message ?? '',
			/polling: "cf70b2422b58c878b56c0b2a1ccce368a4a6ed33", webhook: "", status commit: "b785d408903225ed0ff86d22a749779f200561d7"/,
		);
		assert.match(
			mismatches[1]?.message ?? '',
			/polling: "", webhook: "cf70b2422b58c878b56c0b2a1ccce368a4a6ed33"/,
		);
		assert.deepEqual(
			result.findings
				.filter((finding) => finding.code === 'fleet-git-repos-unpolled')
				.map((finding) => finding.object.name),
			['test-gitrepo-1', 'test-gitrepo-unset'],
		);
	});

	it('reads the last poll where Fleet writes it, status.lastPollingTriggered, and not a field Fleet never writes', () => {
		// GitRepoStatus.LastPollingTime carries the JSON tag "lastPollingTriggered" (rancher/fleet gitrepo_types.go);
		// "lastPollingTime" is only the name in the collector's own report.
		const polled = gitRepo('polled', {}, { lastPollingTriggered: '2026-03-01T11:59:55Z' });
		const misnamed = gitRepo(
			'misnamed',
			{},
			{ lastPollingTriggered: undefined, lastPollingTime: '2026-03-01T11:59:55Z' },
		);
		const unpolled = findingsOf(input(polled, misnamed), { complete: ['Bundle'] }).findings.filter(
			(finding) => finding.code === 'fleet-git-repos-unpolled',
		);
		assert.deepEqual(
			unpolled.map((finding) => finding.object.name),
			['misnamed'],
		);
		assert.match(unpolled[0]?.message ?? '', /never \(no status\.lastPollingTriggered\)/);
	});

	it('names an unreferenced Content, also on the Bundle that uses it (analyze_test: content size information)', () => {
		const objects = input(
			bundle('test-bundle-size', {}, { paused: true }, { resourcesSHA256Sum: 'abc123' }),
			{ apiVersion: fleet, kind: 'Content', metadata: { name: 's-abc123' } },
		);
		assert.deepEqual(said(objects, { complete: ['BundleDeployment'] }), [
			'fleet-bundles-with-no-deployments Bundle fleet-local/test-bundle-size',
			'fleet-contents-with-zero-reference-count Content /s-abc123',
			'fleet-contents-with-zero-reference-count Bundle fleet-local/test-bundle-size via Content s-abc123',
		]);
	});
});

describe('Secret and Content findings on the objects that refer to them', () => {
	it('shows a Content being deleted on the BundleDeployment that deploys it, beside its content issue', () => {
		const objects = input(
			bundleDeployment(
				'web',
				{ deploymentID: 's-abc:opts' },
				{ appliedDeploymentID: 's-abc:opts' },
			),
			{
				apiVersion: fleet,
				kind: 'Content',
				metadata: {
					name: 's-abc',
					deletionTimestamp: '2026-03-01T11:00:00Z',
					finalizers: ['fleet.cattle.io/bundle-deployment-finalizer'],
				},
				status: { referenceCount: 1 },
			},
		);
		assert.deepEqual(said(objects, { complete: ['Bundle'] }), [
			'fleet-contents-with-deletion-timestamp Content /s-abc',
			'fleet-contents-with-deletion-timestamp BundleDeployment fleet-local/web via Content s-abc',
			'fleet-content-issues BundleDeployment fleet-local/web',
		]);
	});
});

describe("Fleet's troubleshooting classes, where they must stay quiet or say why", () => {
	it('gives a GitOps repository of manifests without status no finding and no note', () => {
		const objects = input(
			{
				apiVersion: fleet,
				kind: 'GitRepo',
				metadata: { name: 'shop', namespace },
				spec: { repo: 'x' },
			},
			{ apiVersion: fleet, kind: 'Bundle', metadata: { name: 'shop-a', namespace }, spec: {} },
			{ apiVersion: fleet, kind: 'ClusterGroup', metadata: { name: 'prod', namespace }, spec: {} },
			{ apiVersion: fleet, kind: 'Cluster', metadata: { name: 'c1', namespace }, spec: {} },
		);
		assert.deepEqual(findingsOf(objects), { findings: [], notes: [] });
	});

	it('gives healthy objects no finding', () => {
		const objects = input(
			gitRepo('shop', {}, { commit: 'c1', pollingCommit: 'c1' }),
			bundle(
				'shop-a',
				{ labels: { 'fleet.cattle.io/repo-name': 'shop', 'fleet.cattle.io/commit': 'c1' } },
				{},
				{ resourcesSHA256Sum: 'sum' },
			),
			{
				...bundleDeployment(
					'shop-a',
					{ deploymentID: 's-sum:o' },
					{ appliedDeploymentID: 's-sum:o' },
				),
				metadata: {
					name: 'shop-a',
					namespace: 'cluster-fleet-local-local-1',
					labels: {
						'fleet.cattle.io/bundle-name': 'shop-a',
						'fleet.cattle.io/bundle-namespace': namespace,
					},
				},
			},
			{
				apiVersion: fleet,
				kind: 'Content',
				metadata: { name: 's-sum' },
				status: { referenceCount: 1 },
			},
		);
		assert.deepEqual(findingsOf(objects).findings, []);
	});

	it('compares kinds only when the input holds the other kind, and says so once', () => {
		const objects = input(
			gitRepo('one', {}, { commit: 'c', pollingCommit: 'c' }),
			gitRepo('two', {}, { commit: 'c', pollingCommit: 'c' }),
		);
		const folder = findingsOf(objects);
		assert.deepEqual(folder.findings, []);
		assert.deepEqual(folder.notes, [
			{
				code: 'fleet-git-repos-with-no-bundles',
				message:
					"fleet-git-repos-with-no-bundles not checked: the input holds no Bundles (a folder of files may hold only some of Fleet's objects)",
			},
		]);
		const dump = findingsOf(objects, { complete: ['Bundle'] });
		assert.deepEqual(
			dump.findings.map((finding) => `${finding.code} ${finding.object.name}`),
			['fleet-git-repos-with-no-bundles one', 'fleet-git-repos-with-no-bundles two'],
		);
		assert.deepEqual(dump.notes, []);
	});

	it('says which of the two reasons a Cluster has agent issues, in every namespace', () => {
		const cluster = (
			name: string,
			ns: string,
			ready: string,
			lastSeen?: string,
		): Record<string, unknown> => ({
			apiVersion: fleet,
			kind: 'Cluster',
			metadata: { name, namespace: ns },
			status: {
				conditions: [
					{
						type: 'Ready',
						status: ready,
						message: ready === 'True' ? '' : 'NotReady(1) [Bundle x]',
					},
				],
				...(lastSeen ? { agent: { lastSeen } } : {}),
			},
		});
		const result = findingsOf(
			input(
				cluster('not-ready', 'fleet-default', 'False', '2026-03-01T11:59:00Z'),
				cluster('silent', 'fleet-local', 'True', '2026-02-27T10:00:00Z'),
				cluster('fine', 'fleet-local', 'True', '2026-03-01T11:00:00Z'),
			),
		);
		assert.deepEqual(
			result.findings.map((finding) => [
				finding.object.namespace,
				finding.object.name,
				finding.severity,
			]),
			[
				['fleet-default', 'not-ready', 'error'],
				['fleet-local', 'silent', 'error'],
			],
		);
		assert.match(
			result.findings[0]?.message ?? '',
			/not Ready: it is Ready=False: "NotReady\(1\) \[Bundle x\]" \(a Cluster's Ready comes from its bundles/,
		);
		assert.doesNotMatch(result.findings[0]?.message ?? '', /last seen/);
		assert.match(
			result.findings[1]?.message ?? '',
			/its agent was last seen 2d2h ago \(2026-02-27T10:00:00Z\), more than 24 hours/,
		);
		assert.doesNotMatch(result.findings[1]?.message ?? '', /not Ready/);
	});

	it('compares no commits on a GitRepo written by a Fleet release without polling and webhook commits', () => {
		const older = gitRepo('older', {}, { commit: 'c1' });
		assert.deepEqual(said(input(older), { complete: ['Bundle'] }), [
			'fleet-git-repos-with-no-bundles GitRepo fleet-local/older',
		]);
	});

	it('says once that the values hash check is never run', () => {
		const result = findingsOf(input(bundle('a', {}, {}, {}), bundle('b', {}, {}, {})), {
			complete: ['BundleDeployment', 'Content', 'GitRepo'],
		});
		assert.deepEqual(
			result.notes.filter((note) => note.code === 'fleet-secrets-with-values-hash-mismatch').length,
			1,
		);
		assert.equal(
			result.findings.some((finding) => finding.code === 'fleet-secrets-with-values-hash-mismatch'),
			false,
		);
	});

	it('measures ages from the newest timestamp of the input', () => {
		assert.equal(
			newestTimestampOf([
				{ status: { conditions: [{ type: 'Ready', lastTransitionTime: '2026-03-01T10:00:00Z' }] } },
				{ status: { agent: { lastSeen: '2026-03-01T10:30:00Z' } } },
				{ status: { lastPollingTriggered: '2026-03-01T10:20:00Z' } },
				{ apiVersion: 'events.k8s.io/v1', kind: 'Event', eventTime: '2026-03-01T11:00:00.000000Z' },
			]),
			Date.parse('2026-03-01T11:00:00Z'),
		);
		assert.equal(newestTimestampOf([{ kind: 'GitRepo', spec: {} }]), undefined);
	});
});

describe('Fleet findings of one open document, its workspace being the input', () => {
	const repoLabels = { 'fleet.cattle.io/repo-name': 'shop', 'fleet.cattle.io/commit': 'old' };
	const dumpedRepo = gitRepo('shop', {}, { commit: 'new', pollingCommit: 'new' });
	const writtenRepo = {
		apiVersion: fleet,
		kind: 'GitRepo',
		metadata: { name: 'shop', namespace },
		spec: { repo: 'https://example.com/shop' },
	};
	const staleBundle = bundle('shop-web', { labels: repoLabels }, {}, {});
	const range = (line: number) => ({
		start: { line, character: 0 },
		end: { line: line + 5, character: 0 },
	});

	it('puts the findings of the objects it holds at their first line, comparing with the rest of the workspace', () => {
		const findings = documentFleetFindings(
			[{ object: staleBundle, range: range(10) }],
			[writtenRepo, dumpedRepo, staleBundle],
			clock,
		);
		assert.deepEqual(
			findings.map((finding) => [finding.code, finding.subject, finding.range.start.line]),
			// No BundleDeployment in the workspace: "no deployments" is not checked.
			[['fleet-git-repo-bundle-inconsistencies', 'Bundle fleet-local/shop-web', 10]],
		);
	});

	it('compares with the dumped copy of an object the workspace also holds as written, whatever the order', () => {
		const findings = documentFleetFindings(
			[{ object: staleBundle, range: range(0) }],
			[dumpedRepo, writtenRepo],
			clock,
		);
		assert.equal(findings[0]?.code, 'fleet-git-repo-bundle-inconsistencies');
	});

	it('gives a document of manifests without status nothing', () => {
		assert.deepEqual(
			documentFleetFindings(
				[{ object: writtenRepo, range: range(0) }],
				[dumpedRepo, staleBundle],
				clock,
			),
			[],
		);
	});
});

describe("the clock of Fleet's checks", () => {
	const wall = Date.parse('2026-12-02T12:00:00Z');

	it('takes an RFC 3339 time the user set, and refuses the loose forms Date.parse would take', () => {
		assert.equal(explicitClockOf('2026-03-01T12:00:00Z'), Date.parse('2026-03-01T12:00:00Z'));
		assert.equal(explicitClockOf(undefined), undefined);
		assert.equal(explicitClockOf(''), undefined);
		assert.equal(explicitClockOf('2026'), 'invalid');
		assert.equal(explicitClockOf('March 1, 2026'), 'invalid');
	});

	it('is the set time, else the wall clock in a live context, else none (the newest timestamp of the input)', () => {
		assert.equal(
			fleetChecksClockOf('2026-03-01T12:00:00Z', true, wall),
			Date.parse('2026-03-01T12:00:00Z'),
		);
		assert.equal(fleetChecksClockOf(undefined, true, wall), wall);
		assert.equal(fleetChecksClockOf(undefined, false, wall), undefined);
		// A loose time is no clock: the editor measured from "2026" (1 January) before.
		assert.equal(fleetChecksClockOf('2026', false, wall), undefined);
		assert.equal(fleetChecksClockOf('2026', true, wall), wall);
	});
});
