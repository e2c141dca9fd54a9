// `kube-status-lens merge`: the multi-WEC status merge of src/core/merge on files, as JSON or as the editor's preview
// document. Which objects are the workload, its WEC copies and the policies (`mergeWorkloadOf`, `mergeInputsFrom`),
// and every word of the readable output (`mergePreviewYaml`), come from core; this file reads files and names errors.
import { parseManifestsWithNodes } from '../core/manifest/parse.ts';
import { refOf } from '../core/model/object.ts';
import {
	mergeInputsFrom,
	mergePreviewYaml,
	mergeWorkloadOf,
	mergeWorkloadsIn,
	type WecDocuments,
} from '../core/merge/mergePreview.ts';
import { mergeRuleSets, mergeWecStatuses, type MergeRules } from '../core/merge/wecMerge.ts';
import { visibleLine, visibleText } from '../core/text/visible.ts';
import { maxFileSizeOption, readLimitsOf, readManifests, type ManifestFile } from './files.ts';
import { nameAndText, optionsOrExit, usageError, type OptionSpec } from './options.ts';

/** Where the command writes, so tests can capture output. */
export interface MergeCommandIo {
	readonly stdout: (text: string) => void;
	readonly stderr: (text: string) => void;
	/** The clock for kstatus (ms since epoch); absent, kstatus runs without one. */
	readonly now?: number;
}

const usage = `Usage: kube-status-lens merge --workload FILE --wec NAME=FILE [--wec NAME=FILE ...]
                              [--policy FILE ...] [--rules proposal|kubestellar] [--json] [--max-file-size SIZE]
       kube-status-lens merge PATH... [--rules proposal|kubestellar] [--json] [--max-file-size SIZE]

Previews the .status KubeStellar writes into a WDS workload deployed to several WECs.

  --workload FILE      the workload as it is in the WDS (metadata, spec, current status)
  --wec NAME=FILE      the workload's status in WEC NAME: a WorkStatus, the workload read from that WEC,
                       or just its status
  --policy FILE        BindingPolicies, Bindings, ManagedClusters, Namespaces; without a BindingPolicy
                       or Binding the multi-WEC flag (wantMultiWECReportedState) is taken to be on
  --rules RULES        proposal (default: the multi-WEC proposal) or kubestellar (the released controller)
  --json               print {mode, rules, status, provenance, changed, kstatus, health, notes}
  --max-file-size SIZE read no file larger than SIZE (bytes, or with K, M or G: 256M; default 64M)

With PATH... the files and folders hold the workload, its WorkStatus objects and the policies
(multi-document YAML, kind: List, JSON). Without --json the output is the editor's merge preview:
the merged status as YAML, each field's rule and WECs beside it.

Exit codes: 0 merged (problems with single inputs are in the notes); 2 bad usage, or a file could not
be read or parsed.
`;

const spec: OptionSpec = {
	choices: { rules: mergeRuleSets },
	flags: ['json'],
	texts: { workload: 'FILE', wec: 'NAME=FILE', policy: 'FILE', ...maxFileSizeOption },
	pathsOptional: true,
};

/** An input the merge cannot start from: said on stderr, exit code 2. */
function inputError(message: string, io: MergeCommandIo): number {
	io.stderr(`kube-status-lens merge: ${visibleLine(message)}\n`);
	return 2;
}

function describe(object: unknown): string {
	const ref = refOf(object);
	return `${ref.kind} ${ref.namespace === '' ? ref.name : `${ref.namespace}/${ref.name}`}`;
}

function objectsOf(files: readonly ManifestFile[]): Record<string, unknown>[] {
	return files.flatMap((entry) => entry.parsed.objects.map((parsed) => parsed.object));
}

// What a file given for a WEC holds: its Kubernetes objects, or else its documents (a bare status), which the reader
// skips as not Kubernetes objects; core decides what each document is.
function wecDocumentsOf(files: readonly ManifestFile[]): unknown[] {
	const objects = objectsOf(files);
	if (objects.length > 0) return objects;
	const documents: unknown[] = [];
	for (const { file, text, parsed } of files) {
		if (parsed.skippedDocuments === 0) continue;
		for (const document of parsedDocuments(text, file)) documents.push(document);
	}
	return documents;
}

