import * as vscode from 'vscode';
import { isFleetMonitorOutput, monitorDocumentReport } from '../../core/checks/fleetMonitor.ts';
import {
	documentFleetFindings,
	fleetChecksClockOf,
} from '../../core/checks/fleetTroubleshooting.ts';
import {
	diagnoseManifest,
	findingRules,
	listedFindings,
	type Finding,
} from '../../core/manifest/diagnose.ts';
import { parseManifests } from '../../core/manifest/parse.ts';
import { getRecord, isRecord } from '../../core/model/object.ts';
import type { Range } from '../../core/model/range.ts';
import { mayHoldTargets, targetFindingsOf } from '../../core/targeting/targetLenses.ts';
import type { ResourceGraph } from '../../core/tree/model.ts';
import { targetInventoriesOf } from '../editor/targetInventories.ts';
import { contextOfLiveRoot } from '../../live/liveRoots.ts';
import { rootOfReadOnlyDocument } from '../live/readOnlyDocuments.ts';
import { readDiagnosticsSettings, readTargetInventorySetting } from '../settings.ts';
import { workspaceRootId } from '../workspace/workspaceManifests.ts';

const severities: Readonly<Record<Finding['severity'], vscode.DiagnosticSeverity>> = {
	error: vscode.DiagnosticSeverity.Error,
	warning: vscode.DiagnosticSeverity.Warning,
	information: vscode.DiagnosticSeverity.Information,
	hint: vscode.DiagnosticSeverity.Hint,
};

const monitorLanguages = new Set(['json', 'jsonl', 'jsonc', 'plaintext', 'log']);

/** The diagnostics source shown in the Problems panel. */
export const diagnosticSource = 'Kube Status Lens';

/** An editor range from the core's range. */
export function vscodeRangeOf(range: Range): vscode.Range {
	return new vscode.Range(
		range.start.line,
		range.start.character,
		range.end.line,
		range.end.character,
	);
}

/**
 * One DiagnosticCollection for open YAML documents and `fleet monitor` output: re-diagnosed on edit (debounced, per
 * document, cached by version), cleared when a document closes. The findings are kept so the quick-fix provider can
 * hand out their fixes. A read-only document of a live object or an archive entry is checked against its own root
 * (that context or that archive); a file against the workspace.
 */
export class ManifestDiagnostics implements vscode.Disposable {
	private readonly collection = vscode.languages.createDiagnosticCollection('kubeStatusLens');
	private readonly findings = new Map<string, { version: number; findings: readonly Finding[] }>();
	private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
	private readonly disposables: vscode.Disposable[] = [];
	private readonly graph: ResourceGraph;
	private graphTimer: ReturnType<typeof setTimeout> | undefined;

