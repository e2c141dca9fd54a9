/**
 * A load shared by every caller while it runs and once it succeeded, and made again by the next caller after it
 * failed: a rejected promise kept for ever would leave the extension's commands "not found" until the window reloads
 * (vscode-eslint re-creates a client whose start failed in the same spirit).
 */
export function retryingLoad<T>(load: () => Promise<T>): () => Promise<T> {
	let loading: Promise<T> | undefined;
	return () => {
		if (loading) return loading;
		const attempt = load();
		loading = attempt;
		attempt.catch(() => {
			if (loading === attempt) loading = undefined;
		});
		return attempt;
	};
}
