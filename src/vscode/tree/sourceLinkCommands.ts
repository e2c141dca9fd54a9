import * as vscode from 'vscode';
import { sourceLinkOf, type SourceLink } from '../../core/explain/sourceLinks.ts';
import { bundleGitRepoKeyOf } from '../../core/tree/linking.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';
import { visibleLine } from '../../core/text/visible.ts';

function linkOfNode(graph: ResourceGraph, id: unknown): SourceLink | undefined {
	const node = typeof id === 'string' ? graph.node(id) : undefined;
	if (!node?.objectKey) return undefined;
	const object = graph.objectOf(node.rootId, node.objectKey);
	if (!object) return undefined;
	const gitRepoKey = bundleGitRepoKeyOf(object);
	return sourceLinkOf(
		object,
		gitRepoKey === undefined ? undefined : graph.objectOf(node.rootId, gitRepoKey),
	);
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
	context.subscriptions.push(
		vscode.commands.registerCommand('kubeStatusLens.source.open', async (id?: unknown) => {
			const link = linkOfNode(deps.graph, id);
			if (!link) return none();
			if (!link.url) {
				const answer = await vscode.window.showInformationMessage(
					`${visibleLine(link.title)}: no web page is known for this Git host.`,
					'Copy URL and Revision',
				);
				return answer ? copy(link) : undefined;
			}
			await vscode.env.openExternal(vscode.Uri.parse(link.url, true));
			return link.url;
		}),
		vscode.commands.registerCommand('kubeStatusLens.source.copy', async (id?: unknown) => {
			const link = linkOfNode(deps.graph, id);
			return link ? copy(link) : none();
		}),
	);
}
