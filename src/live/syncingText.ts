/**
 * What the status bar and the first sync's progress both say while contexts list: "syncing platform" for one,
 * "syncing 4 of 5 contexts" for more; the same words and counts wherever they show.
 */
export function syncingText(syncing: readonly string[], open: number): string {
	if (syncing.length === 1 && open <= 1) return `syncing ${syncing[0] ?? ''}`;
	if (syncing.length === 1) return `syncing ${syncing[0] ?? ''} (1 of ${open} contexts)`;
	return `syncing ${syncing.length} of ${Math.max(open, syncing.length)} contexts`;
}
