// `status` reads a List laid out as `kubectl get -o json` writes it from its bytes, an object at a time, writing each
// record before the next object is parsed, and takes a file's records back when the file turns out to be something
// else (an object whose status reads whole objects of the input, a broken end, another layout); Fleet's parents are
// held and written last. Here its output is held byte for byte to the whole-input way: every file decoded and parsed
// by the core's reader, all objects' statuses computed together, and the records written with JSON.stringify (Fleet's
// parents last), on generated folders that mix every layout and kind of object.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import jsyaml from 'js-yaml';
import { runStatusCommand } from '../../../src/cli/statusCommand.ts';
import type { StatusWorkerSetup } from '../../../src/cli/statusWorkerClient.ts';
import { parseManifests } from '../../../src/core/manifest/parse.ts';
import { refOf } from '../../../src/core/model/object.ts';
import { computeStatuses } from '../../../src/core/status/registry.ts';
import { isFleetParent } from '../../../src/core/status/standalone.ts';
import { decodeFileBytes } from '../../../src/files/decodeFile.ts';

function generator(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

const fleetApi = 'fleet.cattle.io/v1alpha1';
/** Written in place of this string: an integer JSON.stringify cannot write exactly. */
const bigGeneration = '@@big-generation@@';
const awkward = [
	'a & b &anchor',
	'{{ .Values.x }}',
	'é ü 中文 🚀',
	'line\nbreak, then "quotes" and \\ backslash',
	'],\n        {',
	'\u2028\u2029',
];

/** Mostly plain text; now and then text that sends a file down the YAML reader's path or needs escapes. */
function noteOf(random: () => number): string {
	return random() < 0.06
		? (awkward[Math.floor(random() * awkward.length)] ?? '')
		: `plain ${Math.floor(random() * 1000)}`;
}

function bundleDeployment(random: () => number, index: number): Record<string, unknown> {
	const ready = random() < 0.6;
	const applied = random() < 0.8 ? 'd1' : 'd0';
	return {
		apiVersion: fleetApi,
		kind: 'BundleDeployment',
		metadata: {
			name: `bundle-${index % 5}`,
			namespace: `cluster-fleet-default-c${index % 3}-0123456789ab`,
			labels: {
				'fleet.cattle.io/bundle-name': `bundle-${index % 5}`,
				'fleet.cattle.io/bundle-namespace': 'fleet-default',
				'fleet.cattle.io/cluster': `c${index % 3}`,
				'fleet.cattle.io/cluster-namespace': 'fleet-default',
				'fleet.cattle.io/repo-name': 'repo',
			},
		},
		spec: { deploymentID: 'd1', stagedDeploymentID: random() < 0.9 ? 'd1' : 'd2' },
		status: {
			appliedDeploymentID: applied,
			ready,
			nonModified: random() < 0.8,
			conditions: [
				{ type: 'Deployed', status: 'True' },
				{
					type: 'Ready',
					status: ready ? 'True' : 'False',
					...(ready ? {} : { message: noteOf(random) }),
				},
			],
			resourceCounts: { ready: ready ? 3 : 2, desiredReady: 3, notReady: ready ? 0 : 1 },
			...(ready
				? {}
				: {
						nonReadyStatus: [
							{
								kind: 'Deployment',
								apiVersion: 'apps/v1',
								namespace: 'default',
								name: 'web',
								summary: { state: 'in-progress', transitioning: true, message: ['1/2'] },
							},
						],
					}),
		},
	};
}

function deployment(random: () => number, index: number): Record<string, unknown> {
	const ready = random() < 0.5;
	return {
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: {
			name: `web-${index}`,
			namespace: 'default',
			generation: random() < 0.1 ? bigGeneration : 2,
			annotations: { note: noteOf(random) },
		},
		spec: { replicas: 3 },
		status: {
			observedGeneration: 2,
			replicas: 3,
			updatedReplicas: 3,
			readyReplicas: ready ? 3 : 1,
			availableReplicas: ready ? 3 : 1,
			conditions: [{ type: 'Available', status: ready ? 'True' : 'False' }],
		},
	};
}

function kustomization(random: () => number, index: number): Record<string, unknown> {
	return {
		apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
		kind: 'Kustomization',
		metadata: {
			name: `apps-${index}`,
			namespace: 'flux-system',
			generation: 1,
			...(random() < 0.3
				? {
						deletionTimestamp: '2026-11-20T10:00:00Z',
						finalizers: random() < 0.5 ? ['finalizers.fluxcd.io'] : [],
					}
				: {}),
		},
		spec: { interval: '10m', items: [{ nested: true }] },
		status: {
			observedGeneration: 1,
			conditions: [
				{
					type: 'Ready',
					status: random() < 0.5 ? 'True' : 'False',
					reason: 'ReconciliationFailed',
					message: noteOf(random),
				},
			],
		},
	};
}

function parent(random: () => number, index: number): Record<string, unknown> {
	const pick = random();
	if (pick < 0.4) {
		return {
			apiVersion: fleetApi,
			kind: 'GitRepo',
			metadata: { name: 'repo', namespace: 'fleet-default', generation: 1 },
			spec: { repo: 'https://example.com/repo' },
			status: { observedGeneration: 1 },
		};
	}
	if (pick < 0.8) {
		return {
			apiVersion: fleetApi,
			kind: 'Bundle',
			metadata: {
				name: `bundle-${index % 5}`,
				namespace: 'fleet-default',
				labels: { 'fleet.cattle.io/repo-name': 'repo' },
				generation: 1,
			},
			spec: {},
			status: { observedGeneration: 1 },
		};
	}
	return {
		apiVersion: 'control.kubestellar.io/v1alpha1',
		kind: 'WorkStatus',
		metadata: { name: `appsv1-deployment-default-web-${index}`, namespace: 'cluster1' },
		spec: {
			sourceRef: {
				group: 'apps',
				version: 'v1',
				resource: 'deployments',
				kind: 'Deployment',
				name: `web-${index}`,
				namespace: 'default',
			},
		},
	};
}

function objectsOf(random: () => number, count: number, parents: boolean): unknown[] {
	const objects: unknown[] = [];
	for (let index = 0; index < count; index++) {
		const pick = random();
		if (parents && pick < 0.05) objects.push(parent(random, index));
		else if (pick < 0.065) objects.push(random() < 0.5 ? { just: 'data' } : 'not an object');
		else if (pick < 0.6) objects.push(bundleDeployment(random, index));
		else if (pick < 0.8) objects.push(deployment(random, index));
		else objects.push(kustomization(random, index));
	}
	return objects;
}

/** A file's text in one of the layouts the CLI meets, some that its List reader takes and some that it must not. */
function fileText(random: () => number, objects: unknown[]): string {
	const list = {
		apiVersion: 'v1',
		items: objects,
		kind: 'List',
		metadata: { resourceVersion: '' },
	};
	const exact = (text: string): string => text.replaceAll(`"${bigGeneration}"`, '9007199254740993');
	const pick = random();
	if (pick < 0.3) return exact(`${JSON.stringify(list, null, 4)}\n`);
	if (pick < 0.5) return exact(JSON.stringify(list, null, 2));
	if (pick < 0.58) return exact(JSON.stringify(list, null, '\t'));
	if (pick < 0.6) return exact(`${JSON.stringify(list, null, 4)}\n`).replaceAll('\n', '\r\n');
	// A lone carriage return breaks lines for the YAML reader, not for JSON.
	if (pick < 0.62) {
		const text = exact(`${JSON.stringify(list, null, 4)}\n`);
		return random() < 0.5
			? text.replaceAll('\n', '\r')
			: text.replaceAll('\n            "', '\r            "');
	}
	if (pick < 0.63) return exact(JSON.stringify(list));
	if (pick < 0.7) {
		// Items one per line, or laid out flat, so that the separator recurs inside them; a second `items` key.
		const items = objects.map((item) =>
			random() < 0.5
				? JSON.stringify(item)
				: JSON.stringify(item, null, 1).replaceAll('\n ', '\n').replaceAll('\n', '\n  '),
		);
		const again = random() < 0.4 ? ',\n"items": []' : '';
		return exact(
			`{"apiVersion": "v1", "items": [\n  ${items.join(',\n  ')}\n]${again}, "kind": "List"}`,
		);
	}
	if (pick < 0.76) return `\ufeff${exact(JSON.stringify(list, null, 4))}`;
	if (pick < 0.82) {
		// Broken at the end, after many items.
		const text = exact(JSON.stringify(list, null, 4));
		return text.slice(0, text.length - 1 - Math.floor(random() * 3));
	}
	if (pick < 0.88) {
		const objectItems = objects.filter((item) => typeof item === 'object');
		return exact(JSON.stringify(objectItems[0] ?? list, null, 4));
	}
	if (pick < 0.94) return jsyaml.dump({ ...list, items: objects.filter((item) => item) });
	// The List's own keys after its items, and a kind that is no List.
	return exact(
		JSON.stringify(
			{ items: objects, apiVersion: 'v1', kind: random() < 0.5 ? 'ConfigMapList' : 'Thing' },
			null,
			4,
		),
	);
}

interface Written {
	readonly folder: string;
	readonly files: string[];
}

function writeFolder(seed: number): Written {
	const random = generator(seed);
	for (let step = 0; step < 8; step++) random();
	const folder = mkdtempSync(join(tmpdir(), 'ksl-status-differential-'));
	const fileCount = 1 + Math.floor(random() * 5);
	const parents = random() < 0.5;
	for (let index = 0; index < fileCount; index++) {
		const objects = objectsOf(random, Math.floor(random() * 30), parents);
		const text = fileText(random, objects);
		const extension = text.startsWith('apiVersion') || text.startsWith('items') ? 'yaml' : 'json';
		if (random() < 0.2) {
			mkdirSync(join(folder, `sub-${index}`));
			writeFileSync(join(folder, `sub-${index}`, `list.${extension}`), text);
		} else writeFileSync(join(folder, `${String(index).padStart(2, '0')}.${extension}`), text);
	}
	const files: string[] = [];
	const collect = (path: string): void => {
		for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) =>
			a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
		)) {
			const child = join(path, entry.name);
			if (entry.isDirectory()) collect(child);
			else files.push(child);
		}
	};
	collect(folder);
	return { folder, files };
}

