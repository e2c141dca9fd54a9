// `status --json` on a big input reads its files on two threads: the command's own and one worker
// (statusWorker.ts), which takes every other file (by bytes: each thread gets the next file while it holds fewer).
// Claiming files as each thread comes free was tried: the worker, running ahead, took them all and left the command
// waiting. The command writes every file's records in the input's order, the worker's as it wrote them, so the output
// is the same byte for byte; a file the worker leaves (anything but a List of objects that stand alone) the command
// reads itself.
// The command runs synchronously: it waits for an answer on shared counters, and stops waiting for a worker that has
// not ticked for a while (it read no further, or never started), reading the rest itself.
import { existsSync, statSync } from 'node:fs';
import {
	MessageChannel,
	receiveMessageOnPort,
	Worker,
	type MessagePort,
} from 'node:worker_threads';
import {
	signal,
	signalSlots,
	type StatusWorkerAnswer,
	type StatusWorkerData,
} from './statusWorkerProtocol.ts';

/** Where the worker's script is, and from how many bytes of input it is worth starting. */
export interface StatusWorkerSetup {
	readonly script: string;
	readonly minBytes: number;
	/** How long to wait for a worker that shows no sign of progress (default 30 s). */
	readonly silentLimitMs?: number;
}

/** Below this much input a second thread costs about what it saves (starting it is some tens of ms). */
export const statusWorkerMinBytes = 16 * 1024 * 1024;

/** How long the command waits for a worker that shows no sign of progress before it reads on alone. */
const defaultSilentLimitMs = 30_000;

export interface WorkerFile {
	readonly chunks: readonly Uint8Array[];
	readonly failing: number;
}

export class StatusWorkerReads {
	private readonly worker: Worker;
	private readonly port: MessagePort;
	private readonly signals: Int32Array;
	private readonly indexOf: ReadonlyMap<string, number>;
	private readonly answers = new Map<number, StatusWorkerAnswer>();
	private stopped = false;
	private readonly silentLimitMs: number;
	/** Files the worker read (tests look). */
	handled = 0;

	private constructor(
		setup: StatusWorkerSetup,
		files: readonly string[],
		options: Omit<StatusWorkerData, 'files' | 'signals' | 'port'>,
	) {
		this.silentLimitMs = setup.silentLimitMs ?? defaultSilentLimitMs;
		this.indexOf = new Map(files.map((file, index) => [file, index]));
		this.signals = new Int32Array(new SharedArrayBuffer(signalSlots * 4));
		const channel = new MessageChannel();
		this.port = channel.port1;
		const data: StatusWorkerData = {
			...options,
			files,
			signals: this.signals,
			port: channel.port2,
		};
		this.worker = new Worker(setup.script, { workerData: data, transferList: [channel.port2] });
		// The command's end is the process's: a worker still reading ahead does not hold it open.
		this.worker.unref();
		this.worker.on('error', () => this.stop());
	}

	/** A worker for its share of the files, or undefined when the input is under `minBytes`, has one file, or no script. */
	static start(
		setup: StatusWorkerSetup,
		files: readonly string[],
		options: Omit<StatusWorkerData, 'files' | 'signals' | 'port'>,
	): StatusWorkerReads | undefined {
		if (files.length < 2 || !existsSync(setup.script)) return undefined;
		const sizes = files.map((file) => {
			try {
				return statSync(file).size;
			} catch {
				return 0;
			}
		});
		if (sizes.reduce((sum, size) => sum + size, 0) < setup.minBytes) return undefined;
		const share: string[] = [];
		let ownBytes = 0;
		let workerBytes = 0;
		files.forEach((file, index) => {
			const size = sizes[index] ?? 0;
			if (workerBytes < ownBytes) {
				share.push(file);
				workerBytes += size;
			} else ownBytes += size;
		});
		try {
			return new StatusWorkerReads(setup, share, options);
		} catch {
			return undefined;
		}
	}

	/** The file's records as the worker wrote them, or undefined: the command reads the file itself. */
	take(file: string): WorkerFile | undefined {
		const index = this.indexOf.get(file);
		if (index === undefined || this.stopped) return undefined;
		const answer = this.waitFor(index);
		if (!answer) return undefined;
		Atomics.add(this.signals, signal.taken, 1);
		Atomics.notify(this.signals, signal.taken);
		if (!('chunks' in answer)) return undefined;
		this.handled++;
		return { chunks: answer.chunks, failing: answer.failing };
	}

	private waitFor(index: number): StatusWorkerAnswer | undefined {
		let progress = Atomics.load(this.signals, signal.progress);
		let silentSince = Date.now();
		for (;;) {
			const posted = Atomics.load(this.signals, signal.posted);
			for (let received = receiveMessageOnPort(this.port); received;) {
				const answer = received.message as StatusWorkerAnswer;
				this.answers.set(answer.index, answer);
				received = receiveMessageOnPort(this.port);
			}
			const answer = this.answers.get(index);
			if (answer) {
				// Answers for files before this one were not asked for (a file gone from the listing): let them go.
				for (const earlier of this.answers.keys()) {
					if (earlier < index) {
						this.answers.delete(earlier);
						Atomics.add(this.signals, signal.taken, 1);
					}
				}
				this.answers.delete(index);
				return answer;
			}
			if (Atomics.wait(this.signals, signal.posted, posted, 1000) !== 'timed-out') continue;
			const now = Atomics.load(this.signals, signal.progress);
			if (now !== progress) {
				progress = now;
				silentSince = Date.now();
			} else if (Date.now() - silentSince >= this.silentLimitMs) {
				this.stop();
				return undefined;
			}
		}
	}

	/** Takes no more answers: the worker stops at its next file. */
	stop(): void {
		if (this.stopped) return;
		this.stopped = true;
		Atomics.store(this.signals, signal.stop, 1);
		Atomics.notify(this.signals, signal.taken);
		this.port.close();
		void this.worker.terminate();
	}
}
