import * as vscode from 'vscode';
import { contextPairsOf, type ContextPair } from '../core/merge/contextPairing.ts';

/** The settings this extension reads; a unit test checks they equal the ones package.json declares. */
// ts-unused-exports:disable-next-line
export const settingKeys = [
	'kubeStatusLens.workspace.include',
	'kubeStatusLens.workspace.exclude',
	'kubeStatusLens.workspace.maxFileSizeKB',
	'kubeStatusLens.workspace.maxFileSizeKiB',
	'kubeStatusLens.workspace.maxArchiveMB',
	'kubeStatusLens.workspace.maxArchiveEntries',
	'kubeStatusLens.tree.problemsOnly',
	'kubeStatusLens.mergePreview.rules',
	'kubeStatusLens.diagnostics.enabled',
	'kubeStatusLens.diagnostics.reportSyntaxErrors',
	'kubeStatusLens.diagnostics.waitAppliedThresholdSeconds',
	'kubeStatusLens.clusters.enabled',
	'kubeStatusLens.clusters.kubeconfig',
	'kubeStatusLens.clusters.contexts',
	'kubeStatusLens.clusters.namespaces',
	'kubeStatusLens.clusters.bundleDeploymentThreshold',
	'kubeStatusLens.clusters.kubestellarPairs',
	'kubeStatusLens.clusters.maxResponseMB',
	'kubeStatusLens.clusters.maxResponseMiB',
	'kubeStatusLens.notifications.contexts',
	'kubeStatusLens.notifications.whenUnfocused',
	'kubeStatusLens.targeting.inventory',
] as const;

/**
 * A positive number setting, or the one it was renamed from while the new one is set nowhere (the Settings UI titles a
 * key from its camelCase words, so `maxFileSizeKiB` read "Max File Size Ki B" and became `maxFileSizeKB`).
 */
/** A positive number setting, or the fallback when it is not one. */
function positiveNumber(value: unknown, fallback: number): number {
	return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

function renamedNumber(
	config: vscode.WorkspaceConfiguration,
	key: string,
	oldKey: string,
	fallback: number,
): number {
	const positive = (value: unknown): value is number => typeof value === 'number' && value > 0;
	const current = config.inspect<unknown>(key);
	const setAnywhere =
		current?.globalValue !== undefined ||
		current?.workspaceValue !== undefined ||
		current?.workspaceFolderValue !== undefined;
	const value = config.get<unknown>(key);
	if (setAnywhere && positive(value)) return value;
	const old = config.get<unknown>(oldKey);
	if (positive(old)) return old;
	return positive(value) ? value : fallback;
}

function stringArray(value: unknown, fallback: readonly string[]): string[] {
	return Array.isArray(value)
		? value.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '')
		: [...fallback];
}

/** Which workspace files to read. */
export interface WorkspaceSettings {
	readonly include: readonly string[];
	readonly exclude: readonly string[];
	readonly maxFileBytes: number;
	/** A fleet dump archive: bytes after decompression, and entries. */
	readonly maxArchiveBytes: number;
	readonly maxArchiveEntries: number;
}

/** Typed read of kubeStatusLens.workspace.* for a folder. */
export function readWorkspaceSettings(scope?: vscode.ConfigurationScope): WorkspaceSettings {
	const config = vscode.workspace.getConfiguration('kubeStatusLens.workspace', scope);
	return {
		include: stringArray(config.get<unknown>('include'), ['**/*.{yaml,yml,json}']),
		exclude: stringArray(config.get<unknown>('exclude'), []),
		maxFileBytes: renamedNumber(config, 'maxFileSizeKB', 'maxFileSizeKiB', 5120) * 1024,
		maxArchiveBytes: positiveNumber(config.get<unknown>('maxArchiveMB'), 1024) * 1024 * 1024,
		maxArchiveEntries: Math.floor(
			positiveNumber(config.get<unknown>('maxArchiveEntries'), 100_000),
		),
	};
}

