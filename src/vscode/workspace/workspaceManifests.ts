import * as vscode from 'vscode';
import { parseManifests } from '../../core/manifest/parse.ts';
import { workspaceReadSummary } from '../../core/text/readSummary.ts';
import { decodeFileBytes } from '../../files/decodeFile.ts';
import { excludeMatcher, globMatcher, type ExcludeEntry } from '../../files/glob.ts';
import { listFolderFiles } from '../../files/listFolder.ts';
import {
	startManifestWorker,
	type ManifestWorker,
	type WorkerObject,
	type WorkerProblem,
} from '../../files/manifestWorkerClient.ts';
import { type ParseCache, stampOf } from '../../files/parseCache.ts';
import { readRegularFile } from '../../files/regularFile.ts';
import type { ChangedNodes, ResourceGraph, SourceObject } from '../../core/tree/model.ts';
import type { Log } from '../log.ts';
import { readSearchExcludes, readWorkspaceSettings } from '../settings.ts';
import { errorText } from '../../core/text/errorText.ts';

/** The id of the tree root that holds workspace manifests. */
export const workspaceRootId = 'workspace';

const alwaysExcluded = ['**/node_modules/**', '**/.git/**'];

/**
 * What a folder's listing skips: node_modules and .git, files.exclude (with its `when` clauses, as VS Code's search
 * applies them), search.exclude (entries set to true, as before: findFiles never applied this setting itself) and the
 * extension's own excludes.
 */
function excludeEntries(folder: vscode.WorkspaceFolder, extra: readonly string[]): ExcludeEntry[] {
	return [
		...filesExcludeEntries(folder),
		...[...new Set([...alwaysExcluded, ...readSearchExcludes(folder), ...extra])].map((glob) => ({
			glob,
		})),
	];
}

/** files.exclude, with its `when` clauses. */
function filesExcludeEntries(folder: vscode.WorkspaceFolder): ExcludeEntry[] {
	const filesExclude =
		vscode.workspace.getConfiguration('files', folder).get<Record<string, unknown>>('exclude') ??
		{};
	const entries: ExcludeEntry[] = [];
	for (const [glob, value] of Object.entries(filesExclude)) {
		if (value === true) entries.push({ glob });
		const when = (value as { when?: unknown } | null)?.when;
		if (typeof when === 'string') entries.push({ glob, when });
	}
	return entries;
}

const archiveGlob = '**/*.{tgz,tar.gz}';

/**
 * The fleet dump archives (`*.tgz`, `*.tar.gz`) of the workspace's local folders, skipping node_modules, .git and
 * files.exclude as findFiles did: listed with Node as the manifests are, not through the search service (a round
 * trip that held back the whole first tree).
 */
export async function listWorkspaceArchives(): Promise<vscode.Uri[]> {
	const listings = (vscode.workspace.workspaceFolders ?? [])
		.filter((folder) => folder.uri.scheme === 'file')
		.map((folder) =>
			listFolderFiles(
				folder.uri.fsPath,
				globMatcher([archiveGlob]),
				excludeMatcher([
					...filesExcludeEntries(folder),
					...alwaysExcluded.map((glob) => ({ glob })),
				]),
			),
		);
	const uris: vscode.Uri[] = [];
	for (const listing of await Promise.all(listings)) {
		for (const path of listing.files) uris.push(vscode.Uri.file(path));
	}
	return uris;
}

/** The objects read from one file, as the graph takes them. */
interface FileObjects {
	readonly sourceId: string;
	readonly objects: readonly SourceObject[];
}

/**
 * How long parsed files wait to go into the graph together during a full read: 50 ms after the first file, then twice
 * as long each time up to 800 ms. Every batch refreshes the tree and everything that follows the graph, so a big
 * workspace fills in a handful of steps instead of one per 50 ms (which cost a fifth of the CPU of 10,000 objects).
 */
const firstBatchMs = 50;
const lastBatchMs = 800;

