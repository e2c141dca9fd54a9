// The rollout matrix's state words must be readable: WCAG 2's 4.5:1 for text, in the light and dark themes the
// workbench ships as default (Light Modern and Dark Modern, editor backgrounds #FFFFFF and #1F1F1F). Error and
// warning cells are the editor background's colour on the tone; the others the tone on the editor background.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { repoRoot } from '../../support/conformance.ts';

const css = readFileSync(join(repoRoot, 'src/vscode/matrix/matrixPanel.ts'), 'utf8');

function tonesOf(themeClass: string): Map<string, string> {
	const block = new RegExp(`body\\.${themeClass} \\{([^}]*)\\}`).exec(css)?.[1];
	assert.ok(block, `a palette for body.${themeClass}`);
	return new Map(
		[...block.matchAll(/--tone-(\w+):\s*(#[0-9a-f]{6});/gi)].map((match) => [
			match[1] ?? '',
			match[2] ?? '',
		]),
	);
}

function luminance(hex: string): number {
	const channel = (offset: number): number => {
		const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
		return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
	};
	return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

function contrast(a: string, b: string): number {
	const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
	return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

for (const [themeClass, background] of [
	['vscode-light', '#ffffff'],
	['vscode-dark', '#1f1f1f'],
] as const) {
	it(`gives every state word of the matrix at least 4.5:1 in ${themeClass}`, () => {
		const tones = tonesOf(themeClass);
		assert.deepEqual([...tones.keys()].sort(), [
			'error',
			'ok',
			'progressing',
			'suspended',
			'unknown',
			'warning',
		]);
		for (const [tone, colour] of tones) {
			const ratio = contrast(colour, background);
			assert.ok(ratio >= 4.5, `${tone} ${colour} on ${background}: ${ratio.toFixed(2)}:1`);
		}
	});
}
