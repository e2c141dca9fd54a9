// Where a Bundle goes, against rancher/fleet's own targeting tests (main @ 3b2c622ce176, the same as v0.16.1):
// integrationtests/controller/bundle/bundle_targets_test.go (every scenario: three clusters one, two and three labelled
// cluster=<n>, env=test, ClusterGroups one, two, three by cluster=<n> and all by env=test; the "GitRepo" targets are
// both targets and restrictions, customizations come first), internal/cmd/controller/target/matcher/
// clustermatcher_test.go and bundlematch_test.go. Inputs and expected outcomes are upstream's test data (Apache-2.0).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	fleetTargetsOf,
	type BundleTargeting,
} from '../../../../src/core/targeting/fleetTargets.ts';

const namespace = 'fleet-test';
const cluster = (name: string, labels: Record<string, string>, ns = namespace) => ({
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'Cluster',
	metadata: { name, namespace: ns, labels },
});
const group = (name: string, selector: Record<string, string>, ns = namespace) => ({
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'ClusterGroup',
	metadata: { name, namespace: ns },
	spec: { selector: { matchLabels: selector } },
});
const fixture = [
	...['one', 'two', 'three'].map((n) => cluster(n, { cluster: n, env: 'test' })),
	...['one', 'two', 'three'].map((n) => group(n, { cluster: n })),
	group('all', { env: 'test' }),
];

type Target = Record<string, unknown>;
function bundle(
	customizations: Target[],
	gitRepoTargets: Target[],
	extra: Record<string, unknown> = {},
) {
	return {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'Bundle',
		metadata: { name: 'app', namespace },
		spec: {
			targets: [...customizations, ...gitRepoTargets],
			targetRestrictions: gitRepoTargets.map(
				({ name, clusterName, clusterGroup, clusterSelector, clusterGroupSelector }) => ({
					name,
					clusterName,
					clusterGroup,
					clusterSelector,
					clusterGroupSelector,
				}),
			),
			...extra,
		},
	};
}

function deployedOf(result: BundleTargeting | undefined): Record<string, string | null> {
	const out: Record<string, string | null> = {};
	for (const entry of result?.clusters ?? []) {
		if (entry.deployed) out[entry.name] = entry.customization;
	}
	return out;
}

function targetsOf(...objects: unknown[]): BundleTargeting | undefined {
	return fleetTargetsOf([...fixture, ...objects])[0];
}

