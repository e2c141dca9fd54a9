// The text of a manifest file's bytes, decoded as kubectl decodes a file: UTF-8, or after a byte-order mark UTF-8 or
// UTF-16 (little or big endian; PowerShell's `>` writes UTF-16 LE with a mark). Bytes that are not such text (a
// binary, another encoding) give a sentence saying why, never a guess: a file read as garbage would pass a CI gate.

/** A file's text, or why its bytes are not manifest text. */
export type DecodedText = { readonly text: string } | { readonly error: string };

function lineOf(text: string, index: number): number {
	let line = 1;
	let at = text.indexOf('\n');
	while (at >= 0 && at < index) {
		line++;
		at = text.indexOf('\n', at + 1);
	}
	return line;
}

/** Where the first byte that is not part of a well-formed UTF-8 sequence stands (RFC 3629's table). */
function firstInvalidUtf8(bytes: Uint8Array, from: number): number {
	let index = from;
	while (index < bytes.length) {
		const lead = bytes[index] ?? 0;
		if (lead < 0x80) {
			index++;
			continue;
		}
		// The continuation bytes a lead byte takes, and the range its first one must fall in.
		let length = 0;
		let low = 0x80;
		let high = 0xbf;
		if (lead >= 0xc2 && lead <= 0xdf) length = 1;
		else if (lead >= 0xe0 && lead <= 0xef) {
			length = 2;
			if (lead === 0xe0) low = 0xa0;
			if (lead === 0xed) high = 0x9f;
		} else if (lead >= 0xf0 && lead <= 0xf4) {
			length = 3;
			if (lead === 0xf0) low = 0x90;
			if (lead === 0xf4) high = 0x8f;
		}
		if (length === 0) return index;
		for (let next = 1; next <= length; next++) {
			const byte = bytes[index + next];
			if (byte === undefined) return index;
			if (next === 1 ? byte < low || byte > high : (byte & 0xc0) !== 0x80) return index;
		}
		index += length + 1;
	}
	return index;
}

// Every other byte zero near the start: UTF-16 saved without its byte-order mark.
function looksLikeUtf16(bytes: Uint8Array): boolean {
	const sample = Math.min(bytes.length, 64) & ~1;
	if (sample < 4) return false;
	let evenZeros = 0;
	let oddZeros = 0;
	for (let index = 0; index < sample; index++) {
		if (bytes[index] === 0) {
			if (index % 2 === 0) evenZeros++;
			else oddZeros++;
		}
	}
	return Math.max(evenZeros, oddZeros) >= sample / 4 && Math.min(evenZeros, oddZeros) === 0;
}

function swapBytePairs(bytes: Uint8Array): Uint8Array {
	const swapped = new Uint8Array(bytes.length);
	for (let index = 0; index + 1 < bytes.length; index += 2) {
		swapped[index] = bytes[index + 1] ?? 0;
		swapped[index + 1] = bytes[index] ?? 0;
	}
	return swapped;
}

// YAML and JSON allow no control characters but tab, line feed and carriage return (kubectl's YAML reader refuses
// them too); a NUL is the mark of a binary file.
// eslint-disable-next-line no-control-regex
const controlCharacter = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

function checkedText(text: string, encoding: string): DecodedText {
	const control = controlCharacter.exec(text);
	if (!control) return { text };
	const code = text.charCodeAt(control.index);
	const where = `line ${lineOf(text, control.index)}`;
	return code === 0
		? { error: `binary data, not ${encoding} text (a NUL character on ${where})` }
		: {
				error: `control character U+${code.toString(16).toUpperCase().padStart(4, '0')} on ${where}: YAML and JSON allow only tab, line feed and carriage return`,
			};
}

/** Decodes a manifest file's bytes: the text, or why they are not UTF-8 or UTF-16 (with a byte-order mark) text. */
export function decodeManifestBytes(bytes: Uint8Array): DecodedText {
	const [first, second, third] = bytes;
	if (first === 0xff && second === 0xfe) return decodeUtf16(bytes.subarray(2), 'utf-16le');
	if (first === 0xfe && second === 0xff) return decodeUtf16(bytes.subarray(2), 'utf-16be');
	const start = first === 0xef && second === 0xbb && third === 0xbf ? 3 : 0;
	let text: string;
	try {
		text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(start));
	} catch {
		if (start === 0 && looksLikeUtf16(bytes)) {
			return {
				error: 'UTF-16 text without a byte-order mark: save it as UTF-8, or as UTF-16 with one',
			};
		}
		const nul = bytes.indexOf(0, start);
		if (nul >= 0) return { error: `binary data, not UTF-8 text (a NUL byte at offset ${nul})` };
		const at = firstInvalidUtf8(bytes, start);
		return {
			error: `not UTF-8 text: byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')} at offset ${at} (another encoding? save it as UTF-8)`,
		};
	}
	if (start === 0 && text.includes('\u0000') && looksLikeUtf16(bytes)) {
		return {
			error: 'UTF-16 text without a byte-order mark: save it as UTF-8, or as UTF-16 with one',
		};
	}
	return checkedText(text, 'UTF-8');
}

function decodeUtf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be'): DecodedText {
	const name = encoding === 'utf-16le' ? 'UTF-16 LE' : 'UTF-16 BE';
	if (bytes.length % 2 !== 0) {
		return { error: `not ${name} text: an odd number of bytes after the byte-order mark` };
	}
	let text: string;
	try {
		// Big endian is swapped to little endian: every runtime's TextDecoder reads that one.
		text = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true }).decode(
			encoding === 'utf-16le' ? bytes : swapBytePairs(bytes),
		);
	} catch {
		return { error: `not ${name} text: an unpaired surrogate` };
	}
	return checkedText(text, name);
}
