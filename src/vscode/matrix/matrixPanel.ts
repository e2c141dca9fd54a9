// The rollout matrix panel: a webview per root and system, fed from the graph (rebuilt at most every 100 ms while
// it changes; an update of the same shape sends only the changed cells), answering the page's clicks and keys.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import {
	fromPanelMessage,
	type FromPanel,
	type ToPanel,
} from '../../core/matrix/matrixMessages.ts';
import {
	buildRolloutMatrix,
	cellAt,
	matrixSystemsOf,
	summariesOf,
	type MatrixSource,
	type MatrixSystem,
	type RolloutMatrix,
} from '../../core/matrix/rolloutMatrix.ts';
import { changedCells, sameShape, wireMatrixOf } from '../../core/matrix/matrixWire.ts';
import { objectKeyOf } from '../../core/tree/linking.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';

const systemTitles: Readonly<Record<MatrixSystem, string>> = {
	fleet: 'Fleet rollout',
	kubestellar: 'KubeStellar workloads',
};

/** One open matrix; what the in-host tests read. */
export interface MatrixPanelHandle {
	readonly rootId: string;
	readonly system: MatrixSystem;
	readonly panel: vscode.WebviewPanel;
	/** The matrix the page was last sent. */
	current(): RolloutMatrix | undefined;
	/** Fires with every valid message from the page. */
	readonly onMessage: vscode.Event<FromPanel>;
	/** Sends a message to the page (the tests' stand-in for a key press). */
	send(message: ToPanel): Thenable<boolean>;
}

/** The open matrices, and the hook the engine calls when the graph changes. */
export interface MatrixPanels {
	readonly open: () => readonly MatrixPanelHandle[];
	readonly graphChanged: () => void;
}

function nonce(): string {
	return randomBytes(18).toString('base64');
}