describe('Fleet targeting (bundle_targets_test.go scenarios)', () => {
	it('a GitRepo targets all clusters without customization: 3 BundleDeployments', () => {
		const result = targetsOf(bundle([], [{ name: 'all', clusterGroup: 'all' }]));
		assert.deepEqual(deployedOf(result), { one: null, three: null, two: null });
		assert.equal(result?.clusters[0]?.target, 'all');
	});

	it('a GitRepo target narrowed to cluster one while the restriction still says all: 1', () => {
		const narrowed = bundle([], [{ name: 'all', clusterGroup: 'all' }]);
		narrowed.spec.targets = [{ name: 'one', clusterName: 'one' }];
		assert.deepEqual(Object.keys(deployedOf(targetsOf(narrowed))), ['one']);
	});

	it('a customization for all clusters applies on all of them', () => {
		const result = targetsOf(
			bundle([{ name: 'cust', clusterGroup: 'all' }], [{ name: 'all', clusterGroup: 'all' }]),
		);
		assert.deepEqual(deployedOf(result), { one: 'cust', three: 'cust', two: 'cust' });
	});

	it('customizations for clusters one and two; three gets the GitRepo target alone', () => {
		const result = targetsOf(
			bundle(
				[
					{ name: 'c-one', clusterGroup: 'one' },
					{ name: 'c-two', clusterGroup: 'two' },
				],
				[{ name: 'all', clusterGroup: 'all' }],
			),
		);
		assert.deepEqual(deployedOf(result), { one: 'c-one', three: null, two: 'c-two' });
	});

	it('customizations for cluster one and for all: the first match decides', () => {
		const result = targetsOf(
			bundle(
				[
					{ name: 'c-one', clusterGroup: 'one' },
					{ name: 'c-all', clusterGroup: 'all' },
				],
				[{ name: 'all', clusterGroup: 'all' }],
			),
		);
		assert.deepEqual(deployedOf(result), { one: 'c-one', three: 'c-all', two: 'c-all' });
	});

	it('a customization for all clusters but the GitRepo targets only cluster one: 1, customized', () => {
		const result = targetsOf(
			bundle([{ name: 'c-all', clusterGroup: 'all' }], [{ name: 'one', clusterGroup: 'one' }]),
		);
		assert.deepEqual(deployedOf(result), { one: 'c-all' });
		const two = result?.clusters.find((entry) => entry.name === 'two');
		assert.equal(two?.target, null);
		assert.equal(
			two?.why,
			'target `one` wants clusterGroup `one`; the cluster is in ClusterGroup `two`, `all`.',
		);
	});

	it('a Bundle without targetRestrictions: every entry is a deployment target', () => {
		const result = targetsOf({
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'Bundle',
			metadata: { name: 'app', namespace },
			spec: { targets: [{ name: 'all', clusterGroup: 'all' }] },
		});
		assert.deepEqual(deployedOf(result), { one: null, three: null, two: null });
	});

	it('doNotDeploy on a customization for all clusters: none, whichever group the GitRepo targets', () => {
		for (const gitRepo of ['all', 'one']) {
			const result = targetsOf(
				bundle(
					[{ name: 'stop', clusterGroup: 'all', doNotDeploy: true }],
					[{ name: gitRepo, clusterGroup: gitRepo }],
				),
			);
			assert.deepEqual(deployedOf(result), {}, gitRepo);
		}
		const one = targetsOf(
			bundle(
				[{ name: 'stop', clusterGroup: 'all', doNotDeploy: true }],
				[{ name: 'one', clusterGroup: 'one' }],
			),
		)?.clusters.find((entry) => entry.name === 'one');
		assert.equal(one?.doNotDeploy, true);
		assert.match(one?.why ?? '', /matched customization `stop`, which says doNotDeploy/);
	});

	it('doNotDeploy on a customization for group two while the GitRepo targets one: 1', () => {
		const result = targetsOf(
			bundle(
				[{ name: 'stop', clusterGroup: 'two', doNotDeploy: true }],
				[{ name: 'one', clusterGroup: 'one' }],
			),
		);
		assert.deepEqual(Object.keys(deployedOf(result)), ['one']);
	});

	it('a broader customization before a doNotDeploy one: the first match wins', () => {
		const result = targetsOf(
			bundle(
				[
					{ name: 'c-all', clusterGroup: 'all' },
					{ name: 'stop', clusterGroup: 'one', doNotDeploy: true },
				],
				[{ name: 'one', clusterGroup: 'one' }],
			),
		);
		assert.deepEqual(deployedOf(result), { one: 'c-all' });
	});

	it('AllMatches: two customizations apply to cluster one, one to the others', () => {
		const result = targetsOf(
			bundle(
				[
					{ name: 'region', clusterGroup: 'one' },
					{ name: 'env', clusterGroup: 'all' },
				],
				[{ name: 'all', clusterGroup: 'all' }],
				{ targetCustomizationMode: 'AllMatches' },
			),
		);
		assert.deepEqual(deployedOf(result), { one: 'region, env', three: 'env', two: 'env' });
	});

	it('AllMatches: a matching doNotDeploy customization skips the cluster even before another match', () => {
		const result = targetsOf(
			bundle(
				[
					{ name: 'stop', clusterGroup: 'one', doNotDeploy: true },
					{ name: 'env', clusterGroup: 'all' },
				],
				[{ name: 'all', clusterGroup: 'all' }],
				{ targetCustomizationMode: 'AllMatches' },
			),
		);
		assert.deepEqual(deployedOf(result), { three: 'env', two: 'env' });
	});
});

