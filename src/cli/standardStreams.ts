// The CLI writes stdout and stderr with blocking writes to their descriptors, never through process.stdout: a stream
// queues what a slow reader has not taken yet (`status --json | less` would hold the whole output in memory), while a
// blocking write waits for the reader, so no more than the batch being written is held. A reader that has gone
// (`| head -1`) ends the command quietly instead of an EPIPE stack trace.
import { writeSync } from 'node:fs';

/** Thrown from a write to stdout once its reader has closed the pipe; `main` ends the command quietly. */
export class OutputClosed extends Error {
	constructor() {
		super('stdout was closed by its reader');
	}
}

const waitCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `bytes` to the descriptor, waiting while it is full. A descriptor left non-blocking by whoever opened
 * it answers EAGAIN when full: the write is retried after a millisecond.
 */
function writeAll(descriptor: number, bytes: Uint8Array): void {
	let offset = 0;
	while (offset < bytes.length) {
		try {
			offset += writeSync(descriptor, bytes, offset, bytes.length - offset);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
			Atomics.wait(waitCell, 0, 0, 1);
		}
	}
}

function isClosedPipe(error: unknown): boolean {
	return (error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
}

/** Writes to stdout; throws OutputClosed when its reader has gone. */
export function writeStdout(output: string | Uint8Array): void {
	try {
		writeAll(1, typeof output === 'string' ? Buffer.from(output) : output);
	} catch (error) {
		throw isClosedPipe(error) ? new OutputClosed() : error;
	}
}

/** Writes to stderr; nothing more is written there once its reader has gone. */
export function writeStderr(text: string): void {
	try {
		writeAll(2, Buffer.from(text));
	} catch (error) {
		if (!isClosedPipe(error)) throw error;
	}
}
