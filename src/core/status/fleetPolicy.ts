// Fleet's Policy (fleet.cattle.io/v1alpha1, rancher/fleet#5152, in every release from 0.12): restrictions on the
// GitRepos, HelmOps and Bundles of its namespace. It has no spec and no status; several Policies of a namespace are
// aggregated (union of the allow-lists, sorted by name). A rejection is a Warning Event with reason PolicyViolation
// and an error on the rejected object: Accepted False on a GitRepo or HelmOp, Ready False on a Bundle (which then
// gets no BundleDeployments). Sources: rancher/fleet @ 3b2c622ce176 pkg/apis/fleet.cattle.io/v1alpha1/policy_types.go,
// internal/cmd/controller/gitops/reconciler/restrictions.go, helmops/reconciler/restrictions.go,
// reconciler/bundle_policy.go, policyrestrictions/policyrestrictions.go.
import { getArray, getPath, getString } from '../model/object.ts';

/** The Policy rule a rejection comes from: its field, the value it refused, and the allowed set when the error lists it. */
export interface PolicyRejection {
	/** The Policy field, e.g. `gitRepo.allowedRepoPatterns`; `requireServiceAccount` for a missing account. */
	readonly rule: string;
	/** What the object asked for (a service account, repo URL, secret or chart); "" for a missing account. */
	readonly value: string;
	/** The allowed set as Fleet printed it (`[a b]`), when the error carries it. */
	readonly allowed?: string;
	/** The Bundle target a service account was refused in. */
	readonly target?: string;
	/** A GitRepoRestriction may refuse the same field: the rule then belongs to either. */
	readonly alsoGitRepoRestriction: boolean;
}

const rejections: readonly {
	readonly pattern: RegExp;
	readonly rule: string;
	readonly alsoGitRepoRestriction?: boolean;
}[] = [
	{ pattern: /serviceAccount is required by Policy but is not set/, rule: 'requireServiceAccount' },
	{
		pattern: /disallowed serviceAccount (\S*) in target (\S*): /,
		rule: 'allowedServiceAccounts',
	},
	{
		pattern: /disallowed serviceAccount (\S*): /,
		rule: 'allowedServiceAccounts',
		alsoGitRepoRestriction: true,
	},
	{
		pattern: /disallowed repo (\S*): /,
		rule: 'gitRepo.allowedRepoPatterns',
		alsoGitRepoRestriction: true,
	},
	{
		pattern: /disallowed clientSecretName (\S*): /,
		rule: 'gitRepo.allowedClientSecretNames',
		alsoGitRepoRestriction: true,
	},
	{ pattern: /disallowed helmSecretName (\S*): /, rule: 'helmOp.allowedHelmSecretNames' },
	{ pattern: /disallowed helm repo (\S*): /, rule: 'helmOp.allowedHelmRepoPatterns' },
	{ pattern: /disallowed helm chart (\S*): /, rule: 'helmOp.allowedChartPatterns' },
];

const allowedSet = / not in allowed set (\[.*\])/;

/** The Policy rule an error message of a rejected GitRepo, HelmOp or Bundle names, or undefined. */
function policyRejectionOf(message: string): PolicyRejection | undefined {
	for (const { pattern, rule, alsoGitRepoRestriction } of rejections) {
		const match = pattern.exec(message);
		if (!match) continue;
		const allowed = allowedSet.exec(message)?.[1];
		const targeted = pattern.source.includes('in target');
		return {
			rule,
			value: targeted || rule !== 'requireServiceAccount' ? (match[1] ?? '') : '',
			...(allowed !== undefined ? { allowed } : {}),
			...(targeted && match[2] ? { target: match[2] } : {}),
			alsoGitRepoRestriction: alsoGitRepoRestriction === true,
		};
	}
	return undefined;
}

/** The rejection in one sentence, e.g. "Policy rule gitRepo.allowedRepoPatterns does not allow repo https://…". */
export function policyRejectionSentence(rejection: PolicyRejection, namespace: string): string {
	const where = `the Fleet Policy of namespace ${namespace || '(none)'}`;
	const owner = rejection.alsoGitRepoRestriction ? `${where} (or a GitRepoRestriction)` : where;
	if (rejection.rule === 'requireServiceAccount') {
		return `Rejected by ${owner}: requireServiceAccount is true and no serviceAccount is set, nor defaulted by the Policy.`;
	}
	const allowed = rejection.allowed ? ` (allowed: ${rejection.allowed})` : '';
	const target = rejection.target ? ` in target ${rejection.target}` : '';
	return `Rejected by ${owner}: ${rejection.rule} does not allow ${rejection.value}${target}${allowed}. Fleet records a PolicyViolation Warning Event; change the object, or the Policy's ${rejection.rule}.`;
}

