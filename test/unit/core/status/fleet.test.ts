import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';
import { diagnoseManifest } from '../../../../src/core/manifest/diagnose.ts';
import { labelSelectorMatcherOf } from '../../../../src/core/model/labelSelector.ts';
import { getPath, getString, isRecord } from '../../../../src/core/model/object.ts';
import {
	computeFleetRollups,
	computeFleetStatus,
	type FleetComputed,
} from '../../../../src/core/status/fleet.ts';
import {
	clusterGroupStatusOf,
	clusterStatusOf,
	setResources,
} from '../../../../src/core/status/fleetRollup.ts';
import {
	addSummaries,
	bdDisplayOf,
	compareBytewise,
	deploymentStateOf,
	emptySummary,
	incrementState,
	modifiedStatusString,
	readBundleDeployment,
	readModifiedStatus,
	readNonReadyStatus,
	readyConditionOf,
	readyMessageOf,
	resourceNameOf,
	summaryString,
	updateFromResources,
	type BundleSummary,
	type ModifiedStatus,
	type NonReadyStatus,
} from '../../../../src/core/status/fleetSummary.ts';
import { repoRoot } from '../../../support/conformance.ts';

const api = 'fleet.cattle.io/v1alpha1';

function bd(
	name: string,
	cluster: string,
	options: {
		labels?: Record<string, string>;
		spec?: Record<string, unknown>;
		status?: Record<string, unknown>;
		uid?: string;
	} = {},
): Record<string, unknown> {
	return {
		apiVersion: api,
		kind: 'BundleDeployment',
		metadata: {
			name,
			namespace: `cluster-fleet-default-${cluster}`,
			uid: options.uid ?? `${name}-${cluster}`,
			labels: {
				'fleet.cattle.io/bundle-name': name,
				'fleet.cattle.io/bundle-namespace': 'fleet-default',
				'fleet.cattle.io/cluster': cluster,
				'fleet.cattle.io/cluster-namespace': 'fleet-default',
				...options.labels,
			},
		},
		spec: { deploymentID: 'd1', stagedDeploymentID: 'd1', ...options.spec },
		status: { appliedDeploymentID: 'd1', ready: true, nonModified: true, ...options.status },
	};
}

const modified = (name: string, extra: Partial<ModifiedStatus> = {}): ModifiedStatus =>
	readModifiedStatus({
		kind: 'ConfigMap',
		apiVersion: 'v1',
		namespace: 'shop',
		name,
		patch: '{"data":{}}',
		...extra,
	});
const nonReady = (name: string, summary: Record<string, unknown>): NonReadyStatus =>
	readNonReadyStatus({
		kind: 'Deployment',
		apiVersion: 'apps/v1',
		namespace: 'shop',
		name,
		summary,
	});

describe('BundleDeployment state (GetDeploymentState)', () => {
	const stateOf = (spec: Record<string, unknown>, status: Record<string, unknown>) =>
		deploymentStateOf(readBundleDeployment(bd('b', 'c', { spec, status })));

	it('reports ErrApplied when a new deployment is not applied and Deployed is False', () => {
		const state = stateOf(
			{ deploymentID: 'd2', stagedDeploymentID: 'd2' },
			{ conditions: [{ type: 'Deployed', status: 'False', reason: 'Error', message: 'boom' }] },
		);
		assert.equal(state, 'ErrApplied');
	});

	it('reports WaitApplied while the agent has not applied the new deployment', () => {
		assert.equal(stateOf({ deploymentID: 'd2', stagedDeploymentID: 'd2' }, {}), 'WaitApplied');
	});

	it('reports NotReady when applied but resources are not ready', () => {
		assert.equal(stateOf({}, { ready: false }), 'NotReady');
	});

	it('reports OutOfSync when a newer deployment is staged but not released', () => {
		assert.equal(stateOf({ stagedDeploymentID: 'd3' }, {}), 'OutOfSync');
	});

	it('reports Modified when ready but drifted', () => {
		assert.equal(stateOf({}, { nonModified: false }), 'Modified');
	});

	it('reports Ready when applied, ready, in sync and unmodified', () => {
		assert.equal(stateOf({}, {}), 'Ready');
	});

	it('checks the applied ID before readiness, so a failed apply hides NotReady', () => {
		const state = stateOf(
			{ deploymentID: 'd2', stagedDeploymentID: 'd2' },
			{ ready: false, conditions: [{ type: 'Deployed', status: 'False' }] },
		);
		assert.equal(state, 'ErrApplied');
	});

	it("uses a Bundle target's newer deployment ID in place of the BD's (effectiveDeployment)", () => {
		const view = readBundleDeployment(bd('b', 'c'));
		assert.equal(deploymentStateOf(view), 'Ready');
		assert.equal(deploymentStateOf(view, 'd9'), 'WaitApplied');
	});

	it('shows Deployed errors as "Error: <message>" in status.display', () => {
		const view = readBundleDeployment(
			bd('b', 'c', {
				spec: { deploymentID: 'd2' },
				status: {
					conditions: [
						{ type: 'Deployed', status: 'False', reason: 'Error', message: 'helm failed' },
						{ type: 'Monitored', status: 'True' },
					],
				},
			}),
		);
		assert.deepEqual(bdDisplayOf(view), {
			deployed: 'Error: helm failed',
			monitored: 'True',
			state: 'ErrApplied',
		});
	});
});

