/**
 * Helpers for run-pipeline tests: write a small profile to a temp folder and run it
 * in-process against the embedded target (or a given --target).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckResult, Report } from '../../src/contract/report.js';
import { executeRun } from '../../src/orchestration/execute-run.js';
import { type RunFlags, resolveRunConfig } from '../../src/orchestration/run-config.js';

/**
 * A short, small chat-stream profile with a 500 ms KEEP_ALIVE so cadence gets samples fast.
 * The 40% tolerance (200 ms) absorbs a loaded 2-core CI machine, yet the keepalive-drift
 * fault (gaps of 1.5 × the interval, +250 ms) still falls outside it.
 */
export function quickProfile(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'test-quick',
    duration: '3500ms',
    keepAliveTolerance: '40%',
    target: { keepAlive: '500ms', participants: 30, sessionsPerParticipant: 2 },
    chatStreams: { participants: 24, rampPerSec: 200, switchEvery: '1500ms', messageRatePerSec: 30, churnRatePerSec: 6 },
    generator: { maxEventLoopDelayP99: '100ms' },
    ...overrides,
  };
}

export async function writeProfile(profile: Record<string, unknown>): Promise<{ path: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'coachbench-test-'));
  const path = join(dir, 'profile.json');
  await writeFile(path, JSON.stringify(profile));
  return { path, dir };
}

/** Runs a profile in-process; the report folder must have been written where it was asked. */
export async function runProfile(profile: Record<string, unknown>, flags: RunFlags = {}): Promise<{ report: Report; exitCode: number; outDir: string }> {
  const { path, dir } = await writeProfile(profile);
  const config = await resolveRunConfig({ profile: path, out: join(dir, 'report'), quiet: true, ...flags }, {});
  const outcome = await executeRun(config);
  if (outcome.outDir === null) throw new Error('the run wrote no report');
  return { ...outcome, outDir: outcome.outDir };
}

export function statusOf(report: Report): Record<string, CheckResult['status']> {
  return Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
}

/** Checks and thresholds that did not pass, one line each, for readable assertion failures. */
export function failures(report: Report): string[] {
  const checks = report.checks.filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.detail}`);
  const thresholds = report.thresholds.filter((t) => t.status === 'fail').map((t) => `${t.expression} (observed ${t.observed})`);
  return [...checks, ...thresholds];
}
