import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	fleetReadyMessageParts,
	hoverAt,
	type Hover,
	type HoverContext,
} from '../../../../src/core/manifest/hover.ts';
import type { StatusResult } from '../../../../src/core/status/result.ts';

/** The hover at the `|` caret (the only `|` in the text), with the caret removed. */
function hover(withCaret: string, context?: HoverContext): Hover | undefined {
	const offset = withCaret.indexOf('|');
	assert.ok(offset >= 0 && withCaret.indexOf('|', offset + 1) < 0, 'exactly one | caret');
	const text = withCaret.slice(0, offset) + withCaret.slice(offset + 1);
	const before = text.slice(0, offset).split('\n');
	const position = { line: before.length - 1, character: before[before.length - 1]?.length ?? 0 };
	return hoverAt(text, position, context);
}

function markdownOf(withCaret: string, context?: HoverContext): string {
	const result = hover(withCaret, context);
	assert.ok(result, 'a hover');
	return result.markdown;
}

/** Hovers stay short: a heading line first, a few blocks, at most one table. */
function assertShort(markdown: string): void {
	const blocks = markdown.split('\n\n');
	assert.match(blocks[0] ?? '', /^\*\*.+\*\* · /);
	assert.ok(blocks.length <= 6, `at most a heading and five blocks: ${blocks.length}`);
	assert.ok(blocks.filter((block) => block.startsWith('|')).length <= 1, 'at most one table');
}

const fluxDump = `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: podinfo
  namespace: default
spec:
  interval: 5m
  url: https://stefanprodan.github.io/podinfo
  certSecretRef:
    name: tls
status:
  conditions:
  - type: Stalled
    status: "True"
    reason: URLInvalid
    message: 'failed to construct Helm client: scheme "invalid" not supported'
  - type: Ready
    status: "False"
    reason: Failed
`;

describe('hoverAt on conditions', () => {
	it('explains a Flux negative-polarity condition, what its status means now and what to do', () => {
		const markdown = markdownOf(fluxDump.replace('type: Stalled', 'type: Stal|led'));
		assert.match(markdown, /^\*\*Stalled\*\* · condition of Flux HelmRepository/);
		assert.match(
			markdown,
			/Negative polarity: abnormal while True, and Flux writes it only while it is True/,
		);
		assert.match(markdown, /Now: \*\*True\*\* \(`URLInvalid`\) — needs attention/);
		assert.match(markdown, /\*What to do:\* Correct spec\\\.url/);
		assertShort(markdown);
	});

	it('gives the same condition hover on its status, reason and message, with the range of the hovered word', () => {
		const onStatus = hover(fluxDump.replace('status: "False"', 'status: "Fa|lse"'));
		assert.match(onStatus?.markdown ?? '', /^\*\*Ready\*\*/);
		assert.deepEqual(onStatus?.range, {
			start: { line: 17, character: 12 },
			end: { line: 17, character: 19 },
		});
		assert.match(
			markdownOf(fluxDump.replace('reason: Failed', 'reason: Fai|led')),
			/Now: \*\*False\*\* \(`Failed`\)/,
		);
	});

	it('explains ASO severity and an Azure error code as the reason', () => {
		const markdown = markdownOf(`apiVersion: resources.azure.com/v1api20200601
kind: ResourceGroup
metadata: {name: rg, namespace: default}
status:
  conditions:
  - type: Ready
    status: "False"
    severity: Er|ror
    reason: AuthorizationFailed
    lastTransitionTime: "2025-11-20T09:00:00Z"
`);
		assert.match(markdown, /Severity `Error`: /);
		assert.match(markdown, /Now: \*\*False\*\* \(`AuthorizationFailed`\)/);
		assertShort(markdown);
	});

	const harbor = `apiVersion: goharbor.io/v1beta1
kind: HarborCluster
metadata: {name: harbor, namespace: harbor}
status:
  status: healthy
  conditions:
  - {type: DatabaseReady, status: "True"}
  - {type: ConfigurationReady, status: "False", reason: ConfigError}
`;

	it("says which of Harbor's conditions count and why ConfigurationReady does not", () => {
		assert.match(
			markdownOf(harbor.replace('DatabaseReady', 'Database|Ready')),
			/One of the four conditions that decide status\.status/,
		);
		assert.match(
			markdownOf(harbor.replace('ConfigurationReady', 'Configuration|Ready')),
			/Not one of the four that count \(StorageReady, DatabaseReady, CacheReady, ServiceReady\)/,
		);
		assert.match(
			markdownOf(harbor.replace('status: healthy', 'status: heal|thy')),
			/^\*\*healthy\*\* · HarborCluster overall status/,
		);
	});
});

