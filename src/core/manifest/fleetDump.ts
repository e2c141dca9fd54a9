// What the entries of a `fleet dump` archive hold, read without I/O. The format is rancher/fleet's
// internal/cmd/cli/dump/dump.go: a gzipped tar of regular files, one per object, named
// `<resource>_<namespace>_<name>` (the object as YAML), `contents_<name>`, `secrets_<namespace>_<name>`,
// `events_<namespace>` (one JSON Event per line) and `metrics_<namespace>_<service>` (Prometheus text; `metrics_<service>`
// before rancher/fleet#5188, Fleet 0.16). Entry names are
// data: they are matched against these shapes and never used as paths.
import {
	readKubeEvent,
	eventIsAbout,
	newestEventsFirst,
	type KubeEvent,
} from '../model/kubeEvent.ts';
import { getRecord, getString, isRecord } from '../model/object.ts';
import type { Range } from '../model/range.ts';
import { parseManifests, type ParsedObject, type ParseProblem } from './parse.ts';

const fleetApiVersion = 'fleet.cattle.io/v1alpha1';

/** The Fleet resources dump.go writes as `<resource>_<namespace>_<name>`, and their kinds. */
const kindOfResource: Readonly<Record<string, string>> = {
	gitrepos: 'GitRepo',
	bundles: 'Bundle',
	bundledeployments: 'BundleDeployment',
	clusters: 'Cluster',
	clustergroups: 'ClusterGroup',
	bundlenamespacemappings: 'BundleNamespaceMapping',
	gitreporestrictions: 'GitRepoRestriction',
	helmops: 'HelmOp',
};

/**
 * The kinds a dump holds every object of: the Fleet resources dump.go always lists, and Secrets and Contents when it
 * holds any (it writes them only with --with-secrets[-metadata] and --with-content[-metadata]).
 */
export function kindsHeldWhole(kindsPresent: Iterable<string>): ReadonlySet<string> {
	const kinds = new Set<string>(Object.values(kindOfResource));
	for (const kind of kindsPresent) if (kind === 'Secret' || kind === 'Content') kinds.add(kind);
	return kinds;
}

/** What an entry of a dump is, from its name alone. */
export type DumpEntryName =
	| {
			readonly kind: 'object';
			readonly apiVersion: string;
			readonly objectKind: string;
			readonly namespace: string;
			readonly name: string;
	  }
	| { readonly kind: 'content'; readonly name: string }
	| { readonly kind: 'secret'; readonly namespace: string; readonly name: string }
	| { readonly kind: 'events'; readonly namespace: string }
	| { readonly kind: 'metrics'; readonly namespace: string; readonly service: string }
	| { readonly kind: 'other' };

// Kubernetes names: lowercase letters, digits, '-' and '.', at most 253 characters. Namespaces hold no '.', but a name
// part is matched loosely on purpose: what matters is that it holds no '_', '/', '\', control or other characters.
const namePart = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

function isNamePart(text: string | undefined): text is string {
	return text !== undefined && namePart.test(text) && !text.includes('..');
}

/** Classifies an entry name of a dump; anything not of dump.go's shapes (a path, `..`, odd characters) is `other`. */
export function classifyDumpEntry(entryName: string): DumpEntryName {
	const parts = entryName.split('_');
	const [prefix, first, second] = parts;
	if (parts.length > 3 || prefix === undefined) return { kind: 'other' };
	if (prefix === 'events' && parts.length === 2 && isNamePart(first)) {
		return { kind: 'events', namespace: first };
	}
	if (prefix === 'contents' && parts.length === 2 && isNamePart(first)) {
		return { kind: 'content', name: first };
	}
	// Fleet before 0.16 named metrics `metrics_<service>` (services of cattle-fleet-system only); rancher/fleet#5188
	// added the namespace.
	if (prefix === 'metrics' && parts.length === 2 && isNamePart(first)) {
		return { kind: 'metrics', namespace: 'cattle-fleet-system', service: first };
	}
	if (parts.length !== 3 || !isNamePart(second)) return { kind: 'other' };
	// Cluster-scoped objects would be written with an empty namespace.
	if (first !== '' && !isNamePart(first)) return { kind: 'other' };
	const namespace = first ?? '';
	if (prefix === 'secrets') return { kind: 'secret', namespace, name: second };
	if (prefix === 'metrics') return { kind: 'metrics', namespace, service: second };
	const objectKind = Object.hasOwn(kindOfResource, prefix) ? kindOfResource[prefix] : undefined;
	if (objectKind === undefined) return { kind: 'other' };
	return { kind: 'object', apiVersion: fleetApiVersion, objectKind, namespace, name: second };
}

