// `fleet dump` archives as roots of the tree, named after the file: the ones in the workspace (a `.tgz`/`.tar.gz`
// whose first entry is named like a dump's; a Helm chart archive is left alone) and those opened with "Open Fleet
// Dump…". Read by files/fleetDump.ts within the workspace settings' limits; the objects go to the graph like
// manifests (same graph, badges, roll-ups and Explain), one source per entry, without a line (an entry is not a file
// to open).
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import { eventsByObject, readDumpEntry } from '../../core/manifest/fleetDump.ts';
import type { KubeEvent } from '../../core/model/kubeEvent.ts';
import type { ChangedNodes, ResourceGraph } from '../../core/tree/model.ts';
import { readFleetDump } from '../../files/fleetDump.ts';
import type { RememberedList } from '../../files/rememberedList.ts';
import { dumpEntryScheme, ReadOnlyDocuments } from '../live/readOnlyDocuments.ts';
import type { Log } from '../log.ts';
import { readWorkspaceSettings } from '../settings.ts';
import { listWorkspaceArchives } from './workspaceManifests.ts';
import { errorText } from '../../core/text/errorText.ts';

const rootPrefix = 'fleet-dump:';
const rereadSettleMs = 300;

/** Whether a root of the graph is a fleet dump archive's. */
export function isFleetDumpRoot(rootId: string): boolean {
	return rootId.startsWith(rootPrefix);
}

function fileNameOf(uri: vscode.Uri): string {
	return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}

/** The archives' roots in the graph, and the Events each read. */
export class FleetDumpRoots implements vscode.Disposable {
	private readonly graph: ResourceGraph;
	private readonly log: Log;
	private readonly onChanged: (changed: ChangedNodes) => void;
	private readonly eventLookups = new Map<string, (object: unknown) => readonly KubeEvent[]>();
	private readonly entryDocuments = new ReadOnlyDocuments(dumpEntryScheme);
	private watcher: vscode.FileSystemWatcher | undefined;
	/** Archives being written settle before they are read: the last change within this wait is the one read. */
	private readonly pendingReads = new Map<string, ReturnType<typeof setTimeout>>();

	/** The archives opened with Open Fleet Dump…, read again at the next start until closed. */
	private readonly opened: RememberedList;

	constructor(
		graph: ResourceGraph,
		log: Log,
		onChanged: (changed: ChangedNodes) => void,
		opened: RememberedList,
	) {
		this.graph = graph;
		this.log = log;
		this.onChanged = onChanged;
		this.opened = opened;
	}

	/**
	 * Reads again the archives opened in an earlier session (those of the workspace are read by its scan); one that is
	 * gone or no longer a dump is forgotten, with a line in the log.
	 */
	async restoreOpened(): Promise<void> {
		const inWorkspace = new Set(
			this.graph
				.roots()
				.filter((root) => isFleetDumpRoot(root.rootId))
				.map((root) => root.rootId.slice(rootPrefix.length)),
		);
		for (const item of this.opened.items) {
			if (inWorkspace.has(item)) continue;
			const outcome = await this.read(vscode.Uri.parse(item), false);
			if (outcome !== 'dump') {
				this.log.info(
					`Forgot the fleet dump opened earlier at ${item}: it cannot be read as one now.`,
				);
				await this.opened.remove(item);
			}
		}
	}

	/** Closes an archive's root (its tree row's command): it is not read again at the next start. */
	async close(nodeId: string | undefined): Promise<boolean> {
		const node = nodeId === undefined ? undefined : this.graph.node(nodeId);
		if (!node || node.kind !== 'root' || !isFleetDumpRoot(node.rootId)) {
			void vscode.window.showInformationMessage(
				'Close Fleet Dump runs on the row of a fleet dump archive.',
			);
			return false;
		}
		const uri = vscode.Uri.parse(node.rootId.slice(rootPrefix.length));
		this.forget(uri);
		await this.opened.remove(uri.toString());
		return true;
	}

	/** The Events about an object of a dump root, newest first (none for other roots). */
	eventsOf(rootId: string, object: unknown): readonly KubeEvent[] {
		return this.eventLookups.get(rootId)?.(object) ?? [];
	}

	/**
	 * Reads the workspace's `.tgz` and `.tar.gz` files; those that are dumps become roots. From then on an archive that
	 * is added or rewritten is read again, and one that is deleted takes its root with it.
	 */
	async scanWorkspace(): Promise<void> {
		if (!this.watcher) {
			this.watcher = vscode.workspace.createFileSystemWatcher('**/*.{tgz,tar.gz}');
			const reread = (uri: vscode.Uri): void => {
				if (uri.scheme !== 'file') return;
				const key = uri.toString();
				clearTimeout(this.pendingReads.get(key));
				this.pendingReads.set(
					key,
					setTimeout(() => {
						this.pendingReads.delete(key);
						void this.read(uri, false);
					}, rereadSettleMs),
				);
			};
			this.watcher.onDidCreate(reread);
			this.watcher.onDidChange(reread);
			this.watcher.onDidDelete((uri) => this.forget(uri));
		}
		try {
			for (const uri of await listWorkspaceArchives()) {
				await this.read(uri, false);
			}
		} catch (error) {
			this.log.warn(`Reading fleet dump archives failed: ${errorText(error)}`);
		}
	}

	/** Takes an archive's root away (it was deleted, or it is read again). */
	forget(uri: vscode.Uri): void {
		const rootId = `${rootPrefix}${uri.toString()}`;
		this.eventLookups.delete(rootId);
		if (this.graph.roots().some((root) => root.rootId === rootId)) {
			this.onChanged(this.graph.removeRoot(rootId));
		}
	}