describe('hoverAt on Flux HelmRepository spec fields', () => {
	it('says what a field does, its default, and whether it applies to this type', () => {
		const provider = markdownOf(fluxDump.replace('  interval: 5m', '  pro|vider: aws'));
		assert.match(provider, /^\*\*spec\.provider\*\* · Flux HelmRepository/);
		assert.match(provider, /Default: `generic`\./);
		assert.match(
			provider,
			/\*\*Does not apply\*\* to this repository \(type `default`\): only to type oci/,
		);
		const interval = markdownOf(fluxDump.replace('  interval: 5m', '  type: oci\n  inter|val: 5m'));
		assert.match(interval, /Default: `1m`\./);
		assert.match(interval, /\*\*Does not apply\*\*.*ignored for type oci/);
		assert.match(markdownOf(fluxDump.replace('  url:', '  u|rl:')), /Applies to this repository/);
	});

	it('lists the keys a certSecretRef Secret may hold', () => {
		assert.match(
			markdownOf(fluxDump.replace('certSecretRef:', 'certSecret|Ref:')),
			/`tls\.crt` client certificate \(needs tls\.key\); `tls\.key`.*`ca\.crt` CA certificate/,
		);
	});
});

const gitRepo = `apiVersion: fleet.cattle.io/v1alpha1
kind: GitRepo
metadata:
  name: shop
  namespace: fleet-default
spec:
  repo: https://github.com/example/shop
status:
  gitJobStatus: Current
  display:
    readyBundleDeployments: 1/3
    state: ErrApplied
  summary:
    desiredReady: 3
    ready: 1
    errApplied: 1
    modified: 1
  resourceCounts:
    desiredReady: 10
    ready: 8
    modified: 1
    missing: 1
  conditions:
  - type: Ready
    status: "False"
    message: 'ErrApplied(1) [Cluster fleet-default/prod-us-1: failed to upgrade "shop": cannot patch *frontend*]; Modified(1) [Cluster fleet-default/staging-1]; configmap.v1 shop/frontend-config modified {"data":{"LOG_LEVEL":"debug"}}'
    lastUpdateTime: "2025-11-20T09:00:00Z"
`;

