import * as vscode from 'vscode';

/** The extension's output channel, created on first use. */
export interface Log extends vscode.Disposable {
	info(message: string): void;
	warn(message: string): void;
	show(): void;
}

/** A lazily created LogOutputChannel named "Kube Status Lens". */
export function createLog(): Log {
	let channel: vscode.LogOutputChannel | undefined;
	const get = (): vscode.LogOutputChannel =>
		(channel ??= vscode.window.createOutputChannel('Kube Status Lens', { log: true }));
	return {
		info: (message) => get().info(message),
		warn: (message) => get().warn(message),
		show: () => get().show(true),
		dispose: () => channel?.dispose(),
	};
}
