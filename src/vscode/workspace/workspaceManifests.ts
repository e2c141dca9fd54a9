import * as vscode from 'vscode';
import { parseManifests } from '../../core/manifest/parse.ts';
import type { ChangedNodes, ResourceGraph } from '../../core/tree/model.ts';
import type { Log } from '../log.ts';
import { readSearchExcludes, readWorkspaceSettings } from '../settings.ts';

/** The id of the tree root that holds workspace manifests. */
export const workspaceRootId = 'workspace';

const alwaysExcluded = ['**/node_modules/**', '**/.git/**'];

function excludeGlob(folder: vscode.WorkspaceFolder, extra: readonly string[]): string {
	// An explicit exclude turns off findFiles' own files.exclude handling, so files.exclude is added here.
	const filesExclude =
		vscode.workspace.getConfiguration('files', folder).get<Record<string, unknown>>('exclude') ??
		{};
	const globs = [
		...alwaysExcluded,
		...Object.entries(filesExclude)
			.filter(([, on]) => on === true)
			.map(([glob]) => glob),
		...readSearchExcludes(folder),
		...extra,
	];
	return `{${[...new Set(globs)].join(',')}}`;
}

/** Reads the workspace's manifests into the graph, and keeps them current as files change. */
export class WorkspaceManifests implements vscode.Disposable {
	private readonly disposables: vscode.Disposable[] = [];
	private readonly known = new Set<string>();
	private listed = new Set<string>();
	private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
	private rescanTimer: ReturnType<typeof setTimeout> | undefined;
	private started: Promise<void> | undefined;

	private readonly graph: ResourceGraph;
	private readonly log: Log;
	private readonly onChanged: (changed: ChangedNodes) => void;

	constructor(graph: ResourceGraph, log: Log, onChanged: (changed: ChangedNodes) => void) {
		this.graph = graph;
		this.log = log;
		this.onChanged = onChanged;
	}

	/** Reads everything once (idempotent) and starts watching. */
	start(): Promise<void> {
		this.started ??= this.initialScan();
		return this.started;
	}

	/** Reads everything again (the refresh command, or a settings change). */
	async rescan(): Promise<void> {
		await this.start();
		await this.scan(true);
	}

	private async initialScan(): Promise<void> {
		const watcher = vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml,json}');
		this.disposables.push(
			watcher,
			watcher.onDidChange((uri) => this.schedule(uri)),
			watcher.onDidCreate(() => this.scheduleRescan()),
			watcher.onDidDelete((uri) => this.forget(uri)),
			vscode.workspace.onDidChangeWorkspaceFolders(() => this.scheduleRescan()),
			vscode.workspace.onDidChangeConfiguration((event) => {
				if (
					event.affectsConfiguration('kubeStatusLens.workspace') ||
					event.affectsConfiguration('files.exclude') ||
					event.affectsConfiguration('search.exclude')
				) {
					this.scheduleRescan();
				}
			}),
		);
		await this.scan(false);
	}

	private async listFiles(): Promise<vscode.Uri[]> {
		const uris = new Map<string, vscode.Uri>();
		for (const folder of vscode.workspace.workspaceFolders ?? []) {
			const settings = readWorkspaceSettings(folder);
			const exclude = excludeGlob(folder, settings.exclude);
			for (const include of settings.include) {
				for (const uri of await vscode.workspace.findFiles(
					new vscode.RelativePattern(folder, include),
					new vscode.RelativePattern(folder, exclude),
				)) {
					uris.set(uri.toString(), uri);
				}
			}
		}
		return [...uris.values()].sort((a, b) => a.toString().localeCompare(b.toString()));
	}

	private async scan(readAll: boolean): Promise<void> {
		await vscode.window.withProgress({ location: { viewId: 'kubeStatusLens.resources' } }, () =>
			vscode.window.withProgress(
				{ location: vscode.ProgressLocation.Window, title: 'Kube Status Lens: reading manifests' },
				async (progress) => {
					const started = Date.now();
					const uris = await this.listFiles();
					const current = new Set(uris.map((uri) => uri.toString()));
					this.listed = current;
					for (const key of [...this.known]) {
						if (!current.has(key)) this.forget(vscode.Uri.parse(key));
					}
					let index = 0;
					for (const uri of uris) {
						index++;
						if (!readAll && this.known.has(uri.toString())) continue;
						if (index % 50 === 0) progress.report({ message: `${index}/${uris.length} files` });
						await this.read(uri);
					}
					this.log.info(`Read ${uris.length} workspace files in ${Date.now() - started} ms.`);
				},
			),
		);
	}

	private schedule(uri: vscode.Uri): void {
		const key = uri.toString();
		if (!this.listed.has(key)) return;
		clearTimeout(this.pending.get(key));
		this.pending.set(
			key,
			setTimeout(() => {
				this.pending.delete(key);
				void this.read(uri);
			}, 150),
		);
	}

	private scheduleRescan(): void {
		clearTimeout(this.rescanTimer);
		this.rescanTimer = setTimeout(() => void this.scan(false), 300);
	}

	private forget(uri: vscode.Uri): void {
		const key = uri.toString();
		if (!this.known.delete(key)) return;
		this.onChanged(this.graph.removeSource(workspaceRootId, key));
	}

	/** Reads one file into the graph; what it cannot read is logged, never thrown. */
	async read(uri: vscode.Uri): Promise<void> {
		const key = uri.toString();
		const label = vscode.workspace.asRelativePath(
			uri,
			(vscode.workspace.workspaceFolders?.length ?? 0) > 1,
		);
		const { maxFileBytes } = readWorkspaceSettings(vscode.workspace.getWorkspaceFolder(uri));
		let text: string;
		try {
			const stat = await vscode.workspace.fs.stat(uri);
			if (stat.size > maxFileBytes) {
				this.log.warn(
					`Skipped ${label}: ${Math.round(stat.size / 1024)} KiB is over kubeStatusLens.workspace.maxFileSizeKiB.`,
				);
				this.drop(key);
				return;
			}
			text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
		} catch (error) {
			this.log.warn(
				`Could not read ${label}: ${error instanceof Error ? error.message : String(error)}`,
			);
			this.drop(key);
			return;
		}
		const parsed = parseManifests(text, { fileName: uri.path });
		for (const problem of parsed.problems) {
			this.log.warn(
				`${label}:${problem.range.start.line + 1}: ${problem.message} (the rest of the file is still read)`,
			);
		}
		if (parsed.objects.length === 0) {
			if (parsed.problems.length === 0) this.log.info(`Skipped ${label}: no Kubernetes objects.`);
			this.drop(key);
			return;
		}
		this.known.add(key);
		this.log.info(`Read ${label}: ${parsed.objects.length} object(s).`);
		this.onChanged(
			this.graph.setSourceObjects(
				workspaceRootId,
				key,
				parsed.objects.map((entry) => ({
					object: entry.object,
					line: entry.range.start.line,
					label,
				})),
			),
		);
	}

	private drop(key: string): void {
		if (this.known.delete(key)) this.onChanged(this.graph.removeSource(workspaceRootId, key));
	}

	dispose(): void {
		for (const timer of this.pending.values()) clearTimeout(timer);
		clearTimeout(this.rescanTimer);
		for (const disposable of this.disposables) disposable.dispose();
	}
}
