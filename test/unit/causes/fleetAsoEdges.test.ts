// Fleet Bundle dependsOn, checked per cluster as Fleet's agent does (rancher/fleet deployer.go checkDependency), and
// ASO's WaitingForOwner edge to the owner.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	causeChainOf,
	waitingForOf,
	worldFromObjects,
} from '../../../src/core/causes/causeChain.ts';
import { asoResource, bundle, bundleDeployment, type K8s } from './fixtures.ts';

const fleetRef = (kind: string, name: string, namespace = 'fleet-default') => ({
	group: 'fleet.cattle.io',
	kind,
	namespace,
	name,
});
const held = 'dependent bundle(s) are not ready: [db]';
const quota =
	'failed to install "db": persistentvolumeclaims "data" is forbidden: exceeded quota: storage';

/** A BundleDeployment that applied but whose resources are not ready (Fleet's NotReady). */
function notReady(object: K8s): K8s {
	const status = object.status as K8s;
	return { ...object, status: { ...status, ready: false } };
}

void describe('Fleet Bundle dependsOn', () => {
	void it('names the dependency, the cluster it is held on, its state and its message', () => {
		const world = worldFromObjects([
			bundle('db'),
			bundle('app', [{ name: 'db' }]),
			bundleDeployment('db', 'prod-eu-1'),
			bundleDeployment('db', 'prod-us-1', quota),
			bundleDeployment('app', 'prod-eu-1', undefined, [{ name: 'db' }]),
			bundleDeployment('app', 'prod-us-1', held, [{ name: 'db' }]),
		]);
		const chain = causeChainOf(world, fleetRef('Bundle', 'app'));
		assert.equal(
			chain?.sentence,
			`Bundle fleet-default/app waits for Bundle fleet-default/db on cluster prod-us-1, which is ErrApplied: ${quota}`,
		);
		assert.equal(chain?.steps[1]?.cluster, 'prod-us-1');
		assert.equal(chain?.steps[1]?.edge, 'bundle dependency');
		assert.deepEqual(waitingForOf(world, fleetRef('Bundle', 'app')), {
			target: fleetRef('Bundle', 'db'),
			words: 'waiting for Bundle fleet-default/db on cluster prod-us-1',
		});
	});

	void it('starts from the held BundleDeployment as well', () => {
		const world = worldFromObjects([
			bundle('db'),
			bundle('app', [{ name: 'db' }]),
			bundleDeployment('db', 'prod-us-1', quota),
			bundleDeployment('app', 'prod-us-1', held, [{ name: 'db' }]),
		]);
		const bd = fleetRef('BundleDeployment', 'app', 'cluster-fleet-default-prod-us-1-0123456789ab');
		assert.equal(
			causeChainOf(world, bd)?.sentence,
			`Bundle fleet-default/app on cluster prod-us-1 waits for Bundle fleet-default/db on cluster prod-us-1, which is ErrApplied: ${quota}`,
		);
	});

	void it('lets a dependency in an accepted state through (acceptedStates), Ready only by default', () => {
		const objects = (acceptedStates?: string[]) => [
			bundle('db'),
			bundle('app', [{ name: 'db', ...(acceptedStates ? { acceptedStates } : {}) }]),
			notReady(bundleDeployment('db', 'prod-us-1')),
			bundleDeployment('app', 'prod-us-1', held, [
				{ name: 'db', ...(acceptedStates ? { acceptedStates } : {}) },
			]),
		];
		const waiting = causeChainOf(worldFromObjects(objects()), fleetRef('Bundle', 'app'));
		assert.match(waiting?.sentence ?? '', /on cluster prod-us-1, which is NotReady/);
		assert.equal(
			causeChainOf(worldFromObjects(objects(['Ready', 'NotReady'])), fleetRef('Bundle', 'app')),
			undefined,
		);
	});

	void it('matches a selector over the Bundles of the same cluster', () => {
		const selector = { matchLabels: { tier: 'data' } };
		const world = worldFromObjects([
			bundle('db'),
			bundle('app', [{ selector }]),
			bundleDeployment('db', 'prod-us-1', quota),
			bundleDeployment('app', 'prod-us-1', held, [{ selector }]),
		]);
		const chain = causeChainOf(world, fleetRef('Bundle', 'app'));
		assert.equal(chain?.steps[1]?.title, 'Bundle fleet-default/db on cluster prod-us-1');
	});

	void it('names a selector that matches the Bundle itself as a cycle, as the agent would wait forever', () => {
		const selector = { matchLabels: { tier: 'app' } };
		const world = worldFromObjects([
			bundle('app', [{ selector }]),
			bundleDeployment('app', 'prod-us-1', 'dependent bundle(s) are not ready: [app]', [
				{ selector },
			]),
		]);
		const chain = causeChainOf(world, fleetRef('Bundle', 'app'));
		assert.ok(chain?.end.kind === 'cycle');
		assert.equal(
			chain.end.words,
			'dependency cycle: Bundle fleet-default/app on cluster prod-us-1 -> Bundle fleet-default/app on cluster prod-us-1',
		);
	});

	void it('says a dependency with no BundleDeployment on that cluster does not exist there', () => {
		const world = worldFromObjects([
			bundle('app', [{ name: 'db' }]),
			bundleDeployment(
				'app',
				'prod-us-1',
				'list bundledeployments: no bundles matching labels fleet.cattle.io/bundle-name=db,fleet.cattle.io/bundle-namespace=fleet-default in namespace fleet-default',
				[{ name: 'db' }],
			),
		]);
		const chain = causeChainOf(world, fleetRef('Bundle', 'app'));
		assert.ok(chain?.end.kind === 'missing');
		assert.equal(chain.end.words, 'Bundle fleet-default/db does not exist on cluster prod-us-1');
	});

	void it('follows a chain of Bundle dependencies on the same cluster', () => {
		const world = worldFromObjects([
			bundle('base'),
			bundle('db', [{ name: 'base' }]),
			bundle('app', [{ name: 'db' }]),
			bundleDeployment(
				'base',
				'prod-us-1',
				'failed to install "base": timed out waiting for the condition',
			),
			bundleDeployment('db', 'prod-us-1', 'dependent bundle(s) are not ready: [base]', [
				{ name: 'base' },
			]),
			bundleDeployment('app', 'prod-us-1', held, [{ name: 'db' }]),
		]);
		assert.equal(
			causeChainOf(world, fleetRef('Bundle', 'app'))?.sentence,
			'Bundle fleet-default/app waits for Bundle fleet-default/db on cluster prod-us-1, which waits for Bundle fleet-default/base on cluster prod-us-1, which is ErrApplied: failed to install "base": timed out waiting for the condition',
		);
	});
});

