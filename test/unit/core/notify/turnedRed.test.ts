import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	nextRedState,
	nothingSeen,
	pinKeyOf,
	redNotification,
	type RedObject,
	type RedState,
} from '../../../../src/core/notify/turnedRed.ts';

function red(name: string, rootId = 'live:demo'): RedObject {
	const context = rootId.startsWith('live:') ? rootId.slice('live:'.length) : undefined;
	return {
		key: pinKeyOf(rootId, `fleet.cattle.io|GitRepo|fleet-local|${name}`),
		rootId,
		context,
		nodeId: `${rootId}/fleet/GitRepo/${name}`,
		title: `GitRepo fleet-local/${name}`,
		state: 'ErrApplied',
	};
}

const settled = new Set(['live:demo', 'workspace']);
const settledBefore: RedState = { red: new Set(), settledRoots: settled };

describe('which objects turned red', () => {
	it('tells about a pinned object once when it turns red, not again while it stays red', () => {
		const shop = red('shop');
		const watch = { pins: new Set([shop.key]), contexts: [] };
		const first = nextRedState(settledBefore, [shop], settled, watch);
		assert.deepEqual(first.turnedRed, [shop]);
		const still = nextRedState(first.state, [shop], settled, watch);
		assert.deepEqual(still.turnedRed, []);
		const recovered = nextRedState(still.state, [], settled, watch);
		const again = nextRedState(recovered.state, [shop], settled, watch);
		assert.deepEqual(again.turnedRed, [shop], 'a new transition tells again');
	});

	it('tells nothing about objects neither pinned nor in a chosen context', () => {
		const shop = red('shop');
		const workspaceObject = red('local', 'workspace');
		assert.deepEqual(
			nextRedState(settledBefore, [shop, workspaceObject], settled, {
				pins: new Set(),
				contexts: [],
			}).turnedRed,
			[],
		);
		assert.deepEqual(
			nextRedState(settledBefore, [shop, workspaceObject], settled, {
				pins: new Set(),
				contexts: ['demo'],
			}).turnedRed,
			[shop],
			'the context setting covers live objects only, the workspace has none',
		);
	});

	it('keeps quiet on the first complete read of a root and while it is still being read', () => {
		const shop = red('shop');
		const watch = { pins: new Set<string>(), contexts: ['demo'] };
		const reading = nextRedState(nothingSeen, [shop], new Set(), watch);
		assert.deepEqual(reading.turnedRed, []);
		const firstRead = nextRedState(reading.state, [shop, red('web')], settled, watch);
		assert.deepEqual(firstRead.turnedRed, []);
		const later = nextRedState(firstRead.state, [shop, red('web'), red('api')], settled, watch);
		assert.deepEqual(
			later.turnedRed.map((object) => object.title),
			['GitRepo fleet-local/api'],
		);
	});

	it('does not tell about an object pinned while already red', () => {
		const shop = red('shop');
		const before = nextRedState(settledBefore, [shop], settled, { pins: new Set(), contexts: [] });
		const pinned = nextRedState(before.state, [shop], settled, {
			pins: new Set([shop.key]),
			contexts: [],
		});
		assert.deepEqual(pinned.turnedRed, []);
	});
});

describe('the notification of a debounce window', () => {
	it('names the object, or the count and the first over a rollout', () => {
		assert.equal(
			redNotification([red('shop')])?.message,
			'Kube Status Lens: GitRepo fleet-local/shop in demo: ErrApplied turned red.',
		);
		const rollout = redNotification([red('shop'), red('web'), red('api'), red('shop')]);
		assert.equal(
			rollout?.message,
			'Kube Status Lens: 3 objects turned red, the first GitRepo fleet-local/shop in demo: ErrApplied.',
		);
		assert.equal(rollout?.first.title, 'GitRepo fleet-local/shop');
		assert.equal(redNotification([]), undefined);
	});

	it('keeps a name on one line and cut', () => {
		const hostile = { ...red('shop'), title: `GitRepo a\nb${'x'.repeat(500)}` };
		const message = redNotification([hostile])?.message ?? '';
		assert.doesNotMatch(message, /\n/);
		assert.ok(message.length < 300);
	});
});
