import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { workspaceReadSummary } from '../../../../src/core/text/readSummary.ts';

describe('the log line that ends a workspace read', () => {
	it('counts objects as the root does, and says why the files hold more', () => {
		const line = workspaceReadSummary({
			files: 15,
			objectsInFiles: 82,
			distinctObjects: 42,
			elapsedMs: 120,
		});
		assert.match(
			line,
			/^Read 15 workspace files in 120 ms: 42 objects in the tree \(82 in the files/,
		);
		assert.match(line, /counts once\)\.$/);
	});

	it('says the count once when every object is in one file', () => {
		assert.equal(
			workspaceReadSummary({ files: 1, objectsInFiles: 1, distinctObjects: 1, elapsedMs: 3 }),
			'Read 1 workspace file in 3 ms: 1 object.',
		);
	});
});
