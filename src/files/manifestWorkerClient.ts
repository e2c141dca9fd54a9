// The extension's side of the worker thread that reads and parses workspace manifests during a full read
// (manifestWorker.ts): parsing is most of a first read, and on the extension host's own thread it delays the tree and
// every other extension. The objects come back by structured clone, which costs the host a fraction of parsing them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** One file to read: at most `maxBytes`; `fileName` tells the parser JSON from YAML. */
export interface ManifestRequest {
	readonly id: number;
	readonly path: string;
	readonly maxBytes: number;
	readonly fileName: string;
}

/** One object of a file, with the zero-based line it starts at. */
export interface WorkerObject {
	readonly object: Record<string, unknown>;
	readonly line: number;
}

/** A problem the parser found, at a zero-based line. */
export interface WorkerProblem {
	readonly line: number;
	readonly message: string;
}

/**
 * What a read gave: why the file was not read (as readRegularFile and decodeFileBytes say it, or the error the read
 * threw), its objects and problems, or its text when the parser noted integers beyond 2^53, whose exact values are
 * kept beside the parsed objects and do not cross threads: that text is parsed again on the caller's thread.
 */
export type ManifestFileRead =
	| { readonly notRegular: string }
	| { readonly tooLarge: number }
	| { readonly decodeError: string }
	| { readonly failed: string }
	| { readonly text: string }
	| { readonly objects: readonly WorkerObject[]; readonly problems: readonly WorkerProblem[] };

export type ManifestReply = { readonly id: number } & ManifestFileRead;

/** A worker thread for one full read; `read` answers undefined once the worker failed (parse on the caller's thread). */
export class ManifestWorker {
	private readonly worker: Worker;
	private readonly waiting = new Map<number, (read: ManifestFileRead | undefined) => void>();
	private nextId = 0;
	private failed = false;

	/** Starts the worker from its bundled script (dist/manifestWorker.cjs) or its source. */
	constructor(script: string) {
		this.worker = new Worker(script);
		this.worker.on('message', ({ id, ...read }: ManifestReply) => {
			const resolve = this.waiting.get(id);
			this.waiting.delete(id);
			resolve?.(read);
		});
		this.worker.on('error', () => this.fail());
		this.worker.on('exit', () => this.fail());
	}

	read(path: string, maxBytes: number, fileName: string): Promise<ManifestFileRead | undefined> {
		if (this.failed) return Promise.resolve(undefined);
		const id = this.nextId++;
		return new Promise((resolve) => {
			this.waiting.set(id, resolve);
			const request: ManifestRequest = { id, path, maxBytes, fileName };
			this.worker.postMessage(request);
		});
	}

	private fail(): void {
		this.failed = true;
		for (const resolve of this.waiting.values()) resolve(undefined);
		this.waiting.clear();
	}

	/** Stops the worker; reads still waiting answer undefined. */
	dispose(): void {
		this.fail();
		void this.worker.terminate();
	}
}

/**
 * A worker from the bundle beside the engine (`folder` is dist/), or undefined when there is none (the extension run
 * from its sources) or it cannot start: the caller then parses on its own thread.
 */
export function startManifestWorker(folder: string): ManifestWorker | undefined {
	const script = join(folder, 'manifestWorker.cjs');
	if (!existsSync(script)) return undefined;
	try {
		return new ManifestWorker(script);
	} catch {
		return undefined;
	}
}
