/**
 * The report folder is checked before any load: kernel filesystems, files, paths through a
 * file, and folders that cannot be created or written are refused with one line naming the
 * path and why (exit 2). Real paths on this machine; the /proc case used to spin forever.
 */
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareOutputDir } from '../../src/orchestration/output-dir.js';
import { ConfigError } from '../../src/util/errors.js';
import { runBin } from '../support/bin-helpers.js';
import { folderLock } from '../support/failing-filesystems.js';
import { profileFile, quickProfile } from '../support/profiles.js';

const lock = folderLock();
let work: string;
let lockedDir: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'coachbench-outdir-'));
  await writeFile(join(work, 'a-file'), 'not a folder');
  await symlink('/proc', join(work, 'link-to-proc'));
  await symlink('/dev/null', join(work, 'link-to-null'));
  lockedDir = join(work, 'locked');
  await mkdir(lockedDir);
  lock.lock(lockedDir);
});
afterAll(async () => {
  lock.unlock(lockedDir);
  await rm(work, { recursive: true, force: true });
});

describe('prepareOutputDir refuses', () => {
  it.each([
    ['/proc/coachbench-x', /: \/proc is a kernel filesystem, not a place for a report folder$/],
    ['/proc', /kernel filesystem/],
    ['/sys/coachbench-x', /: \/sys is a kernel filesystem/],
    ['/dev/coachbench-x', /: \/dev is a kernel filesystem/],
    ['/dev/null', /: \/dev is a kernel filesystem/],
    ['/dev/shm/coachbench-x', /: \/dev is a kernel filesystem/],
    ['<work>/link-to-proc/x', /it leads to \/proc\/x, and \/proc is a kernel filesystem/],
    ['<work>/link-to-null', /it leads to \/dev\/null, and \/dev is a kernel filesystem/],
    ['<work>/a-file', /exists and is not a folder/],
    ['<work>/a-file/sub', /a-file is a file, so no folder can be made inside it/],
    ['<work>/a-file/sub/deeper', /a-file is a file, so no folder can be made inside it/],
    ['<work>/locked/new', new RegExp(`the folder cannot be created: ${lock.code}`)],
    ['<work>/locked', new RegExp(`the folder is not writable: ${lock.code}`)],
  ])('%s', async (template, why) => {
    const path = template.replace('<work>', work);
    const error = await prepareOutputDir(path).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message.startsWith(`--out ${path}: `), message).toBe(true);
    expect(message).toMatch(why);
    expect(message).not.toContain('\n');
  });
});

describe('prepareOutputDir accepts', () => {
  it('creates a missing folder and its parents, and leaves nothing else in it', async () => {
    const path = join(work, 'new', 'nested', 'run');
    await prepareOutputDir(path);
    expect(await readdir(path)).toEqual([]);
  });

  it('takes an existing folder as it is', async () => {
    const path = join(work, 'existing');
    await mkdir(path);
    await writeFile(join(path, 'keep.txt'), 'x');
    await prepareOutputDir(path);
    expect(await readdir(path)).toEqual(['keep.txt']);
  });
});

describe('coachbench run --out (through bin/)', () => {
  it.each([
    ['/proc/coachbench-x'],
    ['/dev/null'],
    ['<work>/a-file'],
    ['<work>/a-file/sub'],
    ['<work>/locked/new'],
  ])('exits 2 at once for %s, before any load', async (template) => {
    const path = template.replace('<work>', work);
    const result = await runBin(['run', '--profile', await profileFile(work, 'quick', quickProfile({ duration: '30s' })), '--out', path], {
      deadlineMs: 20_000,
    });
    expect(result.killed, 'no hang').toBe(false);
    expect(result.code, result.stderr).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines, 'one line, no progress, no stack').toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^coachbench: --out ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: `));
    expect(result.elapsedMs).toBeLessThan(10_000);
  }, 30_000);
});
