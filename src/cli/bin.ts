// The command's entry (dist/cli.cjs): turns on Node's compile cache (Node 22.1 and later; NODE_COMPILE_CACHE moves it,
// NODE_DISABLE_COMPILE_CACHE=1 turns it off) before the command's bundle is loaded, so that a later run reads the
// compiled code back instead of compiling the bundle again, a good part of a short run's time. The bundle itself is
// dist/command.cjs (esbuild.mjs): a bundle cannot cache its own compilation, which happens before any of it runs.
import { enableCompileCache } from 'node:module';

(enableCompileCache as typeof enableCompileCache | undefined)?.();
void import('./main.ts');
