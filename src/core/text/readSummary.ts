/** What a workspace read found, as the output log says it: the counts agree with the tree's own. */
export interface WorkspaceReadCounts {
	readonly files: number;
	/** Objects summed over the files read: an object found in two files counts twice here. */
	readonly objectsInFiles: number;
	/** Objects the tree holds (each once, as the root counts them). */
	readonly distinctObjects: number;
	readonly elapsedMs: number;
}

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The log line that ends a workspace read. */
export function workspaceReadSummary(counts: WorkspaceReadCounts): string {
	const { files, objectsInFiles, distinctObjects, elapsedMs } = counts;
	const found =
		objectsInFiles === distinctObjects
			? plural(distinctObjects, 'object')
			: `${plural(distinctObjects, 'object')} in the tree (${objectsInFiles} in the files: an object found in several files, such as a manifest and a kubectl dump, counts once)`;
	return `Read ${plural(files, 'workspace file')} in ${elapsedMs} ms: ${found}.`;
}