describe('Fleet status strings', () => {
	it('names resources like Fleet: lower-case kind, API group or version, namespace/name', () => {
		assert.equal(
			resourceNameOf('apps/v1', 'Deployment', 'shop', 'web'),
			'deployment.apps shop/web',
		);
		assert.equal(resourceNameOf('v1', 'Service', 'shop', 'web'), 'service.v1 shop/web');
		assert.equal(
			resourceNameOf('rbac.authorization.k8s.io/v1', 'ClusterRole', '', 'admin'),
			'clusterrole.rbac.authorization.k8s.io admin',
		);
		assert.equal(resourceNameOf('', 'Secret', 'shop', 's'), 'secret shop/s');
	});

	it('describes the four kinds of drift', () => {
		assert.equal(
			modifiedStatusString(modified('a', { missing: true })),
			'configmap.v1 shop/a missing',
		);
		assert.equal(
			modifiedStatusString(modified('a', { missing: true, exist: true })),
			'configmap.v1 shop/a is not owned by us',
		);
		assert.equal(
			modifiedStatusString(modified('a', { delete: true })),
			'configmap.v1 shop/a extra',
		);
		assert.equal(modifiedStatusString(modified('a')), 'configmap.v1 shop/a modified {"data":{}}');
	});

	it('describes resource summaries with the upstream bracket quirk for error-only', () => {
		assert.equal(
			summaryString({ state: 'Evicted', error: false, transitioning: false, message: ['x'] }),
			'Evicted',
		);
		assert.equal(
			summaryString({ state: 's', error: false, transitioning: true, message: ['a', 'b'] }),
			'[progressing] a, b',
		);
		assert.equal(
			summaryString({ state: 's', error: true, transitioning: false, message: ['oom'] }),
			'error] oom',
		);
		assert.equal(
			summaryString({ state: 's', error: true, transitioning: true, message: [] }),
			'[progressing,error]',
		);
	});
});

describe('Ready condition message (ReadyMessage, SetReadyConditions)', () => {
	function summaryWith(): BundleSummary {
		const summary = emptySummary();
		const mods = ['m1', 'm2', 'm3', 'm4', 'm5'].map((name) => modified(name));
		const nrs = ['n1', 'n2', 'n3', 'n4', 'n5'].map((name) =>
			nonReady(name, { state: 'updating', transitioning: true, message: ['rolling'] }),
		);
		incrementState(summary, 'zeta', 'NotReady', '', [], nrs);
		incrementState(summary, 'alpha', 'Modified', '', mods, []);
		incrementState(summary, 'beta', 'ErrApplied', 'helm failed', [], []);
		incrementState(summary, 'gamma', 'ErrApplied', 'second error', [], []);
		incrementState(summary, 'ok', 'Ready', '', [], []);
		summary.desiredReady = 5;
		return summary;
	}

	it('names the first resource per state with the state count, sorted bytewise, with at most 4 + 4 details', () => {
		const message = readyMessageOf(summaryWith(), 'Bundle');
		assert.deepEqual(message.split('; '), [
			'ErrApplied(2) [Bundle beta: helm failed]',
			'Modified(1) [Bundle alpha]',
			'NotReady(1) [Bundle zeta]',
			'configmap.v1 shop/m1 modified {"data":{}}',
			'configmap.v1 shop/m2 modified {"data":{}}',
			'configmap.v1 shop/m3 modified {"data":{}}',
			'configmap.v1 shop/m4 modified {"data":{}}',
			'deployment.apps shop/n1 [progressing] rolling',
			'deployment.apps shop/n2 [progressing] rolling',
			'deployment.apps shop/n3 [progressing] rolling',
			'deployment.apps shop/n4 [progressing] rolling',
		]);
	});

	it('writes Ready False with the message and keeps an earlier reason, and clears the reason when ready', () => {
		const previous = { type: 'Ready', status: 'False', reason: 'Error' };
		const failing = readyConditionOf(summaryWith(), 'Cluster', previous);
		assert.equal(failing.status, 'False');
		assert.equal(failing.reason, 'Error');
		assert.ok(failing.message.startsWith('ErrApplied(2) [Cluster beta: helm failed]'));
		const summary = emptySummary();
		incrementState(summary, 'x', 'Ready', '', [], []);
		summary.desiredReady = 1;
		assert.deepEqual(readyConditionOf(summary, 'Cluster', previous), {
			type: 'Ready',
			status: 'True',
			message: '',
		});
	});

	it('sorts by UTF-8 bytes like Go, not by UTF-16 code units', () => {
		// U+FF5E (fullwidth tilde) is one UTF-16 unit above the surrogates that encode U+1F600, but below it in UTF-8.
		assert.ok(compareBytewise('\uff5e', '\u{1f600}') < 0);
		assert.ok('\uff5e' > '\u{1f600}');
		assert.ok(compareBytewise('Z', 'a') < 0);
	});

	it('keeps at most 10 non-ready entries per summary, but a group sum appends a whole cluster list', () => {
		const left = emptySummary();
		for (let i = 0; i < 12; i++) incrementState(left, `b${i}`, 'WaitApplied', '', [], []);
		assert.equal(left.waitApplied, 12);
		assert.equal(left.nonReadyResources.length, 10);
		const group = emptySummary();
		addSummaries(group, {
			...emptySummary(),
			nonReadyResources: left.nonReadyResources.slice(0, 9),
		});
		addSummaries(group, left);
		assert.equal(group.nonReadyResources.length, 19);
		addSummaries(group, left);
		assert.equal(group.nonReadyResources.length, 19);
	});
});