/** From how many files a full read parses in a worker thread (below, starting one costs more than it saves). */
const workerFromFiles = 30;
const manifestPath = /\.(ya?ml|json)$/i;

/** A file's objects and the parser's problems (zero-based lines), or why it gave none. */
type ParsedFile =
	| { readonly skipped: string }
	| { readonly failed: string }
	| { readonly objects: readonly WorkerObject[]; readonly problems: readonly WorkerProblem[] };

/** A file's bytes, or why it was not read. */
type FileRead = { readonly bytes: Uint8Array } | { readonly skipped: string };

function overLimit(size: number): { readonly skipped: string } {
	return {
		skipped: `${Math.round(size / 1024)} KiB is over kubeStatusLens.workspace.maxFileSizeKB`,
	};
}

async function readLocalFile(path: string, maxBytes: number): Promise<FileRead> {
	const read = await readRegularFile(path, maxBytes);
	if ('notRegular' in read) return { skipped: `${read.notRegular}, not a regular file` };
	if ('tooLarge' in read) return overLimit(read.tooLarge);
	return read;
}

// The extension runs where the files are (extensionKind workspace), so file: URIs are read with Node directly:
// workspace.fs would route every read through the workbench, which under code-server is a browser round trip.
// Other schemes have no partial read: their size and type are checked first.
async function readManifestFile(uri: vscode.Uri, maxBytes: number): Promise<FileRead> {
	if (uri.scheme === 'file') return readLocalFile(uri.fsPath, maxBytes);
	const info = await vscode.workspace.fs.stat(uri);
	if ((info.type & vscode.FileType.File) === 0) return { skipped: 'not a regular file' };
	if (info.size > maxBytes) return overLimit(info.size);
	const bytes = await vscode.workspace.fs.readFile(uri);
	return bytes.length > maxBytes ? overLimit(bytes.length) : { bytes };
}

/**
 * This thread's CPU time in ms, where Node can tell (process.threadCpuUsage, Node 23.9 and later): a wall time on a
 * busy machine also counts the time other processes held the cores.
 */
function threadCpuMs(): number | undefined {
	const usage = (
		process as { threadCpuUsage?: () => { user: number; system: number } }
	).threadCpuUsage?.();
	return usage ? (usage.user + usage.system) / 1000 : undefined;
}

/** Reads the workspace's manifests into the graph, and keeps them current as files change. */
export class WorkspaceManifests implements vscode.Disposable {
	private readonly disposables: vscode.Disposable[] = [];
	private readonly known = new Set<string>();
	private listed = new Set<string>();
	/** The first full read has ended (the root counts its objects from then on). */
	private readOnce = false;
	/** When the last read (a scan, or a changed file) ended; undefined before the first. */
	lastReadEndedAt: number | undefined;
	private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
	private rescanTimer: ReturnType<typeof setTimeout> | undefined;
	private started: Promise<void> | undefined;
	/**
	 * Where the last scan spent its time, in ms (logged, and read by the benchmark): `io` is the wait for a file's
	 * objects (read, and parsed when a worker thread parsed it), `parse` what this thread parsed itself.
	 */
	readonly timings = {
		list: 0,
		io: 0,
		parse: 0,
		graph: 0,
		readPhase: 0,
		/** The CPU time of this thread in `graph` (0 where Node cannot tell: before 23.9). */
		graphCpu: 0,
		/** How many updates the graph took. */
		batches: 0,
	};
	/** How many files worker threads have parsed since the start (the last scan's count is in its log line). */
	parsedInWorker = 0;
	/** The scan running now, and the one asked for meanwhile (it runs once after, reading all if any ask did). */
	private scanning: Promise<void> | undefined;
	/** How many scans have ended (tests wait on it). */
	scansEnded = 0;
	private queuedScan: { readAll: boolean; done: Promise<void> } | undefined;
	/** Objects summed over the files of the running scan (an object in two files counts twice). */
	private objectsRead = 0;

