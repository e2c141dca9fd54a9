import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeKubestellarStatuses } from '../../../../src/core/merge/kubestellarRules.ts';
import {
	labelSelectorVerdict,
	reportedStateRequestOf,
	resourceOfKind,
	workloadIdentityOf,
} from '../../../../src/core/merge/mergeMode.ts';
import { mergeProposalStatuses, timestampMillis } from '../../../../src/core/merge/mergeRules.ts';
import {
	mergeWecStatuses,
	normalisedStatusOf,
	wecCopiesOf,
} from '../../../../src/core/merge/wecMerge.ts';

type Status = Record<string, unknown>;

const singletonLabel = 'managed-by.kubestellar.io/singletonstatus';
const multiLabel = 'managed-by.kubestellar.io/multiwecstatus';

function workloadOf(
	kind: string,
	apiVersion: string,
	extra: {
		labels?: Record<string, string>;
		status?: unknown;
		generation?: number;
		namespace?: string;
	} = {},
): Record<string, unknown> {
	return {
		apiVersion,
		kind,
		metadata: {
			name: 'web',
			namespace: extra.namespace ?? 'shop',
			generation: extra.generation ?? 1,
			labels: { 'app.kubernetes.io/name': 'web', ...extra.labels },
		},
		spec: kind === 'Deployment' ? { replicas: 2 } : {},
		...(extra.status === undefined ? {} : { status: extra.status }),
	};
}

const deployment = (extra: Parameters<typeof workloadOf>[2] = {}): Record<string, unknown> =>
	workloadOf('Deployment', 'apps/v1', extra);

function workStatus(
	wec: string,
	status: unknown,
	ref: Partial<Record<string, string>> = {},
): Record<string, unknown> {
	return {
		apiVersion: 'control.kubestellar.io/v1alpha1',
		kind: 'WorkStatus',
		metadata: { name: `uid-appsv1-deployment-shop-web`, namespace: wec },
		spec: {
			sourceRef: {
				group: 'apps',
				version: 'v1',
				resource: 'deployments',
				kind: 'Deployment',
				name: 'web',
				namespace: 'shop',
				...ref,
			},
		},
		...(status === undefined ? {} : { status }),
	};
}

function condition(
	type: string,
	status: string,
	time: string,
	reason?: string,
	message?: string,
): Record<string, unknown> {
	return {
		type,
		status,
		lastTransitionTime: time,
		...(reason === undefined ? {} : { reason }),
		...(message === undefined ? {} : { message }),
	};
}

function readyDeploymentStatus(ready = 2, extra: Status = {}): Status {
	return {
		observedGeneration: 1,
		replicas: 2,
		updatedReplicas: 2,
		readyReplicas: ready,
		availableReplicas: ready,
		conditions: [
			condition(
				'Available',
				ready === 2 ? 'True' : 'False',
				'2025-11-01T12:00:00Z',
				ready === 2 ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
				ready === 2
					? 'Deployment has minimum availability.'
					: 'Deployment does not have minimum availability.',
			),
		],
		...extra,
	};
}

/** Merge of raw statuses keyed by WEC, no policy (multi-WEC flag on). */
function mergeOf(
	workload: Record<string, unknown>,
	statuses: Record<string, unknown>,
	rules: 'proposal' | 'kubestellar' = 'proposal',
): ReturnType<typeof mergeWecStatuses> {
	const perWec = Object.entries(statuses).map(([wec, status]) => ({ wec, object: { status } }));
	return mergeWecStatuses(workload, perWec, null, rules);
}

function conditionOf(status: Status, type: string): Record<string, unknown> | undefined {
	return (status.conditions as Record<string, unknown>[] | undefined)?.find(
		(entry) => entry.type === type,
	);
}

