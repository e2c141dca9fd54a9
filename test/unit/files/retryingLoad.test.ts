import assert from 'node:assert/strict';
import { it } from 'node:test';
import { retryingLoad } from '../../../src/files/retryingLoad.ts';

it('shares one load between callers, and loads again after a failure instead of failing for ever', async () => {
	let attempts = 0;
	const load = retryingLoad(() => {
		attempts++;
		if (attempts === 1) return Promise.reject(new Error('engine.cjs: unexpected end of file'));
		return Promise.resolve(`engine ${attempts}`);
	});
	const [first, second] = await Promise.allSettled([load(), load()]);
	assert.equal(attempts, 1, 'callers during one load share it');
	assert.equal(first.status, 'rejected');
	assert.equal(second.status, 'rejected');
	assert.equal(await load(), 'engine 2');
	assert.equal(await load(), 'engine 2', 'a load that succeeded is kept');
	assert.equal(attempts, 2);
});
