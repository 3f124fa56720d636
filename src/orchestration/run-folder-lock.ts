/**
 * A report folder belongs to one run at a time (docs/design.md §2.9, §5.1). Two runs given
 * the same `--out` would replace each other's report.json and interleave one
 * histograms.hlog; the second is refused (exit 2) before its target starts. The claim is a
 * lock file created with O_EXCL ('wx') holding the owner's PID and host; a lock whose
 * process has died on this host (SIGKILL, a second Ctrl-C) is stale and taken over.
 */
import { link, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../util/errors.js';
import { NotRegularFile, readHead, withRegularFile } from '../util/regular-file.js';
import { cannotWriteLine } from '../util/system-error.js';

/** The lock's name inside the report folder; it exists only while a run writes there. */
export const RUN_LOCK_FILE = '.coachbench-run.lock';

/** A lock without a readable owner this old is one whose writer died between creating and writing it. */
const UNWRITTEN_LOCK_GRACE_MS = 10_000;
/** The most of a lock file read: its owner is three short lines. */
const LOCK_MAX_BYTES = 4 * 1024;
/** Takeovers tried before giving up: each attempt loses only to another run that claimed the folder. */
const ATTEMPTS = 3;

export interface RunFolderLock {
  /** The lock file's path. */
  readonly path: string;
  /** Removes the lock if it is still this process's. Never throws. */
  release(): Promise<void>;
}

interface Owner {
  pid: number;
  host: string;
}

function ownerOf(text: string): Owner | null {
  const [pid, host] = text.split('\n');
  return pid !== undefined && /^\d+$/.test(pid) && host !== undefined ? { pid: Number(pid), host } : null;
}

/**
 * The lock's owner, or null when it holds none or cannot be read. Read non-blocking and at most
 * LOCK_MAX_BYTES, so that a FIFO in its place (which would block the read past any signal) or
 * a link to a device (which never ends) is refused at once with NotRegularFile; so is a
 * directory, which no run writes either and which a takeover could not move aside.
 */
async function readOwner(path: string): Promise<Owner | null> {
  try {
    const head = await withRegularFile(path, (handle) => readHead(handle, LOCK_MAX_BYTES));
    return ownerOf(head.toString('utf8'));
  } catch (error) {
    if (error instanceof NotRegularFile) throw error;
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw new NotRegularFile('a directory');
    return null;
  }
}

/** Whether `pid` is a live process here; EPERM means it lives under another user. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Why the lock at `path` still holds, or null when it is stale. */
async function liveHolder(path: string): Promise<string | null> {
  const owner = await readOwner(path);
  if (owner === null) {
    const age = await stat(path).then(
      (stats) => Date.now() - stats.mtimeMs,
      () => Number.POSITIVE_INFINITY,
    );
    return age < UNWRITTEN_LOCK_GRACE_MS ? 'a run that is starting' : null;
  }
  if (owner.host !== hostname()) return `a run on host ${owner.host} (PID ${owner.pid})`;
  return isAlive(owner.pid) ? `another coachbench run (PID ${owner.pid})` : null;
}

/**
 * Moves a stale lock aside and deletes it. If another run replaced it in the meantime, the
 * lock moved aside is that run's live one: it is put back (link fails if yet another exists).
 */
async function takeOver(path: string): Promise<void> {
  const stale = await readOwner(path).catch(() => null);
  const aside = `${path}.${process.pid}.stale`;
  try {
    await rename(path, aside);
  } catch {
    return;
  }
  const moved = await readOwner(aside).catch(() => null);
  if (moved !== null && (stale === null || moved.pid !== stale.pid || moved.host !== stale.host)) await link(aside, path).catch(() => undefined);
  await rm(aside, { force: true });
}

/** Claims `dir` (already prepared by prepareOutputDir) for this run, or throws one ConfigError line naming `flag`. */
export async function lockRunFolder(dir: string, flag = '--out'): Promise<RunFolderLock> {
  const path = join(dir, RUN_LOCK_FILE);
  const content = `${process.pid}\n${hostname()}\n${new Date().toISOString()}\n`;
  for (let attempt = 1; ; attempt++) {
    try {
      await writeFile(path, content, { flag: 'wx', mode: 0o644 });
      return { path, release: () => release(path) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new ConfigError(cannotWriteLine(flag, dir, error, `cannot create ${RUN_LOCK_FILE}`));
    }
    const holder = await liveHolder(path).catch((error: unknown) => {
      if (!(error instanceof NotRegularFile)) throw error;
      throw new ConfigError(`${flag} ${dir}: ${RUN_LOCK_FILE} is ${error.message}, which no run wrote; delete ${path}`);
    });
    if (holder !== null || attempt === ATTEMPTS) {
      throw new ConfigError(`${flag} ${dir}: in use by ${holder ?? 'another run'}; give another --out, or delete ${path} if no run is using the folder`);
    }
    await takeOver(path);
  }
}

async function release(path: string): Promise<void> {
  const owner = await readOwner(path).catch(() => null);
  if (owner?.pid === process.pid && owner.host === hostname()) await rm(path, { force: true }).catch(() => undefined);
}