/** Typed read of kubeStatusLens.tree.problemsOnly. */
export function readProblemsOnly(): boolean {
	return (
		vscode.workspace.getConfiguration('kubeStatusLens.tree').get<boolean>('problemsOnly') === true
	);
}

/** Globs of `search.exclude` entries that are on, for a folder (files.exclude is applied by findFiles itself). */
export function readSearchExcludes(scope?: vscode.ConfigurationScope): string[] {
	const excludes =
		vscode.workspace.getConfiguration('search', scope).get<Record<string, unknown>>('exclude') ??
		{};
	return Object.entries(excludes)
		.filter(([, on]) => on === true)
		.map(([glob]) => glob);
}

/** Typed read of kubeStatusLens.mergePreview.rules: the seed proposal, or what the released controller writes. */
export function readMergeRules(): 'proposal' | 'kubestellar' {
	return vscode.workspace.getConfiguration('kubeStatusLens.mergePreview').get<string>('rules') ===
		'kubestellar'
		? 'kubestellar'
		: 'proposal';
}

/** Typed read of kubeStatusLens.diagnostics.* for a document. */
export function readDiagnosticsSettings(scope?: vscode.ConfigurationScope): {
	enabled: boolean;
	reportSyntaxErrors: boolean;
	waitAppliedThresholdSeconds: number;
} {
	const config = vscode.workspace.getConfiguration('kubeStatusLens.diagnostics', scope);
	const threshold = config.get<unknown>('waitAppliedThresholdSeconds');
	return {
		enabled: config.get<boolean>('enabled') !== false,
		reportSyntaxErrors: config.get<boolean>('reportSyntaxErrors') === true,
		waitAppliedThresholdSeconds: typeof threshold === 'number' && threshold > 0 ? threshold : 600,
	};
}

/** Typed read of kubeStatusLens.clusters.*; the kubeconfig path is machine-scoped, never from a workspace. */
export function readClusterSettings(): {
	enabled: boolean;
	kubeconfig: string;
	contexts: string[];
	namespaces: string[];
	bundleDeploymentThreshold: number;
	kubestellarPairs: ContextPair[];
	maxResponseBytes: number;
} {
	const config = vscode.workspace.getConfiguration('kubeStatusLens.clusters');
	const kubeconfig = config.inspect<string>('kubeconfig');
	const threshold = config.get<unknown>('bundleDeploymentThreshold');
	return {
		enabled: config.get<boolean>('enabled') !== false,
		// Only the user's (global) value counts, whatever scope a workspace tries to set.
		kubeconfig: typeof kubeconfig?.globalValue === 'string' ? kubeconfig.globalValue : '',
		contexts: stringArray(config.get<unknown>('contexts'), []),
		namespaces: stringArray(config.get<unknown>('namespaces'), []),
		bundleDeploymentThreshold: typeof threshold === 'number' && threshold > 0 ? threshold : 20_000,
		kubestellarPairs: contextPairsOf(config.get<unknown>('kubestellarPairs')),
		maxResponseBytes: renamedNumber(config, 'maxResponseMB', 'maxResponseMiB', 256) * 1024 * 1024,
	};
}

/** Typed read of kubeStatusLens.notifications.*: the contexts where anything turning red notifies, and when unfocused. */
export function readNotificationSettings(): { contexts: string[]; whenUnfocused: boolean } {
	const config = vscode.workspace.getConfiguration('kubeStatusLens.notifications');
	return {
		contexts: stringArray(config.get<unknown>('contexts'), []),
		whenUnfocused: config.get<boolean>('whenUnfocused') === true,
	};
}

/** Typed read of kubeStatusLens.targeting.inventory: the root label targets are matched against, or automatic. */
export function readTargetInventorySetting(): string | undefined {
	const value = vscode.workspace
		.getConfiguration('kubeStatusLens.targeting')
		.get<unknown>('inventory');
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