describe('Agent resource status (updateFromResources)', () => {
	it('cuts both lists to 10, flags incompleteState, and counts from the full lists', () => {
		const resources = Array.from({ length: 12 }, (_, i) => ({
			kind: 'Pod',
			apiVersion: 'v1',
			namespace: 'ns',
			name: `p${i}`,
		}));
		const nonReadyList = resources.map((r) =>
			readNonReadyStatus({ ...r, summary: { state: 'Evicted' } }),
		);
		const update = updateFromResources(resources, nonReadyList, []);
		assert.equal(update.nonReadyStatus.length, 10);
		assert.equal(update.incompleteState, true);
		assert.equal(update.resourceCounts.notReady, 12);
		assert.equal(update.ready, false);
	});

	it('keeps an earlier incompleteState, as upstream never clears it there', () => {
		assert.equal(updateFromResources([], [], [], true).incompleteState, true);
		assert.equal(updateFromResources([], [], []).incompleteState, false);
	});

	it('counts a modified resource once even when it is also not ready', () => {
		const key = { kind: 'ConfigMap', apiVersion: 'v1', namespace: 'ns', name: 'cm' };
		const update = updateFromResources(
			[key],
			[readNonReadyStatus({ ...key, summary: { state: 'x' } })],
			[readModifiedStatus({ ...key, patch: '{}' })],
		);
		assert.deepEqual(
			{
				desiredReady: update.resourceCounts.desiredReady,
				modified: update.resourceCounts.modified,
				notReady: update.resourceCounts.notReady,
			},
			{ desiredReady: 1, modified: 1, notReady: 0 },
		);
	});
});

