// The examples and tables of the upstream status documents (Fleet docs "Status Fields", the Flux HelmRepository spec,
// the Azure Service Operator status proposal, harbor-operator docs "Harbor cluster controller" and the KubeStellar
// multi-WEC status proposal), each checked against the engine.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeWecStatuses } from '../../src/core/merge/wecMerge.ts';
import {
	emptySummary,
	fleetStates,
	incrementState,
	readyMessageOf,
	stateRankOf,
} from '../../src/core/status/fleetSummary.ts';
import { computeStatus } from '../../src/core/status/registry.ts';

describe('Fleet docs "Status Fields" (rancher/fleet-docs docs/ref-status-fields.md)', () => {
	it('ranks the states best to worst as "State Ranking" lists them', () => {
		const documented = [
			'Ready',
			'NotReady',
			'Pending',
			'OutOfSync',
			'Modified',
			'WaitApplied',
			'ErrApplied',
		];
		const ranked = [...documented].sort((a, b) => stateRankOf(a) - stateRankOf(b));
		assert.deepEqual(ranked, documented);
		for (const state of documented) {
			assert.ok((fleetStates as readonly string[]).includes(state), state);
		}
	});

	it('writes the Ready message of the example: WaitApplied(1) [Cluster fleet-default/downstream4]', () => {
		const summary = emptySummary();
		incrementState(summary, 'fleet-default/downstream4', 'WaitApplied', '', [], []);
		assert.equal(
			readyMessageOf(summary, 'Cluster'),
			'WaitApplied(1) [Cluster fleet-default/downstream4]',
		);
	});

	it('excludes Ready states from the Ready message', () => {
		const summary = emptySummary();
		incrementState(summary, 'fleet-default/downstream1', 'Ready', '', [], []);
		assert.equal(readyMessageOf(summary, 'Cluster'), '');
	});
});

const httpRepository = {
	apiVersion: 'source.toolkit.fluxcd.io/v1',
	kind: 'HelmRepository',
	metadata: { name: 'podinfo', namespace: 'default', generation: 1 },
	spec: { interval: '5m0s', url: 'https://stefanprodan.github.io/podinfo' },
};
const revision = 'sha256:83a3c595163a6ff0333e0154c790383b5be441b9db632cb36da11db1c4ece111';

describe('Flux HelmRepository spec (fluxcd/source-controller docs/spec/v1/helmrepositories.md)', () => {
	it('does not call the HTTP/S example Ready before the controller has written a status', () => {
		const result = computeStatus(httpRepository);
		assert.equal(result.observed, false);
		assert.notEqual(result.state, 'Ready');
	});

	it('calls the HTTP/S example Ready with the status of its `kubectl describe`', () => {
		const result = computeStatus({
			...httpRepository,
			status: {
				observedGeneration: 1,
				conditions: [
					{
						type: 'Ready',
						status: 'True',
						reason: 'Succeeded',
						message: `stored artifact for revision '${revision}'`,
						observedGeneration: 1,
					},
					{
						type: 'ArtifactInStorage',
						status: 'True',
						reason: 'Succeeded',
						message: `stored artifact for revision '${revision}'`,
						observedGeneration: 1,
					},
				],
			},
		});
		assert.deepEqual(
			[result.state, result.tone, result.kstatus.status, result.health?.status],
			['Ready', 'ok', 'Current', 'Healthy'],
		);
		assert.equal(result.message, `stored artifact for revision '${revision}'`);
	});

	it('calls the OCI example ready for use although it has no status ("a data container")', () => {
		const result = computeStatus({
			...httpRepository,
			spec: { type: 'oci', interval: '5m0s', url: 'oci://ghcr.io/stefanprodan/charts' },
		});
		assert.deepEqual([result.state, result.tone, result.observed], ['Ready', 'ok', false]);
		assert.equal(result.health?.status, 'Healthy');
	});

	it('shows reconciling, failed and stalled as the "Conditions" section describes them', () => {
		const withConditions = (conditions: unknown[]) =>
			computeStatus({ ...httpRepository, status: { observedGeneration: 1, conditions } }).state;
		assert.equal(
			withConditions([
				{ type: 'Reconciling', status: 'True', reason: 'Progressing' },
				{ type: 'Ready', status: 'Unknown', reason: 'Progressing' },
				{ type: 'ArtifactOutdated', status: 'True', reason: 'NewRevision' },
			]),
			'Reconciling',
		);
		assert.equal(
			withConditions([
				{ type: 'FetchFailed', status: 'True', reason: 'AuthenticationFailed' },
				{ type: 'Ready', status: 'False', reason: 'AuthenticationFailed' },
			]),
			'Failed',
		);
		assert.equal(
			withConditions([
				{ type: 'Stalled', status: 'True', reason: 'URLInvalid' },
				{ type: 'FetchFailed', status: 'True', reason: 'URLInvalid' },
				{ type: 'Ready', status: 'False', reason: 'URLInvalid' },
			]),
			'Stalled',
		);
	});
});

