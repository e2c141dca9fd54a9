// Explain on the example workspace: the sentence at the top names what an object waits for and that object's cause,
// and the chain section follows the dependency, source and Bundle dependency edges with linkable items.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { explainChain, explainNodeMarkdown } from '../../../src/core/explain/explainDocument.ts';
import * as graphModule from '../../../src/core/tree/model.ts';
type ResourceGraph = graphModule.ResourceGraph;
import { dependencyNotReady, exampleGraph, kustomization, source } from './fixtures.ts';

function explainKey(graph: ResourceGraph, key: string): string {
	const id = graph.findNodesForObject('ws', key)[0];
	assert.ok(id, `${key} is in the tree`);
	// Every chain item links to a key of the adapter's own; "step" stands in for one here.
	const text = explainNodeMarkdown(
		graph,
		id,
		() => undefined,
		undefined,
		() => 'step.md',
	);
	// The document escapes Markdown in names and messages; the words are what matters here.
	return text.replace(/\\(.)/g, '$1');
}

void describe('Explain follows what an object waits for', () => {
	const graph = exampleGraph();

	void it('says the Kustomization waits for its dependency, whose source cannot fetch, first', () => {
		const text = explainKey(graph, 'kustomize.toolkit.fluxcd.io|Kustomization|flux-system|apps');
		const [title, , sentence] = text.split('\n');
		assert.equal(title, '# Kustomization apps');
		assert.equal(
			sentence,
			'Kustomization flux-system/apps waits for Kustomization flux-system/infra, whose source GitRepository flux-system/platform cannot fetch: authentication required.',
		);
		assert.match(text, /Kustomization apps → Kustomization infra → GitRepository platform/);
		assert.match(
			text,
			/^2\. \*\*\[Kustomization infra\]\(step\.md\)\*\* \(the dependency of the step above\) is Failed/m,
		);
		assert.match(
			text,
			/^3\. \*\*\[GitRepository platform\]\(step\.md\)\*\* \(the source of the step above\) is Failed/m,
		);
		assert.match(
			text,
			/flux reconcile source git platform -n flux-system/,
			'what to do, for the source',
		);
	});

	void it('says the HelmRelease waits for the release that failed', () => {
		const text = explainKey(graph, 'helm.toolkit.fluxcd.io|HelmRelease|apps|frontend');
		assert.equal(
			text.split('\n')[2],
			'HelmRelease apps/frontend waits for HelmRelease apps/backend, which is Failed: Helm install failed for release apps/backend with chart podinfo@6.7.1: context deadline exceeded.',
		);
		assert.match(text, /flux reconcile helmrelease backend -n apps --with-source/);
	});

	void it('says the Bundle waits for its dependency on the cluster where it is held, through its BundleDeployment', () => {
		const text = explainKey(graph, 'fleet.cattle.io|Bundle|fleet-local|tickets-api');
		assert.match(
			text.split('\n')[2] ?? '',
			/^Bundle fleet-local\/tickets-api waits for Bundle fleet-local\/tickets-db on cluster local, which is ErrApplied: failed to install "tickets-db": persistentvolumeclaims "postgres-data" is forbidden/,
		);
		const chain = explainChain(
			graph,
			graph.findNodesForObject('ws', 'fleet.cattle.io|Bundle|fleet-local|tickets-api')[0] ?? '',
		);
		assert.deepEqual(
			chain.map((node) => `${node.ref?.kind} ${node.ref?.name}`),
			[
				'Bundle tickets-api',
				'BundleDeployment tickets-api',
				'BundleDeployment tickets-db',
				'persistentvolumeclaims postgres-data',
			],
		);
		assert.match(
			text,
			/^3\. \*\*\[BundleDeployment local \(tickets-db\)\]\(step\.md\)\*\* \(the dependency of the step above on cluster local\) is ErrApplied/m,
		);
	});

	void it('keeps the GitRepo chain of the Fleet example as it was, with no sentence', () => {
		const text = explainKey(graph, 'fleet.cattle.io|GitRepo|fleet-default|shop');
		assert.match(
			text.split('\n')[2] ?? '',
			/^\*\*ErrApplied \(error\)\*\*/,
			'the state line comes first',
		);
		assert.match(text, /GitRepo shop → Bundle shop-frontend → BundleDeployment prod-us-1/);
	});

	void it('names a missing dependency and a cycle in the chain', () => {
		const { ResourceGraph } = graphModule;
		const small = new ResourceGraph();
		small.setSourceObjects('ws', 'flux.yaml', [
			{ object: source('GitRepository', 'flux-system') },
			{
				object: kustomization(
					'apps',
					{ dependsOn: [{ name: 'infra' }] },
					dependencyNotReady('flux-system', 'infra'),
				),
			},
			{
				object: kustomization(
					'a',
					{ dependsOn: [{ name: 'b' }] },
					dependencyNotReady('flux-system', 'b'),
				),
			},
			{
				object: kustomization(
					'b',
					{ dependsOn: [{ name: 'a' }] },
					dependencyNotReady('flux-system', 'a'),
				),
			},
		]);
		const missing = explainKey(small, 'kustomize.toolkit.fluxcd.io|Kustomization|flux-system|apps');
		assert.equal(
			missing.split('\n')[2],
			'Kustomization flux-system/apps waits for Kustomization flux-system/infra, which does not exist.',
		);
		assert.match(missing, /^2\. \*\*Kustomization flux-system\/infra does not exist\*\*\./m);
		const cycle = explainKey(small, 'kustomize.toolkit.fluxcd.io|Kustomization|flux-system|a');
		assert.match(
			cycle,
			/^3\. \*\*dependency cycle: Kustomization flux-system\/a -> Kustomization flux-system\/b -> Kustomization flux-system\/a\*\*\./m,
		);
	});
});

void describe('Explain tells apart steps that share a row label', () => {
	void it('names each BundleDeployment on cluster local when one waits for the other (examples/workspace/fleet/dependencies.yaml)', () => {
		const text = explainKey(exampleGraph(), 'fleet.cattle.io|GitRepo|fleet-local|tickets');
		assert.match(
			text,
			/^GitRepo tickets → Bundle tickets-api → BundleDeployment local \(tickets-api\) → BundleDeployment local \(tickets-db\) → /m,
		);
		assert.match(text, /^3\. \*\*\[BundleDeployment local \(tickets-api\)\]\(step\.md\)\*\*/m);
	});
});
