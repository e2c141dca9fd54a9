// What the cluster client reads (list pages, watch events) goes through parseJsonKeepingIntegers, which looks for a
// run of 16 digits before choosing the slower read that keeps integers beyond 2^53 exact (a list page is looked at
// chunk by chunk as it arrives, LongDigitRunWatch). Differential: on many
// generated documents, with integers and digit strings of every length at every offset, the objects are JSON.parse's
// and every integer reads back exactly as written.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
	getInt64,
	LongDigitRunWatch,
	parseJsonKeepingIntegers,
} from '../../src/core/model/int64.ts';

/** A small deterministic generator, so a failure can be replayed. */
function generator(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state * 1664525 + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

function digits(random: () => number, length: number): string {
	// Half start with 9: 16-digit integers above 2^53 (9007199254740992) are the ones that lose precision.
	let text = random() < 0.5 ? '9' : String(1 + Math.floor(random() * 9));
	while (text.length < length) text += String(Math.floor(random() * 10));
	return text;
}

it('keeps every integer exact, at any length and offset, and reads the same objects as JSON.parse', () => {
	const random = generator(14);
	for (let document = 0; document < 3000; document++) {
		const integers: string[] = [];
		const entries: string[] = [];
		const entryCount = 1 + Math.floor(random() * 6);
		for (let entry = 0; entry < entryCount; entry++) {
			// Padding moves each value to every offset modulo 16.
			const padding = 'x'.repeat(Math.floor(random() * 40));
			const length = random() < 0.5 ? 15 + Math.floor(random() * 4) : 1 + Math.floor(random() * 22);
			const value = digits(random, length);
			if (random() < 0.3) {
				entries.push(`"s${entry}${padding}":"${value}"`);
			} else {
				integers.push(value);
				entries.push(`"n${entry}${padding}":${random() < 0.2 ? '-' : ''}${value}`);
			}
		}
		const text = `{${entries.join(',')}}`;
		// Whole, and as an answer arrives: in chunks, each looked at for long integers as it comes.
		const watch = new LongDigitRunWatch();
		for (let at = 0; at < text.length;) {
			const length = 1 + Math.floor(random() * 24);
			watch.add(text.slice(at, at + length));
			at += length;
		}
		for (const parsed of [
			parseJsonKeepingIntegers(text) as Record<string, unknown>,
			parseJsonKeepingIntegers(text, watch.seen) as Record<string, unknown>,
		]) {
			assert.deepEqual(parsed, JSON.parse(text), text);
			for (const [key, value] of Object.entries(parsed)) {
				if (typeof value !== 'number') continue;
				const written = /"([^"]*)":(-?\d+)/.exec(text.slice(text.indexOf(`"${key}"`)))?.[2];
				assert.equal(getInt64(parsed, key), BigInt(written ?? 'x'), `${key} in ${text}`);
			}
		}
	}
});
