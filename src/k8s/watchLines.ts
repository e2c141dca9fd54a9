// The lines of a watch, one event each, split from the body's chunks with a bound on each line's bytes: a server
// that never sends a newline must not make a line that grows until the process runs out of memory.

/** Splits chunks into lines (without their newline), none longer than `maxLineBytes`. */
export class LineSplitter {
	readonly maxLineBytes: number;
	#pending: Uint8Array[] = [];
	#pendingBytes = 0;

	constructor(maxLineBytes: number) {
		this.maxLineBytes = maxLineBytes;
	}

	/** The lines `chunk` completes, in order; 'too-long' once a line goes over the limit. */
	push(chunk: Uint8Array): string[] | 'too-long' {
		const lines: string[] = [];
		let start = 0;
		for (let end = chunk.indexOf(0x0a); end >= 0; end = chunk.indexOf(0x0a, start)) {
			if (this.#pendingBytes + (end - start) > this.maxLineBytes) return 'too-long';
			const part = chunk.subarray(start, end);
			lines.push(
				this.#pending.length === 0 ? textOf(part) : textOf(Buffer.concat([...this.#pending, part])),
			);
			this.#pending = [];
			this.#pendingBytes = 0;
			start = end + 1;
		}
		const rest = chunk.length - start;
		if (this.#pendingBytes + rest > this.maxLineBytes) return 'too-long';
		if (rest > 0) {
			this.#pending.push(chunk.subarray(start));
			this.#pendingBytes += rest;
		}
		return lines;
	}
}

function textOf(bytes: Uint8Array): string {
	return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
