import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
	eventIsAbout,
	newestEventsFirst,
	readKubeEvent,
	readKubeEvents,
} from '../../../../src/core/model/kubeEvent.ts';

test('a core v1 Event gives its count, last time, subject and reporter', () => {
	const event = readKubeEvent({
		apiVersion: 'v1',
		kind: 'Event',
		metadata: { name: 'apps.17f', namespace: 'flux-system' },
		type: 'Warning',
		reason: 'ReconciliationFailed',
		message: 'kustomize build failed',
		count: 4,
		firstTimestamp: '2026-11-24T10:00:00Z',
		lastTimestamp: '2026-11-24T10:40:00Z',
		involvedObject: { kind: 'Kustomization', namespace: 'flux-system', name: 'apps', uid: 'u1' },
		source: { component: 'kustomize-controller' },
	});
	assert.deepEqual(
		{ ...event, subject: { ...event?.subject } },
		{
			type: 'Warning',
			reason: 'ReconciliationFailed',
			message: 'kustomize build failed',
			count: 4,
			lastSeen: '2026-11-24T10:40:00Z',
			firstSeen: '2026-11-24T10:00:00Z',
			subject: { kind: 'Kustomization', namespace: 'flux-system', name: 'apps', uid: 'u1' },
			reporter: 'kustomize-controller',
			namespace: 'flux-system',
			name: 'apps.17f',
			uid: undefined,
		},
	);
});

test('an Event from the events.k8s.io recorder (no lastTimestamp, no count) reads eventTime and series', () => {
	const single = readKubeEvent({
		type: 'Normal',
		reason: 'Created',
		note: 'created bundle',
		eventTime: '2026-11-24T10:41:00.123456Z',
		reportingController: 'fleet-controller',
		regarding: { kind: 'GitRepo', namespace: 'fleet-local', name: 'simple' },
	});
	assert.equal(single?.lastSeen, '2026-11-24T10:41:00.123456Z');
	assert.equal(single?.count, 1);
	assert.equal(single?.message, 'created bundle');
	assert.equal(single?.reporter, 'fleet-controller');
	const repeated = readKubeEvent({
		type: 'Warning',
		reason: 'Failed',
		lastTimestamp: null,
		count: 0,
		series: { count: 7, lastObservedTime: '2026-11-24T10:50:00Z' },
	});
	assert.equal(repeated?.count, 7);
	assert.equal(repeated?.lastSeen, '2026-11-24T10:50:00Z');
});

test('values of the wrong type are ignored, not thrown on', () => {
	assert.equal(readKubeEvent('text'), undefined);
	const odd = readKubeEvent({ type: 3, reason: ['x'], count: 'many', involvedObject: 'pod' });
	assert.equal(odd?.type, '');
	assert.equal(odd?.count, 1);
	assert.deepEqual(odd?.subject, {});
	assert.equal(readKubeEvents({ kind: 'EventList', items: [{ reason: 'A' }, 7, null] }).length, 1);
});

test('an Event is about an object by uid when both have one, else by kind, namespace and name', () => {
	const event = readKubeEvent({
		involvedObject: { kind: 'GitRepo', namespace: 'fleet-local', name: 'simple', uid: 'old' },
	})!;
	assert.equal(
		eventIsAbout(event, { kind: 'GitRepo', namespace: 'fleet-local', name: 'simple', uid: 'new' }),
		false,
	);
	assert.equal(
		eventIsAbout(event, { kind: 'GitRepo', namespace: 'fleet-local', name: 'simple' }),
		true,
	);
	assert.equal(
		eventIsAbout(event, { kind: 'Bundle', namespace: 'fleet-local', name: 'simple' }),
		false,
	);
	const clusterScoped = readKubeEvent({ involvedObject: { kind: 'Node', name: 'n1' } })!;
	assert.equal(eventIsAbout(clusterScoped, { kind: 'Node', namespace: '', name: 'n1' }), true);
});

test('newest first, Events without a time last, ties in input order', () => {
	const events = readKubeEvents([
		{ reason: 'none' },
		{ reason: 'old', lastTimestamp: '2026-11-24T10:00:00Z' },
		{ reason: 'new', eventTime: '2026-11-24T11:00:00Z' },
		{ reason: 'old2', lastTimestamp: '2026-11-24T10:00:00Z' },
	]);
	assert.deepEqual(
		newestEventsFirst(events).map((event) => event.reason),
		['new', 'old', 'old2', 'none'],
	);
});