const now = Date.parse('2026-11-22T08:00:00Z');

/** metadata.deletionTimestamp and the string finalizers, as `terminating` carries them; null when not being deleted. */
function terminatingOf(object: unknown): unknown {
	const metadata = (object as { metadata?: Record<string, unknown> }).metadata ?? {};
	const at = metadata['deletionTimestamp'];
	if (typeof at !== 'string' || at === '') return null;
	const finalizers = Array.isArray(metadata['finalizers']) ? metadata['finalizers'] : [];
	return {
		deletionTimestamp: at,
		finalizers: finalizers.filter((item) => typeof item === 'string' && item !== ''),
	};
}

/** The whole-input way: every object of every file read by the core, their statuses computed together. */
function wholeInput(files: readonly string[]): {
	json: string;
	count: number;
	failing: number;
	problems: boolean;
} {
	const read: { object: unknown; file: string; line: number }[] = [];
	let problems = false;
	for (const file of files) {
		const decoded = decodeFileBytes(readFileSync(file));
		if (!('text' in decoded)) {
			problems = true;
			continue;
		}
		const parsed = parseManifests(decoded.text, { fileName: file });
		if (parsed.problems.length > 0) problems = true;
		for (const entry of parsed.objects) {
			read.push({ object: entry.object, file, line: entry.range.start.line + 1 });
		}
	}
	const results = computeStatuses(
		read.map((entry) => entry.object),
		{ now },
	);
	let failing = 0;
	const records = read.map(({ object, file, line }, index) => {
		const result = results[index];
		assert.ok(result);
		if (result.tone === 'warning' || result.tone === 'error') failing++;
		const ref = refOf(object);
		return {
			apiVersion: ref.apiVersion,
			kind: ref.kind,
			namespace: ref.namespace,
			name: ref.name,
			system: result.system,
			state: result.state,
			tone: result.tone,
			message: result.message,
			reasons: result.reasons,
			observed: result.observed,
			kstatus: { status: result.kstatus.status, message: result.kstatus.message },
			health: result.health
				? { status: result.health.status, message: result.health.message }
				: null,
			computed: result.computed ?? null,
			terminating: terminatingOf(object),
			events: [],
			source: { file, line },
		};
	});
	// Fleet's parents come last: their roll-ups read every BundleDeployment, before them in the input or after.
	const ordered = [
		...records.filter((_record, index) => !isFleetParent(read[index]?.object)),
		...records.filter((_record, index) => isFleetParent(read[index]?.object)),
	];
	return {
		json: `${JSON.stringify(ordered, null, 2)}\n`,
		count: records.length,
		failing,
		problems,
	};
}

