/**
 * A report folder belongs to one run (docs/design.md §2.9, §5.1). Before, two runs given the
 * same --out both exited 0 and printed the same report path: the first report was replaced
 * and histograms.hlog interleaved both runs. Now the second is exit 2 before its target
 * starts; a lock left by a process that died is taken over.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockRunFolder, RUN_LOCK_FILE } from '../../src/orchestration/run-folder-lock.js';
import { ConfigError } from '../../src/util/errors.js';
import { runBin } from '../support/bin-helpers.js';
import { profileFile, quickProfile } from '../support/profiles.js';
import { readRunReport } from '../support/run-report.js';

let work = '';
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'coachbench-run-lock-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

async function folder(name: string): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

async function refusal(dir: string): Promise<string> {
  const error = await lockRunFolder(dir).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).message;
}

/** A PID that has just ended (its process waited for), so nothing holds it for now. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  if (pid === undefined) throw new Error('no child');
  return pid;
}

describe('lockRunFolder', () => {
  it('refuses a folder this live process holds, until it is released', async () => {
    const dir = await folder('held');
    const lock = await lockRunFolder(dir);
    expect(await readFile(join(dir, RUN_LOCK_FILE), 'utf8')).toMatch(new RegExp(`^${process.pid}\\n${hostname()}\\n`));
    expect(await refusal(dir)).toBe(
      `--out ${dir}: in use by another coachbench run (PID ${process.pid}); give another --out, or delete ${join(dir, RUN_LOCK_FILE)} if no run is using the folder`,
    );
    await lock.release();
    expect(existsSync(join(dir, RUN_LOCK_FILE))).toBe(false);
    await (await lockRunFolder(dir)).release();
  });

  it('takes over the lock of a process that died, and then releases only its own', async () => {
    const dir = await folder('stale');
    await writeFile(join(dir, RUN_LOCK_FILE), `${deadPid()}\n${hostname()}\n2026-01-01T00:00:00.000Z\n`);
    const lock = await lockRunFolder(dir);
    expect(await readFile(lock.path, 'utf8')).toMatch(new RegExp(`^${process.pid}\\n`));
    await lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });

  it('refuses a lock from another host, whose process it cannot see', async () => {
    const dir = await folder('other-host');
    await writeFile(join(dir, RUN_LOCK_FILE), `${deadPid()}\nsome-other-host\n`);
    expect(await refusal(dir)).toMatch(/: in use by a run on host some-other-host \(PID \d+\); give another --out/);
  });

  it('waits out a lock still being written, and takes over one left unwritten', async () => {
    const dir = await folder('unwritten');
    const path = join(dir, RUN_LOCK_FILE);
    await writeFile(path, '');
    expect(await refusal(dir)).toMatch(/: in use by a run that is starting;/);
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(path, minuteAgo, minuteAgo);
    await (await lockRunFolder(dir)).release();
  });
});

describe('a lock that is no regular file', () => {
  // A FIFO nobody writes to blocked the lock's read past any signal (the run hung, SIGTERM
  // included); a link to /dev/zero was read until the process held 2 GiB of it.
  it('a FIFO or a link to a device in its place is exit 2 at once, read no further, left where it is', async () => {
    const fifo = await folder('fifo');
    execFileSync('mkfifo', [join(fifo, RUN_LOCK_FILE)]);
    expect(await refusal(fifo)).toBe(
      `--out ${fifo}: ${RUN_LOCK_FILE} is not a regular file but a FIFO, which no run wrote; delete ${join(fifo, RUN_LOCK_FILE)}`,
    );
    const device = await folder('device');
    await symlink('/dev/zero', join(device, RUN_LOCK_FILE));
    expect(await refusal(device)).toMatch(/: \.coachbench-run\.lock is not a regular file but a character device, which no run wrote; delete /);
    expect(existsSync(join(fifo, RUN_LOCK_FILE)) && existsSync(join(device, RUN_LOCK_FILE))).toBe(true);
  });

  // A directory would not be moved aside by a takeover; it is refused like a FIFO, not taken as a lock being written.
  it('a directory in its place is exit 2 at once, left where it is', async () => {
    const dir = await folder('directory');
    await mkdir(join(dir, RUN_LOCK_FILE));
    expect(await refusal(dir)).toBe(
      `--out ${dir}: ${RUN_LOCK_FILE} is not a regular file but a directory, which no run wrote; delete ${join(dir, RUN_LOCK_FILE)}`,
    );
    expect(existsSync(join(dir, RUN_LOCK_FILE))).toBe(true);
  });

  it('through bin/: exit 2 with one line before the target starts, not a run no signal stops', async () => {
    const out = await folder('fifo-run');
    execFileSync('mkfifo', [join(out, RUN_LOCK_FILE)]);
    const profile = await profileFile(work, 'fifo-lock', quickProfile());
    const result = await runBin(['run', '--profile', profile, '--out', out], { deadlineMs: 15_000 });
    expect(result.killed, result.stderr).toBe(false);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trim()).toBe(
      `coachbench: --out ${out}: ${RUN_LOCK_FILE} is not a regular file but a FIFO, which no run wrote; delete ${join(out, RUN_LOCK_FILE)}`,
    );
  }, 30_000);
});

describe('two runs at once with the same --out', () => {
  it('one runs and writes its report; the other is exit 2 before its target starts; no lock is left', async () => {
    // A loaded machine may fail generator.healthy: the verdict is not what this test is about.
    const profile = await profileFile(work, 'two-at-once', quickProfile({ duration: '3s', generator: { maxEventLoopDelayP99: '2s' } }));
    const out = join(work, 'shared-out');
    const [first, second] = await Promise.all([
      runBin(['run', '--profile', profile, '--out', out], { deadlineMs: 45_000 }),
      runBin(['run', '--profile', profile, '--out', out], { deadlineMs: 45_000 }),
    ]);
    const [winner, loser] = first.code === 2 ? [second, first] : [first, second];
    const both = `${first.stderr}\n---\n${second.stderr}`;
    expect(loser.code, both).toBe(2);
    expect([0, 1], both).toContain(winner.code);
    expect(loser.stderr.trim()).toMatch(
      new RegExp(`^coachbench: --out ${out}: in use by (another coachbench run \\(PID \\d+\\)|a run that is starting); give another --out`),
    );
    expect(loser.stderr).not.toContain('embedded target');
    const report = await readRunReport(out);
    expect(report.interrupted).toBe(false);
    expect(winner.stderr).toContain(`report: ${join(out, 'report.json')}`);
    expect(loser.stderr).not.toContain('report:');
    expect(existsSync(join(out, RUN_LOCK_FILE))).toBe(false);
    // The folder is free again once the run is done: a later run may reuse it (and replaces the report).
    const again = await runBin(['run', '--profile', profile, '--out', out], { deadlineMs: 45_000 });
    expect([0, 1], again.stderr).toContain(again.code);
    expect(again.stderr).toContain(`report: ${join(out, 'report.json')}`);
  }, 120_000);
});
