import type { TreeNode } from '../../core/tree/treeNode.ts';
import { contextOfLiveRoot } from '../../live/liveRoots.ts';

/** The one command a tooltip's Read-from link may run; its argument is a token of ReadFromLinks. */
export const readFromCommand = 'kubeStatusLens.readFrom.open';

/** Where a row was read: a workspace file at a line, a live object, or an entry of an archive (the object as read). */
export type ReadFromTarget =
	| { readonly kind: 'file'; readonly sourceId: string; readonly line: number }
	| { readonly kind: 'live'; readonly nodeId: string }
	| { readonly kind: 'entry'; readonly nodeId: string; readonly label: string };

/** At most this many links are remembered (the latest); an older one says it is out of date. */
const keptLinks = 500;

/**
 * The targets of the Read-from links, each behind an opaque token the extension made: a link carries the token, never
 * a name, path or URL from the data, so a link in a tooltip can only open what the extension put in this table.
 */
export class ReadFromLinks {
	private readonly targets = new Map<string, ReadFromTarget>();
	private counter = 0;

	private add(target: ReadFromTarget): string {
		const token = `r${++this.counter}`;
		this.targets.set(token, target);
		if (this.targets.size > keptLinks) {
			const oldest = this.targets.keys().next().value;
			if (oldest !== undefined) this.targets.delete(oldest);
		}
		return token;
	}

	/** The target behind a token, or undefined for one this table never made or no longer keeps. */
	targetOf(token: unknown): ReadFromTarget | undefined {
		return typeof token === 'string' ? this.targets.get(token) : undefined;
	}

	/** The command link of a row's Read-from line, or undefined when it was read from nowhere to open. */
	linkOf(node: TreeNode): string | undefined {
		let target: ReadFromTarget | undefined;
		const source = node.sources?.[0];
		if (contextOfLiveRoot(node.rootId) !== undefined) {
			target = { kind: 'live', nodeId: node.id };
		} else if (source?.sourceId.startsWith('file:') && source.line !== undefined) {
			target = { kind: 'file', sourceId: source.sourceId, line: source.line };
		} else if (source && node.objectKey) {
			target = { kind: 'entry', nodeId: node.id, label: source.label ?? 'archive' };
		}
		if (!target) return undefined;
		return `command:${readFromCommand}?${encodeURIComponent(JSON.stringify([this.add(target)]))}`;
	}
}
