import * as vscode from 'vscode';
import type { ResourceGraph } from '../../core/tree/model.ts';
import type { GraphChanged } from '../../live/feedDependencies.ts';
import { LiveFeed } from '../../live/liveFeed.ts';
import type { Log } from '../log.ts';
import { readClusterSettings } from '../settings.ts';
import { loadK8sActions } from './k8sActions.ts';

/**
 * The live feed with VS Code's settings, log and window progress. The cluster client is the k8s bundle
 * (dist/k8s.cjs, with client-node), loaded the first time a live root is needed, so activation stays light.
 */
export function createLiveFeed(graph: ResourceGraph, log: Log, onChanged: GraphChanged): LiveFeed {
	return new LiveFeed({
		graph,
		onChanged,
		loadClient: loadK8sActions,
		readSettings: readClusterSettings,
		log,
		showProgress: (task) =>
			vscode.window.withProgress(
				{ location: vscode.ProgressLocation.Window, title: 'Kube Status Lens' },
				(progress) => task((message) => progress.report({ message })),
			),
	});
}