describe('proposal rules: Deployment (multi-WEC status proposal §3)', () => {
	it('takes the least ready counts and the minimum observedGeneration, naming the WEC that decided', () => {
		const result = mergeOf(deployment(), {
			east: readyDeploymentStatus(2, { observedGeneration: 3 }),
			west: readyDeploymentStatus(1, { observedGeneration: 2 }),
		});
		assert.equal(result.mode, 'multi');
		assert.equal(result.status.readyReplicas, 1);
		assert.equal(result.status.availableReplicas, 1);
		assert.equal(result.status.observedGeneration, 2);
		assert.deepEqual(result.provenance.readyReplicas?.wecs, ['west']);
		assert.equal(result.provenance.readyReplicas?.rule, 'min');
		assert.match(
			result.provenance.readyReplicas?.source ?? '',
			/KubeStellar multi-WEC status proposal \(kubestellar#2809\) §3 Deployment/,
		);
		assert.deepEqual(result.provenance.replicas?.wecs, ['east', 'west']);
	});

	it('counts a counter Kubernetes omitted (zero) as 0, not as missing', () => {
		const {
			readyReplicas: _ready,
			availableReplicas: _available,
			...noneReady
		} = readyDeploymentStatus(0);
		const result = mergeOf(deployment(), { east: readyDeploymentStatus(2), west: noneReady });
		assert.equal(result.status.readyReplicas, 0);
		assert.equal(result.status.availableReplicas, 0);
		assert.deepEqual(result.provenance.readyReplicas?.wecs, ['west']);
		assert.deepEqual(result.provenance.readyReplicas?.absentIn, ['west']);
		assert.match(result.provenance.readyReplicas?.detail ?? '', /absent value counts as 0/);
	});

	it('takes the worst unavailableReplicas (max), absent counting as 0', () => {
		const result = mergeOf(deployment(), {
			east: readyDeploymentStatus(2),
			west: readyDeploymentStatus(1, { unavailableReplicas: 1 }),
		});
		assert.equal(result.status.unavailableReplicas, 1);
		assert.equal(result.provenance.unavailableReplicas?.rule, 'max');
		assert.deepEqual(result.provenance.unavailableReplicas?.wecs, ['west']);
	});

	it('reproduces the proposal example where its rules determine it', () => {
		const wec = {
			replicas: 2,
			readyReplicas: 2,
			availableReplicas: 2,
			conditions: [
				condition(
					'Available',
					'True',
					'2025-11-01T12:34:56Z',
					'MinimumReplicasAvailable',
					'Deployment has minimum availability.',
				),
			],
		};
		const older = {
			...wec,
			conditions: [
				condition(
					'Available',
					'True',
					'2025-10-30T08:00:00Z',
					'MinimumReplicasAvailable',
					'Deployment has minimum availability.',
				),
			],
		};
		const result = mergeOf(deployment(), { cluster1: older, cluster2: wec });
		assert.equal(result.status.replicas, 2);
		assert.equal(result.status.readyReplicas, 2);
		assert.equal(result.status.availableReplicas, 2);
		const available = conditionOf(result.status, 'Available');
		assert.equal(available?.status, 'True');
		assert.equal(available?.lastTransitionTime, '2025-11-01T12:34:56Z');
		// The proposal's reason AggregatedAllClustersReady is illustrative; the rules take the WEC's own reason.
		assert.equal(available?.reason, 'MinimumReplicasAvailable');
		assert.equal(available?.message, 'cluster2: Deployment has minimum availability.');
	});
});

describe('proposal rules: other known kinds (multi-WEC status proposal §3)', () => {
	it('StatefulSet: min of the counts, revisions kept only when every WEC agrees', () => {
		const result = mergeOf(workloadOf('StatefulSet', 'apps/v1'), {
			a: {
				replicas: 3,
				readyReplicas: 3,
				currentReplicas: 3,
				updatedReplicas: 3,
				availableReplicas: 3,
				currentRevision: 'web-1',
				updateRevision: 'web-2',
			},
			b: {
				replicas: 3,
				readyReplicas: 2,
				currentReplicas: 1,
				updatedReplicas: 2,
				currentRevision: 'web-1',
				updateRevision: 'web-3',
			},
		});
		assert.equal(result.status.readyReplicas, 2);
		assert.equal(result.status.currentReplicas, 1);
		assert.equal(result.status.updatedReplicas, 2);
		assert.equal(result.status.availableReplicas, 0, 'absent availableReplicas counts as 0');
		assert.equal(result.status.currentRevision, 'web-1');
		assert.equal(result.provenance.currentRevision?.rule, 'same-value');
		assert.equal('updateRevision' in result.status, false);
		assert.equal(result.provenance.updateRevision?.rule, 'omitted');
	});

	it('DaemonSet: min of scheduled/ready/available, max of unavailable and misscheduled', () => {
		const result = mergeOf(workloadOf('DaemonSet', 'apps/v1'), {
			a: {
				currentNumberScheduled: 5,
				desiredNumberScheduled: 5,
				numberReady: 5,
				numberAvailable: 5,
				updatedNumberScheduled: 5,
				numberMisscheduled: 0,
			},
			b: {
				currentNumberScheduled: 3,
				desiredNumberScheduled: 4,
				numberReady: 2,
				numberAvailable: 2,
				numberUnavailable: 2,
				numberMisscheduled: 1,
				updatedNumberScheduled: 4,
			},
		});
		assert.equal(result.status.currentNumberScheduled, 3);
		assert.equal(result.status.desiredNumberScheduled, 4);
		assert.equal(result.status.numberReady, 2);
		assert.equal(result.status.numberAvailable, 2);
		assert.equal(result.status.updatedNumberScheduled, 4);
		assert.equal(result.status.numberUnavailable, 2);
		assert.equal(result.status.numberMisscheduled, 1);
		assert.equal(result.provenance.numberMisscheduled?.rule, 'max');
		assert.match(result.provenance.numberUnavailable?.source ?? '', /issue 7/);
	});

	it('ReplicaSet: min of the counts, fullyLabeledReplicas absent counting as 0', () => {
		const result = mergeOf(workloadOf('ReplicaSet', 'apps/v1'), {
			a: { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3 },
			b: { replicas: 3, readyReplicas: 1, availableReplicas: 1 },
		});
		assert.deepEqual(
			{ ...result.status },
			{ replicas: 3, fullyLabeledReplicas: 0, readyReplicas: 1, availableReplicas: 1 },
		);
	});

	it('Job: min of active, succeeded and failed (absent = 0); Complete stays Unknown until every WEC completes', () => {
		const result = mergeOf(workloadOf('Job', 'batch/v1'), {
			a: {
				succeeded: 1,
				startTime: '2025-11-01T10:00:00Z',
				completionTime: '2025-11-01T10:01:00Z',
				conditions: [
					condition(
						'Complete',
						'True',
						'2025-11-01T10:01:00Z',
						'CompletionsReached',
						'Reached expected number of succeeded pods',
					),
				],
			},
			b: { active: 1, startTime: '2025-11-01T10:00:30Z' },
		});
		assert.equal(result.status.active, 0);
		assert.equal(result.status.succeeded, 0);
		assert.equal('failed' in result.status, false, 'absent in every WEC stays absent');
		assert.equal(result.status.startTime, '2025-11-01T10:00:30Z');
		const complete = conditionOf(result.status, 'Complete');
		assert.equal(complete?.status, 'Unknown');
		assert.equal(complete?.reason, 'NotReportedByAllWECs');
		assert.equal(complete?.message, 'Complete is not reported by b; True in a');
		assert.deepEqual(result.provenance['conditions[type=Complete].reason']?.wecs, ['b']);
	});

	it('CronJob: lastScheduleTime and lastSuccessfulTime the latest, active jobs matched by name', () => {
		const result = mergeOf(workloadOf('CronJob', 'batch/v1'), {
			a: {
				lastScheduleTime: '2025-11-01T10:00:00Z',
				lastSuccessfulTime: '2025-11-01T09:00:10Z',
				active: [{ kind: 'Job', name: 'report-29000', namespace: 'shop', uid: 'u1' }],
			},
			b: {
				lastScheduleTime: '2025-11-01T11:00:00Z',
				lastSuccessfulTime: '2025-11-01T10:00:12Z',
				active: [{ kind: 'Job', name: 'report-29060', namespace: 'shop', uid: 'u2' }],
			},
		});
		assert.equal(result.status.lastScheduleTime, '2025-11-01T11:00:00Z');
		assert.equal(result.provenance.lastScheduleTime?.rule, 'latest');
		assert.deepEqual(result.provenance.lastScheduleTime?.wecs, ['b']);
		assert.match(result.provenance.lastScheduleTime?.source ?? '', /CronJob/);
		assert.equal(result.status.lastSuccessfulTime, '2025-11-01T10:00:12Z');
		assert.deepEqual(
			(result.status.active as Record<string, unknown>[]).map((job) => job.name),
			['report-29000', 'report-29060'],
		);
		assert.deepEqual(result.provenance['active[name=report-29000]']?.absentIn, ['b']);
		assert.equal('uid' in ((result.status.active as Record<string, unknown>[])[0] ?? {}), true);
	});
});

describe('proposal rules: Pod phase priority (multi-WEC status proposal §3 Pod)', () => {
	const pod = workloadOf('Pod', 'v1');
	const cases: readonly [readonly string[], string][] = [
		[['Running', 'Failed'], 'Failed'],
		[['Running', 'Unknown'], 'Unknown'],
		[['Failed', 'Unknown'], 'Failed'],
		[['Running', 'Succeeded'], 'Running'],
		[['Running', 'Pending'], 'Running'],
		[['Succeeded', 'Pending'], 'Succeeded'],
		[['Pending', 'Pending'], 'Pending'],
	];
	for (const [phases, expected] of cases) {
		it(`${phases.join(' + ')} gives ${expected}`, () => {
			const statuses = Object.fromEntries(phases.map((phase, index) => [`wec${index}`, { phase }]));
			const result = mergeOf(pod, statuses);
			assert.equal(result.status.phase, expected);
			assert.equal(result.provenance.phase?.rule, 'phase-priority');
		});
	}

	it('counts an unrecognised phase as Unknown and says so', () => {
		const result = mergeOf(pod, { a: { phase: 'Running' }, b: { phase: 'Exploded' } });
		assert.equal(result.status.phase, 'Unknown');
		assert.ok(result.notes.some((note) => note.includes('unrecognised phase in b')));
	});

	it('matches container statuses by name: ready all-true, restartCount the worst', () => {
		const result = mergeOf(pod, {
			a: {
				phase: 'Running',
				containerStatuses: [{ name: 'app', ready: true, restartCount: 0, image: 'nginx:1' }],
			},
			b: {
				phase: 'Running',
				containerStatuses: [{ name: 'app', ready: false, restartCount: 4, image: 'nginx:1' }],
			},
		});
		const [container] = result.status.containerStatuses as Record<string, unknown>[];
		assert.deepEqual(container, { name: 'app', ready: false, restartCount: 4, image: 'nginx:1' });
		assert.equal(result.provenance['containerStatuses[name=app].ready']?.rule, 'all-true');
		assert.deepEqual(result.provenance['containerStatuses[name=app].ready']?.wecs, ['b']);
		assert.equal(result.provenance['containerStatuses[name=app].restartCount']?.rule, 'max');
	});
});

describe('proposal rules: generic kinds (multi-WEC status proposal §3 Case 2)', () => {
	const custom = workloadOf('Widget', 'example.com/v1');

	it('merges numbers by min, booleans by all-true, equal strings, nested maps and keyed lists', () => {
		const result = mergeOf(custom, {
			a: {
				observedGeneration: 4,
				ready: true,
				size: 3,
				phase: 'Ready',
				endpoint: { host: 'a.example', port: 443, healthy: true },
				members: [
					{ name: 'm1', up: 5 },
					{ name: 'm2', up: 7 },
				],
			},
			b: {
				observedGeneration: 3,
				ready: false,
				size: 5,
				phase: 'Ready',
				endpoint: { host: 'b.example', port: 443, healthy: true },
				members: [{ name: 'm1', up: 2 }],
			},
		});
		assert.equal(result.status.observedGeneration, 3);
		assert.equal(result.status.ready, false);
		assert.deepEqual(result.provenance.ready?.wecs, ['b']);
		assert.equal(result.status.size, 3);
		assert.equal(result.status.phase, 'Ready');
		assert.deepEqual(result.status.endpoint, { port: 443, healthy: true });
		assert.equal(result.provenance['endpoint.host']?.rule, 'omitted');
		assert.deepEqual(result.status.members, [
			{ name: 'm1', up: 2 },
			{ name: 'm2', up: 7 },
		]);
		assert.deepEqual(result.provenance['members[name=m2]']?.absentIn, ['b']);
	});

	it('leaves out a field whose type differs between WECs, naming them', () => {
		const result = mergeOf(custom, { a: { size: 3 }, b: { size: 'large' } });
		assert.equal('size' in result.status, false);
		assert.equal(result.provenance.size?.rule, 'omitted');
		assert.ok(
			result.notes.some(
				(note) =>
					note.includes('size') && note.includes('number in a') && note.includes('string in b'),
			),
		);
	});

	it('keeps unkeyed lists only when identical everywhere', () => {
		const same = mergeOf(custom, { a: { tags: ['x', 'y'] }, b: { tags: ['x', 'y'] } });
		assert.deepEqual(same.status.tags, ['x', 'y']);
		const differ = mergeOf(custom, { a: { tags: ['x'] }, b: { tags: ['y'] } });
		assert.equal('tags' in differ.status, false);
	});

	it('counts an absent observedGeneration as 0 (not yet observed)', () => {
		const result = mergeOf(custom, { a: { observedGeneration: 2 }, b: { size: 1 } });
		assert.equal(result.status.observedGeneration, 0);
	});

	it('merges the conditions of any kind with three-valued logic', () => {
		const result = mergeOf(custom, {
			a: { conditions: [condition('Ready', 'True', '2025-11-01T10:00:00Z', 'Ok', 'fine')] },
			b: {
				conditions: [condition('Ready', 'False', '2025-11-01T09:00:00Z', 'Broken', 'disk full')],
			},
		});
		const ready = conditionOf(result.status, 'Ready');
		assert.deepEqual(ready, {
			type: 'Ready',
			status: 'False',
			lastTransitionTime: '2025-11-01T10:00:00Z',
			reason: 'Broken',
			message: 'b: disk full',
		});
	});
});

describe('three-valued condition logic', () => {
	const cases: readonly [readonly (string | null)[], string][] = [
		[['True', 'True', 'True'], 'True'],
		[['True', 'False', 'True'], 'False'],
		[['Unknown', 'False'], 'False'],
		[['True', 'Unknown'], 'Unknown'],
		[['Unknown', 'Unknown'], 'Unknown'],
		[['True', null], 'Unknown'],
		[['False', null], 'False'],
	];
	for (const [statuses, expected] of cases) {
		it(`${statuses.map((status) => status ?? 'missing').join(' + ')} gives ${expected}`, () => {
			const entries = statuses.map((status, index) => ({
				wec: `wec${index}`,
				status:
					status === null
						? {}
						: { conditions: [condition('Ready', status, '2025-11-01T10:00:00Z', `R${index}`)] },
			}));
			const merged = mergeProposalStatuses('example.com', 'Widget', entries);
			assert.equal(conditionOf(merged.status, 'Ready')?.status, expected);
		});
	}

	it('counts a status that is not True/False as Unknown', () => {
		const merged = mergeProposalStatuses('example.com', 'Widget', [
			{ wec: 'a', status: { conditions: [{ type: 'Ready', status: 'True' }] } },
			{ wec: 'b', status: { conditions: [{ type: 'Ready', status: 'Maybe' }] } },
		]);
		assert.equal(conditionOf(merged.status, 'Ready')?.status, 'Unknown');
	});

	it('keeps the order conditions first appear in, WECs taken by name', () => {
		const merged = mergeProposalStatuses('example.com', 'Widget', [
			{
				wec: 'a',
				status: {
					conditions: [
						{ type: 'Ready', status: 'True' },
						{ type: 'Synced', status: 'True' },
					],
				},
			},
			{
				wec: 'b',
				status: {
					conditions: [
						{ type: 'Stalled', status: 'False' },
						{ type: 'Ready', status: 'True' },
					],
				},
			},
		]);
		assert.deepEqual(
			(merged.status.conditions as Record<string, unknown>[]).map((entry) => entry.type),
			['Ready', 'Synced', 'Stalled'],
		);
	});

	it('uses the first of a type repeated within one WEC, with a note', () => {
		const merged = mergeProposalStatuses('example.com', 'Widget', [
			{
				wec: 'a',
				status: {
					conditions: [
						{ type: 'Ready', status: 'True' },
						{ type: 'Ready', status: 'False' },
					],
				},
			},
			{ wec: 'b', status: { conditions: [{ type: 'Ready', status: 'True' }] } },
		]);
		assert.equal(conditionOf(merged.status, 'Ready')?.status, 'True');
		assert.ok(merged.notes.some((note) => note.includes('a (Ready)')));
	});
});

describe('condition reason, message and timestamps', () => {
	it('takes reason and message from the most recent condition among WECs with the merged status, naming it', () => {
		const result = mergeOf(deployment(), {
			a: {
				conditions: [
					condition(
						'Available',
						'False',
						'2025-11-01T09:00:00Z',
						'MinimumReplicasUnavailable',
						'old failure',
					),
				],
			},
			b: {
				conditions: [
					condition(
						'Available',
						'True',
						'2025-11-01T12:00:00Z',
						'MinimumReplicasAvailable',
						'fine',
					),
				],
			},
			c: {
				conditions: [
					condition(
						'Available',
						'False',
						'2025-11-01T10:00:00Z',
						'MinimumReplicasUnavailable',
						'new failure',
					),
				],
			},
		});
		const available = conditionOf(result.status, 'Available');
		assert.equal(available?.status, 'False');
		assert.equal(available?.reason, 'MinimumReplicasUnavailable');
		assert.equal(available?.message, 'c: new failure');
		// The timestamp is the latest across every WEC, whatever its status (proposal §3 Timestamps).
		assert.equal(available?.lastTransitionTime, '2025-11-01T12:00:00Z');
		assert.deepEqual(result.provenance['conditions[type=Available].lastTransitionTime']?.wecs, [
			'b',
		]);
		// The proposal's literal rule would have taken the True condition's reason: shown, not used.
		assert.deepEqual(result.provenance['conditions[type=Available].reason']?.proposalPick, {
			wec: 'b',
			reason: 'MinimumReplicasAvailable',
			message: 'fine',
		});
		assert.equal(
			result.provenance['conditions[type=Available].message']?.rule,
			'from-merged-status',
		);
	});

	it('shows no proposal pick when the proposal would pick the same', () => {
		const result = mergeOf(deployment(), {
			a: {
				conditions: [
					condition('Available', 'True', '2025-11-01T09:00:00Z', 'MinimumReplicasAvailable', 'ok'),
				],
			},
			b: {
				conditions: [
					condition('Available', 'True', '2025-11-01T12:00:00Z', 'MinimumReplicasAvailable', 'ok'),
				],
			},
		});
		assert.equal(result.provenance['conditions[type=Available].reason']?.proposalPick, undefined);
		assert.equal(conditionOf(result.status, 'Available')?.message, 'b: ok');
	});

	it('compares timestamps as instants, offsets included, and merges lastUpdateTime the same way', () => {
		const result = mergeOf(deployment(), {
			a: {
				conditions: [
					{
						...condition('Progressing', 'True', '2025-11-01T13:00:00+02:00', 'A'),
						lastUpdateTime: '2025-11-01T11:30:00Z',
					},
				],
			},
			b: {
				conditions: [
					{
						...condition('Progressing', 'True', '2025-11-01T11:30:00.5Z', 'B'),
						lastUpdateTime: '2025-11-01T11:00:00Z',
					},
				],
			},
		});
		const progressing = conditionOf(result.status, 'Progressing');
		assert.equal(progressing?.lastTransitionTime, '2025-11-01T11:30:00.5Z');
		assert.equal(progressing?.reason, 'B');
		assert.equal(progressing?.lastUpdateTime, '2025-11-01T11:30:00Z');
	});

	it('ranks conditions without lastTransitionTime oldest, ties by WEC name', () => {
		const result = mergeOf(deployment(), {
			a: { conditions: [{ type: 'Available', status: 'True', reason: 'NoTime' }] },
			b: {
				conditions: [
					{
						type: 'Available',
						status: 'True',
						reason: 'Timed',
						lastTransitionTime: '2025-01-01T00:00:00Z',
					},
				],
			},
			c: {
				conditions: [
					{
						type: 'Available',
						status: 'True',
						reason: 'AlsoTimed',
						lastTransitionTime: '2025-01-01T00:00:00Z',
					},
				],
			},
		});
		assert.equal(conditionOf(result.status, 'Available')?.reason, 'Timed');
	});

	it('reads RFC 3339 timestamps only', () => {
		assert.equal(timestampMillis('2025-11-01T12:34:56Z'), Date.UTC(2025, 10, 1, 12, 34, 56));
		assert.equal(
			timestampMillis('2025-11-01T12:34:56.250-01:30'),
			Date.UTC(2025, 10, 1, 14, 4, 56, 250),
		);
		assert.equal(timestampMillis('2025-11-01 12:34:56'), undefined);
		assert.equal(timestampMillis('yesterday'), undefined);
		assert.equal(timestampMillis(20251101), undefined);
	});
});

describe('mode resolution', () => {
	const policy = (
		name: string,
		clause: Record<string, unknown>,
		selectors: unknown[] = [{}],
	): Record<string, unknown> => ({
		apiVersion: 'control.kubestellar.io/v1alpha1',
		kind: 'BindingPolicy',
		metadata: { name },
		spec: {
			clusterSelectors: selectors,
			downsync: [
				{ objectSelectors: [{ matchLabels: { 'app.kubernetes.io/name': 'web' } }], ...clause },
			],
		},
	});
	const cluster = (name: string, labels: Record<string, string>): Record<string, unknown> => ({
		apiVersion: 'cluster.open-cluster-management.io/v1',
		kind: 'ManagedCluster',
		metadata: { name, labels: { name, ...labels } },
	});
	const inventory = [
		cluster('east', { zone: 'eu' }),
		cluster('west', { zone: 'us' }),
		cluster('north', { zone: 'eu' }),
	];
	const inputs = [
		workStatus('east', readyDeploymentStatus(2)),
		workStatus('north', readyDeploymentStatus(2)),
		workStatus('west', readyDeploymentStatus(1)),
	];

	it('without policies takes the multi-WEC flag as set: several WECs merge, one is copied', () => {
		assert.equal(mergeWecStatuses(deployment(), inputs, null).mode, 'multi');
		const one = mergeWecStatuses(deployment(), [inputs[2]], null);
		assert.equal(one.mode, 'singleton');
		assert.deepEqual(one.status, readyDeploymentStatus(1));
		assert.equal(one.provenance.readyReplicas?.rule, 'verbatim');
	});

	it('multi-WEC flag with exactly one selected WEC falls back to the singleton copy', () => {
		const result = mergeWecStatuses(deployment(), inputs, [
			policy('p', { wantMultiWECReportedState: true }, [{ matchLabels: { zone: 'us' } }]),
			...inventory,
		]);
		assert.equal(result.mode, 'singleton');
		assert.deepEqual(result.status, readyDeploymentStatus(1));
		assert.ok(result.notes.some((note) => note.includes(`adds the label ${singletonLabel}=true`)));
		assert.ok(result.notes.some((note) => note.startsWith('east, north: not among the WECs')));
	});

	it('multi-WEC flag selects WECs by clusterSelectors against ManagedCluster labels', () => {
		const result = mergeWecStatuses(deployment(), inputs, [
			policy('p', { wantMultiWECReportedState: true }, [
				{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['eu'] }] },
			]),
			...inventory,
		]);
		assert.equal(result.mode, 'multi');
		assert.deepEqual(result.provenance.readyReplicas?.wecs, ['east', 'north']);
		assert.equal(result.status.readyReplicas, 2);
		assert.ok(result.notes.some((note) => note.includes(`adds the label ${multiLabel}=true`)));
	});

	it('singleton flag with exactly one WEC copies its status verbatim', () => {
		const result = mergeWecStatuses(deployment(), inputs, [
			policy('p', { wantSingletonReportedState: true }, [{ matchLabels: { name: 'west' } }]),
			...inventory,
		]);
		assert.equal(result.mode, 'singleton');
		assert.deepEqual(result.status, readyDeploymentStatus(1));
	});

	it('singleton flag with several WECs clears a returned status and quotes the BindingPolicy error', () => {
		const labelled = deployment({
			labels: { [singletonLabel]: 'true' },
			status: readyDeploymentStatus(2),
		});
		const result = mergeWecStatuses(labelled, inputs, [
			policy('p', { wantSingletonReportedState: true }, [{ matchLabels: { zone: 'eu' } }]),
			...inventory,
		]);
		assert.equal(result.mode, 'cleared');
		assert.deepEqual(result.status, {});
		assert.equal(result.changed, true);
		assert.ok(
			result.notes.some(
				(note) =>
					note.includes(
						'Singleton reported status return is requested but some objects have the wrong number of associated WECs, for example: [{"ObjectID":{"GVK":{"Group":"apps","Version":"v1","Kind":"Deployment"},"Resource":"deployments","ObjectName":{"Namespace":"shop","Name":"web"}},"NumWECs":2}]',
					) && note.includes('BindingPolicy p'),
			),
		);
		assert.ok(result.notes.some((note) => note.includes(`removes the label ${singletonLabel}`)));
	});

	it('singleton flag with no WEC empties the status, noting the released controller would leave an unlabelled one', () => {
		const policies = [
			policy('p', { wantSingletonReportedState: true }, [{ matchLabels: { zone: 'mars' } }]),
			...inventory,
		];
		const result = mergeWecStatuses(deployment({ status: { replicas: 2 } }), inputs, policies);
		assert.equal(result.mode, 'cleared');
		assert.deepEqual(result.status, {});
		assert.equal(result.changed, true);
		assert.ok(result.notes.some((note) => note.includes('no status-return label')));
		assert.ok(result.notes.some((note) => note.includes('"NumWECs":0')));
		const released = mergeWecStatuses(
			deployment({ status: { replicas: 2 } }),
			inputs,
			policies,
			'kubestellar',
		);
		assert.equal(released.mode, 'cleared');
		assert.deepEqual(released.status, { replicas: 2 });
		assert.equal(released.changed, false);
	});

	it('both flags decide on the union of their WECs', () => {
		const policies = [
			policy('single', { wantSingletonReportedState: true }, [{ matchLabels: { name: 'east' } }]),
			policy('multi', { wantMultiWECReportedState: true }, [{ matchLabels: { name: 'west' } }]),
			...inventory,
		];
		const union = mergeWecStatuses(deployment(), inputs, policies);
		assert.equal(union.mode, 'multi');
		assert.deepEqual(union.provenance.replicas?.wecs, ['east', 'west']);
		const same = [
			policy('single', { wantSingletonReportedState: true }, [{ matchLabels: { name: 'east' } }]),
			policy('multi', { wantMultiWECReportedState: true }, [{ matchLabels: { name: 'east' } }]),
			...inventory,
		];
		assert.equal(mergeWecStatuses(deployment(), inputs, same).mode, 'singleton');
	});

	it('several multi-WEC policies add up their WECs', () => {
		const policies = [
			policy('one', { wantMultiWECReportedState: true }, [{ matchLabels: { name: 'east' } }]),
			policy('two', { wantMultiWECReportedState: true }, [{ matchLabels: { name: 'west' } }]),
			...inventory,
		];
		const result = mergeWecStatuses(deployment(), inputs, policies);
		assert.equal(result.mode, 'multi');
		assert.deepEqual(result.provenance.replicas?.wecs, ['east', 'west']);
	});

	it('neither flag leaves the status as it is, unless the object carries a status-return label', () => {
		const policies = [policy('p', {}), ...inventory];
		const plain = mergeWecStatuses(deployment({ status: { replicas: 1 } }), inputs, policies);
		assert.equal(plain.mode, 'none');
		assert.deepEqual(plain.status, { replicas: 1 });
		assert.equal(plain.changed, false);
		const labelled = mergeWecStatuses(
			deployment({ labels: { [multiLabel]: 'true' }, status: { replicas: 1 } }),
			inputs,
			policies,
		);
		assert.equal(labelled.mode, 'cleared');
		assert.deepEqual(labelled.status, {});
		assert.ok(labelled.notes.some((note) => note.includes(`removes the label ${multiLabel}`)));
	});

	it('a policy that does not select the workload does not count', () => {
		const other = policy('p', {
			wantMultiWECReportedState: true,
			objectSelectors: [{ matchLabels: { app: 'other' } }],
		});
		const result = mergeWecStatuses(deployment(), inputs, [other, ...inventory]);
		assert.equal(result.mode, 'none');
		assert.ok(
			result.notes.some((note) =>
				note.includes('No BindingPolicy or Binding given selects this workload'),
			),
		);
	});

	it('takes the WECs with inputs when nothing tells which WECs a BindingPolicy selects', () => {
		const result = mergeWecStatuses(deployment(), inputs, [
			policy('p', { wantMultiWECReportedState: true }),
		]);
		assert.equal(result.mode, 'multi');
		assert.deepEqual(result.provenance.replicas?.wecs, ['east', 'north', 'west']);
		assert.ok(result.notes.some((note) => note.includes('the WECs with inputs are taken')));
	});

	it("accepts the proposal's policies.kubestellar.io group and ignores other groups", () => {
		const proposalGroup = {
			...policy('p', { wantMultiWECReportedState: true }),
			apiVersion: 'policies.kubestellar.io/v1alpha1',
		};
		assert.equal(
			mergeWecStatuses(deployment(), inputs, [proposalGroup, ...inventory]).mode,
			'multi',
		);
		const foreign = {
			...policy('q', { wantSingletonReportedState: true }),
			apiVersion: 'example.com/v1',
		};
		const result = mergeWecStatuses(deployment(), inputs, [foreign, ...inventory]);
		assert.ok(
			result.notes.some((note) => note.includes('BindingPolicy q is in group "example.com"')),
		);
	});

	it('reads a Binding: its workload entries carry the flags, its destinations name the WECs', () => {
		const binding = {
			apiVersion: 'control.kubestellar.io/v1alpha1',
			kind: 'Binding',
			metadata: { name: 'b' },
			spec: {
				workload: {
					namespaceScope: [
						{
							group: 'apps',
							version: 'v1',
							resource: 'deployments',
							namespace: 'shop',
							name: 'web',
							resourceVersion: '1',
							wantMultiWECReportedState: true,
						},
					],
				},
				destinations: [{ clusterId: 'west' }, { clusterId: 'north' }],
			},
		};
		const result = mergeWecStatuses(deployment(), inputs, [binding]);
		assert.equal(result.mode, 'multi');
		assert.deepEqual(result.provenance.replicas?.wecs, ['north', 'west']);
	});

	it('matches downsync clauses on apiGroup, resources, namespaces and objectNames', () => {
		const identity = workloadIdentityOf(deployment());
		const request = (clause: Record<string, unknown>): string =>
			reportedStateRequestOf(
				identity,
				['east', 'west'],
				[
					{
						apiVersion: 'control.kubestellar.io/v1alpha1',
						kind: 'BindingPolicy',
						metadata: { name: 'p' },
						spec: {
							clusterSelectors: [{}],
							downsync: [{ wantMultiWECReportedState: true, ...clause }],
						},
					},
				],
			).handler;
		assert.equal(
			request({
				apiGroup: 'apps',
				resources: ['deployments'],
				namespaces: ['shop'],
				objectNames: ['web'],
			}),
			'multi',
		);
		assert.equal(request({ apiGroup: 'batch' }), 'clear');
		assert.equal(request({ resources: ['*'] }), 'multi');
		assert.equal(request({ resources: ['statefulsets'] }), 'clear');
		assert.equal(request({ namespaces: ['other'] }), 'clear');
		assert.equal(request({ objectNames: ['*'] }), 'multi');
		assert.equal(request({ objectNames: ['api'] }), 'clear');
		assert.equal(
			request({
				objectSelectors: [
					{ matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'Exists' }] },
				],
			}),
			'multi',
		);
	});

	it('treats a namespaceSelector as matching only when the namespace labels are given', () => {
		const identity = workloadIdentityOf(deployment());
		const bp = {
			apiVersion: 'control.kubestellar.io/v1alpha1',
			kind: 'BindingPolicy',
			metadata: { name: 'p' },
			spec: {
				clusterSelectors: [{}],
				downsync: [
					{
						namespaceSelectors: [{ matchLabels: { team: 'shop' } }],
						wantMultiWECReportedState: true,
					},
				],
			},
		};
		const without = reportedStateRequestOf(identity, ['east', 'west'], [bp]);
		assert.equal(without.handler, 'clear');
		assert.ok(without.notes.some((note) => note.includes('no Namespace shop')));
		const namespace = {
			apiVersion: 'v1',
			kind: 'Namespace',
			metadata: { name: 'shop', labels: { team: 'shop' } },
		};
		assert.equal(
			reportedStateRequestOf(identity, ['east', 'west'], [bp, namespace]).handler,
			'multi',
		);
	});

	it('evaluates label selectors like Kubernetes', () => {
		const labels = { zone: 'eu', tier: 'edge' };
		assert.equal(labelSelectorVerdict({}, labels), 'match');
		assert.equal(labelSelectorVerdict({ matchLabels: { zone: 'eu' } }, labels), 'match');
		assert.equal(labelSelectorVerdict({ matchLabels: { zone: 'us' } }, labels), 'no-match');
		assert.equal(
			labelSelectorVerdict(
				{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['us'] }] },
				labels,
			),
			'match',
		);
		assert.equal(
			labelSelectorVerdict(
				{ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] },
				labels,
			),
			'match',
		);
		assert.equal(
			labelSelectorVerdict(
				{ matchExpressions: [{ key: 'zone', operator: 'In', values: [] }] },
				labels,
			),
			'invalid',
		);
		assert.equal(
			labelSelectorVerdict({ matchExpressions: [{ key: 'zone', operator: 'Near' }] }, labels),
			'invalid',
		);
	});

	it('guesses plural resources the way clauses list them', () => {
		assert.equal(resourceOfKind('Deployment'), 'deployments');
		assert.equal(resourceOfKind('Ingress'), 'ingresses');
		assert.equal(resourceOfKind('NetworkPolicy'), 'networkpolicies');
		assert.equal(resourceOfKind('Gateway'), 'gateways');
		assert.equal(resourceOfKind('Box'), 'boxes');
	});

	it('never returns status into a Namespace', () => {
		const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } };
		const result = mergeWecStatuses(
			namespace,
			[{ wec: 'a', object: { status: { phase: 'Active' } } }],
			null,
		);
		assert.equal(result.mode, 'none');
		assert.ok(result.notes.some((note) => note.includes('WEC2WDSExceptions')));
	});

	it('clears when the selected WECs have reported no status yet', () => {
		const result = mergeWecStatuses(
			deployment({ labels: { [multiLabel]: 'true' }, status: { replicas: 2 } }),
			[workStatus('east', undefined), workStatus('west', null)],
			null,
		);
		assert.equal(result.mode, 'cleared');
		assert.deepEqual(result.status, {});
		assert.ok(result.notes.some((note) => note.includes('east, west reported no status yet')));
	});

	it('names selected WECs for which no status was given', () => {
		const binding = {
			apiVersion: 'control.kubestellar.io/v1alpha1',
			kind: 'Binding',
			metadata: { name: 'b' },
			spec: {
				workload: {
					namespaceScope: [
						{
							group: 'apps',
							resource: 'deployments',
							namespace: 'shop',
							name: 'web',
							wantMultiWECReportedState: true,
						},
					],
				},
				destinations: [{ clusterId: 'east' }, { clusterId: 'west' }, { clusterId: 'south' }],
			},
		};
		const result = mergeWecStatuses(deployment(), inputs, [binding]);
		assert.equal(result.mode, 'multi');
		assert.ok(
			result.notes.some((note) => note.startsWith('south is selected but no status was given')),
		);
	});
});

