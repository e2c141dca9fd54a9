// Hostile inputs to the bundled CLI, run as a user runs it: every failure ends, says what it is, and fails the exit
// code. Big inputs are generated into a temporary folder; KSL_HOSTILE_LONG=1 runs them at full size.
import { execFileSync, spawnSync } from 'node:child_process';
import {
	closeSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'dist/cli.cjs');
const long = process.env.KSL_HOSTILE_LONG === '1';
const posix = process.platform !== 'win32';
const folder = mkdtempSync(join(tmpdir(), 'ksl-hostile-cli-'));
after(() => rmSync(folder, { recursive: true, force: true }));

// A bounded run: a hang becomes a failed assertion (status null), never a stuck suite.
function run(args, { nodeOptions = [] } = {}) {
	const result = spawnSync(process.execPath, [...nodeOptions, cli, ...args], {
		encoding: 'utf8',
		env: { ...process.env, NO_COLOR: '1', COLUMNS: '' },
		timeout: long ? 900_000 : 60_000,
		maxBuffer: 512 * 1024 * 1024,
	});
	assert.equal(result.signal, null, `the CLI was stopped after ${args.join(' ')}: ${result.error}`);
	return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function file(path, content) {
	const full = join(folder, path);
	mkdirSync(dirname(full), { recursive: true });
	writeFileSync(full, content);
	return full;
}

const configMap = (name) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
const failedRepository = `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata: {name: broken, namespace: flux-system, generation: 1}
spec: {url: https://example.com}
status:
  observedGeneration: 1
  conditions:
  - {type: Ready, status: "False", reason: Failed, message: boom, lastTransitionTime: "2024-01-01T00:00:00Z"}
`;

// With an eighth of the default stack, spreading an array into a call fails at about 15,000 elements: inputs past that
// show the defect in CI at a fraction of the size that crashed with the default stack (about 125,000).
const smallStack = ['--stack-size=120'];

describe(`hostile inputs to kube-status-lens on Node ${process.versions.node}`, () => {
	it(`prints the status table of ${long ? '1,000,000' : '30,000'} objects from one kind: List`, () => {
		const count = long ? 1_000_000 : 30_000;
		const items = [];
		for (let index = 0; index < count; index++) {
			items.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${index}` } });
		}
		const list = file('many/list.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
		const result = run(['status', list, '--max-file-size', '1G'], {
			nodeOptions: long ? [] : smallStack,
		});
		assert.equal(result.stderr, '');
		assert.equal(result.code, 0);
		assert.match(result.stdout, new RegExp(`\\bcm-${count - 1}\\b`));
		const lines = result.stdout.trimEnd().split('\n');
		// The header, a row per object, then a blank line and the summary.
		assert.equal(lines.length, count + 4);
		assert.deepEqual(lines.slice(-2), [
			`${count} objects: ${count} ok`,
			'states set the exit code only with --fail-on error|warning: exit 0',
		]);
	});

	it(
		'writes --json output longer than the longest string (KSL_HOSTILE_LONG=1)',
		{ skip: !long },
		() => {
			const count = 1_200_000;
			const items = [];
			for (let index = 0; index < count; index++) {
				items.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${index}` } });
			}
			const list = file(
				'json/list.json',
				JSON.stringify({ apiVersion: 'v1', kind: 'List', items }),
			);
			const output = join(folder, 'json', 'out.json');
			const descriptor = openSync(output, 'w');
			const result = spawnSync(
				process.execPath,
				[cli, 'status', '--json', list, '--max-file-size', '1G'],
				{ stdio: ['ignore', descriptor, 'pipe'], encoding: 'utf8', timeout: 900_000 },
			);
			closeSync(descriptor);
			assert.equal(result.stderr, '');
			assert.equal(result.status, 0);
			const size = statSync(output).size;
			assert.ok(size > 2 ** 29, `${size} bytes`);
			const tail = Buffer.alloc(200);
			const reader = openSync(output, 'r');
			readSync(reader, tail, 0, 200, size - 200);
			closeSync(reader);
			assert.match(tail.toString(), new RegExp(`"line": 1\\n    \\}\\n  \\}\\n\\]\\n$`));
		},
	);

	it(`checks one object with ${long ? 'about 135,000' : 'about 24,000'} findings`, () => {
		const conditions = long ? 45_000 : 8_000;
		const lines = [
			'apiVersion: source.toolkit.fluxcd.io/v1',
			'kind: HelmRepository',
			'metadata: {name: many, namespace: default}',
			'spec: {url: https://example.com}',
			'status:',
			'  conditions:',
		];
		// Each Ready condition has no reason and no lastTransitionTime; all but the first repeat the type.
		for (let index = 0; index < conditions; index++) {
			lines.push('  - {type: Ready, status: "True"}');
		}
		const path = file('findings/many.yaml', `${lines.join('\n')}\n`);
		const result = run(['check', path], { nodeOptions: long ? [] : smallStack });
		assert.equal(result.stderr, '');
		assert.equal(result.code, 0);
		assert.match(result.stdout, new RegExp(`0 errors, ${conditions * 3 - 1} warnings`));
	});

	it('prints at most 2,000 characters of one message in the table, even with --wide; --json keeps it whole', () => {
		const message = 'm'.repeat(1_000_000);
		const big = file(
			'big/ready.json',
			JSON.stringify({
				apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
				kind: 'Kustomization',
				metadata: { name: 'big', namespace: 'flux-system' },
				status: {
					conditions: [{ type: 'Ready', status: 'False', reason: 'BuildFailed', message }],
				},
			}),
		);
		for (const flags of [[], ['--wide']]) {
			const result = run(['status', ...flags, big]);
			assert.equal(result.code, 0);
			assert.ok(
				result.stdout.length < 10_000,
				`${flags.join(' ')}: ${result.stdout.length} characters`,
			);
			assert.match(result.stdout, /… \(998,000 more characters: --json prints it whole\)/);
		}
		const json = run(['status', '--json', big]);
		assert.equal(JSON.parse(json.stdout)[0].message.length, 1_000_000);
	});

	it('reads a UTF-16 file with a byte-order mark (PowerShell) and gates on what it holds', () => {
		const text = `${configMap('from-powershell')}---\n${failedRepository}`;
		const path = file(
			'encodings/utf16.yaml',
			Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
		);
		const result = run(['status', path, '--fail-on', 'error']);
		assert.match(result.stdout, /from-powershell/);
		assert.match(result.stdout, /flux-system\/broken +Failed/);
		assert.equal(result.code, 1);
	});

	it('says why a binary or wrongly encoded file is not read, and fails with exit code 2', () => {
		file(
			'binary/image.yaml',
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
		);
		file('binary/latin1.yaml', Buffer.from('name: caf\xe9\n', 'latin1'));
		const good = file('binary/good.yaml', configMap('still-read'));
		for (const command of ['status', 'check']) {
			const result = run([command, dirname(good)]);
			assert.equal(result.code, 2, `${command}: ${result.stdout}`);
			assert.match(
				result.stderr,
				/image\.yaml: cannot read: binary data, not UTF-8 text \(a NUL byte at offset 8\)/,
			);
			assert.match(
				result.stderr,
				/latin1\.yaml: cannot read: not UTF-8 text: byte 0xe9 at offset 9/,
			);
			if (command === 'status') assert.match(result.stdout, /still-read/);
		}
	});

	it('does not read a file over --max-file-size, names the limit and how to raise it', () => {
		const path = file(
			'big/big.yaml',
			`${configMap('big')}data:\n  blob: "${'x'.repeat(300 * 1024)}"\n`,
		);
		const refused = run(['status', path, '--max-file-size', '256K']);
		assert.equal(refused.code, 2);
		assert.match(
			refused.stderr,
			/big\.yaml: cannot read: 300\.\d KiB is over the limit of 256 KiB per file read whole \(raise it with --max-file-size 1M\)/,
		);
		const raised = run(['status', path, '--max-file-size', '1M']);
		assert.equal(raised.code, 0);
		assert.match(raised.stdout, /\bbig\b/);
		const wrong = run(['check', path, '--max-file-size', 'lots']);
		assert.equal(wrong.code, 2);
		assert.match(wrong.stderr, /--max-file-size takes a size such as 128M/);
	});

	it('reads a List as kubectl get -o json writes it whatever --max-file-size says, a window at a time up to --max-buffer', () => {
		const bundleDeployment = (index, note) => ({
			apiVersion: 'fleet.cattle.io/v1alpha1',
			kind: 'BundleDeployment',
			metadata: { name: `bd-${index}`, namespace: 'cluster-ns', annotations: { note } },
			spec: { deploymentID: 'd1' },
			status: { appliedDeploymentID: 'd1', ready: true, nonModified: true },
		});
		const list = (items) =>
			`${JSON.stringify({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } }, null, 4)}\n`;
		// 3,000 objects of 1 KiB each: 3 MiB or more, against a limit of 256 KiB on files read whole.
		const many = Array.from({ length: 3000 }, (_, index) =>
			bundleDeployment(index, 'n'.repeat(1024)),
		);
		const path = file('windows/fleet.json', list(many));
		const read = run(['status', '--json', path, '--max-file-size', '256K']);
		assert.equal(read.stderr, '');
		const records = JSON.parse(read.stdout);
		assert.equal(records.length, 3000);
		assert.equal(records[2999].name, 'bd-2999');
		const itemLines = list(many)
			.split('\n')
			.flatMap((text, index) => (text === '        {' ? [index + 1] : []));
		assert.equal(records[2999].source.line, itemLines[2999]);
		// One object larger than what may be held at once: named, with both flags.
		const big = file(
			'windows/big.json',
			list([
				bundleDeployment(0, 'a'),
				bundleDeployment(1, 'b'.repeat(300 * 1024)),
				bundleDeployment(2, 'c'),
			]),
		);
		const refused = run([
			'status',
			'--json',
			big,
			'--max-file-size',
			'64K',
			'--max-buffer',
			'128K',
		]);
		assert.equal(refused.code, 2);
		assert.match(
			refused.stderr,
			/big\.json: cannot read: 30\d\.\d KiB is over the limit of 64 KiB per file read whole \(raise it with --max-file-size 1M\); one object of it needs more than the 128 KiB held at once when a List is read a piece at a time \(raise it with --max-buffer 1M\)/,
		);
		const raised = run(['status', '--json', big, '--max-file-size', '64K', '--max-buffer', '1M']);
		assert.equal(raised.code, 0, raised.stderr);
		assert.deepEqual(
			JSON.parse(raised.stdout).map((record) => record.name),
			['bd-0', 'bd-1', 'bd-2'],
		);
	});

	it(
		'reports a named pipe called *.yaml instead of waiting for it, in status, check and merge',
		{ skip: !posix },
		() => {
			const good = file('fifo/good.yaml', configMap('beside-the-pipe'));
			execFileSync('mkfifo', [join(folder, 'fifo', 'pipe.yaml')]);
			for (const command of ['status', 'check', 'merge']) {
				const result = run([command, dirname(good)]);
				assert.equal(result.code, 2, command);
				assert.match(result.stderr, /pipe\.yaml: cannot read: a named pipe, not a regular file/);
			}
			assert.match(run(['status', dirname(good)]).stdout, /beside-the-pipe/);
		},
	);

	it(
		'visits a folder once through links to itself, and refuses a link to a device',
		{ skip: !posix },
		() => {
			const loops = join(folder, 'loops');
			file('loops/one.yaml', configMap('only-once'));
			symlinkSync('.', join(loops, 'again'));
			symlinkSync('.', join(loops, 'and-again'));
			const result = run(['status', '--json', loops]);
			assert.equal(result.stderr, '');
			assert.equal(result.code, 0);
			assert.deepEqual(
				JSON.parse(result.stdout).map((record) => record.name),
				['only-once'],
			);
			if (existsSync('/dev/zero')) {
				symlinkSync('/dev/zero', join(loops, 'zero.yaml'));
				const zero = run(['status', loops]);
				assert.equal(zero.code, 2);
				assert.match(
					zero.stderr,
					/zero\.yaml: cannot read: a character device, not a regular file/,
				);
			}
		},
	);
});