describe('Fleet targeting (matcher tests)', () => {
	const single = (target: Target, labels: Record<string, string>, name = 'c-m-12345') =>
		fleetTargetsOf([
			cluster(name, labels),
			{
				apiVersion: 'fleet.cattle.io/v1alpha1',
				kind: 'Bundle',
				metadata: { name: 'app', namespace },
				spec: { targets: [{ name: 't', ...target }] },
			},
		])[0]?.clusters[0]?.deployed;

	it('matches clusterName by the resource name or the Rancher display-name label (clustermatcher_test)', () => {
		const display = 'management.cattle.io/cluster-display-name';
		assert.equal(single({ clusterName: 'c-m-12345' }, {}), true);
		assert.equal(single({ clusterName: 'my-cluster' }, { [display]: 'my-cluster' }), true);
		assert.equal(single({ clusterName: 'my-cluster' }, { [display]: 'other-cluster' }), false);
		assert.equal(single({ clusterName: 'c-m-12345' }, { [display]: 'my-cluster' }), true);
		assert.equal(single({ clusterName: 'my-cluster' }, {}), false);
		assert.equal(
			single({ clusterName: 'specific-name-1' }, { [display]: 'specific-name-1' }, 'c-12345'),
			true,
		);
	});

	it('a target with no criteria matches nothing; an empty selector matches everything; an absent one adds nothing', () => {
		assert.equal(single({}, { env: 'x' }), false);
		assert.equal(single({ clusterSelector: {} }, { env: 'x' }), true);
		assert.equal(single({ clusterSelector: null }, { env: 'x' }), false);
		assert.equal(
			single(
				{ clusterSelector: { matchLabels: { env: 'x' } }, clusterName: 'other' },
				{ env: 'x' },
			),
			false,
		);
	});

	it('a customization with the same selectors as the GitRepo target is a customization by position (bundlematch_test)', () => {
		const result = fleetTargetsOf([
			cluster('cluster1', { env: 'prod' }),
			{
				apiVersion: 'fleet.cattle.io/v1alpha1',
				kind: 'Bundle',
				metadata: { name: 'app', namespace },
				spec: {
					targets: [
						{ name: 'production', clusterSelector: { matchLabels: { env: 'prod' } } },
						{ name: 'production', clusterSelector: { matchLabels: { env: 'prod' } } },
					],
					targetRestrictions: [
						{ name: 'production', clusterSelector: { matchLabels: { env: 'prod' } } },
					],
				},
			},
		])[0]?.clusters[0];
		assert.equal(result?.deployed, true);
		assert.equal(result?.customization, 'production');
	});

	it('says why a cluster is not reached: the criterion and the value that failed', () => {
		const result = fleetTargetsOf([
			cluster('eu-2', { env: 'staging' }),
			{
				apiVersion: 'fleet.cattle.io/v1alpha1',
				kind: 'Bundle',
				metadata: { name: 'app', namespace },
				spec: { targets: [{ name: 'prod', clusterSelector: { matchLabels: { env: 'prod' } } }] },
			},
		])[0]?.clusters[0];
		assert.equal(result?.why, 'target `prod` wants env=prod; cluster `eu-2` has env=staging.');
	});

	it('reaches clusters of another namespace through a BundleNamespaceMapping, and fails the Bundle on a malformed selector', () => {
		const objects = [
			cluster('remote', { env: 'prod' }, 'team-b'),
			{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b', labels: { team: 'b' } } },
			{
				apiVersion: 'fleet.cattle.io/v1alpha1',
				kind: 'BundleNamespaceMapping',
				metadata: { name: 'map', namespace },
				bundleSelector: { matchLabels: { share: 'yes' } },
				namespaceSelector: { matchLabels: { team: 'b' } },
			},
			{
				apiVersion: 'fleet.cattle.io/v1alpha1',
				kind: 'Bundle',
				metadata: { name: 'shared', namespace, labels: { share: 'yes' } },
				spec: { targets: [{ name: 'prod', clusterSelector: { matchLabels: { env: 'prod' } } }] },
			},
			{
				apiVersion: 'fleet.cattle.io/v1alpha1',
				kind: 'Bundle',
				metadata: { name: 'broken', namespace, labels: { share: 'yes' } },
				spec: {
					targets: [
						{
							name: 'bad',
							clusterSelector: { matchExpressions: [{ key: 'env', operator: 'Foo' }] },
						},
					],
				},
			},
		];
		const [shared, broken] = fleetTargetsOf(objects);
		assert.deepEqual(
			shared?.clusters.map((entry) => [entry.namespace, entry.name, entry.deployed]),
			[['team-b', 'remote', true]],
		);
		assert.equal(broken?.error, 'targeting error: "Foo" is not a valid label selector operator');
		assert.match(broken?.clusters[0]?.why ?? '', /\(spec\.targets\[0\]\.clusterSelector\)\.$/);
		assert.equal(broken?.clusters[0]?.deployed, false);
	});
});
