import * as vscode from 'vscode';

/** Calls a tool as an assistant would, outside any chat (no invocation token), and reads its text. */
export async function invokeText(name: string, input: object): Promise<string> {
	const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
	return result.content
		.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : ''))
		.join('');
}