describe('Fleet badge for one object (computeFleetStatus)', () => {
	const gitRepo = (status: Record<string, unknown> | undefined) => ({
		apiVersion: api,
		kind: 'GitRepo',
		metadata: { name: 'shop', namespace: 'fleet-default' },
		spec: { repo: 'https://example.invalid/shop' },
		...(status ? { status } : {}),
	});

	it('shows GitUpdating while the git job is not Current, whatever the bundles say', () => {
		const result = computeFleetStatus(
			gitRepo({ gitJobStatus: 'InProgress', display: { state: 'ErrApplied' } }),
		);
		assert.equal(result.state, 'GitUpdating');
		assert.equal(result.tone, 'progressing');
	});

	it('keeps what a Fleet release without status.gitJobStatus wrote, instead of forcing GitUpdating', () => {
		const written = {
			display: { state: 'ErrApplied', message: 'helm failed', readyBundleDeployments: '1/2' },
			conditions: [{ type: 'Ready', status: 'False', message: 'ErrApplied(1) [Bundle shop-web]' }],
		};
		const result = computeFleetStatus(gitRepo(written));
		assert.deepEqual([result.state, result.tone], ['ErrApplied', 'error']);
		assert.ok(!result.reasons.some((reason) => reason.includes('not been cloned')));
		const yaml = [
			`apiVersion: ${api}`,
			'kind: GitRepo',
			'metadata: {name: shop, namespace: fleet-default}',
			'spec: {repo: "https://example.invalid/shop"}',
			`status: ${JSON.stringify(written)}`,
		].join('\n');
		const codes = diagnoseManifest(yaml).map((finding) => finding.code);
		assert.ok(codes.includes('status-err-applied'), codes.join(', '));
	});

	it("shows the bundles' worst state once the git job is Current", () => {
		const result = computeFleetStatus(
			gitRepo({
				gitJobStatus: 'Current',
				display: { state: 'ErrApplied', message: 'helm failed', readyBundleDeployments: '4/6' },
				readyClusters: 2,
				desiredReadyClusters: 3,
				summary: { errApplied: 1, ready: 4, desiredReady: 6 },
				conditions: [
					{ type: 'Ready', status: 'False', message: 'ErrApplied(1) [Bundle web: helm failed]' },
				],
			}),
		);
		assert.equal(result.state, 'ErrApplied');
		assert.equal(result.tone, 'error');
		assert.equal(result.message, 'ErrApplied(1) [Bundle web: helm failed]');
		assert.ok(result.reasons.includes('1 of 3 clusters not ready'));
		assert.ok(result.reasons.includes('1 bundle deployment ErrApplied'));
	});

	it('reads empty display.state with Ready True as Ready', () => {
		const result = computeFleetStatus(
			gitRepo({
				gitJobStatus: 'Current',
				display: { readyBundleDeployments: '3/3' },
				conditions: [{ type: 'Ready', status: 'True' }],
			}),
		);
		assert.deepEqual(
			[result.state, result.tone, result.message],
			['Ready', 'ok', '3/3 bundle deployments ready'],
		);
	});

	it('turns a GitRepo red when GitPolling is False, with that message, even if its bundles are Ready', () => {
		const result = computeFleetStatus(
			gitRepo({
				gitJobStatus: 'Current',
				conditions: [
					{ type: 'Ready', status: 'True' },
					{
						type: 'GitPolling',
						status: 'False',
						reason: 'Error',
						message: 'authentication required',
					},
				],
			}),
		);
		assert.equal(result.state, 'Ready');
		assert.equal(result.tone, 'error');
		assert.equal(result.message, 'authentication required');
		assert.equal(result.reasons[0], 'GitPolling is False: authentication required');
	});

	it('turns a GitRepo red when Stalled is True or Accepted is False', () => {
		for (const condition of [
			{ type: 'Stalled', status: 'True', message: 'fleet apply failed' },
			{ type: 'Accepted', status: 'False', message: 'restriction violated' },
		]) {
			const result = computeFleetStatus(
				gitRepo({
					gitJobStatus: 'Current',
					conditions: [{ type: 'Ready', status: 'True' }, condition],
				}),
			);
			assert.equal(result.tone, 'error', condition.type);
			assert.equal(result.message, condition.message);
		}
	});

	it('turns a HelmOp red when polling the chart fails', () => {
		const result = computeFleetStatus({
			apiVersion: api,
			kind: 'HelmOp',
			metadata: { name: 'nginx', namespace: 'fleet-default' },
			status: {
				display: { readyBundleDeployments: '1/1' },
				conditions: [
					{ type: 'Ready', status: 'True' },
					{
						type: 'Polled',
						status: 'False',
						reason: 'Error',
						message: 'no chart version found for 9.9.9',
					},
				],
			},
		});
		assert.deepEqual(
			[result.state, result.tone, result.message],
			['Ready', 'error', 'no chart version found for 9.9.9'],
		);
	});

	it('shows WaitCheckIn for a Cluster whose agent never checked in', () => {
		for (const lastSeen of [null, '0001-01-01T00:00:00Z', undefined]) {
			const result = computeFleetStatus({
				apiVersion: api,
				kind: 'Cluster',
				metadata: { name: 'edge', namespace: 'fleet-default' },
				status: {
					agent: lastSeen === undefined ? {} : { lastSeen },
					display: { readyBundles: '0/0' },
				},
			});
			assert.deepEqual(
				[result.state, result.tone],
				['WaitCheckIn', 'progressing'],
				String(lastSeen),
			);
		}
	});

	it('marks a Bundle with Ready False but no display state as an error (rendering failed)', () => {
		const result = computeFleetStatus({
			apiVersion: api,
			kind: 'Bundle',
			metadata: { name: 'b', namespace: 'fleet-default' },
			status: {
				conditions: [{ type: 'Ready', status: 'False', reason: 'Error', message: 'invalid chart' }],
			},
		});
		assert.deepEqual(
			[result.state, result.tone, result.message],
			['NotReady', 'error', 'invalid chart'],
		);
	});

	it('explains a drifted BundleDeployment with the drift', () => {
		const result = computeFleetStatus(
			bd('web', 'c1', {
				status: {
					nonModified: false,
					modifiedStatus: [
						{
							kind: 'ConfigMap',
							apiVersion: 'v1',
							namespace: 'shop',
							name: 'cfg',
							patch: '{"a":1}',
						},
					],
					conditions: [
						{
							type: 'Ready',
							status: 'False',
							reason: 'Error',
							message: 'configmap.v1 shop/cfg modified {"a":1}',
						},
					],
				},
			}),
		);
		assert.deepEqual([result.state, result.tone], ['Modified', 'warning']);
		assert.equal(result.message, 'configmap.v1 shop/cfg modified {"a":1}');
		assert.deepEqual(result.reasons, ['Drift: configmap.v1 shop/cfg modified {"a":1}']);
	});

	it('reads plain manifests (no status) as Fleet shows fresh objects', () => {
		const dir = join(repoRoot, 'examples/workspace/fleet/manifests');
		const expected: Record<string, string> = {
			GitRepo: 'GitUpdating',
			HelmOp: 'Pending',
			ClusterGroup: 'Pending',
			Cluster: 'WaitCheckIn',
		};
		const seen = new Set<string>();
		for (const file of readdirSync(dir).filter((name) => name.endsWith('.yaml'))) {
			for (const document of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
				const object: unknown = document.toJS();
				const kind = getString(object, 'kind') ?? '';
				const result = computeFleetStatus(object);
				assert.equal(result.observed, false, kind);
				assert.equal(result.state, expected[kind], kind);
				assert.equal(result.tone, 'progressing', kind);
				seen.add(kind);
			}
		}
		assert.deepEqual([...seen].sort(), Object.keys(expected).sort());
		const freshBd = {
			apiVersion: api,
			kind: 'BundleDeployment',
			metadata: { name: 'b' },
			spec: { deploymentID: 's-1:abc' },
		};
		assert.deepEqual(
			[computeFleetStatus(freshBd).state, computeFleetStatus(freshBd).observed],
			['WaitApplied', false],
		);
		const freshBundle = { apiVersion: api, kind: 'Bundle', metadata: { name: 'b' }, spec: {} };
		assert.equal(computeFleetStatus(freshBundle).state, 'Pending');
	});

	it('says what is wrong with malformed input and never throws', () => {
		const cases: [unknown, RegExp][] = [
			[
				{ apiVersion: api, kind: 'GitRepo', status: { conditions: 'Ready' } },
				/status\.conditions is not a list/,
			],
			[
				{ apiVersion: api, kind: 'Bundle', status: 'fine' },
				/status should be an object, not a string/,
			],
			[
				{ apiVersion: api, kind: 'Cluster', status: { display: { state: 7 } } },
				/status\.display\.state should be a string/,
			],
			[
				{ apiVersion: api, kind: 'BundleDeployment', status: { ready: 'yes' } },
				/status\.ready should be a boolean/,
			],
			[
				{ apiVersion: api, kind: 'ClusterGroup', status: { summary: { ready: 1.5 } } },
				/status\.summary\.ready should be an integer/,
			],
			[
				{ apiVersion: api, kind: 'GitRepo', status: { conditions: [{ status: 'True' }] } },
				/has no type/,
			],
			[{ apiVersion: 'apps/v1', kind: 'Deployment' }, /not a fleet\.cattle\.io object/],
			[[], /expected a mapping/],
			[null, /expected a mapping/],
		];
		for (const [input, pattern] of cases) {
			const result = computeFleetStatus(input);
			assert.equal(result.state, 'Unknown', JSON.stringify(input));
			assert.equal(result.tone, 'unknown');
			assert.match(result.message, pattern);
		}
		const odd: unknown[] = [0, 'x', true, {}, [], null, { a: 1 }, [1, 2], -1, 1.5];
		for (const kind of [
			'GitRepo',
			'HelmOp',
			'Bundle',
			'BundleDeployment',
			'Cluster',
			'ClusterGroup',
			'Content',
			'constructor',
			'__proto__',
			'toString',
		]) {
			for (const value of odd) {
				for (const where of ['status', 'spec', 'metadata'] as const) {
					const object = { apiVersion: api, kind, [where]: value };
					assert.doesNotThrow(() => computeFleetStatus(object));
					assert.doesNotThrow(() =>
						computeFleetRollups([
							object,
							{ ...object, status: { summary: value, conditions: value } },
						]),
					);
				}
			}
		}
	});
});

