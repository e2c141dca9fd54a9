// Waiting in tests without a clock: a condition is checked now and again whenever something it depends on reports
// a change (a session's object or state event, a server's request log, a store change, a watch opening or closing).
// No wait has a deadline of its own; node:test's per-test `timeout` option is the hang guard, and a file that
// registers `afterEach(reportPendingWaits)` says in the failure which wait never ended.
import type { SuiteContext, TestContext } from 'node:test';

/** Something that calls a listener on every change and can stop: `session.onState`, `store.subscribe`... */
export type Trigger = (listener: () => void) => { dispose(): void } | (() => void);

interface PendingWait {
	readonly what: () => string;
	cancel(): void;
}

const pending = new Set<PendingWait>();

function stopListening(subscription: { dispose(): void } | (() => void)): void {
	if (typeof subscription === 'function') subscription();
	else subscription.dispose();
}

/**
 * Resolves once `condition()` holds: checked at once and after each event of `triggers`. `what` names the wait in
 * a timed-out test's diagnostics (a function is called only then, so it may describe the current difference).
 */
export function until(
	condition: () => boolean,
	what: string | (() => string),
	triggers: readonly Trigger[],
): Promise<void> {
	return new Promise<void>((resolve, reject) => {
		if (condition()) {
			resolve();
			return;
		}
		const subscriptions: ({ dispose(): void } | (() => void))[] = [];
		const wait: PendingWait = {
			what: typeof what === 'string' ? () => what : what,
			cancel() {
				done();
				reject(new Error(`stopped waiting for ${wait.what()}`));
			},
		};
		const done = (): void => {
			pending.delete(wait);
			for (const subscription of subscriptions.splice(0)) stopListening(subscription);
		};
		const check = (): void => {
			if (!pending.has(wait)) return;
			let holds: boolean;
			try {
				holds = condition();
			} catch (error) {
				done();
				reject(error instanceof Error ? error : new Error(String(error)));
				return;
			}
			if (holds) {
				done();
				resolve();
			}
		};
		pending.add(wait);
		for (const trigger of triggers) subscriptions.push(trigger(check));
	});
}

/**
 * For `afterEach`: names the waits a test left unfinished (it timed out or threw meanwhile) in its diagnostics, and
 * stops them, so that they neither listen on nor blame the next test.
 */
export function reportPendingWaits(t: TestContext | SuiteContext): void {
	for (const wait of [...pending]) {
		if ('diagnostic' in t) t.diagnostic(`still waiting for ${wait.what()}`);
		wait.cancel();
	}
}

/** Whether a process is gone (exited and reaped). */
export function processIsGone(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return false;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'ESRCH';
	}
}

/**
 * Resolves once a process the code under test started is gone (killed and reaped). Nothing outside the code that
 * spawned it hears of its end, so this is the one wait that looks again every few milliseconds; the test's
 * `timeout` is the guard.
 */
export async function processGone(pid: number): Promise<void> {
	while (!processIsGone(pid)) {
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
}
