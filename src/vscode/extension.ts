import { join } from 'node:path';
import * as vscode from 'vscode';
import { requireWithCodeCache } from '../files/moduleCodeCache.ts';
import { retryingLoad } from '../files/retryingLoad.ts';
import type * as Engine from './engine.ts';
import type { ExtensionApi as EngineApi } from './engine.ts';

/** How this start used the engine's code cache: read it, wrote it for the next start, or could not use it. */
type CodeCacheUse = 'used' | 'written' | 'unavailable';

/** What the in-host tests and benchmarks may inspect. */
export interface ExtensionApi extends EngineApi {
	/** Settles once this start has read or written the code cache (after the first tree, when writing). */
	readonly codeCache: () => Promise<CodeCacheUse>;
}

const viewId = 'kubeStatusLens.resources';
const attentionViewId = 'kubeStatusLens.attention';

/**
 * The tree view's data provider until the engine is loaded: the first request for children loads it, and from then on
 * every call goes to the engine's provider.
 */
class DeferredTreeProvider implements vscode.TreeDataProvider<string>, vscode.Disposable {
	private readonly emitter = new vscode.EventEmitter<string[] | string | undefined | void>();
	readonly onDidChangeTreeData = this.emitter.event;
	private target: vscode.TreeDataProvider<string> | undefined;
	private forwarding: vscode.Disposable | undefined;
	private readonly load: () => Promise<unknown>;

	constructor(load: () => Promise<unknown>) {
		this.load = load;
	}

	connect(target: vscode.TreeDataProvider<string>): void {
		this.target = target;
		this.forwarding = target.onDidChangeTreeData?.((changed) =>
			this.emitter.fire(changed ?? undefined),
		);
	}

	getTreeItem(id: string): vscode.TreeItem | Thenable<vscode.TreeItem> {
		return this.target ? this.target.getTreeItem(id) : this.loaded().then((t) => t.getTreeItem(id));
	}

	getChildren(id?: string): vscode.ProviderResult<string[]> {
		return this.target ? this.target.getChildren(id) : this.loaded().then((t) => t.getChildren(id));
	}

	getParent(id: string): vscode.ProviderResult<string> {
		return this.target?.getParent?.(id);
	}

	resolveTreeItem(
		item: vscode.TreeItem,
		id: string,
		token: vscode.CancellationToken,
	): vscode.ProviderResult<vscode.TreeItem> {
		return this.target?.resolveTreeItem ? this.target.resolveTreeItem(item, id, token) : item;
	}

	private async loaded(): Promise<vscode.TreeDataProvider<string>> {
		await this.load();
		if (!this.target) throw new Error('the Kube Status Lens engine did not connect its tree');
		return this.target;
	}

	dispose(): void {
		this.forwarding?.dispose();
		this.emitter.dispose();
	}
}

/**
 * Activation registers what VS Code needs to route to the extension (the view, the contributed commands, the YAML
 * documents it serves) and loads nothing else: the engine (dist/engine.cjs: the core, yaml, the tree, the editor
 * features) is loaded on first use, so activation parses a few KiB instead of the whole extension.
 */
