import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { comparableObject } from '../../../../src/core/manifest/comparable.ts';

describe('the comparable part of an object (live/manifest diff)', () => {
	it('drops status and what the server writes into metadata, keeps what a person writes', () => {
		const live = {
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'HelmRepository',
			metadata: {
				name: 'podinfo',
				namespace: 'flux-system',
				uid: '1',
				resourceVersion: '42',
				generation: 3,
				creationTimestamp: '2026-11-22T00:00:00Z',
				managedFields: [{ manager: 'kubectl' }],
				labels: { team: 'web' },
				annotations: {
					'kubectl.kubernetes.io/last-applied-configuration': '{}',
					'reconcile.fluxcd.io/requestedAt': 'now',
				},
			},
			spec: { interval: '5m', url: 'https://example.com' },
			status: { conditions: [] },
		};
		assert.deepEqual(comparableObject(live), {
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'HelmRepository',
			metadata: {
				name: 'podinfo',
				namespace: 'flux-system',
				labels: { team: 'web' },
				annotations: { 'reconcile.fluxcd.io/requestedAt': 'now' },
			},
			spec: { interval: '5m', url: 'https://example.com' },
		});
	});

	it('leaves no empty annotations behind and survives what is not an object', () => {
		assert.deepEqual(
			comparableObject({
				metadata: { name: 'a', annotations: { 'deployment.kubernetes.io/revision': '2' } },
			}),
			{ metadata: { name: 'a' } },
		);
		assert.deepEqual(comparableObject('text'), {});
		assert.deepEqual(comparableObject({ kind: 'X', metadata: 'odd' }), {
			kind: 'X',
			metadata: 'odd',
		});
	});
});
