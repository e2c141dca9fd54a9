// The first run shows the extension: a walkthrough on the Welcome page points at the view, with pictures the .vsix
// ships and links only to commands the extension contributes or views it declares.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../../support/conformance.ts';

interface Step {
	readonly id: string;
	readonly description: string;
	readonly media: { readonly image: string; readonly altText: string };
	readonly completionEvents?: readonly string[];
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
	contributes: {
		walkthroughs?: readonly { id: string; steps: readonly Step[] }[];
		commands: readonly { command: string }[];
		views: Record<string, readonly { id: string }[]>;
		viewsContainers: Record<string, readonly { id: string }[]>;
	};
};

describe('the walkthrough', () => {
	const walkthrough = manifest.contributes.walkthroughs?.[0];

	it('starts by opening the Kube Status Lens view', () => {
		assert.ok(walkthrough, 'a walkthrough is contributed');
		const first = walkthrough.steps[0];
		assert.match(
			first?.description ?? '',
			/\(command:workbench\.view\.extension\.kubeStatusLens\)/,
		);
		assert.deepEqual(first?.completionEvents, ['onView:kubeStatusLens.resources']);
	});

	it('links only to contributed commands and declared views, and shows pictures that are shipped', () => {
		const commands = new Set(manifest.contributes.commands.map((entry) => entry.command));
		const views = Object.values(manifest.contributes.views).flatMap((list) =>
			list.map((view) => view.id),
		);
		const containers = Object.values(manifest.contributes.viewsContainers).flatMap((list) =>
			list.map((container) => container.id),
		);
		for (const step of walkthrough?.steps ?? []) {
			for (const [, command] of step.description.matchAll(/\(command:([\w.]+)\)/g)) {
				const known =
					commands.has(command ?? '') ||
					views.some((view) => command === `${view}.focus`) ||
					containers.some((container) => command === `workbench.view.extension.${container}`);
				assert.ok(known, `${step.id}: ${command}`);
			}
			assert.ok(existsSync(join(repoRoot, step.media.image)), step.media.image);
			assert.match(step.media.image, /^(docs|media)\//, 'in a folder the .vsix ships');
			assert.ok(step.media.altText.length > 10);
		}
	});
});
