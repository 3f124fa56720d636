/**
 * A full disk never loses a run (through bin/, real filesystems, nothing mocked): ENOSPC on
 * the histogram log, or the disk filling mid-run or at report time, ends the run cleanly; the
 * verdict and the checks table go to stdout, report.json goes to the fallback folder
 * (os.tmpdir()/coachbench-<runId>/) with one warning line saying where, and the exit code is
 * the verdict's. Each child gets its own TMPDIR, so its fallback folder is found and removed.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { validateReport } from '../../src/contract/validate-report.js';
import { type BinResult, once, runBin, runIsUnderWay } from '../support/bin-helpers.js';
import { mountSmallDisk, type SmallDisk } from '../support/failing-filesystems.js';
import { profileFile, quickProfile } from '../support/profiles.js';
import { readRunReport } from '../support/run-report.js';

let work: string;
let disk: SmallDisk | null;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'coachbench-diskfull-'));
  disk = await mountSmallDisk(4 * 1024 * 1024);
});
afterAll(async () => {
  await disk?.unmount();
  await rm(work, { recursive: true, force: true });
});

/**
 * An 8 s run whose photo and tag scenarios add histogram lines to every interval. A tmpfs
 * counts whole pages, so the log's last page absorbs ~4 KiB after the disk is full: at about
 * 1 KiB per interval, the log fails 3-5 s after the fill.
 */
function busyProfile(): Promise<string> {
  return profileFile(
    work,
    'busy',
    quickProfile({
      duration: '8s',
      photoUpload: { enabled: true, ratePerSec: 5 },
      tagLink: { enabled: true, ratePerSec: 5 },
    }),
  );
}

async function fallbackReport(tmp: string): Promise<{ dir: string; report: Report }> {
  const [name, ...others] = (await readdir(tmp)).filter((entry) => entry.startsWith('coachbench-'));
  expect(others, 'one fallback folder').toEqual([]);
  expect(name, `a coachbench-<runId> folder in ${tmp}`).toBeDefined();
  const dir = join(tmp, name!);
  const report = await readRunReport(dir);
  expect(validateReport(report)).toEqual({ valid: true, errors: [] });
  return { dir, report };
}

const verdictExit = (report: Report): number => (report.verdict === 'pass' ? 0 : 1);

/** What every lost-folder run must show: no crash, the verdict and checks on stdout. */
function expectCleanEnd(result: BinResult, report: Report): void {
  expect(result.killed, 'the run ended by itself').toBe(false);
  expect(result.stderr).not.toMatch(/\n\s+at |internal error|Unhandled/);
  expect(result.code, result.stderr).toBe(verdictExit(report));
  expect(result.stdout).toContain(report.verdict.toUpperCase());
  for (const check of report.checks) expect(result.stdout).toContain(check.id);
}

async function noTempFilesIn(dir: string): Promise<void> {
  expect((await readdir(dir)).filter((name) => name.includes('.tmp'))).toEqual([]);
}

describe('the histogram log cannot be written (ENOSPC from its first line)', () => {
  it('logs the lost histograms once, keeps running, and writes the report folder', async () => {
    const tmp = await mkdtemp(join(work, 'tmp-'));
    const out = join(work, 'dev-full');
    await mkdir(out);
    // /dev/full fails every write with ENOSPC; the log stream opens it through the link.
    await symlink('/dev/full', join(out, 'histograms.hlog'));
    const result = await runBin(['run', '--profile', await profileFile(work, 'quick', quickProfile({ duration: '3s' })), '--out', out], {
      env: { TMPDIR: tmp },
    });
    const report = await readRunReport(out);
    expect(result.killed, 'the run ended by itself').toBe(false);
    expect(result.stderr).not.toMatch(/\n\s+at |internal error|Unhandled/);
    expect(result.code, result.stderr).toBe(verdictExit(report));
    expect(result.stderr.split('\n').filter((line) => /warning: histograms\.hlog.*ENOSPC/.test(line))).toHaveLength(1);
    expect(report.warnings.join('\n')).toMatch(/histograms\.hlog.*ENOSPC/);
    expect(report.timeseries.length, 'every interval is still in the report').toBeGreaterThanOrEqual(3);
    expect(await readdir(tmp), 'no fallback needed').toEqual([]);
  }, 60_000);
});

