// The worker thread of `status --json` on a big input (bundled as dist/statusWorker.cjs): it reads its share of the
// files (each a List as `kubectl get -o json` writes it, of objects whose status stands alone) while the command reads
// the others, and hands back each file's records as bytes. See statusWorkerClient.ts.
import { workerData } from 'node:worker_threads';
import { standaloneStatusReader, statusStandsAlone } from '../core/status/standalone.ts';
import { visitJsonListFile } from './files.ts';
import { ByteBatches, JsonArrayWriter } from './output.ts';
import { failsAt, recordOf, writeStatusRecord } from './statusRecords.ts';
import {
	answersAhead,
	signal,
	type StatusWorkerAnswer,
	type StatusWorkerData,
} from './statusWorkerProtocol.ts';

const data = workerData as StatusWorkerData;
const { signals } = data;
const status = standaloneStatusReader({ now: data.now });

function tick(): void {
	Atomics.add(signals, signal.progress, 1);
}

function readFile(index: number, file: string): StatusWorkerAnswer {
	const leftToCommand = { index, leftToCommand: true } as const;
	try {
		const chunks: Uint8Array[] = [];
		// A copy of each batch: the batch's buffer is written over next.
		const out = new ByteBatches((bytes) => chunks.push(new Uint8Array(bytes)));
		const records = new JsonArrayWriter(out, writeStatusRecord, true);
		const from = { file };
		let failing = 0;
		let count = 0;
		const listed = visitJsonListFile(file, data.maxWindowBytes, (object, line) => {
			if (!statusStandsAlone(object)) return false;
			const result = status(object);
			if (failsAt(result.tone, data.threshold)) failing++;
			records.add(recordOf(result, object, from, line + 1));
			if ((++count & 1023) === 0) tick();
			return true;
		});
		if (listed !== true) return leftToCommand;
		out.flush();
		return { index, chunks, failing };
	} catch {
		return leftToCommand;
	}
}

tick();
for (let index = 0; index < data.files.length; index++) {
	for (;;) {
		if (Atomics.load(signals, signal.stop) !== 0) process.exit(0);
		const taken = Atomics.load(signals, signal.taken);
		if (Atomics.load(signals, signal.posted) - taken < answersAhead) break;
		Atomics.wait(signals, signal.taken, taken, 1000);
	}
	const answer = readFile(index, data.files[index] ?? '');
	tick();
	data.port.postMessage(
		answer,
		'chunks' in answer ? answer.chunks.map((chunk) => chunk.buffer as ArrayBuffer) : [],
	);
	Atomics.add(signals, signal.posted, 1);
	Atomics.notify(signals, signal.posted);
}