/** Whether an entry name is one dump.go writes (what tells a dump from another .tgz, such as a Helm chart). */
export function isDumpEntryName(entryName: string): boolean {
	return classifyDumpEntry(entryName).kind !== 'other';
}

/** What one entry gave: objects (with their lines in the entry's text), Events, problems, and a note when skipped. */
export interface DumpEntryContent {
	readonly objects: readonly ParsedObject[];
	readonly events: readonly KubeEvent[];
	readonly problems: readonly ParseProblem[];
	/** Why nothing of the entry was read (metrics, an unknown name), for the log. */
	readonly skipped?: string;
	/**
	 * The text the objects' ranges refer to: the entry's own text, or for a Secret or Content the reduced object as
	 * JSON (the rest of the entry is not kept).
	 */
	readonly text: string;
}

// The annotation `kubectl apply` writes holds the whole object, a Secret's data with it.
const droppedAnnotations = ['kubectl.kubernetes.io/last-applied-configuration'];

function reducedMetadata(object: unknown): Record<string, unknown> {
	const metadata = { ...(getRecord(object, 'metadata') ?? {}) };
	delete metadata.managedFields;
	const annotations = getRecord(metadata, 'annotations');
	if (annotations !== undefined) {
		const kept = { ...annotations };
		for (const name of droppedAnnotations) delete kept[name];
		metadata.annotations = kept;
	}
	return metadata;
}

/**
 * Parses an entry's YAML by the core's one reader. Objects from typed lists (Secrets) and hand-made entries may lack
 * apiVersion and kind, which that reader skips: the missing ones are put before the text from the entry's prefix, and
 * the ranges moved back to the entry's own lines.
 */
function parseEntryObjects(
	text: string,
	entryName: string,
	apiVersion: string,
	kind: string,
): { objects: ParsedObject[]; problems: readonly ParseProblem[] } {
	const missing: string[] = [];
	if (!text.trimStart().startsWith('{')) {
		if (!/^apiVersion\s*:/m.test(text)) missing.push(`apiVersion: ${apiVersion}`);
		if (!/^kind\s*:/m.test(text)) missing.push(`kind: ${kind}`);
	}
	const added = missing.length;
	const parsed = parseManifests(added === 0 ? text : `${missing.join('\n')}\n${text}`, {
		fileName: entryName,
	});
	if (added === 0) return { objects: [...parsed.objects], problems: parsed.problems };
	const back = (range: Range): Range => ({
		start: { line: Math.max(0, range.start.line - added), character: range.start.character },
		end: { line: Math.max(0, range.end.line - added), character: range.end.character },
	});
	return {
		objects: parsed.objects.map((object) => ({ ...object, range: back(object.range) })),
		problems: parsed.problems.map((problem) => ({ ...problem, range: back(problem.range) })),
	};
}

function wholeTextRange(text: string): ParsedObject['range'] {
	const lines = text.split('\n');
	return {
		start: { line: 0, character: 0 },
		end: { line: lines.length - 1, character: lines[lines.length - 1]?.length ?? 0 },
	};
}

/** A Secret or Content kept as `kept` and nothing else: its text is that object as JSON. */
function reducedEntry(
	text: string,
	entryName: string,
	apiVersion: string,
	kind: string,
	reduce: (object: Record<string, unknown>) => Record<string, unknown>,
): DumpEntryContent {
	const parsed = parseEntryObjects(text, entryName, apiVersion, kind);
	const reduced = parsed.objects.map((entry) => reduce(entry.object));
	const reducedText = reduced.map((object) => JSON.stringify(object, null, 2)).join('\n');
	// One object per entry in dump.go; each reduced object is given the whole reduced text as its place.
	const range = wholeTextRange(reducedText);
	return {
		objects: reduced.map((object, documentIndex) => ({ object, documentIndex, range })),
		events: [],
		problems: parsed.problems,
		text: reducedText,
	};
}

