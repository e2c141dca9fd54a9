// Fleet's Policy (rancher/fleet#5152): what a rejected GitRepo, HelmOp or Bundle says, in the words of the errors
// rancher/fleet writes (gitops and helmops restrictions.go, bundle_policy.go, policyrestrictions.go), the Policy's own
// row, and Explain naming the Policy that set the rule.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { explainNodeMarkdown } from '../../../../src/core/explain/explainDocument.ts';
import { computeStatus } from '../../../../src/core/status/registry.ts';
import { exampleGraph } from '../../causes/fixtures.ts';

function rejected(kind: string, message: string): Record<string, unknown> {
	return {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind,
		metadata: { name: 'app', namespace: 'tenant-a' },
		spec: {},
		status: {
			conditions: [
				{
					type: kind === 'Bundle' ? 'Ready' : 'Accepted',
					status: 'False',
					reason: 'Error',
					message,
				},
			],
		},
	};
}

describe('Fleet Policy', () => {
	it('names the rule and the refused value of every rejection Fleet writes', () => {
		const cases: [string, string, RegExp][] = [
			[
				'GitRepo',
				'disallowed repo https://github.com/x/y: https://github.com/x/y not in allowed set [https://github.com/acme/.*]',
				/gitRepo\.allowedRepoPatterns does not allow https:\/\/github\.com\/x\/y \(allowed: \[https:\/\/github\.com\/acme\/\.\*\]\)/,
			],
			[
				'GitRepo',
				'disallowed clientSecretName other: other not in allowed set [git-creds]',
				/gitRepo\.allowedClientSecretNames does not allow other/,
			],
			[
				'GitRepo',
				'serviceAccount is required by Policy but is not set',
				/requireServiceAccount is true/,
			],
			[
				'HelmOp',
				'disallowed helm chart evil: evil not in allowed set [podinfo]',
				/helmOp\.allowedChartPatterns does not allow evil/,
			],
			[
				'HelmOp',
				'disallowed helm repo https://charts.example: https://charts.example not in allowed set [oci://ghcr.io/acme/.*]',
				/helmOp\.allowedHelmRepoPatterns/,
			],
			[
				'HelmOp',
				'disallowed helmSecretName x: x not in allowed set [helm-creds]',
				/helmOp\.allowedHelmSecretNames/,
			],
			[
				'Bundle',
				'disallowed serviceAccount root in target prod: root not in allowed set [tenant]',
				/allowedServiceAccounts does not allow root in target prod/,
			],
			[
				'Bundle',
				'serviceAccount is required by Policy but is not set on the Bundle',
				/requireServiceAccount/,
			],
		];
		for (const [kind, message, words] of cases) {
			const status = computeStatus(rejected(kind, message));
			assert.equal(status.tone, 'error', message);
			assert.match(
				status.reasons.join('\n'),
				/^Rejected by the Fleet Policy of namespace tenant-a/m,
				message,
			);
			assert.match(status.reasons.join('\n'), words, message);
		}
		// Another Accepted error is not a Policy's.
		const other = computeStatus(rejected('GitRepo', 'failed to resolve the helm secret'));
		assert.doesNotMatch(other.reasons.join('\n'), /Policy/);
	});

	it('shows a Policy as Active with the rules it enforces, without a status to wait for', () => {
		const status = computeStatus({
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'Policy',
			metadata: { name: 'rules', namespace: 'tenant-a' },
			requireServiceAccount: true,
			helmOp: { allowedChartPatterns: ['podinfo'] },
		});
		assert.equal(status.state, 'Active');
		assert.equal(status.tone, 'ok');
		assert.equal(status.message, 'Enforces: requires a serviceAccount; HelmOp charts: podinfo');
	});

	it('lists the example Policy under Policies, and Explain of the GitRepo it refused names it and its rule', () => {
		const graph = exampleGraph();
		const policy = graph.findNodesForObject(
			'ws',
			'fleet.cattle.io|Policy|fleet-tenants|tenant-rules',
		);
		assert.equal(policy.length, 1);
		assert.match(policy[0] ?? '', /cat:fleet:Policy\//);
		const gitRepo = graph.findNodesForObject(
			'ws',
			'fleet.cattle.io|GitRepo|fleet-tenants|side-project',
		)[0];
		assert.ok(gitRepo);
		assert.equal(graph.node(gitRepo)?.description, 'Pending · rejected by Policy · fleet-tenants');
		const text = explainNodeMarkdown(graph, gitRepo).replace(/\\(.)/g, '$1');
		assert.match(
			text,
			/## The Policy that refused it\n\n- Policy fleet-tenants\/tenant-rules sets gitRepo\.allowedRepoPatterns: https:\/\/github\.com\/acme\/\.\*/,
		);
	});
});
