/**
 * Checks the report folder before any load starts (docs/design.md §2, §5): a run that cannot
 * keep its report must not run at all. Creates the folder and proves it writable; anything
 * else is one ConfigError line naming the path and why (exit 2). A run then claims the
 * folder for itself with run-folder-lock.ts.
 */
import { realpath, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../report/write-report.js';
import { ConfigError } from '../util/errors.js';
import { makeDirs } from '../util/make-dirs.js';
import { cannotWriteLine } from '../util/system-error.js';

/** Kernel filesystems: files there are processes, devices and settings, never reports. */
const KERNEL_ROOTS = ['/proc', '/sys', '/dev'] as const;

/** The path with its existing part's symbolic links resolved, so a link into /proc is seen as /proc. */
async function realPathOf(absolute: string): Promise<string> {
  const tail: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return join(await realpath(current), ...tail.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return absolute;
      tail.push(basename(current));
      current = parent;
    }
  }
}

/** The nearest ancestor of `absolute` that exists but is not a folder, if any. */
async function fileAncestor(absolute: string): Promise<string | null> {
  for (let current = dirname(absolute); ; current = dirname(current)) {
    const stats = await stat(current).catch(() => null);
    if (stats !== null) return stats.isDirectory() ? null : current;
    if (dirname(current) === current) return null;
  }
}

/**
 * Makes sure `path` is a folder this process can write reports into, creating it if needed.
 * `flag` names where the path came from, for the message (`--out`).
 */
export async function prepareOutputDir(path: string, flag = '--out'): Promise<void> {
  const refuse = (why: string): ConfigError => new ConfigError(`${flag} ${path}: ${why}`);
  const absolute = resolve(path);
  const real = await realPathOf(absolute);
  const kernelRoot = KERNEL_ROOTS.find((root) => real === root || real.startsWith(`${root}/`));
  if (kernelRoot) {
    const via = real === absolute ? '' : `it leads to ${real}, and `;
    throw refuse(`${via}${kernelRoot} is a kernel filesystem, not a place for a report folder`);
  }
  const existing = await stat(absolute).catch(() => null);
  if (existing !== null && !existing.isDirectory()) throw refuse('exists and is not a folder');
  if (existing === null) {
    const file = await fileAncestor(absolute);
    if (file !== null) throw refuse(`${file} is a file, so no folder can be made inside it`);
    await makeDirs(absolute).catch((error: unknown) => {
      throw new ConfigError(cannotWriteLine(flag, path, error, 'the folder cannot be created'));
    });
  }
  // Mode bits do not tell: root ignores them, and a read-only or immutable folder ignores root.
  const probe = join(absolute, '.coachbench-write-probe');
  try {
    await writeFileAtomic(probe, '');
    await rm(probe, { force: true });
  } catch (error) {
    throw new ConfigError(cannotWriteLine(flag, path, error, 'the folder is not writable'));
  }
}
