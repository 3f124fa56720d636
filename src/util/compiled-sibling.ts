/**
 * Child processes and threads (driver workers, the request thread, reference-service workers)
 * run compiled JavaScript, also when the module that starts them runs from `src/` under
 * vitest: this maps a module's URL to a sibling file under `dist/`. In the bundle the entry
 * lies flat beside the chunk that starts it (scripts/build.js), so the same rule finds it
 * there. Needed for correctness, not speed (docs/benchmarks.md, "Start-up machinery").
 */

import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The path of `fileName` beside the compiled form of the module at `moduleUrl`. */
export function compiledSibling(moduleUrl: string, fileName: string): string {
  const here = fileURLToPath(moduleUrl);
  const dir = dirname(here);
  const compiledDir = here.endsWith('.ts') ? dir.replace(/\/src(\/|$)/, '/dist$1') : dir;
  return join(compiledDir, basename(fileName));
}
