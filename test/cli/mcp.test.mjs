// `kube-status-lens mcp` as an assistant's client runs it: the bundled CLI spawned over stdio by the SDK's own
// client, on whichever Node runs this file (CI runs it on Node 24 and Node 20). On Node 22 and later a context call
// reads the demo cluster (the project's local API server); on Node 20 it answers that contexts need Node 22.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'dist/cli.cjs');
const nodeMajor = Number(process.versions.node.split('.')[0]);

/** An MCP client connected to `node dist/cli.cjs mcp ARGS...`, with these environment variables. */
async function connect(args, env = {}) {
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [cli, 'mcp', ...args],
		cwd: root,
		env: { ...process.env, KUBECONFIG: join(tmpdir(), 'no-such-kubeconfig'), ...env },
		stderr: 'pipe',
	});
	const client = new Client({ name: 'kube-status-lens-test', version: '0.0.0' });
	await client.connect(transport);
	return client;
}

function textOf(result) {
	assert.equal(result.content.length, 1);
	assert.equal(result.content[0].type, 'text');
	return result.content[0].text;
}

describe(`kube-status-lens mcp on the example workspace, Node ${process.versions.node}`, () => {
	let client;
	before(async () => {
		client = await connect(['examples/workspace']);
	});
	after(async () => {
		await client?.close();
	});

	it('lists the five tools, read-only, with closed input schemas', async () => {
		const { tools } = await client.listTools();
		assert.deepEqual(
			tools.map((tool) => tool.name),
			[
				'list_kube_status_problems',
				'explain_kube_status',
				'preview_wec_status_merge',
				'run_fleet_checks',
				'explain_kube_placement',
			],
		);
		for (const tool of tools) {
			assert.equal(tool.inputSchema.additionalProperties, false);
			assert.equal(tool.annotations?.readOnlyHint, true);
		}
	});

	it('lists what is not ready, with the age of the data', async () => {
		const text = textOf(
			await client.callTool({ name: 'list_kube_status_problems', arguments: {} }),
		);
		assert.match(text, /^\d+ objects need attention in examples\/workspace: \d+ errors/);
		assert.match(text, /^Data: examples\/workspace read \d+ (s|min) ago\.$/m);
		assert.match(text, /GitRepo fleet-default\/shop — ErrApplied \(error\)/);
	});

	it("explains GitRepo shop down to the failing Deployment, in the example's own words", async () => {
		const text = textOf(
			await client.callTool({
				name: 'explain_kube_status',
				arguments: { kind: 'GitRepo', name: 'shop' },
			}),
		);
		assert.match(
			text,
			/^GitRepo fleet-default\/shop is ErrApplied \(error\); the root cause is Deployment shop\/frontend/,
		);
		assert.match(
			text,
			/BundleDeployment cluster-fleet-default-prod-us-1-04523fc383a2\/shop-frontend on prod-us-1/,
		);
		assert.match(text, /must be less than or equal to cpu limit of 2/);
	});

	it('returns the candidates for an ambiguous name', async () => {
		const text = textOf(
			await client.callTool({ name: 'explain_kube_status', arguments: { name: 'shop-frontend' } }),
		);
		assert.match(
			text,
			/^\d+ objects are named "shop-frontend": ask again with kind, namespace, context or path/,
		);
		assert.match(text, /^- Bundle fleet-default\/shop-frontend in examples\/workspace/m);
	});

	it("previews a multi-WEC merge and runs Fleet's checks", async () => {
		const merge = textOf(
			await client.callTool({ name: 'preview_wec_status_merge', arguments: { name: 'nginx' } }),
		);
		assert.match(merge, /^Deployment nginx\/nginx: the merged status from its WECs, mode multi/);
		const checks = textOf(
			await client.callTool({
				name: 'run_fleet_checks',
				arguments: { path: 'examples/workspace' },
			}),
		);
		assert.match(checks, /^- error fleet-stuck-bundle-deployments: BundleDeployment /m);
	});

	it('answers bad input with isError', async () => {
		const missing = await client.callTool({ name: 'explain_kube_status', arguments: {} });
		assert.equal(missing.isError, true);
		assert.match(textOf(missing), /explain_kube_status needs name/);
		const wrongType = await client.callTool({
			name: 'explain_kube_status',
			arguments: { name: 7 },
		});
		assert.equal(wrongType.isError, true);
		assert.match(textOf(wrongType), /name must be a string/);
	});
});

