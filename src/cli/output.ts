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

/** The lines of `JSON.stringify(values, null, 2)`, one value at a time. */
export function* jsonArrayLines(values: readonly unknown[]): Generator<string> {
	if (values.length === 0) {
		yield '[]';
		return;
	}
	yield '[';
	for (let index = 0; index < values.length; index++) {
		// JSON escapes line breaks inside strings, so every line break here starts a line of the layout.
		const text = JSON.stringify(values[index], null, 2).replace(/\n/g, '\n  ');
		yield `  ${text}${index + 1 < values.length ? ',' : ''}`;
	}
	yield ']';
}
