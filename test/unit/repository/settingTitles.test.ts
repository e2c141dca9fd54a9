// The Settings editor titles a setting from its key (it cannot be given a title): the last segment's camelCase words,
// split where a lower-case letter or digit meets a capital. A key like `maxFileSizeKiB` reads "Max File Size Ki B".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../../support/conformance.ts';

interface Setting {
	readonly deprecationMessage?: string;
	readonly markdownDeprecationMessage?: string;
	readonly default?: unknown;
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
	contributes: { configuration: { properties: Record<string, Setting> }[] };
};
const settings = manifest.contributes.configuration.flatMap((section) =>
	Object.entries(section.properties),
);

/** The title the Settings editor derives from a key's last segment (VS Code's camelCase split). */
function derivedTitle(key: string): string {
	const last = key.slice(key.lastIndexOf('.') + 1);
	return last
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
		.replace(/^[a-z]/, (letter) => letter.toUpperCase());
}

describe('setting titles in the Settings editor', () => {
	it('splits no key into a stray letter ("Max File Size Ki B")', () => {
		for (const [key, setting] of settings) {
			if (setting.deprecationMessage || setting.markdownDeprecationMessage) continue;
			const title = derivedTitle(key);
			assert.ok(
				title.split(' ').every((word) => word.length > 1),
				`${key} reads "${title}"`,
			);
		}
	});

	it('keeps each renamed key, deprecated, pointing at its new name and without a default of its own', () => {
		const byKey = new Map(settings);
		for (const [oldKey, newKey] of [
			['kubeStatusLens.workspace.maxFileSizeKiB', 'kubeStatusLens.workspace.maxFileSizeKB'],
			['kubeStatusLens.clusters.maxResponseMiB', 'kubeStatusLens.clusters.maxResponseMB'],
		] as const) {
			const old = byKey.get(oldKey);
			assert.ok(old && byKey.has(newKey), `${oldKey} and ${newKey} declared`);
			assert.match(old.markdownDeprecationMessage ?? '', new RegExp(`#${newKey}#`));
			// A default on the old key would hide that the user never set it.
			assert.equal(old.default, undefined);
			assert.equal(derivedTitle(newKey).split(' ').at(-1), newKey.endsWith('KB') ? 'KB' : 'MB');
		}
	});
});