describe('Fleet roll-ups (computeFleetRollups)', () => {
	function gitRepoInput() {
		const labels = { 'fleet.cattle.io/repo-name': 'shop' };
		const failing = bd('shop-web', 'c2', {
			labels,
			spec: { deploymentID: 'd2', stagedDeploymentID: 'd2' },
			status: {
				conditions: [
					{ type: 'Deployed', status: 'False', reason: 'Error', message: 'helm failed' },
				],
			},
		});
		const repo = {
			apiVersion: api,
			kind: 'GitRepo',
			metadata: { name: 'shop', namespace: 'fleet-default' },
			spec: { repo: 'https://example.invalid/shop' },
			status: { gitJobStatus: 'Current' },
		};
		const bundle = {
			apiVersion: api,
			kind: 'Bundle',
			metadata: { name: 'shop-web', namespace: 'fleet-default', labels },
		};
		return {
			repo,
			bundle,
			failing,
			objects: [
				repo,
				bundle,
				bd('shop-web', 'c1', { labels }),
				failing,
				bd('shop-web', 'c3', { labels }),
			],
		};
	}

	it('rolls BDs on 3 clusters, one ErrApplied, into readyClusters 2 of 3 and a Ready message naming it', () => {
		const { repo, objects } = gitRepoInput();
		const computed = computeFleetRollups(objects).get(repo);
		assert.ok(computed?.kind === 'GitRepo');
		assert.equal(computed.readyClusters, 2);
		assert.equal(computed.desiredReadyClusters, 3);
		assert.deepEqual(computed.display, {
			readyBundleDeployments: '2/3',
			state: 'ErrApplied',
			message: 'helm failed',
			error: true,
		});
		assert.deepEqual(computed.readyCondition, {
			type: 'Ready',
			status: 'False',
			message: 'ErrApplied(1) [Bundle shop-web: helm failed]',
		});
		assert.equal(computed.underivable, undefined);
	});

	it('recomputes the display state from the BDs when the GitRepo has no gitJobStatus (no forced GitUpdating)', () => {
		const { repo, objects } = gitRepoInput();
		const older = { ...repo, status: { display: { state: 'ErrApplied' } } };
		const computed = computeFleetRollups([older, ...objects.slice(1)]).get(older);
		assert.ok(computed?.kind === 'GitRepo');
		assert.equal(computed.display.state, 'ErrApplied');
		const running = { ...repo, status: { gitJobStatus: 'InProgress' } };
		const updating = computeFleetRollups([running, ...objects.slice(1)]).get(running);
		assert.ok(updating?.kind === 'GitRepo');
		assert.equal(updating.display.state, 'GitUpdating');
		// Neither gitJobStatus nor a display: Go reads "" != "Current", so the controller writes GitUpdating.
		const unjobbed = { ...repo, status: { observedGeneration: 1 } };
		const fresh = computeFleetRollups([unjobbed, ...objects.slice(1)]).get(unjobbed);
		assert.ok(fresh?.kind === 'GitRepo');
		assert.equal(fresh.display.state, 'GitUpdating');
	});

	it('names the failing cluster in the Bundle Ready message and notes what the BDs cannot tell', () => {
		const { bundle, objects } = gitRepoInput();
		const computed = computeFleetRollups(objects).get(bundle);
		assert.ok(computed?.kind === 'Bundle');
		assert.equal(
			computed.readyCondition.message,
			'ErrApplied(1) [Cluster fleet-default/c2: helm failed]',
		);
		assert.deepEqual(computed.display, { readyClusters: '2/3', state: 'ErrApplied' });
		assert.equal(computed.unavailable, 1);
		assert.ok(computed.underivable.includes('summary.pending'));
	});

	it('copies a failing Bundle Ready condition into its GitRepo (rendering errors leave no BDs)', () => {
		const { repo, bundle } = gitRepoInput();
		const broken = {
			...bundle,
			status: {
				conditions: [
					{
						type: 'Ready',
						status: 'False',
						reason: 'Error',
						message: 'template: values.yaml:3: bad',
					},
				],
			},
		};
		const computed = computeFleetRollups([repo, broken]).get(repo);
		assert.ok(computed?.kind === 'GitRepo');
		assert.deepEqual(computed.readyCondition, {
			type: 'Ready',
			status: 'False',
			reason: 'Error',
			message: 'template: values.yaml:3: bad',
		});
	});

	it('notes an underivable GitRepo Ready condition when BDs are present but none of their Bundles', () => {
		const { repo, objects } = gitRepoInput();
		const computed = computeFleetRollups(
			objects.filter((o) => getString(o, 'kind') !== 'Bundle'),
		).get(repo);
		assert.ok(computed?.kind === 'GitRepo');
		assert.deepEqual(computed.underivable, ['readyCondition']);
	});

	it('counts a Cluster GitRepo only when it is in the input, and says so otherwise', () => {
		const labels = { 'fleet.cattle.io/repo-name': 'shop' };
		const cluster = {
			apiVersion: api,
			kind: 'Cluster',
			metadata: { name: 'c1', namespace: 'fleet-default' },
			status: { agent: { lastSeen: '2025-01-01T00:00:00Z' } },
		};
		const computed = computeFleetRollups([cluster, bd('shop-web', 'c1', { labels })]).get(cluster);
		assert.ok(computed?.kind === 'Cluster');
		assert.deepEqual([computed.desiredReadyGitRepos, computed.readyGitRepos], [0, 0]);
		assert.deepEqual(computed.underivable, ['readyGitRepos', 'desiredReadyGitRepos']);
		assert.deepEqual(computed.display, { readyBundles: '1/1' });
		const direct = clusterStatusOf(undefined, [], { gitRepos: new Set(), helmOps: new Set() });
		assert.equal(direct.display.state, 'WaitCheckIn');
	});

	it('finds BDs of a Cluster by its status.namespace when they lack cluster labels', () => {
		const cluster = {
			apiVersion: api,
			kind: 'Cluster',
			metadata: { name: 'c9', namespace: 'fleet-default' },
			status: { namespace: 'cluster-ns-c9' },
		};
		const orphan = {
			apiVersion: api,
			kind: 'BundleDeployment',
			metadata: { name: 'old', namespace: 'cluster-ns-c9' },
			spec: {},
			status: {},
		};
		const computed = computeFleetRollups([cluster, orphan]).get(cluster);
		assert.ok(computed?.kind === 'Cluster');
		assert.deepEqual(computed.summary, {
			notReady: 1,
			ready: 0,
			desiredReady: 1,
			nonReadyResources: [{ name: 'old', bundleState: 'NotReady' }],
		});
	});

	it("counts every BD in the Cluster's status.namespace, as Fleet lists them, whatever their labels say", () => {
		const cluster = {
			apiVersion: api,
			kind: 'Cluster',
			metadata: { name: 'c1', namespace: 'fleet-default' },
			status: { namespace: 'cluster-fleet-default-c1' },
		};
		// Labelled for c1 but in another namespace: not c1's. In c1's namespace but labelled for c2: c1's.
		const elsewhere = bd('elsewhere', 'c1', { status: { ready: true } });
		(elsewhere.metadata as Record<string, unknown>).namespace = 'cluster-fleet-default-c2';
		const inNamespace = bd('here', 'c2', { status: { ready: false } });
		(inNamespace.metadata as Record<string, unknown>).namespace = 'cluster-fleet-default-c1';
		const computed = computeFleetRollups([cluster, elsewhere, inNamespace]).get(cluster);
		assert.ok(computed?.kind === 'Cluster');
		assert.deepEqual(computed.summary, {
			notReady: 1,
			ready: 0,
			desiredReady: 1,
			nonReadyResources: [{ name: 'here', bundleState: 'NotReady' }],
		});
	});

	it('recomputes nothing for a GitRepo, HelmOp or Cluster being deleted, as Fleet writes nothing then', () => {
		const deleting = (kind: string, name: string): Record<string, unknown> => ({
			apiVersion: api,
			kind,
			metadata: {
				name,
				namespace: 'fleet-default',
				deletionTimestamp: '2025-11-20T09:00:00Z',
				finalizers: ['fleet.cattle.io/gitrepo-finalizer'],
			},
			spec: { repo: 'https://github.com/example/shop' },
			status: { namespace: 'cluster-fleet-default-c1' },
		});
		const objects = [
			deleting('GitRepo', 'web'),
			deleting('HelmOp', 'web'),
			deleting('Cluster', 'c1'),
			bd('web', 'c1', { labels: { 'fleet.cattle.io/repo-name': 'web' } }),
		];
		const rollups = computeFleetRollups(objects);
		for (const object of objects.slice(0, 3)) assert.equal(rollups.get(object), undefined);
		assert.ok(rollups.get(objects[3]));
	});

	it('writes a BundleDeployment display in the order Go marshals it: deployed, monitored, state', () => {
		const deployed = bd('shop', 'c1', {
			status: {
				ready: true,
				conditions: [
					{ type: 'Deployed', status: 'True' },
					{ type: 'Monitored', status: 'True' },
				],
			},
		});
		const computed = computeFleetRollups([deployed]).get(deployed);
		assert.deepEqual(Object.keys(computed?.display ?? {}), ['deployed', 'monitored', 'state']);
	});

	it("leaves NotReady and Modified BDs' unlisted resources Ready, or Unknown when the lists were cut", () => {
		const resources = [{ kind: 'Pod', apiVersion: 'v1', namespace: 'ns', name: 'p' }];
		const complete = readBundleDeployment(bd('b', 'c1', { status: { ready: false, resources } }));
		const cut = readBundleDeployment(
			bd('b', 'c2', { status: { ready: false, incompleteState: true, resources } }),
		);
		const { resources: out } = setResources([complete, cut]);
		assert.deepEqual(out[0]?.perClusterState, {
			ready: ['fleet-default/c1'],
			unknown: ['fleet-default/c2'],
		});
		assert.equal(out[0]?.incompleteState, true);
	});
});