function pageHtml(webview: vscode.Webview, script: vscode.Uri): string {
	const once = nonce();
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${webview.cspSource}; style-src 'nonce-${once}'; script-src 'nonce-${once}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Rollout Matrix</title>
<style nonce="${once}">
:root {
	--tone-ok: var(--vscode-testing-iconPassed, #388a34);
	--tone-error: var(--vscode-errorForeground, #f14c4c);
	--tone-warning: var(--vscode-editorWarning-foreground, #cca700);
	--tone-progressing: var(--vscode-progressBar-background, #0e70c0);
	--tone-unknown: var(--vscode-disabledForeground, #888888);
	--tone-suspended: var(--vscode-descriptionForeground, #888888);
	--glyph-ok: "\\2713";
	--glyph-error: "\\2716";
	--glyph-warning: "\\25B2";
	--glyph-progressing: "\\25D4";
	--glyph-unknown: "?";
	--glyph-suspended: "\\2016";
}
/* The themes' own colours fall below 4.5:1 for text in places (the light theme's passed-test green is 2.0:1 on
   white): the light and dark themes get tones checked against their editor backgrounds (test/unit/repository/
   matrixContrast.test.ts); high contrast themes keep theirs. */
body.vscode-light {
	--tone-ok: #2e7d32;
	--tone-error: #c62828;
	--tone-warning: #8a6100;
	--tone-progressing: #005fb8;
	--tone-unknown: #6c6c6c;
	--tone-suspended: #6c6c6c;
}
body.vscode-dark {
	--tone-ok: #73c991;
	--tone-error: #f48771;
	--tone-warning: #cca700;
	--tone-progressing: #3794ff;
	--tone-unknown: #9d9d9d;
	--tone-suspended: #9d9d9d;
}
body { margin: 0; padding: 0 8px; display: flex; flex-direction: column; height: 100vh; box-sizing: border-box; overflow: hidden; color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
header { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding: 6px 0; }
h1 { font-size: 1.1em; margin: 0; font-weight: 600; }
label { display: inline-flex; gap: 4px; align-items: center; }
input, select { color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); font: inherit; padding: 2px 4px; }
#status { margin: 0; color: var(--vscode-descriptionForeground); }
#notice { margin: 0 0 6px; padding: 4px 8px; border-left: 3px solid var(--vscode-editorInfo-foreground, var(--vscode-focusBorder)); background: var(--vscode-textBlockQuote-background, transparent); }
#notice:empty { display: none; }
#grid { position: relative; overflow: auto; flex: 1 1 auto; min-height: 0; outline: none; }
#grid:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
#spacer { position: absolute; top: 0; left: 0; }
#layer > div > div { position: absolute; box-sizing: border-box; overflow: hidden; white-space: nowrap; }
.corner, .column-header { background: var(--vscode-editor-background); z-index: 2; border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); }
.corner { z-index: 3; }
.column-header { display: flex; flex-direction: column; justify-content: flex-end; font-size: 0.85em; padding: 0 2px; text-align: center; }
.column-header .group, .row-header .summary, .column-header .summary { color: var(--vscode-descriptionForeground); }
.column-header span { overflow: hidden; text-overflow: ellipsis; }
.row-header { background: var(--vscode-editor-background); z-index: 1; display: flex; justify-content: space-between; gap: 8px; padding: 0 6px; line-height: 24px; }
.row-header .label { overflow: hidden; text-overflow: ellipsis; }
.row-header:not(.heading) .label { padding-left: 14px; }
.row-header.heading { font-weight: 600; }
.cell { text-align: center; line-height: 22px; font-size: 0.85em; font-weight: 600; border: 1px solid var(--vscode-editor-background); cursor: pointer; }
.cell::before { margin-right: 2px; }
.cell.empty { color: var(--vscode-disabledForeground); cursor: default; }
.tone-ok { color: var(--tone-ok); } .tone-ok::before { content: var(--glyph-ok); }
.tone-error { color: var(--vscode-editor-background); background: var(--tone-error); } .tone-error::before { content: var(--glyph-error); }
.tone-warning { color: var(--vscode-editor-background); background: var(--tone-warning); } .tone-warning::before { content: var(--glyph-warning); }
.tone-progressing { color: var(--tone-progressing); } .tone-progressing::before { content: var(--glyph-progressing); }
.tone-unknown { color: var(--tone-unknown); } .tone-unknown::before { content: var(--glyph-unknown); }
.tone-suspended { color: var(--tone-suspended); } .tone-suspended::before { content: var(--glyph-suspended); }
.cell.untargeted::before { content: none; }
.cell.active { outline: 2px solid var(--vscode-focusBorder); outline-offset: -2px; }
body.vscode-high-contrast .cell:not(.empty), body.vscode-high-contrast-light .cell:not(.empty) { border-color: var(--vscode-contrastBorder); }
body.vscode-high-contrast .tone-error, body.vscode-high-contrast .tone-warning { color: var(--vscode-editor-background); }
</style>
</head>
<body>
<header>
<h1 id="title">Rollout Matrix</h1>
<label>Filter clusters <input id="filter" type="text" placeholder="env=prod, !canary, name" aria-label="Filter clusters by label or name"></label>
<label>Columns <select id="column-sort"><option value="group">by ClusterGroup</option><option value="name">by name</option><option value="problems">problems first</option></select></label>
<label>Rows <select id="row-sort"><option value="name">by name</option><option value="problems">problems first</option></select></label>
<p id="status" role="status"></p>
</header>
<p id="notice" role="status"></p>
<div id="grid" role="grid" tabindex="0" aria-label="Rollout matrix: arrow keys move, Enter explains, Space reveals in the tree"><div id="spacer"></div><div id="layer"></div></div>
<script nonce="${once}" src="${webview.asWebviewUri(script).toString()}"></script>
</body>
</html>`;
}

/** The tree item a matrix was opened from: its row's object, or the ClusterGroup whose clusters to show. */
interface MatrixFocus {
	readonly objectKey: string | undefined;
	readonly filter: string;
}

interface MatrixActions {
	readonly reveal: (nodeId: string) => Promise<void>;
	readonly explain: (nodeId: string) => Promise<void>;
}

class OpenMatrix implements MatrixPanelHandle {
	private matrix: RolloutMatrix | undefined;
	private readonly messages = new vscode.EventEmitter<FromPanel>();
	readonly onMessage = this.messages.event;

	readonly rootId: string;
	readonly system: MatrixSystem;
	readonly panel: vscode.WebviewPanel;
	private readonly graph: ResourceGraph;
	private readonly actions: MatrixActions;

	constructor(
		rootId: string,
		system: MatrixSystem,
		panel: vscode.WebviewPanel,
		graph: ResourceGraph,
		actions: MatrixActions,
	) {
		this.rootId = rootId;
		this.system = system;
		this.panel = panel;
		this.graph = graph;
		this.actions = actions;
		panel.webview.onDidReceiveMessage((value: unknown) => this.receive(value));
		panel.onDidDispose(() => this.messages.dispose());
	}

	current(): RolloutMatrix | undefined {
		return this.matrix;
	}

	/** What to show once the page is ready: the row of the tree item it was opened from, or a ClusterGroup's columns. */
	private focus: MatrixFocus | undefined;

	focusOn(focus: MatrixFocus | undefined): void {
		if (!focus) return;
		if (this.matrix) this.showFocus(focus);
		else this.focus = focus;
	}

	private showFocus(focus: MatrixFocus): void {
		const row =
			focus.objectKey === undefined
				? -1
				: (this.matrix?.rows.findIndex((candidate) => candidate.objectKey === focus.objectKey) ??
					-1);
		void this.send({ type: 'focus', row, filter: focus.filter });
	}

	send(message: ToPanel): Thenable<boolean> {
		return this.panel.webview.postMessage(message);
	}

	private title(): string {
		const root = this.graph.roots().find((node) => node.rootId === this.rootId);
		return `${systemTitles[this.system]} — ${root?.label ?? this.rootId}`;
	}

	private readonly source: MatrixSource = (visit) =>
		this.graph.forEachObjectStatus(this.rootId, visit);

	/** Sends the whole matrix (the page asked, or rows or columns changed). */
	sendAll(): void {
		this.matrix = buildRolloutMatrix(this.system, this.source, this.matrix);
		this.sendMatrix(this.matrix);
	}

	private sendMatrix(matrix: RolloutMatrix): void {
		void this.send({ type: 'matrix', title: this.title(), ...wireMatrixOf(matrix) });
	}

	/** Rebuilds and sends what changed. */
	update(): void {
		const before = this.matrix;
		if (!before) return this.sendAll();
		const after = buildRolloutMatrix(this.system, this.source, before);
		if (after === before) return;
		this.matrix = after;
		if (!sameShape(before, after)) return this.sendMatrix(after);
		const cells = changedCells(before, after);
		if (!cells) return;
		const summaries = summariesOf(after);
		void this.send({
			type: 'cells',
			cells,
			rowSummaries: summaries.rows,
			columnSummaries: summaries.columns,
			rowBadness: summaries.rowBadness,
			columnBadness: summaries.columnBadness,
		});
	}

	private receive(value: unknown): void {
		const message = fromPanelMessage(value);
		if (!message) return;
		if (message.type === 'ready') {
			this.sendAll();
			const focus = this.focus;
			this.focus = undefined;
			if (focus) this.showFocus(focus);
		} else if (message.type === 'reveal' || message.type === 'explain') {
			const cell = this.matrix && cellAt(this.matrix, message.row, message.column);
			const nodeId = cell
				? this.graph.findNodesForObject(this.rootId, objectKeyOf(cell.object))[0]
				: undefined;
			if (nodeId !== undefined) {
				void (message.type === 'reveal'
					? this.actions.reveal(nodeId)
					: this.actions.explain(nodeId));
			}
		}
		this.messages.fire(message);
	}
}

/** Registers Show Rollout Matrix (from a tree item or the palette) and returns the open panels. */
export function registerRolloutMatrix(
	context: vscode.ExtensionContext,
	deps: {
		readonly graph: ResourceGraph;
		readonly view: vscode.TreeView<string>;
		readonly flushTree: () => void;
		readonly ensureStarted: () => Promise<void>;
	},
): MatrixPanels {
	const { graph, view } = deps;
	const panels = new Map<string, OpenMatrix>();
	const script = vscode.Uri.joinPath(context.extensionUri, 'dist', 'matrixPage.js');
	const actions = {
		reveal: async (nodeId: string): Promise<void> => {
			deps.flushTree();
			await view.reveal(nodeId, { select: true, focus: false, expand: false }).then(
				() => undefined,
				() =>
					void vscode.window.showInformationMessage(
						'The tree does not show this object now (a filter hides it): Clear Filters shows it.',
					),
			);
		},
		explain: async (nodeId: string): Promise<void> => {
			await vscode.commands.executeCommand('kubeStatusLens.resource.explain', nodeId);
		},
	};

	const show = (rootId: string, system: MatrixSystem): OpenMatrix => {
		const key = `${system}\u0000${rootId}`;
		const existing = panels.get(key);
		if (existing) {
			existing.panel.reveal();
			return existing;
		}
		const panel = vscode.window.createWebviewPanel(
			'kubeStatusLens.rolloutMatrix',
			'Rollout Matrix',
			vscode.ViewColumn.Active,
			{
				enableScripts: true,
				localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'dist')],
			},
		);
		const open = new OpenMatrix(rootId, system, panel, graph, actions);
		panels.set(key, open);
		panel.onDidDispose(() => panels.delete(key));
		const root = graph.roots().find((node) => node.rootId === rootId);
		panel.title = `${system === 'fleet' ? 'Fleet' : 'KubeStellar'} Matrix: ${root?.label ?? rootId}`;
		panel.webview.html = pageHtml(panel.webview, script);
		return open;
	};

	const pickTarget = async (
		nodeId: unknown,
	): Promise<{ rootId: string; system: MatrixSystem; focus?: MatrixFocus } | undefined> => {
		const node = typeof nodeId === 'string' ? graph.node(nodeId) : undefined;
		if (node) {
			const systems = matrixSystemsOf((visit) => graph.forEachObjectStatus(node.rootId, visit));
			const asked = node.contextFlags.system;
			const system = systems.find((candidate) => candidate === asked) ?? systems[0];
			if (!system) {
				void vscode.window.showInformationMessage(
					'This root holds no Fleet GitRepos, Bundles or BundleDeployments and no KubeStellar WorkStatuses to show in a matrix.',
				);
				return undefined;
			}
			const kind = node.contextFlags.objectKind;
			if (node.kind !== 'object') return { rootId: node.rootId, system };
			return {
				rootId: node.rootId,
				system,
				focus:
					kind === 'ClusterGroup'
						? { objectKey: undefined, filter: node.ref?.name ?? '' }
						: { objectKey: node.objectKey, filter: '' },
			};
		}
		const choices: (vscode.QuickPickItem & { rootId: string; system: MatrixSystem })[] = [];
		for (const root of graph.roots()) {
			const source: MatrixSource = (visit) => graph.forEachObjectStatus(root.rootId, visit);
			for (const system of matrixSystemsOf(source)) {
				choices.push({
					label: systemTitles[system],
					description: root.label,
					rootId: root.rootId,
					system,
				});
			}
		}
		if (choices.length === 0) {
			void vscode.window.showInformationMessage(
				'No root holds Fleet GitRepos, Bundles or BundleDeployments or KubeStellar WorkStatuses to show in a matrix.',
			);
			return undefined;
		}
		if (choices.length === 1) return choices[0];
		return vscode.window.showQuickPick(choices, { placeHolder: 'Which rollout to show' });
	};

	let timer: ReturnType<typeof setTimeout> | undefined;
	context.subscriptions.push(
		{ dispose: () => clearTimeout(timer) },
		vscode.commands.registerCommand('kubeStatusLens.matrix.show', async (nodeId?: unknown) => {
			await deps.ensureStarted();
			const target = await pickTarget(nodeId);
			if (!target) return undefined;
			show(target.rootId, target.system).focusOn(target.focus);
			return true;
		}),
	);
	return {
		open: () => [...panels.values()],
		graphChanged: () => {
			if (panels.size === 0) return;
			timer ??= setTimeout(() => {
				timer = undefined;
				for (const panel of panels.values()) panel.update();
			}, 100);
		},
	};
}
