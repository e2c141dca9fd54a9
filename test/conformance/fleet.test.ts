// One test per Rancher Fleet vector in test/conformance/vectors/fleet: each vector names the upstream function it
// exercises (call.function); the table below maps it to ours and shapes the answer like the vector's keys.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readConditions } from '../../src/core/model/condition.ts';
import { getPath, getString, isRecord } from '../../src/core/model/object.ts';
import { computeFleetRollups, computeFleetStatus } from '../../src/core/status/fleet.ts';
import {
	bundleStatusOf,
	clusterGroupStatusOf,
	clusterStatusOf,
	helmOpStatusOf,
	setResources,
	statusBaseOf,
} from '../../src/core/status/fleetRollup.ts';
import {
	addSummaries,
	bdDisplayOf,
	bdReadyConditionOf,
	deploymentStateOf,
	emptySummary,
	incrementState,
	messageFromDeployment,
	modifiedStatusJsonOf,
	nonReadyStatusJsonOf,
	readBundleDeployment,
	readBundleSummary,
	readModifiedStatus,
	readNonReadyStatus,
	readResourceKey,
	readyConditionOf,
	readyMessageOf,
	summaryStateOf,
	updateFromResources,
} from '../../src/core/status/fleetSummary.ts';
import { loadVectors, type Vector } from '../support/conformance.ts';

type Actual = Record<string, unknown>;

/** How a vector's input becomes an answer shaped like its expected keys; `sections` when expected groups by scenario. */
interface Adapter {
	readonly sections?: boolean;
	readonly run: (input: Record<string, unknown>, vector: Vector) => Actual;
}

function list(value: unknown): unknown[] {
	return Array.isArray(value) ? value : [];
}

function ownerKeys(value: unknown): Set<string> {
	return new Set(
		list(value).map(
			(o) =>
				`${getString(o, 'metadata', 'namespace') ?? ''}/${getString(o, 'metadata', 'name') ?? ''}`,
		),
	);
}

const readyFromBd: Adapter = {
	run: (input) => {
		const bd = readBundleDeployment(input.bundleDeployment);
		return {
			'status.nonModified': bd.nonModified,
			'status.modifiedStatus': bd.modifiedStatus.map(modifiedStatusJsonOf),
			readyCondition: bdReadyConditionOf(bd),
		};
	},
};

const deploymentState: Adapter = {
	run: (input) => ({ 'status.display.state': bdDisplayOf(readBundleDeployment(input)).state }),
};

