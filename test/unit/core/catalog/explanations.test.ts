import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
	azureErrorCodeTerm,
	explain,
	explanations,
	explanationsFor,
	noSeverityTerm,
	type Explanation,
	type ExplanationCategory,
	type ExplanationSystem,
} from '../../../../src/core/catalog/explanations.ts';

// The words each engine can put on a badge, per kind where the kind matters (the upstream docs and code each row cites).
const fleetStates = [
	'Ready',
	'NotReady',
	'Pending',
	'OutOfSync',
	'Modified',
	'WaitApplied',
	'ErrApplied',
] as const;
const stateWords: ReadonlyArray<{
	system: ExplanationSystem;
	kind?: string;
	terms: readonly string[];
}> = [
	{ system: 'fleet', terms: [...fleetStates, 'WaitCheckIn', 'GitUpdating', 'Unknown'] },
	{ system: 'fleet', kind: 'Bundle', terms: fleetStates },
	{ system: 'fleet', kind: 'BundleDeployment', terms: fleetStates },
	{ system: 'fleet', kind: 'Cluster', terms: [...fleetStates, 'WaitCheckIn'] },
	{ system: 'fleet', kind: 'ClusterGroup', terms: fleetStates },
	{ system: 'fleet', kind: 'GitRepo', terms: [...fleetStates, 'GitUpdating'] },
	{ system: 'fleet', kind: 'HelmOp', terms: fleetStates },
	{ system: 'kubestellar', terms: ['Ready', 'Error', 'Pending', 'Unknown'] },
	{ system: 'kubestellar', kind: 'BindingPolicy', terms: ['Ready', 'Error', 'Pending', 'Unknown'] },
	{ system: 'kubestellar', kind: 'CombinedStatus', terms: ['Ready', 'Error'] },
	{
		system: 'kubestellar',
		kind: 'WorkStatus',
		terms: ['Pending', 'Current', 'InProgress', 'Failed', 'Terminating', 'Unknown'],
	},
	{
		system: 'harbor',
		kind: 'HarborCluster',
		terms: ['healthy', 'unhealthy', 'creating', 'provisioning', 'Unknown'],
	},
	{ system: 'harbor', kind: 'Core', terms: ['Ready', 'InProgress', 'Failed', 'Unknown'] },
	{
		system: 'flux',
		terms: ['Ready', 'Reconciling', 'Stalled', 'Failed', 'Suspended', 'Unknown'],
	},
	{
		system: 'aso',
		terms: [
			'Succeeded',
			'Reconciling',
			'WaitingForOwner',
			'Deleting',
			'Failed',
			'Unknown',
			'Provisioning',
			'Accepted',
		],
	},
	{ system: 'kstatus', terms: ['InProgress', 'Failed', 'Current', 'Terminating', 'Unknown'] },
	{ system: 'kubernetes', terms: ['InProgress', 'Failed', 'Current', 'Terminating', 'Unknown'] },
	{
		system: 'argocd',
		terms: ['Healthy', 'Suspended', 'Progressing', 'Missing', 'Degraded', 'Unknown'],
	},
];

const conditionTypes: ReadonlyArray<{
	system: ExplanationSystem;
	kind?: string;
	terms: readonly string[];
}> = [
	{ system: 'fleet', terms: ['Ready'] },
	{
		system: 'fleet',
		kind: 'GitRepo',
		terms: ['Ready', 'GitPolling', 'Reconciling', 'Stalled', 'Accepted'],
	},
	{ system: 'fleet', kind: 'HelmOp', terms: ['Ready', 'Accepted', 'Polled'] },
	{ system: 'fleet', kind: 'Cluster', terms: ['Ready', 'Processed'] },
	{
		system: 'fleet',
		kind: 'BundleDeployment',
		terms: ['Ready', 'Deployed', 'Installed', 'Monitored'],
	},
	{ system: 'kubestellar', kind: 'BindingPolicy', terms: ['Ready', 'Synced'] },
	{
		system: 'kubestellar',
		kind: 'Binding',
		terms: ['Ready', 'Synced', 'StatusCollectorsAvailable'],
	},
	{
		system: 'harbor',
		kind: 'HarborCluster',
		terms: [
			'StorageReady',
			'DatabaseReady',
			'CacheReady',
			'ServiceReady',
			'ConfigurationReady',
			'Ready',
			'InProgress',
			'Failed',
		],
	},
	{
		system: 'flux',
		terms: [
			'Ready',
			'Reconciling',
			'Stalled',
			'FetchFailed',
			'ArtifactOutdated',
			'ArtifactInStorage',
			'StorageOperationFailed',
		],
	},
	{ system: 'aso', terms: ['Ready'] },
	{ system: 'kstatus', terms: ['Reconciling', 'Stalled', 'Ready'] },
];