/** The worker thread of a big input, from its source, started whatever the input's size. */
const everyInputOnTwoThreads = {
	script: fileURLToPath(new URL('../../../src/cli/statusWorker.ts', import.meta.url)),
	minBytes: 0,
};

function status(
	args: readonly string[],
	twoThreads: boolean | StatusWorkerSetup = false,
): { code: number; stdout: string; workerFiles: number } {
	let stdout = '';
	let workerFiles = 0;
	const code = runStatusCommand(args, {
		stdout: (text) => {
			stdout += text;
		},
		stderr: () => undefined,
		isTty: false,
		now,
		...(twoThreads
			? {
					statusWorker: twoThreads === true ? everyInputOnTwoThreads : twoThreads,
					workerFilesRead: (count) => {
						workerFiles = count;
					},
				}
			: {}),
	});
	return { code, stdout, workerFiles };
}

/** Returns how many files the worker thread read in the two-thread run. */
function assertSameAsWholeInput(folder: string, files: readonly string[], label: string): number {
	const expected = wholeInput(files);
	const streamed = status(['--json', '--fail-on', 'warning', folder]);
	assert.equal(streamed.stdout, expected.json, label);
	assert.equal(streamed.code, expected.problems ? 2 : expected.failing > 0 ? 1 : 0, label);
	const twoThreads = status(['--json', '--fail-on', 'warning', folder], true);
	assert.equal(twoThreads.stdout, expected.json, `${label}, on two threads`);
	assert.equal(twoThreads.code, streamed.code, `${label}, on two threads`);
	const table = status(['--fail-on', 'warning', folder]).stdout.trimEnd().split('\n');
	const countLine = table[table.length - 2] ?? '';
	const count = `${expected.count} object${expected.count === 1 ? '' : 's'}`;
	assert.ok(countLine.startsWith(count), `${label}: ${countLine} (${count})`);
	const failingLine = table[table.length - 1] ?? '';
	if (expected.failing > 0 || !expected.problems) {
		const matched =
			expected.failing === 0
				? 'no object in warning or error'
				: `${expected.failing} object${expected.failing === 1 ? '' : 's'} in warning or error`;
		assert.ok(failingLine.includes(matched), `${label}: ${failingLine} (${matched})`);
	} else assert.doesNotMatch(failingLine, /in warning or error/, label);
	return twoThreads.workerFiles;
}

