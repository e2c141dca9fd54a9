import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { explainNodeMarkdown } from '../../../../src/core/explain/explainDocument.ts';
import { timelineLines } from '../../../../src/core/explain/timeline.ts';
import { readKubeEvent, type KubeEvent } from '../../../../src/core/model/kubeEvent.ts';
import { objectKeyOf } from '../../../../src/core/tree/linking.ts';
import { ResourceGraph } from '../../../../src/core/tree/model.ts';

const now = Date.parse('2026-11-22T10:50:00Z');
// A fixed format, so the test reads the same in every locale; the extension passes the user's.
const clock = {
	now,
	formatTime: (ms: number) => new Date(ms).toISOString().slice(11, 19),
};

function event(fields: Record<string, unknown>): KubeEvent {
	const read = readKubeEvent(fields);
	assert.ok(read);
	return read;
}

function helmRepository(conditions: Record<string, unknown>[]): Record<string, unknown> {
	return {
		apiVersion: 'source.toolkit.fluxcd.io/v1',
		kind: 'HelmRepository',
		metadata: { name: 'charts', namespace: 'flux-system', generation: 1 },
		spec: { url: 'https://charts.example.com' },
		status: { observedGeneration: 1, conditions },
	};
}

function entries(lines: readonly string[]): string[] {
	return lines.filter((line) => line.startsWith('- '));
}

describe('the timeline of an Explain document', () => {
	it('lists transitions of the whole chain and their Events oldest first, with the age beside each time', () => {
		const lines = timelineLines(
			[
				{
					title: 'BundleDeployment shop',
					object: {
						status: {
							conditions: [
								{
									type: 'Ready',
									status: 'False',
									reason: 'Error',
									message: 'apply failed',
									lastTransitionTime: '2026-11-22T10:43:00Z',
								},
							],
						},
					},
				},
				{
					title: 'HelmRepository charts',
					object: helmRepository([
						{
							type: 'Ready',
							status: 'False',
							reason: 'FetchFailed',
							lastTransitionTime: '2026-11-22T10:41:00Z',
						},
					]),
					events: [
						event({
							type: 'Warning',
							reason: 'FailedToFetch',
							message: 'connection refused',
							count: 3,
							lastTimestamp: '2026-11-22T10:42:00Z',
							source: { component: 'source-controller' },
						}),
					],
				},
			],
			clock,
		);
		assert.equal(lines[0], '## What happened, in order');
		assert.deepEqual(entries(lines), [
			'- 10\\:41\\:00 (9 min ago) **HelmRepository charts**: `Ready` became False · `FetchFailed`',
			'- 10\\:42\\:00 (8 min ago) **HelmRepository charts**: Warning event `FailedToFetch` ×3 from source\\-controller — connection refused',
			'- 10\\:43\\:00 (7 min ago) **BundleDeployment shop**: `Ready` became False · `Error` — apply failed',
		]);
	});

	it("names Fleet's lastUpdateTime as such, since it says when the condition was written, not when it changed", () => {
		const lines = timelineLines(
			[
				{
					title: 'Bundle shop',
					object: {
						status: {
							conditions: [
								{ type: 'Ready', status: 'False', lastUpdateTime: '2026-11-22T10:40:00Z' },
							],
						},
					},
				},
			],
			clock,
		);
		assert.match(entries(lines)[0] ?? '', /`Ready` was False \(written\)/);
		assert.ok(
			lines.includes(
				'"Written": Fleet records only lastUpdateTime, when a condition was last written, not when it changed.',
			),
		);
	});

	it('keeps the latest entries of a long history and says how many earlier ones it left out', () => {
		const events = Array.from({ length: 45 }, (_, index) =>
			event({
				type: 'Normal',
				reason: `Step${index}`,
				lastTimestamp: new Date(now - (45 - index) * 60_000).toISOString(),
			}),
		);
		const lines = timelineLines([{ title: 'GitRepo shop', object: {}, events }], clock);
		assert.ok(lines.includes('(5 earlier entries left out)'));
		assert.equal(entries(lines).length, 40);
		assert.match(entries(lines)[0] ?? '', /`Step5`/);
		assert.match(entries(lines)[39] ?? '', /`Step44`/);
	});

	it('escapes what clusters write and says when nothing records a time, then the notes', () => {
		const hostile = timelineLines(
			[
				{
					title: 'GitRepo [x](command:evil)',
					object: {},
					events: [
						event({
							type: 'Warning',
							reason: 'R',
							message: '[click](https://evil.example)',
							eventTime: '2026-11-22T10:49:00Z',
						}),
					],
				},
			],
			clock,
		);
		const text = hostile.join('\n');
		assert.doesNotMatch(text, /\]\(/);
		const empty = timelineLines([{ title: 'GitRepo shop', object: {} }], clock, [
			'Events of context kind-demo could not be read: timed out',
		]);
		assert.match(empty.join('\n'), /No condition here records when it changed/);
		assert.match(
			empty.join('\n'),
			/_Events of context kind\\-demo could not be read\\: timed out_/,
		);
	});

	it('is part of Explain when the adapter passes a clock, with the Events it knows of the object', () => {
		const object = helmRepository([
			{
				type: 'Ready',
				status: 'False',
				reason: 'FetchFailed',
				message: 'no such host',
				lastTransitionTime: '2026-11-22T10:45:00Z',
			},
		]);
		const graph = new ResourceGraph();
		graph.addRoot('ws', 'Workspace manifests');
		graph.setSourceObjects('ws', 'file:///repo.yaml', [{ object, line: 0 }]);
		const [id] = graph.findNodesForObject('ws', objectKeyOf(object));
		assert.ok(id);
		assert.doesNotMatch(explainNodeMarkdown(graph, id), /What happened/);
		const markdown = explainNodeMarkdown(graph, id, undefined, {
			...clock,
			eventsOf: (node) =>
				node.ref?.name === 'charts'
					? [event({ type: 'Warning', reason: 'Failed', lastTimestamp: '2026-11-22T10:44:00Z' })]
					: [],
		});
		const section = markdown.slice(markdown.indexOf('## What happened, in order'));
		assert.ok(section.indexOf('`Failed`') < section.indexOf('`FetchFailed`'), section);
		assert.match(section, /`Ready` became False · `FetchFailed` — the message above/);
	});
});
