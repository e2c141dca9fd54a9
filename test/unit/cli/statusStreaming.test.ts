// `status` writes the records of each file as it reads it and lets its objects go, until an object whose status is
// computed from others comes (a Fleet GitRepo or Bundle, a KubeStellar WorkStatus): every record must still be what
// reading all the objects together gives, whichever file such an object is in.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import jsyaml from 'js-yaml';
import { isFleetParent } from '../../../src/core/status/standalone.ts';
import { runStatusCommand } from '../../../src/cli/statusCommand.ts';

const fleetApi = 'fleet.cattle.io/v1alpha1';

function bundleDeployment(name: string, ready: boolean): Record<string, unknown> {
	return {
		apiVersion: fleetApi,
		kind: 'BundleDeployment',
		metadata: {
			name,
			namespace: 'cluster-fleet-default-c1-0123456789ab',
			labels: {
				'fleet.cattle.io/bundle-name': 'app',
				'fleet.cattle.io/bundle-namespace': 'fleet-default',
				'fleet.cattle.io/repo-name': 'repo',
			},
		},
		spec: { deploymentID: 'd1', stagedDeploymentID: 'd1' },
		status: {
			appliedDeploymentID: 'd1',
			ready,
			nonModified: true,
			conditions: [
				{
					type: 'Ready',
					status: ready ? 'True' : 'False',
					message: ready ? '' : 'ErrApplied: boom',
				},
			],
		},
	};
}

const gitRepo = {
	apiVersion: fleetApi,
	kind: 'GitRepo',
	metadata: { name: 'repo', namespace: 'fleet-default', generation: 1 },
	spec: { repo: 'https://example.com/repo' },
	status: { observedGeneration: 1 },
};
const bundle = {
	apiVersion: fleetApi,
	kind: 'Bundle',
	metadata: {
		name: 'app',
		namespace: 'fleet-default',
		labels: { 'fleet.cattle.io/repo-name': 'repo' },
		generation: 1,
	},
	spec: {},
	status: { observedGeneration: 1 },
};
const deployment = {
	apiVersion: 'apps/v1',
	kind: 'Deployment',
	metadata: { name: 'nginx', namespace: 'default', generation: 1 },
	spec: { replicas: 2 },
	status: {
		observedGeneration: 1,
		replicas: 2,
		updatedReplicas: 2,
		readyReplicas: 2,
		availableReplicas: 2,
		conditions: [{ type: 'Available', status: 'True' }],
	},
};
const workStatus = {
	apiVersion: 'control.kubestellar.io/v1alpha1',
	kind: 'WorkStatus',
	metadata: { name: 'appsv1-deployment-default-nginx', namespace: 'cluster1' },
	spec: {
		sourceRef: {
			group: 'apps',
			version: 'v1',
			resource: 'deployments',
			kind: 'Deployment',
			name: 'nginx',
			namespace: 'default',
		},
	},
};

function status(args: readonly string[]): { code: number; records: Record<string, unknown>[] } {
	let stdout = '';
	let stderr = '';
	const code = runStatusCommand(['--json', ...args], {
		stdout: (text) => {
			stdout += text;
		},
		stderr: (text) => {
			stderr += text;
		},
		isTty: false,
		now: 0,
	});
	assert.equal(stderr, '');
	return { code, records: JSON.parse(stdout) as Record<string, unknown>[] };
}

const list = (items: readonly unknown[]): string =>
	`${JSON.stringify({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } }, null, 4)}\n`;

/** The objects in three files, and the same objects in one file (read together, as before streaming). */
function dumps(files: readonly (readonly unknown[])[]): { folder: string; together: string } {
	const folder = mkdtempSync(join(tmpdir(), 'ksl-status-stream-'));
	files.forEach((objects, index) => {
		writeFileSync(join(folder, `${index}.json`), list(objects));
	});
	const together = join(mkdtempSync(join(tmpdir(), 'ksl-status-together-')), 'all.yaml');
	writeFileSync(together, jsyaml.dump({ apiVersion: 'v1', kind: 'List', items: files.flat() }));
	return { folder, together };
}

const withoutSource = (records: readonly Record<string, unknown>[]): unknown[] =>
	records.map((record) => ({ ...record, source: undefined }));

describe('status --json over many files', () => {
	const early = [bundleDeployment('a1', true), bundleDeployment('a2', false), deployment];
	const late = [bundleDeployment('c1', true), bundleDeployment('c2', true)];
	const parents = [gitRepo, bundle, workStatus];

	for (const [label, files] of [
		['parents between the BundleDeployments', [early, parents, late]],
		['parents after every BundleDeployment', [early, late, parents]],
		['parents first', [parents, early, late]],
		['no parents', [early, late]],
	] as const) {
		it(`gives every object what all objects read together give (${label})`, () => {
			const { folder, together } = dumps(files);
			const streamed = status([folder]);
			const joined = status([together]);
			assert.equal(streamed.code, joined.code);
			assert.deepEqual(withoutSource(streamed.records), withoutSource(joined.records));
			// In the input's order, Fleet's parents last (their roll-ups read every BundleDeployment).
			const objects = files.flat();
			assert.deepEqual(
				streamed.records.map((record) => record.name),
				[
					...objects.filter((object) => !isFleetParent(object)),
					...objects.filter((object) => isFleetParent(object)),
				].map((object) => (object.metadata as { name: string }).name),
			);
		});
	}

	it('counts BundleDeployments of files written before the GitRepo came in its roll-up', () => {
		const { folder } = dumps([early, late, parents]);
		const repo = status([folder]).records.find((record) => record.kind === 'GitRepo');
		const computed = repo?.computed as { summary?: { desiredReady?: number } } | undefined;
		assert.equal(computed?.summary?.desiredReady, 4, JSON.stringify(repo));
		const work = status([folder]).records.find((record) => record.kind === 'WorkStatus');
		assert.doesNotMatch(String(work?.message), /not found|unknown workload/i, JSON.stringify(work));
	});
});