describe('kubestellar rules (the released controller)', () => {
	it('leaves kinds other than Deployment, ReplicaSet and DaemonSet untouched', () => {
		const statefulSet = workloadOf('StatefulSet', 'apps/v1', { status: { replicas: 9 } });
		const result = mergeOf(statefulSet, { a: { replicas: 3 }, b: { replicas: 2 } }, 'kubestellar');
		assert.equal(result.mode, 'multi');
		assert.deepEqual(result.status, { replicas: 9 });
		assert.equal(result.changed, false);
		assert.ok(result.notes.some((note) => note.includes('no merge rule for apps/StatefulSet')));
		assert.equal(mergeKubestellarStatuses('apps', 'StatefulSet', []), null);
		assert.equal(mergeKubestellarStatuses('example.com', 'Deployment', []), null);
	});

	it('ignores absent counters (min over those present), where the proposal counts them as 0', () => {
		const { readyReplicas: _r, availableReplicas: _a, ...noneReady } = readyDeploymentStatus(0);
		const statuses = { a: readyDeploymentStatus(2), b: noneReady };
		assert.equal(mergeOf(deployment(), statuses, 'kubestellar').status.readyReplicas, 2);
		assert.equal(mergeOf(deployment(), statuses, 'proposal').status.readyReplicas, 0);
	});

	it('drops every condition but Progressing/ProgressDeadlineExceeded, taking the first by WEC name', () => {
		const stuck = (message: string): Status =>
			readyDeploymentStatus(1, {
				conditions: [
					condition(
						'Progressing',
						'False',
						'2025-11-01T10:00:00Z',
						'ProgressDeadlineExceeded',
						message,
					),
				],
			});
		const result = mergeOf(
			deployment(),
			{ b: stuck('b stuck'), a: readyDeploymentStatus(2), c: stuck('c stuck') },
			'kubestellar',
		);
		assert.deepEqual(result.status.conditions, [
			condition(
				'Progressing',
				'False',
				'2025-11-01T10:00:00Z',
				'ProgressDeadlineExceeded',
				'b stuck',
			),
		]);
		assert.deepEqual(result.provenance.conditions?.wecs, ['b']);
		assert.ok(result.notes.some((note) => note.includes('Several WECs')));
		assert.equal(result.health?.status, 'Degraded');
	});

	it('keeps a WEC with a mistyped counter, ignoring only that value, and says so', () => {
		const result = mergeOf(
			deployment(),
			{ a: readyDeploymentStatus(2), b: readyDeploymentStatus(1, { readyReplicas: 'one' }) },
			'kubestellar',
		);
		assert.equal(result.status.readyReplicas, 2);
		assert.equal(result.status.availableReplicas, 1);
		assert.ok(result.notes.some((note) => note.includes('readyReplicas in b')));
	});
});

