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
