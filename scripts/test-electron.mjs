// `npm run test:electron`: the same in-host suites in desktop VS Code via @vscode/test-electron, for machines with
// internet access (it downloads VS Code). This machine cannot, so CI uses code-server instead (scripts/test-vscode.sh).
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const workspace = join(mkdtempSync(join(tmpdir(), 'ksl-electron-')), 'ws');
cpSync(join(root, 'examples/workspace'), workspace, { recursive: true });
await runTests({
	version: '1.139.1',
	extensionDevelopmentPath: root,
	extensionTestsPath: join(root, 'out/test/integration/index.cjs'),
	launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
	extensionTestsEnv: { KSL_SUITE: 'main' },
});