describe('Azure Service Operator proposal "Proposal for reporting resource Status"', () => {
	const withReady = (ready: Record<string, unknown>) =>
		computeStatus({
			apiVersion: 'resources.azure.com/v1api20200601',
			kind: 'ResourceGroup',
			metadata: { name: 'rg', generation: 1 },
			status: { conditions: [{ type: 'Ready', observedGeneration: 1, ...ready }] },
		});

	it('follows the reason table: Reconciling Info, WaitingForOwner Warning, Deleting Info, Succeeded none', () => {
		assert.deepEqual(
			[
				withReady({ status: 'False', severity: 'Info', reason: 'Reconciling' }),
				withReady({ status: 'False', severity: 'Warning', reason: 'WaitingForOwner' }),
				withReady({ status: 'False', severity: 'Info', reason: 'Deleting' }),
				withReady({ status: 'True', reason: 'Succeeded' }),
			].map((result) => [result.state, result.tone]),
			[
				['Reconciling', 'progressing'],
				['WaitingForOwner', 'warning'],
				['Deleting', 'progressing'],
				['Succeeded', 'ok'],
			],
		);
	});

	it('uses an Azure error code as the state, an error when the operator gave up (severity Error)', () => {
		const result = withReady({
			status: 'False',
			severity: 'Error',
			reason: 'InvalidResourceGroupLocation',
			message: 'The location is invalid',
		});
		assert.deepEqual(
			[result.state, result.tone, result.message],
			['InvalidResourceGroupLocation', 'error', 'The location is invalid'],
		);
		assert.equal(
			withReady({ status: 'False', severity: 'Warning', reason: 'InternalServerError' }).tone,
			'warning',
		);
	});
});

describe('harbor-operator docs "Harbor cluster controller" (docs/LCM/cluster-controller.md)', () => {
	const cluster = (conditions: Record<string, string>) =>
		computeStatus({
			apiVersion: 'goharbor.io/v1beta1',
			kind: 'HarborCluster',
			metadata: { name: 'h', namespace: 'h' },
			status: {
				conditions: Object.entries(conditions).map(([type, status]) => ({ type, status })),
			},
		});
	const four = {
		StorageReady: 'True',
		DatabaseReady: 'True',
		CacheReady: 'True',
		ServiceReady: 'True',
	};

	it('is healthy when the 4 conditions are all True', () => {
		assert.equal(cluster(four).state, 'healthy');
	});

	it('is unhealthy when at least one of the 4 is False', () => {
		assert.equal(cluster({ ...four, DatabaseReady: 'False' }).state, 'unhealthy');
	});

	// The docs call this state "creating"; the operator's code (harborcluster/status.go overallStatus) writes
	// "provisioning" and kubectl get shows that, so the state takes the word users see.
	it('is provisioning otherwise (the docs say creating)', () => {
		assert.equal(cluster({ StorageReady: 'True', DatabaseReady: 'True' }).state, 'provisioning');
	});

	it('leaves ConfigurationReady out of the combination', () => {
		assert.equal(cluster({ ...four, ConfigurationReady: 'False' }).state, 'healthy');
	});
});

describe('KubeStellar multi-WEC status proposal (kubestellar/kubestellar#2809)', () => {
	const policy = {
		apiVersion: 'policies.kubestellar.io/v1alpha1',
		kind: 'BindingPolicy',
		metadata: { name: 'multiwec-nginx' },
		spec: {
			clusterSelectors: [{ matchLabels: { location: 'edge' } }],
			downsync: [
				{
					objectSelectors: [{ matchLabels: { 'app.kubernetes.io/name': 'nginx-multi' } }],
					wantMultiWECReportedState: true,
				},
			],
		},
	};
	const deployment = {
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: {
			name: 'nginx',
			namespace: 'default',
			generation: 1,
			labels: { 'app.kubernetes.io/name': 'nginx-multi' },
		},
		spec: { replicas: 2 },
	};
	const copy = (ready: number, available: string, time: string) => ({
		observedGeneration: 1,
		replicas: 2,
		updatedReplicas: 2,
		readyReplicas: ready,
		availableReplicas: ready,
		conditions: [
			{
				type: 'Available',
				status: available,
				reason: 'MinimumReplicasAvailable',
				lastTransitionTime: time,
			},
		],
	});
	const wecs = [
		{ wec: 'edge1', object: { ...deployment, status: copy(2, 'True', '2025-11-01T12:30:00Z') } },
		{ wec: 'edge2', object: { ...deployment, status: copy(2, 'True', '2025-11-01T12:34:56Z') } },
	];
	const cluster = (name: string) => ({
		apiVersion: 'cluster.open-cluster-management.io/v1',
		kind: 'ManagedCluster',
		metadata: { name, labels: { location: 'edge' } },
	});

	it('merges the example policy (flag under the downsync rule) into the documented status, min across clusters', () => {
		const result = mergeWecStatuses(deployment, wecs, [policy, cluster('edge1'), cluster('edge2')]);
		assert.equal(result.mode, 'multi');
		const status = result.status;
		assert.deepEqual([status.replicas, status.readyReplicas, status.availableReplicas], [2, 2, 2]);
		const [available] = status.conditions as Record<string, unknown>[];
		assert.deepEqual(
			[available?.type, available?.status, available?.lastTransitionTime],
			['Available', 'True', '2025-11-01T12:34:56Z'],
		);
		assert.equal(result.health?.status, 'Healthy');
	});

	it('falls back to the singleton copy when only one WEC is bound', () => {
		const result = mergeWecStatuses(deployment, wecs.slice(0, 1), [policy, cluster('edge1')]);
		assert.equal(result.mode, 'singleton');
		assert.deepEqual(result.status, wecs[0]?.object.status);
	});
});