function eventsOf(text: string, entryName: string): DumpEntryContent {
	const events: KubeEvent[] = [];
	const problems: ParseProblem[] = [];
	const lines = text.split('\n');
	lines.forEach((line, index) => {
		if (line.trim() === '') return;
		let raw: unknown;
		try {
			raw = JSON.parse(line);
		} catch {
			raw = undefined;
		}
		const event = isRecord(raw) ? readKubeEvent(raw) : undefined;
		if (event) events.push(event);
		else {
			problems.push({
				code: 'json-syntax',
				message: `${entryName} line ${index + 1}: not a JSON Event`,
				range: {
					start: { line: index, character: 0 },
					end: { line: index, character: line.length },
				},
			});
		}
	});
	return { objects: [], events, problems, text };
}

/**
 * Reads one entry's text: Fleet objects as YAML (apiVersion and kind from the prefix when the object lacks them),
 * Secrets reduced to apiVersion, kind, metadata and `type` (data is never decoded or kept), Contents to metadata and
 * status, Events (typed-list items, so v1 Event) one JSON object per line; metrics are skipped.
 */
export function readDumpEntry(entryName: string, text: string): DumpEntryContent {
	const entry = classifyDumpEntry(entryName);
	switch (entry.kind) {
		case 'object': {
			const parsed = parseEntryObjects(text, entryName, entry.apiVersion, entry.objectKind);
			return {
				objects: parsed.objects,
				events: [],
				problems: parsed.problems,
				text,
			};
		}
		case 'secret':
			return reducedEntry(text, entryName, 'v1', 'Secret', (object) => {
				const reduced: Record<string, unknown> = {
					apiVersion: 'v1',
					kind: 'Secret',
					metadata: reducedMetadata(object),
				};
				const type = getString(object, 'type');
				if (type !== undefined) reduced.type = type;
				return reduced;
			});
		case 'content':
			return reducedEntry(text, entryName, fleetApiVersion, 'Content', (object) => {
				const reduced: Record<string, unknown> = {
					apiVersion: fleetApiVersion,
					kind: 'Content',
					metadata: reducedMetadata(object),
				};
				const status = getRecord(object, 'status');
				if (status !== undefined) reduced.status = status;
				return reduced;
			});
		case 'events':
			return eventsOf(text, entryName);
		case 'metrics':
			return {
				objects: [],
				events: [],
				problems: [],
				skipped: 'Prometheus metrics, not interpreted',
				text: '',
			};
		case 'other':
			return {
				objects: [],
				events: [],
				problems: [],
				skipped: 'not an entry name fleet dump writes',
				text: '',
			};
	}
}

function refKey(
	kind: string | undefined,
	namespace: string | undefined,
	name: string | undefined,
): string {
	return JSON.stringify([kind ?? '', namespace ?? '', name ?? '']);
}

/**
 * The Events about each object, newest first: by involvedObject uid when both have one, else by kind, namespace and
 * name (the matching of `eventIsAbout`), looked up through indexes rather than by scanning every Event.
 */
export function eventsByObject(
	events: readonly KubeEvent[],
): (object: unknown) => readonly KubeEvent[] {
	const byUid = new Map<string, KubeEvent[]>();
	const byRef = new Map<string, KubeEvent[]>();
	for (const event of events) {
		const { uid, kind, namespace, name } = event.subject;
		if (uid !== undefined) {
			const list = byUid.get(uid) ?? [];
			list.push(event);
			byUid.set(uid, list);
		}
		const key = refKey(kind, namespace, name);
		const list = byRef.get(key) ?? [];
		list.push(event);
		byRef.set(key, list);
	}
	return (object) => {
		const uid = getString(object, 'metadata', 'uid');
		const subject = {
			kind: getString(object, 'kind') ?? '',
			namespace: getString(object, 'metadata', 'namespace') ?? '',
			name: getString(object, 'metadata', 'name') ?? '',
			...(uid === undefined ? {} : { uid }),
		};
		const found = new Set<KubeEvent>();
		for (const event of byRef.get(refKey(subject.kind, subject.namespace, subject.name)) ?? []) {
			if (eventIsAbout(event, subject)) found.add(event);
		}
		if (uid !== undefined && uid !== '') {
			for (const event of byUid.get(uid) ?? []) found.add(event);
		}
		return found.size === 0 ? [] : newestEventsFirst([...found]);
	};
}
