// `kube-status-lens merge`: the multi-WEC status merge of src/core/merge on files, as JSON or readable text.
import { Document, isMap, isScalar, isSeq, type Node } from 'yaml';
import { parseManifestsWithNodes } from '../core/manifest/parse.ts';
import { getRecord, getString, groupOf, isRecord, refOf } from '../core/model/object.ts';
import { policyGroups } from '../core/merge/mergeMode.ts';
import {
	fieldPath,
	itemPath,
	listKeyFieldOf,
	namesList,
	type FieldProvenance,
} from '../core/merge/mergeRules.ts';
import {
	mergeRuleSets,
	mergeWecStatuses,
	type MergeRules,
	type WecMergeResult,
} from '../core/merge/wecMerge.ts';
import { visibleLine, visibleText } from '../core/text/visible.ts';

/** Where the command reads and writes, so tests can give it files and capture output. */
export interface MergeCommandIo {
	readFile(path: string): string;
	stdout(text: string): void;
	stderr(text: string): void;
	/** The clock for kstatus (ms since epoch); absent, kstatus runs without one. */
	readonly now?: number;
}

const usage = `Usage: kube-status-lens merge --workload FILE --wec NAME=FILE [--wec NAME=FILE ...]
                              [--policy FILE ...] [--rules proposal|kubestellar] [--json]
       kube-status-lens merge FILE... [--rules proposal|kubestellar] [--json]

Previews the .status KubeStellar writes into a WDS workload deployed to several WECs.

  --workload FILE      the workload as it is in the WDS (metadata, spec, current status)
  --wec NAME=FILE      the workload's status in WEC NAME: a WorkStatus, or the workload read from that WEC
  --policy FILE        BindingPolicies, Bindings, ManagedClusters, Namespaces; without it the
                       multi-WEC flag (wantMultiWECReportedState) is taken to be on
  --rules RULES        proposal (default: the multi-WEC proposal) or kubestellar (the released controller)
  --json               print {mode, rules, status, provenance, changed, kstatus, health, notes}

With FILE... the files hold the workload, its WorkStatus objects and the policies (multi-document
YAML, kind: List, JSON).

Exit codes: 0 merged (problems with single inputs are in the notes); 2 bad usage, or a file could not
be read or parsed.
`;

/** A usage or input error: printed on stderr, exit code 2. */
class InputError extends Error {}

interface Options {
	workload?: string;
	readonly wecs: { readonly name: string; readonly file: string }[];
	readonly policies: string[];
	readonly files: string[];
	rules: MergeRules;
	json: boolean;
	help: boolean;
}

function optionsOf(argv: readonly string[]): Options {
	const options: Options = {
		wecs: [],
		policies: [],
		files: [],
		rules: 'proposal',
		json: false,
		help: false,
	};
	const args = argv[0] === 'merge' ? argv.slice(1) : [...argv];
	for (let index = 0; index < args.length; index++) {
		const arg = args[index] ?? '';
		const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
		const flag = equals > 0 ? arg.slice(0, equals) : arg;
		const valueOf = (): string => {
			if (equals > 0) return arg.slice(equals + 1);
			const next = args[index + 1];
			if (next === undefined || (next.startsWith('--') && next.length > 2)) {
				throw new InputError(`${flag} needs a value`);
			}
			index++;
			return next;
		};
		switch (flag) {
			case '--workload':
				if (options.workload !== undefined) throw new InputError('--workload is given twice');
				options.workload = valueOf();
				break;
			case '--wec': {
				const value = valueOf();
				const split = value.indexOf('=');
				const name = split > 0 ? value.slice(0, split) : '';
				const file = split > 0 ? value.slice(split + 1) : '';
				if (name === '' || file === '') {
					throw new InputError(`--wec needs NAME=FILE, got "${value}"`);
				}
				options.wecs.push({ name, file });
				break;
			}
			case '--policy':
				options.policies.push(valueOf());
				break;
			case '--rules': {
				const value = valueOf();
				if (!(mergeRuleSets as readonly string[]).includes(value)) {
					throw new InputError(`--rules must be ${mergeRuleSets.join(' or ')}, got "${value}"`);
				}
				options.rules = value as MergeRules;
				break;
			}
			case '--json':
				options.json = true;
				break;
			case '--help':
			case '-h':
				options.help = true;
				break;
			default:
				if (arg.startsWith('-') && arg !== '-') throw new InputError(`unknown option ${arg}`);
				options.files.push(arg);
		}
	}
	return options;
}

