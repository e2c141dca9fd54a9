// `status --json | head -1`: the reader closes stdout after its first line while the CLI still has records to write;
// the CLI stops there quietly (exit code 141, as a Unix tool stopped by SIGPIPE) instead of an EPIPE stack trace.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'dist/cli.cjs');

/** A JSON List of Deployments whose `status --json` output is some MiB: far more than a pipe holds. */
function bigList() {
	const folder = mkdtempSync(join(tmpdir(), 'ksl-closed-pipe-'));
	const items = Array.from({ length: 4000 }, (_, index) => ({
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: { name: `web-${index}`, namespace: 'default', generation: 1 },
		spec: { replicas: 1 },
		status: {
			observedGeneration: 1,
			replicas: 1,
			updatedReplicas: 1,
			readyReplicas: 1,
			availableReplicas: 1,
		},
	}));
	const file = join(folder, 'list.json');
	writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 4));
	return file;
}

/** Runs the CLI, closes its stdout after the first line, and resolves with the exit code and stderr. */
function runClosingAfterFirstLine(args) {
	return new Promise((resolvePromise, reject) => {
		const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
		let firstLine = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => {
			if (child.stdout.destroyed) return;
			firstLine += chunk.toString('utf8');
			const end = firstLine.indexOf('\n');
			if (end >= 0) {
				firstLine = firstLine.slice(0, end);
				child.stdout.destroy();
			}
		});
		child.stderr.on('data', (chunk) => (stderr += chunk.toString('utf8')));
		child.on('error', reject);
		child.on('close', (code) => resolvePromise({ code, stderr, firstLine }));
	});
}

describe('stdout closed by its reader', () => {
	it('status --json stops quietly when the reader has taken its first line', async () => {
		const { code, stderr, firstLine } = await runClosingAfterFirstLine([
			'status',
			'--json',
			bigList(),
		]);
		assert.equal(firstLine, '[');
		assert.equal(stderr, '');
		assert.equal(code, 141);
	});

	it('the status table stops quietly too', async () => {
		const { code, stderr, firstLine } = await runClosingAfterFirstLine([
			'status',
			'--wide',
			bigList(),
		]);
		assert.match(firstLine, /^KIND\s+NAMESPACE\/NAME/);
		assert.equal(stderr, '');
		assert.equal(code, 141);
	});
});
