// Where a GitOps object's source lives: the repository, path and commit of a Fleet GitRepo (and of the Bundles it
// made), the URL and revision of a Flux GitRepository or OCIRepository. A link is built only for an http(s) URL on a
// Git host whose URL patterns are known (GitHub, GitLab, Bitbucket, Gitea); for any other source the URL and the
// revision are offered to copy. The URL is data from a file or a cluster: it is only ever opened as a link (through
// the editor's external-link confirmation), never turned into a command.
import { getArray, getRecord, getString } from '../model/object.ts';

/** What "Open Source" offers for an object. */
export interface SourceLink {
	/** An https/http URL to open; absent when no Git host pattern fits (then only the text is offered). */
	readonly url?: string;
	/** The repository and revision as text, to copy. */
	readonly text: string;
	/** What the link shows, for the confirmation and the menu ("commit 3f9c2a7 of example/shop-fleet"). */
	readonly title: string;
}

type Host = 'github' | 'gitlab' | 'bitbucket' | 'gitea';

interface Repository {
	readonly base: string;
	readonly host: Host | undefined;
	readonly name: string;
}

/** The web address of a Git remote: https as written, scp-like `git@host:owner/repo.git` and ssh:// as https. */
function repositoryOf(remote: string): Repository | undefined {
	const text = remote.trim();
	let url: URL | undefined;
	const scp = /^[\w.-]+@([\w.-]+):(?!\/)(.+)$/.exec(text);
	try {
		if (scp) url = new URL(`https://${scp[1]}/${scp[2]}`);
		else {
			url = new URL(text);
			if (url.protocol === 'ssh:' || url.protocol === 'git+ssh:') {
				url = new URL(`https://${url.hostname}${url.pathname}`);
			}
		}
	} catch {
		return undefined;
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
	if (url.username || url.password) {
		// Credentials in a URL are never shown, copied or opened.
		url.username = '';
		url.password = '';
	}
	const path = url.pathname.replace(/\/+$/, '').replace(/\.git$/, '');
	if (path.split('/').filter(Boolean).length < 2) return undefined;
	const hostname = url.hostname.toLowerCase();
	const host: Host | undefined =
		hostname === 'github.com' || hostname.startsWith('github.')
			? 'github'
			: hostname === 'gitlab.com' || hostname.startsWith('gitlab.')
				? 'gitlab'
				: hostname === 'bitbucket.org'
					? 'bitbucket'
					: hostname.startsWith('gitea.') || hostname === 'codeberg.org'
						? 'gitea'
						: undefined;
	return { base: `${url.protocol}//${url.host}${path}`, host, name: path.replace(/^\//, '') };
}

function encodedPath(path: string): string {
	return path
		.replace(/^\.?\/+/, '')
		.split('/')
		.filter((segment) => segment !== '' && segment !== '.' && segment !== '..')
		.map(encodeURIComponent)
		.join('/');
}

/** The host's page for a revision (a commit or a branch), at a path when given. */
function pageOf(
	repository: Repository,
	revision: string,
	path: string | undefined,
): string | undefined {
	const at = encodeURIComponent(revision);
	const sub = path ? encodedPath(path) : '';
	const isCommit = /^[0-9a-f]{7,64}$/i.test(revision);
	switch (repository.host) {
		case 'github':
			return sub
				? `${repository.base}/tree/${at}/${sub}`
				: `${repository.base}/${isCommit ? 'commit' : 'tree'}/${at}`;
		case 'gitlab':
			return sub
				? `${repository.base}/-/tree/${at}/${sub}`
				: `${repository.base}/-/${isCommit ? 'commit' : 'tree'}/${at}`;
		case 'bitbucket':
			return sub
				? `${repository.base}/src/${at}/${sub}`
				: `${repository.base}/${isCommit ? 'commits' : 'src'}/${at}`;
		case 'gitea':
			return sub
				? `${repository.base}/src/${isCommit ? 'commit' : 'branch'}/${at}/${sub}`
				: `${repository.base}/${isCommit ? 'commit' : 'src/branch'}/${at}`;
		default:
			return undefined;
	}
}

/** A URL without the user and password some write into it. */
function withoutCredentials(url: string): string {
	return url.replace(/\/\/[^/@\s]*@/, '//');
}

function shortRevision(revision: string): string {
	return /^[0-9a-f]{40,64}$/i.test(revision) ? revision.slice(0, 7) : revision;
}

function linkFor(
	remote: string,
	revision: string | undefined,
	path: string | undefined,
): SourceLink | undefined {
	const repository = repositoryOf(remote);
	const shownRemote = repository?.base ?? withoutCredentials(remote);
	const text = [shownRemote, revision, path]
		.filter((part) => part !== undefined && part !== '')
		.join(' ');
	if (!repository) return { text, title: `${shownRemote}${revision ? ` at ${revision}` : ''}` };
	const url = revision
		? pageOf(repository, revision, path)
		: repository.host
			? repository.base
			: undefined;
	const what = revision
		? `${/^[0-9a-f]{7,64}$/i.test(revision) ? 'commit' : 'branch'} ${shortRevision(revision)} of `
		: '';
	const title = `${what}${repository.name}${path ? `, ${encodedPath(path)}` : ''}`;
	return url ? { url, text, title } : { text, title };
}

/** Flux's artifact revision ("main@sha1:abc", "sha1:abc", the older "main/abc") as the commit it names. */
function fluxCommitOf(revision: string): string {
	const digest = /(?:^|@)(?:sha1|sha256):([0-9a-f]+)$/i.exec(revision);
	if (digest?.[1]) return digest[1];
	const legacy = /\/([0-9a-f]{40})$/i.exec(revision);
	return legacy?.[1] ?? revision;
}

/** A Fleet GitRepo's repository, the revision it is at (commit, else revision or branch) and its paths, once each. */
function gitRepoSource(
	object: unknown,
): { repo: string; revision: string | undefined; paths: string[] } | undefined {
	const repo = getString(object, 'spec', 'repo');
	if (!repo) return undefined;
	const revision =
		getString(object, 'status', 'commit') ||
		getString(object, 'spec', 'revision') ||
		getString(object, 'spec', 'branch') ||
		undefined;
	const paths = (getArray(object, 'spec', 'paths') ?? []).filter(
		(path): path is string => typeof path === 'string' && path !== '',
	);
	return { repo, revision, paths: [...new Set(paths)] };
}

function isFleetGitRepo(object: unknown): boolean {
	return (
		(getString(object, 'apiVersion') ?? '').startsWith('fleet.cattle.io/') &&
		getString(object, 'kind') === 'GitRepo'
	);
}

/**
 * Every source of an object: a Fleet GitRepo with several `spec.paths` has one per path (in its order, each at the
 * same commit); anything else has the one `sourceLinkOf` gives, or none.
 */
export function sourceLinksOf(object: unknown, gitRepo?: unknown): SourceLink[] {
	const source = isFleetGitRepo(object) ? gitRepoSource(object) : undefined;
	if (source && source.paths.length > 1) {
		return source.paths.flatMap((path) => linkFor(source.repo, source.revision, path) ?? []);
	}
	const only = sourceLinkOf(object, gitRepo);
	return only ? [only] : [];
}

/**
 * The source of an object: a Fleet GitRepo (its repository at the commit it is at, else its branch or revision, and
 * its first path), a Fleet Bundle (the commit its label names, in the repository of `gitRepo`, the GitRepo that made
 * it, when given), a Flux GitRepository or OCIRepository (its URL and revision). Undefined for anything else.
 */
export function sourceLinkOf(object: unknown, gitRepo?: unknown): SourceLink | undefined {
	const apiVersion = getString(object, 'apiVersion') ?? '';
	const kind = getString(object, 'kind');
	if (isFleetGitRepo(object)) {
		const source = gitRepoSource(object);
		return source ? linkFor(source.repo, source.revision, source.paths[0]) : undefined;
	}
	if (apiVersion.startsWith('fleet.cattle.io/') && kind === 'Bundle') {
		const commit = getString(getRecord(object, 'metadata', 'labels'), 'fleet.cattle.io/commit');
		const repo = getString(gitRepo, 'spec', 'repo');
		if (!repo) {
			return commit ? { text: commit, title: `commit ${shortRevision(commit)}` } : undefined;
		}
		return linkFor(repo, commit || undefined, undefined);
	}
	if (
		apiVersion.startsWith('source.toolkit.fluxcd.io/') &&
		(kind === 'GitRepository' || kind === 'OCIRepository')
	) {
		const written = getString(object, 'spec', 'url');
		if (!written) return undefined;
		const url = withoutCredentials(written);
		const revision = getString(object, 'status', 'artifact', 'revision');
		if (kind === 'OCIRepository') {
			return {
				text: [url, revision].filter(Boolean).join(' '),
				title: `${url}${revision ? ` at ${revision}` : ''}`,
			};
		}
		const ref = getRecord(object, 'spec', 'ref');
		const wanted =
			getString(ref, 'commit') || getString(ref, 'tag') || getString(ref, 'branch') || undefined;
		return linkFor(written, revision ? fluxCommitOf(revision) : wanted, undefined);
	}
	return undefined;
}
