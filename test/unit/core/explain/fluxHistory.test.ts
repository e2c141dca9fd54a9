// Flux keeps its own record of what happened: a Kustomization's reconcile history (fluxcd/pkg apis/meta History) and
// a HelmRelease's release snapshots (helm-controller api/v2 Snapshot). The timeline reads them beside conditions and
// Events, oldest first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { timelineLines } from '../../../../src/core/explain/timeline.ts';

const now = Date.parse('2026-11-24T12:00:00Z');
const clock = { now, formatTime: (ms: number) => new Date(ms).toISOString().slice(11, 16) };

function entries(lines: readonly string[]): string[] {
	return lines.filter((line) => line.startsWith('- '));
}

/** The entries as the rendered Markdown reads (without the escapes before punctuation). */
function rendered(lines: readonly string[]): string[] {
	return entries(lines).map((line) => line.replace(/\\([^\w\s])/g, '$1'));
}

const kustomization = {
	apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
	kind: 'Kustomization',
	metadata: { name: 'apps', namespace: 'flux-system' },
	status: {
		// As the controller writes it: newest first.
		history: [
			{
				digest: 'sha256:2222',
				firstReconciled: '2026-11-24T11:00:00Z',
				lastReconciled: '2026-11-24T11:50:00Z',
				lastReconciledDuration: '2.5s',
				lastReconciledStatus: 'HealthCheckFailed',
				totalReconciliations: 6,
				metadata: { revision: 'main@sha1:bbbb' },
			},
			{
				digest: 'sha256:1111',
				firstReconciled: '2026-11-24T09:00:00Z',
				lastReconciled: '2026-11-24T09:00:00Z',
				lastReconciledDuration: '1.2s',
				lastReconciledStatus: 'ReconciliationSucceeded',
				totalReconciliations: 1,
				metadata: { revision: 'main@sha1:aaaa' },
			},
		],
	},
};

const helmRelease = {
	apiVersion: 'helm.toolkit.fluxcd.io/v2',
	kind: 'HelmRelease',
	metadata: { name: 'podinfo', namespace: 'apps' },
	status: {
		history: [
			{
				digest: 'sha256:cccc',
				name: 'podinfo',
				namespace: 'apps',
				version: 3,
				status: 'failed',
				chartName: 'podinfo',
				chartVersion: '6.7.0',
				appVersion: '6.7.0',
				configDigest: 'sha256:dddd',
				firstDeployed: '2026-11-20T08:00:00Z',
				lastDeployed: '2026-11-24T10:30:00Z',
			},
			{
				digest: 'sha256:eeee',
				name: 'podinfo',
				namespace: 'apps',
				version: 2,
				status: 'deployed',
				chartName: 'podinfo',
				chartVersion: '6.6.0',
				appVersion: '6.6.0',
				configDigest: 'sha256:ffff',
				firstDeployed: '2026-11-20T08:00:00Z',
				lastDeployed: '2026-11-22T08:00:00Z',
			},
		],
	},
};

describe('Flux status.history in the timeline', () => {
	it("lists a Kustomization's reconciles oldest first: revision, status, count and duration", () => {
		const lines = rendered(
			timelineLines([{ title: 'Kustomization apps', object: kustomization }], clock),
		);
		assert.deepEqual(lines, [
			'- 09:00 (3 h ago) **Kustomization apps**: reconciled revision `main@sha1:aaaa` (history) · `ReconciliationSucceeded`, took 1.2s',
			'- 11:00 (1 h ago) **Kustomization apps**: reconciled revision `main@sha1:bbbb` (history: first of 6) · `HealthCheckFailed`',
			'- 11:50 (10 min ago) **Kustomization apps**: reconciled revision `main@sha1:bbbb` (history: last of 6) · `HealthCheckFailed`, took 2.5s',
		]);
	});

	it("lists a HelmRelease's releases: version, chart and app version, status, and the first deployment", () => {
		const lines = rendered(
			timelineLines([{ title: 'HelmRelease podinfo', object: helmRelease }], clock),
		);
		assert.deepEqual(lines, [
			'- 08:00 (4 days ago) **HelmRelease podinfo**: release `podinfo` first deployed (history)',
			'- 08:00 (2 days ago) **HelmRelease podinfo**: release `podinfo.v2` deployed (history) · chart `podinfo` 6.6.0 (app 6.6.0) · now `deployed`',
			'- 10:30 (1 h ago) **HelmRelease podinfo**: release `podinfo.v3` deployed (history) · chart `podinfo` 6.7.0 (app 6.7.0) · now `failed`',
		]);
	});

	it('says when a release was deleted, and merges history with conditions by time', () => {
		const uninstalled = {
			...helmRelease,
			status: {
				conditions: [
					{
						type: 'Ready',
						status: 'False',
						reason: 'UpgradeFailed',
						lastTransitionTime: '2026-11-24T10:31:00Z',
					},
				],
				history: [
					{
						name: 'podinfo',
						version: 1,
						status: 'uninstalled',
						chartName: 'podinfo',
						chartVersion: '6.5.0',
						firstDeployed: '2026-11-24T10:00:00Z',
						lastDeployed: '2026-11-24T10:00:00Z',
						deleted: '2026-11-24T10:40:00Z',
					},
				],
			},
		};
		const lines = rendered(
			timelineLines([{ title: 'HelmRelease podinfo', object: uninstalled }], clock),
		);
		assert.deepEqual(
			lines.map((line) => line.replace(/^- \S+ \([^)]*\) /, '')),
			[
				'**HelmRelease podinfo**: release `podinfo.v1` deployed (history) · chart `podinfo` 6.5.0 · now `uninstalled`',
				'**HelmRelease podinfo**: `Ready` became False · `UpgradeFailed`',
				'**HelmRelease podinfo**: release `podinfo.v1` deleted (history)',
			],
		);
	});

	it('escapes what the history says and reads history only on Flux kinds', () => {
		const hostile = {
			...kustomization,
			status: {
				history: [
					{
						firstReconciled: '2026-11-24T11:00:00Z',
						lastReconciled: '2026-11-24T11:00:00Z',
						lastReconciledDuration: '[click](command:x)',
						lastReconciledStatus: 'a`b',
						totalReconciliations: 1,
						metadata: { revision: '*bold*' },
					},
				],
			},
		};
		const [line] = entries(
			timelineLines([{ title: 'Kustomization apps', object: hostile }], clock),
		);
		assert.ok(line);
		assert.ok(line.includes('revision `*bold*`'), line);
		assert.ok(line.includes('``a`b``'), line);
		assert.ok(line.includes('took \\[click\\]\\(command\\:x\\)'), line);
		const notFlux = { ...kustomization, apiVersion: 'example.com/v1' };
		assert.deepEqual(entries(timelineLines([{ title: 'x', object: notFlux }], clock)), []);
	});
});
