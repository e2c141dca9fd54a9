// A checkout's Bundles as fleet apply builds them (rancher/fleet internal/bundlereader/read.go bundleFromDir, and the
// cases of integrationtests/cli/apply/targetsfile_test.go), and the plan between two checkouts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkoutObjects, planOf } from '../../../../src/core/targeting/fleetPlan.ts';

const gitRepo = (targets: unknown[]) => ({
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'GitRepo',
	metadata: { name: 'repo', namespace: 'fleet-default' },
	spec: { paths: ['app'], ...(targets.length > 0 ? { targets } : {}) },
});

function bundleSpec(fleetYaml: string, manifests: unknown[]): Record<string, unknown> {
	const problems: string[] = [];
	const [bundle] = checkoutObjects(
		[{ path: 'app/fleet.yaml', text: fleetYaml }],
		manifests,
		problems,
	);
	assert.deepEqual(problems, []);
	return (bundle as { spec: Record<string, unknown> }).spec;
}

describe('a checkout as fleet apply reads it', () => {
	it('without targets anywhere: the default target (clusterGroup default), no restriction', () => {
		assert.deepEqual(bundleSpec('namespace: test\n', []), {
			targets: [{ name: 'default', clusterGroup: 'default' }],
		});
	});

	it('overrideTargets: the targets and the restrictions, instead of the GitRepo targets', () => {
		const spec = bundleSpec('overrideTargets:\n- clusterName: overridden\n', [
			gitRepo([{ name: 'target1', clusterName: 'test1' }]),
		]);
		assert.deepEqual(spec, {
			targets: [{ clusterName: 'overridden' }],
			targetRestrictions: [{ clusterName: 'overridden' }],
		});
	});

	it('the GitRepo targets after fleet.yaml targetCustomizations, named target000 when unnamed, and as restrictions', () => {
		const spec = bundleSpec(
			'targetCustomizationMode: AllMatches\ntargetCustomizations:\n- clusterSelector: { matchLabels: { env: dev } }\n',
			[gitRepo([{ name: 'target1', clusterName: 'test1' }])],
		);
		assert.deepEqual(spec, {
			targets: [
				{ clusterSelector: { matchLabels: { env: 'dev' } }, name: 'target000' },
				{ name: 'target1', clusterName: 'test1' },
			],
			targetRestrictions: [{ name: 'target1', clusterName: 'test1' }],
			targetCustomizationMode: 'AllMatches',
		});
	});

	it('plans what a change deploys where: clusters gained and lost', () => {
		const cluster = (name: string, env: string) => ({
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'Cluster',
			metadata: { name, namespace: 'fleet-default', labels: { env } },
		});
		const inventory = [cluster('a', 'prod'), cluster('b', 'dev')];
		const side = (env: string) =>
			checkoutObjects(
				[{ path: 'app/fleet.yaml', text: 'defaultNamespace: x\n' }],
				[gitRepo([{ name: env, clusterSelector: { matchLabels: { env } } }])],
				[],
			);
		const [entry] = planOf(side('prod'), side('dev'), inventory);
		assert.equal(entry?.name, 'repo-app');
		assert.equal(entry?.change, 'changed');
		assert.deepEqual(
			entry?.gained.map((gained) => gained.cluster),
			['fleet-default/b'],
		);
		assert.deepEqual(
			entry?.lost.map((lost) => lost.cluster),
			['fleet-default/a'],
		);
		assert.match(entry?.lost[0]?.why ?? '', /target `dev` wants env=dev; cluster `a` has env=prod/);
	});
});
