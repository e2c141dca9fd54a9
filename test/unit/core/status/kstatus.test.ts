import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	augmentConditions,
	computeKstatus,
	kstatusConditions,
} from '../../../../src/core/status/kstatus.ts';

type Json = Record<string, unknown>;

function object(apiVersion: string, kind: string, fields: Json = {}): Json {
	return { apiVersion, kind, metadata: { name: 'x', namespace: 'ns', generation: 1 }, ...fields };
}

function deployment(spec: Json, status: Json): Json {
	return object('apps/v1', 'Deployment', { spec, status: { observedGeneration: 1, ...status } });
}

const healthyDeploymentStatus = {
	replicas: 2,
	updatedReplicas: 2,
	readyReplicas: 2,
	availableReplicas: 2,
	conditions: [
		{ type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
		{ type: 'Available', status: 'True' },
	],
};

describe('kstatus generic rules', () => {
	it('reports Terminating for an object with a deletionTimestamp, before anything else', () => {
		const result = computeKstatus({
			...object('v1', 'ConfigMap'),
			metadata: { deletionTimestamp: '2024-01-01T00:00:00Z', generation: 2 },
			status: { observedGeneration: 1 },
		});
		assert.deepEqual(result, { status: 'Terminating', message: 'Resource scheduled for deletion' });
	});

	it('reports InProgress while the controller has not observed the latest generation', () => {
		const result = computeKstatus({
			...object('example.com/v1', 'Widget'),
			metadata: { generation: 3 },
			status: { observedGeneration: 2, conditions: [{ type: 'Ready', status: 'True' }] },
		});
		assert.deepEqual(result, {
			status: 'InProgress',
			message: 'Widget generation is 3, but latest observed generation is 2',
			reason: 'LatestGenerationNotObserved',
		});
	});

	it('skips the generation check when status.observedGeneration is absent', () => {
		const result = computeKstatus({
			...object('example.com/v1', 'Widget'),
			metadata: { generation: 3 },
		});
		assert.deepEqual(result, { status: 'Current', message: 'Resource is current' });
	});

	it('uses Reconciling=True as InProgress with its reason and message', () => {
		const result = computeKstatus(
			object('example.com/v1', 'Widget', {
				status: {
					conditions: [
						{ type: 'Ready', status: 'True' },
						{ type: 'Reconciling', status: 'True', reason: 'Progressing', message: 'working' },
					],
				},
			}),
		);
		assert.deepEqual(result, { status: 'InProgress', message: 'working', reason: 'Progressing' });
	});

	it('uses Stalled=True as Failed with its message, even on a built-in kind', () => {
		const result = computeKstatus(
			deployment(
				{ replicas: 2 },
				{
					...healthyDeploymentStatus,
					conditions: [{ type: 'Stalled', status: 'True', reason: 'Broken', message: 'gave up' }],
				},
			),
		);
		assert.deepEqual(result, { status: 'Failed', message: 'gave up', reason: 'Broken' });
	});

	it('lets the first abnormal condition in list order win', () => {
		const result = computeKstatus(
			object('example.com/v1', 'Widget', {
				status: {
					conditions: [
						{ type: 'Stalled', status: 'True', reason: 'A', message: 'stalled' },
						{ type: 'Reconciling', status: 'True', reason: 'B', message: 'reconciling' },
					],
				},
			}),
		);
		assert.equal(result.status, 'Failed');
	});

	it('ignores Reconciling and Stalled conditions that are not True', () => {
		const result = computeKstatus(
			object('example.com/v1', 'Widget', {
				status: {
					conditions: [
						{ type: 'Stalled', status: 'False' },
						{ type: 'Reconciling', status: 'Unknown' },
					],
				},
			}),
		);
		assert.equal(result.status, 'Current');
	});
});

describe('kstatus Ready condition and default', () => {
	it('treats Ready=Unknown as InProgress, never Failed', () => {
		const result = computeKstatus(
			object('example.com/v1', 'Widget', {
				status: {
					conditions: [{ type: 'Ready', status: 'Unknown', reason: 'Waiting', message: 'hold on' }],
				},
			}),
		);
		assert.deepEqual(result, { status: 'InProgress', message: 'hold on', reason: 'Waiting' });
	});

	it('skips Ready conditions whose status is not True, False or Unknown', () => {
		const result = computeKstatus(
			object('example.com/v1', 'Widget', {
				status: {
					conditions: [
						{ type: 'Ready', status: 'Maybe' },
						{ type: 'Ready', status: 'True' },
					],
				},
			}),
		);
		assert.deepEqual(result, { status: 'Current', message: 'Resource is Ready' });
	});

	it('calls a custom resource without conditions Current', () => {
		assert.deepEqual(computeKstatus(object('example.com/v1', 'Widget')), {
			status: 'Current',
			message: 'Resource is current',
		});
	});

	it('does not apply kind rules when apiVersion has more than one slash', () => {
		const result = computeKstatus(object('apps/v1/extra', 'Deployment'));
		assert.deepEqual(result, { status: 'Current', message: 'Resource is current' });
	});

	it('does not register extensions/StatefulSet', () => {
		const result = computeKstatus(
			object('extensions/v1beta1', 'StatefulSet', { spec: { replicas: 3 } }),
		);
		assert.equal(result.message, 'Resource is current');
	});
});

describe('kstatus bad input', () => {
	const cases: readonly [string, unknown][] = [
		['null', null],
		['an array', [1, 2]],
		['a string', 'Pod'],
		['a number', 42],
		['a float generation', { ...object('v1', 'ConfigMap'), metadata: { generation: 1.5 } }],
		['a string generation', { ...object('v1', 'ConfigMap'), metadata: { generation: '1' } }],
		[
			'a null observedGeneration',
			{
				...object('v1', 'ConfigMap'),
				metadata: { generation: 1 },
				status: { observedGeneration: null },
			},
		],
		['metadata that is a string', { ...object('v1', 'ConfigMap'), metadata: 'oops' }],
		[
			'a numeric deletionTimestamp',
			{ ...object('v1', 'ConfigMap'), metadata: { deletionTimestamp: 5 } },
		],
		['status that is a list', object('v1', 'ConfigMap', { status: [] })],
		[
			'conditions that are a string',
			object('v1', 'ConfigMap', { status: { conditions: 'Ready' } }),
		],
		[
			'a condition with a numeric type',
			object('v1', 'ConfigMap', { status: { conditions: [{ type: 5 }] } }),
		],
		[
			'a condition that is a string',
			object('v1', 'ConfigMap', { status: { conditions: ['Ready'] } }),
		],
		['an unknown Pod phase', object('v1', 'Pod', { status: { phase: 'Exploded' } })],
		[
			'containerStatuses that are not a list',
			object('v1', 'Pod', { status: { phase: 'Running', containerStatuses: { a: 1 } } }),
		],
		[
			'a container state that is null',
			object('v1', 'Pod', {
				status: { phase: 'Running', containerStatuses: [{ name: 'a', state: null }] },
			}),
		],
	];
	for (const [name, input] of cases) {
		it(`gives Unknown with a message instead of throwing for ${name}`, () => {
			const result = computeKstatus(input);
			assert.equal(result.status, 'Unknown');
			assert.ok(result.message.length > 0);
			assert.deepEqual(kstatusConditions(input), []);
		});
	}

	it('says which field could not be read', () => {
		const result = computeKstatus({ ...object('v1', 'ConfigMap'), metadata: { generation: 1.5 } });
		assert.match(result.message, /metadata\.generation/);
	});

	it('quotes the offending value as Go prints it, as apimachinery accessor errors do', () => {
		const quoted = (generation: unknown) =>
			computeKstatus({ ...object('v1', 'ConfigMap'), metadata: { generation } }).message;
		assert.match(
			quoted('5'),
			/\.metadata\.generation accessor error: 5 is of the type string, expected int64$/,
		);
		assert.match(quoted(1.5), /: 1\.5 is of the type float64, expected int64$/);
		assert.match(quoted(null), /: <nil> is of the type <nil>, expected int64$/);
		assert.match(quoted({ b: 2, a: [1, 'x'] }), /: map\[a:\[1 x\] b:2\] is of the type map/);
	});

	it('names the unknown Pod phase', () => {
		const result = computeKstatus(object('v1', 'Pod', { status: { phase: 'Exploded' } }));
		assert.match(result.message, /unknown phase Exploded/);
	});

	it('reads a non-integer replica count as absent, like GetIntField', () => {
		// spec.replicas 1.5 falls back to the default of 1, so one replica is all that is wanted.
		const result = computeKstatus(
			deployment({ replicas: 1.5 }, { ...healthyDeploymentStatus, replicas: 1 }),
		);
		assert.deepEqual(result, {
			status: 'Current',
			message: 'Deployment is available. Replicas: 1',
		});
	});

	it('never throws on garbage in any field of any known kind', () => {
		const kinds: readonly [string, string][] = [
			['v1', 'Pod'],
			['v1', 'Service'],
			['v1', 'PersistentVolumeClaim'],
			['apps/v1', 'Deployment'],
			['apps/v1', 'StatefulSet'],
			['apps/v1', 'DaemonSet'],
			['apps/v1', 'ReplicaSet'],
			['batch/v1', 'Job'],
			['batch/v1', 'CronJob'],
			['policy/v1', 'PodDisruptionBudget'],
			['apiextensions.k8s.io/v1', 'CustomResourceDefinition'],
			['example.com/v1', 'Widget'],
		];
		const garbage: readonly unknown[] = [null, 'x', 7, 1.5, true, [], {}, [null], [1], { a: null }];
		for (const [apiVersion, kind] of kinds) {
			for (const value of garbage) {
				for (const field of ['metadata', 'spec', 'status']) {
					for (const input of [
						{ apiVersion, kind, [field]: value },
						{
							apiVersion,
							kind,
							status: { conditions: value, containerStatuses: value, phase: value },
						},
						{ apiVersion, kind, spec: { replicas: value, updateStrategy: value, suspend: value } },
					]) {
						const result = computeKstatus(input, { now: 0 });
						assert.equal(typeof result.status, 'string');
						assert.equal(typeof result.message, 'string');
						// Only an engine bug reaches the catch-all, which says "kstatus failed".
						assert.ok(!result.message.startsWith('kstatus failed'), result.message);
						assert.ok(Array.isArray(augmentConditions(input, { now: 0 })));
					}
				}
			}
		}
	});
});

describe('kstatus built-in kinds', () => {
	it('always calls Secrets, ConfigMaps and CronJobs ready', () => {
		for (const [apiVersion, kind] of [
			['v1', 'Secret'],
			['v1', 'ConfigMap'],
			['batch/v1', 'CronJob'],
		] as const) {
			assert.deepEqual(computeKstatus(object(apiVersion, kind)), {
				status: 'Current',
				message: 'Resource is always ready',
			});
		}
	});

	it('waits for a LoadBalancer Service to get a cluster IP, not an ingress', () => {
		const waiting = computeKstatus(object('v1', 'Service', { spec: { type: 'LoadBalancer' } }));
		assert.equal(waiting.reason, 'NoIPAssigned');
		const ready = computeKstatus(
			object('v1', 'Service', {
				spec: { type: 'LoadBalancer', clusterIP: '10.0.0.1' },
				status: {},
			}),
		);
		assert.deepEqual(ready, { status: 'Current', message: 'Service is ready' });
	});

	it('reports a PVC without a phase as not Bound with phase unknown', () => {
		assert.deepEqual(computeKstatus(object('v1', 'PersistentVolumeClaim')), {
			status: 'InProgress',
			message: 'PVC is not Bound. phase: unknown',
			reason: 'NotBound',
		});
	});

	it('calls a failed Pod Current: it has completed', () => {
		const result = computeKstatus(object('v1', 'Pod', { status: { phase: 'Failed' } }));
		assert.deepEqual(result, {
			status: 'Current',
			message: 'Pod has completed, but not successfully',
		});
	});

	it('calls a Running Pod with Ready=True Current', () => {
		const result = computeKstatus(
			object('v1', 'Pod', {
				status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
			}),
		);
		assert.equal(result.message, 'Pod is Ready');
	});

	it('fails a Running Pod whose containers crash-loop and names them in order', () => {
		const result = computeKstatus(
			object('v1', 'Pod', {
				status: {
					phase: 'Running',
					containerStatuses: [
						{ name: 'app', state: { waiting: { reason: 'CrashLoopBackOff' } } },
						{ name: 'ok', state: { running: {} } },
						{ name: 'sidecar', state: { waiting: { reason: 'CrashLoopBackOff' } } },
					],
				},
			}),
		);
		assert.deepEqual(result, {
			status: 'Failed',
			message: 'Containers in CrashLoop state: app,sidecar',
			reason: 'ContainerCrashLooping',
		});
	});

	it('gives an unschedulable Pod 15 seconds before calling it Failed', () => {
		const pod = {
			...object('v1', 'Pod', {
				status: {
					phase: 'Pending',
					conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
				},
			}),
			metadata: { name: 'p', creationTimestamp: '2024-01-01T00:00:00Z' },
		};
		const created = Date.parse('2024-01-01T00:00:00Z');
		assert.equal(computeKstatus(pod, { now: created + 14_000 }).reason, 'PodNotScheduled');
		assert.equal(computeKstatus(pod, { now: created + 16_000 }).reason, 'PodUnschedulable');
		assert.equal(computeKstatus(pod).status, 'Failed', 'no clock: created long ago');
	});

	it('reports a Pending Pod that is not unschedulable as PodPending', () => {
		const result = computeKstatus(object('v1', 'Pod', { status: { phase: 'Pending' } }));
		assert.equal(result.reason, 'PodPending');
	});

	it('calls a StatefulSet with the OnDelete strategy Current whatever its replicas', () => {
		const result = computeKstatus(
			object('apps/v1', 'StatefulSet', {
				spec: { replicas: 3, updateStrategy: { type: 'OnDelete' } },
			}),
		);
		assert.equal(result.message, 'StatefulSet is using the ondelete update strategy');
	});

	it('follows a partitioned StatefulSet rollout until the pods above the partition are updated', () => {
		const sts = (updatedReplicas: number) =>
			object('apps/v1', 'StatefulSet', {
				spec: {
					replicas: 3,
					updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
				},
				status: {
					observedGeneration: 1,
					replicas: 3,
					readyReplicas: 3,
					updatedReplicas,
					currentReplicas: 1,
				},
			});
		assert.deepEqual(computeKstatus(sts(1)), {
			status: 'InProgress',
			message: 'updated: 1/2',
			reason: 'PartitionRollout',
		});
		assert.deepEqual(computeKstatus(sts(2)), {
			status: 'Current',
			message: 'Partition rollout complete. updated: 2',
		});
	});

	it('waits for StatefulSet revisions to match and counts extra pods', () => {
		const base = { observedGeneration: 1, replicas: 2, readyReplicas: 2, currentReplicas: 2 };
		const mismatch = computeKstatus(
			object('apps/v1', 'StatefulSet', {
				spec: { replicas: 2 },
				status: { ...base, currentRevision: 'a', updateRevision: 'b' },
			}),
		);
		assert.equal(mismatch.reason, 'RevisionMismatch');
		const extra = computeKstatus(
			object('apps/v1', 'StatefulSet', {
				spec: { replicas: 1 },
				status: { ...base, readyReplicas: 2 },
			}),
		);
		assert.deepEqual(extra, {
			status: 'InProgress',
			message: 'Pending termination: 1',
			reason: 'ExtraPods',
		});
		const done = computeKstatus(
			object('apps/v1', 'StatefulSet', {
				spec: { replicas: 2 },
				status: { ...base, currentRevision: 'a', updateRevision: 'a' },
			}),
		);
		assert.equal(done.message, 'All replicas scheduled as expected. Replicas: 2');
	});

	it('fails a Deployment whose progress deadline was exceeded, keeping the condition message on Stalled', () => {
		const input = deployment(
			{ replicas: 2, progressDeadlineSeconds: 600 },
			{
				...healthyDeploymentStatus,
				conditions: [
					{
						type: 'Progressing',
						status: 'False',
						reason: 'ProgressDeadlineExceeded',
						message: 'ReplicaSet "web-1" has timed out progressing.',
					},
				],
			},
		);
		assert.deepEqual(computeKstatus(input), {
			status: 'Failed',
			message: 'Progress deadline exceeded',
			reason: 'ProgressDeadlineExceeded',
		});
		assert.deepEqual(kstatusConditions(input), [
			{
				type: 'Stalled',
				status: 'True',
				reason: 'ProgressDeadlineExceeded',
				message: 'ReplicaSet "web-1" has timed out progressing.',
			},
		]);
	});

	it('reports Deployment replica shortfalls in kstatus order', () => {
		const cases: readonly [Json, string, string][] = [
			[{ replicas: 2, updatedReplicas: 1 }, 'LessUpdated', 'Updated: 1/2'],
			[{ replicas: 3 }, 'ExtraPods', 'Pending termination: 1'],
			[{ availableReplicas: 1 }, 'LessAvailable', 'Available: 1/2'],
			[{ readyReplicas: 1 }, 'LessReady', 'Ready: 1/2'],
		];
		for (const [status, reason, message] of cases) {
			const result = computeKstatus(
				deployment({ replicas: 2 }, { ...healthyDeploymentStatus, ...status }),
			);
			assert.deepEqual(result, { status: 'InProgress', message, reason });
		}
	});

	it('needs NewReplicaSetAvailable when a progress deadline is set, and Available=True', () => {
		const noProgress = computeKstatus(
			deployment(
				{ replicas: 2, progressDeadlineSeconds: 600 },
				{ ...healthyDeploymentStatus, conditions: [{ type: 'Available', status: 'True' }] },
			),
		);
		assert.equal(noProgress.reason, 'ReplicaSetNotAvailable');
		const noDeadline = computeKstatus(
			deployment(
				{ replicas: 2 },
				{ ...healthyDeploymentStatus, conditions: [{ type: 'Available', status: 'True' }] },
			),
		);
		assert.equal(noDeadline.message, 'Deployment is available. Replicas: 2');
		const unavailable = computeKstatus(
			deployment({ replicas: 2 }, { ...healthyDeploymentStatus, conditions: [] }),
		);
		assert.equal(unavailable.reason, 'DeploymentNotAvailable');
	});

	it('applies the Deployment rules to extensions/v1beta1 too', () => {
		const result = computeKstatus(object('extensions/v1beta1', 'Deployment', { status: {} }));
		assert.equal(result.reason, 'LessReplicas');
	});

	it('keeps a ReplicaSet with ReplicaFailure InProgress, not Failed', () => {
		const result = computeKstatus(
			object('apps/v1', 'ReplicaSet', {
				status: { conditions: [{ type: 'ReplicaFailure', status: 'True' }] },
			}),
		);
		assert.deepEqual(result, {
			status: 'InProgress',
			message: 'Replica Failure condition. Check Pods',
			reason: 'ReplicaFailure',
		});
	});

	it('reports ReplicaSet availability before readiness', () => {
		const result = computeKstatus(
			object('apps/v1', 'ReplicaSet', {
				spec: { replicas: 3 },
				status: { fullyLabeledReplicas: 3, availableReplicas: 1, readyReplicas: 0 },
			}),
		);
		assert.equal(result.message, 'Available: 1/3');
	});

	it('requires a DaemonSet to carry both generations', () => {
		const noGeneration = computeKstatus({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: {} });
		assert.deepEqual(noGeneration, {
			status: 'InProgress',
			message: 'DaemonSet metadata.generation not found',
			reason: 'NoGeneration',
		});
	});

	it('reports DaemonSet pods not yet scheduled, then not updated', () => {
		const ds = (status: Json) =>
			object('apps/v1', 'DaemonSet', {
				status: { observedGeneration: 1, desiredNumberScheduled: 3, ...status },
			});
		assert.equal(computeKstatus(ds({ currentNumberScheduled: 2 })).message, 'Current: 2/3');
		assert.equal(
			computeKstatus(ds({ currentNumberScheduled: 3, updatedNumberScheduled: 1 })).message,
			'Updated: 1/3',
		);
	});

	it('calls an observed PodDisruptionBudget Current', () => {
		const result = computeKstatus(
			object('policy/v1', 'PodDisruptionBudget', { status: { observedGeneration: 1 } }),
		);
		assert.equal(result.message, 'AllowedDisruptions has been computed.');
	});

	it('calls a running Job Current, and a Job that has not started InProgress', () => {
		const running = computeKstatus(
			object('batch/v1', 'Job', { status: { startTime: '2024-01-01T00:00:00Z', active: 1 } }),
		);
		assert.deepEqual(running, {
			status: 'Current',
			message: 'Job in progress. success:0, active: 1, failed: 0',
		});
		assert.equal(computeKstatus(object('batch/v1', 'Job')).reason, 'JobNotStarted');
	});

	it('defaults Job completions to parallelism in the completed message', () => {
		const result = computeKstatus(
			object('batch/v1', 'Job', {
				spec: { parallelism: 3 },
				status: { succeeded: 3, conditions: [{ type: 'Complete', status: 'True' }] },
			}),
		);
		assert.equal(result.message, 'Job Completed. succeeded: 3/3');
	});

	it('calls a Job suspended only when both spec.suspend and Suspended=True say so', () => {
		const job = (suspend: boolean, status: string) =>
			object('batch/v1', 'Job', {
				spec: { suspend },
				status: { conditions: [{ type: 'Suspended', status }] },
			});
		assert.deepEqual(computeKstatus(job(true, 'True')), {
			status: 'Current',
			message: 'Job is suspended',
		});
		assert.equal(computeKstatus(job(false, 'True')).reason, 'JobNotStarted');
		assert.equal(computeKstatus(job(true, 'False')).reason, 'JobNotStarted');
	});

	it('fails a Job with Failed=True', () => {
		const result = computeKstatus(
			object('batch/v1', 'Job', {
				spec: { completions: 2 },
				status: { failed: 2, conditions: [{ type: 'Failed', status: 'True' }] },
			}),
		);
		assert.deepEqual(result, {
			status: 'Failed',
			message: 'Job Failed. failed: 2/2',
			reason: 'JobFailed',
		});
	});

	it('calls an established CRD Current and a rejected one Failed with the condition reason', () => {
		const crd = (conditions: Json[]) =>
			object('apiextensions.k8s.io/v1', 'CustomResourceDefinition', { status: { conditions } });
		assert.equal(
			computeKstatus(crd([{ type: 'Established', status: 'True' }])).message,
			'CRD is established',
		);
		assert.deepEqual(
			computeKstatus(
				crd([{ type: 'Established', status: 'False', reason: 'Broken', message: 'no' }]),
			),
			{ status: 'Failed', message: 'no', reason: 'Broken' },
		);
	});
});

describe('kstatus Augment', () => {
	const now = Date.parse('2024-06-01T12:00:00.500Z');
	const stamp = '2024-06-01T12:00:00Z';

	it('appends the standard condition with the caller clock as timestamps', () => {
		const conditions = augmentConditions(object('v1', 'Pod', { status: { phase: 'Pending' } }), {
			now,
		});
		assert.deepEqual(conditions, [
			{
				type: 'Reconciling',
				status: 'True',
				reason: 'PodPending',
				message: 'Pod is in the Pending phase',
				lastTransitionTime: stamp,
				lastUpdateTime: stamp,
			},
		]);
	});

	it('refreshes an existing Reconciling=True condition, keeping its reason and lastTransitionTime', () => {
		const old = '2020-01-01T00:00:00Z';
		const conditions = augmentConditions(
			object('v1', 'Pod', {
				status: {
					phase: 'Pending',
					conditions: [
						{
							type: 'Reconciling',
							status: 'True',
							reason: 'Old',
							lastTransitionTime: old,
							lastUpdateTime: old,
						},
					],
				},
			}),
			{ now },
		);
		// The generic rules take the existing Reconciling=True condition as the verdict.
		assert.equal(conditions.length, 1);
		assert.equal(conditions[0]?.reason, 'Old');
		assert.equal(conditions[0]?.lastTransitionTime, old);
		assert.equal(conditions[0]?.lastUpdateTime, stamp);
	});

	it('stamps lastTransitionTime when the status of the matching condition changes', () => {
		const conditions = augmentConditions(
			object('v1', 'Pod', {
				status: { phase: 'Pending', conditions: [{ type: 'Reconciling', status: 'False' }] },
			}),
			{ now },
		);
		assert.equal(conditions[0]?.status, 'True');
		assert.equal(conditions[0]?.lastTransitionTime, stamp);
	});

	it('adds no timestamps without a clock', () => {
		const conditions = augmentConditions(object('v1', 'Pod', { status: { phase: 'Pending' } }));
		assert.equal(conditions[0]?.lastTransitionTime, undefined);
		assert.equal(conditions[0]?.lastUpdateTime, undefined);
	});

	it('leaves the conditions alone for a Current object', () => {
		const existing = [{ type: 'Ready', status: 'True' }];
		const conditions = augmentConditions(
			object('v1', 'ConfigMap', { status: { conditions: existing } }),
		);
		assert.deepEqual(conditions, existing);
	});

	it('leaves the conditions alone when Compute fails', () => {
		const existing = [{ type: 'Ready', status: 'False' }];
		const conditions = augmentConditions(
			object('v1', 'Pod', { status: { phase: 'Weird', conditions: existing } }),
		);
		assert.deepEqual(conditions, existing);
	});

	it('leaves the conditions alone when a matching condition has a non-string status', () => {
		const existing = [{ type: 'Reconciling', status: true }];
		const conditions = augmentConditions(
			object('v1', 'Pod', { status: { phase: 'Pending', conditions: existing } }),
		);
		assert.deepEqual(conditions, [{ type: 'Reconciling', status: 'True' }]);
	});
});

describe('kstatus errors', () => {
	it('shows the error Compute returns as kstatus prints it, with no prefix of ours', () => {
		const pod = object('v1', 'Pod', { status: { phase: 'Sleeping' } });
		assert.deepEqual(computeKstatus(pod), { status: 'Unknown', message: 'unknown phase Sleeping' });
	});
});
