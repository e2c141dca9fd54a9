// README's form, `npm run cli -- …` (scripts/cli.sh): answers from the built bundles without building them again when
// no source is newer, and reads relative paths from the folder the user typed the command in.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bundle = join(root, 'dist/cli.cjs');

describe('npm run cli', () => {
	it("leaves fresh bundles alone and reads paths from the caller's folder", (t) => {
		const built = statSync(bundle).mtimeMs;
		const stale = execFileSync(
			'find',
			[
				'src',
				'esbuild.mjs',
				'package.json',
				'package-lock.json',
				'-newer',
				bundle,
				'-print',
				'-quit',
			],
			{ cwd: root, encoding: 'utf8' },
		).trim();
		if (stale !== '') {
			t.skip(`dist/cli.cjs is older than ${stale}: a build would race the other CLI tests`);
			return;
		}
		const output = execFileSync('bash', [join(root, 'scripts/cli.sh'), 'status', 'fleet'], {
			cwd: join(root, 'examples/workspace'),
			env: { ...process.env, INIT_CWD: join(root, 'examples/workspace') },
			encoding: 'utf8',
		});
		assert.match(output, /GitRepo/, output);
		assert.equal(statSync(bundle).mtimeMs, built, 'the bundle was built again');
	});
});
