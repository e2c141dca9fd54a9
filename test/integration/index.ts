// The in-host test entry: VS Code's extension host requires this file and awaits run(). Suites are bundled in and
// loaded after mocha has defined describe/it, so they can use the BDD globals.
import Mocha from 'mocha';

/** Runs every suite bundled into this file; rejects when a test fails. */
export async function run(): Promise<void> {
	const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
	mocha.suite.emit('pre-require', globalThis, 'bundle', mocha);
	const grep = process.env.KSL_TEST_GREP;
	if (grep) mocha.grep(grep);
	if (process.env.KSL_SUITE === 'multiroot') await import('./suite/multiroot.test.ts');
	else if (process.env.KSL_SUITE === 'live') {
		await import('./suite/live.test.ts');
		await import('./suite/appliedRowsLive.test.ts');
		await import('./suite/matrixLive.test.ts');
		await import('./suite/lmToolsLive.test.ts');
	} else {
		await import('./suite/activation.test.ts');
		await import('./suite/tree.test.ts');
		await import('./suite/appliedRows.test.ts');
		await import('./suite/matrix.test.ts');
		await import('./suite/listing.test.ts');
		await import('./suite/workspaceRead.test.ts');
		await import('./suite/merge.test.ts');
		await import('./suite/editor.test.ts');
		await import('./suite/timelineNotify.test.ts');
		await import('./suite/waitingRows.test.ts');
		await import('./suite/lmTools.test.ts');
		// Last: it adds roots the suites before it do not expect.
		await import('./suite/fleetDump.test.ts');
	}
	await new Promise<void>((resolve, reject) => {
		mocha.run((failures) =>
			failures ? reject(new Error(`${failures} test(s) failed`)) : resolve(),
		);
	});
}
