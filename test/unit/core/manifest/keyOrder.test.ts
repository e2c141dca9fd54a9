import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import { comparableObject } from '../../../../src/core/manifest/comparable.ts';
import { inKeyOrderOf } from '../../../../src/core/manifest/keyOrder.ts';

describe('a live object printed in the key order of its manifest (live/manifest diff)', () => {
	it('prints the same object in the same lines, whatever order the server gave its keys', () => {
		const manifest = {
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'HelmRepository',
			metadata: { name: 'podinfo', namespace: 'flux-system', labels: { team: 'web' } },
			spec: { url: 'https://example.com', interval: '5m' },
		};
		// As kubectl and the API server print it: keys sorted, server fields and status added.
		const live = {
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'HelmRepository',
			metadata: {
				labels: { team: 'web' },
				name: 'podinfo',
				namespace: 'flux-system',
				resourceVersion: '7',
				uid: 'u',
			},
			spec: { interval: '5m', url: 'https://example.com' },
			status: { conditions: [] },
		};
		const manifestSide = comparableObject(manifest);
		assert.notEqual(
			stringify(comparableObject(live)),
			stringify(manifestSide),
			'the orders differ',
		);
		assert.equal(
			stringify(inKeyOrderOf(comparableObject(live), manifestSide)),
			stringify(manifestSide),
		);
	});

	it('keeps what differs, adds keys the manifest lacks after its own, and keeps list order', () => {
		const manifest = {
			spec: {
				containers: [
					{ name: 'web', image: 'web:1', ports: [{ containerPort: 80, name: 'http' }] },
					{ name: 'sidecar', image: 'proxy:1' },
				],
				replicas: 2,
			},
		};
		const live = {
			spec: {
				replicas: 3,
				paused: false,
				containers: [
					{ image: 'proxy:1', name: 'sidecar' },
					{ image: 'web:2', name: 'web', ports: [{ name: 'http', containerPort: 80 }] },
				],
			},
		};
		assert.equal(
			JSON.stringify(inKeyOrderOf(live, manifest)),
			JSON.stringify({
				spec: {
					containers: [
						{ name: 'sidecar', image: 'proxy:1' },
						{ name: 'web', image: 'web:2', ports: [{ containerPort: 80, name: 'http' }] },
					],
					replicas: 3,
					paused: false,
				},
			}),
		);
	});

	it('keeps a key named __proto__ as a key', () => {
		const live = JSON.parse('{"metadata":{"__proto__":{"x":1},"name":"a"}}') as unknown;
		const ordered = inKeyOrderOf(live, { metadata: { name: 'a' } }) as {
			metadata: Record<string, unknown>;
		};
		assert.deepEqual(Object.keys(ordered.metadata), ['name', '__proto__']);
		assert.equal(Object.getPrototypeOf(ordered.metadata), Object.prototype);
	});
});
