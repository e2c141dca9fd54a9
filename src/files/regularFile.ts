// Reading a file that a user named or a folder scan found, for the CLI, the dump-folder reader and the extension: only
// a regular file, opened without blocking (a named pipe would wait for a writer forever), checked on the open
// descriptor (the path may have changed since the folder was listed), and read to at most one byte past the limit, so
// a file that grows while it is read, or a size that lies (/dev/zero), still ends the read.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/** What reading a file gave: its bytes, or why they were not read. */
export type RegularFileRead =
	| { readonly bytes: Buffer }
	/** What the path is instead ("a named pipe"). */
	| { readonly notRegular: string }
	/** The size seen; `grew` when the file passed the limit while it was read. */
	| { readonly tooLarge: number; readonly grew: boolean };

/** What a path that is not a regular file is, in words. */
export function fileKindOf(stats: Stats): string {
	if (stats.isDirectory()) return 'a folder';
	if (stats.isFIFO()) return 'a named pipe';
	if (stats.isSocket()) return 'a socket';
	if (stats.isCharacterDevice()) return 'a character device';
	if (stats.isBlockDevice()) return 'a block device';
	return 'not a regular file';
}

const openFlags =
	constants.O_RDONLY | ((constants as Partial<Record<string, number>>).O_NONBLOCK ?? 0);

/** A buffer for `needed` bytes: the given one when it is large enough. */
function bufferFor(needed: number, reuse: Buffer | undefined): Buffer {
	return reuse && reuse.length >= needed ? reuse : Buffer.allocUnsafe(needed);
}

function grown(buffer: Buffer, filled: number, maxBytes: number): Buffer {
	const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2 + 65536, maxBytes + 1));
	buffer.copy(larger, 0, 0, filled);
	return larger;
}

/** Reads a regular file of at most `maxBytes` (see the top of this file). */
export async function readRegularFile(path: string, maxBytes: number): Promise<RegularFileRead> {
	const handle = await open(path, openFlags);
	try {
		const stats = await handle.stat();
		if (!stats.isFile()) return { notRegular: fileKindOf(stats) };
		if (stats.size > maxBytes) return { tooLarge: stats.size, grew: false };
		let buffer: Buffer = Buffer.allocUnsafe(stats.size + 1);
		let total = 0;
		for (;;) {
			if (total === buffer.length) buffer = grown(buffer, total, maxBytes);
			const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
			if (bytesRead === 0) break;
			total += bytesRead;
			if (total > maxBytes) return { tooLarge: total, grew: true };
		}
		return { bytes: buffer.subarray(0, total) };
	} finally {
		await handle.close();
	}
}

/**
 * The same, synchronously, into `scratch.buffer` when it is large enough (the CLI reads a dump's files one after the
 * other and decodes each before the next: one buffer for all of them, instead of one per file that only the garbage
 * collector frees). The bytes returned are valid until the next read into the same scratch.
 */
export function readRegularFileSync(
	path: string,
	maxBytes: number,
	scratch: { buffer: Buffer | undefined },
): RegularFileRead {
	const descriptor = openSync(path, openFlags);
	try {
		const stats = fstatSync(descriptor);
		if (!stats.isFile()) return { notRegular: fileKindOf(stats) };
		if (stats.size > maxBytes) return { tooLarge: stats.size, grew: false };
		let buffer = bufferFor(stats.size + 1, scratch.buffer);
		scratch.buffer = buffer;
		let total = 0;
		for (;;) {
			if (total === buffer.length) {
				buffer = grown(buffer, total, maxBytes);
				scratch.buffer = buffer;
			}
			const read = readSync(descriptor, buffer, total, buffer.length - total, null);
			if (read === 0) break;
			total += read;
			if (total > maxBytes) return { tooLarge: total, grew: true };
		}
		return { bytes: buffer.subarray(0, total) };
	} finally {
		closeSync(descriptor);
	}
}