/** A JSON syntax error at an offset of the text. */
class JsonSyntaxError extends Error {
	readonly offset: number;
	constructor(message: string, offset: number) {
		super(message);
		this.offset = offset;
	}
}

/** The offset and reason of the first JSON syntax error in a text, or undefined when it is strict JSON. */
function jsonSyntaxError(text: string): { offset: number; message: string } | undefined {
	// A byte-order mark is not JSON but editors write it; JSON.parse-based tools skip it too.
	let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
	const fail = (message: string): never => {
		throw new JsonSyntaxError(message, at);
	};
	const space = (): void => {
		while (at < text.length && ' \t\n\r'.includes(text[at] ?? '')) at++;
	};
	const literal = (word: string): void => {
		if (text.startsWith(word, at)) at += word.length;
		else fail('unexpected character');
	};
	const string = (): void => {
		at++;
		while (at < text.length) {
			const char = text[at];
			if (char === '"') {
				at++;
				return;
			}
			if (char === '\\') {
				const escape = text[at + 1] ?? '';
				if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) at += 6;
				else if ('"\\/bfnrt'.includes(escape) && escape !== '') at += 2;
				else fail('bad escape in string');
			} else if ((char ?? '').charCodeAt(0) < 0x20) {
				fail('control character in string');
			} else {
				at++;
			}
		}
		fail('unterminated string');
	};
	const number = (): void => {
		const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(at, at + 400));
		if (!match) fail('bad number');
		at += match?.[0].length ?? 0;
	};
	const value = (): void => {
		space();
		const char = text[at];
		if (char === '{') {
			at++;
			space();
			if (text[at] === '}') {
				at++;
				return;
			}
			for (;;) {
				space();
				if (text[at] !== '"') fail('expected a double-quoted property name');
				string();
				space();
				if (text[at] !== ':') fail("expected ':'");
				at++;
				value();
				space();
				if (text[at] === ',') {
					at++;
					continue;
				}
				if (text[at] === '}') {
					at++;
					return;
				}
				fail("expected ',' or '}'");
			}
		} else if (char === '[') {
			at++;
			space();
			if (text[at] === ']') {
				at++;
				return;
			}
			for (;;) {
				value();
				space();
				if (text[at] === ',') {
					at++;
					continue;
				}
				if (text[at] === ']') {
					at++;
					return;
				}
				fail("expected ',' or ']'");
			}
		} else if (char === '"') {
			string();
		} else if (char === 't') {
			literal('true');
		} else if (char === 'f') {
			literal('false');
		} else if (char === 'n') {
			literal('null');
		} else if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
			number();
		} else {
			fail(char === undefined ? 'unexpected end of input' : 'unexpected character');
		}
	};
	try {
		value();
		space();
		if (at < text.length) fail('unexpected text after the JSON value');
		return undefined;
	} catch (error) {
		if (error instanceof JsonSyntaxError) return { offset: error.offset, message: error.message };
		throw error;
	}
}

/** YAML accepts some texts JSON does not (`{"a": }`); a .json file must be strict JSON. */
function strictJsonProblem(file: string, text: string): void {
	const error = jsonSyntaxError(text);
	if (!error) return;
	const before = text.slice(0, error.offset);
	const line = before.split('\n').length;
	const column = before.length - before.lastIndexOf('\n');
	throw new InputError(`${file}:${line}:${column}: invalid JSON: ${error.message}`);
}

/** The documents of a file: Kubernetes objects, or (for WEC files) a bare status mapping. */
function objectsIn(
	io: MergeCommandIo,
	file: string,
): { objects: Record<string, unknown>[]; bare: unknown[] } {
	let text: string;
	try {
		text = io.readFile(file);
	} catch (error) {
		const code = (error as { code?: unknown }).code;
		throw new InputError(
			`${file}: cannot read: ${code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error)}`,
		);
	}
	if (file.endsWith('.json')) strictJsonProblem(file, text);
	// Bare status documents (a WEC's `.status` without apiVersion/kind) need the documents themselves.
	const parsed = parseManifestsWithNodes(text, { fileName: file });
	const [problem] = parsed.problems;
	if (problem) {
		const { line, character } = problem.range.start;
		throw new InputError(`${file}:${line + 1}:${character + 1}: ${problem.message}`);
	}
	const bare: unknown[] = [];
	if (parsed.objects.length === 0) {
		for (const document of parsed.documents ?? []) {
			const value: unknown = document.toJS({ maxAliasCount: 100 });
			if (value !== null && value !== undefined) bare.push(value);
		}
	}
	return { objects: parsed.objects.map((entry) => entry.object), bare };
}

