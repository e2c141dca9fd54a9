import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { parseManifests } from '../../../../src/core/manifest/parse.ts';
import {
	currentStatusYaml,
	mergeDiffTitle,
	mergedStatusYaml,
	mergeInputsFrom,
	mergePreviewYaml,
	mergeWorkloadOf,
} from '../../../../src/core/merge/mergePreview.ts';
import { repoRoot } from '../../../support/conformance.ts';

const folder = join(repoRoot, 'examples/workspace/kubestellar');
const objects = [
	'bindingpolicy.yaml',
	'deployment.yaml',
	'its-workstatuses.yaml',
	'managedclusters.yaml',
].flatMap((file) =>
	parseManifests(readFileSync(join(folder, file), 'utf8')).objects.map((entry) => entry.object),
);
const workload = objects.find((object) => object.kind === 'Deployment');

describe('merge preview', () => {
	it('offers the preview for a workload a BindingPolicy selects, saying why', () => {
		const inputs = mergeInputsFrom(workload, objects);
		assert.match(inputs.because ?? '', /selected by .*; 3 WorkStatus object\(s\) refer to it/);
		assert.equal(inputs.perWec.length, 3);
	});

	it('does not offer it for a Deployment nothing selects or reports', () => {
		const lonely = {
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			metadata: { name: 'lonely', namespace: 'default' },
		};
		assert.equal(mergeInputsFrom(lonely, objects).because, undefined);
	});

	it('writes the merged status as YAML that parses back to the merge result, with a rule comment per field', () => {
		const { text, result } = mergePreviewYaml(
			workload,
			mergeInputsFrom(workload, objects),
			'proposal',
		);
		assert.deepEqual(parse(text), { status: result.status });
		assert.match(
			text,
			/^ {2}readyReplicas: 1 # decided by cluster3: the lowest value of the WECs$/m,
		);
		assert.match(text, /^ {2}replicas: 2 # the same in all 3 WECs$/m);
		assert.match(text, /^# Mode: multi \(KubeStellar merges the WECs' statuses\)$/m);
		assert.match(text, /^# {3}condition Available\s+True\s+True\s+False$/m);
	});

	it('keeps untrusted text from breaking out of its comment lines', () => {
		const sneaky = {
			...workload,
			metadata: { ...(workload?.metadata as object), name: 'x\nstatus: hacked' },
		};
		const { text } = mergePreviewYaml(sneaky, { perWec: [], policies: null }, 'proposal');
		assert.ok(!/^status: hacked/m.test(text));
	});

	it('wraps long header lines so an editor of normal width shows them whole', () => {
		const long = {
			...workload,
			metadata: {
				...(workload?.metadata as object),
				name: `checkout-${'frontend-'.repeat(12)}service`,
			},
		};
		const { text } = mergePreviewYaml(long, mergeInputsFrom(workload, objects), 'proposal');
		const header = text.split('\n').filter((line) => line.startsWith('#'));
		for (const line of header) assert.ok(line.length <= 100, line);
		assert.match(text, /^# The \.status KubeStellar would write into Deployment/m);
		assert.match(text, /^# {3}\S/m, 'continued lines are indented');
		assert.deepEqual(parse(text) as unknown, {
			status: mergePreviewYaml(long, mergeInputsFrom(workload, objects), 'proposal').result.status,
		});
	});

	it('shows the current status for the diff', () => {
		assert.deepEqual(parse(currentStatusYaml({ status: { replicas: 3 } })), {
			status: { replicas: 3 },
		});
	});

	it('speaks plain words: no rule ids, no command-line flag, the WEC that decided each condition', () => {
		for (const rules of ['proposal', 'kubestellar'] as const) {
			const { text } = mergePreviewYaml(workload, mergeInputsFrom(workload, objects), rules);
			assert.doesNotMatch(
				text,
				/three-valued|from-merged-status|matched-by-key|same-value|--rules|literal rule|# (min|max|latest) from/,
			);
		}
		const { text } = mergePreviewYaml(workload, mergeInputsFrom(workload, objects), 'proposal');
		assert.match(
			text,
			/^ {6}status: "False" # decided by cluster3: False there, and one WEC reporting False makes it False$/m,
		);
		assert.match(text, /^ {6}reason: MinimumReplicasUnavailable # decided by cluster3: /m);
		assert.match(text, /^# Why this workload: selected by nginx-multiwec; 3 WorkStatus/m);
		// It names what differs: the statuses of the two rule sets agree on every field but the conditions here.
		assert.match(
			text,
			/^# The released KubeStellar controller would write a different status \(different conditions\): /m,
		);
	});

	it('diffs a bare status against a bare status, saying when there is none yet', () => {
		const inputs = mergeInputsFrom(workload, objects);
		assert.equal(currentStatusYaml(workload), 'status: {}\n');
		const merged = mergedStatusYaml(workload, inputs, 'proposal');
		assert.doesNotMatch(merged, /#/);
		assert.deepEqual(parse(merged), {
			status: mergePreviewYaml(workload, inputs, 'proposal').result.status,
		});
		assert.equal(
			mergeDiffTitle(workload, 'proposal'),
			'Deployment nginx/nginx: no .status yet ↔ merged by the proposal',
		);
		assert.equal(
			mergeDiffTitle({ ...workload, status: { replicas: 2 } }, 'kubestellar'),
			'Deployment nginx/nginx: .status now ↔ merged by KubeStellar today',
		);
	});
});

describe('merge preview comments and inputs', () => {
	const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' } };
	const podStatus = (podIP: string, restartCount: number) => ({
		status: {
			phase: 'Running',
			podIP,
			conditions: [{ type: 'example.com/Ready', status: 'True' }],
			containerStatuses: [
				{ name: 'app', restartCount, ready: true },
				{ name: 'side.car', restartCount: 0, ready: true },
			],
		},
	});
	const podInputs = {
		perWec: [
			{ wec: 'a', object: podStatus('10.0.0.1', 1) },
			{ wec: 'b', object: podStatus('10.0.0.2', 3) },
		],
		policies: null,
	};

	it("comments fields of list items whose key holds a dot, and puts an item's own comment above it", () => {
		const { text } = mergePreviewYaml(pod, podInputs, 'proposal');
		assert.match(text, /^ {6}status: "True" # True in both WECs$/m);
		assert.match(
			text,
			/^ {4}# the same item in a, b\n {4}- name: side\.car # the same in both WECs$/m,
		);
		assert.match(text, /^ {6}restartCount: 3 # decided by b: the highest value of the WECs$/m);
	});

	it('lists the fields it leaves out, and why', () => {
		const { text } = mergePreviewYaml(pod, podInputs, 'proposal');
		assert.match(text, /^# Left out:\n# {3}- podIP: WECs disagree \(b differs from a\)$/m);
		assert.equal(/^ {2}podIP:/m.test(text), false);
	});

	it('names at most five WECs beside a field, then how many more', () => {
		const perWec = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((wec) => ({
			wec,
			object: { status: { phase: wec === 'h' ? 'Succeeded' : 'Running' } },
		}));
		const { text } = mergePreviewYaml(pod, { perWec, policies: null }, 'proposal');
		assert.match(
			text,
			/^ {2}phase: Running # decided by a, b, c, d, e and 2 more: the most severe phase of the WECs /m,
		);
	});

	it('takes copies given for named WECs: WorkStatus objects, objects read from a WEC, bare statuses', () => {
		const deployment = {
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			metadata: { name: 'web', namespace: 'shop' },
		};
		const inputs = mergeInputsFrom(deployment, [], {
			wecs: [
				{ wec: 'east', documents: [{ ...deployment, status: { replicas: 2 } }] },
				{ wec: 'north', documents: [{ status: { replicas: 1 } }] },
				{ wec: 'south', documents: [{ replicas: 3 }] },
			],
		});
		assert.deepEqual(inputs.perWec, [
			{ wec: 'east', object: { ...deployment, status: { replicas: 2 } } },
			{ wec: 'north', object: { status: { replicas: 1 } } },
			{ wec: 'south', object: { status: { replicas: 3 } } },
		]);
		assert.equal(inputs.because, 'copies given for east, north, south');
		assert.equal(inputs.policies, null);
		assert.equal(mergePreviewYaml(deployment, inputs, 'proposal').result.status.replicas, 1);
	});

	it('finds the workload files are a merge of: the one offered the preview, else the only one', () => {
		const workStatuses = objects.filter((object) => object.kind === 'WorkStatus');
		const other = {
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			metadata: { name: 'other', namespace: 'default' },
		};
		assert.deepEqual(mergeWorkloadOf([...objects, other]), { kind: 'found', workload });
		assert.deepEqual(mergeWorkloadOf([other, ...workStatuses]), {
			kind: 'found',
			workload: other,
		});
		assert.deepEqual(mergeWorkloadOf(workStatuses), { kind: 'none' });
		const twin = { ...other, metadata: { name: 'twin', namespace: 'default' } };
		assert.deepEqual(mergeWorkloadOf([other, twin]), {
			kind: 'several',
			candidates: [other, twin],
		});
	});
});
