import * as vscode from 'vscode';
import { getString } from '../../core/model/object.ts';
import { visibleLine } from '../../core/text/visible.ts';
import { bundlesAskedOfCluster, type HereAnswer } from '../../core/targeting/whyNotHere.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';

interface AnswerItem extends vscode.QuickPickItem {
	readonly answer: HereAnswer;
}

/**
 * "Why Not Here…" on a Fleet Cluster row: every Bundle of the row's input, not deployed first, each with whether the
 * Fleet controller deploys it on this cluster and why; the one picked is said in full, with Explain of the Bundle
 * beside. A caller may name the Bundle (`namespace/name`) instead of picking. Returns the answer (for tests).
 */
export function registerWhyNotHere(
	context: vscode.ExtensionContext,
	deps: { readonly graph: ResourceGraph },
): void {
	const { graph } = deps;
	context.subscriptions.push(
		vscode.commands.registerCommand(
			'kubeStatusLens.targets.whyNotHere',
			async (id?: unknown, bundle?: unknown): Promise<HereAnswer | undefined> => {
				const node = typeof id === 'string' ? graph.node(id) : undefined;
				const object = node?.objectKey ? graph.objectOf(node.rootId, node.objectKey) : undefined;
				if (!node || getString(object, 'kind') !== 'Cluster') {
					void vscode.window.showInformationMessage(
						'Why Not Here… asks the Bundles of a Fleet Cluster: run it on a Cluster row of the Kube Status Lens tree.',
					);
					return undefined;
				}
				const namespace = getString(object, 'metadata', 'namespace') ?? '';
				const name = getString(object, 'metadata', 'name') ?? '';
				const answers = bundlesAskedOfCluster(graph.objectsOf(node.rootId), namespace, name);
				if (answers.length === 0) {
					void vscode.window.showInformationMessage(
						`No Bundle in ${visibleLine(node.label)}'s input yet: nothing could deploy on cluster ${visibleLine(name)}.`,
					);
					return undefined;
				}
				const answer =
					typeof bundle === 'string'
						? answers.find((candidate) => `${candidate.namespace}/${candidate.name}` === bundle)
						: await pickAnswer(answers, name);
				if (!answer) return undefined;
				const said = `Bundle ${visibleLine(`${answer.namespace}/${answer.name}`)} ${
					answer.deployed ? 'deploys on' : 'does not deploy on'
				} cluster ${visibleLine(name)}: ${visibleLine(answer.why)}`;
				void vscode.window.showInformationMessage(said, 'Explain Bundle').then((choice) => {
					if (!choice) return;
					const [bundleNode] = graph.findNodesForObject(
						node.rootId,
						`fleet.cattle.io|Bundle|${answer.namespace}|${answer.name}`,
					);
					if (bundleNode) {
						void vscode.commands.executeCommand('kubeStatusLens.resource.explain', bundleNode);
					}
				});
				return answer;
			},
		),
	);
}

async function pickAnswer(
	answers: readonly HereAnswer[],
	cluster: string,
): Promise<HereAnswer | undefined> {
	const deployed = answers.filter((answer) => answer.deployed).length;
	const items: AnswerItem[] = answers.map((answer) => ({
		label: `${answer.deployed ? '$(pass)' : '$(circle-slash)'} ${visibleLine(`${answer.namespace}/${answer.name}`)}`,
		description: answer.deployed ? 'deploys here' : 'not here',
		detail: visibleLine(answer.why),
		answer,
	}));
	const picked = await vscode.window.showQuickPick(items, {
		title: `Why not on ${visibleLine(cluster)}? ${answers.length - deployed} of ${answers.length} Bundles do not deploy here`,
		placeHolder: 'A Bundle, to see why it does or does not deploy on this cluster',
		matchOnDetail: true,
	});
	return picked?.answer;
}
