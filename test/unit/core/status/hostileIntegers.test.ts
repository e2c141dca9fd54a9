import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseManifests, parseManifestsWithNodes } from '../../../../src/core/manifest/parse.ts';
import { LongDigitRunWatch, parseJsonKeepingIntegers } from '../../../../src/core/model/int64.ts';
import { computeHealth } from '../../../../src/core/status/argocdHealth.ts';
import { computeKstatus } from '../../../../src/core/status/kstatus.ts';
import { computeStatus } from '../../../../src/core/status/registry.ts';

// 2^53 + 1 and 2^53 are the same JavaScript number; Go's int64 tells them apart, so kubectl, kstatus and Argo CD see a
// controller one generation behind.
const desired = '9007199254740993';
const seen = '9007199254740992';

const deploymentYaml = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  generation: ${desired}
spec:
  replicas: 1
status:
  observedGeneration: ${seen}
  replicas: 1
  updatedReplicas: 1
  readyReplicas: 1
  availableReplicas: 1
  conditions:
    - {type: Available, status: 'True'}
    - {type: Progressing, status: 'True', reason: NewReplicaSetAvailable}
`;

const deploymentJson = `{"apiVersion": "apps/v1", "kind": "Deployment",
 "metadata": {"name": "web", "namespace": "shop", "generation": ${desired}},
 "spec": {"replicas": 1},
 "status": {"observedGeneration": ${seen}, "replicas": 1, "updatedReplicas": 1, "readyReplicas": 1,
  "availableReplicas": 1, "conditions": [{"type": "Available", "status": "True"},
  {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"}]}}
`;

function onlyObject(text: string, fileName?: string): Record<string, unknown> {
	const parsed = parseManifests(text, fileName === undefined ? {} : { fileName });
	assert.deepEqual(parsed.problems, []);
	assert.equal(parsed.objects.length, 1);
	const object = parsed.objects[0]?.object;
	assert.ok(object);
	return object;
}

function assertOneGenerationBehind(object: unknown): void {
	assert.deepEqual(computeKstatus(object), {
		status: 'InProgress',
		reason: 'LatestGenerationNotObserved',
		message: `Deployment generation is ${desired}, but latest observed generation is ${seen}`,
	});
	assert.equal(computeHealth(object)?.status, 'Progressing');
}

describe('int64 generations beyond 2^53', () => {
	it('a Deployment read from a cluster (JSON) one generation behind is InProgress and Progressing', () => {
		assertOneGenerationBehind(parseJsonKeepingIntegers(deploymentJson));
		// The same generation read from a watch event's object.
		const event = parseJsonKeepingIntegers(`{"type":"MODIFIED","object":${deploymentJson}}`);
		assertOneGenerationBehind((event as { object: unknown }).object);
	});

	it('a generation split over the chunks of an answer is still read exactly', () => {
		// A cluster's answer is decoded and looked at chunk by chunk as it arrives (src/k8s/requests.ts).
		for (let split = 1; split < deploymentJson.length; split += 7) {
			const watch = new LongDigitRunWatch();
			watch.add(deploymentJson.slice(0, split));
			watch.add(deploymentJson.slice(split));
			assert.equal(watch.seen, true, `split at ${split}`);
			assertOneGenerationBehind(parseJsonKeepingIntegers(deploymentJson, watch.seen));
		}
	});

	it('sees a run of 16 digits in pieces exactly when the whole text holds one', () => {
		const seed = Number(process.env.KSL_SEED ?? Date.now() % 100_000);
		let state = seed;
		const random = (): number => {
			state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
			return state / 2 ** 32;
		};
		for (let round = 0; round < 2000; round++) {
			let text = '';
			while (text.length < 60) text += random() < 0.7 ? String(Math.floor(random() * 10)) : 'x';
			const watch = new LongDigitRunWatch();
			for (let at = 0; at < text.length;) {
				const length = Math.floor(random() * 12);
				watch.add(text.slice(at, at + length));
				at += length;
			}
			assert.equal(watch.seen, /\d{16}/.test(text), `seed ${seed}, ${JSON.stringify(text)}`);
		}
	});

	it('JSON without long integers reads as JSON.parse reads it', () => {
		const text = '{"a":[1,2.5,"9007199254740993"],"b":{"c":null}}';
		assert.deepEqual(parseJsonKeepingIntegers(text), JSON.parse(text));
	});

	it('a YAML Deployment one generation behind is InProgress and Progressing, as Go reads it', () => {
		assertOneGenerationBehind(onlyObject(deploymentYaml));
	});

	it('the same in JSON', () => {
		assertOneGenerationBehind(onlyObject(deploymentJson, 'web.json'));
	});

	it('the same on the careful path (a document with an anchor) and with node ranges', () => {
		const anchored = deploymentYaml.replace('name: web', 'name: &name web');
		assertOneGenerationBehind(onlyObject(anchored));
		const withNodes = parseManifestsWithNodes(deploymentYaml);
		assertOneGenerationBehind(withNodes.objects[0]?.object);
	});

	it('the same in the second document of a stream and in a List item', () => {
		const stream = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n${deploymentYaml}`;
		const parsed = parseManifests(stream);
		assertOneGenerationBehind(parsed.objects[1]?.object);
		const list = parseManifests(
			`{"apiVersion": "v1", "kind": "List", "items": [${deploymentJson}]}`,
		);
		assertOneGenerationBehind(list.objects[0]?.object);
	});

	it('equal big generations are still Current and Healthy, and the values stay plain numbers', () => {
		const object = onlyObject(deploymentYaml.replace(seen, desired));
		assert.equal(computeKstatus(object).status, 'Current');
		assert.equal(computeHealth(object)?.status, 'Healthy');
		assert.equal(typeof (object.metadata as Record<string, unknown>).generation, 'number');
		assert.doesNotThrow(() => JSON.stringify(object));
	});

	it('a number replaced after parsing is read as it now is', () => {
		const object = onlyObject(deploymentYaml);
		(object.metadata as Record<string, unknown>).generation = 5;
		(object.status as Record<string, unknown>).observedGeneration = 5;
		assert.equal(computeKstatus(object).status, 'Current');
	});

	it('Flux, KubeStellar and ASO compare their generations exactly too', () => {
		const flux = onlyObject(`apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata: {name: repo, namespace: flux-system, generation: ${desired}}
status:
  observedGeneration: ${seen}
  conditions:
    - {type: Ready, status: 'True', reason: Succeeded, message: stored artifact}
`);
		assert.equal(computeStatus(flux).tone, 'progressing');

		const kubestellar = onlyObject(`apiVersion: control.kubestellar.io/v1alpha1
kind: BindingPolicy
metadata: {name: policy, generation: ${desired}}
spec: {clusterSelectors: [{matchLabels: {env: prod}}]}
status:
  observedGeneration: ${seen}
  conditions:
    - {type: Synced, status: 'True', reason: Synced}
    - {type: Ready, status: 'True', reason: Ready}
`);
		const kubestellarResult = computeStatus(kubestellar);
		assert.equal(kubestellarResult.state, 'Pending');
		assert.match(kubestellarResult.message, new RegExp(`Generation ${desired} not yet observed`));

		const aso = onlyObject(`apiVersion: resources.azure.com/v1api20200601
kind: ResourceGroup
metadata: {name: rg, namespace: default, generation: ${desired}}
status:
  conditions:
    - {type: Ready, status: 'True', reason: Succeeded, observedGeneration: ${seen}}
`);
		const asoResult = computeStatus(aso);
		assert.equal(asoResult.tone, 'progressing');
		assert.match(
			asoResult.reasons.join(' '),
			new RegExp(`generation ${seen}, but the spec is at generation ${desired}`),
		);
	});
});

describe('int64 generations beyond 2^53 in diagnostics', () => {
	it('a status and a condition one generation behind are stale, with the exact numbers in the message', async () => {
		const { diagnoseManifest } = await import('../../../../src/core/manifest/diagnose.ts');
		const text = `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: charts
  namespace: flux-system
  generation: ${desired}
spec:
  url: https://example.com/charts
status:
  observedGeneration: ${seen}
  conditions:
    - type: Ready
      status: "True"
      reason: Succeeded
      message: stored artifact
      observedGeneration: ${seen}
      lastTransitionTime: "2026-11-24T10:00:00Z"
`;
		const stale = diagnoseManifest(text).filter(
			(finding) => finding.code === 'stale-observed-generation',
		);
		assert.equal(stale.length, 2, JSON.stringify(stale.map((finding) => finding.message)));
		for (const finding of stale) {
			assert.ok(
				finding.message.includes(seen) && finding.message.includes(desired),
				finding.message,
			);
		}
	});
});
