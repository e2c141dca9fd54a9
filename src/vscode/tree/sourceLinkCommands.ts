import * as vscode from 'vscode';
import { sourceLinksOf, type SourceLink } from '../../core/explain/sourceLinks.ts';
import { bundleGitRepoKeyOf } from '../../core/tree/linking.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';
import { visibleLine } from '../../core/text/visible.ts';

function linksOfNode(graph: ResourceGraph, id: unknown): SourceLink[] {
	const node = typeof id === 'string' ? graph.node(id) : undefined;
	if (!node?.objectKey) return [];
	const object = graph.objectOf(node.rootId, node.objectKey);
	if (!object) return [];
	const gitRepoKey = bundleGitRepoKeyOf(object);
	return sourceLinksOf(
		object,
		gitRepoKey === undefined ? undefined : graph.objectOf(node.rootId, gitRepoKey),
	);
}

/**
 * The one link, or the one the user picks when a GitRepo deploys several paths (a caller may name the path instead).
 */
async function chosenLink(
	links: readonly SourceLink[],
	placeHolder: string,
	path: unknown,
): Promise<SourceLink | undefined> {
	if (links.length <= 1) return links[0];
	if (typeof path === 'string') return links.find((link) => link.text.endsWith(` ${path}`));
	const picked = await vscode.window.showQuickPick(
		links.map((link) => ({ label: visibleLine(link.title), detail: visibleLine(link.text), link })),
		{ placeHolder },
	);
	return picked?.link;
}

/**
 * Registers Open Source (the repository, path and commit on its Git host, through VS Code's external-link
 * confirmation) and Copy Source URL and Revision. The URL comes from a file or a cluster: it is opened as a link,
 * never run as a command. Each returns what it opened or copied (for tests).
 */
export function registerSourceLinkCommands(
	context: vscode.ExtensionContext,
	deps: { readonly graph: ResourceGraph },
): void {
	const copy = async (link: SourceLink): Promise<string> => {
		await vscode.env.clipboard.writeText(link.text);
		void vscode.window.showInformationMessage(`Copied ${visibleLine(link.text)}`);
		return link.text;
	};
	const none = (): undefined => {
		void vscode.window.showInformationMessage(
			'No source repository is known for this object (a Fleet GitRepo or Bundle, or a Flux GitRepository or OCIRepository, has one).',
		);
		return undefined;
	};
	/** The node's link: none (said), the one, or the one picked or named among a GitRepo's paths. */
	const linkFor = async (
		id: unknown,
		path: unknown,
		verb: string,
	): Promise<SourceLink | undefined> => {
		const links = linksOfNode(deps.graph, id);
		if (links.length === 0) return none();
		return chosenLink(links, `The GitRepo deploys several paths: ${verb} which one?`, path);
	};
	context.subscriptions.push(
		vscode.commands.registerCommand(
			'kubeStatusLens.source.open',
			async (id?: unknown, path?: unknown) => {
				const link = await linkFor(id, path, 'open');
				if (!link) return undefined;
				if (!link.url) {
					const answer = await vscode.window.showInformationMessage(
						`${visibleLine(link.title)}: no web page is known for this Git host.`,
						'Copy URL and Revision',
					);
					return answer ? copy(link) : undefined;
				}
				await vscode.env.openExternal(vscode.Uri.parse(link.url, true));
				return link.url;
			},
		),
		vscode.commands.registerCommand(
			'kubeStatusLens.source.copy',
			async (id?: unknown, path?: unknown) => {
				const link = await linkFor(id, path, 'copy');
				return link ? copy(link) : undefined;
			},
		),
	);
}