void describe('ASO owners', () => {
	const waiting =
		'Owner "resources.azure.com/ResourceGroup, team-a/team-a-rg" cannot be found. Progress is blocked until the owner is created.';

	void it('follows WaitingForOwner to the owner the message names', () => {
		const world = worldFromObjects([
			asoResource(
				'storage.azure.com/v1api20230101',
				'StorageAccount',
				'logs',
				{ name: 'team-a-rg' },
				waiting,
			),
		]);
		const chain = causeChainOf(world, {
			group: 'storage.azure.com',
			kind: 'StorageAccount',
			namespace: 'team-a',
			name: 'logs',
		});
		assert.ok(chain?.end.kind === 'missing');
		assert.equal(chain.end.words, 'ResourceGroup team-a/team-a-rg does not exist');
		assert.equal(
			chain.sentence,
			'StorageAccount team-a/logs waits for its owner ResourceGroup team-a/team-a-rg, which does not exist',
		);
	});

	void it('reads the owner kind from the resource type when the message names none', () => {
		const world = worldFromObjects([
			asoResource(
				'network.azure.com/v1api20201101',
				'VirtualNetwork',
				'vnet',
				{ name: 'team-a-rg' },
				'Owner cannot be found',
			),
			asoResource(
				'network.azure.com/v1api20201101',
				'VirtualNetworksSubnet',
				'subnet',
				{ name: 'vnet' },
				'Owner cannot be found',
			),
		]);
		const subnet = {
			group: 'network.azure.com',
			kind: 'VirtualNetworksSubnet',
			namespace: 'team-a',
			name: 'subnet',
		};
		const chain = causeChainOf(world, subnet);
		assert.deepEqual(
			chain?.steps.map((step) => step.ref.kind),
			['VirtualNetworksSubnet', 'VirtualNetwork'],
		);
		assert.ok(
			chain?.end.kind === 'missing',
			'the virtual network waits for a resource group that is not there',
		);
		assert.deepEqual(chain.end.ref, {
			group: 'resources.azure.com',
			kind: 'ResourceGroup',
			namespace: 'team-a',
			name: 'team-a-rg',
		});
	});

	void it('does not follow an owner given as an ARM ID, nor a resource that is not waiting', () => {
		const world = worldFromObjects([
			asoResource('resources.azure.com/v1api20200601', 'ResourceGroup', 'team-a-rg', {}),
			asoResource(
				'storage.azure.com/v1api20230101',
				'StorageAccount',
				'by-id',
				{ armId: '/subscriptions/0000/resourceGroups/shared' },
				'Owner cannot be found',
			),
			asoResource('storage.azure.com/v1api20230101', 'StorageAccount', 'ready', {
				name: 'team-a-rg',
			}),
		]);
		for (const name of ['by-id', 'ready']) {
			assert.equal(
				causeChainOf(world, {
					group: 'storage.azure.com',
					kind: 'StorageAccount',
					namespace: 'team-a',
					name,
				}),
				undefined,
			);
		}
	});
});
