// The text of a file's bytes for every reader of local files: the core's decoder (core/manifest/decode.ts) names what
// is wrong with a file, but its checked TextDecoder takes longer than JSON.parse on a big dump; Node's Buffer checks
// and decodes UTF-8 several times faster (and copies ASCII faster still). Text without a byte-order mark or control
// characters decodes the same either way, so only the rest goes to the core's decoder.
import { isAscii, isUtf8 } from 'node:buffer';
import { decodeManifestBytes, type DecodedText } from '../core/manifest/decode.ts';

// eslint-disable-next-line no-control-regex -- the control characters decodeManifestBytes refuses
const controlCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/** A file's text as kubectl reads it (UTF-8, or UTF-8/UTF-16 after a BOM), or why it is not such text. */
export function decodeFileBytes(bytes: Uint8Array): DecodedText {
	const buffer = Buffer.isBuffer(bytes)
		? bytes
		: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const byteOrderMark = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
	if (!byteOrderMark) {
		// ASCII reads the same as Latin-1, which Node copies into a string without decoding.
		const text = isAscii(buffer)
			? buffer.toString('latin1')
			: isUtf8(buffer)
				? buffer.toString('utf8')
				: undefined;
		if (text !== undefined && !controlCharacters.test(text)) return { text };
	}
	return decodeManifestBytes(buffer);
}