const reasons: ReadonlyArray<{ system: ExplanationSystem; terms: readonly string[] }> = [
	{ system: 'fleet', terms: ['Error'] },
	{ system: 'harbor', terms: ['newGeneration', 'recoverrableError'] },
	{
		system: 'flux',
		terms: [
			'Succeeded',
			'Progressing',
			'ProgressingWithRetry',
			'NewRevision',
			'AuthenticationFailed',
			'IndexationFailed',
			'Failed',
			'URLInvalid',
		],
	},
	{
		system: 'aso',
		terms: [
			'Succeeded',
			'Reconciling',
			'WaitingForOwner',
			'Deleting',
			'SecretNotFound',
			'ConfigMapNotFound',
			'ReferenceNotFound',
			'AzureResourceNotFound',
			'ReconciliationBlocked',
			'ReconciliationPostponed',
			'PostReconciliationFailure',
			'FailedWritingAdditionalKubernetesObjects',
			'Failed',
			'ReconciliationFailedPermanently',
			'SubscriptionMismatch',
		],
	},
	{
		system: 'kstatus',
		terms: ['LatestGenerationNotObserved', 'ProgressDeadlineExceeded', 'JobFailed'],
	},
];

const fields: ReadonlyArray<{ system: ExplanationSystem; terms: readonly string[] }> = [
	{
		system: 'fleet',
		terms: [
			'ready',
			'desiredReady',
			'waitApplied',
			'modified',
			'orphaned',
			'missing',
			'unknown',
			'notReady',
		],
	},
	{
		system: 'kubestellar',
		terms: [
			'wantSingletonReportedState',
			'wantMultiWECReportedState',
			'clusterSelectors',
			'downsync',
			'createOnly',
			'statusCollectors',
			'WorkStatus',
		],
	},
	{ system: 'harbor', terms: ['observedGeneration', 'status'] },
	{ system: 'aso', terms: ['provisioning', 'provisioned', 'failedProvisioning'] },
];

function assertCovered(
	category: ExplanationCategory,
	list: ReadonlyArray<{ system: ExplanationSystem; kind?: string; terms: readonly string[] }>,
): void {
	for (const { system, kind, terms } of list) {
		for (const term of terms) {
			const row = explain(system, category, term, kind);
			const where = `${system} ${category} ${term}${kind ? ` on ${kind}` : ''}`;
			assert.ok(row, `no explanation for ${where}`);
			assert.notEqual(row.term, azureErrorCodeTerm, `${where} falls back to the generic row`);
			if (kind !== undefined && row.kinds !== undefined) {
				assert.ok(
					row.kinds.includes(kind),
					`${where} answered by a row for ${row.kinds.join(', ')}`,
				);
			}
		}
	}
}

function rowKey(row: Explanation): string {
	return [row.system, row.category, row.term, [...(row.kinds ?? [])].sort().join(',')].join('|');
}

