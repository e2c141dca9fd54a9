import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { liveActions } from '../../../src/core/actions/liveActions.ts';

interface MenuEntry {
	readonly command: string;
	readonly when?: string;
	readonly group?: string;
}

const manifest = JSON.parse(
	readFileSync(
		join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'package.json'),
		'utf8',
	),
) as {
	contributes: {
		commands: { command: string; icon?: string }[];
		menus: Record<string, MenuEntry[]>;
	};
};
const menus = manifest.contributes.menus;
const commands = Object.keys(liveActions).map((id) => `kubeStatusLens.${id}`);

describe('the live actions in the menus', () => {
	it('are in the command palette while a live context is open', () => {
		for (const command of commands) {
			const entry = menus.commandPalette?.find((item) => item.command === command);
			assert.equal(entry?.when, 'kubeStatusLens.liveContexts', command);
		}
	});

	it('have an inline button with an icon for the main action of each kind of row', () => {
		for (const command of [
			'kubeStatusLens.flux.reconcile',
			'kubeStatusLens.flux.resume',
			'kubeStatusLens.fleet.forceUpdate',
		]) {
			const inline = menus['view/item/context']?.find(
				(item) => item.command === command && item.group?.startsWith('inline') === true,
			);
			assert.ok(inline, `${command} has an inline button`);
			assert.match(inline.when ?? '', /viewItem =~ \/\^kubeStatusLens:live:/);
			const declared = manifest.contributes.commands.find((item) => item.command === command);
			assert.match(declared?.icon ?? '', /^\$\([a-z-]+\)$/, `${command} has an icon`);
		}
	});
});
