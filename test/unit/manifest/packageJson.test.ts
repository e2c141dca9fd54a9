// The extension manifest and the code agree: every contributed command is registered (by registerCommand, or the
// live commands' `mutation` helper), every registered command is contributed, and the settings the code reads are exactly the ones package.json declares.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../../support/conformance.ts';

interface Manifest {
	readonly contributes: {
		readonly commands: readonly { command: string; title: string; category: string }[];
		readonly configuration: readonly {
			title: string;
			properties: Record<string, { scope?: string }>;
		}[];
		readonly menus: Record<string, readonly { command: string; when?: string }[]>;
	};
	readonly activationEvents: readonly string[];
	readonly engines: { vscode: string };
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
	});
}

const vscodeSources = sources(join(repoRoot, 'src/vscode')).map((path) =>
	readFileSync(path, 'utf8'),
);
const registered = new Set(
	vscodeSources.flatMap((text) =>
		[...text.matchAll(/(?:registerCommand|mutation)\(\s*'([^']+)'/g)].map(
			(match) => match[1] ?? '',
		),
	),
);

describe('package.json', () => {
	it('contributes exactly the commands the extension registers', () => {
		const contributed = new Set(manifest.contributes.commands.map((entry) => entry.command));
		assert.deepEqual([...contributed].sort(), [...registered].sort());
	});

	it('offers a row "Notify When It Turns Red" or "Stop Notifying", by whether that row is pinned', () => {
		const rowPattern = (command: string): RegExp => {
			const entry = (manifest.contributes.menus['view/item/context'] ?? []).find(
				(candidate) => candidate.command === command,
			);
			const source = /viewItem =~ \/(.*?)\/(?: |$)/.exec(entry?.when ?? '')?.[1];
			assert.ok(source, `${command} has a viewItem pattern`);
			return new RegExp(source);
		};
		const pin = rowPattern('kubeStatusLens.notify.pin');
		const unpin = rowPattern('kubeStatusLens.notify.unpin');
		const plain = 'kubeStatusLens:live:flux:HelmRepository:Failed:problem';
		const pinned = `${plain}:pinned`;
		assert.deepEqual([pin.test(plain), unpin.test(plain)], [true, false]);
		assert.deepEqual([pin.test(pinned), unpin.test(pinned)], [false, true]);
	});

	it('puts every command under the Kube Status Lens category', () => {
		for (const entry of manifest.contributes.commands) {
			assert.equal(entry.category, 'Kube Status Lens', entry.command);
		}
	});

	it('menus name only contributed commands', () => {
		const contributed = new Set(manifest.contributes.commands.map((entry) => entry.command));
		for (const [menu, entries] of Object.entries(manifest.contributes.menus)) {
			for (const entry of entries) {
				assert.ok(contributed.has(entry.command), `${menu}: ${entry.command}`);
			}
		}
	});

	it('declares exactly the settings the code reads', () => {
		const declared = manifest.contributes.configuration
			.flatMap((section) => Object.keys(section.properties))
			.sort();
		const settingsSource = readFileSync(join(repoRoot, 'src/vscode/settings.ts'), 'utf8');
		const block = settingsSource.slice(
			settingsSource.indexOf('settingKeys'),
			settingsSource.indexOf('] as const'),
		);
		const read = [...block.matchAll(/'(kubeStatusLens\.[^']+)'/g)]
			.map((match) => match[1] ?? '')
			.sort();
		assert.deepEqual(read, declared);
	});

	it('lets no workspace choose the kubeconfig, the contexts or the namespaces (machine scope)', () => {
		const scopes = Object.fromEntries(
			manifest.contributes.configuration
				.flatMap((section) => Object.entries(section.properties))
				.map(([key, value]) => [key, value.scope]),
		);
		for (const key of ['kubeconfig', 'contexts', 'namespaces']) {
			assert.equal(scopes[`kubeStatusLens.clusters.${key}`], 'machine', key);
		}
	});

	it('activates lazily: on YAML only, never on startup', () => {
		assert.deepEqual(manifest.activationEvents, ['onLanguage:yaml']);
	});

	it('accepts the VS Code the tests run on (1.139.1)', () => {
		assert.equal(manifest.engines.vscode, '^1.138.0');
	});
});
