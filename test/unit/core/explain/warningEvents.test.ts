// What a tooltip says of an object's Warning Events: count, reason, how often, age and message, newest first, with
// the events.k8s.io shape (eventTime and series, no lastTimestamp or count) read as well as the core one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { latestWarningEventLines } from '../../../../src/core/explain/warningEvents.ts';
import { readKubeEvent, type KubeEvent } from '../../../../src/core/model/kubeEvent.ts';

const now = Date.parse('2026-01-01T01:00:00Z');

function event(raw: Record<string, unknown>): KubeEvent {
	const read = readKubeEvent(raw);
	assert.ok(read);
	return read;
}

describe('latest Warning events in a tooltip', () => {
	it('counts the warnings and shows the newest with reason, count, age and message', () => {
		const lines = latestWarningEventLines(
			[
				event({
					type: 'Normal',
					reason: 'Created',
					message: 'ok',
					lastTimestamp: '2026-01-01T00:59:00Z',
				}),
				event({
					type: 'Warning',
					reason: 'ErrApplied',
					message: 'helm install failed',
					eventTime: '2026-01-01T00:48:00.000000Z',
					series: { count: 7, lastObservedTime: '2026-01-01T00:58:00.000000Z' },
				}),
				event({
					type: 'Warning',
					reason: 'Old',
					message: 'long ago',
					lastTimestamp: '2025-12-30T01:00:00Z',
					count: 1,
				}),
			],
			now,
		);
		assert.deepEqual(lines, [
			'**Warning events:** 2',
			'- `ErrApplied` ×7 · 12 min ago: helm install failed',
			'- `Old` · 2 days ago: long ago',
		]);
	});

	it('says nothing without a Warning, and names how many it leaves out', () => {
		assert.deepEqual(
			latestWarningEventLines([event({ type: 'Normal', reason: 'Created' })], now),
			[],
		);
		const many = Array.from({ length: 5 }, (_, index) =>
			event({ type: 'Warning', reason: `R${index}`, lastTimestamp: `2026-01-01T00:0${index}:00Z` }),
		);
		const lines = latestWarningEventLines(many, now, 2);
		assert.equal(lines[0], '**Warning events:** 5 (the latest 2)');
		assert.deepEqual(
			lines.slice(1).map((line) => line.slice(0, 6)),
			['- `R4`', '- `R3`'],
		);
	});

	it('escapes what the cluster wrote: no link, no HTML, no heading', () => {
		const [, line] = latestWarningEventLines(
			[
				event({
					type: 'Warning',
					reason: 'Bad`Reason',
					message: '[click](command:x) <b>bold</b>',
					lastTimestamp: '2026-01-01T00:00:00Z',
				}),
			],
			now,
		);
		assert.ok(line !== undefined);
		assert.ok(!line.includes('](command:') && !line.includes('<b>'), line);
	});
});
