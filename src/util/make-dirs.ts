/**
 * `mkdir -p` that cannot spin. Node's `mkdir(path, { recursive: true })` loops forever on a
 * path under /proc (the kernel answers ENOENT for a parent that exists), which is how
 * `--out /proc/x` once hung a run at 85 % CPU. Here each missing folder is created once,
 * from the deepest existing ancestor down, so the work is bounded by the path's depth.
 */
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** Error for an ancestor that exists but is not a folder, shaped like the kernel's ENOTDIR. */
function notADirectory(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: 'ENOTDIR', path });
}

/** Creates `path` and its missing parents; resolves once `path` is a folder. */
export async function makeDirs(path: string): Promise<void> {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    try {
      if (!(await stat(current)).isDirectory()) throw notADirectory(current);
      break;
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw error;
      missing.push(current);
      const parent = dirname(current);
      if (parent === current) break;
      current = parent;
    }
  }
  for (const dir of missing.reverse()) {
    try {
      await mkdir(dir);
    } catch (error) {
      // Another process may create the same folder in between; that is what we wanted.
      if (codeOf(error) !== 'EEXIST' || !(await stat(dir)).isDirectory()) throw error;
    }
  }
}
