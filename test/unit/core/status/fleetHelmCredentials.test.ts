// Helm credentials a GitRepo's job did not send (rancher/fleet#5141, #5367): the GitRepo's reasons say which setting
// to change, in the three cases Fleet leaves: the hint of an empty regex, an empty regex without the hint (a chart
// from a repository index), and a regex the chart URL does not match.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeStatus } from '../../../../src/core/status/registry.ts';

function gitRepo(spec: Record<string, unknown>, message: string): Record<string, unknown> {
	return {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'GitRepo',
		metadata: { name: 'charts', namespace: 'fleet-default' },
		spec: { repo: 'https://github.com/acme/charts', ...spec },
		status: {
			gitJobStatus: 'Failed',
			conditions: [{ type: 'Stalled', status: 'True', reason: 'Stalled', message }],
		},
	};
}

describe('Helm credentials Fleet did not forward', () => {
	it('reads the hint Fleet adds when spec.helmRepoURLRegex is empty', () => {
		const status = computeStatus(
			gitRepo(
				{ helmSecretName: 'helm-creds' },
				'failed to load chart: 401 Unauthorized: helmRepoURLRegex is empty, so Helm credentials were not forwarded; set spec.helmRepoURLRegex to allow credential forwarding',
			),
		);
		assert.match(status.reasons.join('\n'), /Set spec\.helmRepoURLRegex on this GitRepo/);
	});

	it('says so for an empty regex when the error carries no hint (a chart from a repository index)', () => {
		const status = computeStatus(
			gitRepo(
				{ helmSecretName: 'helm-creds' },
				'failed to resolve URL of repo=https://charts.acme.io chart=app version=1.2.3: failed to read helm repo from https://charts.acme.io/index.yaml, error code: 401',
			),
		);
		assert.match(
			status.reasons.join('\n'),
			/spec\.helmRepoURLRegex is empty: Fleet forwards the Helm credentials of helm-creds only to chart URLs that match it/,
		);
	});

	it('names a regex the chart URL does not match, and keeps quiet when it matches', () => {
		const message =
			'failed to read helm repo from https://charts.acme.io/index.yaml, error code: 401';
		const dropped = computeStatus(
			gitRepo(
				{ helmSecretName: 'helm-creds', helmRepoURLRegex: 'https://registry\\.acme\\.io/.*' },
				message,
			),
		);
		assert.match(
			dropped.reasons.join('\n'),
			/https:\/\/charts\.acme\.io\/index\.yaml does not match spec\.helmRepoURLRegex \(https:\/\/registry\\\.acme\\\.io\/\.\*\)/,
		);
		const matched = computeStatus(
			gitRepo(
				{ helmSecretName: 'helm-creds', helmRepoURLRegex: 'https://charts\\.acme\\.io' },
				message,
			),
		);
		assert.doesNotMatch(matched.reasons.join('\n'), /helmRepoURLRegex/);
		const noSecret = computeStatus(gitRepo({}, message));
		assert.doesNotMatch(noSecret.reasons.join('\n'), /helmRepoURLRegex/);
	});
});
