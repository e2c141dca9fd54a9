// The worker thread of manifestWorkerClient.ts (bundled as dist/manifestWorker.cjs): reads, decodes and parses one
// workspace file per request, as the extension would on its own thread, and answers with what it found.
import { parentPort } from 'node:worker_threads';
import { parseManifests } from '../core/manifest/parse.ts';
import { decodeFileBytes } from './decodeFile.ts';
import type { ManifestReply, ManifestRequest } from './manifestWorkerClient.ts';
import { readRegularFile } from './regularFile.ts';
import { errorText } from '../core/text/errorText.ts';

/** True when a value holds an integer beyond 2^53 (the parser notes its exact value beside it, on this thread only). */
function holdsUnsafeInteger(value: unknown): boolean {
	if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
	if (typeof value !== 'object' || value === null) return false;
	if (Array.isArray(value)) return value.some(holdsUnsafeInteger);
	for (const key in value) {
		if (holdsUnsafeInteger((value as Record<string, unknown>)[key])) return true;
	}
	return false;
}

async function answer(request: ManifestRequest): Promise<ManifestReply> {
	const { id } = request;
	try {
		const read = await readRegularFile(request.path, request.maxBytes);
		if ('notRegular' in read) return { id, notRegular: read.notRegular };
		if ('tooLarge' in read) return { id, tooLarge: read.tooLarge };
		const decoded = decodeFileBytes(read.bytes);
		if ('error' in decoded) return { id, decodeError: decoded.error };
		const parsed = parseManifests(decoded.text, { fileName: request.fileName });
		if (parsed.objects.some((entry) => holdsUnsafeInteger(entry.object))) {
			return { id, text: decoded.text };
		}
		return {
			id,
			objects: parsed.objects.map((entry) => ({
				object: entry.object,
				line: entry.range.start.line,
			})),
			problems: parsed.problems.map((problem) => ({
				line: problem.range.start.line,
				message: problem.message,
			})),
		};
	} catch (error) {
		return { id, failed: errorText(error) };
	}
}

parentPort?.on('message', (request: ManifestRequest) => {
	void answer(request).then((reply) => parentPort?.postMessage(reply));
});
