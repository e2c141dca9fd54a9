// Objects from YAML, and scenarios: timed steps that create, patch and delete objects on a server so that watches
// see a cluster change the way controllers change it (a rollout progressing, a condition turning True).

import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { parseManifests } from '../core/manifest/parse.ts';
import { cloneJson, type Json } from './patch.ts';
import { metadataOf, type KubeObject, type ObjectStore, type PatchType } from './store.ts';

/** Objects read from files, and what could not be read. */
export interface ReadResult {
	readonly objects: KubeObject[];
	readonly problems: string[];
}

const manifestExtensions = new Set(['.yaml', '.yml', '.json']);

async function filesUnder(path: string): Promise<string[]> {
	const info = await stat(path);
	if (!info.isDirectory()) return [path];
	const entries = await readdir(path, { withFileTypes: true });
	const files: string[] = [];
	for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
		const child = join(path, entry.name);
		if (entry.isDirectory()) for (const file of await filesUnder(child)) files.push(file);
		else if (manifestExtensions.has(extname(entry.name))) files.push(child);
	}
	return files;
}

/** Reads the Kubernetes objects of YAML/JSON files and of folders (recursively, in name order). */
export async function readObjects(paths: readonly string[]): Promise<ReadResult> {
	const objects: KubeObject[] = [];
	const problems: string[] = [];
	for (const path of paths) {
		let files: string[];
		try {
			files = await filesUnder(path);
		} catch (error) {
			problems.push(`${path}: ${(error as Error).message}`);
			continue;
		}
		for (const file of files) {
			const parsed = parseManifests(await readFile(file, 'utf8'));
			for (const problem of parsed.problems) {
				problems.push(`${file}:${problem.range.start.line + 1}: ${problem.message}`);
			}
			for (const { object } of parsed.objects) objects.push(cloneJson(object as KubeObject));
		}
	}
	return { objects, problems };
}

/** Puts objects into a store (creating or replacing them); objects of kinds the store does not hold are reported. */
export function loadObjects(
	store: ObjectStore,
	objects: readonly KubeObject[],
): { readonly loaded: number; readonly problems: string[] } {
	let loaded = 0;
	const problems: string[] = [];
	for (const object of objects) {
		try {
			store.put(object);
			loaded++;
		} catch (error) {
			problems.push(`${describeObject(object)}: ${(error as Error).message}`);
		}
	}
	return { loaded, problems };
}

