import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	conditionSince,
	liveReadLine,
	revisionOf,
} from '../../../../src/core/explain/objectFacts.ts';
import { objectTooltipMarkdown } from '../../../../src/core/explain/tooltip.ts';
import { computeStatus } from '../../../../src/core/status/registry.ts';

const now = Date.parse('2025-06-25T15:11:35Z');

const kustomization = {
	apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
	kind: 'Kustomization',
	metadata: { name: 'apps', namespace: 'flux-system', generation: 3 },
	status: {
		observedGeneration: 3,
		lastAppliedRevision: 'main@sha1:3f9c2a7e51b04d6a8c1e9f20b7d4a6c5e8f10b2d',
		conditions: [
			{
				type: 'Ready',
				status: 'False',
				reason: 'ReconciliationFailed',
				message: 'kustomize build failed',
				lastTransitionTime: '2025-06-25T14:59:35Z',
			},
		],
	},
};

describe('how long an object has been in its condition, and the revision it is at', () => {
	it('says since when Ready holds, and how long ago, from its lastTransitionTime', () => {
		assert.equal(
			conditionSince(kustomization, now),
			'Ready False since 2025-06-25 14:59 UTC, 12 min ago',
		);
		assert.match(conditionSince(kustomization, now + 3 * 3_600_000) ?? '', /, 3 h ago$/);
		assert.match(conditionSince(kustomization, now + 5 * 86_400_000) ?? '', /, 5 days ago$/);
	});

	it('names a Fleet condition by when it was last written: Fleet keeps no transition time', () => {
		const gitRepo = {
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'GitRepo',
			metadata: { name: 'shop', namespace: 'fleet-default' },
			status: {
				commit: '3f9c2a7e51b04d6a8c1e9f20b7d4a6c5e8f10b2d',
				conditions: [{ type: 'Ready', status: 'False', lastUpdateTime: '2025-06-25T14:59:35Z' }],
			},
		};
		assert.equal(
			conditionSince(gitRepo, now),
			'Ready False last updated 2025-06-25 14:59 UTC, 12 min ago',
		);
		assert.equal(revisionOf(gitRepo), 'Commit 3f9c2a7e51b04d6a8c1e9f20b7d4a6c5e8f10b2d');
	});

	it('reads the revision of Flux objects and the commit label of Fleet bundles', () => {
		assert.equal(
			revisionOf(kustomization),
			'Revision main@sha1:3f9c2a7e51b04d6a8c1e9f20b7d4a6c5e8f10b2d',
		);
		assert.equal(
			revisionOf({ status: { artifact: { revision: 'sha256:abc' } } }),
			'Revision sha256:abc',
		);
		assert.equal(
			revisionOf({ metadata: { labels: { 'fleet.cattle.io/commit': 'abc123' } } }),
			'Commit abc123',
		);
		assert.equal(revisionOf({ status: {} }), undefined);
	});

	it('says nothing for a missing, unreadable or future time', () => {
		assert.equal(conditionSince({ status: {} }, now), undefined);
		const odd = {
			status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: 'yesterday' }] },
		};
		assert.equal(conditionSince(odd, now), undefined);
		const future = {
			status: {
				conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2030-01-01T00:00:00Z' }],
			},
		};
		assert.equal(conditionSince(future, now), 'Ready True since 2030-01-01 00:00 UTC');
	});

	it('puts both in the tooltip, escaped', () => {
		const text = objectTooltipMarkdown(
			kustomization,
			computeStatus(kustomization),
			[],
			now,
		).replaceAll('\\', '');
		assert.match(
			text,
			/Ready False since 2025-06-25 14:59 UTC, 12 min ago · Revision main@sha1:3f9c2a7e/,
		);
		const hostile = {
			...kustomization,
			status: { ...kustomization.status, lastAppliedRevision: '[x](command:evil)' },
		};
		assert.doesNotMatch(
			objectTooltipMarkdown(hostile, computeStatus(hostile), [], now),
			/\[x\]\(command:/,
		);
	});
});

describe('where a live object was read', () => {
	it('names the context, its state and the time of the last read with its age', () => {
		assert.equal(
			liveReadLine('platform', 'ready', now - 125_000, now),
			'Live in context platform (ready) · last read 15:09:30 UTC, 2 min ago',
		);
		assert.equal(
			liveReadLine('edge', 'cannot reach', undefined, now),
			'Live in context edge (cannot reach)',
		);
	});

	it('replaces the file-like "From" line of the tooltip', () => {
		const text = objectTooltipMarkdown(
			kustomization,
			computeStatus(kustomization),
			[{ label: 'kustomize.toolkit.fluxcd.io/v1/kustomizations', line: 1 }],
			now,
			liveReadLine('platform', 'ready', now, now),
		);
		assert.doesNotMatch(text, /From /);
		assert.match(text, /Live in context platform \\\(ready\\\)/);
	});
});
