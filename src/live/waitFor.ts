// Waiting on the graph instead of polling it: a condition is checked at once and again whenever one of its triggers
// reports a change, until it holds, the deadline passes or the wait is cancelled.

/** Something that calls a listener on every change until the returned function (or disposable) stops it. */
export type Trigger = (listener: () => void) => { dispose(): void } | (() => void);

function stop(subscription: { dispose(): void } | (() => void)): void {
	if (typeof subscription === 'function') subscription();
	else subscription.dispose();
}

/**
 * Resolves with the first value `check` returns other than undefined, checked at once and after each event of
 * `triggers`; with undefined once `timeoutMs` has passed or `cancelled` fires. A `check` that throws rejects.
 */
export function waitFor<T>(
	check: () => T | undefined,
	triggers: readonly Trigger[],
	options: { readonly timeoutMs: number; readonly cancelled?: Trigger },
): Promise<T | undefined> {
	return new Promise<T | undefined>((resolve, reject) => {
		const subscriptions: ({ dispose(): void } | (() => void))[] = [];
		const deadline: { timer?: ReturnType<typeof setTimeout> } = {};
		let settled = false;
		const finish = (value: T | undefined, error?: Error): void => {
			if (settled) return;
			settled = true;
			clearTimeout(deadline.timer);
			for (const subscription of subscriptions.splice(0)) stop(subscription);
			if (error === undefined) resolve(value);
			else reject(error);
		};
		const test = (): void => {
			if (settled) return;
			try {
				const value = check();
				if (value !== undefined) finish(value);
			} catch (error) {
				finish(undefined, error instanceof Error ? error : new Error('the condition failed'));
			}
		};
		test();
		if (settled) return;
		for (const trigger of triggers) subscriptions.push(trigger(test));
		if (options.cancelled) subscriptions.push(options.cancelled(() => finish(undefined)));
		deadline.timer = setTimeout(() => finish(undefined), Math.max(0, options.timeoutMs));
	});
}
