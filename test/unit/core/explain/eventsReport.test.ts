import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventsReport } from '../../../../src/core/explain/eventsReport.ts';
import { readKubeEvents } from '../../../../src/core/model/kubeEvent.ts';

const now = Date.parse('2026-11-24T11:00:30Z');

describe('the Events of an object, as a document', () => {
	it('lists them newest first with time, age, type, reason, count, reporter and the whole message', () => {
		const long = `kustomize build failed: ${'x'.repeat(300)}`;
		const text = eventsReport(
			'Kustomization flux-system/apps',
			'in context kind-demo',
			readKubeEvents([
				{
					type: 'Normal',
					reason: 'Progressing',
					message: 'Deployment/apps/web configured',
					count: 1,
					lastTimestamp: '2026-11-24T08:00:00Z',
					source: { component: 'kustomize-controller' },
				},
				{
					type: 'Warning',
					reason: 'ReconciliationFailed',
					message: long,
					count: 4,
					lastTimestamp: '2026-11-24T10:48:00Z',
					source: { component: 'kustomize-controller' },
				},
				{
					type: 'Warning',
					reason: 'ErrApplied',
					note: 'failed to upgrade\nrelease',
					eventTime: '2026-11-24T10:59:50.000001Z',
					series: { count: 3, lastObservedTime: '2026-11-24T10:59:50Z' },
					reportingController: 'fleet-agent',
				},
			]),
			now,
		);
		const lines = text.split('\n');
		assert.equal(lines[0], 'Events of Kustomization flux-system/apps in context kind-demo');
		assert.equal(lines[1], 'Read 2026-11-24 11:00 UTC · 3 events, 2 Warning · newest first');
		assert.match(lines[3] ?? '', /^LAST SEEN\s+AGE\s+TYPE\s+REASON\s+COUNT\s+FROM\s+MESSAGE$/);
		assert.match(
			lines[4] ?? '',
			/^2026-11-24 10:59 UTC\s+<1 min\s+Warning\s+ErrApplied\s+3\s+fleet-agent\s+failed to upgrade release$/,
		);
		assert.match(
			lines[5] ?? '',
			/^2026-11-24 10:48 UTC\s+12 min\s+Warning\s+ReconciliationFailed\s+4\s+kustomize-controller\s+/,
		);
		assert.ok(lines[5]?.endsWith(long), 'the message is whole, not cut at a column');
		assert.match(lines[6] ?? '', /^2026-11-24 08:00 UTC\s+3 h\s+Normal\s+Progressing\s+1\s+/);
		// Columns line up: every row's REASON starts where the header's does.
		const reasonAt = lines[3]?.indexOf('REASON');
		assert.equal(lines[4]?.indexOf('ErrApplied'), reasonAt);
		assert.equal(lines[6]?.indexOf('Progressing'), reasonAt);
	});

	it('says why there may be none: the cluster keeps Events for an hour by default', () => {
		const text = eventsReport('GitRepo fleet-default/shop', 'in context demo', [], now);
		assert.match(text, /no events/);
		assert.match(text, /one hour by default/);
	});

	it('keeps a hostile reason or reporter on its line and within its column', () => {
		const text = eventsReport(
			'HelmRelease apps/web',
			'in context demo',
			readKubeEvents([
				{ type: 'Warning', reason: `A\nB${'r'.repeat(100)}`, reportingController: 'c\u202Ex' },
			]),
			now,
		);
		const lines = text.split('\n');
		assert.equal(lines.length, 5);
		assert.match(lines[4] ?? '', /^\(no time\)/);
		assert.ok(!text.includes('\u202E'));
		assert.match(lines[4] ?? '', /more characters/);
	});
});
