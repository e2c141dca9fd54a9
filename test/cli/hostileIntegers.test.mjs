// Generations beyond 2^53 through the bundled CLI, on whichever Node runs this file (Node 24 and Node 20 in CI).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'dist/cli.cjs');

const desired = '9007199254740993';
const seen = '9007199254740992';

const deployment = {
	apiVersion: 'apps/v1',
	kind: 'Deployment',
	metadata: { name: 'web', namespace: 'shop', generation: 1 },
	spec: { replicas: 1 },
	status: {
		observedGeneration: 2,
		replicas: 1,
		updatedReplicas: 1,
		readyReplicas: 1,
		availableReplicas: 1,
	},
};

// JSON.stringify cannot write these numbers, so they go in as text.
const json = JSON.stringify(deployment)
	.replace('"generation":1', `"generation":${desired}`)
	.replace('"observedGeneration":2', `"observedGeneration":${seen}`);
const yaml = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, generation: ${desired}}
spec: {replicas: 1}
status: {observedGeneration: ${seen}, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1}
`;

function statusOf(fileName, text) {
	const folder = mkdtempSync(join(tmpdir(), 'ksl-int64-'));
	const file = join(folder, fileName);
	writeFileSync(file, text);
	const result = spawnSync(process.execPath, [cli, 'status', '--json', file], { encoding: 'utf8' });
	assert.equal(result.stderr, '');
	const [record] = JSON.parse(result.stdout);
	return record;
}

describe(`kube-status-lens status with int64 generations on Node ${process.versions.node}`, () => {
	for (const [fileName, text] of [
		['web.yaml', yaml],
		['web.json', json],
	]) {
		it(`reads ${fileName} one generation behind, as kubectl and Argo CD do`, () => {
			const record = statusOf(fileName, text);
			assert.equal(record.kstatus.status, 'InProgress');
			assert.equal(
				record.kstatus.message,
				`Deployment generation is ${desired}, but latest observed generation is ${seen}`,
			);
			assert.equal(record.health.status, 'Progressing');
		});
	}
});
