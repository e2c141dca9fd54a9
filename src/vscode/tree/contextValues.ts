import type { TreeNode } from '../../core/tree/treeNode.ts';

function segment(text: string): string {
	return text.replace(/[^A-Za-z0-9._-]/g, '') || '-';
}

/**
 * The one place contextValues are built: `kubeStatusLens:<source>:<system>:<kind>:<state>` plus the flags commands
 * need, so each command's `when` clause (`viewItem =~ /^kubeStatusLens:file:fleet:/`) targets exactly its items.
 * `waiting`: the object waits for another (its row says "waiting for …"; Go to What It Waits For shows inline).
 */
export function contextValueOf(node: TreeNode, waiting = false): string {
	const flags = node.contextFlags;
	// A KubeStellar WEC (a placeholder named by its WorkStatus namespace) can be explained: what it gets.
	if (node.kind === 'placeholder' && /(?:^|\/)ph:wec:[^/]+$/.test(node.id)) {
		return 'kubeStatusLensNode:placeholder:wec';
	}
	if (node.kind !== 'object') return `kubeStatusLensNode:${node.kind}`;
	const parts = [
		'kubeStatusLens',
		flags.origin,
		flags.system,
		segment(flags.objectKind),
		segment(flags.state),
	];
	if (flags.inFile) parts.push('hasManifest');
	if (flags.inArchive) parts.push('archiveEntry');
	if (flags.declared) parts.push('declared');
	if (flags.suspended) parts.push('suspended');
	if (flags.paused) parts.push('paused');
	if (flags.oci) parts.push('oci');
	if (flags.problem) parts.push('problem');
	if (waiting) parts.push('waiting');
	return parts.join(':');
}

/**
 * The contextValue of a resource row: `kubeStatusLensNode:resource:<source>:<role>` for what a BundleDeployment or
 * Kustomization applied (`modified`, `nonReady`, `failed`, `applied`, `inventory`), so the live object's commands and
 * "Show Recorded Patch" target exactly those rows.
 */
export function appliedRowContextValue(node: TreeNode, role: string | undefined): string {
	return role
		? `kubeStatusLensNode:resource:${node.contextFlags.origin}:${role}`
		: contextValueOf(node);
}