	constructor(graph: ResourceGraph) {
		this.graph = graph;
		this.disposables.push(
			this.collection,
			vscode.workspace.onDidOpenTextDocument((document) => this.schedule(document, 0)),
			vscode.workspace.onDidChangeTextDocument((event) => this.schedule(event.document, 300)),
			vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri)),
			vscode.workspace.onDidChangeConfiguration((event) => {
				if (event.affectsConfiguration('kubeStatusLens.diagnostics')) this.refreshAll();
				if (event.affectsConfiguration('kubeStatusLens.targeting')) this.rediagnoseTargets();
			}),
		);
		this.refreshAll();
	}

	/** The findings last computed for a document (for quick fixes). */
	findingsOf(uri: vscode.Uri): readonly Finding[] {
		return this.findings.get(uri.toString())?.findings ?? [];
	}

	/** Re-diagnoses every open YAML document. */
	/** The version of the document the diagnostics were last computed for (what tests wait for). */
	diagnosedVersion(uri: vscode.Uri): number | undefined {
		return this.findings.get(uri.toString())?.version;
	}

	refreshAll(): void {
		for (const document of vscode.workspace.textDocuments) this.schedule(document, 0);
	}

	/**
	 * The graph changed: targets match other clusters now (a cluster relabelled, a context connected), so documents
	 * that can hold targets are diagnosed again once changes settle.
	 */
	graphChanged(): void {
		clearTimeout(this.graphTimer);
		this.graphTimer = setTimeout(() => this.rediagnoseTargets(), 1000);
	}

	private rediagnoseTargets(): void {
		for (const document of vscode.workspace.textDocuments) {
			const key = document.uri.toString();
			if (!this.findings.has(key) || !mayHoldTargets(document.getText())) continue;
			this.findings.delete(key);
			this.schedule(document, 0);
		}
	}

	/** Targets that match no cluster or are shadowed, against the inventory chosen (or the fullest root). */
	private targetFindings(text: string, uri: vscode.Uri): Finding[] {
		if (!mayHoldTargets(text)) return [];
		return targetFindingsOf(
			text,
			uri.path,
			targetInventoriesOf(this.graph),
			readTargetInventorySetting(),
		).map((finding) => ({ ...finding, severity: findingRules[finding.code].severity }));
	}

	private schedule(document: vscode.TextDocument, delay: number): void {
		if (document.uri.scheme === 'kube-status-lens-merge') return;
		// `fleet monitor` output is JSON lines, in whatever language the editor took its file name for.
		if (document.languageId !== 'yaml' && !monitorLanguages.has(document.languageId)) return;
		const key = document.uri.toString();
		clearTimeout(this.timers.get(key));
		this.timers.set(
			key,
			setTimeout(() => {
				this.timers.delete(key);
				this.diagnose(document);
			}, delay),
		);
	}

	private secretKeys(namespace: string, name: string): readonly string[] | undefined {
		// Only the key names of a Secret in the workspace are looked at, never the values.
		const secret = this.graph.objectOf(workspaceRootId, `|Secret|${namespace}|${name}`);
		if (!isRecord(secret)) return undefined;
		return [
			...Object.keys(getRecord(secret, 'data') ?? {}),
			...Object.keys(getRecord(secret, 'stringData') ?? {}),
		];
	}

	/**
	 * Fleet's troubleshooting classes on the document's objects, within the input they belong to: the live context or
	 * archive a read-only document came from, else the workspace. Ages count from now in a live context, else from
	 * the input's newest timestamp, unless KUBE_STATUS_LENS_NOW says otherwise.
	 */
	private fleetFindings(text: string, uri: vscode.Uri): readonly Finding[] {
		if (!text.includes('fleet.cattle.io')) return [];
		const own = parseManifests(text).objects;
		const rootId = rootOfReadOnlyDocument(uri) ?? workspaceRootId;
		const now = fleetChecksClockOf(
			process.env.KUBE_STATUS_LENS_NOW,
			contextOfLiveRoot(rootId) !== undefined,
			Date.now(),
		);
		return documentFleetFindings(own, this.graph.objectsOf(rootId), now);
	}

	/** `fleet monitor` output: the latest snapshot's classes on the names of their objects, the changes beside. */
	private monitorDiagnostics(text: string): {
		findings: Finding[];
		diagnostics: vscode.Diagnostic[];
	} {
		const report = monitorDocumentReport(text);
		const diagnostics: vscode.Diagnostic[] = [];
		for (const { line, message } of report.unreadableLines) {
			const diagnostic = new vscode.Diagnostic(
				new vscode.Range(line, 0, line, 0),
				message,
				vscode.DiagnosticSeverity.Warning,
			);
			diagnostic.source = diagnosticSource;
			diagnostics.push(diagnostic);
		}
		if (report.changes) {
			const { line } = report.changes;
			const diagnostic = new vscode.Diagnostic(
				new vscode.Range(line, 0, line, 0),
				report.changes.text,
				vscode.DiagnosticSeverity.Information,
			);
			diagnostic.source = diagnosticSource;
			diagnostic.code = 'fleet-monitor-changes';
			diagnostics.push(diagnostic);
		}
		return { findings: [...report.findings], diagnostics };
	}

	private diagnose(document: vscode.TextDocument): void {
		if (document.isClosed) return;
		const key = document.uri.toString();
		const settings = readDiagnosticsSettings(document.uri);
		if (!settings.enabled) {
			this.forget(document.uri);
			return;
		}
		if (this.findings.get(key)?.version === document.version) return;
		const text = document.getText();
		const monitor = isFleetMonitorOutput(text) ? this.monitorDiagnostics(text) : undefined;
		if (!monitor && document.languageId !== 'yaml') {
			this.forget(document.uri);
			return;
		}
		const findings = monitor
			? monitor.findings
			: [
					...diagnoseManifest(text, {
						now: Date.now(),
						waitAppliedThresholdSeconds: settings.waitAppliedThresholdSeconds,
						reportSyntaxErrors: settings.reportSyntaxErrors,
						workspaceSecrets: (namespace, name) => this.secretKeys(namespace, name),
					}),
					...this.fleetFindings(text, document.uri),
					...this.targetFindings(text, document.uri),
				];
		this.findings.set(key, { version: document.version, findings });
		this.collection.set(document.uri, [
			...(monitor?.diagnostics ?? []),
			...listedFindings(findings).map(({ finding, message, alsoAt }) => {
				const diagnostic = new vscode.Diagnostic(
					vscodeRangeOf(finding.range),
					message,
					severities[finding.severity],
				);
				diagnostic.source = diagnosticSource;
				diagnostic.code = finding.code;
				if (alsoAt.length > 0) {
					diagnostic.relatedInformation = alsoAt.map(
						(range) =>
							new vscode.DiagnosticRelatedInformation(
								new vscode.Location(document.uri, vscodeRangeOf(range)),
								'The same finding here',
							),
					);
				}
				return diagnostic;
			}),
		]);
	}

	private forget(uri: vscode.Uri): void {
		const key = uri.toString();
		clearTimeout(this.timers.get(key));
		this.timers.delete(key);
		this.findings.delete(key);
		this.collection.delete(uri);
	}

	dispose(): void {
		clearTimeout(this.graphTimer);
		for (const timer of this.timers.values()) clearTimeout(timer);
		for (const disposable of this.disposables) disposable.dispose();
	}
}
