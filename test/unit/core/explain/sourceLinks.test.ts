import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sourceLinkOf, sourceLinksOf } from '../../../../src/core/explain/sourceLinks.ts';

const commit = '3f9c2a7e51b04d6a8c1e9f20b7d4a6c5e8f10b2d';

function gitRepo(repo: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		apiVersion: 'fleet.cattle.io/v1alpha1',
		kind: 'GitRepo',
		metadata: { name: 'shop', namespace: 'fleet-default' },
		spec: { repo, branch: 'main', paths: ['charts/frontend'], ...extra },
		status: { commit },
	};
}

describe('links from a GitOps object to its source', () => {
	it('links a Fleet GitRepo to its path at the commit it is at, on each known Git host', () => {
		const cases: [string, string][] = [
			[
				'https://github.com/example/shop-fleet',
				`https://github.com/example/shop-fleet/tree/${commit}/charts/frontend`,
			],
			[
				'git@github.com:example/shop-fleet.git',
				`https://github.com/example/shop-fleet/tree/${commit}/charts/frontend`,
			],
			[
				'https://gitlab.com/group/sub/shop.git',
				`https://gitlab.com/group/sub/shop/-/tree/${commit}/charts/frontend`,
			],
			[
				'ssh://git@bitbucket.org/team/shop.git',
				`https://bitbucket.org/team/shop/src/${commit}/charts/frontend`,
			],
			[
				'https://gitea.example.com/ops/shop',
				`https://gitea.example.com/ops/shop/src/commit/${commit}/charts/frontend`,
			],
		];
		for (const [repo, url] of cases) {
			const link = sourceLinkOf(gitRepo(repo));
			assert.equal(link?.url, url, repo);
			assert.match(link?.title ?? '', /^commit 3f9c2a7 of /);
		}
	});

	it('offers only the text to copy for an unknown host, a non-http URL, or no repository path', () => {
		const other = sourceLinkOf(gitRepo('https://git.internal.example/ops/shop.git'));
		assert.equal(other?.url, undefined);
		assert.equal(other?.text, `https://git.internal.example/ops/shop ${commit} charts/frontend`);
		assert.equal(sourceLinkOf(gitRepo('file:///etc/passwd'))?.url, undefined);
		assert.equal(sourceLinkOf(gitRepo('javascript:alert(1)'))?.url, undefined);
		assert.equal(sourceLinkOf(gitRepo('https://github.com/'))?.url, undefined);
	});

	it('never shows or opens the credentials written into a URL', () => {
		const link = sourceLinkOf(gitRepo('https://user:s3cret@github.com/example/shop-fleet.git'));
		assert.ok(link?.url?.startsWith('https://github.com/example/shop-fleet/'));
		assert.ok(!JSON.stringify(link).includes('s3cret'));
		const unknown = sourceLinkOf(gitRepo('ftp://user:s3cret@host/x/y'));
		assert.ok(!JSON.stringify(unknown).includes('s3cret'));
	});

	it('keeps a hostile path inside the repository page', () => {
		const link = sourceLinkOf(
			gitRepo('https://github.com/example/shop', { paths: ['../../../x y?#'] }),
		);
		assert.equal(link?.url, `https://github.com/example/shop/tree/${commit}/x%20y%3F%23`);
	});

	it('uses the branch before the first commit is known, and the commit label of a Bundle with its GitRepo', () => {
		const fresh = gitRepo('https://github.com/example/shop-fleet');
		(fresh as { status: unknown }).status = {};
		assert.equal(
			sourceLinkOf(fresh)?.url,
			'https://github.com/example/shop-fleet/tree/main/charts/frontend',
		);
		const bundle = {
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'Bundle',
			metadata: { name: 'shop-frontend', labels: { 'fleet.cattle.io/commit': commit } },
		};
		assert.equal(
			sourceLinkOf(bundle, gitRepo('https://github.com/example/shop-fleet'))?.url,
			`https://github.com/example/shop-fleet/commit/${commit}`,
		);
		assert.deepEqual(sourceLinkOf(bundle), { text: commit, title: 'commit 3f9c2a7' });
	});

	it('links a Flux GitRepository to the commit of its artifact, and offers an OCIRepository to copy', () => {
		const repository = {
			apiVersion: 'source.toolkit.fluxcd.io/v1',
			kind: 'GitRepository',
			spec: {
				url: 'https://github.com/fluxcd/flux2-kustomize-helm-example',
				ref: { branch: 'main' },
			},
			status: { artifact: { revision: `main@sha1:${commit}` } },
		};
		assert.equal(
			sourceLinkOf(repository)?.url,
			`https://github.com/fluxcd/flux2-kustomize-helm-example/commit/${commit}`,
		);
		const oci = {
			apiVersion: 'source.toolkit.fluxcd.io/v1beta2',
			kind: 'OCIRepository',
			spec: { url: 'oci://ghcr.io/stefanprodan/manifests/podinfo' },
			status: { artifact: { revision: 'latest@sha256:abc' } },
		};
		assert.deepEqual(sourceLinkOf(oci), {
			text: 'oci://ghcr.io/stefanprodan/manifests/podinfo latest@sha256:abc',
			title: 'oci://ghcr.io/stefanprodan/manifests/podinfo at latest@sha256:abc',
		});
		assert.equal(sourceLinkOf({ apiVersion: 'v1', kind: 'ConfigMap' }), undefined);
	});
});

describe('a GitRepo with several paths', () => {
	it('has a link per path, in its order, each at the commit it is at; one path or none gives one link', () => {
		const links = sourceLinksOf(
			gitRepo('https://github.com/example/shop-fleet', {
				paths: ['charts/frontend', 'charts/cache', 'charts/frontend'],
			}),
		);
		assert.deepEqual(
			links.map((link) => link.url),
			[
				`https://github.com/example/shop-fleet/tree/${commit}/charts/frontend`,
				`https://github.com/example/shop-fleet/tree/${commit}/charts/cache`,
			],
		);
		assert.equal(sourceLinksOf(gitRepo('https://github.com/example/shop-fleet')).length, 1);
		assert.equal(
			sourceLinksOf(gitRepo('https://github.com/example/shop-fleet', { paths: [] })).length,
			1,
		);
		assert.deepEqual(sourceLinksOf({ kind: 'ConfigMap' }), []);
	});
});