/** A field as text for messages and keys: strings as they are, anything else as ''. */
function text(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** Names an object for messages: `Kind namespace/name`. */
function describeObject(object: KubeObject): string {
	const meta = metadataOf(object);
	const namespace = typeof meta.namespace === 'string' ? `${meta.namespace}/` : '';
	return `${text(object.kind)} ${namespace}${text(meta.name)}`;
}

/** Which object a step acts on. */
export interface ObjectRef {
	readonly apiVersion: string;
	readonly kind: string;
	readonly namespace?: string;
	readonly name: string;
}

function refObject(ref: ObjectRef): KubeObject {
	return {
		apiVersion: ref.apiVersion,
		kind: ref.kind,
		metadata: {
			name: ref.name,
			...(ref.namespace === undefined ? {} : { namespace: ref.namespace }),
		},
	};
}

/** What a step does. */
export type ScenarioAction =
	| { /** Create or replace, status included. */ readonly kind: 'put'; readonly object: KubeObject }
	| {
			readonly kind: 'patch';
			readonly ref: ObjectRef;
			/** Default 'merge'. */
			readonly patchType?: PatchType;
			readonly patch: Json;
			readonly subresource?: 'status';
	  }
	| { readonly kind: 'delete'; readonly ref: ObjectRef }
	| {
			/** Anything else, e.g. a fault. */ readonly kind: 'run';
			readonly run: (store: ObjectStore) => void;
	  };

/** One step of a scenario, `at` milliseconds after the scenario (or the loop round) starts. */
export interface ScenarioStep {
	readonly at: number;
	readonly description?: string;
	readonly action: ScenarioAction;
}

/** How a scenario plays. */
export interface PlayOptions {
	/** Start again after the last step (restoring `initial` first). */
	readonly loop?: boolean;
	/** Pause after the last step before the next round (default 5 s). */
	readonly loopPauseMs?: number;
	/** Length of a round, so that scenarios of several servers stay in step (overrides loopPauseMs). */
	readonly roundMs?: number;
	/** Objects to restore at the start of every round after the first (objects the round created are deleted). */
	readonly initial?: readonly KubeObject[];
	/** Time multiplier: 2 plays twice as fast. */
	readonly speed?: number;
	readonly onStep?: (step: ScenarioStep) => void;
	readonly onError?: (step: ScenarioStep, error: Error) => void;
}

/** A scenario being played. */
export interface ScenarioPlayback {
	/** Resolves after the last step (never while looping, until stopped). */
	readonly done: Promise<void>;
	stop(): void;
}

/** Runs one action against a store. */
function runAction(store: ObjectStore, action: ScenarioAction): void {
	switch (action.kind) {
		case 'put':
			store.put(action.object);
			break;
		case 'patch':
			store.patchObject(refObject(action.ref), action.patchType ?? 'merge', action.patch, {
				...(action.subresource === undefined ? {} : { subresource: action.subresource }),
				fieldManager: 'scenario',
			});
			break;
		case 'delete':
			store.deleteObject(refObject(action.ref));
			break;
		case 'run':
			action.run(store);
			break;
	}
}

function keyOf(object: KubeObject): string {
	const meta = metadataOf(object);
	return `${text(object.apiVersion)}/${text(object.kind)}/${text(meta.namespace)}/${text(meta.name)}`;
}

/** Puts the store back to `initial`: objects a round created go, the initial ones are restored. */
function restore(
	store: ObjectStore,
	initial: readonly KubeObject[],
	created: ReadonlySet<string>,
	objects: Map<string, KubeObject>,
): void {
	const wanted = new Set(initial.map(keyOf));
	for (const key of created) {
		const object = objects.get(key);
		if (object !== undefined && !wanted.has(key) && store.find(object) !== undefined) {
			// Finalizers would keep a scenario's object forever; a restore removes them first.
			store.patchObject(object, 'merge', { metadata: { finalizers: null } });
			if (store.find(object) !== undefined) store.deleteObject(object);
		}
	}
	for (const object of initial) store.put(object);
}

/**
 * Plays steps against a server's store at their offsets. Each step runs in order; a failing step is reported
 * through `onError` and the scenario goes on.
 */
export function playScenario(
	server: { readonly store: ObjectStore },
	steps: readonly ScenarioStep[],
	options: PlayOptions = {},
): ScenarioPlayback {
	const ordered = [...steps].sort((a, b) => a.at - b.at);
	const speed = options.speed ?? 1;
	let stopped = false;
	let timer: NodeJS.Timeout | undefined;
	let finish: () => void = () => {};
	const done = new Promise<void>((resolve) => {
		finish = resolve;
	});
	const created = new Set<string>();
	const createdObjects = new Map<string, KubeObject>();

	const restoreStep: ScenarioStep = {
		at: 0,
		description: 'restore the initial objects',
		action: { kind: 'run', run: () => {} },
	};
	const runRound = (index: number, roundStart: number): void => {
		if (stopped) return;
		const step = ordered[index];
		if (step === undefined) {
			if (options.loop !== true) {
				finish();
				return;
			}
			const next =
				options.roundMs === undefined
					? Date.now() + (options.loopPauseMs ?? 5000) / speed
					: roundStart + options.roundMs / speed;
			timer = setTimeout(
				() => {
					try {
						if (options.initial !== undefined) {
							restore(server.store, options.initial, created, createdObjects);
						}
					} catch (error) {
						options.onError?.(restoreStep, error as Error);
					}
					created.clear();
					runRound(0, next);
				},
				Math.max(0, next - Date.now()),
			);
			return;
		}
		const wait = Math.max(0, roundStart + step.at / speed - Date.now());
		timer = setTimeout(() => {
			if (stopped) return;
			try {
				if (step.action.kind === 'put' && server.store.find(step.action.object) === undefined) {
					created.add(keyOf(step.action.object));
					createdObjects.set(keyOf(step.action.object), step.action.object);
				}
				runAction(server.store, step.action);
				options.onStep?.(step);
			} catch (error) {
				options.onError?.(step, error as Error);
			}
			runRound(index + 1, roundStart);
		}, wait);
	};
	runRound(0, Date.now());
	return {
		done,
		stop() {
			stopped = true;
			clearTimeout(timer);
			finish();
		},
	};
}