function isPolicyObject(object: Record<string, unknown>): boolean {
	const kind = getString(object, 'kind') ?? '';
	const group = groupOf(getString(object, 'apiVersion') ?? '');
	if (kind === 'BindingPolicy' || kind === 'Binding') {
		return (policyGroups as readonly string[]).includes(group);
	}
	return kind === 'ManagedCluster' || (kind === 'Namespace' && group === '');
}

function isWorkStatus(object: Record<string, unknown>): boolean {
	return getString(object, 'kind') === 'WorkStatus';
}

function describe(object: Record<string, unknown>): string {
	const ref = refOf(object);
	return `${ref.kind} ${ref.namespace === '' ? ref.name : `${ref.namespace}/${ref.name}`}`;
}

function namesWorkload(
	workStatus: Record<string, unknown>,
	candidate: Record<string, unknown>,
): boolean {
	const sourceRef = getRecord(workStatus, 'spec', 'sourceRef');
	const ref = refOf(candidate);
	return (
		sourceRef !== undefined &&
		sourceRef.kind === ref.kind &&
		sourceRef.name === ref.name &&
		(sourceRef.namespace ?? '') === ref.namespace &&
		(sourceRef.group ?? '') === groupOf(ref.apiVersion)
	);
}

interface MergeInputs {
	readonly workload: Record<string, unknown>;
	readonly perWec: unknown[];
	readonly policies: unknown[] | null;
}

function inputsOf(io: MergeCommandIo, options: Options): MergeInputs {
	const perWec: unknown[] = [];
	const policies: unknown[] = [];
	const candidates: Record<string, unknown>[] = [];
	let workload: Record<string, unknown> | undefined;
	if (options.workload !== undefined) {
		const { objects } = objectsIn(io, options.workload);
		const workloads = objects.filter((object) => !isPolicyObject(object) && !isWorkStatus(object));
		if (workloads.length !== 1) {
			throw new InputError(
				`${options.workload}: --workload needs exactly one workload object, found ${workloads.length}${workloads.length > 1 ? ` (${workloads.map(describe).join(', ')})` : ''}`,
			);
		}
		workload = workloads[0];
	}
	for (const file of options.files) {
		for (const object of objectsIn(io, file).objects) {
			if (isWorkStatus(object)) perWec.push(object);
			else if (isPolicyObject(object)) policies.push(object);
			else candidates.push(object);
		}
	}
	for (const { name, file } of options.wecs) {
		const { objects, bare } = objectsIn(io, file);
		for (const object of objects) perWec.push({ wec: name, object });
		for (const value of bare) {
			// A bare mapping is a status: either `{ status: ... }` or the status fields themselves.
			const status = isRecord(value) && isRecord(value.status) ? value.status : value;
			perWec.push({ wec: name, object: { status } });
		}
		if (objects.length === 0 && bare.length === 0) {
			throw new InputError(`${file}: no status or object for WEC ${name}`);
		}
	}
	for (const file of options.policies) policies.push(...objectsIn(io, file).objects);
	if (workload === undefined) {
		let chosen = candidates;
		if (candidates.length > 1) {
			const workStatuses = perWec.filter(
				(input): input is Record<string, unknown> => isRecord(input) && isWorkStatus(input),
			);
			chosen = candidates.filter((candidate) =>
				workStatuses.some((ws) => namesWorkload(ws, candidate)),
			);
		}
		if (chosen.length !== 1) {
			const listed = (chosen.length > 1 ? chosen : candidates).map(describe).join(', ');
			throw new InputError(
				candidates.length === 0
					? 'no workload found in the files (give it with --workload FILE)'
					: `several workloads found (${listed}); choose one with --workload FILE`,
			);
		}
		workload = chosen[0];
	}
	if (!workload) throw new InputError('no workload found');
	const hasPolicy =
		options.policies.length > 0 ||
		policies.some((object) => {
			const kind = getString(object, 'kind');
			return kind === 'BindingPolicy' || kind === 'Binding';
		});
	return { workload, perWec, policies: hasPolicy ? policies : null };
}

function commentOf(entry: FieldProvenance): string {
	const parts = [`${entry.rule} <- ${namesList(entry.wecs, 3) || 'no WEC'}`];
	if (entry.absentIn && entry.absentIn.length > 0) {
		parts.push(`absent in ${namesList(entry.absentIn, 3)}`);
	}
	if (entry.proposalPick) parts.push(`proposal's literal pick: ${entry.proposalPick.wec}`);
	return ` ${parts.join('; ')}`;
}

