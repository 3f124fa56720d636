/**
 * The report folder becomes unwritable during a run (through bin/, a real folder lock):
 * the run still ends cleanly with the verdict's exit code, the verdict and checks go to
 * stdout, and report.json goes to the fallback folder with a warning line saying where.
 *
 * As root (this team's machine) the folder is locked with `chattr +i`: the kernel then
 * refuses every new entry with EPERM, to root too, while files already open in it (the
 * histogram log) stay writable. `chmod 0o500` would change nothing for root. As any other
 * user, chmod 0o500 is the lock and the error is EACCES.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateReport } from '../../src/contract/validate-report.js';
import { once, runBin, runIsUnderWay } from '../support/bin-helpers.js';
import { folderLock } from '../support/failing-filesystems.js';
import { profileFile, quickProfile } from '../support/profiles.js';
import { readRunReport } from '../support/run-report.js';

const lock = folderLock();
let work: string;
const locked: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'coachbench-locked-'));
});
afterAll(async () => {
  for (const dir of locked) lock.unlock(dir);
  await rm(work, { recursive: true, force: true });
});

// The lock is applied when the parent reads the first progress line; on a loaded CI machine
// that read can come seconds late, so the runs last long enough that it still lands mid-run
// (a 3 s run once ended, report written, before the parent locked its folder).
const RUN = '7s';

describe(`the report folder becomes unwritable mid-run (${lock.how})`, () => {
  it('prints the verdict, writes the report to the fallback folder, and keeps the verdict exit code', async () => {
    const tmp = await mkdtemp(join(work, 'tmp-'));
    const out = join(work, 'out');
    await mkdir(out);
    const result = await runBin(['run', '--profile', await profileFile(work, 'quick', quickProfile({ duration: RUN })), '--out', out], {
      env: { TMPDIR: tmp },
      onStderr: once(runIsUnderWay, () => {
        lock.lock(out);
        locked.push(out);
      }),
    });
    expect(locked, 'the folder was locked while the run went on').toEqual([out]);
    expect(result.killed).toBe(false);
    expect(result.stderr).not.toMatch(/\n\s+at |internal error|Unhandled/);

    const [fallbackName] = await readdir(tmp);
    expect(fallbackName, result.stderr).toMatch(/^coachbench-test-quick-\d{8}T\d{6}Z$/);
    const fallback = join(tmp, fallbackName!);
    const report = await readRunReport(fallback);
    expect(validateReport(report)).toEqual({ valid: true, errors: [] });

    expect(result.code, result.stderr).toBe(report.verdict === 'pass' ? 0 : 1);
    const warning = result.stderr.split('\n').filter((line) => /warning: could not write the report folder/.test(line));
    expect(warning, result.stderr).toHaveLength(1);
    expect(warning[0]).toContain(out);
    expect(warning[0]).toContain(lock.code);
    expect(warning[0]).toContain(`the report is in ${fallback}`);
    expect(report.warnings.some((line) => line.includes(lock.code) && line.includes(fallback))).toBe(true);
    // The verdict and every check reach stdout, whatever the disk did.
    expect(result.stdout).toMatch(new RegExp(`^${report.verdict.toUpperCase()}: run ${report.runId}`));
    for (const check of report.checks) expect(result.stdout).toContain(check.id);

    // Nothing new appeared in the locked folder; the log, open before the lock, kept growing.
    // The run's claim on the folder (docs/design.md §5.1) was made before the lock too, and an
    // immutable folder keeps it: the next run takes over a lock whose process is gone.
    expect(await readdir(out)).toEqual(['.coachbench-run.lock', 'histograms.hlog']);
    expect((await stat(join(out, 'histograms.hlog'))).size).toBeGreaterThan(1_000);
    expect(existsSync(join(fallback, 'report.html'))).toBe(true);
  }, 60_000);

  it('when the fallback folder cannot be written either: the verdict on stdout, and never exit 0', async () => {
    const out = join(work, 'out-and-no-tmp');
    await mkdir(out);
    const result = await runBin(['run', '--profile', await profileFile(work, 'quick', quickProfile({ duration: RUN })), '--out', out], {
      // A temp folder under /proc cannot be created: the fallback fails too.
      env: { TMPDIR: '/proc/coachbench-no-tmp' },
      onStderr: once(runIsUnderWay, () => {
        lock.lock(out);
        locked.push(out);
      }),
    });
    expect(locked, 'the folder was locked while the run went on').toContain(out);
    expect(result.killed).toBe(false);
    expect(result.stderr).not.toMatch(/\n\s+at |internal error|Unhandled/);
    expect(result.code, 'a run whose report is written nowhere does not pass').toBe(1);
    const warning = result.stderr.split('\n').filter((line) => line.includes('warning: could not write the report folder'));
    expect(warning, result.stderr).toHaveLength(1);
    expect(warning[0]).toContain('nor the fallback folder /proc/coachbench-no-tmp/coachbench-test-quick-');
    expect(warning[0]).toContain('no report was written');
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/^report: .*report\.json$/m);
    expect(result.stderr).toMatch(/^report: none was written/m);
    expect(result.stdout).toMatch(/^(PASS|FAIL|INCOMPLETE)\b.*: run test-quick-/);
    expect(result.stdout).toContain('stream.open');
  }, 60_000);
});
