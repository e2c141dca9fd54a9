import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectTooltipMarkdown } from '../../../../src/core/explain/tooltip.ts';
import { computeHealth, noHealthSentence } from '../../../../src/core/status/argocdHealth.ts';
import { computeStatus } from '../../../../src/core/status/registry.ts';

type Json = Record<string, unknown>;

function object(apiVersion: string, kind: string, fields: Json = {}): Json {
	return { apiVersion, kind, metadata: { name: 'web', namespace: 'ns', generation: 1 }, ...fields };
}

function conditions(...list: Json[]): Json {
	return { conditions: list };
}

describe('Argo CD health dispatch', () => {
	it('has no health for objects that are not mappings', () => {
		for (const input of [null, undefined, 'Pod', 3, [object('v1', 'Pod')]]) {
			assert.equal(computeHealth(input), null);
		}
	});

	it('has no health for an apiVersion with more than one slash (Go reads no kind from it either)', () => {
		assert.equal(computeHealth(object('a/b/v1', 'Pod', { status: { phase: 'Running' } })), null);
	});

	it('lets Lua checks skip null list items, as Argo CD squeezes them out before the script runs', () => {
		const kustomization = object('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', {
			spec: {},
			status: conditions(null as unknown as Json, {
				type: 'Ready',
				status: 'True',
				reason: 'ReconciliationSucceeded',
			}),
		});
		assert.deepEqual(computeHealth(kustomization), {
			status: 'Healthy',
			message: 'ReconciliationSucceeded',
		});
	});

	it('has no health for kinds Argo CD has no check for', () => {
		assert.equal(computeHealth(object('example.com/v1', 'Widget', { status: conditions() })), null);
		assert.equal(computeHealth(object('v1', 'ConfigMap')), null);
		assert.equal(computeHealth(object('notification.toolkit.fluxcd.io/v1beta3', 'Alert')), null);
	});

	it('reports any deleted object as Progressing "Pending deletion", even kinds without a check', () => {
		const deleted = {
			...object('example.com/v1', 'Widget'),
			metadata: { deletionTimestamp: '2024-01-01T00:00:00Z' },
		};
		assert.deepEqual(computeHealth(deleted), {
			status: 'Progressing',
			message: 'Pending deletion',
		});
	});

	it('keeps checking a deleted hook that still carries the hook finalizer', () => {
		const hook = {
			...object('batch/v1', 'Job', { status: conditions({ type: 'Complete', status: 'True' }) }),
			metadata: {
				deletionTimestamp: '2024-01-01T00:00:00Z',
				finalizers: ['argocd.argoproj.io/hook-finalizer'],
			},
		};
		assert.equal(computeHealth(hook)?.status, 'Healthy');
	});

	it('ignores a deletionTimestamp that is not an RFC 3339 time, as metav1.Time does', () => {
		const input = { ...object('v1', 'PersistentVolumeClaim', { status: { phase: 'Bound' } }) };
		input.metadata = { deletionTimestamp: 'soon' };
		assert.equal(computeHealth(input)?.status, 'Healthy');
	});

	it('reports Unknown for a built-in kind at a version its typed check does not accept', () => {
		assert.deepEqual(computeHealth(object('apps/v1beta2', 'Deployment')), {
			status: 'Unknown',
			message: 'unsupported Deployment GVK: apps/v1beta2, Kind=Deployment',
		});
		assert.deepEqual(computeHealth(object('batch/v1beta1', 'Job')), {
			status: 'Unknown',
			message: 'unsupported Job GVK: batch/v1beta1, Kind=Job',
		});
	});

	it('has no health for extensions/v1beta1 Deployments (only Ingress is checked there)', () => {
		assert.equal(computeHealth(object('extensions/v1beta1', 'Deployment')), null);
	});

	it('reports Unknown with the field when the object would not convert to its typed API object', () => {
		const result = computeHealth(object('apps/v1', 'Deployment', { spec: { replicas: '3' } }));
		assert.equal(result?.status, 'Unknown');
		// The converter's words (a string is no int32), then the field for the reader.
		assert.equal(
			result?.message,
			'failed to convert unstructured Deployment to typed: unrecognized type: int32 (at spec.replicas)',
		);
		const job = computeHealth(
			object('batch/v1', 'Job', { status: conditions({ type: 'Complete', status: 1 }) }),
		);
		assert.equal(
			job?.message,
			'failed to convert unstructured Job to typed: cannot convert int64 to v1.ConditionStatus (at status.conditions[].status)',
		);
	});

	it('never throws on garbage in any field of any kind it checks', () => {
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
			['autoscaling/v1', 'HorizontalPodAutoscaler'],
			['autoscaling/v2', 'HorizontalPodAutoscaler'],
			['apiregistration.k8s.io/v1', 'APIService'],
			['networking.k8s.io/v1', 'Ingress'],
			['argoproj.io/v1alpha1', 'Workflow'],
			['argoproj.io/v1alpha1', 'Application'],
			['apiextensions.k8s.io/v1', 'CustomResourceDefinition'],
			['source.toolkit.fluxcd.io/v1', 'HelmRepository'],
			['helm.toolkit.fluxcd.io/v2', 'HelmRelease'],
			['image.toolkit.fluxcd.io/v1beta2', 'ImagePolicy'],
			['notification.toolkit.fluxcd.io/v1', 'Receiver'],
		];
		const garbage: readonly unknown[] = [
			null,
			'x',
			7,
			1.5,
			true,
			[],
			{},
			[null],
			[1],
			['x'],
			{ a: null },
		];
		for (const [apiVersion, kind] of kinds) {
			for (const value of garbage) {
				for (const input of [
					{ apiVersion, kind, metadata: value, spec: value, status: value },
					{ apiVersion, kind, metadata: { annotations: value }, status: { conditions: value } },
					{
						apiVersion,
						kind,
						spec: {},
						status: { conditions: [value], containerStatuses: [value] },
					},
					{ apiVersion, kind, spec: { suspend: value, replicas: value }, status: { phase: value } },
				]) {
					for (const engine of ['argo-cd', 'gitops-engine'] as const) {
						const result = computeHealth(input, { engine });
						if (result === null) continue;
						assert.equal(typeof result.status, 'string');
						assert.equal(typeof result.message, 'string');
						assert.ok(!result.message.startsWith('health check failed'), result.message);
					}
				}
			}
		}
	});
});