describe('ClusterGroup selection', () => {
	const cluster = (
		name: string,
		labels: Record<string, string>,
		namespace = 'fleet-default',
		summary = { ready: 1, desiredReady: 1 },
	) => ({
		apiVersion: api,
		kind: 'Cluster',
		metadata: { name, namespace, labels },
		status: { summary },
	});
	const clusters = [
		cluster('b-prod-us', { env: 'prod', region: 'us' }, 'fleet-default', {
			ready: 0,
			desiredReady: 1,
		}),
		cluster('a-prod-eu', { env: 'prod', region: 'eu' }),
		cluster('staging', { env: 'staging' }),
		cluster('bare', {}),
		cluster('elsewhere', { env: 'prod' }, 'fleet-local'),
	];
	const group = (selector: unknown) => ({
		apiVersion: api,
		kind: 'ClusterGroup',
		metadata: { name: 'g', namespace: 'fleet-default' },
		spec: selector === undefined ? {} : { selector },
	});
	const names = (selector: unknown) => {
		const matcher = labelSelectorMatcherOf(selector);
		assert.ok(matcher.ok);
		return clusters
			.filter(
				(c) =>
					getPath(c, 'metadata', 'namespace') === 'fleet-default' &&
					matcher.matches(c.metadata.labels),
			)
			.map((c) => c.metadata.name);
	};

	it('selects nothing without a selector and every cluster of its namespace with an empty one', () => {
		assert.equal(clusterGroupStatusOf(group(undefined), clusters).clusterCount, 0);
		assert.equal(clusterGroupStatusOf(group({}), clusters).clusterCount, 4);
		assert.equal(
			clusterGroupStatusOf(group({ matchLabels: {}, matchExpressions: [] }), clusters).clusterCount,
			4,
		);
	});

	it('matches labels and In, NotIn, Exists, DoesNotExist expressions', () => {
		assert.deepEqual(names({ matchLabels: { env: 'prod' } }), ['b-prod-us', 'a-prod-eu']);
		assert.deepEqual(
			names({ matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'staging'] }] }),
			['b-prod-us', 'a-prod-eu', 'staging'],
		);
		assert.deepEqual(
			names({ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }),
			['staging', 'bare'],
		);
		assert.deepEqual(names({ matchExpressions: [{ key: 'region', operator: 'Exists' }] }), [
			'b-prod-us',
			'a-prod-eu',
		]);
		assert.deepEqual(
			names({
				matchLabels: { env: 'prod' },
				matchExpressions: [{ key: 'region', operator: 'DoesNotExist' }],
			}),
			[],
		);
	});

	it('lists non-ready clusters by name in readyClusters, sorted by cluster name', () => {
		const computed = clusterGroupStatusOf(group({ matchLabels: { env: 'prod' } }), clusters);
		assert.deepEqual(computed.display, { readyBundles: '1/2', readyClusters: '1/2 (b-prod-us)' });
		assert.deepEqual(computed.nonReadyClusters, ['b-prod-us']);
	});

	it('reports an invalid selector the way the controller does and does not pretend to know the counts', () => {
		const computed = clusterGroupStatusOf(
			group({ matchExpressions: [{ key: 'env', operator: 'Near', values: ['x'] }] }),
			clusters,
		);
		assert.equal(computed.processedCondition?.status, 'False');
		assert.ok(computed.underivable?.includes('clusterCount'));
		assert.equal(
			computed.processedCondition?.message,
			'"Near" is not a valid label selector operator',
		);
		assert.deepEqual(
			labelSelectorMatcherOf({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }),
			{
				ok: false,
				error:
					"values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
			},
		);
		assert.deepEqual(
			labelSelectorMatcherOf({
				matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }],
			}),
			{
				ok: false,
				error:
					'values: Invalid value: ["x"]: values set must be empty for exists and does not exist',
			},
		);
	});

	it('uses Cluster roll-ups over stale Cluster statuses when the input holds their BDs', () => {
		const stale = cluster('c1', { env: 'prod' }, 'fleet-default', { ready: 1, desiredReady: 1 });
		const failing = bd('web', 'c1', { spec: { deploymentID: 'd2', stagedDeploymentID: 'd2' } });
		const g = group({ matchLabels: { env: 'prod' } });
		const computed = computeFleetRollups([stale, failing, g]).get(g);
		assert.ok(computed?.kind === 'ClusterGroup');
		assert.deepEqual(computed.display, {
			readyBundles: '0/1',
			readyClusters: '0/1 (c1)',
			state: 'WaitApplied',
		});
	});
});