describe(`kube-status-lens mcp on a kube context, Node ${process.versions.node}`, () => {
	if (nodeMajor < 22) {
		it('says contexts need Node 22, while paths still work', async () => {
			const client = await connect(['examples/workspace']);
			try {
				const answer = await client.callTool({
					name: 'explain_kube_status',
					arguments: { kind: 'GitRepo', name: 'shop', context: 'fleet-mgmt' },
				});
				assert.equal(answer.isError, true);
				assert.equal(
					textOf(answer),
					`Contexts need Node 22 or later (this is Node ${process.versions.node}); paths still work.`,
				);
				const paths = await client.callTool({
					name: 'explain_kube_status',
					arguments: { kind: 'GitRepo', name: 'shop', path: 'examples/workspace' },
				});
				assert.match(textOf(paths), /^GitRepo fleet-default\/shop is ErrApplied/);
			} finally {
				await client.close();
			}
		});
		return;
	}

	let demo;
	let folder;
	let kubeconfig;
	before(async () => {
		folder = mkdtempSync(join(tmpdir(), 'ksl-mcp-'));
		kubeconfig = join(folder, 'kubeconfig');
		demo = spawn(
			process.execPath,
			['src/apiserver/main.ts', '--port', '0', '--kubeconfig', kubeconfig, '--speed', '2'],
			{ cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
		);
		// The demo's story: prod-us-1 rejects the frontend's upgrade (ErrApplied) 7.5 s into a round at speed 2, and
		// stays so until the round ends at 22.5 s. The demo prints each step as it plays.
		await new Promise((resolveReady, rejectReady) => {
			let output = '';
			demo.stdout.on('data', (chunk) => {
				output += chunk;
				if (
					output.includes('fleet-mgmt: staging-1 is ready; prod-us-1 rejects the frontend upgrade')
				) {
					resolveReady();
				}
			});
			demo.once('exit', (code) =>
				rejectReady(new Error(`the demo exited with ${code}: ${output}`)),
			);
		});
	});
	after(() => {
		demo?.kill();
		if (folder) rmSync(folder, { recursive: true, force: true });
	});

	it(
		'explains GitRepo shop on the demo cluster down to the failing resource on its cluster',
		{ timeout: 90_000 },
		async () => {
			const client = await connect([], { KUBECONFIG: kubeconfig });
			try {
				// The rejection lasts 15 s of each 22.5 s round: on a loaded machine the first answer can come after the
				// round reset it, so it asks again until an answer falls within a rejection (every round has one).
				let answer;
				let text = '';
				const until = Date.now() + 60_000;
				do {
					answer = await client.callTool({
						name: 'explain_kube_status',
						arguments: { kind: 'GitRepo', name: 'shop', context: 'fleet-mgmt' },
					});
					text = textOf(answer);
				} while (
					!/ is ErrApplied \(error\); .*frontend, failed to apply/.test(text) &&
					Date.now() < until
				);
				assert.equal(answer.isError, undefined);
				assert.match(
					text,
					/^GitRepo fleet-default\/shop is ErrApplied \(error\); the root cause is Deployment shop\/frontend, failed to apply \(context fleet-mgmt\)\.$/m,
				);
				assert.match(text, /^Data: context fleet-mgmt read \d+ (s|min) ago\.$/m);
				assert.match(
					text,
					/^3\. BundleDeployment cluster-fleet-default-prod-us-1-04523fc383a2\/shop-frontend on prod-us-1: ErrApplied \(error\)$/m,
				);
				// The GitRepo's Events, read from the cluster as Explain reads them.
				assert.match(
					text,
					/^Recent events, newest first:\n(- .*\n)*- \S+ Normal GotNewCommit — message: "7a3c9e1f5b2d8a4c6e0f1b3d5a7c9e2f4b6d8a0c"$/m,
				);
				// The demo's own words for the rejected upgrade.
				assert.match(
					text,
					/message: "failed to upgrade \\"shop-frontend\\": cannot patch \\"frontend\\" with kind Deployment: .*must be less than or equal to cpu limit of 2"$/m,
				);
			} finally {
				await client.close();
			}
		},
	);

	it(
		'merges a live WDS workload from the WECs of the ITS paired with --kubestellar-pair, as the editor does',
		{ timeout: 90_000 },
		async () => {
			const mergeOf = async (client) =>
				textOf(
					await client.callTool({
						name: 'preview_wec_status_merge',
						arguments: { kind: 'Deployment', name: 'nginx', context: 'kubestellar-wds' },
					}),
				);
			const unpaired = await connect([], { KUBECONFIG: kubeconfig });
			try {
				// The demo's WDS context is not named wds1, so nothing ties the ITS to it.
				assert.match(await mergeOf(unpaired), /mode cleared/);
			} finally {
				await unpaired.close();
			}
			const paired = await connect(
				['--kubestellar-pair', 'wds=kubestellar-wds,its=kubestellar-its,wdsName=wds1'],
				{ KUBECONFIG: kubeconfig },
			);
			try {
				const text = await mergeOf(paired);
				assert.match(
					text,
					/^Deployment nginx\/nginx: the merged status from its WECs, mode multi/m,
				);
				assert.match(text, /cluster1/);
				assert.match(text, /cluster3/);
			} finally {
				await paired.close();
			}
		},
	);

	it(
		"runs README's recipe as written: its command, the pinned Node 24, reads a context whatever Node is on PATH",
		{ timeout: 90_000 },
		async () => {
			const readme = readFileSync(join(root, 'README.md'), 'utf8');
			const block = /## Use it from an assistant \(MCP\)[\s\S]*?```json\n([\s\S]*?)```/.exec(
				readme,
			)?.[1];
			assert.ok(block, "README's MCP recipe");
			const entry = JSON.parse(block).mcpServers['kube-status-lens'];
			const mine = (text) =>
				text
					.replace('/path/to/kube-status-lens', root)
					.replace('/path/to/manifests', join(root, 'examples/workspace/fleet'));
			const args = entry.args.map(mine);
			// The recipe's context and pair are placeholders: the demo's names stand in for them.
			args[args.indexOf('prod')] = 'fleet-mgmt';
			args[args.indexOf('wds=wds1,its=its1')] =
				'wds=kubestellar-wds,its=kubestellar-its,wdsName=wds1';
			const transport = new StdioClientTransport({
				command: mine(entry.command),
				args,
				env: { ...process.env, KUBECONFIG: kubeconfig },
				stderr: 'pipe',
			});
			const client = new Client({ name: 'kube-status-lens-test', version: '0.0.0' });
			await client.connect(transport);
			try {
				const answer = textOf(
					await client.callTool({
						name: 'explain_kube_status',
						arguments: { kind: 'Cluster', name: 'prod-us-1', context: 'fleet-mgmt' },
					}),
				);
				assert.match(answer, /^Cluster fleet-default\/prod-us-1 is /m);
				assert.match(answer, /context fleet-mgmt/);
			} finally {
				await client.close();
			}
		},
	);
});