const adapters: Readonly<Record<string, Adapter>> = {
	'monitor.UpdateStatus -> readyError -> ModifiedStatus.String()': readyFromBd,
	'BundleDeploymentReconciler -> summary.GetDeploymentState': deploymentState,
	'BundleDeploymentReconciler (internal/cmd/controller/reconciler/bundledeployment_controller.go) -> summary.GetDeploymentState':
		deploymentState,
	'monitor.updateFromResources (agent; fills BundleDeployment.status)': {
		run: (input) => {
			const update = updateFromResources(
				list(input.resources).map(readResourceKey),
				list(input.nonReady).map(readNonReadyStatus),
				list(input.modified).map(readModifiedStatus),
			);
			return {
				...update,
				nonReadyStatus: update.nonReadyStatus.map(nonReadyStatusJsonOf),
				modifiedStatus: update.modifiedStatus.map(modifiedStatusJsonOf),
			};
		},
	},
	'Bundle reconciler: resetStatus + updateDisplay': {
		sections: true,
		run: (input) => {
			const bundle = input.bundle;
			// "before" is the Bundle as created, before the controller wrote any status: Go reads zero values.
			const before = computeFleetStatus(bundle);
			assert.equal(before.observed, false);
			assert.equal(before.state, 'Pending');
			return {
				before: getPath(bundle, 'status') ?? {},
				after: bundleStatusOf(bundle, list(input.bundleDeployments).map(readBundleDeployment)),
			};
		},
	},
	'Bundle reconciler': {
		sections: true,
		run: (input) => {
			const bds = list(input.bundleDeployments).map(readBundleDeployment);
			return {
				bundle: bundleStatusOf(undefined, bds),
				cluster: clusterStatusOf(undefined, bds, { gitRepos: new Set(), helmOps: new Set() }),
			};
		},
	},
	'ClusterReconciler (cluster_controller.go)': {
		run: (input) =>
			clusterStatusOf(undefined, list(input.bundleDeployments).map(readBundleDeployment), {
				gitRepos: ownerKeys(input.gitRepos),
				helmOps: ownerKeys(input.helmOps),
			}) as unknown as Actual,
	},
	'ClusterGroupReconciler.Reconcile (internal/cmd/controller/reconciler/clustergroup_controller.go)':
		{
			run: (input) => {
				const computed = clusterGroupStatusOf(input.clusterGroup, list(input.clusters));
				return { ...computed, 'conditions.Ready': computed.readyCondition };
			},
		},
	'end-to-end controller behaviour': {
		sections: true,
		run: () => {
			const rollups = computeFleetRollups(e2eScenario);
			const status = (object: unknown) => ({ status: rollups.get(object) });
			return {
				'gitrepo my-gitrepo (fleet-local)': status(e2eGitRepo),
				'cluster local (fleet-local)': status(e2eCluster),
				'clustergroup default (fleet-local)': status(e2eGroup),
				'bundle my-gitrepo-helm-verify': status(e2eBundle),
			};
		},
	},
	'gitops StatusReconciler.setStatus': {
		run: (input) =>
			statusBaseOf(list(input.bundleDeployments).map(readBundleDeployment)) as unknown as Actual,
	},
	'helmops reconciler setStatusHelm -> status.SetFields (internal/cmd/controller/helmops/reconciler/helmop_status.go)':
		{
			run: (input) =>
				helmOpStatusOf(
					input.helmOp,
					list(input.bundleDeployments).map(readBundleDeployment),
				) as unknown as Actual,
		},
	'resourcestatus.SetResources': {
		run: (input) =>
			setResources(list(input.bundleDeployments).map(readBundleDeployment)) as unknown as Actual,
	},
	'resourcestatus.SetResources (GitRepo/HelmOp StatusBase)': {
		run: (input) =>
			setResources(list(input.bundleDeployments).map(readBundleDeployment)) as unknown as Actual,
	},
	'summary.GetDeploymentState': {
		run: (input) => ({
			state: deploymentStateOf(readBundleDeployment(input.bundleDeployment)),
		}),
	},
	'summary.ReadyMessage': {
		run: (input, vector) => ({
			message: readyMessageOf(readBundleSummary(input.summary), String(vector.call.referencedKind)),
		}),
	},
	'summary.IncrementState + summary.Increment': {
		sections: true,
		run: (input) => {
			const summary = emptySummary();
			const step = isRecord(input.incrementState) ? input.incrementState : {};
			incrementState(summary, String(step.name), String(step.state), String(step.message), [], []);
			const afterIncrementState = { ...summary, nonReadyResources: [...summary.nonReadyResources] };
			addSummaries(summary, readBundleSummary(getPath(input, 'increment', 'summary')));
			return { afterIncrementState, afterIncrement: summary };
		},
	},
	'summary.GetSummaryState': {
		run: (input) => ({ state: summaryStateOf(readBundleSummary(input.summary)) }),
	},
	'summary.MessageFromDeployment': {
		run: (input) => ({
			message: messageFromDeployment(readBundleDeployment(input.bundleDeployment)),
		}),
	},
	'summary.SetReadyConditions': {
		run: (input, vector) => {
			const previous = readConditions(input).conditions.find((c) => c.type === 'Ready');
			return {
				readyCondition: readyConditionOf(
					readBundleSummary(input.summary),
					String(vector.call.referencedKind),
					previous,
				),
			};
		},
	},
};

/**
 * Vectors whose derived values we are sure are wrong: id -> reason. Their tests assert today's output instead
 * (STYLE.md: never a silent skip). Empty: every expected and derived value matches.
 */
const deviations: Readonly<
	Record<string, { readonly reason: string; readonly actual: Readonly<Record<string, unknown>> }>
> = {};

// ---------------------------------------------------------------------------------------------------------------
// The e2e vector gives only shapes; this is the scenario its notes describe (fleet-local, one GitRepo producing one
// Bundle, plus the fleet-agent bundle on the local cluster), written the way Fleet labels and names objects.

