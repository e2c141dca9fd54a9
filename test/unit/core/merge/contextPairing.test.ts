import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	contextPairOfFlag,
	contextPairsOf,
	wdsContextsOf,
} from '../../../../src/core/merge/contextPairing.ts';

function workStatus(origin?: string): unknown {
	return {
		apiVersion: 'control.kubestellar.io/v1alpha1',
		kind: 'WorkStatus',
		metadata: {
			name: 'appsv1-deployment-default-nginx',
			namespace: 'wec1',
			labels: origin ? { 'transport.kubestellar.io/originWdsName': origin } : {},
		},
	};
}

describe('pairing an ITS context with its WDS contexts', () => {
	it('follows the originWdsName label to the open context of that name when nothing is set', () => {
		assert.deepEqual(wdsContextsOf(workStatus('wds1'), 'its1', [], ['wds1', 'its1']), ['wds1']);
		assert.deepEqual(wdsContextsOf(workStatus('wds2'), 'its1', [], ['wds1', 'its1']), []);
		assert.deepEqual(wdsContextsOf(workStatus(), 'its1', [], ['wds1', 'its1']), []);
		assert.deepEqual(wdsContextsOf(workStatus('its1'), 'its1', [], ['its1']), [], 'never itself');
	});

	it('uses the pairs set for that ITS alone, filtered by the WDS name when given', () => {
		const pairs = contextPairsOf([
			{ wds: 'kubestellar-wds', its: 'kubestellar-its', wdsName: 'wds1' },
			{ wds: 'other-wds', its: 'kubestellar-its', wdsName: 'wds2' },
			{ wds: 'any-wds', its: 'another-its' },
		]);
		const open = ['kubestellar-wds', 'kubestellar-its', 'other-wds', 'any-wds', 'wds1'];
		assert.deepEqual(wdsContextsOf(workStatus('wds1'), 'kubestellar-its', pairs, open), [
			'kubestellar-wds',
		]);
		assert.deepEqual(wdsContextsOf(workStatus('wds2'), 'kubestellar-its', pairs, open), [
			'other-wds',
		]);
		assert.deepEqual(wdsContextsOf(workStatus('wds3'), 'another-its', pairs, open), ['any-wds']);
		assert.deepEqual(
			wdsContextsOf(workStatus('wds1'), 'kubestellar-its', pairs, ['kubestellar-its']),
			[],
			'a WDS context that is not open gets nothing',
		);
	});

	it('copies once when two pairs say the same', () => {
		const pairs = contextPairsOf([
			{ wds: 'w', its: 'i' },
			{ wds: 'w', its: 'i', wdsName: 'wds1' },
		]);
		assert.deepEqual(wdsContextsOf(workStatus('wds1'), 'i', pairs, ['w', 'i']), ['w']);
	});

	it('reads only well-formed pairs from the setting', () => {
		assert.deepEqual(contextPairsOf('wds=its'), []);
		assert.deepEqual(
			contextPairsOf([{ wds: 'a' }, { its: 'b' }, null, { wds: 'a', its: 'b', wdsName: 3 }]),
			[{ wds: 'a', its: 'b' }],
		);
	});
});

describe('a pair as the command line gives it (mcp --kubestellar-pair)', () => {
	it('reads the keys of the setting, with context names that hold colons and slashes', () => {
		assert.deepEqual(contextPairOfFlag('wds=kubestellar-wds,its=kubestellar-its,wdsName=wds1'), {
			wds: 'kubestellar-wds',
			its: 'kubestellar-its',
			wdsName: 'wds1',
		});
		assert.deepEqual(
			contextPairOfFlag(
				'its=arn:aws:eks:eu-west-1:1:cluster/its, wds=arn:aws:eks:eu-west-1:1:cluster/wds',
			),
			{ wds: 'arn:aws:eks:eu-west-1:1:cluster/wds', its: 'arn:aws:eks:eu-west-1:1:cluster/its' },
		);
	});

	it('says what is wrong with a pair it cannot read', () => {
		assert.equal(contextPairOfFlag('wds=a'), 'a pair needs both wds=CONTEXT and its=CONTEXT');
		assert.equal(
			contextPairOfFlag('wds=a,its=b,cluster=c'),
			'"cluster=c" is not wds=…, its=… or wdsName=…',
		);
		assert.equal(contextPairOfFlag('a:b'), '"a:b" is not wds=…, its=… or wdsName=…');
	});
});