	private readonly graph: ResourceGraph;
	private readonly log: Log;
	private readonly onChanged: (changed: ChangedNodes) => void;

	/** What files parsed to at the last start (the first scan takes what is unchanged from it), when there is storage. */
	private readonly parseCache: ParseCache | undefined;
	/** The parse cache written after the first scan: true when written, false when there was nothing new or no cache. */
	parseCacheSaved: Promise<boolean> = Promise.resolve(false);
	/** How many files the first scan took from the parse cache. */
	filesFromParseCache = 0;

	constructor(
		graph: ResourceGraph,
		log: Log,
		onChanged: (changed: ChangedNodes) => void,
		parseCache?: ParseCache,
	) {
		this.graph = graph;
		this.log = log;
		this.onChanged = onChanged;
		this.parseCache = parseCache;
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
		const folderWatcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
		this.disposables.push(
			watcher,
			watcher.onDidChange((uri) => this.schedule(uri)),
			watcher.onDidCreate(() => this.scheduleRescan()),
			watcher.onDidDelete((uri) => this.forget(uri)),
			// A folder moved in or out (a checkout, an unpacked archive, `mv`) is reported as the folder alone, not
			// its files: a listing finds what it brought or took (only new files are read).
			folderWatcher,
			folderWatcher.onDidCreate((uri) => {
				if (!manifestPath.test(uri.path)) this.scheduleRescan();
			}),
			folderWatcher.onDidDelete((uri) => {
				if (!manifestPath.test(uri.path)) this.scheduleRescan();
			}),
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
		// Every folder and include at once. A local folder is listed with Node (the extension runs where the files
		// are); findFiles, for other schemes, is a round trip through the search service per call.
		const searches = (vscode.workspace.workspaceFolders ?? []).flatMap(
			(folder): Thenable<readonly vscode.Uri[]>[] => {
				const settings = readWorkspaceSettings(folder);
				const excludes = excludeEntries(folder, settings.exclude);
				if (folder.uri.scheme === 'file') {
					return [this.listLocalFolder(folder, settings.include, excludes)];
				}
				// findFiles applies files.exclude, `when` clauses included, besides the exclude it is given.
				const plain = excludes
					.filter((entry) => entry.when === undefined)
					.map((entry) => entry.glob);
				const exclude = new vscode.RelativePattern(folder, `{${[...new Set(plain)].join(',')}}`);
				return settings.include.map((include) =>
					vscode.workspace.findFiles(new vscode.RelativePattern(folder, include), exclude),
				);
			},
		);
		const uris = new Map<string, vscode.Uri>();
		for (const found of await Promise.all(searches)) {
			for (const uri of found) uris.set(uri.toString(), uri);
		}
		return [...uris.values()].sort((a, b) => a.toString().localeCompare(b.toString()));
	}

	private async listLocalFolder(
		folder: vscode.WorkspaceFolder,
		includes: readonly string[],
		excludes: readonly ExcludeEntry[],
	): Promise<vscode.Uri[]> {
		const listing = await listFolderFiles(
			folder.uri.fsPath,
			globMatcher(includes),
			excludeMatcher(excludes),
		);
		for (const { path, message } of listing.unlisted) {
			this.log.warn(`Could not list ${path}: ${message}`);
		}
		return listing.files.map((path) => vscode.Uri.file(path));
	}

	/**
	 * One scan at a time: two at once would each read the files the other has not put into the graph yet. Asks that
	 * come while one runs are folded into a single scan after it.
	 */
	private scan(readAll: boolean): Promise<void> {
		if (!this.scanning) {
			this.scanning = this.scanNow(readAll).finally(() => {
				this.scanning = undefined;
				this.scansEnded++;
			});
			return this.scanning;
		}
		if (this.queuedScan) {
			this.queuedScan.readAll ||= readAll;
			return this.queuedScan.done;
		}
		const queued = { readAll, done: Promise.resolve() };
		queued.done = this.scanning
			.catch(() => undefined)
			.then(() => {
				this.queuedScan = undefined;
				return this.scan(queued.readAll);
			});
		this.queuedScan = queued;
		return queued.done;
	}

	/** A scan runs, or one is due. */
	get scanPending(): boolean {
		return this.scanning !== undefined || this.rescanTimer !== undefined;
	}

	private async scanNow(readAll: boolean): Promise<void> {
		// Until the first read ends the root holds part of the workspace: it says so instead of counting.
		const first = !this.readOnce;
		if (first) {
			this.onChanged(
				this.graph.setRootState(workspaceRootId, {
					tone: 'progressing',
					message: 'reading…',
					partial: true,
				}),
			);
		}
		try {
			await this.scanFiles(readAll, first);
		} finally {
			this.lastReadEndedAt = Date.now();
			if (first) {
				this.readOnce = true;
				this.onChanged(this.graph.setRootState(workspaceRootId, undefined));
				this.filesFromParseCache = this.parseCache?.hits ?? 0;
				const cache = this.parseCache;
				// A moment after the tree shows, not while it is being drawn.
				if (cache) {
					this.parseCacheSaved = new Promise((resolve) =>
						setTimeout(() => resolve(cache.save()), 500),
					);
				}
			}
		}
	}

	private async scanFiles(readAll: boolean, first: boolean): Promise<void> {
		await vscode.window.withProgress({ location: { viewId: 'kubeStatusLens.resources' } }, () =>
			vscode.window.withProgress(
				{ location: vscode.ProgressLocation.Window, title: 'Kube Status Lens: reading manifests' },
				async (progress) => {
					const started = Date.now();
					let mark = Date.now();
					const uris = await this.listFiles();
					this.timings.list = Date.now() - mark;
					this.timings.io = this.timings.parse = this.timings.graph = 0;
					this.timings.graphCpu = this.timings.batches = 0;
					// Only the first scan takes parses from the last start; the refresh command reads everything again.
					const useCache = first && this.parseCache !== undefined;
					if (useCache) await this.parseCache?.load();
					const parsedInWorkerBefore = this.parsedInWorker;
					this.objectsRead = 0;
					mark = Date.now();
					const current = new Set(uris.map((uri) => uri.toString()));
					this.listed = current;
					for (const key of [...this.known]) {
						if (!current.has(key)) this.forget(vscode.Uri.parse(key));
					}
					const toRead = readAll ? uris : uris.filter((uri) => !this.known.has(uri.toString()));
					// Several reads in flight: each is a round trip to the file system (remote under code-server).
					let done = 0;
					let next = 0;
					let reportedAt = 0;
					// How far the read is, at most every 250 ms: in the window's progress and, on the first read, on the
					// root itself, which already shows what has been read.
					const reportProgress = (): void => {
						if (done < toRead.length && Date.now() - reportedAt < 250) return;
						reportedAt = Date.now();
						const message = `${done}/${toRead.length} files`;
						progress.report({ message });
						if (first && done < toRead.length) {
							this.onChanged(
								this.graph.setRootState(workspaceRootId, {
									tone: 'progressing',
									message: `reading… ${message}`,
									partial: true,
								}),
							);
						}
					};
					// The size limit read once per folder, not per file.
					const limits = new Map<string, number>();
					const limitOf = (uri: vscode.Uri): number => {
						const folder = vscode.workspace.getWorkspaceFolder(uri);
						const key = folder?.uri.toString() ?? '';
						let limit = limits.get(key);
						if (limit === undefined) {
							limit = readWorkspaceSettings(folder).maxFileBytes;
							limits.set(key, limit);
						}
						return limit;
					};
					// What has been parsed goes into the graph together, one update (and one refresh of everything that
					// follows the graph) per batch: the first file at once, so the roots and first groups show early, then
					// whatever was parsed in the last 50 ms.
					let batch: FileObjects[] = [];
					let appliedAt = 0;
					let batchMs = firstBatchMs;
					const apply = (): void => {
						if (batch.length === 0) return;
						const applying = batch;
						batch = [];
						if (appliedAt !== 0) batchMs = Math.min(batchMs * 2, lastBatchMs);
						appliedAt = Date.now();
						this.apply(applying);
					};
					const parser =
						toRead.length >= workerFromFiles && typeof __dirname === 'string'
							? startManifestWorker(__dirname)
							: undefined;
					const worker = async (): Promise<void> => {
						while (next < toRead.length) {
							const index = next++;
							const uri = toRead[index];
							if (!uri) break;
							// The first file is parsed here while the worker loads: it puts the roots and first groups up.
							const loaded = await this.load(
								uri,
								limitOf(uri),
								index === 0 ? undefined : parser,
								useCache,
							);
							if (loaded) batch.push(loaded);
							done++;
							if (appliedAt === 0 || Date.now() - appliedAt >= batchMs) apply();
							reportProgress();
						}
					};
					try {
						await Promise.all(Array.from({ length: Math.min(8, toRead.length) }, worker));
					} finally {
						parser?.dispose();
					}
					apply();
					// The reads' own times overlap each other and the others' parsing: this is the phase's wall time.
					this.timings.readPhase = Date.now() - mark;
					this.log.info(
						`${workspaceReadSummary({
							files: uris.length,
							objectsInFiles: this.objectsRead,
							distinctObjects: this.graph.objectCount(workspaceRootId),
							elapsedMs: Date.now() - started,
						})} (Listing ${this.timings.list} ms, reading ${this.timings.io} ms, parsing ${this.timings.parse} ms, graph ${this.timings.graph} ms; ${this.parsedInWorker - parsedInWorkerBefore} file(s) parsed in a worker thread${useCache ? `, ${this.parseCache?.hits ?? 0} unchanged since the last start` : ''}.)`,
					);
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
		this.rescanTimer = setTimeout(() => {
			this.rescanTimer = undefined;
			void this.scan(false);
		}, 300);
	}

	private forget(uri: vscode.Uri): void {
		const key = uri.toString();
		if (uri.scheme === 'file') this.parseCache?.forget(uri.fsPath);
		if (!this.known.delete(key)) return;
		this.onChanged(this.graph.removeSource(workspaceRootId, key));
	}

	/** Reads one file into the graph; what it cannot read is logged, never thrown. */
	async read(
		uri: vscode.Uri,
		maxFileBytes = readWorkspaceSettings(vscode.workspace.getWorkspaceFolder(uri)).maxFileBytes,
	): Promise<void> {
		const loaded = await this.load(uri, maxFileBytes);
		if (loaded) this.apply([loaded]);
		this.lastReadEndedAt = Date.now();
	}

	/**
	 * Reads and parses one file; undefined when it holds no object (what it cannot read is logged, never thrown, and
	 * what the file gave before is dropped).
	 */
	private async load(
		uri: vscode.Uri,
		maxFileBytes: number,
		worker?: ManifestWorker,
		useCache = false,
	): Promise<FileObjects | undefined> {
		const key = uri.toString();
		const label = vscode.workspace.asRelativePath(
			uri,
			(vscode.workspace.workspaceFolders?.length ?? 0) > 1,
		);
		const read = await this.readCachedOrParse(uri, maxFileBytes, worker, useCache);
		if ('skipped' in read) {
			this.log.warn(`Skipped ${label}: ${read.skipped}.`);
			this.drop(key);
			return undefined;
		}
		if ('failed' in read) {
			this.log.warn(`Could not read ${label}: ${read.failed}`);
			this.drop(key);
			return undefined;
		}
		for (const problem of read.problems) {
			this.log.warn(
				`${label}:${problem.line + 1}: ${problem.message} (the rest of the file is still read)`,
			);
		}
		if (read.objects.length === 0) {
			if (read.problems.length === 0) this.log.info(`Skipped ${label}: no Kubernetes objects.`);
			this.drop(key);
			return undefined;
		}
		this.log.info(`Read ${label}: ${read.objects.length} object(s).`);
		this.objectsRead += read.objects.length;
		return {
			sourceId: key,
			objects: read.objects.map((entry) => ({ object: entry.object, line: entry.line, label })),
		};
	}

	/**
	 * A local file's objects from the parse cache when its stat is the one cached, else read and parsed (and kept for
	 * the next start, stamped with the stat taken before the read: a file changed meanwhile is parsed again then).
	 */
	private async readCachedOrParse(
		uri: vscode.Uri,
		maxFileBytes: number,
		worker: ManifestWorker | undefined,
		useCache: boolean,
	): Promise<ParsedFile> {
		// Only the first scan's reads: the cache is written once, after it, so later reads would keep objects for nothing.
		const cache = useCache && uri.scheme === 'file' ? this.parseCache : undefined;
		if (!cache) return this.readAndParse(uri, maxFileBytes, worker);
		const stamp = await stampOf(uri.fsPath);
		if (stamp && stamp.size <= maxFileBytes) {
			const cached = cache.lookup(uri.fsPath, stamp);
			if (cached) return cached;
		}
		const read = await this.readAndParse(uri, maxFileBytes, worker);
		if (stamp && 'objects' in read) cache.remember(uri.fsPath, stamp, read);
		else cache.forget(uri.fsPath);
		return read;
	}

	/** A file's objects, through the worker when there is one and the file is local, else on this thread. */
	private async readAndParse(
		uri: vscode.Uri,
		maxFileBytes: number,
		worker: ManifestWorker | undefined,
	): Promise<ParsedFile> {
		let mark = Date.now();
		if (worker && uri.scheme === 'file') {
			const read = await worker.read(uri.fsPath, maxFileBytes, uri.path);
			// No answer: the worker failed, and this thread reads the file itself.
			if (read) {
				this.timings.io += Date.now() - mark;
				if ('objects' in read) this.parsedInWorker++;
				if ('notRegular' in read) return { skipped: `${read.notRegular}, not a regular file` };
				if ('tooLarge' in read) return overLimit(read.tooLarge);
				if ('decodeError' in read) return { skipped: read.decodeError };
				if ('text' in read) return this.parse(read.text, uri);
				return read;
			}
			mark = Date.now();
		}
		let text: string;
		try {
			const read = await readManifestFile(uri, maxFileBytes);
			const decoded = 'bytes' in read ? decodeFileBytes(read.bytes) : { error: read.skipped };
			if ('error' in decoded) return { skipped: decoded.error };
			text = decoded.text;
		} catch (error) {
			return { failed: errorText(error) };
		}
		this.timings.io += Date.now() - mark;
		return this.parse(text, uri);
	}

	private parse(text: string, uri: vscode.Uri): ParsedFile {
		const mark = Date.now();
		const parsed = parseManifests(text, { fileName: uri.path });
		this.timings.parse += Date.now() - mark;
		return {
			objects: parsed.objects.map((entry) => ({
				object: entry.object,
				line: entry.range.start.line,
			})),
			problems: parsed.problems.map((problem) => ({
				line: problem.range.start.line,
				message: problem.message,
			})),
		};
	}

	/** Puts read files into the graph, in one update. */
	private apply(files: readonly FileObjects[]): void {
		for (const file of files) this.known.add(file.sourceId);
		const mark = Date.now();
		const cpuMark = threadCpuMs();
		const changes = this.graph.setSourcesObjects(workspaceRootId, files);
		this.timings.graph += Date.now() - mark;
		this.timings.graphCpu += (threadCpuMs() ?? 0) - (cpuMark ?? 0);
		this.timings.batches++;
		this.onChanged(changes);
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