describe('changed', () => {
	it('is false when the merge equals the current status once zero counters and condition order are normalised', () => {
		const east = readyDeploymentStatus(2, {
			conditions: [
				condition('Available', 'True', '2025-11-01T10:00:00Z', 'MinimumReplicasAvailable', 'ok'),
				condition('Progressing', 'True', '2025-11-01T10:00:00Z', 'NewReplicaSetAvailable', 'done'),
			],
		});
		const first = mergeOf(deployment(), { east, west: east });
		assert.equal(first.status.unavailableReplicas, undefined);
		const current = {
			...first.status,
			conditions: [...(first.status.conditions as unknown[])].reverse(),
		};
		const withZero = mergeOf(deployment({ status: current }), {
			east: { ...east, unavailableReplicas: 0 },
			west: east,
		});
		assert.equal(withZero.status.unavailableReplicas, 0);
		assert.equal(withZero.changed, false);
		assert.equal(
			mergeOf(deployment({ status: current }), { east, west: readyDeploymentStatus(1) }).changed,
			true,
		);
	});

	it('normalises what the API server omits', () => {
		assert.deepEqual(
			normalisedStatusOf(
				{ replicas: 0, readyReplicas: 0, conditions: [], foo: null, observedGeneration: 0 },
				'apps',
				'Deployment',
			),
			{},
		);
		assert.deepEqual(normalisedStatusOf({ size: 0 }, 'example.com', 'Widget'), { size: 0 });
	});
});