export function activate(context: vscode.ExtensionContext): ExtensionApi {
	const activatedAt = Date.now();
	let api: EngineApi | undefined;
	let codeCacheUse: Promise<CodeCacheUse> | undefined;
	const provider = new DeferredTreeProvider(() => loadEngine());
	const view = vscode.window.createTreeView(viewId, {
		treeDataProvider: provider,
		showCollapseAll: true,
	});
	const attentionProvider = new DeferredTreeProvider(() => loadEngine());
	const attentionView = vscode.window.createTreeView(attentionViewId, {
		treeDataProvider: attentionProvider,
	});
	const triggers: vscode.Disposable[] = [];
	const commandIds = contributedCommands(context);
	const forwarders = commandIds.map((command) =>
		vscode.commands.registerCommand(command, async (...args: unknown[]) => {
			await loadEngine();
			return vscode.commands.executeCommand(command, ...args);
		}),
	);
	// A load that fails (an engine bundle that cannot be read, a code cache that throws) leaves the forwarders and
	// triggers in place, so the next command or view opening tries again.
	const loadEngine = retryingLoad(async (): Promise<EngineApi> => {
		const { engine: loaded, cache, saveCache } = await loadEngineModule(context);
		// The engine registers the real commands: the forwarders go just before.
		for (const disposable of triggers.concat(forwarders)) disposable.dispose();
		const started = loaded.activateEngine(
			context,
			view,
			(target) => provider.connect(target),
			activatedAt,
			{ view: attentionView, connect: (target) => attentionProvider.connect(target) },
		);
		api = started;
		// Once the first tree is built, its code is compiled: the next start reads it back instead.
		codeCacheUse =
			cache === 'used'
				? Promise.resolve('used')
				: cache === 'unavailable'
					? Promise.resolve('unavailable')
					: started
							.ready()
							.then(() => new Promise((resolve) => setTimeout(resolve, 1_000)))
							.then(saveCache)
							.then((written) => (written ? 'written' : 'unavailable'));
		return started;
	});
	const loadSoon = (why: string): void => {
		void loadEngine().catch((error: unknown) => {
			void vscode.window.showErrorMessage(
				`Kube Status Lens could not load (${why}): ${error instanceof Error ? error.message : String(error)}`,
			);
		});
	};
	const isYaml = (document: vscode.TextDocument): boolean => document.languageId === 'yaml';
	triggers.push(
		view.onDidChangeVisibility((event) => {
			if (event.visible) loadSoon('the view opened');
		}),
		attentionView.onDidChangeVisibility((event) => {
			if (event.visible) loadSoon('the Needs Attention view opened');
		}),
		vscode.workspace.onDidOpenTextDocument((document) => {
			if (isYaml(document)) loadSoon('a YAML document opened');
		}),
	);
	// VS Code activates the extension for a contributed tool (onLanguageModelTool:<name>) and expects it registered
	// by then: each forwards to the engine, which it loads.
	const tools = contributedTools(context).map((name) =>
		vscode.lm.registerTool<unknown>(name, {
			prepareInvocation: async (options) =>
				(await loadEngine()).languageModelTools.prepare(name, options.input),
			invoke: async (options, token) => {
				try {
					return await (await loadEngine()).languageModelTools.invoke(name, options.input, token);
				} catch (error) {
					const message = error instanceof Error ? error.message : String(error);
					return new vscode.LanguageModelToolResult([
						new vscode.LanguageModelTextPart(`Kube Status Lens could not load: ${message}`),
					]);
				}
			},
		}),
	);
	context.subscriptions.push(provider, view, attentionProvider, attentionView, {
		dispose: () => {
			for (const disposable of triggers.concat(forwarders, tools)) disposable.dispose();
		},
	});
	// A YAML document open (the activation event) needs the engine for its diagnostics, after activation. A view
	// already showing asks for its rows itself, which loads the engine once VS Code is done activating extensions.
	if (vscode.workspace.textDocuments.some(isYaml)) {
		setImmediate(() => loadSoon('a YAML document is open'));
	}
	const loadedApi = (): EngineApi => {
		if (!api) throw new Error('Kube Status Lens: await ready() before inspecting the engine');
		return api;
	};
	return {
		ready: async () => (await loadEngine()).ready(),
		codeCache: async () => {
			await loadEngine();
			return (await codeCacheUse) ?? 'unavailable';
		},
		view,
		get graph() {
			return loadedApi().graph;
		},
		get provider() {
			return loadedApi().provider;
		},
		get manifests() {
			return loadedApi().manifests;
		},
		get matrix() {
			return loadedApi().matrix;
		},
		get dumps() {
			return loadedApi().dumps;
		},
		get live() {
			return loadedApi().live;
		},
		get diagnostics() {
			return loadedApi().diagnostics;
		},
		get attention() {
			return loadedApi().attention;
		},
		get notifier() {
			return loadedApi().notifier;
		},
		get startup() {
			return loadedApi().startup;
		},
		get languageModelTools() {
			return loadedApi().languageModelTools;
		},
		attentionView,
	};
}

/**
 * The engine bundle, with V8's code cache from the extension's global storage when it has one; without the cache
 * (it could not be read or run), the engine loads as a plain module.
 */
async function loadEngineModule(context: vscode.ExtensionContext): Promise<{
	engine: typeof Engine;
	cache: 'used' | 'absent' | 'rejected' | 'unavailable';
	saveCache: () => Promise<boolean>;
}> {
	try {
		const loaded = requireWithCodeCache(
			join(__dirname, 'engine.cjs'),
			join(context.globalStorageUri.fsPath, 'code-cache'),
		);
		return {
			engine: loaded.exports as typeof Engine,
			cache: loaded.cache,
			saveCache: () => loaded.saveCache(),
		};
	} catch {
		return {
			engine: await import('./engine.ts'),
			cache: 'unavailable',
			saveCache: () => Promise.resolve(false),
		};
	}
}

/** The commands package.json contributes: registered at activation, so a command run before the engine loads it. */
function contributedCommands(context: vscode.ExtensionContext): string[] {
	const manifest = context.extension.packageJSON as {
		contributes?: { commands?: readonly { command?: unknown }[] };
	};
	return (manifest.contributes?.commands ?? [])
		.map((entry) => entry.command)
		.filter((command): command is string => typeof command === 'string');
}

/** The language model tools package.json contributes. */
function contributedTools(context: vscode.ExtensionContext): string[] {
	const manifest = context.extension.packageJSON as {
		contributes?: { languageModelTools?: readonly { name?: unknown }[] };
	};
	return (manifest.contributes?.languageModelTools ?? [])
		.map((entry) => entry.name)
		.filter((name): name is string => typeof name === 'string');
}

/** Everything is disposed through context.subscriptions. */
export function deactivate(): void {}
