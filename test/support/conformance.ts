// Loads the upstream conformance vectors kept in test/conformance/vectors (their sources: PROVENANCE.md there).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the vectors are, one folder per upstream project. */
const vectorsDir = join(repoRoot, 'test/conformance/vectors');

/** One conformance vector as stored: the fields every file has, the rest left to each test. */
export interface Vector {
	readonly id: string;
	readonly file: string;
	readonly system: string;
	readonly call: { readonly function: string } & Record<string, unknown>;
	readonly expected: Record<string, unknown>;
	readonly derived?: Record<string, unknown>;
	readonly notes?: readonly string[];
	readonly input: unknown;
	readonly raw: Record<string, unknown>;
}

/** Every vector of one folder (kstatus, argocd, fleet, kubestellar), sorted by file name. */
export function loadVectors(folder: string): Vector[] {
	const dir = join(vectorsDir, folder);
	if (!existsSync(dir)) throw new Error(`conformance folder missing: ${dir}`);
	return readdirSync(dir)
		.filter((name) => name.endsWith('.yaml'))
		.sort()
		.map((name) => {
			const raw = parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
			return {
				id: name.replace(/\.yaml$/, ''),
				file: join(dir, name),
				system: String(raw.system),
				call: raw.call as Vector['call'],
				expected: (raw.expected ?? {}) as Record<string, unknown>,
				derived: raw.derived as Record<string, unknown> | undefined,
				notes: raw.notes as string[] | undefined,
				input: raw.input,
				raw,
			} as Vector;
		});
}
