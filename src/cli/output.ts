// Output in pieces: the text of a million records is longer than the longest string V8 can make (about 512 MiB), so
// no output is built as one string.

const batchLength = 1024 * 1024;

/** Writes the lines, each followed by a line break, through `write` about a MiB at a time. */
export function writeLines(lines: Iterable<string>, write: (text: string) => void): void {
	let batch: string[] = [];
	let length = 0;
	for (const line of lines) {
		batch.push(line);
		length += line.length + 1;
		if (length >= batchLength) {
			write(`${batch.join('\n')}\n`);
			batch = [];
			length = 0;
		}
	}
	if (batch.length > 0) write(`${batch.join('\n')}\n`);
}

/**
 * The lines of `JSON.stringify([...values], null, 2)`, one value at a time (values may be made as they are written).
 * `stringify` may write a value faster: it must give what `JSON.stringify(value, null, 2)` becomes inside the array
 * (every line indented by two more), or undefined to leave the value to JSON.stringify.
 */
export function* jsonArrayLines<T>(
	values: Iterable<T>,
	stringify: (value: T) => string | undefined = () => undefined,
): Generator<string> {
	let previous: string | undefined;
	for (const value of values) {
		// JSON escapes line breaks inside strings, so every line break here starts a line of the layout.
		const text = stringify(value) ?? `  ${JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')}`;
		yield previous === undefined ? '[' : `${previous},`;
		previous = text;
	}
	if (previous === undefined) {
		yield '[]';
		return;
	}
	yield previous;
	yield ']';
}

/** How many distinct short strings ByteBatches keeps encoded. */
const cachedStringsLimit = 10_000;
const cachedStringLength = 256;

/**
 * Output written as UTF-8 bytes into batches of about a MiB, each handed to `write` whole and holding whole
 * characters only. `write` must be done with the bytes when it returns: the batch is written over next (a fresh buffer
 * per batch cost more than the rest of the writing on a big dump). Writing bytes as they are made avoids building
 * strings of strings that are flattened and then encoded again; text that recurs (kinds, states, messages) is encoded
 * once. What is written between `begin` and `commit` is held until the commit (the batch grows), and `rollback`
 * takes it back.
 */
export class ByteBatches {
	private readonly write: (bytes: Uint8Array) => void;
	private buffer = Buffer.allocUnsafe(batchLength);
	private length = 0;
	private readonly encodedFields = new Map<Uint8Array, Map<string, Buffer>>();
	private encodedCount = 0;
	/** Where the bytes held until a commit start in the batch; -1 outside begin/commit. */
	private heldFrom = -1;

	constructor(write: (bytes: Uint8Array) => void) {
		this.write = write;
	}

	/** Bytes as they are (an encoded constant). */
	bytes(bytes: Uint8Array): void {
		const length = bytes.length;
		this.reserve(length);
		const buffer = this.buffer;
		const at = this.length;
		// A short copy is faster by hand than through TypedArray.prototype.set.
		if (length <= 64) {
			for (let index = 0; index < length; index++) buffer[at + index] = bytes[index] as number;
		} else buffer.set(bytes, at);
		this.length = at + length;
	}

	/** Text as UTF-8. */
	text(text: string): void {
		this.reserve(text.length * 3);
		this.length += this.buffer.write(text, this.length);
	}

	/** `label` then `JSON.stringify(text)`, for a string that is likely to recur after the same label. */
	recurringField(label: Uint8Array, text: string): void {
		let encodings = this.encodedFields.get(label);
		if (!encodings) {
			encodings = new Map();
			this.encodedFields.set(label, encodings);
		}
		const encoded = encodings.get(text);
		if (encoded) {
			this.bytes(encoded);
			return;
		}
		const json = JSON.stringify(text);
		if (text.length <= cachedStringLength && this.encodedCount < cachedStringsLimit) {
			const bytes = Buffer.concat([label, Buffer.from(json)]);
			encodings.set(text, bytes);
			this.encodedCount++;
			this.bytes(bytes);
		} else {
			this.bytes(label);
			this.text(json);
		}
	}

	/** Hands over what is written so far (what is held for a commit stays). */
	flush(): void {
		const end = this.heldFrom < 0 ? this.length : this.heldFrom;
		if (end === 0) return;
		this.write(this.buffer.subarray(0, end));
		if (end < this.length) this.buffer.copyWithin(0, end, this.length);
		this.length -= end;
		if (this.heldFrom > 0) this.heldFrom = 0;
	}

	/** Holds what is written from here on until `commit` or `rollback`. */
	begin(): void {
		this.heldFrom = this.length;
	}

	/** Lets go of what was held since `begin`: it is handed over with the rest. */
	commit(): void {
		this.heldFrom = -1;
		if (this.length >= batchLength) this.flush();
	}

	/** Takes back what was written since `begin`. */
	rollback(): void {
		if (this.heldFrom >= 0) this.length = this.heldFrom;
		this.heldFrom = -1;
	}

	private reserve(bytes: number): void {
		if (this.length + bytes <= this.buffer.length) return;
		this.flush();
		if (this.length + bytes > this.buffer.length) {
			const larger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
			this.buffer.copy(larger, 0, 0, this.length);
			this.buffer = larger;
		}
	}
}

const arrayOpen = Buffer.from('[\n');
const arraySeparator = Buffer.from(',\n');
const arrayClose = Buffer.from('\n]\n');
const emptyArray = Buffer.from('[]\n');

/**
 * Writes `JSON.stringify([...values], null, 2)` and a line break, a value at a time as values are added. `writeValue`
 * may write a value faster: it must write what `JSON.stringify(value, null, 2)` becomes inside the array (every line
 * indented by two more) and return true, or write nothing and return false to leave the value to JSON.stringify.
 */
export class JsonArrayWriter<T> {
	private readonly out: ByteBatches;
	private readonly writeValue: (out: ByteBatches, value: T) => boolean;
	private started = false;

	/** `continuing`: the values follow others written elsewhere, so each is written after `,\n` (see addWritten). */
	constructor(
		out: ByteBatches,
		writeValue: (out: ByteBatches, value: T) => boolean,
		continuing = false,
	) {
		this.out = out;
		this.writeValue = writeValue;
		this.started = continuing;
	}

	add(value: T): void {
		this.out.bytes(this.started ? arraySeparator : arrayOpen);
		this.started = true;
		if (!this.writeValue(this.out, value)) {
			this.out.text(`  ${JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')}`);
		}
	}

	/** Adds values another writer wrote, constructed `continuing` (each after `,\n`), as they were handed over. */
	addWritten(chunks: readonly Uint8Array[]): void {
		for (const chunk of chunks) {
			if (chunk.length === 0) continue;
			if (this.started) this.out.bytes(chunk);
			else {
				this.out.bytes(arrayOpen);
				this.out.bytes(chunk.subarray(arraySeparator.length));
				this.started = true;
			}
		}
	}

	/** Holds the values added from here on until `commit`, or takes them back on `rollback` (see ByteBatches). */
	begin(): { commit: () => void; rollback: () => void } {
		const started = this.started;
		this.out.begin();
		return {
			commit: () => this.out.commit(),
			rollback: () => {
				this.out.rollback();
				this.started = started;
			},
		};
	}

	/** Closes the array and hands over the rest; nothing may be added after. */
	end(): void {
		this.out.bytes(this.started ? arrayClose : emptyArray);
		this.out.flush();
	}
}