const ready = (name: string, labels: Record<string, string>) => ({
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'BundleDeployment',
	metadata: {
		name,
		namespace: 'cluster-fleet-local-local-1a3d67d0a899',
		uid: `uid-${name}`,
		labels,
	},
	spec: { deploymentID: 's-1:abc', stagedDeploymentID: 's-1:abc' },
	status: {
		appliedDeploymentID: 's-1:abc',
		ready: true,
		nonModified: true,
		resourceCounts: { ready: 1, desiredReady: 1 },
	},
});
const clusterLabels = {
	'fleet.cattle.io/cluster': 'local',
	'fleet.cattle.io/cluster-namespace': 'fleet-local',
	'fleet.cattle.io/bundle-namespace': 'fleet-local',
	'fleet.cattle.io/managed': 'true',
};
const e2eGitRepo = {
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'GitRepo',
	metadata: { name: 'my-gitrepo', namespace: 'fleet-local' },
	spec: {
		repo: 'https://github.com/rancher/fleet',
		paths: ['e2e/assets/status/chart-with-template-vars'],
	},
	status: { gitJobStatus: 'Current' },
};
const e2eBundle = {
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'Bundle',
	metadata: {
		name: 'my-gitrepo-helm-verify',
		namespace: 'fleet-local',
		labels: { 'fleet.cattle.io/repo-name': 'my-gitrepo' },
	},
	spec: {},
};
const e2eCluster = {
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'Cluster',
	metadata: { name: 'local', namespace: 'fleet-local', labels: { name: 'local' } },
	status: {
		namespace: 'cluster-fleet-local-local-1a3d67d0a899',
		agent: { lastSeen: '2025-06-25T14:59:35Z' },
	},
};
const e2eGroup = {
	apiVersion: 'fleet.cattle.io/v1alpha1',
	kind: 'ClusterGroup',
	metadata: { name: 'default', namespace: 'fleet-local' },
	spec: { selector: { matchLabels: { name: 'local' } } },
};
const e2eScenario: readonly unknown[] = [
	e2eGitRepo,
	e2eBundle,
	e2eCluster,
	e2eGroup,
	ready('my-gitrepo-helm-verify', {
		...clusterLabels,
		'fleet.cattle.io/repo-name': 'my-gitrepo',
		'fleet.cattle.io/bundle-name': 'my-gitrepo-helm-verify',
	}),
	ready('fleet-agent-local', {
		...clusterLabels,
		'fleet.cattle.io/bundle-name': 'fleet-agent-local',
	}),
];

// ---------------------------------------------------------------------------------------------------------------
// Comparison: expected keys are dotted paths ("display.state", "modifiedStatus[0].missing") or "<list>Length";
// what Go omits (omitempty) reads as its zero value.

/** Keys whose expected objects list only some fields (a condition); all other objects list every non-zero field. */
const subsetKeys = new Set(['readyCondition', 'conditions.Ready']);

/** Keys that explain rather than assert. */
const commentKeys = new Set(['basis']);