function parsedDocuments(text: string, file: string): unknown[] {
	const values: unknown[] = [];
	for (const document of parseManifestsWithNodes(text, { fileName: file }).documents ?? []) {
		try {
			const value: unknown = document.toJS({ maxAliasCount: 100 });
			if (value !== null && value !== undefined) values.push(value);
		} catch {
			// The reader has already reported a document it could not expand.
		}
	}
	return values;
}

/** Runs `kube-status-lens merge` (argv after the command name, or starting with "merge"); returns the exit code. */
export function runMergeCommand(argv: readonly string[], io: MergeCommandIo): number {
	const parsed = optionsOrExit(argv[0] === 'merge' ? argv.slice(1) : argv, spec, usage, io);
	if (typeof parsed === 'number') return parsed;
	const workloadFiles = parsed.lists.workload ?? [];
	const wecs = (parsed.lists.wec ?? []).map(nameAndText);
	if (workloadFiles.length > 1) return usageError('--workload is given twice', usage, io);
	if (workloadFiles.length === 0 && parsed.paths.length === 0) {
		return usageError(
			'give --workload FILE with --wec NAME=FILE, or the files holding the workload',
			usage,
			io,
		);
	}
	if (workloadFiles.length > 0 && wecs.length === 0 && parsed.paths.length === 0) {
		return usageError(
			'--workload needs at least one --wec NAME=FILE (or files holding WorkStatus objects)',
			usage,
			io,
		);
	}

	const limits = readLimitsOf(parsed.values);
	if (typeof limits === 'string') return usageError(limits, usage, io);

	// Every file is read, so one run names every unreadable or broken file.
	const workloadRead = readManifests(workloadFiles, io.stderr, limits);
	const otherRead = readManifests(
		[...parsed.paths, ...(parsed.lists.policy ?? [])],
		io.stderr,
		limits,
	);
	const wecReads = wecs.map(({ name, text }) => ({
		wec: name,
		file: text,
		read: readManifests([text], io.stderr, limits),
	}));
	if (
		workloadRead.inputError ||
		otherRead.inputError ||
		wecReads.some((entry) => entry.read.inputError)
	) {
		return 2;
	}
	const objects = [...objectsOf(workloadRead.files), ...objectsOf(otherRead.files)];
	const given: WecDocuments[] = [];
	for (const { wec, file, read } of wecReads) {
		const documents = wecDocumentsOf(read.files);
		if (documents.length === 0) {
			return inputError(`${file}: no status or object for WEC ${wec}`, io);
		}
		given.push({ wec, documents });
	}

	let workload: Record<string, unknown> | undefined;
	const [workloadFile] = workloadFiles;
	if (workloadFile !== undefined) {
		const found = mergeWorkloadsIn(objectsOf(workloadRead.files));
		if (found.length !== 1) {
			return inputError(
				`${workloadFile}: --workload needs exactly one workload object, found ${found.length}${found.length > 1 ? ` (${found.map(describe).join(', ')})` : ''}`,
				io,
			);
		}
		workload = found[0];
	} else {
		const choice = mergeWorkloadOf(objects);
		if (choice.kind === 'none') {
			return inputError('no workload found in the files (give it with --workload FILE)', io);
		}
		if (choice.kind === 'several') {
			return inputError(
				`several workloads found (${choice.candidates.map(describe).join(', ')}); choose one with --workload FILE`,
				io,
			);
		}
		workload = choice.workload;
	}

	const inputs = mergeInputsFrom(workload, objects, { wecs: given });
	const rules = (parsed.values.rules ?? 'proposal') as MergeRules;
	const options = io.now === undefined ? {} : { now: io.now };
	if (parsed.flags.has('json')) {
		const { mode, status, provenance, changed, kstatus, health, notes } = mergeWecStatuses(
			workload,
			inputs.perWec,
			inputs.policies,
			rules,
			options,
		);
		io.stdout(
			`${JSON.stringify({ mode, rules, status, provenance, changed, kstatus, health, notes }, null, 2)}\n`,
		);
	} else {
		// WEC names, messages and names in the comments come from files: no control sequence reaches the terminal.
		io.stdout(visibleText(mergePreviewYaml(workload, inputs, rules, options).text));
	}
	return 0;
}
