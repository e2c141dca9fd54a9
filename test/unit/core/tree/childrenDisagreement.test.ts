// When a parent's own status and the items below it disagree: found by the Fleet stand-in's randomised agreement test
// (test/apiserver/standInAgreement.test.ts), where a Cluster and a BundleDeployment waiting for a dependency were
// said to contradict the not-ready dependency they wait for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { childrenDisagreementOf } from '../../../../src/core/tree/describe.ts';
import type { StatusResult } from '../../../../src/core/status/result.ts';

function result(state: string, tone: StatusResult['tone']): StatusResult {
	return {
		system: 'fleet',
		state,
		tone,
		message: '',
		reasons: [],
		observed: true,
		kstatus: { status: 'InProgress', message: '' },
		health: null,
	};
}

describe('children disagreement', () => {
	it('says so when an object reports Ready while items below it have problems', () => {
		assert.equal(
			childrenDisagreementOf('Cluster', result('Ready', 'ok'), 2, 1),
			'Cluster reports Ready, but 1 of 2 items below has problems.',
		);
	});

	it('says nothing when the object waits for a dependency: the problems below are why it waits', () => {
		assert.equal(
			childrenDisagreementOf('Cluster', result('WaitingForDependency', 'progressing'), 2, 2),
			undefined,
		);
	});
});
