/**
 * Runs `coachbench run --target` (bin/coachbench.js, built dist/) against a hostile server
 * and gathers what the hostile suite asserts: exit code, wall time, the report, and the
 * driver process's peak RSS (VmHWM from /proc, read while it runs).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CheckResult, Report } from '../../src/contract/report.js';
import { runBin } from './bin-helpers.js';
import { behaviours } from './hostile-servers.js';
import { readRunReport } from './run-report.js';

const API_KEY = 'k-hostile-suite';

/** Run length of every hostile run, and the grace a run may take beyond it to stop and write its report. */
export const DURATION_MS = 3_000;
export const GRACE_MS = 10_000;
/** Peak RSS a hostile run may add to the same run against a healthy server. */
export const RSS_HEADROOM_BYTES = 64 * 1024 * 1024;

/**
 * Three participants with two sessions each: six streams, enough to see every failure
 * several times in 3 s without loading a shared 2-core machine. Reopens back off from
 * 100 ms to 500 ms, so a server that kills every stream is hit a few dozen times, not thousands.
 */
export function hostileProfile(overrides: { chatStreams?: Record<string, unknown>; [key: string]: unknown } = {}): Record<string, unknown> {
  const { chatStreams, ...rest } = overrides;
  return {
    name: 'hostile',
    duration: `${DURATION_MS}ms`,
    keepAliveTolerance: '40%',
    chatStreams: {
      participants: 3,
      rampPerSec: 100,
      switchEvery: '0s',
      messageRatePerSec: 0,
      churnRatePerSec: 0,
      reopenBase: '100ms',
      reopenMax: '500ms',
      ...chatStreams,
    },
    photoUpload: { enabled: false },
    tagLink: { enabled: false },
    // Held to a loaded CI machine; a driver that buffered a hostile frame would still blow it.
    generator: { maxEventLoopDelayP99: '250ms' },
    ...rest,
  };
}

/** The same streams, plus photo uploads and tag links at a few requests a second, for servers hostile to every request. */
export function hostileRequestProfile(): Record<string, unknown> {
  return hostileProfile({
    photoUpload: { enabled: true, ratePerSec: 4, imageSizes: ['16KiB'], formats: ['jpeg'] },
    tagLink: { enabled: true, ratePerSec: 4 },
  });
}

export interface HostileRun {
  code: number | null;
  stderr: string;
  elapsedMs: number;
  /** Peak resident set of the driver process (VmHWM), bytes. */
  peakRssBytes: number;
  /** report.json, or null when the run wrote none (exit 3). */
  report: Report | null;
}

/** VmHWM: the kernel's own high-water mark of the process's resident set, so no sample can miss a peak. */
async function readPeakRss(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kib = /^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kib === undefined ? null : Number(kib) * 1024;
  } catch {
    return null;
  }
}

/** Runs the profile against `targetUrl` through bin/coachbench.js with a fixtures file written here. */
export async function runAgainst(targetUrl: string, profile: Record<string, unknown>): Promise<HostileRun> {
  const dir = await mkdtemp(join(tmpdir(), 'coachbench-hostile-'));
  const profilePath = join(dir, 'profile.json');
  const fixturesPath = join(dir, 'fixtures.json');
  const out = join(dir, 'report');
  await writeFile(profilePath, JSON.stringify(profile));
  const participants = [1, 2, 3].map((n) => ({ userId: `p-${n}`, token: `t-hostile-${n}`, chatSessionIds: [`cs-${n}-1`, `cs-${n}-2`] }));
  await writeFile(fixturesPath, JSON.stringify({ coachToken: 'coach-hostile', participants }));
  const args = ['run', '--profile', profilePath, '--target', targetUrl, '--fixtures', fixturesPath, '--expect-keepalive', '500ms', '--out', out, '--quiet'];
  let peakRssBytes = 0;
  let poll: NodeJS.Timeout | undefined;
  const { code, stderr, elapsedMs } = await runBin(args, {
    env: { COACHBENCH_API_KEY: API_KEY },
    onSpawn: (pid) => {
      poll = setInterval(() => {
        void readPeakRss(pid).then((rss) => {
          if (rss !== null) peakRssBytes = Math.max(peakRssBytes, rss);
        });
      }, 50);
    },
  });
  clearInterval(poll);
  const report = await readRunReport(out).catch(() => null);
  // Without /proc (not Linux), the run's own once-a-second RSS samples stand in.
  if (peakRssBytes === 0 && report) peakRssBytes = report.generator.peakRssBytes;
  return { code, stderr, elapsedMs, peakRssBytes, report };
}

/** Check ids by status, for readable assertions. */
export function checkIds(report: Report, status: CheckResult['status']): string[] {
  return report.checks.filter((c) => c.status === status).map((c) => c.id);
}

/** Passing checks whose verdict rests on no observation: a pass must have observed > 0. */
export function passesWithoutEvidence(report: Report): string[] {
  return report.checks
    .filter((c) => c.status === 'pass' && !(typeof c.observed === 'number' && c.observed > 0))
    .map((c) => `${c.id} (observed ${String(c.observed)})`);
}

/** Peak RSS of `profile` run against a healthy server: the "normal" a hostile run is held to. */
export async function normalPeakRss(profile: Record<string, unknown>): Promise<number> {
  const healthy = await behaviours.healthy();
  try {
    const run = await runAgainst(healthy.url, profile);
    expect(run.peakRssBytes, run.stderr).toBeGreaterThan(0);
    return run.peakRssBytes;
  } finally {
    await healthy.close();
  }
}

/**
 * What every hostile run must show: it ends on time, exits 1, fails exactly the checks the
 * misbehaviour breaks (never generator.healthy: a hostile target must not saturate the
 * load generator), passes nothing without evidence, and peaks near normal memory.
 */
export function expectContained(run: HostileRun, failing: string[], normalPeakRssBytes: number, either: string[] = []): void {
  expect(run.elapsedMs, run.stderr).toBeLessThan(DURATION_MS + GRACE_MS);
  expect(run.code, run.stderr).toBe(1);
  const report = run.report!;
  expect(report.verdict).toBe('fail');
  // `either`: checks whose evidence sits at their bound against this target, judged with evidence either way.
  const failed = checkIds(report, 'fail').filter((id) => !either.includes(id));
  expect(failed.sort(), JSON.stringify(report.checks, null, 1)).toEqual([...failing].sort());
  for (const id of either) expect(report.checks.find((check) => check.id === id)?.status, id).not.toBe('skip');
  expect(passesWithoutEvidence(report)).toEqual([]);
  expect(run.peakRssBytes).toBeLessThan(normalPeakRssBytes + RSS_HEADROOM_BYTES);
}
