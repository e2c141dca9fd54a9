import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { parseManifests } from '../../../../src/core/manifest/parse.ts';
import {
	currentStatusYaml,
	mergeInputsFrom,
	mergePreviewYaml,
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
		assert.match(text, /readyReplicas: 1 # min from cluster3/);
		assert.match(text, /^# Mode: multi/m);
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

	it('shows the current status for the diff', () => {
		assert.deepEqual(parse(currentStatusYaml({ status: { replicas: 3 } })), {
			status: { replicas: 3 },
		});
	});
});