describe('Argo CD Deployment, StatefulSet, DaemonSet and ReplicaSet health', () => {
	const rolledOut = {
		observedGeneration: 1,
		replicas: 2,
		updatedReplicas: 2,
		availableReplicas: 2,
	};

	it('degrades a Deployment that exceeded its progress deadline, naming it', () => {
		const result = computeHealth(
			object('apps/v1', 'Deployment', {
				spec: { replicas: 2 },
				status: {
					...rolledOut,
					conditions: [
						{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' },
					],
				},
			}),
		);
		assert.deepEqual(result, {
			status: 'Degraded',
			message: 'Deployment "web" exceeded its progress deadline',
		});
	});

	it('follows a Deployment rollout like kubectl rollout status', () => {
		const cases: readonly [Json, string][] = [
			[
				{ updatedReplicas: 1 },
				'Waiting for rollout to finish: 1 out of 2 new replicas have been updated...',
			],
			[{ replicas: 3 }, 'Waiting for rollout to finish: 1 old replicas are pending termination...'],
			[
				{ availableReplicas: 1 },
				'Waiting for rollout to finish: 1 of 2 updated replicas are available...',
			],
			[
				{ observedGeneration: 0 },
				'Waiting for rollout to finish: observed deployment generation less than desired generation',
			],
		];
		for (const [status, message] of cases) {
			const result = computeHealth(
				object('apps/v1', 'Deployment', {
					spec: { replicas: 2 },
					status: { ...rolledOut, ...status },
				}),
			);
			assert.deepEqual(result, { status: 'Progressing', message });
		}
		const done = computeHealth(
			object('apps/v1', 'Deployment', { spec: { replicas: 2 }, status: rolledOut }),
		);
		assert.deepEqual(done, { status: 'Healthy', message: '' });
	});

	it('suspends a paused Deployment before looking at its rollout', () => {
		const result = computeHealth(
			object('apps/v1', 'Deployment', { spec: { paused: true }, status: {} }),
		);
		assert.deepEqual(result, { status: 'Suspended', message: 'Deployment is paused' });
	});

	it('waits for a StatefulSet spec to be observed, then for ready pods', () => {
		const sts = (status: Json) =>
			object('apps/v1', 'StatefulSet', { spec: { replicas: 3 }, status });
		assert.equal(
			computeHealth(sts({}))?.message,
			'Waiting for statefulset spec update to be observed...',
			'observedGeneration 0',
		);
		assert.deepEqual(computeHealth(sts({ observedGeneration: 1, readyReplicas: 1 })), {
			status: 'Progressing',
			message: 'Waiting for 2 pods to be ready...',
		});
	});

	it('follows a partitioned StatefulSet rollout', () => {
		const sts = (updatedReplicas: number) =>
			object('apps/v1', 'StatefulSet', {
				spec: {
					replicas: 3,
					updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
				},
				status: { observedGeneration: 1, readyReplicas: 3, updatedReplicas },
			});
		assert.deepEqual(computeHealth(sts(1)), {
			status: 'Progressing',
			message:
				'Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...',
		});
		assert.deepEqual(computeHealth(sts(2)), {
			status: 'Healthy',
			message: 'partitioned roll out complete: 2 new pods have been updated...',
		});
	});

	it('compares StatefulSet revisions when there is no rollingUpdate block', () => {
		const sts = (updateRevision: string) =>
			object('apps/v1', 'StatefulSet', {
				spec: { replicas: 2, updateStrategy: { type: 'RollingUpdate' } },
				status: {
					observedGeneration: 1,
					readyReplicas: 2,
					updatedReplicas: 1,
					currentReplicas: 2,
					currentRevision: 'web-1',
					updateRevision,
				},
			});
		assert.deepEqual(computeHealth(sts('web-2')), {
			status: 'Progressing',
			message: 'waiting for statefulset rolling update to complete 1 pods at revision web-2...',
		});
		assert.deepEqual(computeHealth(sts('web-1')), {
			status: 'Healthy',
			message: 'statefulset rolling update complete 2 pods at revision web-1...',
		});
	});

	it('follows a DaemonSet rollout and trusts OnDelete DaemonSets', () => {
		const ds = (spec: Json, status: Json) =>
			object('apps/v1', 'DaemonSet', {
				spec,
				status: { observedGeneration: 1, desiredNumberScheduled: 3, ...status },
			});
		assert.deepEqual(computeHealth(ds({}, { updatedNumberScheduled: 1 })), {
			status: 'Progressing',
			message:
				'Waiting for daemon set "web" rollout to finish: 1 out of 3 new pods have been updated...',
		});
		assert.deepEqual(computeHealth(ds({}, { updatedNumberScheduled: 3, numberAvailable: 2 })), {
			status: 'Progressing',
			message:
				'Waiting for daemon set "web" rollout to finish: 2 of 3 updated pods are available...',
		});
		assert.deepEqual(
			computeHealth(ds({ updateStrategy: { type: 'OnDelete' } }, { updatedNumberScheduled: 1 })),
			{
				status: 'Healthy',
				message: 'daemon set 1 out of 3 new pods have been updated',
			},
		);
		assert.deepEqual(computeHealth(ds({}, { updatedNumberScheduled: 3, numberAvailable: 3 })), {
			status: 'Healthy',
			message: '',
		});
	});

	it('degrades a ReplicaSet with ReplicaFailure=True (kstatus only says InProgress)', () => {
		const result = computeHealth(
			object('apps/v1', 'ReplicaSet', {
				status: {
					observedGeneration: 1,
					...conditions({ type: 'ReplicaFailure', status: 'True', message: 'quota exceeded' }),
				},
			}),
		);
		assert.deepEqual(result, { status: 'Degraded', message: 'quota exceeded' });
	});

	it('waits for ReplicaSet replicas to become available', () => {
		const result = computeHealth(
			object('apps/v1', 'ReplicaSet', {
				spec: { replicas: 2 },
				status: { observedGeneration: 1, availableReplicas: 1 },
			}),
		);
		assert.deepEqual(result, {
			status: 'Progressing',
			message: 'Waiting for rollout to finish: 1 out of 2 new replicas are available...',
		});
	});
});

describe('Argo CD Job and Pod health', () => {
	it('calls a running Job Progressing (kstatus calls it Current)', () => {
		assert.deepEqual(computeHealth(object('batch/v1', 'Job', { status: { active: 1 } })), {
			status: 'Progressing',
			message: '',
		});
	});

	it('counts a Failed condition whatever its status', () => {
		const result = computeHealth(
			object('batch/v1', 'Job', {
				status: conditions({ type: 'Failed', status: 'False', message: 'odd' }),
			}),
		);
		assert.deepEqual(result, { status: 'Degraded', message: 'odd' });
	});

	it('suspends a Job with Suspended=True, with the condition message on argo-cd HEAD', () => {
		const job = object('batch/v1', 'Job', {
			status: conditions({ type: 'Suspended', status: 'True', message: 'Job suspended' }),
		});
		assert.deepEqual(computeHealth(job), { status: 'Suspended', message: 'Job suspended' });
		assert.deepEqual(computeHealth(job, { engine: 'gitops-engine' }), {
			status: 'Suspended',
			message: '',
		});
	});

	it('calls a Job with Suspended=False complete and Healthy', () => {
		const job = object('batch/v1', 'Job', {
			status: conditions({ type: 'Suspended', status: 'False', message: 'resumed' }),
		});
		assert.deepEqual(computeHealth(job), { status: 'Healthy', message: 'resumed' });
	});

	function pod(spec: Json, status: Json, annotations?: Json): Json {
		const result = object('v1', 'Pod', { spec, status });
		if (annotations) result.metadata = { name: 'p', annotations };
		return result;
	}

	it('degrades a long-running Pod whose container cannot pull its image, joining the messages', () => {
		const result = computeHealth(
			pod(
				{ restartPolicy: 'Always' },
				{
					phase: 'Pending',
					containerStatuses: [
						{
							name: 'a',
							state: { waiting: { reason: 'ImagePullBackOff', message: 'no image a' } },
						},
						{ name: 'b', state: { waiting: { reason: 'ErrImagePull', message: 'no image b' } } },
						{ name: 'c', state: { waiting: { reason: 'ContainerCreating', message: 'wait' } } },
					],
				},
			),
		);
		assert.deepEqual(result, { status: 'Degraded', message: 'no image a, no image b' });
	});

	it('keeps a finite Pod with an image pull error Progressing, so hooks are not failed early', () => {
		const result = computeHealth(
			pod(
				{ restartPolicy: 'Never' },
				{
					phase: 'Pending',
					containerStatuses: [{ name: 'a', state: { waiting: { reason: 'ImagePullBackOff' } } }],
				},
			),
		);
		assert.equal(result?.status, 'Progressing');
	});

	it('explains a failed Pod with its message, an OOM kill or an exit code', () => {
		assert.deepEqual(computeHealth(pod({}, { phase: 'Failed', message: 'evicted' })), {
			status: 'Degraded',
			message: 'evicted',
		});
		assert.deepEqual(
			computeHealth(
				pod(
					{},
					{
						phase: 'Failed',
						containerStatuses: [
							{ name: 'a', state: { terminated: { reason: 'OOMKilled', exitCode: 137 } } },
						],
					},
				),
			),
			{ status: 'Degraded', message: 'OOMKilled' },
		);
		assert.deepEqual(
			computeHealth(
				pod(
					{},
					{
						phase: 'Failed',
						initContainerStatuses: [{ name: 'init', state: { terminated: { exitCode: 2 } } }],
						containerStatuses: [{ name: 'a', state: { terminated: { exitCode: 1 } } }],
					},
				),
			),
			{ status: 'Degraded', message: 'container "init" failed with exit code 2' },
		);
	});

	it('degrades a running, unready long-running Pod that has restarted', () => {
		const result = computeHealth(
			pod(
				{ restartPolicy: 'Always' },
				{
					phase: 'Running',
					containerStatuses: [{ name: 'a', lastState: { terminated: { exitCode: 1 } } }],
				},
			),
		);
		assert.equal(result?.status, 'Degraded');
	});

	it('calls a running Pod without restartPolicy Unknown: Argo CD does not apply API defaults', () => {
		assert.deepEqual(computeHealth(pod({}, { phase: 'Running', message: 'hm' })), {
			status: 'Unknown',
			message: 'hm',
		});
	});

	it('treats a finite Pod with ignore-restart-policy as long-running on argo-cd HEAD only', () => {
		const ready = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
		const annotated = pod({ restartPolicy: 'Never' }, ready, {
			'argocd.argoproj.io/ignore-restart-policy': 'true',
		});
		assert.equal(computeHealth(annotated)?.status, 'Healthy');
		assert.equal(computeHealth(annotated, { engine: 'gitops-engine' })?.status, 'Progressing');
	});

	it('does not honour ignore-restart-policy on hooks, but does on Skip-only and Helm CRD-install objects', () => {
		const ready = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
		const withHook = (hook: Json) =>
			computeHealth(
				pod({ restartPolicy: 'OnFailure' }, ready, {
					'argocd.argoproj.io/ignore-restart-policy': 'true',
					...hook,
				}),
			)?.status;
		assert.equal(withHook({ 'argocd.argoproj.io/hook': 'PostSync' }), 'Progressing');
		assert.equal(withHook({ 'helm.sh/hook': 'post-install' }), 'Progressing');
		assert.equal(withHook({ 'argocd.argoproj.io/hook': 'Skip' }), 'Healthy');
		assert.equal(withHook({ 'argocd.argoproj.io/hook': 'Skip, Skip' }), 'Healthy');
		assert.equal(withHook({ 'argocd.argoproj.io/hook': 'Skip,PreSync' }), 'Progressing');
		assert.equal(withHook({ 'helm.sh/hook': 'crd-install' }), 'Healthy');
	});
});

describe('Argo CD PVC, Service, Ingress, HPA, APIService and Workflow health', () => {
	it('maps PVC phases', () => {
		const phase = (value?: string) =>
			computeHealth(
				object('v1', 'PersistentVolumeClaim', {
					status: value === undefined ? {} : { phase: value },
				}),
			)?.status;
		assert.deepEqual(
			[phase('Lost'), phase('Pending'), phase('Bound'), phase()],
			['Degraded', 'Progressing', 'Healthy', 'Unknown'],
		);
	});

	it('calls a ClusterIP Service Healthy and waits for a LoadBalancer ingress', () => {
		assert.equal(
			computeHealth(object('v1', 'Service', { spec: { type: 'ClusterIP' } }))?.status,
			'Healthy',
		);
		assert.equal(
			computeHealth(object('v1', 'Service', { spec: { type: 'LoadBalancer' } }))?.status,
			'Progressing',
		);
	});

	it('waits for an Ingress address, and reads a malformed list as none', () => {
		const ingress = (status: unknown) =>
			computeHealth(object('networking.k8s.io/v1', 'Ingress', { status }))?.status;
		assert.equal(ingress({ loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } }), 'Healthy');
		assert.equal(ingress({ loadBalancer: { ingress: 'oops' } }), 'Progressing');
		assert.equal(computeHealth(object('extensions/v1beta1', 'Ingress'))?.status, 'Progressing');
	});

	function hpaV1(annotation?: string): Json {
		const hpa = object('autoscaling/v1', 'HorizontalPodAutoscaler');
		if (annotation !== undefined) {
			hpa.metadata = {
				name: 'web',
				annotations: { 'autoscaling.alpha.kubernetes.io/conditions': annotation },
			};
		}
		return hpa;
	}

	it('reads autoscaling/v1 HPA conditions from the annotation, keys in any case', () => {
		const annotation = JSON.stringify([
			{ TYPE: 'AbleToScale', Status: 'True', reason: 'ReadyForNewScale', Message: 'ok' },
		]);
		assert.deepEqual(computeHealth(hpaV1(annotation)), { status: 'Healthy', message: 'ok' });
	});

	it('waits to autoscale when the v1 annotation is absent, null or empty', () => {
		for (const annotation of [undefined, 'null', '[]']) {
			assert.deepEqual(computeHealth(hpaV1(annotation)), {
				status: 'Progressing',
				message: 'Waiting to Autoscale',
			});
		}
	});

	it('reports Unknown for a v1 annotation that is not a JSON list of conditions', () => {
		for (const annotation of ['{', '{}', '[1]', '[{"type": 1}]']) {
			const result = computeHealth(hpaV1(annotation));
			assert.equal(result?.status, 'Unknown');
			assert.match(result?.message ?? '', /^failed to convert conditions annotation to typed: /);
		}
	});

	it('prefers a degraded HPA condition anywhere over a healthy one on argo-cd HEAD, first match on gitops-engine', () => {
		const hpa = object('autoscaling/v2', 'HorizontalPodAutoscaler', {
			status: conditions(
				{ type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale', message: 'fine' },
				{
					type: 'ScalingActive',
					status: 'False',
					reason: 'FailedGetPodsMetric',
					message: 'no metrics',
				},
			),
		});
		assert.deepEqual(computeHealth(hpa), { status: 'Degraded', message: 'no metrics' });
		assert.deepEqual(computeHealth(hpa, { engine: 'gitops-engine' }), {
			status: 'Healthy',
			message: 'fine',
		});
	});

	it('calls an HPA limited by its bounds Healthy', () => {
		const hpa = object('autoscaling/v2', 'HorizontalPodAutoscaler', {
			status: conditions({
				type: 'ScalingLimited',
				status: 'True',
				reason: 'TooManyReplicas',
				message: 'capped',
			}),
		});
		assert.deepEqual(computeHealth(hpa), { status: 'Healthy', message: 'capped' });
	});

	it('has dropped autoscaling/v2beta2 on argo-cd HEAD but still reads it on gitops-engine', () => {
		const hpa = object('autoscaling/v2beta2', 'HorizontalPodAutoscaler', {
			status: conditions({ type: 'AbleToScale', status: 'True', message: 'fine' }),
		});
		assert.equal(computeHealth(hpa)?.status, 'Unknown');
		assert.deepEqual(computeHealth(hpa, { engine: 'gitops-engine' }), {
			status: 'Healthy',
			message: 'fine',
		});
	});

	it('waits for an APIService without an Available condition', () => {
		assert.deepEqual(computeHealth(object('apiregistration.k8s.io/v1', 'APIService')), {
			status: 'Progressing',
			message: 'Waiting to be processed',
		});
		assert.equal(
			computeHealth(object('apiregistration.k8s.io/v2', 'APIService'))?.status,
			'Unknown',
		);
	});

	it('maps Workflow phases and keeps the workflow message', () => {
		const workflow = (phase: unknown) =>
			computeHealth(
				object('argoproj.io/v1alpha1', 'Workflow', { status: { phase, message: 'm' } }),
			);
		assert.deepEqual(workflow('Succeeded'), { status: 'Healthy', message: 'm' });
		assert.equal(workflow('Failed')?.status, 'Degraded');
		assert.equal(workflow('Error')?.status, 'Degraded');
		assert.equal(workflow('Pending')?.status, 'Progressing');
		assert.equal(workflow(42)?.status, 'Progressing', 'a non-string phase reads as ""');
		assert.equal(workflow('Skipped')?.status, 'Unknown');
	});
});

describe('Argo CD Application health (removed in Argo CD 1.8)', () => {
	const app = (status?: unknown) =>
		object('argoproj.io/v1alpha1', 'Application', status === undefined ? {} : { status });

	it('gives an Application no health of its own, whatever its status.health says', () => {
		assert.equal(
			computeHealth(app({ health: { status: 'Degraded', message: 'child broken' } })),
			null,
		);
		assert.equal(computeHealth(app()), null);
	});

	it('says in the tooltip that a default Argo CD assesses no health for an Application', () => {
		const input = app({ health: { status: 'Healthy' } });
		const tooltip = objectTooltipMarkdown(input, computeStatus(input));
		assert.match(
			tooltip,
			/Argo CD: a default Argo CD \(1\.8 and later\) assesses no health for an Application/,
		);
		assert.doesNotMatch(tooltip, /Argo CD: Healthy/);
	});

	it('keeps the plain sentence for other kinds without a check', () => {
		assert.equal(noHealthSentence(object('v1', 'ConfigMap')), 'no health check for this kind');
	});
});

describe('Argo CD built-in Lua: CronJob, PodDisruptionBudget, CustomResourceDefinition', () => {
	const cronJob = (spec: unknown, status?: unknown) =>
		object('batch/v1', 'CronJob', status === undefined ? { spec } : { spec, status });

	it('calls a suspended CronJob Healthy, not Suspended', () => {
		assert.deepEqual(computeHealth(cronJob({ suspend: true })), {
			status: 'Healthy',
			message: 'CronJob is Suspended',
		});
	});

	it('waits for a CronJob without status', () => {
		assert.deepEqual(computeHealth(cronJob({})), {
			status: 'Progressing',
			message: 'Waiting for CronJob',
		});
	});

	it('calls a CronJob whose last success is not older than its last schedule Healthy', () => {
		const result = computeHealth(
			cronJob(
				{},
				{ lastScheduleTime: '2024-01-01T10:00:00Z', lastSuccessfulTime: '2024-01-01T10:00:30Z' },
			),
		);
		assert.deepEqual(result, {
			status: 'Healthy',
			message: 'CronJob has completed its last execution successfully',
		});
	});

	it('reports Unknown with the Lua error for a CronJob without spec', () => {
		const result = computeHealth(object('batch/v1', 'CronJob'));
		assert.equal(result?.status, 'Unknown');
		// Argo CD shows gopher-lua's own words, with no prefix naming the script.
		assert.equal(result?.message, "attempt to index a non-table object(nil) with key 'suspend'");
	});

	it('runs no Lua when overrides are off, so a CronJob has no health', () => {
		assert.equal(computeHealth(cronJob({ suspend: true }), { overrides: false }), null);
	});

	const pdb = (...list: Json[]) =>
		object('policy/v1', 'PodDisruptionBudget', { status: { conditions: list } });

	it('allows InsufficientPods on a PodDisruptionBudget, the last condition winning', () => {
		const result = computeHealth(
			pdb(
				{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods' },
				{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' },
			),
		);
		assert.deepEqual(result, {
			status: 'Healthy',
			message: 'PodDisruptionBudget has InsufficientPods',
		});
	});

	it('degrades a PodDisruptionBudget on the first other False condition', () => {
		const result = computeHealth(
			pdb(
				{ type: 'DisruptionAllowed', status: 'False', reason: 'SyncFailed' },
				{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods' },
			),
		);
		assert.deepEqual(result, { status: 'Degraded', message: 'PodDisruptionBudget has SyncFailed' });
	});

	it('reports Unknown for a PodDisruptionBudget condition without reason (Lua cannot concatenate nil)', () => {
		const result = computeHealth(pdb({ type: 'DisruptionAllowed', status: 'True' }));
		assert.equal(result?.status, 'Unknown');
		assert.equal(result?.message, 'cannot perform concat operation between string and nil');
	});

	const crd = (status: unknown) =>
		object('apiextensions.k8s.io/v1', 'CustomResourceDefinition', { status });

	it('checks CustomResourceDefinitions with the built-in Lua', () => {
		assert.deepEqual(
			computeHealth(crd({ conditions: [{ type: 'Established', status: 'True' }] })),
			{
				status: 'Healthy',
				message: 'CRD is healthy',
			},
		);
		assert.deepEqual(
			computeHealth(
				crd({ conditions: [{ type: 'Established', status: 'False', reason: 'Installing' }] }),
			),
			{ status: 'Progressing', message: 'CRD is being installed' },
		);
		assert.deepEqual(computeHealth(crd({ conditions: [] })), {
			status: 'Progressing',
			message: 'Status conditions not found',
		});
		assert.deepEqual(
			computeHealth(
				crd({ conditions: [{ type: 'NamesAccepted', status: 'False', message: 'taken' }] }),
			),
			{ status: 'Degraded', message: 'CRD names have not been accepted: taken' },
		);
		assert.deepEqual(
			computeHealth(crd({ conditions: [{ type: 'NamesAccepted', status: 'True' }] })),
			{
				status: 'Degraded',
				message: 'CRD is not established',
			},
		);
	});
});

describe('Argo CD built-in Lua: Flux toolkit kinds', () => {
	const flux = (apiVersion: string, kind: string, spec: Json, status?: unknown) =>
		object(apiVersion, kind, status === undefined ? { spec } : { spec, status });
	const ready = { type: 'Ready', status: 'True', reason: 'Succeeded' };

	it('degrades a HelmRelease with Ready, Released and TestSuccess all True (the Lua counts with ==)', () => {
		const result = computeHealth(
			flux(
				'helm.toolkit.fluxcd.io/v2',
				'HelmRelease',
				{},
				conditions(
					{ ...ready, reason: 'UpgradeSucceeded' },
					{ type: 'Released', status: 'True' },
					{ type: 'TestSuccess', status: 'True' },
				),
			),
		);
		assert.deepEqual(result, { status: 'Degraded', message: 'UpgradeSucceeded' });
	});

	it('calls a HelmRelease with Ready and Released True Healthy', () => {
		const result = computeHealth(
			flux(
				'helm.toolkit.fluxcd.io/v2',
				'HelmRelease',
				{},
				conditions({ ...ready, reason: 'UpgradeSucceeded' }, { type: 'Released', status: 'True' }),
			),
		);
		assert.deepEqual(result, { status: 'Healthy', message: 'UpgradeSucceeded' });
	});

	it('suspends a Flux object with spec.suspend, naming its kind', () => {
		const result = computeHealth(
			flux('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', { suspend: true }),
		);
		assert.deepEqual(result, { status: 'Suspended', message: 'Kustomization is suspended' });
	});

	it('says "Status unknown" without status.conditions, and Degraded "" for an empty list', () => {
		assert.deepEqual(computeHealth(flux('source.toolkit.fluxcd.io/v1', 'GitRepository', {})), {
			status: 'Progressing',
			message: 'Status unknown',
		});
		assert.deepEqual(
			computeHealth(flux('source.toolkit.fluxcd.io/v1', 'GitRepository', {}, conditions())),
			{
				status: 'Degraded',
				message: '',
			},
		);
	});

	it('calls an oci HelmRepository Healthy: it keeps no status', () => {
		const result = computeHealth(
			flux('source.toolkit.fluxcd.io/v1', 'HelmRepository', { type: 'oci' }, {}),
		);
		assert.deepEqual(result, {
			status: 'Healthy',
			message: "Helm repositories of type 'oci' do not contain any information in the status.",
		});
	});

	it('appends the ArtifactOutdated reason to a source message', () => {
		for (const kind of [
			'GitRepository',
			'Bucket',
			'HelmChart',
			'OCIRepository',
			'HelmRepository',
		]) {
			const result = computeHealth(
				flux(
					'source.toolkit.fluxcd.io/v1',
					kind,
					{},
					conditions(
						ready,
						{ type: 'ArtifactInStorage', status: 'True' },
						{ type: 'ArtifactOutdated', status: 'True', reason: 'NewRevision' },
					),
				),
			);
			assert.deepEqual(result, { status: 'Healthy', message: 'Succeeded NewRevision' }, kind);
		}
	});

	it('needs both Ready and ArtifactInStorage for a Healthy source', () => {
		const result = computeHealth(
			flux('source.toolkit.fluxcd.io/v1', 'Bucket', {}, conditions(ready)),
		);
		assert.deepEqual(result, { status: 'Degraded', message: 'Succeeded' });
	});

	it('calls a Kustomization progressing only with Ready=Unknown and Reconciling=True together', () => {
		const result = computeHealth(
			flux(
				'kustomize.toolkit.fluxcd.io/v1',
				'Kustomization',
				{},
				conditions(
					{ type: 'Ready', status: 'Unknown', reason: 'Progressing' },
					{ type: 'Reconciling', status: 'True', reason: 'Progressing' },
				),
			),
		);
		assert.deepEqual(result, { status: 'Progressing', message: 'Progressing' });
	});

	it('counts ImagePolicy reconciling only for its known reasons', () => {
		const policy = (reason: string) =>
			computeHealth(
				flux(
					'image.toolkit.fluxcd.io/v1beta2',
					'ImagePolicy',
					{},
					conditions(
						{ type: 'Ready', status: 'False', reason: 'Waiting' },
						{ type: 'Reconciling', status: 'True', reason },
					),
				),
			)?.status;
		assert.equal(policy('ApplyingPolicy'), 'Progressing');
		assert.equal(policy('ProgressingWithRetry'), 'Degraded');
	});

	it('ignores spec.suspend on an ImagePolicy, whose Lua has no suspend check', () => {
		const result = computeHealth(
			flux('image.toolkit.fluxcd.io/v1beta2', 'ImagePolicy', { suspend: true }, conditions(ready)),
		);
		assert.equal(result?.status, 'Healthy');
	});

	it('counts ImageRepository scanning as progressing', () => {
		const result = computeHealth(
			flux(
				'image.toolkit.fluxcd.io/v1beta2',
				'ImageRepository',
				{},
				conditions(
					{ type: 'Reconciling', status: 'True', reason: 'Scanning' },
					{ type: 'Ready', status: 'False', reason: 'Scanning' },
				),
			),
		);
		assert.deepEqual(result, { status: 'Progressing', message: 'Scanning' });
	});

	it('degrades a Receiver that is not Ready and calls a Ready one Healthy', () => {
		const receiver = (...list: Json[]) =>
			computeHealth(flux('notification.toolkit.fluxcd.io/v1', 'Receiver', {}, conditions(...list)));
		assert.deepEqual(
			receiver(
				{ type: 'Ready', status: 'False', reason: 'Failed' },
				{ type: 'Reconciling', status: 'True' },
			),
			{ status: 'Degraded', message: 'Failed' },
		);
		assert.deepEqual(receiver(ready), { status: 'Healthy', message: 'Succeeded' });
	});

	it('checks ImageUpdateAutomation like a Kustomization', () => {
		const result = computeHealth(
			flux('image.toolkit.fluxcd.io/v1beta2', 'ImageUpdateAutomation', {}, conditions(ready)),
		);
		assert.deepEqual(result, { status: 'Healthy', message: 'Succeeded' });
	});

	it('reports Unknown when a Flux Lua check would fail on a missing spec', () => {
		const result = computeHealth(object('source.toolkit.fluxcd.io/v1', 'GitRepository'));
		assert.equal(result?.status, 'Unknown');
		assert.equal(result?.message, "attempt to index a non-table object(nil) with key 'suspend'");
	});

	it('reports Unknown when Lua would hand a non-string message back to Go', () => {
		const result = computeHealth(
			flux(
				'kustomize.toolkit.fluxcd.io/v1',
				'Kustomization',
				{},
				conditions({ type: 'Ready', status: 'True', reason: 5 }),
			),
		);
		assert.equal(result?.status, 'Unknown');
		assert.match(result?.message ?? '', /cannot unmarshal number/);
	});
});