function strings(object: unknown, ...path: string[]): string[] {
	return (getArray(object, ...path) ?? []).filter(
		(item): item is string => typeof item === 'string',
	);
}

/** What a Policy enforces, field by field, in words (its rules; it keeps no status). */
export function policyRulesOf(policy: unknown): string[] {
	const rules: string[] = [];
	if (getPath(policy, 'requireServiceAccount') === true) rules.push('requires a serviceAccount');
	const list = (label: string, ...path: string[]): void => {
		const items = strings(policy, ...path);
		if (items.length > 0) rules.push(`${label}: ${items.join(', ')}`);
	};
	const one = (label: string, ...path: string[]): void => {
		const value = getString(policy, ...path);
		if (value) rules.push(`${label} ${value}`);
	};
	list('serviceAccounts', 'allowedServiceAccounts');
	if (getPath(policy, 'allowNamespaceCreation') === true) rules.push('allows namespace creation');
	one('GitRepo default serviceAccount', 'gitRepo', 'defaultServiceAccount');
	one('GitRepo default clientSecretName', 'gitRepo', 'defaultClientSecretName');
	list('GitRepo clientSecretNames', 'gitRepo', 'allowedClientSecretNames');
	list('GitRepo repos', 'gitRepo', 'allowedRepoPatterns');
	one('HelmOp default serviceAccount', 'helmOp', 'defaultServiceAccount');
	one('HelmOp default helmSecretName', 'helmOp', 'defaultHelmSecretName');
	list('HelmOp helmSecretNames', 'helmOp', 'allowedHelmSecretNames');
	list('HelmOp helm repos', 'helmOp', 'allowedHelmRepoPatterns');
	list('HelmOp charts', 'helmOp', 'allowedChartPatterns');
	return rules;
}

/** True when a Policy sets the field a rejection names (so it is one of the Policies that refused). */
function policySetsRule(policy: unknown, rule: string): boolean {
	const path = rule.split('.');
	const value = getPath(policy, ...path);
	return Array.isArray(value) ? value.length > 0 : value === true;
}

/** The rejection a rejected GitRepo, HelmOp or Bundle carries in its Accepted (GitRepo, HelmOp) or Ready condition. */
export function rejectionOfObject(object: unknown): PolicyRejection | undefined {
	const kind = getString(object, 'kind');
	const type =
		kind === 'Bundle' ? 'Ready' : kind === 'GitRepo' || kind === 'HelmOp' ? 'Accepted' : '';
	if (!type) return undefined;
	const condition = (getArray(object, 'status', 'conditions') ?? []).find(
		(item) => getString(item, 'type') === type && getString(item, 'status') === 'False',
	);
	return policyRejectionOf(getString(condition, 'message') ?? '');
}

/**
 * The lines naming the Policies of a namespace that set the rule a rejection comes from, in the order Fleet
 * aggregates them (by name): `Policy fleet-tenants/tenant-rules sets gitRepo.allowedRepoPatterns: https://…`.
 */
export function refusingPolicyLines(
	objects: Iterable<unknown>,
	namespace: string,
	rejection: PolicyRejection,
): string[] {
	const policies: { name: string; value: unknown }[] = [];
	for (const object of objects) {
		if (
			getString(object, 'kind') !== 'Policy' ||
			!(getString(object, 'apiVersion') ?? '').startsWith('fleet.cattle.io/') ||
			getString(object, 'metadata', 'namespace') !== namespace ||
			!policySetsRule(object, rejection.rule)
		) {
			continue;
		}
		policies.push({
			name: getString(object, 'metadata', 'name') ?? '',
			value: getPath(object, ...rejection.rule.split('.')),
		});
	}
	return policies
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
		.map(
			({ name, value }) =>
				`Policy ${namespace}/${name} sets ${rejection.rule}${Array.isArray(value) ? `: ${value.filter((item) => typeof item === 'string').join(', ')}` : ''}`,
		);
}