	/** Serves the read-only documents of archive entries. */
	registerEntryDocuments(): vscode.Disposable {
		return vscode.workspace.registerTextDocumentContentProvider(
			dumpEntryScheme,
			this.entryDocuments,
		);
	}

	/**
	 * Opens the archive entry an object of a dump root was read from, read-only, as YAML: its Problems are Fleet's
	 * checks within that archive. Returns the document's URI, or undefined when the node is not from an archive.
	 */
	async openEntry(nodeId: string | undefined): Promise<string | undefined> {
		const node = nodeId === undefined ? undefined : this.graph.node(nodeId);
		const source = node?.sources?.find(
			(entry) => entry.line === undefined && entry.sourceId.includes('#'),
		);
		const object =
			node?.objectKey === undefined ? undefined : this.graph.objectOf(node.rootId, node.objectKey);
		if (!node || !source || !object || !node.rootId.startsWith(rootPrefix)) {
			void vscode.window.showInformationMessage(
				'This item was not read from a fleet dump archive.',
			);
			return undefined;
		}
		const archive = vscode.Uri.parse(source.sourceId.slice(0, source.sourceId.indexOf('#')));
		const entry = source.sourceId.slice(source.sourceId.indexOf('#') + 1);
		return this.entryDocuments.open(
			`${fileNameOf(archive)} ${entry}.yaml`,
			stringify(object),
			'yaml',
			node.rootId,
		);
	}

	dispose(): void {
		this.entryDocuments.dispose();
		this.watcher?.dispose();
		for (const timer of this.pendingReads.values()) clearTimeout(timer);
		this.pendingReads.clear();
	}

	/**
	 * Asks for an archive and opens it as a root. `fleet monitor` output (JSON lines) opens in an editor instead, where
	 * its findings and the changes between its snapshots show in Problems.
	 */
	async openWithDialog(): Promise<void> {
		const picked = await vscode.window.showOpenDialog({
			// Where a user keeps support bundles is unknown; the workspace is where this window works.
			...(vscode.workspace.workspaceFolders?.[0]
				? { defaultUri: vscode.workspace.workspaceFolders[0].uri }
				: {}),
			canSelectMany: false,
			openLabel: 'Open Fleet Dump',
			filters: {
				'fleet dump archives': ['tgz', 'gz'],
				'fleet monitor output': ['json', 'jsonl', 'log', 'txt'],
			},
		});
		const uri = picked?.[0];
		if (!uri) return;
		if (/\.(tgz|gz)$/i.test(uri.path)) await this.read(uri, true);
		else await vscode.window.showTextDocument(uri);
	}

	/**
	 * Reads one archive into its root. Not a dump: ignored when found in the workspace, a message when opened. What was
	 * skipped is logged; a limit hit or a truncated archive shows on the root, beside the objects read before it.
	 */
	async read(uri: vscode.Uri, opened: boolean): Promise<'dump' | 'not-a-dump' | 'unreadable'> {
		const name = fileNameOf(uri);
		const settings = readWorkspaceSettings(vscode.workspace.getWorkspaceFolder(uri));
		const read = await readFleetDump(
			uri.fsPath,
			{
				maxEntries: settings.maxArchiveEntries,
				maxInflatedBytes: settings.maxArchiveBytes,
				maxEntryBytes: settings.maxFileBytes,
			},
			{
				maxEntries: 'kubeStatusLens.workspace.maxArchiveEntries',
				maxInflatedBytes: 'kubeStatusLens.workspace.maxArchiveMB',
				maxEntryBytes: 'kubeStatusLens.workspace.maxFileSizeKB',
			},
		);
		// What an earlier read of this archive put in the graph goes: entries may have left the archive since.
		this.forget(uri);
		if (read.kind !== 'dump') {
			const why = read.kind === 'unreadable' ? read.message : `not a fleet dump: ${read.why}`;
			if (opened) void vscode.window.showWarningMessage(`${name}: ${why}`);
			else this.log.info(`Skipped ${name}: ${why}.`);
			return read.kind;
		}
		if (opened) await this.opened.add(uri.toString());
		const rootId = `${rootPrefix}${uri.toString()}`;
		let changes = this.graph.addRoot(rootId, name, 'file');
		this.onChanged(changes);
		for (const note of read.notes) {
			this.log.info(`${name}: skipped ${JSON.stringify(note.entry)}: ${note.message}.`);
		}
		for (const error of read.errors) this.log.warn(`${name}: ${error}`);
		const events: KubeEvent[] = [];
		let objects = 0;
		for (const { name: entry, text } of read.entries) {
			const content = readDumpEntry(entry, text);
			for (const event of content.events) events.push(event);
			for (const problem of content.problems) {
				this.log.warn(`${name}: ${entry}:${problem.range.start.line + 1}: ${problem.message}`);
			}
			if (content.skipped !== undefined) this.log.info(`${name}: ${entry}: ${content.skipped}.`);
			if (content.objects.length === 0) continue;
			objects += content.objects.length;
			changes = this.graph.setSourceObjects(
				rootId,
				`${uri.toString()}#${entry}`,
				content.objects.map(({ object }) => ({ object, label: `${name}: ${entry}` })),
			);
			this.onChanged(changes);
		}
		this.eventLookups.set(rootId, eventsByObject(events));
		this.log.info(`Read ${name}: ${objects} object(s), ${events.length} Event(s).`);
		const [firstError] = read.errors;
		this.onChanged(
			this.graph.setRootState(
				rootId,
				firstError === undefined
					? undefined
					: {
							tone: 'error',
							message: `read in part (${read.errors.length} problem${read.errors.length === 1 ? '' : 's'})`,
							detail: read.errors.join('\n'),
						},
			),
		);
		return 'dump';
	}
}
