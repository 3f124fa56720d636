/**
 * Child processes (driver workers, reference-service workers) run compiled JavaScript, also
 * when the module that forks them runs from `src/` under vitest: this maps a module's URL
 * to a sibling file under `dist/`.
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
