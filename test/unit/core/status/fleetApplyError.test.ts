import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resourceOfApplyError } from '../../../../src/core/status/fleetApplyError.ts';

const resources = [
	{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'frontend-config' },
	{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'frontend' },
	{ apiVersion: 'v1', kind: 'Service', namespace: 'shop', name: 'frontend' },
];

describe('the resource a Fleet agent failed to apply', () => {
	it('reads a Helm upgrade error, completing the resource from the BundleDeployment resource list', () => {
		assert.deepEqual(
			resourceOfApplyError(
				'failed to upgrade "shop-frontend": cannot patch "frontend" with kind Deployment: Deployment.apps "frontend" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "4": must be less than or equal to cpu limit of 2',
				resources,
				'default',
			),
			{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'frontend' },
		);
	});

	it('reads the API server forms, plural resource names included', () => {
		assert.equal(
			resourceOfApplyError(
				'Service "frontend" is invalid: spec.ports: Required value',
				resources,
				'x',
			)?.kind,
			'Service',
		);
		assert.deepEqual(
			resourceOfApplyError('configmaps "frontend-config" already exists', resources, 'x'),
			resources[0],
		);
	});

	it('takes the namespace Helm names, or the default namespace when the resource is not listed', () => {
		assert.deepEqual(
			resourceOfApplyError(
				'rendered manifests contain a resource that already exists. Unable to continue with install: Secret "tls" in namespace "edge" exists and cannot be imported into the current release',
				resources,
				'shop',
			),
			{ apiVersion: '', kind: 'Secret', namespace: 'edge', name: 'tls' },
		);
		assert.deepEqual(
			resourceOfApplyError('cannot patch "worker" with kind Job: field is immutable', [], 'shop'),
			{ apiVersion: '', kind: 'Job', namespace: 'shop', name: 'worker' },
		);
	});

	it('names nothing when the error names no resource', () => {
		assert.equal(
			resourceOfApplyError('error validating "": error validating data: unknown', resources, 'x'),
			undefined,
		);
		assert.equal(resourceOfApplyError('helm install failed', resources, 'x'), undefined);
	});
});