function lookup(actual: unknown, key: string): unknown {
	if (isRecord(actual) && Object.hasOwn(actual, key)) return actual[key];
	if (key.endsWith('Length')) {
		const found = lookup(actual, key.slice(0, -'Length'.length));
		return Array.isArray(found) ? found.length : found === undefined ? 0 : found;
	}
	let current: unknown = actual;
	for (const segment of key.split('.')) {
		const match = /^([^[]*)((?:\[\d+\])*)$/.exec(segment);
		if (!match) return undefined;
		if (match[1]) current = isRecord(current) ? current[match[1]] : undefined;
		for (const index of (match[2] ?? '').match(/\d+/g) ?? []) {
			current = Array.isArray(current) ? current[Number(index)] : undefined;
		}
	}
	return current;
}

function isZero(value: unknown): boolean {
	if (value === undefined || value === null || value === 0 || value === '' || value === false) {
		return true;
	}
	if (Array.isArray(value)) return value.length === 0;
	if (isRecord(value)) return Object.values(value).every(isZero);
	return false;
}

function matchValue(actual: unknown, expected: unknown, where: string, subset: boolean): void {
	if (expected === 'non-empty') {
		assert.ok(
			typeof actual === 'string' && actual.length > 0,
			`${where}: expected a non-empty string, got ${JSON.stringify(actual)}`,
		);
		return;
	}
	if (Array.isArray(expected)) {
		const items = actual === undefined ? [] : actual;
		assert.ok(Array.isArray(items), `${where}: expected a list, got ${JSON.stringify(actual)}`);
		assert.equal(items.length, expected.length, `${where}: length`);
		expected.forEach((item, index) => matchValue(items[index], item, `${where}[${index}]`, subset));
		return;
	}
	if (isRecord(expected)) {
		const record = actual === undefined ? {} : actual;
		assert.ok(isRecord(record), `${where}: expected an object, got ${JSON.stringify(actual)}`);
		for (const [key, value] of Object.entries(expected)) {
			matchValue(record[key], value, `${where}.${key}`, subset);
		}
		if (!subset) {
			for (const [key, value] of Object.entries(record)) {
				if (!Object.hasOwn(expected, key)) {
					assert.ok(
						isZero(value),
						`${where}.${key}: expected zero/absent, got ${JSON.stringify(value)}`,
					);
				}
			}
		}
		return;
	}
	const zero =
		typeof expected === 'string'
			? ''
			: typeof expected === 'number'
				? 0
				: typeof expected === 'boolean'
					? false
					: undefined;
	assert.deepEqual(actual === undefined ? zero : actual, expected, where);
}

function matchFlat(actual: unknown, expected: Record<string, unknown>, where: string): void {
	for (const [key, value] of Object.entries(expected)) {
		if (commentKeys.has(key)) continue;
		if (key === 'resourcesContain') {
			const resources = lookup(actual, 'resources');
			assert.ok(Array.isArray(resources), `${where}.resources: expected a list`);
			for (const wanted of list(value)) {
				const found = resources.some((resource) => {
					try {
						matchValue(resource, wanted, 'resource', false);
						return true;
					} catch {
						return false;
					}
				});
				assert.ok(
					found,
					`${where}.resources: nothing matches ${JSON.stringify(wanted)} in ${JSON.stringify(resources)}`,
				);
			}
			continue;
		}
		matchValue(lookup(actual, key), value, `${where}.${key}`, subsetKeys.has(key));
	}
}

function matchVector(
	actual: Actual,
	expected: Record<string, unknown>,
	sections: boolean,
	where: string,
): void {
	if (!sections) {
		matchFlat(actual, expected, where);
		return;
	}
	for (const [section, fields] of Object.entries(expected)) {
		assert.ok(isRecord(fields), `${where}.${section}: expected a section`);
		matchFlat(actual[section], fields, `${where}.${section}`);
	}
}

describe('Fleet conformance vectors', () => {
	for (const vector of loadVectors('fleet')) {
		it(`${vector.id} (${vector.call.function})`, () => {
			const adapter = adapters[vector.call.function];
			assert.ok(adapter, `no adapter for call.function "${vector.call.function}"`);
			const input = isRecord(vector.input) ? vector.input : {};
			const actual = adapter.run(input, vector);
			const deviation = deviations[vector.id];
			if (deviation) {
				// FIXME(vector): the derived value is wrong for the reason in the table; assert today's answer.
				matchVector(actual, { ...vector.expected }, adapter.sections ?? false, 'expected');
				matchFlat(actual, { ...deviation.actual }, 'deviation');
				return;
			}
			matchVector(actual, vector.expected, adapter.sections ?? false, 'expected');
			if (vector.derived) matchVector(actual, vector.derived, adapter.sections ?? false, 'derived');
		});
	}
});

describe('Fleet vector details the generic comparison does not cover', () => {
	it('gives a modified BundleDeployment the agent Ready reason "Error"', () => {
		const [vector] = loadVectors('fleet').filter(
			(v) => v.id === 'bd-ready-condition-modifiedstatus-extra',
		);
		assert.ok(vector);
		const input = isRecord(vector.input) ? vector.input : {};
		assert.equal(bdReadyConditionOf(readBundleDeployment(input.bundleDeployment)).reason, 'Error');
	});
});
