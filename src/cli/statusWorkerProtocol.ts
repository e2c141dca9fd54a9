// What `status --json` and its worker thread (statusWorker.ts) say to each other. The command runs synchronously, so
// it waits on shared counters (Atomics) and takes the worker's answers with receiveMessageOnPort, not on events.
import type { MessagePort } from 'node:worker_threads';

/** The slots of the shared counters. */
export const signal = {
	/** Answers the worker has posted. */
	posted: 0,
	/** Answers the command has taken. */
	taken: 1,
	/** Ticks while the worker reads (at its start, per file and per 1,024 objects): it is alive. */
	progress: 2,
	/** Set by the command when it wants no more answers. */
	stop: 3,
} as const;

export const signalSlots = 4;

/** How many answers the worker may hold ready before the command takes them (each is a file's records). */
export const answersAhead = 2;

export interface StatusWorkerData {
	/** The worker's share of the files, in the order the command writes them. */
	readonly files: readonly string[];
	readonly maxWindowBytes: number;
	readonly now: number;
	/** The rank of `--fail-on`'s tone, or undefined. */
	readonly threshold: number | undefined;
	readonly signals: Int32Array;
	readonly port: MessagePort;
}

/**
 * A file the worker read as a List of objects that stand alone: its records as `status --json` writes them, each
 * after `,\n`, and how many count toward --fail-on. Anything else (not such a List, unreadable, too large) is left to
 * the command, which reads it and reports what is wrong in its own words.
 */
export type StatusWorkerAnswer =
	| { readonly index: number; readonly chunks: readonly Uint8Array[]; readonly failing: number }
	| { readonly index: number; readonly leftToCommand: true };