/** Puts each field's provenance beside it as a YAML comment, walking the same paths the merge recorded. */
function annotate(
	node: unknown,
	path: string,
	provenance: Readonly<Record<string, FieldProvenance>>,
): void {
	if (isMap(node)) {
		for (const pair of node.items) {
			const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
			const childPath = fieldPath(path, key);
			const entry = provenance[childPath];
			const value = pair.value as Node | null;
			if (entry && isScalar(value)) value.comment = commentOf(entry);
			else if (entry && isScalar(pair.key)) pair.key.commentBefore = commentOf(entry);
			annotate(value, childPath, provenance);
		}
	} else if (isSeq(node)) {
		const items: unknown[] = node.toJSON();
		const keyField = listKeyFieldOf([items]);
		node.items.forEach((item, index) => {
			const value = items[index];
			const keyValue = isRecord(value) && keyField !== undefined ? value[keyField] : undefined;
			const at =
				typeof keyValue === 'string' && keyField !== undefined
					? itemPath(path, keyField, keyValue)
					: `${path}[${index}]`;
			const entry = provenance[at];
			if (entry && (isMap(item) || isScalar(item))) item.commentBefore = commentOf(entry);
			annotate(item, at, provenance);
		});
	}
}

function textOf(workload: Record<string, unknown>, result: WecMergeResult): string {
	const ref = refOf(workload);
	const lines = [
		`Multi-WEC status merge of ${ref.apiVersion} ${describe(workload)} (rules: ${result.rules})`,
		`mode: ${result.mode}`,
		`changed: ${result.changed ? 'yes, an update would be written' : 'no, the WDS status already matches'}`,
		`kstatus: ${result.kstatus.status}${result.kstatus.message ? ` - ${result.kstatus.message}` : ''}`,
		`Argo CD health: ${result.health ? `${result.health.status}${result.health.message ? ` - ${result.health.message}` : ''}` : 'no health check for this kind'}`,
	];
	const document = new Document({ status: result.status });
	const root = document.contents;
	if (isMap(root)) {
		const statusNode = root.get('status', true);
		annotate(statusNode, '', result.provenance);
	}
	lines.push(document.toString({ indent: 2, lineWidth: 0 }).trimEnd());
	const omitted = Object.entries(result.provenance).filter(([, entry]) => entry.rule === 'omitted');
	if (omitted.length > 0) {
		lines.push('left out:');
		for (const [path, entry] of omitted) {
			lines.push(`  - ${path}: ${visibleLine(entry.detail ?? 'WECs disagree')}`);
		}
	}
	if (result.notes.length > 0) {
		lines.push('notes:');
		for (const note of result.notes) lines.push(`  - ${visibleLine(note)}`);
	}
	// WEC names, messages and names in the comments come from files: no control sequence reaches the terminal.
	return visibleText(`${lines.join('\n')}\n`);
}

/** Runs `kube-status-lens merge` (argv after the command name, or starting with "merge"); returns the exit code. */
export function runMergeCommand(argv: readonly string[], io: MergeCommandIo): number {
	try {
		const options = optionsOf(argv);
		if (options.help) {
			io.stdout(usage);
			return 0;
		}
		if (options.workload === undefined && options.files.length === 0) {
			throw new InputError(
				'give --workload FILE with --wec NAME=FILE, or the files holding the workload',
			);
		}
		if (options.workload !== undefined && options.wecs.length === 0 && options.files.length === 0) {
			throw new InputError(
				'--workload needs at least one --wec NAME=FILE (or files holding WorkStatus objects)',
			);
		}
		const inputs = inputsOf(io, options);
		const result = mergeWecStatuses(
			inputs.workload,
			inputs.perWec,
			inputs.policies,
			options.rules,
			io.now === undefined ? {} : { now: io.now },
		);
		if (options.json) {
			const { mode, rules, status, provenance, changed, kstatus, health, notes } = result;
			io.stdout(
				`${JSON.stringify({ mode, rules, status, provenance, changed, kstatus, health, notes }, null, 2)}\n`,
			);
		} else {
			io.stdout(textOf(inputs.workload, result));
		}
		return 0;
	} catch (error) {
		if (error instanceof InputError) {
			io.stderr(
				`kube-status-lens merge: ${visibleText(error.message)}\nRun kube-status-lens merge --help for usage.\n`,
			);
			return 2;
		}
		throw error;
	}
}