describe('bad inputs', () => {
	it('leaves out a WEC whose status is not an object, naming it', () => {
		const result = mergeOf(deployment(), {
			a: readyDeploymentStatus(2),
			b: 'broken',
			c: readyDeploymentStatus(1),
		});
		assert.equal(result.mode, 'multi');
		assert.ok(
			result.notes.some((note) => note === 'b: the status is not an object; b is left out.'),
		);
		assert.deepEqual(result.provenance.replicas?.wecs, ['a', 'c']);
	});

	it('leaves out a WEC whose counters have the wrong type (proposal)', () => {
		const result = mergeOf(deployment(), {
			a: readyDeploymentStatus(2),
			b: readyDeploymentStatus(2, { readyReplicas: '2' }),
			c: readyDeploymentStatus(1, { conditions: 'none' }),
			d: readyDeploymentStatus(2),
		});
		assert.ok(
			result.notes.some((note) =>
				note.startsWith('b: status.readyReplicas is a string, expected an integer'),
			),
		);
		assert.ok(
			result.notes.some((note) =>
				note.startsWith('c: status.conditions is a string, expected a list'),
			),
		);
		assert.deepEqual(result.provenance.replicas?.wecs, ['a', 'd']);
		assert.equal(result.status.readyReplicas, 2);
	});

	it('leaves out a WorkStatus of another workload', () => {
		const read = wecCopiesOf(deployment(), [
			workStatus('east', readyDeploymentStatus(2)),
			workStatus('west', readyDeploymentStatus(1), { name: 'api' }),
		]);
		assert.deepEqual(
			read.copies.map((copy) => copy.wec),
			['east'],
		);
		assert.ok(
			read.notes.some(
				(note) => note.includes('west: WorkStatus') && note.includes('apps/Deployment shop/api'),
			),
		);
		assert.equal(read.resource, 'deployments');
	});

	it('names inputs that cannot be read at all and never throws', () => {
		const result = mergeWecStatuses(
			deployment(),
			[
				null,
				42,
				{ wec: 'x', object: 'nope' },
				{ ...workStatus('', readyDeploymentStatus(2)), metadata: { name: 'w' } },
				{
					apiVersion: 'control.kubestellar.io/v1alpha1',
					kind: 'WorkStatus',
					metadata: { name: 'n', namespace: 'y' },
				},
				{
					wec: 'z',
					object: {
						apiVersion: 'apps/v1',
						kind: 'StatefulSet',
						metadata: { name: 'web' },
						status: {},
					},
				},
				deployment({ status: readyDeploymentStatus(2) }),
			],
			[null, 'x', { kind: 'BindingPolicy' }] as unknown[],
		);
		assert.equal(result.mode, 'cleared');
		const joined = result.notes.join('\n');
		assert.match(joined, /Input #0: the input is not an object/);
		assert.match(joined, /x: the input is not an object/);
		assert.match(joined, /has no metadata\.namespace/);
		assert.match(joined, /y: WorkStatus n has no spec\.sourceRef/);
		assert.match(joined, /z: the object is apps\/StatefulSet web, not apps\/Deployment shop\/web/);
		assert.match(joined, /A BindingPolicy without metadata\.name is ignored/);
		assert.match(joined, /Input #6: a Deployment that is not a WorkStatus needs a WEC name/);
	});

	it('survives a workload that is not an object', () => {
		const result = mergeWecStatuses('not a workload', [workStatus('east', {})], null);
		assert.equal(result.mode, 'none');
		assert.ok(result.notes.some((note) => note.includes('The workload is not an object')));
	});

	it("takes the workload as read from a WEC as that WEC's input", () => {
		const copy = deployment({ status: readyDeploymentStatus(1) });
		const result = mergeWecStatuses(
			deployment(),
			[{ wec: 'a', object: copy }, workStatus('b', readyDeploymentStatus(2))],
			null,
		);
		assert.equal(result.mode, 'multi');
		assert.equal(result.status.readyReplicas, 1);
		assert.deepEqual(result.provenance.readyReplicas?.wecs, ['a']);
	});
});

describe('determinism, provenance and effects', () => {
	it('gives the same result whatever the input order', () => {
		const inputs = ['c', 'a', 'b'].map((wec, index) =>
			workStatus(wec, readyDeploymentStatus(index === 1 ? 1 : 2)),
		);
		const forward = mergeWecStatuses(deployment(), inputs, null);
		const backward = mergeWecStatuses(deployment(), [...inputs].reverse(), null);
		assert.equal(JSON.stringify(forward), JSON.stringify(backward));
	});

	it('gives provenance for every merged field', () => {
		const result = mergeOf(deployment(), {
			a: readyDeploymentStatus(2),
			b: readyDeploymentStatus(1),
		});
		for (const key of Object.keys(result.status)) {
			if (key === 'conditions') continue;
			assert.ok(result.provenance[key], key);
		}
		for (const field of ['status', 'reason', 'message', 'lastTransitionTime']) {
			assert.ok(result.provenance[`conditions[type=Available].${field}`], field);
		}
	});

	it('rates the merged object with the WDS metadata, so generations compare', () => {
		const ready = mergeOf(deployment(), {
			a: readyDeploymentStatus(2),
			b: readyDeploymentStatus(2),
		});
		assert.equal(ready.kstatus.status, 'Current');
		assert.equal(ready.health?.status, 'Healthy');
		const newer = mergeOf(deployment({ generation: 2 }), {
			a: readyDeploymentStatus(2),
			b: readyDeploymentStatus(2),
		});
		assert.equal(newer.kstatus.status, 'InProgress');
		assert.equal(newer.health?.status, 'Progressing');
	});

	it('merges 1,000 WECs into one status', () => {
		const inputs = Array.from({ length: 1000 }, (_, index) =>
			workStatus(
				`wec${String(index).padStart(4, '0')}`,
				readyDeploymentStatus(index === 999 ? 1 : 2),
			),
		);
		const result = mergeWecStatuses(deployment(), inputs, null);
		assert.equal(result.status.readyReplicas, 1);
		assert.deepEqual(result.provenance.readyReplicas?.wecs, ['wec0999']);
		assert.equal(
			conditionOf(result.status, 'Available')?.message,
			'wec0999: Deployment does not have minimum availability.',
		);
	});
});
