import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitFor, type Trigger } from '../../src/live/waitFor.ts';

/** A trigger the test fires by hand, counting its listeners. */
function manualTrigger(): { trigger: Trigger; fire(): void; listeners(): number } {
	const listeners = new Set<() => void>();
	return {
		trigger: (listener) => {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		fire: () => {
			for (const listener of [...listeners]) listener();
		},
		listeners: () => listeners.size,
	};
}

describe('waiting on triggers instead of polling', () => {
	it('answers at once when the condition already holds, listening to nothing', async () => {
		const changes = manualTrigger();
		assert.equal(await waitFor(() => 'ready', [changes.trigger], { timeoutMs: 60_000 }), 'ready');
		assert.equal(changes.listeners(), 0);
	});

	it('checks again on each change and stops listening once it holds', async () => {
		const changes = manualTrigger();
		let state = 'Progressing';
		let checks = 0;
		const waiting = waitFor(
			() => {
				checks++;
				return state === 'Ready' ? state : undefined;
			},
			[changes.trigger],
			{ timeoutMs: 60_000 },
		);
		changes.fire();
		state = 'Ready';
		changes.fire();
		assert.equal(await waiting, 'Ready');
		assert.equal(checks, 3);
		assert.equal(changes.listeners(), 0);
	});

	it('gives up with undefined when cancelled, and when the deadline passes', async () => {
		const changes = manualTrigger();
		const cancel = manualTrigger();
		const cancelled = waitFor(() => undefined, [changes.trigger], {
			timeoutMs: 60_000,
			cancelled: cancel.trigger,
		});
		cancel.fire();
		assert.equal(await cancelled, undefined);
		assert.equal(changes.listeners(), 0);
		assert.equal(await waitFor(() => undefined, [changes.trigger], { timeoutMs: 1 }), undefined);
		assert.equal(changes.listeners(), 0);
	});

	it('rejects when the check throws', async () => {
		await assert.rejects(
			waitFor(
				() => {
					throw new Error('the graph is gone');
				},
				[],
				{ timeoutMs: 60_000 },
			),
			/the graph is gone/,
		);
	});
});
