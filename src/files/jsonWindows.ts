// A JSON file read a window at a time for core/manifest/jsonManifests.ts's visitJsonListItems: a `kubectl get -o json`
// dump of a whole fleet (hundreds of MiB, or GiB) is read with at most one window of it in memory. A window grows
// (doubling) only while one element does not fit in it, up to a bound; past the bound, or on bytes that are not
// UTF-8 text without a byte-order mark, the reader says no more and the caller reads the file the usual way.
import { isAscii, isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { JsonBytes } from '../core/manifest/jsonManifests.ts';

/** How much of a file one window holds at first. */
const firstWindowBytes = 8 * 1024 * 1024;

/** Why a file was not read a window at a time, when the reason is worth telling (a bound hit). */
export interface WindowedRead {
	/** Set when a window would have had to grow past the bound: the size it needed. */
	boundHit: number | undefined;
}

const openFlags =
	constants.O_RDONLY | ((constants as Partial<Record<string, number>>).O_NONBLOCK ?? 0);

/** How many bytes at the end of `bytes` begin a UTF-8 character that goes on past them. */
function unfinishedCharacter(bytes: Buffer, length: number): number {
	for (let back = 1; back <= 3 && back <= length; back++) {
		const byte = bytes[length - back] ?? 0;
		if (byte < 0x80) return 0;
		if (byte >= 0xc0) {
			const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
			return needs > back ? back : 0;
		}
	}
	return 0;
}

/**
 * Reads the regular file at `path` a window at a time and hands its first window to `read` (which must be done with
 * the windows when it returns; the file is closed then). Returns what `read` returned, or undefined when the file is
 * no regular file or its first window is not JSON text as jsonBytesOf takes it.
 */
export function withJsonWindows<T>(
	path: string,
	maxWindowBytes: number,
	read: (first: JsonBytes, windows: WindowedRead) => T,
	firstBytes = firstWindowBytes,
): T | undefined {
	const descriptor = openSync(path, openFlags);
	try {
		if (!fstatSync(descriptor).isFile()) return undefined;
		const state: WindowedRead = { boundHit: undefined };
		let buffer = Buffer.allocUnsafeSlow(Math.min(firstBytes, maxWindowBytes));
		// buffer[0, filled) holds file bytes; the window is buffer[0, usable), the rest a character cut in two.
		let filled = 0;
		let ended = false;
		const fill = (): void => {
			while (filled < buffer.length && !ended) {
				const got = readSync(descriptor, buffer, filled, buffer.length - filled, null);
				if (got === 0) ended = true;
				filled += got;
			}
		};
		const windowOf = (first: boolean): JsonBytes | undefined => {
			const usable = ended ? filled : filled - unfinishedCharacter(buffer, filled);
			const bytes = buffer.subarray(0, usable);
			if (first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return undefined;
			const encoding = isAscii(bytes) ? 'latin1' : isUtf8(bytes) ? 'utf8' : undefined;
			if (encoding === undefined) return undefined;
			return {
				bytes,
				decode: (start, end) => bytes.toString(encoding, start, end),
				indexOf: (needle, from) => bytes.indexOf(needle, from),
				last: ended,
				more: (from) => {
					if (ended) return undefined;
					const kept = filled - from;
					if (from === 0 || kept > buffer.length / 2) {
						// The element in hand fills the window: a larger one, up to the bound.
						if (buffer.length >= maxWindowBytes) {
							state.boundHit = buffer.length * 2;
							return undefined;
						}
						const larger = Buffer.allocUnsafeSlow(Math.min(buffer.length * 2, maxWindowBytes));
						buffer.copy(larger, 0, from, filled);
						buffer = larger;
					} else buffer.copy(buffer, 0, from, filled);
					filled = kept;
					fill();
					return windowOf(false);
				},
			};
		};
		fill();
		const first = windowOf(true);
		return first === undefined ? undefined : read(first, state);
	} finally {
		closeSync(descriptor);
	}
}
