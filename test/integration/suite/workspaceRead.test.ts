// A read of many files at once parses them in a worker thread (src/files/manifestWorker.ts, bundled beside the
// engine): the tree must hold what parsing on the extension's own thread gives, exact int64 generations included.
import * as assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { parseManifests } from '../../../src/core/manifest/parse.ts';
import { computeStatus } from '../../../src/core/status/registry.ts';
import { objectKeyOf } from '../../../src/core/tree/linking.ts';
import { eventually, extensionApi } from './support.ts';

const repositories = 40;

function helmRepository(index: number): string {
	return `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: many-${index}
  namespace: many-files
  generation: 2
spec:
  interval: 5m0s
  url: https://charts.example.com/${index}
status:
  observedGeneration: ${index % 2 === 0 ? 2 : 1}
  conditions:
  - {type: Ready, status: "True", reason: Succeeded, message: stored artifact, observedGeneration: 2, lastTransitionTime: "2026-11-20T10:00:00Z"}
`;
}

// 2^53 + 1 and 2^53 are one JavaScript number: only the exact values tell that the controller is a generation behind.
const behindYaml = `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata: {name: behind, namespace: many-files, generation: 9007199254740993}
spec: {interval: 5m0s, url: https://charts.example.com/behind}
status:
  observedGeneration: 9007199254740992
  conditions:
  - {type: Ready, status: "True", reason: Succeeded, message: stored artifact, observedGeneration: 9007199254740992, lastTransitionTime: "2026-11-20T10:00:00Z"}
`;

describe('a read of many files', () => {
	it('puts every object of 41 new files into the tree, as this thread would parse them', async () => {
		const api = await extensionApi();
		const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
		assert.ok(workspace);
		const folder = join(workspace, 'many-files');
		// Written beside the workspace and moved in at once: the files arrive in one read, as a checkout or an unpacked
		// archive does, not one by one as the test writes them (which a slow machine would read as many small reads).
		const staging = join(workspace, '..', `many-files-staging-${process.pid}`);
		const emptyFolder = join(workspace, 'nothing-here');
		mkdirSync(staging);
		try {
			for (let index = 0; index < repositories; index++) {
				writeFileSync(join(staging, `repository-${index}.yaml`), helmRepository(index));
			}
			writeFileSync(join(staging, 'behind.yaml'), behindYaml);
			const parsedInWorkerBefore = api.manifests.parsedInWorker;
			renameSync(staging, folder);
			const inFolder = () =>
				api.graph
					.objectsOf('workspace')
					.filter(
						(object) => (object.metadata as { namespace?: unknown })?.namespace === 'many-files',
					);
			await eventually(
				() => `41 objects from the new files (${inFolder().length} so far)`,
				() => inFolder().length === repositories + 1,
			);
			// A folder that brings nothing starts another scan, which reads nothing: the count of the read that brought
			// the files stays (a slow machine's late file events did this, and the count went back to 0).
			await eventually('the scan that brought them to end', () => !api.manifests.scanPending);
			const scansEnded = api.manifests.scansEnded;
			mkdirSync(emptyFolder);
			await eventually(
				'a scan after the empty folder appeared',
				() => api.manifests.scansEnded > scansEnded,
			);
			const parsedInWorker = api.manifests.parsedInWorker - parsedInWorkerBefore;
			assert.ok(
				// All but the first file read, and the one handed back for its exact integers.
				parsedInWorker >= repositories - 1,
				`parsed in a worker thread: ${parsedInWorker}`,
			);
			const texts = [
				...Array.from({ length: repositories }, (_, index) => helmRepository(index)),
				behindYaml,
			];
			for (const text of texts) {
				const parsedHere = parseManifests(text).objects[0]?.object;
				assert.ok(parsedHere);
				const key = objectKeyOf(parsedHere);
				const [id] = api.graph.findNodesForObject('workspace', key);
				assert.ok(id, `${key} has a row`);
				assert.deepEqual(api.graph.objectOf('workspace', key), parsedHere);
				assert.equal(api.graph.node(id)?.result?.message, computeStatus(parsedHere).message, key);
			}
			// Read as plain numbers, the generations would be equal, and the repository ready.
			const behind = parseManifests(behindYaml).objects[0]?.object;
			assert.notEqual(
				computeStatus(behind).message,
				computeStatus(structuredClone(behind)).message,
			);
			// Moved out again at once: its objects leave the tree.
			renameSync(folder, staging);
			await eventually(
				() => `the moved-out folder's objects gone (${inFolder().length} left)`,
				() => inFolder().length === 0,
			);
		} finally {
			rmSync(staging, { recursive: true, force: true });
			rmSync(folder, { recursive: true, force: true });
			rmSync(emptyFolder, { recursive: true, force: true });
		}
	});
});
