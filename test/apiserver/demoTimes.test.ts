// The demo's times relative to its start: every example time moves by one offset, the newest to just before the start.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { demoExamplesFolder } from '../../src/apiserver/demo.ts';
import { demoClusters } from '../../src/apiserver/demoScenario.ts';
import { withTimesRelativeTo } from '../../src/apiserver/demoTimes.ts';
import type { JsonObject } from '../../src/apiserver/patch.ts';
import { readObjects } from '../../src/apiserver/scenario.ts';

describe("the demo's times", () => {
	it('moves every RFC 3339 time by one offset, the newest a few minutes before the start, keeping the gaps', () => {
		const start = new Date('2026-12-02T10:00:00Z');
		const objects = new Map<string, JsonObject[]>([
			[
				'a',
				[
					{
						metadata: { name: 'x', creationTimestamp: '2025-11-10T10:00:00Z' },
						status: {
							conditions: [{ type: 'Ready', lastTransitionTime: '2025-11-20T09:00:00Z' }],
							note: 'since 2025-11-20T09:00:00Z, in words',
						},
					},
				],
			],
			['b', [{ metadata: { name: 'y' }, status: { eventTime: '2025-11-20T08:59:00.123456Z' } }]],
		]);
		const moved = withTimesRelativeTo(objects, start);
		const [x] = moved.get('a') ?? [];
		const [y] = moved.get('b') ?? [];
		assert.deepEqual(x?.status, {
			conditions: [{ type: 'Ready', lastTransitionTime: '2026-12-02T09:57:00Z' }],
			// A time inside other words is not a time field.
			note: 'since 2025-11-20T09:00:00Z, in words',
		});
		assert.equal(
			(x?.metadata as { creationTimestamp: string }).creationTimestamp,
			'2026-11-22T10:57:00Z',
		);
		// Another cluster moves by the same offset; a fraction stays a fraction.
		assert.equal((y?.status as { eventTime: string }).eventTime, '2026-12-02T09:56:00.123Z');
		// The input is left as it was.
		assert.equal(
			(objects.get('a')?.[0]?.metadata as { creationTimestamp: string }).creationTimestamp,
			'2025-11-10T10:00:00Z',
		);
	});

	it('leaves none of the demo clusters’ objects in the future or over a year old', async () => {
		const start = new Date();
		const byCluster = new Map(
			await Promise.all(
				demoClusters.map(
					async (cluster) =>
						[
							cluster.name,
							(await readObjects([join(demoExamplesFolder, cluster.folder)])).objects,
						] as const,
				),
			),
		);
		const times: number[] = [];
		const collect = (value: unknown): void => {
			if (
				typeof value === 'string' &&
				/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value)
			) {
				times.push(Date.parse(value));
			} else if (Array.isArray(value)) value.forEach(collect);
			else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
		};
		for (const objects of withTimesRelativeTo(byCluster, start).values()) collect(objects);
		assert.ok(times.length > 50);
		assert.ok(Math.max(...times) <= start.getTime() - 60_000, 'the newest is before the start');
		assert.ok(Math.min(...times) > start.getTime() - 60 * 86_400_000, 'none is older than 60 days');
	});
});
