// `check --format sarif` from the bundled CLI, as a code-scanning upload reads it: the shape SARIF 2.1.0 asks for, each
// rule's documentation, the tool's version, and no path of the machine that ran it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { multitoolMissing, sarifProblems } from './sarifMultitool.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'dist/cli.cjs');
const folder = mkdtempSync(join(tmpdir(), 'ksl-sarif-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const diagnosticsDoc = readFileSync(join(root, 'docs/diagnostics.md'), 'utf8');

const badRepository = `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: podinfo
  namespace: flux-system
spec:
  interval: 1d
  url: https://stefanprodan.github.io/podinfo
`;

function write(path, text) {
	const full = join(folder, path);
	mkdirSync(dirname(full), { recursive: true });
	writeFileSync(full, text);
	return full;
}

/** `check --format sarif` run in `cwd`: the exit code, the parsed log and its text. */
function sarifOf(cwd, ...paths) {
	const result = spawnSync(process.execPath, [cli, 'check', '--format', 'sarif', ...paths], {
		encoding: 'utf8',
		cwd,
		env: { ...process.env, NO_COLOR: '1' },
	});
	return { code: result.status, text: result.stdout, log: JSON.parse(result.stdout) };
}

const isAbsoluteUri = (text) => /^[a-z][a-z0-9+.-]*:\S+$/i.test(text);

describe(`kube-status-lens check --format sarif on Node ${process.versions.node}`, () => {
	write('repo/flux/repo.yaml', badRepository);
	write('beside/other.yaml', badRepository);

	it('has the shape SARIF 2.1.0 requires, with the tool’s name and version', () => {
		const { code, log } = sarifOf(join(folder, 'repo'), 'flux');
		assert.equal(code, 1);
		assert.equal(log.version, '2.1.0');
		assert.match(log.$schema, /sarif-2\.1\.0/);
		assert.equal(log.runs.length, 1);
		const [run] = log.runs;
		const { driver } = run.tool;
		assert.equal(driver.name, 'kube-status-lens');
		assert.equal(driver.version, packageJson.version);
		for (const result of run.results) {
			assert.equal(typeof result.message.text, 'string');
			assert.equal(driver.rules[result.ruleIndex].id, result.ruleId);
			assert.ok(['error', 'warning', 'note'].includes(result.level));
			const { artifactLocation, region } = result.locations[0].physicalLocation;
			assert.ok(artifactLocation.uriBaseId in run.originalUriBaseIds);
			assert.ok(!isAbsoluteUri(artifactLocation.uri), artifactLocation.uri);
			assert.ok(region.startLine >= 1 && region.startColumn >= 1);
		}
		// A uri, where given, is absolute (SARIF §3.5.4: `format: uri`); a code-scanning upload refuses others.
		const uris = [
			driver.informationUri,
			...driver.rules.map((rule) => rule.helpUri),
			...Object.values(run.originalUriBaseIds).map((base) => base.uri),
		].filter((uri) => uri !== undefined);
		for (const uri of uris) assert.ok(isAbsoluteUri(uri), uri);
	});

	it('documents every rule: a full description and Markdown help from docs/diagnostics.md, and where to read it', () => {
		const { driver } = sarifOf(join(folder, 'repo'), 'flux').log.runs[0].tool;
		assert.ok(driver.rules.length > 40);
		for (const rule of driver.rules) {
			assert.ok(diagnosticsDoc.includes(`\n### ${rule.id}\n`), `${rule.id} has no section`);
			assert.ok(rule.shortDescription.text.length > 0);
			assert.match(rule.fullDescription.text, /What: /, rule.id);
			assert.doesNotMatch(rule.fullDescription.text, /\*\*|`/, rule.id);
			assert.match(rule.help.markdown, /^\*\*What:\*\* /, rule.id);
			assert.ok(rule.help.markdown.includes(`docs/diagnostics.md#${rule.id}`), rule.id);
			assert.ok(rule.help.text.includes(`docs/diagnostics.md#${rule.id}`), rule.id);
			assert.equal(typeof rule.helpUri, 'string', `${rule.id} has no helpUri`);
			// A name a person reads, never the id again (SARIF 3.49.7; the SARIF Multitool warns SARIF1001).
			assert.match(rule.name, /^[A-Z][A-Za-z0-9]+$/, rule.id);
			assert.equal(rule.name.toLowerCase(), rule.id.replaceAll('-', ''), rule.id);
			assert.match(rule.help.markdown, /Upstream: \[[^\]]+\]\(https:\/\/\S+\)\.$/, rule.id);
		}
		const duration = driver.rules.find((rule) => rule.id === 'flux-invalid-duration');
		assert.match(duration.help.markdown, /Common slips: `1d` \(Go has no day unit\)/);
	});

	it("names the tool's home page (package.json's homepage) and links each rule to its source system's page", () => {
		const { driver } = sarifOf(join(folder, 'repo'), 'flux').log.runs[0].tool;
		assert.match(packageJson.homepage, /^https:\/\//);
		assert.equal(driver.informationUri, packageJson.homepage);
		// No repository is named, so no rule points at a docs/diagnostics.md on the web that may not be there.
		assert.equal(packageJson.repository, undefined);
		assert.ok(driver.rules.every((rule) => !rule.helpUri.includes('docs/diagnostics.md')));
		const byId = new Map(driver.rules.map((rule) => [rule.id, rule.helpUri]));
		assert.equal(byId.get('fleet-git-repos-unpolled'), 'https://fleet.rancher.io/troubleshooting');
		assert.equal(
			byId.get('status-waiting-for-owner'),
			'https://azure.github.io/azure-service-operator/guide/conditions/',
		);
		assert.match(byId.get('status-stalled'), /cli-utils\/tree\/master\/pkg\/kstatus$/);
	});

	it(
		'passes the SARIF Multitool validator without an error or a warning',
		{ skip: multitoolMissing },
		() => {
			const { text } = sarifOf(join(folder, 'repo'), 'flux', join(folder, 'beside'));
			assert.deepEqual(sarifProblems(text), []);
		},
	);

	it('writes no absolute path of the machine: files relative to %SRCROOT%, the working folder', () => {
		const cwd = join(folder, 'repo');
		const { log, text } = sarifOf(cwd, 'flux', join(folder, 'beside'));
		const [run] = log.runs;
		assert.deepEqual(Object.keys(run.originalUriBaseIds), ['%SRCROOT%']);
		assert.equal(run.originalUriBaseIds['%SRCROOT%'].uri, undefined);
		assert.deepEqual(
			run.results.map((result) => result.locations[0].physicalLocation.artifactLocation),
			[
				{ uri: 'flux/repo.yaml', uriBaseId: '%SRCROOT%' },
				{ uri: '../beside/other.yaml', uriBaseId: '%SRCROOT%' },
			],
		);
		assert.ok(!text.includes(folder), 'the log names the temporary folder');
		assert.ok(!text.includes('file://'), 'the log holds a file URI');
		assert.ok(
			run.invocations[0].toolExecutionNotifications.some((note) =>
				/1 file is outside %SRCROOT% \(the working folder\).*cannot place/.test(note.message.text),
			),
		);
	});

	it('places files from the root of the git work tree, so a run from a sub-folder gives paths code scanning can place', () => {
		write('work-tree/.git/HEAD', 'ref: refs/heads/main\n');
		write('work-tree/deploy/flux/repo.yaml', badRepository);
		mkdirSync(join(folder, 'work-tree/tools'), { recursive: true });
		const { log } = sarifOf(join(folder, 'work-tree/tools'), '../deploy/flux');
		const [run] = log.runs;
		assert.deepEqual(
			run.results.map((result) => result.locations[0].physicalLocation.artifactLocation),
			[{ uri: 'deploy/flux/repo.yaml', uriBaseId: '%SRCROOT%' }],
		);
		assert.match(run.originalUriBaseIds['%SRCROOT%'].description.text, /git work tree/);
		assert.equal(run.invocations, undefined, 'no note: every file is inside %SRCROOT%');
	});
});
