// `status --json` writes its records as UTF-8 bytes in batches of about a MiB (never one giant string): the text must
// still be exactly JSON.stringify(records, null, 2), whatever the strings hold and wherever a batch ends. Run by the
// bundled CLI on whichever Node runs this file (Node 24 and Node 20 in CI).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'dist/cli.cjs');

const awkward = [
	'plain',
	'quote " backslash \\ slash /',
	'é ✓ 😀',
	'line\u2028separator',
	'bell\u0007and\u001b[31mescape',
	'lone \ud800 surrogate',
	'{"json": [1, 2]}',
];

function bundleDeployment(index, message) {
	const text = awkward[index % awkward.length];
	return {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'BundleDeployment',
		metadata: { name: `bd-${index} ${text}`, namespace: `ns-${index % 3} ${text}` },
		spec: { deploymentID: 'd1', stagedDeploymentID: 'd1' },
		status: {
			appliedDeploymentID: 'd1',
			ready: message === '',
			nonModified: true,
			conditions: [{ type: 'Ready', status: message === '' ? 'True' : 'False', message }],
		},
	};
}

describe(`kube-status-lens status --json bytes on Node ${process.versions.node}`, () => {
	it('writes JSON.stringify(records, null, 2) across batches, with every string as it was read', () => {
		const folder = mkdtempSync(join(tmpdir(), 'ksl-json-output-'));
		const items = [];
		for (let index = 0; index < 4000; index++) {
			const message =
				index % 500 === 7 ? `ErrApplied: ${awkward[index % awkward.length]} ${index}` : '';
			items.push(bundleDeployment(index, message));
		}
		// One message longer than a batch.
		items.push(bundleDeployment(4000, `ErrApplied: ${'ü'.repeat(700_000)} end`));
		writeFileSync(
			join(folder, 'dump.json'),
			`${JSON.stringify({ apiVersion: 'v1', items, kind: 'List', metadata: {} }, null, 4)}\n`,
		);
		const result = spawnSync(process.execPath, [cli, 'status', '--json', folder], {
			encoding: 'utf8',
			maxBuffer: 256 * 1024 * 1024,
		});
		assert.equal(result.stderr, '');
		assert.ok(result.stdout.length > 3 * 1024 * 1024, `only ${result.stdout.length} characters`);
		const records = JSON.parse(result.stdout);
		assert.equal(result.stdout, `${JSON.stringify(records, null, 2)}\n`);
		assert.deepEqual(
			records.map((record) => [record.name, record.namespace]),
			items.map((item) => [item.metadata.name, item.metadata.namespace]),
		);
		assert.match(records.at(-1).message, /ü{700000} end/);
		assert.deepEqual(
			records.filter((record) => record.state === 'NotReady').map((record) => record.message),
			items.flatMap((item) => item.status.conditions[0].message || []),
		);
	});
});

describe(`kube-status-lens status --json: objects being deleted, on Node ${process.versions.node}`, () => {
	it('carries metadata.deletionTimestamp and the finalizers as a field of their own, keeping the state word', () => {
		const folder = mkdtempSync(join(tmpdir(), 'ksl-json-terminating-'));
		const kustomization = (name, metadata) => ({
			apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
			kind: 'Kustomization',
			metadata: { name, namespace: 'flux-system', ...metadata },
			status: {
				conditions: [
					{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded', message: 'ok' },
				],
			},
		});
		const items = [
			kustomization('deleted', {
				deletionTimestamp: '2026-11-25T01:00:00Z',
				finalizers: ['finalizers.fluxcd.io', 'example.com/cleanup'],
			}),
			kustomization('kept', {}),
		];
		// The same objects as a JSON List (the item-by-item path) and as YAML documents (the whole-input path).
		writeFileSync(
			join(folder, 'list.json'),
			JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 4),
		);
		writeFileSync(
			join(folder, 'docs.yaml'),
			items.map((item) => JSON.stringify(item)).join('\n---\n'),
		);
		const result = spawnSync(process.execPath, [cli, 'status', '--json', folder], {
			encoding: 'utf8',
		});
		assert.equal(result.stderr, '');
		const records = JSON.parse(result.stdout);
		assert.equal(records.length, 4);
		for (const record of records) {
			assert.equal(record.state, 'Ready');
			if (record.name === 'deleted') {
				assert.deepEqual(record.terminating, {
					deletionTimestamp: '2026-11-25T01:00:00Z',
					finalizers: ['finalizers.fluxcd.io', 'example.com/cleanup'],
				});
			} else {
				assert.equal(record.terminating, null);
			}
		}
	});
});