describe('a FIFO where the histogram log goes', () => {
  it('does not hold the run: the log fails at once (ENXIO) and the run ends with its report', async () => {
    const out = join(work, 'fifo');
    await mkdir(out);
    execFileSync('mkfifo', [join(out, 'histograms.hlog')]);
    const result = await runBin(['run', '--profile', await profileFile(work, 'quick', quickProfile({ duration: '2s' })), '--out', out, '--quiet'], {
      deadlineMs: 30_000,
    });
    expect(result.killed, 'the run ended by itself').toBe(false);
    const report = await readRunReport(out);
    expect(result.code, result.stderr).toBe(verdictExit(report));
    expect(report.warnings.join('\n')).toMatch(/histograms\.hlog.*ENXIO/);
  }, 60_000);
});

// A tmpfs needs root and mount (this team's machine; the container CI). Elsewhere the
// /dev/full test above and the unwritable-folder tests cover the same code paths.
describe.runIf(process.getuid?.() === 0)('the disk fills up during a run', () => {
  it('keeps running, logs the lost histograms, and writes the report to the fallback folder', async () => {
    if (disk === null) throw new Error('root, but a tmpfs could not be mounted: mount -t tmpfs failed');
    await disk.clear();
    const tmp = await mkdtemp(join(work, 'tmp-'));
    const out = join(disk.dir, 'mid-run');
    const result = await runBin(['run', '--profile', await busyProfile(), '--out', out], {
      env: { TMPDIR: tmp },
      onStderr: once(runIsUnderWay, () => void disk!.fill()),
    });
    const { dir, report } = await fallbackReport(tmp);
    expectCleanEnd(result, report);
    const warningLines = result.stderr.split('\n').filter((line) => line.includes('warning') && line.includes(dir));
    expect(warningLines, result.stderr).toHaveLength(1);
    expect(warningLines[0]).toMatch(/could not write the report folder/);
    expect(warningLines[0]).toContain(out);
    expect(warningLines[0]).toContain('ENOSPC');
    expect(report.warnings.join('\n')).toMatch(/histograms\.hlog.*ENOSPC/);
    expect(report.warnings.join('\n')).toMatch(/could not write the report folder/);
    expect((await readdir(dir)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    await noTempFilesIn(out);
    // The closing lines point at the copy that exists.
    expect(result.stderr).toContain(join(dir, 'report.json'));
  }, 60_000);

  it('never leaves a cut file: views that do not fit go to the fallback folder whole', async () => {
    if (disk === null) throw new Error('root, but a tmpfs could not be mounted: mount -t tmpfs failed');
    await disk.clear();
    const tmp = await mkdtemp(join(work, 'tmp-'));
    const profile = await profileFile(work, 'quick', quickProfile({ duration: '3s' }));
    const out = join(disk.dir, 'at-report');
    await mkdir(out);
    // Room for the histogram log and report.json (~15 KiB), not for report.html (~50 KiB).
    await disk.fill(40 * 1024);
    const result = await runBin(['run', '--profile', profile, '--out', out, '--quiet'], { env: { TMPDIR: tmp } });
    const { dir, report } = await fallbackReport(tmp);
    expectCleanEnd(result, report);
    expect(result.stderr).toMatch(/could not write the report folder.*ENOSPC/);
    await noTempFilesIn(out);
    // Whatever is in the folder is whole: report.json parses, no view is a cut-off prefix.
    for (const name of await readdir(out)) {
      if (name === 'report.json') expect(validateReport(JSON.parse(await readFile(join(out, name), 'utf8'))).valid).toBe(true);
      if (name === 'report.html') expect(await readFile(join(out, name), 'utf8')).toMatch(/<\/html>\s*$/);
    }
    expect((await stat(join(dir, 'report.html'))).size).toBeGreaterThan(20_000);
    expect(await readFile(join(dir, 'report.html'), 'utf8')).toMatch(/<\/html>\s*$/);
  }, 60_000);
});