/** A List that holds nothing awkward. */
function awkwardPlainList(): string {
	const random = generator(11);
	const objects = objectsOf(random, 10, false).filter(
		(item) => typeof item === 'object' && item !== null && 'kind' in item,
	);
	return JSON.stringify({ apiVersion: 'v1', items: objects, kind: 'List' }, null, 4)
		.replaceAll('&', 'and')
		.replaceAll('{{', '((');
}

/** Lists the reader must read to the end before it knows that they are not what they seemed. */
function awkwardEnds(): Record<string, string> {
	const random = generator(7);
	// Without the text that sends a file down the YAML reader's path, but for the one case that is about it.
	const objects = JSON.parse(
		JSON.stringify(
			objectsOf(random, 40, false).filter(
				(item) => typeof item === 'object' && item !== null && 'kind' in item,
			),
		)
			.replaceAll('&', 'and')
			.replaceAll('{{', '(('),
	) as unknown[];
	const pretty = JSON.stringify({ apiVersion: 'v1', items: objects, kind: 'List' }, null, 4);
	const withParent = JSON.stringify(
		{ apiVersion: 'v1', items: [...objects, parent(generator(1), 1)], kind: 'List' },
		null,
		4,
	);
	return {
		'a second items key after the List': pretty.replace(
			/\n {4}\],\n/,
			'\n    ],\n    "items": [],\n',
		),
		'a lone carriage return inside the items': pretty.replaceAll(
			'\n            "',
			'\r            "',
		),
		'items first, and a kind that is no List': JSON.stringify(
			{ items: objects, apiVersion: 'v1', kind: 'Thing' },
			null,
			4,
		),
		'a Fleet parent as the last item': withParent,
		'a broken end': pretty.slice(0, -2),
		'a trailing comma': pretty.replace(/}\n {4}\]/, '},\n    ]'),
		'an anchor-like ampersand in a string': pretty.replace('"plain', '"&plain'),
	};
}