/** The upstream each system's rows must cite: its docs or proposal by name, or its repository. */
const upstreamSources: Readonly<Record<ExplanationSystem, RegExp>> = {
	fleet: /Fleet docs "Status Fields"|rancher\/fleet /,
	kubestellar:
		/KubeStellar multi-WEC status proposal \(kubestellar#2809\)|kubestellar\/(kubestellar|ocm-status-addon) /,
	harbor: /harbor-operator docs "Harbor cluster controller"|goharbor\/harbor-operator /,
	flux: /Flux HelmRepository spec \(fluxcd\/source-controller\)|fluxcd\/(source|kustomize|helm)-controller |fluxcd\/pkg |controlplaneio-fluxcd\/flux-operator /,
	aso: /Azure Service Operator status proposal|Azure\/azure-service-operator /,
	kubernetes: /kubernetes-sigs\/cli-utils pkg\/kstatus/,
	kstatus: /kubernetes-sigs\/cli-utils pkg\/kstatus/,
	argocd: /argoproj\/argo-cd /,
};

void describe('explanation catalog', () => {
	void it('explains every state word each engine can show on a badge', () => {
		assertCovered('state', stateWords);
	});

	void it('explains every condition type, reason, severity and field the upstream docs and code name', () => {
		assertCovered('condition', conditionTypes);
		assertCovered('reason', reasons);
		assertCovered('field', fields);
		assertCovered('severity', [
			{ system: 'aso', terms: ['Error', 'Warning', 'Info', noSeverityTerm] },
		]);
	});

	void it('gives every condition a polarity, and nothing else one', () => {
		for (const row of explanations) {
			if (row.category === 'condition') {
				assert.ok(row.polarity, `${rowKey(row)} has no polarity`);
			} else {
				assert.equal(
					row.polarity,
					undefined,
					`${rowKey(row)} is not a condition but has a polarity`,
				);
			}
		}
	});

	void it('marks the abnormal-true conditions negative', () => {
		for (const [system, term] of [
			['flux', 'Reconciling'],
			['flux', 'Stalled'],
			['flux', 'FetchFailed'],
			['flux', 'ArtifactOutdated'],
			['flux', 'StorageOperationFailed'],
			['kstatus', 'Reconciling'],
			['kstatus', 'Stalled'],
			['harbor', 'InProgress'],
			['harbor', 'Failed'],
		] as const) {
			assert.equal(explain(system, 'condition', term)?.polarity, 'negative', `${system} ${term}`);
		}
		assert.equal(explain('fleet', 'condition', 'Stalled', 'GitRepo')?.polarity, 'negative');
		assert.equal(explain('flux', 'condition', 'ArtifactInStorage')?.polarity, 'positive');
		assert.equal(explain('aso', 'condition', 'Ready')?.polarity, 'positive');
	});

	void it('has no duplicate rows and no kind answered by two rows', () => {
		const seen = new Set<string>();
		const perKind = new Set<string>();
		for (const row of explanations) {
			const key = rowKey(row);
			assert.ok(!seen.has(key), `duplicate row ${key}`);
			seen.add(key);
			for (const kind of row.kinds ?? []) {
				const kindKey = [row.system, row.category, row.term, kind].join('|');
				assert.ok(!perKind.has(kindKey), `two rows for ${kindKey}`);
				perKind.add(kindKey);
			}
		}
	});

	void it("explains a Kustomization's Ready without a HelmRepository's own case, and a HelmRepository's with it", () => {
		const kustomization = explain('flux', 'state', 'Ready', 'Kustomization');
		assert.ok(kustomization);
		assert.doesNotMatch(kustomization.meaning, /HelmRepository/);
		assert.match(
			explain('flux', 'state', 'Ready', 'HelmRepository')?.meaning ?? '',
			/oci HelmRepository/,
		);
	});

	void it('writes every row as plain text with a meaning and a source', () => {
		for (const row of explanations) {
			const key = rowKey(row);
			assert.ok(row.term.length > 0, `${key} has no term`);
			assert.ok(row.meaning.length > 0, `${key} has no meaning`);
			assert.match(row.source, upstreamSources[row.system], `${key} names no upstream source`);
			for (const text of [row.meaning, row.action]) {
				assert.doesNotMatch(text, /\]\(|<\/|<br|<a |`|\*\*/, `${key} contains Markdown or HTML`);
			}
			if (row.kinds !== undefined) {
				assert.ok(row.kinds.length > 0, `${key} has an empty kinds list`);
			}
		}
	});

	void it('prefers the row written for the kind over the system-wide one', () => {
		const cluster = explain('fleet', 'state', 'WaitApplied', 'Cluster');
		const generic = explain('fleet', 'state', 'WaitApplied');
		assert.ok(cluster?.kinds?.includes('Cluster'));
		assert.equal(generic?.kinds, undefined);
		assert.notEqual(cluster, generic);
		assert.ok(explain('fleet', 'state', 'Ready', 'GitRepo')?.kinds?.includes('GitRepo'));
		assert.ok(explain('fleet', 'condition', 'Ready', 'GitRepo')?.kinds?.includes('GitRepo'));
		assert.ok(
			explain('kubestellar', 'state', 'Pending', 'WorkStatus')?.kinds?.includes('WorkStatus'),
		);
	});

	void it('falls back to the system-wide row for a kind without its own row', () => {
		assert.equal(
			explain('fleet', 'state', 'ErrApplied', 'Bundle'),
			explain('fleet', 'state', 'ErrApplied'),
		);
		assert.equal(
			explain('fleet', 'condition', 'Ready', 'HelmOp'),
			explain('fleet', 'condition', 'Ready'),
		);
	});

	void it('answers a kind-only term when no kind is given, but not for a kind it does not apply to', () => {
		assert.deepEqual(explain('fleet', 'state', 'WaitCheckIn')?.kinds, ['Cluster']);
		assert.equal(explain('fleet', 'state', 'WaitCheckIn', 'GitRepo'), undefined);
		assert.equal(explain('fleet', 'state', 'GitUpdating', 'HelmOp'), undefined);
	});

	void it('explains an Azure error code it does not list with the generic ASO row', () => {
		for (const code of ['InvalidResourceGroupLocation', 'AuthorizationFailed', 'BadRequest']) {
			assert.equal(explain('aso', 'reason', code)?.term, azureErrorCodeTerm);
			assert.equal(explain('aso', 'state', code)?.term, azureErrorCodeTerm);
		}
		assert.equal(explain('aso', 'reason', 'SecretNotFound')?.term, 'SecretNotFound');
		assert.equal(explain('aso', 'state', 'WaitingForOwner')?.category, 'reason');
	});

	void it('reads an empty ASO severity as no severity', () => {
		assert.equal(explain('aso', 'severity', '')?.term, noSeverityTerm);
	});

	void it('returns undefined for terms it does not know', () => {
		assert.equal(explain('flux', 'state', 'Bogus'), undefined);
		assert.equal(explain('fleet', 'condition', 'Bogus'), undefined);
		assert.equal(explain('harbor', 'state', 'Healthy'), undefined);
		assert.equal(explain('kstatus', 'reason', 'Bogus', 'Deployment'), undefined);
		assert.equal(explain('argocd', 'state', 'Current'), undefined);
		assert.equal(explain('aso', 'condition', 'Bogus'), undefined);
		assert.equal(explain('aso', 'field', 'Bogus'), undefined);
		assert.equal(explain('aso', 'reason', ''), undefined);
	});

	void it('lists the rows of one system, with kubernetes meaning kstatus', () => {
		for (const system of [
			'fleet',
			'kubestellar',
			'harbor',
			'flux',
			'aso',
			'kstatus',
			'argocd',
		] as const) {
			const rows = explanationsFor(system);
			assert.ok(rows.length > 0, `${system} has no rows`);
			assert.ok(rows.every((row) => row.system === system));
		}
		assert.equal(explanationsFor('kubernetes'), explanationsFor('kstatus'));
		const total = (['fleet', 'kubestellar', 'harbor', 'flux', 'aso', 'kstatus', 'argocd'] as const)
			.map((system) => explanationsFor(system).length)
			.reduce((a, b) => a + b, 0);
		assert.equal(total, explanations.length);
	});
});
