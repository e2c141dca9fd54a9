import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectTooltipMarkdown } from '../../../../src/core/explain/tooltip.ts';
import { computeStatus } from '../../../../src/core/status/registry.ts';

const deployment = {
	apiVersion: 'apps/v1',
	kind: 'Deployment',
	metadata: { name: 'web', namespace: 'shop', generation: 3 },
	spec: { replicas: 3 },
	status: {
		observedGeneration: 3,
		replicas: 3,
		updatedReplicas: 1,
		readyReplicas: 2,
		availableReplicas: 2,
		conditions: [
			{
				type: 'Progressing',
				status: 'False',
				reason: 'ProgressDeadlineExceeded',
				message: 'ReplicaSet "web-5d4" has timed out progressing.',
			},
			{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
		],
	},
};

describe('the tooltip of a kind kstatus rates', () => {
	const text = objectTooltipMarkdown(deployment, computeStatus(deployment));

	it('says the rule that fired, not that Stalled is True when there is no Stalled condition', () => {
		assert.ok(
			text.includes(
				"kstatus's Deployment rule\\: Progressing False \\(ProgressDeadlineExceeded\\)",
			),
			text,
		);
		assert.doesNotMatch(text, /Stalled/);
	});

	it('says kstatus once', () => {
		assert.equal(text.match(/kstatus/g)?.length, 1, text);
		assert.match(text, /\nArgo CD: Degraded/);
	});

	it('keeps the general definition where a Stalled condition decided', () => {
		const stalled = {
			apiVersion: 'example.com/v1',
			kind: 'Widget',
			metadata: { name: 'w', generation: 1 },
			status: {
				observedGeneration: 1,
				conditions: [{ type: 'Stalled', status: 'True', reason: 'Broken', message: 'it broke' }],
			},
		};
		const widget = objectTooltipMarkdown(stalled, computeStatus(stalled));
		assert.match(widget, /Stalled/);
	});
});