describe('Fleet example workspace', () => {
	const dump = parse(
		readFileSync(join(repoRoot, 'examples/workspace/fleet/dump.yaml'), 'utf8'),
	) as { items: unknown[] };
	const find = (kind: string, name: string, namespace?: string) =>
		dump.items.find(
			(o) =>
				getString(o, 'kind') === kind &&
				getString(o, 'metadata', 'name') === name &&
				(namespace === undefined || getString(o, 'metadata', 'namespace') === namespace),
		);

	it('carries the statuses Fleet would write for its BundleDeployments', () => {
		const rollups = computeFleetRollups(dump.items);
		let compared = 0;
		for (const object of dump.items) {
			const computed: FleetComputed | undefined = rollups.get(object);
			assert.ok(
				computed,
				`${getString(object, 'kind')} ${getString(object, 'metadata', 'name')} has a roll-up`,
			);
			const status = getPath(object, 'status');
			assert.ok(isRecord(status));
			const where = `${computed.kind} ${getString(object, 'metadata', 'namespace')}/${getString(object, 'metadata', 'name')}`;
			const { kind: _kind, ...fields } = computed as FleetComputed & {
				readyCondition?: unknown;
				underivable?: unknown;
			};
			for (const [key, value] of Object.entries(fields)) {
				if (key === 'underivable') continue;
				if (key === 'readyCondition') {
					const ready = (status.conditions as unknown[]).find(
						(c) => getString(c, 'type') === 'Ready',
					);
					const { lastUpdateTime: _time, ...written } = ready as Record<string, unknown>;
					assert.deepEqual({ message: '', ...written }, value, `${where} Ready`);
					continue;
				}
				if (computed.kind === 'BundleDeployment' && key === 'state') {
					assert.equal(value, getPath(status, 'display', 'state'), where);
					continue;
				}
				assert.deepEqual(status[key], value, `${where} ${key}`);
				compared++;
			}
		}
		assert.ok(compared > 50);
	});

	it('shows the failing rollout at a glance', () => {
		const badge = (kind: string, name: string, namespace?: string) => {
			const result = computeFleetStatus(find(kind, name, namespace));
			return `${result.state}/${result.tone}`;
		};
		assert.equal(badge('GitRepo', 'shop'), 'ErrApplied/error');
		assert.equal(badge('Bundle', 'shop-frontend'), 'ErrApplied/error');
		assert.equal(badge('Bundle', 'shop-cache'), 'Ready/ok');
		assert.equal(badge('HelmOp', 'ingress-nginx'), 'Ready/ok');
		assert.equal(badge('Cluster', 'prod-eu-1'), 'Ready/ok');
		assert.equal(badge('Cluster', 'prod-us-1'), 'ErrApplied/error');
		assert.equal(badge('Cluster', 'staging-1'), 'Modified/warning');
		assert.equal(badge('Cluster', 'edge-1'), 'WaitCheckIn/progressing');
		assert.equal(badge('ClusterGroup', 'production'), 'ErrApplied/error');
		const staging = dump.items.find(
			(o) =>
				getString(o, 'kind') === 'BundleDeployment' &&
				getString(o, 'metadata', 'labels', 'fleet.cattle.io/cluster') === 'staging-1' &&
				getString(o, 'metadata', 'name') === 'shop-frontend',
		);
		assert.equal(
			badge('BundleDeployment', 'shop-frontend', getString(staging, 'metadata', 'namespace')),
			'Modified/warning',
		);
		const shop = computeFleetStatus(find('GitRepo', 'shop'));
		assert.match(
			shop.message,
			/^ErrApplied\(1\) \[Cluster fleet-default\/prod-us-1: failed to upgrade "shop-frontend"/,
		);
		assert.ok(shop.reasons.includes('2 of 3 clusters not ready'));
	});

	it('rolls 100,000 BundleDeployments into their parents without pairwise scans', () => {
		// No timing assertion (STYLE.md 7): this checks the answer at scale; bench numbers are in the report.
		const objects: unknown[] = [];
		const repos = 100;
		for (let i = 0; i < 100_000; i++) {
			const repo = `repo-${i % repos}`;
			objects.push(
				bd(`${repo}-b${i % 7}`, `c${i % 500}`, {
					uid: `u${i}`,
					labels: { 'fleet.cattle.io/repo-name': repo },
					status: {
						ready: i % 1000 !== 0,
						resources: [
							{ kind: 'ConfigMap', apiVersion: 'v1', namespace: 'ns', name: `cm${i % 7}` },
						],
						resourceCounts: { ready: 1, desiredReady: 1 },
					},
				}),
			);
		}
		for (let r = 0; r < repos; r++) {
			objects.push({
				apiVersion: api,
				kind: 'GitRepo',
				metadata: { name: `repo-${r}`, namespace: 'fleet-default' },
				status: { gitJobStatus: 'Current' },
			});
		}
		const rollups = computeFleetRollups(objects);
		const first = rollups.get(objects[100_000]);
		assert.ok(first?.kind === 'GitRepo');
		assert.deepEqual(first.summary.desiredReady, 1000);
		assert.equal(rollups.size, 100_000 + repos);
	});
});

describe('a BundleDeployment held back by spec.dependsOn (Fleet 0.16 WaitingForDependency, and before it)', () => {
	const held = (reason: string, message: string) => ({
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'BundleDeployment',
		metadata: {
			name: 'api',
			namespace: 'cluster-fleet-local-local-1a3d67d0a899',
			labels: {
				'fleet.cattle.io/bundle-name': 'api',
				'fleet.cattle.io/bundle-namespace': 'fleet-local',
				'fleet.cattle.io/cluster': 'local',
				'fleet.cattle.io/cluster-namespace': 'fleet-local',
			},
		},
		spec: { deploymentID: 's-2', stagedDeploymentID: 's-2', dependsOn: [{ name: 'db' }] },
		status: {
			appliedDeploymentID: 's-1',
			conditions: [{ type: 'Deployed', status: 'False', reason, message }],
		},
	});

	it('reads Fleet 0.16 words as WaitingForDependency, progressing, with each dependency and its state', () => {
		const status = computeFleetStatus(
			held(
				'WaitingForDependency',
				'waiting for dependent bundle(s) to reach an accepted state: db (state: NotReady, accepted: Ready); cache (state: Modified, accepted: Ready, NotReady)',
			),
		);
		assert.equal(status.state, 'WaitingForDependency');
		assert.equal(status.tone, 'progressing');
		assert.match(
			status.reasons.join('\n'),
			/Waits for spec\.dependsOn: db is NotReady \(accepted: Ready\); cache is Modified \(accepted: Ready, NotReady\)\./,
		);
	});

	it("keeps an older Fleet's ErrApplied, naming the dependency it waits for", () => {
		const status = computeFleetStatus(
			held('Error', 'dependent bundle(s) are not ready: [db cache]'),
		);
		assert.equal(status.state, 'ErrApplied');
		assert.equal(status.tone, 'error');
		assert.match(
			status.reasons.join('\n'),
			/Held back by spec\.dependsOn: db is not ready; cache is not ready\. .*WaitingForDependency/,
		);
	});

	it('ranks it above WaitApplied and below ErrApplied in a parent, and counts it in the summary and the Ready message', () => {
		const bds = [
			held(
				'WaitingForDependency',
				'waiting for dependent bundle(s) to reach an accepted state: db (state: ErrApplied, accepted: Ready)',
			),
		];
		const bundle = {
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'Bundle',
			metadata: { name: 'api', namespace: 'fleet-local' },
			spec: { dependsOn: [{ name: 'db' }] },
		};
		const rollups = computeFleetRollups([bundle, ...bds]);
		const computed = rollups.get(bundle) as {
			display?: { state?: string };
			summary?: Record<string, unknown>;
			readyCondition?: { message?: string };
		};
		assert.equal(computed.display?.state, 'WaitingForDependency');
		assert.equal(computed.summary?.waitingForDependency, 1);
		assert.match(
			computed.readyCondition?.message ?? '',
			/^WaitingForDependency\(1\) \[Cluster fleet-local\/local: waiting for dependent bundle\(s\)/,
		);
	});
});