describe('hoverAt on Fleet fields', () => {
	it('explains a state word with its rank', () => {
		const markdown = markdownOf(gitRepo.replace('state: ErrApplied', 'state: ErrApp|lied'));
		assert.match(markdown, /^\*\*ErrApplied\*\* · Fleet state as a GitRepo shows it/);
		assert.match(markdown, /Rank 8 of 8/);
		assertShort(markdown);
	});

	it('reads a summary counter as the state it counts', () => {
		const markdown = markdownOf(gitRepo.replace('    errApplied: 1', '    errApp|lied: 1'));
		assert.match(markdown, /^\*\*ErrApplied\*\*/);
		assert.match(markdown, /Count here: 1\./);
	});

	it('splits the Ready message into its parts, each explained, escaping the file text', () => {
		const markdown = markdownOf(
			gitRepo.replace("message: 'ErrApplied(1)", "message: 'ErrApplied(1|)"),
		);
		assert.match(markdown, /^\*\*Ready message\*\* · Fleet GitRepo/);
		assert.match(
			markdown,
			/\| ErrApplied \(1\) \| Cluster fleet\\-default\/prod\\-us\\-1 \| failed to upgrade "shop"\\: cannot patch \\\*frontend\\\* \|/,
		);
		assert.match(markdown, /\| Modified \(1\) \| Cluster fleet\\-default\/staging\\-1 \| — \|/);
		assert.match(markdown, /Details: `configmap\.v1 shop\/frontend-config modified/);
		assertShort(markdown);
	});

	it('explains readyBundleDeployments and resourceCounts with the numbers', () => {
		assert.match(
			markdownOf(gitRepo.replace('readyBundleDeployments:', 'readyBundle|Deployments:')),
			/Now: 2 of 3 not Ready/,
		);
		const counts = markdownOf(gitRepo.replace('    missing: 1', '    mis|sing: 1'));
		assert.match(counts, /^\*\*resourceCounts\*\*/);
		assert.match(counts, /`missing`: Resources the bundle contains that do not exist/);
		assert.match(
			counts,
			/\| desiredReady \| ready \| modified \| missing \|\n\| --- \| --- \| --- \| --- \|\n\| 10 \| 8 \| 1 \| 1 \|/,
		);
	});
});

describe('fleetReadyMessageParts', () => {
	it('keeps "; " inside a message and separates detail lines', () => {
		const parts = fleetReadyMessageParts(
			'ErrApplied(2) [Bundle b: error; retry later]; NotReady(1) [Bundle c]; deployment.apps default/web [progressing] Available: 1/2',
		);
		assert.deepEqual(
			parts.states.map((part) => [part.state, part.count, part.kind, part.name, part.message]),
			[
				['ErrApplied', '2', 'Bundle', 'b', 'error; retry later'],
				['NotReady', '1', 'Bundle', 'c', ''],
			],
		);
		assert.deepEqual(parts.details, ['deployment.apps default/web [progressing] Available: 1/2']);
	});
});

const policy = `apiVersion: control.kubestellar.io/v1alpha1
kind: BindingPolicy
metadata:
  name: nginx
spec:
  wantSingletonReportedState: true
  clusterSelectors:
  - matchLabels: {location-group: edge}
  downsync:
  - objectSelectors:
    - matchLabels: {app.kubernetes.io/name: nginx}
    resources: [deployments]
    wantMultiWECReportedState: true
`;

describe('hoverAt on KubeStellar fields', () => {
	it('explains a flag where it belongs, with the singleton fallback', () => {
		const markdown = markdownOf(policy.replace('    wantMultiWEC', '    wantMulti|WEC'));
		assert.match(markdown, /^\*\*wantMultiWECReportedState\*\* · KubeStellar downsync flag/);
		assert.match(markdown, /Placement: inside downsync clause 0, where it belongs/);
		assert.match(markdown, /One WEC: the singleton fallback copies its status verbatim/);
	});

	it('says when a flag is misplaced', () => {
		assert.match(
			markdownOf(policy.replace('  wantSingleton', '  want|Singleton')),
			/\*\*Misplaced:\*\*/,
		);
	});

	it('explains clusterSelectors and a downsync clause with its criteria', () => {
		assert.match(
			markdownOf(policy.replace('clusterSelectors', 'cluster|Selectors')),
			/1 selector, ORed/,
		);
		const clause = markdownOf(
			policy.replace('resources: [deployments]', 'reso|urces: [deployments]'),
		);
		assert.match(clause, /^\*\*downsync clause 0\*\*/);
		assert.match(
			clause,
			/Criteria \(all must match\): resources `deployments`; 1 objectSelectors\./,
		);
		assert.match(clause, /Status return: `wantMultiWECReportedState`\./);
	});

	it('names the source object and the WEC of a WorkStatus', () => {
		const markdown = markdownOf(`apiVersion: control.kubestellar.io/v1alpha1
kind: WorkStatus
metadata:
  name: 0a1b-appsv1-deployment-default-nginx
  namespace: clu|ster1
spec:
  sourceRef: {group: apps, version: v1, kind: Deployment, name: nginx, namespace: default}
`);
		assert.match(
			markdown,
			/Source object \(in the WDS\): `Deployment default\/nginx` of `apps\/v1`/,
		);
		assert.match(markdown, /WEC: `cluster1`/);
	});
});

describe('hoverAt on kind and metadata.name', () => {
	it("shows the engine's badge: state, tone, message, kstatus and Argo CD health", () => {
		const markdown = markdownOf(fluxDump.replace('kind: HelmRepository', 'kind: Helm|Repository'));
		assert.match(markdown, /^\*\*HelmRepository\*\* · Flux default\/podinfo/);
		assert.match(markdown, /\*\*Stalled \\\(error\\\)\*\* — failed to construct Helm client/);
		assert.match(markdown, /kstatus: /);
		assert.match(markdown, /Argo CD: Degraded/);
		assertShort(markdown);
	});

	it('says the whole message of a failing object, as the tree tooltip does', () => {
		const message =
			'failed to upgrade "shop-frontend": cannot patch "frontend" with kind Deployment: Deployment.apps "frontend" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "4": must be less than or equal to cpu limit of 2';
		const markdown = markdownOf(`apiVersion: helm.toolkit.fluxcd.io/v2
kind: Helm|Release
metadata: {name: frontend, namespace: shop, generation: 2}
status:
  observedGeneration: 2
  conditions:
  - type: Ready
    status: "False"
    reason: UpgradeFailed
    message: '${message}'
`);
		assert.ok(markdown.replaceAll('\\', '').includes(message), markdown);
	});

	it('adds the live status when the editor has it', () => {
		const live: StatusResult = {
			system: 'flux',
			state: 'Ready',
			tone: 'ok',
			message: 'stored artifact',
			reasons: [],
			observed: true,
			kstatus: { status: 'Current', message: '' },
			health: null,
		};
		const markdown = markdownOf(fluxDump.replace('name: podinfo', 'name: pod|info'), {
			liveStatus: (ref) =>
				ref.name === 'podinfo' && ref.namespace === 'default' ? live : undefined,
		});
		assert.match(markdown, /\*\*Live:\*\* Ready \\\(ok\\\) — stored artifact/);
	});

	it('escapes names and messages from the file', () => {
		const markdown = markdownOf(`apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRe|pository
metadata: {name: "[click](https://evil.example)<img src=x>", namespace: default}
status:
  conditions:
  - {type: Ready, status: "False", reason: Failed, message: "**bold** [x](javascript:alert(1))"}
`);
		assert.ok(!markdown.includes('[click]('), markdown);
		assert.doesNotMatch(markdown, /(?<!\\)<img/);
		assert.doesNotMatch(markdown, /(?<!\\)\]\(javascript/);
		assert.match(markdown, /\\\[click\\\]\\\(https\\:\/\/evil\\\.example\\\)\\<img src=x\\>/);
	});
});

describe('hoverAt elsewhere', () => {
	it('gives nothing on YAML the extension does not recognise', () => {
		assert.equal(hover('apiVersion: v1\nkind: Config|Map\nmetadata: {name: c}\n'), undefined);
		assert.equal(hover('name: chart\nstatus:\n  conditions:\n  - type: Rea|dy\n'), undefined);
	});

	it('gives nothing between nodes or on fields it has nothing to say about', () => {
		assert.equal(hover(`${fluxDump}|`), undefined);
		assert.equal(
			hover(fluxDump.replace('  namespace: default', '  namespace: def|ault')),
			undefined,
		);
	});

	it('works on a standard workload that a WorkStatus refers to, with kstatus meanings', () => {
		const markdown = markdownOf(
			`apiVersion: apps/v1
kind: Deployment
metadata: {name: nginx, namespace: default}
status:
  conditions:
  - {type: Ready, status: "True", reason: Fine}
---
apiVersion: control.kubestellar.io/v1alpha1
kind: WorkStatus
metadata: {name: ws, namespace: wec1}
spec:
  sourceRef: {group: apps, version: v1, kind: Deployment, name: nginx, namespace: default}
`.replace('type: Ready', 'type: Re|ady'),
		);
		assert.match(markdown, /^\*\*Ready\*\* · condition of Kubernetes Deployment/);
	});
});