describe('status --json read a List at a time', () => {
	it('writes what reading every object together writes, byte for byte, on mixed generated folders (on one thread and on two)', () => {
		let workerFiles = 0;
		for (let seed = 1; seed <= 30; seed++) {
			const { folder, files } = writeFolder(seed);
			workerFiles += assertSameAsWholeInput(folder, files, `seed ${seed}`);
		}
		// The worker read some of the files: the two-thread runs above compared its records, not only the command's.
		assert.ok(workerFiles > 0, `the worker thread read ${workerFiles} files`);
	});

	it('takes back what it wrote of a file that turns out to be no such List, or to hold a parent', () => {
		for (const [label, text] of Object.entries(awkwardEnds())) {
			const folder = mkdtempSync(join(tmpdir(), 'ksl-status-differential-'));
			const file = join(folder, 'list.json');
			writeFileSync(file, text);
			// A plain List before it: on two threads the worker is given the awkward file and leaves it to the command.
			const plain = join(folder, 'a-plain.json');
			writeFileSync(plain, awkwardPlainList());
			assertSameAsWholeInput(folder, [plain, file], label);
		}
	});

	it("counts in Fleet's parents the BundleDeployments that the worker thread read and wrote", () => {
		const random = generator(5);
		const folder = mkdtempSync(join(tmpdir(), 'ksl-status-differential-'));
		const parents = [parent(() => 0.1, 0), parent(() => 0.5, 1), parent(() => 0.5, 2)];
		const list = (items: readonly unknown[]): string =>
			JSON.stringify({ apiVersion: 'v1', items, kind: 'List' }, null, 4)
				.replaceAll('&', 'and')
				.replaceAll('{{', '((');
		writeFileSync(join(folder, 'a-parents.json'), list(parents));
		for (const name of ['b.json', 'c.json', 'd.json', 'e.json']) {
			const items = Array.from({ length: 20 }, (_, index) => bundleDeployment(random, index));
			writeFileSync(join(folder, name), list(items));
		}
		const files = ['a-parents.json', 'b.json', 'c.json', 'd.json', 'e.json'].map((name) =>
			join(folder, name),
		);
		const workerFiles = assertSameAsWholeInput(folder, files, 'parents first, then lists');
		assert.ok(workerFiles > 0, `the worker thread read ${workerFiles} files`);
		const records = JSON.parse(status(['--json', folder], true).stdout) as {
			kind: string;
			computed: { summary?: { desiredReady?: number } } | null;
		}[];
		const gitRepo = records.find((record) => record.kind === 'GitRepo');
		assert.equal(gitRepo?.computed?.summary?.desiredReady, 80);
	});

	it('reads on alone when its worker thread never answers, and writes the same', () => {
		const folder = mkdtempSync(join(tmpdir(), 'ksl-silent-worker-'));
		for (const name of ['a.json', 'b.json', 'c.json']) {
			writeFileSync(join(folder, name), awkwardPlainList());
		}
		const silent = join(mkdtempSync(join(tmpdir(), 'ksl-silent-worker-')), 'silent.mjs');
		writeFileSync(silent, 'setInterval(() => undefined, 60_000);\n');
		const args = ['--json', '--fail-on', 'warning', folder];
		const alone = status(args);
		const started = Date.now();
		const waited = status(args, { script: silent, minBytes: 0, silentLimitMs: 300 });
		assert.equal(waited.stdout, alone.stdout);
		assert.equal(waited.code, alone.code);
		assert.equal(waited.workerFiles, 0);
		// It waited for the worker's file (b.json) at least the silent limit, then read on alone (no upper bound on
		// the time: a test may not time a loaded machine).
		const took = Date.now() - started;
		assert.ok(took >= 300, `took ${took} ms`);
	});
});
