/**
 * Real filesystems that fail, for the "never lose a run" tests; no fs call is mocked.
 *
 * - A small tmpfs mounted for the test (needs root and `mount`: true on this team's test
 *   machine and in the container CI). Filling it gives real ENOSPC.
 * - Without it, /dev/full: every write to it fails with ENOSPC.
 * - A folder made unwritable mid-run: as root, `chattr +i` (EPERM: root ignores mode bits,
 *   so chmod would change nothing); as any other user, chmod 0o500 (EACCES).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, readdir, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const isRoot = (): boolean => process.getuid?.() === 0;

function tryRun(command: string, args: readonly string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface SmallDisk {
  /** The mount point. */
  dir: string;
  /** Bytes still free on the disk. */
  free(): Promise<number>;
  /** Writes a filler file until only `leaveBytes` (rounded down to pages) are free. */
  fill(leaveBytes?: number): Promise<void>;
  /** Removes everything on the disk, so the next test starts with it empty. */
  clear(): Promise<void>;
  unmount(): Promise<void>;
}

/** Mounts a tmpfs of `sizeBytes` in a fresh temp folder; null when this machine cannot. */
export async function mountSmallDisk(sizeBytes: number): Promise<SmallDisk | null> {
  if (!isRoot()) return null;
  const dir = await mkdtemp(join(tmpdir(), 'coachbench-disk-'));
  if (!tryRun('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0755`, 'tmpfs', dir])) {
    await rm(dir, { recursive: true, force: true });
    return null;
  }
  const free = async (): Promise<number> => {
    const stats = await statfs(dir);
    return stats.bavail * stats.bsize;
  };
  let fillers = 0;
  return {
    dir,
    free,
    async fill(leaveBytes = 0) {
      const file = await open(join(dir, `filler-${fillers++}`), 'w');
      const chunk = Buffer.alloc(4_096, 0x2e);
      try {
        while ((await free()) > leaveBytes) await file.write(chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        await file.close();
      }
    },
    async clear() {
      for (const name of await readdir(dir)) await rm(join(dir, name), { recursive: true, force: true });
    },
    async unmount() {
      tryRun('umount', ['-l', dir]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface FolderLock {
  /** How the folder is made unwritable, for assertion messages. */
  how: 'chattr +i' | 'chmod 0o500';
  /** The error code writers then get. */
  code: 'EPERM' | 'EACCES';
  lock(dir: string): void;
  unlock(dir: string): void;
}

/** The way this machine can make a folder unwritable while a run holds files open in it. */
export function folderLock(): FolderLock {
  if (!isRoot()) {
    return {
      how: 'chmod 0o500',
      code: 'EACCES',
      lock: (dir) => execFileSync('chmod', ['0500', dir]),
      unlock: (dir) => execFileSync('chmod', ['0755', dir]),
    };
  }
  return {
    how: 'chattr +i',
    code: 'EPERM',
    lock: (dir) => execFileSync('chattr', ['+i', dir]),
    unlock: (dir) => execFileSync('chattr', ['-i', dir]),
  };
}
