// How long to wait before asking a cluster again after a failure.
import type { RequestFailure } from './requests.ts';

/** Reconnect delays: doubling from initialMs to maxMs. */
export interface Backoff {
	readonly initialMs: number;
	readonly maxMs: number;
}

// An answer above a size limit goes on doubling past the slowest step, up to this many times it.
const tooLargeStepsAboveMax = 8;

/**
 * The delay before attempt `attempt` (0 for the first retry): doubling from the initial step to the slowest, with
 * jitter between half and all of the step, so many watches that failed together do not retry together. Permissions
 * and CRDs change rarely: they are asked for again at the slowest pace. An answer over a size limit will be as
 * large next time: it starts at the slowest pace and goes on doubling, so it is not downloaded again and again.
 */
export function retryDelayMs(
	attempt: number,
	failure: RequestFailure | undefined,
	backoff: Backoff,
	random: () => number,
): number {
	const { initialMs, maxMs } = backoff;
	const step = failure?.tooLarge
		? Math.min(maxMs * tooLargeStepsAboveMax, maxMs * 2 ** Math.min(attempt, 30))
		: failure?.kind === 'forbidden' || failure?.kind === 'not-installed'
			? maxMs
			: Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
	return Math.round(step / 2 + (step / 2) * random());
}
