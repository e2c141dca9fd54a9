// The engine as tools for assistants (VS Code's language model tools and the MCP server): five read-only tools over
// the resource graph, each answering with a one-line summary first, bounded, saying how old its data is, in the
// words of Explain. Pure: the caller gives the graph, its roots and the clock.
import { assistantTools, type AssistantToolName } from './definitions.ts';
import { explainAnswer } from './explainAnswer.ts';
import { fleetChecksAnswer, listAnswer, mergeAnswer } from './otherAnswers.ts';
import { placementAnswer } from './placementAnswer.ts';
import type { AssistantAnswer, AssistantWorld, ToolInput } from './world.ts';

export { assistantTools };
export type { AssistantAnswer, AssistantRoot, AssistantWorld } from './world.ts';

const inputKeys = ['kind', 'namespace', 'name', 'context', 'path', 'cluster'] as const;

function checkedInput(
	tool: AssistantToolName,
	input: unknown,
): { input: ToolInput } | { error: string } {
	const definition = assistantTools.find((candidate) => candidate.name === tool);
	const allowed = Object.keys(definition?.inputSchema.properties ?? {});
	if (input === undefined || input === null) input = {};
	if (typeof input !== 'object' || Array.isArray(input)) {
		return { error: `The input of ${tool} is an object with ${allowed.join(', ')}.` };
	}
	const record = input as Record<string, unknown>;
	const values: Record<string, string> = {};
	for (const [key, value] of Object.entries(record)) {
		if (!allowed.includes(key)) {
			return {
				error: `${tool} takes no ${JSON.stringify(key.slice(0, 60))}: its inputs are ${allowed.join(', ')}.`,
			};
		}
		if (value === undefined || value === null) continue;
		if (typeof value !== 'string') {
			return {
				error: `${tool}: ${key} must be a string, not ${Array.isArray(value) ? 'an array' : typeof value}.`,
			};
		}
		if (value.trim() === '' && key !== 'namespace') continue;
		values[key] = value;
	}
	for (const key of definition?.inputSchema.required ?? []) {
		if (values[key] === undefined) return { error: `${tool} needs ${key}.` };
	}
	if (values.context !== undefined && values.path !== undefined) {
		return { error: `${tool}: give context or path, not both.` };
	}
	const checked: { -readonly [K in keyof ToolInput]: ToolInput[K] } = {};
	for (const key of inputKeys) if (values[key] !== undefined) checked[key] = values[key];
	return { input: checked };
}

/**
 * Runs one tool on a world: the answer as text, `isError` when the input was wrong (an unknown tool, a missing name,
 * a wrong type, a context or path that is not open). Never throws.
 */
export function runAssistantTool(
	name: string,
	input: unknown,
	world: AssistantWorld,
): AssistantAnswer {
	const tool = assistantTools.find((candidate) => candidate.name === name)?.name;
	if (tool === undefined) {
		return {
			text: `There is no tool ${JSON.stringify(String(name).slice(0, 80))}. The tools are ${assistantTools.map((candidate) => candidate.name).join(', ')}.`,
			isError: true,
		};
	}
	const checked = checkedInput(tool, input);
	if ('error' in checked) return { text: checked.error, isError: true };
	try {
		switch (tool) {
			case 'list_kube_status_problems':
				return listAnswer(world, checked.input);
			case 'explain_kube_status':
				return explainAnswer(world, checked.input);
			case 'preview_wec_status_merge':
				return mergeAnswer(world, checked.input);
			case 'run_fleet_checks':
				return fleetChecksAnswer(world, checked.input);
			case 'explain_kube_placement':
				return placementAnswer(world, checked.input);
		}
	} catch (error) {
		// A rule that throws on an unforeseen shape must not take the server or the chat down.
		return {
			text: `${tool} failed: ${error instanceof Error ? error.message.slice(0, 300) : 'unknown error'}.`,
			isError: true,
		};
	}
}
