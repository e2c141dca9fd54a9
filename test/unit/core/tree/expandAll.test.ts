import assert from 'node:assert/strict';
import { it } from 'node:test';
import { expandPlanOf } from '../../../../src/core/tree/expandAll.ts';

// GitRepo shop -> Bundles -> BundleDeployments -> resources (leaves).
const children: Record<string, string[]> = {
	shop: ['shop/cache', 'shop/frontend'],
	'shop/cache': ['shop/cache/eu-1'],
	'shop/frontend': ['shop/frontend/eu-1', 'shop/frontend/us-1'],
	'shop/frontend/us-1': ['shop/frontend/us-1/deployment'],
};
const childrenOf = (id: string): string[] => children[id] ?? [];
const canOpen = (id: string): boolean => (children[id] ?? []).length > 0;

it('opens every row with children under the start, parents before children, level by level', () => {
	assert.deepEqual(expandPlanOf('shop', childrenOf, canOpen, 100), {
		ids: ['shop', 'shop/cache', 'shop/frontend', 'shop/frontend/us-1'],
		more: false,
	});
});

it('stops at the cap and says more are left, keeping the upper levels open', () => {
	assert.deepEqual(expandPlanOf('shop', childrenOf, canOpen, 2), {
		ids: ['shop', 'shop/cache'],
		more: true,
	});
	assert.deepEqual(expandPlanOf('shop/frontend/eu-1', childrenOf, canOpen, 100), {
		ids: [],
		more: false,
	});
});
