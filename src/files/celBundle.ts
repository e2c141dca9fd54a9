// Where the front ends load CEL from: dist/cel.cjs beside the running bundle (src/cel, @bufbuild/cel), read the first
// time a Kustomization's health check expressions need it (useCelLanguage in the core).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { CelLanguage } from '../core/status/fluxHealthChecks.ts';

/** How to load the CEL bundle of a folder, for useCelLanguage; the load throws if the bundle is not there. */
export function celBundleLoader(folder: string): () => CelLanguage {
	return () => {
		const loaded = createRequire(join(folder, 'cel.cjs'))('./cel.cjs') as {
			readonly celLanguage: CelLanguage;
		};
		return loaded.celLanguage;
	};
}
